#!/bin/bash
# issue 3 device run: build + make check (tools/device-check.sh), timings,
# then the four compute-sanitizer tools over tests/t_ops_cuda, each inside
# a time budget so the whole call ends before the 600 s limit.
#   bash .scratch/run.sh [budget_seconds]
set -u
src=$PWD
budget=${1:-540}
end=$(( $(date +%s) + budget ))
left() { echo $(( end - $(date +%s) )); }
# generated autotools files must look newer than their sources (no automake there)
touch aclocal.m4; touch configure config.h.in; find . -name Makefile.in -exec touch {} +
mkdir -p "$OUT/dc" "$OUT/san"
echo "start $(date -u +%Y-%m-%dT%H:%M:%SZ)" > "$OUT/summary.txt"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv >> "$OUT/summary.txt" 2>&1
OUT=$OUT/dc bash tools/device-check.sh env build check
build=$src/_build
export GPUK_BACKEND_PATH=$build/backends/cpu/.libs:$build/backends/cuda/.libs
cp "$build/tests/t_ops_cuda.log" "$OUT/t_ops_cuda.log" 2>/dev/null
grep -cE "^ok" "$OUT/t_ops_cuda.log" >> "$OUT/summary.txt" 2>&1
grep -E "^not ok" "$OUT/t_ops_cuda.log" | head -40 >> "$OUT/summary.txt"
grep -E "^# " "$build/test-suite.log" | head >> "$OUT/summary.txt" 2>&1
( cd "$build" && GPUK_TEST_BACKEND=cuda timeout 60 ./libtool --mode=execute tests/t_empty ) > "$OUT/t_empty_cuda.log" 2>&1
echo "t_empty on cuda: rc=$? $(grep -cE '^ok' "$OUT/t_empty_cuda.log") ok, $(grep -cE '^not ok' "$OUT/t_empty_cuda.log") not ok" >> "$OUT/summary.txt"
grep -E "^not ok" "$OUT/t_empty_cuda.log" | head -20 >> "$OUT/summary.txt"

if [ "${SKIP_TIMING:-0}" != 1 ]; then
  gcc -O2 -I"$src/include" -I/usr/local/cuda/include .scratch/timing.c -o "$build/timing" \
      -L"$build/src/.libs" -lgpuk -Wl,-rpath,"$build/src/.libs" \
      -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,/usr/local/cuda/lib64 &&
  { echo "date $(date -u +%Y-%m-%dT%H:%M:%SZ)"; nvidia-smi -L;
    timeout $(( $(left) - 200 )) "$build/timing"; echo "timing rc=$?"; } > "$OUT/timing.txt" 2>&1
fi

cd "$build"
for tool in memcheck racecheck synccheck initcheck; do
  t=$(( $(left) - 10 ))
  [ "$t" -gt 20 ] || { echo "$tool: no time left" >> "$OUT/summary.txt"; continue; }
  case $tool in memcheck|racecheck) [ "$t" -gt 150 ] && t=150;; *) [ "$t" -gt 90 ] && t=90;; esac
  t0=$(date +%s)
  GPUK_TEST_QUICK=1 timeout "$t" ./libtool --mode=execute compute-sanitizer --tool "$tool" \
    --error-exitcode 99 tests/t_ops_cuda > "$OUT/san/$tool.log" 2>&1
  r=$?
  echo "$tool: rc=$r in $(( $(date +%s) - t0 ))s (limit $t); $(grep -cE '^ok' "$OUT/san/$tool.log") ok, $(grep -cE '^not ok' "$OUT/san/$tool.log") not ok; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san/$tool.log" | tail -1)" >> "$OUT/summary.txt"
done
cd "$OUT" && tar czf san.tar.gz san && rm -rf san
echo "end $(date -u +%Y-%m-%dT%H:%M:%SZ)" >> "$OUT/summary.txt"
cat "$OUT/summary.txt" "$OUT/dc/summary.txt"
tail -40 "$OUT/timing.txt" 2>/dev/null

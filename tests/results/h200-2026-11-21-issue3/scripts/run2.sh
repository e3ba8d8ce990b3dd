#!/bin/bash
# issue 3 device run 2: the FULL tests/t_ops_cuda (not GPUK_TEST_QUICK) under
# memcheck, racecheck, synccheck and initcheck; t_empty on cuda under
# memcheck; the out-of-memory / device-ordinal check; gpuk-info; timings again.
set -u
src=$PWD
end=$(( $(date +%s) + ${1:-500} ))
left() { echo $(( end - $(date +%s) )); }
touch aclocal.m4; touch configure config.h.in; find . -name Makefile.in -exec touch {} +
mkdir -p "$OUT/dc" "$OUT/san"
S=$OUT/summary.txt
echo "start $(date -u +%Y-%m-%dT%H:%M:%SZ)" > "$S"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader >> "$S" 2>&1
OUT=$OUT/dc bash tools/device-check.sh env build > /dev/null
build=$src/_build
export GPUK_BACKEND_PATH=$build/backends/cpu/.libs:$build/backends/cuda/.libs
cd "$build" && make -j16 check TESTS= > /dev/null 2>&1   # build the test programs only
"$build/tools/gpuk-info" > "$OUT/san/gpuk-info.txt" 2>&1
gcc -O2 -I"$src/include" "$src/.scratch/faults.c" -o faults -Lsrc/.libs -lgpuk -Wl,-rpath,"$build/src/.libs" -lm &&
  ./faults > "$OUT/san/faults.txt" 2>&1; echo "faults: rc=$? $(tail -1 "$OUT/san/faults.txt")" >> "$S"
grep "^not ok" "$OUT/san/faults.txt" >> "$S"
for tool in memcheck racecheck synccheck initcheck; do
  t=$(( $(left) - 60 )); [ "$t" -gt 150 ] && t=150
  [ "$t" -gt 20 ] || { echo "$tool: no time left" >> "$S"; continue; }
  t0=$(date +%s)
  timeout "$t" ./libtool --mode=execute compute-sanitizer --tool "$tool" --error-exitcode 99 \
    tests/t_ops_cuda > "$OUT/san/full-$tool.log" 2>&1
  r=$?
  echo "full t_ops_cuda $tool: rc=$r in $(( $(date +%s) - t0 ))s (limit $t); $(grep -cE '^ok' "$OUT/san/full-$tool.log") ok, $(grep -cE '^not ok' "$OUT/san/full-$tool.log") not ok, $(grep -E '^1\.\.' "$OUT/san/full-$tool.log"); $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san/full-$tool.log" | tail -1)" >> "$S"
done
GPUK_TEST_BACKEND=cuda timeout 60 ./libtool --mode=execute compute-sanitizer --tool memcheck \
  --error-exitcode 99 tests/t_empty > "$OUT/san/t_empty-memcheck.log" 2>&1
echo "t_empty (cuda) memcheck: rc=$? $(grep -cE '^ok' "$OUT/san/t_empty-memcheck.log") ok, $(grep -cE '^not ok' "$OUT/san/t_empty-memcheck.log") not ok; $(grep 'ERROR SUMMARY' "$OUT/san/t_empty-memcheck.log")" >> "$S"
gcc -O2 -I"$src/include" -I/usr/local/cuda/include "$src/.scratch/timing.c" -o timing \
    -Lsrc/.libs -lgpuk -Wl,-rpath,"$build/src/.libs" -L/usr/local/cuda/lib64 -lcudart -Wl,-rpath,/usr/local/cuda/lib64 &&
  { echo "date $(date -u +%Y-%m-%dT%H:%M:%SZ)"; nvidia-smi -L; timeout $(( $(left) > 30 ? $(left) - 10 : 20 )) ./timing; echo "timing rc=$?"; } > "$OUT/timing2.txt" 2>&1
cd "$OUT" && tar czf san2.tar.gz san && rm -rf san dc
echo "end $(date -u +%Y-%m-%dT%H:%M:%SZ)" >> "$S"
cat "$S"; cat "$OUT/timing2.txt"

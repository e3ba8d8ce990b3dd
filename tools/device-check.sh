#!/bin/bash
# device-check.sh - the one script run on the GPU machine: build, test,
# sanitize and benchmark in one call, logs under $OUT.
#
#   tools/device-check.sh [STEP...]     default: env build check sanitize bench
#
# STEPs: env       nvidia-smi, nvcc, CPU
#        build     configure --with-cuda in _build/ and make (no autotools needed:
#                  carry configure, Makefile.in, aclocal.m4, build-aux, m4, config.h.in;
#                  $CONFIGURE_ARGS is passed on, e.g. CPPFLAGS=-I.../include for a
#                  carried dlpack/dlpack.h, which the GPU machine lacks)
#        check     make check (the CUDA tests must run, not skip)
#        sanitize  compute-sanitizer memcheck, racecheck, synccheck, initcheck
#                  over tests/t_ops_cuda (GPUK_TEST_QUICK=1: fewer shapes) and
#                  tests/t_interop_cuda (wrap, DLPack, the staging pool)
#        bench     bench/run-all.sh: the full benchmark into bench/results/
#                  ($BENCH_ARGS is passed on to gpuk-bench)
#        textclf   the text classifier on cpu and cuda, and against PyTorch
#        compare   the CUDA rows of gpuk-bench from this tree and from the tree in
#                  $BASE_SRC (a carried, bootstrapped source tree of an earlier
#                  commit), built side by side and run alternately twice in this one
#                  call; bench/compare.py names any rung slower beyond the noise
#                  ($COMPARE_ARGS is passed on to gpuk-bench, e.g. --max-seconds 2)
#
# Results: $OUT/summary.txt (one line per step) and $OUT/logs.tar.gz (every
# log and result file), because only a few files come back from the machine.
set -u
OUT=${OUT:-$PWD/_device_out}
src=$(cd "$(dirname "$0")/.." && pwd)
build=$src/_build
logs=$OUT/logs
mkdir -p "$logs"
summary=$OUT/summary.txt
: > "$summary"
steps=${*:-env build check sanitize bench}
jobs=$(nproc)
export GPUK_BACKEND_PATH=$build/backends/cpu/.libs:$build/backends/cuda/.libs

note() { echo "$*" | tee -a "$summary"; }
run_step() {   # name, command...: log to $logs/name.log, record status and time
  local name=$1; shift
  local t0=$(date +%s)
  ( set -o pipefail; "$@" ) > "$logs/$name.log" 2>&1
  local rc=$?
  note "$(printf '%-22s rc=%-3s %4ss  log %s.log' "$name" "$rc" "$(( $(date +%s) - t0 ))" "$name")"
  tail -n 5 "$logs/$name.log" | sed 's/^/    /' >> "$summary"
  return $rc
}

do_env() {
  nvidia-smi; nvcc --version; lscpu | head -20; uname -a; date -u
}
do_build() {
  mkdir -p "$build" && cd "$build" &&
  { [ -f config.status ] || "$src/configure" --with-cuda --disable-maintainer-mode \
      ${CONFIGURE_ARGS:-}; } &&
  make -j"$jobs"
}
do_check() {
  cd "$build" && make -j"$jobs" check; local rc=$?
  cp tests/*.log "$logs/" 2>/dev/null
  grep -h "SKIP" tests/t_ops_cuda.log 2>/dev/null | head -5
  return $rc
}
do_sanitize() {
  cd "$build" || return 1
  local rc=0 prog
  for prog in t_ops_cuda t_interop_cuda; do
    for tool in memcheck racecheck synccheck initcheck; do
      # racecheck: cuSPARSE's own csrmv kernel reports a shared-memory hazard
      # even when called alone, outside libgpuk, with correct results
      # (bench/results/h200-2026-11-21-issue3.md); only our kernels are judged
      local extra=
      [ "$tool" = racecheck ] && extra="--kernel-name-exclude kns=cusparse"
      GPUK_TEST_QUICK=${GPUK_TEST_QUICK-1} timeout 900 ./libtool --mode=execute compute-sanitizer \
        --tool "$tool" $extra --error-exitcode 99 tests/$prog > "$logs/sanitizer-$prog-$tool.log" 2>&1
      local r=$?
      echo "$prog $tool: rc=$r; $(grep -cE '^ok' "$logs/sanitizer-$prog-$tool.log") ok," \
        "$(grep -cE '^not ok' "$logs/sanitizer-$prog-$tool.log") not ok;" \
        "$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$logs/sanitizer-$prog-$tool.log" | tail -1)"
      [ $r -eq 0 ] || rc=$r
    done
  done
  return $rc
}
do_bench() {   # BENCH_ARGS: extra gpuk-bench options, e.g. "--max-seconds 3"
  bash "$src/bench/run-all.sh" "$build" ${BENCH_ARGS:-}
  local rc=$?
  cp -r "$src/bench/results" "$logs/bench-results"
  return $rc
}
do_textclf() {   # both backends agree, and PyTorch agrees, on a generated model
  cd "$build" || return 1
  local t=examples/textclf/textclf d=$logs/textclf
  mkdir -p "$d"
  $t --generate --model "$d/m.gktm" --input "$d/i.gktb" --seed 2 &&
  GPUK_BACKEND=cpu $t --model "$d/m.gktm" --input "$d/i.gktb" --repeat 5 &&
  GPUK_BACKEND=cuda $t --model "$d/m.gktm" --input "$d/i.gktb" --repeat 20 &&
  $t --compare --model "$d/m.gktm" --input "$d/i.gktb" &&
  python3 "$src/examples/textclf/torch_compare.py" --model "$d/m.gktm" --input "$d/i.gktb" \
    --textclf "$t" --repeat 20 --markdown "$d/textclf-torch.md"
  local rc=$?
  rm -f "$d/m.gktm" "$d/i.gktb"
  return $rc
}

do_compare() {
  [ -n "${BASE_SRC:-}" ] && [ -x "$BASE_SRC/configure" ] ||
    { echo "compare: BASE_SRC must name a bootstrapped source tree"; return 2; }
  local base=$src/_build_base r t
  mkdir -p "$base" && cd "$base" &&
  { [ -f config.status ] || "$BASE_SRC/configure" --with-cuda --disable-maintainer-mode -q; } &&
  make -j"$jobs" -s > "$logs/compare-build-base.log" 2>&1 || return 1
  for r in 1 2; do
    for t in base new; do
      local b=$build
      [ $t = base ] && b=$base
      GPUK_BACKEND_PATH=$b/backends/cpu/.libs:$b/backends/cuda/.libs \
        "$b/bench/gpuk-bench" -b cuda -q -f csv ${COMPARE_ARGS:-} -o "$logs/compare-$t-$r.csv" ||
        echo "compare: gpuk-bench of $t round $r failed"
    done
  done
  python3 "$src/bench/compare.py" --base "$logs"/compare-base-*.csv --new "$logs"/compare-new-*.csv \
    --markdown "$logs/compare.md" ${COMPARE_RENAME:-}
}

note "device-check: steps: $steps  ($(date -u +%Y-%m-%dT%H:%MZ))"
for s in $steps; do
  case $s in
    env|build|check|sanitize|bench|textclf|compare) run_step "$s" "do_$s" || [ "$s" != build ] || break ;;
    *) note "unknown step $s" ;;
  esac
done
tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$logs"
cat "$summary"

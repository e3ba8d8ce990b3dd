#!/bin/bash
# device-run.sh - issue 8's one command on the GPU machine: build, the op
# suite on the GPU, gpuk-perf (aligned-path checks, reduce along axis 0,
# SpMV on two matrices, per-op overhead), gpuk-bench rows of the new rungs
# next to cuBLAS / copy, compute-sanitizer over the suite, a few ncu
# counters.  Logs go to $OUT (summary.txt, and logs.tar.gz with the rest).
#
#   bench/perf/device-run.sh [STEP...]
#   STEPs: build suite perf bench sanitize ncu   (default: all, in this order)
#
# Needs a tree with configure and Makefile.in (run ./bootstrap where the
# autotools are, and carry configure Makefile.in aclocal.m4 build-aux m4
# config.h.in).  Builds in _build/ (kept between calls on a warm machine).
set -u
OUT=${OUT:-$PWD/_device_out}
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$src/_build
logs=$OUT/logs
mkdir -p "$logs"
sum=$OUT/summary.txt
t0=$(date +%s)
note() { echo "[$(( $(date +%s) - t0 ))s] $*" | tee -a "$sum"; }
steps=${*:-build suite perf bench sanitize ncu}
export GPUK_BACKEND_PATH=$build/backends/cpu/.libs:$build/backends/cuda/.libs

do_build() {
  { nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.sm \
      --format=csv; nvcc --version | tail -2; date -u; } > "$logs/env.txt" 2>&1
  note "$(sed -n 2p "$logs/env.txt")"
  mkdir -p "$build" && cd "$build" || return 1
  [ -f config.status ] || "$src/configure" --with-cuda --disable-maintainer-mode \
    > "$logs/configure.txt" 2>&1 || { note "configure failed"; return 1; }
  make -j"$(nproc)" > "$logs/build.txt" 2>&1 && make -j"$(nproc)" tests/t_ops_cuda \
    >> "$logs/build.txt" 2>&1 || { note "build failed"; tail -30 "$logs/build.txt"; return 1; }
  nvcc -O2 -std=c++17 -arch=sm_90 -I "$src/include" "$src/bench/perf/gpuk-perf.cu" \
    -L src/.libs -lgpuk -o gpuk-perf >> "$logs/build.txt" 2>&1 || { note "gpuk-perf build failed"; return 1; }
  note "build ok"
}

do_suite() {
  cd "$build" || return 1
  timeout 300 tests/t_ops_cuda > "$logs/t_ops_cuda.txt" 2>&1
  local rc=$?
  note "t_ops_cuda rc=$rc: $(grep -c '^ok' "$logs/t_ops_cuda.txt") ok, $(grep -c '^not ok' "$logs/t_ops_cuda.txt") not ok, $(grep -ci 'skip' "$logs/t_ops_cuda.txt") skip"
  grep '^not ok' "$logs/t_ops_cuda.txt" | head -15 | cut -c1-300 | tee -a "$sum"
}

do_perf() {
  cd "$build" || return 1
  LD_LIBRARY_PATH=src/.libs timeout 240 ./gpuk-perf > "$logs/perf.txt" 2>&1
  note "gpuk-perf rc=$?"
  grep -v '^check.*: ok' "$logs/perf.txt" | tee -a "$sum"
}

bench() {   # name, gpuk-bench options...
  local name=$1; shift
  timeout 150 bench/gpuk-bench --backend cuda -q --save "$logs/bench-$name" "$@" \
    > "$logs/bench-$name.txt" 2>&1
  note "bench $name rc=$?"
  awk -F, 'NR > 1 { printf "  %-10s %-13s %5sx%5sx%5s %9.4f ms %8.1f GF %7.1f GB/s %5.1f%% %s\n", $2, $3, $4, $5, $6, $7, $10, $11, $12, $23 }' \
    "$logs/bench-$name.csv" | tee -a "$sum"
}

do_bench() {
  cd "$build" || return 1
  bench mm4096 --op matmul --size 4096 \
    --variant blocktile_1d,blocktile_2d,vec4,warptile,warptile_db,warptile_at,warptile_wide,cublas
  bench mmbig --op matmul --size 1024,2048,8192,8192x1024x8192 \
    --variant warptile_db,warptile_at,warptile_wide,cublas
  bench minplus --op minplus --size 4096 --variant v3,v4,v5
  bench mem --op transpose,reduce,softmax --size 8192 \
    --variant naive,smem,smem_padded,tile64,smem_tree,warp_shuffle,grid_stride,lanes_inner,block_row,online,one_pass
  bench copy --op copy,add --size 67108864 --variant float4
  bench spmv --op spmv --size 4194304x4194304x16 --variant vector,adaptive,stream,cusparse
}

do_sanitize() {
  cd "$build" || return 1
  for tool in memcheck racecheck synccheck initcheck; do
    local extra=
    [ "$tool" = racecheck ] && extra="--kernel-name-exclude kns=cusparse"
    timeout 240 ./libtool --mode=execute compute-sanitizer --tool $tool $extra \
      --error-exitcode 99 tests/t_ops_cuda > "$logs/san-$tool.txt" 2>&1
    note "$tool rc=$?: $(grep -c '^ok' "$logs/san-$tool.txt") ok, $(grep -c '^not ok' "$logs/san-$tool.txt") not ok; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$logs/san-$tool.txt" | tail -1)"
  done
  LD_LIBRARY_PATH=src/.libs timeout 240 compute-sanitizer --tool memcheck --error-exitcode 99 \
    ./gpuk-perf check > "$logs/san-perf-check.txt" 2>&1
  note "memcheck gpuk-perf check rc=$?: $(grep -E 'ERROR SUMMARY' "$logs/san-perf-check.txt" | tail -1)"
}

do_ncu() {
  cd "$build" || return 1
  local m=sm__cycles_elapsed.avg.per_second,smsp__issue_active.avg.pct_of_peak_sustained_active
  m=$m,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active
  local r
  for r in barrier long_scoreboard short_scoreboard mio_throttle not_selected math_pipe_throttle \
           no_instruction wait dispatch_stall selected; do
    m=$m,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio
  done
  m=$m,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,smsp__inst_executed.sum
  m=$m,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum
  timeout 200 ncu --clock-control none -k regex:'matmul_warptile_db|gemm|minplus_v5|transpose_tile|spmv|csrmv' \
    --metrics $m --csv bench/gpuk-bench --backend cuda -q --op matmul,minplus,transpose --size 4096 \
    --variant warptile_at,warptile_wide,cublas,v5,tile64,smem_padded -r 1 -w 0 --no-check \
    > "$logs/ncu.txt" 2>&1
  timeout 120 ncu --clock-control none -k regex:'stream_|csrmv|spmv' --metrics $m,lts__t_sectors.sum,lts__t_bytes.sum.per_second \
    --csv bench/gpuk-bench --backend cuda -q --op spmv --size 4194304x4194304x16 \
    --variant stream,cusparse -r 1 -w 0 --no-check >> "$logs/ncu.txt" 2>&1
  note "ncu rc=$?"
  grep -E '^"[0-9]' "$logs/ncu.txt" | awk -F'","' '{ k=$5; sub(/\(.*/, "", k); print "  " substr(k, 1, 50) " | " $(NF-2) " = " $NF }' \
    | sed 's/"$//; s/smsp__average_warps_issue_stalled_/stall_/; s/_per_issue_active.ratio//' | tee -a "$sum" | head -200
}

note "device-run: $steps ($(date -u +%Y-%m-%dT%H:%MZ))"
for s in $steps; do
  "do_$s" || [ "$s" != build ] || break
done
tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$logs"
echo "---- summary"
cat "$sum"

#!/bin/bash
# issue 3 device run 3: the racecheck hazard inside cuSPARSE's csrmv_v3_kernel.
# Replays the seed that showed it, reruns racecheck with cuSPARSE's kernels
# excluded (our kernels alone), and checks cuSPARSE alone on small matrices
# per SpMV algorithm, with the 4M x 16 timing of each algorithm.
set -u
src=$PWD
touch aclocal.m4; touch configure config.h.in; find . -name Makefile.in -exec touch {} +
mkdir -p "$OUT/r3"
S=$OUT/summary3.txt
echo "start $(date -u +%Y-%m-%dT%H:%M:%SZ)" > "$S"
OUT=$OUT/dc bash tools/device-check.sh build > /dev/null
build=$src/_build
export GPUK_BACKEND_PATH=$build/backends/cpu/.libs:$build/backends/cuda/.libs
cd "$build" && make -j16 check TESTS= > /dev/null 2>&1
compute-sanitizer --version | tail -1 >> "$S"
compute-sanitizer --help 2>&1 | grep -i -A3 "kernel-name" > "$OUT/r3/help.txt"
rc() { grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$1" | tail -1; }
for i in 1 2; do
  GPUK_TEST_SEED=1760213871119197 timeout 100 ./libtool --mode=execute compute-sanitizer --tool racecheck \
    tests/t_ops_cuda > "$OUT/r3/replay$i.log" 2>&1
  echo "replay seed 1760213871119197 #$i: $(grep -cE '^ok' "$OUT/r3/replay$i.log") ok; $(rc "$OUT/r3/replay$i.log"); kernels: $(grep -oE 'at void [a-z_:]+' "$OUT/r3/replay$i.log" | sort -u | tr '\n' ' ')" >> "$S"
done
timeout 100 ./libtool --mode=execute compute-sanitizer --tool racecheck --kernel-name-exclude kns=cusparse \
  tests/t_ops_cuda > "$OUT/r3/exclude.log" 2>&1
echo "racecheck without cusparse kernels (new seed): rc=$? $(grep -cE '^ok' "$OUT/r3/exclude.log") ok; $(rc "$OUT/r3/exclude.log")" >> "$S"
head -3 "$OUT/r3/exclude.log" >> "$S"
nvcc -O2 -arch=sm_90 "$src/.scratch/spmv_alg.cu" -o spmv_alg -lcusparse &&
for a in 0 1 2; do
  timeout 60 compute-sanitizer --tool racecheck ./spmv_alg small $a > "$OUT/r3/small$a.log" 2>&1
  echo "cusparse alone, 40 small matrices, alg $a: $(grep small "$OUT/r3/small$a.log"); $(rc "$OUT/r3/small$a.log")" >> "$S"
done
./spmv_alg big >> "$S" 2>&1
echo "end $(date -u +%Y-%m-%dT%H:%M:%SZ)" >> "$S"
cd "$OUT" && tar czf r3.tar.gz r3 && rm -rf r3 dc
cat "$S"

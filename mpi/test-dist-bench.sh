#!/bin/sh
# test-dist-bench.sh - TAP test of gpuk-dist-bench and its combiner: small
# runs on 1 and 2 ranks each print their header and one row per op, with
# the columns the combiner reads; the combined table has the efficiency
# against the 1-rank row (and the plot, where gnuplot is); --dtype i32
# and f64 give rows of their dtype, never compared with f32's (f64 is
# skipped, with the reason, on a backend without f64 rungs); --op apsp
# gives its row, with its breakdown (serial = without look-ahead); --local
# fills the last column; bad options fail with a message; the combined
# table has the speed-up, with two significant digits under 0.01.
#
# Run by make check (MPIEXEC from configure, or mpiexec in PATH); by hand,
# from the top of the build tree: sh ../mpi/test-dist-bench.sh

builddir=${GPUK_TEST_BUILDDIR:-.}
srcdir=$(cd "$(dirname "$0")/.." && pwd)
bench=$builddir/mpi/gpuk-dist-bench
combine=$srcdir/mpi/gpuk-dist-bench-combine.sh

. "${GPUK_TEST_SRCDIR:-$srcdir/tests}/tap-lib.sh"

if [ ! -x "$bench" ]; then
    echo "1..0 # SKIP $bench was not built"
    exit 0
fi
. "$srcdir/mpi/launcher.sh"
if [ $have_launcher = no ]; then
    echo "1..0 # SKIP no MPI launcher ($launcher): set MPIEXEC"
    exit 0
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dist-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' 0
trap 'exit 1' 1 2 15

for np in 1 2; do
    $launcher $flags -n $np "$bench" -n 96 --block 16 --reps 1 --threads 1 --baseline --local \
        > "$tmp/r$np.txt" 2> "$tmp/e$np.txt"
    ok $? "$np rank(s): gpuk-dist-bench runs"
    diag "$tmp/r$np.txt" "$tmp/e$np.txt"
    rows=$(grep -vc '^#' "$tmp/r$np.txt")
    fields=$(grep -v '^#' "$tmp/r$np.txt" | awk '{ print NF }' | sort -u | tr '\n' ' ')
    [ "$rows" = 2 ] && [ "$fields" = "22 " ]
    ok $? "$np rank(s): one row per op, 22 columns each (rows $rows, fields $fields)"
    awk -v np=$np '!/^#/ && ($4 != np || $10 <= 0 || $19 == "-" || $20 != "f32" || $21 == "-" ||
        $22 <= 0) { bad = 1 } END { exit bad }' "$tmp/r$np.txt"
    ok $? "$np rank(s): ranks column, a positive rate, the one-context comparison, dtype, rung, local_ms"

    # i32: min-plus only (no backend has an i32 gemm: a comment line says so)
    $launcher $flags -n $np "$bench" -n 96 --block 16 --reps 1 --threads 1 --baseline \
        --dtype i32 > "$tmp/i$np.txt" 2> "$tmp/ei$np.txt"
    ok $? "$np rank(s): gpuk-dist-bench --dtype i32 runs"
    diag "$tmp/i$np.txt" "$tmp/ei$np.txt"
    rows=$(grep -v '^#' "$tmp/i$np.txt" | awk '$1 == "minplus" && $20 == "i32" && $10 > 0' | wc -l)
    [ "$rows" -eq 1 ] && grep -q '^# matmul n=96: left out: no i32 rung' "$tmp/i$np.txt"
    ok $? "$np rank(s): --dtype i32: an i32 min-plus row, matmul left out with the reason"
done

# f64: rows of its own where the backend has f64 rungs; otherwise the
# library's refusal names the dtype, and the check is skipped, not passed
$launcher $flags -n 2 "$bench" -n 96 --block 16 --reps 1 --threads 1 --op minplus \
    --dtype f64 > "$tmp/f64.txt" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q "the matrices are f64, but gpuk_minplus on this rank's backend" \
        "$tmp/f64.txt"; then
    echo "ok $((n = n + 1)) # SKIP f64 min-plus: $(grep -o "backend ([a-z]*) computes in [^:]*" "$tmp/f64.txt" | head -1)"
else
    [ $rc -eq 0 ] && [ "$(grep -v '^#' "$tmp/f64.txt" | awk '$20 == "f64"' | wc -l)" -eq 1 ]
    ok $? "2 ranks: gpuk-dist-bench --op minplus --dtype f64 gives an f64 row"
    diag "$tmp/f64.txt"
fi

sh "$combine" "$tmp/r1.txt" "$tmp/r2.txt" > "$tmp/table" 2>&1
ok $? "the combiner reads both runs"
diag "$tmp/table"
awk '!/^#/ && $3 == 1 && $15 != "100.0" { bad = 1 } !/^#/ && $15 == "-" { bad = 1 }
     END { exit bad }' "$tmp/table"
ok $? "every combined row has an efficiency, 100.0% on one rank"

# repeated runs: the reference is the median of the 1-rank rows, and each
# configuration run more than once gets a "# median" line
sh "$combine" "$tmp/r1.txt" "$tmp/r1.txt" "$tmp/r2.txt" "$tmp/r2.txt" > "$tmp/table2" 2>&1
ok $? "the combiner reads repeated runs"
diag "$tmp/table2"
medians=$(grep -c '^# median of 2: ' "$tmp/table2")
one=$(grep '^# median of 2: [a-z]* 96 1 ' "$tmp/table2" | grep -vc 'eff 100.0%$')
[ "$medians" = 4 ] && [ "$one" = 0 ]
ok $? "a median line for each repeated configuration, 100.0% on one rank ($medians lines)"

if command -v gnuplot > /dev/null 2>&1; then
    sh "$combine" --plot "$tmp/scaling.png" "$tmp"/r*.txt > /dev/null 2>&1 && [ -s "$tmp/scaling.png" ]
    ok $? "the combiner draws the scaling plot"
else
    echo "ok $((n = n + 1)) # SKIP gnuplot is not installed"
fi

# apsp: one row with its breakdown, against gpuk_apsp in one context
for np in 1 2; do
    $launcher $flags -n $np "$bench" -n 64 --block 16 --reps 2 --threads 1 --op apsp \
        --dtype i32 --baseline > "$tmp/apsp$np.txt" 2>&1
    rc=$?
    diag "$tmp/apsp$np.txt"
    [ $rc -eq 0 ] && [ "$(grep -v '^#' "$tmp/apsp$np.txt" |
                         awk '$1 == "apsp" && $10 > 0 && $14 > 0 && $16 > 0 && $19 != "-" &&
                              $20 == "i32" && $22 == "-"' | wc -l)" -eq 1 ]
    ok $? "$np rank(s): --op apsp --dtype i32 gives one apsp row: its rate, serial and compute times, vs_one"
done
sh "$combine" "$tmp/apsp1.txt" "$tmp/apsp2.txt" > "$tmp/table4" 2>&1
diag "$tmp/table4"
awk '!/^#/ && $3 == 1 && $17 != "1.00" { bad = 1 } !/^#/ && $3 == 2 && !($17 > 0) { bad = 1 }
     !/^#/ { rows++ } END { exit bad || rows != 2 }' "$tmp/table4"
ok $? "the combiner gives apsp's speed-up against one rank (1.00 on one)"

$launcher $flags -n 1 "$bench" --op nonsense > "$tmp/out" 2>&1
[ $? -ne 0 ] && grep -q "matmul, minplus, both or apsp" "$tmp/out"
ok $? "--op nonsense fails with a message"
$launcher $flags -n 1 "$bench" --dtype f16 > "$tmp/out" 2>&1
[ $? -ne 0 ] && grep -q "dtype is f16 (4): a distributed matrix is f32, f64 or i32" "$tmp/out"
ok $? "--dtype f16 fails with a message"

# the combiner keeps dtypes apart: i32 rows take the i32 1-rank row
sh "$combine" "$tmp/r1.txt" "$tmp/i1.txt" "$tmp/r2.txt" "$tmp/i2.txt" > "$tmp/table3" 2>&1
ok $? "the combiner reads f32 and i32 runs together"
diag "$tmp/table3"
awk '!/^#/ && $3 == 1 && $15 != "100.0" { bad = 1 } !/^#/ { seen[$1 " " $16]++ }
     END { if (seen["minplus i32"] != 2 || seen["minplus f32"] != 2) bad = 1; exit bad }' \
    "$tmp/table3"
ok $? "each dtype's 1-rank row is its own 100.0%, two rows of each"

# a speed-up under 0.01 keeps two significant digits (several ranks sharing
# one GPU can be hundreds of times slower than one rank at n = 64): the
# 1-rank apsp row again as a 2-rank one, its rate divided by 320
grep -v '^#' "$tmp/apsp1.txt" | awk '$1 == "apsp" { $4 = 2; $10 = $10 / 320; print }' \
    > "$tmp/slow2.txt"
sh "$combine" "$tmp/apsp1.txt" "$tmp/slow2.txt" > "$tmp/table5" 2>&1
diag "$tmp/table5"
[ "$(awk '!/^#/ && $3 == 2 { print $17 }' "$tmp/table5")" = 0.0031 ]
ok $? "the combiner prints a speed-up of 1/320 as 0.0031, not 0.00"

tap_done

#!/bin/sh
# test-dtypes.sh - TAP test of gpuk-bench in every dtype: --cost gives the
# library's work and traffic (gpuk_op_cost) by the dtype's size, and the
# power-law matrix a run would make; a run in f64 on the cpu backend, where
# it lists f64 rungs, gives f64 rows that pass their checks, each held to
# an f64 ceiling.
#
# Run by make check; by hand, from the top of the build tree:
# GPUK_BACKEND_PATH=backends/cpu/.libs sh ../bench/test-dtypes.sh

builddir=${GPUK_TEST_BUILDDIR:-.}
bench=$builddir/bench/gpuk-bench
. "${GPUK_TEST_SRCDIR:-$(dirname "$0")/../tests}/tap-lib.sh"
if [ ! -x "$bench" ]; then
    echo "1..0 # SKIP $bench was not built"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/test-dtypes.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' 0

# ---- --cost: one line a case, as a report's columns give it
cost=$(printf '%s\n' "matmul f32 4096 4096 4096" "matmul f64 4096 4096 4096" \
    "minplus i32 512 512 512" "embedding f64 1024 256 32768" "spmv f64 1000 1000 16" \
    "spmv f32 4194304 4194304 16 1 powerlaw" "apsp f64 1024 1024 1" | "$bench" --cost)
ok $? "gpuk-bench --cost reads its cases"
field() { # op dtype column: the value of the first row of that op and dtype
    echo "$cost" | awk -F, -v op="$1" -v dt="$2" -v col="$3" '
        NR == 1 { for (i = 1; i <= NF; i++) at[$i] = i; next }
        $1 == op && $2 == dt { print $at[col]; exit }'
}
[ "$(field matmul f32 flops)" = 137438953472 ] && [ "$(field matmul f32 bytes)" = 201326592 ] &&
    [ "$(field matmul f32 class)" = 36 ]
ok $? "matmul 4096^3 in f32: 2 m n k flops, 4 (mk + kn + mn) bytes, class 36"
[ "$(field matmul f64 bytes)" = 402653184 ] && [ "$(field matmul f64 flops)" = 137438953472 ]
ok $? "in f64 the same flops and twice the bytes"
[ "$(field minplus i32 bytes)" = 3145728 ]
ok $? "i32 elements are 4 bytes"
# 1024 ids of 4 bytes, and 1024 rows of 256 doubles gathered and written
[ "$(field embedding f64 bytes)" = $((1024 * 4 + 2 * 1024 * 256 * 8)) ]
ok $? "embedding counts its ids as i32 and the rows it gathers in the table's dtype"
# values of 8 bytes and column indices of 4 for each nonzero, row pointers, x and y
[ "$(field spmv f64 nnz)" = 16000 ] &&
    [ "$(field spmv f64 bytes)" = $((16000 * 12 + 1001 * 4 + 2000 * 8)) ]
ok $? "spmv in f64: 8-byte values, 4-byte indices"
[ "$(echo "$cost" | awk -F, '$7 == "powerlaw" { print $8 }')" = 60781066 ]
ok $? "the power-law matrix of seed 1 on 4194304 rows has the 60781066 nonzeros of a run"
[ "$(field apsp f64 flops)" = 2147483648 ]
ok $? "apsp: n^3 relaxations, an add and a min each"
printf 'no_such_op f32 1 1 1\n' | "$bench" --cost > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && grep -q "line 1" "$tmp/err"
ok $? "a line --cost cannot read is an error naming it"

# ---- a run in f64
# the ops of these the cpu backend has in f64
ops=$("$bench" -b cpu --list --dtype f64 2>/dev/null |
    awk '$2 == "f64" && $1 ~ /^(matmul|minplus|dot|relu)$/ { print $1 }' | sort -u |
    paste -sd, -)
if [ -n "$ops" ]; then
    "$bench" -b cpu -t 2 --quick --dtype f64 --op "$ops" -s 48 \
        --max-seconds 1 -q -f csv -o "$tmp/f64.csv"
    ok $? "gpuk-bench --dtype f64 on the cpu runs and every row passes its check ($ops)"
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) at[$i] = i; next }
             $at["dtype"] != "f64" || $at["status"] != "ok" { bad = 1 }
             END { exit bad || NR < 2 }' "$tmp/f64.csv"
    ok $? "every row is an f64 row that ran"
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) at[$i] = i; next }
             $at["ceiling"] != "" && $at["ceiling"] !~ /_f64$|^copy$|^read$/ { bad = 1 }
             END { exit bad }' "$tmp/f64.csv"
    ok $? "each f64 row is held to an f64 ceiling or to a bandwidth"
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) at[$i] = i; next }
             $at["op"] == "matmul" && $at["variant"] != "auto" {
                 f = $at["gflops"] * $at["ms_median"] * 1e6
                 b = $at["gbps"] * $at["ms_median"] * 1e6
                 if (f < 0.999 * 2 * 48^3 || f > 1.001 * 2 * 48^3) bad = 1
                 if (b < 0.999 * 8 * 3 * 48^2 || b > 1.001 * 8 * 3 * 48^2) bad = 1
                 n++ }
             END { exit bad || (!n && ops ~ /matmul/) }' ops="$ops" "$tmp/f64.csv"
    ok $? "the f64 matmul rows count 2 n^3 flops and 8-byte elements"
else
    skip "gpuk-bench --dtype f64" "the cpu backend lists no f64 rung of matmul, minplus, dot or relu"
fi
tap_done

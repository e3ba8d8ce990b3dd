#!/bin/sh
# test-tune.sh - TAP test of gpuk-tune: a small tuning run on the CPU
# backend writes a wisdom file (header, one entry per op, dtype and shape
# class, the end line with the count and hash), and gpuk-bench's auto row
# then runs the rung it names ("wisdom"); a file with one byte changed, or
# measured with another thread count, is ignored with a line under
# GPUK_VERBOSE=1 and auto falls back to the built-in rules.  Usage errors
# exit 2.
#
# Run by make check; by hand, from the top of the build tree:
# GPUK_BACKEND_PATH=backends/cpu/.libs sh ../bench/test-tune.sh

builddir=${GPUK_TEST_BUILDDIR:-.}
tune=$builddir/bench/gpuk-tune
bench=$builddir/bench/gpuk-bench

. "${GPUK_TEST_SRCDIR:-$(dirname "$0")/../tests}/tap-lib.sh"

if [ ! -x "$tune" ] || [ ! -x "$bench" ]; then
    echo "1..0 # SKIP $tune or $bench was not built"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpuk-tune.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' 0
trap 'exit 1' 1 2 15
# two threads on every machine, so the thread check below has another count
common="-b cpu -t 2 --quick -r 3 -w 1 -q"

# ---------------------------------------------------------------- usage errors
"$tune" > "$tmp/out" 2>&1
ok $(($? != 2)) "no FILE: exit status 2"
grep -q "no FILE" "$tmp/out"; ok $? "no FILE: the message says so"
"$tune" -b cpu > "$tmp/out" 2>&1
ok $(($? != 2)) "an option's value last: exit status 2"
grep -q "value of -b" "$tmp/out"; ok $? "an option's value last: the message names the option"
"$tune" --op minplus --quick > "$tmp/out" 2>&1
ok $(($? != 2)) "an option last: exit status 2"
"$tune" --help > "$tmp/out" 2>&1
ok $? "--help: exit status 0"
grep -q "^Usage: gpuk-tune" "$tmp/out"; ok $? "--help prints the usage"

# ---------------------------------------------------------------- a tuning run
w=$tmp/wisdom
# shellcheck disable=SC2086
"$tune" $common --op minplus,transpose -s 64,128 -o "$tmp/report" "$w" 2> "$tmp/err"
rc=$?
ok $rc "gpuk-tune writes $w (exit status 0)"
[ $rc -eq 0 ] || diag "$tmp/err"
head -1 "$w" 2> /dev/null | grep -qx "gpuk-wisdom 1"; ok $? "the file starts with its magic line"
grep -q "^backend cpu " "$w"; ok $? "it has a section of the cpu backend"
grep -q "^threads 2$" "$w"; ok $? "the section says the thread count it was measured with"
# min-plus 64^2 is class 12, 128^2 class 14; transpose 64^2 class 12
for key in "minplus f32 12" "minplus f32 14" "transpose f32 12" "transpose f32 14"; do
    grep -q "^$key [a-z0-9_]*$" "$w"; ok $? "an entry for $key"
done
entries=$(grep -c "^[a-z_]* [a-z0-9]* [0-9]* [a-z0-9_]*$" "$w")
grep -q "^end $entries [0-9a-f]\{16\}$" "$w"; ok $? "the end line counts its $entries entries"
[ -s "$tmp/report" ]; ok $? "the run's report went to --output"

# ---------------------------------------------------------------- auto follows it
rung=$(sed -n 's/^minplus f32 14 //p' "$w")
# shellcheck disable=SC2086
GPUK_WISDOM=$w "$bench" $common --op minplus -s 128 --variant auto -f csv > "$tmp/csv" 2>&1
grep -q "^cpu,minplus,auto,.*,$rung,wisdom," "$tmp/csv"
rc=$?
ok $rc "with GPUK_WISDOM, auto at 128^2 runs the file's rung ($rung), chosen by wisdom"
[ $rc -eq 0 ] || diag "$tmp/csv"

# the CSV: a row of every op has as many fields as the header (the fields
# here hold no commas), spmv's matrix and nnz columns included
awk -F, 'NR == 1 { n = NF } NR > 1 && NF != n { bad = 1 } END { exit bad || NR < 2 }' "$tmp/csv"
ok $? "every CSV row has as many fields as the header"

# ---------------------------------------------------------------- damaged, foreign
# one entry's rung changed: the hash no longer matches the section
other=naive
[ "$rung" = naive ] && other=regtile
sed "s/^minplus f32 14 $rung\$/minplus f32 14 $other/" "$w" > "$tmp/bad"
# shellcheck disable=SC2086
GPUK_VERBOSE=1 GPUK_WISDOM=$tmp/bad "$bench" $common --op minplus -s 128 --variant auto \
    -f csv > "$tmp/csv" 2> "$tmp/err"
grep -q "wisdom file $tmp/bad ignored" "$tmp/err"; ok $? "an edited file is ignored, with a verbose line"
grep -q "^cpu,minplus,auto,.*,wisdom," "$tmp/csv"
ok $((! $?)) "an edited file: auto does not follow it"
# shellcheck disable=SC2086
GPUK_VERBOSE=1 GPUK_WISDOM=$w "$bench" -b cpu -t 1 --quick -r 3 -w 1 -q --op minplus -s 128 \
    --variant auto -f csv > "$tmp/csv" 2> "$tmp/err"
grep -q "wisdom file $w ignored: .*threads" "$tmp/err"
rc=$?
ok $rc "on another thread count the file is ignored, saying why"
[ $rc -eq 0 ] || diag "$tmp/err"

tap_done

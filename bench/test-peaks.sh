#!/bin/sh
# test-peaks.sh - TAP test of the CPU backend's ceilings through gpuk-bench
# --peaks: the table has a row for every kind of GPUK_PEAK_MAP (include/
# gpuk.h), copy, read, fma, add+min and i32 add+min are measured (positive
# numbers), the ones the CPU has no micro-kernel for (the link, i16x2) say
# n/a, and every other is a number or n/a, never anything else.
#
# Run by make check; by hand, from the top of the build tree:
# GPUK_BACKEND_PATH=backends/cpu/.libs sh ../bench/test-peaks.sh

builddir=${GPUK_TEST_BUILDDIR:-.}
srcdir=${GPUK_TEST_SRCDIR:-$(dirname "$0")/../tests}
bench=$builddir/bench/gpuk-bench
. "$srcdir/tap-lib.sh"
if [ ! -x "$bench" ]; then
    echo "1..0 # SKIP $bench was not built"
    exit 0
fi
out=$("$bench" -b cpu -t 2 --peaks -q 2>&1)
ok $? "gpuk-bench --peaks on the cpu backend"
echo "$out" | grep -q "^ceiling  *unit  *cpu  *what it measures"
ok $? "the table has a column for the cpu backend"

# the cpu column of a kind's row, by its short name (the list's name
# without the unit: copy_gbs -> copy)
value() {
    echo "$out" | awk -v k="$1" '$1 == k { print $3; exit }'
}

# every kind of the list, from the header itself
header=$srcdir/../include/gpuk.h
kinds=$(sed -n '/^#define GPUK_PEAK_MAP/,/^$/p' "$header" |
    sed -n 's/^ *X([A-Z0-9_]*, *[0-9]*, *"\([a-z0-9_]*\)_[a-z]*".*/\1/p')
missing=
for k in $kinds; do
    [ -n "$(value "$k")" ] || missing="$missing $k"
done
[ -n "$kinds" ] && [ -z "$missing" ]
ok $? "a row for every kind of GPUK_PEAK_MAP ($(echo $kinds | wc -w) kinds)${missing:+; missing:$missing}"

for k in copy read fma addmin addmin_i32; do
    v=$(value $k)
    echo "$v" | grep -Eq '^[0-9]+(\.[0-9]+)?$' && [ "$(echo "$v" | awk '{print ($1 > 0)}')" = 1 ]
    ok $? "the $k ceiling is measured ($v)"
done
for k in h2d d2h addmin_i16x2; do
    [ "$(value $k)" = n/a ]
    ok $? "$k is n/a on the cpu ($(value $k))"
done
for k in $kinds; do
    v=$(value "$k")
    [ "$v" = n/a ] || echo "$v" | grep -Eq '^[0-9]+(\.[0-9]+)?$'
    ok $? "the $k ceiling is a number or n/a, never made up ($v)"
done
tap_done

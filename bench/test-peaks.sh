#!/bin/sh
# test-peaks.sh - TAP test of the CPU backend's ceilings through gpuk-bench
# --peaks: copy, read, fma, add+min and i32 add+min are measured (positive
# numbers), and the ones the CPU has no micro-kernel for (the link, i16x2)
# say n/a.
#
# Run by make check; by hand, from the top of the build tree:
# GPUK_BACKEND_PATH=backends/cpu/.libs sh ../bench/test-peaks.sh

builddir=${GPUK_TEST_BUILDDIR:-.}
bench=$builddir/bench/gpuk-bench
. "${GPUK_TEST_SRCDIR:-$(dirname "$0")/../tests}/tap-lib.sh"
if [ ! -x "$bench" ]; then
    echo "1..0 # SKIP $bench was not built"
    exit 0
fi
out=$("$bench" -b cpu -t 2 --peaks -q 2>&1)
ok $? "gpuk-bench --peaks on the cpu backend"
header=$(echo "$out" | grep "^backend ")
row=$(echo "$out" | grep "^cpu ")
# the columns after the device name, whose words vary: count from the end
set -- $row
shift $(($# - 9))
for col in "copy:$1" "read:$2" "fma:$3" "add+min:$4" "i32 add+min:$5"; do
    name=${col%%:*} v=${col#*:}
    echo "$v" | grep -Eq '^[0-9]+(\.[0-9]+)?$' && [ "$(echo "$v > 0" | awk '{print ($1 > 0)}')" = 1 ]
    ok $? "the $name ceiling is measured ($v)"
done
[ "$6" = n/a ] && [ "$7" = n/a ] && [ "$8" = n/a ]
ok $? "i16x2 and the link are n/a on the cpu ($6, $7, $8)"
echo "$header" | grep -q "read GB/s"
ok $? "the table has a read column"
tap_done

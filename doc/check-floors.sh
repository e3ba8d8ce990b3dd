#!/bin/sh
# check-floors.sh - TAP test: the core's files call only downwards.
#
# doc/design.md, Layers, stacks the files of src/ in floors: a file calls
# functions of its own floor and of the floors below, never of a floor
# above.  This test reads that table from doc/design.md and the symbols of
# the objects libgpuk.so was built from (nm), and fails
#   - for a src/*.c that the table does not place on a floor, and
#   - for every call from a file to a function defined on a higher floor,
#     naming both files and the function.
# So the table cannot drift from the code: moving a function up or down,
# or adding a file, shows here first.
#
# Run by `make check` (GPUK_TEST_BUILDDIR names the build tree), or by hand:
#   GPUK_TEST_BUILDDIR=$PWD sh ../doc/check-floors.sh

top=$(cd "$(dirname "$0")/.." && pwd) || exit 1
build=${GPUK_TEST_BUILDDIR:-$PWD}
. "$top/tests/tap-lib.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-floors.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' 0
trap 'exit 1' 1 2 15

# "FILE FLOOR" for every file the table names: rows "| N | `src/a.c`, ... |"
# between the heading "## Layers" and the next heading
awk '
    /^## / { inlayers = ($0 == "## Layers") }
    inlayers && /^\| *[0-9]+ *\|/ {
        split($0, col, "|")
        floor = col[2]; gsub(/ /, "", floor)
        n = split(col[3], f, ",")
        for (i = 1; i <= n; i++) {
            name = f[i]; gsub(/[` ]/, "", name); sub(/^src\//, "", name)
            if (name != "") print name, floor
        }
    }' "$top/doc/design.md" > "$tmp/floors"
[ -s "$tmp/floors" ]
ok $? "doc/design.md, Layers: a floor table ($(wc -l < "$tmp/floors") files)"

missing=
for f in "$top"/src/*.c; do
    b=$(basename "$f")
    awk -v b="$b" '$1 == b { f = 1 } END { exit !f }' "$tmp/floors" || missing="$missing $b"
done
[ -z "$missing" ]
ok $? "every src/*.c is on a floor of doc/design.md${missing:+ (not placed:$missing)}"

if ! command -v nm > /dev/null 2>&1; then
    skip "no call goes up a floor" "nm (binutils) is not installed"
    tap_done
    exit $?
fi
objs=$(ls "$build"/src/.libs/libgpuk_la-*.o 2>/dev/null)
if [ -z "$objs" ]; then
    skip "no call goes up a floor" "no objects in $build/src/.libs (build libgpuk first)"
    tap_done
    exit $?
fi

# "SYMBOL FILE" for what each object defines, then "FILE SYMBOL" for what
# it uses from elsewhere
for o in $objs; do
    b=${o##*/libgpuk_la-}
    b=${b%.o}.c
    nm -g --defined-only "$o" | awk -v b="$b" 'NF == 3 { print $3, b }' >> "$tmp/defs"
    nm -u "$o" | awk -v b="$b" '{ print b, $NF }' >> "$tmp/uses"
done
awk '
    FILENAME == ARGV[1] { floor[$1] = $2; next }
    FILENAME == ARGV[2] { def[$1] = $2; next }
    ($2 in def) && def[$2] != $1 {
        from = $1; to = def[$2]
        if (!(from in floor) || !(to in floor)) next   # reported above
        if (floor[to] + 0 > floor[from] + 0)
            printf "%s (floor %s) calls %s of %s (floor %s)\n", from, floor[from], $2, to, floor[to]
    }' "$tmp/floors" "$tmp/defs" "$tmp/uses" | sort -u > "$tmp/up"
ncalls=$(awk 'FILENAME == ARGV[1] { def[$1] = $2; next } ($2 in def) && def[$2] != $1' \
    "$tmp/defs" "$tmp/uses" | wc -l)
[ ! -s "$tmp/up" ] && [ "$ncalls" -gt 0 ]
ok $? "no call goes up a floor ($ncalls calls between the $(echo "$objs" | wc -w) files of src/)"
diag "$tmp/up"

tap_done

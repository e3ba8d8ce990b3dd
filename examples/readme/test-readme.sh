#!/bin/sh
# test-readme.sh - TAP test of the README's C example: README.md's code block
# under "## Using it" is examples/readme/matmul.c, line for line, and the
# built program runs and matches a plain loop, on the default backend, on
# the cpu backend, and on cuda where cuda can run (a skip with the reason
# elsewhere).
#
# Run by `make check` from the top of the build tree; by hand:
#   GPUK_BACKEND_PATH=$PWD/backends/cpu/.libs:$PWD/backends/cuda/.libs \
#       srcdir=.. sh ../examples/readme/test-readme.sh

here=$(cd "$(dirname "$0")" && pwd)
top=${srcdir:-$here/../..}
builddir=${GPUK_TEST_BUILDDIR:-.}
readme=$top/README.md
source=$top/examples/readme/matmul.c
prog=$builddir/examples/readme/matmul

. "${GPUK_TEST_SRCDIR:-$top/tests}/tap-lib.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/readme.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' 0
trap 'exit 1' 1 2 15

# ---------------------------------------------------------------- README == source
# The first fenced block after the heading "## Using it", without its fences;
# the section ends at the next "## " heading.
awk '
    inside && /^```/ { inside = 0; done = 1; next }
    inside           { print; next }
    /^## /           { in_section = ($0 == "## Using it"); next }
    in_section && !found && /^```c[ \t]*$/ { inside = 1; found = 1 }
    END              { exit !(found && done) }
' "$readme" > "$tmp/block.c"
ok $? "README.md has a closed \`\`\`c block under \"## Using it\""
diff -u "$source" "$tmp/block.c" > "$tmp/diff" 2>&1
ok $? "the README's code block is examples/readme/matmul.c, line for line"
diag "$tmp/diff"

# ---------------------------------------------------------------- runs
if [ ! -x "$prog" ]; then
    echo "not ok $((n + 1)) - $prog was not built"
    echo "1..$((n + 1))"
    exit 1
fi

# run LABEL may-skip|must-run [VAR=VALUE...]: the program's output checked
# line by line; may-skip: a backend that cannot open here is a skip
run() {
    label=$1 mode=$2; shift 2
    env "$@" "$prog" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    if [ $rc -ne 0 ] && [ "$mode" = may-skip ] &&
       grep -Eq '^cannot open a backend: GPUK_ERR_(BACKEND_NOT_FOUND|BACKEND_LOAD|NO_DRIVER|NO_DEVICE) ' "$tmp/err"; then
        skip "$label: the example runs" "$(head -n 1 "$tmp/err")"
        return
    fi
    ok $rc "$label: the example runs and exits 0"
    diag "$tmp/out" "$tmp/err"
    for rung in default naive; do
        grep -Eq "^[a-z0-9_]+ backend, $rung rung: c\[0\]\[0\.\.3\] = (-?[0-9]+ ){3}-?[0-9]+; largest difference from a plain loop: 0\$" "$tmp/out"
        ok $? "$label: the $rung rung matches the plain loop exactly"
    done
}

run "default backend" must-run
run "cpu backend" must-run GPUK_BACKEND=cpu
grep -q '^cpu backend,' "$tmp/out"
ok $? "cpu backend: the output names the cpu backend"
run "cuda backend" may-skip GPUK_BACKEND=cuda

tap_done

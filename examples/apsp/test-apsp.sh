#!/bin/sh
# test-apsp.sh - TAP test of examples/apsp: the generated graphs and a
# DIMACS file on 1 rank (without mpiexec) and on several, each checked
# against Dijkstra by the program itself; the same graph gives the same
# squaring count on any number of ranks; every kind of bad file is an
# error naming the file and the line, on every rank count.
#
# Run by make check (MPIEXEC from configure); by hand, from the top of
# the build tree:
#   GPUK_BACKEND_PATH=$PWD/backends/cpu/.libs sh ../examples/apsp/test-apsp.sh

builddir=${GPUK_TEST_BUILDDIR:-.}
apsp=$builddir/examples/apsp/apsp

. "${GPUK_TEST_SRCDIR:-$(dirname "$0")/../../tests}/tap-lib.sh"

if [ ! -x "$apsp" ]; then
    echo "1..0 # SKIP $apsp was not built (it needs the MPI build)"
    exit 0
fi
. "$(dirname "$0")/../../mpi/launcher.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/apsp.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' 0
trap 'exit 1' 1 2 15

# run NP ARGS...: apsp on NP ranks (1: directly, as an MPI singleton)
run() {
    np=$1
    shift
    if [ "$np" = 1 ]; then
        "$apsp" "$@"
    else
        $launcher $flags -n "$np" "$apsp" "$@"
    fi
}
ranks="1"
[ $have_launcher = yes ] && ranks="1 3 4"

# ---------------------------------------------------------------- generated graphs
for np in $ranks; do
    run $np --grid 13x17 --block 8 --sources 6 > "$tmp/grid$np" 2>&1
    ok $? "road-like grid 13x17 on $np rank(s): distances match Dijkstra"
    grep -q "right" "$tmp/grid$np" && grep -q "converged after" "$tmp/grid$np"
    ok $? "  ... it converged before the bound and says it was checked"
    diag "$tmp/grid$np"
done
c1=$(grep -o 'converged after [0-9]*' "$tmp/grid1")
for np in $ranks; do
    [ "$(grep -o 'converged after [0-9]*' "$tmp/grid$np")" = "$c1" ]
    ok $? "the grid needs the same squarings on $np rank(s) ($c1)"
done
for np in $ranks; do
    run $np --geometric 300 --block 16 --seed 7 > "$tmp/geo$np" 2>&1
    ok $? "random geometric graph, 300 vertices, on $np rank(s): distances match Dijkstra"
    diag "$tmp/geo$np"
done

# ---------------------------------------------------------------- a DIMACS file
# parallel arcs (the lighter wins), a self-loop, a vertex nothing reaches,
# a one-way street, weights with decimals
cat > "$tmp/small.gr" <<'EOF'
c a small road network
c
p sp 7 11
a 1 2 4
a 2 1 4
a 1 2 2.5
a 2 3 1
a 3 4 7.25
a 4 1 1
a 3 3 5
a 2 5 10
a 5 6 0
a 6 2 3
a 4 6 2
EOF
for np in $ranks; do
    [ $np = 4 ] && continue
    run $np --file "$tmp/small.gr" --block 2 --sources 7 > "$tmp/gr$np" 2>&1
    ok $? "DIMACS file on $np rank(s): distances match Dijkstra from 7 sampled sources"
    diag "$tmp/gr$np"
done

# ---------------------------------------------------------------- bad files
# bad NAME LINE TEXT: a file whose line LINE is wrong, and the message's words
bad() {
    name=$1 line=$2 want=$3
    for np in $ranks; do
        [ $np = 4 ] && continue
        run $np --file "$tmp/$name.gr" > "$tmp/out" 2>&1
        rc=$?
        [ $rc -eq 2 ] && grep -q "$name.gr:$line: .*$want" "$tmp/out" &&
            [ "$(grep -c "$name.gr:" "$tmp/out")" = 1 ]
        ok $? "bad file $name on $np rank(s): exit 2 (got $rc), once, naming line $line: $want"
        diag "$tmp/out"
    done
}
printf 'c nothing else\na 1 2 3\n' > "$tmp/early.gr"
bad early 2 "before the problem line"
printf 'p max 3 1\na 1 2 3\n' > "$tmp/type.gr"
bad type 1 "is not sp"
printf 'p sp 3 2\na 1 2 3\na 1 4 3\n' > "$tmp/range.gr"
bad range 3 "numbered 1 to 3"
printf 'p sp 3 1\nc\na 1 2 -3\n' > "$tmp/negative.gr"
bad negative 3 "not a finite number >= 0"
printf 'p sp 3 1\nx 1 2 3\n' > "$tmp/kind.gr"
bad kind 2 "unknown line type"
printf 'c\np sp 3 3\na 1 2 3\n' > "$tmp/short.gr"
bad short 2 "declares 3 arcs, the file has 1"
printf 'p sp 3 1\na 1 2 3\na 2 3 1\n' > "$tmp/long.gr"
bad long 3 "more arcs than"
printf 'p sp 3 1\np sp 3 1\n' > "$tmp/twice.gr"
bad twice 2 "a second problem line"
printf 'p sp 3 1\na 1 2\n' > "$tmp/fields.gr"
bad fields 2 "expected \"a U V W\""

printf 'c only comments\n' > "$tmp/none.gr"
"$apsp" --file "$tmp/none.gr" > "$tmp/out" 2>&1
[ $? -eq 2 ] && grep -q "none.gr: no problem line" "$tmp/out"
ok $? "a file without a problem line: exit 2, says so"
"$apsp" --file "$tmp/missing.gr" > "$tmp/out" 2>&1
[ $? -eq 2 ] && grep -q "missing.gr: No such file" "$tmp/out"
ok $? "a file that does not exist: exit 2, names it"
"$apsp" --grid 3x3 --geometric 9 > "$tmp/out" 2>&1
[ $? -eq 2 ] && grep -q "give one graph" "$tmp/out"
ok $? "two graphs at once: exit 2 with the usage"

tap_done

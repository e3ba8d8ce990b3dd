#!/bin/sh
# test-apsp.sh - TAP test of examples/apsp, in whichever build it is (with
# MPI: gpuk_dist_apsp on 1 rank without mpiexec and on 3 and 4; without:
# one context, gpuk_apsp): Floyd-Warshall (the default) and squaring on
# the generated graphs and a DIMACS file, in f32 and i32, each checked
# against Dijkstra by the program itself; squaring needs the same number
# of squarings on any number of ranks; queried pairs give the distance and
# a path whose arcs add up to it (from the predecessors on one context,
# from a row of distances on the MPI build); every kind of bad file is an
# error naming the file and the line, on every rank count.
#
# Run by make check (MPIEXEC from configure); by hand, from the top of
# the build tree:
#   GPUK_BACKEND_PATH=$PWD/backends/cpu/.libs sh ../examples/apsp/test-apsp.sh

builddir=${GPUK_TEST_BUILDDIR:-.}
apsp=$builddir/examples/apsp/apsp

. "${GPUK_TEST_SRCDIR:-$(dirname "$0")/../../tests}/tap-lib.sh"

if [ ! -x "$apsp" ]; then
    echo "1..0 # SKIP $apsp was not built"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/apsp.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' 0
trap 'exit 1' 1 2 15

"$apsp" --help > "$tmp/help" 2>&1
ok $? "--help prints the usage and exits 0"
ranks="1"
if grep -q "this build: MPI" "$tmp/help"; then
    build=mpi
    . "$(dirname "$0")/../../mpi/launcher.sh"
    [ $have_launcher = yes ] && ranks="1 3 4"
else
    build=one
    grep -q "this build: one context" "$tmp/help"
    ok $? "the build without MPI says it runs on one context"
fi
diag "$tmp/help"

# run NP ARGS...: apsp on NP ranks (1: directly; an MPI singleton in the MPI build)
run() {
    np=$1
    shift
    if [ "$np" = 1 ]; then
        "$apsp" "$@"
    else
        $launcher $flags -n "$np" "$apsp" "$@"
    fi
}

# ---------------------------------------------------------------- generated graphs
for np in $ranks; do
    run $np --grid 13x17 --block 8 --sources 6 > "$tmp/fw$np" 2>&1
    ok $? "road-like grid 13x17, Floyd-Warshall on $np rank(s): distances match Dijkstra"
    grep -q "^Floyd-Warshall: " "$tmp/fw$np" && grep -q "right" "$tmp/fw$np"
    ok $? "  ... Floyd-Warshall is the default, and it says it was checked"
    diag "$tmp/fw$np"
    run $np --grid 13x17 --block 8 --sources 6 --dtype i32 > "$tmp/fwi$np" 2>&1
    ok $? "the same grid in i32 on $np rank(s): distances match Dijkstra"
    diag "$tmp/fwi$np"
    run $np --grid 13x17 --block 8 --sources 6 --method squaring > "$tmp/sq$np" 2>&1
    ok $? "the same grid by squaring on $np rank(s): distances match Dijkstra"
    grep -q "converged after" "$tmp/sq$np"
    ok $? "  ... it converged before the bound"
    diag "$tmp/sq$np"
done
c1=$(grep -o 'converged after [0-9]*' "$tmp/sq1")
for np in $ranks; do
    [ "$(grep -o 'converged after [0-9]*' "$tmp/sq$np")" = "$c1" ]
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
    for method in fw squaring; do
        run $np --file "$tmp/small.gr" --block 2 --sources 7 --method $method \
            --pair 1,6 --pair 4,5 --pair 1,7 --pair 3,3 > "$tmp/gr$np-$method" 2>&1
        ok $? "DIMACS file, $method on $np rank(s): distances match Dijkstra from 7 sources"
        f=$tmp/gr$np-$method
        diag "$f"
        grep -q "^pair 1 -> 6: distance 12.5, path of 3 arcs (.*): 1 2 5 6$" "$f" &&
            grep -q "^pair 4 -> 5: distance 13.5, path of 3 arcs (.*): 4 1 2 5$" "$f" &&
            grep -q "^pair 1 -> 7: no path$" "$f" &&
            grep -q "^pair 3 -> 3: distance 0, path of 0 arcs (.*): 3$" "$f"
        ok $? "  ... the queried pairs: 1->6 12.5 by 1 2 5 6, 4->5 13.5 by 4 1 2 5, 1->7 none, 3->3 0"
    done
done
if [ $build = one ]; then
    grep -q "^pair 1 -> 6: .*(from the predecessors)" "$tmp/gr1-fw"
    ok $? "one context: Floyd-Warshall's paths come from gpuk_apsp's predecessors"
fi
"$apsp" --file "$tmp/small.gr" --dtype i32 > "$tmp/out" 2>&1
[ $? -eq 2 ] && grep -q "i32 needs whole weights" "$tmp/out"
ok $? "--dtype i32 on weights with decimals: exit 2, says so"
"$apsp" --file "$tmp/small.gr" --pair 1,8 > "$tmp/out" 2>&1
[ $? -eq 2 ] && grep -q "vertices are 1 to 7" "$tmp/out"
ok $? "--pair outside the graph: exit 2, names the range"

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
"$apsp" --grid 3x3 --method dijkstra > "$tmp/out" 2>&1
[ $? -eq 2 ] && grep -q "fw or squaring" "$tmp/out"
ok $? "an unknown method: exit 2, names the two"

tap_done

#!/bin/sh
# tests/valgrind.sh [BUILD_DIR [PROGRAM...]] - run the CPU test programs
# under valgrind's memcheck; exit non-zero when any reports an error (bad
# read or write, use of uninitialised memory, a bad free, a definite leak)
# or fails its own checks.  `make check-valgrind` calls it on the build
# tree; the programs must be built (make check builds them).
#
# OpenMP and OpenBLAS keep thread stacks and per-thread buffers alive until
# exit: those are "possibly lost" or "still reachable", not errors, so only
# definite leaks count.  tests/valgrind.supp holds the two suppressions
# needed, both inside libgomp and ld.so when an OpenMP region runs on a
# thread that then exits (t_threads); each entry says why.
#
# memcheck's x87 computes in 64-bit doubles, so there the reference's long
# double is a double: t_ref says why the bounds still hold, and skips the
# checks of its extra precision.
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=$(cd "${1:-.}" && pwd)
[ $# -gt 0 ] && shift
PROGS=${*:-"t_ref t_ops_cpu t_check t_loader t_tensor t_badinput t_badops t_badshape t_empty \
t_faults t_threads t_fuzz_corpus t_gpu_faults t_interop"}

if ! command -v valgrind >/dev/null 2>&1; then
    echo "valgrind.sh: valgrind is not installed" >&2
    exit 77
fi
GPUK_BACKEND_PATH="$B/backends/cpu/.libs:$B/backends/cuda/.libs"
GPUK_BACKEND_PATH_ONLY=1   # this build's plugins, never an installed one
GPUK_TEST_PLUGIN_DIR="$B/tests/.libs"
GPUK_TEST_SRCDIR="$SRC/tests"
GPUK_TEST_BUILDDIR="$B"
# fewer random fuzz inputs: memcheck runs them ~50x slower
GPUK_FUZZ_RANDOM=${GPUK_FUZZ_RANDOM:-300}
export GPUK_BACKEND_PATH GPUK_BACKEND_PATH_ONLY GPUK_TEST_PLUGIN_DIR GPUK_TEST_SRCDIR GPUK_TEST_BUILDDIR GPUK_FUZZ_RANDOM

SUPP=
[ -s "$SRC/tests/valgrind.supp" ] && SUPP="--suppressions=$SRC/tests/valgrind.supp"
# t_faults defines malloc and friends itself (tests/allocfail.c, to fail
# allocations on purpose); somalloc=NONE has memcheck replace those in the
# executable as it does libc's, so its heap stays checked (t_faults then
# sees valgrind and skips its allocation faults)
bad=0
for p in $PROGS; do
    exe="$B/tests/$p"
    if [ ! -x "$exe" ]; then
        echo "MISSING $p (build it with make check first)"
        bad=1
        continue
    fi
    log="$B/tests/$p.valgrind.log"
    start=$(date +%s)
    # 99: memcheck found an error; anything else non-zero: the test failed
    "$B/libtool" --mode=execute valgrind --tool=memcheck --error-exitcode=99 \
        --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite \
        --num-callers=30 --soname-synonyms=somalloc=NONE $SUPP \
        --log-file="$log.%p" "$exe" >"$log.tap" 2>&1
    rc=$?
    cat "$log".[0-9]* >"$log" 2>/dev/null
    rm -f "$log".[0-9]*
    secs=$(( $(date +%s) - start ))
    errs=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
    checks=$(grep -c '^ok\|^not ok' "$log.tap")
    if [ $rc -eq 0 ]; then
        echo "PASS $p: $checks checks, memcheck clean ($errs errors), ${secs}s"
    elif [ $rc -eq 99 ]; then
        echo "FAIL $p: memcheck reported $errs errors, see $log"
        bad=1
    else
        echo "FAIL $p: exit status $rc, see $log.tap and $log"
        bad=1
    fi
done
exit $bad

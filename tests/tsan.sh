#!/bin/sh
# tests/tsan.sh [BUILD_DIR] - build libgpuk, the cpu backend and
# tests/t_threads with -fsanitize=thread in a separate tree (default
# ${TMPDIR:-/tmp}/gpuk-tsan-build) and run t_threads: four threads, each on
# its own context, for GPUK_THREADS_ROUNDS rounds (default 3 here).
# Exits non-zero on a data race TSan reports or a failed check.
#
# Why one OpenMP thread: libgomp is not built with TSan, so TSan cannot see
# the synchronisation inside an OpenMP region and reports races between
# the workers of a correct parallel loop.  GPUK_NUM_THREADS=1 makes every
# region run on the calling thread (a team of one spawns no worker), which
# leaves exactly what this test is about: several application threads on
# independent contexts.  OpenBLAS's pool is uninstrumented for the same
# reason; t_threads skips the vendor-library rungs in a TSan build and
# OPENBLAS_NUM_THREADS=1 keeps the pool from starting.
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-${TMPDIR:-/tmp}/gpuk-tsan-build}
CC=${CC:-gcc}
mkdir -p "$B"
# A source tree configured in place (the README's quick start) refuses a
# second, out-of-tree build: configure a clean copy of its distributed
# files instead.
if [ -f "$SRC/config.status" ]; then
    if [ ! -f "$B/config.status" ]; then
        rm -rf "$B/pristine"
        make -s -C "$SRC" distdir distdir="$B/pristine" >/dev/null
    fi
    SRC=$B/pristine
fi
cd "$B"
if [ ! -f config.status ]; then
    "$SRC/configure" --without-cuda CC="$CC" CFLAGS="-g -O1 -fsanitize=thread" \
        LDFLAGS="-fsanitize=thread" >configure.log 2>&1 || { tail -30 configure.log; exit 1; }
fi
make -j"${JOBS:-2}" src/libgpuk.la backends/cpu/backend_cpu.la tests/t_threads >make.log 2>&1 ||
    { tail -30 make.log; exit 1; }
GPUK_BACKEND_PATH="$B/backends/cpu/.libs"
GPUK_BACKEND_PATH_ONLY=1   # this build's plugin, never an installed one
GPUK_NUM_THREADS=1
OPENBLAS_NUM_THREADS=1
GPUK_THREADS_ROUNDS=${GPUK_THREADS_ROUNDS:-3}
# tsan.supp: one entry, a write inside dlopen that glibc's loader lock
# orders (see the file)
TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 suppressions=$SRC/tests/tsan.supp ${TSAN_OPTIONS:-}"
export GPUK_BACKEND_PATH GPUK_BACKEND_PATH_ONLY GPUK_NUM_THREADS OPENBLAS_NUM_THREADS GPUK_THREADS_ROUNDS TSAN_OPTIONS
set +e
"$B/tests/t_threads" >"$B/t_threads.tsan.log" 2>&1
rc=$?
set -e
cat "$B/t_threads.tsan.log"
case $rc in
0) echo "tsan.sh: ThreadSanitizer clean" ;;
66) echo "tsan.sh: ThreadSanitizer reported a data race (above)" ;;
*) echo "tsan.sh: t_threads failed (exit $rc)" ;;
esac
exit $rc

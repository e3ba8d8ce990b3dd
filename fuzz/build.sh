#!/bin/sh
# fuzz/build.sh [BUILD_DIR] - build libgpuk, the cpu backend and the libFuzzer
# harness with clang, AddressSanitizer and UndefinedBehaviorSanitizer, out of
# tree (default: ${TMPDIR:-/tmp}/gpuk-fuzz-build).  Not part of `make`: CI
# calls it through fuzz/smoke.sh.  Needs clang and libclang-rt-14-dev (or
# the compiler-rt of your clang).
#
# The library and plugin get -fsanitize=fuzzer-no-link, so libFuzzer sees
# their coverage; OpenMP is off (one thread, deterministic runs, and no
# uninstrumented worker pool); OpenBLAS stays, so its rungs are fuzzed too.
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-${TMPDIR:-/tmp}/gpuk-fuzz-build}
CC=${CC:-clang}
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
mkdir -p "$B"
if [ -f "$B/configure.ac" ]; then
    echo "fuzz/build.sh: $B is a source tree; name an empty or build folder" >&2
    exit 1
fi
# A source tree configured in place (the README's quick start) refuses a
# second, out-of-tree build: configure a clean copy of its distributed
# files instead, brought up to date on every run (a file that changed is
# copied over with a new time, so make rebuilds what depends on it, and
# only that; a stale copy would fuzz old code).
if [ -f "$SRC/config.status" ]; then
    rm -rf "$B/pristine.new"
    make -s -C "$SRC" distdir distdir="$B/pristine.new" >/dev/null
    if [ -d "$B/pristine" ]; then
        (cd "$B/pristine.new" && find . -type f) | while IFS= read -r f; do
            if ! cmp -s "$B/pristine.new/$f" "$B/pristine/$f"; then
                mkdir -p "$(dirname "$B/pristine/$f")"
                cp -p "$B/pristine.new/$f" "$B/pristine/$f"
            fi
        done
        rm -rf "$B/pristine.new"
    else
        mv "$B/pristine.new" "$B/pristine"
    fi
    SRC=$B/pristine
fi
cd "$B"
# A build folder configured from another source tree would go on building
# that tree's files: start it again (the corpus and findings stay).
if [ -f config.status ] && [ "$(cat source-dir 2>/dev/null)" != "$SRC" ]; then
    echo "fuzz/build.sh: $B was configured from another source tree; building it again" >&2
    find . -mindepth 1 -maxdepth 1 ! -name work-corpus ! -name 'crash-*' ! -name 'pristine*' \
        ! -name 'leak-*' ! -name 'timeout-*' ! -name 'oom-*' -exec rm -rf {} +
fi
if [ ! -f config.status ]; then
    "$SRC/configure" --without-cuda --disable-openmp CC="$CC" \
        CFLAGS="-g -O2 $SAN -fsanitize=fuzzer-no-link" LDFLAGS="$SAN" >configure.log 2>&1 ||
        { tail -30 configure.log; exit 1; }
    echo "$SRC" >source-dir
fi
make -j"${JOBS:-2}" src/libgpuk.la backends/cpu/backend_cpu.la >make.log 2>&1 ||
    { tail -30 make.log; exit 1; }
# The harness's calls are built by the op descriptors of tests/ops/ (one
# file per op family, see tests/optest.h), with the test code they use;
# the glob takes a new family file without an edit here.
"$CC" -g -O2 $SAN -fsanitize=fuzzer -DFZ_LIBFUZZER -I"$SRC/include" \
    "$SRC/fuzz/fuzz_api.c" "$SRC/fuzz/fz_ops.c" "$SRC/fuzz/fz_slots.c" \
    "$SRC/tests/tap.c" "$SRC/tests/ref.c" "$SRC/tests/opcall.c" "$SRC/tests/opcases.c" \
    "$SRC/tests/optest.c" "$SRC"/tests/ops/*.c \
    -o "$B/fuzz_api" -L"$B/src/.libs" -lgpuk -Wl,-rpath,"$B/src/.libs" -lm
echo "built $B/fuzz_api (run it with GPUK_BACKEND_PATH=$B/backends/cpu/.libs)"

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
    "$SRC/configure" --without-cuda --disable-openmp CC="$CC" \
        CFLAGS="-g -O2 $SAN -fsanitize=fuzzer-no-link" LDFLAGS="$SAN" >configure.log 2>&1 ||
        { tail -30 configure.log; exit 1; }
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

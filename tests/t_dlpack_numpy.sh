#!/bin/sh
# t_dlpack_numpy.sh - run t_dlpack_numpy.py (DLPack between NumPy and
# libgpuk) with the first Python that has NumPy: $PYTHON, python3, then
# Debian's /usr/bin/python3 (python3-numpy).  TAP; skipped without one.
lib=${GPUK_TEST_BUILDDIR:-.}/src/.libs/libgpuk.so
if [ ! -f "$lib" ]; then
    echo "1..0 # SKIP run through make check: $lib not found"
    exit 0
fi
# a sanitizer build (configure --enable-sanitizers): Python is not
# instrumented, so the ASan runtime must be loaded first; Python's own
# allocations at exit are not ours to report, so no leak check here
if ldd "$lib" 2> /dev/null | grep -q 'libasan'; then
    asan=$(${CC:-cc} -print-file-name=libasan.so 2> /dev/null)
    case $asan in
    /*) ;;
    *) echo "1..0 # SKIP $lib is built with ASan and cc cannot find libasan.so to preload"
       exit 0 ;;
    esac
    LD_PRELOAD=$asan${LD_PRELOAD:+:$LD_PRELOAD}
    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
    export LD_PRELOAD ASAN_OPTIONS
fi
for py in ${PYTHON:-} python3 /usr/bin/python3; do
    if command -v "$py" > /dev/null 2>&1 && "$py" -c 'import numpy' 2> /dev/null; then
        GPUK_TEST_LIBGPUK=$lib exec "$py" "${GPUK_TEST_SRCDIR:-$(dirname "$0")}/t_dlpack_numpy.py"
    fi
done
echo "1..0 # SKIP no Python with NumPy (Debian: python3-numpy)"

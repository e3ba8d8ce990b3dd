#!/bin/sh
# quickstart.sh - set up, build and run libgpuk on a fresh machine.
#
#   tools/quickstart.sh bench   build, then run the CPU-vs-GPU benchmark (quick mode)
#   tools/quickstart.sh check   build, then run the test suite (make check)
#
# Installs the Debian packages it needs when they are missing (as root, or
# through sudo), runs ./bootstrap and ./configure once (in the source tree),
# then make.  CUDA is used when the toolkit is in /usr/local/cuda; without a
# GPU the CUDA rows and tests say why they are skipped.
set -eu
cd "$(dirname "$0")/.."
what=${1:-}
case "$what" in
  bench|check) ;;
  *) echo "usage: tools/quickstart.sh bench|check" >&2; exit 2 ;;
esac
jobs=$(nproc 2>/dev/null || echo 2)

need=
command -v autoreconf >/dev/null 2>&1 || need="$need autoconf automake"
command -v libtoolize >/dev/null 2>&1 || need="$need libtool"
command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"
command -v make >/dev/null 2>&1 || need="$need make"
command -v cc >/dev/null 2>&1 || need="$need gcc"
pkg-config --exists openblas 2>/dev/null || [ -f /usr/include/cblas.h ] || \
  [ -f /usr/include/x86_64-linux-gnu/cblas.h ] || need="$need libopenblas-dev"
command -v gnuplot >/dev/null 2>&1 || need="$need gnuplot-nox"
if [ -n "$need" ]; then
  echo "quickstart: installing:$need"
  if [ "$(id -u)" = 0 ]; then sudo=; elif command -v sudo >/dev/null 2>&1; then sudo=sudo; else
    echo "quickstart: please install these Debian packages first:$need" >&2; exit 1
  fi
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q $need
fi

[ -x configure ] || ./bootstrap
[ -f config.status ] || ./configure
make -j"$jobs"

if [ "$what" = check ]; then
  make -j"$jobs" check
else
  # run from the build tree: plugins are found through GPUK_BACKEND_PATH
  GPUK_BACKEND_PATH="$PWD/backends/cpu/.libs:$PWD/backends/cuda/.libs" \
    ./bench/gpuk-bench --quick
fi

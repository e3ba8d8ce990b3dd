#!/bin/sh
# quickstart.sh - set up, build and run libgpuk on a fresh machine.
#
#   tools/quickstart.sh bench   build, then run the CPU-vs-GPU benchmark (quick mode)
#   tools/quickstart.sh check   build, then run the test suite (make check)
#   tools/quickstart.sh python  build, then make the virtual environment .venv
#                               holding the gpuk Python package, and run its tests
#
# Installs the Debian packages it needs when they are missing (as root, or
# through sudo; only those, without the packages they merely recommend),
# runs ./bootstrap and ./configure once (in the source tree), then make.  OpenBLAS's OpenMP build (libopenblas-openmp-dev) is installed
# whenever it is missing, whatever other BLAS the machine has: the reference
# BLAS (libblas-dev) ships a cblas.h too, but the CPU backend's openblas
# rungs need OpenBLAS, and configure refuses to build without it unless told
# --without-openblas.  Configure prefers the OpenMP build to the pthreads
# one, since it shares the backend's OpenMP threads instead of keeping a
# second pool that spins against them (bench/NOTES.md, "CPU: two thread
# pools"); a machine without apt-get keeps whatever OpenBLAS it has.  CUDA
# is used when the toolkit is in /usr/local/cuda; without a GPU the CUDA
# rows and tests say why they are skipped.
#
# The python target: Debian's Python refuses `pip install` into the system
# (PEP 668, "externally-managed-environment"), so the package goes into a
# virtual environment, .venv at the top of the tree, made with access to
# Debian's own NumPy and pytest (--system-site-packages), which apt
# installs: nothing is downloaded by pip.  Its activate script also points
# the package at this build tree (GPUK_LIBRARY, GPUK_BACKEND_PATH), so
# `. .venv/bin/activate` is all a shell needs afterwards.
set -eu
cd "$(dirname "$0")/.."
what=${1:-}
case "$what" in
  bench|check|python) ;;
  *) echo "usage: tools/quickstart.sh bench|check|python" >&2; exit 2 ;;
esac
jobs=$(nproc 2>/dev/null || echo 2)

# the multiarch triplet under which Debian and Ubuntu put libraries ("" without a compiler)
multiarch() {
  if command -v cc >/dev/null 2>&1; then cc -print-multiarch 2>/dev/null || :; fi
}

# OpenBLAS itself: its pkg-config file, or its shared library in a folder the
# linker searches.  A cblas.h alone proves nothing (libblas-dev has one).
have_openblas() {
  if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists openblas; then
    return 0
  fi
  arch=$(multiarch)
  for dir in ${arch:+/usr/lib/$arch} /usr/lib /usr/lib64 /usr/local/lib /usr/local/lib64; do
    [ -e "$dir/libopenblas.so" ] && return 0
  done
  return 1
}

# Debian's and Ubuntu's OpenMP build of OpenBLAS, which configure takes first
have_openblas_openmp() {
  arch=$(multiarch)
  [ -n "$arch" ] && [ -e "/usr/lib/$arch/openblas-openmp/libopenblas.so" ] &&
    [ -f "/usr/include/$arch/openblas-openmp/cblas.h" ]
}

need=
command -v autoreconf >/dev/null 2>&1 || need="$need autoconf automake"
command -v libtoolize >/dev/null 2>&1 || need="$need libtool"
command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"
command -v make >/dev/null 2>&1 || need="$need make"
command -v cc >/dev/null 2>&1 || need="$need gcc"
# gcc only recommends the C library's headers, and recommended packages are
# not installed here
[ -f /usr/include/stdio.h ] || need="$need libc6-dev"
if ! have_openblas || { command -v apt-get >/dev/null 2>&1 && ! have_openblas_openmp; }; then
  need="$need libopenblas-openmp-dev"
fi
command -v gnuplot >/dev/null 2>&1 || need="$need gnuplot-nox"
# DLPack import and export (gpuk_tensor_from_dlpack / _to_dlpack) need its header
[ -f /usr/include/dlpack/dlpack.h ] || need="$need libdlpack-dev"
# the python target: Debian's interpreter with venv, NumPy and pytest, and
# wheel, which setuptools needs to build the package without downloading
if [ "$what" = python ] && command -v apt-get >/dev/null 2>&1; then
  [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import ensurepip, venv' 2>/dev/null ||
    need="$need python3-venv"
  [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import numpy' 2>/dev/null ||
    need="$need python3-numpy"
  [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import pytest' 2>/dev/null ||
    need="$need python3-pytest"
  [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import wheel' 2>/dev/null ||
    need="$need python3-wheel"
fi
if [ -n "$need" ]; then
  echo "quickstart: installing:$need"
  if [ "$(id -u)" = 0 ]; then sudo=; elif command -v sudo >/dev/null 2>&1; then sudo=sudo; else
    echo "quickstart: not root and no sudo: please install these Debian packages first:$need" >&2
    exit 1
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "quickstart: no apt-get here: please install the equivalents of these Debian packages:$need" >&2
    exit 1
  fi
  $sudo apt-get update -q
  # shellcheck disable=SC2086  # $need is a list of package names
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $need
fi

[ -x configure ] || ./bootstrap
[ -f config.status ] || ./configure
make -j"$jobs"

if [ "$what" = check ]; then
  make -j"$jobs" check
elif [ "$what" = python ]; then
  top=$PWD
  if command -v apt-get >/dev/null 2>&1 && [ -x /usr/bin/python3 ]; then
    # Debian's interpreter, whose NumPy, pytest and wheel apt manages: the
    # venv sees them, and the package builds with the venv's own setuptools
    # and Debian's wheel
    py=/usr/bin/python3 isolation=--no-build-isolation
  else
    py=python3 isolation=
  fi
  [ -x .venv/bin/python ] || "$py" -m venv --system-site-packages .venv
  export PIP_DISABLE_PIP_VERSION_CHECK=1
  # shellcheck disable=SC2086  # $isolation is empty or one flag
  .venv/bin/python -m pip install -q $isolation ./python
  rm -rf python/build python/gpuk.egg-info   # what pip's build leaves in the tree
  .venv/bin/python -c 'import pytest' 2>/dev/null || .venv/bin/python -m pip install -q pytest
  if ! grep -q 'gpuk quickstart' .venv/bin/activate; then
    cat >> .venv/bin/activate <<EOF
# gpuk quickstart: the package uses the library and plugins of this build tree
export GPUK_LIBRARY="$top/src/.libs/libgpuk.so"
export GPUK_BACKEND_PATH="$top/backends/cpu/.libs:$top/backends/cuda/.libs"
EOF
  fi
  # the package's tests, as a user of the venv runs them: from outside the
  # tree, so that the installed copy is the one imported
  (. .venv/bin/activate && cd / && GPUK_TEST_INSTALLED=1 python -m pytest -q -p no:cacheprovider \
     "$top/python/tests")
  echo "quickstart: the gpuk package is installed in $top/.venv; in a shell:"
  echo "  . .venv/bin/activate"
  echo "  python -c 'import numpy as np, gpuk; a = np.arange(6, dtype=np.float32).reshape(2, 3); print(gpuk.matmul(a, a.reshape(3, 2)))'"
else
  # run from the build tree: plugins are found through GPUK_BACKEND_PATH
  GPUK_BACKEND_PATH="$PWD/backends/cpu/.libs:$PWD/backends/cuda/.libs" \
    ./bench/gpuk-bench --quick
fi

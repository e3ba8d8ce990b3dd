"""Test setup: which gpuk is imported, the contexts, and the optional libraries.

The library comes from GPUK_LIBRARY (CI: the build tree's
src/.libs/libgpuk.so) and the plugins from GPUK_BACKEND_PATH.  The package
is imported from this source tree (python/gpuk) unless GPUK_TEST_INSTALLED=1,
which tests an installed copy instead.
"""

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
PYDIR = os.path.dirname(HERE)
if os.environ.get("GPUK_TEST_INSTALLED") != "1":
    sys.path.insert(0, PYDIR)

import numpy as np  # noqa: E402

import gpuk  # noqa: E402


def _try_import(name):
    try:
        return __import__(name)
    except Exception:
        return None


torch = _try_import("torch")
cupy = _try_import("cupy")


def _cuda_context():
    try:
        return gpuk.Context("cuda")
    except gpuk.Error:
        return None


_cuda = _cuda_context()
HAVE_CUDA = _cuda is not None
if _cuda is not None:
    _cuda.close()

needs_cuda = pytest.mark.skipif(not HAVE_CUDA, reason="no CUDA backend/device here")
needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")
needs_torch_cuda = pytest.mark.skipif(
    torch is None or not HAVE_CUDA or not torch.cuda.is_available(),
    reason="needs PyTorch with CUDA and libgpuk's CUDA backend")
needs_cupy = pytest.mark.skipif(cupy is None or not HAVE_CUDA,
                                reason="needs CuPy and libgpuk's CUDA backend")


@pytest.fixture
def ctx():
    """A fresh CPU context per test, closed afterwards."""
    with gpuk.Context("cpu") as c:
        yield c


@pytest.fixture
def cuda_ctx():
    if not HAVE_CUDA:
        pytest.skip("no CUDA backend/device here")
    with gpuk.Context("cuda") as c:
        yield c


@pytest.fixture
def rng():
    return np.random.default_rng(12345)

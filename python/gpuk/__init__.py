"""gpuk: NumPy-style Python bindings for libgpuk, over ctypes.

    import numpy as np, gpuk
    with gpuk.Context("auto") as ctx:              # CUDA if it runs here, else the CPU
        a = ctx.asarray(np.random.rand(64, 32))    # copied in, float64 as it is
        b = ctx.asarray(np.random.rand(32, 16))
        c = gpuk.matmul(a, b)                      # a float64 gpuk.Tensor on ctx
        print(c.numpy())                           # copied out
        t = torch.from_dlpack(c)                   # no copy (PyTorch on the same device)

Tensors and ops take the library's dtypes (gpuk.DTYPES: f32, i32, f64, f16,
bf16), each array in its own; which ops a backend computes in which dtype
is its kernel table (Context.variants(op, dtype)).

The shared library is found through GPUK_LIBRARY (its path), then
``pkg-config --variable=libdir gpuk``, then the system loader; the
backend plugins through the library's own search (GPUK_BACKEND_PATH, then
the installed plugin folder).  See README.md and help(gpuk.ops) for the
conventions of the ops; each op's docstring follows its man page.
"""

import os as _os

from . import _lib

__version__ = None
try:
    from ._version import __version__
except ImportError:                       # imported from the source tree
    from ._srcversion import version_from_tree as _vft
    try:
        __version__ = _vft(_os.path.dirname(_os.path.dirname(_os.path.dirname(
            _os.path.abspath(__file__)))))
    except ValueError:
        __version__ = None
    del _vft

library_version = _lib.VERSION
library_path = _lib.path


def _major_minor(v):
    parts = (v or "").split(".")
    try:
        return int(parts[0]), int(parts[1])
    except (IndexError, ValueError):
        return None


if __version__ is None:
    __version__ = library_version         # nothing to check against
elif _os.environ.get("GPUK_SKIP_VERSION_CHECK") != "1" and \
        _major_minor(__version__) != _major_minor(library_version):
    raise ImportError(
        "gpuk %s is the package of libgpuk %s.x, but the library loaded (%s, found by %s) is "
        "%s. Install the matching package (pip install ./python in that library's source "
        "tree), point GPUK_LIBRARY at a matching libgpuk.so, or set GPUK_SKIP_VERSION_CHECK=1 "
        "to try anyway." % (__version__, ".".join(map(str, _major_minor(__version__) or ())),
                            library_path, _lib.found_by, library_version))

import sys as _sys

from . import _errors
from ._errors import Error, by_code as error_class
from ._core import (Context, ContextInfo, CSRMatrix, LoadAttempt, Tensor, Variant,
                    default_context, op_cost, set_default_context)
from . import _ops as ops
from ._bench import bench, plot_bench
from ._ops import apsp_path

# one function per op of the library's catalogue, and the forms of them
# (minplus_update, sum, mean): gpuk.matmul, gpuk.minplus, ...
globals().update({_name: getattr(ops, _name) for _name in ops.OPS})
# one exception class per status code of the loaded library: gpuk.ShapeError, ...
globals().update(_errors.NAMES)
ERRORS = dict(_errors.NAMES)              # class name -> class

STATUS_NAMES = {v: n for v, (n, _) in _lib.STATUS.items()}
OPS = tuple(_lib.OPS)                     # the op catalogue of the library (GPUK_OP_MAP)
DTYPES = tuple(n for _, (n, _, _) in sorted(_lib.DTYPES.items()))    # GPUK_DTYPE_MAP's names
PEAKS = {n: unit for n, (_, unit) in _lib.PEAKS.items()}   # GPUK_PEAK_MAP: name -> unit


def version() -> str:
    """The version of the libgpuk actually loaded (gpuk_version)."""
    return library_version


def status_name(status: int) -> str:
    """The C name of a status value ("GPUK_ERR_SHAPE"); None for an unknown one."""
    return STATUS_NAMES.get(status)


def strerror(status: int) -> str:
    """The library's fixed description of a status value (gpuk_strerror)."""
    return _lib.text(_lib.gpuk_strerror(int(status)))


def op_exact(op: str) -> bool:
    """Is the op bit-exact on every rung and backend (GPUK_OP_MAP's exact column)?"""
    from ._core import op_code
    return _lib.gpuk_op_exact(op_code(op)) == 1


for _name in ("Context", "ContextInfo", "CSRMatrix", "LoadAttempt", "Tensor", "Variant",
              "default_context", "set_default_context", "bench", "plot_bench",
              "op_cost", "apsp_path") + ops.OPS:
    globals()[_name].__module__ = "gpuk"
del _name

# star-import stays clear of the built-ins and the standard modules: sum,
# copy, OverflowError and IndexError are gpuk.sum, gpuk.copy,
# gpuk.OverflowError, gpuk.IndexError only
import builtins as _builtins
_taken = set(dir(_builtins)) | set(getattr(_sys, "stdlib_module_names", ("copy",)))
__all__ = sorted(["Context", "ContextInfo", "CSRMatrix", "Error", "LoadAttempt", "Tensor",
                  "Variant", "apsp_path", "bench", "default_context", "error_class", "op_cost", "op_exact",
                  "plot_bench", "set_default_context", "status_name", "strerror", "version"] +
                 [n for n in ops.OPS + tuple(_errors.NAMES) if n not in _taken])
del _taken, _builtins

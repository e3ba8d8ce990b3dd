"""Contexts, tensors and CSR matrices.

Ownership and lifetimes, as the Python side keeps them:

* A Context owns the C context.  ``close()`` (or leaving a ``with`` block)
  closes it, which frees every tensor and CSR matrix made on it; their
  Python objects stay, and any later use raises HandleError.  A Context
  that is merely dropped stays open while a Tensor of it is alive (each
  Tensor holds its Context), and closes when the last reference goes.
* A Tensor owns one handle: ``free()`` or garbage collection destroys it.
  Its storage lives while any handle on it lives (views, the base), and
  while a DLPack export of it is held by a consumer, even past close().
* A Tensor that borrows memory (``Context.from_dlpack``, or a NumPy array
  an op used in place) keeps that memory alive: through the producer's
  DLPack deleter, called by libgpuk when the last handle on it dies, or
  through a reference to the NumPy array, kept by the tensor and its views.

Calls on one Context are serialised by a lock (libgpuk allows one thread
at a time per context; the GIL is released while an op, a copy or a wait
runs).  A tensor collected while its Context is busy in another call is
destroyed at the Context's next call instead.
"""

import atexit
import ctypes
import os
import dataclasses
import numbers
import operator
import threading
import weakref
from typing import Any, List, Optional, Tuple

import numpy as np

from . import _dlpack, _errors, _lib
from ._errors import (DtypeError, HandleError, InvalidError, LayoutError,
                      ShapeError, UnsupportedError)

MAX_DIMS = _lib.MAX_DIMS


# -- dtypes -----------------------------------------------------------------------------------
#
# The dtypes are the library's (GPUK_DTYPE_MAP as it reports it: value, name,
# size, precision).  The NumPy type of each follows from its size and
# precision, not from a list: an integer of that many bytes; the IEEE float
# of that size when its significand has that many bits (f16, f32, f64); else
# ml_dtypes' bfloat16 when that is installed and matches (bf16).  A dtype
# with no NumPy type here still makes tensors (and DLPack takes it both
# ways, to PyTorch say); only copying its values to or from NumPy needs one.

def _numpy_type(size, prec):
    if prec == 0:
        return np.dtype("i%d" % size)
    try:
        cand = np.dtype("f%d" % size)
        if np.finfo(cand).nmant + 1 == prec:
            return cand
    except TypeError:
        pass
    try:
        import ml_dtypes
    except ImportError:
        return None
    for name in ("bfloat16", "float8_e4m3fn", "float8_e5m2"):
        t = getattr(ml_dtypes, name, None)
        if t is not None and np.dtype(t).itemsize == size and \
                ml_dtypes.finfo(t).nmant + 1 == prec:
            return np.dtype(t)
    return None


F32 = _lib.DTYPE_VALUES["f32"]
I32 = _lib.DTYPE_VALUES["i32"]
_NP_OF = {}           # gpuk dtype value -> numpy.dtype (absent: no NumPy type here)
for _v, (_n, _size, _prec) in _lib.DTYPES.items():
    _t = _numpy_type(_size, _prec)
    if _t is not None:
        _NP_OF[_v] = _t
_GK_OF = {t: v for v, t in _NP_OF.items()}
_SIZE = {v: size for v, (_, size, _) in _lib.DTYPES.items()}
# every name a dtype goes by: the library's ("f64") and NumPy's ("float64")
_DT_NAMES = {n: v for v, (n, _, _) in _lib.DTYPES.items()}
_DT_NAMES.update({str(t): v for v, t in _NP_OF.items()})
del _v, _n, _size, _prec, _t


def dtype_names():
    """The library's dtypes and their NumPy names, for messages: "f32 (float32), ..."."""
    return ", ".join("%s (%s)" % (n, _NP_OF[v] if v in _NP_OF else "no NumPy type here")
                     for v, (n, _, _) in sorted(_lib.DTYPES.items()))


def dtype_name(dt):
    return _lib.DTYPES.get(dt, ("?",))[0]


def numpy_dtype(dt, what="this"):
    """The NumPy type of a gpuk dtype value; DtypeError when there is none here."""
    t = _NP_OF.get(dt)
    if t is None:
        raise DtypeError("%s: %s has no NumPy type here%s" % (
            what, dtype_name(dt), " (install ml_dtypes for bfloat16, or move the data "
            "through DLPack: torch.from_dlpack(t))" if dtype_name(dt) == "bf16" else ""))
    return t


def storage_dtype(dt):
    """A NumPy type that holds the dtype's bits: its own, else an unsigned
    integer of its size (for copies that do not look at the values)."""
    return _NP_OF.get(dt) or np.dtype("u%d" % _SIZE[dt])


def dtype_code(dtype, what="dtype"):
    """gpuk dtype value of a dtype given as "f32"/"float32"/np.float32/...,
    or as the value itself (GPUK_F64 is 3)."""
    if isinstance(dtype, str):
        code = _DT_NAMES.get(dtype)
        if code is not None:
            return code
    elif isinstance(dtype, numbers.Integral) and not isinstance(dtype, bool):
        if int(dtype) in _lib.DTYPES:
            return int(dtype)
        raise DtypeError("%s %r: no libgpuk dtype has that value; libgpuk has %s"
                         % (what, dtype, dtype_names()))
    try:
        code = _GK_OF.get(np.dtype(dtype))
    except Exception:
        code = None
    if code is None:
        raise DtypeError("%s %r: libgpuk has %s" % (what, dtype, dtype_names()))
    return code


_c_void_p = ctypes.c_void_p
_byref = ctypes.byref
_I64 = ctypes.c_int64


def _shape_tuple(shape, what="shape"):
    if isinstance(shape, numbers.Integral):
        shape = (shape,)
    try:
        shape = tuple(operator.index(n) for n in shape)
    except (TypeError, ValueError):
        raise InvalidError("%s must be an int or a sequence of ints, got %r" % (what, shape)) from None
    if not 1 <= len(shape) <= MAX_DIMS:
        raise ShapeError("%s %r: libgpuk tensors have 1 to %d dimensions" % (what, shape, MAX_DIMS))
    if any(n < 0 for n in shape):
        raise ShapeError("%s %r has a negative dimension" % (what, shape))
    return shape


_DENSE = {}


def _dense_strides(shape):
    """Row-major strides, in elements, of a shape (remembered per shape)."""
    if type(shape) is not tuple:
        shape = tuple(shape)
    st = _DENSE.get(shape)
    if st is None:
        strides = [1] * len(shape)
        for i in range(len(shape) - 2, -1, -1):
            strides[i] = strides[i + 1] * shape[i + 1]
        st = tuple(strides)
        if len(_DENSE) > 4096:
            _DENSE.clear()
        _DENSE[shape] = st
    return st


_I64_CACHE = {}


def _i64(values):
    """A C int64 array of a shape or strides tuple, kept for the next call
    with the same values (libgpuk only reads it)."""
    if type(values) is not tuple:
        return (_I64 * len(values))(*values)
    a = _I64_CACHE.get(values)
    if a is None:
        a = (_I64 * len(values))(*values)
        if len(_I64_CACHE) > 4096:
            _I64_CACHE.clear()
        _I64_CACHE[values] = a
    return a


def _prod(shape):
    n = 1
    for s in shape:
        n *= s
    return n


@dataclasses.dataclass(frozen=True)
class ContextInfo:
    """What gpuk_context_info reports.  dlpack_device is (type, id) as
    __dlpack_device__ gives it ((1, 0) on the CPU, (2, ordinal) on CUDA;
    None for a plugin that names none); stream is the cudaStream_t the
    context's work is ordered on, as an int (the stream= given, else the
    context's own), None without streams."""
    backend: str
    backend_version: str
    backend_path: str
    device: str
    device_ordinal: int
    num_threads: int
    device_memory: int
    multiprocessors: int
    check: bool
    abi: Tuple[int, int]
    dlpack_device: Optional[Tuple[int, int]]
    stream: Optional[int]


@dataclasses.dataclass(frozen=True)
class Variant:
    """One rung of an op's ladder (gpuk_variant_info)."""
    name: str
    summary: str
    flags: int
    default: bool
    library: bool
    tf32: bool
    dtypes: Tuple[str, ...]
    alias: Optional[str]


@dataclasses.dataclass(frozen=True)
class LoadAttempt:
    """One candidate plugin of a load report (gpuk_load_attempt)."""
    backend: str
    path: str
    status: str
    reason: str
    chosen: bool


def _report(ptr):
    if not ptr:
        return "", []
    attempts = []
    for i in range(_lib.gpuk_load_report_count(ptr)):
        a = _lib.gpuk_load_report_get(ptr, i)
        if not a:
            break
        a = a.contents
        attempts.append(LoadAttempt(_lib.text(a.backend), _lib.text(a.path),
                                    _lib.STATUS.get(a.status, ("?",))[0],
                                    _lib.text(a.reason), bool(a.chosen)))
    return _lib.text(_lib.gpuk_load_report_text(ptr)), attempts


def _stream_value(stream):
    """A cudaStream_t address from an int, a torch.cuda.Stream or a cupy Stream."""
    if stream is None:
        return None
    for attr in ("cuda_stream", "ptr"):
        v = getattr(stream, attr, None)
        if v is not None:
            stream = v
            break
    try:
        v = operator.index(stream)
    except TypeError:
        raise InvalidError("stream must be a cudaStream_t address (int) or a stream object "
                           "with .cuda_stream (PyTorch) or .ptr (CuPy), got %r"
                           % (stream,)) from None
    if v < 0:
        raise InvalidError("stream %d is not a cudaStream_t address" % v)
    return v or None


_live_contexts = weakref.WeakSet()


class Context:
    """An open libgpuk backend on one device (gpuk_context_open_ex).

    Context(backend=None, device=None, *, check=None, verbose=None,
            num_threads=None, stream=None, pinned_bytes=None, wisdom=None)

    backend: "cpu", "cuda", "auto", another plugin name, or the path of a
        plugin .so; None follows GPUK_BACKEND, then "auto" (CUDA when its
        plugin loads and sees a device, else the CPU).  A backend named
        explicitly that cannot load raises (BackendNotFoundError,
        NoDriverError, ...) with the load report in the message; it never
        falls back to another backend.
    device: CUDA device ordinal; None follows GPUK_DEVICE, then 0.
    check: shadow mode (every op re-run on the CPU's naive rung and
        compared; a mismatch raises CheckError); None follows GPUK_CHECK.
    verbose: 0, 1 (log plugin loading) or 2 (also every op) to stderr;
        None follows GPUK_VERBOSE.
    num_threads: CPU threads; None follows GPUK_NUM_THREADS, OMP_NUM_THREADS,
        then every core.
    stream: CUDA only: the caller's stream (a cudaStream_t address, or a
        torch.cuda.Stream / cupy.cuda.Stream), on which every op, write and
        read of the context is then ordered.  It must outlive the context.
        Without it the context makes a stream of its own; either way
        ``info.stream`` names it, and DLPack producers and consumers are
        handed it (see from_dlpack and Tensor.__dlpack__).
    wisdom: a wisdom file (written by gpuk-bench --tune) whose rungs
        "auto" follows on this context; "" for none; None follows
        GPUK_WISDOM.  A file that does not fit (another device, library
        version, thread count; damaged) is ignored as a whole, and
        ``auto_source`` says why.
    pinned_bytes: size of the page-locked staging pool for copies from and
        to NumPy arrays on a GPU; 0 turns it off; None follows GPUK_PINNED,
        then 128 MiB.

    Arguments given here win over the environment.  A Context is a context
    manager: ``with gpuk.Context("cpu") as ctx: ...`` closes it on exit.
    Use one Context from one thread at a time (calls are serialised anyway).
    """

    def __init__(self, backend: Optional[str] = None, device: Optional[int] = None, *,
                 check: Optional[bool] = None, verbose: Optional[int] = None,
                 num_threads: Optional[int] = None, stream: Any = None,
                 pinned_bytes: Optional[int] = None, wisdom: Optional[str] = None):
        self._p = None
        self._lock = threading.Lock()
        self._grave = []
        # NumPy memory the ops used in place, wrapped once (see _ops._Wrap):
        # (data, shape, strides, dtype) -> _Wrap, least recently used first;
        # and the descriptions seen once
        self._np_wraps = {}
        self._np_seen = {}
        self._stream_obj = stream
        self._rows = {}                        # (op, dtype) -> has the backend a rung of it
        self._stream = _stream_value(stream)
        opts = _lib.Options()
        _lib.gpuk_options_init_size(_byref(opts), ctypes.sizeof(opts))
        if backend is not None:
            if not isinstance(backend, str):
                raise InvalidError("backend must be a str such as 'cpu', 'cuda' or 'auto', "
                                   "got %r" % (backend,))
            opts.backend = backend.encode()
        for name, value in (("device", device), ("num_threads", num_threads),
                            ("verbose", verbose)):
            if value is None:
                continue
            try:
                v = operator.index(value)
            except TypeError:
                raise InvalidError("%s must be an int, got %r" % (name, value)) from None
            if not -2 ** 31 <= v < 2 ** 31:
                raise InvalidError("%s = %d is out of range" % (name, v))
            setattr(opts, name, v)
        if check is not None:
            opts.check = 1 if check else 0
        if self._stream is not None:
            opts.stream = self._stream
        if pinned_bytes is not None:
            try:
                pb = operator.index(pinned_bytes)
            except TypeError:
                raise InvalidError("pinned_bytes must be an int, got %r"
                                   % (pinned_bytes,)) from None
            if pb < 0 or pb >= 2 ** 63:
                raise InvalidError("pinned_bytes = %d: use a byte count >= 0" % pb)
            opts.pinned_bytes = pb
        if wisdom is not None:
            if not isinstance(wisdom, (str, bytes)) and not hasattr(wisdom, "__fspath__"):
                raise InvalidError("wisdom must be a file name (str or path), got %r" % (wisdom,))
            self._wisdom = os.fsencode(wisdom)       # kept: the options point at it
            opts.wisdom = self._wisdom
        p = _c_void_p()
        rep = _c_void_p()
        status = _lib.gpuk_context_open_ex(_byref(p), _byref(opts), _byref(rep))
        text, attempts = _report(rep.value)
        _lib.gpuk_load_report_free(rep.value)
        if status:
            raise _errors.make(status, "cannot open backend %r%s" % (
                backend if backend is not None else "(GPUK_BACKEND, else auto)",
                (":\n" + text.rstrip()) if text else ""))
        self._p = p.value
        self._pv = _c_void_p(self._p)          # the same, ready for the raw calls
        self._dlpack_ok = None                 # DLPack built in? asked on first use
        self._probe_msg = None                 # what that question left in the message
        try:
            self._setup()
        except BaseException:
            self.close()
            raise
        _live_contexts.add(self)

    def _setup(self):
        info = _lib.Info()
        self._check(_lib.gpuk_context_info_size(self._p, _byref(info), ctypes.sizeof(info)),
                    "info")
        dl = int(info.dlpack_device)
        # (type, id) as DLPack numbers devices: the CPU is always id 0
        self._dl_device = None if dl == 0 else (dl, 0 if dl == _dlpack.kDLCPU
                                                 else int(info.device_ordinal))
        # the host contexts wrap NumPy memory in place; the others copy it in
        self._host = (dl == _dlpack.kDLCPU if dl else _lib.text(info.backend) == "cpu")
        # the cpu backend's wraps are remembered across calls (_ops._lend_numpy)
        self._np_lend = self._host and _lib.text(info.backend) == "cpu"
        # the cudaStream_t the context's work is ordered on (the caller's
        # stream=, or the context's own); None without streams (cpu)
        self._native_stream = info.stream or None
        self.info = ContextInfo(
            backend=_lib.text(info.backend), backend_version=_lib.text(info.backend_version),
            backend_path=_lib.text(info.backend_path), device=_lib.text(info.device),
            device_ordinal=int(info.device_ordinal), num_threads=int(info.num_threads),
            device_memory=int(info.device_memory), multiprocessors=int(info.multiprocessors),
            check=bool(info.check), abi=(int(info.abi_major), int(info.abi_minor)),
            dlpack_device=self._dl_device, stream=self._native_stream)
        self._report_text, self._report_attempts = _report(_lib.gpuk_context_load_report(self._p))

    def _has_dlpack(self):
        """Was this libgpuk built with DLPack?  Asked once, before the first
        import takes a capsule: a library built without it returns
        GPUK_ERR_UNSUPPORTED from gpuk_tensor_from_dlpack and, unlike the
        real one, without calling the producer's deleter, so the package
        must not hand it a capsule.  A NULL tensor tells them apart: the real
        one answers GPUK_ERR_NULL, the stub GPUK_ERR_UNSUPPORTED."""
        ok = self._dlpack_ok
        if ok is None:
            h = _c_void_p()
            with self._lock:
                p = self._ptr("from_dlpack")
                st = _lib.gpuk_tensor_from_dlpack(p, None, _byref(h))
                self._probe_msg = _lib.gpuk_context_error(p)
            ok = self._dlpack_ok = st != UnsupportedError.status
        return ok

    # -- life ------------------------------------------------------------------------

    def close(self) -> None:
        """Close the context: wait for its work, free every tensor and CSR
        matrix still alive on it.  Idempotent."""
        p = self._p
        if p is None:
            return
        with self._lock:
            self._p = None
            self._grave.clear()
            self._np_wraps.clear()          # their handles go with the context
            self._np_seen.clear()
            _lib.gpuk_context_close(p)
        _live_contexts.discard(self)

    @property
    def closed(self) -> bool:
        return self._p is None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __del__(self):
        try:
            if self._p is not None:
                self.close()
        except Exception:
            pass

    def __repr__(self):
        if self._p is None:
            return "<gpuk.Context closed>"
        i = self.info
        return "<gpuk.Context %s (%s), device %r%s>" % (
            self.device, i.backend_version, i.device,
            ", stream 0x%x" % self._stream if self._stream else "")

    # -- errors and locking ------------------------------------------------------------

    def _ptr(self, what="this call"):
        p = self._p
        if p is None:
            raise HandleError("%s: the context is closed" % what)
        return p

    def _check(self, status, what):
        """Raise for a non-OK status, with the context's message."""
        if status:
            msg = _lib.text(_lib.gpuk_context_error(self._p)) if self._p else ""
            raise _errors.make(status, "%s: %s" % (what, msg) if msg else what)

    def _call(self, what, fn, *args):
        """One locked library call; raises for a failure."""
        with self._lock:
            if self._p is None:
                raise HandleError("%s: the context is closed" % what)
            st = fn(*args)
            if st:
                msg = _lib.text(_lib.gpuk_context_error(self._p))
            elif self._grave:
                self._drain()
        if st:
            raise _errors.make(st, "%s: %s" % (what, msg) if msg else what)

    def _drain(self):
        """Destroy what was collected while the context was busy (lock held)."""
        grave, self._grave = self._grave, []
        for fn, h in grave:
            fn(self._p, h)

    def _bury(self, fn, h):
        """Destroy a handle now if the context is free, else at its next call.

        No wait is needed for memory of another library: libgpuk hands
        borrowed memory back (the DLPack deleter) only once the context's
        queued work is done.
        """
        p = self._p
        if p is None:
            return
        if self._lock.acquire(False):
            try:
                if self._p is not None:
                    fn(self._p, h)
            finally:
                self._lock.release()
        else:
            self._grave.append((fn, h))

    # -- information ---------------------------------------------------------------------

    @property
    def device(self) -> str:
        """"cpu", or "cuda:N" for a CUDA context, else the backend's name."""
        i = self.info
        if i.dlpack_device and i.dlpack_device[0] == _dlpack.kDLCUDA:
            return "cuda:%d" % i.dlpack_device[1]
        return i.backend

    @property
    def load_report(self) -> str:
        """The load report: every candidate plugin and why it was taken or not."""
        return self._report_text

    @property
    def load_attempts(self) -> List[LoadAttempt]:
        return list(self._report_attempts)

    @property
    def error(self) -> str:
        """The message of the last failed call on the context (gpuk_context_error).
        The package's own question whether DLPack is built in is no call of
        the user's: its message reads as ""."""
        m = _lib.gpuk_context_error(self._ptr())
        return "" if m == self._probe_msg else _lib.text(m)

    @property
    def auto_source(self) -> str:
        """Where "auto" takes its rungs on this context (gpuk_auto_source):
        the wisdom file followed, or why one was ignored, and whether the
        backend has built-in rules."""
        with self._lock:
            return _lib.text(_lib.gpuk_auto_source(self._ptr("auto_source")))

    @property
    def last_variant(self) -> Optional[Tuple[str, str, int]]:
        """What the last op on the context ran: (rung, how it was chosen:
        "named", "wisdom", "built-in" or "default", shape class), as
        gpuk_last_variant, gpuk_last_variant_source and
        gpuk_last_shape_class say; None before the first op."""
        with self._lock:
            p = self._ptr("last_variant")
            name = _lib.gpuk_last_variant(p)
            if not name:
                return None
            return (_lib.text(name), _lib.text(_lib.gpuk_last_variant_source(p)),
                    int(_lib.gpuk_last_shape_class(p)))

    def variants(self, op, dtype="f32") -> List[Variant]:
        """The rungs of op's ladder on this backend that compute in dtype, in
        ladder order (naive first, vendor libraries last).

        op: a name ("matmul", "reduce", ...) or the gpuk_op value.  Each
        Variant has name, summary, flags (GPUK_VARIANT_* bits), default
        (run when variant=None or "auto"), library (a vendor library),
        tf32 (reduced precision, run only by name), dtypes and alias (a
        former name it still answers to, or None).
        """
        opv = op_code(op)
        dt = dtype_code(dtype)
        n = ctypes.c_size_t()
        self._call("variants", _lib.gpuk_variant_count_dtype, self._ptr(), opv, dt, _byref(n))
        out = []
        vi = _lib.VariantInfo()
        size = ctypes.sizeof(vi)
        for i in range(n.value):
            self._call("variants", _lib.gpuk_variant_get_dtype_size, self._p, opv, dt, i,
                       _byref(vi), size)
            out.append(Variant(
                name=_lib.text(vi.name), summary=_lib.text(vi.summary), flags=int(vi.flags),
                default=bool(vi.flags & _lib.VARIANT_DEFAULT),
                library=bool(vi.flags & _lib.VARIANT_LIBRARY),
                tf32=bool(vi.flags & _lib.VARIANT_TF32),
                dtypes=tuple(name for v, (name, _, _) in sorted(_lib.DTYPES.items())
                             if vi.dtypes & (1 << v)),
                alias=_lib.text(vi.alias) or None))
        return out

    def sync(self) -> None:
        """Wait for every op issued on the context; raises the first
        asynchronous error (DeviceError, LibraryError), if any."""
        self._call("sync", _lib.gpuk_sync, self._ptr())

    def timer_start(self) -> None:
        """Start an interval on the backend's clock (CUDA events on a GPU)."""
        self._call("timer_start", _lib.gpuk_timer_start, self._ptr())

    def timer_stop(self) -> float:
        """Wait for the work issued since timer_start; its time in ms."""
        ms = ctypes.c_double()
        self._call("timer_stop", _lib.gpuk_timer_stop, self._ptr(), _byref(ms))
        return ms.value

    def peak(self, kind: str) -> float:
        """A ceiling measured by the backend's micro-kernels
        (gpuk_peak_measure), in the kind's unit (gpuk.PEAKS[kind]): a name of
        the library's GPUK_PEAK_MAP, such as "copy_gbs", "read_gbs",
        "fma_gflops", "fma_f64_gflops", "addmin_gops", "addmin_f64_gops" or
        "h2d_gbs".  A kind the backend has no micro-kernel for raises
        UnsupportedError (the link on the CPU, say)."""
        k = _lib.PEAKS.get(kind) if isinstance(kind, str) else None
        if k is None:
            raise InvalidError("peak kind %r: one of %s" % (kind, ", ".join(_lib.PEAKS)))
        v = ctypes.c_double()
        self._call("peak", _lib.gpuk_peak_measure, self._ptr(), k[0], _byref(v))
        return v.value

    def _has_rows(self, op, dt):
        """Does the backend have a rung of op (a name) computing in dt?"""
        key = (op, dt)
        have = self._rows.get(key)
        if have is None:
            n = ctypes.c_size_t()
            with self._lock:
                st = _lib.gpuk_variant_count_dtype(self._ptr(), _lib.OPS[op], dt, _byref(n))
            have = self._rows[key] = st == 0 and n.value > 0
        return have

    # -- tensors ---------------------------------------------------------------------------

    def empty(self, shape, dtype="f32") -> "Tensor":
        """A new dense tensor of shape (1 to 4 dimensions) and dtype (a
        libgpuk name, "f32", "i32", "f64", "f16", "bf16", or a NumPy type:
        numpy.float64, "float64", ...); its contents are undefined until
        written."""
        return self._create(_shape_tuple(shape), dtype_code(dtype))

    def zeros(self, shape, dtype="f32") -> "Tensor":
        """A new dense tensor filled with zeros (all bits 0: +0 in every
        float dtype)."""
        t = self.empty(shape, dtype)
        if t.size:
            t._write(np.zeros(t._shape, storage_dtype(t._dt)))
        return t

    def _create(self, shape, dt):
        h = _c_void_p()
        self._call("empty", _lib.gpuk_tensor_create, self._ptr(), dt, len(shape), _i64(shape),
                   _byref(h))
        return Tensor._make(self, h.value, shape, dt, _dense_strides(shape), 0)

    def asarray(self, obj, dtype=None) -> "Tensor":
        """A new tensor holding a copy of obj.

        obj: anything numpy.asarray takes (NumPy arrays, lists, PyTorch CPU
        tensors, ...), a tensor of another context, or an array on this
        context's device (PyTorch or CuPy on the same GPU, copied on the
        device).  A gpuk Tensor of this context is returned as it is.
        dtype: as for empty(); None keeps the data's own type where
        libgpuk has it, as NumPy and CuPy do: float32 stays f32, float64
        f64 (a list of Python floats is float64), float16 f16, bfloat16
        (ml_dtypes, or PyTorch through DLPack) bf16, int32 i32; other
        integers and booleans become i32 (a value outside int32 raises
        OverflowError).  A type libgpuk lacks (complex, float128, ...)
        raises DtypeError naming it.  A 0-dimensional array becomes shape
        (1,).
        """
        self._ptr("asarray")
        if type(obj) is Tensor:
            if obj._ctx is self and (dtype is None or dtype_code(dtype) == obj._dt):
                obj._live("asarray")
                return obj
            if dtype is None or dtype_code(dtype) == obj._dt:
                bits = obj._host_bits()          # another context's: copied through the host
                t = self._create(obj._shape, obj._dt)
                if t.size:
                    t._write(bits)
                return t
            arr = obj.numpy()
        else:
            arr = obj
            dev = None if isinstance(obj, np.ndarray) else dlpack_device_of(obj, "asarray")
            if dev is not None and dev[0] not in (_dlpack.kDLCPU, _dlpack.kDLCUDAHost):
                # memory of a device: only this context's, copied on the device
                if not self._device_ok(dev):
                    raise InvalidError("asarray: the array is on DLPack device %s, and this "
                                       "context runs on %s: move it to the host first (.cpu(), "
                                       ".get())" % (_dev_name(dev), self.device))
                t = self.from_dlpack(obj)
                try:
                    if dtype is None or dtype_code(dtype) == t._dt:
                        return t.copy()
                    return self.asarray(t.numpy(), dtype)
                finally:
                    t.free()
            if dev is not None and not isinstance(obj, np.ndarray):
                try:
                    arr = np.asarray(obj)
                except Exception as e:
                    # host memory NumPy cannot read (PyTorch's bfloat16
                    # without ml_dtypes): borrowed through DLPack and copied
                    # on this context, where that is the host's memory
                    if not self._host:
                        raise InvalidError("asarray: NumPy cannot read %s (%s); on %s it must "
                                           "come through NumPy" % (type(obj).__name__, e,
                                                                   self.device)) from None
                    t = self.from_dlpack(obj)
                    try:
                        if dtype is None or dtype_code(dtype) == t._dt:
                            return t.copy()
                        raise DtypeError("asarray: %s data has no NumPy type here to convert "
                                         "to %s through" % (t.gpuk_dtype, dtype))
                    finally:
                        t.free()
        arr = _host_array(arr, dtype)
        t = self._create(arr.shape, _GK_OF[arr.dtype])
        if t.size:
            t._write(arr)
        return t

    def from_dlpack(self, obj) -> "Tensor":
        """A tensor over the memory of obj, without copying it.

        obj: any object with __dlpack__ (NumPy, PyTorch, CuPy, JAX arrays,
        a gpuk Tensor of another context) or a legacy "dltensor" capsule.
        It must live on this context's device (host memory for the CPU
        backend, memory of this GPU for CUDA), be of a libgpuk dtype (f32,
        i32, f64, f16, bf16: DLPack's float 32/64/16, int 32, bfloat 16)
        with one lane, and have non-negative strides; otherwise
        InvalidError, DtypeError or LayoutError, and nothing is kept.  The producer's memory stays alive
        until the tensor and all its views are freed (or the context closes).

        Streams (CUDA): the producer is handed the context's stream
        (``info.stream``: the stream= of the Context, else its own), as
        the DLPack protocol has it, and orders its queued work on the memory
        before that stream; nothing waits.  Freeing the tensor waits for the
        context's work on it (libgpuk hands the memory back to its producer
        only then).  A capsule given as it is carries no such promise: its
        maker must have finished, or ordered before the context's stream,
        the work on that memory.
        """
        p = self._ptr("from_dlpack")
        if type(obj) is Tensor and obj._ctx is self:
            obj._live("from_dlpack")
            return obj
        if not self._has_dlpack():
            raise UnsupportedError("from_dlpack: this libgpuk was built without DLPack "
                                   "(dlpack/dlpack.h; Debian: libdlpack-dev)")
        if _dlpack.is_capsule(obj):
            capsule = obj
        else:
            capsule = self._capsule_of(obj)
        try:
            ptr = _dlpack.take_capsule(capsule)
        except ValueError as e:
            raise InvalidError("from_dlpack: %s" % e) from None
        h = _c_void_p()
        with self._lock:
            if self._p is None:
                _dlpack.call_deleter(ptr)
                raise HandleError("from_dlpack: the context is closed")
            st = _lib.gpuk_tensor_from_dlpack(p, ptr, _byref(h))    # owns ptr from here
            msg = _lib.text(_lib.gpuk_context_error(p)) if st else ""
        if st:
            raise _errors.make(st, "from_dlpack: " + msg)
        return Tensor._from_handle(self, h.value, borrowed=True)

    def _device_ok(self, dev):
        mine = self._dl_device
        if mine is None:
            return False
        if mine[0] == _dlpack.kDLCPU:
            return dev[0] in (_dlpack.kDLCPU, _dlpack.kDLCUDAHost)
        return tuple(dev) == tuple(mine)

    def _capsule_of(self, obj):
        """Call obj.__dlpack__ as the protocol asks of a consumer on this device."""
        fn = getattr(obj, "__dlpack__", None)
        if fn is None:
            raise InvalidError("from_dlpack: %s has no __dlpack__ method: pass a NumPy, PyTorch, "
                               "CuPy or JAX array, or use asarray() to copy"
                               % type(obj).__name__)
        dev = dlpack_device_of(obj, "from_dlpack")
        if dev is not None:
            if not self._device_ok(dev):
                raise InvalidError(
                    "from_dlpack: the array is on DLPack device %s and this context runs on %s; "
                    "from_dlpack never copies: use asarray() to copy it in"
                    % (_dev_name(dev), self.device))
        old_producer = False
        try:
            if self._host:
                return fn()
            # The stream that will read the data: the context's (the
            # caller's stream=, or the context's own), which the producer
            # makes wait for its queued work on the memory.  1 is the legacy
            # default stream, for a context that reports none.
            try:
                capsule = fn(stream=self._native_stream or 1)
            except TypeError:
                capsule = fn()                 # a producer older than the stream argument
                old_producer = True
        except (TypeError, ValueError, RuntimeError, BufferError, AttributeError) as e:
            raise InvalidError("from_dlpack: %s.__dlpack__() failed: %s"
                               % (type(obj).__name__, e)) from e
        if old_producer:
            # It promised no order, and its stream is unknown: the only wait
            # left is for every stream of the device (through the CUDA driver,
            # loaded for this alone; PyTorch, CuPy and JAX never come here).
            try:
                _dlpack.cuda_device_synchronize(dev[1] if dev is not None
                                                else self.info.device_ordinal)
            except RuntimeError as e:
                del capsule                    # unconsumed: its producer frees it
                raise _errors.by_code("GPUK_ERR_DEVICE")("from_dlpack: waiting for the "
                                                         "producer's work: %s" % e) from None
        return capsule

    def csr(self, matrix, shape=None, dtype=None) -> "CSRMatrix":
        """A sparse matrix in CSR form on this context (gpuk_csr_create_dtype).

        matrix: a scipy.sparse matrix or array (converted with .tocsr(), its
        duplicate entries summed), or a tuple (data, indices, indptr) of
        arrays with shape=(rows, cols), or (data, indices, indptr, shape).
        dtype: of the values, as for empty(); None keeps the data's float
        type where libgpuk has it (float64 stays f64, float32 f32) and makes
        integer or boolean data f32.  gpuk.spmv computes in the matrix's
        dtype, which x must share.  Indices become int32 (OverflowError
        beyond).  The structure is checked (SparseError names the first bad
        position); the arrays are copied, so they may change afterwards.
        """
        p = self._ptr("csr")
        data, indices, indptr, (rows, cols) = _csr_parts(matrix, shape, dtype)
        dt = _GK_OF[data.dtype]
        h = _c_void_p()
        nnz = len(data)
        self._call("csr", _lib.gpuk_csr_create_dtype, p, dt, rows, cols, nnz,
                   indptr.ctypes.data, indices.ctypes.data if nnz else None,
                   data.ctypes.data if nnz else None, _byref(h))
        return CSRMatrix._make(self, h.value, (rows, cols), nnz, dt)


def dlpack_device_of(obj, what):
    """obj.__dlpack_device__() as (type, id), or None without the method."""
    fn = getattr(obj, "__dlpack_device__", None)
    if fn is None:
        return None
    try:
        dev = tuple(fn())
        dev = (operator.index(dev[0]), operator.index(dev[1]))
    except Exception as e:
        raise InvalidError("%s: %s.__dlpack_device__() failed or gave no (type, id): %s"
                           % (what, type(obj).__name__, e)) from e
    return dev


def _dev_name(dev):
    return "%s:%d" % (_dlpack.DEVICE_NAMES.get(dev[0], "type %d" % dev[0]), dev[1])


def _native(t):
    """A NumPy type in the machine's byte order (libgpuk's memory is native)."""
    return t if t.byteorder in "=|" else t.newbyteorder("=")


def _host_array(obj, dtype):
    """obj as a C-contiguous NumPy array of a libgpuk dtype (a copy if needed)."""
    try:
        arr = np.asarray(obj)
    except Exception as e:
        raise InvalidError("asarray: cannot make an array of %s: %s" % (type(obj).__name__, e)) from e
    own = _native(arr.dtype)
    if dtype is not None:
        target = numpy_dtype(dtype_code(dtype), "asarray")
    elif own in _GK_OF:
        target = own
    elif arr.dtype.kind in "iub":
        target = _NP_OF[I32]
    else:
        raise DtypeError("asarray: dtype %s has no libgpuk counterpart; libgpuk has %s"
                         % (arr.dtype, dtype_names()))
    if target == _NP_OF[I32] and arr.dtype.kind in "iu" and arr.size and own != target:
        lo, hi = int(arr.min()), int(arr.max())
        if lo < -2 ** 31 or hi >= 2 ** 31:
            raise _errors.OverflowError_("asarray: values from %d to %d do not fit in int32"
                                         % (lo, hi))
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim > MAX_DIMS:
        raise ShapeError("asarray: %d dimensions; libgpuk tensors have 1 to %d"
                         % (arr.ndim, MAX_DIMS))
    try:
        return np.ascontiguousarray(arr, dtype=target)
    except (TypeError, ValueError) as e:
        raise DtypeError("asarray: cannot convert %s data to %s: %s" % (arr.dtype, target, e)) from None


def op_code(op):
    if isinstance(op, str):
        v = _lib.OPS.get(op)
        if v is None:
            raise InvalidError("op %r: one of %s" % (op, ", ".join(_lib.OPS)))
        return v
    try:
        v = operator.index(op)
    except TypeError:
        raise InvalidError("op must be a name such as 'matmul', got %r" % (op,)) from None
    if v not in _lib.OP_NAMES:
        raise InvalidError("op %d is no gpuk_op" % v)
    return v


def op_cost(op, dims, dtype="f32") -> Tuple[float, float, int]:
    """(flops, bytes, shape class) of one call of op in dtype (gpuk_op_cost).

    dims: the op's canonical dimensions (gpuk_catalog(3)), at most
    GPUK_COST_DIMS of them, the missing ones 0: matmul (m, k, n, bias),
    batched_matmul (batch, m, k, n), minplus (m, k, n, update), transpose
    (m, n), reduce (outer, len, inner), add/scale/relu/copy/dot (n,),
    bias_relu and softmax (rows, n), embedding (V, d, ids), meanpool (b,
    t, d), spmv (rows, cols, nnz, longest row), gemv (m, n, trans, beta),
    gemm (m, k, n, beta).  flops counts an FMA or an add+min as 2; bytes
    every operand read once and every output written once; the class is
    the one "auto" keys the call by.  The library's formulas, the ones
    gpuk-bench reports with.
    """
    opv = op_code(op)
    dt = dtype_code(dtype)
    try:
        d = [operator.index(v) for v in dims]
    except TypeError:
        raise InvalidError("op_cost: dims must be ints, got %r" % (dims,)) from None
    n = _lib.COST_DIMS
    if len(d) > n:
        raise InvalidError("op_cost: at most %d dims, got %d" % (n, len(d)))
    arr = (_I64 * n)(*(d + [0] * (n - len(d))))
    flops, nbytes, cls = ctypes.c_double(), ctypes.c_double(), ctypes.c_int()
    st = _lib.gpuk_op_cost(opv, dt, arr, _byref(flops), _byref(nbytes), _byref(cls))
    if st:
        raise _errors.make(st, "op_cost(%s, %s, %s): %s" % (
            _lib.OP_NAMES[opv], dtype_name(dt), tuple(d), _lib.text(_lib.gpuk_strerror(st))))
    return flops.value, nbytes.value, cls.value


def _csr_parts(matrix, shape, dtype=None):
    try:
        return _csr_parts_(matrix, shape, dtype)
    except _errors.Error:
        raise
    except Exception as e:
        raise InvalidError("csr: cannot read the matrix: %s: %s" % (type(e).__name__, e)) from e


def _csr_parts_(matrix, shape, dtype):
    if hasattr(matrix, "tocsr"):
        m = matrix.tocsr()
        if not getattr(m, "has_canonical_format", True):
            m = m.copy()
            m.sum_duplicates()
        data, indices, indptr, shp = m.data, m.indices, m.indptr, m.shape
    elif isinstance(matrix, (tuple, list)) and len(matrix) in (3, 4):
        data, indices, indptr = matrix[:3]
        shp = matrix[3] if len(matrix) == 4 else shape
        if shp is None:
            raise InvalidError("csr: give the shape, as (data, indices, indptr, shape) or shape=")
    else:
        raise InvalidError("csr: expected a scipy.sparse matrix or (data, indices, indptr[, shape]), "
                           "got %s" % type(matrix).__name__)
    try:
        rows, cols = (operator.index(n) for n in shp)
    except (TypeError, ValueError):
        raise InvalidError("csr: shape must be (rows, cols), got %r" % (shp,)) from None
    if rows < 0 or cols < 0:
        raise ShapeError("csr: shape %r has a negative dimension" % ((rows, cols),))

    def ints(a, what):
        a = np.asarray(a)
        if a.ndim != 1 or (a.size and a.dtype.kind not in "iu"):
            raise InvalidError("csr: %s must be a 1-D integer array" % what)
        if a.size and (int(a.min()) < -2 ** 31 or int(a.max()) >= 2 ** 31):
            raise _errors.OverflowError_("csr: %s has values outside int32" % what)
        return np.ascontiguousarray(a, dtype=np.int32)
    indptr = ints(indptr, "indptr")
    indices = ints(indices, "indices")
    data = np.asarray(data)
    if data.ndim != 1 or not (data.dtype.kind in "fiub" or _native(data.dtype) in _GK_OF):
        raise InvalidError("csr: data must be a 1-D array of real numbers")
    if dtype is not None:
        target = numpy_dtype(dtype_code(dtype), "csr")
    elif _native(data.dtype) in _GK_OF and data.dtype.kind != "i":
        target = _native(data.dtype)
    elif data.dtype.kind in "iub":
        target = _NP_OF[F32]
    else:
        raise DtypeError("csr: values of dtype %s have no libgpuk counterpart; libgpuk has %s"
                         % (data.dtype, dtype_names()))
    if dtype_name(_GK_OF[target]) == "i32":
        raise DtypeError("csr: the values must be of a float dtype, not i32")
    data = np.ascontiguousarray(data, dtype=target)
    # the library reads rows + 1 offsets and nnz entries of each: the arrays
    # must hold that many, whatever the offsets say
    if len(indptr) != rows + 1:
        raise _errors.by_code("GPUK_ERR_SPARSE")(
            "csr: indptr has %d entries; a matrix of %d rows needs %d" % (len(indptr), rows, rows + 1))
    if len(indices) != len(data):
        raise _errors.by_code("GPUK_ERR_SPARSE")(
            "csr: indices has %d entries and data %d; they must match" % (len(indices), len(data)))
    return data, indices, indptr, (rows, cols)


class CSRMatrix:
    """A sparse matrix in CSR form on a context (gpuk_csr), for gpuk.spmv.

    Made by Context.csr() from a scipy.sparse matrix or (data, indices,
    indptr, shape); the arrays are checked and copied to the backend once,
    so a matrix used for many products is worth making once.  shape is
    (rows, cols), nnz the number of stored entries, dtype the values'
    type; free() releases it now
    (closing the context does too).
    """

    __slots__ = ("_ctx", "_h", "shape", "nnz", "_dt", "__weakref__")

    @classmethod
    def _make(cls, ctx, h, shape, nnz, dt=F32):
        m = object.__new__(cls)
        m._ctx, m._h, m.shape, m.nnz, m._dt = ctx, h, shape, nnz, dt
        return m

    @property
    def dtype(self) -> np.dtype:
        """The values' NumPy type (the dtype spmv computes in)."""
        return numpy_dtype(self._dt, "CSRMatrix.dtype")

    def __init__(self, *a, **k):
        raise TypeError("make a CSRMatrix with Context.csr()")

    @property
    def context(self):
        return self._ctx

    def free(self):
        """Free the matrix now (idempotent)."""
        h, self._h = self._h, None
        if h is not None and self._ctx._p is not None:
            self._ctx._call("csr free", _lib.gpuk_csr_destroy, self._ctx._p, h)

    def __del__(self):
        try:
            h, self._h = self._h, None
            if h is not None:
                self._ctx._bury(_lib.gpuk_csr_destroy, h)
        except Exception:
            pass

    def _live(self, what):
        if self._h is None:
            raise HandleError("%s: the CSR matrix was freed" % what)
        if self._ctx._p is None:
            raise HandleError("%s: the CSR matrix's context is closed" % what)

    def __repr__(self):
        state = "" if self._h is not None and self._ctx._p is not None else " (freed)"
        return "<gpuk.CSRMatrix %dx%d, %s, %d stored entries, on %s%s>" % (
            self.shape[0], self.shape[1], dtype_name(self._dt), self.nnz,
            self._ctx.device if self._ctx._p else "a closed context", state)


class Tensor:
    """An array of a libgpuk dtype in a backend's memory (gpuk_tensor).

    Made by Context.empty/zeros/asarray/from_dlpack, by the ops, or by
    slicing another tensor.  NumPy conventions:

    shape, ndim, size, dtype (a numpy.dtype), itemsize, nbytes
    gpuk_dtype: libgpuk's name of the dtype ("f32", "f64", "bf16", ...)
    strides: in bytes, as NumPy's; element_strides: in elements, as the C API
    offset: first element, in elements from the start of the storage
    t[1:3, ::2], t[0], t[..., None]: views (gpuk_tensor_view), no copy;
        steps must be >= 1; an index that leaves no dimension reads a scalar
    t[...] = value: writes a scalar, a NumPy array or a tensor into the view
    numpy(), np.asarray(t): a copy in host memory
    np.from_dlpack(t), torch.from_dlpack(t), cupy.from_dlpack(t): no copy
    data_ptr: the backend address of the first element (device memory on a GPU)
    free(): release the handle now; later use raises HandleError
    """

    __slots__ = ("_ctx", "_h", "_shape", "_dt", "_es", "_offset", "_keep", "_borrowed",
                 "_data", "__weakref__")

    def __init__(self, *a, **k):
        raise TypeError("make tensors with a gpuk.Context: ctx.empty(), ctx.asarray(), "
                        "ctx.from_dlpack()")

    @classmethod
    def _make(cls, ctx, h, shape, dt, es, offset, keep=None, borrowed=False, data=None):
        t = object.__new__(cls)
        t._data = data
        t._ctx = ctx
        t._h = h
        t._shape = shape
        t._dt = dt
        t._es = es
        t._offset = offset
        t._keep = keep
        t._borrowed = borrowed
        return t

    @classmethod
    def _from_handle(cls, ctx, h, borrowed=False, keep=None):
        """A Tensor for a handle whose layout only the library knows."""
        t = cls._make(ctx, h, (), F32, (), 0, keep, borrowed)
        info = t._info()
        n = info.ndim
        t._shape = tuple(info.shape[:n])
        t._es = tuple(info.strides[:n])
        t._offset = int(info.offset)
        t._dt = int(info.dtype)
        t._data = info.data or 0
        return t

    # -- life ----------------------------------------------------------------------------

    def _live(self, what="this call"):
        if self._h is None:
            raise HandleError("%s: the tensor was freed" % what)
        if self._ctx._p is None:
            raise HandleError("%s: the tensor's context is closed" % what)
        return self._h

    def free(self) -> None:
        """Release the tensor's handle now (gpuk_tensor_destroy).  The
        storage goes when no view or DLPack export holds it.  Idempotent."""
        h, self._h = self._h, None
        c = self._ctx
        if h is not None and c._p is not None:
            c._call("free", _lib.gpuk_tensor_destroy, c._p, h)
        self._keep = None

    def __del__(self):
        try:
            h, self._h = self._h, None
            if h is not None:
                self._ctx._bury(_lib.gpuk_tensor_destroy, h)
        except Exception:
            pass

    @property
    def freed(self) -> bool:
        """True once the tensor was freed or its context closed."""
        return self._h is None or self._ctx._p is None

    # -- description -----------------------------------------------------------------

    @property
    def context(self) -> Context:
        return self._ctx

    @property
    def device(self) -> str:
        return self._ctx.device

    @property
    def shape(self) -> Tuple[int, ...]:
        return self._shape

    @property
    def ndim(self) -> int:
        return len(self._shape)

    @property
    def size(self) -> int:
        return _prod(self._shape)

    @property
    def dtype(self) -> np.dtype:
        """The NumPy type of the elements: float32, int32, float64, float16,
        or ml_dtypes' bfloat16 (DtypeError for bf16 without ml_dtypes)."""
        return numpy_dtype(self._dt, "Tensor.dtype")

    @property
    def gpuk_dtype(self) -> str:
        """libgpuk's name of the dtype: "f32", "i32", "f64", "f16", "bf16"."""
        return dtype_name(self._dt)

    @property
    def itemsize(self) -> int:
        return _SIZE[self._dt]

    @property
    def nbytes(self) -> int:
        return self.size * _SIZE[self._dt]

    @property
    def strides(self) -> Tuple[int, ...]:
        """Strides in bytes, as NumPy gives them."""
        size = _SIZE[self._dt]
        return tuple(s * size for s in self._es)

    @property
    def element_strides(self) -> Tuple[int, ...]:
        """Strides in elements, as the C API (gpuk_tensor_info) gives them."""
        return self._es

    @property
    def offset(self) -> int:
        """The first element, in elements from the start of the storage."""
        return self._offset

    @property
    def is_contiguous(self) -> bool:
        """Dense row-major (what most ops ask of their operands)?"""
        if self.size <= 1:
            return True
        return all(s == d for s, d, n in zip(self._es, _dense_strides(self._shape), self._shape)
                   if n != 1)

    @property
    def borrowed(self) -> bool:
        """Does the tensor use memory it does not own (DLPack, a NumPy array)?"""
        return self._borrowed

    def _info(self):
        info = _lib.TensorInfo()
        self._ctx._call("info", _lib.gpuk_tensor_get_info_size, self._ctx._ptr(),
                        self._live("info"), _byref(info), ctypes.sizeof(info))
        return info

    def info(self) -> dict:
        """gpuk_tensor_get_info as a dict: dtype, ndim, shape, strides (in
        elements), offset, numel, bytes, contiguous, data, borrowed."""
        i = self._info()
        n = i.ndim
        return {"dtype": _lib.DTYPES.get(i.dtype, ("?",))[0], "ndim": n,
                "shape": tuple(i.shape[:n]), "strides": tuple(i.strides[:n]),
                "offset": int(i.offset), "numel": int(i.numel), "bytes": int(i.bytes),
                "contiguous": bool(i.contiguous), "data": i.data or 0,
                "borrowed": bool(i.borrowed)}

    @property
    def data_ptr(self) -> int:
        """Backend address of the first element (gpuk_tensor_info.data); 0
        for an empty tensor.  Device memory on a GPU."""
        d = self._data
        if d is None:
            d = self._data = self._info().data or 0
        else:
            self._live("data_ptr")
        return d

    def __repr__(self):
        dt = _NP_OF.get(self._dt) or self.gpuk_dtype
        if self.freed:
            return "gpuk.Tensor(<freed>, shape=%s, dtype=%s)" % (self._shape, dt)
        head = "gpuk.Tensor(shape=%s, dtype=%s, device=%r" % (self._shape, dt, self.device)
        if not self.is_contiguous:
            head += ", strides=%s" % (self.strides,)
        if self.size <= 64:
            try:
                body = np.array2string(self.numpy(), separator=", ", prefix="      ")
                return head + ",\n       " + body + ")"
            except Exception:
                pass
        return head + ")"

    def __len__(self):
        return self._shape[0]

    def __iter__(self):
        for i in range(self._shape[0]):
            yield self[i]

    # -- data in and out -------------------------------------------------------------

    def numpy(self) -> np.ndarray:
        """A copy of the tensor in a new NumPy array (gpuk_tensor_read; on a
        GPU it waits for the ops issued before)."""
        arr = np.empty(self._shape, numpy_dtype(self._dt, "numpy"))
        if arr.size:
            self._ctx._call("numpy", _lib.gpuk_tensor_read, self._ctx._ptr(), self._live("numpy"),
                            arr.ctypes.data, arr.nbytes)
        return arr

    def tolist(self):
        return self.numpy().tolist()

    def item(self):
        if self.size != 1:
            raise ShapeError("item: the tensor has %d elements, not 1" % self.size)
        return self.numpy().reshape(-1)[0].item()

    def __float__(self):
        return float(self.item())

    def __int__(self):
        return int(self.item())

    def __array__(self, dtype=None, copy=None):
        if copy is False:
            raise ValueError("a gpuk Tensor cannot become a NumPy array without a copy through "
                             "__array__; use numpy.from_dlpack(t) on a CPU context")
        arr = self.numpy()
        return arr if dtype is None else arr.astype(dtype, copy=False)

    def _host_bits(self):
        """The elements in a new host array of the dtype's bits (its NumPy
        type, else an unsigned integer of its size): a copy that never
        looks at the values."""
        arr = np.empty(self._shape, storage_dtype(self._dt))
        if arr.size:
            self._ctx._call("read", _lib.gpuk_tensor_read, self._ctx._ptr(), self._live("read"),
                            arr.ctypes.data, arr.nbytes)
        return arr

    def _write(self, arr):
        self._ctx._call("write", _lib.gpuk_tensor_write, self._ctx._ptr(), self._live("write"),
                        arr.ctypes.data, arr.nbytes)

    def copy(self) -> "Tensor":
        """A new dense tensor with the same contents (on the device)."""
        self._live("copy")
        out = self._ctx._create(self._shape, self._dt)
        if out.size == 0:
            return out
        if self.is_contiguous and self._ctx._has_rows("copy", self._dt):
            self._ctx._call("copy", _lib.gpuk_copy, self._ctx._p, self._h, out._h, None)
        else:
            out._write(self._host_bits())
        return out

    # -- views -----------------------------------------------------------------------

    def _view(self, shape, es, offset, what="view"):
        if not 1 <= len(shape) <= MAX_DIMS:
            raise ShapeError("%s: a view of %d dimensions; libgpuk has 1 to %d"
                             % (what, len(shape), MAX_DIMS))
        h = _c_void_p()
        self._ctx._call(what, _lib.gpuk_tensor_view, self._ctx._ptr(), self._live(what), len(shape),
                        _i64(shape), _i64(es), offset, _byref(h))
        return Tensor._make(self._ctx, h.value, tuple(shape), self._dt, tuple(es), offset,
                            self._keep, self._borrowed)

    def _index(self, key):
        """Shape, element strides and offset of self[key]; None for shape = scalar."""
        if not isinstance(key, tuple):
            key = (key,)
        ndim = len(self._shape)
        real = sum(1 for k in key if k is not None and k is not Ellipsis)
        if sum(1 for k in key if k is Ellipsis) > 1:
            raise _errors.IndexError_("an index can only have a single ellipsis ('...')")
        if real > ndim:
            raise _errors.IndexError_("too many indices: %d for a tensor of %d dimensions"
                                      % (real, ndim))
        shape, es, off, dim = [], [], self._offset, 0
        for k in key:
            if k is Ellipsis:
                for _ in range(ndim - real):
                    shape.append(self._shape[dim])
                    es.append(self._es[dim])
                    dim += 1
            elif k is None:
                shape.append(1)
                es.append(0)
            elif isinstance(k, slice):
                n = self._shape[dim]
                start, stop, step = k.indices(n)
                if step < 1:
                    raise LayoutError("slicing with step %d: libgpuk views have strides >= 0, so "
                                      "steps must be >= 1" % step)
                count = len(range(start, stop, step))
                if count:
                    off += start * self._es[dim]
                shape.append(count)
                es.append(self._es[dim] * step)
                dim += 1
            else:
                try:
                    i = operator.index(k)
                except TypeError:
                    raise _errors.IndexError_(
                        "only integers, slices, ... and None index a gpuk Tensor (basic "
                        "indexing), not %s" % type(k).__name__) from None
                n = self._shape[dim]
                if not -n <= i < n:
                    raise _errors.IndexError_("index %d is out of bounds for dimension %d of "
                                              "size %d" % (i, dim, n))
                off += (i % n) * self._es[dim]
                dim += 1
        while dim < ndim:
            shape.append(self._shape[dim])
            es.append(self._es[dim])
            dim += 1
        return shape, es, off

    def __getitem__(self, key):
        self._live("index")
        shape, es, off = self._index(key)
        if not shape:
            return self._view([1], [1], off, "index").numpy()[0].item()
        return self._view(shape, es, off, "index")

    def __setitem__(self, key, value):
        self._live("index")
        shape, es, off = self._index(key)
        target = self._view(shape or [1], es or [1], off, "index")
        try:
            if type(value) is Tensor:
                if value._ctx is self._ctx and value._dt == target._dt and \
                        self._ctx._has_rows("copy", value._dt) and \
                        value.is_contiguous and target.is_contiguous and value._shape == target._shape:
                    self._ctx._call("setitem", _lib.gpuk_copy, self._ctx._p, value._live("setitem"),
                                    target._h, None)
                    return
                value = value.numpy()
            try:
                arr = np.asarray(value, dtype=numpy_dtype(self._dt, "setitem"))
            except Exception as e:
                raise InvalidError("setitem: cannot make %s values of %s: %s"
                                   % (self.dtype, type(value).__name__, e)) from None
            try:
                arr = np.broadcast_to(arr, target._shape)
            except ValueError:
                raise ShapeError("setitem: a value of shape %s does not fit a view of shape %s"
                                 % (arr.shape, target._shape)) from None
            arr = np.ascontiguousarray(arr)
            if arr.size:
                target._write(arr)
        finally:
            target.free()

    @property
    def T(self) -> "Tensor":
        """The transposed view of a 2-D tensor: strides swapped, no copy.
        Its last stride is not 1, which every op refuses (LayoutError) for
        its operands; gpuk.transpose makes a row-major copy, and gemm/gemv
        take trans flags instead."""
        if len(self._shape) != 2:
            raise ShapeError("T: the tensor is %d-D, not 2-D" % len(self._shape))
        return self._view(self._shape[::-1], self._es[::-1], self._offset, "T")

    def reshape(self, *shape) -> "Tensor":
        """A view of a contiguous tensor with another shape (one -1 allowed)."""
        if len(shape) == 1 and not isinstance(shape[0], numbers.Integral):
            shape = shape[0]
        try:
            shape = [operator.index(n) for n in shape]
        except (TypeError, ValueError):
            raise InvalidError("reshape: the shape must be ints, got %r" % (shape,)) from None
        if shape.count(-1) > 1:
            raise ShapeError("reshape: only one dimension may be -1")
        if -1 in shape:
            rest = _prod([n for n in shape if n != -1])
            shape[shape.index(-1)] = self.size // rest if rest else 0
        shape = _shape_tuple(shape, "reshape")
        if _prod(shape) != self.size:
            raise ShapeError("reshape: cannot reshape %s (%d elements) to %s"
                             % (self._shape, self.size, shape))
        if not self.is_contiguous:
            raise LayoutError("reshape: the tensor is not contiguous; copy() it first")
        return self._view(shape, _dense_strides(shape), self._offset, "reshape")

    # -- DLPack export ---------------------------------------------------------------

    def __dlpack_device__(self) -> Tuple[int, int]:
        """(device_type, device_id) as DLPack numbers them: (1, 0) on the CPU,
        (2, ordinal) on CUDA (gpuk_info.dlpack_device and device_ordinal)."""
        dev = self._ctx._dl_device
        if dev is None:
            raise BufferError("backend %s names no DLPack device (a plugin older than ABI 2.1)"
                              % self._ctx.info.backend)
        return dev

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """Export the tensor (a view included) as a legacy "dltensor" capsule,
        without copying (gpuk_tensor_to_dlpack).

        The consumer (torch/cupy/numpy.from_dlpack) owns the capsule; the
        storage stays alive until it is done, even past Context.close().
        stream: the consumer's CUDA stream.  The data is ready on the
        context's stream (``ctx.info.stream``: the stream= of the Context,
        else its own), so a consumer that names that stream, or -1, gets the
        capsule at once; for any other stream (None and 1 included: the
        legacy default stream) the context's work is waited for first
        (gpuk_sync), so the data is complete whichever stream reads it.
        Ordering one stream after another without that wait would take the
        CUDA runtime, which this pure-ctypes package does not load.
        max_version: this producer only makes unversioned (DLPack 0.x)
        capsules, which the protocol lets it return whatever max_version
        asks.  dl_device: must be this tensor's device (else BufferError).
        copy=True exports a copy.
        """
        if self._h is None or self._ctx._p is None:
            raise BufferError("__dlpack__: the tensor was freed or its context closed")
        if stream is not None and not isinstance(stream, numbers.Integral):
            raise TypeError("__dlpack__: stream must be an int or None, not %s"
                            % type(stream).__name__)
        dev = self.__dlpack_device__()
        if dl_device is not None:
            try:
                dl_device = (operator.index(dl_device[0]), operator.index(dl_device[1]))
            except Exception:
                raise BufferError("__dlpack__: dl_device must be (device_type, device_id), "
                                  "got %r" % (dl_device,)) from None
        if dl_device is not None and dl_device != tuple(dev) and not (
                dev[0] == _dlpack.kDLCPU and dl_device[0] == _dlpack.kDLCPU):
            raise BufferError("__dlpack__: the tensor is on DLPack device %s, not %s; it cannot "
                              "be exported elsewhere" % (_dev_name(dev), _dev_name(dl_device)))
        src = self.copy() if copy else self
        try:
            ready = self._ctx._native_stream
            if dev[0] != _dlpack.kDLCPU and stream != -1 and (ready is None or stream != ready):
                self._ctx.sync()
            m = _c_void_p()
            try:
                self._ctx._call("__dlpack__", _lib.gpuk_tensor_to_dlpack, self._ctx._p, src._h,
                                _byref(m))
            except UnsupportedError as e:
                raise BufferError("__dlpack__: %s" % e.message) from None
            return _dlpack.make_capsule(m.value)
        finally:
            if src is not self:
                src.free()

    # -- a few operators -------------------------------------------------------------

    def __add__(self, other):
        from . import _ops
        return _ops.add(self, other)

    def __mul__(self, alpha):
        from . import _ops
        if not isinstance(alpha, numbers.Real):
            return NotImplemented
        return _ops.scale(alpha, self)

    __rmul__ = __mul__

    def __matmul__(self, other):
        from . import _ops
        return _ops.matmul(self, other)


# -- default context -------------------------------------------------------------------------

_default = None
_default_lock = threading.Lock()


def default_context() -> Context:
    """The context ops use when no argument is a gpuk Tensor and no ctx= is
    given: opened on first use as Context() (GPUK_BACKEND, else "auto"),
    or the one set_default_context() installed."""
    global _default
    d = _default
    if d is None or d._p is None:
        with _default_lock:
            if _default is None or _default._p is None:
                _default = Context()
            d = _default
    return d


def set_default_context(ctx: Optional[Context]) -> Optional[Context]:
    """Make ctx the default context (None: open one again on next use);
    returns the previous one, which stays open."""
    global _default
    if ctx is not None and not isinstance(ctx, Context):
        raise InvalidError("set_default_context takes a gpuk.Context or None")
    with _default_lock:
        prev, _default = _default, ctx
    return prev


@atexit.register
def _close_all():
    # before the interpreter tears down: a producer's DLPack deleter (NumPy's,
    # PyTorch's) may still need it when the context frees a borrowed tensor
    for ctx in list(_live_contexts):
        try:
            ctx.close()
        except Exception:
            pass

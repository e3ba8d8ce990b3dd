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

F32 = 1
I32 = 2
MAX_DIMS = _lib.MAX_DIMS

_NP_OF = {F32: np.dtype(np.float32), I32: np.dtype(np.int32)}
_GK_OF = {np.dtype(np.float32): F32, np.dtype(np.int32): I32}
_DT_NAMES = {"f32": F32, "float32": F32, "i32": I32, "int32": I32}

_c_void_p = ctypes.c_void_p
_byref = ctypes.byref
_I64 = ctypes.c_int64


def dtype_code(dtype, what="dtype"):
    """gpuk dtype value of a dtype given as "f32"/"float32"/np.float32/..."""
    if isinstance(dtype, str):
        code = _DT_NAMES.get(dtype)
        if code is not None:
            return code
    try:
        code = _GK_OF.get(np.dtype(dtype))
    except Exception:
        code = None
    if code is None:
        raise DtypeError("%s %r: libgpuk has f32 (numpy.float32) and i32 (numpy.int32)"
                         % (what, dtype))
    return code


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
            num_threads=None, stream=None, pinned_bytes=None)

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
                 pinned_bytes: Optional[int] = None):
        self._p = None
        self._lock = threading.Lock()
        self._grave = []
        # NumPy memory the ops used in place, wrapped once (see _ops._Wrap):
        # (data, shape, strides, dtype) -> _Wrap, least recently used first;
        # and the descriptions seen once
        self._np_wraps = {}
        self._np_seen = {}
        self._stream_obj = stream
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
                dtypes=tuple(name for v, (name, _) in sorted(_lib.DTYPES.items())
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
        """A ceiling measured by the backend's micro-kernels: "copy_gbs",
        "fma_gflops", "addmin_gops", "h2d_gbs" or "d2h_gbs" (the last two
        raise UnsupportedError on the CPU)."""
        k = _lib.PEAK_KINDS.get(kind)
        if k is None:
            raise InvalidError("peak kind %r: one of %s" % (kind, ", ".join(_lib.PEAK_KINDS)))
        v = ctypes.c_double()
        self._call("peak", _lib.gpuk_peak_measure, self._ptr(), k, _byref(v))
        return v.value

    # -- tensors ---------------------------------------------------------------------------

    def empty(self, shape, dtype="f32") -> "Tensor":
        """A new dense tensor of shape (1 to 4 dimensions) and dtype ("f32"
        or "i32"); its contents are undefined until written."""
        return self._create(_shape_tuple(shape), dtype_code(dtype))

    def zeros(self, shape, dtype="f32") -> "Tensor":
        """A new dense tensor filled with zeros."""
        t = self.empty(shape, dtype)
        if t.size:
            t._write(np.zeros(t._shape, _NP_OF[t._dt]))
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
        dtype: "f32" or "i32"; None takes float32 for floating-point data
        and int32 for integers and booleans (an integer outside int32 raises
        OverflowError).  A 0-dimensional array becomes shape (1,).
        """
        self._ptr("asarray")
        if type(obj) is Tensor:
            if obj._ctx is self and (dtype is None or dtype_code(dtype) == obj._dt):
                obj._live("asarray")
                return obj
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
        backend, memory of this GPU for CUDA), be float32 or int32, and have
        non-negative strides; otherwise InvalidError, DtypeError or
        LayoutError, and nothing is kept.  The producer's memory stays alive
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

    def csr(self, matrix, shape=None) -> "CSRMatrix":
        """A sparse matrix in CSR form on this context (gpuk_csr_create).

        matrix: a scipy.sparse matrix or array (converted with .tocsr(), its
        duplicate entries summed), or a tuple (data, indices, indptr) of
        arrays with shape=(rows, cols), or (data, indices, indptr, shape).
        Values become float32 and indices int32 (OverflowError beyond).
        The structure is checked (SparseError names the first bad position);
        the arrays are copied, so they may change afterwards.
        """
        p = self._ptr("csr")
        data, indices, indptr, (rows, cols) = _csr_parts(matrix, shape)
        h = _c_void_p()
        nnz = len(data)
        self._call("csr", _lib.gpuk_csr_create, p, rows, cols, nnz,
                   indptr.ctypes.data, indices.ctypes.data if nnz else None,
                   data.ctypes.data if nnz else None, _byref(h))
        return CSRMatrix._make(self, h.value, (rows, cols), nnz)


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


def _host_array(obj, dtype):
    """obj as a C-contiguous NumPy array of float32 or int32 (a copy if needed)."""
    try:
        arr = np.asarray(obj)
    except Exception as e:
        raise InvalidError("asarray: cannot make an array of %s: %s" % (type(obj).__name__, e)) from e
    if dtype is not None:
        target = _NP_OF[dtype_code(dtype)]
    elif arr.dtype.kind == "f":
        target = _NP_OF[F32]
    elif arr.dtype.kind in "iub":
        target = _NP_OF[I32]
    else:
        raise DtypeError("asarray: dtype %s has no libgpuk counterpart (float32, int32)" % arr.dtype)
    if target == _NP_OF[I32] and arr.dtype.kind in "iu" and arr.size and arr.dtype != target:
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


def _csr_parts(matrix, shape):
    try:
        return _csr_parts_(matrix, shape)
    except _errors.Error:
        raise
    except Exception as e:
        raise InvalidError("csr: cannot read the matrix: %s: %s" % (type(e).__name__, e)) from e


def _csr_parts_(matrix, shape):
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
    if data.ndim != 1 or data.dtype.kind not in "fiub":
        raise InvalidError("csr: data must be a 1-D array of real numbers")
    data = np.ascontiguousarray(data, dtype=np.float32)
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
    (rows, cols), nnz the number of stored entries; free() releases it now
    (closing the context does too).
    """

    __slots__ = ("_ctx", "_h", "shape", "nnz", "__weakref__")

    @classmethod
    def _make(cls, ctx, h, shape, nnz):
        m = object.__new__(cls)
        m._ctx, m._h, m.shape, m.nnz = ctx, h, shape, nnz
        return m

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
        return "<gpuk.CSRMatrix %dx%d, %d stored entries, on %s%s>" % (
            self.shape[0], self.shape[1], self.nnz,
            self._ctx.device if self._ctx._p else "a closed context", state)


class Tensor:
    """An array of float32 or int32 in a backend's memory (gpuk_tensor).

    Made by Context.empty/zeros/asarray/from_dlpack, by the ops, or by
    slicing another tensor.  NumPy conventions:

    shape, ndim, size, dtype (a numpy.dtype), itemsize, nbytes
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
        return _NP_OF[self._dt]

    @property
    def itemsize(self) -> int:
        return 4

    @property
    def nbytes(self) -> int:
        return self.size * 4

    @property
    def strides(self) -> Tuple[int, ...]:
        """Strides in bytes, as NumPy gives them."""
        return tuple(s * 4 for s in self._es)

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
        if self.freed:
            return "gpuk.Tensor(<freed>, shape=%s, dtype=%s)" % (self._shape, self.dtype)
        head = "gpuk.Tensor(shape=%s, dtype=%s, device=%r" % (self._shape, self.dtype, self.device)
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
        arr = np.empty(self._shape, _NP_OF[self._dt])
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

    def _write(self, arr):
        self._ctx._call("write", _lib.gpuk_tensor_write, self._ctx._ptr(), self._live("write"),
                        arr.ctypes.data, arr.nbytes)

    def copy(self) -> "Tensor":
        """A new dense tensor with the same contents (on the device)."""
        self._live("copy")
        out = self._ctx._create(self._shape, self._dt)
        if out.size == 0:
            return out
        if self._dt == F32 and self.is_contiguous:
            self._ctx._call("copy", _lib.gpuk_copy, self._ctx._p, self._h, out._h, None)
        else:
            out._write(self.numpy())
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
                if value._ctx is self._ctx and value._dt == F32 == target._dt and \
                        value.is_contiguous and target.is_contiguous and value._shape == target._shape:
                    self._ctx._call("setitem", _lib.gpuk_copy, self._ctx._p, value._live("setitem"),
                                    target._h, None)
                    return
                value = value.numpy()
            try:
                arr = np.asarray(value, dtype=_NP_OF[self._dt])
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

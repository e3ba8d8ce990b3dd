"""The ops: one function per libgpuk op, NumPy style.

Conventions shared by every op (the docstrings do not repeat them):

Operands are gpuk Tensors or arrays of other libraries:

* A gpuk Tensor is used as it is.  Every Tensor argument must belong to
  one Context, and that Context runs the op (ContextError otherwise).
* With no Tensor among the arguments, the op runs on ``ctx=`` if given,
  else on ``gpuk.default_context()``.
* A NumPy array on a CPU context, and an array of another library that
  lives on the context's device (a PyTorch/CuPy/JAX array through DLPack:
  CPU memory for the CPU backend, the same GPU for CUDA), is used in place,
  without a copy, for inputs and for ``out=`` alike.
* A host array (NumPy, or another library's CPU array) given as an input
  on a GPU context is copied in for the call.  As ``out=`` it is refused
  (InvalidError): the output must live where the op runs.
* An array on another device (a CUDA tensor on a CPU context, another GPU)
  is refused with InvalidError.
* Nothing is converted silently: an array is used in its own dtype, and
  one libgpuk lacks (int64, complex, ...) raises DtypeError, as does a
  dtype the backend has no rung of the op for (the library's message lists
  those it has); a strided array where the op needs a dense one raises
  LayoutError (use ``numpy.ascontiguousarray``).

Dtypes: an op computes in the dtype of its lead operand (a matmul's ``a``,
an embedding's ``table``, an spmv's matrix), and every other operand must
have it, but for the ones whose type is fixed (embedding's ids are int32).
Each op's docstring says which dtypes it means something in: f32, and f64
(float64: the same op computed in double; min-plus and the other exact ops
stay bit-exact), and for min-plus i32.  Which of them the loaded backend
has is its kernel table: ``Context.variants(op, dtype)``, or gpuk-info.
f16 and bf16 make tensors (ml_dtypes' bfloat16, or PyTorch's through
DLPack) that no op computes in yet.

Results: a new Tensor on the op's context, in the dtype of the lead
operand, or, with ``out=``, the result is written into ``out`` (a Tensor or
an array of the context's device, of the exact result shape and that
dtype) and ``out`` itself is returned.

``variant=`` names a rung of the op's ladder on the backend (see
``Context.variants(op)`` or gpuk-info); None or "auto" takes the default.

Errors raise the exception of the library's status code (ShapeError,
DtypeError, LayoutError, AliasError, VariantError, ...), whose message names
the C argument at fault; the output is not written.  Overlap between the
output and an input is judged by libgpuk on absolute address ranges, so
arrays of other libraries, and NumPy views of gpuk tensors, are compared
like tensors of one storage.

CUDA: the memory of another library is taken with the context's stream
handed to its producer (the DLPack protocol), so the producer's queued work
comes first without a wait.  libgpuk gives that memory back (the temporary
handle of one call) only once the context's work on it is done, so an op
that used another library's memory in place returns when its work is
finished, and that library may read or free the memory at once.  Make a
gpuk Tensor of such an array once (Context.from_dlpack) to keep the ops on
it asynchronous.
"""

import builtins
import ctypes
import numbers
import operator
from typing import Any, Optional

import numpy as np

from . import _core, _dlpack, _errors, _lib
from ._core import (MAX_DIMS, Context, CSRMatrix, Tensor, _GK_OF, _dense_strides, _i64,
                    default_context, dlpack_device_of, dtype_names)
from ._errors import (ContextError, DtypeError, HandleError, InvalidError, LayoutError,
                      ShapeError)

# an operand: a gpuk.Tensor, a NumPy array, or any object with __dlpack__
ArrayLike = Any
_builtin_sum = builtins.sum
_c_void_p = ctypes.c_void_p
_byref = ctypes.byref
_ndarray = np.ndarray
_new_tensor = object.__new__
_wrap_raw = _lib.gpuk_tensor_wrap_raw
_destroy_raw = _lib.gpuk_tensor_destroy_raw


# -- arguments --------------------------------------------------------------------------------

def _ctx_of(op, ctx, names, objs):
    """The context the op runs on: that of its gpuk objects, else ctx=, else the default."""
    c = ctx
    for o in objs:
        if type(o) is Tensor or type(o) is CSRMatrix:
            oc = o._ctx
            if c is None:
                c = oc
            elif oc is not c:
                _context_mismatch(op, ctx, names, objs)
    if c is None:
        c = default_context()
    elif type(c) is not Context:
        raise InvalidError("gpuk.%s: ctx must be a gpuk.Context, got %s" % (op, type(c).__name__))
    if c._p is None:
        raise HandleError("gpuk.%s: the context is closed" % op)
    return c


def _context_mismatch(op, ctx, names, objs):
    owners = []
    if ctx is not None:
        owners.append(("ctx=", ctx))
    owners += [(n, o._ctx) for n, o in zip(names, objs)
               if type(o) is Tensor or type(o) is CSRMatrix]
    first = owners[0]
    for n, c in owners[1:]:
        if c is not first[1]:
            raise ContextError("gpuk.%s: %s and %s belong to different contexts (%r, %r); an op "
                               "runs on one context" % (op, first[0], n, first[1], c))
    raise ContextError("gpuk.%s: operands of different contexts" % op)


def _arg(c, obj, name, op, temps, writable=False):
    """obj as a Tensor of context c (a temporary one for a foreign array)."""
    tp = type(obj)
    if tp is Tensor:
        if obj._h is None:
            raise HandleError("gpuk.%s: %s was freed" % (op, name))
        return obj
    if tp is _ndarray and c._np_lend:
        t = _lend_numpy(c, obj, name, op, writable)
    elif obj is None:
        raise _errors.NullError("gpuk.%s: %s is None" % (op, name))
    else:
        t = _foreign(c, obj, name, op, writable)
    temps.append(t)
    return t


def _foreign(c, obj, name, op, writable):
    if isinstance(obj, np.ndarray):
        if c._host:                         # wrapped for this call only
            return _wrap_numpy(c, obj, name, op, writable)
        if writable:
            raise InvalidError("gpuk.%s: %s is a NumPy array and the op runs on %s: an output "
                               "must live there (pass a gpuk Tensor, or out=None)"
                               % (op, name, c.device))
        return _copy_in(c, obj, name, op)
    if type(obj) is CSRMatrix:
        raise InvalidError("gpuk.%s: %s is a CSR matrix; only spmv takes one" % (op, name))
    if hasattr(obj, "__dlpack__"):
        dev = dlpack_device_of(obj, "gpuk.%s: %s" % (op, name))
        if dev is None or c._device_ok(dev):
            try:
                return c.from_dlpack(obj)
            except _errors.Error as e:
                raise type(e)("gpuk.%s: %s: %s" % (op, name, e.message)) from None
        if dev[0] in (_dlpack.kDLCPU, _dlpack.kDLCUDAHost) and not writable:
            try:
                arr = np.from_dlpack(obj)
            except Exception as e:
                raise InvalidError("gpuk.%s: %s: cannot read the host array: %s"
                                   % (op, name, e)) from e
            return _copy_in(c, arr, name, op)
        raise InvalidError("gpuk.%s: %s is on DLPack device %s and the op runs on %s%s"
                           % (op, name, _dev(dev), c.device,
                              "" if writable else ": move it there first"))
    raise InvalidError("gpuk.%s: %s must be a gpuk.Tensor or an array (NumPy, or anything with "
                       "__dlpack__: PyTorch, CuPy, JAX), not %s" % (op, name, type(obj).__name__))


def _dev(dev):
    return "%s:%d" % (_dlpack.DEVICE_NAMES.get(dev[0], "type %d" % dev[0]), dev[1])


def _np_dtype(arr, name, op):
    dt = _GK_OF.get(arr.dtype)
    if dt is None:
        raise DtypeError("gpuk.%s: %s has dtype %s, which libgpuk lacks (it has %s; integers "
                         "are int32): convert it with .astype()" % (op, name, arr.dtype,
                                                                    dtype_names()))
    return dt


def _layout(arr, name, op):
    """The libgpuk shape and element strides (None: dense) of a NumPy array."""
    shape = arr.shape
    nd = len(shape)
    if nd > MAX_DIMS:
        raise ShapeError("gpuk.%s: %s has %d dimensions; libgpuk takes 1 to %d"
                         % (op, name, nd, MAX_DIMS))
    if nd == 0:
        return (1,), None
    if arr.flags.c_contiguous:
        return shape, None
    es = []
    size = arr.itemsize
    for n, s in zip(shape, arr.strides):
        if n <= 1:
            s = 0
        if s < 0 or s % size:
            raise LayoutError("gpuk.%s: %s has strides %s (bytes): libgpuk needs strides >= 0 "
                              "and whole elements; pass numpy.ascontiguousarray(%s)"
                              % (op, name, arr.strides, name))
        es.append(s // size)
    return shape, tuple(es)


def _wrap(c, dt, shape, es, data, name, op):
    """gpuk_tensor_wrap under the context's lock (held by the caller); the handle."""
    if c._p is None:
        raise HandleError("gpuk.%s: the context is closed" % op)
    h = _c_void_p()
    st = _wrap_raw(c._pv, dt, len(shape), _i64(shape), None if es is None else _i64(es),
                   _c_void_p(data), _byref(h))
    if st:
        raise _errors.make(st, "gpuk.%s: %s: %s" % (op, name,
                                                      _lib.text(_lib.gpuk_context_error(c._p))))
    return h.value


def _wrap_numpy(c, arr, name, op, writable):
    """A tensor over a NumPy array's memory (gpuk_tensor_wrap), no copy, for
    one call: _free destroys it.  Arrays of a subclass of ndarray come here,
    and all arrays on a host backend other than cpu; plain ndarrays on the
    cpu backend take _lend_numpy."""
    dt = _GK_OF.get(arr.dtype)
    if dt is None:
        _np_dtype(arr, name, op)
    if writable and not arr.flags.writeable:
        raise InvalidError("gpuk.%s: %s is a read-only NumPy array" % (op, name))
    shape, es = _layout(arr, name, op)
    data = _data_of(arr)
    with c._lock:
        h = _wrap(c, dt, shape, es, data, name, op)
    return Tensor._make(c, h, shape, dt, _dense_strides(shape) if es is None else es, 0,
                        keep=arr, borrowed=True, data=data)


# -- NumPy arrays used in place, wrapped once --------------------------------------------------
#
# What an op on NumPy arrays costs over C is mostly the gpuk_tensor_wrap and
# gpuk_tensor_destroy of each array, with the Python around them.  So a CPU
# context remembers the wraps its ops made, up to WRAP_CACHE of them (the
# least recently used goes first), and a later call reuses the handle.
#
# A wrap on the cpu backend is a description and nothing more: an address,
# a dtype, a shape and strides (gpuk_tensor_wrap neither reads the memory
# nor keeps anything of the array, and the backend's check_pointer accepts
# any host address; another host plugin might check more, so its contexts
# wrap per call).  So the cache is keyed by exactly that
# description, read from the array at every call: (data address, shape,
# strides, dtype).  A handle is handed out only for an array passed to the
# call, alive for the call, whose description is the handle's, so it
# describes that array's memory at that moment, whichever array object it
# was made for.  That is what makes it safe without holding the arrays:
#
# * the cache holds no reference to any array, keeps no memory alive, and
#   changes nothing NumPy sees (an array can still be resized, say);
# * memory freed and reused by another array, an array resized or
#   reshaped in place, or given another dtype or strides: each has a new
#   description, hence a new wrap (the old one lingers, unused, until the
#   least-recently-used order drops it; nothing reads memory through it);
# * views made anew for each call of the same memory with the same layout
#   (a[:], a.reshape(...)) find the wrap of the first.
#
# A description is remembered the second time it comes: the first call
# gets a wrap of its own, destroyed when the call ends, and the description
# a note among the last SEEN (forgotten all at once when they are more), so
# an array made for one call, which dies when the call returns, costs no
# more than that wrap, and pushes no remembered wrap out.
#
# Every change to the cache is made under the context's lock.  A wrap in
# use by a call in flight (pins > 0, in any thread) is never destroyed: one
# dropped from the cache meanwhile is destroyed by that call's _free.  Each
# call gets its own Tensor object over the handle, so the cache holds
# nothing that refers back to the context.  Read-only arrays are checked at
# every call (flags can change).  Arrays of ndarray subclasses are wrapped
# per call, and GPU contexts copy NumPy arrays in instead (there a wrap
# would be of device memory, which NumPy never has).

WRAP_CACHE = 64
SEEN = 4 * WRAP_CACHE


class _Wrap:
    """One remembered wrap of NumPy memory (see above)."""
    __slots__ = ("key", "h", "gshape", "es", "dt", "pins")


def _lend_numpy(c, arr, name, op, writable):
    """A Tensor over a plain ndarray for one call: on a remembered wrap, or
    on a wrap of its own the first time (see above)."""
    dt = _GK_OF.get(arr.dtype)
    if dt is None:
        _np_dtype(arr, name, op)
    if writable and not arr.flags.writeable:
        raise InvalidError("gpuk.%s: %s is a read-only NumPy array" % (op, name))
    data = _data_of(arr)
    key = (data, arr.shape, arr.strides, dt)
    t = _new_tensor(Tensor)                     # Tensor._make, spelled out: the hot path
    t._h = None
    t._ctx = c
    t._dt = dt
    t._offset = 0
    t._borrowed = True
    t._data = data
    cache = c._np_wraps
    with c._lock:
        w = cache.pop(key, None)
        if w is not None:
            w.pins += 1
            cache[key] = w                      # now the most recently used
            t._h = w.h
            t._shape = w.gshape
            t._es = w.es
            t._keep = w
            return t
        gshape = arr.shape
        if arr.flags.c_contiguous and 0 < len(gshape) <= MAX_DIMS:
            es = None
        else:
            gshape, es = _layout(arr, name, op)
        if c._p is None:
            raise HandleError("gpuk.%s: the context is closed" % op)
        hv = _c_void_p()
        st = _wrap_raw(c._pv, dt, len(gshape), _i64(gshape), None if es is None else _i64(es),
                       _c_void_p(data), _byref(hv))
        if st:
            raise _errors.make(st, "gpuk.%s: %s: %s" % (
                op, name, _lib.text(_lib.gpuk_context_error(c._p))))
        h = hv.value
        es = _dense_strides(gshape) if es is None else es
        t._h = h
        t._shape = gshape
        t._es = es
        seen = c._np_seen
        if key not in seen:
            # first sight: the wrap is this call's alone (_free destroys it)
            if len(seen) >= SEEN:
                seen.clear()
            seen[key] = None
            t._keep = arr
            return t
        del seen[key]
        w = _Wrap()
        w.key, w.h, w.gshape, w.es, w.dt, w.pins = key, h, gshape, es, dt, 1
        cache[key] = w
        if len(cache) > WRAP_CACHE:
            _evict(c, cache)
        t._keep = w
        return t


def _unlink(c, w):
    """Take w out of the cache (lock held) and destroy its handle unless a
    call in flight uses it; that call's _free destroys it then."""
    if w.key is not None and c._np_wraps.get(w.key) is w:
        del c._np_wraps[w.key]
    w.key = None
    if w.pins == 0 and w.h is not None:
        h, w.h = w.h, None
        if c._p is not None:
            _destroy_raw(c._pv, _c_void_p(h))


def _evict(c, cache):
    """Drop the least recently used wraps no call is using (lock held)."""
    while len(cache) > WRAP_CACHE:
        w = cache[next(iter(cache))]            # the oldest
        if w.pins:                              # in use: look past it (rare)
            for w in list(cache.values()):
                if not w.pins:
                    break
            else:
                return
        _unlink(c, w)


def _data_of_interface(arr):
    """The address of an array's first element, as NumPy's array interface says."""
    return arr.__array_interface__["data"][0]


def _data_reader():
    """A faster way to read an ndarray's data pointer, or the array interface.

    The array interface builds a dict of five entries for one number (some
    0.7 to 1.3 us, three times per call of a binary op).  NumPy's C API
    keeps that number in PyArrayObject, as `char *data`, the first member
    after the object header (ndarraytypes.h; PyArray_DATA compiled into
    every extension reads it there, so NumPy cannot move it).  It is read
    there with one ctypes load (about 0.1 us) on CPython, where id() is the
    object's address and object.__basicsize__ the header's size, once
    arrays of every kind (offset views, strided, empty, 0-d, Fortran) were
    seen to give the same address both ways; else the interface is kept.
    """
    import sys
    if sys.implementation.name != "cpython":
        return _data_of_interface
    off = object.__basicsize__
    load = ctypes.c_void_p.from_address

    def data_of(arr):
        return load(id(arr) + off).value or 0

    base = np.arange(96, dtype=np.float32)
    probes = [base, base[7:], base[5:60:3], base.reshape(8, 12)[2:, 3:], base.reshape(8, 12).T,
              np.empty(0, np.float32), np.array(1.5, np.float32), np.ones((3, 4), np.int32),
              np.asfortranarray(base.reshape(8, 12))]
    try:
        if all(type(a) is _ndarray and data_of(a) == _data_of_interface(a) for a in probes):
            return data_of
    except Exception:
        pass
    return _data_of_interface


_data_of = _data_reader()


def _copy_in(c, arr, name, op):
    dt = _np_dtype(arr, name, op)
    shape = arr.shape or (1,)
    if len(shape) > MAX_DIMS:
        raise ShapeError("gpuk.%s: %s has %d dimensions; libgpuk takes 1 to %d"
                         % (op, name, len(shape), MAX_DIMS))
    t = c._create(tuple(shape), dt)
    if t.size:
        t._write(np.ascontiguousarray(arr))
    return t


def _out(c, out, shape, op, temps, dt):
    """(the output Tensor, what the op returns); a new one of dtype dt
    (the lead operand's) when out is None."""
    if out is None:
        t = c._create(shape, dt)
        return t, t
    return _arg(c, out, "out", op, temps, writable=True), out


def _variant(v, op):
    if v is None:
        return None
    if isinstance(v, str):
        return v.encode()
    raise InvalidError("gpuk.%s: variant must be a str (a rung name) or None, not %s"
                       % (op, type(v).__name__))


def _real(v, name, op):
    if isinstance(v, numbers.Real):
        return float(v)
    raise InvalidError("gpuk.%s: %s must be a real number, not %s" % (op, name, type(v).__name__))


def _flag(v, name, op):
    if isinstance(v, (bool, np.bool_)) or (isinstance(v, numbers.Integral) and v in (0, 1)):
        return 1 if v else 0
    raise InvalidError("gpuk.%s: %s must be True or False, not %r" % (op, name, v))


def _need_ndim(t, n, name, op, what=None):
    if len(t._shape) not in ((n,) if isinstance(n, int) else n):
        raise ShapeError("gpuk.%s: %s has shape %s; it must be %s" % (
            op, name, t._shape, what or "%d-D" % n))


# -- running ---------------------------------------------------------------------------------

def _run(c, op, fn, args):
    """Call fn(ctx, *args) under the context's lock; raise its status.

    Overlap of outputs and inputs is libgpuk's to judge, on absolute
    addresses, whatever memory they are in: nothing to check here."""
    if fn is None:
        raise _errors.by_code("GPUK_ERR_UNSUPPORTED")(
            "gpuk.%s: the libgpuk loaded (%s) lacks the function: it is older than the op"
            % (op, _lib.path))
    with c._lock:
        p = c._p
        if p is None:
            raise HandleError("gpuk.%s: the context is closed" % op)
        st = fn(p, *args)
        if st:
            msg = _lib.text(_lib.gpuk_context_error(p))
        elif c._grave:
            c._drain()
    if st:
        raise _errors.make(st, "gpuk.%s: %s" % (op, msg))


def _free(temps):
    """Destroy the temporaries of one call, under one hold of the lock.

    No wait here for memory of another library: libgpuk syncs the context
    before it hands borrowed memory back (the DLPack deleter), so the
    producer may reuse it, or read an out= array, once this returns."""
    c = temps[0]._ctx
    with c._lock:
        live = c._p is not None
        pv = c._pv
        for t in temps:
            h, t._h = t._h, None
            w = t._keep
            if type(w) is _Wrap and w.h == h and h is not None:
                w.pins -= 1                 # a remembered wrap: only lent to this call
                if w.key is None and w.pins == 0:
                    _unlink(c, w)
            elif h is not None and live:
                _destroy_raw(pv, _c_void_p(h))


# -- dense products ---------------------------------------------------------------------------

def matmul(a: ArrayLike, b: ArrayLike, bias: Optional[ArrayLike] = None, *,
           out: Optional[ArrayLike] = None, variant: Optional[str] = None,
           ctx: Optional[Context] = None) -> Any:
    """Matrix product with an optional bias: out[i, j] = sum_p a[i, p] * b[p, j] (+ bias[j]).

    Dtypes: f32 or f64 (float32, float64), all operands alike; the result
    has a's dtype.  a [m, k]; b [k, n]; bias: None or [n], added to every
    row (a linear layer); result [m, n].  With k = 0 the result is the
    bias repeated over the rows, or zeros.

    a, b and out may be strided views whose last stride is 1 (a block of a
    larger matrix); bias must be contiguous.  out may not overlap a, b or
    bias (address ranges, even when interleaved without a shared element).

    Accuracy: each element is a sum of k products, summed in an order that
    differs by rung and backend, within C * gamma_k * sum_p |a[i,p]| |b[p,j]|
    of the exact value (gamma_k = k u / (1 - k u), u the unit roundoff of
    the dtype: 2**-24 in f32, 2**-53 in f64).  Rungs flagged tf32 round the
    inputs to TF32 (u = 2**-11) and run only when named.

    Raises ShapeError (not 2-D, inner dimensions differ, bias not of length
    n, out not [m, n]), DtypeError (a dtype the backend has no rung for,
    operands of different dtypes), LayoutError (last stride
    not 1, bias not contiguous, out mapping two elements to one address),
    AliasError, VariantError, UnsupportedError, NoMemoryError /
    DeviceMemoryError (a rung's scratch space), DeviceError, LibraryError
    (cuBLAS or OpenBLAS rungs), CheckError (shadow mode).  See gpuk_matmul(3).
    """
    op = "matmul"
    c = _ctx_of(op, ctx, ("a", "b", "bias", "out"), (a, b, bias, out))
    temps = []
    try:
        a = _arg(c, a, "a", op, temps)
        b = _arg(c, b, "b", op, temps)
        if bias is not None:
            bias = _arg(c, bias, "bias", op, temps)
        _need_ndim(a, 2, "a", op)
        _need_ndim(b, 2, "b", op)
        o, ret = _out(c, out, (a._shape[0], b._shape[1]), op, temps, a._dt)
        _run(c, op, _lib.gpuk_matmul,
             (a._h, b._h, bias._h if bias is not None else None, o._h, _variant(variant, op)))
        return ret
    finally:
        if temps:
            _free(temps)


def batched_matmul(a: ArrayLike, b: ArrayLike, *, out: Optional[ArrayLike] = None,
                   variant: Optional[str] = None, ctx: Optional[Context] = None) -> Any:
    """A batch of matrix products: out[i] = a[i or 0] @ b[i or 0].

    Dtypes: f32 or f64, as matmul.  a [ba, m, k]; b [bb, k, n]; result [bc, m, n] with
    bc = max(ba, bb).  A batch dimension of 1 broadcasts (the same matrix
    for every i); otherwise ba and bb must equal bc.  Any strides with a
    last stride of 1 are taken, so the batch stride need not be the matrix
    size.  out may not overlap a or b.

    Accuracy: as matmul, with k the length of each sum.  Raises as matmul
    (ShapeError for operands that are not 3-D or batches that are neither 1
    nor bc).  See gpuk_batched_matmul(3).
    """
    op = "batched_matmul"
    c = _ctx_of(op, ctx, ("a", "b", "out"), (a, b, out))
    temps = []
    try:
        a = _arg(c, a, "a", op, temps)
        b = _arg(c, b, "b", op, temps)
        _need_ndim(a, 3, "a", op)
        _need_ndim(b, 3, "b", op)
        bc = a._shape[0] if b._shape[0] == 1 else b._shape[0]
        o, ret = _out(c, out, (bc, a._shape[1], b._shape[2]), op, temps, a._dt)
        _run(c, op, _lib.gpuk_batched_matmul, (a._h, b._h, o._h, _variant(variant, op)))
        return ret
    finally:
        if temps:
            _free(temps)


def minplus(a: ArrayLike, b: ArrayLike, *, out: Optional[ArrayLike] = None,
            variant: Optional[str] = None, ctx: Optional[Context] = None) -> Any:
    """Min-plus (tropical) product: out[i, j] = min_p (a[i, p] + b[p, j]).

    Dtypes: f32, f64 or i32 (float32, float64, int32), all three alike;
    the result has a's dtype, so two int32 arrays give an int32 result.
    a [m, k]; b [k, n]; result [m, n]: matrix multiplication with + for *
    and min for +.  With a the edge lengths of
    a graph (inf where there is no edge, 0 on the diagonal), minplus(a, a)
    gives the shortest paths of at most two edges; repeated squaring gives
    all shortest paths.  a and b may be the same tensor.

    Bit-exact on every backend and rung: each candidate is one rounded
    addition and the minimum does not round, in f64 as in f32.  A NaN sum
    (a NaN operand, or +inf meeting -inf) is skipped, so a row of NaN sums
    gives +inf; of +0 and -0 the result is -0; with k = 0 every element is
    +inf.  In i32 each sum is the 32-bit two's-complement sum and the
    minimum starts at GPUK_I32_INF (2**30 - 1), the value of a missing edge
    and the largest result (see gpuk_minplus(3) for the range where no sum
    wraps).

    All three must be contiguous (LayoutError), out may not overlap a or b
    (AliasError).  Raises ShapeError (not 2-D, inner dimensions differ),
    DtypeError, VariantError, UnsupportedError, NoMemoryError /
    DeviceMemoryError, DeviceError, CheckError.  See gpuk_minplus(3).
    """
    op = "minplus"
    c = _ctx_of(op, ctx, ("a", "b", "out"), (a, b, out))
    temps = []
    try:
        a = _arg(c, a, "a", op, temps)
        b = _arg(c, b, "b", op, temps)
        _need_ndim(a, 2, "a", op)
        _need_ndim(b, 2, "b", op)
        o, ret = _out(c, out, (a._shape[0], b._shape[1]), op, temps, a._dt)
        _run(c, op, _lib.gpuk_minplus, (a._h, b._h, o._h, _variant(variant, op)))
        return ret
    finally:
        if temps:
            _free(temps)


def minplus_update(a: ArrayLike, b: ArrayLike, r: ArrayLike, *, variant: Optional[str] = None,
                   ctx: Optional[Context] = None) -> Any:
    """Min-plus product folded into r, in place: r[i, j] = min(r[i, j], min_p (a[i, p] + b[p, j])).

    Dtypes: f32, f64 or i32, as minplus, all three alike.  a [m, k]; b
    [k, n]; r [m, n], read and overwritten, and returned (a gpuk Tensor, or an array of the context's
    device used in place: a NumPy array on a CPU context).  The old value
    of each element is one more candidate of the same minimum, under the
    rules of minplus: a NaN in r is skipped like a NaN sum (so r is never
    NaN afterwards), and a tie of +0 and -0, the old value included, gives
    -0.  So the result is exactly numpy.fmin(r, minplus(a, b)) with -0 below
    +0, bit-exact on every backend and rung; with k = 0 r keeps every value
    but NaN, which becomes +inf.

    Splitting k into panels and updating one after another, from an r of
    +inf, gives the bits of one minplus over the whole of k: a product too
    large for one call, or spread over devices, is put together this way.
    Paths through a set of vertices improve a distance matrix in place with
    minplus_update(to_set, from_set, dist), to_set and from_set being
    tensors of their own (r may not overlap a or b: AliasError).

    All three must be contiguous (LayoutError).  Raises ShapeError (not
    2-D, inner dimensions differ, r not [m, n]), DtypeError, AliasError,
    VariantError, UnsupportedError (also a backend plugin built for ABI
    2.1 or older: the update came with ABI 2.2), NoMemoryError /
    DeviceMemoryError, DeviceError, CheckError.  See gpuk_minplus_update(3).
    """
    op = "minplus_update"
    if _lib.gpuk_minplus_update is None:
        raise _errors.by_code("GPUK_ERR_UNSUPPORTED")(
            "gpuk.minplus_update: the libgpuk loaded (%s) has no gpuk_minplus_update; it "
            "came with ABI 2.2" % _lib.path)
    c = _ctx_of(op, ctx, ("a", "b", "r"), (a, b, r))
    temps = []
    try:
        a = _arg(c, a, "a", op, temps)
        b = _arg(c, b, "b", op, temps)
        if r is None:
            raise _errors.NullError("gpuk.minplus_update: r is None; it is read and updated "
                                    "in place")
        o = _arg(c, r, "r", op, temps, writable=True)
        _need_ndim(a, 2, "a", op)
        _need_ndim(b, 2, "b", op)
        _run(c, op, _lib.gpuk_minplus_update, (a._h, b._h, o._h, _variant(variant, op)))
        return r
    finally:
        if temps:
            _free(temps)


def transpose(x: ArrayLike, *, out: Optional[ArrayLike] = None, variant: Optional[str] = None,
              ctx: Optional[Context] = None) -> Any:
    """Transpose into a new row-major layout: out[j, i] = x[i, j].

    Dtypes: f32 or f64 (f16, bf16 too on the CPU); the result has x's.  x [m, n]; result [n, m].
    Unlike Tensor.T (a free view whose
    last stride is not 1, which most ops refuse), this moves the data.
    x and out may be strided views with a last stride of 1, so a block of
    one matrix can be transposed into a block of another.  There is no
    transpose in place: out may not overlap x.  The copy is bit-exact; the
    rungs differ in how they move memory (coalescing, shared-memory tiles,
    padding against bank conflicts).

    Raises ShapeError (not 2-D, out not [n, m]), DtypeError, LayoutError
    (last stride not 1, out mapping two elements to one address),
    AliasError, VariantError, UnsupportedError, DeviceError, CheckError.
    See gpuk_transpose(3).
    """
    op = "transpose"
    c = _ctx_of(op, ctx, ("x", "out"), (x, out))
    temps = []
    try:
        x = _arg(c, x, "x", op, temps)
        _need_ndim(x, 2, "x", op)
        o, ret = _out(c, out, (x._shape[1], x._shape[0]), op, temps, x._dt)
        _run(c, op, _lib.gpuk_transpose, (x._h, o._h, _variant(variant, op)))
        return ret
    finally:
        if temps:
            _free(temps)


# -- reductions -------------------------------------------------------------------------------

_KINDS = {"sum": _lib.REDUCE_SUM, "mean": _lib.REDUCE_MEAN}


def reduce(x: ArrayLike, axis: Optional[int] = None, kind: str = "sum", *,
           out: Optional[ArrayLike] = None, variant: Optional[str] = None,
           ctx: Optional[Context] = None) -> Any:
    """Sum or mean of x along one axis.

    x: f32 or f64
    (f16, bf16 too on the CPU, in f32) (the result has its dtype), contiguous.  axis: 0 <= axis
    < ndim, or negative as in
    NumPy; None reduces a contiguous x over all its elements (as a 1-D
    view).  kind: "sum" or "mean" (the sum divided by the axis length).
    The result has x's shape without that axis; a 1-D x gives shape (1,)
    (a Tensor, not a scalar: .item() reads it).  Over an empty axis the sum
    is 0 and the mean NaN.

    Accuracy: a sum of len terms in a rung-dependent order (a tree on a
    GPU, blocked partial sums on a CPU), within C * gamma_len * sum |terms|
    (u of the dtype); a mean adds one rounding.

    Raises InvalidError (bad kind or axis), ShapeError (out's shape),
    DtypeError, LayoutError (not contiguous), AliasError, VariantError,
    UnsupportedError, NoMemoryError / DeviceMemoryError, DeviceError,
    CheckError.  See gpuk_reduce(3).
    """
    op = "reduce"
    k = _KINDS.get(kind) if isinstance(kind, str) else None
    if k is None:
        raise InvalidError("gpuk.reduce: kind must be 'sum' or 'mean', not %r" % (kind,))
    c = _ctx_of(op, ctx, ("x", "out"), (x, out))
    temps = []
    try:
        x = _arg(c, x, "x", op, temps)
        if axis is None:
            if not x.is_contiguous:
                raise LayoutError("gpuk.reduce: axis=None needs a contiguous x")
            flat = x._view((x.size,), (1,), x._offset, "gpuk.reduce")
            temps.append(flat)
            x, ax = flat, 0
        else:
            try:
                ax = operator.index(axis)
            except TypeError:
                raise InvalidError("gpuk.reduce: axis must be an int or None, not %r"
                                   % (axis,)) from None
            nd = len(x._shape)
            if not -nd <= ax < nd:
                raise InvalidError("gpuk.reduce: axis %d is out of range for a %d-D x" % (ax, nd))
            ax %= nd
        shape = x._shape[:ax] + x._shape[ax + 1:] or (1,)
        o, ret = _out(c, out, shape, op, temps, x._dt)
        _run(c, op, _lib.gpuk_reduce, (k, x._h, ax, o._h, _variant(variant, op)))
        return ret
    finally:
        if temps:
            _free(temps)


def sum(x: ArrayLike, axis: Optional[int] = None, *, out: Optional[ArrayLike] = None,
        variant: Optional[str] = None, ctx: Optional[Context] = None) -> Any:
    """Sum of x along axis (None: all elements): reduce(x, axis, "sum").

    x: f32 or f64
    (f16, bf16 too on the CPU, in f32), contiguous; the result has its dtype and drops the axis
    (a 1-D x gives shape (1,)); an empty axis sums to 0.  Each result is a sum in a
    rung-dependent order, within C * gamma_len * sum |terms| of the exact
    value.  Raises as reduce.  See gpuk_reduce(3).
    """
    return reduce(x, axis, "sum", out=out, variant=variant, ctx=ctx)


def mean(x: ArrayLike, axis: Optional[int] = None, *, out: Optional[ArrayLike] = None,
         variant: Optional[str] = None, ctx: Optional[Context] = None) -> Any:
    """Mean of x along axis (None: all elements): reduce(x, axis, "mean").

    x: f32 or f64
    (f16, bf16 too on the CPU, in f32), contiguous; the result has its dtype and drops the axis
    (a 1-D x gives shape (1,)); the mean over an empty axis is NaN.  The sum is accurate as in
    gpuk.sum, plus one rounding for the division.  Raises as reduce.
    See gpuk_reduce(3).
    """
    return reduce(x, axis, "mean", out=out, variant=variant, ctx=ctx)


def meanpool(x: ArrayLike, *, out: Optional[ArrayLike] = None, variant: Optional[str] = None,
             ctx: Optional[Context] = None) -> Any:
    """Average pooling over tokens: the mean along the second-to-last axis.

    x [t, d] gives [d]; x [b, t, d] gives [b, d]; x [a, b, t, d] gives
    [a, b, d]: the pooling layer of a text classifier, kept as an op of its
    own.  Dtypes: f32 or f64
    (f16, bf16 too on the CPU, in f32); the result has x's.  With t = 0 the result is NaN.  x and out must be contiguous, and
    out may not overlap x.

    Raises ShapeError (x with fewer than 2 dimensions, out's shape),
    DtypeError, LayoutError, AliasError, VariantError, UnsupportedError,
    NoMemoryError / DeviceMemoryError, DeviceError, CheckError.
    See gpuk_meanpool(3).
    """
    op = "meanpool"
    c = _ctx_of(op, ctx, ("x", "out"), (x, out))
    temps = []
    try:
        x = _arg(c, x, "x", op, temps)
        _need_ndim(x, (2, 3, 4), "x", op, "2-D to 4-D ([..., t, d])")
        o, ret = _out(c, out, x._shape[:-2] + x._shape[-1:], op, temps, x._dt)
        _run(c, op, _lib.gpuk_meanpool, (x._h, o._h, _variant(variant, op)))
        return ret
    finally:
        if temps:
            _free(temps)


# -- elementwise ------------------------------------------------------------------------------

def _unary(op, fn, x, out, variant, ctx, scalar=None):
    c = _ctx_of(op, ctx, ("x", "out"), (x, out))
    temps = []
    try:
        x = _arg(c, x, "x", op, temps)
        o, ret = _out(c, out, x._shape, op, temps, x._dt)
        args = (x._h, o._h, _variant(variant, op))
        if scalar is not None:
            args = (scalar,) + args
        _run(c, op, fn, args)
        return ret
    finally:
        if temps:
            _free(temps)


def add(x: ArrayLike, y: ArrayLike, *, out: Optional[ArrayLike] = None,
        variant: Optional[str] = None, ctx: Optional[Context] = None) -> Any:
    """Elementwise sum: out = x + y.

    x, y: f32 or f64
    (f16, bf16 too on the CPU, in f32), one dtype and one shape (no broadcasting),
    contiguous; the result has their dtype.  Each element is one IEEE 754
    addition of that dtype; NaN and infinities propagate.  Works
    in place: out may be x or y itself (the same tensor or exactly the same
    view); any other overlap is an AliasError.

    Raises ShapeError (shapes differ), DtypeError, LayoutError (not
    contiguous), AliasError, VariantError, UnsupportedError, DeviceError,
    CheckError.  See gpuk_add(3).
    """
    op = "add"
    if type(x) is Tensor and type(y) is Tensor and ctx is None and (
            out is None or type(out) is Tensor):
        # the common case, kept short: two tensors of one context
        c = x._ctx
        if y._ctx is not c or (out is not None and out._ctx is not c):
            _context_mismatch(op, None, ("x", "y", "out"), (x, y, out))
        if x._h is None or y._h is None or (out is not None and out._h is None):
            raise HandleError("gpuk.add: %s was freed" % (
                "x" if x._h is None else "y" if y._h is None else "out"))
        if c._p is None:
            raise HandleError("gpuk.add: the context is closed")
        o = c._create(x._shape, x._dt) if out is None else out
        v = None if variant is None else _variant(variant, op)
        with c._lock:
            p = c._p
            st = _lib.gpuk_add(p, x._h, y._h, o._h, v)
            if st:
                msg = _lib.text(_lib.gpuk_context_error(p))
            elif c._grave:
                c._drain()
        if st:
            raise _errors.make(st, "gpuk.add: " + msg)
        return o
    c = _ctx_of(op, ctx, ("x", "y", "out"), (x, y, out))
    temps = []
    try:
        x = _arg(c, x, "x", op, temps)
        y = _arg(c, y, "y", op, temps)
        o, ret = _out(c, out, x._shape, op, temps, x._dt)
        _run(c, op, _lib.gpuk_add, (x._h, y._h, o._h, _variant(variant, op)))
        return ret
    finally:
        if temps:
            _free(temps)


def scale(alpha: float, x: ArrayLike, *, out: Optional[ArrayLike] = None,
          variant: Optional[str] = None, ctx: Optional[Context] = None) -> Any:
    """Elementwise product with a scalar: out = alpha * x.

    alpha: a real number, passed as a double (an f32 op rounds it to
    float32, an f64 op uses it as it is); x: f32 or f64
    (f16, bf16 too on the CPU, in f32), contiguous, and
    the result its dtype.  Each element is one IEEE 754 multiplication.  Works in place (out may be x
    itself); any other overlap is an AliasError.

    Raises ShapeError, DtypeError, LayoutError, AliasError, VariantError,
    UnsupportedError, DeviceError, CheckError.  See gpuk_scale(3).
    """
    op = "scale"
    a = _real(alpha, "alpha", op)
    return _unary(op, _lib.gpuk_scale, x, out, variant, ctx, scalar=a)


def relu(x: ArrayLike, *, out: Optional[ArrayLike] = None, variant: Optional[str] = None,
         ctx: Optional[Context] = None) -> Any:
    """Rectified linear unit: out = 0 where x < 0, else x.

    x: f32 or f64
    (f16, bf16 too on the CPU, in f32), contiguous; the result has its dtype.  No rounding: NaN
    stays NaN (it is not less
    than 0), -inf becomes 0, +inf and -0 stay.  Works in place (out may be
    x itself).

    Raises ShapeError, DtypeError, LayoutError, AliasError, VariantError,
    UnsupportedError, DeviceError, CheckError.  See gpuk_relu(3).
    """
    return _unary("relu", _lib.gpuk_relu, x, out, variant, ctx)


def copy(x: ArrayLike, *, out: Optional[ArrayLike] = None, variant: Optional[str] = None,
         ctx: Optional[Context] = None) -> Any:
    """Copy: out = x, bit for bit (NaN payloads included).

    x: f32 or f64
    (f16, bf16 too on the CPU), contiguous; the result has its dtype.  out may be x
    itself (a no-op); any other
    overlap is an AliasError.  Raises ShapeError, DtypeError, LayoutError,
    AliasError, VariantError, UnsupportedError, DeviceError.
    See gpuk_copy(3).
    """
    return _unary("copy", _lib.gpuk_copy, x, out, variant, ctx)


def cast(x: ArrayLike, dtype: Any = None, *, out: Optional[ArrayLike] = None,
         variant: Optional[str] = None, ctx: Optional[Context] = None) -> Any:
    """Conversion between float dtypes: out = x in dtype (or out's dtype).

    x: f32, f64, f16 or bf16, contiguous; dtype: any of those, as for
    empty() ("f16", np.float16, ...), needed when out is None and, when out
    is given too, equal to its dtype.  Each element is rounded once, to
    nearest with ties to even (f64 to f16 or bf16 directly, not through
    f32); a value past the target's largest finite one by half an ulp
    becomes an infinity (65520 and up in f16); NaN, infinities and -0 stay.
    The same dtype copies; out may then be x itself.  An i32 side raises
    DtypeError naming both dtypes.

    Raises ShapeError, DtypeError, LayoutError, AliasError, VariantError,
    UnsupportedError (a backend without cast), DeviceError, CheckError.
    See gpuk_cast(3).
    """
    op = "cast"
    c = _ctx_of(op, ctx, ("x", "out"), (x, out))
    temps = []
    try:
        x = _arg(c, x, "x", op, temps)
        want = None if dtype is None else _core.dtype_code(dtype, "gpuk.cast: dtype")
        if out is None and want is None:
            raise DtypeError("gpuk.cast: give the dtype to convert to, or out")
        o, ret = _out(c, out, x._shape, op, temps, want)
        if want is not None and o._dt != want:
            raise DtypeError("gpuk.cast: dtype is %s but out is %s" % (
                _lib.DTYPES[want][0], _lib.DTYPES[o._dt][0]))
        _run(c, op, _lib.gpuk_cast, (x._h, o._h, _variant(variant, op)))
        return ret
    finally:
        if temps:
            _free(temps)


def bias_relu(x: ArrayLike, bias: ArrayLike, *, out: Optional[ArrayLike] = None,
              variant: Optional[str] = None, ctx: Optional[Context] = None) -> Any:
    """Bias and activation of a linear layer in one pass: out[..., j] = relu(x[..., j] + bias[j]).

    x: f32 or f64
    (f16, bf16 too on the CPU, in f32), contiguous; bias: of x's dtype, 1-D of the length of
    x's last axis; the result has their dtype.  One rounding (the addition) per element.  Works in place: out
    may be x itself, but never bias, nor overlap it.

    Raises ShapeError (bias not 1-D of that length, out's shape),
    DtypeError, LayoutError, AliasError, VariantError, UnsupportedError,
    DeviceError, CheckError.  See gpuk_bias_relu(3).
    """
    op = "bias_relu"
    c = _ctx_of(op, ctx, ("x", "bias", "out"), (x, bias, out))
    temps = []
    try:
        x = _arg(c, x, "x", op, temps)
        bias = _arg(c, bias, "bias", op, temps)
        o, ret = _out(c, out, x._shape, op, temps, x._dt)
        _run(c, op, _lib.gpuk_bias_relu, (x._h, bias._h, o._h, _variant(variant, op)))
        return ret
    finally:
        if temps:
            _free(temps)


def softmax(x: ArrayLike, *, out: Optional[ArrayLike] = None, variant: Optional[str] = None,
            ctx: Optional[Context] = None) -> Any:
    """Numerically stable softmax along the last axis.

    out[..., j] = exp(x[..., j] - m) / sum_q exp(x[..., q] - m), m the row's
    maximum: subtracting it changes nothing in exact arithmetic but keeps
    every exponential in [0, 1], so large logits do not overflow.  Each row
    of the result lies in [0, 1] and sums to 1 within rounding.  A row
    holding NaN, or whose maximum is +inf, or all -inf, gives NaN; -inf
    among finite values gives 0.

    x and out: f32 or f64 (exp in that precision;
    f16, bf16 on the CPU in f32), one dtype, same shape,
    contiguous.  Works in place (out may be
    x itself); any other overlap is an AliasError.  Raises ShapeError,
    DtypeError, LayoutError, AliasError, VariantError, UnsupportedError,
    DeviceError, CheckError.  See gpuk_softmax(3).
    """
    return _unary("softmax", _lib.gpuk_softmax, x, out, variant, ctx)


def embedding(table: ArrayLike, ids: ArrayLike, *, out: Optional[ArrayLike] = None,
              variant: Optional[str] = None, ctx: Optional[Context] = None) -> Any:
    """Embedding lookup (a gather of rows): out[..., :] = table[ids[...], :].

    table: f32 or f64
    (f16, bf16 too on the CPU) [V, d]; ids: int32 of 1 to 3 dimensions, whatever
    the table's dtype; the result has the table's dtype and ids' shape
    plus d (token ids [batch, tokens] give [batch, tokens, d]).
    Every id must lie in [0, V): the ids are checked before anything is
    written, and one out of range raises IndexError (gpuk.IndexError, also
    the built-in) naming its position; on a GPU the check reads the ids
    back, which waits for the ops issued before.  The gather copies bits.
    All three must be contiguous; out may not overlap the others.

    Raises ShapeError (table not 2-D, ids of more than 3 dimensions, out's
    shape), DtypeError (a table dtype the backend has no rung for, ids not
    int32), LayoutError,
    AliasError, IndexError, VariantError, UnsupportedError, NoMemoryError,
    DeviceError, CheckError.  See gpuk_embedding(3).
    """
    op = "embedding"
    c = _ctx_of(op, ctx, ("table", "ids", "out"), (table, ids, out))
    temps = []
    try:
        table = _arg(c, table, "table", op, temps)
        ids = _arg(c, ids, "ids", op, temps)
        _need_ndim(table, 2, "table", op, "2-D [V, d]")
        shape = ids._shape + table._shape[1:]
        if len(shape) > MAX_DIMS:
            raise ShapeError("gpuk.embedding: ids has shape %s; it may have 1 to 3 dimensions"
                             % (ids._shape,))
        o, ret = _out(c, out, shape, op, temps, table._dt)
        _run(c, op, _lib.gpuk_embedding, (table._h, ids._h, o._h, _variant(variant, op)))
        return ret
    finally:
        if temps:
            _free(temps)


# -- sparse -----------------------------------------------------------------------------------

def spmv(a: Any, x: ArrayLike, *, out: Optional[ArrayLike] = None,
         variant: Optional[str] = None, ctx: Optional[Context] = None) -> Any:
    """Sparse matrix times vector: out[i] = sum over the entries e of row i of a.data[e] * x[a.indices[e]].

    a: a gpuk CSRMatrix (Context.csr(), made once and reused), or anything
    Context.csr() takes, copied to the context for this call: a
    scipy.sparse matrix (its duplicates summed), or (data, indices, indptr,
    shape).  The structure is checked when the matrix is made: indptr starts
    at 0, never decreases and ends at nnz, every column lies in [0, cols),
    no column twice in a row (SparseError names the first bad position);
    counts must fit in int32.
    Dtypes: f32 or f64: the matrix's (Context.csr keeps a float64 scipy
    matrix f64), which x must share.  x [cols], contiguous; result [rows]
    of that dtype, overwritten (an empty row gives 0).  out may not overlap x.

    Accuracy: each result is a sum of the row's products in a
    rung-dependent order, within the bound of matmul with k the row's
    length.  The rungs differ in how rows map to threads (a thread per row,
    a warp per row, load balancing, cuSPARSE).

    Raises SparseError, OverflowError, ShapeError (x or out not 1-D of cols
    or rows), DtypeError, LayoutError, AliasError, VariantError,
    UnsupportedError, NoMemoryError / DeviceMemoryError, DeviceError,
    LibraryError, CheckError.  See gpuk_spmv(3).
    """
    op = "spmv"
    c = _ctx_of(op, ctx, ("a", "x", "out"), (a, x, out))
    temps = []
    own = None
    try:
        if type(a) is CSRMatrix:
            a._live("gpuk.spmv: a")
            m = a
        else:
            m = own = c.csr(a)
        x = _arg(c, x, "x", op, temps)
        o, ret = _out(c, out, (m.shape[0],), op, temps, m._dt)
        _run(c, op, _lib.gpuk_spmv, (m._h, x._h, o._h, _variant(variant, op)))
        return ret
    finally:
        if temps:
            _free(temps)
        if own is not None:
            own.free()


# -- BLAS-shaped ------------------------------------------------------------------------------

def dot(x: ArrayLike, y: ArrayLike, *, out: Optional[ArrayLike] = None,
        variant: Optional[str] = None, ctx: Optional[Context] = None) -> Any:
    """Dot product of two vectors: out[0] = sum_i x[i] * y[i].

    x, y: f32 or f64, one dtype, 1-D of the same length n, contiguous; the
    result, of their dtype, is a
    tensor of shape (1,) that stays on the device (so GPU work can chain on
    it; .item() reads it).  With n = 0 it is 0.  Accuracy: within
    C * gamma_n * sum |x_i y_i|.

    Raises ShapeError (not 1-D, lengths differ, out not (1,)), DtypeError,
    LayoutError, AliasError, VariantError, UnsupportedError, DeviceError,
    LibraryError, CheckError.  See gpuk_dot(3).
    """
    op = "dot"
    c = _ctx_of(op, ctx, ("x", "y", "out"), (x, y, out))
    temps = []
    try:
        x = _arg(c, x, "x", op, temps)
        y = _arg(c, y, "y", op, temps)
        o, ret = _out(c, out, (1,), op, temps, x._dt)
        _run(c, op, _lib.gpuk_dot, (x._h, y._h, o._h, _variant(variant, op)))
        return ret
    finally:
        if temps:
            _free(temps)


def _init_output(c, out, src, shape, op, name, temps, dt):
    """The output tensor (new ones of dtype dt), holding src's values when
    src is given (beta != 0)."""
    o, ret = _out(c, out, shape, op, temps, dt)
    if src is not None and src is not out:
        s = _arg(c, src, name, op, temps)
        if s._shape != o._shape:
            raise ShapeError("gpuk.%s: %s has shape %s; the result is %s"
                             % (op, name, s._shape, o._shape))
        if o.size:
            if s._dt == o._dt and s.is_contiguous and o.is_contiguous and \
                    c._has_rows("copy", s._dt):
                _run(c, op, _lib.gpuk_copy, (s._h, o._h, None))
            elif s._dt == o._dt:
                o._write(s._host_bits())
            else:
                raise DtypeError("gpuk.%s: %s is %s and the result %s" % (
                    op, name, s.gpuk_dtype, o.gpuk_dtype))
    return o, ret


def gemv(a: ArrayLike, x: ArrayLike, y: Optional[ArrayLike] = None, *, alpha: float = 1.0,
         beta: float = 0.0, trans: bool = False, out: Optional[ArrayLike] = None,
         variant: Optional[str] = None, ctx: Optional[Context] = None) -> Any:
    """Matrix-vector product, BLAS style: out = alpha * op(a) @ x + beta * y.

    Dtypes: f32 or f64, every array alike; alpha and beta are passed as
    doubles (an f32 op rounds them to float32).  a [m, n], row-major
    (unlike Fortran BLAS), possibly a strided view with a last stride of
    1; op(a) is a, or a.T with trans=True.  x [n] ([m] with trans); y:
    None or [m] ([n] with trans), contiguous.  The result has y's length
    and a's dtype.

    As in BLAS: with beta = 0, y is not read (and may be None; NaN in it
    does not propagate); with alpha = 0, a and x are not read and the
    result is beta * y.  A NaN or infinite alpha or beta gives an undefined
    result.  The result is a new tensor unless out= is given; for the
    in-place BLAS update, pass out=y (y's values are read, then
    overwritten).  out may not overlap a or x.

    Accuracy: each element is a sum of n (or m) products, within the bound
    of matmul.  Raises InvalidError, ShapeError, DtypeError, LayoutError,
    AliasError, VariantError, UnsupportedError, DeviceError, LibraryError,
    NoMemoryError / DeviceMemoryError, CheckError.  See gpuk_gemv(3).
    """
    op = "gemv"
    al = _real(alpha, "alpha", op)
    be = _real(beta, "beta", op)
    tr = _flag(trans, "trans", op)
    c = _ctx_of(op, ctx, ("a", "x", "y", "out"), (a, x, y, out))
    temps = []
    try:
        a = _arg(c, a, "a", op, temps)
        x = _arg(c, x, "x", op, temps)
        _need_ndim(a, 2, "a", op)
        n_out = a._shape[1] if tr else a._shape[0]
        if y is None and be != 0.0:
            raise InvalidError("gpuk.gemv: beta = %g needs y" % be)
        o, ret = _init_output(c, out, y if be != 0.0 else None, (n_out,), op, "y", temps, a._dt)
        _run(c, op, _lib.gpuk_gemv, (tr, al, a._h, x._h, be, o._h, _variant(variant, op)))
        return ret
    finally:
        if temps:
            _free(temps)


def gemm(a: ArrayLike, b: ArrayLike, c: Optional[ArrayLike] = None, *, alpha: float = 1.0,
         beta: float = 0.0, trans_a: bool = False, trans_b: bool = False,
         out: Optional[ArrayLike] = None, variant: Optional[str] = None,
         ctx: Optional[Context] = None) -> Any:
    """Matrix product, BLAS style: out = alpha * op(a) @ op(b) + beta * c.

    op(x) is x, or x.T with trans_a / trans_b.  a is stored [m, k] ([k, m]
    with trans_a), b [k, n] ([n, k] with trans_b), c and the result [m, n];
    all of one dtype, f32 or f64 (the result's), alpha and beta passed as
    doubles (an f32 op rounds them to float32), and row-major (unlike
    Fortran BLAS: the leading dimension is
    the first stride), each possibly a strided view with a last stride of 1.
    trans_b=True takes weights stored [out, in] as PyTorch keeps them.

    As in BLAS: with beta = 0, c is not read (and may be None; NaN in it
    does not propagate); with alpha = 0, a and b are not read and the
    result is beta * c.  A NaN or infinite alpha or beta gives an undefined
    result.  The result is a new tensor unless out= is given; for the
    in-place BLAS update pass out=c.  out may not overlap a or b.

    Accuracy: as matmul, with k + 1 terms when beta is not 0.  Raises
    InvalidError, ShapeError, DtypeError, LayoutError, AliasError,
    VariantError, UnsupportedError, NoMemoryError / DeviceMemoryError,
    DeviceError, LibraryError, CheckError.  See gpuk_gemm(3).
    """
    op = "gemm"
    al = _real(alpha, "alpha", op)
    be = _real(beta, "beta", op)
    ta = _flag(trans_a, "trans_a", op)
    tb = _flag(trans_b, "trans_b", op)
    cx = _ctx_of(op, ctx, ("a", "b", "c", "out"), (a, b, c, out))
    temps = []
    try:
        a = _arg(cx, a, "a", op, temps)
        b = _arg(cx, b, "b", op, temps)
        _need_ndim(a, 2, "a", op)
        _need_ndim(b, 2, "b", op)
        m = a._shape[1] if ta else a._shape[0]
        n = b._shape[0] if tb else b._shape[1]
        if c is None and be != 0.0:
            raise InvalidError("gpuk.gemm: beta = %g needs c" % be)
        o, ret = _init_output(cx, out, c if be != 0.0 else None, (m, n), op, "c", temps, a._dt)
        _run(cx, op, _lib.gpuk_gemm, (ta, tb, al, a._h, b._h, be, o._h, _variant(variant, op)))
        return ret
    finally:
        if temps:
            _free(temps)


# -- graphs -----------------------------------------------------------------------------------

def apsp(w: ArrayLike, *, out: Optional[ArrayLike] = None, predecessors: bool = False,
         pred: Optional[ArrayLike] = None, variant: Optional[str] = None,
         ctx: Optional[Context] = None) -> Any:
    """All-pairs shortest paths by Floyd-Warshall: out[i, j] = the length of a shortest path from i to j.

    w: f32, f64 or i32 [n, n], contiguous: w[i, j] is the length of the
    edge from i to j, a missing edge +inf (a NaN counts as one) or, in
    i32, GPUK_I32_INF (2**30 - 1).  The result has w's dtype and shape:
    +inf or GPUK_I32_INF where j cannot be reached, and 0 on the diagonal
    unless a shorter cycle exists.  out may be w itself (in place).

    predecessors=True (or pred=, an int32 [n, n] of the context's device
    to write into) also gives the predecessor matrix, as scipy's
    shortest_path(return_predecessors=True) does but with -1 where scipy
    has -9999: pred[i, j] is the vertex before j on the path found; the
    call then returns (out, pred), and apsp_path(pred, i, j) walks a path.

    Accuracy: each relaxation rounds one sum, so float rungs may differ in
    the last bits (within gamma_n times the path's sum of |w|); integer
    lengths add exactly, and i32 is exact while every partial sum stays in
    [-2**30, GPUK_I32_INF].  A negative cycle raises NegativeCycleError
    naming a vertex on it.

    Raises ShapeError (w not square, out or pred of another shape),
    DtypeError, LayoutError, AliasError, VariantError, UnsupportedError,
    NoMemoryError / DeviceMemoryError, DeviceError, CheckError.  See
    gpuk_apsp(3).
    """
    op = "apsp"
    c = _ctx_of(op, ctx, ("w", "out", "pred"), (w, out, pred))
    temps = []
    try:
        w = _arg(c, w, "w", op, temps)
        _need_ndim(w, 2, "w", op)
        o, ret = _out(c, out, w._shape, op, temps, w._dt)
        p = pr = None
        if pred is not None or predecessors:
            p, pr = _out(c, pred, w._shape, op, temps, _core.I32)
        _run(c, op, _lib.gpuk_apsp, (w._h, o._h, p._h if p is not None else None,
                                     _variant(variant, op)))
        return (ret, pr) if p is not None else ret
    finally:
        if temps:
            _free(temps)


def apsp_path(pred: ArrayLike, i: int, j: int, *, ctx: Optional[Context] = None) -> list:
    """The path from i to j in a predecessor matrix apsp wrote, as a list of
    vertices [i, ..., j]: [i] for i == j, [] when j cannot be reached.

    Reads row i of pred (on a GPU this waits for the ops issued before).
    Raises IndexError for i or j outside [0, n), InvalidError when the row
    is not a tree of paths from i.  See gpuk_apsp_path(3).
    """
    op = "apsp_path"
    if _lib.gpuk_apsp_path is None:
        raise _errors.by_code("GPUK_ERR_UNSUPPORTED")(
            "gpuk.apsp_path: the libgpuk loaded (%s) has no gpuk_apsp_path" % _lib.path)
    try:
        i, j = operator.index(i), operator.index(j)
    except TypeError:
        raise InvalidError("gpuk.apsp_path: i and j must be ints") from None
    c = _ctx_of(op, ctx, ("pred",), (pred,))
    temps = []
    try:
        p = _arg(c, pred, "pred", op, temps)
        n = p._shape[0] if p._shape else 0
        buf = (ctypes.c_int64 * max(n, 1))()
        length = ctypes.c_int64()
        _run(c, op, _lib.gpuk_apsp_path, (p._h, i, j, buf, max(n, 1), _byref(length)))
        return list(buf[:length.value])
    finally:
        if temps:
            _free(temps)


# The functions of this module: one for each op of the library's catalogue
# (GPUK_OP_MAP as it reports it), and the forms that call one of them:
# minplus_update (gpuk_minplus_update), sum and mean (reduce).  An op of the
# catalogue without its function here fails the import: the package would
# be older than the library.
FORMS = {"minplus_update": "minplus", "sum": "reduce", "mean": "reduce"}
OPS = tuple(_lib.OPS) + tuple(FORMS)
_missing = [n for n in OPS if not callable(globals().get(n))]
if _missing:
    raise ImportError("gpuk: the library %s has op%s %s, which this package lacks: it is newer "
                      "than the package" % (_lib.path, "s" if len(_missing) > 1 else "",
                                            ", ".join(_missing)))
del _missing

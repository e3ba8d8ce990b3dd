"""t_dlpack_numpy.py - DLPack between NumPy and libgpuk, both ways, without a
copy, through nothing but ctypes and the C API (the Python package builds on
the same calls).  TAP on stdout; run by t_dlpack_numpy.sh.

  NumPy -> libgpuk: a.__dlpack__() hands over a DLManagedTensor; the gpuk
  tensor's data is a's buffer, an op in place shows in a, and destroying
  the tensor runs NumPy's deleter (a's reference count drops back).
  libgpuk -> NumPy: gpuk_tensor_to_dlpack in a "dltensor" capsule;
  numpy.from_dlpack takes it, its array's data is the tensor's, and it
  stays readable after gpuk_context_close.
  float64 both ways: a float64 array comes in as an f64 tensor with its
  values whole, an f64 tensor goes out as a float64 array; a type libgpuk
  has no dtype for (complex64) is GPUK_ERR_DTYPE.  Dtype and status
  numbers are asked of the library by name, never written here.
"""
import ctypes as C
import os
import sys

import numpy as np

n_checks = 0
failed = 0


def ok(cond, what):
    global n_checks, failed
    n_checks += 1
    if not cond:
        failed += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", n_checks, what))
    sys.stdout.flush()
    return cond


vp = C.c_void_p
path = os.environ["GPUK_TEST_LIBGPUK"]


def opens(lib):
    lib.gpuk_context_open.argtypes = [C.POINTER(vp), C.c_char_p]
    lib.gpuk_context_close.argtypes = [vp]
    lib.gpuk_context_close.restype = None
    c = vp()
    if lib.gpuk_context_open(C.byref(c), b"cpu") != 0:
        return False
    lib.gpuk_context_close(c)
    return True


# ctypes loads a library RTLD_LOCAL, as python/gpuk does: the plugin must
# load without libgpuk's symbols in the global scope (plugins call no
# libgpuk function; doc/design.md, "Layers").  Where it does not (an apsp
# message once called gpuk_dtype_name), that fails here, and the rest runs
# with libgpuk promoted to RTLD_GLOBAL, so the DLPack checks still count.
lib = C.CDLL(path)
local = opens(lib)
ok(local, "the cpu plugin loads under a libgpuk opened RTLD_LOCAL (as ctypes and python/gpuk "
   "open it; GPUK_VERBOSE=1 names a missing symbol)")
if not local:
    lib = C.CDLL(path, mode=C.RTLD_GLOBAL)
lib.gpuk_context_open.argtypes = [C.POINTER(vp), C.c_char_p]
lib.gpuk_context_close.argtypes = [vp]
lib.gpuk_context_close.restype = None
lib.gpuk_context_error.argtypes = [vp]
lib.gpuk_context_error.restype = C.c_char_p
lib.gpuk_tensor_from_dlpack.argtypes = [vp, vp, C.POINTER(vp)]
lib.gpuk_tensor_to_dlpack.argtypes = [vp, vp, C.POINTER(vp)]
lib.gpuk_tensor_destroy.argtypes = [vp, vp]
lib.gpuk_relu.argtypes = [vp, vp, vp, C.c_char_p]
lib.gpuk_scale.argtypes = [vp, C.c_double, vp, vp, C.c_char_p]
lib.gpuk_tensor_create.argtypes = [vp, C.c_int, C.c_int, C.POINTER(C.c_int64), C.POINTER(vp)]
lib.gpuk_tensor_write.argtypes = [vp, vp, vp, C.c_size_t]
lib.gpuk_tensor_read.argtypes = [vp, vp, vp, C.c_size_t]
lib.gpuk_dtype_from_name.argtypes = [C.c_char_p, C.POINTER(C.c_int)]
lib.gpuk_op_from_name.argtypes = [C.c_char_p, C.POINTER(C.c_int)]
lib.gpuk_variant_count_dtype.argtypes = [vp, C.c_int, C.c_int, C.POINTER(C.c_size_t)]
lib.gpuk_status_name.restype = C.c_char_p
lib.gpuk_status_name.argtypes = [C.c_int]


def dtype_id(name):
    d = C.c_int()
    assert lib.gpuk_dtype_from_name(name, C.byref(d)) == 0
    return d.value


def status_name(st):
    return lib.gpuk_status_name(st).decode()


F32, F64 = dtype_id(b"f32"), dtype_id(b"f64")


class TensorInfo(C.Structure):
    _fields_ = [("dtype", C.c_int), ("ndim", C.c_int), ("shape", C.c_int64 * 4),
                ("strides", C.c_int64 * 4), ("offset", C.c_int64), ("numel", C.c_int64),
                ("bytes", C.c_size_t), ("contiguous", C.c_int), ("data", vp),
                ("borrowed", C.c_int)]


lib.gpuk_tensor_get_info.argtypes = [vp, vp, C.POINTER(TensorInfo)]

api = C.pythonapi
api.PyCapsule_GetPointer.restype = vp
api.PyCapsule_GetPointer.argtypes = [C.py_object, C.c_char_p]
api.PyCapsule_SetName.argtypes = [C.py_object, C.c_char_p]
api.PyCapsule_IsValid.argtypes = [C.py_object, C.c_char_p]
DESTRUCTOR = C.CFUNCTYPE(None, C.c_void_p)
api.PyCapsule_New.restype = C.py_object
api.PyCapsule_New.argtypes = [vp, C.c_char_p, DESTRUCTOR]
api.PyCapsule_GetName.restype = C.c_char_p
api.PyCapsule_GetName.argtypes = [vp]


def info(ctx, t):
    i = TensorInfo()
    lib.gpuk_tensor_get_info(ctx, t, C.byref(i))
    return i


def borrow(ctx, arr):
    """numpy -> gpuk: the DLManagedTensor passes to libgpuk with the call."""
    cap = arr.__dlpack__()
    ptr = api.PyCapsule_GetPointer(cap, b"dltensor")
    api.PyCapsule_SetName(cap, b"used_dltensor")   # consumed: the capsule frees nothing now
    t = vp()
    st = lib.gpuk_tensor_from_dlpack(ctx, ptr, C.byref(t))
    return st, t


ctx = vp()
if not ok(lib.gpuk_context_open(C.byref(ctx), b"cpu") == 0, "the cpu backend opens"):
    print("1..%d" % n_checks)
    sys.exit(1)

# ---- NumPy -> libgpuk
a = np.arange(15, dtype=np.float32).reshape(3, 5) - 7
refs = sys.getrefcount(a)
st, t = borrow(ctx, a)
ok(st == 0, "from_dlpack takes a NumPy array (%s)" % lib.gpuk_context_error(ctx).decode())
inf = info(ctx, t)
ok(inf.data == a.ctypes.data and inf.borrowed == 1 and tuple(inf.shape[:2]) == (3, 5),
   "the gpuk tensor's data is the array's buffer (no copy)")
ok(lib.gpuk_relu(ctx, t, t, None) == 0 and (a == np.maximum(np.arange(15).reshape(3, 5) - 7,
                                                              0)).all(),
   "relu in place through libgpuk shows in the NumPy array")
ok(sys.getrefcount(a) > refs, "while borrowed, the DLPack export holds a reference to the array")
lib.gpuk_tensor_destroy(ctx, t)
ok(sys.getrefcount(a) == refs, "destroying the tensor runs NumPy's deleter (reference returned)")

# a strided NumPy view: every other column
b = np.arange(24, dtype=np.float32).reshape(4, 6)
view = b[:, ::2]
st, t = borrow(ctx, view)
got = np.empty((4, 3), dtype=np.float32)
if ok(st == 0, "a strided NumPy view (column step 2) comes in"):
    lib.gpuk_tensor_read(ctx, t, got.ctypes.data, got.nbytes)
    ok((got == view).all(), "and reads back the view's elements")
    lib.gpuk_tensor_destroy(ctx, t)

# a dtype libgpuk has no type for: an error, and NumPy's deleter still runs
d = np.zeros(4, dtype=np.complex64)
refs = sys.getrefcount(d)
st, t = borrow(ctx, d)
msg = lib.gpuk_context_error(ctx).decode()
ok(status_name(st) == "GPUK_ERR_DTYPE" and "dtype" in msg,
   "complex64 is GPUK_ERR_DTYPE naming the dtype: %s" % msg)
ok(sys.getrefcount(d) == refs, "the failed call gave the array back (deleter ran)")

# float64 stays float64: an f64 tensor over the array's buffer, every bit
a64 = (np.arange(15, dtype=np.float64).reshape(3, 5) - 7) / 3
refs = sys.getrefcount(a64)
st, t = borrow(ctx, a64)
inf = info(ctx, t)
ok(st == 0 and inf.dtype == F64 and inf.data == a64.ctypes.data and inf.bytes == a64.nbytes,
   "a NumPy float64 array comes in as an f64 tensor over its buffer (dtype %d)" % inf.dtype)
back = np.zeros_like(a64)
lib.gpuk_tensor_read(ctx, t, back.ctypes.data, back.nbytes)
ok((back == a64).all(), "its values read back whole (thirds, which no float32 holds)")
op_scale, n64 = C.c_int(), C.c_size_t()
lib.gpuk_op_from_name(b"scale", C.byref(op_scale))
lib.gpuk_variant_count_dtype(ctx, op_scale.value, F64, C.byref(n64))
st = lib.gpuk_scale(ctx, 0.1, t, t, None)
if n64.value:
    ok(st == 0 and (a64 == (np.arange(15).reshape(3, 5) - 7) / 3 * 0.1).all(),
       "scale by 0.1 in place shows in the float64 array, in double")
else:
    msg = lib.gpuk_context_error(ctx).decode()
    ok(status_name(st) == "GPUK_ERR_DTYPE" and "f64" in msg and "f32" in msg,
       "no f64 scale on this backend: GPUK_ERR_DTYPE naming f64 and f32: %s" % msg)
lib.gpuk_tensor_destroy(ctx, t)
ok(sys.getrefcount(a64) == refs, "destroying the f64 tensor gives the array back")

# ---- libgpuk -> NumPy
shape = (C.c_int64 * 2)(3, 4)
t = vp()
lib.gpuk_tensor_create(ctx, 1, 2, shape, C.byref(t))
src = (np.arange(12, dtype=np.float32) * 0.5).reshape(3, 4)
lib.gpuk_tensor_write(ctx, t, src.ctypes.data, src.nbytes)
mt = vp()
ok(lib.gpuk_tensor_to_dlpack(ctx, t, C.byref(mt)) == 0, "to_dlpack exports a tensor")


class DLManaged(C.Structure):
    pass


DLManaged._fields_ = [("data", vp), ("device_type", C.c_int32), ("device_id", C.c_int32),
                      ("ndim", C.c_int32), ("code", C.c_uint8), ("bits", C.c_uint8),
                      ("lanes", C.c_uint16), ("shape", vp), ("strides", vp),
                      ("byte_offset", C.c_uint64), ("manager_ctx", vp),
                      ("deleter", C.CFUNCTYPE(None, vp))]


@DESTRUCTOR
def capsule_gone(cap):
    # an unconsumed capsule still owns the tensor: hand it back
    if api.PyCapsule_GetName(cap) == b"dltensor":
        m = C.cast(api.PyCapsule_GetPointer(C.cast(cap, C.py_object), b"dltensor"),
                   C.POINTER(DLManaged))
        m.contents.deleter(C.addressof(m.contents))


class Exported:
    def __init__(self, managed):
        self.managed = managed

    def __dlpack__(self, stream=None, **kw):
        return api.PyCapsule_New(self.managed, b"dltensor", capsule_gone)

    def __dlpack_device__(self):
        return (1, 0)   # kDLCPU


tensor_data = info(ctx, t).data
arr = np.from_dlpack(Exported(mt.value))
ok(arr.ctypes.data == tensor_data and arr.shape == (3, 4) and (arr == src).all(),
   "numpy.from_dlpack sees the tensor's memory, same address, right values")

# an f64 tensor goes out as float64
t64, mt64 = vp(), vp()
lib.gpuk_tensor_create(ctx, F64, 2, shape, C.byref(t64))
src64 = (np.arange(12, dtype=np.float64) / 7).reshape(3, 4)
lib.gpuk_tensor_write(ctx, t64, src64.ctypes.data, src64.nbytes)
ok(lib.gpuk_tensor_to_dlpack(ctx, t64, C.byref(mt64)) == 0, "to_dlpack exports an f64 tensor")
arr64 = np.from_dlpack(Exported(mt64.value))
ok(arr64.dtype == np.float64 and arr64.ctypes.data == info(ctx, t64).data and
   (arr64 == src64).all(), "numpy.from_dlpack makes it a float64 array over the tensor, "
   "values whole")
lib.gpuk_tensor_destroy(ctx, t64)
lib.gpuk_scale(ctx, 2.0, t, t, None)
ok((arr == 2 * src).all(), "an op on the tensor afterwards shows in the NumPy array")
lib.gpuk_tensor_destroy(ctx, t)
lib.gpuk_context_close(ctx)
ok((arr == 2 * src).all(), "the array stays readable after the context closed")
ok((arr64 == src64).all(), "the float64 array stays readable after the context closed")
del arr, arr64   # NumPy calls the deleters: the storages (and the backend) go now

print("1..%d" % n_checks)
sys.exit(1 if failed or n_checks == 0 else 0)

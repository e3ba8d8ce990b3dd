"""DLPack capsules over ctypes (the legacy, unversioned "dltensor" kind).

libgpuk does the real work both ways (gpuk_tensor_from_dlpack takes a
DLManagedTensor and calls its deleter when the tensor dies;
gpuk_tensor_to_dlpack makes one whose deleter is the library's own C
function).  What is left to Python is the PyCapsule around the pointer:

Taking a capsule (import): check that it is named "dltensor", get the
pointer, rename the capsule "used_dltensor" so that its producer's
destructor leaves the tensor alone, and hand the pointer to the library,
which owns it from then on (it calls the deleter on failure too).

Making a capsule (export): a capsule named "dltensor" whose destructor
calls the DLManagedTensor's deleter only while the capsule is still named
"dltensor", i.e. when no consumer took it.  That destructor runs inside
the deallocation of the capsule, often while the consumer has an exception
in flight (NumPy refusing a CUDA tensor, say).  A destructor written in
Python, as a ctypes callback, cannot run then without replacing that
exception by a SystemError, and a pure-ctypes package has no C of its own.
So the destructor is NumPy's: NumPy's own "dltensor" capsules carry a C
destructor that does exactly what the protocol asks of every producer (skip
a capsule renamed "used_dltensor", else save any exception in flight, call
managed->deleter(managed), restore it), with nothing NumPy-specific in it.
Its address is read once from a capsule NumPy makes, and checked before use
on a dummy tensor: called once for a capsule nobody consumed, never for one
renamed "used_dltensor".  Should that check fail (a NumPy that changed),
the fallback is a ctypes callback with the same logic, correct except for
the in-flight-exception case described above.
"""

import ctypes

c_void_p = ctypes.c_void_p
c_char_p = ctypes.c_char_p
c_int = ctypes.c_int

kDLCPU = 1
kDLCUDA = 2
kDLCUDAHost = 3
kDLCUDAManaged = 13
DEVICE_NAMES = {kDLCPU: "cpu", kDLCUDA: "cuda", kDLCUDAHost: "cuda_host", 4: "opencl",
                7: "vulkan", 8: "metal", 10: "rocm", 11: "rocm_host", 13: "cuda_managed",
                14: "oneapi"}

# Capsule names: the capsule keeps the pointer, not a copy, so these bytes
# objects live as long as the module does.
NAME = b"dltensor"
USED = b"used_dltensor"
VERSIONED = b"dltensor_versioned"


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    pass


DELETER = ctypes.CFUNCTYPE(None, c_void_p)
DLManagedTensor._fields_ = [("dl_tensor", DLTensor), ("manager_ctx", c_void_p),
                            ("deleter", c_void_p)]

_api = ctypes.pythonapi
PyCapsule_New = _api.PyCapsule_New
PyCapsule_New.restype = ctypes.py_object
PyCapsule_New.argtypes = [c_void_p, c_char_p, c_void_p]
PyCapsule_IsValid = _api.PyCapsule_IsValid
PyCapsule_IsValid.restype = c_int
PyCapsule_IsValid.argtypes = [ctypes.py_object, c_char_p]
PyCapsule_GetPointer = _api.PyCapsule_GetPointer
PyCapsule_GetPointer.restype = c_void_p
PyCapsule_GetPointer.argtypes = [ctypes.py_object, c_char_p]
PyCapsule_SetName = _api.PyCapsule_SetName
PyCapsule_SetName.restype = c_int
PyCapsule_SetName.argtypes = [ctypes.py_object, c_char_p]
PyCapsule_GetDestructor = _api.PyCapsule_GetDestructor
PyCapsule_GetDestructor.restype = c_void_p
PyCapsule_GetDestructor.argtypes = [ctypes.py_object]
PyCapsule_GetName = _api.PyCapsule_GetName
PyCapsule_GetName.restype = c_char_p
PyCapsule_GetName.argtypes = [ctypes.py_object]
# the same calls on a raw PyObject *, for the fallback destructor, which
# must not make a new reference to an object being deallocated
_IsValidRaw = ctypes.PYFUNCTYPE(c_int, c_void_p, c_char_p)(("PyCapsule_IsValid", _api))
_GetPointerRaw = ctypes.PYFUNCTYPE(c_void_p, c_void_p, c_char_p)(("PyCapsule_GetPointer", _api))

CapsuleType = type(PyCapsule_New(ctypes.addressof(ctypes.c_char()), b"gpuk_probe", None))


def is_capsule(obj):
    return type(obj) is CapsuleType


def call_deleter(ptr):
    """Call a DLManagedTensor's deleter, if it has one."""
    m = DLManagedTensor.from_address(ptr)
    if m.deleter:
        DELETER(m.deleter)(ptr)


@DELETER
def _fallback_destructor(capsule):
    # only while the capsule is still "dltensor": nobody consumed it.  With
    # an exception in flight the first C call raises it here; the second
    # try runs with it cleared (lost to the consumer, which then reports a
    # SystemError), so that at least the tensor is not leaked.
    for _ in range(2):
        try:
            if _IsValidRaw(capsule, NAME):
                ptr = _GetPointerRaw(capsule, NAME)
                if ptr:
                    call_deleter(ptr)
            return
        except BaseException:
            continue


_destructor = None    # the C address of the capsule destructor, once chosen
destructor_kind = None


def _numpy_destructor():
    """NumPy's C destructor for "dltensor" capsules, if it passes the check."""
    try:
        import numpy
        probe = numpy.empty(1, numpy.float32).__dlpack__()
    except Exception:
        return None
    if not PyCapsule_IsValid(probe, NAME):
        return None
    d = PyCapsule_GetDestructor(probe)
    del probe
    if not d:
        return None
    calls = []

    @DELETER
    def count(ptr):
        calls.append(ptr)
    m = DLManagedTensor()
    m.deleter = ctypes.cast(count, c_void_p).value
    addr = ctypes.addressof(m)
    cap = PyCapsule_New(addr, NAME, d)
    del cap                                   # unconsumed: the deleter runs once
    if calls != [addr]:
        return None
    cap = PyCapsule_New(addr, NAME, d)
    PyCapsule_SetName(cap, USED)
    del cap                                   # consumed: the deleter is the consumer's
    if calls != [addr]:
        return None
    return d


def capsule_destructor():
    global _destructor, destructor_kind
    if _destructor is None:
        d = _numpy_destructor()
        if d:
            _destructor, destructor_kind = d, "numpy"
        else:
            _destructor = ctypes.cast(_fallback_destructor, c_void_p).value
            destructor_kind = "ctypes callback"
    return _destructor


def make_capsule(ptr):
    """A "dltensor" capsule owning the DLManagedTensor at ptr."""
    try:
        return PyCapsule_New(ptr, NAME, capsule_destructor())
    except BaseException:
        call_deleter(ptr)
        raise


def take_capsule(capsule):
    """The DLManagedTensor of a "dltensor" capsule, now the caller's.

    Raises ValueError for a capsule that is not an unconsumed legacy one.
    """
    if not PyCapsule_IsValid(capsule, NAME):
        name = PyCapsule_GetName(capsule)
        if name == USED:
            raise ValueError("the DLPack capsule was already consumed (named used_dltensor)")
        if name == VERSIONED:
            raise ValueError("the producer returned a versioned DLPack capsule "
                             "(dltensor_versioned), which libgpuk cannot take")
        raise ValueError("not a DLPack capsule (name %r)" % (name,))
    ptr = PyCapsule_GetPointer(capsule, NAME)
    PyCapsule_SetName(capsule, USED)
    return ptr


# -- CUDA: waiting for a producer that takes no stream ---------------------------------
#
# Only for a producer whose __dlpack__ refuses the stream argument (older than
# the 2021 protocol; PyTorch, CuPy and JAX all take it): it promises no order
# and its stream is unknown, so every stream of the device is waited for.
# libcuda is loaded on that first use only; nothing else in the package
# needs it (the context's stream comes from gpuk_context_info).

_cuda = None


def _driver():
    global _cuda
    if _cuda is None:
        try:
            _cuda = ctypes.CDLL("libcuda.so.1")
        except OSError as e:
            raise RuntimeError("libcuda.so.1 cannot be loaded: %s" % e) from None
    return _cuda


def _cu(name, *alts):
    d = _driver()
    for n in (name,) + alts:
        f = getattr(d, n, None)
        if f is not None:
            f.restype = c_int
            return f
    raise RuntimeError("libcuda.so.1 lacks %s" % name)


def cuda_device_synchronize(ordinal):
    """Wait, through the CUDA driver, for all work queued in the primary
    context of device `ordinal` (the context PyTorch, CuPy, JAX and libgpuk's
    CUDA backend all use), whatever stream it was queued on."""
    dev = c_int()
    ctx = c_void_p()
    popped = c_void_p()
    steps = [("cuInit", (_cu("cuInit"), (0,))),
             ("cuDeviceGet", (_cu("cuDeviceGet"), (ctypes.byref(dev), int(ordinal))))]
    for what, (f, args) in steps:
        r = f(*args)
        if r:
            raise RuntimeError("%s failed: CUresult %d" % (what, r))
    r = _cu("cuDevicePrimaryCtxRetain")(ctypes.byref(ctx), dev)
    if r:
        raise RuntimeError("cuDevicePrimaryCtxRetain failed: CUresult %d" % r)
    try:
        r = _cu("cuCtxPushCurrent_v2", "cuCtxPushCurrent")(ctx)
        if r:
            raise RuntimeError("cuCtxPushCurrent failed: CUresult %d" % r)
        try:
            r = _cu("cuCtxSynchronize")()
            if r:
                raise RuntimeError("cuCtxSynchronize failed: CUresult %d" % r)
        finally:
            _cu("cuCtxPopCurrent_v2", "cuCtxPopCurrent")(ctypes.byref(popped))
    finally:
        _cu("cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease")(dev)

"""DLPack both ways with NumPy: no copies (same data pointer), lifetimes, capsules."""

import ctypes
import gc
import weakref

import numpy as np
import pytest

import gpuk
from gpuk import _dlpack


def ptr(a):
    return a.__array_interface__["data"][0]


def test_numpy_to_gpuk_is_zero_copy(ctx):
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    t = ctx.from_dlpack(x)
    assert t.borrowed and t.info()["borrowed"]
    assert t.data_ptr == x.ctypes.data == ptr(x)
    assert t.shape == (3, 4) and t.strides == x.strides
    x[1, 2] = 100                                 # NumPy's write is the tensor's
    assert t.numpy()[1, 2] == 100
    gpuk.scale(2.0, t, out=t)                     # the op's write is NumPy's
    assert x[1, 2] == 200 and x[0, 1] == 2


def test_gpuk_to_numpy_is_zero_copy(ctx):
    t = ctx.asarray(np.arange(6, dtype=np.float32).reshape(2, 3))
    a = np.from_dlpack(t)
    assert ptr(a) == t.data_ptr
    assert a.shape == (2, 3) and a.strides == (12, 4) and a.dtype == np.float32
    gpuk.scale(-5.0, t, out=t)                    # NumPy sees the op's write
    assert a[0, 1] == -5
    if a.flags.writeable:                         # NumPy 1.x imports read-only
        a[0, 0] = 7
        assert t.numpy()[0, 0] == 7


def test_strided_views_both_ways(ctx):
    t = ctx.asarray(np.arange(20, dtype=np.float32).reshape(4, 5))
    v = t[1:, ::2]
    a = np.from_dlpack(v)
    assert ptr(a) == v.data_ptr == t.data_ptr + 4 * 5
    assert a.strides == (20, 8) and np.array_equal(a, t.numpy()[1:, ::2])
    x = np.arange(30, dtype=np.float32).reshape(5, 6)[:, 1::2]
    u = ctx.from_dlpack(x)
    assert u.data_ptr == ptr(x) and u.element_strides == (6, 2)
    assert np.array_equal(u.numpy(), x)
    with pytest.raises(gpuk.LayoutError):
        gpuk.relu(u)                               # elementwise ops need dense memory


def test_int32_round_trip(ctx):
    ids = np.array([[3, 1], [0, 2]], np.int32)
    t = ctx.from_dlpack(ids)
    assert t.dtype == np.int32 and t.data_ptr == ptr(ids)
    back = np.from_dlpack(t)
    assert back.dtype == np.int32 and ptr(back) == ptr(ids)


def test_export_outlives_tensor_and_context():
    ctx = gpuk.Context("cpu")
    t = ctx.asarray(np.arange(5, dtype=np.float32))
    a = np.from_dlpack(t)
    t.free()
    ctx.close()
    gc.collect()
    assert a.tolist() == [0, 1, 2, 3, 4]          # the storage stays with the consumer


def test_import_keeps_producer_alive_until_last_handle(ctx):
    x = np.ones(8, np.float32)
    w = weakref.ref(x)
    t = ctx.from_dlpack(x)
    v = t[2:6]
    del x
    gc.collect()
    assert w() is not None
    t.free()
    gc.collect()
    assert w() is not None                        # the view still holds it
    assert v.numpy().tolist() == [1, 1, 1, 1]
    v.free()
    gc.collect()
    assert w() is None                            # NumPy's deleter ran


def test_close_releases_imports():
    ctx = gpuk.Context("cpu")
    x = np.ones(4, np.float32)
    w = weakref.ref(x)
    ctx.from_dlpack(x)
    t2 = ctx.from_dlpack(x)
    del x
    gc.collect()
    assert w() is not None
    ctx.close()
    gc.collect()
    assert w() is None and t2.freed


def test_failed_import_gives_memory_back(ctx):
    x = np.ones(4, np.int64)
    w = weakref.ref(x)
    with pytest.raises(gpuk.DtypeError):
        ctx.from_dlpack(x)                        # libgpuk refuses int64 and calls the deleter
    del x
    gc.collect()
    assert w() is None


def test_capsules(ctx):
    t = ctx.asarray(np.arange(3, dtype=np.float32))
    cap = t.__dlpack__()
    assert _dlpack.is_capsule(cap)
    assert _dlpack.PyCapsule_IsValid(cap, b"dltensor")
    with gpuk.Context("cpu") as other:
        u = other.from_dlpack(cap)                # a raw capsule is taken too
        assert _dlpack.PyCapsule_IsValid(cap, b"used_dltensor")
        assert u.data_ptr == t.data_ptr
        with pytest.raises(gpuk.InvalidError, match="consumed"):
            other.from_dlpack(cap)
        w = other.from_dlpack(t)                  # a tensor of another context, no copy
        assert w.data_ptr == t.data_ptr and w.context is other
    assert ctx.from_dlpack(t) is t


def test_unconsumed_capsule_releases_storage(ctx):
    x = np.ones(4, np.float32)
    w = weakref.ref(x)
    t = ctx.from_dlpack(x)
    del x
    cap = t.__dlpack__()
    t.free()
    gc.collect()
    assert w() is not None                        # held by the export in the capsule
    del cap                                       # never consumed: the destructor frees it
    gc.collect()
    assert w() is None


def test_capsule_destructor_keeps_exceptions_in_flight(ctx):
    """A consumer that refuses the capsule drops it with an exception set;
    the destructor must run without replacing that exception."""
    assert _dlpack.destructor_kind in (None, "numpy", "ctypes callback")
    x = np.ones(4, np.float32)
    w = weakref.ref(x)
    t = ctx.from_dlpack(x)
    del x

    class OnAnotherDevice:
        """Hands NumPy a capsule that claims CUDA memory, so NumPy refuses it."""
        def __dlpack__(self, **kw):
            cap = t.__dlpack__()
            p = _dlpack.PyCapsule_GetPointer(cap, b"dltensor")
            _dlpack.DLManagedTensor.from_address(p).dl_tensor.device.device_type = 2
            return cap

        def __dlpack_device__(self):
            return (1, 0)
    with pytest.raises(Exception) as e:
        np.from_dlpack(OnAnotherDevice())
    assert _dlpack.destructor_kind == "numpy"
    assert not isinstance(e.value, SystemError), e.value
    t.free()
    gc.collect()
    assert w() is None                            # the refused export was released


def test_dlpack_protocol_arguments(ctx):
    t = ctx.asarray(np.arange(4, dtype=np.float32))
    assert t.__dlpack_device__() == (1, 0)
    cap = t.__dlpack__(max_version=(1, 0))        # a legacy capsule, as the protocol allows
    assert _dlpack.PyCapsule_IsValid(cap, b"dltensor")
    del cap
    t.__dlpack__(stream=None, dl_device=(1, 0), copy=False)
    with pytest.raises(BufferError):
        t.__dlpack__(dl_device=(2, 0))
    c = np.from_dlpack(_Wrap(t.__dlpack__(copy=True)))
    assert ptr(c) != t.data_ptr and c.tolist() == [0, 1, 2, 3]
    t.free()
    with pytest.raises(BufferError):
        t.__dlpack__()


class _Wrap:
    def __init__(self, cap):
        self.cap = cap

    def __dlpack__(self, **kw):
        return self.cap

    def __dlpack_device__(self):
        return (1, 0)


def test_from_dlpack_refusals(ctx):
    with pytest.raises(gpuk.InvalidError, match="__dlpack__"):
        ctx.from_dlpack([1.0, 2.0])

    class Cuda:
        called = False

        def __dlpack_device__(self):
            return (2, 0)

        def __dlpack__(self, **kw):
            Cuda.called = True
            raise AssertionError("must not be asked")
    with pytest.raises(gpuk.InvalidError, match="device"):
        ctx.from_dlpack(Cuda())
    assert not Cuda.called

    class Broken:
        def __dlpack__(self, **kw):
            raise BufferError("no")
    with pytest.raises(gpuk.InvalidError, match="no"):
        ctx.from_dlpack(Broken())

    class NotACapsule:
        def __dlpack__(self, **kw):
            return 42
    with pytest.raises(gpuk.InvalidError):
        ctx.from_dlpack(NotACapsule())
    with pytest.raises(gpuk.DtypeError):
        ctx.from_dlpack(np.ones(3, np.int64))
    with pytest.raises(gpuk.ShapeError):
        ctx.from_dlpack(np.ones((1,) * 5, np.float32))


def test_zero_dim_and_empty(ctx):
    s = ctx.from_dlpack(np.array(3.0, np.float32))
    assert s.shape == (1,) and s.item() == 3.0
    e = ctx.from_dlpack(np.ones((0, 3), np.float32))
    assert e.shape == (0, 3) and e.size == 0
    a = np.from_dlpack(ctx.empty((0, 2)))
    assert a.shape == (0, 2)


def test_ops_on_numpy_are_zero_copy(ctx):
    """An op's NumPy operands are wrapped, not copied: out= is written in place."""
    x = np.arange(8, dtype=np.float32)
    out = np.zeros(8, np.float32)
    before = ptr(out)
    gpuk.add(x, x, out=out, ctx=ctx)
    assert ptr(out) == before and out.tolist() == (2 * x).tolist()


def test_ctypes_struct_matches_dlpack_header():
    assert ctypes.sizeof(_dlpack.DLTensor) == 48
    assert ctypes.sizeof(_dlpack.DLManagedTensor) == 64


def test_calls_that_may_run_a_deleter_hold_the_gil():
    """NumPy < 1.25's DLPack deleter needs the caller to hold the GIL."""
    from gpuk import _lib
    pyapi = ctypes._FUNCFLAG_PYTHONAPI
    for name in ("gpuk_tensor_destroy", "gpuk_context_close", "gpuk_tensor_from_dlpack",
                 "gpuk_csr_destroy"):
        assert getattr(_lib, name)._flags_ & pyapi, name
    assert not _lib.gpuk_matmul._flags_ & pyapi          # ops release it


def test_imports_freed_while_other_threads_run(ctx):
    import threading
    stop = []

    def churn():
        while not stop:
            [object() for _ in range(100)]
    th = threading.Thread(target=churn)
    th.start()
    try:
        for _ in range(2000):
            t = ctx.from_dlpack(np.ones(16, np.float32))
            t.free()
    finally:
        stop.append(1)
        th.join()


def test_library_without_dlpack_is_handed_no_capsule(ctx):
    """A libgpuk built without dlpack.h would not call the producer's deleter:
    the package refuses before it takes the capsule, which stays the producer's."""
    assert ctx._has_dlpack()                       # this build has DLPack
    ctx._dlpack_ok = False                         # as a build without it answers
    x = np.ones(3, np.float32)
    cap = x.__dlpack__()
    with pytest.raises(gpuk.UnsupportedError, match="without DLPack"):
        ctx.from_dlpack(cap)
    assert _dlpack.PyCapsule_IsValid(cap, b"dltensor")      # not taken
    with pytest.raises(gpuk.UnsupportedError):
        ctx.from_dlpack(x)
    ctx._dlpack_ok = True
    assert ctx.from_dlpack(cap).numpy().tolist() == [1, 1, 1]

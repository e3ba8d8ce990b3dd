"""NumPy arrays used in place by the ops, and the wraps each CPU context remembers.

An array is wrapped for its call alone the first time its description
(data address, shape, strides, dtype) is seen, remembered from the second
time on, and a remembered wrap handed out again only for an array of the
same description.  These tests change each of those under the cache, let
arrays die and their memory come back, fill the cache past its size, and
use it from several threads, checking every result against NumPy.
"""

import ctypes
import gc
import sys
import threading
import weakref

import numpy as np
import pytest

import gpuk
from gpuk import _lib, _ops


def _live(ctx, h):
    """Is h a live handle of ctx (gpuk_tensor_get_info succeeds)?"""
    info = _lib.TensorInfo()
    return _lib.gpuk_tensor_get_info_size(ctx._p, h, ctypes.byref(info),
                                          ctypes.sizeof(info)) == 0


def _entry(ctx, arr):
    key = (arr.__array_interface__["data"][0], arr.shape, arr.strides,
           {np.dtype(np.float32): 1, np.dtype(np.int32): 2}[arr.dtype])
    return ctx._np_wraps.get(key)


def test_remembered_from_the_second_call(ctx):
    a = np.arange(8, dtype=np.float32)
    out = np.zeros(8, np.float32)
    gpuk.scale(2.0, a, out=out, ctx=ctx)
    assert _entry(ctx, a) is None and _entry(ctx, out) is None   # first: wraps of their own
    assert out.tolist() == (2 * a).tolist()
    gpuk.scale(2.0, a, out=out, ctx=ctx)
    w = _entry(ctx, a)
    assert w is not None and w.pins == 0 and _live(ctx, w.h)
    h = w.h
    a += 1
    gpuk.scale(2.0, a, out=out, ctx=ctx)           # the same wrap, the new values
    assert _entry(ctx, a).h == h and out.tolist() == (2 * a).tolist()
    assert _entry(ctx, out) is not None
    gpuk.add(a[:], a[:], out=out[:], ctx=ctx)      # new views, same memory and layout
    assert _entry(ctx, a).h == h and out.tolist() == (2 * a).tolist()


def test_no_reference_kept(ctx):
    a = np.ones(16, np.float32)
    for _ in range(3):
        gpuk.relu(a, out=a, ctx=ctx)
    assert _entry(ctx, a) is not None
    ref = weakref.ref(a)
    del a
    gc.collect()
    assert ref() is None                           # the cache kept nothing alive
    b = np.ones(16, np.float32)
    b.resize(32, refcheck=False)                   # NumPy sees nothing of the cache
    for _ in range(3):
        gpuk.relu(b, out=b, ctx=ctx)
    b.resize(8, refcheck=False)
    b[:] = -1
    gpuk.relu(b, out=b, ctx=ctx)
    assert b.tolist() == [0.0] * 8


def test_memory_freed_and_reused(ctx):
    """A new array at the old address (and often the old id) gets a new wrap."""
    for i in range(50):
        a = np.full(64, float(i), np.float32)
        out = np.empty(64, np.float32)
        for _ in range(3):
            gpuk.scale(2.0, a, out=out, ctx=ctx)
        assert out[0] == 2.0 * i and out[-1] == 2.0 * i
        del a, out
    assert len(ctx._np_wraps) <= _ops.WRAP_CACHE


def test_changes_under_the_cache(ctx):
    a = np.arange(12, dtype=np.float32)
    o = np.zeros(12, np.float32)
    for _ in range(2):
        gpuk.copy(a, out=o, ctx=ctx)
    h = _entry(ctx, a).h
    a.shape = (3, 4)                               # same object, same memory, new shape
    o2 = np.zeros((3, 4), np.float32)
    gpuk.softmax(a, out=o2, ctx=ctx)
    gpuk.softmax(a, out=o2, ctx=ctx)
    e = np.exp(a - a.max(-1, keepdims=True))
    assert np.allclose(o2, e / e.sum(-1, keepdims=True))
    assert _entry(ctx, a).h != h and _entry(ctx, a).gshape == (3, 4)
    a.resize((24,), refcheck=False)                # new memory, same object
    a[:] = np.arange(24)
    o3 = np.zeros(24, np.float32)
    for _ in range(2):
        gpuk.relu(a, out=o3, ctx=ctx)
    assert o3.tolist() == list(range(24))
    a.dtype = np.int32                             # reinterpreted: not float32 any more
    with pytest.raises(gpuk.DtypeError):
        gpuk.relu(a, out=o3, ctx=ctx)
    a.dtype = np.float32
    a.shape = (2, 12)
    a.strides = (4, 8)                             # element (i, j) at 4 i + 8 j bytes
    for _ in range(2):
        with pytest.raises(gpuk.LayoutError):      # softmax wants dense memory
            gpuk.softmax(a, out=np.zeros((2, 12), np.float32), ctx=ctx)
    assert _entry(ctx, a).es == (1, 2)


def test_strided_and_0d_arrays_are_remembered_too(ctx):
    m = np.arange(40, dtype=np.float32).reshape(5, 8)
    v = m[1:, 2:6]                                 # a strided block, last stride 1
    w = np.ones((4, 6), np.float32)
    for _ in range(3):
        r = gpuk.matmul(v, w, ctx=ctx)
    assert np.array_equal(r.numpy(), v @ w)
    assert _entry(ctx, v).es == (8, 1)
    s = np.array(3.0, np.float32)
    o = np.zeros(1, np.float32)
    for _ in range(3):
        gpuk.copy(s, out=o, ctx=ctx)
    assert o[0] == 3.0


def test_read_only_checked_every_call(ctx):
    a = np.ones(4, np.float32)
    o = np.zeros(4, np.float32)
    for _ in range(3):
        gpuk.add(a, a, out=o, ctx=ctx)
    o.flags.writeable = False
    with pytest.raises(gpuk.InvalidError, match="read-only"):
        gpuk.add(a, a, out=o, ctx=ctx)
    o.flags.writeable = True
    gpuk.scale(3.0, a, out=o, ctx=ctx)
    assert o.tolist() == [3.0] * 4


def test_in_place_and_overlap_on_remembered_wraps(ctx):
    v = np.arange(10, dtype=np.float32)
    for i in range(3):
        gpuk.add(v, v, out=v, ctx=ctx)             # exactly in place: allowed
    assert v[1] == 8
    with pytest.raises(gpuk.AliasError):           # judged by libgpuk, on addresses
        gpuk.add(v[:-1], v[:-1], out=v[1:], ctx=ctx)
    x = np.ones((4, 4), np.float32)
    for _ in range(2):
        with pytest.raises(gpuk.AliasError):
            gpuk.matmul(x, x, out=x, ctx=ctx)
    assert all(w.pins == 0 for w in ctx._np_wraps.values())


def test_past_the_cache_size(ctx):
    arrays = [np.full(8, float(i), np.float32) for i in range(3 * _ops.WRAP_CACHE)]
    out = np.zeros(8, np.float32)
    for _ in range(3):
        for i, a in enumerate(arrays):
            gpuk.scale(0.5, a, out=out, ctx=ctx)
            assert out[0] == 0.5 * i
    assert len(ctx._np_wraps) <= _ops.WRAP_CACHE
    assert len(ctx._np_seen) <= _ops.SEEN
    assert all(w.pins == 0 and _live(ctx, w.h) for w in ctx._np_wraps.values())


def test_error_leaves_no_pin(ctx):
    a = np.ones((2, 3), np.float32)
    b = np.ones((4, 5), np.float32)
    for _ in range(3):
        with pytest.raises(gpuk.ShapeError):
            gpuk.matmul(a, b, ctx=ctx)
    assert all(w.pins == 0 for w in ctx._np_wraps.values())


def test_dropped_wraps_wait_for_the_calls_using_them(ctx):
    a = np.ones(8, np.float32)
    for _ in range(2):
        gpuk.relu(a, out=a, ctx=ctx)
    w = _entry(ctx, a)
    w.pins += 1                                    # as if another thread's call held it
    with ctx._lock:
        _ops._unlink(ctx, w)
    assert w.key is None and w.h is not None and _live(ctx, w.h)   # not destroyed yet
    t = gpuk.Tensor._make(ctx, w.h, w.gshape, w.dt, w.es, 0, keep=w, borrowed=True)
    _ops._free([t])                                # that call ends: now it goes
    assert w.h is None and w.pins == 0


def test_close_forgets_the_wraps():
    a = np.ones(4, np.float32)
    with gpuk.Context("cpu") as c:
        for _ in range(3):
            gpuk.relu(a, out=a, ctx=c)
        assert c._np_wraps
    assert not c._np_wraps and not c._np_seen
    with pytest.raises(gpuk.HandleError):
        gpuk.relu(a, out=a, ctx=c)
    with gpuk.Context("cpu") as c2:
        b = np.full(4, -1.0, np.float32)
        for _ in range(3):
            gpuk.relu(b, out=b, ctx=c2)
        assert b.tolist() == [0.0] * 4


def test_threads_on_one_context(ctx):
    shared = [np.full(32, float(i), np.float32) for i in range(_ops.WRAP_CACHE + 8)]
    errors = []

    def work(seed):
        rng = np.random.default_rng(seed)
        try:
            for _ in range(300):
                i = int(rng.integers(len(shared)))
                out = np.empty(32, np.float32)
                gpuk.scale(2.0, shared[i], out=out, ctx=ctx)
                assert out[0] == 2.0 * i, (out[0], i)
                mine = np.full(32, float(seed), np.float32)    # fresh: pushes others out
                r = gpuk.add(mine, shared[i], ctx=ctx)
                assert r.numpy()[5] == seed + i
        except Exception as e:          # noqa: BLE001 - reported below
            errors.append(e)
    threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)                    # switch threads often, mid-call
    try:
        for th in threads:
            th.start()
        for th in threads:
            th.join()
    finally:
        sys.setswitchinterval(interval)
    assert not errors, errors[0]
    assert all(w.pins == 0 for w in ctx._np_wraps.values())


def test_subclasses_are_wrapped_per_call(ctx):
    class Mine(np.ndarray):
        pass
    a = np.arange(6, dtype=np.float32).view(Mine)
    for _ in range(3):
        r = gpuk.relu(a, ctx=ctx)
    assert r.numpy().tolist() == list(range(6))
    assert _entry(ctx, a) is None


def test_data_address_reader():
    """The fast read of an ndarray's data pointer agrees with the array interface."""
    base = np.arange(100, dtype=np.float32)
    for a in (base, base[3:], base[::7], base.reshape(10, 10).T[2:], np.empty(0, np.int32),
              np.array(2.0, np.float32), np.frombuffer(bytearray(64), np.float32)[1:]):
        assert _ops._data_of(a) == a.__array_interface__["data"][0]

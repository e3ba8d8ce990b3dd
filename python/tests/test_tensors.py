"""Contexts and tensors: creation, copies in and out, views, metadata, lifetimes."""

import gc

import numpy as np
import pytest

import gpuk


def test_version_matches_library():
    assert gpuk.version() == gpuk.library_version
    assert gpuk.__version__.split(".")[:2] == gpuk.version().split(".")[:2]


def test_version_from_source_tree():
    import os
    from gpuk._srcversion import version_from_tree
    top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if not os.path.exists(os.path.join(top, "configure.ac")):
        pytest.skip("not in the libgpuk source tree")
    assert version_from_tree(top) == gpuk.version()


def test_context_info_and_variants(ctx):
    i = ctx.info
    assert i.backend == "cpu" and i.dlpack_device == (1, 0)
    assert i.abi[0] >= 2 and i.multiprocessors >= 1 and i.backend_path.endswith(".so")
    assert ctx.device == "cpu"
    assert "cpu" in repr(ctx)
    vs = ctx.variants("matmul")
    assert vs[0].name == "naive"
    assert sum(v.default for v in vs) == 1
    assert all(v.summary and "f32" in v.dtypes for v in vs)
    assert all(isinstance(v.flags, int) for v in vs)
    assert [v.name for v in ctx.variants(gpuk._lib.OPS["matmul"])] == [v.name for v in vs]
    aliases = {v.alias: v.name for v in ctx.variants("minplus") if v.alias}
    assert "v0" in aliases
    assert ctx.variants("embedding", "i32") == [] or all(
        "i32" in v.dtypes for v in ctx.variants("embedding", "i32"))
    assert "cpu" in ctx.load_report
    assert any(a.chosen for a in ctx.load_attempts)


def test_context_options(monkeypatch):
    monkeypatch.setenv("GPUK_CHECK", "1")
    with gpuk.Context("cpu") as c:
        assert c.info.check
    with gpuk.Context("cpu", check=False, verbose=0, num_threads=1, pinned_bytes=0) as c:
        assert not c.info.check and c.info.num_threads == 1
    with gpuk.Context("cpu", device=0, stream=None) as c:
        assert c.info.stream is None


def test_structures_filled_to_the_size_given(ctx):
    """The package hands its own sizes to the *_size forms, which write no more."""
    import ctypes
    from gpuk import _lib
    size = ctypes.sizeof(_lib.Info)
    buf = ctypes.create_string_buffer(b"\xa5" * (size + 32), size + 32)
    assert _lib.gpuk_context_info_size(ctx._p, buf, size) == 0
    assert buf.raw[size:] == b"\xa5" * 32
    info = _lib.Info.from_buffer_copy(buf.raw[:size])
    assert info.dlpack_device == 1 and not info.stream and info.backend == b"cpu"
    short = _lib.Info.stream.offset                  # a caller of the 0.1 layout
    buf = ctypes.create_string_buffer(b"\xa5" * size, size)
    assert _lib.gpuk_context_info_size(ctx._p, buf, short) == 0
    assert buf.raw[short:] == b"\xa5" * (size - short)
    t = ctx.empty((2, 3))
    tsize = ctypes.sizeof(_lib.TensorInfo)
    buf = ctypes.create_string_buffer(b"\xa5" * (tsize + 16), tsize + 16)
    assert _lib.gpuk_tensor_get_info_size(ctx._p, t._h, buf, tsize) == 0
    assert buf.raw[tsize:] == b"\xa5" * 16
    vsize = ctypes.sizeof(_lib.VariantInfo)
    buf = ctypes.create_string_buffer(b"\xa5" * (vsize + 16), vsize + 16)
    assert _lib.gpuk_variant_get_dtype_size(ctx._p, _lib.OPS["add"], 1, 0, buf, vsize) == 0
    assert buf.raw[vsize:] == b"\xa5" * 16
    opts = ctypes.create_string_buffer(b"\xa5" * 96, 96)
    _lib.gpuk_options_init_size(opts, ctypes.sizeof(_lib.Options))
    o = _lib.Options.from_buffer_copy(opts.raw[:ctypes.sizeof(_lib.Options)])
    assert o.size == ctypes.sizeof(_lib.Options) and o.device == -1 and o.pinned_bytes == -1
    assert opts.raw[ctypes.sizeof(_lib.Options):] == b"\xa5" * (96 - ctypes.sizeof(_lib.Options))


def test_dlpack_probe_leaves_no_message(ctx):
    t = ctx.from_dlpack(np.ones(3, np.float32))
    assert ctx._dlpack_ok and ctx.error == ""
    with pytest.raises(gpuk.ShapeError):
        gpuk.add(t, ctx.empty(4))
    assert "x" in ctx.error or "y" in ctx.error


def test_context_manager_closes():
    with gpuk.Context("cpu") as c:
        t = c.empty(3)
        assert not c.closed
    assert c.closed and t.freed
    assert repr(c) == "<gpuk.Context closed>"
    c.close()                                     # idempotent


def test_timer_and_peak(ctx):
    t = ctx.asarray(np.ones(1000, np.float32))
    ctx.timer_start()
    gpuk.relu(t, out=t)
    assert ctx.timer_stop() >= 0
    assert ctx.peak("copy_gbs") > 0
    with pytest.raises(gpuk.UnsupportedError):
        ctx.peak("h2d_gbs")
    with pytest.raises(gpuk.InvalidError):
        ctx.timer_stop()                           # no interval started
    ctx.sync()


def test_empty_zeros_asarray_numpy(ctx):
    e = ctx.empty((2, 3))
    assert e.shape == (2, 3) and e.dtype == np.float32 and e.ndim == 2 and e.size == 6
    assert e.strides == (12, 4) and e.element_strides == (3, 1) and e.offset == 0
    assert e.nbytes == 24 and e.itemsize == 4 and e.is_contiguous and not e.borrowed
    assert np.array_equal(ctx.zeros(4, "i32").numpy(), np.zeros(4, np.int32))
    assert ctx.empty(5, np.int32).dtype == np.int32
    x = np.arange(24, dtype=np.float64).reshape(2, 3, 4)
    t = ctx.asarray(x)                             # float64 stays float64, a copy
    assert t.dtype == np.float64 and t.gpuk_dtype == "f64" and np.array_equal(t.numpy(), x)
    assert t.itemsize == 8 and t.strides == (96, 32, 8) and t.nbytes == 192
    assert ctx.asarray(x, "f32").dtype == np.float32
    assert ctx.asarray(t) is t
    assert ctx.asarray([1, 2, 3]).dtype == np.int32
    assert ctx.asarray([True, False]).numpy().tolist() == [1, 0]
    assert ctx.asarray(2.5).shape == (1,)
    assert ctx.asarray(np.arange(3), dtype="f32").dtype == np.float32
    assert np.array_equal(np.asarray(t), x)
    assert t.tolist() == x.tolist()
    assert ctx.asarray([7.0]).item() == 7.0 and float(ctx.asarray([7.0])) == 7.0
    with gpuk.Context("cpu") as other:
        u = other.asarray(t)                       # another context's tensor: copied
        assert u.context is other and np.array_equal(u.numpy(), x)


def test_asarray_copies(ctx):
    x = np.ones(4, np.float32)
    t = ctx.asarray(x)
    x[0] = 5
    assert t.numpy()[0] == 1
    assert t.data_ptr != x.ctypes.data


def test_views_by_slicing(ctx):
    x = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    t = ctx.asarray(x)
    for key in [(1,), (slice(None), 2), (slice(0, 3, 2), slice(1, 4), slice(None, None, 2)),
                (Ellipsis, 1), (1, Ellipsis, slice(2, 5)), (None, 0), (slice(10, 20),),
                (-1, -2), (slice(None), None, slice(1, 3))]:
        v = t[key]
        ref = x[key]
        assert v.shape == ref.shape, key
        assert v.strides == ref.strides or ref.size <= 1 or any(
            n == 1 for n in ref.shape), key
        assert np.array_equal(v.numpy(), ref), key
    v = t[1, 1:3, ::2]
    assert v.offset == 25 and v.element_strides == (5, 2) and not v.is_contiguous
    assert v.data_ptr == t.data_ptr + 4 * 25
    assert t[2, 3, 4] == 59.0 and t[0, 0, 0] == 0.0
    assert [float(r[0, 0]) for r in t] == [0.0, 20.0, 40.0]
    assert len(t) == 3


def test_views_share_storage_and_setitem(ctx):
    t = ctx.zeros((4, 6))
    t[1:3, ::2] = 7
    t[0] = np.arange(6)
    t[3, 5] = -1
    ref = np.zeros((4, 6), np.float32)
    ref[1:3, ::2] = 7
    ref[0] = np.arange(6)
    ref[3, 5] = -1
    assert np.array_equal(t.numpy(), ref)
    v = t[2]
    v[...] = ctx.asarray(np.full(6, 3.0))         # tensor into a contiguous view: gpuk_copy
    ref[2] = 3
    assert np.array_equal(t.numpy(), ref)
    t[:, 0] = ctx.asarray(np.arange(4.0))         # a strided target: through the host
    ref[:, 0] = np.arange(4)
    assert np.array_equal(t.numpy(), ref)


def test_view_outlives_base(ctx):
    t = ctx.asarray(np.arange(10, dtype=np.float32))
    v = t[2:5]
    t.free()
    assert np.array_equal(v.numpy(), [2, 3, 4])


def test_reshape_and_T(ctx):
    t = ctx.asarray(np.arange(12, dtype=np.float32))
    r = t.reshape(3, -1)
    assert r.shape == (3, 4) and np.array_equal(r.numpy(), np.arange(12).reshape(3, 4))
    assert np.array_equal(r.T.numpy(), np.arange(12).reshape(3, 4).T)
    assert r.T.strides == (4, 16)
    with pytest.raises(gpuk.LayoutError):
        r.T.reshape(12)
    with pytest.raises(gpuk.ShapeError):
        t.reshape(5, 3)
    with pytest.raises(gpuk.ShapeError):
        t.T


def test_copy_method(ctx):
    t = ctx.asarray(np.arange(12, dtype=np.float32).reshape(3, 4))
    c = t[:, 1:3].copy()
    assert c.is_contiguous and np.array_equal(c.numpy(), t.numpy()[:, 1:3])
    i = ctx.asarray(np.arange(5, dtype=np.int32)).copy()
    assert i.dtype == np.int32 and i.numpy().tolist() == [0, 1, 2, 3, 4]


def test_repr(ctx):
    t = ctx.asarray(np.arange(4, dtype=np.float32))
    s = repr(t)
    assert "shape=(4,)" in s and "float32" in s and "cpu" in s and "3." in s
    assert "strides" in repr(t[::2])
    assert "(" in repr(ctx.empty((100, 100)))
    t.free()
    assert "freed" in repr(t)


def test_free_and_gc(ctx):
    t = ctx.empty(10)
    t.free()
    t.free()
    assert t.freed
    for _ in range(200):
        ctx.empty((64, 64))                       # collected as it goes
    gc.collect()


def test_tensor_keeps_context_alive():
    t = gpuk.Context("cpu").asarray([1.0, 2.0])
    gc.collect()
    assert not t.freed and t.numpy().tolist() == [1.0, 2.0]
    t.context.close()
    assert t.freed


def test_tensor_cannot_be_made_directly():
    with pytest.raises(TypeError):
        gpuk.Tensor()
    with pytest.raises(TypeError):
        gpuk.CSRMatrix()


def test_collected_while_busy_is_freed_later(ctx):
    t = ctx.empty(100)
    with ctx._lock:                                # as if another thread were in a call
        del t
        gc.collect()
        assert len(ctx._grave) == 1
    gpuk.relu(ctx.zeros(3))                         # the next call destroys it
    assert ctx._grave == []


def test_threads_share_a_context_safely(ctx):
    import threading
    x = ctx.asarray(np.arange(1000, dtype=np.float32))
    errors = []

    def work():
        try:
            for _ in range(300):
                y = gpuk.add(x, x)
                z = gpuk.scale(0.5, y)
                assert z.numpy()[10] == 10.0
                del y, z
        except Exception as e:          # noqa: BLE001 - reported below
            errors.append(e)
    threads = [threading.Thread(target=work) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors

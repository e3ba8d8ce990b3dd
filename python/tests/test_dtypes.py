"""Every dtype of the library through the package: tensors, NumPy and DLPack
both ways, outputs in the inputs' dtype, and the facts the package reads
from the library instead of keeping copies (dtypes, ops, peak kinds,
structure layouts, the cost of an op)."""

import ctypes
import weakref

import numpy as np
import pytest

import gpuk
from gpuk import _core, _lib
from conftest import needs_torch, torch

try:
    import ml_dtypes
except ImportError:
    ml_dtypes = None


# -- the lists, from the library --------------------------------------------------------------

def test_dtypes_are_the_librarys():
    names = []
    for v in range(1, 32):
        n = _lib.text(_lib.gpuk_dtype_name(v))
        if n and n != "?":
            names.append(n)
    assert list(gpuk.DTYPES) == names
    assert {"f32", "i32", "f64", "f16", "bf16"} <= set(gpuk.DTYPES)
    for n in gpuk.DTYPES:
        v = _lib.DTYPE_VALUES[n]
        assert _lib.DTYPES[v][1] == _lib.gpuk_dtype_size(v)
        assert _lib.DTYPES[v][2] == _lib.gpuk_dtype_precision(v)


def test_numpy_types_follow_size_and_precision():
    assert _core.numpy_dtype(_lib.DTYPE_VALUES["f32"]) == np.float32
    assert _core.numpy_dtype(_lib.DTYPE_VALUES["f64"]) == np.float64
    assert _core.numpy_dtype(_lib.DTYPE_VALUES["f16"]) == np.float16
    assert _core.numpy_dtype(_lib.DTYPE_VALUES["i32"]) == np.int32
    bf16 = _lib.DTYPE_VALUES["bf16"]
    if ml_dtypes is None:
        with pytest.raises(gpuk.DtypeError, match="ml_dtypes"):
            _core.numpy_dtype(bf16)
    else:
        assert _core.numpy_dtype(bf16) == np.dtype(ml_dtypes.bfloat16)
    for name in ("f64", "float64", np.float64, np.dtype("float64"), _lib.DTYPE_VALUES["f64"]):
        assert _core.dtype_code(name) == _lib.DTYPE_VALUES["f64"]


def test_peak_kinds_are_the_librarys(ctx):
    kinds = {}
    v = 1
    while _lib.gpuk_peak_name(v):
        kinds[_lib.text(_lib.gpuk_peak_name(v))] = _lib.text(_lib.gpuk_peak_unit(v))
        v += 1
    assert gpuk.PEAKS == kinds and len(kinds) >= 14
    assert gpuk.PEAKS["read_gbs"] == "GB/s" and gpuk.PEAKS["fma_f64_gflops"] == "GFLOP/s"
    assert ctx.peak("read_gbs") > 0            # a kind the old copy of the list lacked
    with pytest.raises(gpuk.InvalidError, match="fma_f64_gflops"):
        ctx.peak("flops")
    refused = []
    for kind in kinds:
        try:
            assert ctx.peak(kind) > 0, kind
        except gpuk.UnsupportedError:
            pass                               # no micro-kernel for it: said, not invented
        except gpuk.InvalidError as e:
            assert "is not a gpuk_peak" in str(e), e
            refused.append(kind)
    if refused:
        # gpuk_peak_measure (src/context.c) still checks the range of the
        # first eight kinds; the list has more
        pytest.xfail("gpuk_peak_measure refuses kinds of GPUK_PEAK_MAP: %s" % ", ".join(refused))


def test_ops_are_the_catalogues():
    assert gpuk.OPS == tuple(_lib.OPS)
    for op in gpuk.OPS:
        assert callable(getattr(gpuk, op)) and op in gpuk.ops.OPS
        assert _lib.OP_PROTOTYPES[op] and getattr(_lib, "gpuk_" + op) is not None
    assert set(gpuk.ops.OPS) - set(gpuk.OPS) == {"minplus_update", "sum", "mean"}
    assert set(gpuk.__all__) >= {"matmul", "minplus_update", "op_cost", "relu"}
    assert "sum" not in gpuk.__all__ and "copy" not in gpuk.__all__


def test_structures_match_the_library():
    """Each ctypes structure has the library's size and every member at the
    library's offset (the import checks the offsets; a member the C side
    appended and this package lacks shows here as a size difference)."""
    for ctype, cls in _lib.STRUCTS.items():
        assert _lib.library_layout(ctype) == (0, ctypes.sizeof(cls)), ctype
        for name, _ in cls._fields_:
            field = getattr(cls, name)
            assert _lib.library_layout(ctype, name) == (field.offset, field.size), (ctype, name)
    assert _lib.library_layout("gpuk_options", "no_such_member") is None
    assert _lib.library_layout("gpuk_nothing") is None
    assert [n for n, _ in _lib.Options._fields_][-1] == "wisdom"


def test_wisdom_option(tmp_path):
    missing = str(tmp_path / "no-such-wisdom")
    with gpuk.Context("cpu", wisdom=missing) as c:
        assert "no-such-wisdom" in c.auto_source
        gpuk.relu(c.zeros(4))
        name, source, cls = c.last_variant
        assert source in ("built-in", "default") and cls >= 0 and name
    with gpuk.Context("cpu", wisdom="") as c:
        assert "no-such-wisdom" not in c.auto_source
        assert c.last_variant is None
    with pytest.raises(gpuk.InvalidError):
        gpuk.Context("cpu", wisdom=3)


def test_op_cost():
    f, b, cls = gpuk.op_cost("matmul", (64, 32, 16))
    assert f == 2 * 64 * 32 * 16 and b == 4 * (64 * 32 + 32 * 16 + 64 * 16) and cls == 15
    f64 = gpuk.op_cost("matmul", (64, 32, 16), "f64")
    assert f64 == (f, 2 * b, cls)
    f, b, cls = gpuk.op_cost("embedding", (100, 8, 10), "f64")
    assert f == 0 and b == 4 * 10 + 8 * (10 * 8 + 10 * 8)         # ids i32, rows gathered
    f, b, cls = gpuk.op_cost("spmv", (10, 20, 30, 5))
    assert f == 60 and b == 4 * 30 * 2 + 4 * 11 + 4 * (20 + 10) and cls == 5
    assert gpuk.op_cost("relu", (1000,))[0] == 1000           # relu and softmax have flops
    assert gpuk.op_cost("softmax", (10, 100))[0] == 5000
    assert gpuk.op_cost("copy", (1000,))[:2] == (0, 8000)
    f16 = _lib.DTYPE_VALUES["f16"]                            # cast: (n, out's dtype)
    assert gpuk.op_cost("cast", (1000, f16))[:2] == (0, 6000)
    assert gpuk.op_cost("cast", (1000,), "f64")[:2] == (0, 16000)
    with pytest.raises(gpuk.DtypeError):
        gpuk.op_cost("cast", (1000, 31))
    assert gpuk.op_cost("minplus", (8, 8, 8, 1))[1] == gpuk.op_cost("minplus", (8, 8, 8))[1] + 256
    with pytest.raises(gpuk.ShapeError):
        gpuk.op_cost("matmul", (-1, 2, 2))
    with pytest.raises(gpuk.InvalidError):
        gpuk.op_cost("matmul", (1, 2, 3, 4, 5))
    with pytest.raises(gpuk.InvalidError):
        gpuk.op_cost("no_such_op", (1,))
    with pytest.raises(gpuk.DtypeError):
        gpuk.op_cost("add", (1,), "complex64")
    with pytest.raises(gpuk.OverflowError):
        gpuk.op_cost("matmul", (2 ** 32, 2 ** 32, 1))


def test_op_cost_class_is_the_dispatchs(ctx, rng):
    """The class op_cost predicts is the one the library reports for the call."""
    a, b = rng.standard_normal((37, 19)).astype(np.float32), \
        rng.standard_normal((19, 23)).astype(np.float32)
    gpuk.matmul(a, b, ctx=ctx)
    assert ctx.last_variant[2] == gpuk.op_cost("matmul", (37, 19, 23))[2]
    gpuk.softmax(np.ones((5, 300), np.float32), ctx=ctx)
    assert ctx.last_variant[2] == gpuk.op_cost("softmax", (5, 300))[2]
    gpuk.gemv(a, b[:, 0].copy(), ctx=ctx)
    assert ctx.last_variant[2] == gpuk.op_cost("gemv", (37, 19, 0, 0))[2]


# -- tensors of every dtype ------------------------------------------------------------------

def test_asarray_keeps_each_dtype(ctx):
    for arr, name in ((np.arange(6, dtype=np.float64) / 3, "f64"),
                      (np.arange(6, dtype=np.float32) / 3, "f32"),
                      (np.arange(6, dtype=np.float16) / 3, "f16"),
                      (np.arange(6, dtype=np.int32), "i32")):
        t = ctx.asarray(arr.reshape(2, 3))
        assert t.gpuk_dtype == name and t.dtype == arr.dtype and t.itemsize == arr.itemsize
        back = t.numpy()
        assert back.dtype == arr.dtype and back.tobytes() == arr.tobytes()
        assert t.info()["dtype"] == name and t.info()["bytes"] == arr.nbytes
    assert ctx.asarray([0.1, 0.2]).gpuk_dtype == "f64"            # Python floats: float64
    assert ctx.asarray([0.1, 0.2]).numpy().tolist() == [0.1, 0.2]
    assert ctx.asarray(np.arange(3, dtype=np.int64)).gpuk_dtype == "i32"
    assert ctx.asarray(np.arange(3, dtype=">f8")).gpuk_dtype == "f64"   # byte order: native
    assert ctx.asarray(np.float64(2.5)).shape == (1,)
    with pytest.raises(gpuk.DtypeError, match="float128|longdouble"):
        ctx.asarray(np.ones(2, np.longdouble))
    with pytest.raises(gpuk.DtypeError, match="complex64"):
        ctx.asarray(np.ones(2, np.complex64))
    assert ctx.zeros(3, "f64").numpy().tolist() == [0, 0, 0]
    assert ctx.empty((2, 2), np.float64).dtype == np.float64


def test_f16_tensors(ctx):
    x = (np.arange(12, dtype=np.float16) - 5.5).reshape(3, 4)
    t = ctx.asarray(x)
    assert t.gpuk_dtype == "f16" and t.strides == (8, 2)
    assert np.array_equal(t.numpy(), x) and np.array_equal(t[1:, ::2].numpy(), x[1:, ::2])
    c = t.copy()
    assert c.gpuk_dtype == "f16" and np.array_equal(c.numpy(), x)
    if not ctx.variants("relu", "f16"):
        with pytest.raises(gpuk.DtypeError, match="f16"):
            gpuk.relu(t)                          # no op computes in f16 yet
    else:
        assert np.array_equal(gpuk.relu(t).numpy(), np.maximum(x, 0))


def test_bf16_tensors(ctx):
    t = ctx.zeros((2, 3), "bf16")
    assert t.gpuk_dtype == "bf16" and t.itemsize == 2 and t.nbytes == 12
    assert "bf16" in repr(t) or "bfloat16" in repr(t)
    c = t.copy()
    assert c.gpuk_dtype == "bf16"
    if ml_dtypes is None:
        with pytest.raises(gpuk.DtypeError, match="ml_dtypes"):
            t.numpy()
        with pytest.raises(gpuk.DtypeError, match="ml_dtypes"):
            t.dtype
        return
    x = np.array([[1.5, -2.0, 0.25], [3.0, 0.0, -0.5]], ml_dtypes.bfloat16)
    u = ctx.asarray(x)
    assert u.gpuk_dtype == "bf16" and u.numpy().tobytes() == x.tobytes()


def test_bf16_through_dlpack_both_ways(ctx):
    t = ctx.zeros(4, "bf16")
    cap = t.__dlpack__()
    from gpuk import _dlpack
    p = _dlpack.PyCapsule_GetPointer(cap, b"dltensor")
    dt = _dlpack.DLManagedTensor.from_address(p).dl_tensor.dtype
    assert (dt.code, dt.bits, dt.lanes) == (4, 16, 1)             # kDLBfloat 16
    u = ctx.from_dlpack(cap)
    assert u.gpuk_dtype == "bf16" and u.data_ptr == t.data_ptr


@needs_torch
def test_torch_bf16_and_f64(ctx):
    x = torch.tensor([1.5, -2.0, 0.25], dtype=torch.bfloat16)
    t = ctx.asarray(x)                            # NumPy cannot read it: through DLPack
    assert t.gpuk_dtype == "bf16"
    assert torch.equal(torch.from_dlpack(t), x)
    d = torch.arange(6, dtype=torch.float64).reshape(2, 3) / 7
    g = ctx.from_dlpack(d)
    assert g.gpuk_dtype == "f64" and g.data_ptr == d.data_ptr()
    assert torch.equal(torch.from_dlpack(g), d)


def test_f64_dlpack_both_ways_zero_copy(ctx):
    x = np.arange(12, dtype=np.float64).reshape(3, 4) / 7
    w = weakref.ref(x)
    t = ctx.from_dlpack(x)
    assert t.gpuk_dtype == "f64" and t.data_ptr == x.__array_interface__["data"][0]
    back = np.from_dlpack(t)
    assert back.dtype == np.float64 and np.shares_memory(back, x)
    assert back.tobytes() == x.tobytes()
    v = np.from_dlpack(t[1:, 1:3])                # a view: strides in elements of 8 bytes
    assert np.array_equal(v, x[1:, 1:3]) and v.strides == x[1:, 1:3].strides
    del x, back, v
    t.free()
    import gc
    gc.collect()
    assert w() is None
    h = np.arange(5, dtype=np.float16)
    assert np.array_equal(np.from_dlpack(ctx.from_dlpack(h)), h)


def test_ops_take_each_array_in_its_dtype(ctx):
    """An op uses a float64 array as f64: the library decides whether the
    backend has the op in f64, and says so when it has not."""
    x = np.linspace(-1, 1, 7)
    if ctx.variants("relu", "f64"):
        r = gpuk.relu(x, ctx=ctx)
        assert r.gpuk_dtype == "f64" and np.array_equal(r.numpy(), np.maximum(x, 0))
    else:
        with pytest.raises(gpuk.DtypeError, match="f64"):
            gpuk.relu(x, ctx=ctx)
    with pytest.raises(gpuk.DtypeError, match="f64.*f32|f32.*f64"):
        gpuk.add(np.ones(3, np.float32), np.ones(3, np.float64), ctx=ctx)


def test_minplus_int32_needs_no_out(ctx, rng):
    inf = 0x3FFFFFFF                              # GPUK_I32_INF
    a = rng.integers(0, 1000, size=(9, 7)).astype(np.int32)
    b = rng.integers(0, 1000, size=(7, 5)).astype(np.int32)
    a[0, :] = inf
    ref = np.minimum(np.min(a[:, :, None].astype(np.int64) + b[None], axis=1), inf)
    for v in ctx.variants("minplus", "i32"):
        r = gpuk.minplus(a, b, ctx=ctx, variant=v.name)
        assert r.gpuk_dtype == "i32" and r.dtype == np.int32
        assert np.array_equal(r.numpy(), ref), v.name
    assert ctx.variants("minplus", "i32"), "the CPU backend has i32 min-plus"
    r = gpuk.minplus(ctx.asarray(a), ctx.asarray(b))
    assert r.dtype == np.int32 and np.array_equal(r.numpy(), ref)
    d = np.full((5, 5), 7, np.int32)
    out = gpuk.minplus_update(a[:5, :].copy(), b, d[:, :5].copy(), ctx=ctx)
    assert out.dtype == np.int32


def test_csr_dtypes(ctx):
    m = ctx.csr((np.array([1.0, 2.0]), [0, 1], [0, 1, 2]), shape=(2, 2))
    assert m.dtype == np.float64 and "f64" in repr(m)
    m32 = ctx.csr(([1, 2], [0, 1], [0, 1, 2]), shape=(2, 2))
    assert m32.dtype == np.float32
    assert ctx.csr((np.array([1.0]), [0], [0, 1]), shape=(1, 1), dtype="f32").dtype == np.float32
    with pytest.raises(gpuk.DtypeError, match="f64.*f32|f32.*f64"):
        gpuk.spmv(m, np.ones(2, np.float32), ctx=ctx)


def test_bench_in_a_dtype(ctx):
    rows = gpuk.bench("minplus", [(16, 8, 12)], ctx=ctx, dtype="i32", repeat=2, warmup=0)
    assert rows and all(r["dtype"] == "i32" and "error" not in r for r in rows)
    assert rows[0]["gflops"] == pytest.approx(2 * 16 * 8 * 12 / (rows[0]["ms_median"] * 1e6))
    if ctx.variants("matmul", "f64"):
        rows = gpuk.bench("matmul", [(16, 8, 12)], ctx=ctx, dtype="f64", repeat=2, warmup=0)
        assert all(r["dtype"] == "f64" and "error" not in r for r in rows)
    else:
        assert gpuk.bench("matmul", [(4, 4, 4)], ctx=ctx, dtype="f64") == []
    with pytest.raises(gpuk.DtypeError):
        gpuk.bench("add", [(4,)], ctx=ctx, dtype="complex64")


# -- gpuk.cast --------------------------------------------------------------------------------

def _rungs(ctx, op, dt):
    return [v.name for v in ctx.variants(op, dt)] or [None]


def test_cast_rounds_as_numpy_does(ctx):
    """f32 and f64 to f16 round once to nearest even, as NumPy's astype
    does (f64 directly, not through f32); overflow is inf, NaN stays."""
    if not ctx.variants("cast", "f32"):
        with pytest.raises(gpuk.UnsupportedError):
            gpuk.cast(np.ones(3, np.float32), "f16", ctx=ctx)
        return
    rng = np.random.default_rng(7)
    x64 = np.concatenate([rng.standard_normal(997) * 2.0 ** rng.integers(-30, 20, 997),
                          [1 + 2 ** -11, 1 + 3 * 2 ** -11, 1 + 2 ** -11 + 2 ** -40, 65519.0,
                           65520.0, -65520.0, 2 ** -25, 3 * 2 ** -25, -0.0, np.inf, -np.inf,
                           np.nan]])
    for src in (np.float32, np.float64):
        x = x64.astype(src)
        with np.errstate(over="ignore"):        # 65520 and up are inf: the point
            want = x.astype(np.float16)
        for v in _rungs(ctx, "cast", "f32" if src is np.float32 else "f64"):
            got = gpuk.cast(x, np.float16, variant=v, ctx=ctx).numpy()
            assert got.dtype == np.float16
            np.testing.assert_array_equal(got.view(np.uint16)[~np.isnan(want)],
                                          want.view(np.uint16)[~np.isnan(want)])
            assert np.isnan(got[np.isnan(want)]).all()
    # f64 rounds once: via f32, 1 + 2^-11 + 2^-40 would tie down to 1
    assert gpuk.cast(np.array([1 + 2 ** -11 + 2 ** -40]), "f16", ctx=ctx).numpy()[0] == 1 + 2 ** -10
    # widening is exact, and out's dtype decides when out is given
    h = want
    out = np.empty(h.shape, np.float64)
    gpuk.cast(h, out=out, ctx=ctx)
    np.testing.assert_array_equal(out, h.astype(np.float64))


def test_cast_bf16(ctx):
    if ml_dtypes is None or not ctx.variants("cast", "f32"):
        pytest.skip("ml_dtypes or a cast rung missing")
    x = np.array([1 + 2 ** -8, 1 + 3 * 2 ** -8, 3.4e38, -0.0, np.inf, 1 / 3], np.float32)
    got = gpuk.cast(x, "bf16", ctx=ctx)
    assert got.gpuk_dtype == "bf16"
    want = x.astype(ml_dtypes.bfloat16)
    np.testing.assert_array_equal(got.numpy().view(np.uint16), want.view(np.uint16))


def test_cast_refuses_integers_and_mismatches(ctx):
    with pytest.raises(gpuk.DtypeError, match="i32.*f32|f32.*i32"):
        gpuk.cast(np.arange(4, dtype=np.int32), "f32", ctx=ctx)
    with pytest.raises(gpuk.DtypeError):
        gpuk.cast(np.ones(4, np.float32), ctx=ctx)     # neither dtype nor out
    with pytest.raises(gpuk.DtypeError):
        gpuk.cast(np.ones(4, np.float32), "f64", out=np.empty(4, np.float16), ctx=ctx)
    with pytest.raises(gpuk.ShapeError):
        gpuk.cast(np.ones(4, np.float32), out=np.empty(5, np.float16), ctx=ctx)

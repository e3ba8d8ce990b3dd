"""Every error path raises a gpuk exception named after its status code; none crashes."""

import builtins
import random

import numpy as np
import pytest

import gpuk
from gpuk import _lib


def test_one_class_per_status_code():
    assert issubclass(gpuk.Error, Exception)
    n = 0
    for value, (code, summary) in _lib.STATUS.items():
        if value == 0:
            continue
        cls = gpuk.error_class(code)
        assert issubclass(cls, gpuk.Error)
        assert cls.status == value and cls.name == code and cls.summary == summary
        assert getattr(gpuk, cls.__name__) is cls
        assert gpuk.status_name(value) == code and gpuk.strerror(value) == summary
        n += 1
    assert n == len(gpuk.ERRORS) >= 27
    assert gpuk.ShapeError.name == "GPUK_ERR_SHAPE"
    assert gpuk.NullError.name == "GPUK_ERR_NULL"
    assert gpuk.NoMemoryError.name == "GPUK_ERR_NO_MEMORY"
    assert gpuk.BackendNotFoundError.name == "GPUK_ERR_BACKEND_NOT_FOUND"
    assert gpuk.BackendAbiError.name == "GPUK_ERR_BACKEND_ABI"
    assert issubclass(gpuk.ShapeError, ValueError)
    assert issubclass(gpuk.DtypeError, TypeError)
    assert issubclass(gpuk.IndexError, builtins.IndexError)
    assert issubclass(gpuk.OverflowError, builtins.OverflowError)
    assert issubclass(gpuk.NoMemoryError, MemoryError)
    assert issubclass(gpuk.DeviceError, RuntimeError)
    assert "OverflowError" not in gpuk.__all__ and "sum" not in gpuk.__all__
    assert gpuk.status_name(9999) is None and gpuk.strerror(9999)


def test_library_message_and_attributes(ctx):
    a, b = ctx.empty((2, 3)), ctx.empty((4, 5))
    with pytest.raises(gpuk.ShapeError) as e:
        gpuk.matmul(a, b)
    err = e.value
    assert err.status == 4 and err.name == "GPUK_ERR_SHAPE"
    assert err.summary == gpuk.strerror(4)
    assert str(err).startswith("GPUK_ERR_SHAPE: gpuk.matmul: ")
    assert "b" in err.message and ctx.error in err.message     # the library's own words
    assert isinstance(err, ValueError)


def test_wrong_dtype(ctx):
    i = ctx.asarray([1, 2, 3])
    with pytest.raises(gpuk.DtypeError, match="f32"):
        gpuk.relu(i)
    with pytest.raises(gpuk.DtypeError, match="int64"):
        gpuk.relu(np.ones(3, np.int64), ctx=ctx)
    with pytest.raises(gpuk.DtypeError):
        gpuk.embedding(np.ones((4, 2), np.float32), np.array([0, 1]), ctx=ctx)   # int64 ids
    with pytest.raises(gpuk.DtypeError):
        gpuk.embedding(np.ones((4, 2), np.float32), np.array([0.0, 1.0], np.float32), ctx=ctx)
    with pytest.raises(gpuk.DtypeError, match="f128"):
        ctx.empty(3, "f128")
    with pytest.raises(gpuk.DtypeError):
        ctx.asarray(np.array(["a"]))
    with pytest.raises(gpuk.DtypeError, match="complex64"):
        ctx.asarray(np.ones(2, np.complex64))
    with pytest.raises(gpuk.DtypeError, match="complex128"):
        gpuk.relu(np.ones(3, np.complex128), ctx=ctx)
    with pytest.raises(gpuk.DtypeError, match="i32"):
        ctx.csr(([1, 2], [0, 1], [0, 2]), shape=(1, 2), dtype="i32")


def test_wrong_device(ctx):
    class OnGpu:
        def __dlpack_device__(self):
            return (2, 0)

        def __dlpack__(self, **kw):
            raise AssertionError("never asked")
    with pytest.raises(gpuk.InvalidError, match="device"):
        gpuk.relu(OnGpu(), ctx=ctx)
    with pytest.raises(gpuk.InvalidError, match="device"):
        gpuk.relu(ctx.empty(2), out=OnGpu())
    with pytest.raises(gpuk.InvalidError, match="device"):
        ctx.asarray(OnGpu())


def test_layout(ctx):
    t = ctx.asarray(np.ones((4, 6), np.float32))
    with pytest.raises(gpuk.LayoutError):
        gpuk.relu(t[:, ::2])
    with pytest.raises(gpuk.LayoutError):
        gpuk.softmax(np.ones((4, 6), np.float32)[:, ::2], ctx=ctx)
    with pytest.raises(gpuk.LayoutError, match="ascontiguousarray"):
        gpuk.relu(np.ones(5, np.float32)[::-1], ctx=ctx)
    with pytest.raises(gpuk.LayoutError):
        gpuk.matmul(t.T, t)                      # last stride not 1
    with pytest.raises(gpuk.LayoutError):
        t[::-1]
    with pytest.raises(gpuk.LayoutError):
        gpuk.reduce(t[:, ::2], None)
    odd = np.frombuffer(b"\0" * 17, np.uint8)[1:].view(np.float32)   # misaligned
    with pytest.raises(gpuk.LayoutError):
        gpuk.relu(odd, ctx=ctx)


def test_freed_tensor(ctx):
    t = ctx.asarray(np.ones((3, 3), np.float32))
    bias = ctx.asarray(np.ones(3, np.float32))
    bias.free()
    with pytest.raises(gpuk.HandleError, match="bias was freed"):
        gpuk.matmul(t, t, bias)                  # never taken as "no bias"
    t.free()
    for call in (lambda: gpuk.relu(t), lambda: gpuk.add(t, t), lambda: t.numpy(),
                 lambda: t[0], lambda: t.data_ptr, lambda: t.copy(), lambda: t.reshape(9),
                 lambda: gpuk.matmul(t, t), lambda: ctx.asarray(t), lambda: t.info()):
        with pytest.raises(gpuk.HandleError):
            call()
    with pytest.raises(BufferError):
        np.from_dlpack(t)
    o = ctx.empty(3)
    o.free()
    with pytest.raises(gpuk.HandleError, match="out"):
        gpuk.add(ctx.empty(3), ctx.empty(3), out=o)


def test_closed_context():
    ctx = gpuk.Context("cpu")
    t = ctx.asarray(np.ones(4, np.float32))
    m = ctx.csr(([1.0], [0], [0, 1]), shape=(1, 1))
    ctx.close()
    for call in (lambda: gpuk.relu(t), lambda: gpuk.add(t, t), lambda: t.numpy(),
                 lambda: ctx.empty(3), lambda: ctx.asarray([1.0]), lambda: ctx.variants("add"),
                 lambda: ctx.sync(), lambda: ctx.timer_start(), lambda: t[1:],
                 lambda: gpuk.spmv(m, np.ones(1, np.float32)), lambda: ctx.from_dlpack(np.ones(2)),
                 lambda: gpuk.relu(np.ones(2, np.float32), ctx=ctx), lambda: ctx.error,
                 lambda: gpuk.bench("add", [(4,)], ctx=ctx), lambda: ctx.csr(([1.0], [0], [0, 1], (1, 1)))):
        with pytest.raises(gpuk.HandleError):
            call()
    t.free()                                     # harmless now
    m.free()
    assert "freed" in repr(t) and "closed" in repr(m)


def test_not_an_array(ctx):
    with pytest.raises(gpuk.InvalidError, match="str"):
        gpuk.relu("abc", ctx=ctx)
    with pytest.raises(gpuk.InvalidError, match="list"):
        gpuk.add([1.0], [2.0], ctx=ctx)
    with pytest.raises(gpuk.NullError):
        gpuk.relu(None, ctx=ctx)
    with pytest.raises(gpuk.InvalidError):
        gpuk.relu(object(), ctx=ctx)
    with pytest.raises(gpuk.InvalidError):
        gpuk.relu(ctx.csr(([1.0], [0], [0, 1]), shape=(1, 1)))
    with pytest.raises(gpuk.InvalidError):
        gpuk.relu(np.ones(2, np.float32), ctx="cpu")
    with pytest.raises(gpuk.InvalidError):
        gpuk.spmv("not a matrix", np.ones(2, np.float32), ctx=ctx)


def test_wrong_shapes(ctx):
    with pytest.raises(gpuk.ShapeError):
        gpuk.add(ctx.empty(3), ctx.empty(4))
    with pytest.raises(gpuk.ShapeError):
        gpuk.matmul(ctx.empty(3), ctx.empty((3, 3)))
    with pytest.raises(gpuk.ShapeError):
        gpuk.relu(ctx.empty(3), out=ctx.empty(4))
    with pytest.raises(gpuk.ShapeError):
        gpuk.embedding(ctx.empty(4), ctx.empty(2, "i32"))
    with pytest.raises(gpuk.ShapeError):
        gpuk.embedding(ctx.empty((4, 2)), ctx.zeros((1, 1, 1, 1), "i32"))
    with pytest.raises(gpuk.ShapeError):
        gpuk.meanpool(ctx.empty(4))
    with pytest.raises(gpuk.ShapeError):
        gpuk.bias_relu(ctx.empty((2, 3)), ctx.empty(2))
    with pytest.raises(gpuk.ShapeError):
        gpuk.batched_matmul(ctx.empty((2, 3)), ctx.empty((2, 3, 3)))
    with pytest.raises(gpuk.ShapeError):
        gpuk.dot(ctx.empty(3), ctx.empty(3), out=ctx.empty(2))
    with pytest.raises(gpuk.ShapeError):
        gpuk.gemv(ctx.empty((3, 2)), ctx.empty(3))
    with pytest.raises(gpuk.ShapeError):
        gpuk.gemm(ctx.empty((3, 2)), ctx.empty((3, 2)))
    with pytest.raises(gpuk.ShapeError):
        gpuk.gemm(ctx.empty((3, 2)), ctx.empty((2, 2)), ctx.empty((2, 2)), beta=1.0)
    with pytest.raises(gpuk.ShapeError):
        ctx.empty((1, 2, 3, 4, 5))
    with pytest.raises(gpuk.ShapeError):
        ctx.empty((2, -1))
    with pytest.raises(gpuk.InvalidError):
        ctx.empty("abc")
    with pytest.raises(gpuk.ShapeError):
        ctx.zeros((2, 2))[...] = np.ones(3)
    with pytest.raises(gpuk.ShapeError):
        ctx.asarray(np.ones((1,) * 5))


def test_bad_scalars_and_names(ctx):
    x = ctx.asarray(np.ones(3, np.float32))
    with pytest.raises(gpuk.InvalidError):
        gpuk.scale("2", x)
    with pytest.raises(gpuk.InvalidError):
        gpuk.gemm(ctx.empty((2, 2)), ctx.empty((2, 2)), trans_a="yes")
    with pytest.raises(gpuk.InvalidError):
        gpuk.gemv(ctx.empty((2, 2)), ctx.empty(2), beta=1.0)        # beta needs y
    with pytest.raises(gpuk.InvalidError):
        gpuk.reduce(x, 5)
    with pytest.raises(gpuk.InvalidError):
        gpuk.reduce(x, "0")
    with pytest.raises(gpuk.InvalidError):
        gpuk.reduce(x, 0, kind="max")
    with pytest.raises(gpuk.VariantError):
        gpuk.relu(x, variant="no_such_rung")
    with pytest.raises(gpuk.InvalidError):
        gpuk.relu(x, variant=3)
    with pytest.raises(gpuk.InvalidError):
        ctx.variants("no_such_op")
    with pytest.raises(gpuk.DtypeError):
        ctx.variants("add", "complex64")
    with pytest.raises(gpuk.DtypeError):
        ctx.variants("add", 99)
    with pytest.raises(gpuk.InvalidError):
        ctx.peak("nope")


def test_different_contexts(ctx):
    with gpuk.Context("cpu") as other:
        with pytest.raises(gpuk.ContextError, match="different contexts"):
            gpuk.add(ctx.empty(2), other.empty(2))
        with pytest.raises(gpuk.ContextError):
            gpuk.relu(ctx.empty(2), out=other.empty(2))
        with pytest.raises(gpuk.ContextError):
            gpuk.relu(ctx.empty(2), ctx=other)
        with pytest.raises(gpuk.ContextError):
            gpuk.spmv(other.csr(([1.0], [0], [0, 1]), shape=(1, 1)), ctx.empty(1))


def test_alias(ctx):
    t = ctx.asarray(np.ones((4, 4), np.float32))
    with pytest.raises(gpuk.AliasError):
        gpuk.matmul(t, t, out=t)
    f = ctx.asarray(np.ones(8, np.float32))
    with pytest.raises(gpuk.AliasError):
        gpuk.relu(f[:4], out=f[2:6])
    x = np.ones((4, 4), np.float32)
    with pytest.raises(gpuk.AliasError):          # NumPy memory: libgpuk compares addresses
        gpuk.matmul(x, x, out=x, ctx=ctx)
    v = np.ones(10, np.float32)
    with pytest.raises(gpuk.AliasError):
        gpuk.add(v[:-1], v[:-1], out=v[1:], ctx=ctx)
    with pytest.raises(gpuk.AliasError):
        gpuk.bias_relu(x, x[0], out=x, ctx=ctx)
    gpuk.add(v, v, out=v, ctx=ctx)                # exactly in place: allowed
    assert v[0] == 2
    a = np.from_dlpack(t)                          # the same memory seen through NumPy
    with pytest.raises(gpuk.AliasError):
        gpuk.transpose(a, out=t)


def test_embedding_index_error(ctx):
    with pytest.raises(gpuk.IndexError) as e:
        gpuk.embedding(np.ones((4, 2), np.float32), np.array([0, 4], np.int32), ctx=ctx)
    assert isinstance(e.value, builtins.IndexError) and "ids" in str(e.value)
    with pytest.raises(IndexError):
        gpuk.embedding(np.ones((4, 2), np.float32), np.array([-1], np.int32), ctx=ctx)


def test_csr_errors(ctx):
    with pytest.raises(gpuk.SparseError):
        ctx.csr(([1.0, 2.0], [0, 5], [0, 1, 2]), shape=(2, 3))     # column out of range
    with pytest.raises(gpuk.SparseError):
        ctx.csr(([1.0, 2.0], [0, 0], [0, 2]), shape=(1, 3))        # a column twice
    with pytest.raises(gpuk.SparseError):
        ctx.csr(([1.0, 2.0], [0], [0, 2]), shape=(1, 3))           # arrays too short
    with pytest.raises(gpuk.SparseError):
        ctx.csr(([1.0], [0], [0, 1, 1, 1]), shape=(1, 3))          # indptr of another size
    with pytest.raises(gpuk.SparseError):
        ctx.csr(([1.0], [0], [0, 5]), shape=(1, 3))                # indptr past nnz
    with pytest.raises(gpuk.OverflowError):
        ctx.csr(([1.0], [2 ** 40], [0, 1]), shape=(1, 3))
    with pytest.raises(gpuk.InvalidError):
        ctx.csr(([1.0], [0.5], [0, 1]), shape=(1, 3))
    with pytest.raises(gpuk.InvalidError):
        ctx.csr(([1.0], [0], [0, 1]))                               # no shape
    with pytest.raises(gpuk.ShapeError):
        ctx.csr(([], [], [0]), shape=(-1, 3))
    m = ctx.csr(([1.0], [0], [0, 1]), shape=(1, 3), dtype="f32")
    with pytest.raises(gpuk.ShapeError):
        gpuk.spmv(m, np.ones(2, np.float32))
    m.free()
    with pytest.raises(gpuk.HandleError):
        gpuk.spmv(m, np.ones(3, np.float32))


def test_readonly_out(ctx):
    out = np.zeros(3, np.float32)
    out.setflags(write=False)
    with pytest.raises(gpuk.InvalidError, match="read-only"):
        gpuk.relu(np.ones(3, np.float32), out=out, ctx=ctx)
    ro = np.ones(3, np.float32)
    ro.setflags(write=False)
    assert gpuk.relu(ro, ctx=ctx).numpy().tolist() == [1, 1, 1]   # fine as an input


def test_indexing_errors(ctx):
    t = ctx.empty((3, 4))
    with pytest.raises(gpuk.IndexError):
        t[3]
    with pytest.raises(IndexError):
        t[0, 0, 0]
    with pytest.raises(IndexError):
        t[[0, 1]]
    with pytest.raises(IndexError):
        t[..., ...]
    with pytest.raises(gpuk.ShapeError):
        t[None, None, None]                       # five dimensions
    with pytest.raises(gpuk.ShapeError):
        t.item()


def test_context_open_errors(monkeypatch):
    with pytest.raises(gpuk.BackendNotFoundError) as e:
        gpuk.Context("no_such_backend")
    assert "no_such_backend" in str(e.value)
    with pytest.raises(gpuk.BackendNotFoundError):
        gpuk.Context("/nonexistent/backend_x.so")
    with pytest.raises(gpuk.InvalidError):
        gpuk.Context(3)
    with pytest.raises(gpuk.InvalidError):
        gpuk.Context("cpu", device=-5)
    with pytest.raises(gpuk.InvalidError):
        gpuk.Context("cpu", verbose=9)
    with pytest.raises(gpuk.InvalidError):
        gpuk.Context("cpu", device="0")
    with pytest.raises(gpuk.InvalidError):
        gpuk.Context("cpu", device=2 ** 40)
    with pytest.raises(gpuk.InvalidError):
        gpuk.Context("cpu", stream="s")
    with pytest.raises(gpuk.InvalidError):
        gpuk.Context("cpu", pinned_bytes=-1)
    with pytest.raises(gpuk.InvalidError):
        gpuk.Context("")
    monkeypatch.setenv("GPUK_CHECK", "7")
    with pytest.raises(gpuk.EnvError):
        gpuk.Context("cpu")
    with gpuk.Context("cpu", check=False):        # the argument wins over the environment
        pass


def test_bench_errors(ctx):
    with pytest.raises(gpuk.InvalidError):
        gpuk.bench("no_such_op", [(2,)], ctx=ctx)
    with pytest.raises(gpuk.InvalidError):
        gpuk.bench("matmul", [(2, 2)], ctx=ctx)
    with pytest.raises(gpuk.InvalidError):
        gpuk.bench("add", [(2,)], ctx=ctx, repeat=0)
    rows = gpuk.bench("add", [(4,)], variants=["no_such_rung"], ctx=ctx)
    assert "VARIANT" in rows[0]["error"]


def _pool(ctx, other, closed_t):
    rng = np.random.default_rng(1)
    freed = ctx.empty(3)
    freed.free()

    class Weird:
        def __dlpack__(self, **kw):
            return "not a capsule"

    class Raises:
        def __dlpack_device__(self):
            raise RuntimeError("boom")

        def __dlpack__(self, **kw):
            return None
    return [None, 0, 1, 2.5, -1, "x", b"x", [1.0, 2.0], (3, 4), {}, object(), Weird(), Raises(),
            np.float32(2), np.ones(3, np.float32), np.ones((3, 3), np.float32),
            np.ones((2, 3, 3), np.float32), np.ones((1,) * 5, np.float32), np.ones(3),
            np.ones(3, np.int32), np.array([0, 1, 2], np.int32), np.ones(3, np.int64),
            np.ones((3, 4), np.float32)[:, ::2], np.ones(6, np.float32)[::-1],
            np.array(1.0, np.float32), np.empty((0, 3), np.float32),
            np.ones((3, 3), np.float32).T, rng.standard_normal((3, 3)).astype(np.float32),
            ctx.empty((3, 3)), ctx.empty(3), ctx.zeros(3, "i32"), ctx.empty((2, 3, 3)),
            ctx.empty((3, 3))[:, ::2], freed, other.empty((3, 3)), closed_t,
            ctx.csr(([1.0], [0], [0, 1, 1, 1]), shape=(3, 3)), np.ones((3, 3), bool)]


def test_fuzz_never_crashes():
    """Random arguments into every op: a gpuk exception or a result, never anything else."""
    ctx, other, gone = gpuk.Context("cpu"), gpuk.Context("cpu"), gpuk.Context("cpu")
    closed_t = gone.empty((3, 3))
    gone.close()
    pool = _pool(ctx, other, closed_t)
    ops = {gpuk.matmul: 3, gpuk.batched_matmul: 2, gpuk.minplus: 2, gpuk.transpose: 1,
           gpuk.sum: 1, gpuk.mean: 1, gpuk.meanpool: 1, gpuk.add: 2, gpuk.relu: 1,
           gpuk.copy: 1, gpuk.softmax: 1, gpuk.bias_relu: 2, gpuk.embedding: 2, gpuk.spmv: 2,
           gpuk.dot: 2, gpuk.gemv: 3, gpuk.gemm: 3, gpuk.reduce: 2}
    r = random.Random(7)
    outcomes = {"ok": 0, "error": 0}
    for _ in range(3000):
        fn, n = r.choice(list(ops.items()))
        args = [r.choice(pool) for _ in range(n)]
        kw = {}
        if r.random() < 0.5:
            kw["out"] = r.choice(pool)
        if r.random() < 0.3:
            kw["variant"] = r.choice([None, "naive", "auto", "bogus", 7])
        if r.random() < 0.2:
            kw["ctx"] = r.choice([ctx, other, None, "cpu"])
        if fn is gpuk.scale:
            args = [r.choice(pool)] + args
        try:
            fn(*args, **kw)
            outcomes["ok"] += 1
        except gpuk.Error:
            outcomes["error"] += 1
    for _ in range(300):
        try:
            gpuk.scale(r.choice(pool), r.choice(pool), out=r.choice(pool))
        except gpuk.Error:
            pass
    assert outcomes["ok"] > 0 and outcomes["error"] > 0
    ctx.close()
    other.close()

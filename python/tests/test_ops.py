"""Every op, every rung of the CPU backend, against NumPy.

Exact ops (GPUK_OP_MAP's exact column) must give NumPy's float32 bits;
rounded sums must lie within the error bound of gpuk(7):
2 gamma_K sum|terms| + u |r| with gamma_K = K u / (1 - K u), u = 2^-24.
"""

import numpy as np
import pytest

import gpuk

U = 2.0 ** -24


def gamma(k, u=U):
    return k * u / (1 - k * u)


def assert_bound(got, ref, absref, k, u=U):
    got = np.asarray(got, np.float64)
    tol = 2 * gamma(k + 2, u) * absref + u * np.abs(ref) + 1e-37
    err = np.abs(got - ref)
    assert got.shape == ref.shape
    assert np.all(err <= tol), "worst error %g over bound %g" % (
        (err - tol).max(), tol.flat[np.argmax(err - tol)])


def variants(ctx, op):
    vs = ctx.variants(op)
    assert vs, "the CPU backend has no rung of %s" % op
    return vs


def f32(rng, *shape):
    return rng.standard_normal(shape).astype(np.float32)


def test_matmul_every_rung(ctx, rng):
    a, b, bias = f32(rng, 37, 19), f32(rng, 19, 23), f32(rng, 23)
    ta, tb, tbias = ctx.asarray(a), ctx.asarray(b), ctx.asarray(bias)
    ref = a.astype(np.float64) @ b + bias
    absref = np.abs(a).astype(np.float64) @ np.abs(b) + np.abs(bias)
    for v in variants(ctx, "matmul"):
        c = gpuk.matmul(ta, tb, tbias, variant=v.name)
        assert isinstance(c, gpuk.Tensor) and c.shape == (37, 23) and c.dtype == np.float32
        assert_bound(c.numpy(), ref, absref, 19 + 1, 2.0 ** -11 if v.tf32 else U)
        c2 = gpuk.matmul(ta, tb, variant=v.name)
        assert_bound(c2.numpy(), a.astype(np.float64) @ b,
                     np.abs(a).astype(np.float64) @ np.abs(b), 19)


def test_matmul_default_and_auto_agree(ctx, rng):
    a, b = f32(rng, 8, 5), f32(rng, 5, 3)
    x = gpuk.matmul(a, b, ctx=ctx).numpy()
    y = gpuk.matmul(a, b, ctx=ctx, variant="auto").numpy()
    assert np.array_equal(x, y)


def test_matmul_strided_views(ctx, rng):
    big = f32(rng, 20, 30)
    t = ctx.asarray(big)
    a = t[2:12, 5:20]            # a block: last stride 1, first stride 30
    b = ctx.asarray(f32(rng, 15, 4))
    c = gpuk.matmul(a, b)
    ref = big[2:12, 5:20].astype(np.float64) @ b.numpy()
    assert_bound(c.numpy(), ref, np.abs(big[2:12, 5:20]).astype(np.float64) @ np.abs(b.numpy()), 15)
    # into a block of a bigger output
    o = ctx.zeros((12, 9))
    r = gpuk.matmul(a, b, out=o[1:11, 3:7])
    assert r.shape == (10, 4)
    full = o.numpy()
    assert_bound(full[1:11, 3:7], ref, np.abs(ref) + 1, 15)
    assert np.all(full[0] == 0) and np.all(full[:, :3] == 0)


def test_matmul_k0_gives_bias(ctx):
    a, b = ctx.empty((3, 0)), ctx.empty((0, 2))
    bias = ctx.asarray([1.5, -2.0], "f32")
    assert np.array_equal(gpuk.matmul(a, b, bias).numpy(), np.tile([1.5, -2.0], (3, 1)))
    assert np.array_equal(gpuk.matmul(a, b).numpy(), np.zeros((3, 2)))


def test_batched_matmul_every_rung(ctx, rng):
    a, b = f32(rng, 3, 7, 5), f32(rng, 1, 5, 6)          # b broadcasts
    for v in variants(ctx, "batched_matmul"):
        c = gpuk.batched_matmul(a, b, ctx=ctx, variant=v.name)
        assert c.shape == (3, 7, 6)
        assert_bound(c.numpy(), a.astype(np.float64) @ b, np.abs(a).astype(np.float64) @ np.abs(b), 5)


def test_minplus_every_rung_exact(ctx, rng):
    a, b = f32(rng, 13, 9), f32(rng, 9, 11)
    a[0, :] = np.inf
    ref = np.min(a[:, :, None] + b[None, :, :], axis=1)
    for v in variants(ctx, "minplus"):
        r = gpuk.minplus(a, b, ctx=ctx, variant=v.name)
        assert np.array_equal(r.numpy(), ref), v.name
        if v.alias:
            assert np.array_equal(gpuk.minplus(a, b, ctx=ctx, variant=v.alias).numpy(), ref)


def test_minplus_shortcut_same_tensor(ctx):
    d = np.array([[0, 1, np.inf], [np.inf, 0, 2], [5, np.inf, 0]], np.float32)
    t = ctx.asarray(d)
    d2 = gpuk.minplus(t, t).numpy()
    assert np.array_equal(d2, np.min(d[:, :, None] + d[None], axis=1))
    assert d2[0, 2] == 3


def test_minplus_k0_is_inf(ctx):
    r = gpuk.minplus(ctx.empty((2, 0)), ctx.empty((0, 3))).numpy()
    assert np.all(r == np.inf)


def _fmin_neg0(r, p):
    """numpy.fmin with -0 below +0: the rule of gpuk_minplus_update."""
    out = np.fmin(r, p)
    zero = (out == 0) & (np.signbit(r) | np.signbit(p)) & ((r == 0) | (p == 0))
    out[zero] = -0.0
    return out


def test_minplus_update_every_rung_exact(ctx, rng):
    a, b = f32(rng, 13, 9), f32(rng, 9, 11)
    a[1, :] = np.nan                                # every sum NaN: r keeps its value
    r0 = f32(rng, 13, 11)
    r0[2, 3], r0[4, 5] = np.nan, -0.0                # a NaN in r is skipped
    with np.errstate(invalid="ignore"):
        p = np.min(a[:, :, None] + b[None, :, :], axis=1)
        p = np.where(np.isnan(p), np.inf, p)
    ref = _fmin_neg0(np.where(np.isnan(r0), np.inf, r0), p)
    for v in variants(ctx, "minplus"):
        r = r0.copy()
        assert gpuk.minplus_update(a, b, r, ctx=ctx, variant=v.name) is r    # NumPy, in place
        assert np.array_equal(r, ref) and not np.isnan(r).any(), v.name
        t = ctx.asarray(r0)
        assert gpuk.minplus_update(a, b, t, variant=v.name) is t
        assert np.array_equal(t.numpy(), ref), v.name


def test_minplus_update_panels_give_one_product(ctx, rng):
    a, b = f32(rng, 17, 12), f32(rng, 12, 8)
    r = np.full((17, 8), np.inf, np.float32)
    for lo, hi in ((0, 5), (5, 12)):
        gpuk.minplus_update(np.ascontiguousarray(a[:, lo:hi]), np.ascontiguousarray(b[lo:hi]),
                            r, ctx=ctx)
    assert np.array_equal(r, gpuk.minplus(a, b, ctx=ctx).numpy())
    r2 = np.array([[1.0, np.nan]], np.float32)
    gpuk.minplus_update(np.empty((1, 0), np.float32), np.empty((0, 2), np.float32), r2, ctx=ctx)
    assert r2.tolist() == [[1.0, np.inf]]           # k = 0: only NaN changes
    with pytest.raises(gpuk.AliasError):
        gpuk.minplus_update(r, r[:8].copy(), r, ctx=ctx)
    with pytest.raises(gpuk.NullError):
        gpuk.minplus_update(a, b, None, ctx=ctx)
    with pytest.raises(gpuk.ShapeError):
        gpuk.minplus_update(a, b, np.zeros((17, 9), np.float32), ctx=ctx)


def test_minplus_update_missing_from_an_older_library(ctx, monkeypatch):
    from gpuk import _lib
    monkeypatch.setattr(_lib, "gpuk_minplus_update", None)
    with pytest.raises(gpuk.UnsupportedError, match="ABI 2.2"):
        gpuk.minplus_update(np.ones((1, 1), np.float32), np.ones((1, 1), np.float32),
                            np.ones((1, 1), np.float32), ctx=ctx)


def test_transpose_every_rung(ctx, rng):
    x = f32(rng, 17, 33)
    for v in variants(ctx, "transpose"):
        y = gpuk.transpose(x, ctx=ctx, variant=v.name)
        assert np.array_equal(y.numpy(), x.T)


def test_transpose_block_into_block(ctx, rng):
    big = ctx.asarray(f32(rng, 40, 40))
    dst = ctx.zeros((20, 50))
    gpuk.transpose(big[:16, 4:12], out=dst[2:10, 5:21])
    assert np.array_equal(dst.numpy()[2:10, 5:21], big.numpy()[:16, 4:12].T)


@pytest.mark.parametrize("shape,axis", [((7,), 0), ((5, 9), 0), ((5, 9), 1), ((5, 9), -1),
                                        ((3, 4, 5), 1), ((2, 3, 4, 5), 3), ((2, 3, 4, 5), 0)])
def test_reduce_every_rung(ctx, rng, shape, axis):
    x = f32(rng, *shape)
    ref = x.astype(np.float64).sum(axis=axis)
    absref = np.abs(x).astype(np.float64).sum(axis=axis)
    n = shape[axis]
    if ref.ndim == 0:
        ref, absref = ref.reshape(1), absref.reshape(1)
    for v in variants(ctx, "reduce"):
        s = gpuk.sum(x, axis, ctx=ctx, variant=v.name)
        assert s.shape == ref.shape
        assert_bound(s.numpy(), ref, absref, n)
        m = gpuk.mean(x, axis=axis, ctx=ctx, variant=v.name)
        assert_bound(m.numpy(), ref / n, absref / n, n + 2)
        r = gpuk.reduce(x, axis, "mean", ctx=ctx, variant=v.name)
        assert np.array_equal(r.numpy(), m.numpy())


def test_reduce_all_and_empty(ctx, rng):
    x = f32(rng, 4, 6)
    s = gpuk.sum(ctx.asarray(x))
    assert s.shape == (1,)
    assert abs(s.item() - float(x.astype(np.float64).sum())) < 1e-4
    e = ctx.empty((3, 0))
    assert np.array_equal(gpuk.sum(e, 1).numpy(), np.zeros(3))
    assert np.all(np.isnan(gpuk.mean(e, 1).numpy()))


def test_meanpool_every_rung(ctx, rng):
    for shape in ((6, 4), (3, 6, 4), (2, 3, 5, 4)):
        x = f32(rng, *shape)
        ref = x.astype(np.float64).mean(axis=-2)
        for v in variants(ctx, "meanpool"):
            m = gpuk.meanpool(x, ctx=ctx, variant=v.name)
            assert m.shape == ref.shape
            assert_bound(m.numpy(), ref, np.abs(x).astype(np.float64).mean(axis=-2),
                         shape[-2] + 2)


def test_add_scale_relu_copy_every_rung_exact(ctx, rng):
    x, y = f32(rng, 3, 5, 7), f32(rng, 3, 5, 7)
    x[0, 0, :3] = [np.nan, -np.inf, np.inf]
    x[0, 1, 0] = -0.0
    for v in variants(ctx, "add"):
        assert np.array_equal(gpuk.add(x, y, ctx=ctx, variant=v.name).numpy(), x + y,
                              equal_nan=True)
    for v in variants(ctx, "scale"):
        got = gpuk.scale(0.37, x, ctx=ctx, variant=v.name).numpy()
        assert np.array_equal(got, np.float32(0.37) * x, equal_nan=True)
    for v in variants(ctx, "relu"):
        got = gpuk.relu(x, ctx=ctx, variant=v.name).numpy()
        ref = np.where(x < 0, np.float32(0), x)
        assert np.array_equal(got, ref, equal_nan=True)
        assert np.signbit(got[0, 1, 0])           # -0 stays -0
    for v in variants(ctx, "copy"):
        got = gpuk.copy(x, ctx=ctx, variant=v.name).numpy()
        assert np.array_equal(got.view(np.int32), x.view(np.int32))


def test_bias_relu_every_rung(ctx, rng):
    x, b = f32(rng, 4, 6, 5), f32(rng, 5)
    ref = np.maximum(x + b, np.float32(0))
    for v in variants(ctx, "bias_relu"):
        assert np.array_equal(gpuk.bias_relu(x, b, ctx=ctx, variant=v.name).numpy(), ref)


def test_elementwise_in_place(ctx, rng):
    x, y = f32(rng, 50), f32(rng, 50)
    tx, ty = ctx.asarray(x), ctx.asarray(y)
    assert gpuk.add(tx, ty, out=tx) is tx
    assert np.array_equal(tx.numpy(), x + y)
    gpuk.add(tx, ty, out=ty)
    assert np.array_equal(ty.numpy(), x + y + y)
    gpuk.scale(2.0, tx, out=tx)
    gpuk.relu(tx, out=tx)
    assert np.array_equal(tx.numpy(), np.maximum(2 * (x + y), 0))
    b = ctx.asarray(f32(rng, 10))
    m = ctx.asarray(f32(rng, 5, 10))
    ref = np.maximum(m.numpy() + b.numpy(), 0)
    gpuk.bias_relu(m, b, out=m)
    assert np.array_equal(m.numpy(), ref)
    s = ctx.asarray(f32(rng, 3, 8))
    ref = gpuk.softmax(s).numpy()
    gpuk.softmax(s, out=s)
    assert np.array_equal(s.numpy(), ref)


def test_softmax_every_rung(ctx, rng):
    x = f32(rng, 9, 31) * 30
    x[1, 3] = -np.inf
    e = np.exp(x.astype(np.float64) - x.max(axis=-1, keepdims=True))
    ref = e / e.sum(axis=-1, keepdims=True)
    n = x.shape[-1]
    rng_row = (x.max(axis=-1) - np.where(np.isinf(x), 0, x).min(axis=-1))[:, None].astype(np.float64)
    for v in variants(ctx, "softmax"):
        got = gpuk.softmax(x, ctx=ctx, variant=v.name).numpy()
        assert got[1, 3] == 0
        tol = 2 * (gamma(n) + U * (2 * rng_row + 2 * np.log(n + 1) + 10)) * np.abs(ref) + 1e-37
        assert np.all(np.abs(got - ref) <= tol), v.name
        assert np.allclose(got.sum(axis=-1), 1, atol=1e-5)


def test_embedding_every_rung(ctx, rng):
    table = f32(rng, 11, 6)
    for ids in (rng.integers(0, 11, size=7), rng.integers(0, 11, size=(3, 4)),
                rng.integers(0, 11, size=(2, 2, 3))):
        ids = ids.astype(np.int32)
        for v in variants(ctx, "embedding"):
            out = gpuk.embedding(table, ids, ctx=ctx, variant=v.name)
            assert out.shape == ids.shape + (6,)
            assert np.array_equal(out.numpy(), table[ids])


def test_spmv_every_rung(ctx, rng):
    sp = pytest.importorskip("scipy.sparse")
    a = sp.random(40, 30, density=0.2, format="csr", random_state=7, dtype=np.float32)
    x = f32(rng, 30)
    ref = a.astype(np.float64) @ x.astype(np.float64)
    absref = abs(a).astype(np.float64) @ np.abs(x).astype(np.float64)
    longest = int(np.diff(a.indptr).max())
    m = ctx.csr(a)
    assert m.shape == (40, 30) and m.nnz == a.nnz
    for v in variants(ctx, "spmv"):
        y = gpuk.spmv(m, x, ctx=ctx, variant=v.name)
        assert y.shape == (40,)
        assert_bound(y.numpy(), ref, absref, longest)
    # a scipy matrix per call, and raw (data, indices, indptr, shape)
    assert_bound(gpuk.spmv(a, x, ctx=ctx).numpy(), ref, absref, longest)
    assert_bound(gpuk.spmv((a.data, a.indices, a.indptr, a.shape), x, ctx=ctx).numpy(),
                 ref, absref, longest)


def test_spmv_man_page_example(ctx):
    m = ctx.csr(([1, 2, 3], [0, 2, 1], [0, 2, 2, 3]), shape=(3, 3))
    y = gpuk.spmv(m, np.array([1, 10, 100], np.float32))
    assert y.numpy().tolist() == [201, 0, 30]


def test_spmv_sums_scipy_duplicates(ctx):
    sp = pytest.importorskip("scipy.sparse")
    a = sp.csr_matrix((np.array([1, 2], np.float32), np.array([0, 0]), np.array([0, 2])),
                      shape=(1, 2))
    assert gpuk.spmv(a, np.ones(2, np.float32), ctx=ctx).numpy().tolist() == [3]


def test_dot_every_rung(ctx, rng):
    x, y = f32(rng, 101), f32(rng, 101)
    for v in variants(ctx, "dot"):
        d = gpuk.dot(x, y, ctx=ctx, variant=v.name)
        assert d.shape == (1,)
        assert_bound(d.numpy(), np.array([np.dot(x.astype(np.float64), y)]),
                     np.array([np.abs(x).astype(np.float64) @ np.abs(y)]), 101)
    assert gpuk.dot(ctx.empty(0), ctx.empty(0)).item() == 0


def test_gemv_every_rung(ctx, rng):
    a, x, xt, y = f32(rng, 13, 7), f32(rng, 7), f32(rng, 13), f32(rng, 13)
    a64 = a.astype(np.float64)
    for v in variants(ctx, "gemv"):
        r = gpuk.gemv(a, x, ctx=ctx, variant=v.name)
        assert_bound(r.numpy(), a64 @ x, np.abs(a64) @ np.abs(x), 7)
        r = gpuk.gemv(a, x, y, alpha=2.0, beta=-0.5, ctx=ctx, variant=v.name)
        assert_bound(r.numpy(), 2 * (a64 @ x) - 0.5 * y, 2 * (np.abs(a64) @ np.abs(x)) + 0.5 * np.abs(y), 8)
        r = gpuk.gemv(a, xt, trans=True, ctx=ctx, variant=v.name)
        assert_bound(r.numpy(), a64.T @ xt, np.abs(a64.T) @ np.abs(xt), 13)


def test_gemv_blas_conventions(ctx, rng):
    a, x = f32(rng, 4, 3), f32(rng, 3)
    y = np.full(4, np.nan, np.float32)
    assert not np.any(np.isnan(gpuk.gemv(a, x, y, beta=0.0, ctx=ctx).numpy()))
    a_nan = np.full((4, 3), np.nan, np.float32)
    y = f32(rng, 4)
    r = gpuk.gemv(a_nan, x, y, alpha=0.0, beta=2.0, ctx=ctx).numpy()
    assert np.array_equal(r, 2 * y)
    # in-place update through out=y
    ty = ctx.asarray(y)
    assert gpuk.gemv(a, x, ty, alpha=1.0, beta=1.0, out=ty) is ty
    assert_bound(ty.numpy(), a.astype(np.float64) @ x + y, np.abs(a) @ np.abs(x) + np.abs(y), 4)


def test_gemm_every_rung(ctx, rng):
    a, b, c = f32(rng, 9, 6), f32(rng, 6, 5), f32(rng, 9, 5)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    for v in variants(ctx, "gemm"):
        r = gpuk.gemm(a, b, ctx=ctx, variant=v.name)
        assert_bound(r.numpy(), a64 @ b64, np.abs(a64) @ np.abs(b64), 6)
        r = gpuk.gemm(a, b, c, alpha=0.5, beta=2.0, ctx=ctx, variant=v.name)
        assert_bound(r.numpy(), 0.5 * a64 @ b64 + 2 * c, 0.5 * np.abs(a64) @ np.abs(b64) + 2 * np.abs(c), 7)
        at, bt = np.ascontiguousarray(a.T), np.ascontiguousarray(b.T)
        r = gpuk.gemm(at, bt, trans_a=True, trans_b=True, ctx=ctx, variant=v.name)
        assert_bound(r.numpy(), a64 @ b64, np.abs(a64) @ np.abs(b64), 6)


def test_gemm_in_place_and_pytorch_layout(ctx, rng):
    x, w_t, bias = f32(rng, 8, 12), f32(rng, 5, 12), f32(rng, 5)   # w stored [out, in]
    c = ctx.asarray(np.tile(bias, (8, 1)))
    assert gpuk.gemm(x, w_t, c, beta=1.0, trans_b=True, out=c) is c
    ref = x.astype(np.float64) @ w_t.T + bias
    assert_bound(c.numpy(), ref, np.abs(x) @ np.abs(w_t.T) + np.abs(bias), 13)


def test_ops_take_numpy_in_place(ctx, rng):
    """On a CPU context NumPy arrays are used where they are, out= included."""
    x, y = f32(rng, 64), f32(rng, 64)
    out = np.zeros(64, np.float32)
    r = gpuk.add(x, y, out=out, ctx=ctx)
    assert r is out
    assert np.array_equal(out, x + y)
    gpuk.relu(out, out=out, ctx=ctx)                 # in place on NumPy memory
    assert np.array_equal(out, np.maximum(x + y, 0))
    m = np.zeros((4, 4), np.float32)
    gpuk.matmul(f32(rng, 4, 3), f32(rng, 3, 4), out=m, ctx=ctx)
    assert np.any(m != 0)


def test_mixed_tensor_and_numpy(ctx, rng):
    x = f32(rng, 10)
    t = ctx.asarray(x)
    assert np.array_equal(gpuk.add(t, x).numpy(), x + x)       # the tensor's context runs it


def test_default_context(rng):
    x = f32(rng, 5)
    r = gpuk.relu(x)
    assert r.context is gpuk.default_context()
    assert np.array_equal(r.numpy(), np.maximum(x, 0))
    with gpuk.Context("cpu") as mine:
        prev = gpuk.set_default_context(mine)
        try:
            assert gpuk.relu(x).context is mine
        finally:
            gpuk.set_default_context(prev)


def test_operators(ctx, rng):
    a, b = ctx.asarray(f32(rng, 3, 4)), ctx.asarray(f32(rng, 4, 2))
    assert np.allclose((a @ b).numpy(), a.numpy() @ b.numpy(), atol=1e-5)
    assert np.array_equal((a + a).numpy(), a.numpy() * 2)
    assert np.array_equal((2 * a).numpy(), a.numpy() * 2)
    assert np.array_equal((a * 3).numpy(), a.numpy() * np.float32(3))


def test_empty_outputs(ctx):
    e = ctx.empty((0, 4))
    assert gpuk.add(e, e).shape == (0, 4)
    assert gpuk.relu(e).shape == (0, 4)
    assert gpuk.softmax(e).shape == (0, 4)
    assert gpuk.matmul(ctx.empty((0, 3)), ctx.empty((3, 2))).shape == (0, 2)
    assert gpuk.transpose(e).shape == (4, 0)


def test_op_exact_column():
    assert gpuk.op_exact("minplus") and gpuk.op_exact("add")
    assert not gpuk.op_exact("matmul")


def floyd(w):
    """Floyd-Warshall in float64 (or int64): the reference distances."""
    d = np.where(np.isnan(w), np.inf, w).astype(np.float64)
    np.fill_diagonal(d, np.minimum(np.diag(d), 0))
    for k in range(len(d)):
        d = np.minimum(d, d[:, k:k + 1] + d[k:k + 1, :])
    return d


def test_apsp_every_rung(ctx, rng):
    n = 12
    w = rng.integers(1, 20, size=(n, n)).astype(np.float32)   # integer lengths add exactly
    w[rng.random((n, n)) < 0.5] = np.inf
    ref = floyd(w)
    for v in variants(ctx, "apsp"):
        d = gpuk.apsp(w, ctx=ctx, variant=v.name)
        assert d.dtype == np.float32 and np.array_equal(d.numpy(), ref), v.name
        d, p = gpuk.apsp(w, predecessors=True, ctx=ctx, variant=v.name)
        assert p.dtype == np.int32 and np.array_equal(d.numpy(), ref)
        pred = p.numpy()
        for i in range(n):
            for j in range(n):
                path = gpuk.apsp_path(p, i, j)
                if i == j:
                    assert path == [i]
                elif np.isinf(ref[i, j]):
                    assert path == [] and pred[i, j] == -1
                else:
                    assert path[0] == i and path[-1] == j
                    assert sum(w[a, b] for a, b in zip(path, path[1:])) == ref[i, j]
    t = ctx.asarray(w)
    assert gpuk.apsp(t, out=t) is t                          # in place
    assert np.array_equal(t.numpy(), ref)


def test_apsp_int32_and_negative_cycle(ctx, rng):
    inf = 0x3FFFFFFF
    w = rng.integers(0, 50, size=(9, 9)).astype(np.int32)
    w[rng.random((9, 9)) < 0.4] = inf
    ref = floyd(np.where(w == inf, np.inf, w).astype(np.float64))
    d = gpuk.apsp(w, ctx=ctx)
    assert d.dtype == np.int32
    assert np.array_equal(np.where(d.numpy() == inf, np.inf, d.numpy()), ref)
    neg = np.array([[0, 1], [-3, 0]], np.float32)
    with pytest.raises(gpuk.NegativeCycleError) as e:
        gpuk.apsp(neg, ctx=ctx)
    assert isinstance(e.value, ValueError)
    with pytest.raises(gpuk.ShapeError):
        gpuk.apsp(np.zeros((2, 3), np.float32), ctx=ctx)

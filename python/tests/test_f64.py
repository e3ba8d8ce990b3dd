"""Every op in float64, every f64 rung of each backend, against NumPy.

The rounded ops are held to the bounds of gpuk(7) with the unit roundoff
of f64, u = 2^-53: 2 gamma_K sum|terms| + u |r| for a sum of K terms,
against a reference computed in long double (more precise than the f64
under test, as doc/design.md asks of a reference).  The exact ops
(transpose, add, scale, relu, bias_relu, copy, embedding, min-plus and
its update) must give NumPy's float64 bits.

A backend that lists no f64 rung of an op skips that op's test, saying
so: the f64 rows come with the backends, and a skip is never a pass.
"""

import math

import numpy as np
import pytest

import gpuk
from conftest import HAVE_CUDA

U = 2.0 ** -53
LD = np.longdouble
WIDE = np.finfo(LD).nmant > np.finfo(np.float64).nmant


@pytest.fixture(params=["cpu", "cuda"])
def bctx(request):
    """A context on each backend there is (f64 runs on both)."""
    if request.param == "cuda" and not HAVE_CUDA:
        pytest.skip("no CUDA backend/device here")
    with gpuk.Context(request.param) as c:
        yield c


def rungs(ctx, op):
    vs = ctx.variants(op, "f64")
    if not vs:
        pytest.skip("the %s backend lists no f64 rung of %s" % (ctx.info.backend, op))
    return vs


def wide(x):
    """x in long double: the reference's precision."""
    if not WIDE:
        pytest.skip("long double is no wider than double here: no reference more precise "
                    "than f64")
    return np.asarray(x, LD)


def gamma(k):
    return k * U / (1 - k * U)


def assert_bound(got, ref, absref, k, what=""):
    """|got - ref| <= 2 gamma_K absref + u |ref| (+ the underflow floor)."""
    got = np.asarray(got)
    assert got.dtype == np.float64, "%s: the result is %s, not float64" % (what, got.dtype)
    assert got.shape == np.shape(ref), what
    tol = 2 * gamma(k) * absref + U * np.abs(ref) + (2 * k + 2) * LD(2.0) ** -1074
    err = np.abs(got.astype(LD) - ref)
    assert np.all(err <= tol), "%s: worst error %g over the bound %g" % (
        what, float((err - tol).max()), float(tol.flat[np.argmax(err - tol)]))


def bits(x):
    return np.asarray(x, np.float64).view(np.int64)


def f64(rng, *shape):
    return rng.standard_normal(shape)


# -- products ---------------------------------------------------------------------------------

def test_matmul(bctx, rng):
    a, b, bias = f64(rng, 37, 19), f64(rng, 19, 23), f64(rng, 23)
    ta, tb, tbias = bctx.asarray(a), bctx.asarray(b), bctx.asarray(bias)
    assert ta.gpuk_dtype == "f64"
    ref = wide(a) @ wide(b)
    absref = np.abs(wide(a)) @ np.abs(wide(b))
    for v in rungs(bctx, "matmul"):
        c = gpuk.matmul(ta, tb, tbias, variant=v.name)
        assert c.gpuk_dtype == "f64"                      # no out=: the inputs' dtype
        assert_bound(c.numpy(), ref + wide(bias), absref + np.abs(wide(bias)), 20, v.name)
        assert_bound(gpuk.matmul(ta, tb, variant=v.name).numpy(), ref, absref, 19, v.name)
    big = bctx.asarray(f64(rng, 20, 30))
    blk = big[2:12, 5:20]                                  # a strided block
    w = f64(rng, 15, 4)
    o = bctx.zeros((12, 9), "f64")
    gpuk.matmul(blk, bctx.asarray(w), out=o[1:11, 3:7])
    full = o.numpy()
    x = big.numpy()[2:12, 5:20]
    assert_bound(full[1:11, 3:7], wide(x) @ wide(w), np.abs(wide(x)) @ np.abs(wide(w)), 15)
    assert np.all(full[0] == 0) and np.all(full[:, :3] == 0)


def test_batched_matmul(bctx, rng):
    a, b = f64(rng, 3, 7, 5), f64(rng, 1, 5, 6)            # b broadcasts
    for v in rungs(bctx, "batched_matmul"):
        c = gpuk.batched_matmul(a, b, ctx=bctx, variant=v.name)
        assert c.shape == (3, 7, 6)
        assert_bound(c.numpy(), wide(a) @ wide(b), np.abs(wide(a)) @ np.abs(wide(b)), 5, v.name)


def test_gemm_takes_alpha_and_beta_unrounded(bctx, rng):
    """alpha = 0.1 rounded to float32 would be off by 1.5e-9 relative, a
    million times the f64 bound: the scalars must reach the kernel as doubles."""
    a, b, c = f64(rng, 9, 6), f64(rng, 6, 5), f64(rng, 9, 5)
    al, be = 0.1, 0.3
    A, B, C = wide(a), wide(b), wide(c)
    for v in rungs(bctx, "gemm"):
        r = gpuk.gemm(a, b, c, alpha=al, beta=be, ctx=bctx, variant=v.name)
        assert_bound(r.numpy(), LD(al) * (A @ B) + LD(be) * C,
                     LD(al) * (np.abs(A) @ np.abs(B)) + LD(be) * np.abs(C), 6 + 3, v.name)
        at, bt = np.ascontiguousarray(a.T), np.ascontiguousarray(b.T)
        r = gpuk.gemm(at, bt, trans_a=True, trans_b=True, alpha=al, ctx=bctx, variant=v.name)
        assert_bound(r.numpy(), LD(al) * (A @ B), LD(al) * (np.abs(A) @ np.abs(B)), 6 + 2,
                     v.name)
        tc = bctx.asarray(c)
        assert gpuk.gemm(a, b, tc, beta=1.0, out=tc, ctx=bctx, variant=v.name) is tc
        assert_bound(tc.numpy(), A @ B + C, np.abs(A) @ np.abs(B) + np.abs(C), 7, v.name)


def test_gemv(bctx, rng):
    a, x, xt, y = f64(rng, 13, 7), f64(rng, 7), f64(rng, 13), f64(rng, 13)
    A = wide(a)
    al, be = 0.1, -0.7
    for v in rungs(bctx, "gemv"):
        r = gpuk.gemv(a, x, ctx=bctx, variant=v.name)
        assert_bound(r.numpy(), A @ wide(x), np.abs(A) @ np.abs(wide(x)), 7, v.name)
        r = gpuk.gemv(a, x, y, alpha=al, beta=be, ctx=bctx, variant=v.name)
        assert_bound(r.numpy(), LD(al) * (A @ wide(x)) + LD(be) * wide(y),
                     LD(al) * (np.abs(A) @ np.abs(wide(x))) + LD(-be) * np.abs(wide(y)),
                     7 + 3, v.name)
        r = gpuk.gemv(a, xt, trans=True, ctx=bctx, variant=v.name)
        assert_bound(r.numpy(), A.T @ wide(xt), np.abs(A.T) @ np.abs(wide(xt)), 13, v.name)


def test_dot(bctx, rng):
    x, y = f64(rng, 101), f64(rng, 101)
    for v in rungs(bctx, "dot"):
        d = gpuk.dot(x, y, ctx=bctx, variant=v.name)
        assert d.shape == (1,) and d.gpuk_dtype == "f64"
        assert_bound(d.numpy(), np.array([np.dot(wide(x), wide(y))]),
                     np.array([np.abs(wide(x)) @ np.abs(wide(y))]), 101, v.name)
    if bctx.variants("dot", "f64"):
        assert gpuk.dot(bctx.empty(0, "f64"), bctx.empty(0, "f64")).item() == 0


def test_spmv_with_a_float64_scipy_matrix(bctx, rng):
    sp = pytest.importorskip("scipy.sparse")
    a = sp.random(40, 30, density=0.2, format="csr", random_state=7, dtype=np.float64)
    x = f64(rng, 30)
    m = bctx.csr(a)
    assert m.dtype == np.float64                           # scipy's float64 stays f64
    ref = np.array([sum(wide(a.data[a.indptr[i]:a.indptr[i + 1]]) *
                        wide(x[a.indices[a.indptr[i]:a.indptr[i + 1]]])) for i in range(40)])
    absref = np.array([sum(np.abs(wide(a.data[a.indptr[i]:a.indptr[i + 1]])) *
                           np.abs(wide(x[a.indices[a.indptr[i]:a.indptr[i + 1]]])))
                       for i in range(40)])
    longest = int(np.diff(a.indptr).max())
    for v in rungs(bctx, "spmv"):
        y = gpuk.spmv(m, x, variant=v.name)
        assert y.gpuk_dtype == "f64"
        assert_bound(y.numpy(), ref, absref, longest, v.name)
    assert_bound(gpuk.spmv(a, x, ctx=bctx).numpy(), ref, absref, longest)


# -- min-plus: bit-exact ----------------------------------------------------------------------

def minplus_ref(a, b, r0=None):
    """min over p of a[i,p] + b[p,j] in float64, a NaN sum skipped (+inf when
    all are), -0 below +0; r0, when given, one more candidate (the update)."""
    m, n = a.shape[0], b.shape[1]
    with np.errstate(invalid="ignore"):
        s = a[:, :, None] + b[None, :, :]
    if r0 is not None:
        s = np.concatenate([r0[:, None, :], s], axis=1)
    if s.shape[1] == 0:
        return np.full((m, n), np.inf)
    s = np.where(np.isnan(s), np.inf, s)
    out = s.min(axis=1)
    out[(out == 0) & np.any((s == 0) & np.signbit(s), axis=1)] = -0.0
    return out


def test_minplus_bit_exact(bctx, rng):
    a, b = f64(rng, 13, 9), f64(rng, 9, 11)
    a[0, :] = np.inf
    a[1, :] = np.nan                                       # every sum NaN: +inf
    a[2, :] = 10.0                                         # row 2's smallest sums: -0 and +0
    a[2, 3], b[3, :] = -0.0, -0.0                          # -0 + -0 = -0
    a[2, 4], b[4, :] = 0.0, 0.0                            # +0 + +0 = +0; the minimum is -0
    a[4, 0], b[0, 2] = np.inf, -np.inf                     # inf + -inf: NaN, skipped
    ref = minplus_ref(a, b)
    assert np.signbit(ref[2, 0]) and ref[1, 0] == np.inf
    for v in rungs(bctx, "minplus"):
        r = gpuk.minplus(a, b, ctx=bctx, variant=v.name)
        assert r.gpuk_dtype == "f64"
        assert np.array_equal(bits(r.numpy()), bits(ref)), v.name
    e = gpuk.minplus(bctx.empty((2, 0), "f64"), bctx.empty((0, 3), "f64")).numpy()
    assert np.all(e == np.inf)


def test_minplus_update_bit_exact(bctx, rng):
    a, b = f64(rng, 13, 9), f64(rng, 9, 11)
    a[1, :] = np.nan
    r0 = f64(rng, 13, 11)
    r0[2, 3], r0[4, 5] = np.nan, -0.0
    ref = minplus_ref(a, b, r0)
    for v in rungs(bctx, "minplus"):
        t = bctx.asarray(r0)
        assert gpuk.minplus_update(a, b, t, variant=v.name) is t
        assert np.array_equal(bits(t.numpy()), bits(ref)), v.name
    # panels of k, one after another from +inf, give the bits of one product
    a, b = f64(rng, 17, 12), f64(rng, 12, 8)
    r = bctx.asarray(np.full((17, 8), np.inf))
    for lo, hi in ((0, 5), (5, 12)):
        gpuk.minplus_update(np.ascontiguousarray(a[:, lo:hi]), np.ascontiguousarray(b[lo:hi]),
                            r, ctx=bctx)
    assert np.array_equal(bits(r.numpy()), bits(gpuk.minplus(a, b, ctx=bctx).numpy()))


# -- the other exact ops ----------------------------------------------------------------------

def test_transpose(bctx, rng):
    x = f64(rng, 17, 33)
    for v in rungs(bctx, "transpose"):
        y = gpuk.transpose(x, ctx=bctx, variant=v.name)
        assert np.array_equal(bits(y.numpy()), bits(x.T)), v.name


def test_elementwise_bit_exact(bctx, rng):
    x, y = f64(rng, 3, 5, 7), f64(rng, 3, 5, 7)
    x[0, 0, :3] = [np.nan, -np.inf, np.inf]
    x[0, 1, 0] = -0.0
    ops = {
        "add": (lambda v: gpuk.add(x, y, ctx=bctx, variant=v), x + y),
        "scale": (lambda v: gpuk.scale(0.1, x, ctx=bctx, variant=v), 0.1 * x),
        "relu": (lambda v: gpuk.relu(x, ctx=bctx, variant=v), np.where(x < 0, 0.0, x)),
        "copy": (lambda v: gpuk.copy(x, ctx=bctx, variant=v), x),
    }
    ran = 0
    for op, (call, ref) in ops.items():
        for v in bctx.variants(op, "f64"):
            got = call(v.name).numpy()
            assert got.dtype == np.float64
            assert np.array_equal(got, ref, equal_nan=True), (op, v.name)
            assert np.array_equal(bits(got)[~np.isnan(ref)], bits(ref)[~np.isnan(ref)]), op
            ran += 1
    if not ran:
        pytest.skip("the %s backend lists no f64 rung of add, scale, relu or copy"
                    % bctx.info.backend)


def test_bias_relu(bctx, rng):
    x, b = f64(rng, 4, 6, 5), f64(rng, 5)
    ref = np.maximum(x + b, 0.0)
    for v in rungs(bctx, "bias_relu"):
        got = gpuk.bias_relu(x, b, ctx=bctx, variant=v.name).numpy()
        assert np.array_equal(bits(got), bits(ref)), v.name


def test_embedding_with_int32_ids(bctx, rng):
    table = f64(rng, 11, 6)
    for ids in (rng.integers(0, 11, size=7), rng.integers(0, 11, size=(3, 4))):
        ids = ids.astype(np.int32)
        for v in rungs(bctx, "embedding"):
            out = gpuk.embedding(table, ids, ctx=bctx, variant=v.name)
            assert out.gpuk_dtype == "f64" and out.shape == ids.shape + (6,)
            assert np.array_equal(bits(out.numpy()), bits(table[ids])), v.name


# -- sums -------------------------------------------------------------------------------------

@pytest.mark.parametrize("shape,axis", [((7,), 0), ((5, 9), 0), ((5, 9), 1), ((3, 4, 5), 1),
                                        ((2, 3, 4, 5), 3)])
def test_reduce(bctx, rng, shape, axis):
    x = f64(rng, *shape)
    X = wide(x)
    ref, absref, n = X.sum(axis=axis), np.abs(X).sum(axis=axis), shape[axis]
    if ref.ndim == 0:
        ref, absref = ref.reshape(1), absref.reshape(1)
    for v in rungs(bctx, "reduce"):
        s = gpuk.sum(x, axis, ctx=bctx, variant=v.name)
        assert s.gpuk_dtype == "f64"
        assert_bound(s.numpy(), ref, absref, n, v.name)
        m = gpuk.mean(x, axis, ctx=bctx, variant=v.name)
        assert_bound(m.numpy(), ref / n, absref / n, n + 2, v.name)


def test_meanpool(bctx, rng):
    for shape in ((6, 4), (3, 6, 4), (2, 3, 5, 4)):
        x = f64(rng, *shape)
        X = wide(x)
        for v in rungs(bctx, "meanpool"):
            m = gpuk.meanpool(x, ctx=bctx, variant=v.name)
            assert m.gpuk_dtype == "f64"
            assert_bound(m.numpy(), X.mean(axis=-2), np.abs(X).mean(axis=-2), shape[-2] + 2,
                         v.name)


def test_softmax(bctx, rng):
    x = f64(rng, 9, 31) * 30
    x[1, 3] = -np.inf
    X = wide(x)
    e = np.exp(X - X.max(axis=-1, keepdims=True))
    ref = e / e.sum(axis=-1, keepdims=True)
    n = x.shape[-1]
    spread = (x.max(axis=-1) - np.where(np.isinf(x), 0, x).min(axis=-1))[:, None]
    tol = 2 * (gamma(n) + U * (2 * wide(spread) + 2 * math.log(n + 1) + 10)) * np.abs(ref)
    for v in rungs(bctx, "softmax"):
        got = gpuk.softmax(x, ctx=bctx, variant=v.name).numpy()
        assert got.dtype == np.float64 and got[1, 3] == 0
        assert np.all(np.abs(got.astype(LD) - ref) <= tol + LD(2.0) ** -1074), v.name


def test_apsp(bctx, rng):
    n = 10
    w = np.abs(f64(rng, n, n))
    w[rng.random((n, n)) < 0.4] = np.inf
    W = wide(w)
    d = np.where(np.isnan(W), np.inf, W)
    np.fill_diagonal(d, np.minimum(np.diag(d), 0))
    for k in range(n):
        d = np.minimum(d, d[:, k:k + 1] + d[k:k + 1, :])
    finite = np.isfinite(d)
    for v in rungs(bctx, "apsp"):
        got = gpuk.apsp(w, ctx=bctx, variant=v.name).numpy()
        assert got.dtype == np.float64
        assert np.array_equal(np.isfinite(got), finite), v.name
        # one rounding per relaxation: within gamma_n of the path's length
        assert np.all(np.abs(got[finite].astype(LD) - d[finite]) <= 2 * gamma(n) * d[finite]), \
            v.name

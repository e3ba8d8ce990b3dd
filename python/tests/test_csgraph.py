"""gpuk.csgraph.floyd_warshall against scipy.sparse.csgraph.floyd_warshall
on random graphs: the same distances (to f64 rounding), -9999 in the same
places, and every predecessor the last step of a shortest path."""

import numpy as np
import pytest

import gpuk
from gpuk import csgraph

scipy_csgraph = pytest.importorskip("scipy.sparse.csgraph")
sp = pytest.importorskip("scipy.sparse")


def _graph(rng, n, density, negative=False, integer=False):
    """A dense random graph; with negative, a DAG whose edges i -> j (i < j)
    are negative one time in three: no cycle at all."""
    w = rng.uniform(0.5, 10.0, (n, n))
    if integer:
        w = np.floor(w)          # some 0s: no edge in a dense graph
    if negative:                 # a DAG: edges i -> j with i < j only
        upper = np.triu(np.ones((n, n), dtype=bool), 1)
        w = np.where(upper, np.where(rng.random((n, n)) < 0.3, -w / 4, w), 0.0)
    w[rng.random((n, n)) > density] = 0.0
    return w


def _check_preds(dist, pred, w_used):
    """pred[i, j] is the vertex before j on a path of length dist[i, j]."""
    n = dist.shape[0]
    for i in range(n):
        for j in range(n):
            if i == j or not np.isfinite(dist[i, j]):
                assert pred[i, j] == csgraph.NO_PREDECESSOR
                continue
            k = pred[i, j]
            assert 0 <= k < n
            step = w_used[k, j]
            assert np.isclose(dist[i, k] + step, dist[i, j], rtol=1e-12, atol=1e-12)


def _lengths(w, directed, unweighted):
    """The edge lengths a path may use, as the predecessor check needs them."""
    u = np.where(np.isfinite(w) & (w != 0), w, np.inf)
    if unweighted:
        u[np.isfinite(u)] = 1.0
    if not directed:
        u = np.minimum(u, u.T)
    return u


@pytest.mark.parametrize("n", [1, 2, 7, 64, 130])
@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("unweighted", [False, True])
def test_dense_matches_scipy(n, directed, unweighted):
    rng = np.random.default_rng(1000 * n + 10 * directed + unweighted)
    w = _graph(rng, n, 0.15)
    want, wpred = scipy_csgraph.floyd_warshall(w, directed=directed, unweighted=unweighted,
                                               return_predecessors=True)
    got, pred = csgraph.floyd_warshall(w, directed=directed, unweighted=unweighted,
                                       return_predecessors=True)
    assert got.dtype == np.float64 and pred.dtype == np.int32
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    assert np.array_equal(pred == csgraph.NO_PREDECESSOR, wpred == -9999)
    _check_preds(got, pred, _lengths(w, directed, unweighted))


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_sparse_explicit_zeros_are_edges(fmt):
    rng = np.random.default_rng(7)
    n = 90
    w = _graph(rng, n, 0.05, integer=True)
    rows, cols = np.nonzero(w)
    vals = w[rows, cols]
    vals[::5] = 0.0              # stored zeros: edges of length 0 for SciPy
    m = sp.coo_matrix((vals, (rows, cols)), shape=(n, n)).asformat(fmt)
    want = scipy_csgraph.floyd_warshall(m.tocsr())    # SciPy 1.10 refuses COO; gpuk takes it
    got = csgraph.floyd_warshall(m)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_negative_edges_and_cycle():
    rng = np.random.default_rng(3)
    w = _graph(rng, 50, 0.2, negative=True)
    want = scipy_csgraph.floyd_warshall(w)
    np.testing.assert_allclose(csgraph.floyd_warshall(w), want, rtol=1e-12, atol=1e-12)
    w[40, 3] = -1000.0           # closes a cycle through the negative edges
    w[3, 40] = 1.0
    with pytest.raises(csgraph.NegativeCycleError):
        csgraph.floyd_warshall(w)
    assert issubclass(csgraph.NegativeCycleError, ValueError)
    assert csgraph.NegativeCycleError is gpuk.NegativeCycleError


def test_self_loops_ignored_and_nonfinite_are_no_edge():
    w = np.array([[-1.0, 2.0, np.nan], [-np.inf, 5.0, 1.0], [np.inf, 0.0, 0.0]])
    want = scipy_csgraph.floyd_warshall(w)
    np.testing.assert_array_equal(csgraph.floyd_warshall(w), want)


def test_duplicates_add_up_and_input_unchanged():
    m = sp.csr_matrix((np.array([1.0, 2.0, 4.0]), (np.array([0, 0, 1]), np.array([1, 1, 2]))),
                      shape=(3, 3))
    before = m.toarray().copy()
    np.testing.assert_array_equal(csgraph.floyd_warshall(m, overwrite=True),
                                  scipy_csgraph.floyd_warshall(m))
    np.testing.assert_array_equal(m.toarray(), before)


def test_empty_and_bad_shapes():
    assert csgraph.floyd_warshall(np.zeros((0, 0))).shape == (0, 0)
    with pytest.raises(gpuk.ShapeError):
        csgraph.floyd_warshall(np.zeros((3, 4)))
    with pytest.raises(gpuk.ShapeError):
        csgraph.floyd_warshall(sp.csr_matrix((2, 5)))
    with pytest.raises(gpuk.ShapeError):
        csgraph.floyd_warshall(np.zeros(4))

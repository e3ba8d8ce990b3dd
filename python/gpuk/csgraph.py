"""gpuk.csgraph: SciPy's Floyd-Warshall entry point, computed by libgpuk.

A user of scipy.sparse.csgraph changes one line:

    from scipy.sparse.csgraph import floyd_warshall      # before
    from gpuk.csgraph import floyd_warshall              # after

and gets the same answers on the default context's backend (CUDA where it
runs, else the CPU's blocked Floyd-Warshall): the same arguments and
defaults, the same reading of the graph and the same outputs, float64
distances with inf where no path exists and int32 predecessors with -9999
where there is none.  What SciPy leaves open, the library decides: among
paths of equal length, the predecessor returned may differ from SciPy's
(each is the last step of a shortest path).  A negative cycle raises
gpuk.NegativeCycleError (a ValueError), where SciPy raises its own
NegativeCycleError.  See gpuk_apsp(3) for the computation and its bound.
"""

import numpy as np

from . import _ops
from ._errors import ShapeError, by_code

__all__ = ["floyd_warshall", "NegativeCycleError", "NO_PREDECESSOR"]

NegativeCycleError = by_code("GPUK_ERR_NEGATIVE_CYCLE")

# SciPy's mark for "no predecessor" (libgpuk writes -1)
NO_PREDECESSOR = -9999


def _sparse_module():
    try:
        import scipy.sparse as sp
    except ImportError:          # no SciPy: only dense graphs can come in
        return None
    return sp


def _weights(csgraph, directed, unweighted):
    """The graph as SciPy reads it, as a dense float64 matrix of edge
    lengths with +inf for "no edge" and 0 on the diagonal: a sparse
    matrix's stored entries are its edges (an explicit 0 is an edge of
    length 0, duplicates add up); in a dense array 0, inf and NaN are no
    edge.  Self-loops never shorten a path from a vertex to itself, so
    SciPy ignores them, and so does this.  Undirected: the shorter of the
    two directions serves both."""
    sp = _sparse_module()
    if sp is not None and sp.issparse(csgraph):
        m = sp.csr_matrix(csgraph, dtype=np.float64, copy=True)
        if m.shape[0] != m.shape[1]:
            raise ShapeError("gpuk.csgraph.floyd_warshall: csgraph is %d x %d; it must be square"
                             % m.shape)
        m.sum_duplicates()
        coo = m.tocoo()
        w = np.full(m.shape, np.inf)
        w[coo.row, coo.col] = coo.data
        w[~np.isfinite(w)] = np.inf
    else:
        a = np.array(csgraph, dtype=np.float64)
        if a.ndim != 2 or a.shape[0] != a.shape[1]:
            raise ShapeError("gpuk.csgraph.floyd_warshall: csgraph has shape %s; it must be a "
                             "square matrix" % (a.shape,))
        w = np.where(np.isfinite(a) & (a != 0), a, np.inf)
    if unweighted:
        w[np.isfinite(w)] = 1.0
    if not directed:
        w = np.minimum(w, w.T)
    np.fill_diagonal(w, 0.0)
    return np.ascontiguousarray(w)


def floyd_warshall(csgraph, directed=True, return_predecessors=False, unweighted=False,
                   overwrite=False, *, ctx=None, variant=None):
    """All-pairs shortest path lengths, as scipy.sparse.csgraph.floyd_warshall.

    csgraph: a square scipy.sparse matrix (stored entries are edges) or
    array-like (0, inf and NaN are no edge).  directed=False lets every
    edge be walked both ways; unweighted=True counts edges (every edge has
    length 1).  overwrite is accepted for SciPy's signature: the graph is
    always copied, never changed.  ctx picks the context (default: the
    package's default context), variant a rung of gpuk_apsp(3).

    Returns dist, an [n, n] float64 NumPy array (inf: unreachable), and with
    return_predecessors=True (dist, pred): pred[i, j] is the vertex before
    j on a shortest path from i, -9999 (NO_PREDECESSOR) for i == j or
    when j cannot be reached.

    Raises NegativeCycleError for a negative cycle, ShapeError for a graph
    that is not square, and what gpuk.apsp raises.
    """
    del overwrite
    w = _weights(csgraph, directed, unweighted)
    if w.shape[0] == 0:
        dist = np.zeros((0, 0))
        return (dist, np.zeros((0, 0), dtype=np.int32)) if return_predecessors else dist
    got = _ops.apsp(w, predecessors=return_predecessors, variant=variant, ctx=ctx)
    if not return_predecessors:
        return got.numpy()
    dist, pred = got[0].numpy(), got[1].numpy().astype(np.int32)
    pred[pred < 0] = NO_PREDECESSOR
    np.fill_diagonal(pred, NO_PREDECESSOR)
    return dist, pred

#!/usr/bin/env python3
"""apsp-scipy.py - gpuk_apsp against SciPy on generated graphs (issue 28).

Times all-pairs shortest paths three ways on the same graph and checks
that they agree:

  scipy.sparse.csgraph.floyd_warshall   (one thread, float64)
  scipy.sparse.csgraph.dijkstra         (from every source, one thread)
  gpuk_apsp                             (the backend's rung, f32 and i32)

    bench/apsp-scipy.py [--sizes 1024,2048,4096] [--graphs geometric,grid,dense]
                        [--backend cpu] [--variant NAME] [--dtypes f32,i32]
                        [--fw-max 4096] [--dijkstra-max 4096] [--sample 64] [--seed 1]

It calls libgpuk through ctypes directly (gpuk_context_open,
gpuk_tensor_create/write/read, gpuk_apsp), not through the python
package, so it needs only the library and numpy/scipy.  The library is
found as the python package finds it: GPUK_LIBRARY (the .so, or its
folder), else libgpuk.so.1 or find_library("gpuk"); the plugins as every
libgpuk program finds them (GPUK_BACKEND_PATH, gpuk(7)).  From a build
tree:

    GPUK_LIBRARY=$BUILD/src/.libs GPUK_BACKEND_PATH=$BUILD/backends/cpu/.libs \\
        python3 bench/apsp-scipy.py

(python3 with numpy and scipy: on Debian, /usr/bin/python3 with the
python3-scipy package.)

The graphs, n vertices each, directed, integer weights >= 1 (so that
every path length is an integer below 2^24: float32 sums are exact, and
all three answers must agree exactly, not within a tolerance):
  geometric  n points uniform in the unit square, each joined both ways
             to its 8 nearest neighbours, weight 1 + round(1000 x distance)
  grid       a ceil(sqrt(n))-wide grid (the last row cut short), 4
             neighbours, weights uniform in [1, 100]
  dense      every ordered pair an edge, weights uniform in [1, 1000]

Times are wall seconds of the call alone (the graph already in the
library's tensor; gpuk's write and read are listed apart), with the
process CPU seconds beside them: on a shared machine the CPU time says
what the work cost, the wall time what the caller waited.  SciPy's Floyd-
Warshall takes about n^3 / 1e9 seconds here, so sizes above --fw-max
(default 4096) skip it; above --dijkstra-max (default 4096) Dijkstra runs
from --sample sources only (the "src" column), and gpuk's rows of those
sources are what is checked.
"""
import argparse
import ctypes
import ctypes.util
import math
import os
import sys
import time

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra, floyd_warshall
from scipy.spatial import cKDTree

I32_INF = 0x3FFFFFFF                 # GPUK_I32_INF
DTYPES = {"f32": (1, np.float32), "i32": (2, np.int32), "f64": (3, np.float64)}   # GPUK_DTYPE_MAP


def load_gpuk():
    env = os.environ.get("GPUK_LIBRARY")
    names = []
    if env:
        names.append(os.path.join(env, "libgpuk.so") if os.path.isdir(env) else env)
    names += ["libgpuk.so.1", ctypes.util.find_library("gpuk")]
    for name in names:
        if not name:
            continue
        try:
            lib = ctypes.CDLL(name)
            break
        except OSError:
            continue
    else:
        sys.exit("apsp-scipy: libgpuk not found (set GPUK_LIBRARY to the .so or its folder)")
    P, st = ctypes.c_void_p, ctypes.c_int
    sigs = {
        "gpuk_context_open": (st, [ctypes.POINTER(P), ctypes.c_char_p]),
        "gpuk_context_close": (None, [P]),
        "gpuk_context_error": (ctypes.c_char_p, [P]),
        "gpuk_tensor_create": (st, [P, ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_int64),
                                    ctypes.POINTER(P)]),
        "gpuk_tensor_destroy": (st, [P, P]),
        "gpuk_tensor_write": (st, [P, P, P, ctypes.c_size_t]),
        "gpuk_tensor_read": (st, [P, P, P, ctypes.c_size_t]),
        "gpuk_apsp": (st, [P, P, P, P, ctypes.c_char_p]),
        "gpuk_sync": (st, [P]),
        "gpuk_last_variant": (ctypes.c_char_p, [P]),
    }
    for fn, (res, args) in sigs.items():
        f = getattr(lib, fn)
        f.restype, f.argtypes = res, args
    return lib


class Gpuk:
    def __init__(self, backend):
        self.lib = load_gpuk()
        self.ctx = ctypes.c_void_p()
        if self.lib.gpuk_context_open(ctypes.byref(self.ctx), backend.encode()) != 0:
            sys.exit("apsp-scipy: cannot open a %s context" % backend)

    def check(self, status, what):
        if status != 0:
            msg = self.lib.gpuk_context_error(self.ctx).decode()
            raise RuntimeError("%s: status %d: %s" % (what, status, msg))

    def tensor(self, dtype, n):
        t = ctypes.c_void_p()
        shape = (ctypes.c_int64 * 2)(n, n)
        st = self.lib.gpuk_tensor_create(self.ctx, DTYPES[dtype][0], 2, shape, ctypes.byref(t))
        self.check(st, "gpuk_tensor_create")
        return t

    def apsp(self, w, dtype, variant):
        """Distances of w (a dense numpy matrix in dtype) and the seconds taken."""
        n = w.shape[0]
        tw, td = self.tensor(dtype, n), self.tensor(dtype, n)
        out = np.empty_like(w)
        try:
            t0 = time.perf_counter()
            self.check(self.lib.gpuk_tensor_write(self.ctx, tw, w.ctypes.data, w.nbytes), "write")
            self.check(self.lib.gpuk_sync(self.ctx), "gpuk_sync")
            t1, c1 = time.perf_counter(), time.process_time()
            self.check(self.lib.gpuk_apsp(self.ctx, tw, td, None,
                                          variant.encode() if variant else None), "gpuk_apsp")
            self.check(self.lib.gpuk_sync(self.ctx), "gpuk_sync")
            t2, c2 = time.perf_counter(), time.process_time()
            self.check(self.lib.gpuk_tensor_read(self.ctx, td, out.ctypes.data, out.nbytes), "read")
            t3 = time.perf_counter()
            rung = self.lib.gpuk_last_variant(self.ctx).decode()
        finally:
            self.lib.gpuk_tensor_destroy(self.ctx, tw)
            self.lib.gpuk_tensor_destroy(self.ctx, td)
        return out, {"wall": t2 - t1, "cpu": c2 - c1, "io": (t1 - t0) + (t3 - t2), "rung": rung}


def make_graph(kind, n, rng):
    """(rows, cols, weights) of the graph's edges, weights integers >= 1."""
    if kind == "geometric":
        pts = rng.random((n, 2))
        dist, idx = cKDTree(pts).query(pts, k=9)            # itself and 8 neighbours
        rows = np.repeat(np.arange(n), 8)
        cols = idx[:, 1:].ravel()
        wts = 1 + np.rint(1000 * dist[:, 1:].ravel())
        rows, cols = np.concatenate([rows, cols]), np.concatenate([cols, rows])
        wts = np.tile(wts, 2)
    elif kind == "grid":
        side = math.ceil(math.sqrt(n))
        v = np.arange(n)
        right = v[(v % side != side - 1) & (v + 1 < n)]
        down = v[v + side < n]
        a = np.concatenate([right, down])
        b = np.concatenate([right + 1, down + side])
        rows, cols = np.concatenate([a, b]), np.concatenate([b, a])
        wts = rng.integers(1, 101, rows.size).astype(np.float64)
    elif kind == "dense":
        rows, cols = np.divmod(np.arange(n * n), n)
        keep = rows != cols
        rows, cols = rows[keep], cols[keep]
        wts = rng.integers(1, 1001, rows.size).astype(np.float64)
    else:
        sys.exit("apsp-scipy: no graph kind %r (geometric, grid, dense)" % kind)
    # one edge a pair: the lightest of duplicates (the neighbour lists may meet)
    order = np.lexsort((wts, cols, rows))
    rows, cols, wts = rows[order], cols[order], wts[order]
    first = np.ones(rows.size, bool)
    first[1:] = (rows[1:] != rows[:-1]) | (cols[1:] != cols[:-1])
    return rows[first], cols[first], wts[first]


def dense_weights(n, rows, cols, wts, dtype):
    np_t = DTYPES[dtype][1]
    w = np.full((n, n), I32_INF if dtype == "i32" else np.inf, dtype=np_t)
    w[rows, cols] = wts
    return w


def as_distances(d, dtype):
    """gpuk's answer as float64 with inf for "no path"."""
    d = d.astype(np.float64)
    if dtype == "i32":
        d[d >= I32_INF] = np.inf
    return d


def timed(fn):
    t0, c0 = time.perf_counter(), time.process_time()
    r = fn()
    return r, time.perf_counter() - t0, time.process_time() - c0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="1024,2048,4096")
    ap.add_argument("--graphs", default="geometric,grid,dense")
    ap.add_argument("--backend", default="cpu")
    ap.add_argument("--variant", default=None, help="gpuk_apsp rung (default: auto)")
    ap.add_argument("--dtypes", default="f32,i32")
    ap.add_argument("--fw-max", type=int, default=4096,
                    help="largest n for scipy's floyd_warshall (default 4096)")
    ap.add_argument("--dijkstra-max", type=int, default=4096,
                    help="largest n for dijkstra from every source (default 4096)")
    ap.add_argument("--sample", type=int, default=64,
                    help="sources of dijkstra above --dijkstra-max (default 64)")
    ap.add_argument("--seed", type=int, default=1)
    o = ap.parse_args()
    g = Gpuk(o.backend)
    print("# apsp-scipy: %s backend, rung %s; threads: GPUK_NUM_THREADS=%s, OMP_NUM_THREADS=%s"
          % (o.backend, o.variant or "auto", os.environ.get("GPUK_NUM_THREADS", "-"),
             os.environ.get("OMP_NUM_THREADS", "-")))
    print("# wall s / cpu s of each call; x: scipy floyd_warshall's wall time over gpuk's")
    hdr = "%-9s %5s %8s  %-18s %-18s %5s  %-4s %-11s %-18s %7s %7s  %s" % (
        "graph", "n", "edges", "scipy fw", "scipy dijkstra", "src", "type", "rung", "gpuk", "io",
        "x fw", "agree")
    print(hdr)
    failed = 0
    for n in [int(s) for s in o.sizes.split(",")]:
        for kind in o.graphs.split(","):
            rng = np.random.default_rng(o.seed)
            rows, cols, wts = make_graph(kind, n, rng)
            csr = csr_matrix((wts, (rows, cols)), shape=(n, n))
            ref, fw_w, fw_c = None, None, None
            if n <= o.fw_max:
                ref, fw_w, fw_c = timed(lambda: floyd_warshall(csr, directed=True))
            rows_checked = np.arange(n)
            if n > o.dijkstra_max:
                rows_checked = np.sort(rng.choice(n, size=min(o.sample, n), replace=False))
            dj, dj_w, dj_c = timed(lambda: dijkstra(csr, directed=True, indices=rows_checked))
            if ref is not None and not np.array_equal(ref[rows_checked], dj):
                print("# %s %d: scipy's floyd_warshall and dijkstra disagree" % (kind, n))
                failed += 1
            ref = dj if ref is None else ref[rows_checked]
            fw_s = "%8.3f /%8.3f" % (fw_w, fw_c) if fw_w is not None else "%18s" % "-"
            for dt in o.dtypes.split(","):
                w = dense_weights(n, rows, cols, wts, dt)
                d, t = g.apsp(w, dt, o.variant)
                agree = np.array_equal(as_distances(d[rows_checked], dt), ref)
                failed += not agree
                print("%-9s %5d %8d  %s %8.3f /%8.3f %5d  %-4s %-11s %8.3f /%8.3f %7.3f %7s  %s" % (
                    kind, n, rows.size, fw_s, dj_w, dj_c, rows_checked.size, dt, t["rung"],
                    t["wall"], t["cpu"], t["io"],
                    "%.1f" % (fw_w / t["wall"]) if fw_w is not None else "-",
                    "yes" if agree else "NO"))
                sys.stdout.flush()
    g.lib.gpuk_context_close(g.ctx)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

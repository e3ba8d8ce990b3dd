"""Timing helpers for notebooks: gpuk.bench and gpuk.plot_bench.

    rows = gpuk.bench("matmul", [(256, 256, 256), (512, 512, 512)], ctx=ctx)
    import pandas as pd; pd.DataFrame(rows)      # if pandas is there
    gpuk.plot_bench(rows)                        # if matplotlib is there

Each rung runs on the backend's clock (gpuk_timer_start / gpuk_timer_stop:
CUDA events on a GPU, a monotonic clock on the CPU) around one call, with
the operands made once per shape and the call's arguments prepared before
the clock starts.
"""

import numbers
import operator
import statistics
from typing import Dict, List, Optional, Sequence

import numpy as np

from . import _errors, _lib
from ._core import Context, default_context, op_code
from ._errors import InvalidError

# op -> (what a shape spec means, builder name)
SPECS = {
    "matmul": "(m, k, n): a [m, k] @ b [k, n]",
    "batched_matmul": "(batch, m, k, n)",
    "minplus": "(m, k, n)",
    "gemm": "(m, k, n)",
    "transpose": "(m, n)",
    "reduce": "x's shape; sums the last axis",
    "add": "x's shape", "scale": "x's shape", "relu": "x's shape", "copy": "x's shape",
    "bias_relu": "x's shape (bias: the last axis)", "softmax": "x's shape (rows along the last axis)",
    "embedding": "(V, d, number of ids)",
    "meanpool": "x's shape [..., t, d]",
    "spmv": "(rows, cols, entries per row)",
    "dot": "(n,)",
    "gemv": "(m, n)",
}


def _dims(spec, n, op):
    if isinstance(spec, numbers.Integral):
        spec = (spec,)
    try:
        spec = tuple(operator.index(v) for v in spec)
    except (TypeError, ValueError):
        raise InvalidError("gpuk.bench: a %s shape is %s, got %r" % (op, SPECS[op], spec)) from None
    if n is not None and len(spec) != n:
        raise InvalidError("gpuk.bench: a %s shape is %s, got %r" % (op, SPECS[op], spec))
    if any(v < 0 for v in spec):
        raise InvalidError("gpuk.bench: negative size in %r" % (spec,))
    return spec


def _setup(ctx, op, spec, rng):
    """(arguments after the context, flops or None, bytes or None, keep-alive)."""
    f32 = np.float32

    def t(*shape):
        return ctx.asarray(rng.standard_normal(shape).astype(f32))

    def empty(*shape):
        return ctx.empty(shape)
    if op in ("matmul", "minplus", "gemm"):
        m, k, n = _dims(spec, 3, op)
        a, b, c = t(m, k), t(k, n), empty(m, n)
        byt = 4 * (m * k + k * n + m * n)
        if op == "gemm":
            return (0, 0, 1.0, a._h, b._h, 0.0, c._h), 2.0 * m * k * n, byt, (a, b, c)
        return (a._h, b._h) + ((None,) if op == "matmul" else ()) + (c._h,), \
            2.0 * m * k * n, byt, (a, b, c)
    if op == "batched_matmul":
        bt, m, k, n = _dims(spec, 4, op)
        a, b, c = t(bt, m, k), t(bt, k, n), empty(bt, m, n)
        return (a._h, b._h, c._h), 2.0 * bt * m * k * n, 4 * bt * (m * k + k * n + m * n), (a, b, c)
    if op == "transpose":
        m, n = _dims(spec, 2, op)
        x, y = t(m, n), empty(n, m)
        return (x._h, y._h), None, 8 * m * n, (x, y)
    if op == "reduce":
        shape = _dims(spec, None, op)
        x, y = t(*shape), empty(*(shape[:-1] or (1,)))
        numel = int(np.prod(shape))
        return (_lib.REDUCE_SUM, x._h, len(shape) - 1, y._h), float(numel), \
            4 * (numel + y.size), (x, y)
    if op in ("add", "scale", "relu", "copy", "softmax", "bias_relu"):
        shape = _dims(spec, None, op)
        numel = int(np.prod(shape))
        x, y = t(*shape), empty(*shape)
        if op == "add":
            z = t(*shape)
            return (x._h, z._h, y._h), float(numel), 12 * numel, (x, y, z)
        if op == "scale":
            return (1.5, x._h, y._h), float(numel), 8 * numel, (x, y)
        if op == "bias_relu":
            b = t(shape[-1])
            return (x._h, b._h, y._h), 2.0 * numel, 8 * numel + 4 * shape[-1], (x, y, b)
        return (x._h, y._h), None, 8 * numel, (x, y)
    if op == "embedding":
        v, d, n = _dims(spec, 3, op)
        table = t(v, d)
        ids = ctx.asarray(rng.integers(0, max(v, 1), size=n).astype(np.int32))
        out = empty(n, d)
        return (table._h, ids._h, out._h), None, 4 * n + 8 * n * d, (table, ids, out)
    if op == "meanpool":
        shape = _dims(spec, None, op)
        numel = int(np.prod(shape))
        x, y = t(*shape), empty(*(shape[:-2] + shape[-1:]))
        return (x._h, y._h), float(numel), 4 * (numel + y.size), (x, y)
    if op == "spmv":
        rows, cols, per_row = _dims(spec, 3, op)
        per_row = min(per_row, cols)
        indptr = np.arange(rows + 1, dtype=np.int64) * per_row
        indices = np.concatenate([np.sort(rng.choice(cols, per_row, replace=False))
                                  for _ in range(rows)]) if rows and per_row else \
            np.zeros(0, np.int32)
        data = rng.standard_normal(len(indices)).astype(np.float32)
        m = ctx.csr((data, indices, indptr, (rows, cols)))
        x, y = t(cols), empty(rows)
        nnz = len(data)
        return (m._h, x._h, y._h), 2.0 * nnz, 4 * (3 * nnz + rows + 1 + cols + rows), (m, x, y)
    if op == "dot":
        (n,) = _dims(spec, 1, op)
        x, y, o = t(n), t(n), empty(1)
        return (x._h, y._h, o._h), 2.0 * n, 8 * n, (x, y, o)
    if op == "gemv":
        m, n = _dims(spec, 2, op)
        a, x, y = t(m, n), t(n), empty(m)
        return (0, 1.0, a._h, x._h, 0.0, y._h), 2.0 * m * n, 4 * (m * n + n + m), (a, x, y)
    raise InvalidError("gpuk.bench: no benchmark for op %r" % op)


_FN = {"matmul": "gpuk_matmul", "batched_matmul": "gpuk_batched_matmul",
       "minplus": "gpuk_minplus", "transpose": "gpuk_transpose", "reduce": "gpuk_reduce",
       "add": "gpuk_add", "scale": "gpuk_scale", "relu": "gpuk_relu", "copy": "gpuk_copy",
       "bias_relu": "gpuk_bias_relu", "softmax": "gpuk_softmax", "embedding": "gpuk_embedding",
       "meanpool": "gpuk_meanpool", "spmv": "gpuk_spmv", "dot": "gpuk_dot", "gemv": "gpuk_gemv",
       "gemm": "gpuk_gemm"}


def bench(op: str, shapes: Sequence, variants: Optional[Sequence[str]] = None,
          ctx: Optional[Context] = None, repeat: int = 5, warmup: int = 1,
          seed: int = 0) -> List[Dict]:
    """Time the rungs of an op on a context; one dict per (shape, rung).

    op: an op name ("matmul", "minplus", ... , "sum"/"mean" mean "reduce").
    shapes: a list of size specs, one per row group (see gpuk._bench.SPECS):
        matmul / minplus / gemm (m, k, n); batched_matmul (batch, m, k, n);
        transpose and gemv (m, n); embedding (V, d, ids); spmv (rows, cols,
        entries per row); dot (n,); elementwise ops, reduce (over the last
        axis), softmax, bias_relu and meanpool: the input's shape.
    variants: rung names; None runs every rung the backend has for f32.
    ctx: the context (default: gpuk.default_context()).
    repeat: timed calls per row, each on the backend's clock; warmup:
        untimed calls before them.

    Each row: op, variant, shape (e.g. "256x256x256"), backend, device,
    default (the rung variant=None runs), ms_median, ms_min, ms_max,
    gflops (GFLOP/s at the median, min-plus counting an add and a min as
    two ops; None for pure data movement) and gbs (GB/s of the minimum
    traffic, read + write, at the median), repeat.  The list goes straight
    into pandas.DataFrame(rows).  A rung that fails (no memory, say) gives a
    row with an "error" entry instead of times.
    """
    if not isinstance(op, str):
        raise InvalidError("gpuk.bench: op must be an op name such as 'matmul', not %r" % (op,))
    if op in ("sum", "mean"):
        op = "reduce"
    op_code(op)
    if op not in _FN:
        raise InvalidError("gpuk.bench: no benchmark for op %r" % op)
    if isinstance(shapes, (numbers.Integral, tuple)):
        shapes = [shapes]
    try:
        shapes = list(shapes)
        repeat = operator.index(repeat)
        warmup = operator.index(warmup)
    except TypeError:
        raise InvalidError("gpuk.bench: shapes must be a list of shapes, repeat and warmup "
                           "ints") from None
    if repeat < 1 or warmup < 0:
        raise InvalidError("gpuk.bench: repeat must be >= 1 and warmup >= 0")
    ctx = ctx if ctx is not None else default_context()
    ctx._ptr("gpuk.bench")
    known = ctx.variants(op)
    try:
        names = [v.name for v in known] if variants is None else (
            [variants] if isinstance(variants, str) else list(variants))
    except TypeError:
        names = [None]
    if not all(isinstance(n, str) for n in names):
        raise InvalidError("gpuk.bench: variants must be rung names (str)")
    defaults = {v.name for v in known if v.default}
    fn = getattr(_lib, _FN[op])
    rng = np.random.default_rng(seed)
    rows = []
    for spec in shapes:
        args, flops, nbytes, keep = _setup(ctx, op, spec, rng)
        label = "x".join(str(v) for v in ((spec,) if isinstance(spec, numbers.Integral) else spec))
        for name in names:
            row = {"op": op, "variant": name, "shape": label, "backend": ctx.info.backend,
                   "device": ctx.info.device, "default": name in defaults}
            vname = name.encode()
            try:
                times = _time(ctx, fn, args + (vname,), repeat, warmup)
            except _errors.Error as e:
                row["error"] = str(e)
                rows.append(row)
                continue
            med = statistics.median(times)
            row.update(ms_median=med, ms_min=min(times), ms_max=max(times),
                       gflops=(flops / (med * 1e6) if flops and med > 0 else None),
                       gbs=(nbytes / (med * 1e6) if nbytes and med > 0 else None),
                       repeat=repeat)
            rows.append(row)
        for k in keep:
            k.free()
    return rows


def _time(ctx, fn, args, repeat, warmup):
    import ctypes
    ms = ctypes.c_double()
    times = []
    with ctx._lock:
        p = ctx._p
        if p is None:
            raise _errors.HandleError("gpuk.bench: the context is closed")

        def check(st):
            if st:
                raise _errors.make(st, "gpuk.bench: " + _lib.text(_lib.gpuk_context_error(p)))
        for _ in range(warmup):
            check(fn(p, *args))
        check(_lib.gpuk_sync(p))
        start, stop = _lib.gpuk_timer_start, _lib.gpuk_timer_stop
        ref = ctypes.byref(ms)
        for _ in range(repeat):
            check(start(p))
            st = fn(p, *args)
            st2 = stop(p, ref)
            check(st)
            check(st2)
            times.append(ms.value)
    return times


def plot_bench(rows: Sequence[Dict], metric: str = "ms_median", ax=None, logy: bool = True):
    """Plot bench() rows with matplotlib (imported only here): one line per
    rung, shapes along x, `metric` ("ms_median", "gflops", "gbs") up.
    Returns the matplotlib Axes."""
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError("gpuk.plot_bench needs matplotlib (pip install matplotlib); "
                          "gpuk.bench itself does not") from None
    if ax is None:
        _, ax = plt.subplots()
    shapes = []
    for r in rows:
        if r["shape"] not in shapes:
            shapes.append(r["shape"])
    for name in dict.fromkeys(r["variant"] for r in rows):
        pts = [(shapes.index(r["shape"]), r.get(metric)) for r in rows
               if r["variant"] == name and r.get(metric) is not None]
        if pts:
            xs, ys = zip(*pts)
            ax.plot(xs, ys, marker="o", label=name)
    ax.set_xticks(range(len(shapes)))
    ax.set_xticklabels(shapes, rotation=30)
    ax.set_ylabel(metric)
    if rows:
        ax.set_title("%s on %s" % (rows[0]["op"], rows[0]["backend"]))
    if logy:
        ax.set_yscale("log")
    ax.legend()
    return ax

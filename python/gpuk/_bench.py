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
from ._core import Context, default_context, dtype_code, numpy_dtype, op_code, op_cost
from ._errors import InvalidError

# -- the cases: how a shape spec becomes operands and the op's canonical dimensions ----------
#
# One builder per op, each with the meaning of its spec.  The work and
# traffic of a case are not computed here: the builder gives the op's
# canonical dimensions and the library counts them (gpuk_op_cost, the
# formulas gpuk-bench uses too).

class _Case:
    """What a builder makes: the call's arguments after the context (the
    variant appended later), the canonical dimensions, what to keep alive."""

    def __init__(self, args, dims, keep):
        self.args, self.dims, self.keep = args, dims, keep


def _gemm_like(ctx, spec, t, empty, op):
    m, k, n = spec
    a, b, c = t(m, k), t(k, n), empty(m, n)
    if op == "gemm":
        return _Case((0, 0, 1.0, a._h, b._h, 0.0, c._h), (m, k, n, 0), (a, b, c))
    tail = (None,) if op == "matmul" else ()
    return _Case((a._h, b._h) + tail + (c._h,), (m, k, n, 0), (a, b, c))


def _batched(ctx, spec, t, empty, op):
    bt, m, k, n = spec
    a, b, c = t(bt, m, k), t(bt, k, n), empty(bt, m, n)
    return _Case((a._h, b._h, c._h), (bt, m, k, n), (a, b, c))


def _transpose(ctx, spec, t, empty, op):
    m, n = spec
    x, y = t(m, n), empty(n, m)
    return _Case((x._h, y._h), (m, n), (x, y))


def _reduce(ctx, spec, t, empty, op):
    x = t(*spec)
    y = empty(*(spec[:-1] or (1,)))
    outer = int(np.prod(spec[:-1])) if len(spec) > 1 else 1
    return _Case((_lib.REDUCE_SUM, x._h, len(spec) - 1, y._h), (outer, spec[-1], 1), (x, y))


def _elementwise(ctx, spec, t, empty, op):
    numel = int(np.prod(spec))
    x, y = t(*spec), empty(*spec)
    if op == "add":
        z = t(*spec)
        return _Case((x._h, z._h, y._h), (numel,), (x, y, z))
    if op == "scale":
        return _Case((1.5, x._h, y._h), (numel,), (x, y))
    rows = numel // spec[-1] if spec[-1] else 0
    if op == "bias_relu":
        b = t(spec[-1])
        return _Case((x._h, b._h, y._h), (rows, spec[-1]), (x, y, b))
    if op == "softmax":
        return _Case((x._h, y._h), (rows, spec[-1]), (x, y))
    return _Case((x._h, y._h), (numel,), (x, y))


def _embedding(ctx, spec, t, empty, op, rng):
    v, d, n = spec
    table = t(v, d)
    ids = ctx.asarray(rng.integers(0, max(v, 1), size=n).astype(np.int32))
    out = empty(n, d)
    return _Case((table._h, ids._h, out._h), (v, d, n), (table, ids, out))


def _meanpool(ctx, spec, t, empty, op):
    x, y = t(*spec), empty(*(spec[:-2] + spec[-1:]))
    outer = int(np.prod(spec[:-2])) if len(spec) > 2 else 1
    return _Case((x._h, y._h), (outer, spec[-2], spec[-1]), (x, y))


def _spmv(ctx, spec, t, empty, op, rng, np_type):
    rows, cols, per_row = spec
    per_row = min(per_row, cols)
    indptr = np.arange(rows + 1, dtype=np.int64) * per_row
    indices = np.concatenate([np.sort(rng.choice(cols, per_row, replace=False))
                              for _ in range(rows)]) if rows and per_row else \
        np.zeros(0, np.int32)
    data = _draw(rng, len(indices), np_type)
    m = ctx.csr((data, indices, indptr, (rows, cols)), dtype=np_type)
    x, y = t(cols), empty(rows)
    return _Case((m._h, x._h, y._h), (rows, cols, len(data), per_row if rows else 0), (m, x, y))


def _dot(ctx, spec, t, empty, op):
    (n,) = spec
    x, y, o = t(n), t(n), empty(1)
    return _Case((x._h, y._h, o._h), (n,), (x, y, o))


def _gemv(ctx, spec, t, empty, op):
    m, n = spec
    a, x, y = t(m, n), t(n), empty(m)
    return _Case((0, 1.0, a._h, x._h, 0.0, y._h), (m, n, 0, 0), (a, x, y))


def _apsp(ctx, spec, t, empty, op):
    (n,) = spec
    w = t(n, n)
    w = ctx.asarray(np.abs(w.numpy()))      # lengths >= 0: no negative cycle
    d = empty(n, n)
    return _Case((w._h, d._h, None), (n, 0), (w, d))


def _cast(ctx, spec, t, empty, op):
    """x in the bench's dtype to f16 (from f32) or to f32 (from the others),
    as gpuk-bench converts; the output's dtype is the cost's second dim."""
    x = t(*spec)
    f32 = _lib.DTYPE_VALUES["f32"]
    to = _lib.DTYPE_VALUES["f16"] if x._dt == f32 else f32
    y = ctx._create(tuple(spec), to)
    return _Case((x._h, y._h), (int(np.prod(spec)), to), (x, y))


# op -> (what a shape spec means, how many numbers it has (None: any), builder)
SPECS = {
    "matmul": ("(m, k, n): a [m, k] @ b [k, n]", 3, _gemm_like),
    "batched_matmul": ("(batch, m, k, n)", 4, _batched),
    "minplus": ("(m, k, n)", 3, _gemm_like),
    "gemm": ("(m, k, n)", 3, _gemm_like),
    "transpose": ("(m, n)", 2, _transpose),
    "reduce": ("x's shape; sums the last axis", None, _reduce),
    "add": ("x's shape", None, _elementwise),
    "scale": ("x's shape", None, _elementwise),
    "relu": ("x's shape", None, _elementwise),
    "copy": ("x's shape", None, _elementwise),
    "bias_relu": ("x's shape (bias: the last axis)", None, _elementwise),
    "softmax": ("x's shape (rows along the last axis)", None, _elementwise),
    "embedding": ("(V, d, number of ids)", 3, _embedding),
    "meanpool": ("x's shape [..., t, d]", None, _meanpool),
    "spmv": ("(rows, cols, entries per row)", 3, _spmv),
    "dot": ("(n,)", 1, _dot),
    "gemv": ("(m, n)", 2, _gemv),
    "apsp": ("(n,): a graph of n vertices", 1, _apsp),
    "cast": ("x's shape; to f16 from f32, else to f32", None, _cast),
}


def _dims(spec, n, op):
    if isinstance(spec, numbers.Integral):
        spec = (spec,)
    try:
        spec = tuple(operator.index(v) for v in spec)
    except (TypeError, ValueError):
        raise InvalidError("gpuk.bench: a %s shape is %s, got %r" % (op, SPECS[op][0], spec)) from None
    if n is not None and len(spec) != n:
        raise InvalidError("gpuk.bench: a %s shape is %s, got %r" % (op, SPECS[op][0], spec))
    if not spec or any(v < 0 for v in spec):
        raise InvalidError("gpuk.bench: negative size in %r" % (spec,))
    return spec


def _draw(rng, shape, np_type):
    """Random inputs of a dtype: normal floats, or integers in [0, 8192)
    (edge weights, as gpuk-bench draws them for i32)."""
    if np_type.kind in "iu":
        return rng.integers(0, 8192, size=shape).astype(np_type)
    return rng.standard_normal(shape).astype(np_type)


def _setup(ctx, op, spec, rng, dt):
    """The case of one shape, and its flops (None when the op does no
    arithmetic) and bytes, from the library."""
    what, n, build = SPECS[op]
    spec = _dims(spec, n, op)
    np_type = numpy_dtype(dt, "gpuk.bench")

    def t(*shape):
        return ctx.asarray(_draw(rng, shape, np_type))

    def empty(*shape):
        return ctx._create(shape, dt)
    if build is _embedding:
        case = build(ctx, spec, t, empty, op, rng)
    elif build is _spmv:
        case = build(ctx, spec, t, empty, op, rng, np_type)
    else:
        case = build(ctx, spec, t, empty, op)
    flops, nbytes, _cls = op_cost(op, case.dims, dt)
    return case, (flops or None), nbytes


def bench(op: str, shapes: Sequence, variants: Optional[Sequence[str]] = None,
          ctx: Optional[Context] = None, repeat: int = 5, warmup: int = 1,
          seed: int = 0, dtype="f32") -> List[Dict]:
    """Time the rungs of an op on a context; one dict per (shape, rung).

    op: an op name ("matmul", "minplus", ... , "sum"/"mean" mean "reduce").
    shapes: a list of size specs, one per row group (see gpuk._bench.SPECS):
        matmul / minplus / gemm (m, k, n); batched_matmul (batch, m, k, n);
        transpose and gemv (m, n); embedding (V, d, ids); spmv (rows, cols,
        entries per row); dot and apsp (n,); elementwise ops, reduce (over the last
        axis), softmax, bias_relu and meanpool: the input's shape.
    variants: rung names; None runs every rung the backend has for dtype.
    ctx: the context (default: gpuk.default_context()).
    repeat: timed calls per row, each on the backend's clock; warmup:
        untimed calls before them.
    dtype: the op's dtype ("f32", "f64", "i32" for min-plus, ...); the
        inputs are drawn in it (normal floats; integers in [0, 8192)).

    Each row: op, dtype, variant, shape (e.g. "256x256x256"), backend,
    device, default (the rung variant=None runs), ms_median, ms_min,
    ms_max, gflops (GFLOP/s at the median, min-plus counting an add and a
    min as two ops; None for pure data movement), gbs (GB/s of the minimum
    traffic, read + write, at the median) and repeat; the work and traffic
    are the library's count (gpuk.op_cost), as gpuk-bench's.  The list
    goes straight into pandas.DataFrame(rows).  A rung that fails (no
    memory, say) gives a row with an "error" entry instead of times.
    """
    if not isinstance(op, str):
        raise InvalidError("gpuk.bench: op must be an op name such as 'matmul', not %r" % (op,))
    if op in ("sum", "mean"):
        op = "reduce"
    op_code(op)
    if op not in SPECS:
        raise InvalidError("gpuk.bench: no benchmark for op %r" % op)
    dt = dtype_code(dtype, "gpuk.bench: dtype")
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
    known = ctx.variants(op, dt)
    try:
        names = [v.name for v in known] if variants is None else (
            [variants] if isinstance(variants, str) else list(variants))
    except TypeError:
        names = [None]
    if not all(isinstance(n, str) for n in names):
        raise InvalidError("gpuk.bench: variants must be rung names (str)")
    defaults = {v.name for v in known if v.default}
    fn = getattr(_lib, "gpuk_" + op)
    dname = _lib.DTYPES[dt][0]
    rng = np.random.default_rng(seed)
    rows = []
    for spec in shapes:
        case, flops, nbytes = _setup(ctx, op, spec, rng, dt)
        label = "x".join(str(v) for v in ((spec,) if isinstance(spec, numbers.Integral) else spec))
        for name in names:
            row = {"op": op, "dtype": dname, "variant": name, "shape": label,
                   "backend": ctx.info.backend, "device": ctx.info.device,
                   "default": name in defaults}
            vname = name.encode()
            try:
                times = _time(ctx, fn, case.args + (vname,), repeat, warmup)
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
        for k in case.keep:
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

"""Docstrings follow the man pages; the timing helpers give DataFrame-ready rows."""

import pydoc

import pytest

import gpuk

# words each op's docstring must contain: what its man page says
MAN = {
    "matmul": ["bias", "[m, k]", "[k, n]", "last stride", "gamma", "tf32", "AliasError",
               "ShapeError", "gpuk_matmul(3)"],
    "batched_matmul": ["broadcast", "[ba, m, k]", "gpuk_batched_matmul(3)"],
    "minplus": ["min", "Bit-exact", "+inf", "-0", "NaN", "shortest", "gpuk_minplus(3)"],
    "minplus_update": ["in place", "fmin", "panels", "-0", "ABI 2.2", "AliasError",
                       "gpuk_minplus_update(3)"],
    "transpose": ["[n, m]", "in place", "bit-exact", "gpuk_transpose(3)"],
    "reduce": ["sum", "mean", "axis", "NaN", "empty", "gpuk_reduce(3)"],
    "sum": ["axis", "gpuk_reduce(3)"],
    "mean": ["axis", "NaN", "gpuk_reduce(3)"],
    "meanpool": ["second-to-last", "[b, t, d]", "NaN", "gpuk_meanpool(3)"],
    "add": ["x + y", "in place", "broadcasting", "gpuk_add(3)"],
    "scale": ["alpha", "in place", "gpuk_scale(3)"],
    "relu": ["NaN", "-inf", "-0", "gpuk_relu(3)"],
    "copy": ["bit for bit", "gpuk_copy(3)"],
    "bias_relu": ["bias", "never bias", "gpuk_bias_relu(3)"],
    "softmax": ["maximum", "overflow", "sums to 1", "-inf", "gpuk_softmax(3)"],
    "embedding": ["int32", "[0, V)", "IndexError", "gpuk_embedding(3)"],
    "spmv": ["CSR", "indptr", "SparseError", "int32", "gpuk_spmv(3)"],
    "dot": ["(1,)", "n = 0", "gpuk_dot(3)"],
    "gemv": ["alpha", "beta", "not read", "trans", "row-major", "gpuk_gemv(3)"],
    "gemm": ["alpha", "beta", "not read", "trans_a", "row-major", "gpuk_gemm(3)"],
    "apsp": ["Floyd-Warshall", "+inf", "GPUK_I32_INF", "predecessors", "NegativeCycleError",
             "in place", "gpuk_apsp(3)"],
    "cast": ["ties to even", "65520", "NaN", "i32", "gpuk_cast(3)"],
}


@pytest.mark.parametrize("name", sorted(MAN))
def test_op_docstrings_say_what_the_man_page_says(name):
    fn = getattr(gpuk, name)
    doc = fn.__doc__ or ""
    assert len(doc) > 250, "%s has a trivial docstring" % name
    assert "Raises" in doc or "raises" in doc.lower()
    for word in MAN[name]:
        assert word in doc, "%s's docstring lacks %r" % (name, word)
    text = pydoc.render_doc(fn, renderer=pydoc.plaintext)
    assert MAN[name][-1] in text
    assert fn.__annotations__, "%s has no type hints" % name


def test_op_docstrings_list_their_dtypes():
    """Each op says which dtypes it means something in (issue 26)."""
    for name in gpuk.ops.OPS:
        doc = getattr(gpuk, name).__doc__ or ""
        if name in ("sum", "mean"):
            assert "f64" in doc, name
            continue
        assert "f32" in doc and "f64" in doc, "%s's docstring lists no dtypes" % name
    for name in ("minplus", "minplus_update", "apsp"):
        assert "i32" in getattr(gpuk, name).__doc__, name
    assert "int32" in gpuk.embedding.__doc__


def test_every_op_has_a_function():
    for op in gpuk.OPS:
        assert callable(getattr(gpuk, op)), op
    assert set(MAN) >= set(gpuk.OPS)


def test_public_api_is_documented():
    for name in ["Context", "Tensor", "CSRMatrix", "Error", "bench", "plot_bench",
                 "default_context", "set_default_context"]:
        assert len(getattr(gpuk, name).__doc__ or "") > 100, name
    for name in ["asarray", "empty", "from_dlpack", "variants", "csr", "close", "sync"]:
        assert len(getattr(gpuk.Context, name).__doc__ or "") > 40, name
    assert "bytes" in gpuk.Tensor.strides.__doc__
    assert "elements" in gpuk.Tensor.element_strides.__doc__
    assert "conventions" in gpuk.ops.__doc__.lower() or "Operands" in gpuk.ops.__doc__


def test_bench_rows(ctx):
    rows = gpuk.bench("matmul", [(16, 8, 4), (32, 32, 32)], ctx=ctx, repeat=3)
    names = [v.name for v in ctx.variants("matmul")]
    assert len(rows) == 2 * len(names)
    r = rows[0]
    for key in ("op", "variant", "shape", "backend", "device", "default", "ms_median",
                "ms_min", "ms_max", "gflops", "gbs", "repeat"):
        assert key in r
    assert r["shape"] == "16x8x4" and r["op"] == "matmul"
    assert all(x["ms_min"] <= x["ms_median"] <= x["ms_max"] for x in rows)
    assert all(x["gflops"] and x["gbs"] for x in rows)
    assert sum(x["default"] for x in rows) == 2
    for op, spec in [("minplus", (8, 4, 8)), ("batched_matmul", (2, 4, 4, 4)),
                     ("transpose", (8, 16)), ("sum", (4, 8)), ("add", (64,)), ("scale", 64),
                     ("relu", (2, 32)), ("copy", (8,)), ("bias_relu", (4, 8)),
                     ("softmax", (4, 16)), ("embedding", (10, 4, 6)), ("meanpool", (2, 3, 4)),
                     ("spmv", (20, 20, 3)), ("dot", (32,)), ("gemv", (8, 4)),
                     ("gemm", (4, 4, 4)), ("apsp", (12,)), ("cast", (64,))]:
        rows = gpuk.bench(op, [spec], ctx=ctx, repeat=2, warmup=0)
        assert rows and all("error" not in x for x in rows), (op, rows)
    only = gpuk.bench("add", [(8,)], variants=["naive"], ctx=ctx)
    assert [x["variant"] for x in only] == ["naive"]


def test_bench_rows_fit_a_dataframe(ctx):
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame(gpuk.bench("add", [(64,), (128,)], ctx=ctx))
    assert {"variant", "ms_median"} <= set(df.columns)


def test_plot_bench(ctx):
    rows = gpuk.bench("add", [(64,), (128,)], ctx=ctx)
    try:
        import matplotlib
        matplotlib.use("Agg")
    except ImportError:
        with pytest.raises(ImportError, match="matplotlib"):
            gpuk.plot_bench(rows)
        return
    ax = gpuk.plot_bench(rows)
    assert ax.get_ylabel() == "ms_median"

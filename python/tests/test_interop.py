"""PyTorch, CuPy and the CUDA backend: skipped where they are absent.

On the GPU machine (PyTorch and CuPy installed, libgpuk built with CUDA):
zero copies both ways (same device pointer), ops on their tensors checked
against torch, every CUDA rung, streams, and the refusals across devices.
"""

import numpy as np
import pytest

import gpuk
from conftest import cupy, needs_cuda, needs_cupy, needs_torch, needs_torch_cuda, torch

U = 2.0 ** -24


def close(got, ref, k, tf32=False):
    """|got - ref| within the matmul bound for sums of k products (loosely: 4 gamma_k)."""
    u = 2.0 ** -11 if tf32 else U
    got = np.asarray(got, np.float64)
    ref = np.asarray(ref, np.float64)
    scale = np.maximum(np.abs(ref), 1.0)
    assert np.all(np.abs(got - ref) <= 4 * (k + 2) * u * scale * 8), np.abs(got - ref).max()


# -- PyTorch on the CPU ---------------------------------------------------------------------

@needs_torch
def test_torch_cpu_both_ways_zero_copy(ctx):
    tt = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    g = ctx.from_dlpack(tt)
    assert g.data_ptr == tt.data_ptr() and g.shape == (3, 4)
    gpuk.scale(2.0, g, out=g)
    assert tt[1, 1].item() == 10.0                     # torch sees the op's write
    back = torch.from_dlpack(g)
    assert back.data_ptr() == tt.data_ptr()
    r = gpuk.relu(g)
    tr = torch.from_dlpack(r)
    assert tr.data_ptr() == r.data_ptr and torch.equal(tr, torch.relu(tt))


@needs_torch
def test_torch_cpu_tensors_straight_into_ops(ctx):
    torch.manual_seed(0)
    a, b, bias = torch.randn(33, 17), torch.randn(17, 9), torch.randn(9)
    c = gpuk.matmul(a, b, bias, ctx=ctx)
    close(c.numpy(), (a.double() @ b.double() + bias.double()).numpy(), 18)
    out = torch.empty(33, 9)
    assert gpuk.matmul(a, b, out=out, ctx=ctx) is out        # written in place
    close(out.numpy(), (a.double() @ b.double()).numpy(), 17)
    x = torch.randn(5, 7)
    assert torch.allclose(torch.from_dlpack(gpuk.softmax(x, ctx=ctx)), torch.softmax(x, -1),
                          atol=1e-6)
    ids = torch.tensor([[1, 0], [2, 2]], dtype=torch.int32)
    table = torch.randn(3, 4)
    assert torch.equal(torch.from_dlpack(gpuk.embedding(table, ids, ctx=ctx)), table[ids.long()])


@needs_torch
def test_torch_export_outlives_context():
    with gpuk.Context("cpu") as c:
        t = c.asarray(np.arange(4, dtype=np.float32))
        tt = torch.from_dlpack(t)
    assert tt.tolist() == [0, 1, 2, 3]


@needs_torch
def test_torch_refusals(ctx):
    with pytest.raises(gpuk.InvalidError):
        ctx.from_dlpack(torch.ones(3, requires_grad=True))   # torch will not export it
    with pytest.raises(gpuk.DtypeError):
        gpuk.relu(torch.ones(3, dtype=torch.int64), ctx=ctx)  # libgpuk has no int64


@needs_torch
def test_torch_cpu_float64(ctx):
    """A float64 torch tensor is used as f64, in place, both ways."""
    d = torch.arange(12, dtype=torch.float64).reshape(3, 4) / 7
    g = ctx.from_dlpack(d)
    assert g.gpuk_dtype == "f64" and g.data_ptr == d.data_ptr()
    back = torch.from_dlpack(g)
    assert back.dtype == torch.float64 and back.data_ptr() == d.data_ptr()
    if not ctx.variants("matmul", "f64"):
        with pytest.raises(gpuk.DtypeError, match="f64"):
            gpuk.matmul(d, d.T.contiguous(), ctx=ctx)
        return
    a, b = torch.randn(33, 17, dtype=torch.float64), torch.randn(17, 9, dtype=torch.float64)
    c = gpuk.matmul(a, b, ctx=ctx)
    assert c.gpuk_dtype == "f64"
    assert torch.allclose(torch.from_dlpack(c), a @ b, rtol=1e-13, atol=1e-13)


# -- the CUDA backend -----------------------------------------------------------------------

@needs_cuda
def test_cuda_context(cuda_ctx):
    i = cuda_ctx.info
    assert i.backend == "cuda" and i.dlpack_device == (2, i.device_ordinal)
    assert i.stream                                 # the context's own cudaStream_t
    assert cuda_ctx.device == "cuda:%d" % i.device_ordinal
    assert i.device_memory > 0 and i.multiprocessors > 0
    assert cuda_ctx.peak("h2d_gbs") > 0
    assert any(v.library for v in cuda_ctx.variants("matmul"))


@needs_cuda
def test_cuda_every_rung_against_numpy(cuda_ctx, rng):
    a, b = rng.standard_normal((70, 45)).astype(np.float32), \
        rng.standard_normal((45, 33)).astype(np.float32)
    ta, tb = cuda_ctx.asarray(a), cuda_ctx.asarray(b)
    ref = a.astype(np.float64) @ b
    for v in cuda_ctx.variants("matmul"):
        close(gpuk.matmul(ta, tb, variant=v.name).numpy(), ref, 45, v.tf32)
    ref = np.min(a[:, :, None] + a.T[None, :, :], axis=1)
    for v in cuda_ctx.variants("minplus"):
        assert np.array_equal(gpuk.minplus(ta, cuda_ctx.asarray(np.ascontiguousarray(a.T)),
                                           variant=v.name).numpy(), ref), v.name
    for v in cuda_ctx.variants("transpose"):
        assert np.array_equal(gpuk.transpose(ta, variant=v.name).numpy(), a.T)
    for v in cuda_ctx.variants("softmax"):
        e = np.exp(a - a.max(-1, keepdims=True))
        assert np.allclose(gpuk.softmax(ta, variant=v.name).numpy(), e / e.sum(-1, keepdims=True),
                           atol=1e-6)
    for v in cuda_ctx.variants("reduce"):
        close(gpuk.sum(ta, 0, variant=v.name).numpy(), a.astype(np.float64).sum(0), 70)
    for v in cuda_ctx.variants("add"):
        assert np.array_equal(gpuk.add(ta, ta, variant=v.name).numpy(), a + a)
    ref = a.astype(np.float64) @ b   # the matmul reference again: ref held min-plus's
    for v in cuda_ctx.variants("gemm"):
        close(gpuk.gemm(ta, tb, alpha=2.0, variant=v.name).numpy(), 2 * ref, 45, v.tf32)


@needs_cuda
def test_cuda_numpy_in_copies_out_refused(cuda_ctx, rng):
    x = rng.standard_normal(100).astype(np.float32)
    r = gpuk.relu(x, ctx=cuda_ctx)                  # copied in
    assert r.device.startswith("cuda") and np.array_equal(r.numpy(), np.maximum(x, 0))
    with pytest.raises(gpuk.InvalidError, match="output"):
        gpuk.relu(x, out=np.empty_like(x), ctx=cuda_ctx)
    with pytest.raises(gpuk.InvalidError, match="asarray"):
        cuda_ctx.from_dlpack(x)                     # never copies
    with pytest.raises((RuntimeError, BufferError)):
        np.from_dlpack(r)                           # NumPy cannot take device memory


# -- PyTorch on the GPU ------------------------------------------------------------------------

@needs_torch_cuda
def test_torch_cuda_both_ways_zero_copy(cuda_ctx):
    dev = "cuda:%d" % cuda_ctx.info.device_ordinal
    tt = torch.randn(64, 32, device=dev)
    g = cuda_ctx.from_dlpack(tt)
    assert g.data_ptr == tt.data_ptr() and g.borrowed
    r = gpuk.relu(g)
    tr = torch.from_dlpack(r)
    assert tr.device == tt.device and tr.data_ptr() == r.data_ptr
    assert torch.equal(tr, torch.relu(tt))
    before = tt.clone()
    gpuk.scale(3.0, g, out=g)                      # written into torch's memory
    cuda_ctx.sync()
    assert torch.equal(tt, before * 3)


@needs_torch_cuda
def test_torch_cuda_ops_against_torch(cuda_ctx):
    dev = "cuda:%d" % cuda_ctx.info.device_ordinal
    torch.manual_seed(1)
    a, b, bias = (torch.randn(257, 129, device=dev), torch.randn(129, 65, device=dev),
                  torch.randn(65, device=dev))
    ref = (a.double() @ b.double() + bias.double()).cpu().numpy()
    for v in cuda_ctx.variants("matmul"):
        c = gpuk.matmul(a, b, bias, variant=v.name)
        close(torch.from_dlpack(c).cpu().numpy(), ref, 130, v.tf32)
    out = torch.empty(257, 65, device=dev)
    assert gpuk.matmul(a, b, out=out) is out
    close(out.cpu().numpy(), (a.double() @ b.double()).cpu().numpy(), 129)
    x = torch.randn(40, 1000, device=dev) * 20
    assert torch.allclose(torch.from_dlpack(gpuk.softmax(x)), torch.softmax(x, -1), atol=1e-6)
    assert torch.equal(torch.from_dlpack(gpuk.add(x, x)), x + x)
    assert torch.allclose(torch.from_dlpack(gpuk.sum(x, 1)), x.sum(1), rtol=1e-4, atol=1e-3)
    ids = torch.randint(0, 50, (8, 12), device=dev, dtype=torch.int32)
    table = torch.randn(50, 16, device=dev)
    assert torch.equal(torch.from_dlpack(gpuk.embedding(table, ids)), table[ids.long()])
    w = torch.randn(65, 129, device=dev)            # PyTorch's [out, in]
    y = gpuk.gemm(a, w, trans_b=True)
    close(torch.from_dlpack(y).cpu().numpy(), (a.double() @ w.double().T).cpu().numpy(), 129)


@needs_torch_cuda
def test_torch_cuda_ordering_without_a_stream(cuda_ctx):
    """torch's queued kernels finish before gpuk reads; gpuk's before torch reads."""
    dev = "cuda:%d" % cuda_ctx.info.device_ordinal
    for _ in range(5):
        x = torch.randn(4096, 4096, device=dev)
        y = x * 2 - 1                               # still running on torch's stream
        r = gpuk.relu(y)                            # reads y through DLPack
        assert torch.equal(torch.from_dlpack(r), torch.relu(y))
        out = torch.empty_like(y)
        gpuk.relu(y, out=out)                       # torch memory written by gpuk
        assert torch.equal(out, torch.relu(y))      # no explicit sync in between


class _Recorder:
    """A DLPack producer over a torch tensor that notes the stream it is handed."""

    def __init__(self, t, takes_stream=True):
        self.t, self.streams, self.takes_stream = t, [], takes_stream

    def __dlpack_device__(self):
        return self.t.__dlpack_device__()

    def __dlpack__(self, **kw):
        if not self.takes_stream and kw:
            raise TypeError("__dlpack__() got an unexpected keyword argument 'stream'")
        self.streams.append(kw.get("stream"))
        return self.t.__dlpack__(**kw)


@needs_torch_cuda
def test_producer_is_handed_the_context_stream(cuda_ctx):
    dev = "cuda:%d" % cuda_ctx.info.device_ordinal
    x = torch.randn(2048, 2048, device=dev)
    y = x * 3 - 1                                   # queued on torch's stream
    rec = _Recorder(y)
    r = gpuk.relu(rec, ctx=cuda_ctx)                # no device-wide wait: the stream orders it
    assert rec.streams == [cuda_ctx.info.stream]
    assert torch.equal(torch.from_dlpack(r), torch.relu(y))


@needs_torch_cuda
def test_producer_without_a_stream_argument(cuda_ctx):
    """A producer older than the stream argument: the package waits for the device."""
    dev = "cuda:%d" % cuda_ctx.info.device_ordinal
    x = torch.randn(2048, 2048, device=dev)
    y = x * 3 - 1
    rec = _Recorder(y, takes_stream=False)
    r = gpuk.relu(rec, ctx=cuda_ctx)
    assert rec.streams == [None]
    assert torch.equal(torch.from_dlpack(r), torch.relu(y))


@needs_torch_cuda
def test_export_on_the_context_stream(cuda_ctx):
    """A consumer that reads on the context's own stream gets the capsule at once."""
    dev = "cuda:%d" % cuda_ctx.info.device_ordinal
    s = torch.cuda.ExternalStream(cuda_ctx.info.stream, device=dev)
    a = cuda_ctx.asarray(np.arange(1 << 20, dtype=np.float32))
    r = gpuk.scale(2.0, a)
    with torch.cuda.stream(s):
        t = torch.from_dlpack(r)                    # torch passes s: no gpuk_sync
        u = t * 1
    s.synchronize()
    assert torch.equal(u.cpu(), torch.arange(1 << 20, dtype=torch.float32) * 2)


@needs_torch_cuda
def test_torch_cuda_on_a_shared_stream():
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        with gpuk.Context("cuda", stream=s) as c:
            assert c.info.stream == s.cuda_stream
            x = torch.randn(1024, 1024, device="cuda")
            r = gpuk.softmax(x)
            assert torch.allclose(torch.from_dlpack(r), torch.softmax(x, -1), atol=1e-6)
            out = torch.empty_like(x)
            gpuk.relu(x, out=out)
            s.synchronize()
            assert torch.equal(out, torch.relu(x))


@needs_torch_cuda
def test_torch_cuda_float64(cuda_ctx):
    """float64 CUDA tensors in f64 ops, zero copy both ways, against torch."""
    dev = "cuda:%d" % cuda_ctx.info.device_ordinal
    a = torch.randn(129, 65, device=dev, dtype=torch.float64)
    b = torch.randn(65, 33, device=dev, dtype=torch.float64)
    g = cuda_ctx.from_dlpack(a)
    assert g.gpuk_dtype == "f64" and g.data_ptr == a.data_ptr()
    if not cuda_ctx.variants("matmul", "f64"):
        pytest.skip("the cuda backend lists no f64 rung of matmul")
    ref = (a @ b).cpu().numpy()
    for v in cuda_ctx.variants("matmul", "f64"):
        c = gpuk.matmul(a, b, variant=v.name)
        t = torch.from_dlpack(c)
        assert t.dtype == torch.float64 and t.device == a.device
        assert np.allclose(t.cpu().numpy(), ref, rtol=1e-12, atol=1e-12), v.name
    w = torch.randn(300, 300, device=dev, dtype=torch.float64).abs()
    r = gpuk.minplus(w, w)
    assert torch.equal(torch.from_dlpack(r), (w[:, :, None] + w[None]).min(dim=1).values)


@needs_torch_cuda
def test_torch_cuda_refusals(ctx, cuda_ctx):
    tc = torch.ones(3, device="cuda")
    with pytest.raises(gpuk.InvalidError, match="device"):
        gpuk.relu(tc, ctx=ctx)                      # a CUDA tensor on a CPU context
    with pytest.raises(gpuk.InvalidError, match="device"):
        ctx.from_dlpack(tc)
    g = cuda_ctx.asarray(tc)                        # copied on the device
    assert g.data_ptr != tc.data_ptr() and g.numpy().tolist() == [1, 1, 1]
    r = gpuk.relu(torch.ones(3), ctx=cuda_ctx)      # a host tensor is copied in
    assert r.numpy().tolist() == [1, 1, 1]
    with pytest.raises(gpuk.InvalidError):
        gpuk.relu(tc, out=torch.ones(3), ctx=cuda_ctx)


# -- CuPy --------------------------------------------------------------------------------------

@needs_cupy
def test_cupy_both_ways_zero_copy(cuda_ctx):
    with cupy.cuda.Device(cuda_ctx.info.device_ordinal):
        x = cupy.random.standard_normal((128, 64), dtype=cupy.float32)
        g = cuda_ctx.from_dlpack(x)
        assert g.data_ptr == x.data.ptr
        r = gpuk.softmax(g)
        cr = cupy.from_dlpack(r)
        assert cr.data.ptr == r.data_ptr
        e = cupy.exp(x - x.max(axis=-1, keepdims=True))
        assert cupy.allclose(cr, e / e.sum(axis=-1, keepdims=True), atol=1e-6)
        y = cupy.empty_like(x)
        assert gpuk.relu(x, out=y, ctx=cuda_ctx) is y
        assert cupy.array_equal(y, cupy.maximum(x, 0))
        m = gpuk.matmul(x, x.T.copy())
        close(cupy.asnumpy(cupy.from_dlpack(m)), cupy.asnumpy(x).astype(np.float64) @
              cupy.asnumpy(x).T, 64)


@needs_cupy
def test_cupy_float64(cuda_ctx):
    """float64 CuPy arrays stay f64 through DLPack and the ops."""
    with cupy.cuda.Device(cuda_ctx.info.device_ordinal):
        x = cupy.random.standard_normal((96, 48), dtype=cupy.float64)
        g = cuda_ctx.from_dlpack(x)
        assert g.gpuk_dtype == "f64" and g.data_ptr == x.data.ptr
        back = cupy.from_dlpack(g)
        assert back.dtype == cupy.float64 and back.data.ptr == x.data.ptr
        t = cuda_ctx.asarray(x)                    # copied on the device, dtype kept
        assert t.gpuk_dtype == "f64" and cupy.array_equal(cupy.from_dlpack(t), x)
        if not cuda_ctx.variants("softmax", "f64"):
            pytest.skip("the cuda backend lists no f64 rung of softmax")
        e = cupy.exp(x - x.max(axis=-1, keepdims=True))
        s = cupy.from_dlpack(gpuk.softmax(x))
        assert s.dtype == cupy.float64
        assert cupy.allclose(s, e / e.sum(axis=-1, keepdims=True), rtol=1e-13, atol=1e-15)

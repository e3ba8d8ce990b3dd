/*
 * blas.cu - the hand-written rungs of dot and gemv (gpuk_blas(3)), beside
 * cuBLAS's (cublas.cu).  Both ops read every input byte once and write next to
 * nothing, so the measure is the read ceiling (bench/cases.c,
 * case_memory_peak): the kernels keep several 16-byte loads in flight a
 * thread, finish in one launch, and add their partial sums in a fixed
 * order, so a result does not change from call to call.
 *
 * dot, last_block: each block sums a grid-stride share into one float, the
 * last block to finish (a counter, gkc_counters) adds the block sums in
 * block order.  One kernel where a partials kernel and a final kernel
 * would pay the GPU's per-kernel start and drain twice.
 *
 * gemv, float4: y = alpha A x + beta y takes a warp per row of A, four
 * float4 of the row in flight a lane (rows of 2049 to 4096 floats: a
 * block a row, all its loads in flight at once); y = alpha A^T x + beta y takes a
 * thread per 4 columns and a block per strip of columns and slice of
 * rows, so that a short, wide A still fills the GPU; the last slice of a
 * strip to finish adds the slices' partial sums in slice order.
 *
 * As in BLAS: beta == 0 does not read y, alpha == 0 does not read A or x.
 */
#include "cuda_internal.h"

namespace {

constexpr int NT = 256;

__device__ __forceinline__ float dot4(float4 a, float4 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}

/* alpha s + beta y, y not read when beta == 0 */
__device__ __forceinline__ float axpby(float alpha, float s, float beta, const float *y)
{
    return alpha * s + (beta != 0.0f ? beta * *y : 0.0f);
}

/* dot.  VEC: x and y sit at the same offset in their 16-byte lines; head
 * floats come before the first boundary, then float4, then a tail.  Two
 * float4 of each input in flight a thread, as ew_float4 (elementwise.cu). */
template <bool VEC>
__global__ void __launch_bounds__(NT) dot_last_block(const float *x, const float *y, int64_t n,
                                                     int head, float *part, unsigned *count,
                                                     float *out)
{
    gkc_pdl_enter();
    __shared__ float sh[32];
    __shared__ bool last;
    int64_t tid = (int64_t)blockIdx.x * NT + threadIdx.x, step = (int64_t)gridDim.x * NT;
    float s0 = 0.0f, s1 = 0.0f;
    if (VEC) {
        int64_t nv = (n - head) / 4, tail0 = head + nv * 4;
        const float4 *x4 = (const float4 *)(x + head), *y4 = (const float4 *)(y + head);
        int64_t v = tid;
        for (; v + step < nv; v += 2 * step) {
            float4 a0 = x4[v], a1 = x4[v + step], b0 = y4[v], b1 = y4[v + step];
            s0 += dot4(a0, b0);
            s1 += dot4(a1, b1);
        }
        if (v < nv)
            s0 += dot4(x4[v], y4[v]);
        if (tid < head)
            s1 += x[tid] * y[tid];
        else if (tid >= 4 && tid - 4 < n - tail0)
            s1 += x[tail0 + tid - 4] * y[tail0 + tid - 4];
    } else {
        int64_t i = tid;
        for (; i + step < n; i += 2 * step) {
            s0 += x[i] * y[i];
            s1 += x[i + step] * y[i + step];
        }
        if (i < n)
            s0 += x[i] * y[i];
    }
    float s = gkc_block_sum(s0 + s1, sh);
    if (threadIdx.x == 0) {
        part[blockIdx.x] = s;
        __threadfence();   /* the block sum is visible before the count says so */
        last = atomicAdd(count, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last)
        return;
    __threadfence();
    float t = 0.0f;
    for (unsigned q = threadIdx.x; q < gridDim.x; q += NT)
        t += __ldcg(part + q);   /* from L2: this SM's L1 may hold none of it, or stale */
    t = gkc_block_sum(t, sh);
    if (threadIdx.x == 0) {
        *out = t;
        *count = 0;
    }
}

/* gemv, y = alpha A x + beta y: a warp per row, rows grid-strided.  VEC:
 * A's rows and x start on 16-byte boundaries.  A is read once, streaming
 * (__ldcs: evict first), so x stays in cache for every warp. */
template <bool VEC>
__global__ void __launch_bounds__(NT) gemv_n_warp_rows(const float *a, int64_t lda, const float *x,
                                                       float *y, int64_t m, int64_t n, float alpha,
                                                       float beta)
{
    gkc_pdl_enter();
    int lane = threadIdx.x & 31;
    int64_t nw = ((int64_t)gridDim.x * NT) >> 5;
    for (int64_t i = ((int64_t)blockIdx.x * NT + threadIdx.x) >> 5; i < m; i += nw) {
        float s = 0.0f;
        if (alpha != 0.0f) {
            const float *ar = a + i * lda;
            int64_t j = lane;
            if (VEC) {
                const float4 *a4 = (const float4 *)ar, *x4 = (const float4 *)x;
                int64_t n4 = n / 4;
                for (; j + 96 < n4; j += 128) {
                    float4 r[4], v[4];
#pragma unroll
                    for (int u = 0; u < 4; u++)
                        r[u] = __ldcs(a4 + j + 32 * u);
#pragma unroll
                    for (int u = 0; u < 4; u++)
                        v[u] = __ldg(x4 + j + 32 * u);
#pragma unroll
                    for (int u = 0; u < 4; u++)
                        s += dot4(r[u], v[u]);
                }
                for (; j < n4; j += 32)
                    s += dot4(__ldcs(a4 + j), __ldg(x4 + j));
                j = 4 * n4 + lane;
            } else {
                for (; j + 96 < n; j += 128) {
                    float r[4];
#pragma unroll
                    for (int u = 0; u < 4; u++)
                        r[u] = __ldcs(ar + j + 32 * u);
#pragma unroll
                    for (int u = 0; u < 4; u++)
                        s += r[u] * __ldg(x + j + 32 * u);
                }
            }
            for (; j < n; j += 32)
                s += ar[j] * x[j];
            s = gkc_warp_sum(s);
        }
        if (lane == 0)
            y[i] = axpby(alpha, s, beta, y + i);
    }
}

/* gemv, y = alpha A x + beta y on rows of over 2048 floats, a multiple
 * of 4 (VEC): a block of 512 a row, each thread's V float4 of A and V of x
 * issued before any product (V = 2 up to 4096 floats, else 4 in passes of
 * 2048 float4, as reduce's row_float4), so a row arrives in one round trip
 * where a warp's lanes wait on eight; at 4096^2 on the H200 16.7 us a call
 * against 18.1 (bench/NOTES.md, "Rows in one round trip").  A loop for the
 * last n % 4 floats, even one that never ran, made it 23 us, so such rows
 * keep the warp a row; V = 2 runs its one pass without a loop. */
constexpr int RNT = 512;
template <int V>
__global__ void __launch_bounds__(RNT) gemv_n_block_rows(const float *a, int64_t lda,
                                                         const float *x, float *y, int64_t m,
                                                         int64_t n, float alpha, float beta)
{
    gkc_pdl_enter();
    __shared__ float sh[32];
    const float4 *x4 = (const float4 *)x, z = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    int64_t n4 = n / 4;
    for (int64_t i = blockIdx.x; i < m; i += gridDim.x) {
        float s = 0.0f;
        if (alpha != 0.0f) {
            const float4 *r = (const float4 *)(a + i * lda);
            auto pass = [&](int64_t c0) {   /* V float4 of A and of x at c0, c0 + RNT, ... */
                float4 av[V], xv[V];
#pragma unroll
                for (int u = 0; u < V; u++)
                    av[u] = c0 + u * RNT < n4 ? __ldcs(r + c0 + u * RNT) : z;
#pragma unroll
                for (int u = 0; u < V; u++)
                    xv[u] = c0 + u * RNT < n4 ? __ldg(x4 + c0 + u * RNT) : z;
                float t = 0.0f;
#pragma unroll
                for (int u = 0; u < V; u++)
                    t += dot4(av[u], xv[u]);
                return t;
            };
            s = gkc_row_passes<V, RNT>(n4, pass);   /* V = 2: one pass, no loop */
        }
        s = gkc_block_sum(s, sh);
        if (threadIdx.x == 0)
            y[i] = axpby(alpha, s, beta, y + i);
    }
}

/* gemv, y = alpha A^T x + beta y: thread t of block (strip, slice) owns
 * columns c0 = 4 (strip NT + t) ... c0 + 3 (VEC; else one column) over the
 * rows of its slice, four rows' loads in flight.  One slice: the block
 * writes y.  Several: partial sums go to part[slice][n] and the last block
 * of the strip adds them in slice order. */
template <bool VEC>
__global__ void __launch_bounds__(NT) gemv_t_slices(const float *a, int64_t lda, const float *x,
                                                    float *y, int64_t m, int64_t n, float alpha,
                                                    float beta, int64_t rows_per, float *part,
                                                    unsigned *count)
{
    gkc_pdl_enter();
    constexpr int W = VEC ? 4 : 1;
    __shared__ bool last;
    int64_t slice = blockIdx.y, slices = gridDim.y;
    int64_t c0 = ((int64_t)blockIdx.x * NT + threadIdx.x) * W;
    int64_t r0 = slice * rows_per, r1 = r0 + rows_per < m ? r0 + rows_per : m;
    int nc = c0 >= n ? 0 : n - c0 < W ? (int)(n - c0) : W;   /* columns this thread owns */
    float acc[W] = {};
    if (alpha != 0.0f && nc > 0) {
        const float *ac = a + c0;
        int64_t r = r0;
        if constexpr (VEC) {
            for (; nc == 4 && r + 3 < r1; r += 4) {
                float4 v[4];
#pragma unroll
                for (int u = 0; u < 4; u++)
                    v[u] = __ldcs((const float4 *)(ac + (r + u) * lda));
#pragma unroll
                for (int u = 0; u < 4; u++) {
                    float xr = __ldg(x + r + u);
                    acc[0] += v[u].x * xr;
                    acc[1] += v[u].y * xr;
                    acc[2] += v[u].z * xr;
                    acc[3] += v[u].w * xr;
                }
            }
        }
        for (; r < r1; r++) {
            float xr = __ldg(x + r);
            for (int q = 0; q < nc; q++)
                acc[q] += ac[r * lda + q] * xr;
        }
    }
    if (slices == 1) {
        for (int q = 0; q < nc; q++)
            y[c0 + q] = axpby(alpha, acc[q], beta, y + c0 + q);
        return;
    }
    for (int q = 0; q < nc; q++)
        part[slice * n + c0 + q] = acc[q];
    __threadfence();   /* every thread's partials are visible before the count */
    __syncthreads();
    if (threadIdx.x == 0)
        last = atomicAdd(count + blockIdx.x, 1u) == slices - 1;
    __syncthreads();
    if (!last)
        return;
    __threadfence();
    for (int q = 0; q < nc; q++) {
        float t = 0.0f;
        for (int64_t s = 0; s < slices; s++)
            t += __ldcg(part + s * n + c0 + q);
        y[c0 + q] = axpby(alpha, t, beta, y + c0 + q);
    }
    if (threadIdx.x == 0)
        count[blockIdx.x] = 0;
}

/* Enough blocks of 256 threads to fill every SM once (8 resident a
 * block of this size), the most a last-block sum adds up. */
int64_t one_wave(const gpuk_bctx *b)
{
    return gkc_sms(b) * 8;
}

}  // namespace

GKC_KERNEL(gkc_dot_last_block)
{
    GKC_TRY(gkc_enter(b));
    const float *x = (const float *)args->in[0].data, *y = (const float *)args->in[1].data;
    int64_t n = args->in[0].shape[0];
    unsigned off = gkc_offset16(x);
    bool vec = off == gkc_offset16(y) && off % 4 == 0;
    int64_t head = vec ? ((16 - off) % 16) / 4 : 0;
    if (head > n)
        head = n;
    unsigned g = gkc_blocks(vec ? (n - head) / 4 + 4 : n, 2 * NT, one_wave(b));
    void *part = NULL;
    unsigned *count = NULL;
    GKC_TRY(gkc_scratch(b, GKC_SLOT_WORK, g * sizeof(float), &part));
    GKC_TRY(gkc_counters(b, 1, &count));
    float *out = (float *)args->out.data;
    if (vec)
        gkc_launch_pdl(b->stream, dot_last_block<true>, g, NT, 0, x, y, n, (int)head,
                       (float *)part, count, out);
    else
        gkc_launch_pdl(b->stream, dot_last_block<false>, g, NT, 0, x, y, n, 0, (float *)part,
                       count, out);
    GKC_LAUNCHED(b, "dot", vec ? "last_block" : "last_block (scalar path)");
    return GPUK_OK;
}

GKC_KERNEL(gkc_gemv_float4)
{
    GKC_TRY(gkc_enter(b));
    const gpuk_tdesc *A = &args->in[0];
    const float *a = (const float *)A->data, *x = (const float *)args->in[1].data;
    float *y = (float *)args->out.data;
    int64_t m = A->shape[0], n = A->shape[1], lda = A->stride[0];
    float alpha = args->alpha, beta = args->beta;
    bool rows16 = gkc_aligned16(a) && (m == 1 || lda % 4 == 0);
    if (!args->trans_a) {
        if (m == 0)
            return GPUK_OK;
        bool vec = rows16 && gkc_aligned16(x);
        if (vec && n % 4 == 0 && n / 4 > RNT) {
            auto kern = n / 4 <= 2 * RNT ? gemv_n_block_rows<2> : gemv_n_block_rows<4>;
            gkc_launch_pdl(b->stream, kern, gkc_blocks(m, 1, 1 << 20), RNT, 0, a, lda, x, y, m, n,
                           alpha, beta);
            GKC_LAUNCHED(b, "gemv", "float4 (a block a row)");
            return GPUK_OK;
        }
        unsigned g = gkc_blocks(m, NT / 32, gkc_grid_cap(b));
        if (vec)
            gkc_launch_pdl(b->stream, gemv_n_warp_rows<true>, g, NT, 0, a, lda, x, y, m, n, alpha,
                           beta);
        else
            gkc_launch_pdl(b->stream, gemv_n_warp_rows<false>, g, NT, 0, a, lda, x, y, m, n, alpha,
                           beta);
        GKC_LAUNCHED(b, "gemv", vec ? "float4" : "float4 (scalar path)");
        return GPUK_OK;
    }
    if (n == 0)
        return GPUK_OK;
    int w = rows16 ? 4 : 1;
    int64_t strips = gkc_cdiv(n, (int64_t)NT * w);
    if (strips > INT32_MAX)
        return gkc_fail(b, GPUK_ERR_UNSUPPORTED,
                        "gemv/float4: %lld column strips exceed the grid limit", (long long)strips);
    /* slices of at least 32 rows, as many as fill one wave with the strips */
    int64_t slices = alpha == 0.0f ? 1 : gkc_cdiv(one_wave(b), strips);
    if (slices > gkc_cdiv(m, 32))
        slices = gkc_cdiv(m, 32);
    if (slices > GKC_MAX_GRID_YZ)
        slices = GKC_MAX_GRID_YZ;
    if (slices < 1)
        slices = 1;
    int64_t rows_per = gkc_cdiv(m, slices);
    slices = m > 0 ? gkc_cdiv(m, rows_per) : 1;
    void *part = NULL;
    unsigned *count = NULL;
    if (slices > 1) {
        GKC_TRY(gkc_scratch(b, GKC_SLOT_WORK, (size_t)(slices * n) * sizeof(float), &part));
        GKC_TRY(gkc_counters(b, strips, &count));
    }
    dim3 g((unsigned)strips, (unsigned)slices);
    if (rows16)
        gkc_launch_pdl(b->stream, gemv_t_slices<true>, g, NT, 0, a, lda, x, y, m, n, alpha, beta,
                       rows_per, (float *)part, count);
    else
        gkc_launch_pdl(b->stream, gemv_t_slices<false>, g, NT, 0, a, lda, x, y, m, n, alpha, beta,
                       rows_per, (float *)part, count);
    GKC_LAUNCHED(b, "gemv", rows16 ? "float4" : "float4 (scalar path)");
    return GPUK_OK;
}

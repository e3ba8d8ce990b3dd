/*
 * blas.cu - dot and gemv (gpuk_blas(3)): the hand-written rungs, each
 * kernel a template over the element type T (float, double; sums in T),
 * and cuBLAS's (cublasSdot / cublasDdot, cublasSgemv / cublasDgemv).  Both
 * ops read every input byte once and write next to nothing, so the
 * measure is the read ceiling (bench/cases.c, case_memory_peak): the
 * kernels keep several 16-byte loads in flight a thread (float4, or
 * double2 in f64: gkc_vec, the same bytes), finish in one launch, and add
 * their partial sums in a fixed order, so a result does not change from
 * call to call.
 *
 * dot, last_block: each block sums a grid-stride share into one value,
 * the last block to finish (a counter, gkc_counters) adds the block sums
 * in block order.  One kernel where a partials kernel and a final kernel
 * would pay the GPU's per-kernel start and drain twice.
 *
 * gemv, float4: y = alpha A x + beta y takes a warp per row of A, four
 * vectors of the row in flight a lane (rows of over 8 KB: a block a row,
 * all its loads in flight at once); y = alpha A^T x + beta y takes a
 * thread per vector of columns and a block per strip of columns and slice
 * of rows, so that a short, wide A still fills the GPU; the last slice of
 * a strip to finish adds the slices' partial sums in slice order.
 *
 * As in BLAS: beta == 0 does not read y, alpha == 0 does not read A or x.
 */
#include "cuda_internal.h"

namespace {

constexpr int NT = 256;

/* alpha s + beta y, y not read when beta == 0 */
template <class T>
__device__ __forceinline__ T axpby(T alpha, T s, T beta, const T *y)
{
    return alpha * s + (beta != T(0) ? beta * *y : T(0));
}

/* dot.  VEC: x and y sit at the same offset in their 16-byte lines; head
 * elements come before the first boundary, then vectors, then a tail.  Two
 * vectors of each input in flight a thread, as ew_vec (elementwise.cu). */
template <class T, bool VEC>
__global__ void __launch_bounds__(NT) dot_last_block(const T *x, const T *y, int64_t n, int head,
                                                     T *part, unsigned *count, T *out)
{
    typedef typename gkc_vec<T>::type V;
    constexpr int N = gkc_vec<T>::N;
    gkc_pdl_enter();
    __shared__ T sh[32];
    __shared__ bool last;
    int64_t tid = (int64_t)blockIdx.x * NT + threadIdx.x, step = (int64_t)gridDim.x * NT;
    T s0 = 0, s1 = 0;
    if (VEC) {
        int64_t nv = (n - head) / N, tail0 = head + nv * N;
        const V *x4 = (const V *)(x + head), *y4 = (const V *)(y + head);
        int64_t v = tid;
        for (; v + step < nv; v += 2 * step) {
            V a0 = x4[v], a1 = x4[v + step], b0 = y4[v], b1 = y4[v + step];
            s0 += gkc_vdot(a0, b0);
            s1 += gkc_vdot(a1, b1);
        }
        if (v < nv)
            s0 += gkc_vdot(x4[v], y4[v]);
        if (tid < head)
            s1 += x[tid] * y[tid];
        else if (tid >= N && tid - N < n - tail0)
            s1 += x[tail0 + tid - N] * y[tail0 + tid - N];
    } else {
        int64_t i = tid;
        for (; i + step < n; i += 2 * step) {
            s0 += x[i] * y[i];
            s1 += x[i + step] * y[i + step];
        }
        if (i < n)
            s0 += x[i] * y[i];
    }
    T s = gkc_block_sum(s0 + s1, sh);
    if (threadIdx.x == 0) {
        part[blockIdx.x] = s;
        __threadfence();   /* the block sum is visible before the count says so */
        last = atomicAdd(count, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last)
        return;
    __threadfence();
    T t = 0;
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
template <class T, bool VEC>
__global__ void __launch_bounds__(NT) gemv_n_warp_rows(const T *a, int64_t lda, const T *x, T *y,
                                                       int64_t m, int64_t n, T alpha, T beta)
{
    typedef typename gkc_vec<T>::type V;
    constexpr int N = gkc_vec<T>::N;
    gkc_pdl_enter();
    int lane = threadIdx.x & 31;
    int64_t nw = ((int64_t)gridDim.x * NT) >> 5;
    for (int64_t i = ((int64_t)blockIdx.x * NT + threadIdx.x) >> 5; i < m; i += nw) {
        T s = 0;
        if (alpha != T(0)) {
            const T *ar = a + i * lda;
            int64_t j = lane;
            if (VEC) {
                const V *a4 = (const V *)ar, *x4 = (const V *)x;
                int64_t n4 = n / N;
                for (; j + 96 < n4; j += 128) {
                    V r[4], v[4];
#pragma unroll
                    for (int u = 0; u < 4; u++)
                        r[u] = __ldcs(a4 + j + 32 * u);
#pragma unroll
                    for (int u = 0; u < 4; u++)
                        v[u] = __ldg(x4 + j + 32 * u);
#pragma unroll
                    for (int u = 0; u < 4; u++)
                        s += gkc_vdot(r[u], v[u]);
                }
                for (; j < n4; j += 32)
                    s += gkc_vdot(__ldcs(a4 + j), __ldg(x4 + j));
                j = N * n4 + lane;
            } else {
                for (; j + 96 < n; j += 128) {
                    T r[4];
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

/* gemv, y = alpha A x + beta y on rows of over 8 KB (2048 floats, 1024
 * doubles), a whole number of vectors (VEC): a block of 512 a row, each
 * thread's V vectors of A and V of x issued before any product (V = 2 up
 * to 16 KB, else 4 in passes of 2048 vectors, as reduce's row_float4), so
 * a row arrives in one round trip where a warp's lanes wait on eight; at
 * 4096^2 on the H200 16.7 us a call against 18.1 (bench/NOTES.md, "Rows in
 * one round trip").  A loop for the last n % 4 floats, even one that
 * never ran, made it 23 us, so such rows keep the warp a row; V = 2 runs
 * its one pass without a loop. */
constexpr int RNT = 512;
template <class T, int V>
__global__ void __launch_bounds__(RNT) gemv_n_block_rows(const T *a, int64_t lda, const T *x,
                                                         T *y, int64_t m, int64_t n, T alpha,
                                                         T beta)
{
    typedef typename gkc_vec<T>::type VT;
    gkc_pdl_enter();
    __shared__ T sh[32];
    const VT *x4 = (const VT *)x, z = gkc_vfill(T(0));
    int64_t n4 = n / gkc_vec<T>::N;
    for (int64_t i = blockIdx.x; i < m; i += gridDim.x) {
        T s = 0;
        if (alpha != T(0)) {
            const VT *r = (const VT *)(a + i * lda);
            auto pass = [&](int64_t c0) {   /* V vectors of A and of x at c0, c0 + RNT, ... */
                VT av[V], xv[V];
#pragma unroll
                for (int u = 0; u < V; u++)
                    av[u] = c0 + u * RNT < n4 ? __ldcs(r + c0 + u * RNT) : z;
#pragma unroll
                for (int u = 0; u < V; u++)
                    xv[u] = c0 + u * RNT < n4 ? __ldg(x4 + c0 + u * RNT) : z;
                T t = 0;
#pragma unroll
                for (int u = 0; u < V; u++)
                    t += gkc_vdot(av[u], xv[u]);
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
 * the N columns c0 = N (strip NT + t) ... c0 + N - 1 of a vector (VEC;
 * else one column) over the rows of its slice, four rows' loads in
 * flight.  One slice: the block writes y.  Several: partial sums go to
 * part[slice][n] and the last block of the strip adds them in slice
 * order. */
template <class T, bool VEC>
__global__ void __launch_bounds__(NT, 8) gemv_t_slices(const T *a, int64_t lda, const T *x, T *y,
                                                    int64_t m, int64_t n, T alpha, T beta,
                                                    int64_t rows_per, T *part, unsigned *count)
{
    typedef typename gkc_vec<T>::type V;
    gkc_pdl_enter();
    constexpr int W = VEC ? gkc_vec<T>::N : 1;
    __shared__ bool last;
    int64_t slice = blockIdx.y, slices = gridDim.y;
    int64_t c0 = ((int64_t)blockIdx.x * NT + threadIdx.x) * W;
    int64_t r0 = slice * rows_per, r1 = r0 + rows_per < m ? r0 + rows_per : m;
    int nc = c0 >= n ? 0 : n - c0 < W ? (int)(n - c0) : W;   /* columns this thread owns */
    T acc[W] = {};
    if (alpha != T(0) && nc > 0) {
        const T *ac = a + c0;
        int64_t r = r0;
        if constexpr (VEC) {
            for (; nc == W && r + 3 < r1; r += 4) {
                V v[4];
#pragma unroll
                for (int u = 0; u < 4; u++)
                    v[u] = __ldcs((const V *)(ac + (r + u) * lda));
#pragma unroll
                for (int u = 0; u < 4; u++) {
                    T xr = __ldg(x + r + u);
#pragma unroll
                    for (int q = 0; q < W; q++)
                        acc[q] += gkc_vget(v[u], q) * xr;
                }
            }
        }
        /* acc's index a constant after unrolling: with q < nc as the loop
         * bound, f64's acc[2] went to local memory */
        for (; r < r1; r++) {
            T xr = __ldg(x + r);
#pragma unroll
            for (int q = 0; q < W; q++)
                if (q < nc)
                    acc[q] += ac[r * lda + q] * xr;
        }
    }
    if (slices == 1) {
#pragma unroll
        for (int q = 0; q < W; q++)
            if (q < nc)
                y[c0 + q] = axpby(alpha, acc[q], beta, y + c0 + q);
        return;
    }
#pragma unroll
    for (int q = 0; q < W; q++)
        if (q < nc)
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
        T t = 0;
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

template <class T>
gpuk_status dot_last_block_row(gpuk_bctx *b, const gpuk_args *args)
{
    constexpr int N = gkc_vec<T>::N;
    GKC_TRY(gkc_enter(b));
    const T *x = (const T *)args->in[0].data, *y = (const T *)args->in[1].data;
    int64_t n = args->in[0].shape[0];
    unsigned off = gkc_offset16(x);
    bool vec = off == gkc_offset16(y) && off % sizeof(T) == 0;
    int64_t head = vec ? gkc_head16<T>(x) : 0;
    if (head > n)
        head = n;
    unsigned g = gkc_blocks(vec ? (n - head) / N + N : n, 2 * NT, one_wave(b));
    void *part = NULL;
    unsigned *count = NULL;
    GKC_TRY(gkc_scratch(b, GKC_SLOT_WORK, g * sizeof(T), &part));
    GKC_TRY(gkc_counters(b, 1, &count));
    T *out = (T *)args->out.data;
    if (vec)
        gkc_launch_pdl(b->stream, dot_last_block<T, true>, g, NT, 0, x, y, n, (int)head, (T *)part,
                       count, out);
    else
        gkc_launch_pdl(b->stream, dot_last_block<T, false>, g, NT, 0, x, y, n, 0, (T *)part, count,
                       out);
    GKC_LAUNCHED(b, "dot", vec ? "last_block" : "last_block (scalar path)");
    return GPUK_OK;
}

template <class T>
gpuk_status gemv_float4(gpuk_bctx *b, const gpuk_args *args)
{
    constexpr int N = gkc_vec<T>::N;
    GKC_TRY(gkc_enter(b));
    const gpuk_tdesc *A = &args->in[0];
    const T *a = (const T *)A->data, *x = (const T *)args->in[1].data;
    T *y = (T *)args->out.data;
    int64_t m = A->shape[0], n = A->shape[1], lda = A->stride[0];
    T alpha = gkc_scalar<T>(args->alpha, args->alpha_f64);
    T beta = gkc_scalar<T>(args->beta, args->beta_f64);
    bool rows16 = gkc_aligned16(a) && (m == 1 || lda % N == 0);
    if (!args->trans_a) {
        if (m == 0)
            return GPUK_OK;
        bool vec = rows16 && gkc_aligned16(x);
        if (vec && n % N == 0 && n / N > RNT) {
            auto kern = n / N <= 2 * RNT ? gemv_n_block_rows<T, 2> : gemv_n_block_rows<T, 4>;
            gkc_launch_pdl(b->stream, kern, gkc_blocks(m, 1, 1 << 20), RNT, 0, a, lda, x, y, m, n,
                           alpha, beta);
            GKC_LAUNCHED(b, "gemv", "float4 (a block a row)");
            return GPUK_OK;
        }
        unsigned g = gkc_blocks(m, NT / 32, gkc_grid_cap(b));
        if (vec)
            gkc_launch_pdl(b->stream, gemv_n_warp_rows<T, true>, g, NT, 0, a, lda, x, y, m, n,
                           alpha, beta);
        else
            gkc_launch_pdl(b->stream, gemv_n_warp_rows<T, false>, g, NT, 0, a, lda, x, y, m, n,
                           alpha, beta);
        GKC_LAUNCHED(b, "gemv", vec ? "float4" : "float4 (scalar path)");
        return GPUK_OK;
    }
    if (n == 0)
        return GPUK_OK;
    int w = rows16 ? N : 1;
    int64_t strips = gkc_cdiv(n, (int64_t)NT * w);
    if (strips > INT32_MAX)
        return gkc_fail(b, GPUK_ERR_UNSUPPORTED,
                        "gemv/float4: %lld column strips exceed the grid limit", (long long)strips);
    /* slices of at least 32 rows, as many as fill one wave with the strips */
    int64_t slices = alpha == T(0) ? 1 : gkc_cdiv(one_wave(b), strips);
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
        GKC_TRY(gkc_scratch(b, GKC_SLOT_WORK, (size_t)(slices * n) * sizeof(T), &part));
        GKC_TRY(gkc_counters(b, strips, &count));
    }
    dim3 g((unsigned)strips, (unsigned)slices);
    if (rows16)
        gkc_launch_pdl(b->stream, gemv_t_slices<T, true>, g, NT, 0, a, lda, x, y, m, n, alpha, beta,
                       rows_per, (T *)part, count);
    else
        gkc_launch_pdl(b->stream, gemv_t_slices<T, false>, g, NT, 0, a, lda, x, y, m, n, alpha,
                       beta, rows_per, (T *)part, count);
    GKC_LAUNCHED(b, "gemv", rows16 ? "float4" : "float4 (scalar path)");
    return GPUK_OK;
}

/* ---- cuBLAS: the yardstick rungs, the same call in either precision ---- */

cublasStatus_t blas_dot(cublasHandle_t h, int64_t n, const float *x, const float *y, float *r)
{
    return cublasSdot_64(h, n, x, 1, y, 1, r);
}
cublasStatus_t blas_dot(cublasHandle_t h, int64_t n, const double *x, const double *y, double *r)
{
    return cublasDdot_64(h, n, x, 1, y, 1, r);
}
cublasStatus_t blas_gemv(cublasHandle_t h, cublasOperation_t op, int64_t rows, int64_t cols,
                         const float *alpha, const float *a, int64_t lda, const float *x,
                         const float *beta, float *y)
{
    return cublasSgemv_64(h, op, rows, cols, alpha, a, lda, x, 1, beta, y, 1);
}
cublasStatus_t blas_gemv(cublasHandle_t h, cublasOperation_t op, int64_t rows, int64_t cols,
                         const double *alpha, const double *a, int64_t lda, const double *x,
                         const double *beta, double *y)
{
    return cublasDgemv_64(h, op, rows, cols, alpha, a, lda, x, 1, beta, y, 1);
}
cublasStatus_t blas_scal(cublasHandle_t h, int64_t n, const float *alpha, float *x)
{
    return cublasSscal_64(h, n, alpha, x, 1);
}
cublasStatus_t blas_scal(cublasHandle_t h, int64_t n, const double *alpha, double *x)
{
    return cublasDscal_64(h, n, alpha, x, 1);
}

/* dot: the result goes straight to out[0] on the device (pointer mode
 * DEVICE), so nothing waits for the host.  BLAS returns at once for n = 0
 * without writing it, so that case is a zero written here. */
template <class T>
gpuk_status dot_cublas(gpuk_bctx *b, const gpuk_args *args)
{
    GKC_TRY(gkc_enter(b));
    int64_t n = args->in[0].shape[0];
    T *out = (T *)args->out.data;
    if (n == 0) {
        GKC_CUDA(b, cudaMemsetAsync(out, 0, sizeof(T), b->stream), "dot/cublas: cudaMemsetAsync");
        return GPUK_OK;
    }
    cublasHandle_t h;
    GKC_TRY(gkc_blas(b, &h));
    GKC_BLAS(b, cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE),
             "dot/cublas: cublasSetPointerMode");
    cublasStatus_t s =
        blas_dot(h, n, (const T *)args->in[0].data, (const T *)args->in[1].data, out);
    cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
    if (s != CUBLAS_STATUS_SUCCESS)
        return gkc_blas_error(b, s, sizeof(T) == 8 ? "dot/cublas: cublasDdot"
                                                   : "dot/cublas: cublasSdot");
    return GPUK_OK;
}

/* gemv: y = A x with row-major A[m,n] is y = M^T x for the column-major
 * M = A^T (n x m, leading dimension lda): gemv(T, n, m, A, lda); y = A^T x
 * is gemv(N, ...).  cuBLAS wants lda >= max(1, n): a single row may carry
 * any stride (it is never used), and rows that overlap (lda < n) are
 * packed densely first.  BLAS returns at once for an empty sum without
 * scaling y, and with alpha == 0 reads neither A nor x: both are
 * y = beta y here (zeros for beta == 0, y not read). */
template <class T>
gpuk_status gemv_cublas(gpuk_bctx *b, const gpuk_args *args)
{
    GKC_TRY(gkc_enter(b));
    const gpuk_tdesc *A = &args->in[0];
    int64_t m = A->shape[0], n = A->shape[1], lda = A->stride[0];
    int64_t inner = args->trans_a ? m : n, outlen = args->trans_a ? n : m;
    T alpha = gkc_scalar<T>(args->alpha, args->alpha_f64);
    T beta = gkc_scalar<T>(args->beta, args->beta_f64);
    T *y = (T *)args->out.data;
    if (inner == 0 || alpha == T(0)) {
        if (beta == T(0)) {
            GKC_CUDA(b, cudaMemsetAsync(y, 0, (size_t)outlen * sizeof(T), b->stream),
                     "gemv/cublas: cudaMemsetAsync");
            return GPUK_OK;
        }
        if (beta == T(1))
            return GPUK_OK;
        cublasHandle_t h;
        GKC_TRY(gkc_blas(b, &h));
        GKC_BLAS(b, blas_scal(h, outlen, &beta, y), "gemv/cublas: cublas<t>scal");
        return GPUK_OK;
    }
    cublasHandle_t h;
    GKC_TRY(gkc_blas(b, &h));
    const T *a = (const T *)A->data;
    if (m <= 1) {
        lda = n > 1 ? n : 1;
    } else if (lda < n) {
        void *buf = NULL;
        GKC_TRY(gkc_scratch(b, GKC_SLOT_A, (size_t)(m * n) * sizeof(T), &buf));
        GKC_TRY(gkc_pack_dense(b, a, 1, m, n, 0, lda, (T *)buf, "gemv", "cublas"));
        a = (const T *)buf;
        lda = n;
    }
    GKC_BLAS(b,
             blas_gemv(h, args->trans_a ? CUBLAS_OP_N : CUBLAS_OP_T, n, m, &alpha, a, lda,
                       (const T *)args->in[1].data, &beta, y),
             sizeof(T) == 8 ? "gemv/cublas: cublasDgemv" : "gemv/cublas: cublasSgemv");
    return GPUK_OK;
}

/* dst[z][r][c] = src[z sb + r ld + c], a grid-stride loop over dst. */
template <class T>
__global__ void pack_dense(const T *src, int64_t nb, int64_t rows, int64_t cols, int64_t sb,
                           int64_t ld, T *dst)
{
    int64_t total = nb * rows * cols, step = (int64_t)gridDim.x * NT;
    for (int64_t i = (int64_t)blockIdx.x * NT + threadIdx.x; i < total; i += step) {
        int64_t z = i / (rows * cols), rem = i - z * rows * cols;
        int64_t r = rem / cols, c = rem - r * cols;
        dst[i] = src[z * sb + r * ld + c];
    }
}

}  // namespace

template <class T>
gpuk_status gkc_pack_dense(gpuk_bctx *b, const T *src, int64_t nb, int64_t rows, int64_t cols,
                           int64_t sb, int64_t ld, T *dst, const char *op, const char *variant)
{
    int64_t total = nb * rows * cols;
    if (total < 1)
        return GPUK_OK;
    pack_dense<T><<<gkc_blocks(total, NT, gkc_grid_cap(b)), NT, 0, b->stream>>>(src, nb, rows,
                                                                                 cols, sb, ld, dst);
    GKC_LAUNCHED(b, op, variant);
    return GPUK_OK;
}
template gpuk_status gkc_pack_dense<float>(gpuk_bctx *, const float *, int64_t, int64_t, int64_t,
                                           int64_t, int64_t, float *, const char *, const char *);
template gpuk_status gkc_pack_dense<double>(gpuk_bctx *, const double *, int64_t, int64_t,
                                            int64_t, int64_t, int64_t, double *, const char *,
                                            const char *);

GKC_KERNEL_F32_F64(gkc_dot_last_block, dot_last_block_row)
GKC_KERNEL_F32_F64(gkc_dot_cublas, dot_cublas)
GKC_KERNEL_F32_F64(gkc_gemv_float4, gemv_float4)
GKC_KERNEL_F32_F64(gkc_gemv_cublas, gemv_cublas)

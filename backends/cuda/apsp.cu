/*
 * apsp.cu - all-pairs shortest paths by Floyd-Warshall (gpuk_apsp(3)) in
 * f32, f64 and i32: one source, a template over the element type.
 *
 *   naive        one launch per step k, one thread per pair (i, j): each
 *                step reads row k and column k, which the step leaves
 *                unchanged, so the pairs of a step are independent; n
 *                launches of n^2 threads
 *   blocked_256  blocked Floyd-Warshall (below), blocks of 256 vertices:
 *                the n^3 work as min-plus updates of k = 256 on the
 *                backend's min-plus rung (pipelined; i32: dpx)
 *   blocked_512  the same with blocks of 512: half the passes over d and
 *                twice the work outside the main update (2 b / n of it)
 *
 * What every rung computes is gpuk.h's definition, the same as the cpu
 * backend's (backends/cpu/apsp.c says it in full): d starts as w with "no
 * edge" made infinite and d[i][i] = min(w[i][i], 0); a relaxation through
 * k takes the strictly smaller d[i][k] + d[k][j] (for i32, INF on either
 * side is no path, and a finite sum wraps); pred[i][j] starts at i for an
 * edge, -1 otherwise, and takes pred[k][j] with each relaxation.  After
 * the last step one small kernel looks for a negative diagonal, and its
 * answer (one int) comes back to the host: the only wait of the op (the
 * blocked rungs in i32 wait once more, after the start, for whether a
 * weight is negative).
 */
#include "cuda_internal.h"
#include "apsp_close.cuh"

namespace {

constexpr int T2 = 16;   /* the naive rung's blocks: 16 x 16 pairs */

/* d = clean(w), the diagonal min(., 0); pred's start.  neg (when not
 * NULL) is set if any value of d is negative: every thread reaches the
 * block vote, so none returns early. */
template <class T>
__global__ void ap_init(const T *w, T *d, int *pred, int64_t n, int *neg)
{
    int64_t j = (int64_t)blockIdx.x * T2 + threadIdx.x;
    int64_t i = (int64_t)blockIdx.y * T2 + threadIdx.y;
    bool below = false;
    if (i < n && j < n) {
        T v = ap_traits<T>::clean(w[i * n + j]);
        if (i == j && v > (T)0)
            v = (T)0;
        d[i * n + j] = v;
        below = v < (T)0;
        if (pred)
            pred[i * n + j] = i != j && v < ap_traits<T>::inf() ? (int)i : -1;
    }
    if (__syncthreads_or(below) && neg && threadIdx.x == 0 && threadIdx.y == 0)
        atomicOr(neg, 1);
}

/* Step k for every pair; row k is skipped (see backends/cpu/apsp.c). */
template <class T>
__global__ void ap_step(T *d, int *pred, int64_t n, int64_t k)
{
    int64_t j = (int64_t)blockIdx.x * T2 + threadIdx.x;
    int64_t i = (int64_t)blockIdx.y * T2 + threadIdx.y;
    if (i >= n || j >= n || i == k)
        return;
    T s;
    if (ap_traits<T>::sum(d[i * n + k], d[k * n + j], &s) && s < d[i * n + j]) {
        d[i * n + j] = s;
        if (pred)
            pred[i * n + j] = pred[k * n + j];
    }
}

/* The smallest vertex with a negative diagonal into *first (n: none). */
template <class T>
__global__ void ap_find_cycle(const T *d, int64_t n, unsigned long long *first)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x)
        if (d[i * n + i] < (T)0)
            atomicMin(first, (unsigned long long)i);
}

/* After the steps: the negative-cycle test, whatever the rung. */
template <class T>
gpuk_status ap_check_cycle(gpuk_bctx *b, const T *d, int64_t n, const char *rung)
{
    unsigned long long *flag;
    GKC_TRY(gkc_scratch(b, GKC_SLOT_WORK, sizeof *flag, (void **)&flag));
    unsigned long long none = (unsigned long long)n, first = none;
    GKC_CUDA(b, cudaMemcpyAsync(flag, &none, sizeof none, cudaMemcpyHostToDevice, b->stream),
             "apsp: clearing the cycle flag");
    ap_find_cycle<T><<<gkc_blocks(n, 256, gkc_grid_cap(b)), 256, 0, b->stream>>>(d, n, flag);
    GKC_LAUNCHED(b, "apsp", rung);
    GKC_CUDA(b, cudaMemcpyAsync(&first, flag, sizeof first, cudaMemcpyDeviceToHost, b->stream),
             "apsp: reading the cycle flag");
    GKC_CUDA(b, cudaStreamSynchronize(b->stream), "apsp: waiting for the cycle flag");
    if (first >= none)
        return GPUK_OK;
    T dvv;
    GKC_CUDA(b, cudaMemcpy(&dvv, d + first * n + first, sizeof dvv, cudaMemcpyDeviceToHost),
             "apsp: reading the negative diagonal");
    return gkc_fail(b, GPUK_ERR_NEGATIVE_CYCLE, "apsp/%s: vertex %llu lies on a cycle of "
                    "negative length (d[%llu,%llu] = %g after the last step)", rung, first, first,
                    first, (double)dvv);
}

template <class T>
gpuk_status ap_naive(gpuk_bctx *b, const gpuk_args *args)
{
    int64_t n = args->in[0].shape[0];
    const T *w = (const T *)args->in[0].data;
    T *d = (T *)args->out.data;
    int *pred = args->has_out2 ? (int *)args->out2.data : NULL;
    int64_t g = gkc_cdiv(n, T2);
    if (g > GKC_MAX_GRID_YZ)
        return gkc_fail(b, GPUK_ERR_UNSUPPORTED, "apsp/naive: n = %lld needs more than %d block "
                        "rows", (long long)n, GKC_MAX_GRID_YZ);
    dim3 grid((unsigned)g, (unsigned)g), block(T2, T2);
    ap_init<T><<<grid, block, 0, b->stream>>>(w, d, pred, n, (int *)NULL);
    GKC_LAUNCHED(b, "apsp", "naive");
    for (int64_t k = 0; k < n; k++) {
        ap_step<T><<<grid, block, 0, b->stream>>>(d, pred, n, k);
        GKC_LAUNCHED(b, "apsp", "naive");
    }
    return ap_check_cycle<T>(b, d, n, "naive");
}


/*
 * The blocked rungs: Floyd-Warshall by blocks of bs vertices, the cpu
 * backend's blocked rung (backends/cpu/apsp.c tells the steps and why
 * they give the triple loop's distances).  For each diagonal block K:
 *   1. close D = d[K][K]: a block of up to CLOSE (128) vertices in one
 *      thread block's registers (ap_close); up to GRID_MAX (1024) in
 *      one cooperative launch (ap_close_grid); a larger one, or where the
 *      device has no cooperative launch, by these same steps on D with
 *      blocks of CLOSE (ap_steps calls itself);
 *   2. R = D (x) d[K][:], C = d[:][K] (x) D into scratch (min-plus);
 *   3. d[I][J] = min(d[I][J], C[I] (x) R[J]) for I, J outside K: up to
 *      four min-plus updates of k = bs, the bulk of the n^3;
 *   4. R and C copied into d's block row and column (cudaMemcpy2DAsync).
 * Steps 2 and 3 call the backend's min-plus rung through its table row
 * (pipelined in f32 and f64, dpx in i32; else the dtype's DEFAULT row),
 * whose algebra is Floyd-Warshall's except for i32 with a negative
 * weight (INF + w < INF); the start kernel's flag says whether one is
 * there, and then, or with no min-plus row for the dtype, ap_prod_tile
 * computes them with INF tested.  With pred the rung runs naive's steps
 * (min-plus does not say which k won).
 */
/* The exact product of steps 2 and 3 where min-plus's algebra does not
 * hold: r = min(r if ACC else INF, a (x) b) with ap_traits::sum (INF
 * tested).  64 x 64 outputs a block of 16 x 16 threads, 4 x 4 a thread,
 * k slices of 16 through shared memory (regtile_4x4's shape, in
 * backends/cuda/minplus.cu); cells past an edge are INF. */
constexpr int PT = 64, PK = 16;
template <class T, bool ACC>
__global__ void __launch_bounds__(256) ap_prod_tile(const T *a, int64_t lda, const T *bm,
                                                    int64_t ldb, T *r, int64_t ldr, int64_t m,
                                                    int64_t n, int64_t k, int64_t y0)
{
    __shared__ T as[PK][PT + 1];
    __shared__ T bs[PK][PT];
    int tx = threadIdx.x, ty = threadIdx.y;
    int64_t i0 = (y0 + blockIdx.y) * PT, j0 = (int64_t)blockIdx.x * PT;
    const T inf = ap_traits<T>::inf();
    T v[4][4];
#pragma unroll
    for (int q = 0; q < 4; q++)
#pragma unroll
        for (int c = 0; c < 4; c++) {
            int64_t i = i0 + ty + 16 * q, j = j0 + tx + 16 * c;
            T old = ACC && i < m && j < n ? r[i * ldr + j] : inf;
            v[q][c] = old < inf ? old : inf;
        }
    for (int64_t k0 = 0; k0 < k; k0 += PK) {
#pragma unroll
        for (int q = 0; q < 4; q++) {
            int64_t i = i0 + ty + 16 * q, ka = k0 + tx;
            as[tx][ty + 16 * q] = i < m && ka < k ? a[i * lda + ka] : inf;
            int64_t j = j0 + tx + 16 * q, kb = k0 + ty;
            bs[ty][tx + 16 * q] = kb < k && j < n ? bm[kb * ldb + j] : inf;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < PK; kk++) {
            T x[4], y[4];
#pragma unroll
            for (int q = 0; q < 4; q++) {
                x[q] = as[kk][ty + 16 * q];
                y[q] = bs[kk][tx + 16 * q];
            }
#pragma unroll
            for (int q = 0; q < 4; q++)
#pragma unroll
                for (int c = 0; c < 4; c++) {
                    T s;
                    if (ap_traits<T>::sum(x[q], y[c], &s) && s < v[q][c])
                        v[q][c] = s;
                }
        }
        __syncthreads();
    }
#pragma unroll
    for (int q = 0; q < 4; q++)
#pragma unroll
        for (int c = 0; c < 4; c++) {
            int64_t i = i0 + ty + 16 * q, j = j0 + tx + 16 * c;
            if (i < m && j < n)
                r[i * ldr + j] = v[q][c];
        }
}

/* The min-plus row of each dtype: the backend's fastest rung by name,
 * else the dtype's DEFAULT row, else NULL. */
const gpuk_kernel *ap_minplus_row(gpuk_dtype dt)
{
    const char *name = dt == GPUK_I32 ? "dpx" : "pipelined";
    const gpuk_kernel *def = NULL;
    for (size_t i = 0; i < gkc_n_kernels; i++) {
        const gpuk_kernel *k = &gkc_kernels[i];
        if (k->op != GPUK_OP_MINPLUS || !(k->dtypes & GPUK_DTYPE_BIT(dt)))
            continue;
        if (strcmp(k->variant, name) == 0)
            return k;
        if (k->flags & GPUK_KF_DEFAULT)
            def = k;
    }
    return def;
}

void ap_desc(gpuk_tdesc *t, const void *p, gpuk_dtype dt, int64_t rows, int64_t cols, int64_t ld)
{
    memset(t, 0, sizeof *t);
    t->data = const_cast<void *>(p);
    t->dtype = dt;
    t->ndim = 2;
    t->shape[0] = rows, t->shape[1] = cols;
    t->stride[0] = ld, t->stride[1] = 1;
}

/* One call of a blocked rung. */
template <class T>
struct ap_blk {
    gpuk_bctx *b;
    gpuk_dtype dt;
    const gpuk_kernel *mp;     /* NULL: ap_prod_tile */
    const char *rung;
    const int *neg;            /* the device's flag: some value of d is negative */
};

/* r[m,n] = min(r if acc else INF, a[m,k] (x) b[k,n]). */
template <class T>
gpuk_status ap_mul(const ap_blk<T> &B, int64_t m, int64_t n, int64_t k, const T *a, int64_t lda,
                   const T *bm, int64_t ldb, T *r, int64_t ldr, bool acc)
{
    if (m == 0 || n == 0)
        return GPUK_OK;
    if (B.mp) {
        gpuk_args x;
        memset(&x, 0, sizeof x);
        x.size = sizeof x;
        x.op = GPUK_OP_MINPLUS;
        x.dtype = B.dt;
        x.n_in = 2;
        ap_desc(&x.in[0], a, B.dt, m, k, lda);
        ap_desc(&x.in[1], bm, B.dt, k, n, ldb);
        ap_desc(&x.out, r, B.dt, m, n, ldr);
        x.accumulate = acc;
        return B.mp->fn(B.b, &x);
    }
    auto kern = acc ? ap_prod_tile<T, true> : ap_prod_tile<T, false>;
    cudaStream_t st = B.b->stream;
    return gkc_launch_grid(B.b, "apsp", B.rung, gkc_cdiv(n, PT), gkc_cdiv(m, PT), 1,
                           [&](dim3 g, int64_t y0, int64_t) {
                               kern<<<g, dim3(16, 16), 0, st>>>(a, lda, bm, ldb, r, ldr, m, n, k,
                                                                y0);
                           });
}

/* Steps 1-4 on the n x n matrix d (rows ld apart) with blocks of bs; R
 * (bs rows, ldR apart) and C (bs columns) are scratch, and R2 and C2 the
 * same for the closures of blocks above CLOSE (CLOSE x bs each). */
template <class T>
gpuk_status ap_steps(const ap_blk<T> &B, int64_t n, T *d, int64_t ld, int64_t bs, T *R,
                     int64_t ldR, T *C, T *R2, T *C2)
{
    cudaStream_t st = B.b->stream;
    for (int64_t k0 = 0; k0 < n; k0 += bs) {
        int64_t kb = n - k0 < bs ? n - k0 : bs, k1 = k0 + kb;
        T *D = d + k0 * ld + k0;
        bool ran = false;
        if (kb <= CLOSE) {
            ap_close<T><<<1, CLOSE_NT, 0, st>>>(D, ld, (int)kb, B.neg);
            GKC_LAUNCHED(B.b, "apsp", B.rung);
            ran = true;
        } else if (kb <= GRID_MAX) {
            GKC_TRY(ap_close_coop<T>(B.b, D, ld, kb, B.neg, B.rung, &ran));
        }
        if (!ran)
            GKC_TRY(ap_steps(B, kb, D, ld, (int64_t)CLOSE, R2, kb, C2, (T *)NULL, (T *)NULL));
        if (kb == n)
            break;
        GKC_TRY(ap_mul(B, kb, n, kb, D, ld, d + k0 * ld, ld, R, ldR, false));
        GKC_TRY(ap_mul(B, n, kb, kb, d + k0, ld, D, ld, C, bs, false));
        const int64_t lo[2] = { 0, k1 }, hi[2] = { k0, n };
        for (int ri = 0; ri < 2; ri++)
            for (int ci = 0; ci < 2; ci++)
                GKC_TRY(ap_mul(B, hi[ri] - lo[ri], hi[ci] - lo[ci], kb, C + lo[ri] * bs, bs,
                               R + lo[ci], ldR, d + lo[ri] * ld + lo[ci], ld, true));
        GKC_CUDA(B.b, cudaMemcpy2DAsync(d + k0 * ld, ld * sizeof(T), R, ldR * sizeof(T),
                                        n * sizeof(T), kb, cudaMemcpyDeviceToDevice, st),
                 "apsp: copying the block row back");
        GKC_CUDA(B.b, cudaMemcpy2DAsync(d + k0, ld * sizeof(T), C, bs * sizeof(T), kb * sizeof(T),
                                        n, cudaMemcpyDeviceToDevice, st),
                 "apsp: copying the block column back");
    }
    return GPUK_OK;
}

/* Stream-ordered device memory of one call, freed on every way out. */
struct ap_mem {
    gpuk_bctx *b;
    void *p = nullptr;
    explicit ap_mem(gpuk_bctx *bb) : b(bb) {}
    ~ap_mem()
    {
        if (p)
            cudaFreeAsync(p, b->stream);
    }
};

template <class T>
gpuk_status ap_blocked(gpuk_bctx *b, const gpuk_args *args, int64_t bs, const char *rung)
{
    if (args->has_out2)
        return ap_naive<T>(b, args);
    int64_t n = args->in[0].shape[0];
    const T *w = (const T *)args->in[0].data;
    T *d = (T *)args->out.data;
    int64_t g = gkc_cdiv(n, T2);
    if (g > GKC_MAX_GRID_YZ)
        return gkc_fail(b, GPUK_ERR_UNSUPPORTED, "apsp/%s: n = %lld needs more than %d block rows",
                        rung, (long long)n, GKC_MAX_GRID_YZ);
    /* the negative flag; then, unless one cooperative launch closes the
     * whole matrix, one allocation of R (rows padded to 16 bytes, so step
     * 3 reads it with 16-byte copies), C, and the closures' R2, C2 */
    int64_t rb = n < bs ? n : bs, ldR = gkc_cdiv(n, 4) * 4;
    int64_t sz = (int64_t)sizeof(T);
    size_t off_c = (size_t)(gkc_cdiv(rb * ldR * sz, 256) * 256);
    size_t off_r2 = off_c + (size_t)(gkc_cdiv(n * rb * sz, 256) * 256);
    size_t off_c2 = off_r2 + (size_t)(CLOSE * rb * sz), total = off_c2 + (size_t)(CLOSE * rb * sz);
    ap_mem flag(b), work(b);
    GKC_CUDA(b, cudaMallocAsync(&flag.p, sizeof(int), b->stream),
             "apsp: the flag (cudaMallocAsync)");
    int *neg = (int *)flag.p;
    GKC_CUDA(b, cudaMemsetAsync(neg, 0, sizeof(int), b->stream), "apsp: clearing the flag");
    dim3 grid((unsigned)g, (unsigned)g), block(T2, T2);
    ap_init<T><<<grid, block, 0, b->stream>>>(w, d, (int *)NULL, n, neg);
    GKC_LAUNCHED(b, "apsp", rung);
    if (n > CLOSE && n <= GRID_MAX) {   /* the whole matrix in one launch, exact in every dtype */
        bool ran = false;
        GKC_TRY(ap_close_coop<T>(b, d, n, n, neg, rung, &ran));
        if (ran)
            return ap_check_cycle<T>(b, d, n, rung);
    }
    GKC_CUDA(b, cudaMallocAsync(&work.p, total, b->stream), "apsp: scratch (cudaMallocAsync)");
    char *base = (char *)work.p;
    ap_blk<T> B = { b, args->dtype, ap_minplus_row(args->dtype), rung, neg };
    if (args->dtype == GPUK_I32 && B.mp) {
        int h = 0;
        GKC_CUDA(b, cudaMemcpyAsync(&h, neg, sizeof h, cudaMemcpyDeviceToHost, b->stream),
                 "apsp: reading the negative-weight flag");
        GKC_CUDA(b, cudaStreamSynchronize(b->stream), "apsp: waiting for the negative-weight flag");
        if (h)
            B.mp = NULL;
    }
    GKC_TRY(ap_steps(B, n, d, n, bs, (T *)base, ldR, (T *)(base + off_c),
                     (T *)(base + off_r2), (T *)(base + off_c2)));
    return ap_check_cycle<T>(b, d, n, rung);
}

/* One rung in each dtype. */
template <int BS>
gpuk_status ap_blocked_any(gpuk_bctx *b, const gpuk_args *args, const char *rung)
{
    GKC_TRY(gkc_enter(b));
    switch (args->dtype) {
    case GPUK_F32: return ap_blocked<float>(b, args, BS, rung);
    case GPUK_F64: return ap_blocked<double>(b, args, BS, rung);
    case GPUK_I32: return ap_blocked<int>(b, args, BS, rung);
    default: break;
    }
    return gkc_fail(b, GPUK_ERR_DTYPE, "apsp/%s: no path for dtype %d", rung, (int)args->dtype);
}

}  // namespace

GKC_KERNEL(gkc_apsp_naive)
{
    GKC_TRY(gkc_enter(b));
    switch (args->dtype) {
    case GPUK_F32: return ap_naive<float>(b, args);
    case GPUK_F64: return ap_naive<double>(b, args);
    case GPUK_I32: return ap_naive<int>(b, args);
    default: break;
    }
    return gkc_fail(b, GPUK_ERR_DTYPE, "apsp/naive: no path for dtype %d", (int)args->dtype);
}

GKC_KERNEL(gkc_apsp_blocked_256)
{
    return ap_blocked_any<256>(b, args, "blocked_256");
}

GKC_KERNEL(gkc_apsp_blocked_512)
{
    return ap_blocked_any<512>(b, args, "blocked_512");
}

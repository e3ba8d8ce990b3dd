/*
 * apsp.cu - all-pairs shortest paths by Floyd-Warshall (gpuk_apsp(3)) in
 * f32, f64 and i32: one source, a template over the element type.
 *
 *   naive  one launch per step k, one thread per pair (i, j): each step
 *          reads row k and column k, which the step leaves unchanged, so
 *          the pairs of a step are independent; n launches of n^2 threads
 *
 * What every rung computes is gpuk.h's definition, the same as the cpu
 * backend's (backends/cpu/apsp.c says it in full): d starts as w with "no
 * edge" made infinite and d[i][i] = min(w[i][i], 0); a relaxation through
 * k takes the strictly smaller d[i][k] + d[k][j] (for i32, INF on either
 * side is no path, and a finite sum wraps); pred[i][j] starts at i for an
 * edge, -1 otherwise, and takes pred[k][j] with each relaxation.  After
 * the last step one small kernel looks for a negative diagonal, and its
 * answer (one int) comes back to the host: the only wait of the op.
 */
#include "cuda_internal.h"

namespace {

constexpr int T2 = 16;   /* the naive rung's blocks: 16 x 16 pairs */

template <class T> struct ap_traits;
template <> struct ap_traits<float> {
    __device__ static float inf() { return __int_as_float(0x7f800000); }
    __device__ static float clean(float v) { return isnan(v) ? inf() : v; }
    __device__ static bool sum(float x, float y, float *s) { *s = x + y; return true; }
};
template <> struct ap_traits<double> {
    __device__ static double inf() { return __longlong_as_double(0x7ff0000000000000ll); }
    __device__ static double clean(double v) { return isnan(v) ? inf() : v; }
    __device__ static bool sum(double x, double y, double *s) { *s = x + y; return true; }
};
template <> struct ap_traits<int> {
    __device__ static int inf() { return GPUK_I32_INF; }
    __device__ static int clean(int v) { return v > GPUK_I32_INF ? GPUK_I32_INF : v; }
    __device__ static bool sum(int x, int y, int *s)
    {
        if (x >= GPUK_I32_INF || y >= GPUK_I32_INF)
            return false;   /* INF is no path, also beside a negative weight */
        *s = (int)((unsigned)x + (unsigned)y);
        return true;
    }
};

/* d = clean(w), the diagonal min(., 0); pred's start. */
template <class T>
__global__ void ap_init(const T *w, T *d, int *pred, int64_t n)
{
    int64_t j = (int64_t)blockIdx.x * T2 + threadIdx.x;
    int64_t i = (int64_t)blockIdx.y * T2 + threadIdx.y;
    if (i >= n || j >= n)
        return;
    T v = ap_traits<T>::clean(w[i * n + j]);
    if (i == j && v > (T)0)
        v = (T)0;
    d[i * n + j] = v;
    if (pred)
        pred[i * n + j] = i != j && v < ap_traits<T>::inf() ? (int)i : -1;
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
    ap_init<T><<<grid, block, 0, b->stream>>>(w, d, pred, n);
    GKC_LAUNCHED(b, "apsp", "naive");
    for (int64_t k = 0; k < n; k++) {
        ap_step<T><<<grid, block, 0, b->stream>>>(d, pred, n, k);
        GKC_LAUNCHED(b, "apsp", "naive");
    }
    return ap_check_cycle<T>(b, d, n, "naive");
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

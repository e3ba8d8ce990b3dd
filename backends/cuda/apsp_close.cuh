/*
 * apsp_close.cuh - what apsp.cu's rungs share about the element type
 * (ap_traits: infinity, "no edge", the sum that knows i32's INF) and step
 * 1 of blocked Floyd-Warshall, closing a diagonal block: up to CLOSE
 * vertices in one thread block's shared memory (ap_close), up to GRID_MAX
 * in one cooperative launch (ap_close_grid).  Included by apsp.cu alone.
 */
#ifndef GPUK_CUDA_APSP_CLOSE_CUH
#define GPUK_CUDA_APSP_CLOSE_CUH

#include <cooperative_groups.h>
#include "cuda_internal.h"

namespace {

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

constexpr int CLOSE = 128;     /* the largest block closed in shared memory */
constexpr int CLOSE_NT = 1024;

/* Step 1 on an m x m block in shared memory (rows S apart), one barrier a
 * step: a thread owns column tid % COLS and every (NT / COLS)-th row from
 * tid / COLS, so a warp reads 32 consecutive cells of row k and one
 * broadcast cell of column k.  Row k is not written in step k (naive
 * skips it too), nor column k: d[i][k] + d[k][k] beats d[i][k] only when
 * d[k][k] < 0, a negative cycle the diagonal already shows; so no cell
 * read in a step is written in it.  ap_close: a block of m <= CLOSE at D
 * (rows ld apart) through shared memory. */
template <class T, int COLS, int NT>
__device__ __forceinline__ void ap_close_smem(T *s, int S, int m)
{
    constexpr int RG = NT / COLS;   /* row groups */
    int j = threadIdx.x % COLS, i0 = threadIdx.x / COLS;
    for (int k = 0; k < m; k++) {
        if (j < m && j != k) {
            T y = s[k * S + j];
            for (int i = i0; i < m; i += RG) {
                T c;
                if (i != k && ap_traits<T>::sum(s[i * S + k], y, &c) && c < s[i * S + j])
                    s[i * S + j] = c;
            }
        }
        __syncthreads();
    }
}

template <class T>
__global__ void __launch_bounds__(CLOSE_NT) ap_close(T *D, int64_t ld, int m)
{
    extern __shared__ __align__(16) unsigned char ap_smem[];
    T *s = reinterpret_cast<T *>(ap_smem);
    constexpr int RG = CLOSE_NT / CLOSE;
    int j = threadIdx.x % CLOSE, i0 = threadIdx.x / CLOSE;
    if (j < m)
        for (int i = i0; i < m; i += RG)
            s[i * m + j] = D[i * ld + j];
    __syncthreads();
    ap_close_smem<T, CLOSE, CLOSE_NT>(s, m, m);
    if (j < m)
        for (int i = i0; i < m; i += RG)
            D[i * ld + j] = s[i * m + j];
}

/* Step 1 for CLOSE < m <= GRID_MAX vertices in one cooperative launch: the
 * blocked steps on tiles of GT, a grid barrier after each phase.  P1 closes
 * tile (K, K) in one block's shared memory as ap_close does; P2 makes the
 * tiles of block row and column K D_KK (x) D_KJ and D_IK (x) D_KK, each
 * read whole into shared memory before it is written; P3 folds D_IK (x)
 * D_KJ into the others.  By ap_steps' recursion a 1024-vertex block took
 * ~40 launches of small grids, 3.6 ms on an H100, and the distributed apsp
 * closes one every step (bench/NOTES.md, "A closure in one launch"). */
constexpr int GT = 64, GT_NT = 256, GRID_MAX = 1024;

template <class T>
__device__ void ap_tile_load(T *s, const T *p, int64_t ld, int rows, int cols)
{
    for (int e = threadIdx.x; e < GT * GT; e += GT_NT) {
        int i = e / GT, j = e % GT;
        s[e] = i < rows && j < cols ? p[i * ld + j] : ap_traits<T>::inf();
    }
}

/* r (rows x cols at p) = min(r if ACC else INF, a (x) b) over kw, a and b
 * tiles in shared memory (INF past their edges); a thread owns column
 * tid % GT and every fourth row from tid / GT. */
template <class T, bool ACC>
__device__ void ap_tile_prod(T *p, int64_t ld, int rows, int cols, const T *a, const T *b, int kw)
{
    int j = threadIdx.x % GT, i0 = threadIdx.x / GT;
    constexpr int RG = GT_NT / GT;
    T v[GT / RG];
#pragma unroll
    for (int q = 0; q < GT / RG; q++) {
        int i = i0 + RG * q;
        v[q] = ACC && i < rows && j < cols ? p[i * ld + j] : ap_traits<T>::inf();
    }
    for (int k = 0; k < kw; k++) {
        T y = b[k * GT + j];
#pragma unroll
        for (int q = 0; q < GT / RG; q++) {
            T c;
            if (ap_traits<T>::sum(a[(i0 + RG * q) * GT + k], y, &c) && c < v[q])
                v[q] = c;
        }
    }
#pragma unroll
    for (int q = 0; q < GT / RG; q++) {
        int i = i0 + RG * q;
        if (i < rows && j < cols)
            p[i * ld + j] = v[q];
    }
}

template <class T>
__global__ void __launch_bounds__(GT_NT) ap_close_grid(T *D, int64_t ld, int m)
{
    namespace cg = cooperative_groups;
    cg::grid_group grid = cg::this_grid();
    extern __shared__ __align__(16) unsigned char ap_gsmem[];
    T *s1 = reinterpret_cast<T *>(ap_gsmem), *s2 = s1 + GT * GT;
    int nb = (m + GT - 1) / GT;
    auto width = [&](int K) { return m - K * GT < GT ? m - K * GT : GT; };
    auto tile = [&](int I, int J) { return D + (int64_t)I * GT * ld + (int64_t)J * GT; };
    for (int K = 0; K < nb; K++) {
        int kw = width(K);
        T *dkk = tile(K, K);
        if (blockIdx.x == 0) {   /* P1: ap_close's steps on a tile of kw */
            ap_tile_load(s1, dkk, ld, kw, kw);
            __syncthreads();
            ap_close_smem<T, GT, GT_NT>(s1, GT, kw);
            for (int e = threadIdx.x; e < GT * GT; e += GT_NT)
                if (e / GT < kw && e % GT < kw)
                    dkk[(e / GT) * ld + e % GT] = s1[e];
        }
        grid.sync();
        for (int task = blockIdx.x; task < 2 * (nb - 1); task += gridDim.x) {   /* P2 */
            bool row = task < nb - 1;
            int o = row ? task : task - (nb - 1), J = o < K ? o : o + 1, w = width(J);
            T *out = row ? tile(K, J) : tile(J, K);
            ap_tile_load(s1, row ? dkk : out, ld, row ? kw : w, kw);
            ap_tile_load(s2, row ? out : dkk, ld, kw, row ? w : kw);
            __syncthreads();
            ap_tile_prod<T, false>(out, ld, row ? kw : w, row ? w : kw, s1, s2, kw);
            __syncthreads();
        }
        grid.sync();
        for (int task = blockIdx.x; task < (nb - 1) * (nb - 1); task += gridDim.x) {   /* P3 */
            int I = task / (nb - 1), J = task % (nb - 1);
            I += I >= K, J += J >= K;
            ap_tile_load(s1, tile(I, K), ld, width(I), kw);
            ap_tile_load(s2, tile(K, J), ld, kw, width(J));
            __syncthreads();
            ap_tile_prod<T, true>(tile(I, J), ld, width(I), width(J), s1, s2, kw);
            __syncthreads();
        }
        grid.sync();
    }
}

/* Launch ap_close_grid on the m x m block at D, or *ran = false where the
 * device cannot run it (no cooperative launch): the caller recurses. */
template <class T>
gpuk_status ap_close_coop(gpuk_bctx *b, T *D, int64_t ld, int64_t m, const char *rung, bool *ran)
{
    int dev = 0, coop = 0, per = 0, mi = (int)m;
    size_t smem = 2 * (size_t)(GT * GT) * sizeof(T);
    auto kern = ap_close_grid<T>;
    *ran = cudaGetDevice(&dev) == cudaSuccess &&
           cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev) == cudaSuccess && coop &&
           cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem) ==
               cudaSuccess &&
           cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, kern, GT_NT, smem) == cudaSuccess &&
           per > 0;
    if (!*ran) {
        (void)cudaGetLastError();
        return GPUK_OK;
    }
    /* at most half the SMs: all blocks must be resident at once, also
     * beside another stream's kernels (the distributed layer's NCCL) */
    int64_t nb = gkc_cdiv(m, GT), tasks = nb > 2 ? (nb - 1) * (nb - 1) : 2;
    int64_t cap = gkc_sms(b) / 2 > 1 ? gkc_sms(b) / 2 : 1;
    unsigned g = (unsigned)(tasks < cap ? tasks : cap);
    void *kargs[] = { &D, &ld, &mi };
    GKC_CUDA(b, cudaLaunchCooperativeKernel((const void *)kern, dim3(g), dim3(GT_NT), kargs, smem,
                                            b->stream),
             "apsp: the cooperative closure (cudaLaunchCooperativeKernel)");
    GKC_LAUNCHED(b, "apsp", rung);
    return GPUK_OK;
}

}  // namespace

#endif /* GPUK_CUDA_APSP_CLOSE_CUH */

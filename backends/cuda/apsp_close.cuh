/*
 * apsp_close.cuh - what apsp.cu's rungs share about the element type
 * (ap_traits: infinity, "no edge", the sum that knows i32's INF) and step
 * 1 of blocked Floyd-Warshall, closing a diagonal block: up to CLOSE
 * vertices in one thread block's registers (ap_close), up to GRID_MAX in
 * one cooperative launch (ap_close_grid).  Included by apsp.cu alone.
 */
#ifndef GPUK_CUDA_APSP_CLOSE_CUH
#define GPUK_CUDA_APSP_CLOSE_CUH

#include <cooperative_groups.h>
#include <type_traits>
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

/* x = min(x, a + y) where a + y is a path (ap_traits::sum).  CHK = false
 * where no value is negative (i32 without negative weights, or any float):
 * then INF + y is no shorter than INF and, INF being 0x3FFFFFFF, two of
 * them do not overflow, so i32 takes Hopper's fused add-min unchecked. */
template <class T, bool CHK>
__device__ __forceinline__ T ap_addmin(T a, T y, T x)
{
    if constexpr (!CHK && std::is_same<T, int>::value) {
        return __viaddmin_s32(a, y, x);
    } else {
        T c;
        return ap_traits<T>::sum(a, y, &c) && c < x ? c : x;
    }
}

constexpr int CLOSE = 128;     /* the largest block closed by one thread block */
constexpr int CLOSE_NT = 1024;

/* Step 1 on an m x m block held in registers: a thread owns column j =
 * tid % COLS and the ROWS rows from r0 = (tid / COLS) ROWS in v (INF past
 * the block's edges).  Step k reads row k and column k as they are after
 * step k - 1: their owners publish them into buf (4 COLS values, row and
 * column by k's parity), so one barrier a step suffices: the copy step k
 * reads is next written in step k + 2, after every thread has passed step
 * k + 1's barrier.  Row k and column k are not updated in step k, as in
 * naive: d[i][k] + d[k][k] beats d[i][k] only when d[k][k] < 0, a
 * negative cycle the diagonal already shows. */
template <class T, int COLS, int NT, bool CHK>
__device__ __forceinline__ void ap_close_regs(T (&v)[COLS * COLS / NT], T *buf, int m)
{
    constexpr int ROWS = COLS * COLS / NT;
    static_assert(ROWS % 2 == 0, "k's parity is q's");
    int j = threadIdx.x % COLS, r0 = threadIdx.x / COLS * ROWS;
    for (int kb = 0; kb < m; kb += ROWS) {
#pragma unroll
        for (int q = 0; q < ROWS; q++) {
            int k = kb + q;
            if (k < m) {   /* the same for the whole block */
                T *row = buf + (q & 1) * 2 * COLS, *col = row + COLS;
                if (r0 == kb)
                    row[j] = v[q];
                if (j == k) {
#pragma unroll
                    for (int p = 0; p < ROWS; p++)
                        col[r0 + p] = v[p];
                }
                __syncthreads();
                if (j != k) {
                    T y = row[j];
#pragma unroll
                    for (int p = 0; p < ROWS; p++)
                        if (r0 + p != k)
                            v[p] = ap_addmin<T, CHK>(col[r0 + p], y, v[p]);
                }
            }
        }
    }
}

/* The m x m block at D (rows ld apart, m <= COLS) into v, closed, and
 * back.  Not inlined: ap_close_grid calls it twice, and inlined both
 * copies pushed that kernel past the 128 registers of two blocks an SM. */
template <class T, int COLS, int NT>
__device__ __noinline__ void ap_close_block(T *D, int64_t ld, int m, bool chk, T *buf)
{
    constexpr int ROWS = COLS * COLS / NT;
    int j = threadIdx.x % COLS, r0 = threadIdx.x / COLS * ROWS;
    T v[ROWS];
#pragma unroll
    for (int p = 0; p < ROWS; p++)
        v[p] = r0 + p < m && j < m ? D[(r0 + p) * ld + j] : ap_traits<T>::inf();
    if (chk)
        ap_close_regs<T, COLS, NT, true>(v, buf, m);
    else
        ap_close_regs<T, COLS, NT, false>(v, buf, m);
#pragma unroll
    for (int p = 0; p < ROWS; p++)
        if (r0 + p < m && j < m)
            D[(r0 + p) * ld + j] = v[p];
}

/* Whether the closure must test INF: i32 with a negative value (neg: the
 * flag ap_init sets; NULL: unknown, so test). */
template <class T>
__device__ bool ap_checked(const int *neg)
{
    if constexpr (std::is_same<T, int>::value)
        return neg == nullptr || *neg != 0;
    else
        return false;
}

/* A block of m <= CLOSE vertices at D in one thread block. */
template <class T>
__global__ void __launch_bounds__(CLOSE_NT) ap_close(T *D, int64_t ld, int m, const int *neg)
{
    __shared__ T buf[4 * CLOSE];
    ap_close_block<T, CLOSE, CLOSE_NT>(D, ld, m, ap_checked<T>(neg), buf);
}

/* Step 1 for CLOSE < m <= GRID_MAX vertices in one cooperative launch: the
 * blocked steps on tiles of GT, a grid barrier after P2 and after P3.  Per
 * diagonal tile K: P2 makes the tiles of block row and column K D_KK (x)
 * D_KJ and D_IK (x) D_KK (each read whole into shared memory before it is
 * written); P3 folds D_IK (x) D_KJ into the others.  P1, closing tile K
 * in one thread block, is on the critical path, so block 0 runs P3's
 * tile (K + 1, K + 1) first and closes it while the other blocks run the
 * rest of P3: two barriers a tile instead of three.  By ap_steps'
 * recursion a 1024-vertex block took ~40 launches of small grids, 3.6 ms
 * on an H100 (bench/NOTES.md, "A closure in one launch"). */
constexpr int GT = 64, GT_NT = 256, GRID_MAX = 1024;
constexpr int GT_E = GT * GT / GT_NT;   /* a thread's share of a tile */

/* A tile (rows x cols at p, INF past them) into shared memory: every
 * load issued before the first store. */
template <class T>
__device__ void ap_tile_load(T *s, const T *p, int64_t ld, int rows, int cols)
{
    T t[GT_E];
#pragma unroll
    for (int q = 0; q < GT_E; q++) {
        int e = threadIdx.x + q * GT_NT, i = e / GT, j = e % GT;
        t[q] = i < rows && j < cols ? p[i * ld + j] : ap_traits<T>::inf();
    }
#pragma unroll
    for (int q = 0; q < GT_E; q++)
        s[threadIdx.x + q * GT_NT] = t[q];
}

/* Four consecutive elements of shared memory (16-byte aligned). */
template <class T>
__device__ __forceinline__ void ap_ld4(const T *p, T (&r)[4])
{
    if constexpr (sizeof(T) == 4) {
        int4 x = *reinterpret_cast<const int4 *>(p);
        r[0] = *reinterpret_cast<T *>(&x.x), r[1] = *reinterpret_cast<T *>(&x.y);
        r[2] = *reinterpret_cast<T *>(&x.z), r[3] = *reinterpret_cast<T *>(&x.w);
    } else {
        double2 x = *reinterpret_cast<const double2 *>(p), y = *reinterpret_cast<const double2 *>(p + 2);
        r[0] = x.x, r[1] = x.y, r[2] = y.x, r[3] = y.y;
    }
}

/* r (rows x cols at p) = min(r if acc else INF, a (x) b), a and b whole
 * tiles in shared memory (INF past their edges, so every k runs).  A
 * thread holds a 4 x 4 piece: rows 4 (tid / 16), columns 4 (tid % 16);
 * a step of 4 k reads four rows of a and four of b with 16-byte loads
 * (a quarter warp shares a's rows, reads 128 consecutive bytes of b). */
template <class T, bool CHK>
__device__ void ap_tile_prod(T *p, int64_t ld, int rows, int cols, const T *a, const T *b, bool acc)
{
    int c0 = threadIdx.x % 16 * 4, i0 = threadIdx.x / 16 * 4;
    T v[4][4];
#pragma unroll
    for (int r = 0; r < 4; r++)
#pragma unroll
        for (int c = 0; c < 4; c++)
            v[r][c] = acc && i0 + r < rows && c0 + c < cols ? p[(i0 + r) * ld + c0 + c]
                                                           : ap_traits<T>::inf();
#pragma unroll 1
    for (int k = 0; k < GT; k += 4) {
        T x[4][4];
#pragma unroll
        for (int r = 0; r < 4; r++)
            ap_ld4(a + (i0 + r) * GT + k, x[r]);
#pragma unroll
        for (int q = 0; q < 4; q++) {
            T y[4];
            ap_ld4(b + (k + q) * GT + c0, y);
#pragma unroll
            for (int r = 0; r < 4; r++)
#pragma unroll
                for (int c = 0; c < 4; c++)
                    v[r][c] = ap_addmin<T, CHK>(x[r][q], y[c], v[r][c]);
        }
    }
#pragma unroll
    for (int r = 0; r < 4; r++)
#pragma unroll
        for (int c = 0; c < 4; c++)
            if (i0 + r < rows && c0 + c < cols)
                p[(i0 + r) * ld + c0 + c] = v[r][c];
}

/* out = min(out if acc, A (x) B) for tiles at pa, pb (rows x kw, kw x cols):
 * both read whole before out is written (out may be one of them). */
template <class T>
__device__ void ap_tile_task(T *out, const T *pa, const T *pb, int64_t ld, int rows, int kw,
                             int cols, bool acc, bool chk, T *s1, T *s2)
{
    ap_tile_load(s1, pa, ld, rows, kw);
    ap_tile_load(s2, pb, ld, kw, cols);
    __syncthreads();
    if (chk)
        ap_tile_prod<T, true>(out, ld, rows, cols, s1, s2, acc);
    else
        ap_tile_prod<T, false>(out, ld, rows, cols, s1, s2, acc);
    __syncthreads();
}

/* ap_close_grid's shared memory: two tiles (s1, s2) and buf, 4 GT values. */
template <class T>
constexpr size_t ap_grid_smem = (2 * (size_t)(GT * GT) + 4 * GT) * sizeof(T);

template <class T>
__global__ void __launch_bounds__(GT_NT, 2) ap_close_grid(T *D, int64_t ld, int m, const int *neg)
{
    namespace cg = cooperative_groups;
    cg::grid_group grid = cg::this_grid();
    extern __shared__ __align__(16) unsigned char ap_gsmem[];
    T *s1 = reinterpret_cast<T *>(ap_gsmem), *s2 = s1 + GT * GT, *buf = s2 + GT * GT;
    bool chk = ap_checked<T>(neg);
    int nb = (m + GT - 1) / GT, g = (int)gridDim.x;
    auto width = [&](int K) { return m - K * GT < GT ? m - K * GT : GT; };
    auto tile = [&](int I, int J) { return D + (int64_t)I * GT * ld + (int64_t)J * GT; };
    if (blockIdx.x == 0)
        ap_close_block<T, GT, GT_NT>(D, ld, width(0), chk, buf);
    grid.sync();
    for (int K = 0; K < nb; K++) {
        int kw = width(K);
        T *dkk = tile(K, K);
        for (int t = blockIdx.x; t < 2 * (nb - 1); t += g) {   /* P2 */
            bool row = t < nb - 1;
            int o = row ? t : t - (nb - 1), J = o < K ? o : o + 1, w = width(J);
            T *out = row ? tile(K, J) : tile(J, K);
            if (row)
                ap_tile_task(out, dkk, out, ld, kw, kw, w, false, chk, s1, s2);
            else
                ap_tile_task(out, out, dkk, ld, w, kw, kw, false, chk, s1, s2);
        }
        grid.sync();
        /* P3 over blocks 1.. (all of them if there is one), tile (K + 1,
         * K + 1) on block 0, which then closes it: P1 of step K + 1 */
        int next = K + 1 < nb ? K * (nb - 1) + K : -1;
        int w0 = g > 1 ? 1 : 0, nw = g > 1 ? g - 1 : 1;
        if (blockIdx.x == 0 && next >= 0) {
            ap_tile_task(tile(K + 1, K + 1), tile(K + 1, K), tile(K, K + 1), ld, width(K + 1), kw,
                         width(K + 1), true, chk, s1, s2);
            ap_close_block<T, GT, GT_NT>(tile(K + 1, K + 1), ld, width(K + 1), chk, buf);
        }
        if ((int)blockIdx.x >= w0)
            for (int t = (int)blockIdx.x - w0; t < (nb - 1) * (nb - 1); t += nw) {
                if (t == next)
                    continue;
                int I = t / (nb - 1), J = t % (nb - 1);
                I += I >= K, J += J >= K;
                ap_tile_task(tile(I, J), tile(I, K), tile(K, J), ld, width(I), kw, width(J), true,
                             chk, s1, s2);
            }
        grid.sync();
    }
}

/* How many blocks of ap_close_grid an SM of b's device holds (0: none, or
 * no cooperative launch), asked once a device (gkc_facts): the four
 * runtime queries cost microseconds, and a distributed apsp closes a
 * block every step. */
template <class T>
int ap_coop_per(gpuk_bctx *b)
{
    static gkc_facts facts;
    int f;
    if (facts.known(b->device, &f))
        return f;
    int coop = 0, per = 0;
    size_t smem = ap_grid_smem<T>;
    auto kern = ap_close_grid<T>;
    bool ok = cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, b->device) ==
                  cudaSuccess && coop &&
              cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem) ==
                  cudaSuccess &&
              cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, kern, GT_NT, smem) ==
                  cudaSuccess;
    if (!ok) {
        (void)cudaGetLastError();
        per = 0;
    }
    facts.keep(b->device, per);
    return per;
}

/* Launch ap_close_grid on the m x m block at D, or *ran = false where the
 * device cannot run it (no cooperative launch, or fewer SMs free than the
 * grid needs, as under MPS with a share of the SMs): the caller recurses. */
template <class T>
gpuk_status ap_close_coop(gpuk_bctx *b, T *D, int64_t ld, int64_t m, const int *neg,
                          const char *rung, bool *ran)
{
    int per = ap_coop_per<T>(b), mi = (int)m;
    *ran = per > 0;
    if (!*ran)
        return GPUK_OK;
    size_t smem = ap_grid_smem<T>;
    /* a block a task of P3, up to one per SM: at most half of what the
     * device holds at once, so all blocks are resident together also
     * beside another stream's kernels (the distributed layer's NCCL) */
    int64_t nb = gkc_cdiv(m, GT), tasks = (nb - 1) * (nb - 1);
    int64_t cap = per >= 2 ? gkc_sms(b) : gkc_sms(b) / 2;
    unsigned g = (unsigned)(tasks < cap ? tasks : cap > 1 ? cap : 1);
    void *kargs[] = { &D, &ld, &mi, &neg };
    cudaError_t e = cudaLaunchCooperativeKernel((const void *)ap_close_grid<T>, dim3(g),
                                                dim3(GT_NT), kargs, smem, b->stream);
    if (e == cudaErrorCooperativeLaunchTooLarge) {
        (void)cudaGetLastError();
        *ran = false;
        return GPUK_OK;
    }
    GKC_CUDA(b, e, "apsp: the cooperative closure (cudaLaunchCooperativeKernel)");
    GKC_LAUNCHED(b, "apsp", rung);
    return GPUK_OK;
}

}  // namespace

#endif /* GPUK_CUDA_APSP_CLOSE_CUH */

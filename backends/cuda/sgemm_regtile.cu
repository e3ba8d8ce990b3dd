/*
 * sgemm_regtile.cu - matmul rungs 4-7, after matmul.cu's `tiled`: register
 * tiling.  `tiled` does one FMA per two shared-memory loads, so the shared
 * pipe, not the FMA units, sets its pace.  Each rung here makes every loaded
 * value feed more FMAs from registers, or makes the loads cheaper.
 *
 * Same contract as matmul.cu: unit stride along rows, any row strides, any
 * size, the batch in blockIdx.z; cells outside the matrices load as 0 (they
 * add nothing), every accumulator starts from bias[col] (or 0), each output
 * is written once.  The float4 rungs take their 16-byte path only when every
 * row of every batch of a and b starts on a 16-byte boundary (gkc_mm_vec),
 * and even then load edge tiles element by element.
 *
 * Each kernel is written once over its element type T, for f32 and f64.
 * In double the float4 of a rung is 16 bytes still (a double2), so "four
 * values in one 16-byte load" becomes two loads: the same tiles and the
 * same order of FMAs (DFMA), twice the shared load instructions, and the
 * 8x8 register tiles hold 128 registers of accumulators.
 */
#include "cuda_internal.h"

namespace {

template <class T>
__device__ __forceinline__ T ld_or0(const T *p, int64_t i, int64_t rows, int64_t k, int64_t cols,
                                    int64_t ld)
{
    return (i < rows && k < cols) ? p[i * ld + k] : T(0);
}

/* 4. blocktile_1d: a 64x64 block tile, k depth 8, 512 threads, and each
 * thread computes a COLUMN of 8 outputs.  The B value of a step sits in a
 * register and feeds 8 FMAs, so shared loads per FMA drop from 2 (tiled)
 * to 1.125, and the block reuses each global load 64 times instead of 16. */
constexpr int B1 = 64, K1 = 8, R1 = 8;
template <class T>
__global__ void __launch_bounds__(512) matmul_blocktile_1d(gkc_mm_t<T> p, int64_t y0, int64_t z0)
{
    p = gkc_mm_at(p, z0 + blockIdx.z);
    __shared__ T as[B1][K1];
    __shared__ T bs[K1][B1];
    int t = threadIdx.x, col = t % B1, rg = t / B1;
    int64_t i0 = (y0 + blockIdx.y) * B1, j0 = (int64_t)blockIdx.x * B1, j = j0 + col;
    T acc[R1];
    T start = (p.bias && j < p.n) ? p.bias[j] : T(0);
#pragma unroll
    for (int r = 0; r < R1; r++)
        acc[r] = start;
    int ar = t / K1, ak = t % K1, bk = t / B1, bc = t % B1;
    for (int64_t k0 = 0; k0 < p.k; k0 += K1) {
        as[ar][ak] = ld_or0(p.a, i0 + ar, p.m, k0 + ak, p.k, p.lda);
        bs[bk][bc] = ld_or0(p.b, k0 + bk, p.k, j0 + bc, p.n, p.ldb);
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < K1; kk++) {
            T bv = bs[kk][col];
#pragma unroll
            for (int r = 0; r < R1; r++)
                acc[r] += as[rg * R1 + r][kk] * bv;
        }
        __syncthreads();
    }
#pragma unroll
    for (int r = 0; r < R1; r++) {
        int64_t i = i0 + rg * R1 + r;
        if (i < p.m && j < p.n)
            p.c[i * p.ldc + j] = acc[r];
    }
}

/* 5. blocktile_2d: each thread owns an 8x8 block of outputs (128x128 block
 * tile, 256 threads): per k step it loads 8 values of A and 8 of B into
 * registers and does 64 FMAs, 4 FMAs per shared load (1d: 0.9). */
constexpr int B2 = 128, K2 = 8, R2 = 8;
template <class T>
__global__ void __launch_bounds__(256) matmul_blocktile_2d(gkc_mm_t<T> p, int64_t y0, int64_t z0)
{
    p = gkc_mm_at(p, z0 + blockIdx.z);
    __shared__ T as[B2][K2];
    __shared__ T bs[K2][B2];
    int t = threadIdx.x, ty = t / 16, tx = t % 16;
    int64_t i0 = (y0 + blockIdx.y) * B2, j0 = (int64_t)blockIdx.x * B2;
    T acc[R2][R2];
#pragma unroll
    for (int c = 0; c < R2; c++) {
        int64_t j = j0 + tx * R2 + c;
        T start = (p.bias && j < p.n) ? p.bias[j] : T(0);
#pragma unroll
        for (int r = 0; r < R2; r++)
            acc[r][c] = start;
    }
    for (int64_t k0 = 0; k0 < p.k; k0 += K2) {
#pragma unroll
        for (int q = 0; q < 4; q++) {
            int e = t + 256 * q;
            as[e / K2][e % K2] = ld_or0(p.a, i0 + e / K2, p.m, k0 + e % K2, p.k, p.lda);
            bs[e / B2][e % B2] = ld_or0(p.b, k0 + e / B2, p.k, j0 + e % B2, p.n, p.ldb);
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < K2; kk++) {
            T x[R2], y[R2];
#pragma unroll
            for (int q = 0; q < R2; q++) {
                x[q] = as[ty * R2 + q][kk];
                y[q] = bs[kk][tx * R2 + q];
            }
#pragma unroll
            for (int r = 0; r < R2; r++)
#pragma unroll
                for (int c = 0; c < R2; c++)
                    acc[r][c] += x[r] * y[c];
        }
        __syncthreads();
    }
#pragma unroll
    for (int r = 0; r < R2; r++) {
        int64_t i = i0 + ty * R2 + r;
#pragma unroll
        for (int c = 0; c < R2; c++) {
            int64_t j = j0 + tx * R2 + c;
            if (i < p.m && j < p.n)
                p.c[i * p.ldc + j] = acc[r][c];
        }
    }
}

/* The global -> register half of a 128x8 tile of A and an 8x128 tile of B
 * for rungs 6 and 7: four consecutive values of each per thread (a float4,
 * or two double2), 16-byte loads when VEC and all four lie inside the
 * matrix, else element by element. */
template <bool VEC, class T>
__device__ __forceinline__ void ld4_or0(T *x, const T *p, int64_t i, int64_t rows, int64_t k,
                                        int64_t cols, int64_t ld)
{
    if (VEC && i < rows && k + 3 < cols) {
        gkc_ld4(x, p + i * ld + k);
        return;
    }
#pragma unroll
    for (int q = 0; q < 4; q++)
        x[q] = ld_or0(p, i, rows, k + q, cols, ld);
}

/* Stage one k-slice: A transposed into as[k][row] (so a thread's 8 row
 * values are contiguous and load as two float4), B as is.  as rows are
 * padded by 4 so the two k halves of a warp's transposed stores fall in
 * different banks. */
constexpr int PAD = 4;
template <bool VEC, class T>
__device__ __forceinline__ void stage_tiles(const gkc_mm_t<T> &p, int64_t i0, int64_t j0,
                                            int64_t k0, T (*as)[B2 + PAD], T (*bs)[B2])
{
    int t = threadIdx.x;
    int arow = t >> 1, akq = (t & 1) * 4, bk = t >> 5, bcol = (t & 31) * 4;
    T x[4], y[4];
    ld4_or0<VEC>(x, p.a, i0 + arow, p.m, k0 + akq, p.k, p.lda);
#pragma unroll
    for (int q = 0; q < 4; q++)
        as[akq + q][arow] = x[q];
    ld4_or0<VEC>(y, p.b, k0 + bk, p.k, j0 + bcol, p.n, p.ldb);
    gkc_st4(&bs[bk][bcol], y);
}

/* The 8x8 outer-product step shared by rungs 6 and 7: the lane's 8 values
 * of A are the four at xa and the four at xa + DA, its 8 of B the four at
 * yb and at yb + DB (vec4: contiguous, DA = DB = 4; warptile: 16 rows and
 * 32 columns apart). */
template <int DA, int DB, class T>
__device__ __forceinline__ void fma8x8(T (&acc)[8][8], const T *xa, const T *yb)
{
    T x[8], y[8];
    gkc_ld4(x, xa);
    gkc_ld4(x + 4, xa + DA);
    gkc_ld4(y, yb);
    gkc_ld4(y + 4, yb + DB);
#pragma unroll
    for (int r = 0; r < 8; r++)
#pragma unroll
        for (int c = 0; c < 8; c++)
            acc[r][c] += x[r] * y[c];
}

/* Writes the 8x8 tile whose rows are rowof(r) and columns colof(c). */
template <class T, class RowOf, class ColOf>
__device__ __forceinline__ void store8x8(const gkc_mm_t<T> &p, const T (&acc)[8][8], RowOf rowof,
                                         ColOf colof)
{
#pragma unroll
    for (int r = 0; r < 8; r++) {
        int64_t i = rowof(r);
        if (i >= p.m)
            continue;
#pragma unroll
        for (int c = 0; c < 8; c++) {
            int64_t j = colof(c);
            if (j < p.n)
                p.c[i * p.ldc + j] = acc[r][c];
        }
    }
}

template <class T, class ColOf>
__device__ __forceinline__ void init8x8(const gkc_mm_t<T> &p, T (&acc)[8][8], ColOf colof)
{
#pragma unroll
    for (int c = 0; c < 8; c++) {
        int64_t j = colof(c);
        T start = (p.bias && j < p.n) ? p.bias[j] : T(0);
#pragma unroll
        for (int r = 0; r < 8; r++)
            acc[r][c] = start;
    }
}

/* 6. vec4: the same 8x8 thread tile, with 16-byte accesses: one float4
 * global load per operand per thread per slice (2d: 8 scalar loads), A
 * stored transposed so the 8 A values of a step are two float4 shared loads,
 * and B's 8 values two more: 4 shared load instructions per 64 FMAs instead
 * of 16.  A thread's 8 columns are contiguous (tx*8), so a warp's float4
 * reads of bs stride 32 bytes: 4-way bank conflicts remain. */
template <bool VEC, class T>
__global__ void __launch_bounds__(256) matmul_vec4(gkc_mm_t<T> p, int64_t y0, int64_t z0)
{
    p = gkc_mm_at(p, z0 + blockIdx.z);
    __shared__ __align__(16) T as[K2][B2 + PAD];
    __shared__ __align__(16) T bs[K2][B2];
    int t = threadIdx.x, ty = t / 16, tx = t % 16;
    int64_t i0 = (y0 + blockIdx.y) * B2, j0 = (int64_t)blockIdx.x * B2;
    T acc[8][8];
    init8x8(p, acc, [&](int c) { return j0 + tx * 8 + c; });
    for (int64_t k0 = 0; k0 < p.k; k0 += K2) {
        stage_tiles<VEC>(p, i0, j0, k0, as, bs);
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < K2; kk++)
            fma8x8<4, 4>(acc, &as[kk][ty * 8], &bs[kk][tx * 8]);
        __syncthreads();
    }
    store8x8(p, acc, [&](int r) { return i0 + ty * 8 + r; },
             [&](int c) { return j0 + tx * 8 + c; });
}

/* 7. warptile: the 8 warps split the block tile into 32x64 warp tiles (4
 * down, 2 across), the 32 lanes of a warp are 4 x 8, and each lane's 8x8
 * is four 4x4 pieces 16 rows and 32 columns apart.  A warp's float4 reads
 * then cover 4 (A) and 8 (B) consecutive float4s: one shared wavefront
 * each, no bank conflicts (vec4: 4-way on B), and the warp touches a
 * compact 32x64 patch. */
template <bool VEC, class T>
__global__ void __launch_bounds__(256) matmul_warptile(gkc_mm_t<T> p, int64_t y0, int64_t z0)
{
    p = gkc_mm_at(p, z0 + blockIdx.z);
    __shared__ __align__(16) T as[K2][B2 + PAD];
    __shared__ __align__(16) T bs[K2][B2];
    int t = threadIdx.x, warp = t >> 5, lane = t & 31;
    int wm = (warp >> 1) * 32, wn = (warp & 1) * 64;   /* warp tile origin */
    int lm = (lane >> 3) * 4, ln = (lane & 7) * 4;       /* lane's 4x4 origin */
    int64_t i0 = (y0 + blockIdx.y) * B2, j0 = (int64_t)blockIdx.x * B2;
    auto rowof = [&](int r) { return i0 + wm + lm + (r & 3) + (r >> 2) * 16; };
    auto colof = [&](int c) { return j0 + wn + ln + (c & 3) + (c >> 2) * 32; };
    T acc[8][8];
    init8x8(p, acc, colof);
    for (int64_t k0 = 0; k0 < p.k; k0 += K2) {
        stage_tiles<VEC>(p, i0, j0, k0, as, bs);
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < K2; kk++)
            fma8x8<16, 32>(acc, &as[kk][wm + lm], &bs[kk][wn + ln]);
        __syncthreads();
    }
    store8x8(p, acc, rowof, colof);
}

/* One launch helper for the four rungs: x over column tiles, y over row
 * tiles, z over the batch; l(p, ...) launches the kernel for p, the
 * operands in the call's dtype. */
template <class Launch>
gpuk_status launch(gpuk_bctx *b, const gpuk_args *args, const char *variant, int tile, Launch l)
{
    GKC_TRY(gkc_enter(b));
    auto go = [&](auto p) {
        return gkc_launch_grid(b, p.op, variant, gkc_cdiv(p.n, tile), gkc_cdiv(p.m, tile),
                               p.batch, [&](dim3 g, int64_t y0, int64_t z0) { l(p, g, y0, z0); });
    };
    if (args->dtype == GPUK_F64)
        return go(gkc_mm_from<double>(args));
    return go(gkc_mm_from<float>(args));
}

}  // namespace

GKC_KERNEL(gkc_matmul_blocktile_1d)
{
    cudaStream_t s = b->stream;
    return launch(b, args, "blocktile_1d", B1, [&](auto p, dim3 g, int64_t y0, int64_t z0) {
        matmul_blocktile_1d<<<g, 512, 0, s>>>(p, y0, z0);
    });
}

GKC_KERNEL(gkc_matmul_blocktile_2d)
{
    cudaStream_t s = b->stream;
    return launch(b, args, "blocktile_2d", B2, [&](auto p, dim3 g, int64_t y0, int64_t z0) {
        matmul_blocktile_2d<<<g, 256, 0, s>>>(p, y0, z0);
    });
}

GKC_KERNEL(gkc_matmul_vec4)
{
    cudaStream_t s = b->stream;
    return launch(b, args, "vec4", B2, [&](auto p, dim3 g, int64_t y0, int64_t z0) {
        using T = typename decltype(p)::elem;
        auto kern = gkc_mm_vec(&p) ? matmul_vec4<true, T> : matmul_vec4<false, T>;
        kern<<<g, 256, 0, s>>>(p, y0, z0);
    });
}

GKC_KERNEL(gkc_matmul_warptile)
{
    cudaStream_t s = b->stream;
    return launch(b, args, "warptile", B2, [&](auto p, dim3 g, int64_t y0, int64_t z0) {
        using T = typename decltype(p)::elem;
        auto kern = gkc_mm_vec(&p) ? matmul_warptile<true, T> : matmul_warptile<false, T>;
        kern<<<g, 256, 0, s>>>(p, y0, z0);
    });
}

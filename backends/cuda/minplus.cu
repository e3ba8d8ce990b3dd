/*
 * minplus.cu - r[i][j] = min_k a[i][k] + b[k][j], the (min, +) product
 * that shortest-path algorithms square: naive, transposed, tiled,
 * regtile_4x4, regtile_8x8 (float4 + register reuse), then pipelined:
 * regtile_8x8's register tile fed by the cp.async pipeline of
 * tile_pipe.cuh.  (Until ABI 2.0 the rungs were named v0..v5; those names
 * remain as aliases in table.cu.)
 *
 * Bit-exact on every rung: each term is one float add, rounded the same
 * everywhere, and min is exact in any order.  Cells outside the matrices
 * are +inf, which never wins a min; an empty k leaves the +inf start value.
 * No rung may use fast-math: fminf and a plain add only.  fminf skips a NaN
 * operand and, on the GPU, gives -0 for +0 and -0 in either order, so ties
 * need no fixing here (the CPU rungs fix them afterwards; the tie cases of
 * the op suite and of t_empty_cuda check it on the device).
 *
 * Update (gpuk_minplus_update, args->accumulate): each output's minimum
 * starts from its old value instead of +inf, read once before the k loop
 * (mp_start).  fminf(old, +inf) turns a NaN into +inf: left as it is, a
 * NaN start would survive a k of all-NaN sums or k = 0, where the rule
 * (and the CPU) says +inf.  From then on the old value is one more
 * candidate of the same order-free minimum.  The two register-tiled rungs
 * take the flag as a template argument, so their plain kernels are
 * unchanged.
 */
#include "cuda_internal.h"
#include "tile_pipe.cuh"

namespace {

struct mp {
    const float *a, *b;
    float *r;
    int64_t m, n, k, lda, ldb, ldr;
    bool upd;   /* an update: start from r's old values */
};

/* Is this call an update (ABI 2.2; a core of 2.1 never says)? */
bool mp_accumulate(const gpuk_args *args)
{
    return GPUK_ARGS_HAS(args, accumulate) && args->accumulate;
}

/* Where the minimum of output *o starts: +inf, or for an update its old
 * value with a NaN made +inf.  Only an output inside r may be read. */
__device__ __forceinline__ float mp_start(const float *o, bool upd)
{
    return upd ? fminf(*o, INFINITY) : INFINITY;
}

mp mp_from(const gpuk_args *args)
{
    mp p;
    p.a = (const float *)args->in[0].data;
    p.b = (const float *)args->in[1].data;
    p.r = (float *)args->out.data;
    p.m = args->in[0].shape[0];
    p.k = args->in[0].shape[1];
    p.n = args->in[1].shape[1];
    p.lda = args->in[0].stride[0];
    p.ldb = args->in[1].stride[0];
    p.ldr = args->out.stride[0];
    p.upd = mp_accumulate(args);
    return p;
}

constexpr int T = 16;

/* naive: one thread per output, threadIdx.x walking rows i.  A warp's
 * loads of a[i][k] are lda apart: 32 transactions per step. */
__global__ void minplus_naive(mp p, int64_t y0)
{
    int64_t i = (int64_t)blockIdx.x * T + threadIdx.x;
    int64_t j = (y0 + blockIdx.y) * T + threadIdx.y;
    if (i >= p.m || j >= p.n)
        return;
    float v = mp_start(p.r + i * p.ldr + j, p.upd);
    for (int64_t k = 0; k < p.k; k++)
        v = fminf(v, p.a[i * p.lda + k] + p.b[k * p.ldb + j]);
    p.r[i * p.ldr + j] = v;
}

/* transposed: same mapping, but a was transposed into at[k][m] first (a
 * scratch buffer of the context), so the warp's 32 rows i are 32
 * consecutive floats of at: one transaction per step instead of 32.  (When
 * squaring a distance matrix, r = d (x) d, one transposes d; with two
 * operands it is the one indexed by the fast thread index, a, that needs
 * it.) */
__global__ void minplus_transposed(mp p, const float *at, int64_t y0)
{
    int64_t i = (int64_t)blockIdx.x * T + threadIdx.x;
    int64_t j = (y0 + blockIdx.y) * T + threadIdx.y;
    if (i >= p.m || j >= p.n)
        return;
    float v = mp_start(p.r + i * p.ldr + j, p.upd);
    for (int64_t k = 0; k < p.k; k++)
        v = fminf(v, at[k * p.m + i] + p.b[k * p.ldb + j]);
    p.r[i * p.ldr + j] = v;
}

/* tiled: 16x16 tiles of a and b staged in shared memory; each global load
 * now serves 16 threads, and the inner loop reads only shared memory. */
__global__ void minplus_tiled(mp p, int64_t y0)
{
    __shared__ float as[T][T];
    __shared__ float bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int64_t j = (int64_t)blockIdx.x * T + tx;
    int64_t i = (y0 + blockIdx.y) * T + ty;
    float v = mp_start(p.r + i * p.ldr + j, p.upd && i < p.m && j < p.n);
    for (int64_t k0 = 0; k0 < p.k; k0 += T) {
        as[ty][tx] = (i < p.m && k0 + tx < p.k) ? p.a[i * p.lda + k0 + tx] : INFINITY;
        bs[ty][tx] = (k0 + ty < p.k && j < p.n) ? p.b[(k0 + ty) * p.ldb + j] : INFINITY;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < T; k++)
            v = fminf(v, as[ty][k] + bs[k][tx]);
        __syncthreads();
    }
    if (i < p.m && j < p.n)
        p.r[i * p.ldr + j] = v;
}

/* regtile_4x4: each thread owns a 4x4 block of outputs (rows ty+16r, cols
 * tx+16c of a 64x64 block tile), so each value loaded from shared memory
 * feeds 4 add+min steps from registers: 4x less shared traffic per
 * operation.  The a tile is stored k-major (as[k][row], padded) so the 4
 * row values of a step are one broadcast each. */
constexpr int T44 = 64, K44 = 16;
__global__ void minplus_regtile_4x4(mp p, int64_t y0)
{
    __shared__ float as[K44][T44 + 1];
    __shared__ float bs[K44][T44];
    int tx = threadIdx.x, ty = threadIdx.y;
    int64_t i0 = (y0 + blockIdx.y) * T44, j0 = (int64_t)blockIdx.x * T44;
    float v[4][4];
#pragma unroll
    for (int r = 0; r < 4; r++)
#pragma unroll
        for (int c = 0; c < 4; c++) {
            int64_t i = i0 + ty + 16 * r, j = j0 + tx + 16 * c;
            v[r][c] = mp_start(p.r + i * p.ldr + j, p.upd && i < p.m && j < p.n);
        }
    for (int64_t k0 = 0; k0 < p.k; k0 += K44) {
#pragma unroll
        for (int q = 0; q < 4; q++) {
            int64_t i = i0 + ty + 16 * q, k = k0 + tx;
            as[tx][ty + 16 * q] = (i < p.m && k < p.k) ? p.a[i * p.lda + k] : INFINITY;
            int64_t j = j0 + tx + 16 * q, kb = k0 + ty;
            bs[ty][tx + 16 * q] = (kb < p.k && j < p.n) ? p.b[kb * p.ldb + j] : INFINITY;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < K44; k++) {
            float x[4], y[4];
#pragma unroll
            for (int q = 0; q < 4; q++) {
                x[q] = as[k][ty + 16 * q];
                y[q] = bs[k][tx + 16 * q];
            }
#pragma unroll
            for (int r = 0; r < 4; r++)
#pragma unroll
                for (int c = 0; c < 4; c++)
                    v[r][c] = fminf(v[r][c], x[r] + y[c]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int r = 0; r < 4; r++)
#pragma unroll
        for (int c = 0; c < 4; c++) {
            int64_t i = i0 + ty + 16 * r, j = j0 + tx + 16 * c;
            if (i < p.m && j < p.n)
                p.r[i * p.ldr + j] = v[r][c];
        }
}

/* regtile_8x8: an 8x8 register tile per thread (128x128 block tile, k
 * depth 8), with float4 everywhere it pays: four 16-byte shared loads feed
 * 64 add+min steps (16 per loaded float, regtile_4x4 had 4), and the tiles
 * come from global memory as float4 when the rows are 16-byte aligned
 * (VEC), else element by element.  A thread's rows are ty*4+{0..3} and
 * 64+ty*4+{0..3}, its columns likewise from tx, so a warp's float4 reads of
 * bs are contiguous (no bank conflict); as is k-major and padded by 4 so
 * its transposed stores do not conflict. */
constexpr int T88 = 128, K88 = 8;
template <bool VEC, bool UPD>
__global__ void __launch_bounds__(256) minplus_regtile_8x8(mp p, int64_t y0)
{
    __shared__ __align__(16) float as[K88][T88 + 4];
    __shared__ __align__(16) float bs[K88][T88];
    int tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
    int64_t i0 = (y0 + blockIdx.y) * T88, j0 = (int64_t)blockIdx.x * T88;
    float v[8][8];
#pragma unroll
    for (int r = 0; r < 8; r++)
#pragma unroll
        for (int c = 0; c < 8; c++) {
            int64_t i = i0 + (r < 4 ? ty * 4 + r : 64 + ty * 4 + r - 4);
            int64_t j = j0 + (c < 4 ? tx * 4 + c : 64 + tx * 4 + c - 4);
            v[r][c] = mp_start(p.r + i * p.ldr + j, UPD && i < p.m && j < p.n);
        }
    int arow = t >> 1, akq = (t & 1) * 4;      /* this thread's float4 of the a tile */
    int bk = t >> 5, bcol = (t & 31) * 4;      /* and of the b tile */
    for (int64_t k0 = 0; k0 < p.k; k0 += K88) {
        int64_t i = i0 + arow, k = k0 + akq;
        float4 x;
        if (VEC && i < p.m && k + 3 < p.k) {
            x = *(const float4 *)(p.a + i * p.lda + k);
        } else {
            const float *ar = p.a + i * p.lda;
            bool in = i < p.m;
            x.x = in && k + 0 < p.k ? ar[k + 0] : INFINITY;
            x.y = in && k + 1 < p.k ? ar[k + 1] : INFINITY;
            x.z = in && k + 2 < p.k ? ar[k + 2] : INFINITY;
            x.w = in && k + 3 < p.k ? ar[k + 3] : INFINITY;
        }
        as[akq + 0][arow] = x.x;
        as[akq + 1][arow] = x.y;
        as[akq + 2][arow] = x.z;
        as[akq + 3][arow] = x.w;
        int64_t kb = k0 + bk, j = j0 + bcol;
        float4 y;
        if (VEC && kb < p.k && j + 3 < p.n) {
            y = *(const float4 *)(p.b + kb * p.ldb + j);
        } else {
            const float *br = p.b + kb * p.ldb;
            bool in = kb < p.k;
            y.x = in && j + 0 < p.n ? br[j + 0] : INFINITY;
            y.y = in && j + 1 < p.n ? br[j + 1] : INFINITY;
            y.z = in && j + 2 < p.n ? br[j + 2] : INFINITY;
            y.w = in && j + 3 < p.n ? br[j + 3] : INFINITY;
        }
        *(float4 *)&bs[bk][bcol] = y;
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < K88; kk++) {
            float4 a0 = *(const float4 *)&as[kk][ty * 4];
            float4 a1 = *(const float4 *)&as[kk][64 + ty * 4];
            float4 b0 = *(const float4 *)&bs[kk][tx * 4];
            float4 b1 = *(const float4 *)&bs[kk][64 + tx * 4];
            float xa[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            float yb[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int r = 0; r < 8; r++)
#pragma unroll
                for (int c = 0; c < 8; c++)
                    v[r][c] = fminf(v[r][c], xa[r] + yb[c]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int r = 0; r < 8; r++) {
        int64_t i = i0 + (r < 4 ? ty * 4 + r : 64 + ty * 4 + r - 4);
        if (i >= p.m)
            continue;
#pragma unroll
        for (int c = 0; c < 8; c++) {
            int64_t j = j0 + (c < 4 ? tx * 4 + c : 64 + tx * 4 + c - 4);
            if (j < p.n)
                p.r[i * p.ldr + j] = v[r][c];
        }
    }
}

/* pipelined: the 8x8 register tile of regtile_8x8 in the warp-tiled
 * layout, fed by the 3-stage cp.async pipeline (tile_pipe.cuh): the copies
 * of the next two k slices fly while one is computed, one barrier per 16 k
 * (regtile_8x8: two per 8), and no registers or instructions stage the
 * tiles.  The compute loop is the add+min micro-kernel: per k step four
 * float4 shared loads and 64 FADD + 64 FMNMX, the two instruction kinds on
 * different pipes.  cp.async zero-fills cells past k, and 0 is not neutral
 * for min, so the last slice sets them to +inf first (rows and columns past
 * the edge only reach outputs that are never stored). */
constexpr int KP = 16;
template <bool VEC, bool UPD>
__global__ void __launch_bounds__(gkc_pipe::NT, 2) minplus_pipelined(gkc_mm p, int64_t y0)
{
    using namespace gkc_pipe;
    constexpr int BK = KP, SA = geom<float, BK>::SA;
    extern __shared__ __align__(16) float smem[];
    lane_tile lt;
    int64_t i0 = (y0 + blockIdx.y) * BM, j0 = (int64_t)blockIdx.x * BN;
    /* an update's 64 loads go out before the pipeline's first copies; they
     * land in the registers of the tile itself */
    float v[8][8];
#pragma unroll
    for (int r = 0; r < 8; r++)
#pragma unroll
        for (int c = 0; c < 8; c++) {
            int64_t i = i0 + lt.row(r), j = j0 + lt.col(c);
            v[r][c] = mp_start(p.c + i * p.ldc + j, UPD && i < p.m && j < p.n);
        }
    auto fix = [](float *as, float *bs, int kvalid) {
        for (int e = threadIdx.x; e < BM * BK; e += NT) {
            int row = e / BK, k = e % BK;     /* as: [row][k] */
            if (k >= kvalid)
                as[row * SA + k] = INFINITY;
            if (e / BN >= kvalid)             /* bs: [k][col] */
                bs[e] = INFINITY;
        }
    };
    run<geom<float, BK>, VEC>(p, smem, i0, j0, 0, p.k, fix, [&](const float *as, const float *bs) {
#pragma unroll
        for (int kc = 0; kc < BK; kc += 4) {
            float4 a[8];
#pragma unroll
            for (int r = 0; r < 8; r++)
                a[r] = *(const float4 *)&as[lt.row(r) * SA + kc];
#pragma unroll
            for (int kk = 0; kk < 4; kk++) {
                const float *brow = bs + (kc + kk) * BN + lt.wn + lt.ln;
                float4 b0 = *(const float4 *)brow, b1 = *(const float4 *)(brow + 32);
                float y[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
                for (int r = 0; r < 8; r++) {
                    float x = gkc_f4(a[r], kk);
#pragma unroll
                    for (int c = 0; c < 8; c++)
                        v[r][c] = fminf(v[r][c], x + y[c]);
                }
            }
        }
    });
#pragma unroll
    for (int r = 0; r < 8; r++) {
        int64_t i = i0 + lt.row(r);
        if (i >= p.m)
            continue;
#pragma unroll
        for (int c = 0; c < 8; c++) {
            int64_t j = j0 + lt.col(c);
            if (j < p.n)
                p.c[i * p.ldc + j] = v[r][c];
        }
    }
}

}  // namespace

GKC_KERNEL(gkc_minplus_naive)
{
    GKC_TRY(gkc_enter(b));
    mp p = mp_from(args);
    cudaStream_t s = b->stream;
    return gkc_launch_grid(b, "minplus", "naive", gkc_cdiv(p.m, T), gkc_cdiv(p.n, T), 1,
                           [&](dim3 g, int64_t y0, int64_t) {
                               minplus_naive<<<g, dim3(T, T), 0, s>>>(p, y0);
                           });
}

GKC_KERNEL(gkc_minplus_transposed)
{
    GKC_TRY(gkc_enter(b));
    mp p = mp_from(args);
    void *at = NULL;
    GKC_TRY(gkc_scratch(b, GKC_SLOT_A, (size_t)(p.m * p.k) * sizeof(float), &at));
    GKC_TRY(gkc_transpose_into(b, p.a, p.m, p.k, p.lda, (float *)at, p.m, "minplus", "transposed"));
    cudaStream_t s = b->stream;
    const float *a_t = (const float *)at;
    return gkc_launch_grid(b, "minplus", "transposed", gkc_cdiv(p.m, T), gkc_cdiv(p.n, T), 1,
                           [&](dim3 g, int64_t y0, int64_t) {
                               minplus_transposed<<<g, dim3(T, T), 0, s>>>(p, a_t, y0);
                           });
}

GKC_KERNEL(gkc_minplus_tiled)
{
    GKC_TRY(gkc_enter(b));
    mp p = mp_from(args);
    cudaStream_t s = b->stream;
    return gkc_launch_grid(b, "minplus", "tiled", gkc_cdiv(p.n, T), gkc_cdiv(p.m, T), 1,
                           [&](dim3 g, int64_t y0, int64_t) {
                               minplus_tiled<<<g, dim3(T, T), 0, s>>>(p, y0);
                           });
}

GKC_KERNEL(gkc_minplus_regtile_4x4)
{
    GKC_TRY(gkc_enter(b));
    mp p = mp_from(args);
    cudaStream_t s = b->stream;
    return gkc_launch_grid(b, "minplus", "regtile_4x4", gkc_cdiv(p.n, T44), gkc_cdiv(p.m, T44), 1,
                           [&](dim3 g, int64_t y0, int64_t) {
                               minplus_regtile_4x4<<<g, dim3(16, 16), 0, s>>>(p, y0);
                           });
}

GKC_KERNEL(gkc_minplus_regtile_8x8)
{
    GKC_TRY(gkc_enter(b));
    mp p = mp_from(args);
    bool vec = gkc_aligned16(p.a) && gkc_aligned16(p.b) && p.lda % 4 == 0 && p.ldb % 4 == 0;
    auto kern = p.upd ? (vec ? minplus_regtile_8x8<true, true> : minplus_regtile_8x8<false, true>)
                      : (vec ? minplus_regtile_8x8<true, false> : minplus_regtile_8x8<false, false>);
    cudaStream_t s = b->stream;
    return gkc_launch_grid(b, "minplus", "regtile_8x8", gkc_cdiv(p.n, T88), gkc_cdiv(p.m, T88), 1,
                           [&](dim3 g, int64_t y0, int64_t) {
                               kern<<<g, dim3(16, 16), 0, s>>>(p, y0);
                           });
}

GKC_KERNEL(gkc_minplus_pipelined)
{
    GKC_TRY(gkc_enter(b));
    gkc_mm p = gkc_mm_from(args);
    p.bias = NULL;   /* min-plus has none */
    bool vec = gkc_mm_vec(&p);
    auto kern = mp_accumulate(args)
                    ? (vec ? minplus_pipelined<true, true> : minplus_pipelined<false, true>)
                    : (vec ? minplus_pipelined<true, false> : minplus_pipelined<false, false>);
    constexpr size_t smem = gkc_pipe::geom<float, KP>::SMEM_BYTES;
    GKC_CUDA(b, cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem),
             "minplus/pipelined: cudaFuncSetAttribute");
    cudaStream_t s = b->stream;
    return gkc_launch_grid(b, "minplus", "pipelined", gkc_cdiv(p.n, gkc_pipe::BN),
                           gkc_cdiv(p.m, gkc_pipe::BM), 1, [&](dim3 g, int64_t y0, int64_t) {
                               kern<<<g, gkc_pipe::NT, smem, s>>>(p, y0);
                           });
}

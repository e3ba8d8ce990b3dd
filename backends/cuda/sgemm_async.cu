/*
 * sgemm_async.cu - matmul rungs 8-10, warptile_db, warptile_at and
 * warptile_wide: the warp-tiled kernel of sgemm_regtile.cu fed by the 3-stage cp.async
 * pipeline of tile_pipe.cuh, and split over k when the output tiles of
 * all batches cannot fill the GPU.
 *
 * Why it is faster than warptile: there, every k-slice is load, barrier,
 * compute, barrier, and while the block waits for global memory its FMA
 * units idle unless another block happens to be computing.  Here the
 * copies of slices t+1 and t+2 are in flight (cp.async, global -> shared
 * without registers) while slice t is computed, there is one barrier per
 * slice, and a slice is 16 deep (warptile: 8), so barriers, waits and loop
 * overhead are spread over 1024 FMAs per thread.
 *
 * warptile_db: a 16-byte cp.async cannot transpose, so A stays row-major
 * in shared memory: a lane reads a float4 of 4 consecutive k for each of
 * its 8 rows (8 loads per 4 k steps, the same count as the transposed
 * layout's 2 per step), but 32 + 8 fragment registers are live.
 * warptile_at: 4-byte copies put A in transposed: 4x the copy
 * instructions for A, 16 live fragment registers (see rung 9 below).
 * warptile_wide: warptile_at on a tile twice as wide (rung 10 below).
 */
#include "cuda_internal.h"
#include "tile_pipe.cuh"

namespace {

using namespace gkc_pipe;

/* The pieces of a block's work on one 128 x W tile: its start, its k
 * range through the pipeline, its store (apart, so that another schedule
 * of tiles can reuse them: bench/NOTES.md, "Stream-K").  With AT the A
 * tile arrives transposed (4-byte copies) and a lane's rows are
 * wm + 4 lm + {0..3} and the same + 16, read as two float4 per k step.
 * W is the tile width (128, or 256 for warptile_wide: 16 columns a lane);
 * U how deep the transposed-A k loop is unrolled. */
template <bool AT>
__device__ __forceinline__ int lane_row(const lane_tile &lt, int r)
{
    return AT ? lt.wm + 4 * lt.lm + (r & 3) + (r >> 2) * 16 : lt.row(r);
}

/* The lane's outputs start at bias[j] (on the part of the tile that
 * begins at k = 0) or at 0. */
template <int NC>
__device__ __forceinline__ void acc_start(float (&acc)[8][NC], const gkc_mm &p,
                                          const lane_tile &lt, int64_t j0, bool with_bias)
{
#pragma unroll
    for (int c = 0; c < NC; c++) {
        int64_t j = j0 + lt.col(c);
        float start = (with_bias && p.bias && j < p.n) ? p.bias[j] : 0.0f;
#pragma unroll
        for (int r = 0; r < 8; r++)
            acc[r][c] = start;
    }
}

/* acc += A[i0.., kbeg:kend] B[kbeg:kend, j0..] through the pipeline.
 * SNAKE: the order of a k step's 8 x NC FMAs.  false: row by row, x[r]
 * times every y[c].  true (warptile_wide): column by column, the rows
 * down then back up (r = 0..7, 7..0, ...), so each FMA shares an operand
 * with the one before it, across column boundaries too; on the H200 this
 * made warptile_wide 3% faster at every size measured, and the row-major
 * snake only 1% (bench/NOTES.md, "Session 5: FMA order"). */
template <int BK, bool VEC, bool AT, int W, int U, bool SNAKE = false, bool SPREAD = false,
          bool WHOLE = false>
__device__ __forceinline__ void acc_tile(float (&acc)[8][W / 16], const gkc_mm &p, float *smem,
                                         const lane_tile &lt, int64_t i0, int64_t j0,
                                         int64_t kbeg, int64_t kend)
{
    constexpr int SA = geom<float, BK, AT, W>::SA, NC = W / 16;   /* NC: columns per lane */
    auto step = [&](const float (&x)[8], const float *brow) {
        float y[NC];
#pragma unroll
        for (int q = 0; q < NC / 4; q++) {
            float4 bq = *(const float4 *)(brow + 32 * q);
            y[4 * q] = bq.x, y[4 * q + 1] = bq.y, y[4 * q + 2] = bq.z, y[4 * q + 3] = bq.w;
        }
        if constexpr (SNAKE) {
#pragma unroll
            for (int c = 0; c < NC; c++)
#pragma unroll
                for (int rr = 0; rr < 8; rr++) {
                    int r = (c & 1) ? 7 - rr : rr;
                    acc[r][c] += x[r] * y[c];
                }
        } else {
#pragma unroll
            for (int r = 0; r < 8; r++)
#pragma unroll
                for (int c = 0; c < NC; c++)
                    acc[r][c] += x[r] * y[c];
        }
    };
    if constexpr (SPREAD && VEC) {
        static_assert(AT, "SPREAD: transposed A only");
        run_pipe<geom<float, BK, AT, W>, VEC, U, WHOLE ? issue_mode::whole : issue_mode::spread>(
            p, smem, i0, j0, kbeg, kend, [](float *, float *, int) {},
                                      [&](const float *as, const float *bs, auto issue) {
#pragma unroll 1
            for (int kb = 0; kb < BK; kb += U) {
#pragma unroll
                for (int i = 0; i < U; i++) {
                    const float *arow = as + (kb + i) * SA + lt.wm + 4 * lt.lm;
                    float4 a0 = *(const float4 *)arow, a1 = *(const float4 *)(arow + 16);
                    float x[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
                    issue(kb, i);
                    step(x, bs + (kb + i) * W + lt.wn + lt.ln);
                }
            }
        });
        return;
    }
    run<geom<float, BK, AT, W>, VEC>(p, smem, i0, j0, kbeg, kend, [](float *, float *, int) {},
                     [&](const float *as, const float *bs) {
        if constexpr (AT) {
#pragma unroll (U)
            for (int kk = 0; kk < BK; kk++) {
                const float *arow = as + kk * SA + lt.wm + 4 * lt.lm;
                float4 a0 = *(const float4 *)arow, a1 = *(const float4 *)(arow + 16);
                float x[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
                step(x, bs + kk * W + lt.wn + lt.ln);
            }
        } else {
#pragma unroll (U / 4)
            for (int kc = 0; kc < BK; kc += 4) {
                float4 a[8];
#pragma unroll
                for (int r = 0; r < 8; r++)
                    a[r] = *(const float4 *)&as[lt.row(r) * SA + kc];
#pragma unroll
                for (int kk = 0; kk < 4; kk++) {
                    float x[8];
#pragma unroll
                    for (int r = 0; r < 8; r++)
                        x[r] = gkc_f4(a[r], kk);
                    step(x, bs + (kc + kk) * W + lt.wn + lt.ln);
                }
            }
        }
    });
}

/* The lane's outputs that fall inside the m x n matrix, to out (row stride ldc). */
template <bool AT, int NC>
__device__ __forceinline__ void acc_store(float *out, int64_t ldc, const float (&acc)[8][NC],
                                          const lane_tile &lt, int64_t i0, int64_t j0,
                                          int64_t m, int64_t n)
{
#pragma unroll
    for (int r = 0; r < 8; r++) {
        int64_t i = i0 + lane_row<AT>(lt, r);
        if (i >= m)
            continue;
#pragma unroll
        for (int c = 0; c < NC; c++) {
            int64_t j = j0 + lt.col(c);
            if (j < n)
                out[i * ldc + j] = acc[r][c];
        }
    }
}

/* blockIdx.z (plus z0) is batch * splits + split: the batch, and the k
 * range [split * kchunk, (split + 1) * kchunk) within it.  The block writes
 * to c + batch * sc + split * zstride: with one split that is the batch's
 * output; with more, a dense m x n part in a workspace (bias NULL, sc =
 * splits * m * n, zstride = m * n) that matmul_splitk_sum adds up. */
template <int BK, bool VEC, bool AT, int W, int U, bool SNAKE, bool SPREAD = false>
__global__ void __launch_bounds__(NT, W == BN ? 2 : 1)
    matmul_warptile_db(gkc_mm p, int64_t kchunk, int64_t splits, int64_t zstride, int64_t y0,
                       int64_t z0)
{
    extern __shared__ __align__(16) float smem[];
    lane_tile lt(W);
    int64_t z = z0 + blockIdx.z, split = z % splits;
    p = gkc_mm_at(p, z / splits);
    int64_t i0 = (y0 + blockIdx.y) * BM, j0 = (int64_t)blockIdx.x * W;
    int64_t kbeg = split * kchunk, kend = kbeg + kchunk < p.k ? kbeg + kchunk : p.k;
    float acc[8][W / 16];
    acc_start(acc, p, lt, j0, true);
    acc_tile<BK, VEC, AT, W, U, SNAKE, SPREAD>(acc, p, smem, lt, i0, j0, kbeg, kend);
    acc_store<AT>(p.c + split * zstride, p.ldc, acc, lt, i0, j0, p.m, p.n);
}

/* warptile_wide on a matrix of whole tiles: m a multiple of 128, n of 256,
 * k of 32, 16-byte operands, one batch, no split.  The same FMAs and
 * copies as matmul_warptile_db<32, true, true, 256, U, true, true>, but
 * with no code for edges, partial slices, batches or splits: on the H200
 * that code, never run on such a matrix, took the kernel from 209
 * registers to 231 and made it 3-4% slower at 2048^3 to 8192^3
 * (bench/NOTES.md, "Session 8"). */
template <int U>
__global__ void __launch_bounds__(NT, 1) matmul_wide_whole(gkc_mm p, int64_t y0)
{
    extern __shared__ __align__(16) float smem[];
    lane_tile lt(256);
    int64_t i0 = (y0 + blockIdx.y) * BM, j0 = (int64_t)blockIdx.x * 256;
    float acc[8][16];
    acc_start(acc, p, lt, j0, true);
    acc_tile<32, true, true, 256, U, true, true, true>(acc, p, smem, lt, i0, j0, 0, p.k);
    acc_store<true>(p.c, p.ldc, acc, lt, i0, j0, p.m, p.n);
}

/* out[z][i, j] = bias[j] + sum over s of the part (z, s) at w + (z * splits
 * + s) * m * n, s in order (deterministic). */
__global__ void matmul_splitk_sum(gkc_mm p, const float *w, int splits)
{
    int64_t mn = p.m * p.n, total = p.batch * mn, step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < total; e += step) {
        int64_t z = e / mn, rem = e - z * mn, i = rem / p.n, j = rem - i * p.n;
        const float *part = w + z * splits * mn + rem;
        float s = p.bias ? p.bias[j] : 0.0f;
        for (int q = 0; q < splits; q++)
            s += part[q * mn];
        p.c[z * p.sc + i * p.ldc + j] = s;
    }
}

/* Split k only when the output tiles of all batches leave SMs idle: as
 * many parts as the resident blocks (two per SM for W = 128, one for 256)
 * allow, at most 16, each at least 64 deep. */
int64_t choose_splits(const gpuk_bctx *b, const gkc_mm &p, int W)
{
    int64_t sms = gkc_sms(b);
    int64_t tiles = gkc_cdiv(p.m, BM) * gkc_cdiv(p.n, W) * p.batch;
    if (tiles >= sms)
        return 1;
    int64_t s = (W == BN ? 2 : 1) * sms / tiles;
    if (s > p.k / 64)
        s = p.k / 64;
    if (s > 16)
        s = 16;
    return s < 2 ? 1 : s;
}

template <int BK, bool VEC, bool AT, int W, int U, bool SNAKE, bool SPREAD>
gpuk_status launch_db(gpuk_bctx *b, const gkc_mm &p, int64_t kchunk, int64_t splits,
                      int64_t zstride, const char *variant)
{
    constexpr size_t smem = geom<float, BK, AT, W>::SMEM_BYTES;
    auto kern = matmul_warptile_db<BK, VEC, AT, W, U, SNAKE, SPREAD>;
    GKC_CUDA(b, cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem),
             "matmul: cudaFuncSetAttribute");
    cudaStream_t s = b->stream;
    return gkc_launch_grid(b, p.op, variant, gkc_cdiv(p.n, W), gkc_cdiv(p.m, BM),
                           p.batch * splits, [&](dim3 g, int64_t y0, int64_t z0) {
                               kern<<<g, NT, smem, s>>>(p, kchunk, splits, zstride, y0, z0);
                           });
}

/* The whole op: one launch, or split-k parts into the workspace and a sum. */
template <int BK, bool AT, int W = BN, int U = BK, bool SNAKE = false, bool SPREAD = false>
gpuk_status matmul_pipelined(gpuk_bctx *b, const gpuk_args *args, const char *variant)
{
    GKC_TRY(gkc_enter(b));
    gkc_mm p = gkc_mm_from(args);
    bool vec = gkc_mm_vec(&p);
    int64_t splits = choose_splits(b, p, W);
    if (splits == 1) {
        int64_t kchunk = p.k > 0 ? p.k : 1;
        return vec ? launch_db<BK, true, AT, W, U, SNAKE, SPREAD>(b, p, kchunk, 1, 0, variant)
                   : launch_db<BK, false, AT, W, U, SNAKE, SPREAD>(b, p, kchunk, 1, 0, variant);
    }
    int64_t kchunk = gkc_cdiv(gkc_cdiv(p.k, splits), BK) * BK;
    splits = gkc_cdiv(p.k, kchunk);
    int64_t mn = p.m * p.n;
    void *w = NULL;
    GKC_TRY(gkc_scratch(b, GKC_SLOT_WORK, (size_t)(p.batch * splits * mn) * sizeof(float), &w));
    /* The parts: dense m x n slabs of the workspace, batch by batch, no bias. */
    gkc_mm q = p;
    q.c = (float *)w;
    q.ldc = p.n;
    q.sc = splits * mn;
    q.bias = NULL;
    gpuk_status st =
        vec ? launch_db<BK, true, AT, W, U, SNAKE, SPREAD>(b, q, kchunk, splits, mn, variant)
            : launch_db<BK, false, AT, W, U, SNAKE, SPREAD>(b, q, kchunk, splits, mn, variant);
    if (st != GPUK_OK)
        return st;
    matmul_splitk_sum<<<gkc_blocks(p.batch * mn, 256, gkc_grid_cap(b)), 256, 0, b->stream>>>(
        p, (const float *)w, (int)splits);
    GKC_LAUNCHED(b, p.op, "split-k sum");
    return GPUK_OK;
}

/* The whole-tile kernel, when p is such a matrix with a wave of tiles or
 * more (*done 1, and the launch's status); else GPUK_OK and *done 0. */
gpuk_status wide_whole(gpuk_bctx *b, const gkc_mm &p, int *done)
{
    *done = 0;
    int64_t tiles = gkc_cdiv(p.m, BM) * gkc_cdiv(p.n, 256);
    if (p.batch != 1 || p.k <= 0 || p.m % BM || p.n % 256 || p.k % 32 || !gkc_mm_vec(&p) ||
        tiles < gkc_sms(b))
        return GPUK_OK;
    *done = 1;
    GKC_TRY(gkc_enter(b));
    constexpr size_t smem = geom<float, 32, true, 256>::SMEM_BYTES;
    auto kern = matmul_wide_whole<8>;
    GKC_CUDA(b, cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem),
             "matmul: cudaFuncSetAttribute");
    cudaStream_t s = b->stream;
    return gkc_launch_grid(b, p.op, "warptile_wide", p.n / 256, p.m / BM, 1,
                           [&](dim3 g, int64_t y0, int64_t) { kern<<<g, NT, smem, s>>>(p, y0); });
}

}  // namespace

GKC_KERNEL(gkc_matmul_warptile_db)
{
    return matmul_pipelined<16, false>(b, args, "warptile_db");
}

/* 9. warptile_at: A transposed on its way into shared memory (4-byte
 * copies can land anywhere), so a lane's 8 A values of a k step are two
 * float4 and only 16 fragment registers are live (row-major A: 32 + 8).
 * At the 128-register cap that is what decides: warptile_db's compiler
 * spills and stalls on register-bank dispatch conflicts (ncu: 1.2 dispatch
 * stalls per issue; here 0.5), and issue activity rises from 71% to 81%.
 * (k slices of 32, for both layouts, measured slower: bench/NOTES.md.) */
GKC_KERNEL(gkc_matmul_warptile_at)
{
    return matmul_pipelined<16, true>(b, args, "warptile_at");
}

/* 10. warptile_wide: the block tile widened to 128x256, 8x16 outputs a
 * lane (the tile and warp count of cuBLAS's FP32 kernel on this GPU),
 * one block of 8 warps per SM with up to 255 registers.  A k step now
 * feeds 128 FMAs from 6 shared loads (warptile_at: 64 from 4), and each
 * warp has twice the independent FMAs between the loads it waits on.
 * With the registers to spare, k slices are 32 deep (at the 128-register
 * cap of warptile_at, 32 spilled and lost): the barrier, the wait and the
 * copies of a slice are spread over 4096 FMAs a thread.  The copies of
 * the slice after next are issued among the k steps (SPREAD, run_pipe
 * in tile_pipe.cuh), not in a burst.  A matrix of whole tiles (the usual
 * large one) runs matmul_wide_whole, which has no code for edges and 21
 * fewer registers; k unrolled 8 there.  Any other runs the general kernel,
 * unrolled 8, and fully (32) when the output has 8 or more waves of
 * tiles.  On the H200 the full unroll of the spread kernel was 3-4%
 * faster at 16 waves and no faster at 4 (bench/NOTES.md, "Session 8").
 * The costs: half the warps per SM to hide a barrier, a coarser grid
 * (32 x 16 tiles at n = 4096) and 149 KB of shared memory a block.  Its
 * FMAs run in the column snake of acc_tile (SNAKE), 3% faster here. */
GKC_KERNEL(gkc_matmul_warptile_wide)
{
    gkc_mm p = gkc_mm_from(args);
    int done;
    gpuk_status st = wide_whole(b, p, &done);
    if (done)
        return st;
    int64_t tiles = gkc_cdiv(p.m, BM) * gkc_cdiv(p.n, 256) * p.batch;
    int64_t sms = gkc_sms(b);
    if (tiles >= 8 * sms)
        return matmul_pipelined<32, true, 256, 32, true, true>(b, args, "warptile_wide");
    return matmul_pipelined<32, true, 256, 8, true, true>(b, args, "warptile_wide");
}

/*
 * transpose.cu - y[n,m] = x[m,n]^T (the classic ladder: naive, shared-memory
 * tile, padded tile; then a larger padded tile with all its loads in
 * flight at once).  Rows of x and y may be strided (ldx, ldy).
 *
 * The tiled rungs move a 32x32 tile per block of 32x8 threads, each thread
 * four elements: read along x's rows, write along y's rows, so both sides
 * are coalesced; the tile in shared memory does the turn.
 */
#include "cuda_internal.h"

namespace {

struct tp {
    const float *x;
    float *y;
    int64_t m, n, ldx, ldy;
};

constexpr int B = 32, R = 8;   /* tile edge, thread rows per block */

/* 1. naive: one thread per element, threadIdx.x along x's row.  Reads are
 * coalesced; the writes y[j][i] of a warp are ldy apart, one transaction each. */
__global__ void transpose_naive(tp p, int64_t y0)
{
    gkc_pdl_enter();
    int64_t j = (int64_t)blockIdx.x * B + threadIdx.x;
    int64_t i = (y0 + blockIdx.y) * B + threadIdx.y;
    if (j >= p.n)
        return;
    for (int r = 0; r < B; r += R)
        if (i + r < p.m)
            p.y[j * p.ldy + i + r] = p.x[(i + r) * p.ldx + j];
}

/* 2. smem: stage the tile in shared memory, then write it out by rows of y:
 * both global sides coalesced.  But the write phase reads a tile COLUMN, and
 * with 32 floats a row every element of a column sits in the same bank:
 * a 32-way bank conflict on each read. */
/* 3. smem_padded: one extra float per tile row ([B][B+1]) shifts each row by
 * one bank, so a column spans all 32 banks: the conflict is gone.  The two
 * rungs share this kernel; PAD is the only difference. */
template <int PAD>
__global__ void transpose_tile(tp p, int64_t y0)
{
    gkc_pdl_enter();
    __shared__ float tile[B][B + PAD];
    int tx = threadIdx.x, ty = threadIdx.y;
    int64_t i0 = (y0 + blockIdx.y) * B, j0 = (int64_t)blockIdx.x * B;
    for (int r = ty; r < B; r += R) {
        int64_t i = i0 + r, j = j0 + tx;
        if (i < p.m && j < p.n)
            tile[r][tx] = p.x[i * p.ldx + j];
    }
    __syncthreads();
    for (int r = ty; r < B; r += R) {
        int64_t j = j0 + r, i = i0 + tx;
        if (j < p.n && i < p.m)
            p.y[j * p.ldy + i] = tile[tx][r];
    }
}

/* 4. tile64: a 64x64 padded tile for 32x16 threads, so each thread moves
 * 8 elements instead of 4, and all 8 loads are issued before the first
 * store to shared memory (into registers first: a load followed by its
 * own store, as in the 32x32 rungs, lets the store wait for the load and
 * so keeps one or two loads in flight, not 8).  Likewise all 8 shared
 * reads precede the global writes.  (32x8 threads with 16 elements each
 * were 1-2% slower on the H200: bench/NOTES.md, "Transpose, 8192 x 8192".) */
constexpr int B64 = 64, R64 = 16, Q64 = (B64 / R64) * (B64 / B);   /* 8 elements a thread */
__global__ void __launch_bounds__(B * R64) transpose_tile64(tp p, int64_t y0)
{
    gkc_pdl_enter();
    __shared__ float tile[B64][B64 + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int64_t i0 = (y0 + blockIdx.y) * B64, j0 = (int64_t)blockIdx.x * B64;
    float v[Q64];
#pragma unroll
    for (int q = 0; q < Q64; q++) {   /* row ty + 16 (q / 2), column tx + 32 (q % 2) */
        int64_t i = i0 + ty + R64 * (q / 2), j = j0 + tx + B * (q % 2);
        v[q] = (i < p.m && j < p.n) ? p.x[i * p.ldx + j] : 0.0f;
    }
#pragma unroll
    for (int q = 0; q < Q64; q++)
        tile[ty + R64 * (q / 2)][tx + B * (q % 2)] = v[q];
    __syncthreads();
#pragma unroll
    for (int q = 0; q < Q64; q++)     /* y row j0 + ty + 16 (q / 2) takes tile column */
        v[q] = tile[tx + B * (q % 2)][ty + R64 * (q / 2)];
#pragma unroll
    for (int q = 0; q < Q64; q++) {
        int64_t j = j0 + ty + R64 * (q / 2), i = i0 + tx + B * (q % 2);
        if (j < p.n && i < p.m)
            p.y[j * p.ldy + i] = v[q];
    }
}

tp tp_from(const gpuk_args *args)
{
    tp p;
    p.x = (const float *)args->in[0].data;
    p.y = (float *)args->out.data;
    p.m = args->in[0].shape[0];
    p.n = args->in[0].shape[1];
    p.ldx = args->in[0].stride[0];
    p.ldy = args->out.stride[0];
    return p;
}

template <int PAD>
gpuk_status launch_tile(gpuk_bctx *b, tp p, const char *op, const char *variant)
{
    cudaStream_t s = b->stream;
    return gkc_launch_grid(b, op, variant, gkc_cdiv(p.n, B), gkc_cdiv(p.m, B), 1,
                           [&](dim3 g, int64_t y0, int64_t) {
                               gkc_launch_pdl(s, transpose_tile<PAD>, g, dim3(B, R), 0, p, y0);
                           });
}

}  // namespace

gpuk_status gkc_transpose_into(gpuk_bctx *b, const float *src, int64_t rows, int64_t cols,
                               int64_t lds, float *dst, int64_t ldd, const char *op,
                               const char *variant)
{
    tp p = {src, dst, rows, cols, lds, ldd};
    return launch_tile<1>(b, p, op, variant);
}

GKC_KERNEL(gkc_transpose_naive)
{
    GKC_TRY(gkc_enter(b));
    tp p = tp_from(args);
    cudaStream_t s = b->stream;
    return gkc_launch_grid(b, "transpose", "naive", gkc_cdiv(p.n, B), gkc_cdiv(p.m, B), 1,
                           [&](dim3 g, int64_t y0, int64_t) {
                               gkc_launch_pdl(s, transpose_naive, g, dim3(B, R), 0, p, y0);
                           });
}

GKC_KERNEL(gkc_transpose_smem)
{
    GKC_TRY(gkc_enter(b));
    return launch_tile<0>(b, tp_from(args), "transpose", "smem");
}

GKC_KERNEL(gkc_transpose_smem_padded)
{
    GKC_TRY(gkc_enter(b));
    return launch_tile<1>(b, tp_from(args), "transpose", "smem_padded");
}

GKC_KERNEL(gkc_transpose_tile64)
{
    GKC_TRY(gkc_enter(b));
    tp p = tp_from(args);
    cudaStream_t s = b->stream;
    return gkc_launch_grid(b, "transpose", "tile64", gkc_cdiv(p.n, B64), gkc_cdiv(p.m, B64), 1,
                           [&](dim3 g, int64_t y0, int64_t) {
                               gkc_launch_pdl(s, transpose_tile64, g, dim3(B, R64), 0, p, y0);
                           });
}

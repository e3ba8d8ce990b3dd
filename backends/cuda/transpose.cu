/*
 * transpose.cu - y[n,m] = x[m,n]^T (the classic ladder: naive, shared-memory
 * tile, padded tile; then a larger padded tile with all its loads in
 * flight at once).  Rows of x and y may be strided (ldx, ldy).  Every
 * kernel is a template over the element type T (float, double, and
 * uint16_t for both f16 and bf16: GKC_KERNEL_MOVES): a move, exact in
 * all.
 *
 * The tiled rungs move a 32x32 tile per block of 32x8 threads, each thread
 * four elements: read along x's rows, write along y's rows, so both sides
 * are coalesced; the tile in shared memory does the turn.
 */
#include "cuda_internal.h"

namespace {

template <class T>
struct tp {
    const T *x;
    T *y;
    int64_t m, n, ldx, ldy;
};

constexpr int B = 32, R = 8;   /* tile edge, thread rows per block */

/* 1. naive: one thread per element, threadIdx.x along x's row.  Reads are
 * coalesced; the writes y[j][i] of a warp are ldy apart, one transaction each. */
template <class T>
__global__ void transpose_naive(tp<T> p, int64_t y0)
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
/* 3. smem_padded: one extra element per tile row ([B][B+1]) shifts each
 * row by one bank (f64: two banks, and a half-warp's 8-byte reads then
 * cover the 32 banks once; 16-bit: half a bank, so rows 2k and 2k + 1 sit
 * 16 banks apart and the 32 of a column still fall in 32 banks), so a
 * column spans all 32 banks: the conflict is gone.  The two rungs share this kernel; PAD is the only difference. */
template <class T, int PAD>
__global__ void transpose_tile(tp<T> p, int64_t y0)
{
    gkc_pdl_enter();
    __shared__ T tile[B][B + PAD];
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
 * were 1-2% slower on the H200: bench/NOTES.md, "Transpose, 8192 x 8192".)
 * In f64 the same 8 elements are 64 bytes in flight a thread, twice f32's,
 * and the tile takes 33 KB of shared memory (16.6 KB in f32).  A 16-bit
 * tile row of 65 elements would put rows 2k and 2k + 1 on the same bank
 * (32.5 banks apart), a 2-way conflict on the column reads: its rows take
 * 66 (33 banks), and the tile 8.4 KB. */
constexpr int B64 = 64, R64 = 16, Q64 = (B64 / R64) * (B64 / B);   /* 8 elements a thread */
template <class T>
__global__ void __launch_bounds__(B * R64) transpose_tile64(tp<T> p, int64_t y0)
{
    gkc_pdl_enter();
    __shared__ T tile[B64][B64 + (sizeof(T) == 2 ? 2 : 1)];
    int tx = threadIdx.x, ty = threadIdx.y;
    int64_t i0 = (y0 + blockIdx.y) * B64, j0 = (int64_t)blockIdx.x * B64;
    T v[Q64];
#pragma unroll
    for (int q = 0; q < Q64; q++) {   /* row ty + 16 (q / 2), column tx + 32 (q % 2) */
        int64_t i = i0 + ty + R64 * (q / 2), j = j0 + tx + B * (q % 2);
        v[q] = (i < p.m && j < p.n) ? p.x[i * p.ldx + j] : T(0);
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

template <class T>
tp<T> tp_from(const gpuk_args *args)
{
    tp<T> p;
    p.x = (const T *)args->in[0].data;
    p.y = (T *)args->out.data;
    p.m = args->in[0].shape[0];
    p.n = args->in[0].shape[1];
    p.ldx = args->in[0].stride[0];
    p.ldy = args->out.stride[0];
    return p;
}

template <class T, int PAD>
gpuk_status launch_tile(gpuk_bctx *b, tp<T> p, const char *op, const char *variant)
{
    cudaStream_t s = b->stream;
    return gkc_launch_grid(b, op, variant, gkc_cdiv(p.n, B), gkc_cdiv(p.m, B), 1,
                           [&](dim3 g, int64_t y0, int64_t) {
                               gkc_launch_pdl(s, transpose_tile<T, PAD>, g, dim3(B, R), 0, p, y0);
                           });
}

template <class T>
gpuk_status naive(gpuk_bctx *b, const gpuk_args *args)
{
    GKC_TRY(gkc_enter(b));
    tp<T> p = tp_from<T>(args);
    cudaStream_t s = b->stream;
    return gkc_launch_grid(b, "transpose", "naive", gkc_cdiv(p.n, B), gkc_cdiv(p.m, B), 1,
                           [&](dim3 g, int64_t y0, int64_t) {
                               gkc_launch_pdl(s, transpose_naive<T>, g, dim3(B, R), 0, p, y0);
                           });
}

template <class T>
gpuk_status smem(gpuk_bctx *b, const gpuk_args *args)
{
    GKC_TRY(gkc_enter(b));
    return launch_tile<T, 0>(b, tp_from<T>(args), "transpose", "smem");
}

template <class T>
gpuk_status smem_padded(gpuk_bctx *b, const gpuk_args *args)
{
    GKC_TRY(gkc_enter(b));
    return launch_tile<T, 1>(b, tp_from<T>(args), "transpose", "smem_padded");
}

template <class T>
gpuk_status tile64(gpuk_bctx *b, const gpuk_args *args)
{
    GKC_TRY(gkc_enter(b));
    tp<T> p = tp_from<T>(args);
    cudaStream_t s = b->stream;
    return gkc_launch_grid(b, "transpose", "tile64", gkc_cdiv(p.n, B64), gkc_cdiv(p.m, B64), 1,
                           [&](dim3 g, int64_t y0, int64_t) {
                               gkc_launch_pdl(s, transpose_tile64<T>, g, dim3(B, R64), 0, p, y0);
                           });
}

}  // namespace

template <class T>
gpuk_status gkc_transpose_into(gpuk_bctx *b, const T *src, int64_t rows, int64_t cols,
                               int64_t lds, T *dst, int64_t ldd, const char *op,
                               const char *variant)
{
    tp<T> p = {src, dst, rows, cols, lds, ldd};
    return launch_tile<T, 1>(b, p, op, variant);
}
template gpuk_status gkc_transpose_into<float>(gpuk_bctx *, const float *, int64_t, int64_t,
                                               int64_t, float *, int64_t, const char *,
                                               const char *);
template gpuk_status gkc_transpose_into<double>(gpuk_bctx *, const double *, int64_t, int64_t,
                                                int64_t, double *, int64_t, const char *,
                                                const char *);

GKC_KERNEL_MOVES(gkc_transpose_naive, naive)
GKC_KERNEL_MOVES(gkc_transpose_smem, smem)
GKC_KERNEL_MOVES(gkc_transpose_smem_padded, smem_padded)
GKC_KERNEL_MOVES(gkc_transpose_tile64, tile64)

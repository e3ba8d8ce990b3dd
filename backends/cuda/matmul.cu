/*
 * matmul.cu - C[m,n] = A[m,k] B[k,n] (+ bias[n] on every row), and the same
 * for each batch of BATCHED_MATMUL: the hand-written ladder's first three
 * rungs; register tiling continues in sgemm_regtile.cu (rungs 4-7) and the
 * cp.async pipeline in sgemm_async.cu (rungs 8-10); the cuBLAS rungs are
 * in cublas.cu.
 *
 * Operands have unit stride along a row and any row stride (lda, ldb, ldc).
 * Every rung is batch-aware: blockIdx.z (plus the z0 of a launch piece) is
 * the batch, and gkc_mm_at moves a, b and c to it; plain MATMUL is the batch
 * of one.  Every rung starts its register accumulator from bias[col] when
 * there is a bias and writes each output once, so k = 0 gives the bias (or
 * 0) with no special case.
 */
#include "cuda_internal.h"

namespace {

constexpr int T = 16;   /* thread block is T x T, one output per thread */

/* 1. naive: one thread per output, threadIdx.x walking ROWS.  The 32 lanes
 * of a warp then read A[row..row+31][i]: 32 addresses lda apart, one memory
 * transaction each (the textbook first kernel, with the strided operand on
 * the fast thread index).  B[i][col] is the same word for the warp. */
__global__ void matmul_naive(gkc_mm p, int64_t y0, int64_t z0)
{
    p = gkc_mm_at(p, z0 + blockIdx.z);
    int64_t row = (int64_t)blockIdx.x * T + threadIdx.x;
    int64_t col = (y0 + blockIdx.y) * T + threadIdx.y;
    if (row >= p.m || col >= p.n)
        return;
    const float *a = p.a + row * p.lda;
    float acc = p.bias ? p.bias[col] : 0.0f;
    for (int64_t i = 0; i < p.k; i++)
        acc += a[i] * p.b[i * p.ldb + col];
    p.c[row * p.ldc + col] = acc;
}

/* 2. coalesced: swap the mapping, threadIdx.x walks COLUMNS.  A warp now
 * reads 32 consecutive floats of a B row (one 128-byte transaction) and one
 * broadcast word of A: about 32x fewer transactions per step. */
__global__ void matmul_coalesced(gkc_mm p, int64_t y0, int64_t z0)
{
    p = gkc_mm_at(p, z0 + blockIdx.z);
    int64_t col = (int64_t)blockIdx.x * T + threadIdx.x;
    int64_t row = (y0 + blockIdx.y) * T + threadIdx.y;
    if (row >= p.m || col >= p.n)
        return;
    const float *a = p.a + row * p.lda;
    float acc = p.bias ? p.bias[col] : 0.0f;
    for (int64_t i = 0; i < p.k; i++)
        acc += a[i] * p.b[i * p.ldb + col];
    p.c[row * p.ldc + col] = acc;
}

/* 3. tiled: the block stages a TxT tile of A and of B in shared memory,
 * one global load per thread per tile, then every thread reuses T values of
 * each from shared memory: global traffic drops by a factor of T.  Cells
 * outside the matrices load as 0 (adds nothing).  Two barriers: the first so
 * no thread reads a tile before it is complete, the second so no thread
 * overwrites it while others still read it. */
__global__ void matmul_tiled(gkc_mm p, int64_t y0, int64_t z0)
{
    p = gkc_mm_at(p, z0 + blockIdx.z);
    __shared__ float as[T][T];
    __shared__ float bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int64_t col = (int64_t)blockIdx.x * T + tx;
    int64_t row = (y0 + blockIdx.y) * T + ty;
    float acc = (p.bias && col < p.n) ? p.bias[col] : 0.0f;
    for (int64_t k0 = 0; k0 < p.k; k0 += T) {
        as[ty][tx] = (row < p.m && k0 + tx < p.k) ? p.a[row * p.lda + k0 + tx] : 0.0f;
        bs[ty][tx] = (k0 + ty < p.k && col < p.n) ? p.b[(k0 + ty) * p.ldb + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int i = 0; i < T; i++)
            acc += as[ty][i] * bs[i][tx];
        __syncthreads();
    }
    if (row < p.m && col < p.n)
        p.c[row * p.ldc + col] = acc;
}

}  // namespace

GKC_KERNEL(gkc_matmul_naive)
{
    GKC_TRY(gkc_enter(b));
    gkc_mm p = gkc_mm_from(args);
    cudaStream_t s = b->stream;
    return gkc_launch_grid(b, p.op, "naive", gkc_cdiv(p.m, T), gkc_cdiv(p.n, T), p.batch,
                           [&](dim3 g, int64_t y0, int64_t z0) {
                               matmul_naive<<<g, dim3(T, T), 0, s>>>(p, y0, z0);
                           });
}

GKC_KERNEL(gkc_matmul_coalesced)
{
    GKC_TRY(gkc_enter(b));
    gkc_mm p = gkc_mm_from(args);
    cudaStream_t s = b->stream;
    return gkc_launch_grid(b, p.op, "coalesced", gkc_cdiv(p.n, T), gkc_cdiv(p.m, T), p.batch,
                           [&](dim3 g, int64_t y0, int64_t z0) {
                               matmul_coalesced<<<g, dim3(T, T), 0, s>>>(p, y0, z0);
                           });
}

GKC_KERNEL(gkc_matmul_tiled)
{
    GKC_TRY(gkc_enter(b));
    gkc_mm p = gkc_mm_from(args);
    cudaStream_t s = b->stream;
    return gkc_launch_grid(b, p.op, "tiled", gkc_cdiv(p.n, T), gkc_cdiv(p.m, T), p.batch,
                           [&](dim3 g, int64_t y0, int64_t z0) {
                               matmul_tiled<<<g, dim3(T, T), 0, s>>>(p, y0, z0);
                           });
}

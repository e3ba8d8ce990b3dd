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
 *
 * Each kernel is written once over its element type T and serves f32 and
 * f64 (the entry points pick by args->dtype): the same loop, FFMA or DFMA.
 */
#include "cuda_internal.h"

namespace {

constexpr int TS = 16;   /* thread block is TS x TS, one output per thread */

/* 1. naive: one thread per output, threadIdx.x walking ROWS.  The 32 lanes
 * of a warp then read A[row..row+31][i]: 32 addresses lda apart, one memory
 * transaction each (the textbook first kernel, with the strided operand on
 * the fast thread index).  B[i][col] is the same word for the warp. */
template <class T>
__global__ void matmul_naive(gkc_mm_t<T> p, int64_t y0, int64_t z0)
{
    p = gkc_mm_at(p, z0 + blockIdx.z);
    int64_t row = (int64_t)blockIdx.x * TS + threadIdx.x;
    int64_t col = (y0 + blockIdx.y) * TS + threadIdx.y;
    if (row >= p.m || col >= p.n)
        return;
    const T *a = p.a + row * p.lda;
    T acc = p.bias ? p.bias[col] : T(0);
    for (int64_t i = 0; i < p.k; i++)
        acc += a[i] * p.b[i * p.ldb + col];
    p.c[row * p.ldc + col] = acc;
}

/* 2. coalesced: swap the mapping, threadIdx.x walks COLUMNS.  A warp now
 * reads 32 consecutive floats of a B row (one 128-byte transaction) and one
 * broadcast word of A: about 32x fewer transactions per step. */
template <class T>
__global__ void matmul_coalesced(gkc_mm_t<T> p, int64_t y0, int64_t z0)
{
    p = gkc_mm_at(p, z0 + blockIdx.z);
    int64_t col = (int64_t)blockIdx.x * TS + threadIdx.x;
    int64_t row = (y0 + blockIdx.y) * TS + threadIdx.y;
    if (row >= p.m || col >= p.n)
        return;
    const T *a = p.a + row * p.lda;
    T acc = p.bias ? p.bias[col] : T(0);
    for (int64_t i = 0; i < p.k; i++)
        acc += a[i] * p.b[i * p.ldb + col];
    p.c[row * p.ldc + col] = acc;
}

/* 3. tiled: the block stages a TxT tile of A and of B in shared memory,
 * one global load per thread per tile, then every thread reuses TS values of
 * each from shared memory: global traffic drops by a factor of T.  Cells
 * outside the matrices load as 0 (adds nothing).  Two barriers: the first so
 * no thread reads a tile before it is complete, the second so no thread
 * overwrites it while others still read it. */
template <class T>
__global__ void matmul_tiled(gkc_mm_t<T> p, int64_t y0, int64_t z0)
{
    p = gkc_mm_at(p, z0 + blockIdx.z);
    __shared__ T as[TS][TS];
    __shared__ T bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int64_t col = (int64_t)blockIdx.x * TS + tx;
    int64_t row = (y0 + blockIdx.y) * TS + ty;
    T acc = (p.bias && col < p.n) ? p.bias[col] : T(0);
    for (int64_t k0 = 0; k0 < p.k; k0 += TS) {
        as[ty][tx] = (row < p.m && k0 + tx < p.k) ? p.a[row * p.lda + k0 + tx] : T(0);
        bs[ty][tx] = (k0 + ty < p.k && col < p.n) ? p.b[(k0 + ty) * p.ldb + col] : T(0);
        __syncthreads();
#pragma unroll
        for (int i = 0; i < TS; i++)
            acc += as[ty][i] * bs[i][tx];
        __syncthreads();
    }
    if (row < p.m && col < p.n)
        p.c[row * p.ldc + col] = acc;
}

/* One launch over the output in TS x TS blocks: x walks rows (ROWS_X, the
 * naive mapping) or columns, the batch is z; l(p, ...) launches the kernel
 * for p, the operands in the call's dtype. */
template <bool ROWS_X, class Launch>
gpuk_status launch(gpuk_bctx *b, const gpuk_args *args, const char *variant, Launch l)
{
    GKC_TRY(gkc_enter(b));
    auto go = [&](auto p) {
        int64_t gr = gkc_cdiv(p.m, TS), gc = gkc_cdiv(p.n, TS);
        return gkc_launch_grid(b, p.op, variant, ROWS_X ? gr : gc, ROWS_X ? gc : gr, p.batch,
                               [&](dim3 g, int64_t y0, int64_t z0) { l(p, g, y0, z0); });
    };
    if (args->dtype == GPUK_F64)
        return go(gkc_mm_from<double>(args));
    return go(gkc_mm_from<float>(args));
}

}  // namespace

GKC_KERNEL(gkc_matmul_naive)
{
    cudaStream_t s = b->stream;
    return launch<true>(b, args, "naive", [&](auto p, dim3 g, int64_t y0, int64_t z0) {
        matmul_naive<<<g, dim3(TS, TS), 0, s>>>(p, y0, z0);
    });
}

GKC_KERNEL(gkc_matmul_coalesced)
{
    cudaStream_t s = b->stream;
    return launch<false>(b, args, "coalesced", [&](auto p, dim3 g, int64_t y0, int64_t z0) {
        matmul_coalesced<<<g, dim3(TS, TS), 0, s>>>(p, y0, z0);
    });
}

GKC_KERNEL(gkc_matmul_tiled)
{
    cudaStream_t s = b->stream;
    return launch<false>(b, args, "tiled", [&](auto p, dim3 g, int64_t y0, int64_t z0) {
        matmul_tiled<<<g, dim3(TS, TS), 0, s>>>(p, y0, z0);
    });
}

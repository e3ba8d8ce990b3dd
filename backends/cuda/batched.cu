/*
 * batched.cu - c[i] = a[i or 0] b[i or 0] for a[B,m,k], b[B,k,n], c[B,m,n]:
 * the hand-written rung (cuBLAS strided-batched is in cublas.cu).
 *
 * Seed 002's rules: all data moves through shared memory, each input cell is
 * read once per tile pass, and each output is written once.  A broadcast
 * operand has batch stride 0, so batch z simply reads batch 0 of it.
 */
#include "cuda_internal.h"

namespace {

struct bmm {
    const float *a, *b;
    float *c;
    int64_t m, n, k;
    int64_t sa, sb, sc;       /* batch strides (0: broadcast) */
    int64_t lda, ldb, ldc;    /* row strides */
};

constexpr int T = 16;

/* tiled: one block per TxT output tile of one batch (blockIdx.z).  Each
 * thread loads one cell of the A tile and one of the B tile per pass, the
 * block reuses them T times from shared memory, and the one global write
 * happens after the last pass. */
__global__ void batched_tiled(bmm p, int64_t y0, int64_t z0)
{
    __shared__ float as[T][T];
    __shared__ float bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int64_t z = z0 + blockIdx.z;
    int64_t col = (int64_t)blockIdx.x * T + tx;
    int64_t row = (y0 + blockIdx.y) * T + ty;
    const float *a = p.a + z * p.sa;
    const float *bm = p.b + z * p.sb;
    float acc = 0.0f;
    for (int64_t k0 = 0; k0 < p.k; k0 += T) {
        as[ty][tx] = (row < p.m && k0 + tx < p.k) ? a[row * p.lda + k0 + tx] : 0.0f;
        bs[ty][tx] = (k0 + ty < p.k && col < p.n) ? bm[(k0 + ty) * p.ldb + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int i = 0; i < T; i++)
            acc += as[ty][i] * bs[i][tx];
        __syncthreads();
    }
    if (row < p.m && col < p.n)
        p.c[z * p.sc + row * p.ldc + col] = acc;
}

}  // namespace

GKC_KERNEL(gkc_batched_tiled)
{
    GKC_TRY(gkc_enter(b));
    const gpuk_tdesc *A = &args->in[0], *B = &args->in[1], *C = &args->out;
    bmm p;
    p.a = (const float *)A->data;
    p.b = (const float *)B->data;
    p.c = (float *)C->data;
    p.m = A->shape[1];
    p.k = A->shape[2];
    p.n = B->shape[2];
    p.sa = A->shape[0] == 1 ? 0 : A->stride[0];
    p.sb = B->shape[0] == 1 ? 0 : B->stride[0];
    p.sc = C->stride[0];
    p.lda = A->stride[1];
    p.ldb = B->stride[1];
    p.ldc = C->stride[1];
    int64_t batch = C->shape[0];
    cudaStream_t s = b->stream;
    return gkc_launch_grid(b, "batched_matmul", "tiled", (p.n + T - 1) / T, (p.m + T - 1) / T,
                           batch, [&](dim3 g, int64_t y0, int64_t z0) {
                               batched_tiled<<<g, dim3(T, T), 0, s>>>(p, y0, z0);
                           });
}

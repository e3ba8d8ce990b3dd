/*
 * hgemm_wmma.cu - rung 1 of the f16/bf16 matrix-product ladder (issue 27):
 * the textbook first tensor-core kernel, through the CUDA C++ wmma API.
 * Operands and epilogue as tc_common.cuh says; MATMUL, BATCHED_MATMUL
 * (the batch in blockIdx.z) and GEMM (either operand transposed, alpha,
 * beta) in one kernel per dtype.
 *
 * What changes from the f32 ladder (matmul.cu ... sgemm_async.cu): the
 * multiply-adds move from the FMA pipes to the tensor cores.  One
 * wmma::mma_sync of 16x16x16 does 4096 multiply-adds, as a warp's 128
 * FFMA instructions would, so even a plain shared-memory tiling is bounded
 * by how fast the tiles arrive, not by arithmetic.
 *
 * The kernel: a 64x64 output tile per block of 4 warps, each warp 32x32
 * (2x2 accumulator fragments); k in slices of 32 staged in shared memory
 * by plain element loads (any stride, any alignment, either operand
 * transposed: a thread walks the operand's contiguous dimension, so the
 * loads coalesce; cells outside the matrix are 0).  The f32 fragments go
 * through shared memory to the epilogue, which adds bias or beta c and
 * rounds once.  Everything waits on everything: load, barrier, compute,
 * barrier, one slice at a time.  bench/NOTES.md ("Tensor cores") has the
 * prediction: about 8% of cuBLAS on an H100.
 */
#include <mma.h>
#include "tc_common.cuh"

namespace {

using namespace nvcuda;

constexpr int BM = 64, BN = 64, BK = 32, NT = 128;
/* rows padded by 8 elements (16 bytes): a fragment's 16 rows then start in
 * different banks, and every fragment pointer stays 32-byte aligned, as
 * load_matrix_sync requires (80- and 144-byte rows, 16 rows apart) */
constexpr int LDA = BK + 8, LDB = BN + 8, LDC = BN + 4;

/* The BM x BK tile of op(a) at (i0, k0) into s (row-major), 0 outside. */
template <class T>
__device__ __forceinline__ void load_a(const gkc_tc &p, const T *a, T (*s)[LDA], int64_t i0,
                                       int64_t k0)
{
    const T zero = tc_round<T>(0.0f);
    for (int e = threadIdx.x; e < BM * BK; e += NT) {
        /* consecutive threads on consecutive addresses of the stored matrix */
        int r = p.ta ? e % BM : e / BK, q = p.ta ? e / BM : e % BK;
        int64_t i = i0 + r, kk = k0 + q;
        T v = zero;
        if (i < p.m && kk < p.k)
            v = p.ta ? a[kk * p.lda + i] : a[i * p.lda + kk];
        s[r][q] = v;
    }
}

/* The BK x BN tile of op(b) at (k0, j0) into s (row-major), 0 outside. */
template <class T>
__device__ __forceinline__ void load_b(const gkc_tc &p, const T *b, T (*s)[LDB], int64_t k0,
                                       int64_t j0)
{
    const T zero = tc_round<T>(0.0f);
    for (int e = threadIdx.x; e < BK * BN; e += NT) {
        int q = p.tb ? e % BK : e / BN, c = p.tb ? e / BK : e % BN;
        int64_t kk = k0 + q, j = j0 + c;
        T v = zero;
        if (kk < p.k && j < p.n)
            v = p.tb ? b[j * p.ldb + kk] : b[kk * p.ldb + j];
        s[q][c] = v;
    }
}

template <class T>
__global__ void __launch_bounds__(NT) hgemm_wmma(gkc_tc p, int64_t y0, int64_t z0)
{
    __shared__ __align__(32) T as[BM][LDA];
    __shared__ __align__(32) T bs[BK][LDB];
    __shared__ __align__(32) float cs[BM][LDC];
    int64_t z = z0 + blockIdx.z;
    const T *a = (const T *)p.a + z * p.sa, *b = (const T *)p.b + z * p.sb;
    int64_t i0 = (y0 + blockIdx.y) * BM, j0 = (int64_t)blockIdx.x * BN;
    int warp = threadIdx.x >> 5, wm = (warp >> 1) * 32, wn = (warp & 1) * 32;

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
#pragma unroll
    for (int x = 0; x < 2; x++)
#pragma unroll
        for (int y = 0; y < 2; y++)
            wmma::fill_fragment(acc[x][y], 0.0f);

    for (int64_t k0 = 0; k0 < p.k; k0 += BK) {
        load_a(p, a, as, i0, k0);
        load_b(p, b, bs, k0, j0);
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; kk += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> fa[2];
            wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::row_major> fb[2];
#pragma unroll
            for (int x = 0; x < 2; x++)
                wmma::load_matrix_sync(fa[x], &as[wm + 16 * x][kk], LDA);
#pragma unroll
            for (int y = 0; y < 2; y++)
                wmma::load_matrix_sync(fb[y], &bs[kk][wn + 16 * y], LDB);
#pragma unroll
            for (int x = 0; x < 2; x++)
#pragma unroll
                for (int y = 0; y < 2; y++)
                    wmma::mma_sync(acc[x][y], fa[x], fb[y], acc[x][y]);
        }
        __syncthreads();
    }

    /* the fragments' layout is opaque: through shared memory to the epilogue */
#pragma unroll
    for (int x = 0; x < 2; x++)
#pragma unroll
        for (int y = 0; y < 2; y++)
            wmma::store_matrix_sync(&cs[wm + 16 * x][wn + 16 * y], acc[x][y], LDC,
                                    wmma::mem_row_major);
    __syncthreads();
    void *cz = tc_c_at(p, z);
    for (int e = threadIdx.x; e < BM * BN; e += NT) {
        int r = e / BN, c = e % BN;
        int64_t i = i0 + r, j = j0 + c;
        if (i < p.m && j < p.n)
            tc_put<T>(p, cz, i, j, cs[r][c]);
    }
}

template <class T>
gpuk_status run(gpuk_bctx *b, const gkc_tc &p, const char *variant)
{
    cudaStream_t s = b->stream;
    return gkc_launch_grid(b, p.op, variant, gkc_cdiv(p.n, BN), gkc_cdiv(p.m, BM), p.batch,
                           [&](dim3 g, int64_t y0, int64_t z0) {
                               hgemm_wmma<T><<<g, NT, 0, s>>>(p, y0, z0);
                           });
}

}  // namespace

GKC_KERNEL(gkc_hgemm_wmma)
{
    gkc_tc p;
    int done;
    GKC_TRY(gkc_tc_begin(b, args, "wmma", &p, &done));
    if (done)
        return GPUK_OK;
    return p.bf16 ? run<__nv_bfloat16>(b, p, "wmma") : run<__half>(b, p, "wmma");
}

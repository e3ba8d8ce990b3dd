/*
 * cublas_lowp.cu - the library rungs of the f16/bf16 matrix products
 * (issue 27): cublasGemmEx and cublasGemmStridedBatchedEx with 16-bit
 * inputs, f32 compute (CUBLAS_COMPUTE_32F: the tensor cores, f32
 * accumulation) and c in f32 or in the inputs' dtype, as c says.  The
 * yardstick of the hand-written ladder (tc_common.cuh).
 *
 * Row-major operands reach the column-major library as cublas.cu explains:
 * c = op(a) op(b) is, read column-major, c^T = op(b)^T op(a)^T, so b goes
 * first with its own transpose flag, then a, with the shape (n, m, k).  A
 * stride cuBLAS refuses (rows that overlap, ld < columns) is packed into a
 * dense scratch copy first; a single row's stride is never used
 * (gkc_tc_from replaced it).  MATMUL's bias: an f32 matrix is filled with
 * the bias rows and cuBLAS adds a b to it (beta 1) in f32; an f32 c is
 * that matrix itself, a 16-bit c is rounded from it once, by a kernel of
 * its own.  Filling a 16-bit c with the bias and letting cuBLAS add to it
 * rounds twice: cuBLAS rounds a b to c's dtype before it adds the old c
 * (an error of up to 3.4 times the bound of tc_common.cuh in tc-bench's
 * bf16 cases on an H100, bench/NOTES.md "Tensor cores, part 2").  k = 0
 * and GEMM's alpha = 0 never reach cuBLAS (gkc_tc_begin).
 */
#include <stdio.h>
#include "tc_common.cuh"

namespace {

constexpr int NT = 256;

/* dst = dense copy of the 16-bit src[nb][rows][cols] (batch stride sb, row stride ld) */
__global__ void pack16(const uint16_t *src, int64_t nb, int64_t rows, int64_t cols, int64_t sb,
                       int64_t ld, uint16_t *dst)
{
    int64_t total = nb * rows * cols, step = (int64_t)gridDim.x * NT;
    for (int64_t i = (int64_t)blockIdx.x * NT + threadIdx.x; i < total; i += step) {
        int64_t z = i / (rows * cols), rem = i - z * rows * cols;
        int64_t r = rem / cols, c = rem - r * cols;
        dst[i] = src[z * sb + r * ld + c];
    }
}

/* s[i, j] = bias[j] on every row of the f32 matrix s (row stride lds),
 * the bias read in c's dtype: exact, f32 holds every f16 and bf16 */
template <class T>
__global__ void fill_bias(gkc_tc p, float *s, int64_t lds)
{
    int64_t total = p.m * p.n, step = (int64_t)gridDim.x * NT;
    for (int64_t e = (int64_t)blockIdx.x * NT + threadIdx.x; e < total; e += step) {
        int64_t i = e / p.n, j = e - i * p.n;
        s[i * lds + j] = tc_out_load<T>(p, p.bias, j);
    }
}

/* c = s rounded to c's 16-bit dtype (nearest even): the one rounding */
template <class T>
__global__ void round_out(gkc_tc p, const float *s, int64_t lds)
{
    int64_t total = p.m * p.n, step = (int64_t)gridDim.x * NT;
    for (int64_t e = (int64_t)blockIdx.x * NT + threadIdx.x; e < total; e += step) {
        int64_t i = e / p.n, j = e - i * p.n;
        ((T *)p.c)[i * p.ldc + j] = tc_round<T>(s[i * lds + j]);
    }
}

/* An operand stored [nb][rows][cols] as cuBLAS may take it: itself, or a
 * dense copy in scratch slot `slot` when its rows overlap. */
gpuk_status as_blas(gpuk_bctx *b, int slot, const void **ptr, int64_t nb, int64_t rows,
                    int64_t cols, int64_t *sb, int64_t *ld, const gkc_tc &p, const char *variant)
{
    if (*ld >= cols || rows <= 1)
        return GPUK_OK;
    int64_t copies = *sb == 0 ? 1 : nb;
    void *buf = NULL;
    GKC_TRY(gkc_scratch(b, slot, (size_t)(copies * rows * cols) * 2, &buf));
    pack16<<<gkc_blocks(copies * rows * cols, NT, gkc_grid_cap(b)), NT, 0, b->stream>>>(
        (const uint16_t *)*ptr, copies, rows, cols, *sb, *ld, (uint16_t *)buf);
    GKC_LAUNCHED(b, p.op, variant);
    *ptr = buf;
    *ld = cols;
    *sb = *sb == 0 ? 0 : rows * cols;
    return GPUK_OK;
}

gpuk_status run(gpuk_bctx *b, const gpuk_args *args)
{
    const char *variant = "cublas";
    gkc_tc p;
    int done;
    GKC_TRY(gkc_tc_begin(b, args, variant, &p, &done));
    if (done)
        return GPUK_OK;
    cublasHandle_t h;
    GKC_TRY(gkc_blas(b, &h));
    const void *a = p.a, *bb = p.b;
    int64_t lda = p.lda, ldb = p.ldb, sa = p.sa, sb = p.sb;
    GKC_TRY(as_blas(b, GKC_SLOT_A, &a, p.batch, p.ta ? p.k : p.m, p.ta ? p.m : p.k, &sa, &lda, p,
                    variant));
    GKC_TRY(as_blas(b, GKC_SLOT_B, &bb, p.batch, p.tb ? p.n : p.k, p.tb ? p.k : p.n, &sb, &ldb, p,
                    variant));
    int64_t ldc = p.m > 1 ? p.ldc : (p.n > 1 ? p.n : 1);
    float alpha = p.alpha, beta = p.beta;
    void *c = p.c;
    cudaDataType_t in = p.bf16 ? CUDA_R_16BF : CUDA_R_16F;
    cudaDataType_t out = p.out16 ? in : CUDA_R_32F;
    unsigned grid = gkc_blocks(p.m * p.n, NT, gkc_grid_cap(b));
    if (p.bias) {
        /* MATMUL, a batch of one: the sum and the bias in f32 (see the top) */
        float *s = (float *)p.c;
        if (p.out16) {
            GKC_TRY(gkc_scratch(b, GKC_SLOT_WORK, (size_t)(p.m * p.n) * sizeof(float),
                                (void **)&s));
            ldc = p.n;
            out = CUDA_R_32F;
            c = s;
        }
        if (p.bf16)
            fill_bias<__nv_bfloat16><<<grid, NT, 0, b->stream>>>(p, s, ldc);
        else
            fill_bias<__half><<<grid, NT, 0, b->stream>>>(p, s, ldc);
        GKC_LAUNCHED(b, p.op, variant);
        beta = 1.0f;
    }
    cublasOperation_t opa = p.ta ? CUBLAS_OP_T : CUBLAS_OP_N, opb = p.tb ? CUBLAS_OP_T : CUBLAS_OP_N;
    cublasStatus_t s;
    const char *what;
    if (p.batch > 1) {
        what = "cublasGemmStridedBatchedEx";
        s = cublasGemmStridedBatchedEx_64(h, opb, opa, p.n, p.m, p.k, &alpha, bb, in, ldb, sb, a,
                                          in, lda, sa, &beta, c, out, ldc, p.sc, p.batch,
                                          CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    } else {
        what = "cublasGemmEx";
        s = cublasGemmEx_64(h, opb, opa, p.n, p.m, p.k, &alpha, bb, in, ldb, a, in, lda, &beta,
                            c, out, ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    }
    if (s != CUBLAS_STATUS_SUCCESS) {
        char msg[96];
        snprintf(msg, sizeof msg, "%s/%s: %s", p.op, variant, what);
        return gkc_blas_error(b, s, msg);
    }
    if (c != p.c) {
        if (p.bf16)
            round_out<__nv_bfloat16><<<grid, NT, 0, b->stream>>>(p, (const float *)c, ldc);
        else
            round_out<__half><<<grid, NT, 0, b->stream>>>(p, (const float *)c, ldc);
        GKC_LAUNCHED(b, p.op, variant);
    }
    return GPUK_OK;
}

}  // namespace

GKC_KERNEL(gkc_hgemm_cublas)
{
    return run(b, args);
}

/*
 * cublas.cu - the cuBLAS rungs of the matmul family: matmul (FP32 pedantic
 * and TF32), batched matmul (strided batched), gemm.  (dot and gemv call
 * cuBLAS from blas.cu.)
 *
 * Row-major tensors in a column-major library.  A row-major array X[r][c]
 * with row stride ld is, byte for byte, the column-major array X^T (c rows,
 * r columns) with leading dimension ld.  So nothing is copied:
 *   - GEMM / matmul: row-major C = op(A) op(B) is column-major
 *     C^T = op(B)^T op(A)^T.  cuBLAS gets the operands swapped (B first,
 *     then A), each keeping its own transpose flag, and the shape (n, m, k):
 *     gemm(opB, opA, n, m, k, alpha, B, ldb, A, lda, beta, C, ldc).
 * The FP32 rungs ask for CUBLAS_COMPUTE_32F_PEDANTIC per call (no TF32, no
 * emulation, whatever the handle or NVIDIA_TF32_OVERRIDE say); cublas_tf32
 * asks for CUBLAS_COMPUTE_32F_FAST_TF32.
 *
 * cuBLAS wants ld >= max(1, c).  A single row may carry any stride (it is
 * never used), so it is replaced by c; an input whose rows overlap (ld < c)
 * is packed into a dense scratch copy first.  BLAS quick-returns when the
 * inner dimension is 0 without scaling the output, so k = 0 is handled
 * here: the output becomes the bias, beta * output, or zeros.
 */
#include <stdio.h>
#include "cuda_internal.h"

namespace {

constexpr int NT = 256;

/* dst = dense copy of src[nb][rows][cols] (batch stride sb, row stride ld). */
__global__ void pack_dense(const float *src, int64_t nb, int64_t rows, int64_t cols, int64_t sb,
                           int64_t ld, float *dst)
{
    int64_t total = nb * rows * cols, step = (int64_t)gridDim.x * NT;
    for (int64_t i = (int64_t)blockIdx.x * NT + threadIdx.x; i < total; i += step) {
        int64_t z = i / (rows * cols), rem = i - z * rows * cols;
        int64_t r = rem / cols, c = rem - r * cols;
        dst[i] = src[z * sb + r * ld + c];
    }
}

/* c[z][r][j] = bias[j], or beta * c (beta == 0: zeros, c not read). */
__global__ void fill_out(float *c, int64_t nb, int64_t rows, int64_t cols, int64_t sb, int64_t ld,
                         const float *bias, float beta)
{
    int64_t total = nb * rows * cols, step = (int64_t)gridDim.x * NT;
    for (int64_t i = (int64_t)blockIdx.x * NT + threadIdx.x; i < total; i += step) {
        int64_t z = i / (rows * cols), rem = i - z * rows * cols;
        int64_t r = rem / cols, j = rem - r * cols;
        float *q = c + z * sb + r * ld + j;
        *q = bias ? bias[j] : (beta != 0.0f ? beta * *q : 0.0f);
    }
}

/* One operand as cuBLAS will see it. */
struct opnd {
    const float *p;
    int64_t ld, sb;
};

/* Make ld acceptable to cuBLAS for row-major storage [nb][rows][cols]. */
gpuk_status blas_input(gpuk_bctx *b, int slot, const float *p, int64_t nb, int64_t rows,
                       int64_t cols, int64_t sb, int64_t ld, const char *op, const char *variant,
                       opnd *out)
{
    int64_t need = cols > 1 ? cols : 1;
    out->p = p;
    out->sb = sb;
    out->ld = ld;
    if (rows <= 1) {
        out->ld = need;
    } else if (ld < need) {
        int64_t copies = sb == 0 ? 1 : nb;
        void *buf = NULL;
        GKC_TRY(gkc_scratch(b, slot, (size_t)(copies * rows * cols) * sizeof(float), &buf));
        pack_dense<<<gkc_blocks(copies * rows * cols, NT, gkc_grid_cap(b)), NT, 0, b->stream>>>(
            p, copies, rows, cols, sb, ld, (float *)buf);
        GKC_LAUNCHED(b, op, variant);
        out->p = (const float *)buf;
        out->ld = cols;
        out->sb = sb == 0 ? 0 : rows * cols;
    }
    return GPUK_OK;
}

gpuk_status blas_output(gpuk_bctx *b, int64_t rows, int64_t cols, int64_t ld, const char *op,
                        const char *variant, int64_t *out_ld)
{
    *out_ld = ld;
    if (rows <= 1)
        *out_ld = cols > 1 ? cols : 1;
    else if (ld < cols)
        return gkc_fail(b, GPUK_ERR_LAYOUT, "%s/%s: output rows overlap (row stride %lld < %lld)",
                        op, variant, (long long)ld, (long long)cols);
    return GPUK_OK;
}

gpuk_status fill(gpuk_bctx *b, float *c, int64_t nb, int64_t rows, int64_t cols, int64_t sb,
                 int64_t ld, const float *bias, float beta, const char *op, const char *variant)
{
    fill_out<<<gkc_blocks(nb * rows * cols, NT, gkc_grid_cap(b)), NT, 0, b->stream>>>(
        c, nb, rows, cols, sb, ld, bias, beta);
    GKC_LAUNCHED(b, op, variant);
    return GPUK_OK;
}

/* Row-major c[m,n] = alpha op(a) op(b) + beta c (see the top of the file). */
gpuk_status gemm_rowmajor(gpuk_bctx *b, const char *op, const char *variant, int ta, int tb,
                          int64_t m, int64_t n, int64_t k, float alpha, const gpuk_tdesc *A,
                          const gpuk_tdesc *B, float beta, const gpuk_tdesc *C,
                          cublasComputeType_t ct)
{
    cublasHandle_t h;
    GKC_TRY(gkc_blas(b, &h));
    opnd a, bb;
    int64_t ldc;
    GKC_TRY(blas_input(b, GKC_SLOT_A, (const float *)A->data, 1, A->shape[0], A->shape[1], 0,
                       A->stride[0], op, variant, &a));
    GKC_TRY(blas_input(b, GKC_SLOT_B, (const float *)B->data, 1, B->shape[0], B->shape[1], 0,
                       B->stride[0], op, variant, &bb));
    GKC_TRY(blas_output(b, m, n, C->stride[0], op, variant, &ldc));
    cublasStatus_t s =
        cublasGemmEx_64(h, tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : CUBLAS_OP_N, n, m, k,
                        &alpha, bb.p, CUDA_R_32F, bb.ld, a.p, CUDA_R_32F, a.ld, &beta, C->data,
                        CUDA_R_32F, ldc, ct, CUBLAS_GEMM_DEFAULT);
    if (s != CUBLAS_STATUS_SUCCESS) {
        char what[96];
        snprintf(what, sizeof what, "%s/%s: cublasGemmEx", op, variant);
        return gkc_blas_error(b, s, what);
    }
    return GPUK_OK;
}

gpuk_status matmul_blas(gpuk_bctx *b, const gpuk_args *args, const char *variant,
                        cublasComputeType_t ct)
{
    GKC_TRY(gkc_enter(b));
    const gpuk_tdesc *A = &args->in[0], *B = &args->in[1], *C = &args->out;
    int64_t m = A->shape[0], k = A->shape[1], n = B->shape[1];
    const float *bias = args->has_bias ? (const float *)args->in[2].data : NULL;
    float *c = (float *)C->data;
    /* With a bias, C starts as bias rows and cuBLAS adds A B to it (beta = 1). */
    if (bias || k == 0)
        GKC_TRY(fill(b, c, 1, m, n, 0, C->stride[0], bias, 0.0f, "matmul", variant));
    if (k == 0)
        return GPUK_OK;
    return gemm_rowmajor(b, "matmul", variant, 0, 0, m, n, k, 1.0f, A, B, bias ? 1.0f : 0.0f, C,
                         ct);
}

}  // namespace

GKC_KERNEL(gkc_matmul_cublas)
{
    return matmul_blas(b, args, "cublas", CUBLAS_COMPUTE_32F_PEDANTIC);
}

GKC_KERNEL(gkc_matmul_cublas_tf32)
{
    return matmul_blas(b, args, "cublas_tf32", CUBLAS_COMPUTE_32F_FAST_TF32);
}

/* Strided batched: batch strides pass straight through, and 0 (a broadcast
 * operand) is a stride cuBLAS takes as is. */
GKC_KERNEL(gkc_batched_cublas)
{
    GKC_TRY(gkc_enter(b));
    const gpuk_tdesc *A = &args->in[0], *B = &args->in[1], *C = &args->out;
    int64_t nb = C->shape[0], m = A->shape[1], k = A->shape[2], n = B->shape[2];
    const char *op = "batched_matmul", *variant = "cublas";
    if (k == 0)
        return fill(b, (float *)C->data, nb, m, n, C->stride[0], C->stride[1], NULL, 0.0f, op,
                    variant);
    cublasHandle_t h;
    GKC_TRY(gkc_blas(b, &h));
    opnd a, bb;
    int64_t ldc;
    GKC_TRY(blas_input(b, GKC_SLOT_A, (const float *)A->data, nb, m, k,
                       A->shape[0] == 1 ? 0 : A->stride[0], A->stride[1], op, variant, &a));
    GKC_TRY(blas_input(b, GKC_SLOT_B, (const float *)B->data, nb, k, n,
                       B->shape[0] == 1 ? 0 : B->stride[0], B->stride[1], op, variant, &bb));
    GKC_TRY(blas_output(b, m, n, C->stride[1], op, variant, &ldc));
    const float alpha = 1.0f, beta = 0.0f;
    GKC_BLAS(b,
             cublasGemmStridedBatchedEx_64(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, bb.p,
                                           CUDA_R_32F, bb.ld, bb.sb, a.p, CUDA_R_32F, a.ld, a.sb,
                                           &beta, C->data, CUDA_R_32F, ldc, C->stride[0], nb,
                                           CUBLAS_COMPUTE_32F_PEDANTIC, CUBLAS_GEMM_DEFAULT),
             "batched_matmul/cublas: cublasGemmStridedBatchedEx");
    return GPUK_OK;
}

GKC_KERNEL(gkc_gemm_cublas)
{
    GKC_TRY(gkc_enter(b));
    const gpuk_tdesc *A = &args->in[0], *B = &args->in[1], *C = &args->out;
    int64_t m = C->shape[0], n = C->shape[1];
    int64_t k = args->trans_a ? A->shape[0] : A->shape[1];
    /* k = 0, or alpha = 0 (BLAS: a and b are then not read): c = beta c */
    if (k == 0 || args->alpha == 0.0f)
        return fill(b, (float *)C->data, 1, m, n, 0, C->stride[0], NULL, args->beta, "gemm",
                    "cublas");
    return gemm_rowmajor(b, "gemm", "cublas", args->trans_a, args->trans_b, m, n, k, args->alpha,
                         A, B, args->beta, C, CUBLAS_COMPUTE_32F_PEDANTIC);
}

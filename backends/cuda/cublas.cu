/*
 * cublas.cu - the cuBLAS rungs of the matmul family: matmul (FP32 pedantic,
 * TF32, FP64), batched matmul (strided batched; f32, f64), gemm (f32,
 * f64).  (dot and gemv call cuBLAS from blas.cu.)
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
 * asks for CUBLAS_COMPUTE_32F_FAST_TF32.  The FP64 rungs (matmul, batched
 * matmul, gemm in f64) ask for CUBLAS_COMPUTE_64F, DGEMM itself: FP64
 * arithmetic (on sm_90 the DMMA tensor cores compute in full FP64), and
 * the fixed-point emulation of cuBLAS 13 only where the handle's math mode
 * is CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH, which this backend never sets.
 * (The pedantic 64F type would promise nothing more and is documented as
 * possibly slower: the yardstick of the f64 ladder is the DGEMM a caller
 * gets.)
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

/* The helpers below serve f32 and f64 (T); a parameter typed same<T> does
 * not take part in deducing T, so a NULL bias or a literal beta still
 * deduces T from the output alone. */
template <class T>
struct same {
    using type = T;
};
template <class T>
using same_t = typename same<T>::type;

/* c[z][r][j] = bias[j], or beta * c (beta == 0: zeros, c not read). */
template <class T>
__global__ void fill_out(T *c, int64_t nb, int64_t rows, int64_t cols, int64_t sb, int64_t ld,
                         const T *bias, T beta)
{
    int64_t total = nb * rows * cols, step = (int64_t)gridDim.x * NT;
    for (int64_t i = (int64_t)blockIdx.x * NT + threadIdx.x; i < total; i += step) {
        int64_t z = i / (rows * cols), rem = i - z * rows * cols;
        int64_t r = rem / cols, j = rem - r * cols;
        T *q = c + z * sb + r * ld + j;
        *q = bias ? bias[j] : (beta != T(0) ? beta * *q : T(0));
    }
}

/* One operand as cuBLAS will see it. */
template <class T>
struct opnd_t {
    const T *p;
    int64_t ld, sb;
};

/* Make ld acceptable to cuBLAS for row-major storage [nb][rows][cols]. */
template <class T>
gpuk_status blas_input(gpuk_bctx *b, int slot, const T *p, int64_t nb, int64_t rows,
                       int64_t cols, int64_t sb, int64_t ld, const char *op, const char *variant,
                       opnd_t<T> *out)
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
        GKC_TRY(gkc_scratch(b, slot, (size_t)(copies * rows * cols) * sizeof(T), &buf));
        GKC_TRY(gkc_pack_dense(b, p, copies, rows, cols, sb, ld, (T *)buf, op, variant));
        out->p = (const T *)buf;
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

template <class T>
gpuk_status fill(gpuk_bctx *b, T *c, int64_t nb, int64_t rows, int64_t cols, int64_t sb,
                 int64_t ld, const same_t<T> *bias, same_t<T> beta, const char *op,
                 const char *variant)
{
    fill_out<<<gkc_blocks(nb * rows * cols, NT, gkc_grid_cap(b)), NT, 0, b->stream>>>(
        c, nb, rows, cols, sb, ld, bias, beta);
    GKC_LAUNCHED(b, op, variant);
    return GPUK_OK;
}

/* The cuBLAS names of T: its data type and the compute type of its full
 * precision (f32: pedantic, so never TF32; f64: DGEMM's own). */
template <class T>
struct blas_type;
template <>
struct blas_type<float> {
    static constexpr cudaDataType_t data = CUDA_R_32F;
    static constexpr cublasComputeType_t compute = CUBLAS_COMPUTE_32F_PEDANTIC;
};
template <>
struct blas_type<double> {
    static constexpr cudaDataType_t data = CUDA_R_64F;
    static constexpr cublasComputeType_t compute = CUBLAS_COMPUTE_64F;
};

/* Row-major c[m,n] = alpha op(a) op(b) + beta c (see the top of the file). */
template <class T>
gpuk_status gemm_rowmajor(gpuk_bctx *b, const char *op, const char *variant, int ta, int tb,
                          int64_t m, int64_t n, int64_t k, T alpha, const gpuk_tdesc *A,
                          const gpuk_tdesc *B, T beta, const gpuk_tdesc *C,
                          cublasComputeType_t ct)
{
    cublasHandle_t h;
    GKC_TRY(gkc_blas(b, &h));
    opnd_t<T> a, bb;
    int64_t ldc;
    GKC_TRY(blas_input(b, GKC_SLOT_A, (const T *)A->data, 1, A->shape[0], A->shape[1], 0,
                       A->stride[0], op, variant, &a));
    GKC_TRY(blas_input(b, GKC_SLOT_B, (const T *)B->data, 1, B->shape[0], B->shape[1], 0,
                       B->stride[0], op, variant, &bb));
    GKC_TRY(blas_output(b, m, n, C->stride[0], op, variant, &ldc));
    constexpr cudaDataType_t dt = blas_type<T>::data;
    cublasStatus_t s =
        cublasGemmEx_64(h, tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : CUBLAS_OP_N, n, m, k,
                        &alpha, bb.p, dt, bb.ld, a.p, dt, a.ld, &beta, C->data, dt, ldc, ct,
                        CUBLAS_GEMM_DEFAULT);
    if (s != CUBLAS_STATUS_SUCCESS) {
        char what[96];
        snprintf(what, sizeof what, "%s/%s: cublasGemmEx", op, variant);
        return gkc_blas_error(b, s, what);
    }
    return GPUK_OK;
}

template <class T>
gpuk_status matmul_blas(gpuk_bctx *b, const gpuk_args *args, const char *variant,
                        cublasComputeType_t ct)
{
    GKC_TRY(gkc_enter(b));
    const gpuk_tdesc *A = &args->in[0], *B = &args->in[1], *C = &args->out;
    int64_t m = A->shape[0], k = A->shape[1], n = B->shape[1];
    const T *bias = args->has_bias ? (const T *)args->in[2].data : NULL;
    T *c = (T *)C->data;
    /* With a bias, C starts as bias rows and cuBLAS adds A B to it (beta = 1). */
    if (bias || k == 0)
        GKC_TRY(fill(b, c, 1, m, n, 0, C->stride[0], bias, 0, "matmul", variant));
    if (k == 0)
        return GPUK_OK;
    return gemm_rowmajor<T>(b, "matmul", variant, 0, 0, m, n, k, T(1), A, B, T(bias ? 1 : 0), C,
                            ct);
}

/* Strided batched: batch strides pass straight through, and 0 (a broadcast
 * operand) is a stride cuBLAS takes as is. */
template <class T>
gpuk_status batched_blas(gpuk_bctx *b, const gpuk_args *args)
{
    GKC_TRY(gkc_enter(b));
    const gpuk_tdesc *A = &args->in[0], *B = &args->in[1], *C = &args->out;
    int64_t nb = C->shape[0], m = A->shape[1], k = A->shape[2], n = B->shape[2];
    const char *op = "batched_matmul", *variant = "cublas";
    if (k == 0)
        return fill(b, (T *)C->data, nb, m, n, C->stride[0], C->stride[1], NULL, 0, op, variant);
    cublasHandle_t h;
    GKC_TRY(gkc_blas(b, &h));
    opnd_t<T> a, bb;
    int64_t ldc;
    GKC_TRY(blas_input(b, GKC_SLOT_A, (const T *)A->data, nb, m, k,
                       A->shape[0] == 1 ? 0 : A->stride[0], A->stride[1], op, variant, &a));
    GKC_TRY(blas_input(b, GKC_SLOT_B, (const T *)B->data, nb, k, n,
                       B->shape[0] == 1 ? 0 : B->stride[0], B->stride[1], op, variant, &bb));
    GKC_TRY(blas_output(b, m, n, C->stride[1], op, variant, &ldc));
    const T alpha = 1, beta = 0;
    constexpr cudaDataType_t dt = blas_type<T>::data;
    GKC_BLAS(b,
             cublasGemmStridedBatchedEx_64(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, bb.p, dt,
                                           bb.ld, bb.sb, a.p, dt, a.ld, a.sb, &beta, C->data, dt,
                                           ldc, C->stride[0], nb, blas_type<T>::compute,
                                           CUBLAS_GEMM_DEFAULT),
             "batched_matmul/cublas: cublasGemmStridedBatchedEx");
    return GPUK_OK;
}

/* gemm: alpha and beta in T as the caller gave them (gkc_scalar: the
 * doubles of ABI 2.4 for f64). */
template <class T>
gpuk_status gemm_blas(gpuk_bctx *b, const gpuk_args *args)
{
    GKC_TRY(gkc_enter(b));
    T alpha = gkc_scalar<T>(args->alpha, args->alpha_f64);
    T beta = gkc_scalar<T>(args->beta, args->beta_f64);
    const gpuk_tdesc *A = &args->in[0], *B = &args->in[1], *C = &args->out;
    int64_t m = C->shape[0], n = C->shape[1];
    int64_t k = args->trans_a ? A->shape[0] : A->shape[1];
    /* k = 0, or alpha = 0 (BLAS: a and b are then not read): c = beta c */
    if (k == 0 || alpha == T(0))
        return fill(b, (T *)C->data, 1, m, n, 0, C->stride[0], NULL, beta, "gemm", "cublas");
    return gemm_rowmajor<T>(b, "gemm", "cublas", args->trans_a, args->trans_b, m, n, k, alpha, A,
                            B, beta, C, blas_type<T>::compute);
}

}  // namespace

GKC_KERNEL(gkc_matmul_cublas)
{
    if (args->dtype == GPUK_F64)
        return matmul_blas<double>(b, args, "cublas", blas_type<double>::compute);
    return matmul_blas<float>(b, args, "cublas", blas_type<float>::compute);
}

GKC_KERNEL(gkc_matmul_cublas_tf32)
{
    return matmul_blas<float>(b, args, "cublas_tf32", CUBLAS_COMPUTE_32F_FAST_TF32);
}

GKC_KERNEL_F32_F64(gkc_batched_cublas, batched_blas)

GKC_KERNEL_F32_F64(gkc_gemm_cublas, gemm_blas)

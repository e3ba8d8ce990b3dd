/*
 * cusparse.cu - the cuSPARSE rung of SpMV, through the generic API
 * (cusparseSpMV on a CSR descriptor, 32-bit indices, values and compute
 * in the op's dtype: CUDA_R_32F or CUDA_R_64F).
 *
 * csr_prepare (called when core creates the matrix) builds the stream
 * rung's window partition and keeps it in csr->prepared (a gkc_csr_state).
 * The CSR descriptor also lives there, made by the first cuSPARSE call:
 * the descriptor names the values' type, which the matrix gets from the
 * dtype it was created with and csr_prepare is not told (gpuk_csr_desc
 * carries none), while the call knows it (args->dtype, the matrix's).  The
 * dense-vector descriptors are cheap host objects made per call.  The
 * work buffer comes from a scratch slot of the context, so steady-state
 * calls allocate nothing.
 */
#include <stdlib.h>
#include "cuda_internal.h"

namespace {

gpuk_status make_descr(gpuk_bctx *b, const gpuk_csr_desc *csr, cudaDataType type,
                       cusparseConstSpMatDescr_t *out)
{
    GKC_SPARSE(b,
               cusparseCreateConstCsr(out, csr->rows, csr->cols, csr->nnz, csr->row_ptr,
                                      csr->col_idx, csr->values, CUSPARSE_INDEX_32I,
                                      CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, type),
               "spmv/cusparse: cusparseCreateConstCsr");
    return GPUK_OK;
}

/* Destroys the descriptors it holds when the call returns, on every path. */
struct spmv_descrs {
    cusparseConstSpMatDescr_t own_mat = NULL;
    cusparseConstDnVecDescr_t vx = NULL;
    cusparseDnVecDescr_t vy = NULL;
    ~spmv_descrs()
    {
        if (vy)
            cusparseDestroyDnVec(vy);
        if (vx)
            cusparseDestroyDnVec(vx);
        if (own_mat)
            cusparseDestroySpMat(own_mat);
    }
};

}  // namespace

gpuk_status gkc_csr_prepare(gpuk_bctx *b, gpuk_csr_desc *csr)
{
    csr->prepared = NULL;
    if (csr->nnz == 0)
        return GPUK_OK;       /* spmv writes zeros without cuSPARSE or windows */
    GKC_TRY(gkc_enter(b));
    gkc_csr_state *st = (gkc_csr_state *)calloc(1, sizeof *st);
    if (!st)
        return gkc_fail(b, GPUK_ERR_NO_MEMORY, "csr_prepare: out of host memory");
    /* The stream rung's partition: a property of the matrix, so built
     * once here rather than on every call. */
    gpuk_status s;
    size_t bytes = (size_t)(gkc_stream_windows(csr->nnz) + 1) * sizeof(int32_t);
    cudaError_t e = cudaMalloc((void **)&st->win_start, bytes);
    if (e != cudaSuccess) {
        st->win_start = NULL;
        s = gkc_cuda_error(b, e, "csr_prepare: window partition");
    } else {
        s = gkc_stream_partition(b, csr, st->win_start);
    }
    if (s != GPUK_OK) {
        if (st->win_start)
            cudaFree(st->win_start);
        free(st);
        return s;
    }
    csr->prepared = st;
    return GPUK_OK;
}

void gkc_csr_release(gpuk_bctx *b, gpuk_csr_desc *csr)
{
    gkc_csr_state *st = (gkc_csr_state *)csr->prepared;
    if (!st)
        return;
    if (st->win_start) {
        /* cudaFree waits for the device, so queued spmv calls finish first */
        if (cudaSetDevice(b->device) != cudaSuccess || cudaFree(st->win_start) != cudaSuccess)
            (void)cudaGetLastError();
    }
    if (st->mat)
        cusparseDestroySpMat(st->mat);
    free(st);
    csr->prepared = NULL;
}

namespace {

template <class T>
gpuk_status spmv_cusparse(gpuk_bctx *b, const gpuk_args *args)
{
    const cudaDataType type = sizeof(T) == sizeof(double) ? CUDA_R_64F : CUDA_R_32F;
    GKC_TRY(gkc_enter(b));
    const gpuk_csr_desc *A = args->csr;
    T *y = (T *)args->out.data;
    /* beta = 0 below, but y may hold anything (NaN): start it from zeros
     * rather than rely on the library not reading it. */
    GKC_CUDA(b, cudaMemsetAsync(y, 0, (size_t)A->rows * sizeof(T), b->stream),
             "spmv/cusparse: cudaMemsetAsync");
    if (A->nnz == 0)
        return GPUK_OK;
    cusparseHandle_t h;
    GKC_TRY(gkc_sparse(b, &h));
    spmv_descrs d;
    cusparseConstSpMatDescr_t mat;
    gkc_csr_state *st = (gkc_csr_state *)A->prepared;
    if (st) {
        /* made by the matrix's first call; core refuses an x whose dtype
         * differs from the matrix's, so a second type is not expected,
         * but one would get its own descriptor rather than a wrong one */
        if (st->mat && st->mat_type != type) {
            cusparseDestroySpMat(st->mat);
            st->mat = NULL;
        }
        if (!st->mat) {
            GKC_TRY(make_descr(b, A, type, &st->mat));
            st->mat_type = type;
        }
        mat = st->mat;
    } else {
        GKC_TRY(make_descr(b, A, type, &d.own_mat));
        mat = d.own_mat;
    }
    GKC_SPARSE(b, cusparseCreateConstDnVec(&d.vx, A->cols, args->in[0].data, type),
               "spmv/cusparse: cusparseCreateConstDnVec");
    GKC_SPARSE(b, cusparseCreateDnVec(&d.vy, A->rows, y, type),
               "spmv/cusparse: cusparseCreateDnVec");
    const T alpha = 1, beta = 0;
    size_t bytes = 0;
    GKC_SPARSE(b,
               cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, mat, d.vx,
                                       &beta, d.vy, type, CUSPARSE_SPMV_ALG_DEFAULT, &bytes),
               "spmv/cusparse: cusparseSpMV_bufferSize");
    void *work = NULL;
    GKC_TRY(gkc_scratch(b, GKC_SLOT_WORK, bytes, &work));
    GKC_SPARSE(b,
               cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, mat, d.vx, &beta, d.vy,
                            type, CUSPARSE_SPMV_ALG_DEFAULT, work),
               "spmv/cusparse: cusparseSpMV");
    GKC_LAUNCHED(b, "spmv", "cusparse");
    return GPUK_OK;
}

}  // namespace

GKC_KERNEL_F32_F64(gkc_spmv_cusparse, spmv_cusparse)

/*
 * spmv.cu - y[rows] = A x for a CSR matrix A (32-bit indices): the
 * hand-written rungs (cuSPARSE is in cusparse.cu).  y is overwritten; an
 * empty row gives 0.
 */
#include "cuda_internal.h"

namespace {

constexpr int NT = 256;

/* 1. scalar: one thread per row (seed 002's kernel, writing y instead of
 * adding to it).  Neighbouring threads walk different rows, so a warp's
 * loads of values and col_idx land far apart, and a long row stalls its
 * whole warp. */
__global__ void spmv_scalar(const int32_t *row_ptr, const int32_t *col, const float *val,
                            const float *x, float *y, int64_t rows)
{
    int64_t step = (int64_t)gridDim.x * NT;
    for (int64_t r = (int64_t)blockIdx.x * NT + threadIdx.x; r < rows; r += step) {
        float s = 0.0f;
        for (int32_t e = row_ptr[r]; e < row_ptr[r + 1]; e++)
            s += val[e] * x[col[e]];
        y[r] = s;
    }
}

/* 2. vector: one warp per row.  The lanes read 32 consecutive values and
 * indices per step (coalesced), and the 32 partial sums meet through
 * shuffles.  Pays off once rows hold a few dozen entries; very short rows
 * leave lanes idle. */
__global__ void spmv_vector(const int32_t *row_ptr, const int32_t *col, const float *val,
                            const float *x, float *y, int64_t rows)
{
    int lane = threadIdx.x & 31;
    int64_t warp = ((int64_t)blockIdx.x * NT + threadIdx.x) >> 5;
    int64_t nwarps = ((int64_t)gridDim.x * NT) >> 5;
    for (int64_t r = warp; r < rows; r += nwarps) {
        int32_t end = row_ptr[r + 1];
        float s = 0.0f;
        for (int32_t e = row_ptr[r] + lane; e < end; e += 32)
            s += val[e] * x[col[e]];
        s = gkc_warp_sum(s);
        if (lane == 0)
            y[r] = s;
    }
}

}  // namespace

GKC_KERNEL(gkc_spmv_scalar)
{
    GKC_TRY(gkc_enter(b));
    const gpuk_csr_desc *A = args->csr;
    spmv_scalar<<<gkc_blocks(A->rows, NT, gkc_grid_cap(b)), NT, 0, b->stream>>>(
        A->row_ptr, A->col_idx, A->values, (const float *)args->in[0].data,
        (float *)args->out.data, A->rows);
    GKC_LAUNCHED(b, "spmv", "scalar");
    return GPUK_OK;
}

GKC_KERNEL(gkc_spmv_vector)
{
    GKC_TRY(gkc_enter(b));
    const gpuk_csr_desc *A = args->csr;
    spmv_vector<<<gkc_blocks(A->rows, NT / 32, gkc_grid_cap(b)), NT, 0, b->stream>>>(
        A->row_ptr, A->col_idx, A->values, (const float *)args->in[0].data,
        (float *)args->out.data, A->rows);
    GKC_LAUNCHED(b, "spmv", "vector");
    return GPUK_OK;
}

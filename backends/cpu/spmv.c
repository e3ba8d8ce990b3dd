/*
 * spmv.c - y[rows] = A x for a CSR matrix A (validated by core).
 *
 *   naive     one row after another
 *   omp       OpenMP over rows, static split by row count
 *   balanced  OpenMP over row ranges holding equal nnz (binary search in
 *             row_ptr), so a few long rows do not leave threads idle
 */
#include "config.h"

#include "cpu.h"

static inline float spmv_row(const gpuk_csr_desc *a, const float *x, int64_t r)
{
    float acc = 0.0f;
    for (int32_t p = a->row_ptr[r]; p < a->row_ptr[r + 1]; p++)
        acc += ((const float *)a->values)[p] * x[a->col_idx[p]];
    return acc;
}

/* naive: the textbook CSR loop; x is gathered through col_idx. */
CPU_KERNEL(spmv_naive)
{
    const gpuk_csr_desc *a = args->csr;
    const float *x = T_F32(&args->in[0]);
    float *y = T_F32(&args->out);
    for (int64_t r = 0; r < a->rows; r++)
        y[r] = spmv_row(a, x, r);
    return GPUK_OK;
}

/* Four accumulators over a row's nonzeros: the gathers of x are
 * independent, and four chains keep several loads in flight. */
static inline float spmv_row4(const gpuk_csr_desc *a, const float *x, int64_t r)
{
    int32_t p = a->row_ptr[r], end = a->row_ptr[r + 1];
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
    for (; p + 4 <= end; p += 4) {
        s0 += ((const float *)a->values)[p] * x[a->col_idx[p]];
        s1 += ((const float *)a->values)[p + 1] * x[a->col_idx[p + 1]];
        s2 += ((const float *)a->values)[p + 2] * x[a->col_idx[p + 2]];
        s3 += ((const float *)a->values)[p + 3] * x[a->col_idx[p + 3]];
    }
    for (; p < end; p++)
        s0 += ((const float *)a->values)[p] * x[a->col_idx[p]];
    return (s0 + s1) + (s2 + s3);
}

/* Matrices below this many nonzeros run on one thread. */
#define SPMV_PAR_MIN 32768

/* omp: OpenMP over rows in equal-count blocks, four accumulators per row.
 * Fine for uniform rows; a few long rows leave the other threads idle. */
CPU_KERNEL(spmv_omp)
{
    const gpuk_csr_desc *a = args->csr;
    const float *x = T_F32(&args->in[0]);
    float *y = T_F32(&args->out);
    int nt = a->nnz + a->rows < SPMV_PAR_MIN ? 1 : b->nthreads;
#pragma omp parallel for num_threads(nt) schedule(static)
    for (int64_t r = 0; r < a->rows; r++)
        y[r] = spmv_row4(a, x, r);
    return GPUK_OK;
}

/* The cost of rows [0, r) is taken as row_ptr[r] + r (nonzeros plus one
 * per row for its store and loop), strictly increasing in r: the first r
 * whose cost reaches target. */
static int64_t spmv_row_at(const gpuk_csr_desc *a, int64_t target)
{
    int64_t lo = 0, hi = a->rows;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (a->row_ptr[mid] + mid < target)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* balanced: each thread takes the rows holding an equal share of the
 * cost (nonzeros + rows), found by binary search in row_ptr, so the work,
 * not the row count, is split evenly: a power-law matrix whose first rows
 * hold most of the nonzeros keeps every thread busy. */
CPU_KERNEL(spmv_balanced)
{
    const gpuk_csr_desc *a = args->csr;
    const float *x = T_F32(&args->in[0]);
    float *y = T_F32(&args->out);
    int nt = a->nnz + a->rows < SPMV_PAR_MIN ? 1 : b->nthreads;
#pragma omp parallel num_threads(nt)
    {
        int id = 0, cnt = 1;
#ifdef _OPENMP
        id = omp_get_thread_num();
        cnt = omp_get_num_threads();
#endif
        int64_t total = a->nnz + a->rows;
        int64_t r0 = spmv_row_at(a, total * id / cnt);
        int64_t r1 = spmv_row_at(a, total * (id + 1) / cnt);
        for (int64_t r = r0; r < r1; r++)
            y[r] = spmv_row4(a, x, r);
    }
    return GPUK_OK;
}

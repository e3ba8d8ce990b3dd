/*
 * spmv.c - the spmv family on the CPU (tests/ops/spmv.c, gpuk_spmv(3)):
 * y[rows] = A x for a CSR matrix A (validated by core), in f32 and f64
 * from one source (dtype.h); A's values have x's type.
 *
 *   naive     one row after another
 *   omp       OpenMP over rows, static split by row count
 *   balanced  OpenMP over row ranges holding equal nnz (binary search in
 *             row_ptr), so a few long rows do not leave threads idle
 */
#include "config.h"

#include "cpu.h"

/* Matrices below this many nonzeros run on one thread. */
#define SPMV_PAR_MIN 32768

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

#define SPMV_RUNGS(DT, T, S, ...)                                                           \
    static inline T spmv_row_##S(const gpuk_csr_desc *a, const T *x, int64_t r)             \
    {                                                                                       \
        const T *v = a->values;                                                             \
        T acc = 0;                                                                          \
        for (int32_t p = a->row_ptr[r]; p < a->row_ptr[r + 1]; p++)                         \
            acc += v[p] * x[a->col_idx[p]];                                                 \
        return acc;                                                                         \
    }                                                                                       \
    /* naive: the textbook CSR loop; x is gathered through col_idx. */                      \
    CPU_INSTANCE(spmv_naive, S)                                                             \
    {                                                                                       \
        const gpuk_csr_desc *a = args->csr;                                                 \
        const T *x = T_PTR(&args->in[0], T);                                                \
        T *y = T_PTR(&args->out, T);                                                        \
        for (int64_t r = 0; r < a->rows; r++)                                               \
            y[r] = spmv_row_##S(a, x, r);                                                   \
        return GPUK_OK;                                                                     \
    }                                                                                       \
    /* Four accumulators over a row's nonzeros: the gathers of x are                        \
     * independent, and four chains keep several loads in flight. */                        \
    static inline T spmv_row4_##S(const gpuk_csr_desc *a, const T *x, int64_t r)            \
    {                                                                                       \
        const T *v = a->values;                                                             \
        int32_t p = a->row_ptr[r], end = a->row_ptr[r + 1];                                 \
        T s0 = 0, s1 = 0, s2 = 0, s3 = 0;                                                   \
        for (; p + 4 <= end; p += 4) {                                                      \
            s0 += v[p] * x[a->col_idx[p]];                                                  \
            s1 += v[p + 1] * x[a->col_idx[p + 1]];                                          \
            s2 += v[p + 2] * x[a->col_idx[p + 2]];                                          \
            s3 += v[p + 3] * x[a->col_idx[p + 3]];                                          \
        }                                                                                   \
        for (; p < end; p++)                                                                \
            s0 += v[p] * x[a->col_idx[p]];                                                  \
        return (s0 + s1) + (s2 + s3);                                                       \
    }                                                                                       \
    /* omp: OpenMP over rows in equal-count blocks, four accumulators per                   \
     * row.  Fine for uniform rows; a few long rows leave the other threads                 \
     * idle. */                                                                             \
    CPU_INSTANCE(spmv_omp, S)                                                               \
    {                                                                                       \
        const gpuk_csr_desc *a = args->csr;                                                 \
        const T *x = T_PTR(&args->in[0], T);                                                \
        T *y = T_PTR(&args->out, T);                                                        \
        int nt = a->nnz + a->rows < SPMV_PAR_MIN ? 1 : b->nthreads;                         \
        _Pragma("omp parallel for num_threads(nt) schedule(static)")                        \
        for (int64_t r = 0; r < a->rows; r++)                                               \
            y[r] = spmv_row4_##S(a, x, r);                                                  \
        return GPUK_OK;                                                                     \
    }                                                                                       \
    /* balanced: each thread takes the rows holding an equal share of the                   \
     * cost (nonzeros + rows), found by binary search in row_ptr, so the                    \
     * work, not the row count, is split evenly: a power-law matrix whose                   \
     * first rows hold most of the nonzeros keeps every thread busy. */                     \
    CPU_INSTANCE(spmv_balanced, S)                                                          \
    {                                                                                       \
        const gpuk_csr_desc *a = args->csr;                                                 \
        const T *x = T_PTR(&args->in[0], T);                                                \
        T *y = T_PTR(&args->out, T);                                                        \
        int nt = a->nnz + a->rows < SPMV_PAR_MIN ? 1 : b->nthreads;                         \
        _Pragma("omp parallel num_threads(nt)")                                             \
        {                                                                                   \
            int id = CPU_THREAD_NUM(), cnt = CPU_NUM_THREADS();                             \
            int64_t total = a->nnz + a->rows;                                               \
            int64_t r0 = spmv_row_at(a, total * id / cnt);                                  \
            int64_t r1 = spmv_row_at(a, total * (id + 1) / cnt);                            \
            for (int64_t r = r0; r < r1; r++)                                               \
                y[r] = spmv_row4_##S(a, x, r);                                              \
        }                                                                                   \
        return GPUK_OK;                                                                     \
    }
CPU_FLOAT_DTYPES(SPMV_RUNGS)
CPU_BY_DTYPE(spmv_naive, CPU_FLOAT_DTYPES)
CPU_BY_DTYPE(spmv_omp, CPU_FLOAT_DTYPES)
CPU_BY_DTYPE(spmv_balanced, CPU_FLOAT_DTYPES)

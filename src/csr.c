/*
 * csr.c - CSR matrices: validated once, on the host, when created, so
 * spmv never has to check a structure again (and kernels can trust every
 * index they read).
 */
#include "gpuk_internal.h"

#include <stdlib.h>
#include <string.h>

static gpuk_status upload(gpuk_context *ctx, const void *src, size_t bytes, void **dst,
                          const char *what)
{
    gpuk_status st;
    *dst = NULL;
    if (bytes == 0)
        return GPUK_OK;
    if ((st = ctx->be->alloc(ctx->b, bytes, dst)) != GPUK_OK)
        return gk_backend_fail(ctx, st, what);
    if ((st = ctx->be->write(ctx->b, *dst, src, bytes)) != GPUK_OK)
        return gk_backend_fail(ctx, st, what);
    return GPUK_OK;
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Columns within a row may come in any order, but each (row, column) pair
 * only once: cuSPARSE assumes it, and with it every rung computes the same
 * function.  Each row's columns are sorted in a scratch copy the length
 * of the longest row, so the check costs O(nnz log) time and O(longest
 * row) memory whatever the declared number of columns (a 1 x (2^31 - 1)
 * matrix with one entry must not cost a 2^31-entry table). */
static gpuk_status check_unique(gpuk_context *ctx, int64_t rows, const int32_t *row_ptr,
                                const int32_t *col_idx, int64_t longest)
{
    int32_t *scratch = malloc((size_t)longest * sizeof *scratch);
    if (!scratch)
        return gk_fail(ctx, GPUK_ERR_NO_MEMORY, "gpuk_csr_create: out of host memory for a "
                       "%lld-entry row", (long long)longest);
    gpuk_status st = GPUK_OK;
    for (int64_t i = 0; i < rows && st == GPUK_OK; i++) {
        int64_t lo = row_ptr[i], len = row_ptr[i + 1] - lo;
        if (len < 2)
            continue;
        memcpy(scratch, col_idx + lo, (size_t)len * sizeof *scratch);
        qsort(scratch, (size_t)len, sizeof *scratch, cmp_i32);
        for (int64_t j = 1; j < len; j++) {
            if (scratch[j] != scratch[j - 1])
                continue;
            /* name the second occurrence in the caller's order */
            int64_t first = -1, e = lo;
            for (; e < lo + len; e++) {
                if (col_idx[e] != scratch[j])
                    continue;
                if (first >= 0)
                    break;
                first = e;
            }
            st = gk_fail(ctx, GPUK_ERR_SPARSE, "col_idx[%lld] = %d repeats a column already in "
                         "row %lld (at col_idx[%lld]): each (row, column) pair may appear once",
                         (long long)e, (int)scratch[j], (long long)i, (long long)first);
            break;
        }
    }
    free(scratch);
    return st;
}

void gk_csr_release(gpuk_context *ctx, gk_csr *m)
{
    if (m->d.prepared && GK_BE_HAS(ctx->be, csr_release))
        ctx->be->csr_release(ctx->b, &m->d);
    if (m->row_ptr)
        ctx->be->free(ctx->b, m->row_ptr);
    if (m->col_idx)
        ctx->be->free(ctx->b, m->col_idx);
    if (m->values)
        ctx->be->free(ctx->b, m->values);
    free(m);
}

gpuk_status gpuk_csr_create(gpuk_context *ctx, int64_t rows, int64_t cols, int64_t nnz,
                            const int32_t *row_ptr, const int32_t *col_idx, const float *values,
                            gpuk_csr **out)
{
    return gpuk_csr_create_dtype(ctx, GPUK_F32, rows, cols, nnz, row_ptr, col_idx, values, out);
}

gpuk_status gpuk_csr_create_dtype(gpuk_context *ctx, gpuk_dtype dtype, int64_t rows,
                                  int64_t cols, int64_t nnz, const int32_t *row_ptr,
                                  const int32_t *col_idx, const void *values, gpuk_csr **out)
{
    gpuk_status st;
    if (!ctx)
        return GPUK_ERR_NULL;
    if (!out)
        return gk_fail(ctx, GPUK_ERR_NULL, "gpuk_csr_create: out is NULL");
    *out = NULL;
    if (!gk_elsize(dtype))
        return gk_fail(ctx, GPUK_ERR_DTYPE, "gpuk_csr_create: dtype %d is not a gpuk_dtype",
                       (int)dtype);
    if (rows < 0 || cols < 0 || nnz < 0)
        return gk_fail(ctx, GPUK_ERR_SHAPE, "gpuk_csr_create: rows %lld, cols %lld, nnz %lld: "
                       "none may be negative", (long long)rows, (long long)cols, (long long)nnz);
    if (rows >= INT32_MAX || cols > INT32_MAX || nnz > INT32_MAX)
        return gk_fail(ctx, GPUK_ERR_OVERFLOW, "gpuk_csr_create: rows, cols and nnz must fit "
                       "32-bit indices (rows < 2^31 - 1, cols and nnz <= 2^31 - 1)");
    if (!row_ptr)
        return gk_fail(ctx, GPUK_ERR_NULL, "row_ptr is NULL (it has rows + 1 entries)");
    if (nnz > 0 && !col_idx)
        return gk_fail(ctx, GPUK_ERR_NULL, "col_idx is NULL but nnz is %lld", (long long)nnz);
    if (nnz > 0 && !values)
        return gk_fail(ctx, GPUK_ERR_NULL, "values is NULL but nnz is %lld", (long long)nnz);

    if (row_ptr[0] != 0)
        return gk_fail(ctx, GPUK_ERR_SPARSE, "row_ptr[0] is %d, must be 0", (int)row_ptr[0]);
    int64_t longest = 0;
    for (int64_t i = 0; i < rows; i++) {
        if (row_ptr[i + 1] < row_ptr[i])
            return gk_fail(ctx, GPUK_ERR_SPARSE, "row_ptr[%lld] = %d is less than row_ptr[%lld] "
                           "= %d: row pointers must not decrease", (long long)(i + 1),
                           (int)row_ptr[i + 1], (long long)i, (int)row_ptr[i]);
        if (row_ptr[i + 1] - row_ptr[i] > longest)
            longest = row_ptr[i + 1] - row_ptr[i];
    }
    if (row_ptr[rows] != nnz)
        return gk_fail(ctx, GPUK_ERR_SPARSE, "row_ptr[rows] = %d but nnz is %lld: they must be "
                       "equal", (int)row_ptr[rows], (long long)nnz);
    for (int64_t e = 0; e < nnz; e++)
        if (col_idx[e] < 0 || col_idx[e] >= cols)
            return gk_fail(ctx, GPUK_ERR_SPARSE, "col_idx[%lld] = %d is outside [0, %lld) (cols)",
                           (long long)e, (int)col_idx[e], (long long)cols);
    if (nnz > 0 && (st = check_unique(ctx, rows, row_ptr, col_idx, longest)) != GPUK_OK)
        return st;

    gk_csr *m = calloc(1, sizeof *m);
    if (!m)
        return gk_fail(ctx, GPUK_ERR_NO_MEMORY, "gpuk_csr_create: out of host memory");
    m->kind = GK_KIND_CSR;
    m->d.rows = rows;
    m->d.cols = cols;
    m->d.nnz = nnz;
    m->d.max_row_nnz = longest;
    m->dtype = dtype;
    if ((st = upload(ctx, row_ptr, (size_t)(rows + 1) * sizeof *row_ptr, &m->row_ptr,
                     "gpuk_csr_create: row_ptr")) != GPUK_OK ||
        (st = upload(ctx, col_idx, (size_t)nnz * sizeof *col_idx, &m->col_idx,
                     "gpuk_csr_create: col_idx")) != GPUK_OK ||
        (st = upload(ctx, values, (size_t)nnz * gk_elsize(dtype), &m->values,
                     "gpuk_csr_create: values")) != GPUK_OK) {
        gk_csr_release(ctx, m);
        return st;
    }
    m->d.row_ptr = m->row_ptr;
    m->d.col_idx = m->col_idx;
    m->d.values = m->values;
    if (GK_BE_HAS(ctx->be, csr_prepare) && (st = ctx->be->csr_prepare(ctx->b, &m->d)) != GPUK_OK) {
        m->d.prepared = NULL;
        gk_csr_release(ctx, m);
        return gk_backend_fail(ctx, st, "gpuk_csr_create: preparing the matrix");
    }
    m->token = gk_new_token(ctx);
    if (!m->token || gk_handles_put(&ctx->handles, m->token, m) != 0) {
        st = m->token ? GPUK_ERR_NO_MEMORY : GPUK_ERR_OVERFLOW;
        gk_csr_release(ctx, m);
        return gk_fail(ctx, st, "gpuk_csr_create: no handle could be made");
    }
    *out = (gpuk_csr *)(uintptr_t)m->token;
    return GPUK_OK;
}

gpuk_status gpuk_csr_destroy(gpuk_context *ctx, gpuk_csr *h)
{
    gpuk_status st;
    if (!ctx)
        return GPUK_ERR_NULL;
    if (!h)
        return GPUK_OK;
    gk_csr *m = gk_csr_arg(ctx, h, "m", &st);
    if (!m)
        return st;
    gk_handles_del(&ctx->handles, m->token);
    gk_csr_release(ctx, m);
    return GPUK_OK;
}

/*
 * apsp_check.c - what gpuk_dist_apsp (apsp.c) checks around its loop: the
 * i32 semantics with negative weights, and negative cycles
 * (doc/distributed.md, "APSP").
 *
 * i32: min-plus adds GPUK_I32_INF like a number, where gpuk_apsp treats it
 * as "no path" even beside a negative weight.  With weights >= 0 the two
 * agree bit for bit: INF + w >= INF, and the minimum starts at INF, so a
 * sum through a missing edge is INF again.  With a negative weight, let W
 * be the largest |negative weight| and M the largest weight below INF.
 * Without a negative cycle every walk is at least -(n - 1) W long, so a
 * sum that passes through one INF is at least INF - 2 (n - 1) W (a walk
 * before it, a walk after it), and one through two INF at least
 * 2 INF - 3 (n - 1) W, which is INF or more (saturated) when
 * 3 (n - 1) W <= INF.  A real distance is at most (n - 1) M.  So when
 *
 *     (n - 1)(M + 3 W) < GPUK_I32_INF
 *
 * every sum through a missing edge lies in [INF - 2 (n - 1) W, INF], above
 * every real distance: each element's minimum is the real distance when
 * one exists, and at or above that limit when none does.  The pass after
 * the loop turns those into INF, and the result is gpuk_apsp's exactly;
 * no sum wraps on the way (every one lies in [-2 (n - 1) W, 2 INF]).
 * When the condition fails, the call is refused before any work.
 *
 * The check costs one min-plus of a row of zeros with the local matrix
 * (its column minima, lc values read back); only a graph with a negative
 * weight then reads the local matrix to the host (for M) and, after the
 * loop, once more for the pass.
 */
#include "dist_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

gpuk_status gkd_apsp_least_i32(gpuk_dist *d, const gpuk_dist_matrix *m, int32_t *least,
                               char *msg, size_t len)
{
    int64_t lr = m->lrows, lc = m->lcols;
    *least = GPUK_I32_INF;
    if (lr == 0 || lc == 0)
        return GPUK_OK;
    int64_t zs[2] = { 1, lr }, cs[2] = { 1, lc };
    int32_t *h = calloc((size_t)(lr > lc ? lr : lc), sizeof *h);
    gpuk_tensor *z = NULL, *cm = NULL;
    gpuk_status st = h ? GPUK_OK : GPUK_ERR_NO_MEMORY;
    if (st == GPUK_OK && (st = gpuk_tensor_create(d->ctx, GPUK_I32, 2, zs, &z)) == GPUK_OK &&
        (st = gpuk_tensor_write(d->ctx, z, h, (size_t)lr * 4)) == GPUK_OK &&
        (st = gpuk_tensor_create(d->ctx, GPUK_I32, 2, cs, &cm)) == GPUK_OK &&
        (st = gpuk_minplus(d->ctx, z, m->local, cm, NULL)) == GPUK_OK &&
        (st = gpuk_tensor_read(d->ctx, cm, h, (size_t)lc * 4)) == GPUK_OK)
        for (int64_t j = 0; j < lc; j++)
            *least = h[j] < *least ? h[j] : *least;
    if (st != GPUK_OK)
        snprintf(msg, len, "the least weight (gpuk_minplus of a row of zeros with m): %s",
                 h ? gpuk_context_error(d->ctx) : "out of host memory");
    gpuk_tensor_destroy(d->ctx, z);
    gpuk_tensor_destroy(d->ctx, cm);
    free(h);
    return st;
}

/* The local matrix on the host (malloc'd), or NULL with msg. */
static int32_t *read_local(gpuk_dist *d, const gpuk_dist_matrix *m, gpuk_status *st, char *msg,
                           size_t len)
{
    size_t bytes = (size_t)(m->lrows * m->lcols) * 4;
    int32_t *h = malloc(bytes + 4);
    *st = h ? GPUK_OK : GPUK_ERR_NO_MEMORY;
    if (!h) {
        snprintf(msg, len, "out of host memory for the local matrix (%zu bytes)", bytes);
        return NULL;
    }
    if (bytes && (*st = gpuk_tensor_read(d->ctx, m->local, h, bytes)) != GPUK_OK) {
        snprintf(msg, len, "reading the local matrix: %s", gpuk_context_error(d->ctx));
        free(h);
        return NULL;
    }
    return h;
}

gpuk_status gkd_apsp_limit_i32(gpuk_dist *d, const gpuk_dist_matrix *m, int32_t least,
                               int64_t *limit, char *msg, size_t len)
{
    gpuk_status st;
    int64_t mine[2] = { -(int64_t)least, 0 }, all[2] = { 0, 0 };
    int32_t *h = read_local(d, m, &st, msg, len);
    for (int64_t i = 0; h && i < m->lrows * m->lcols; i++)
        if (h[i] >= 0 && h[i] < GPUK_I32_INF && h[i] > mine[1])
            mine[1] = h[i];
    free(h);
    /* every rank takes part in the reductions, a failed one too */
    int ok = st == GPUK_OK, all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, d->comm);
    MPI_Allreduce(mine, all, 2, MPI_INT64_T, MPI_MAX, d->comm);
    if (st != GPUK_OK || !all_ok)
        return st != GPUK_OK ? st : GPUK_OK;   /* the agreement names the failed rank */
    int64_t W = all[0], M = all[1], hops = m->rows - 1;
    /* in double: both factors are below 2^40, the product exact enough to compare */
    if ((double)hops * (double)(M + 3 * W) >= (double)GPUK_I32_INF) {
        snprintf(msg, len, "m is i32 with a negative weight (%lld) and a largest weight of %lld "
                 "on %lld vertices: gpuk_dist_apsp keeps gpuk_apsp's meaning of GPUK_I32_INF "
                 "beside negative weights only while (n - 1)(largest + 3 |most negative|) < "
                 "GPUK_I32_INF (%.0f here); use f64 (or f32 for sums below 2^24)",
                 (long long)-W, (long long)M, (long long)m->rows,
                 (double)hops * (double)(M + 3 * W));
        return GPUK_ERR_INVALID;
    }
    *limit = GPUK_I32_INF - 2 * hops * W;
    return GPUK_OK;
}

gpuk_status gkd_apsp_no_path_i32(gpuk_dist *d, const gpuk_dist_matrix *m, int64_t limit,
                                 char *msg, size_t len)
{
    gpuk_status st;
    int32_t *h = read_local(d, m, &st, msg, len);
    int64_t changed = 0;
    for (int64_t i = 0; h && i < m->lrows * m->lcols; i++)
        if (h[i] >= limit && h[i] != GPUK_I32_INF)
            h[i] = GPUK_I32_INF, changed++;
    if (h && changed &&
        (st = gpuk_tensor_write(d->ctx, m->local, h, (size_t)(m->lrows * m->lcols) * 4)) != GPUK_OK)
        snprintf(msg, len, "writing back the local matrix: %s", gpuk_context_error(d->ctx));
    free(h);
    return st;
}

gpuk_status gkd_apsp_negative_diagonal(gpuk_dist *d, const gpuk_dist_matrix *m, int64_t *vertex,
                                       char *msg, size_t len)
{
    int64_t b = m->mb, n = m->rows, nk = b > 0 ? (n + b - 1) / b : 0;
    char *h = malloc((size_t)(b * b) * m->es + 8);
    gpuk_status st = GPUK_OK;
    *vertex = -1;
    if (!h) {
        snprintf(msg, len, "out of host memory");
        return GPUK_ERR_NO_MEMORY;
    }
    /* each diagonal block read as a strided view: no op runs, so
     * gpuk_last_variant still names the loop's last local op */
    for (int64_t K = 0; K < nk && *vertex < 0 && st == GPUK_OK; K++) {
        if ((int)(K % d->prow) != d->myrow || (int)(K % d->pcol) != d->mycol)
            continue;
        int64_t kw = n - K * b < b ? n - K * b : b;
        int64_t shape[2] = { kw, kw }, strides[2] = { m->lcols, 1 };
        int64_t off = K / d->prow * b * m->lcols + K / d->pcol * b;
        gpuk_tensor *v = NULL;
        st = gpuk_tensor_view(d->ctx, m->local, 2, shape, strides, off, &v);
        if (st == GPUK_OK)
            st = gpuk_tensor_read(d->ctx, v, h, (size_t)(kw * kw) * m->es);
        gpuk_tensor_destroy(d->ctx, v);
        if (st != GPUK_OK)
            snprintf(msg, len, "reading a diagonal block: %s", gpuk_context_error(d->ctx));
        for (int64_t i = 0; i < kw && st == GPUK_OK; i++) {
            const char *e = h + (size_t)(i * kw + i) * m->es;
            int neg = m->dtype == GPUK_I32 ? *(const int32_t *)e < 0
                    : m->dtype == GPUK_F64 ? *(const double *)e < 0 : *(const float *)e < 0;
            if (neg) {
                *vertex = K * b + i;
                break;
            }
        }
    }
    free(h);
    return st;
}

/*
 * agree.c - the agreement between ranks (doc/distributed.md, "Failure
 * agreement").
 *
 * A collective call must never leave one rank waiting in a broadcast that
 * another rank will not make.  So before any data moves, every rank
 * publishes one fixed-size record, [function, local status, values...],
 * and every rank gathers all of them (MPI_Allgather: one small message per
 * rank, the same cost class as an MPI_Allreduce of a status word, and it
 * lets every rank name the rank at fault).  Every rank then runs the same
 * deterministic judgement on the same records, so all of them return the
 * same status with the same message:
 *
 *   1. some rank failed its local checks: the lowest such rank's status,
 *      and its message, broadcast from it (only on this path);
 *   2. ranks are in different functions: GPUK_ERR_INVALID;
 *   3. some value differs from rank 0's: the field's status, naming the
 *      value, the first rank that differs and both values.
 *
 * The same call with no values agrees on the outcome of the local steps
 * after an op (a rank whose local op failed fails the call everywhere).
 */
#include "dist_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REC GKD_RECORD

const char *gkd_fn_name(gkd_fn fn)
{
    switch (fn) {
    case GKD_FN_OPEN: return "gpuk_dist_open";
    case GKD_FN_CLOSE: return "gpuk_dist_close";
    case GKD_FN_CREATE: return "gpuk_dist_matrix_create";
    case GKD_FN_SCATTER: return "gpuk_dist_scatter";
    case GKD_FN_GATHER: return "gpuk_dist_gather";
    case GKD_FN_MATMUL: return "gpuk_dist_matmul";
    case GKD_FN_MINPLUS: return "gpuk_dist_minplus";
    case GKD_FN_APSP: return "gpuk_dist_apsp";
    }
    return "gpuk_dist (unknown function)";
}

double gkd_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

const char *gkd_mpi_error(int code, char *buf, int len)
{
    char text[MPI_MAX_ERROR_STRING];
    int n = 0;
    if (MPI_Error_string(code, text, &n) != MPI_SUCCESS)
        snprintf(text, sizeof text, "MPI error %d", code);
    snprintf(buf, (size_t)len, "%s", text);
    return buf;
}

gpuk_status gkd_fail(gpuk_dist *d, gpuk_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->err, sizeof d->err, fmt, ap);
    va_end(ap);
    return st;
}

/* GPUK_DIST_FAIL=RANK:WHERE, read once at open into d->fail_where. */
int gkd_injected(const gpuk_dist *d, const char *where)
{
    return d->fail_where[0] && strcmp(d->fail_where, where) == 0;
}

/* A value as messages give it: a dtype by its name, the rest as numbers. */
static void show(const gkd_field *f, int64_t v, char *buf, size_t len)
{
    if (f->is_dtype)
        snprintf(buf, len, "%s", gpuk_dtype_name((gpuk_dtype)v));
    else
        snprintf(buf, len, "%lld", (long long)v);
}

/* The judgement of step 3: the first field, then the first rank, that
 * differs from rank 0. */
static gpuk_status compare(gpuk_dist *d, gkd_fn fn, const int64_t *all, const gkd_field *fields,
                           int nfields)
{
    for (int f = 0; f < nfields; f++) {
        int64_t want = all[2 + f];
        for (int r = 1; r < d->size; r++) {
            int64_t got = all[(size_t)r * REC + 2 + f];
            if (got != want) {
                char g[32], w[32];
                show(&fields[f], got, g, sizeof g);
                show(&fields[f], want, w, sizeof w);
                snprintf(d->err, sizeof d->err,
                         "%s: ranks disagree: rank %d passes %s = %s, rank 0 passes %s "
                         "(every rank must pass the same)", gkd_fn_name(fn), r, fields[f].name,
                         g, w);
                return fields[f].status;
            }
        }
    }
    return GPUK_OK;
}

gpuk_status gkd_agree(gpuk_dist *d, gkd_fn fn, gpuk_status st, const char *msg,
                      const gkd_field *fields, int nfields)
{
    int64_t mine[REC];
    int64_t *all = d->agree_buf;   /* REC values per rank, allocated by gpuk_dist_open */
    char ebuf[MPI_MAX_ERROR_STRING];
    int rc;

    if (nfields > GKD_FIELDS)   /* a bug here, not the caller's: say so on every rank alike */
        nfields = GKD_FIELDS, st = st ? st : GPUK_ERR_INTERNAL, msg = "too many agreement fields";
    memset(mine, 0, sizeof mine);
    mine[0] = fn;
    mine[1] = st;
    for (int f = 0; f < nfields; f++)
        mine[2 + f] = fields[f].value;
    rc = MPI_Allgather(mine, REC, MPI_INT64_T, all, REC, MPI_INT64_T, d->comm);
    if (rc != MPI_SUCCESS) {
        snprintf(d->err, sizeof d->err, "%s: rank %d: MPI_Allgather of the agreement: %s",
                 gkd_fn_name(fn), d->rank, gkd_mpi_error(rc, ebuf, sizeof ebuf));
        return GPUK_ERR_LIBRARY;
    }

    /* 1. a local failure: the lowest failing rank speaks for everyone */
    int bad = -1;
    for (int r = 0; r < d->size && bad < 0; r++)
        if (all[(size_t)r * REC + 1] != GPUK_OK)
            bad = r;
    gpuk_status out = GPUK_OK;
    if (bad >= 0) {
        char text[GKD_MSG];
        memset(text, 0, sizeof text);
        if (bad == d->rank)
            snprintf(text, sizeof text, "%s", msg && *msg ? msg : gpuk_strerror(st));
        rc = MPI_Bcast(text, (int)sizeof text, MPI_CHAR, bad, d->comm);
        text[sizeof text - 1] = '\0';
        if (rc != MPI_SUCCESS)
            snprintf(text, sizeof text, "(its message was lost: MPI_Bcast: %s)",
                     gkd_mpi_error(rc, ebuf, sizeof ebuf));
        out = (gpuk_status)all[(size_t)bad * REC + 1];
        snprintf(d->err, sizeof d->err, "%s: rank %d: %s", gkd_fn_name(fn), bad, text);
        return out;
    }

    /* 2. ranks in different calls: the records mean different things */
    for (int r = 1; r < d->size; r++) {
        if (all[(size_t)r * REC] != fn || all[0] != fn) {
            snprintf(d->err, sizeof d->err, "ranks disagree: rank %d is in %s while rank 0 is in "
                     "%s (every rank must make the same collective calls in the same order)",
                     r, gkd_fn_name((gkd_fn)all[(size_t)r * REC]), gkd_fn_name((gkd_fn)all[0]));
            return GPUK_ERR_INVALID;
        }
    }

    /* 3. the values */
    return compare(d, fn, all, fields, nfields);
}

/*
 * solve_one.c - examples/apsp without MPI (apsp.h): one process, one
 * context, the whole n x n matrix one tensor.  Floyd-Warshall is
 * gpuk_apsp in place, with its predecessors when paths are asked for
 * (gpuk_apsp(3)), which gpuk_apsp_path walks.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "apsp.h"

int job_rank = 0, job_size = 1;
const char *const job_build = "one context (gpuk_apsp; built without MPI)";

void job_start(int *argc, char ***argv)
{
    (void)argc, (void)argv;
}

void job_end(void) {}

int job_all(int mine)
{
    return mine;
}

int job_share(graph *g, int rc, char *err, size_t len, int shared)
{
    (void)g, (void)err, (void)len, (void)shared;
    return rc;
}

struct solver {
    gpuk_context *ctx;
    gpuk_tensor *D[2], *pred;   /* the distances in D[cur]; squaring writes the other */
    int cur;
    const apsp_opts *o;
    int64_t n;
    size_t es, bytes;
    char *prev, *now;           /* squaring: the matrix before and after, on the host */
    char what[256];
};

solver *solver_open(const apsp_opts *o, int64_t n, char *err, size_t len)
{
    solver *s = calloc(1, sizeof *s);
    gpuk_options go;
    gpuk_options_init(&go);
    go.backend = o->backend, go.num_threads = o->threads;
    gpuk_status st = s ? gpuk_context_open_ex(&s->ctx, &go, NULL) : GPUK_ERR_NO_MEMORY;
    if (st) {
        snprintf(err, len, "cannot open a context: %s (GPUK_VERBOSE=1 shows the load report)",
                 gpuk_strerror(st));
        free(s);
        return NULL;
    }
    s->o = o, s->n = n, s->es = gpuk_dtype_size(o->dtype);
    s->bytes = (size_t)(n * n) * s->es;
    int64_t shape[2] = { n, n };
    for (int i = 0; i < 1 + o->squaring && st == GPUK_OK; i++)
        st = gpuk_tensor_create(s->ctx, o->dtype, 2, shape, &s->D[i]);
    if (st == GPUK_OK && o->npairs && !o->squaring)
        st = gpuk_tensor_create(s->ctx, GPUK_I32, 2, shape, &s->pred);
    if (st) {
        snprintf(err, len, "%s: %s", gpuk_status_name(st), gpuk_context_error(s->ctx));
        solver_close(s);
        return NULL;
    }
    gpuk_info info;
    gpuk_context_info(s->ctx, &info);
    snprintf(s->what, sizeof s->what, "one context, %s on %s", info.backend, info.device);
    return s;
}

void solver_close(solver *s)
{
    if (!s)
        return;
    gpuk_context_close(s->ctx);   /* frees its tensors */
    free(s->prev), free(s->now);
    free(s);
}

const char *solver_what(solver *s) { return s->what; }
const char *solver_error(solver *s) { return gpuk_context_error(s->ctx); }

static void put(gpuk_dtype dt, char *h, int64_t i, double v)
{
    if (dt == GPUK_I32)
        ((int32_t *)h)[i] = isinf(v) ? GPUK_I32_INF : (int32_t)v;
    else if (dt == GPUK_F64)
        ((double *)h)[i] = v;
    else
        ((float *)h)[i] = (float)v;
}

static double get(gpuk_dtype dt, const char *h, int64_t i)
{
    if (dt == GPUK_I32)
        return ((const int32_t *)h)[i] >= GPUK_I32_INF ? INFINITY : ((const int32_t *)h)[i];
    return dt == GPUK_F64 ? ((const double *)h)[i] : ((const float *)h)[i];
}

gpuk_status solver_fill(solver *s, const graph *g)
{
    gpuk_dtype dt = s->o->dtype;
    int64_t n = s->n;
    char *h = malloc(s->bytes + 8);
    if (!h)
        return GPUK_ERR_NO_MEMORY;
    for (int64_t i = 0; i < n * n; i++)
        put(dt, h, i, INFINITY);
    for (int64_t v = 0; v < n; v++)
        put(dt, h, v * n + v, 0.0);
    for (int64_t e = 0; e < g->m; e++)
        if (g->w[e] < get(dt, h, (int64_t)g->u[e] * n + g->v[e]))
            put(dt, h, (int64_t)g->u[e] * n + g->v[e], g->w[e]);
    gpuk_status st = gpuk_tensor_write(s->ctx, s->D[s->cur], h, s->bytes);
    free(h);
    return st;
}

gpuk_status solver_fw(solver *s, int paths)
{
    gpuk_tensor *d = s->D[s->cur];
    gpuk_status st = gpuk_apsp(s->ctx, d, d, paths ? s->pred : NULL, s->o->variant);
    return st == GPUK_OK ? gpuk_sync(s->ctx) : st;
}

gpuk_status solver_square(solver *s, int *changed)
{
    gpuk_tensor *a = s->D[s->cur], *c = s->D[s->cur ^ 1];
    gpuk_status st = gpuk_minplus(s->ctx, a, a, c, s->o->variant);
    if (st == GPUK_OK && !s->now) {
        s->prev = malloc(s->bytes + 8), s->now = malloc(s->bytes + 8);
        st = s->prev && s->now ? gpuk_tensor_read(s->ctx, a, s->prev, s->bytes)
                               : GPUK_ERR_NO_MEMORY;
    }
    if (st == GPUK_OK)
        st = gpuk_tensor_read(s->ctx, c, s->now, s->bytes);
    if (st != GPUK_OK)
        return st;
    *changed = memcmp(s->prev, s->now, s->bytes) != 0;
    char *x = s->prev;
    s->prev = s->now, s->now = x;
    s->cur ^= 1;
    return GPUK_OK;
}

gpuk_status solver_row(solver *s, int64_t i, double *row)
{
    int64_t shape[2] = { 1, s->n };
    gpuk_tensor *v = NULL;
    char *h = malloc((size_t)s->n * s->es + 8);
    gpuk_status st = h ? gpuk_tensor_view(s->ctx, s->D[s->cur], 2, shape, NULL, i * s->n, &v)
                       : GPUK_ERR_NO_MEMORY;
    if (st == GPUK_OK)
        st = gpuk_tensor_read(s->ctx, v, h, (size_t)s->n * s->es);
    for (int64_t j = 0; st == GPUK_OK && j < s->n; j++)
        row[j] = get(s->o->dtype, h, j);
    gpuk_tensor_destroy(s->ctx, v);
    free(h);
    return st;
}

int solver_path(solver *s, int64_t i, int64_t j, int64_t *path, int64_t cap, int64_t *len)
{
    if (!s->pred || s->o->squaring)
        return 0;
    gpuk_status st = gpuk_apsp_path(s->ctx, s->pred, i, j, path, cap, len);
    return st == GPUK_OK ? 1 : -1;
}

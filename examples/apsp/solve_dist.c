/*
 * solve_dist.c - examples/apsp on libgpuk_mpi (the MPI build; apsp.h):
 * the distance matrix is block-cyclic over the ranks, each rank fills its
 * own blocks from the arc list, and Floyd-Warshall is gpuk_dist_apsp
 * (doc/distributed.md, "APSP").  No predecessors: paths are rebuilt from a
 * row of distances (graph_path_from_row).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gpuk/mpi.h>
#include "apsp.h"

int job_rank, job_size;
const char *const job_build = "MPI (gpuk_dist_apsp on every rank)";

void job_start(int *argc, char ***argv)
{
    /* SERIALIZED lets libgpuk_mpi wait on broadcasts from a helper thread
     * while a CPU op runs (gpuk_dist(3), GPUK_DIST_PROGRESS) */
    int provided;
    MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &job_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &job_size);
}

void job_end(void)
{
    MPI_Finalize();
}

int job_all(int mine)
{
    int all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    return all;
}

int job_share(graph *g, int rc, char *err, size_t len, int shared)
{
    if (shared)
        return rc;
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(err, (int)len, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (rc)
        return rc;
    int64_t nm[3] = { g->n, g->m, g->integral };
    MPI_Bcast(nm, 3, MPI_INT64_T, 0, MPI_COMM_WORLD);
    if (job_rank != 0) {
        g->n = nm[0], g->m = nm[1], g->integral = (int)nm[2];
        g->u = malloc((size_t)g->m * 4 + 4), g->v = malloc((size_t)g->m * 4 + 4);
        g->w = malloc((size_t)g->m * 4 + 4);
    }
    for (int64_t off = 0; off < g->m; off += 1 << 26) {   /* int counts: in pieces */
        int c = (int)(g->m - off < (1 << 26) ? g->m - off : 1 << 26);
        MPI_Bcast(g->u + off, c, MPI_INT32_T, 0, MPI_COMM_WORLD);
        MPI_Bcast(g->v + off, c, MPI_INT32_T, 0, MPI_COMM_WORLD);
        MPI_Bcast(g->w + off, c, MPI_FLOAT, 0, MPI_COMM_WORLD);
    }
    return 0;
}

struct solver {
    gpuk_dist *d;
    gpuk_dist_info di;
    gpuk_dist_matrix *D[2];   /* the distances in D[cur]; squaring writes the other */
    int cur;
    const apsp_opts *o;
    int64_t n;
    size_t es, lbytes;
    char *prev, *now;         /* squaring: the local part before and after, on the host */
    char what[320];
};

solver *solver_open(const apsp_opts *o, int64_t n, char *err, size_t len)
{
    solver *s = calloc(1, sizeof *s);
    gpuk_dist_options dopt;
    gpuk_dist_options_init(&dopt);
    dopt.backend = o->backend, dopt.num_threads = o->threads;
    /* The program calls gpuk_dist_apsp once, so it pays NCCL's setup of
     * its channels at the first broadcast: 4 blocks a broadcast took that
     * first call from 3.82 to 3.18 s on 4 H100s (bench/NOTES.md,
     * "2026-11-27, fourth session").  The user's own setting wins. */
    if (!o->squaring)
        setenv("GPUK_DIST_NCCL_CTAS", "4", 0);
    gpuk_status st = s ? gpuk_dist_open(&s->d, MPI_COMM_WORLD, &dopt) : GPUK_ERR_NO_MEMORY;
    if (st) {
        snprintf(err, len, "%s", s ? gpuk_dist_error(NULL) : "out of host memory");
        free(s);
        return NULL;
    }
    s->o = o, s->n = n, s->es = gpuk_dtype_size(o->dtype);
    gpuk_dist_get_info(s->d, &s->di);
    for (int i = 0; i < 1 + o->squaring && st == GPUK_OK; i++)
        st = gpuk_dist_matrix_create_dtype(s->d, o->dtype, n, n, o->block, o->block, &s->D[i]);
    gpuk_dist_matrix_info mi;
    if (st == GPUK_OK)
        st = gpuk_dist_matrix_get_info(s->d, s->D[0], &mi);
    if (st) {
        snprintf(err, len, "%s: %s", gpuk_status_name(st), gpuk_dist_error(s->d));
        solver_close(s);
        return NULL;
    }
    s->lbytes = (size_t)(mi.local_rows * mi.local_cols) * s->es;
    snprintf(s->what, sizeof s->what, "%d rank%s on a %dx%d grid, blocks %lld, %s, %s",
             job_size, job_size == 1 ? "" : "s", s->di.prow, s->di.pcol, (long long)mi.mb,
             s->di.backend, s->di.comm_desc);
    return s;
}

void solver_close(solver *s)
{
    if (!s)
        return;
    gpuk_dist_close(s->d);
    free(s->prev), free(s->now);
    free(s);
}

const char *solver_what(solver *s) { return s->what; }
const char *solver_error(solver *s) { return gpuk_dist_error(s->d); }

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
    gpuk_dist_matrix *m = s->D[s->cur];
    gpuk_dist_matrix_info mi;
    gpuk_dist_matrix_get_info(s->d, m, &mi);
    gpuk_dtype dt = s->o->dtype;
    int64_t lc = mi.local_cols, count = mi.local_rows * lc;
    char *h = malloc(s->lbytes + 8);
    int ok = h != NULL;
    for (int64_t i = 0; ok && i < count; i++)
        put(dt, h, i, INFINITY);
    int owner;
    int64_t li, lj;
    for (int64_t v = 0; ok && v < g->n; v++)
        if (gpuk_dist_global_to_local(s->d, m, v, v, &owner, &li, &lj) == GPUK_OK &&
            owner == job_rank)
            put(dt, h, li * lc + lj, 0.0);
    for (int64_t e = 0; ok && e < g->m; e++)
        if (gpuk_dist_global_to_local(s->d, m, g->u[e], g->v[e], &owner, &li, &lj) == GPUK_OK &&
            owner == job_rank && g->w[e] < get(dt, h, li * lc + lj))
            put(dt, h, li * lc + lj, g->w[e]);
    gpuk_status st = ok ? gpuk_tensor_write(s->di.context, mi.local, h, s->lbytes)
                        : GPUK_ERR_NO_MEMORY;
    free(h);
    return job_all(st == GPUK_OK) ? GPUK_OK : st != GPUK_OK ? st : GPUK_ERR_INTERNAL;
}

gpuk_status solver_fw(solver *s, int paths)
{
    (void)paths;   /* no predecessors here: paths come from a row */
    return gpuk_dist_apsp(s->d, s->D[s->cur], s->o->variant);
}

gpuk_status solver_square(solver *s, int *changed)
{
    gpuk_dist_matrix *a = s->D[s->cur], *c = s->D[s->cur ^ 1];
    gpuk_status st = gpuk_dist_minplus(s->d, a, a, c, s->o->variant);
    if (st)
        return st;
    /* each rank compares its share with the one before; one verdict */
    if (!s->now && s->lbytes) {
        s->prev = malloc(s->lbytes), s->now = malloc(s->lbytes);
        gpuk_dist_matrix_info ai;
        gpuk_dist_matrix_get_info(s->d, a, &ai);
        if (s->prev && s->now)
            st = gpuk_tensor_read(s->di.context, ai.local, s->prev, s->lbytes);
    }
    gpuk_dist_matrix_info ci;
    gpuk_dist_matrix_get_info(s->d, c, &ci);
    if (st == GPUK_OK && s->lbytes && s->now)
        st = gpuk_tensor_read(s->di.context, ci.local, s->now, s->lbytes);
    int mine = s->lbytes && (!s->now || memcmp(s->prev, s->now, s->lbytes) != 0);
    MPI_Allreduce(&mine, changed, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    char *x = s->prev;
    s->prev = s->now, s->now = x;
    s->cur ^= 1;
    return job_all(st == GPUK_OK) ? GPUK_OK : st != GPUK_OK ? st : GPUK_ERR_INTERNAL;
}

/* The ranks of row i's grid row read their piece; rank 0 places each
 * element by the index map. */
gpuk_status solver_row(solver *s, int64_t i, double *row)
{
    gpuk_dist_matrix *m = s->D[s->cur];
    gpuk_dist_matrix_info mi;
    gpuk_dist_matrix_get_info(s->d, m, &mi);
    int owner, mine = 0;
    int64_t li;
    gpuk_dist_global_to_local(s->d, m, i, 0, &owner, &li, NULL);
    int *counts = malloc((size_t)job_size * sizeof *counts * 2 + 8);
    int *displs = counts + job_size;
    char *piece = malloc((size_t)mi.local_cols * s->es + 8), *all = NULL;
    gpuk_status st = counts && piece ? GPUK_OK : GPUK_ERR_NO_MEMORY;
    if (st == GPUK_OK && owner / s->di.pcol == s->di.myrow && mi.local_cols > 0) {
        gpuk_tensor *v = NULL;
        int64_t shape[2] = { 1, mi.local_cols };
        if ((st = gpuk_tensor_view(s->di.context, mi.local, 2, shape, NULL, li * mi.local_cols,
                                   &v)) == GPUK_OK)
            st = gpuk_tensor_read(s->di.context, v, piece, (size_t)mi.local_cols * s->es);
        gpuk_tensor_destroy(s->di.context, v);
        mine = (int)(mi.local_cols * (int64_t)s->es);
    }
    if (!job_all(st == GPUK_OK)) {
        free(counts), free(piece);
        return st != GPUK_OK ? st : GPUK_ERR_INTERNAL;
    }
    MPI_Gather(&mine, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    int total = 0;
    if (job_rank == 0) {
        for (int r = 0; r < job_size; r++)
            displs[r] = total, total += counts[r];
        all = malloc((size_t)total + 8);
    }
    MPI_Gatherv(piece, mine, MPI_BYTE, all, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
    for (int64_t j = 0; job_rank == 0 && j < s->n; j++) {
        int64_t lj;
        gpuk_dist_global_to_local(s->d, m, i, j, &owner, NULL, &lj);
        row[j] = get(s->o->dtype, all + displs[owner], lj);
    }
    free(counts), free(piece), free(all);
    return GPUK_OK;
}

int solver_path(solver *s, int64_t i, int64_t j, int64_t *path, int64_t cap, int64_t *len)
{
    (void)s, (void)i, (void)j, (void)path, (void)cap, (void)len;
    return 0;
}

/*
 * apsp - all-pairs shortest paths on libgpuk_mpi by repeated min-plus
 * squaring (doc/distributed.md, "Example: all-pairs shortest paths").
 *
 * D0 holds the arc weights (0 on the diagonal, +inf where no arc), and
 * D(t+1) = D(t) (x) D(t) covers paths of up to 2^(t+1) arcs, so
 * ceil(log2(n - 1)) squarings are enough; it stops earlier when a squaring
 * changes nothing.  Each rank fills its own blocks of D0 from the arc
 * list (no scatter), and rank 0 checks rows of the result against
 * Dijkstra from sampled sources.
 *
 *   mpiexec -n 4 apsp --grid 64x64                 a road-like grid
 *   mpiexec -n 4 apsp --geometric 4096             a random geometric graph
 *   mpiexec -n 4 apsp --file roads.gr              a DIMACS shortest-path file
 *   options: --seed S  --block B  --sources K  --max-weight W  --backend B
 *            --threads T  --variant RUNG
 *
 * Needs the MPI build; with one rank it also runs without mpiexec.  Exit
 * status: 0 verified, 1 a wrong distance or a failed call, 2 bad usage or
 * a bad graph file (the message names the line).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gpuk/mpi.h>
#include "graph.h"

static int rank, size;

/* rank 0 speaks for the job; an expression, so that `return SAY(...), -1;` works */
#define SAY(...) (rank == 0 ? (printf(__VA_ARGS__), fflush(stdout)) : 0)

typedef struct opts {
    const char *file, *backend, *variant;
    int64_t rows, cols, geometric, block;
    int sources, maxw, threads;
    uint64_t seed;
} opts;

static int parse(int argc, char **argv, opts *o)
{
    memset(o, 0, sizeof *o);
    o->sources = 8, o->maxw = 100, o->seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v)
            return SAY("apsp: %s needs a value\n", a), -1;
        if (!strcmp(a, "--grid")) {
            long long r, c;
            if (sscanf(v, "%lldx%lld", &r, &c) != 2 || r < 1 || c < 1)
                return SAY("apsp: --grid %s: expected ROWSxCOLS\n", v), -1;
            o->rows = r, o->cols = c;
        } else if (!strcmp(a, "--geometric")) o->geometric = atoll(v);
        else if (!strcmp(a, "--file")) o->file = v;
        else if (!strcmp(a, "--seed")) o->seed = strtoull(v, NULL, 0);
        else if (!strcmp(a, "--block")) o->block = atoll(v);
        else if (!strcmp(a, "--sources")) o->sources = atoi(v);
        else if (!strcmp(a, "--max-weight")) o->maxw = atoi(v);
        else if (!strcmp(a, "--backend")) o->backend = v;
        else if (!strcmp(a, "--threads")) o->threads = atoi(v);
        else if (!strcmp(a, "--variant")) o->variant = v;
        else return SAY("apsp: unknown option %s\n", a), -1;
        i++;
    }
    if (!!o->file + !!o->rows + !!o->geometric != 1)
        return SAY("apsp: give one graph: --grid RxC, --geometric N or --file F.gr\n"), -1;
    return 0;
}

/* The graph on every rank: generated alike everywhere, or read by rank 0
 * and broadcast (only rank 0 needs the file). */
static int load(const opts *o, graph *g)
{
    char err[512] = "";
    int rc = 0;
    if (o->rows)
        rc = graph_grid(g, o->rows, o->cols, o->maxw, o->seed);
    else if (o->geometric)
        rc = graph_geometric(g, o->geometric, o->seed);
    if (o->rows || o->geometric) {
        if (rc)
            SAY("apsp: cannot generate that graph (too large, or out of memory)\n");
        return rc;
    }
    if (rank == 0)
        rc = graph_read_dimacs(g, o->file, err, sizeof err);
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rc) {
        SAY("apsp: %s\n", err);
        return rc;
    }
    int64_t nm[3] = { g->n, g->m, g->integral };
    MPI_Bcast(nm, 3, MPI_INT64_T, 0, MPI_COMM_WORLD);
    if (rank != 0) {
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

/* This rank's blocks of D0, in place: +inf, 0 on the diagonal, the
 * lightest arc u -> v at (u, v). */
static gpuk_status fill(gpuk_dist *d, gpuk_dist_matrix *m, const graph *g, float *h)
{
    gpuk_dist_matrix_info mi;
    gpuk_dist_info di;
    gpuk_dist_matrix_get_info(d, m, &mi);
    gpuk_dist_get_info(d, &di);
    int64_t lc = mi.local_cols;
    for (int64_t i = 0; i < mi.local_rows * lc; i++)
        h[i] = INFINITY;
    int owner;
    int64_t li, lj;
    for (int64_t v = 0; v < g->n; v++)
        if (gpuk_dist_global_to_local(d, m, v, v, &owner, &li, &lj) == GPUK_OK && owner == rank)
            h[li * lc + lj] = 0.0f;
    for (int64_t e = 0; e < g->m; e++)
        if (gpuk_dist_global_to_local(d, m, g->u[e], g->v[e], &owner, &li, &lj) == GPUK_OK &&
            owner == rank && g->w[e] < h[li * lc + lj])
            h[li * lc + lj] = g->w[e];
    return gpuk_tensor_write(di.context, mi.local, h, (size_t)(mi.local_rows * lc) * 4);
}

/* Row s of the distributed matrix on rank 0: the ranks of its grid row
 * read their piece, and rank 0 places each element by the index map. */
static int gather_row(gpuk_dist *d, gpuk_dist_matrix *m, int64_t s, int64_t n, float *row)
{
    gpuk_dist_matrix_info mi;
    gpuk_dist_info di;
    gpuk_dist_matrix_get_info(d, m, &mi);
    gpuk_dist_get_info(d, &di);
    int owner, counts[1024], displs[1024], mine = 0;
    int64_t li;
    gpuk_dist_global_to_local(d, m, s, 0, &owner, &li, NULL);
    float *piece = malloc((size_t)mi.local_cols * 4 + 4), *all = NULL;
    if (owner / di.pcol == di.myrow && mi.local_cols > 0) {
        gpuk_tensor *v = NULL;
        int64_t shape[2] = { 1, mi.local_cols };
        if (gpuk_tensor_view(di.context, mi.local, 2, shape, NULL, li * mi.local_cols, &v) ||
            gpuk_tensor_read(di.context, v, piece, (size_t)mi.local_cols * 4))
            fprintf(stderr, "apsp: rank %d: reading row %lld: %s\n", rank, (long long)s,
                    gpuk_context_error(di.context));
        gpuk_tensor_destroy(di.context, v);
        mine = (int)mi.local_cols;
    }
    MPI_Gather(&mine, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    int total = 0;
    if (rank == 0) {
        for (int r = 0; r < size; r++)
            displs[r] = total, total += counts[r];
        all = malloc((size_t)total * 4 + 4);
    }
    MPI_Gatherv(piece, mine, MPI_FLOAT, all, counts, displs, MPI_FLOAT, 0, MPI_COMM_WORLD);
    for (int64_t j = 0; rank == 0 && j < n; j++) {
        int64_t lj;
        gpuk_dist_global_to_local(d, m, s, j, &owner, NULL, &lj);
        row[j] = all[displs[owner] + lj];
    }
    free(piece), free(all);
    return 0;
}

int main(int argc, char **argv)
{
    opts o;
    graph g;
    /* SERIALIZED lets libgpuk_mpi wait on broadcasts from a helper thread
     * while a CPU op runs (gpuk_dist(3), GPUK_DIST_PROGRESS) */
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 1024 || parse(argc, argv, &o) || load(&o, &g)) {
        MPI_Finalize();
        return 2;
    }
    gpuk_dist_options dopt;
    gpuk_dist_options_init(&dopt);
    dopt.backend = o.backend, dopt.num_threads = o.threads;
    gpuk_dist *d = NULL;
    gpuk_dist_matrix *D[2] = { NULL, NULL };
    gpuk_status st = gpuk_dist_open(&d, MPI_COMM_WORLD, &dopt);
    if (st) {
        SAY("apsp: %s\n", gpuk_dist_error(NULL));
        MPI_Finalize();
        return 1;
    }
    int64_t n = g.n;
    if (!(st = gpuk_dist_matrix_create(d, n, n, o.block, o.block, &D[0])))
        st = gpuk_dist_matrix_create(d, n, n, o.block, o.block, &D[1]);
    gpuk_dist_info di;
    gpuk_dist_matrix_info mi;
    gpuk_dist_get_info(d, &di);
    float *prev = NULL, *cur = NULL;
    size_t lbytes = 0;
    if (!st) {
        gpuk_dist_matrix_get_info(d, D[0], &mi);
        lbytes = (size_t)(mi.local_rows * mi.local_cols) * 4;
        prev = malloc(lbytes + 4), cur = malloc(lbytes + 4);
        st = fill(d, D[0], &g, prev);
    }
    SAY("apsp: %lld vertices, %lld arcs; %d rank%s on a %dx%d grid, blocks %lld, %s, %s\n",
        (long long)n, (long long)g.m, size, size == 1 ? "" : "s", di.prow, di.pcol,
        st ? 0LL : (long long)mi.mb, di.backend, di.comm_desc);

    /* square until nothing changes, at most ceil(log2(n - 1)) times */
    int bound = 0, t = 0, changed = 1;
    while (n > 2 && ((int64_t)1 << bound) < n - 1)
        bound++;
    bound = bound < 1 ? 1 : bound;
    double total = 0, cmp = 0;
    for (t = 0; !st && changed && t < bound; t++) {
        gpuk_dist_matrix *a = D[t & 1], *c = D[(t + 1) & 1];
        double t0 = MPI_Wtime();
        st = gpuk_dist_minplus(d, a, a, c, o.variant);
        double t1 = MPI_Wtime();
        if (st)
            break;
        gpuk_dist_matrix_info ci;
        gpuk_dist_matrix_get_info(d, c, &ci);
        if (lbytes && (st = gpuk_tensor_read(di.context, ci.local, cur, lbytes)))
            break;
        int mine = lbytes && memcmp(prev, cur, lbytes) != 0;
        MPI_Allreduce(&mine, &changed, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
        float *x = prev;
        prev = cur, cur = x;
        double t2 = MPI_Wtime();
        total += t1 - t0, cmp += t2 - t1;
        SAY("squaring %d: %.4g ms, %.4g Gop/s%s\n", t + 1, 1e3 * (t1 - t0),
            2.0 * (double)n * n * n / (t1 - t0) / 1e9, changed ? "" : ", nothing changed");
    }
    if (st) {
        SAY("apsp: %s: %s\n", gpuk_status_name(st), gpuk_dist_error(d));
        gpuk_dist_close(d);
        MPI_Finalize();
        return 1;
    }
    SAY("%s after %d squaring%s (at most %d): %.4g s of min-plus, %.4g s comparing\n",
        changed ? "stopped at the bound" : "converged", t, t == 1 ? "" : "s", bound, total, cmp);

    /* rank 0 checks sampled rows against Dijkstra */
    int bad = 0;
    double worst = 0;
    int k = o.sources < (int)n ? o.sources : (int)n;
    float *row = malloc((size_t)n * 4 + 4);
    double *ref = malloc((size_t)n * 8 + 8);
    uint64_t pick = o.seed ^ 0x5bd1e995ull;
    for (int i = 0; i < k; i++) {
        int64_t s = i == 0 ? 0 : i == 1 ? n - 1 : (int64_t)((pick = pick * 6364136223846793005ull +
                                                             1442695040888963407ull) >> 33) % n;
        gather_row(d, D[t & 1], s, n, row);
        if (rank != 0)
            continue;
        graph_dijkstra(&g, s, ref);
        for (int64_t j = 0; j < n; j++) {
            /* whole weights below 2^24 are exact in float; otherwise each
             * of at most n - 1 additions rounds once */
            double want = ref[j], got = row[j];
            double tol = g.integral && want < 16777216.0 ? 0 : ldexp(want, -24) * (double)n;
            if (isinf(want) ? !isinf(got) : !(fabs(got - want) <= tol)) {
                if (bad++ < 5)
                    printf("apsp: distance %lld -> %lld is %.9g, Dijkstra says %.9g\n",
                           (long long)s, (long long)j, got, want);
            } else if (!isinf(want) && fabs(got - want) > worst) {
                worst = fabs(got - want);
            }
        }
    }
    MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (k > 0)
        SAY("checked against Dijkstra from %d source%s: %s (largest difference %.3g)\n", k,
            k == 1 ? "" : "s", bad ? "WRONG" : "right", worst);
    free(row), free(ref), free(prev), free(cur);
    gpuk_dist_close(d);
    graph_free(&g);
    MPI_Finalize();
    return bad ? 1 : 0;
}

/*
 * apsp - all-pairs shortest paths with libgpuk: blocked Floyd-Warshall
 * (the work of one min-plus product, 2 n^3), or for comparison repeated
 * min-plus squaring (ceil(log2(n - 1)) products at most); distances and
 * paths of queried pairs; rows checked against Dijkstra
 * (doc/distributed.md, "Example: all-pairs shortest paths").
 *
 *   apsp --grid 64x64                           a road-like grid
 *   apsp --geometric 4096 --method squaring     a random geometric graph
 *   apsp --file roads.gr --pair 1,42 --pair 7,3 a DIMACS shortest-path file
 *   mpiexec -n 4 apsp --grid 256x256 --dtype i32   the MPI build, a rank a GPU
 *   options: --method fw|squaring  --dtype f32|f64|i32  --seed S  --block B
 *            --sources K  --max-weight W  --backend B  --threads T
 *            --variant RUNG  --pair I,J (vertices from 1, as in DIMACS files)
 *
 * Built with MPI (mpi/local.mk) it runs on any number of ranks through
 * libgpuk_mpi (solve_dist.c; one rank also runs without mpiexec); built
 * without, on one context (solve_one.c).  `apsp --help` says which.  Exit
 * status: 0 verified, 1 a wrong distance or path or a failed call, 2 bad
 * usage or a bad graph file (the message names the line).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "apsp.h"

/* rank 0 speaks for the job; an expression, so that `return SAY(...), -1;` works */
#define SAY(...) (job_rank == 0 ? (printf(__VA_ARGS__), fflush(stdout)) : 0)

static void usage(void)
{
    SAY("usage: apsp (--grid RxC | --geometric N | --file F.gr) [--method fw|squaring]\n"
        "            [--dtype f32|f64|i32] [--pair I,J]... [--sources K] [--seed S]\n"
        "            [--block B] [--max-weight W] [--backend B] [--threads T] [--variant R]\n"
        "this build: %s\n", job_build);
}

static int parse(int argc, char **argv, apsp_opts *o)
{
    memset(o, 0, sizeof *o);
    o->sources = 8, o->maxw = 100, o->seed = 1, o->dtype = GPUK_F32;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help"))
            return usage(), 1;
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
        else if (!strcmp(a, "--method")) {
            if (strcmp(v, "fw") && strcmp(v, "squaring"))
                return SAY("apsp: --method %s: fw or squaring\n", v), -1;
            o->squaring = !strcmp(v, "squaring");
        } else if (!strcmp(a, "--dtype")) {
            if (gpuk_dtype_from_name(v, &o->dtype) != GPUK_OK ||
                (o->dtype != GPUK_F32 && o->dtype != GPUK_F64 && o->dtype != GPUK_I32))
                return SAY("apsp: --dtype %s: f32, f64 or i32\n", v), -1;
        } else if (!strcmp(a, "--pair")) {
            long long x, y;
            if (sscanf(v, "%lld,%lld", &x, &y) != 2 || x < 1 || y < 1)
                return SAY("apsp: --pair %s: expected I,J (vertices from 1)\n", v), -1;
            if (o->npairs == APSP_MAX_PAIRS)
                return SAY("apsp: at most %d --pair\n", APSP_MAX_PAIRS), -1;
            o->pair[o->npairs][0] = x - 1, o->pair[o->npairs][1] = y - 1, o->npairs++;
        } else return SAY("apsp: unknown option %s\n", a), -1;
        i++;
    }
    if (!!o->file + !!o->rows + !!o->geometric != 1)
        return SAY("apsp: give one graph: --grid RxC, --geometric N or --file F.gr\n"), -1;
    return 0;
}

/* The graph on every rank: generated alike everywhere, or read by rank 0
 * and shared (only rank 0 needs the file). */
static int load(const apsp_opts *o, graph *g)
{
    char err[512] = "";
    int rc = 0, generated = !o->file;
    if (o->rows)
        rc = graph_grid(g, o->rows, o->cols, o->maxw, o->seed);
    else if (o->geometric)
        rc = graph_geometric(g, o->geometric, o->seed);
    else if (job_rank == 0)
        rc = graph_read_dimacs(g, o->file, err, sizeof err);
    if (generated && rc)
        snprintf(err, sizeof err, "cannot generate that graph (too large, or out of memory)");
    rc = job_share(g, rc, err, sizeof err, generated);
    if (rc)
        SAY("apsp: %s\n", err);
    else if (o->dtype == GPUK_I32 && !g->integral)
        return SAY("apsp: --dtype i32 needs whole weights; this graph has fractions\n"), -1;
    for (int i = 0; !rc && i < o->npairs; i++)
        if (o->pair[i][0] >= g->n || o->pair[i][1] >= g->n)
            return SAY("apsp: --pair %lld,%lld: the graph's vertices are 1 to %lld\n",
                       (long long)o->pair[i][0] + 1, (long long)o->pair[i][1] + 1,
                       (long long)g->n), -1;
    return rc;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Floyd-Warshall, or squarings until nothing changes (at most the bound). */
static gpuk_status solve(solver *s, const apsp_opts *o, int64_t n)
{
    double gops = 2.0 * (double)n * (double)n * (double)n / 1e9, t0 = now();
    gpuk_status st;
    if (!o->squaring) {
        st = solver_fw(s, o->npairs > 0);
        double t = now() - t0;
        if (st == GPUK_OK)
            SAY("Floyd-Warshall: %.4g s, %.4g Gop/s\n", t, gops / t);
        return st;
    }
    int bound = 0, t = 0, changed = 1;
    while (n > 2 && ((int64_t)1 << bound) < n - 1)
        bound++;
    bound = bound < 1 ? 1 : bound;
    double total = 0;
    for (st = GPUK_OK; st == GPUK_OK && changed && t < bound; t++) {
        double t1 = now();
        st = solver_square(s, &changed);
        double dt = now() - t1;
        total += dt;
        if (st == GPUK_OK)
            SAY("squaring %d: %.4g ms, %.4g Gop/s (with the comparison)%s\n", t + 1, 1e3 * dt,
                gops / dt, changed ? "" : ", nothing changed");
    }
    if (st == GPUK_OK)
        SAY("%s after %d squaring%s (at most %d): %.4g s\n", changed ? "stopped at the bound"
            : "converged", t, t == 1 ? "" : "s", bound, total);
    return st;
}

/* How far a computed distance may be from Dijkstra's (in double): whole
 * weights add exactly below 2^24 in f32 (2^53 in f64; i32 exactly), else
 * each of at most n - 1 additions rounds once. */
static double tolerance(const graph *g, const apsp_opts *o, double want)
{
    int prec = gpuk_dtype_precision(o->dtype);
    if (g->integral && (prec == 0 || want < ldexp(1.0, prec)))
        return 0;
    return ldexp(fabs(want), -(prec ? prec : 24)) * (double)g->n;
}

/* The queried pairs: distance and path (predecessors where kept, else
 * rebuilt from row i), the path's own length checked against the
 * distance.  The number of wrong ones. */
static int pairs(solver *s, const apsp_opts *o, const graph *g, double *row)
{
    int bad = 0;
    int64_t *path = malloc((size_t)g->n * sizeof *path + 8);
    for (int p = 0; p < o->npairs; p++) {
        int64_t i = o->pair[p][0], j = o->pair[p][1], len = 0;
        gpuk_status st = solver_row(s, i, row);
        if (st != GPUK_OK) {
            SAY("apsp: row %lld: %s\n", (long long)i + 1, solver_error(s));
            bad++;
            continue;
        }
        if (job_rank != 0)
            continue;
        int from_pred = solver_path(s, i, j, path, g->n, &len);
        const char *how = from_pred > 0 ? "predecessors" : "row of distances";
        if (from_pred < 0) {
            printf("pair %lld -> %lld: the predecessors give no path: %s\n", (long long)i + 1,
                   (long long)j + 1, solver_error(s));
            bad++;
            continue;
        }
        if (from_pred == 0 && graph_path_from_row(g, i, j, row, tolerance(g, o, row[j]), path,
                                                  g->n, &len) != 0)
            len = -1;
        if (isinf(row[j])) {
            printf("pair %lld -> %lld: no path\n", (long long)i + 1, (long long)j + 1);
            if (len != 0)
                bad++, printf("  ... but the %s give one\n", how);
            continue;
        }
        double along = len > 0 ? graph_path_length(g, path, len) : NAN;
        int ok = len > 0 && path[0] == i && path[len - 1] == j &&
                 fabs(along - row[j]) <= tolerance(g, o, row[j]) + tolerance(g, o, along);
        printf("pair %lld -> %lld: distance %.9g, path of %lld arc%s (from the %s)%s:",
               (long long)i + 1, (long long)j + 1, row[j], (long long)(len > 0 ? len - 1 : 0),
               len == 2 ? "" : "s", how, ok ? "" : ", WRONG");
        for (int64_t k = 0; k < len && k < 64; k++)
            printf(" %lld", (long long)path[k] + 1);
        printf("%s\n", len > 64 ? " ..." : "");
        if (!ok)
            bad++, printf("  the path's arcs add up to %.9g\n", along);
    }
    free(path);
    return bad;
}

/* Rows of sampled sources (0, n - 1, then random) against Dijkstra. */
static int check(solver *s, const apsp_opts *o, const graph *g, double *row)
{
    int bad = 0;
    double worst = 0, *ref = malloc((size_t)g->n * 8 + 8);
    int k = o->sources < g->n ? o->sources : (int)g->n;
    uint64_t pick = o->seed ^ 0x5bd1e995ull;
    for (int i = 0; i < k; i++) {
        int64_t src = i == 0 ? 0 : i == 1 ? g->n - 1
                    : (int64_t)((pick = pick * 6364136223846793005ull + 1442695040888963407ull)
                                >> 33) % g->n;
        if (solver_row(s, src, row) != GPUK_OK) {
            SAY("apsp: row %lld: %s\n", (long long)src + 1, solver_error(s));
            bad++;
            continue;
        }
        if (job_rank != 0)
            continue;
        graph_dijkstra(g, src, ref);
        for (int64_t j = 0; j < g->n; j++) {
            double want = ref[j], got = row[j];
            /* i32: a length at or above GPUK_I32_INF reads as no path */
            if (o->dtype == GPUK_I32 && want >= GPUK_I32_INF)
                want = INFINITY;
            if (isinf(want) ? !isinf(got) : !(fabs(got - want) <= tolerance(g, o, want))) {
                if (bad++ < 5)
                    printf("apsp: distance %lld -> %lld is %.9g, Dijkstra says %.9g\n",
                           (long long)src + 1, (long long)j + 1, got, want);
            } else if (!isinf(want) && fabs(got - want) > worst) {
                worst = fabs(got - want);
            }
        }
    }
    if (k > 0)
        SAY("checked against Dijkstra from %d source%s: %s (largest difference %.3g)\n", k,
            k == 1 ? "" : "s", bad ? "WRONG" : "right", worst);
    free(ref);
    return bad;
}

int main(int argc, char **argv)
{
    apsp_opts o;
    graph g;
    memset(&g, 0, sizeof g);
    job_start(&argc, &argv);
    int pr = parse(argc, argv, &o);
    if (pr || load(&o, &g)) {
        graph_free(&g);
        job_end();
        return pr > 0 ? 0 : 2;
    }
    char err[640] = "";
    solver *s = solver_open(&o, g.n, err, sizeof err);
    if (!s) {
        SAY("apsp: %s\n", err);
        graph_free(&g);
        job_end();
        return 1;
    }
    SAY("apsp: %lld vertices, %lld arcs, %s; %s; %s\n", (long long)g.n, (long long)g.m,
        gpuk_dtype_name(o.dtype), o.squaring ? "min-plus squaring" : "Floyd-Warshall",
        solver_what(s));
    gpuk_status st = solver_fill(s, &g);
    if (st == GPUK_OK)
        st = solve(s, &o, g.n);
    int bad = 0;
    if (st != GPUK_OK) {
        SAY("apsp: %s: %s\n", gpuk_status_name(st), solver_error(s));
        bad = 1;
    } else {
        double *row = malloc((size_t)g.n * 8 + 8);
        bad = pairs(s, &o, &g, row) + check(s, &o, &g, row);
        free(row);
    }
    bad = !job_all(!bad);
    solver_close(s);
    graph_free(&g);
    job_end();
    return bad;
}

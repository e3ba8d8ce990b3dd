/*
 * t_dist_apsp.c - gpuk_dist_apsp on 1 to 4 ranks (mpi/local.mk runs it on
 * each, and staged): random directed graphs on odd sizes and blocks, on
 * the default, 1 x N and N x 1 grids, in f32, f64 and i32, against
 * gpuk_apsp of the whole matrix in one context:
 *   - whole weights >= 0 with missing edges (and NaN for "no edge" in the
 *     floats): every path sum is exact, so the bits must agree;
 *   - whole weights of both signs without a negative cycle (a strongly
 *     connected graph reweighted by vertex potentials): exact again;
 *   - the same with pairs that cannot reach each other: in i32 too, where
 *     min-plus alone would read GPUK_I32_INF + w beside a negative w, the
 *     result is gpuk_apsp's to the bit (GPUK_I32_INF for "no path");
 *   - i32 weights too large for that to be exact: GPUK_ERR_INVALID on
 *     every rank, one message;
 *   - real weights in (0, 1] (floats): each distance is some path's sum
 *     rounded along the way, within gamma_n of its length, so the two
 *     results lie within 2 gamma_n / (1 - gamma_n) of each other;
 *   - a planted negative cycle: GPUK_ERR_NEGATIVE_CYCLE on every rank,
 *     naming a vertex of the cycle's strongly connected component.
 * With look-ahead (the default schedule) in 4 row pieces on the default
 * grid and 3 on the others (GPUK_DIST_APSP_PIECES), and without it
 * (GPUK_DIST_SERIAL); the measuring schedules run and agree on success.
 * An (op, dtype) the backend has no rung of is one skip, with the reason.
 */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gpuk/mpi.h>
#include "dtap.h"
#include "dtest.h"

static int rank, size;
static uint64_t rng;

static uint64_t next(void)   /* splitmix64: the same stream on every rank */
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

typedef enum kind { WHOLE, SIGNED, PARTIAL, REAL, NEGATIVE_CYCLE, HUGE } kind;
static const char *const KIND[] = { "whole weights", "weights of both signs",
                                    "weights of both signs, some pairs apart", "real weights",
                                    "a negative cycle", "weights too large for i32" };

static double none(gpuk_dtype dt) { return dt == GPUK_I32 ? GPUK_I32_INF : INFINITY; }

/* A random graph of kind k on n vertices, about a third of the pairs
 * joined; *cycle gets a vertex of the planted cycle (NEGATIVE_CYCLE). */
static void graph(gpuk_dtype dt, kind k, int64_t n, void *w, int64_t *cycle)
{
    int64_t *pot = malloc((size_t)(n + 1) * sizeof *pot);
    for (int64_t v = 0; v < n; v++)
        pot[v] = (int64_t)(next() % 51);
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) {
            uint64_t r = next();
            double v = none(dt);
            if (r % 3 == 0 || (k == SIGNED && j == (i + 1) % n))   /* SIGNED: a ring too */
                v = k == REAL ? (double)((r >> 11) % 1000000 + 1) / 1000000.0
                              : (double)((r >> 40) % 101);
            else if (dt != GPUK_I32 && r % 17 == 1)
                v = NAN;   /* also "no edge" for floats */
            if (k == PARTIAL && (i % 4 == 3 || j % 5 == 4))
                v = none(dt);   /* vertices 3, 7, ... reach nothing; 4, 9, ... are never reached */
            if ((k == SIGNED || k == PARTIAL) && v != none(dt) && v == v)
                v += (double)(pot[i] - pot[j]);   /* cycles keep their length */
            if (k == HUGE && v != none(dt))
                v = (double)(r % 2 ? 1 << 24 : -(1 << 24));
            dtest_set(dt, w, i * n + j, i == j && r % 5 ? 0.0 : v);
        }
    if (k == NEGATIVE_CYCLE && n >= 3) {
        int64_t a = n / 3, b = 2 * n / 3, c = n - 1;
        dtest_set(dt, w, a * n + b, 1.0);
        dtest_set(dt, w, b * n + c, 1.0);
        dtest_set(dt, w, c * n + a, -5.0);
        *cycle = a;
    }
    free(pot);
}

/* Whether u and v reach each other through edges of w (finite, not NaN). */
static int same_component(gpuk_dtype dt, const void *w, int64_t n, int64_t u, int64_t v)
{
    char *seen = calloc((size_t)n, 1);
    int64_t *stack = malloc((size_t)n * sizeof *stack), top = 0;
    int both = 1;
    for (int pass = 0; pass < 2 && both; pass++) {
        int64_t from = pass ? v : u, to = pass ? u : v;
        memset(seen, 0, (size_t)n);
        seen[from] = 1, stack[top++] = from;
        while (top > 0) {
            int64_t x = stack[--top];
            for (int64_t y = 0; y < n; y++) {
                double e = dtest_get(dt, w, x * n + y);
                if (!seen[y] && e == e && e < none(dt))
                    seen[y] = 1, stack[top++] = y;
            }
        }
        both = seen[to];
    }
    free(seen);
    free(stack);
    return both;
}

static int status_is(gpuk_status st, gpuk_status want, gpuk_dist *d, const char *what)
{
    if (st != want)
        dtap_why("%s: %s, expected %s: %s", what, gpuk_status_name(st), gpuk_status_name(want),
                 gpuk_dist_error(d));
    return st == want;
}

/* gpuk_apsp of the whole matrix in one context (rank 0). */
static gpuk_status reference(gpuk_context *ctx, gpuk_dtype dt, const void *w, void *out,
                             int64_t n)
{
    size_t bytes = (size_t)(n * n) * gpuk_dtype_size(dt);
    int64_t shape[2] = { n, n };
    gpuk_tensor *t = NULL;
    gpuk_status st = gpuk_tensor_create(ctx, dt, 2, shape, &t);
    if (!st) st = gpuk_tensor_write(ctx, t, w, bytes);
    if (!st) st = gpuk_apsp(ctx, t, t, NULL, NULL);
    if (!st) st = gpuk_tensor_read(ctx, t, out, bytes);
    if (st && st != GPUK_ERR_NEGATIVE_CYCLE)
        dtap_why("one-context gpuk_apsp: %s", gpuk_context_error(ctx));
    gpuk_tensor_destroy(ctx, t);
    return st;
}

static void apsp_case(gpuk_dist *d, gpuk_dtype dt, kind k, int64_t n, int64_t b,
                      const char *grid)
{
    char name[160];
    size_t es = gpuk_dtype_size(dt);
    snprintf(name, sizeof name, "apsp %s n=%lld, blocks %lld, %s on %s", gpuk_dtype_name(dt),
             (long long)n, (long long)b, KIND[k], grid);
    char *w = dtest_alloc(dt, n * n), *got = dtest_alloc(dt, n * n), *ref = dtest_alloc(dt, n * n);
    int64_t cycle = -1;
    graph(dt, k, n, w, &cycle);
    gpuk_dist_matrix *m = NULL;
    gpuk_status st = gpuk_dist_matrix_create_dtype(d, dt, n, n, b, b, &m);
    if (st == GPUK_OK)
        st = gpuk_dist_scatter(d, m, size - 1, w, (size_t)(n * n) * es);
    if (st == GPUK_OK)
        st = gpuk_dist_apsp(d, m, NULL);
    int ok;
    if (k == HUGE) {
        ok = status_is(st, GPUK_ERR_INVALID, d, name);
        char first[512];
        snprintf(first, sizeof first, "%s", gpuk_dist_error(d));
        MPI_Bcast(first, (int)sizeof first, MPI_CHAR, 0, MPI_COMM_WORLD);
        if (ok && strcmp(first, gpuk_dist_error(d)))
            ok = 0, dtap_why("message differs from rank 0's: %s", gpuk_dist_error(d));
        if (ok && !strstr(first, "negative weight (-16777216)"))
            ok = 0, dtap_why("the message does not name the weight: %s", first);
        dtap_ok(ok, "%s: GPUK_ERR_INVALID on every rank, naming the weight", name);
    } else if (k == NEGATIVE_CYCLE) {
        ok = status_is(st, GPUK_ERR_NEGATIVE_CYCLE, d, name);
        long long v = -1;
        char first[512];
        snprintf(first, sizeof first, "%s", gpuk_dist_error(d));
        MPI_Bcast(first, (int)sizeof first, MPI_CHAR, 0, MPI_COMM_WORLD);
        if (ok && strcmp(first, gpuk_dist_error(d)))
            ok = 0, dtap_why("message differs from rank 0's: %s", gpuk_dist_error(d));
        if (ok && (!strstr(first, "vertex ") || sscanf(strstr(first, "vertex "), "vertex %lld",
                                                       &v) != 1 || v < 0 || v >= n))
            ok = 0, dtap_why("no vertex in the message: %s", first);
        if (ok && rank == 0 && !same_component(dt, w, n, v, cycle))
            ok = 0, dtap_why("vertex %lld is not in the component of the cycle through %lld", v,
                             (long long)cycle);
        dtap_ok(ok, "%s: GPUK_ERR_NEGATIVE_CYCLE on every rank, naming a vertex of the cycle",
                name);
    } else {
        ok = status_is(st, GPUK_OK, d, name);
        if (ok)
            ok = status_is(gpuk_dist_gather(d, m, 0, rank == 0 ? got : NULL,
                                            rank == 0 ? (size_t)(n * n) * es : 0),
                           GPUK_OK, d, "gather");
        gpuk_dist_info di;
        gpuk_dist_get_info(d, &di);
        if (ok && rank == 0)
            ok = reference(di.context, dt, w, ref, n) == GPUK_OK;
        /* REAL: two roundings of paths at most gamma_n from the shortest */
        long double u = ldexpl(1.0L, -gpuk_dtype_precision(dt));
        long double g = n * u / (1 - n * u), rel = k == REAL ? 2 * g / (1 - g) : 0;
        for (int64_t i = 0; ok && rank == 0 && i < n * n; i++) {
            long double x = dtest_get(dt, got, i), y = dtest_get(dt, ref, i);
            int same = k == REAL ? (x == y || fabsl(x - y) <= rel * fabsl(y))
                                 : !memcmp(got + (size_t)i * es, ref + (size_t)i * es, es);
            if (!same)
                ok = 0, dtap_why("d[%lld,%lld] = %.17Lg, one context %.17Lg", (long long)(i / n),
                                 (long long)(i % n), x, y);
        }
        dtap_ok(ok, "%s: %s one context's gpuk_apsp", name,
                k == REAL ? "within 2 gamma_n of" : "bit-exact against");
    }
    gpuk_dist_stats ss;
    gpuk_dist_get_stats(d, &ss);
    gpuk_dist_matrix_info mi;
    int64_t nk = m && gpuk_dist_matrix_get_info(d, m, &mi) == GPUK_OK && mi.mb > 0
                     ? (n + mi.mb - 1) / mi.mb : 0;
    gpuk_dist_info di;
    gpuk_dist_get_info(d, &di);
    int panels = k == HUGE ? 0 : (int)nk;   /* refused before the loop */
    (void)di;
    if (ss.panels != panels)
        dtap_why("stats: %d steps, expected %d", ss.panels, panels);
    dtap_ok(ss.panels == panels, "%s: stats (%d steps)", name, ss.panels);
    gpuk_dist_matrix_destroy(d, m);
    free(w), free(got), free(ref);
}

/* Collective: every rank's backend has a rung of op in dt. */
static int backend_has(gpuk_dist *d, gpuk_op op, gpuk_dtype dt)
{
    gpuk_dist_info di;
    size_t count = 0;
    int mine = 0, all = 0;
    if (gpuk_dist_get_info(d, &di) == GPUK_OK &&
        gpuk_variant_count_dtype(di.context, op, dt, &count) == GPUK_OK)
        mine = count > 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all;
}

static const int64_t SIZES[][2] = {   /* n, block */
    { 37, 5 }, { 64, 16 }, { 50, 7 }, { 20, 20 }, { 1, 1 }, { 31, 0 }, { 0, 0 },
};

static void cases_on(gpuk_dist *d, const char *grid, int all)
{
    gpuk_dist_info di;
    gpuk_dist_get_info(d, &di);
    for (size_t t = 0; t < DTEST_N_DTYPES; t++) {
        gpuk_dtype dt = DTEST_DTYPES[t];
        if (!backend_has(d, GPUK_OP_APSP, dt) || !backend_has(d, GPUK_OP_MINPLUS, dt)) {
            dtap_skip("apsp %s on %s: backend %s has no %s rung of apsp or of minplus",
                      gpuk_dtype_name(dt), grid, di.backend, gpuk_dtype_name(dt));
            continue;
        }
        int n = all ? (int)(sizeof SIZES / sizeof SIZES[0]) : 1;
        for (int i = 0; i < n; i++)
            apsp_case(d, dt, WHOLE, SIZES[i][0], SIZES[i][1], grid);
        apsp_case(d, dt, SIGNED, 41, 6, grid);
        apsp_case(d, dt, PARTIAL, 43, 5, grid);
        if (dt != GPUK_I32)
            apsp_case(d, dt, REAL, 45, 8, grid);
        else
            apsp_case(d, dt, HUGE, 40, 6, grid);
        apsp_case(d, dt, NEGATIVE_CYCLE, 33, 4, grid);
    }
}

/* Without look-ahead, and the two measuring schedules (m undefined after:
 * only that every rank succeeds). */
static void schedules(gpuk_dist *d)
{
    gpuk_dist_set_schedule(d, GPUK_DIST_SERIAL);
    for (size_t t = 0; t < DTEST_N_DTYPES; t++) {
        gpuk_dtype dt = DTEST_DTYPES[t];
        if (!backend_has(d, GPUK_OP_APSP, dt) || !backend_has(d, GPUK_OP_MINPLUS, dt))
            continue;
        apsp_case(d, dt, WHOLE, 37, 5, "the default grid, serial");
        apsp_case(d, dt, PARTIAL, 43, 5, "the default grid, serial");
    }
    static const gpuk_dist_schedule other[2] = { GPUK_DIST_COMM_ONLY, GPUK_DIST_COMPUTE_ONLY };
    for (int i = 0; i < 2; i++) {
        gpuk_dist_matrix *m = NULL;
        int64_t n = 29;
        float *w = dtest_alloc(GPUK_F32, n * n);
        graph(GPUK_F32, WHOLE, n, w, NULL);
        gpuk_status st = gpuk_dist_matrix_create(d, n, n, 4, 4, &m);
        if (st == GPUK_OK)
            st = gpuk_dist_scatter(d, m, 0, w, (size_t)(n * n) * 4);
        gpuk_dist_set_schedule(d, other[i]);
        if (st == GPUK_OK)
            st = gpuk_dist_apsp(d, m, NULL);
        gpuk_dist_set_schedule(d, GPUK_DIST_OVERLAP);
        dtap_ok(status_is(st, GPUK_OK, d, "apsp"), "apsp f32 n=29 under the schedule %s: "
                "GPUK_OK on every rank", i ? "COMPUTE_ONLY" : "COMM_ONLY");
        gpuk_dist_matrix_destroy(d, m);
        free(w);
    }
    gpuk_dist_set_schedule(d, GPUK_DIST_OVERLAP);
}

static gpuk_dist *open_grid(int p, int q)
{
    gpuk_dist_options o;
    gpuk_dist_options_init(&o);
    o.prow = p, o.pcol = q;
    gpuk_dist *d = NULL;
    gpuk_status st = gpuk_dist_open(&d, MPI_COMM_WORLD, &o);
    if (st != GPUK_OK)
        dtap_why("gpuk_dist_open: %s: %s", gpuk_status_name(st), gpuk_dist_error(NULL));
    dtap_ok(st == GPUK_OK, "open a %s grid", p ? (p == 1 ? "1 x N" : "N x 1") : "default");
    return d;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    dtap_init(MPI_COMM_WORLD);
    rng = dtap_seed();

    gpuk_dist *d = open_grid(0, 0);
    if (d) {
        gpuk_dist_info di;
        gpuk_dist_get_info(d, &di);
        dtap_diag("grid %dx%d, backend %s, comm: %s", di.prow, di.pcol, di.backend, di.comm_desc);
        cases_on(d, "the default grid", 1);
        schedules(d);
        gpuk_dist_close(d);
    }
    setenv("GPUK_DIST_APSP_PIECES", "3", 1);   /* read at open */
    if (size > 1) {
        for (int g = 0; g < 2; g++) {
            gpuk_dist *t = open_grid(g ? size : 1, g ? 1 : size);
            if (!t)
                continue;
            cases_on(t, g ? "an N x 1 grid" : "a 1 x N grid", 0);
            gpuk_dist_close(t);
        }
    } else {
        dtap_skip("1 x N and N x 1 grids need more than one rank");
    }
    int rc = dtap_done();
    MPI_Finalize();
    return rc;
}

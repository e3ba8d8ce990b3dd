/*
 * t_apsp - what gpuk_apsp(3) promises beyond the distances the op suite
 * checks (tests/ops/apsp.c): predecessors, the path walk, negative
 * cycles, and i32's INF beside negative weights, on every rung of the cpu
 * backend and, where it opens, of cuda.
 *
 *   - pred[i][j] is -1 where j == i or j cannot be reached, else a vertex
 *     p with d[i][p] + w[p][j] == d[i][j] (the cases' weights are
 *     integers, so the sums are exact), and walking pred from j reaches i
 *     in fewer than n steps: a tree of shortest paths from every i;
 *   - gpuk_apsp_path returns that walk from i to j, 1 vertex for i == j,
 *     0 for an unreachable j; too small a buffer is GPUK_ERR_SIZE with the
 *     length needed, i or j out of range GPUK_ERR_INDEX naming it, a
 *     corrupted row GPUK_ERR_INVALID;
 *   - a negative cycle is GPUK_ERR_NEGATIVE_CYCLE naming a vertex on it;
 *   - i32: INF is no path even next to a negative weight.
 *
 * GPUK_TEST_DTYPES (opsuite.h) runs only the dtypes it names, so that a
 * run under compute-sanitizer can take one dtype's kernels at a time.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpuk.h>

#include "opsuite.h"
#include "t_rel.h"
#include "tap.h"

#define INF32 ((int32_t)GPUK_I32_INF)

static uint64_t rng_state;
static uint64_t rng(void)
{
    rng_state += 0x9E3779B97F4A7C15ull;
    uint64_t z = rng_state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A random graph with integer weights, some negative (potentials keep
 * every cycle non-negative; pot_max 0: none), and zero-weight edges,
 * which make ties. */
static void graph_pot(int64_t n, int pct, int pot_max, int32_t *w)
{
    int32_t *pot = malloc((size_t)n * sizeof *pot);
    for (int64_t i = 0; i < n; i++)
        pot[i] = pot_max ? (int32_t)(rng() % (uint64_t)pot_max) : 0;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) {
            int edge = (int)(rng() % 100) < pct;
            int32_t base = (int32_t)(rng() % 4 == 0 ? 0 : rng() % 50);
            w[i * n + j] = edge ? base + pot[j] - pot[i] : INF32;
        }
    free(pot);
}

static void graph(int64_t n, int pct, int32_t *w)
{
    graph_pot(n, pct, 20, w);
}

static gpuk_tensor *make(gpuk_context *ctx, gpuk_dtype dt, int64_t n, const void *vals)
{
    gpuk_tensor *t = NULL;
    int64_t sh[2] = { n, n };
    if (gpuk_tensor_create(ctx, dt, 2, sh, &t) != GPUK_OK)
        return NULL;
    if (vals && gpuk_tensor_write(ctx, t, vals, (size_t)(n * n) * gpuk_dtype_size(dt)) != GPUK_OK)
        return NULL;
    return t;
}

/* Check d and pred of one run against w (integers held in dt). */
static int check_tree(int64_t n, const int32_t *w, const double *d, const int32_t *pred,
                      char *why, size_t wl)
{
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) {
            int32_t p = pred[i * n + j];
            int reach = d[i * n + j] < INF32;
            if (i == j || !reach) {
                if (p != -1) {
                    snprintf(why, wl, "pred[%lld,%lld] = %d, want -1", (long long)i,
                             (long long)j, p);
                    return 0;
                }
                continue;
            }
            if (p < 0 || p >= n || w[p * n + j] >= INF32 ||
                d[i * n + p] + w[p * n + j] != d[i * n + j]) {
                snprintf(why, wl, "pred[%lld,%lld] = %d is no last step of a shortest path "
                         "(d = %g)", (long long)i, (long long)j, p, d[i * n + j]);
                return 0;
            }
            int64_t steps = 0;
            for (int64_t v = j; v != i; v = pred[i * n + v])
                if (++steps >= n || pred[i * n + v] < 0) {
                    snprintf(why, wl, "walking pred from %lld to %lld does not reach it",
                             (long long)j, (long long)i);
                    return 0;
                }
        }
    return 1;
}

/* One rung on one dtype: a graph, distances and predecessors, a tree. */
static void run_tree(gpuk_context *ctx, const char *be, const char *v, gpuk_dtype dt, int64_t n)
{
    int32_t *w = malloc((size_t)(n * n) * 4), *pred = malloc((size_t)(n * n) * 4);
    double *d = malloc((size_t)(n * n) * 8);
    void *wv = malloc((size_t)(n * n) * 8), *dv = malloc((size_t)(n * n) * 8);
    graph(n, 12, w);
    for (int64_t e = 0; e < n * n; e++) {
        if (dt == GPUK_I32)
            ((int32_t *)wv)[e] = w[e];
        else if (dt == GPUK_F64)
            ((double *)wv)[e] = w[e] >= INF32 ? INFINITY : w[e];
        else
            ((float *)wv)[e] = w[e] >= INF32 ? INFINITY : (float)w[e];
    }
    gpuk_tensor *tw = make(ctx, dt, n, wv), *td = make(ctx, dt, n, NULL);
    gpuk_tensor *tp = make(ctx, GPUK_I32, n, NULL);
    gpuk_status st = tw && td && tp ? gpuk_apsp(ctx, tw, td, tp, v) : GPUK_ERR_NO_MEMORY;
    char why[200] = "";
    int ok = st == GPUK_OK;
    if (!ok)
        snprintf(why, sizeof why, "%s: %s", gpuk_strerror(st), gpuk_context_error(ctx));
    if (ok) {
        gpuk_tensor_read(ctx, td, dv, (size_t)(n * n) * gpuk_dtype_size(dt));
        gpuk_tensor_read(ctx, tp, pred, (size_t)(n * n) * 4);
        for (int64_t e = 0; e < n * n; e++)
            d[e] = dt == GPUK_I32 ? (((int32_t *)dv)[e] >= INF32 ? INF32 : ((int32_t *)dv)[e])
                 : dt == GPUK_F64 ? fmin(((double *)dv)[e], INF32)
                                  : fmin((double)((float *)dv)[e], INF32);
        ok = check_tree(n, w, d, pred, why, sizeof why);
    }
    tap_ok(ok, "%s apsp/%s %s, %lld vertices: predecessors form shortest-path trees%s%s", be, v,
           gpuk_dtype_name(dt), (long long)n, ok ? "" : ": ", why);

    /* the walk agrees with pred, row by row, for a few pairs */
    if (ok) {
        int64_t path[512], len = 0;
        int good = 1;
        for (int q = 0; q < 20 && good; q++) {
            int64_t i = (int64_t)(rng() % (uint64_t)n), j = (int64_t)(rng() % (uint64_t)n);
            st = gpuk_apsp_path(ctx, tp, i, j, path, 512, &len);
            int reach = d[i * n + j] < INF32;
            good = st == GPUK_OK && (i == j ? len == 1 : reach ? len >= 2 : len == 0) &&
                   (len == 0 || (path[0] == i && path[len - 1] == j));
            double sum = 0;
            for (int64_t s = 1; good && s < len; s++)
                sum += w[path[s - 1] * n + path[s]];
            good = good && (len < 2 || sum == d[i * n + j]);
            if (!good)
                snprintf(why, sizeof why, "path %lld -> %lld: status %d, %lld vertices, length "
                         "%g against d %g", (long long)i, (long long)j, (int)st, (long long)len,
                         sum, d[i * n + j]);
        }
        tap_ok(good, "%s apsp/%s %s: gpuk_apsp_path walks shortest paths%s%s", be, v,
               gpuk_dtype_name(dt), good ? "" : ": ", good ? "" : why);
    }
    gpuk_tensor_destroy(ctx, tw);
    gpuk_tensor_destroy(ctx, td);
    gpuk_tensor_destroy(ctx, tp);
    free(w), free(pred), free(d), free(wv), free(dv);
}

/* A cycle 0 -> 1 -> 2 -> 0 of length -1 among other vertices. */
static void run_cycle(gpuk_context *ctx, const char *be, const char *v, gpuk_dtype dt)
{
    const int64_t n = 5;
    int32_t w[25];
    for (int e = 0; e < 25; e++)
        w[e] = INF32;
    w[0 * n + 1] = 2, w[1 * n + 2] = -4, w[2 * n + 0] = 1, w[3 * n + 4] = 7, w[2 * n + 3] = 1;
    double wd[25];
    float wf[25];
    for (int e = 0; e < 25; e++) {
        wd[e] = w[e] >= INF32 ? INFINITY : w[e];
        wf[e] = (float)wd[e];
    }
    const void *vals = dt == GPUK_I32 ? (const void *)w : dt == GPUK_F64 ? (const void *)wd
                                                                          : (const void *)wf;
    gpuk_tensor *tw = make(ctx, dt, n, vals), *td = make(ctx, dt, n, NULL);
    gpuk_status st = tw && td ? gpuk_apsp(ctx, tw, td, NULL, v) : GPUK_ERR_NO_MEMORY;
    const char *msg = gpuk_context_error(ctx);
    int names = strstr(msg, "vertex 0") || strstr(msg, "vertex 1") || strstr(msg, "vertex 2");
    tap_ok(st == GPUK_ERR_NEGATIVE_CYCLE && names, "%s apsp/%s %s: a negative cycle is "
           "GPUK_ERR_NEGATIVE_CYCLE naming a vertex on it (%s: %s)", be, v, gpuk_dtype_name(dt),
           gpuk_status_name(st) ? gpuk_status_name(st) : "?", msg);
    gpuk_tensor_destroy(ctx, tw);
    gpuk_tensor_destroy(ctx, td);
}

/* i32: from 0 nothing leads to 1, and 1 -> 2 weighs -5: 2 stays out of
 * reach (INF - 5 would be a "path" in min-plus's algebra). */
static void run_inf_negative(gpuk_context *ctx, const char *be, const char *v)
{
    int32_t w[9] = { 0, INF32, INF32, INF32, 0, -5, INF32, INF32, 0 }, d[9];
    gpuk_tensor *tw = make(ctx, GPUK_I32, 3, w), *td = make(ctx, GPUK_I32, 3, NULL);
    gpuk_status st = tw && td ? gpuk_apsp(ctx, tw, td, NULL, v) : GPUK_ERR_NO_MEMORY;
    if (st == GPUK_OK)
        gpuk_tensor_read(ctx, td, d, sizeof d);
    tap_ok(st == GPUK_OK && d[0 * 3 + 2] == INF32 && d[1 * 3 + 2] == -5,
           "%s apsp/%s i32: INF beside a negative weight is still no path (d[0,2] = %d)", be, v,
           st == GPUK_OK ? d[2] : 0);
    gpuk_tensor_destroy(ctx, tw);
    gpuk_tensor_destroy(ctx, td);
}

/* The walk's own refusals, on a pred written by hand. */
static void run_path_errors(gpuk_context *ctx, const char *be)
{
    int32_t p[9] = { -1, 0, 1, -1, -1, 1, 2, 2, -1 }, bad[9] = { -1, 2, 1, -1, -1, 1, -1, -1, -1 };
    gpuk_tensor *tp = make(ctx, GPUK_I32, 3, p), *tb = make(ctx, GPUK_I32, 3, bad);
    int64_t path[3], len = -1;
    REL_EXPECT(ctx, gpuk_apsp_path(ctx, tp, 0, 2, path, 2, &len), GPUK_ERR_SIZE, "cap");
    tap_ok(len == 3, "%s gpuk_apsp_path: too small a buffer says how many are needed (%lld)", be,
           (long long)len);
    REL_EXPECT(ctx, gpuk_apsp_path(ctx, tp, 3, 0, path, 3, &len), GPUK_ERR_INDEX, "i");
    REL_EXPECT(ctx, gpuk_apsp_path(ctx, tp, 0, -1, path, 3, &len), GPUK_ERR_INDEX, "j");
    REL_EXPECT(ctx, gpuk_apsp_path(ctx, tp, 0, 2, NULL, 3, &len), GPUK_ERR_NULL, "path");
    REL_EXPECT(ctx, gpuk_apsp_path(ctx, tp, 0, 2, path, 3, NULL), GPUK_ERR_NULL, "len");
    REL_EXPECT(ctx, gpuk_apsp_path(ctx, tb, 0, 2, path, 3, &len), GPUK_ERR_INVALID, "pred");
    int ok = gpuk_apsp_path(ctx, tp, 0, 2, path, 3, &len) == GPUK_OK && len == 3 &&
             path[0] == 0 && path[1] == 1 && path[2] == 2;
    tap_ok(ok, "%s gpuk_apsp_path: 0 -> 1 -> 2 from a hand-written pred", be);
    ok = gpuk_apsp_path(ctx, tp, 1, 0, path, 3, &len) == GPUK_OK && len == 0;
    tap_ok(ok, "%s gpuk_apsp_path: an unreachable vertex gives an empty path", be);
    gpuk_tensor_destroy(ctx, tp);
    gpuk_tensor_destroy(ctx, tb);
}

/* w's integers as dt (INF as +inf for floats). */
static void *as_dtype(int64_t n, const int32_t *w, gpuk_dtype dt)
{
    void *v = malloc((size_t)(n * n) * 8);
    for (int64_t e = 0; e < n * n; e++) {
        if (dt == GPUK_I32)
            ((int32_t *)v)[e] = w[e];
        else if (dt == GPUK_F64)
            ((double *)v)[e] = w[e] >= INF32 ? INFINITY : w[e];
        else
            ((float *)v)[e] = w[e] >= INF32 ? INFINITY : (float)w[e];
    }
    return v;
}

/* Element e of d in dt, as a double (INF and above as INF32). */
static double d_at(const void *d, gpuk_dtype dt, int64_t e)
{
    double v = dt == GPUK_I32 ? ((const int32_t *)d)[e]
             : dt == GPUK_F64 ? ((const double *)d)[e] : ((const float *)d)[e];
    return v >= INF32 ? INF32 : v;
}

/* Distances of every rung of dt against the naive rung's on graphs of
 * more than one block of the blocked rungs (integer weights: every rung's
 * sums are exact, so they must agree exactly), with negative weights and
 * without (i32: min-plus's algebra or the INF-testing loop), in place
 * and not.  The op suite checks the distances against its reference too;
 * here every dtype the backend has, f64 included, reaches the blocks. */
static void run_agree(gpuk_context *ctx, const char *be, gpuk_dtype dt, int64_t n, int pot_max,
                      int in_place)
{
    int32_t *w = malloc((size_t)(n * n) * 4);
    graph_pot(n, 3, pot_max, w);
    void *wv = as_dtype(n, w, dt);
    void *ref = malloc((size_t)(n * n) * 8), *got = malloc((size_t)(n * n) * 8);
    size_t bytes = (size_t)(n * n) * gpuk_dtype_size(dt);
    gpuk_tensor *tw = make(ctx, dt, n, wv), *td = make(ctx, dt, n, NULL);
    gpuk_status st = tw && td ? gpuk_apsp(ctx, tw, td, NULL, "naive") : GPUK_ERR_NO_MEMORY;
    if (st == GPUK_OK)
        st = gpuk_tensor_read(ctx, td, ref, bytes);
    size_t nv = 0;
    gpuk_variant_count_dtype(ctx, GPUK_OP_APSP, dt, &nv);
    for (size_t i = 0; i < nv && st == GPUK_OK; i++) {
        gpuk_variant_info vi;
        if (gpuk_variant_get_dtype(ctx, GPUK_OP_APSP, dt, i, &vi) != GPUK_OK ||
            strcmp(vi.name, "naive") == 0)
            continue;
        gpuk_tensor *out = td;
        gpuk_status s2 = GPUK_OK;
        if (in_place) {
            out = tw;
            s2 = gpuk_tensor_write(ctx, tw, wv, bytes);
        }
        if (s2 == GPUK_OK)
            s2 = gpuk_apsp(ctx, tw, out, NULL, vi.name);
        if (s2 == GPUK_OK)
            s2 = gpuk_tensor_read(ctx, out, got, bytes);
        int64_t bad = -1;
        for (int64_t e = 0; s2 == GPUK_OK && e < n * n && bad < 0; e++)
            if (d_at(got, dt, e) != d_at(ref, dt, e))
                bad = e;
        tap_ok(s2 == GPUK_OK && bad < 0, "%s apsp/%s %s, %lld vertices%s%s: the naive rung's "
               "distances%s%s", be, vi.name, gpuk_dtype_name(dt), (long long)n,
               pot_max ? ", negative weights" : "", in_place ? ", in place" : "",
               s2 != GPUK_OK ? ": " : "", s2 != GPUK_OK ? gpuk_context_error(ctx) : "");
        if (bad >= 0)
            tap_diag("d[%lld,%lld] = %g, naive %g", (long long)(bad / n), (long long)(bad % n),
                     d_at(got, dt, bad), d_at(ref, dt, bad));
    }
    if (st != GPUK_OK)
        tap_ok(0, "%s apsp/naive %s, %lld vertices: %s", be, gpuk_dtype_name(dt), (long long)n,
               gpuk_context_error(ctx));
    gpuk_tensor_destroy(ctx, tw);
    gpuk_tensor_destroy(ctx, td);
    free(w), free(wv), free(ref), free(got);
}

static void run_backend(const char *be, uint32_t want)
{
    gpuk_context *ctx = NULL;
    gpuk_status st = gpuk_context_open(&ctx, be);
    if (st != GPUK_OK) {
        if (strcmp(be, "cpu") == 0)
            tap_ok(0, "opening a cpu context: %s", gpuk_strerror(st));
        else
            tap_skip("backend %s does not open here: %s", be, gpuk_strerror(st));
        return;
    }
    static const gpuk_dtype dts[] = { GPUK_F32, GPUK_F64, GPUK_I32 };
    for (size_t t = 0; t < sizeof dts / sizeof dts[0]; t++) {
        if (!(want & GPUK_DTYPE_BIT(dts[t])))
            continue;
        size_t nv = 0;
        gpuk_variant_count_dtype(ctx, GPUK_OP_APSP, dts[t], &nv);
        if (nv == 0)
            tap_skip("%s: no %s apsp rung", be, gpuk_dtype_name(dts[t]));
        for (size_t i = 0; i < nv; i++) {
            gpuk_variant_info vi;
            if (gpuk_variant_get_dtype(ctx, GPUK_OP_APSP, dts[t], i, &vi) != GPUK_OK)
                continue;
            run_tree(ctx, be, vi.name, dts[t], 1 + (int64_t)(rng() % 90));
            run_tree(ctx, be, vi.name, dts[t], 150);
            run_cycle(ctx, be, vi.name, dts[t]);
            if (dts[t] == GPUK_I32)
                run_inf_negative(ctx, be, vi.name);
        }
        if (nv > 0) {
            run_agree(ctx, be, dts[t], 300, 20, 0);
            run_agree(ctx, be, dts[t], 257, 0, 1);
            /* CUDA closes a diagonal block of 129-1024 vertices in one
             * cooperative launch: 1024 is one such graph of whole tiles,
             * 1100 has diagonal blocks of 256 and 512 inside a larger
             * matrix and a short last block.  GPU only: the CPU's naive
             * rung would take seconds here, minutes under valgrind. */
            if (strcmp(be, "cuda") == 0) {
                run_agree(ctx, be, dts[t], 1024, 0, 0);
                run_agree(ctx, be, dts[t], 1100, 20, 0);
            }
        }
    }
    run_path_errors(ctx, be);
    gpuk_context_close(ctx);
}

int main(void)
{
    rng_state = tap_seed();
    uint32_t want = opsuite_dtypes();
    run_backend("cpu", want);
    run_backend("cuda", want);
    return tap_done();
}

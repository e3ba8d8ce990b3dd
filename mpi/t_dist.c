/*
 * t_dist.c - libgpuk_mpi on 1 to 4 ranks (mpi/local.mk runs it on each):
 * the grid, the block-cyclic layout and its index maps, scatter and gather
 * round trips on odd sizes and blocks, block views and in-place filling,
 * then min-plus bit for bit against gpuk_minplus in one context and
 * matmul within the gamma_k bound of doc/design.md ("Tolerances"), on the
 * default grid and on the 1 x N and N x 1 grids; in every dtype of a
 * distributed matrix (f32, f64, i32).  An (op, dtype) that the backend has
 * no rung for is skipped with the reason, never passed.
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

static double uniform(void)   /* in [-1, 1), 53 random bits */
{
    return (double)(next() >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

/* Values for min-plus.  Floats: mostly random numbers (their sums round),
 * with +inf, both zeros and NaN mixed in, so the exactness rules are
 * exercised across panels.  i32: whole numbers of either sign within
 * +-1000, with GPUK_I32_INF and 0 mixed in. */
static void fill_minplus(gpuk_dtype dt, void *x, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        uint64_t r = next();
        if (dt == GPUK_I32) {
            dtest_set(dt, x, i, r % 16 == 0 ? GPUK_I32_INF : r % 16 == 1 ? 0
                          : (double)((int64_t)(r >> 40) % 2001 - 1000));
            continue;
        }
        switch (r % 16) {
        case 0: dtest_set(dt, x, i, INFINITY); break;
        case 1: dtest_set(dt, x, i, -0.0); break;
        case 2: dtest_set(dt, x, i, 0.0); break;
        case 3: dtest_set(dt, x, i, r % 64 == 3 ? NAN : 1.5); break;
        default: dtest_set(dt, x, i, 1000.0 * uniform()); break;
        }
    }
}

/* Values for matmul and for the layout checks: uniform in [-1, 1) for
 * floats, any 32-bit pattern for i32. */
static void fill_uniform(gpuk_dtype dt, void *x, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        if (dt == GPUK_I32)
            ((int32_t *)x)[i] = (int32_t)(uint32_t)next();
        else
            dtest_set(dt, x, i, uniform());
    }
}

static int status_is(gpuk_status st, gpuk_status want, gpuk_dist *d, const char *what)
{
    if (st != want)
        dtap_why("%s: %s, expected %s: %s", what, gpuk_status_name(st), gpuk_status_name(want),
                 gpuk_dist_error(d));
    return st == want;
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

/* ---------------------------------------------------------------- layout */

static void layout_case(gpuk_dist *d, gpuk_dtype dt, int64_t rows, int64_t cols, int64_t mb,
                        int64_t nb)
{
    char name[96];
    snprintf(name, sizeof name, "%s %lldx%lld in %lldx%lld blocks", gpuk_dtype_name(dt),
             (long long)rows, (long long)cols, (long long)mb, (long long)nb);
    gpuk_dist_matrix *m = NULL;
    gpuk_status st = gpuk_dist_matrix_create_dtype(d, dt, rows, cols, mb, nb, &m);
    if (!dtap_ok(status_is(st, GPUK_OK, d, "create"), "%s: create", name))
        return;
    gpuk_dist_info di;
    gpuk_dist_matrix_info mi;
    gpuk_dist_get_info(d, &di);
    gpuk_dist_matrix_get_info(d, m, &mi);
    gpuk_context *ctx = di.context;
    size_t es = gpuk_dtype_size(dt);
    gpuk_tensor_info lt;
    int ok = gpuk_tensor_get_info(ctx, mi.local, &lt) == GPUK_OK && lt.dtype == dt &&
             mi.dtype == dt;
    if (!ok)
        dtap_why("info says %s, the local tensor %s", gpuk_dtype_name(mi.dtype),
                 gpuk_dtype_name(lt.dtype));
    dtap_ok(ok, "%s: the matrix and its local tensor are %s", name, gpuk_dtype_name(dt));

    /* every element has one owner, and the maps invert each other */
    int64_t own = 0, bad = 0, mine = mi.local_rows * mi.local_cols, total = 0;
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++) {
            int r = -1;
            int64_t li = -1, lj = -1, gi = -1, gj = -1;
            if (gpuk_dist_global_to_local(d, m, i, j, &r, &li, &lj) != GPUK_OK || r < 0 ||
                r >= size) {
                bad++;
                continue;
            }
            if (r != rank)
                continue;
            own++;
            if (gpuk_dist_local_to_global(d, m, li, lj, &gi, &gj) != GPUK_OK || gi != i ||
                gj != j)
                bad++;
        }
    MPI_Allreduce(&mine, &total, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    if (bad || own != mine || total != rows * cols)
        dtap_why("%lld bad maps, owns %lld elements, local tensor %lld, all ranks %lld",
                 (long long)bad, (long long)own, (long long)mine, (long long)total);
    dtap_ok(!bad && own == mine && total == rows * cols, "%s: index maps (local %lldx%lld)",
            name, (long long)mi.local_rows, (long long)mi.local_cols);

    /* scatter from the last rank, check the local tensor element by element */
    size_t bytes = (size_t)(rows * cols) * es;
    char *x = dtest_alloc(dt, rows * cols), *y = dtest_alloc(dt, rows * cols);
    char *loc = dtest_alloc(dt, mine);
    fill_uniform(dt, x, rows * cols);
    st = gpuk_dist_scatter(d, m, size - 1, rank == size - 1 ? x : NULL,
                           rank == size - 1 ? bytes : 0);
    ok = status_is(st, GPUK_OK, d, "scatter");
    if (ok && gpuk_tensor_read(ctx, mi.local, loc, (size_t)mine * es) != GPUK_OK)
        ok = 0, dtap_why("gpuk_tensor_read: %s", gpuk_context_error(ctx));
    for (int64_t li = 0; ok && li < mi.local_rows; li++)
        for (int64_t lj = 0; lj < mi.local_cols; lj++) {
            int64_t gi, gj;
            gpuk_dist_local_to_global(d, m, li, lj, &gi, &gj);
            if (memcmp(loc + (size_t)(li * mi.local_cols + lj) * es,
                       x + (size_t)(gi * cols + gj) * es, es) != 0) {
                dtap_why("local (%lld, %lld) = global (%lld, %lld) differs", (long long)li,
                         (long long)lj, (long long)gi, (long long)gj);
                ok = 0;
                break;
            }
        }
    dtap_ok(ok, "%s: scatter from rank %d puts each element where the maps say", name,
            size - 1);

    /* gather to rank 0: the same bytes */
    memset(y, 0xff, bytes);
    st = gpuk_dist_gather(d, m, 0, rank == 0 ? y : NULL, rank == 0 ? bytes : 0);
    ok = status_is(st, GPUK_OK, d, "gather");
    if (ok && rank == 0 && memcmp(x, y, bytes) != 0)
        ok = 0, dtap_why("gathered matrix differs from the scattered one");
    dtap_ok(ok, "%s: gather to rank 0 gives back the scattered bytes", name);

    /* block views: this rank's blocks hold the right elements; others refuse */
    int64_t nbr = (rows + mi.mb - 1) / mi.mb, nbc = (cols + mi.nb - 1) / mi.nb;
    ok = 1;
    for (int64_t bi = 0; bi < nbr && ok; bi++)
        for (int64_t bj = 0; bj < nbc && ok; bj++) {
            gpuk_tensor *v = NULL;
            int owner = (int)(bi % di.prow) * di.pcol + (int)(bj % di.pcol);
            st = gpuk_dist_matrix_block(d, m, bi, bj, &v);
            if (owner != rank) {
                ok = st == GPUK_ERR_INDEX && strstr(gpuk_dist_error(d), "lives on rank");
                if (!ok)
                    dtap_why("block (%lld, %lld) of rank %d: %s", (long long)bi,
                             (long long)bj, owner, gpuk_status_name(st));
                continue;
            }
            gpuk_tensor_info ti;
            if (st != GPUK_OK || gpuk_tensor_get_info(ctx, v, &ti) != GPUK_OK ||
                gpuk_tensor_read(ctx, v, loc, ti.bytes) != GPUK_OK) {
                ok = 0, dtap_why("block (%lld, %lld): %s", (long long)bi, (long long)bj,
                                 gpuk_dist_error(d));
            } else {
                for (int64_t i = 0; i < ti.shape[0] && ok; i++)
                    for (int64_t j = 0; j < ti.shape[1]; j++)
                        if (memcmp(loc + (size_t)(i * ti.shape[1] + j) * es,
                                   x + (size_t)((bi * mi.mb + i) * cols + bj * mi.nb + j) * es,
                                   es)) {
                            ok = 0, dtap_why("block (%lld, %lld) element (%lld, %lld)",
                                             (long long)bi, (long long)bj, (long long)i,
                                             (long long)j);
                            break;
                        }
            }
            gpuk_tensor_destroy(ctx, v);
        }
    dtap_ok(ok, "%s: block views hold their blocks, other ranks' blocks are refused", name);

    /* fill in place, with no root: each rank writes f(i, j) through the maps */
    for (int64_t li = 0; li < mi.local_rows; li++)
        for (int64_t lj = 0; lj < mi.local_cols; lj++) {
            int64_t gi, gj;
            gpuk_dist_local_to_global(d, m, li, lj, &gi, &gj);
            dtest_set(dt, loc, li * mi.local_cols + lj, (double)(gi * 1000 + gj));
        }
    st = gpuk_tensor_write(ctx, mi.local, loc, (size_t)mine * es);
    ok = st == GPUK_OK;
    if (ok)
        ok = status_is(gpuk_dist_gather(d, m, 0, rank == 0 ? y : NULL, rank == 0 ? bytes : 0),
                       GPUK_OK, d, "gather");
    for (int64_t i = 0; ok && rank == 0 && i < rows * cols; i++)
        if (dtest_get(dt, y, i) != (double)(i / cols * 1000 + i % cols))
            ok = 0, dtap_why("element %lld is %g", (long long)i, dtest_get(dt, y, i));
    dtap_ok(ok, "%s: filled in place on every rank, gathered whole", name);
    free(x);
    free(y);
    free(loc);
    gpuk_dist_matrix_destroy(d, m);
}

/* The info struct grows at its end (gpuk/mpi.h): the function of the
 * plain name fills the layout of libgpuk 0.2, which ends before dtype. */
static void info_layout(gpuk_dist *d)
{
    gpuk_dist_matrix *m = NULL;
    gpuk_dist_matrix_info old, now;
    gpuk_status st = gpuk_dist_matrix_create_dtype(d, GPUK_F64, 9, 7, 2, 3, &m);
    int ok = status_is(st, GPUK_OK, d, "create");
    memset(&old, 0, sizeof old);
    old.dtype = (gpuk_dtype)77;
    if (ok)
        ok = status_is((gpuk_dist_matrix_get_info)(d, m, &old), GPUK_OK, d, "plain get_info") &&
             status_is(gpuk_dist_matrix_get_info(d, m, &now), GPUK_OK, d, "get_info");
    if (ok && (old.dtype != (gpuk_dtype)77 || now.dtype != GPUK_F64 || old.rows != 9 ||
               old.cols != 7 || old.nb != 3 || old.local != now.local))
        ok = 0, dtap_why("0.2 layout: dtype %d, rows %lld; full: dtype %d", (int)old.dtype,
                         (long long)old.rows, (int)now.dtype);
    dtap_ok(ok, "matrix info: dtype f64; the 0.2 function fills nothing past its layout");
    gpuk_dist_matrix_destroy(d, m);
}

/* ---------------------------------------------------------------- ops */

/* One context, whole matrices: what the distributed min-plus must equal
 * bit for bit.  Rank 0 only. */
static int minplus_reference(gpuk_context *ctx, gpuk_dtype dt, const void *a, const void *b,
                             void *r, int64_t m, int64_t k, int64_t n)
{
    size_t es = gpuk_dtype_size(dt);
    gpuk_tensor *ta = NULL, *tb = NULL, *tr = NULL;
    int64_t sa[2] = { m, k }, sb[2] = { k, n }, sr[2] = { m, n };
    gpuk_status st = gpuk_tensor_create(ctx, dt, 2, sa, &ta);
    if (!st) st = gpuk_tensor_create(ctx, dt, 2, sb, &tb);
    if (!st) st = gpuk_tensor_create(ctx, dt, 2, sr, &tr);
    if (!st) st = gpuk_tensor_write(ctx, ta, a, (size_t)(m * k) * es);
    if (!st) st = gpuk_tensor_write(ctx, tb, b, (size_t)(k * n) * es);
    if (!st) st = gpuk_minplus(ctx, ta, tb, tr, NULL);
    if (!st) st = gpuk_tensor_read(ctx, tr, r, (size_t)(m * n) * es);
    if (st)
        dtap_why("one-context reference: %s", gpuk_context_error(ctx));
    gpuk_tensor_destroy(ctx, ta);
    gpuk_tensor_destroy(ctx, tb);
    gpuk_tensor_destroy(ctx, tr);
    return st == GPUK_OK;
}

/* Every element of c within 2 gamma_k(u) sum |a||b| + u |s| + (2k + 2)
 * tiny of the long double sum s, u = 2^-prec of the dtype and tiny its
 * least subnormal (what each underflowing product or sum may lose; the
 * bound of tests/ref.c, in the dtype's own unit roundoff).  long double
 * has 64 bits of significand on x86-64: its own error, about gamma_k(2^-64)
 * sum |a||b|, is 2^-11 of f64's bound and sits inside the factor 2. */
static int matmul_within(gpuk_dtype dt, const void *a, const void *b, const void *c, int64_t m,
                         int64_t k, int64_t n)
{
    const long double u = ldexpl(1.0L, -gpuk_dtype_precision(dt));
    const long double g = k * u / (1 - k * u);
    const long double tiny = dt == GPUK_F64 ? DBL_TRUE_MIN : FLT_TRUE_MIN;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            long double s = 0, abs_s = 0;
            for (int64_t p = 0; p < k; p++) {
                long double t =
                    (long double)dtest_get(dt, a, i * k + p) * dtest_get(dt, b, p * n + j);
                s += t;
                abs_s += fabsl(t);
            }
            long double bound = 2 * g * abs_s + u * fabsl(s) + (2.0L * k + 2) * tiny;
            long double got = dtest_get(dt, c, i * n + j);
            if (!(fabsl(got - s) <= bound)) {
                dtap_why("element (%lld, %lld): %.17Lg, exact %.17Lg, bound %.3Lg", (long long)i,
                         (long long)j, got, s, bound);
                return 0;
            }
        }
    return 1;
}

/* c = a (x) b or a . b on the grid; rank 0 checks the gathered c. */
static void op_case(gpuk_dist *d, gpuk_dtype dt, int minplus, int64_t m, int64_t k, int64_t n,
                    int64_t mb, int64_t kb, int64_t nb, int same, gpuk_dist_schedule sch,
                    const char *grid)
{
    char name[160];
    size_t es = gpuk_dtype_size(dt);
    snprintf(name, sizeof name, "%s %s %lldx%lldx%lld, blocks %lld/%lld/%lld%s%s on %s",
             minplus ? "minplus" : "matmul", gpuk_dtype_name(dt), (long long)m, (long long)k,
             (long long)n, (long long)mb, (long long)kb, (long long)nb, same ? ", a (x) a" : "",
             sch == GPUK_DIST_SERIAL ? ", serial" : "", grid);
    char *a = dtest_alloc(dt, m * k), *b = dtest_alloc(dt, k * n), *c = dtest_alloc(dt, m * n),
         *r = dtest_alloc(dt, m * n);
    (minplus ? fill_minplus : fill_uniform)(dt, a, m * k);
    (minplus ? fill_minplus : fill_uniform)(dt, b, k * n);
    gpuk_dist_matrix *A = NULL, *B = NULL, *C = NULL;
    gpuk_status st = gpuk_dist_matrix_create_dtype(d, dt, m, k, mb, kb, &A);
    if (st == GPUK_OK && !same)
        st = gpuk_dist_matrix_create_dtype(d, dt, k, n, kb, nb, &B);
    if (same)
        B = A, memcpy(b, a, (size_t)(m * k) * es);
    if (st == GPUK_OK)
        st = gpuk_dist_matrix_create_dtype(d, dt, m, n, mb, nb, &C);
    if (st == GPUK_OK)
        st = gpuk_dist_scatter(d, A, 0, a, (size_t)(m * k) * es);
    if (st == GPUK_OK && !same)
        st = gpuk_dist_scatter(d, B, size > 1 ? 1 : 0, b, (size_t)(k * n) * es);
    gpuk_dist_set_schedule(d, sch);
    if (st == GPUK_OK)
        st = minplus ? gpuk_dist_minplus(d, A, B, C, NULL) : gpuk_dist_matmul(d, A, B, C, NULL);
    gpuk_dist_set_schedule(d, GPUK_DIST_OVERLAP);
    int ok = status_is(st, GPUK_OK, d, name);
    if (ok)
        ok = status_is(gpuk_dist_gather(d, C, 0, c, (size_t)(m * n) * es), GPUK_OK, d, "gather");

    gpuk_dist_info di;
    gpuk_dist_get_info(d, &di);
    if (ok && rank == 0 && minplus) {
        ok = minplus_reference(di.context, dt, a, b, r, m, k, n);
        for (int64_t i = 0; ok && i < m * n; i++)
            if (memcmp(c + (size_t)i * es, r + (size_t)i * es, es))
                ok = 0, dtap_why("element (%lld, %lld): %.17g, one context %.17g",
                                 (long long)(i / n), (long long)(i % n), dtest_get(dt, c, i),
                                 dtest_get(dt, r, i));
    } else if (ok && rank == 0) {
        ok = matmul_within(dt, a, b, c, m, k, n);
    }
    dtap_ok(ok, "%s%s", name, minplus ? ": bit-exact against one context" : ": within gamma_k");
    gpuk_dist_stats ss;
    gpuk_dist_get_stats(d, &ss);
    gpuk_dist_matrix_info ai;
    int64_t nk = 0;
    if (A && gpuk_dist_matrix_get_info(d, A, &ai) == GPUK_OK)
        nk = (k + ai.nb - 1) / ai.nb;   /* kb as made: 0 asks for the default */
    int panels = di.prow * di.pcol == 1 || nk == 0 ? 0 : (int)nk;
    if (ss.panels != panels)
        dtap_why("stats: %d panels, expected %d", ss.panels, panels);
    dtap_ok(ss.panels == panels && ss.total_s >= ss.wait_s, "%s: stats (%d panels)", name,
            ss.panels);
    gpuk_dist_matrix_destroy(d, A);
    if (!same)
        gpuk_dist_matrix_destroy(d, B);
    gpuk_dist_matrix_destroy(d, C);
    free(a), free(b), free(c), free(r);
}

static const int64_t OPS[][6] = {   /* m, k, n, mb, kb, nb */
    { 33, 47, 29, 4, 5, 6 },
    { 64, 64, 64, 16, 16, 16 },
    { 50, 1, 40, 7, 1, 9 },
    { 20, 0, 10, 3, 2, 4 },
    { 1, 70, 1, 1, 8, 1 },
    { 9, 100, 11, 2, 7, 3 },
    { 0, 5, 4, 2, 2, 2 },
    { 31, 31, 31, 0, 0, 0 },
};

/* Both ops in every dtype; an (op, dtype) without a rung on the backend
 * is one skip, naming it (f64 comes to the backends on their own). */
static void ops_on(gpuk_dist *d, const char *grid, int all)
{
    int n = all ? (int)(sizeof OPS / sizeof OPS[0]) : 2;
    gpuk_dist_info di;
    gpuk_dist_get_info(d, &di);
    for (size_t t = 0; t < DTEST_N_DTYPES; t++) {
        gpuk_dtype dt = DTEST_DTYPES[t];
        for (int mp = 1; mp >= 0; mp--) {
            const char *op = mp ? "minplus" : "gemm";
            if (!backend_has(d, mp ? GPUK_OP_MINPLUS : GPUK_OP_GEMM, dt)) {
                dtap_skip("%s %s on %s: backend %s has no %s rung of %s", mp ? "minplus" : "matmul",
                          gpuk_dtype_name(dt), grid, di.backend, gpuk_dtype_name(dt), op);
                continue;
            }
            for (int i = 0; i < n; i++)
                op_case(d, dt, mp, OPS[i][0], OPS[i][1], OPS[i][2], OPS[i][3], OPS[i][4],
                        OPS[i][5], 0, GPUK_DIST_OVERLAP, grid);
            if (mp)
                op_case(d, dt, 1, 45, 45, 45, 6, 6, 6, 1, GPUK_DIST_OVERLAP, grid);
            op_case(d, dt, mp, 37, 41, 23, 5, 3, 4, 0, GPUK_DIST_SERIAL, grid);
        }
    }
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
    /* SERIALIZED lets libgpuk_mpi wait on broadcasts from a helper thread
     * while a CPU op runs (gpuk_dist(3), GPUK_DIST_PROGRESS) */
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    dtap_init(MPI_COMM_WORLD);
    rng = dtap_seed();

    gpuk_dist *d = open_grid(0, 0);
    if (!d) {
        int rc = dtap_done();
        MPI_Finalize();
        return rc;
    }
    gpuk_dist_info di;
    gpuk_dist_get_info(d, &di);
    dtap_diag("grid %dx%d, backend %s, comm: %s", di.prow, di.pcol, di.backend, di.comm_desc);
    /* the helper thread (bcast.c): on host memory, unstaged, when MPI gave
     * SERIALIZED and GPUK_DIST_PROGRESS is not 0 */
    const char *pe = getenv("GPUK_DIST_PROGRESS"), *se = getenv("GPUK_DIST_STAGED");
    int want = provided >= MPI_THREAD_SERIALIZED && !(pe && !strcmp(pe, "0")) &&
               !(se && !strcmp(se, "1")) && !strcmp(di.backend, "cpu");
    dtap_ok(want == (strstr(di.comm_desc, "progress thread") != NULL),
            "info: the progress thread is %s (MPI thread level %d)", want ? "on" : "off", provided);
    int square = di.prow <= di.pcol;   /* no divisor of size between P and sqrt(size) */
    for (int i = di.prow + 1; i * i <= size; i++)
        if (size % i == 0)
            square = 0;
    dtap_ok(di.rank == rank && di.size == size && di.prow * di.pcol == size &&
            di.myrow * di.pcol + di.mycol == rank && square,
            "info: rank and grid (%dx%d, the most nearly square)", di.prow, di.pcol);

    static const int64_t LAYOUTS[][4] = {
        { 1, 1, 1, 1 }, { 7, 5, 2, 3 }, { 37, 29, 4, 5 }, { 64, 64, 16, 16 },
        { 0, 5, 2, 2 }, { 5, 0, 2, 2 }, { 13, 17, 0, 0 }, { 100, 3, 7, 1 }, { 3, 100, 1, 9 },
    };
    for (size_t i = 0; i < sizeof LAYOUTS / sizeof LAYOUTS[0]; i++)
        layout_case(d, GPUK_F32, LAYOUTS[i][0], LAYOUTS[i][1], LAYOUTS[i][2], LAYOUTS[i][3]);
    /* the other dtypes: element sizes of 8 and 4 through every byte count */
    for (size_t t = 1; t < DTEST_N_DTYPES; t++)
        for (size_t i = 1; i < 4; i++)
            layout_case(d, DTEST_DTYPES[t], LAYOUTS[i][0], LAYOUTS[i][1], LAYOUTS[i][2],
                        LAYOUTS[i][3]);
    info_layout(d);

    ops_on(d, "the default grid", 1);

    /* the schedules that exist to measure overlap run, do not hang, and
     * move every panel (comm only once broadcast the first step's alone):
     * this rank's panel bytes as the overlapped loop's, none computing only */
    static const char *SCHED[] = { "overlap", "serial", "comm only", "compute only" };
    gpuk_dist_matrix *A = NULL, *C = NULL;
    gpuk_status st = gpuk_dist_matrix_create(d, 40, 40, 5, 5, &A);
    if (st == GPUK_OK)
        st = gpuk_dist_matrix_create(d, 40, 40, 5, 5, &C);
    for (int op = 0; op < 2; op++) {
        double full = -1;
        for (int s = GPUK_DIST_OVERLAP; s <= GPUK_DIST_COMPUTE_ONLY && st == GPUK_OK; s++) {
            gpuk_dist_set_schedule(d, (gpuk_dist_schedule)s);
            gpuk_status s1 = op ? gpuk_dist_matmul(d, A, A, C, NULL)
                                : gpuk_dist_minplus(d, A, A, C, NULL);
            gpuk_dist_stats ss;
            gpuk_dist_get_stats(d, &ss);
            if (s == GPUK_DIST_OVERLAP)
                full = ss.bytes;
            double want = s == GPUK_DIST_COMPUTE_ONLY ? 0 : full;
            if (s1 == GPUK_OK && ss.bytes != want)
                dtap_why("rank %d: %.0f panel bytes, the overlapped loop %.0f", rank, ss.bytes,
                         full);
            int mine = s1 == GPUK_OK && ss.bytes == want, all = 0;
            MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
            dtap_ok(all,
                    "schedule %s: %s runs and moves %s", SCHED[s], op ? "matmul" : "minplus",
                    s == GPUK_DIST_COMPUTE_ONLY ? "no panel" : "every panel");
        }
    }
    gpuk_dist_set_schedule(d, GPUK_DIST_OVERLAP);
    gpuk_dist_matrix_destroy(d, A);
    gpuk_dist_matrix_destroy(d, C);
    gpuk_dist_close(d);

    /* the thin grids: panels along one dimension only */
    if (size > 1) {
        for (int g = 0; g < 2; g++) {
            gpuk_dist *t = open_grid(g ? size : 1, g ? 1 : size);
            if (!t)
                continue;
            for (size_t i = 0; i < DTEST_N_DTYPES; i++)
                layout_case(t, DTEST_DTYPES[i], 37, 29, 4, 5);
            ops_on(t, g ? "an N x 1 grid" : "a 1 x N grid", 0);
            gpuk_dist_close(t);
        }
    } else {
        dtap_skip("1 x N and N x 1 grids need more than one rank");
    }
    int rc = dtap_done();
    MPI_Finalize();
    return rc;
}

/*
 * tests/ops/apsp.c - what the tests and the fuzz harness know about
 * all-pairs shortest paths (gpuk_apsp(3)): its call, the op suite's
 * cases, the reference and its bound, the bad-input spec and shape rules,
 * the empty and infinite cases, the fuzz shapes.  The predecessors, the
 * path walk and negative cycles have their own TAP file, tests/t_apsp.c,
 * since the op suite's call has one output.
 *
 * The bound.  A float distance is the rounded sum of the edges of one
 * path, so a rung's d[i][j] is within gamma_L (sum of |w| along the path)
 * of its path's exact length, L < n edges, whatever order the sums were
 * taken in.  A rung may pick another path P' than the reference's P when
 * their rounded lengths decide it: fl(P') <= fl(P) gives |fl(P') - d| <=
 * err(P) + err(P'), and with weights >= 0, |w| summed along a path is its
 * length, so both errors are within gamma_n d: REF_C = 2 covers the pair.
 * Cases with negative weights use integer-valued floats, whose sums are
 * exact, so the bound does not have to cover a long path of mixed signs.
 */
#include "../opcall.h"

#ifdef OPTEST_CALLS
/* ---- the call: all that tests/opcall.c takes from this file ---- */

/* in[0] w, out d; no predecessors (tests/t_apsp.c covers them) */
static gpuk_status opcall_APSP(gpuk_context *ctx, const opcall_args *a, const char *v)
{
    return gpuk_apsp(ctx, a->in[0], a->out, NULL, v);
}

#else /* everything else, in the test library */
#include "family.h"

#define APSP_INF32 ((int32_t)GPUK_I32_INF)

/* ---- the reference, in long double ---- */

/* Floyd-Warshall as gpuk.h defines it, tracking for each pair the sum of
 * |w| along its path for the bound.  w is n x n of dt (f32, f64 or i32);
 * the bound's u is t's, so f64 distances are held to 2^-53. */
static void ref_apsp(const ref_tol *t, int64_t n, gpuk_dtype dt, const void *w, ref_real *ref,
                     double *bound)
{
    size_t nn = (size_t)(n * n);
    ref_real *d = oc_alloc((nn ? nn : 1) * sizeof *d), *s = oc_alloc((nn ? nn : 1) * sizeof *s);
    const ref_real inf = dt == GPUK_I32 ? (ref_real)APSP_INF32 : (ref_real)INFINITY;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) {
            ref_real v = ref_get(dt, w, i * n + j);
            if (dt == GPUK_I32 ? v > inf : isnan(v))
                v = inf;
            if (i == j && v > 0)
                v = 0;
            d[i * n + j] = v;
            s[i * n + j] = v < inf ? fabsl(v) : 0;
        }
    for (int64_t k = 0; k < n; k++)
        for (int64_t i = 0; i < n; i++) {
            ref_real dik = d[i * n + k];
            if (i == k || dik >= inf)
                continue;
            for (int64_t j = 0; j < n; j++) {
                ref_real dkj = d[k * n + j];
                if (dkj >= inf)
                    continue;
                if (dik + dkj < d[i * n + j]) {
                    d[i * n + j] = dik + dkj;
                    s[i * n + j] = s[i * n + k] + s[k * n + j];
                }
            }
        }
    for (size_t p = 0; p < nn; p++) {
        int reach = d[p] < inf;
        ref[p] = reach ? d[p] : inf;
        bound[p] = reach && dt != GPUK_I32 ? ref_sum_bound(t, n, s[p], ref[p]) : 0.0;
    }
    free(d);
    free(s);
}

static void apsp_ref(const ref_args *a, const ref_tol *t, ref_real *ref, double *bound)
{
    ref_apsp(t, a->in[0].shape[0], a->in[0].dtype, a->in[0].vals, ref, bound);
}

/* ---- the op suite's cases ---- */

/* A graph of n vertices: an edge with probability pct/100 and weight
 * oc_rnd's magnitude (f32, f64) or 1..999 (i32); "no edge" +inf / INF,
 * some written as NaN (floats) or above INF (i32), which mean the same.
 * neg: integer weights w + p[j] - p[i] >= p[j] - p[i], some negative,
 * with no negative cycle (every cycle's potentials cancel). */
static void *graph(uint64_t *g, int64_t n, gpuk_dtype dt, int pct, int neg)
{
    int32_t *pot = oc_alloc((size_t)(n ? n : 1) * sizeof *pot);
    for (int64_t i = 0; i < n; i++)
        pot[i] = neg ? (int32_t)(oc_rng(g) % 40) : 0;
    void *w = oc_alloc((size_t)(n > 0 ? n * n : 1) * gpuk_dtype_size(dt));
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) {
            int edge = (int)(oc_rng(g) % 100) < pct;
            int odd = (int)(oc_rng(g) % 16) == 0;
            int32_t iw = (int32_t)(1 + oc_rng(g) % 999) + pot[j] - pot[i];
            if (dt == GPUK_I32)
                PUT(w, i * n + j, edge ? iw : odd ? (ref_real)APSP_INF32 + 5 : APSP_INF32);
            else
                PUT(w, i * n + j, edge ? (neg ? (ref_real)iw : fabsl(ref_round(dt, oc_rnd(g))))
                                  : odd ? (ref_real)NAN : (ref_real)INFINITY);
        }
    free(pot);
    return w;
}

/* The float rows serve f32 and f64, the others i32. */
static int b_apsp(oc_case *c, int i, gpuk_dtype dt, uint64_t *g)
{
    static const int T[][6] = { /* n, edge %, i32, negative, in place, layout */
        { 1, 100, 0, 0, 0, OC_DENSE }, { 2, 100, 0, 0, 0, OC_OFF1 }, { 7, 40, 0, 0, 0, OC_DENSE },
        { 33, 10, 0, 0, 1, OC_OFF1 }, { 64, 5, 0, 0, 0, OC_DENSE }, { 100, 3, 0, 0, 0, OC_OFF1 },
        { 130, 100, 0, 0, 0, OC_DENSE }, { 257, 2, 0, 0, 1, OC_DENSE },
        { 40, 20, 0, 1, 0, OC_DENSE }, { 129, 4, 0, 1, 1, OC_OFF1 },
        { 1, 100, 1, 0, 0, OC_DENSE }, { 7, 40, 1, 0, 1, OC_OFF1 }, { 65, 6, 1, 0, 0, OC_DENSE },
        { 200, 3, 1, 0, 0, OC_DENSE }, { 33, 20, 1, 1, 0, OC_OFF1 }, { 160, 3, 1, 1, 1, OC_DENSE },
        /* more than one block of the blocked rungs (256 on the cpu): a ragged last
         * block, two whole ones, a last block of one vertex; i32 with and without
         * a negative weight (min-plus's algebra, or the INF-testing loop) */
        { 300, 3, 0, 0, 0, OC_OFF1 }, { 512, 2, 0, 0, 0, OC_DENSE }, { 513, 2, 0, 1, 1, OC_DENSE },
        { 300, 3, 1, 0, 1, OC_DENSE }, { 513, 2, 1, 1, 0, OC_OFF1 },
        { 520, 2, 1, 0, 0, OC_DENSE } };
    int r = 0, seen = 0;
    for (; r < NELEM(T); r++)
        if (T[r][2] == (dt == GPUK_I32) && seen++ == i)
            break;
    if (r == NELEM(T))
        return 0;
    const int *t = T[r];
    /* k = n: the n^3 steps are the case's work (GPUK_TEST_QUICK keeps n <= 101) */
    c->n = c->m = c->k = t[0], c->n_in = 1;
    oc_arg_set(&c->in[0], dt, 2, SH(c->n, c->n), t[5], graph(g, c->n, dt, t[1], t[3]));
    oc_arg_set(&c->out, dt, 2, SH(c->n, c->n), t[5], NULL);
    if (t[4])
        oc_in_place(c, 0);
    LBL("%d vertices, %d%% edges%s%s %s", t[0], t[1], t[3] ? ", negative weights" : "",
        t[4] ? ", in place" : "", oc_layout_name(t[5]));
    return 1;
}

/* ---- t_badshape: the rules ---- */

/* w square and dense; d w's shape, dense, disjoint from w unless it is w;
 * pred i32, w's shape, dense, disjoint from both. */
static void apsp_rules(gpuk_context *ctx)
{
    gpuk_tensor *w = TF(ctx, 4, 4), *S = STORAGE();
    gpuk_tensor *p = NULL;
    E(gpuk_apsp(ctx, TF(ctx, 3, 4), TF(ctx, 3, 4), NULL, NULL), SHAPE, "w");
    E(gpuk_apsp(ctx, w, TF(ctx, 4, 3), NULL, NULL), SHAPE, "d");
    E(gpuk_apsp(ctx, w, TF(ctx, 16), NULL, NULL), SHAPE, "d");
    E(gpuk_apsp(ctx, V2(S, 4, 4, 5, 1, 0), TF(ctx, 4, 4), NULL, NULL), LAYOUT, "w");
    E(gpuk_apsp(ctx, w, w, NULL, NULL), OK, NULL);
    E(gpuk_apsp(ctx, V2(S, 4, 4, 4, 1, 0), V2(S, 4, 4, 4, 1, 1), NULL, NULL), ALIAS, "d");
    E(gpuk_apsp(ctx, w, TF(ctx, 4, 4), TF(ctx, 4, 4), NULL), GPUK_ERR_DTYPE, "pred");
    ED(gpuk_apsp(ctx, w, TF(ctx, 4, 4), TD(ctx, 4, 4), NULL), "pred", F64, GPUK_I32);
    ED(gpuk_apsp(ctx, w, TD(ctx, 4, 4), NULL, NULL), "d", F64, F32);
    if (gpuk_tensor_create(ctx, GPUK_I32, 2, SH(4, 3), &p) == GPUK_OK)
        E(gpuk_apsp(ctx, w, TF(ctx, 4, 4), p, NULL), SHAPE, "pred");
    gpuk_tensor *pi = NULL, *wi = NULL;
    if (gpuk_tensor_create(ctx, GPUK_I32, 1, SH(40), &pi) == GPUK_OK &&
        gpuk_tensor_create(ctx, GPUK_I32, 2, SH(4, 4), &wi) == GPUK_OK) {
        gpuk_tensor *a = NULL, *b = NULL;
        gpuk_tensor_view(ctx, pi, 2, SH(4, 4), NULL, 0, &a);
        gpuk_tensor_view(ctx, pi, 2, SH(4, 4), NULL, 8, &b);
        E(gpuk_apsp(ctx, wi, a, b, NULL), ALIAS, "pred");
        E(gpuk_apsp(ctx, wi, wi, wi, NULL), ALIAS, "pred");
        E(gpuk_apsp(ctx, a, TF(ctx, 4, 4), NULL, NULL), GPUK_ERR_DTYPE, "d");
    }
}

/* ---- t_empty: no vertices, and infinities ---- */

static void apsp_empty(gpuk_context *ctx, gpuk_dtype dt)
{
    const ref_real N = NAN, P = INFINITY, M = -INFINITY, I = APSP_INF32;
    oe_expect e;
    opcall_args k;

    k = oe_call(GPUK_OP_APSP, MK(NULL, 0, 0), NULL, NULL, MK(NULL, 0, 0));
    RUN(k, "no vertices", NULL, NULL);

    if (dt == GPUK_I32) {
        /* INF and above is no edge; a self-loop of 5 is 0, nothing leads
         * out of vertex 2 */
        const ref_real w[9] = { 5, I + 3, 2, I, 0, 1, INT32_MAX, I, 7 };
        const ref_real want[9] = { 0, I, 2, I, 0, 1, I, I, 0 };
        k = oe_call(GPUK_OP_APSP, MK(w, 3, 3), NULL, NULL, MK(NULL, 3, 3));
        oe_from_ref(&e, 9, want, (const double[9]){ 0 });
        RUN(k, "INF and above: no edge; unreachable is INF", NULL, &e);
        return;
    }
    /* NaN is no edge; a -inf edge reaches on as -inf; nothing leads back;
     * a -0 self-loop is min(-0, 0) = -0 (-0 below +0, as min-plus has it) */
    const ref_real w[9] = { 5, M, P, P, 0, 1, N, P, -0.0L };
    const ref_real want[9] = { 0, M, M, P, 0, 1, P, P, -0.0L };
    k = oe_call(GPUK_OP_APSP, MK(w, 3, 3), NULL, NULL, MK(NULL, 3, 3));
    oe_from_ref(&e, 9, want, (const double[9]){ 0 });
    RUN(k, "NaN, +inf and -inf weights", NULL, &e);

    const ref_real one[1] = { 3 };
    k = oe_call(GPUK_OP_APSP, MK(one, 1, 1), NULL, NULL, MK(NULL, 1, 1));
    oe_const(&e, 1, 0.0L);
    RUN(k, "one vertex with a self-loop: 0", NULL, &e);
}

/* ---- the fuzz harness: a valid call ---- */

/* weights >= 0 (a negative cycle is a status of its own, t_apsp's
 * business), some edges missing; in place one time in three */
static int apsp_fuzz(fz *f, fz_call *c, unsigned sp)
{
    int64_t n = fz_dim(f);
    int r = fz_opnd(f, &c->in[0], c->dt, 2, SH(n, n), fz_lay_dense(f), 0, 0);
    c->n_in = 1;
    c->name[0] = "w", c->name[3] = "d";
    if (r)
        return r;
    opnd *o = &c->in[0];
    for (int64_t i = 0; i < o->numel; i++) {
        ref_real v = fz_pick(f, 4) == 0 ? INFINITY : fabsl(ref_get(o->dt, o->vals, i));
        ref_put(o->dt, o->vals, i, v);
        memcpy(o->img + fz_pos(o, i) * o->es, (char *)o->vals + i * o->es, o->es);
    }
    gpuk_tensor_write(fz_ctx, o->st, o->img, (size_t)o->n_store * o->es);
    c->inplace = fz_pick(f, 3) == 0;
    if (c->inplace) {
        c->out = c->in[0];
        return 0;
    }
    return fz_opnd(f, &c->out, c->dt, 2, SH(n, n), fz_lay_dense(f), 0, 0);
}

/* ---- the descriptor ---- */

const optest optest_APSP = {
    .op = GPUK_OP_APSP,
    .dtypes = OPTEST_FLOATS | GPUK_DTYPE_BIT(GPUK_I32),
    .cases = b_apsp,
    .products = 1,
    .ref = apsp_ref,
    .spec = { 2, { "w", "d" }, { GPUK_F32, GPUK_F32 }, { 2, 2 }, { { 4, 4 }, { 4, 4 } },
              { -1, -1 }, -1, NULL },
    .badshape = apsp_rules,
    .empty = apsp_empty,
    .fuzz = apsp_fuzz,
};

#endif /* OPTEST_CALLS */

/*
 * tests/ops/minplus.c - what the tests and the fuzz harness know about
 * min-plus, the (min, +) product (gpuk_minplus(3)): its call, the op
 * suite's cases, the reference, the bad-input spec and shape rules, the
 * empty-tensor and NaN cases, the fuzz shapes.  Min-plus is exact: every
 * rung must give the same bits, NaN sums skipped and ties of +0 and -0
 * settled as -0, whatever the order (doc/design.md, "Tolerances").
 */
#include "../opcall.h"

#ifdef OPTEST_CALLS
/* ---- the call: all that tests/opcall.c takes from this file ---- */

/* in[0] a, in[1] b (may be a itself), out r */
static gpuk_status opcall_MINPLUS(gpuk_context *ctx, const opcall_args *a, const char *v)
{
    return gpuk_minplus(ctx, a->in[0], a->in[1], a->out, v);
}

#else /* everything else, in the test library */
#include "family.h"

/* ---- the op suite's cases ---- */

/* After the table of sizes (some with a and b one tensor), three cases of
 * specials: ties of +0 and -0, missing edges (+inf) with a row that has
 * none at all, and -inf. */
static int b_minplus(oc_case *c, int i, uint64_t *g)
{
    static const int T[][5] = { /* m, k, n, a and b one tensor, layout; then the specials */
        { 1, 1, 1, 0, OC_DENSE }, { 7, 33, 5, 0, OC_OFF1 }, { 33, 7, 127, 0, OC_DENSE },
        { 127, 257, 33, 0, OC_OFF1 }, { 257, 127, 1, 0, OC_DENSE }, { 1, 257, 7, 0, OC_OFF1 },
        { 33, 0, 7, 0, OC_DENSE }, { 33, 33, 33, 1, OC_OFF1 }, { 127, 127, 127, 1, OC_DENSE },
        { 1000, 33, 127, 0, OC_OFF1 }, { 129, 36, 68, 0, OC_DENSE },
        { 128, 128, 128, 1, OC_DENSE }, { 64, 256, 64, 0, OC_DENSE },
        { 9, 9, 9, 0, OC_DENSE }, { 7, 33, 5, 0, OC_OFF1 }, { 33, 7, 33, 0, OC_DENSE } };
    static const float pinf[] = { INFINITY }, ninf[] = { -INFINITY };
    if (i >= NELEM(T))
        return 0;
    const int *t = T[i];
    int64_t m = t[0], k = t[1], n = t[2];
    c->m = m, c->k = k, c->n = n, c->n_in = 2;
    oc_arg_set(&c->in[0], F32, 2, SH(m, k), t[4], oc_rnd_vec(g, m * k, 1, 0));
    if (t[3]) {
        c->in[1] = c->in[0];
        c->in[1].alias = 0;
    } else {
        oc_arg_set(&c->in[1], F32, 2, SH(k, n), t[4], oc_rnd_vec(g, k * n, 1, 0));
    }
    oc_arg_set(&c->out, F32, 2, SH(m, n), t[4], NULL);
    if (i == NELEM(T) - 3) { /* ties of +0 and -0: a >= 0.5 but some signed zeros, b all zeros */
        float *av = c->in[0].vals, *bv = c->in[1].vals;
        for (int64_t p = 0; p < m * k; p++)
            av[p] = fabsf(av[p]) + 0.5f;
        for (int64_t r = 0; r < m; r++) {
            av[r * k + r % k] = r % 2 ? -0.0f : 0.0f;
            if (r % 3 == 0)
                av[r * k + (r + 3) % k] = -0.0f;
        }
        for (int64_t p = 0; p < k * n; p++)
            bv[p] = (p / n + p % n) % 2 ? -0.0f : 0.0f;
    } else if (i == NELEM(T) - 2) { /* missing edges: +inf, and row 0 has none at all */
        oc_sprinkle(g, c->in[0].vals, m * k, 4, pinf, 1);
        oc_sprinkle(g, c->in[1].vals, k * n, 4, pinf, 1);
        for (int64_t p = 0; p < k; p++)
            ((float *)c->in[0].vals)[p] = INFINITY;
    } else if (i == NELEM(T) - 1) {
        oc_sprinkle(g, c->in[0].vals, m * k, 9, ninf, 1);
    }
    LBL("%dx%dx%d%s%s %s", t[0], t[1], t[2], t[3] ? " a=b" : "",
        i == NELEM(T) - 3 ? " +-0 ties" : i == NELEM(T) - 2 ? " +inf"
                                          : i == NELEM(T) - 1 ? " -inf" : "",
        oc_layout_name(t[4]));
    return 1;
}

/* ---- the float64 reference ---- */

/* Min-plus is exact: one float add, then min, which never rounds.  The
 * double sum rounded to float equals the float sum (double has more than
 * 2*24+2 bits, so rounding twice is innocuous for +). */
static void ref_minplus(int64_t m, int64_t k, int64_t n, const float *a, const float *b,
                        double *ref, double *bound)
{
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            float best = INFINITY;
            for (int64_t p = 0; p < k; p++) {
                float t = (float)((double)a[i * k + p] + (double)b[p * n + j]);
                /* NaN sums are skipped (as fmin does); of +0 and -0, -0 is
                 * the smaller (IEEE 754-2019 minimum), whatever the order */
                if (t < best || (t == 0.0f && best == 0.0f && signbit(t)))
                    best = t;
            }
            ref[i * n + j] = best;
            bound[i * n + j] = 0.0;
        }
}

static void minplus_ref(const ref_args *a, double u, double *ref, double *bound)
{
    const int64_t *s0 = a->in[0].shape;
    ref_minplus(s0[0], s0[1], a->in[1].shape[1], a->in[0].vals, a->in[1].vals, ref, bound);
}

/* ---- t_badshape: the rules ---- */

static void minplus_rules(gpuk_context *ctx)
{
    gpuk_tensor *a = TF(ctx, 3, 4), *b = TF(ctx, 4, 5), *r = TF(ctx, 3, 5);
    E(gpuk_minplus(ctx, a, TF(ctx, 3, 5), r, NULL), SHAPE, "b");
    E(gpuk_minplus(ctx, a, b, TF(ctx, 4, 5), NULL), SHAPE, "r");
    E(gpuk_minplus(ctx, a, b, TF(ctx, 3, 4), NULL), SHAPE, "r");
    gpuk_tensor *S = STORAGE();
    E(gpuk_minplus(ctx, V2(S, 3, 4, 6, 1, 0), b, r, NULL), LAYOUT, "a");
    E(gpuk_minplus(ctx, a, b, V2(S, 3, 5, 6, 1, 0), NULL), LAYOUT, "r");
    gpuk_tensor *d = TF(ctx, 4, 4);
    E(gpuk_minplus(ctx, d, d, TF(ctx, 4, 4), NULL), OK, NULL);
    E(gpuk_minplus(ctx, d, d, d, NULL), ALIAS, "r");
}

/* ---- t_empty: empty outputs, empty mins, NaN and infinity ---- */

static void minplus_empty(gpuk_context *ctx)
{
    const float N = NAN, P = INFINITY;
    double ref[OE_MAXN], bd[OE_MAXN];
    oe_expect e;
    opcall_args k;

    k = oe_call(GPUK_OP_MINPLUS, MK(NULL, 0, 4), MK(NULL, 4, 5), NULL, MK(NULL, 0, 5));
    RUN(k, "r[0,5]", NULL, NULL);

    /* a min over nothing is +inf */
    k = oe_call(GPUK_OP_MINPLUS, MK(NULL, 3, 0), MK(NULL, 0, 4), NULL, MK(NULL, 3, 4));
    oe_const(&e, 12, INFINITY);
    RUN(k, "k = 0: r = +inf", NULL, &e);

    /* NaN sums are skipped, so a row of NaN gives +inf */
    const float ma[12] = { N, N, N, N, 1, 2, -P, 0, 1, P, P, P };
    const float mb[6] = { 1, P, 2, -P, N, 0 };
    k = oe_call(GPUK_OP_MINPLUS, MK(ma, 4, 3), MK(mb, 3, 2), NULL, MK(NULL, 4, 2));
    ref_minplus(4, 3, 2, ma, mb, ref, bd);
    oe_from_ref(&e, 8, ref, bd);
    RUN(k, "NaN terms skipped, -inf + inf skipped, all-NaN row +inf", NULL, &e);

    /* a tie between +0 and -0 is -0 (IEEE 754-2019 minimum), whichever
     * comes first in k */
    const float za[4] = { 0, -0.0f, -0.0f, 0 };
    k = oe_call(GPUK_OP_MINPLUS, MK(za, 2, 2), MK(za, 2, 2), NULL, MK(NULL, 2, 2));
    oe_const(&e, 4, 0.0);
    e.v[0] = e.v[3] = -0.0;   /* r[0,0]: +0 then -0; r[1,1]: -0 then +0 */
    RUN(k, "+0 and -0 sums tie: -0, in either order; +0 ties stay +0", NULL, &e);
}

/* ---- the fuzz harness: a valid call from the input bytes ---- */

/* Every operand contiguous; a square a is sometimes b too (r = d (x) d). */
static int minplus_fuzz(fz *f, fz_call *c, unsigned sp)
{
    int64_t m = fz_dim(f), k = fz_dim(f), n = fz_dim(f);
    int r = fz_opnd(f, &c->in[0], F32, 2, SH(m, k), fz_lay_dense(f), sp, 0);
    if (m == k && k == n && fz_pick(f, 2))
        c->in[1] = c->in[0];
    else
        r |= fz_opnd(f, &c->in[1], F32, 2, SH(k, n), fz_lay_dense(f), sp, 0);
    c->n_in = 2;
    r |= fz_opnd(f, &c->out, F32, 2, SH(m, n), fz_lay_dense(f), 0, 0);
    c->name[0] = "a", c->name[1] = "b", c->name[3] = "r";
    return r;
}

/* ---- the descriptor ---- */

const optest optest_MINPLUS = {
    .op = GPUK_OP_MINPLUS,
    .cases = b_minplus,
    .products = 1,
    .ref = minplus_ref,
    .spec = { 3, { "a", "b", "r" }, { GPUK_F32, GPUK_F32, GPUK_F32 }, { 2, 2, 2 },
              { { 3, 4 }, { 4, 5 }, { 3, 5 } }, { -1, -1, -1 }, -1, NULL },
    .badshape = minplus_rules,
    .empty = minplus_empty,
    .fuzz = minplus_fuzz,
};

#endif /* OPTEST_CALLS */

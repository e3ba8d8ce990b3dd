/*
 * tests/ops/minplus.c - what the tests and the fuzz harness know about
 * min-plus, the (min, +) product (gpuk_minplus(3)): its call, the op
 * suite's cases, the reference, the bad-input spec and shape rules, the
 * empty-tensor and NaN cases, the fuzz shapes.  Min-plus is exact: every
 * rung must give the same bits, NaN sums skipped and ties of +0 and -0
 * settled as -0, whatever the order (doc/design.md, "Tolerances").
 *
 * The op has two functions: gpuk_minplus, and gpuk_minplus_update, r =
 * min(r, a (x) b), in which the old r is one more candidate under the same
 * rules (a NaN there skipped, a tie with it -0).  The update is the same
 * descriptor run with kind OPCALL_MINPLUS_UPDATE (opcall.h): the op suite
 * has cases of its own for it, the reference reads the case's initial r,
 * t_badops checks it as the descriptor's second function, and the fuzz
 * harness picks it for about half its min-plus calls.
 */
#include "../opcall.h"

#ifdef OPTEST_CALLS
/* ---- the call: all that tests/opcall.c takes from this file ---- */

/* in[0] a, in[1] b (may be a itself), out r; kind nonzero: the update */
static gpuk_status opcall_MINPLUS(gpuk_context *ctx, const opcall_args *a, const char *v)
{
    if (a->kind)
        return gpuk_minplus_update(ctx, a->in[0], a->in[1], a->out, v);
    return gpuk_minplus(ctx, a->in[0], a->in[1], a->out, v);
}

#else /* everything else, in the test library */
#include "family.h"

/* ---- the op suite's cases ---- */

static void ref_minplus(int64_t m, int64_t k, int64_t n, const float *a, const float *b,
                        const float *r0, double *ref, double *bound);

/* The initial r of an update case: around the plain product p, so the old
 * value wins about as often as it loses: p less a little (it wins), p
 * plus a little (it loses), p itself (a tie), and NaN, +inf and -inf
 * (about 1 in 16 each, -inf 1 in 32).  Where p is +inf (k = 0, or every
 * sum NaN) the old values are small numbers of either sign. */
static float *mp_old_r(uint64_t *g, int64_t m, int64_t k, int64_t n, const float *a,
                       const float *b)
{
    int64_t mn = m * n;
    double *p = oc_alloc((size_t)mn * sizeof *p), *bd = oc_alloc((size_t)mn * sizeof *bd);
    float *r = oc_alloc((size_t)mn * sizeof *r);
    ref_minplus(m, k, n, a, b, NULL, p, bd);
    for (int64_t e = 0; e < mn; e++) {
        unsigned pick = (unsigned)(oc_rng(g) % 32);
        float base = isfinite(p[e]) ? (float)p[e] : 0.0f, d = 0.25f * fabsf(oc_rnd_f(g));
        r[e] = pick < 2    ? NAN
               : pick < 4  ? INFINITY
               : pick < 5  ? -INFINITY
               : pick < 8  ? base
               : pick < 20 ? base - d
                           : base + d;
    }
    free(p);
    free(bd);
    return r;
}

/* After the table of sizes (some with a and b one tensor), three cases of
 * specials: ties of +0 and -0, missing edges (+inf) with a row that has
 * none at all, and -inf.  Then the same for the update. */
static int b_minplus_update(oc_case *c, int i, uint64_t *g);

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
        return b_minplus_update(c, i - NELEM(T), g);
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

/* The update (kind OPCALL_MINPLUS_UPDATE): odd, square, one-tensor and
 * empty-k shapes, each with an initial r from mp_old_r; then the specials:
 * old +0 and -0 against new +0 and -0 (every pair), missing edges with a
 * row of NaN sums (the old value alone, or +inf where it is NaN), and
 * -inf. */
static int b_minplus_update(oc_case *c, int i, uint64_t *g)
{
    static const int U[][5] = { /* m, k, n, a and b one tensor, layout; then the specials */
        { 1, 1, 1, 0, OC_DENSE }, { 7, 33, 5, 0, OC_OFF1 }, { 33, 0, 7, 0, OC_DENSE },
        { 127, 257, 33, 0, OC_OFF1 }, { 33, 33, 33, 1, OC_OFF1 }, { 257, 127, 1, 0, OC_DENSE },
        { 1000, 33, 127, 0, OC_DENSE }, { 129, 36, 68, 0, OC_OFF1 },
        { 128, 128, 128, 1, OC_DENSE }, { 64, 256, 64, 0, OC_OFF1 }, { 5, 0, 130, 0, OC_OFF1 },
        { 9, 9, 9, 0, OC_DENSE }, { 7, 33, 5, 0, OC_OFF1 }, { 33, 7, 33, 0, OC_DENSE } };
    static const float pinf[] = { INFINITY }, ninf[] = { -INFINITY };
    if (i >= NELEM(U))
        return 0;
    const int *t = U[i];
    int64_t m = t[0], k = t[1], n = t[2];
    int ties = i == NELEM(U) - 3, edges = i == NELEM(U) - 2, neg = i == NELEM(U) - 1;
    c->m = m, c->k = k, c->n = n, c->n_in = 2;
    c->kind = OPCALL_MINPLUS_UPDATE;
    oc_arg_set(&c->in[0], F32, 2, SH(m, k), t[4], oc_rnd_vec(g, m * k, 1, 0));
    if (t[3]) {
        c->in[1] = c->in[0];
        c->in[1].alias = 0;
    } else {
        oc_arg_set(&c->in[1], F32, 2, SH(k, n), t[4], oc_rnd_vec(g, k * n, 1, 0));
    }
    float *av = c->in[0].vals, *bv = c->in[1].vals;
    if (ties) { /* as the plain ties case: every product element is +0 or -0 */
        for (int64_t p = 0; p < m * k; p++)
            av[p] = fabsf(av[p]) + 0.5f;
        for (int64_t r = 0; r < m; r++) {
            av[r * k + r % k] = r % 2 ? -0.0f : 0.0f;
            if (r % 3 == 0)
                av[r * k + (r + 3) % k] = -0.0f;
        }
        for (int64_t p = 0; p < k * n; p++)
            bv[p] = (p / n + p % n) % 2 ? -0.0f : 0.0f;
    } else if (edges) { /* +inf edges; row 0 has none, row 1 only NaN sums */
        oc_sprinkle(g, av, m * k, 4, pinf, 1);
        oc_sprinkle(g, bv, k * n, 4, pinf, 1);
        for (int64_t p = 0; p < k; p++) {
            av[p] = INFINITY;
            av[k + p] = NAN;
        }
    } else if (neg) {
        oc_sprinkle(g, av, m * k, 9, ninf, 1);
    }
    float *r0 = mp_old_r(g, m, k, n, av, bv);
    if (ties) { /* old +0, -0, a loser, a winner, NaN, +inf against new +0 and -0 */
        static const float olds[] = { 0.0f, -0.0f, 0.25f, -0.25f, NAN, INFINITY };
        for (int64_t e = 0; e < m * n; e++)
            r0[e] = olds[(e + e / n) % 6];
    }
    oc_arg_set(&c->out, F32, 2, SH(m, n), t[4], r0);
    LBL("update %dx%dx%d%s%s %s", t[0], t[1], t[2], t[3] ? " a=b" : "",
        ties ? " +-0 ties" : edges ? " +inf, NaN row" : neg ? " -inf" : "",
        oc_layout_name(t[4]));
    return 1;
}

/* ---- the float64 reference ---- */

/* Min-plus is exact: one float add, then min, which never rounds.  The
 * double sum rounded to float equals the float sum (double has more than
 * 2*24+2 bits, so rounding twice is innocuous for +).  With r0 (the
 * update) the old values are candidates too: the minimum starts from
 * them instead of +inf, under the same rules. */
static void ref_minplus(int64_t m, int64_t k, int64_t n, const float *a, const float *b,
                        const float *r0, double *ref, double *bound)
{
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            float best = INFINITY;
            for (int64_t p = -1; p < k; p++) {
                float t = p >= 0 ? (float)((double)a[i * k + p] + (double)b[p * n + j])
                          : r0   ? r0[i * n + j]
                                 : NAN;
                /* NaN candidates are skipped (as fmin does); of +0 and -0,
                 * -0 is the smaller (IEEE 754-2019 minimum), whatever the
                 * order */
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
    ref_minplus(s0[0], s0[1], a->in[1].shape[1], a->in[0].vals, a->in[1].vals,
                a->kind ? a->out.vals : NULL, ref, bound);
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

    /* the update: the same rules (it reads r, but r is still no input) */
    E(gpuk_minplus_update(ctx, a, TF(ctx, 3, 5), r, NULL), SHAPE, "b");
    E(gpuk_minplus_update(ctx, a, b, TF(ctx, 4, 5), NULL), SHAPE, "r");
    E(gpuk_minplus_update(ctx, a, b, TF(ctx, 3, 4), NULL), SHAPE, "r");
    E(gpuk_minplus_update(ctx, a, b, TF(ctx, 3, 5, 1), NULL), SHAPE, "r");
    E(gpuk_minplus_update(ctx, V2(S, 3, 4, 6, 1, 0), b, r, NULL), LAYOUT, "a");
    E(gpuk_minplus_update(ctx, a, V2(S, 4, 5, 7, 1, 0), r, NULL), LAYOUT, "b");
    E(gpuk_minplus_update(ctx, a, b, V2(S, 3, 5, 6, 1, 0), NULL), LAYOUT, "r");
    E(gpuk_minplus_update(ctx, d, d, TF(ctx, 4, 4), NULL), OK, NULL);
    E(gpuk_minplus_update(ctx, d, d, d, NULL), ALIAS, "r");
    /* r overlapping a by one element, and b by all but one */
    gpuk_tensor *U = STORAGE();
    E(gpuk_minplus_update(ctx, V2(U, 3, 4, 4, 1, 0), b, V2(U, 3, 5, 5, 1, 11), NULL), ALIAS, "r");
    E(gpuk_minplus_update(ctx, TF(ctx, 4, 4), V2(U, 4, 5, 5, 1, 0), V2(U, 4, 5, 5, 1, 1), NULL),
      ALIAS, "r");
    E(gpuk_minplus_update(ctx, V2(U, 3, 4, 4, 1, 0), b, V2(U, 3, 5, 5, 1, 12), NULL), OK, NULL);
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
    ref_minplus(4, 3, 2, ma, mb, NULL, ref, bd);
    oe_from_ref(&e, 8, ref, bd);
    RUN(k, "NaN terms skipped, -inf + inf skipped, all-NaN row +inf", NULL, &e);

    /* a tie between +0 and -0 is -0 (IEEE 754-2019 minimum), whichever
     * comes first in k */
    const float za[4] = { 0, -0.0f, -0.0f, 0 };
    k = oe_call(GPUK_OP_MINPLUS, MK(za, 2, 2), MK(za, 2, 2), NULL, MK(NULL, 2, 2));
    oe_const(&e, 4, 0.0);
    e.v[0] = e.v[3] = -0.0;   /* r[0,0]: +0 then -0; r[1,1]: -0 then +0 */
    RUN(k, "+0 and -0 sums tie: -0, in either order; +0 ties stay +0", NULL, &e);

    /* ---- the update, r = min(r, a (x) b) ---- */

    k = oe_call(GPUK_OP_MINPLUS, MK(NULL, 0, 4), MK(NULL, 4, 5), NULL, MK(NULL, 0, 5));
    k.kind = OPCALL_MINPLUS_UPDATE;
    RUN(k, "update r[0,5]", NULL, NULL);

    /* k = 0: min with nothing keeps r, but a NaN there is skipped: +inf */
    const float old0[12] = { 1, -0.0f, 0, N, P, -P, -2.5f, 7, 0x1p-149f, N, -0x1p-149f, 3 };
    k = oe_call(GPUK_OP_MINPLUS, MK(NULL, 3, 0), MK(NULL, 0, 4), NULL, MK(NULL, 3, 4));
    k.kind = OPCALL_MINPLUS_UPDATE;
    oe_from_ref(&e, 12, (const double[12]){ 1, -0.0, 0, P, P, -P, -2.5, 7, 0x1p-149, P,
                                           -0x1p-149, 3 },
                (const double[12]){ 0 });
    RUN(k, "update, k = 0: r kept, a NaN in r becomes +inf", old0, &e);

    /* the NaN case again, r's old values against rows of sums: winners,
     * losers, NaN (skipped: the row's minimum, or +inf for the all-NaN
     * row), +inf and -inf */
    const float oldn[8] = { N, 5, -7, N, P, -P, 1, -0.0f };
    k = oe_call(GPUK_OP_MINPLUS, MK(ma, 4, 3), MK(mb, 3, 2), NULL, MK(NULL, 4, 2));
    k.kind = OPCALL_MINPLUS_UPDATE;
    ref_minplus(4, 3, 2, ma, mb, oldn, ref, bd);
    oe_from_ref(&e, 8, ref, bd);
    RUN(k, "update: NaN in r skipped (+inf over an all-NaN row), -inf kept, winners and losers",
        oldn, &e);

    /* ties of the old value and the new: the product is [-0 +0; +0 -0],
     * each against an old +0 and an old -0 */
    const float oldz1[4] = { 0, -0.0f, 0, -0.0f }, oldz2[4] = { -0.0f, 0, -0.0f, 0 };
    k = oe_call(GPUK_OP_MINPLUS, MK(za, 2, 2), MK(za, 2, 2), NULL, MK(NULL, 2, 2));
    k.kind = OPCALL_MINPLUS_UPDATE;
    oe_const(&e, 4, -0.0);
    e.v[2] = 0.0;   /* old +0, new +0 */
    RUN(k, "update: old +0 against new -0 and old -0 against new +0 give -0", oldz1, &e);
    oe_const(&e, 4, -0.0);
    e.v[1] = 0.0;   /* old +0, new +0 */
    RUN(k, "update: old -0 against new -0 and +0 give -0; +0 and +0 stay +0", oldz2, &e);

    /* panels: r from the first two columns of a (rows of b), then updated
     * with the last two, holds the bits of one product over all four:
     * r[0,0] +0 then -0, r[0,1] -0 then +0, r[1,1] 1 twice, r[2,0] +inf
     * then -inf, r[2,1] +inf then only NaN sums */
    const float pa[12] = { 1, -0.0f, 5, -0.0f, -0.0f, 3, 0, 1, N, P, -P, N };
    const float pb[8] = { -0.0f, 1, 0, -0.0f, 2, N, -0.0f, 0 };
    float pa1[6], r1[6];
    for (int i = 0; i < 3; i++)
        pa1[2 * i] = pa[4 * i + 2], pa1[2 * i + 1] = pa[4 * i + 3];
    ref_minplus(3, 2, 2, (const float[6]){ pa[0], pa[1], pa[4], pa[5], pa[8], pa[9] }, pb, NULL,
                ref, bd);
    for (int i = 0; i < 6; i++)
        r1[i] = (float)ref[i];
    k = oe_call(GPUK_OP_MINPLUS, MK(pa1, 3, 2), MK(pb + 4, 2, 2), NULL, MK(NULL, 3, 2));
    k.kind = OPCALL_MINPLUS_UPDATE;
    ref_minplus(3, 4, 2, pa, pb, NULL, ref, bd);
    oe_from_ref(&e, 6, ref, bd);
    RUN(k, "update: two panels of k give the bits of one product over all of k", r1, &e);
}

/* ---- the fuzz harness: a valid call from the input bytes ---- */

/* Every operand contiguous; a square a is sometimes b too (r = d (x) d).
 * About half the calls are updates, and r's initial values carry the
 * call's specials.  Which half is one bit of the value stream, read
 * without moving it on, not an input byte: every input still decodes to
 * the shapes, layouts and a and b it did before (only r's initial values,
 * which a plain call never reads, may now hold specials). */
static int minplus_fuzz(fz *f, fz_call *c, unsigned sp)
{
    int64_t m = fz_dim(f), k = fz_dim(f), n = fz_dim(f);
    int r = fz_opnd(f, &c->in[0], F32, 2, SH(m, k), fz_lay_dense(f), sp, 0);
    if (m == k && k == n && fz_pick(f, 2))
        c->in[1] = c->in[0];
    else
        r |= fz_opnd(f, &c->in[1], F32, 2, SH(k, n), fz_lay_dense(f), sp, 0);
    c->n_in = 2;
    r |= fz_opnd(f, &c->out, F32, 2, SH(m, n), fz_lay_dense(f), sp, 0);
    c->kind = (f->rng >> 41) & 1 ? OPCALL_MINPLUS_UPDATE : 0;
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
    .second = "minplus_update",
    .badshape = minplus_rules,
    .empty = minplus_empty,
    .fuzz = minplus_fuzz,
};

#endif /* OPTEST_CALLS */

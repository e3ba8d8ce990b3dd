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
 *
 * f32 and f64 share every case and the reference: the sums are rounded
 * once in the dtype (ref_add1), the rules are the same, every rung of
 * every backend gives the same bits.
 *
 * i32 (gpuk.h): r = min(GPUK_I32_INF, min_k (a + b)), each sum wrapped to
 * 32 bits; the update min(r, that).  The op suite's i32 cases (plain, then
 * update) run against a reference in 64-bit integers that wraps each sum
 * itself; the shapes, layouts and values cover the meaningful range, INF
 * with negative weights, wrapping, k = 0, and both sides of the condition
 * under which dpx_i16x2 works in 16-bit lanes (every value in [0, 2^13)
 * or INF).  t_badshape adds mixed dtypes, t_empty the empty cases of each
 * dtype and a GPUK_CHECK run of every rung in each.
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

static void ref_minplus(gpuk_dtype dt, int64_t m, int64_t k, int64_t n, const ref_real *a,
                        const ref_real *b, const ref_real *r0, ref_real *ref, double *bound);
static void ref_minplus_i32(int64_t m, int64_t k, int64_t n, const int32_t *a, const int32_t *b,
                            const int32_t *r0, ref_real *ref, double *bound);
static int b_minplus_i32(oc_case *c, int i, uint64_t *g);

/* The initial r of an update case: around the plain product p, so the old
 * value wins about as often as it loses: p less a little (it wins), p
 * plus a little (it loses), p itself (a tie), and NaN, +inf and -inf
 * (about 1 in 16 each, -inf 1 in 32).  Where p is +inf (k = 0, or every
 * sum NaN) the old values are small numbers of either sign.  In dt, as
 * dt's own arithmetic gives them. */
static void *mp_old_r(uint64_t *g, gpuk_dtype dt, int64_t m, int64_t k, int64_t n,
                      const void *av, const void *bv)
{
    int64_t mn = m * n;
    ref_real *a = ref_load(dt, av, m * k), *b = ref_load(dt, bv, k * n);
    ref_real *p = oc_alloc((size_t)mn * sizeof *p);
    double *bd = oc_alloc((size_t)mn * sizeof *bd);
    void *r = oc_alloc((size_t)mn * gpuk_dtype_size(dt));
    ref_minplus(dt, m, k, n, a, b, NULL, p, bd);
    for (int64_t e = 0; e < mn; e++) {
        unsigned pick = (unsigned)(oc_rng(g) % 32);
        ref_real base = ref_isfinite(p[e]) ? p[e] : 0.0L;
        ref_real d = ref_mul1(dt, 0.25L, fabsl(ref_round(dt, oc_rnd(g))));
        PUT(r, e, pick < 2    ? (ref_real)NAN
                  : pick < 4  ? (ref_real)INFINITY
                  : pick < 5  ? -(ref_real)INFINITY
                  : pick < 8  ? base
                  : pick < 20 ? ref_add1(dt, base, -d)
                              : ref_add1(dt, base, d));
    }
    free(a);
    free(b);
    free(p);
    free(bd);
    return r;
}

/* Every product element +0 or -0: a >= 0.5 but one signed zero per row
 * (two in every third row), b all zeros of alternating sign. */
static void mp_zero_ties(gpuk_dtype dt, void *av, void *bv, int64_t m, int64_t k, int64_t n)
{
    for (int64_t p = 0; p < m * k; p++)
        PUT(av, p, ref_add1(dt, fabsl(GET(av, p)), 0.5L));
    for (int64_t r = 0; r < m; r++) {
        PUT(av, r * k + r % k, r % 2 ? -0.0L : 0.0L);
        if (r % 3 == 0)
            PUT(av, r * k + (r + 3) % k, -0.0L);
    }
    for (int64_t p = 0; p < k * n; p++)
        PUT(bv, p, (p / n + p % n) % 2 ? -0.0L : 0.0L);
}

/* After the table of sizes (some with a and b one tensor), three cases of
 * specials: ties of +0 and -0, missing edges (+inf) with a row that has
 * none at all, and -inf.  Then the same for the update.  In i32, the
 * cases of b_minplus_i32. */
static int b_minplus_update(oc_case *c, int i, gpuk_dtype dt, uint64_t *g);

static int b_minplus(oc_case *c, int i, gpuk_dtype dt, uint64_t *g)
{
    static const int T[][5] = { /* m, k, n, a and b one tensor, layout; then the specials */
        { 1, 1, 1, 0, OC_DENSE }, { 7, 33, 5, 0, OC_OFF1 }, { 33, 7, 127, 0, OC_DENSE },
        { 127, 257, 33, 0, OC_OFF1 }, { 257, 127, 1, 0, OC_DENSE }, { 1, 257, 7, 0, OC_OFF1 },
        { 33, 0, 7, 0, OC_DENSE }, { 33, 33, 33, 1, OC_OFF1 }, { 127, 127, 127, 1, OC_DENSE },
        { 1000, 33, 127, 0, OC_OFF1 }, { 129, 36, 68, 0, OC_DENSE },
        { 128, 128, 128, 1, OC_DENSE }, { 64, 256, 64, 0, OC_DENSE },
        { 9, 9, 9, 0, OC_DENSE }, { 7, 33, 5, 0, OC_OFF1 }, { 33, 7, 33, 0, OC_DENSE } };
    static const double pinf[] = { INFINITY }, ninf[] = { -INFINITY };
    if (dt == GPUK_I32)
        return b_minplus_i32(c, i, g);
    if (i >= NELEM(T))
        return b_minplus_update(c, i - NELEM(T), dt, g);
    const int *t = T[i];
    int64_t m = t[0], k = t[1], n = t[2];
    c->m = m, c->k = k, c->n = n, c->n_in = 2;
    oc_arg_set(&c->in[0], dt, 2, SH(m, k), t[4], RND(m * k));
    if (t[3]) {
        c->in[1] = c->in[0];
        c->in[1].alias = 0;
    } else {
        oc_arg_set(&c->in[1], dt, 2, SH(k, n), t[4], RND(k * n));
    }
    oc_arg_set(&c->out, dt, 2, SH(m, n), t[4], NULL);
    if (i == NELEM(T) - 3) { /* ties of +0 and -0 */
        mp_zero_ties(dt, c->in[0].vals, c->in[1].vals, m, k, n);
    } else if (i == NELEM(T) - 2) { /* missing edges: +inf, and row 0 has none at all */
        oc_sprinkle(g, dt, c->in[0].vals, m * k, 4, pinf, 1);
        oc_sprinkle(g, dt, c->in[1].vals, k * n, 4, pinf, 1);
        for (int64_t p = 0; p < k; p++)
            PUT(c->in[0].vals, p, INFINITY);
    } else if (i == NELEM(T) - 1) {
        oc_sprinkle(g, dt, c->in[0].vals, m * k, 9, ninf, 1);
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
static int b_minplus_update(oc_case *c, int i, gpuk_dtype dt, uint64_t *g)
{
    static const int U[][5] = { /* m, k, n, a and b one tensor, layout; then the specials */
        { 1, 1, 1, 0, OC_DENSE }, { 7, 33, 5, 0, OC_OFF1 }, { 33, 0, 7, 0, OC_DENSE },
        { 127, 257, 33, 0, OC_OFF1 }, { 33, 33, 33, 1, OC_OFF1 }, { 257, 127, 1, 0, OC_DENSE },
        { 1000, 33, 127, 0, OC_DENSE }, { 129, 36, 68, 0, OC_OFF1 },
        { 128, 128, 128, 1, OC_DENSE }, { 64, 256, 64, 0, OC_OFF1 }, { 5, 0, 130, 0, OC_OFF1 },
        { 9, 9, 9, 0, OC_DENSE }, { 7, 33, 5, 0, OC_OFF1 }, { 33, 7, 33, 0, OC_DENSE } };
    static const double pinf[] = { INFINITY }, ninf[] = { -INFINITY };
    if (i >= NELEM(U))
        return 0;
    const int *t = U[i];
    int64_t m = t[0], k = t[1], n = t[2];
    int ties = i == NELEM(U) - 3, edges = i == NELEM(U) - 2, neg = i == NELEM(U) - 1;
    c->m = m, c->k = k, c->n = n, c->n_in = 2;
    c->kind = OPCALL_MINPLUS_UPDATE;
    oc_arg_set(&c->in[0], dt, 2, SH(m, k), t[4], RND(m * k));
    if (t[3]) {
        c->in[1] = c->in[0];
        c->in[1].alias = 0;
    } else {
        oc_arg_set(&c->in[1], dt, 2, SH(k, n), t[4], RND(k * n));
    }
    void *av = c->in[0].vals, *bv = c->in[1].vals;
    if (ties) { /* as the plain ties case: every product element is +0 or -0 */
        mp_zero_ties(dt, av, bv, m, k, n);
    } else if (edges) { /* +inf edges; row 0 has none, row 1 only NaN sums */
        oc_sprinkle(g, dt, av, m * k, 4, pinf, 1);
        oc_sprinkle(g, dt, bv, k * n, 4, pinf, 1);
        for (int64_t p = 0; p < k; p++) {
            PUT(av, p, INFINITY);
            PUT(av, k + p, NAN);
        }
    } else if (neg) {
        oc_sprinkle(g, dt, av, m * k, 9, ninf, 1);
    }
    void *r0 = mp_old_r(g, dt, m, k, n, av, bv);
    if (ties) { /* old +0, -0, a loser, a winner, NaN, +inf against new +0 and -0 */
        static const double olds[] = { 0.0, -0.0, 0.25, -0.25, NAN, INFINITY };
        for (int64_t e = 0; e < m * n; e++)
            PUT(r0, e, olds[(e + e / n) % 6]);
    }
    oc_arg_set(&c->out, dt, 2, SH(m, n), t[4], r0);
    LBL("update %dx%dx%d%s%s %s", t[0], t[1], t[2], t[3] ? " a=b" : "",
        ties ? " +-0 ties" : edges ? " +inf, NaN row" : neg ? " -inf" : "",
        oc_layout_name(t[4]));
    return 1;
}

/* ---- the i32 cases ---- */

#define INF32 ((int32_t)GPUK_I32_INF)
#define SMALL16 8192 /* dpx_i16x2's 16-bit lanes take [0, SMALL16) and INF32 */

/* Kinds of values:
 *   RANGE     the meaningful range [-2^30, INF], INF about 1 in 8
 *   SMALL     [0, 2^13) with its ends 0 and 8191 often, INF 1 in 5: what
 *             dpx_i16x2 takes in 16-bit lanes
 *   SMALLMAX  0, 8191 and INF only: the largest finite 16-bit sums (16382)
 *             next to INF
 *   NEG       SMALL's values and negative weights (-1 to -4096), so INF + w
 *             is finite
 *   WRAP      any 32 bits, with INT32_MIN, INT32_MAX and INF often: sums
 *             wrap, and must wrap alike on every rung
 *   SPARSE    INF 13 times in 16, else SMALL's values: a sparse graph, where
 *             many outputs see no finite sum at all and stay INF */
enum { MI_RANGE, MI_SMALL, MI_SMALLMAX, MI_NEG, MI_WRAP, MI_SPARSE };
static const char *const mi_kind[] = { "range", "small", "small-max", "inf+neg", "wrap",
                                       "sparse" };

static int32_t mi_val(uint64_t *g, int kind)
{
    uint64_t r = oc_rng(g), pick = r % 16;
    r >>= 8;
    switch (kind) {
    case MI_RANGE:
        return pick < 2 ? INF32 : (int32_t)((int64_t)(r % (1ull << 31)) - (1ll << 30));
    case MI_SMALL:
        return pick < 3 ? INF32 : pick < 5 ? 0 : pick < 7 ? SMALL16 - 1 : (int32_t)(r % SMALL16);
    case MI_SMALLMAX:
        return pick < 5 ? INF32 : pick < 7 ? 0 : SMALL16 - 1;
    case MI_NEG:
        return pick < 4 ? -(int32_t)(1 + r % 4096) : pick < 8 ? INF32 : (int32_t)(r % SMALL16);
    case MI_SPARSE:
        return pick < 13 ? INF32 : (int32_t)(r % SMALL16);
    default:
        return pick < 2 ? INT32_MIN : pick < 4 ? INT32_MAX : pick < 6 ? INF32
                                                                     : (int32_t)(uint32_t)r;
    }
}

static int32_t *mi_vec(uint64_t *g, int64_t n, int kind)
{
    int32_t *v = oc_alloc((size_t)n * sizeof *v);
    for (int64_t i = 0; i < n; i++)
        v[i] = mi_val(g, kind);
    return v;
}

/* The initial r of an i32 update: around the plain product p, as for f32
 * (p less a little, p plus a little, p itself), and INF, values above INF
 * (INF + 1, INT32_MAX: the result is at most INF), INT32_MIN and small
 * negatives. */
static int32_t *mi_old_r(uint64_t *g, int64_t m, int64_t k, int64_t n, const int32_t *a,
                         const int32_t *b)
{
    int64_t mn = m * n;
    ref_real *p = oc_alloc((size_t)mn * sizeof *p);
    double *bd = oc_alloc((size_t)mn * sizeof *bd);
    int32_t *r = oc_alloc((size_t)mn * sizeof *r);
    ref_minplus_i32(m, k, n, a, b, NULL, p, bd);
    for (int64_t e = 0; e < mn; e++) {
        unsigned pick = (unsigned)(oc_rng(g) % 16);
        int64_t d = 1 + (int64_t)(oc_rng(g) % 1000), base = (int64_t)p[e];
        int64_t v = pick < 1   ? INF32
                    : pick < 2 ? (int64_t)INF32 + 1
                    : pick < 3 ? INT32_MAX
                    : pick < 4 ? INT32_MIN
                    : pick < 5 ? -d
                    : pick < 7 ? base
                    : pick < 12 ? base - d
                                : base + d;
        r[e] = (int32_t)(v < INT32_MIN ? INT32_MIN : v > INT32_MAX ? INT32_MAX : v);
    }
    free(p);
    free(bd);
    return r;
}

/* One value at a random place of v[n]: the edits that put a call just
 * outside dpx_i16x2's condition (8192 = 2^13, -1, INF - 1), or a row of a
 * all INF (INF + a negative weight). */
enum { ME_NONE, ME_A8192, ME_BNEG1, ME_AINFM1, ME_ROWINF };
static const char *const mi_edit[] = { "", " a has 8192", " b has -1", " a has INF-1",
                                       " row 0 of a INF" };

/* The table: m, k, n, a and b one tensor, layout, kind, update, edit.
 * Odd and non-square sizes; k past a slice of 16 and not a multiple of
 * it; n past the 256 columns of a 16-bit block, odd (its last pair half
 * empty) and even; 16-byte aligned rows (dense, k and n multiples of 4)
 * and rows one element off (off1), which the tile rungs load differently. */
static int b_minplus_i32(oc_case *c, int i, uint64_t *g)
{
    static const int V[][8] = {
        { 1, 1, 1, 0, OC_DENSE, MI_RANGE, 0, ME_NONE },
        { 7, 33, 5, 0, OC_OFF1, MI_RANGE, 0, ME_NONE },
        { 33, 7, 127, 0, OC_DENSE, MI_SMALL, 0, ME_NONE },
        { 127, 257, 33, 0, OC_OFF1, MI_SMALL, 0, ME_NONE },
        { 257, 127, 300, 0, OC_DENSE, MI_SMALL, 0, ME_NONE },
        { 129, 36, 301, 0, OC_OFF1, MI_SMALL, 0, ME_NONE },
        { 33, 0, 7, 0, OC_DENSE, MI_RANGE, 0, ME_NONE },
        { 33, 33, 33, 1, OC_OFF1, MI_RANGE, 0, ME_NONE },
        { 128, 128, 128, 1, OC_DENSE, MI_SMALL, 0, ME_NONE },
        { 64, 256, 64, 0, OC_DENSE, MI_RANGE, 0, ME_NONE },
        { 65, 40, 70, 0, OC_DENSE, MI_SMALLMAX, 0, ME_NONE },
        { 40, 50, 60, 0, OC_DENSE, MI_SMALL, 0, ME_A8192 },
        { 41, 50, 259, 0, OC_OFF1, MI_SMALL, 0, ME_BNEG1 },
        { 40, 52, 60, 0, OC_DENSE, MI_SMALL, 0, ME_AINFM1 },
        { 30, 40, 50, 0, OC_OFF1, MI_NEG, 0, ME_ROWINF },
        { 31, 45, 29, 0, OC_DENSE, MI_WRAP, 0, ME_NONE },
        { 100, 40, 96, 0, OC_DENSE, MI_SPARSE, 0, ME_NONE },
        { 131, 33, 270, 0, OC_OFF1, MI_SPARSE, 0, ME_NONE },
        /* the update */
        { 1, 1, 1, 0, OC_DENSE, MI_RANGE, 1, ME_NONE },
        { 7, 33, 5, 0, OC_OFF1, MI_RANGE, 1, ME_NONE },
        { 33, 0, 7, 0, OC_DENSE, MI_RANGE, 1, ME_NONE },
        { 127, 257, 33, 0, OC_OFF1, MI_SMALL, 1, ME_NONE },
        { 129, 36, 301, 0, OC_DENSE, MI_SMALL, 1, ME_NONE },
        { 33, 33, 33, 1, OC_OFF1, MI_RANGE, 1, ME_NONE },
        { 64, 256, 64, 0, OC_DENSE, MI_SMALLMAX, 1, ME_NONE },
        { 40, 50, 60, 0, OC_OFF1, MI_SMALL, 1, ME_A8192 },
        { 30, 40, 50, 0, OC_DENSE, MI_NEG, 1, ME_ROWINF },
        { 31, 45, 29, 0, OC_OFF1, MI_WRAP, 1, ME_NONE },
        { 100, 40, 96, 0, OC_DENSE, MI_SPARSE, 1, ME_NONE } };
    if (i >= NELEM(V))
        return 0;
    const int *t = V[i];
    int64_t m = t[0], k = t[1], n = t[2];
    c->m = m, c->k = k, c->n = n, c->n_in = 2;
    c->kind = t[6] ? OPCALL_MINPLUS_UPDATE : 0;
    int32_t *av = mi_vec(g, m * k, t[5]), *bv;
    oc_arg_set(&c->in[0], GPUK_I32, 2, SH(m, k), t[4], av);
    if (t[3]) {
        c->in[1] = c->in[0];
        c->in[1].alias = 0;
        bv = av;
    } else {
        bv = mi_vec(g, k * n, t[5]);
        oc_arg_set(&c->in[1], GPUK_I32, 2, SH(k, n), t[4], bv);
    }
    int64_t pa = m * k > 0 ? (int64_t)(oc_rng(g) % (uint64_t)(m * k)) : 0;
    int64_t pb = k * n > 0 ? (int64_t)(oc_rng(g) % (uint64_t)(k * n)) : 0;
    if (t[7] == ME_A8192)
        av[pa] = SMALL16;
    else if (t[7] == ME_BNEG1)
        bv[pb] = -1;
    else if (t[7] == ME_AINFM1)
        av[pa] = INF32 - 1;
    else if (t[7] == ME_ROWINF)
        for (int64_t p = 0; p < k; p++)
            av[p] = INF32;
    oc_arg_set(&c->out, GPUK_I32, 2, SH(m, n), t[4], t[6] ? mi_old_r(g, m, k, n, av, bv) : NULL);
    LBL("%s%dx%dx%d%s %s%s %s", t[6] ? "update " : "", t[0], t[1], t[2],
        t[3] ? " a=b" : "", mi_kind[t[5]], mi_edit[t[7]], oc_layout_name(t[4]));
    return 1;
}

/* ---- the references ---- */

/* Min-plus is exact: one add, rounded once in the dtype as the dtype
 * rounds it (ref_add1: the float add in f32, the double add in f64, never
 * a long double sum rounded a second time), then min, which never
 * rounds.  With r0 (the update) the old values are candidates too: the
 * minimum starts from them instead of +inf, under the same rules. */
static void ref_minplus(gpuk_dtype dt, int64_t m, int64_t k, int64_t n, const ref_real *a,
                        const ref_real *b, const ref_real *r0, ref_real *ref, double *bound)
{
    ref_real *bt = ref_transposed(b, k, n);
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            ref_real best = INFINITY;
            for (int64_t p = -1; p < k; p++) {
                ref_real t = p >= 0 ? ref_add1(dt, a[i * k + p], bt[j * k + p])
                             : r0   ? r0[i * n + j]
                                    : (ref_real)NAN;
                /* NaN candidates are skipped (as fmin does); of +0 and -0,
                 * -0 is the smaller (IEEE 754-2019 minimum), whatever the
                 * order */
                if (t < best || (t == 0 && best == 0 && signbit(t)))
                    best = t;
            }
            ref[i * n + j] = best;
            bound[i * n + j] = 0.0;
        }
    free(bt);
}

/* i32 in 64-bit integers: each sum exact, then wrapped to 32 bits as two's
 * complement (a formula of its own, not a cast), the minimum started at
 * INF (or below it at an update's old value).  Exact: bound 0. */
static int64_t mi_wrap(int64_t s)
{
    return ((s + 0x80000000LL) & 0xFFFFFFFFLL) - 0x80000000LL;
}

static void ref_minplus_i32(int64_t m, int64_t k, int64_t n, const int32_t *a, const int32_t *b,
                            const int32_t *r0, ref_real *ref, double *bound)
{
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            int64_t best = INF32;
            if (r0 && r0[i * n + j] < best)
                best = r0[i * n + j];
            for (int64_t p = 0; p < k; p++) {
                int64_t s = mi_wrap((int64_t)a[i * k + p] + (int64_t)b[p * n + j]);
                if (s < best)
                    best = s;
            }
            ref[i * n + j] = (ref_real)best;
            bound[i * n + j] = 0.0;
        }
}

static void minplus_ref(const ref_args *a, const ref_tol *t, ref_real *ref, double *bound)
{
    const ref_operand *A = &a->in[0], *B = &a->in[1];
    int64_t m = A->shape[0], k = A->shape[1], n = B->shape[1];
    if (a->dtype == GPUK_I32) {
        ref_minplus_i32(m, k, n, A->vals, B->vals, a->kind ? a->out.vals : NULL, ref, bound);
        return;
    }
    ref_real *va = ref_load(A->dtype, A->vals, m * k), *vb = ref_load(B->dtype, B->vals, k * n);
    ref_real *vr = a->kind ? ref_load(a->out.dtype, a->out.vals, m * n) : NULL;
    ref_minplus(t->dtype, m, k, n, va, vb, vr, ref, bound);
    free(va);
    free(vb);
    free(vr);
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

    /* i32: the op's dtype is a's, and b and r must have it too */
    gpuk_tensor *ai = TI(ctx, 3, 4), *bi = TI(ctx, 4, 5), *ri = TI(ctx, 3, 5);
    E(gpuk_minplus(ctx, ai, bi, ri, NULL), OK, NULL);
    E(gpuk_minplus(ctx, ai, b, ri, NULL), GPUK_ERR_DTYPE, "b");
    E(gpuk_minplus(ctx, ai, bi, r, NULL), GPUK_ERR_DTYPE, "r");
    E(gpuk_minplus(ctx, a, bi, r, NULL), GPUK_ERR_DTYPE, "b");
    E(gpuk_minplus(ctx, a, b, ri, NULL), GPUK_ERR_DTYPE, "r");
    E(gpuk_minplus_update(ctx, ai, bi, ri, NULL), OK, NULL);
    E(gpuk_minplus_update(ctx, ai, b, ri, NULL), GPUK_ERR_DTYPE, "b");
    E(gpuk_minplus_update(ctx, ai, bi, r, NULL), GPUK_ERR_DTYPE, "r");
    E(gpuk_minplus(ctx, ai, TI(ctx, 3, 5), ri, NULL), SHAPE, "b");
    E(gpuk_minplus(ctx, ai, bi, TI(ctx, 3, 4), NULL), SHAPE, "r");
    gpuk_tensor *di = TI(ctx, 4, 4);
    E(gpuk_minplus(ctx, di, di, TI(ctx, 4, 4), NULL), OK, NULL);
    E(gpuk_minplus(ctx, di, di, di, NULL), ALIAS, "r");
    E(gpuk_minplus(ctx, ai, bi, ri, "omp"), GPUK_ERR_VARIANT, "omp");

    /* f64 among f32 and i32: refused, the message naming both dtypes; an
     * f64 a is the op's dtype where the backend computes min-plus in f64
     * (then b disagrees), else refused itself */
    size_t n64 = 0;
    gpuk_variant_count_dtype(ctx, GPUK_OP_MINPLUS, F64, &n64);
    gpuk_tensor *a64 = TD(ctx, 3, 4), *b64 = TD(ctx, 4, 5), *r64 = TD(ctx, 3, 5);
    ED(gpuk_minplus(ctx, a, b64, r, NULL), "b", F64, F32);
    ED(gpuk_minplus(ctx, a, b, r64, NULL), "r", F64, F32);
    ED(gpuk_minplus(ctx, ai, b64, ri, NULL), "b", F64, GPUK_I32);
    ED(gpuk_minplus(ctx, ai, bi, r64, NULL), "r", F64, GPUK_I32);
    ED(gpuk_minplus_update(ctx, a, b, r64, NULL), "r", F64, F32);
    ED(gpuk_minplus(ctx, a64, b, r, NULL), n64 ? "b" : "a", F64, F32);
    ED(gpuk_minplus(ctx, a64, bi, ri, NULL), n64 ? "b" : "a", F64, n64 ? GPUK_I32 : F32);
    if (n64)
        E(gpuk_minplus(ctx, a64, b64, r64, NULL), OK, NULL);
}

/* ---- t_empty: empty outputs, empty mins, NaN and infinity ---- */

/* An i32 [r, c] tensor holding vals, or MI_SENT everywhere for NULL. */
#define MI_SENT (-123456789)
static gpuk_tensor *mi_tensor(gpuk_context *ctx, int64_t r, int64_t c, const int32_t *vals)
{
    gpuk_tensor *t = TI(ctx, r, c);
    int32_t *fill = oc_alloc((size_t)(r * c) * sizeof *fill);
    for (int64_t i = 0; i < r * c; i++)
        fill[i] = vals ? vals[i] : MI_SENT;
    if (r * c > 0)
        gpuk_tensor_write(ctx, t, fill, (size_t)(r * c) * sizeof *fill);
    free(fill);
    return t;
}

/* Run k (i32 tensors) on every i32 variant of min-plus, r starting as
 * init (NULL: the sentinel) each time, and compare r with want (n
 * values; NULL: the status only): one TAP check per variant. */
static void mi_run(gpuk_context *ctx, const opcall_args *k, const char *label,
                   const int32_t *init, const int32_t *want, int64_t n)
{
    size_t nv = 0;
    gpuk_variant_count_dtype(ctx, GPUK_OP_MINPLUS, GPUK_I32, &nv);
    if (nv == 0) {
        tap_ok(0, "minplus i32: %s: the backend lists no i32 variant", label);
        return;
    }
    int32_t *start = oc_alloc((size_t)(n ? n : 1) * 4), *got = oc_alloc((size_t)(n ? n : 1) * 4);
    for (int64_t i = 0; i < n; i++)
        start[i] = init ? init[i] : MI_SENT;
    for (size_t v = 0; v < nv; v++) {
        gpuk_variant_info vi;
        gpuk_variant_get_dtype(ctx, GPUK_OP_MINPLUS, GPUK_I32, v, &vi);
        if (n)
            gpuk_tensor_write(ctx, k->out, start, (size_t)n * 4);
        gpuk_status st = opcall(ctx, k, vi.name);
        char why[200] = "";
        int ok = st == GPUK_OK;
        if (!ok)
            snprintf(why, sizeof why, "status %s: %s", gpuk_strerror(st), gpuk_context_error(ctx));
        else if (n && gpuk_tensor_read(ctx, k->out, got, (size_t)n * 4) != GPUK_OK)
            ok = 0, snprintf(why, sizeof why, "read back failed");
        for (int64_t i = 0; ok && want && i < n; i++)
            if (got[i] != want[i]) {
                ok = 0;
                snprintf(why, sizeof why, "element %lld is %ld, want %ld", (long long)i,
                         (long)got[i], (long)want[i]);
            }
        tap_ok(ok, "minplus/%s (i32): %s", vi.name, label);
        if (!ok)
            tap_diag("  %s", why);
    }
    free(start);
    free(got);
}

/* A new [r, c] tensor of dtype dt on ctx holding vals (r * c elements). */
static gpuk_tensor *mp_tensor(gpuk_context *ctx, gpuk_dtype dt, int64_t r, int64_t c,
                              const void *vals)
{
    gpuk_tensor *t = rel_tensor(ctx, dt, 2, SH(r, c), 0.0f, 0.0f);
    gpuk_tensor_write(ctx, t, vals, (size_t)(r * c) * gpuk_dtype_size(dt));
    return t;
}

/* n values of dt for the GPUK_CHECK run: i32 of the kind given, floats
 * from oc_rnd_vec with NaN, +-inf and +-0 one time in eight. */
static void *mp_check_vals(uint64_t *g, gpuk_dtype dt, int64_t n, int kind)
{
    static const double sp[] = { NAN, INFINITY, -INFINITY, 0.0, -0.0 };
    if (dt == GPUK_I32)
        return mi_vec(g, n, kind);
    void *v = oc_rnd_vec(g, dt, n, 1, 0);
    oc_sprinkle(g, dt, v, n, 8, sp, NELEM(sp));
    return v;
}

/* GPUK_CHECK: on a context of the same backend with the shadow on, every
 * rung of dt is replayed on the cpu's naive rung of dt and the results
 * compared (bit for bit: min-plus is exact in every dtype); a right
 * answer passes, plain and update. */
static void mp_under_check(gpuk_context *ctx, gpuk_dtype dt)
{
    gpuk_info info;
    gpuk_options o;
    gpuk_context *cc = NULL;
    size_t nv = 0;
    gpuk_context_info(ctx, &info);
    gpuk_variant_count_dtype(ctx, GPUK_OP_MINPLUS, dt, &nv);
    if (nv == 0) {
        tap_skip("minplus %s under GPUK_CHECK: the backend has no %s variant",
                 gpuk_dtype_name(dt), gpuk_dtype_name(dt));
        return;
    }
    gpuk_options_init(&o);
    o.backend = info.backend;
    o.check = 1;
    gpuk_status st = gpuk_context_open_ex(&cc, &o, NULL);
    if (!tap_ok(st == GPUK_OK, "minplus %s: a %s context with GPUK_CHECK opens (%s)",
                gpuk_dtype_name(dt), info.backend, gpuk_strerror(st)))
        return;
    uint64_t g = 0x1F32ull;
    static const int shapes[][4] = { { 37, 45, 29, MI_RANGE }, { 19, 23, 300, MI_SMALL },
                                     { 17, 31, 13, MI_WRAP } };
    for (int s = 0; s < NELEM(shapes); s++) {
        int64_t m = shapes[s][0], kk = shapes[s][1], n = shapes[s][2];
        void *av = mp_check_vals(&g, dt, m * kk, shapes[s][3]);
        void *bv = mp_check_vals(&g, dt, kk * n, shapes[s][3]);
        void *rv = mp_check_vals(&g, dt, m * n, MI_RANGE);
        gpuk_tensor *ta = mp_tensor(cc, dt, m, kk, av), *tb = mp_tensor(cc, dt, kk, n, bv);
        gpuk_tensor *tr = mp_tensor(cc, dt, m, n, rv);
        for (size_t v = 0; v < nv; v++) {
            gpuk_variant_info vi;
            gpuk_variant_get_dtype(cc, GPUK_OP_MINPLUS, dt, v, &vi);
            for (int upd = 0; upd < 2; upd++) {
                gpuk_tensor_write(cc, tr, rv, (size_t)(m * n) * gpuk_dtype_size(dt));
                st = upd ? gpuk_minplus_update(cc, ta, tb, tr, vi.name)
                         : gpuk_minplus(cc, ta, tb, tr, vi.name);
                tap_ok(st == GPUK_OK, "minplus/%s (%s) %s %dx%dx%d %s under GPUK_CHECK: %s",
                       vi.name, gpuk_dtype_name(dt), upd ? "update" : "plain", (int)m, (int)kk,
                       (int)n, dt == GPUK_I32 ? mi_kind[shapes[s][3]] : "with specials",
                       st == GPUK_OK ? "passes" : gpuk_context_error(cc));
            }
        }
        free(av);
        free(bv);
        free(rv);
    }
    gpuk_context_close(cc);
}

/* i32: an empty r, k = 0, saturation at INF, INF with negative weights,
 * the 16-bit condition's ends, and the update's old values above INF. */
static void minplus_empty_i32(gpuk_context *ctx)
{
    const int32_t I = INF32;
    int32_t want[64], ref[64];
    ref_real dref[64];
    double dbd[64];
    opcall_args k;

    k = oe_call(GPUK_OP_MINPLUS, mi_tensor(ctx, 0, 4, NULL), mi_tensor(ctx, 4, 5, NULL), NULL,
                mi_tensor(ctx, 0, 5, NULL));
    mi_run(ctx, &k, "r[0,5]", NULL, NULL, 0);
    k.kind = OPCALL_MINPLUS_UPDATE;
    mi_run(ctx, &k, "update r[0,5]", NULL, NULL, 0);

    /* a min over nothing is INF; the update keeps r, lowered to INF */
    k = oe_call(GPUK_OP_MINPLUS, mi_tensor(ctx, 3, 0, NULL), mi_tensor(ctx, 0, 4, NULL), NULL,
                mi_tensor(ctx, 3, 4, NULL));
    for (int i = 0; i < 12; i++)
        want[i] = I;
    mi_run(ctx, &k, "k = 0: r = INF", NULL, want, 12);
    const int32_t old0[12] = { 5, I + 1, INT32_MAX, -7, I, INT32_MIN, 0, I - 1, 8191, 8192, -1, 3 };
    const int32_t upd0[12] = { 5, I, I, -7, I, INT32_MIN, 0, I - 1, 8191, 8192, -1, 3 };
    k.kind = OPCALL_MINPLUS_UPDATE;
    mi_run(ctx, &k, "update, k = 0: r kept, values above INF lowered to INF", old0, upd0, 12);

    /* saturation: INF + INF, INF + w for w >= 0 and large finite sums give
     * INF, never a wrapped negative; INF + w for w < 0 is finite */
    const int32_t sa[6] = { I, I, I, 0, I - 5, 7 };
    const int32_t sb[6] = { I, 3, 0, I, -9, 5 };
    /* r[i][j] = min(INF, a[i][0] + b[0][j], a[i][1] + b[1][j]) for a[3,2], b[2,3] */
    k = oe_call(GPUK_OP_MINPLUS, mi_tensor(ctx, 3, 2, sa), mi_tensor(ctx, 2, 3, sb), NULL,
                mi_tensor(ctx, 3, 3, NULL));
    ref_minplus_i32(3, 2, 3, sa, sb, NULL, dref, dbd);
    for (int i = 0; i < 9; i++)
        ref[i] = (int32_t)dref[i];
    const int32_t sat[9] = { I, I - 9, I, I, -9, 5, I, -2, 12 };
    mi_run(ctx, &k, "INF + INF and INF + w >= 0 give INF; INF + w < 0 is INF + w", NULL, sat, 9);
    tap_ok(memcmp(ref, sat, sizeof sat) == 0, "minplus i32: the reference agrees with the "
           "saturation table");

    /* the 16-bit condition's ends: all of a and b in {0, 8191, INF} runs in
     * 16-bit lanes (8191 + 8191 = 16382, one below the 16-bit INF); one
     * 8192 or one -1 sends the call to the i32 kernel, with the same bits */
    const int32_t ea[4] = { 8191, I, 0, 8191 }, eb[4] = { 8191, 0, I, I };
    const int32_t ewant[4] = { 16382, 8191, 8191, 0 };
    k = oe_call(GPUK_OP_MINPLUS, mi_tensor(ctx, 2, 2, ea), mi_tensor(ctx, 2, 2, eb), NULL,
                mi_tensor(ctx, 2, 2, NULL));
    mi_run(ctx, &k, "values 0, 8191, INF: 16382 next to INF", NULL, ewant, 4);
    const int32_t fa[4] = { 8192, I, 0, 8191 }, fwant[4] = { 16383, 8192, 8191, 0 };
    k = oe_call(GPUK_OP_MINPLUS, mi_tensor(ctx, 2, 2, fa), mi_tensor(ctx, 2, 2, eb), NULL,
                mi_tensor(ctx, 2, 2, NULL));
    mi_run(ctx, &k, "one value 8192 (outside the 16-bit condition)", NULL, fwant, 4);
    const int32_t gb[4] = { 8191, -1, I, I }, gwant[4] = { 16382, 8190, 8191, -1 };
    k = oe_call(GPUK_OP_MINPLUS, mi_tensor(ctx, 2, 2, ea), mi_tensor(ctx, 2, 2, gb), NULL,
                mi_tensor(ctx, 2, 2, NULL));
    mi_run(ctx, &k, "one value -1 (outside the 16-bit condition)", NULL, gwant, 4);
    /* and the update over the 16-bit path: old values on both sides */
    const int32_t eold[4] = { 16383, INT32_MAX, -5, 8191 }, eupd[4] = { 16382, 8191, -5, 0 };
    k.in[1] = mi_tensor(ctx, 2, 2, eb);
    k.kind = OPCALL_MINPLUS_UPDATE;
    mi_run(ctx, &k, "update in 16-bit lanes: old values above, below and equal", eold, eupd, 4);

    mp_under_check(ctx, GPUK_I32);
}

static void minplus_empty(gpuk_context *ctx, gpuk_dtype dt)
{
    const ref_real N = NAN, P = INFINITY, tiny = oe_tiny(dt);
    ref_real ref[OE_MAXN];
    double bd[OE_MAXN];
    oe_expect e;
    opcall_args k;

    if (dt == GPUK_I32) {
        minplus_empty_i32(ctx);
        return;
    }
    k = oe_call(GPUK_OP_MINPLUS, MK(NULL, 0, 4), MK(NULL, 4, 5), NULL, MK(NULL, 0, 5));
    RUN(k, "r[0,5]", NULL, NULL);

    /* a min over nothing is +inf */
    k = oe_call(GPUK_OP_MINPLUS, MK(NULL, 3, 0), MK(NULL, 0, 4), NULL, MK(NULL, 3, 4));
    oe_const(&e, 12, INFINITY);
    RUN(k, "k = 0: r = +inf", NULL, &e);

    /* NaN sums are skipped, so a row of NaN gives +inf */
    const ref_real ma[12] = { N, N, N, N, 1, 2, -P, 0, 1, P, P, P };
    const ref_real mb[6] = { 1, P, 2, -P, N, 0 };
    k = oe_call(GPUK_OP_MINPLUS, MK(ma, 4, 3), MK(mb, 3, 2), NULL, MK(NULL, 4, 2));
    ref_minplus(dt, 4, 3, 2, ma, mb, NULL, ref, bd);
    oe_from_ref(&e, 8, ref, bd);
    RUN(k, "NaN terms skipped, -inf + inf skipped, all-NaN row +inf", NULL, &e);

    /* a tie between +0 and -0 is -0 (IEEE 754-2019 minimum), whichever
     * comes first in k */
    const ref_real za[4] = { 0, -0.0L, -0.0L, 0 };
    k = oe_call(GPUK_OP_MINPLUS, MK(za, 2, 2), MK(za, 2, 2), NULL, MK(NULL, 2, 2));
    oe_const(&e, 4, 0.0L);
    e.v[0] = e.v[3] = -0.0L;   /* r[0,0]: +0 then -0; r[1,1]: -0 then +0 */
    RUN(k, "+0 and -0 sums tie: -0, in either order; +0 ties stay +0", NULL, &e);

    /* one rounding, in the dtype: 1 + (u + 2 u^2) lies just above half an
     * ulp past 1, so it rounds up to 1 + 2u.  A sum first rounded to a
     * wider type and then to the dtype (f64 through long double) lands on
     * the tie and rounds to 1: the reference must not (ref_add1). */
    const ref_real u = ldexpl(1.0L, -gpuk_dtype_precision(dt));
    const ref_real ra[1] = { 1 }, rb[1] = { u + 2 * u * u };
    k = oe_call(GPUK_OP_MINPLUS, MK(ra, 1, 1), MK(rb, 1, 1), NULL, MK(NULL, 1, 1));
    ref_minplus(dt, 1, 1, 1, ra, rb, NULL, ref, bd);
    oe_const(&e, 1, 1 + 2 * u);
    tap_ok(ref[0] == 1 + 2 * u, "minplus %s: the reference rounds 1 + u + 2u^2 once, to 1 + 2u",
           gpuk_dtype_name(dt));
    RUN(k, "1 + (u + 2u^2) rounds once, up to 1 + 2u", NULL, &e);

    /* ---- the update, r = min(r, a (x) b) ---- */

    k = oe_call(GPUK_OP_MINPLUS, MK(NULL, 0, 4), MK(NULL, 4, 5), NULL, MK(NULL, 0, 5));
    k.kind = OPCALL_MINPLUS_UPDATE;
    RUN(k, "update r[0,5]", NULL, NULL);

    /* k = 0: min with nothing keeps r, but a NaN there is skipped: +inf */
    const ref_real old0[12] = { 1, -0.0L, 0, N, P, -P, -2.5, 7, tiny, N, -tiny, 3 };
    const ref_real new0[12] = { 1, -0.0L, 0, P, P, -P, -2.5, 7, tiny, P, -tiny, 3 };
    k = oe_call(GPUK_OP_MINPLUS, MK(NULL, 3, 0), MK(NULL, 0, 4), NULL, MK(NULL, 3, 4));
    k.kind = OPCALL_MINPLUS_UPDATE;
    oe_from_ref(&e, 12, new0, (const double[12]){ 0 });
    RUN(k, "update, k = 0: r kept, a NaN in r becomes +inf", old0, &e);

    /* the NaN case again, r's old values against rows of sums: winners,
     * losers, NaN (skipped: the row's minimum, or +inf for the all-NaN
     * row), +inf and -inf */
    const ref_real oldn[8] = { N, 5, -7, N, P, -P, 1, -0.0L };
    k = oe_call(GPUK_OP_MINPLUS, MK(ma, 4, 3), MK(mb, 3, 2), NULL, MK(NULL, 4, 2));
    k.kind = OPCALL_MINPLUS_UPDATE;
    ref_minplus(dt, 4, 3, 2, ma, mb, oldn, ref, bd);
    oe_from_ref(&e, 8, ref, bd);
    RUN(k, "update: NaN in r skipped (+inf over an all-NaN row), -inf kept, winners and losers",
        oldn, &e);

    /* ties of the old value and the new: the product is [-0 +0; +0 -0],
     * each against an old +0 and an old -0 */
    const ref_real oldz1[4] = { 0, -0.0L, 0, -0.0L }, oldz2[4] = { -0.0L, 0, -0.0L, 0 };
    k = oe_call(GPUK_OP_MINPLUS, MK(za, 2, 2), MK(za, 2, 2), NULL, MK(NULL, 2, 2));
    k.kind = OPCALL_MINPLUS_UPDATE;
    oe_const(&e, 4, -0.0L);
    e.v[2] = 0.0L;   /* old +0, new +0 */
    RUN(k, "update: old +0 against new -0 and old -0 against new +0 give -0", oldz1, &e);
    oe_const(&e, 4, -0.0L);
    e.v[1] = 0.0L;   /* old +0, new +0 */
    RUN(k, "update: old -0 against new -0 and +0 give -0; +0 and +0 stay +0", oldz2, &e);

    /* panels: r from the first two columns of a (rows of b), then updated
     * with the last two, holds the bits of one product over all four:
     * r[0,0] +0 then -0, r[0,1] -0 then +0, r[1,1] 1 twice, r[2,0] +inf
     * then -inf, r[2,1] +inf then only NaN sums */
    const ref_real pa[12] = { 1, -0.0L, 5, -0.0L, -0.0L, 3, 0, 1, N, P, -P, N };
    const ref_real pb[8] = { -0.0L, 1, 0, -0.0L, 2, N, -0.0L, 0 };
    ref_real pa1[6], r1[6];
    for (int i = 0; i < 3; i++)
        pa1[2 * i] = pa[4 * i + 2], pa1[2 * i + 1] = pa[4 * i + 3];
    ref_minplus(dt, 3, 2, 2, (const ref_real[6]){ pa[0], pa[1], pa[4], pa[5], pa[8], pa[9] },
                pb, NULL, ref, bd);
    for (int i = 0; i < 6; i++)
        r1[i] = ref[i];
    k = oe_call(GPUK_OP_MINPLUS, MK(pa1, 3, 2), MK(pb + 4, 2, 2), NULL, MK(NULL, 3, 2));
    k.kind = OPCALL_MINPLUS_UPDATE;
    ref_minplus(dt, 3, 4, 2, pa, pb, NULL, ref, bd);
    oe_from_ref(&e, 6, ref, bd);
    RUN(k, "update: two panels of k give the bits of one product over all of k", r1, &e);

    mp_under_check(ctx, dt);
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
    int r = fz_opnd(f, &c->in[0], c->dt, 2, SH(m, k), fz_lay_dense(f), sp, 0);
    if (m == k && k == n && fz_pick(f, 2))
        c->in[1] = c->in[0];
    else
        r |= fz_opnd(f, &c->in[1], c->dt, 2, SH(k, n), fz_lay_dense(f), sp, 0);
    c->n_in = 2;
    r |= fz_opnd(f, &c->out, c->dt, 2, SH(m, n), fz_lay_dense(f), sp, 0);
    c->kind = (f->rng >> 41) & 1 ? OPCALL_MINPLUS_UPDATE : 0;
    c->name[0] = "a", c->name[1] = "b", c->name[3] = "r";
    return r;
}

/* ---- the descriptor ---- */

const optest optest_MINPLUS = {
    .op = GPUK_OP_MINPLUS,
    .dtypes = OPTEST_FLOATS | GPUK_DTYPE_BIT(GPUK_I32),
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

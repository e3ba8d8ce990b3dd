/*
 * tests/ops/reduce.c - what the tests and the fuzz harness know about the
 * reductions reduce and meanpool (gpuk_reduce(3)): their calls, the op
 * suite's cases, the references, the bad-input specs and shape
 * rules, the empty-tensor and NaN cases, the fuzz shapes.  A sum over
 * nothing is 0, a mean over nothing NaN.
 */
#include "../opcall.h"

#ifdef OPTEST_CALLS
/* ---- the calls: all that tests/opcall.c takes from this file ---- */

/* in[0] x, out; kind, axis */
static gpuk_status opcall_REDUCE(gpuk_context *ctx, const opcall_args *a, const char *v)
{
    return gpuk_reduce(ctx, (gpuk_reduce_kind)a->kind, a->in[0], a->axis, a->out, v);
}

/* in[0] x, out */
static gpuk_status opcall_MEANPOOL(gpuk_context *ctx, const opcall_args *a, const char *v)
{
    return gpuk_meanpool(ctx, a->in[0], a->out, v);
}

#else /* everything else, in the test library */
#include "family.h"

/* ---- the op suite's cases ---- */

static int b_reduce(oc_case *c, int i, gpuk_dtype dt, uint64_t *g)
{
    static const int T[][6] = { /* ndim, shape, axis; each as a sum and a mean */
        { 1, 257, 0, 0, 0, 0 }, { 1, 1, 0, 0, 0, 0 }, { 2, 33, 7, 0, 0, 0 }, { 2, 33, 7, 0, 0, 1 },
        { 2, 127, 257, 0, 0, 0 }, { 2, 127, 257, 0, 0, 1 }, { 3, 7, 33, 5, 0, 0 },
        { 3, 7, 33, 5, 0, 1 }, { 3, 7, 33, 5, 0, 2 }, { 4, 3, 7, 5, 33, 0 },
        { 4, 3, 7, 5, 33, 1 }, { 4, 3, 7, 5, 33, 2 }, { 4, 3, 7, 5, 33, 3 },
        { 2, 1000, 33, 0, 0, 0 }, { 3, 3, 0, 4, 0, 1 },
        /* each twice: off1 then dense (the layout follows the row's parity) */
        { 3, 3, 300, 36, 0, 1 }, { 3, 3, 300, 36, 0, 1 }, { 2, 256, 64, 0, 0, 0 },
        { 2, 256, 64, 0, 0, 0 }, { 2, 64, 256, 0, 0, 1 }, { 2, 64, 256, 0, 0, 1 },
        { 2, 5, 4000, 0, 0, 1 }, { 2, 5, 4000, 0, 0, 1 }, { 2, 3, 8200, 0, 0, 1 },
        { 2, 3, 8200, 0, 0, 1 } };
    if (i >= 2 * NELEM(T))
        return 0;
    const int *t = T[i / 2];
    int64_t sh[4] = { 0 }, osh[4] = { 1 }, n = 1;
    int nd = t[0], ond = 0, L = (i / 2) % 2 ? OC_OFF1 : OC_DENSE;
    char sb[48];
    for (int d = 0; d < nd; d++) {
        sh[d] = t[1 + d], n *= sh[d];
        if (d != t[5])
            osh[ond++] = sh[d];
    }
    c->kind = i % 2, c->axis = t[5], c->n_in = 1;
    oc_arg_set(&c->in[0], dt, nd, sh, L, RND(n));
    oc_arg_set(&c->out, dt, ond ? ond : 1, osh, L, NULL);
    LBL("%s %s axis %d %s", c->kind ? "mean" : "sum", oc_shape_str(sb, nd, sh), t[5],
        oc_layout_name(L));
    return 1;
}

static int b_meanpool(oc_case *c, int i, gpuk_dtype dt, uint64_t *g)
{
    static const int T[][4] = { /* ndim, shape ([b,]t,d) */
        { 3, 3, 7, 33 }, { 3, 1, 257, 5 }, { 3, 7, 1, 127 }, { 2, 33, 7, 0 }, { 2, 257, 1, 0 },
        { 3, 2, 0, 5 }, { 3, 4, 16, 68 }, { 3, 2, 9, 132 }, { 2, 64, 256, 0 } };
    if (i >= NELEM(T))
        return 0;
    const int *t = T[i];
    int three = t[0] == 3, L = i % 2 ? OC_OFF1 : OC_DENSE;
    char sb[48];
    c->bc = three ? t[1] : 1, c->k = t[1 + three], c->n = t[2 + three], c->n_in = 1;
    oc_arg_set(&c->in[0], dt, t[0], SH(t[1], t[2], t[3]), L, RND(c->bc * c->k * c->n));
    oc_arg_set(&c->out, dt, t[0] - 1, three ? SH(c->bc, c->n) : SH(c->n), L, NULL);
    LBL("%s %s", oc_shape_str(sb, t[0], c->in[0].shape), oc_layout_name(L));
    return 1;
}

/* ---- the references ---- */

/* Sum: len terms, gamma_len (products are absent, so this is generous by
 * one).  Mean: the sum, then a division by len or a multiply by a rounded
 * 1/len, two more roundings: gamma_{len+2} of sum |x| / len.  A mean over
 * nothing is NaN (gpuk.h). */
static void ref_reduce(const ref_tol *t, int kind, int ndim, const int64_t *shape, int axis,
                       const ref_real *x, ref_real *ref, double *bound)
{
    int64_t outer = 1, inner = 1, len = shape[axis];
    for (int d = 0; d < axis; d++)
        outer *= shape[d];
    for (int d = axis + 1; d < ndim; d++)
        inner *= shape[d];
    for (int64_t o = 0; o < outer; o++)
        for (int64_t i = 0; i < inner; i++) {
            ref_acc s = ref_acc_start(0.0L);
            for (int64_t l = 0; l < len; l++)
                ref_acc_add(&s, x[(o * len + l) * inner + i]);
            int64_t q = o * inner + i;
            ref_real v = ref_acc_value(&s);
            if (kind == 0) {
                ref[q] = v;
                bound[q] = ref_sum_bound(t, len, s.abs, v);
            } else if (len == 0) {
                ref[q] = NAN;
                bound[q] = 0.0;
            } else {
                ref[q] = v / (ref_real)len;
                bound[q] = ref_sum_bound(t, len + 2, s.abs / (ref_real)len, ref[q]);
            }
        }
}

/* Mean pool is a mean over the middle axis of x[b,t,d]. */
static void ref_meanpool(const ref_tol *t, int64_t b, int64_t n, int64_t d, const ref_real *x,
                         ref_real *ref, double *bound)
{
    int64_t shape[3] = { b, n, d };
    ref_reduce(t, 1, 3, shape, 1, x, ref, bound);
}

static void reduce_ref(const ref_args *a, const ref_tol *t, ref_real *ref, double *bound)
{
    const ref_operand *xo = &a->in[0];
    ref_real *x = ref_load(xo->dtype, xo->vals, ref_numel(xo));
    ref_reduce(t, a->kind, xo->ndim, xo->shape, a->axis, x, ref, bound);
    free(x);
}

/* x[b..., t, d]: every dimension before the last two is a batch */
static void meanpool_ref(const ref_args *a, const ref_tol *t, ref_real *ref, double *bound)
{
    const ref_operand *xo = &a->in[0];
    int64_t b = 1;
    for (int d = 0; d < xo->ndim - 2; d++)
        b *= xo->shape[d];
    ref_real *x = ref_load(xo->dtype, xo->vals, ref_numel(xo));
    ref_meanpool(t, b, xo->shape[xo->ndim - 2], xo->shape[xo->ndim - 1], x, ref, bound);
    free(x);
}

/* ---- t_badshape: the rules of each op ---- */

/* kind and axis are checked before the shapes; out is x's shape without
 * the axis, a 1-D x reduces to [1] */
static void reduce_rules(gpuk_context *ctx)
{
    gpuk_tensor *x = TF(ctx, 3, 4), *o3 = TF(ctx, 3), *o4 = TF(ctx, 4);
    E(gpuk_reduce(ctx, (gpuk_reduce_kind)2, x, 1, o3, NULL), INVALID, "kind");
    E(gpuk_reduce(ctx, (gpuk_reduce_kind)-1, x, 1, o3, NULL), INVALID, "kind");
    E(gpuk_reduce(ctx, GPUK_REDUCE_SUM, x, -1, o3, NULL), INVALID, "axis");
    E(gpuk_reduce(ctx, GPUK_REDUCE_SUM, x, 2, o3, NULL), INVALID, "axis");
    E(gpuk_reduce(ctx, GPUK_REDUCE_MEAN, x, INT32_MIN, o3, NULL), INVALID, "axis");
    E(gpuk_reduce(ctx, GPUK_REDUCE_SUM, x, 1, o4, NULL), SHAPE, "out");
    E(gpuk_reduce(ctx, GPUK_REDUCE_SUM, x, 0, o3, NULL), SHAPE, "out");
    E(gpuk_reduce(ctx, GPUK_REDUCE_SUM, x, 0, o4, NULL), OK, NULL);
    E(gpuk_reduce(ctx, GPUK_REDUCE_SUM, x, 1, TF(ctx, 3, 1), NULL), SHAPE, "out");
    E(gpuk_reduce(ctx, GPUK_REDUCE_SUM, TF(ctx, 6), 0, TF(ctx, 1), NULL), OK, NULL);
    E(gpuk_reduce(ctx, GPUK_REDUCE_SUM, TF(ctx, 6), 0, TF(ctx, 2), NULL), SHAPE, "out");
    gpuk_tensor *S = STORAGE();
    E(gpuk_reduce(ctx, GPUK_REDUCE_SUM, V2(S, 3, 4, 5, 1, 0), 1, o3, NULL), LAYOUT, "x");
    E(gpuk_reduce(ctx, GPUK_REDUCE_SUM, x, 1, V1(S, 3, 2, 0), NULL), LAYOUT, "out");
    E(gpuk_reduce(ctx, GPUK_REDUCE_SUM, V2(S, 3, 4, 4, 1, 0), 1, V1(S, 3, 1, 10), NULL), ALIAS,
      "out");
    E(gpuk_reduce(ctx, GPUK_REDUCE_SUM, V2(S, 3, 4, 4, 1, 0), 1, V1(S, 3, 1, 12), NULL), OK, NULL);
}

static void meanpool_rules(gpuk_context *ctx)
{
    gpuk_tensor *S = STORAGE();
    gpuk_tensor *x = TF(ctx, 2, 3, 4), *o = TF(ctx, 2, 4);
    E(gpuk_meanpool(ctx, TF(ctx, 12), o, NULL), SHAPE, "x");
    E(gpuk_meanpool(ctx, x, TF(ctx, 2, 3), NULL), SHAPE, "out");
    E(gpuk_meanpool(ctx, x, TF(ctx, 3, 4), NULL), SHAPE, "out");
    E(gpuk_meanpool(ctx, x, TF(ctx, 8), NULL), SHAPE, "out");
    E(gpuk_meanpool(ctx, TF(ctx, 3, 4), TF(ctx, 4), NULL), OK, NULL);
    E(gpuk_meanpool(ctx, TF(ctx, 2, 2, 3, 4), TF(ctx, 2, 2, 4), NULL), OK, NULL);
    E(gpuk_meanpool(ctx, rel_view(ctx, S, 3, REL_SHAPE(2, 3, 4), REL_SHAPE(13, 4, 1), 0), o, NULL),
      LAYOUT, "x");
    E(gpuk_meanpool(ctx, V2(S, 3, 4, 4, 1, 0), V1(S, 4, 1, 8), NULL), ALIAS, "out");
}

/* ---- t_empty: empty outputs, empty sums and means, NaN and infinity ---- */

/* NaN, +inf, +inf with -inf (NaN), finite: one column each */
static const ref_real nf_x[12] = { NAN, INFINITY, INFINITY, 1, 1, 1, -INFINITY, 2, 1, 1, 1, 3 };

static void reduce_empty(gpuk_context *ctx, gpuk_dtype dt)
{
    const ref_tol u = oe_tol(dt);   /* finite elements only need to be close */
    ref_real ref[OE_MAXN];
    double bd[OE_MAXN];
    oe_expect e;
    opcall_args k;

    k = oe_call(GPUK_OP_REDUCE, MK(NULL, 0, 4), NULL, NULL, MK(NULL, 0));
    k.axis = 1;
    RUN(k, "sum of x[0,4] along 1 -> out[0]", NULL, NULL);

    k = oe_call(GPUK_OP_REDUCE, MK(NULL, 3, 0), NULL, NULL, MK(NULL, 3));
    k.axis = 1;
    oe_const(&e, 3, 0.0L);
    RUN(k, "sum over an empty axis is 0", NULL, &e);
    k.kind = GPUK_REDUCE_MEAN;
    oe_const(&e, 3, NAN);
    RUN(k, "mean over an empty axis is NaN", NULL, &e);
    k = oe_call(GPUK_OP_REDUCE, MK(NULL, 0), NULL, NULL, MK(NULL, 1));
    oe_const(&e, 1, 0.0L);
    RUN(k, "sum of a 1-D x[0] is [0]", NULL, &e);
    k = oe_call(GPUK_OP_REDUCE, MK(NULL, 2, 0, 3), NULL, NULL, MK(NULL, 2, 3));
    k.axis = 1;
    k.kind = GPUK_REDUCE_MEAN;
    oe_const(&e, 6, NAN);
    RUN(k, "mean of x[2,0,3] along the middle is NaN", NULL, &e);

    for (int kind = 0; kind < 2; kind++) {
        k = oe_call(GPUK_OP_REDUCE, MK(nf_x, 3, 4), NULL, NULL, MK(NULL, 4));
        k.kind = kind;
        ref_reduce(&u, kind, 2, REL_SHAPE(3, 4), 0, nf_x, ref, bd);
        oe_from_ref(&e, 4, ref, bd);
        RUN(k, kind ? "mean: NaN, inf, inf - inf, finite" : "sum: NaN, inf, inf - inf, finite",
            NULL, &e);
    }
}

static void meanpool_empty(gpuk_context *ctx, gpuk_dtype dt)
{
    const ref_tol u = oe_tol(dt);
    ref_real ref[OE_MAXN];
    double bd[OE_MAXN];
    oe_expect e;
    opcall_args k;

    k = oe_call(GPUK_OP_MEANPOOL, MK(NULL, 0, 3, 4), NULL, NULL, MK(NULL, 0, 4));
    RUN(k, "x[0,3,4]", NULL, NULL);

    k = oe_call(GPUK_OP_MEANPOOL, MK(NULL, 2, 0, 4), NULL, NULL, MK(NULL, 2, 4));
    oe_const(&e, 8, NAN);
    RUN(k, "no tokens: the mean is NaN", NULL, &e);

    k = oe_call(GPUK_OP_MEANPOOL, MK(nf_x, 1, 3, 4), NULL, NULL, MK(NULL, 1, 4));
    ref_meanpool(&u, 1, 3, 4, nf_x, ref, bd);
    oe_from_ref(&e, 4, ref, bd);
    RUN(k, "NaN, inf, inf - inf, finite over tokens", NULL, &e);
}

/* ---- the fuzz harness: valid calls from the input bytes ---- */

static int reduce_fuzz(fz *f, fz_call *c, unsigned sp)
{
    int64_t s[4], os[4];
    int nd = 1 + (int)fz_pick(f, 4), on = 0;
    fz_shape_nd(f, nd, s);
    c->axis = (int)fz_pick(f, (unsigned)nd);
    c->kind = (int)fz_pick(f, 2);
    for (int i = 0; i < nd; i++)
        if (i != c->axis)
            os[on++] = s[i];
    if (nd == 1)
        os[on++] = 1;
    int r = fz_opnd(f, &c->in[0], c->dt, nd, s, fz_lay_dense(f), sp, 0);
    r |= fz_opnd(f, &c->out, c->dt, on, os, fz_lay_dense(f), 0, 0);
    c->n_in = 1;
    c->name[0] = "x", c->name[3] = "out";
    return r;
}

/* a kind past the two, or an axis below 0 or past the last */
static int reduce_fuzz_enum(fz *f, const fz_call *c, fz_enums *e)
{
    if (fz_pick(f, 2)) {
        e->kind = 2 + (int)fz_pick(f, 100);
        e->blame = "kind";
    } else {
        e->axis = fz_pick(f, 2) ? -1 - (int)fz_pick(f, 9) : c->in[0].nd + (int)fz_pick(f, 9);
        e->blame = "axis";
    }
    return 1;
}

static int meanpool_fuzz(fz *f, fz_call *c, unsigned sp)
{
    int64_t s[4], os[3];
    int nd = 2 + (int)fz_pick(f, 3);
    fz_shape_nd(f, nd, s);
    for (int i = 0, j = 0; i < nd; i++)
        if (i != nd - 2)
            os[j++] = s[i];
    int r = fz_opnd(f, &c->in[0], c->dt, nd, s, fz_lay_dense(f), sp, 0);
    r |= fz_opnd(f, &c->out, c->dt, nd - 1, os, fz_lay_dense(f), 0, 0);
    c->n_in = 1;
    c->name[0] = "x", c->name[3] = "out";
    return r;
}

/* ---- the descriptors ---- */

const optest optest_REDUCE = {
    .op = GPUK_OP_REDUCE,
    .dtypes = OPTEST_FLOATS | OPTEST_HALF,
    .cases = b_reduce,
    .ref = reduce_ref,
    .spec = { 2, { "x", "out" }, { GPUK_F32, GPUK_F32 }, { 2, 1 }, { { 3, 4 }, { 4 } },
              { 1, -1 }, -1, NULL },
    .badshape = reduce_rules,
    .empty = reduce_empty,
    .fuzz = reduce_fuzz,
    .fuzz_enum = reduce_fuzz_enum,
};

const optest optest_MEANPOOL = {
    .op = GPUK_OP_MEANPOOL,
    .dtypes = OPTEST_FLOATS | OPTEST_HALF,
    .cases = b_meanpool,
    .ref = meanpool_ref,
    .spec = { 2, { "x", "out" }, { GPUK_F32, GPUK_F32 }, { 3, 2 }, { { 2, 3, 4 }, { 2, 4 } },
              { 1, -1 }, -1, NULL },
    .badshape = meanpool_rules,
    .empty = meanpool_empty,
    .fuzz = meanpool_fuzz,
};

#endif /* OPTEST_CALLS */

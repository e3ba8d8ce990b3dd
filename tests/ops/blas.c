/*
 * tests/ops/blas.c - what the tests and the fuzz harness know about the
 * BLAS-shaped vector ops dot and gemv (gpuk_blas(3)): their calls, the op
 * suite's cases, the references, the bad-input specs and shape
 * rules, the empty-tensor and NaN cases, the fuzz shapes.  As in BLAS,
 * with beta == 0 gemv does not read y and with alpha == 0 not a and x.
 */
#include "../opcall.h"

#ifdef OPTEST_CALLS
/* ---- the calls: all that tests/opcall.c takes from this file ---- */

/* in[0] x, in[1] y, out (shape [1]) */
static gpuk_status opcall_DOT(gpuk_context *ctx, const opcall_args *a, const char *v)
{
    return gpuk_dot(ctx, a->in[0], a->in[1], a->out, v);
}

/* in[0] a, in[1] x, out y; trans_a, alpha, beta */
static gpuk_status opcall_GEMV(gpuk_context *ctx, const opcall_args *a, const char *v)
{
    return gpuk_gemv(ctx, (gpuk_trans)a->trans_a, a->alpha, a->in[0], a->in[1], a->beta, a->out,
                     v);
}

#else /* everything else, in the test library */
#include "family.h"

/* ---- the op suite's cases ---- */

static int b_dot(oc_case *c, int i, gpuk_dtype dt, uint64_t *g)
{
    static const int T[] = { 1, 7, 33, 127, 257, 1000, 0, 4097, 4096 };
    if (i >= NELEM(T))
        return 0;
    int L = i % 2 ? OC_OFF1 : OC_DENSE;
    c->n = T[i], c->n_in = 2;
    oc_arg_set(&c->in[0], dt, 1, SH(c->n), L, RND(c->n));
    oc_arg_set(&c->in[1], dt, 1, SH(c->n), L, RND(c->n));
    oc_arg_set(&c->out, dt, 1, SH(1), L, NULL);
    LBL("n=%d %s", T[i], oc_layout_name(L));
    return 1;
}

/* alpha and beta are in quarters, in f64 scaled by 1 + 2^-30 (which no
 * f32 holds, as for gemm in tests/ops/matmul.c).  With beta == 0 the
 * output starts as NaN, which must not leak in (gpuk.h: y and c are then
 * not read). */
static int b_gemv(oc_case *c, int i, gpuk_dtype dt, uint64_t *g)
{
    static const int T[][6] = { /* trans, m, n, alpha*4, beta*4, layout */
        { 0, 7, 33, 4, 0, OC_STRIDED }, { 1, 33, 7, 2, -6, OC_OFF1 },
        { 0, 127, 257, -8, 1, OC_STRIDED }, { 1, 257, 127, 4, 0, OC_DENSE },
        { 0, 1, 1, 4, 4, OC_OFF1 }, { 1, 1, 257, 6, 0, OC_STRIDED }, { 0, 33, 0, 4, 2, OC_DENSE },
        { 1, 0, 7, 4, -2, OC_DENSE }, { 0, 257, 33, 3, 0, OC_OFF1 },
        { 1, 1000, 257, 4, 1, OC_STRIDED }, { 0, 33, 17, 0, -6, OC_DENSE },
        { 1, 17, 33, 0, 0, OC_OFF1 },
        /* 16-byte aligned rows (the float4 paths); A^T x in row slices */
        { 0, 67, 1028, 4, 0, OC_DENSE }, { 0, 45, 516, -4, 3, OC_PAD4 },
        { 1, 600, 516, 4, 2, OC_PAD4 }, { 1, 40, 2052, 3, 0, OC_DENSE },
        { 0, 37, 2052, 4, 1, OC_PAD4 }, { 0, 9, 4096, -2, 0, OC_DENSE },
        /* rows of over 4096 floats: 4 float4 a thread, one pass or two */
        { 0, 3, 6148, 4, 0, OC_DENSE }, { 0, 5, 8200, 4, 2, OC_PAD4 } };
    static const double nan1[] = { NAN };
    if (i >= NELEM(T))
        return 0;
    const int *t = T[i];
    int64_t xl = t[0] ? t[1] : t[2], yl = t[0] ? t[2] : t[1];
    double sc = dt == GPUK_F64 ? 1.0 + 0x1p-30 : 1.0;
    c->ta = t[0], c->m = t[1], c->n = t[2], c->n_in = 2;
    c->alpha = t[3] / 4.0 * sc, c->beta = t[4] / 4.0 * sc;
    oc_arg_set(&c->in[0], dt, 2, SH(c->m, c->n), t[5], RND(c->m * c->n));
    oc_arg_set(&c->in[1], dt, 1, SH(xl), t[5], RND(xl));
    oc_arg_set(&c->out, dt, 1, SH(yl), t[5], t[4] ? RND(yl) : NULL);
    if (t[3] == 0) { /* alpha 0: a and x are not read, so their NaN stays out */
        oc_sprinkle(g, dt, c->in[0].vals, c->m * c->n, 3, nan1, 1);
        oc_sprinkle(g, dt, c->in[1].vals, xl, 2, nan1, 1);
    }
    LBL("%s %dx%d alpha %.10g beta %.10g%s %s", t[0] ? "T" : "N", t[1], t[2], c->alpha,
        c->beta, t[3] ? "" : " NaN inputs", oc_layout_name(t[5]));
    return 1;
}

/* ---- the references ---- */

static void ref_dot(const ref_tol *t, int64_t n, const ref_real *x, const ref_real *y,
                    ref_real *ref, double *bound)
{
    ref_acc s = ref_acc_start(0.0L);
    for (int64_t i = 0; i < n; i++)
        ref_acc_prod(&s, x[i], y[i]);
    ref[0] = ref_acc_value(&s);
    bound[0] = ref_sum_bound(t, n, s.abs, ref[0]);
}

static void ref_gemv(const ref_tol *t, int trans, int64_t m, int64_t n, ref_real alpha,
                     const ref_real *a, const ref_real *x, ref_real beta, const ref_real *y0,
                     ref_real *ref, double *bound)
{
    int64_t rows = trans ? n : m, len = trans ? m : n;
    /* op(a) by rows, contiguous in p */
    ref_real *at = trans ? ref_transposed(a, m, n) : NULL;
    const ref_real *A = trans ? at : a;
    for (int64_t i = 0; i < rows; i++) {
        ref_acc s = ref_acc_start(0.0L);
        for (int64_t p = 0; p < len; p++)
            ref_acc_prod(&s, A[i * len + p], x[p]);
        ref_blas_entry(t, &s, len, alpha, beta, y0 ? y0 + i : NULL, ref + i, bound + i);
    }
    free(at);
}

static void dot_ref(const ref_args *a, const ref_tol *t, ref_real *ref, double *bound)
{
    int64_t n = a->in[0].shape[0];
    ref_real *x = ref_load(a->in[0].dtype, a->in[0].vals, n);
    ref_real *y = ref_load(a->in[1].dtype, a->in[1].vals, n);
    ref_dot(t, n, x, y, ref, bound);
    free(x);
    free(y);
}

/* y is read only where beta is not 0 */
static void gemv_ref(const ref_args *a, const ref_tol *t, ref_real *ref, double *bound)
{
    const int64_t *s0 = a->in[0].shape;
    ref_real *A = ref_load(a->in[0].dtype, a->in[0].vals, s0[0] * s0[1]);
    ref_real *x = ref_load(a->in[1].dtype, a->in[1].vals, ref_numel(&a->in[1]));
    ref_real *y = a->beta != 0 ? ref_load(a->out.dtype, a->out.vals, ref_numel(&a->out)) : NULL;
    ref_gemv(t, a->trans_a, s0[0], s0[1], ref_scalar(t->dtype, a->alpha), A, x,
             ref_scalar(t->dtype, a->beta), y, ref, bound);
    free(A);
    free(x);
    free(y);
}

/* ---- t_badshape: the rules of each op ---- */

static void dot_rules(gpuk_context *ctx)
{
    gpuk_tensor *x = TF(ctx, 4), *S = STORAGE();
    gpuk_tensor *o = TF(ctx, 1);
    E(gpuk_dot(ctx, x, TF(ctx, 5), o, NULL), SHAPE, "y");
    E(gpuk_dot(ctx, x, x, TF(ctx, 2), NULL), SHAPE, "out");
    E(gpuk_dot(ctx, x, x, TF(ctx, 0), NULL), SHAPE, "out");
    E(gpuk_dot(ctx, V1(S, 4, 3, 0), x, o, NULL), LAYOUT, "x");
    E(gpuk_dot(ctx, x, x, o, NULL), OK, NULL);
    E(gpuk_dot(ctx, V1(S, 4, 1, 0), x, V1(S, 1, 1, 2), NULL), ALIAS, "out");
    E(gpuk_dot(ctx, x, V1(S, 4, 1, 0), V1(S, 1, 1, 3), NULL), ALIAS, "out");
}

/* trans is checked before the shapes; a may be a row-strided view */
static void gemv_rules(gpuk_context *ctx)
{
    gpuk_tensor *x = TF(ctx, 4), *y = TF(ctx, 3), *S = STORAGE();
    gpuk_tensor *a = TF(ctx, 3, 4), *x3 = TF(ctx, 3);
    E(gpuk_gemv(ctx, (gpuk_trans)2, 1, a, x, 0, y, NULL), INVALID, "trans");
    E(gpuk_gemv(ctx, (gpuk_trans)-1, 1, a, x, 0, y, NULL), INVALID, "trans");
    E(gpuk_gemv(ctx, GPUK_NO_TRANS, 1, a, x3, 0, y, NULL), SHAPE, "x");
    E(gpuk_gemv(ctx, GPUK_NO_TRANS, 1, a, x, 0, x, NULL), SHAPE, "y");
    E(gpuk_gemv(ctx, GPUK_TRANS, 1, a, x, 0, x, NULL), SHAPE, "x");
    E(gpuk_gemv(ctx, GPUK_TRANS, 1, a, x3, 0, y, NULL), SHAPE, "y");
    E(gpuk_gemv(ctx, GPUK_TRANS, 1, a, x3, 0, TF(ctx, 4), NULL), OK, NULL);
    E(gpuk_gemv(ctx, GPUK_NO_TRANS, 1, V2(S, 3, 4, 6, 1, 1), x, 0, y, NULL), OK, NULL);
    E(gpuk_gemv(ctx, GPUK_NO_TRANS, 1, V2(S, 3, 4, 8, 2, 0), x, 0, y, NULL), LAYOUT, "a");
    E(gpuk_gemv(ctx, GPUK_NO_TRANS, 1, a, V1(S, 4, 2, 0), 0, y, NULL), LAYOUT, "x");
    E(gpuk_gemv(ctx, GPUK_NO_TRANS, 1, a, x, 1, V1(S, 3, 0, 0), NULL), LAYOUT, "y");
    E(gpuk_gemv(ctx, GPUK_NO_TRANS, 1, V2(S, 3, 4, 4, 1, 0), x, 0, V1(S, 3, 1, 11), NULL), ALIAS,
      "y");
    E(gpuk_gemv(ctx, GPUK_NO_TRANS, 1, a, V1(S, 4, 1, 20), 0, V1(S, 3, 1, 22), NULL), ALIAS, "y");
    /* NaN scalars are values, not errors */
    E(gpuk_gemv(ctx, GPUK_NO_TRANS, NAN, a, x, INFINITY, y, NULL), OK, NULL);
}

/* ---- t_empty: empty outputs and sums, NaN and infinity ---- */

static void dot_empty(gpuk_context *ctx, gpuk_dtype dt)
{
    const ref_real N = NAN, P = INFINITY;
    const ref_tol u = oe_tol(dt);   /* finite elements only need to be close */
    ref_real ref[OE_MAXN];
    double bd[OE_MAXN];
    oe_expect e;
    opcall_args k;

    k = oe_call(GPUK_OP_DOT, MK(NULL, 0), MK(NULL, 0), NULL, MK(NULL, 1));
    oe_const(&e, 1, 0.0L);
    RUN(k, "length 0: 0", NULL, &e);

    const ref_real d1[3] = { 1, N, 2 }, d2[3] = { P, 1, 1 }, d3[3] = { 2, 3, 4 };
    k = oe_call(GPUK_OP_DOT, MK(d1, 3), MK(d3, 3), NULL, MK(NULL, 1));
    ref_dot(&u, 3, d1, d3, ref, bd);
    oe_from_ref(&e, 1, ref, bd);
    RUN(k, "NaN in x", NULL, &e);
    k = oe_call(GPUK_OP_DOT, MK(d2, 3), MK(d3, 3), NULL, MK(NULL, 1));
    ref_dot(&u, 3, d2, d3, ref, bd);
    oe_from_ref(&e, 1, ref, bd);
    RUN(k, "inf in x", NULL, &e);
}

/* With beta == 0, y is not read (gpuk.h): a NaN there must not show. */
static void gemv_empty(gpuk_context *ctx, gpuk_dtype dt)
{
    const ref_real N = NAN, P = INFINITY;
    const ref_tol u = oe_tol(dt);
    ref_real ref[OE_MAXN];
    double bd[OE_MAXN];
    oe_expect e;
    opcall_args k;

    k = oe_call(GPUK_OP_GEMV, MK(NULL, 0, 4), MK(NULL, 4), NULL, MK(NULL, 0));
    RUN(k, "a[0,4]", NULL, NULL);

    const ref_real ynan[3] = { N, N, N }, y0[4] = { 1, -2, 3, 0.5 };
    k = oe_call(GPUK_OP_GEMV, MK(NULL, 3, 0), MK(NULL, 0), NULL, MK(NULL, 3));
    k.beta = 0;
    oe_const(&e, 3, 0.0L);
    RUN(k, "k = 0, beta = 0 over a NaN y: y = 0", ynan, &e);
    k = oe_call(GPUK_OP_GEMV, MK(NULL, 0, 4), MK(NULL, 0), NULL, MK(NULL, 4));
    k.trans_a = 1;
    k.beta = 2;
    oe_const(&e, 4, 0.0L);
    for (int i = 0; i < 4; i++)
        e.v[i] = 2 * y0[i];
    RUN(k, "trans, k = 0, beta = 2: y = 2 y", y0, &e);

    const ref_real ga[12] = { 1, 2, 3, 4, N, 1, 1, 1, P, 1, -1, 0 };
    const ref_real gx[4] = { 1, 1, 1, 1 };
    k = oe_call(GPUK_OP_GEMV, MK(ga, 3, 4), MK(gx, 4), NULL, MK(NULL, 3));
    k.alpha = 2;
    ref_gemv(&u, 0, 3, 4, 2, ga, gx, 0, ynan, ref, bd);
    oe_from_ref(&e, 3, ref, bd);
    RUN(k, "NaN and inf in a; beta = 0 ignores a NaN y", ynan, &e);
}

/* ---- the fuzz harness: valid calls from the input bytes ---- */

/* the length is a size times 1 to 3, read in that order */
static int dot_fuzz(fz *f, fz_call *c, unsigned sp)
{
    int64_t n = fz_dim(f);
    n *= 1 + (int64_t)fz_pick(f, 3);
    int r = fz_opnd(f, &c->in[0], c->dt, 1, &n, fz_lay_dense(f), sp, 0);
    r |= fz_opnd(f, &c->in[1], c->dt, 1, &n, fz_lay_dense(f), sp, 0);
    r |= fz_opnd(f, &c->out, c->dt, 1, SH(1), fz_lay_dense(f), 0, 0);
    c->n_in = 2;
    c->name[0] = "x", c->name[1] = "y", c->name[3] = "out";
    return r;
}

/* Finite alpha and beta only, as for gemm (tests/ops/matmul.c says why);
 * with beta == 0 y starts as NaN, which must not leak in. */
static int gemv_fuzz(fz *f, fz_call *c, unsigned sp)
{
    c->ta = (int)fz_pick(f, 2);
    int64_t m = fz_dim(f), n = fz_dim(f);
    int r = fz_opnd(f, &c->in[0], c->dt, 2, SH(m, n), fz_lay_matrix(f), sp, 0);
    r |= fz_opnd(f, &c->in[1], c->dt, 1, c->ta ? &m : &n, fz_lay_dense(f), sp, 0);
    r |= fz_opnd(f, &c->out, c->dt, 1, c->ta ? &n : &m, fz_lay_dense(f), 0, 0);
    c->n_in = 2;
    c->name[0] = "a", c->name[1] = "x", c->name[3] = "y";
    if (!r) {
        c->alpha = fz_val(f, 0);
        c->beta = fz_pick(f, 2) ? 0.0 : fz_val(f, 0);
        fz_opnd_fill(f, &c->out, c->beta == 0.0);
    }
    return r;
}

static int gemv_fuzz_enum(fz *f, const fz_call *c, fz_enums *e)
{
    e->ta = 2 + (int)fz_pick(f, 9);
    e->blame = "trans";
    return 1;
}

/* ---- the descriptors ---- */

const optest optest_DOT = {
    .op = GPUK_OP_DOT,
    .dtypes = OPTEST_FLOATS,
    .cases = b_dot,
    .ref = dot_ref,
    .spec = { 3, { "x", "y", "out" }, { GPUK_F32, GPUK_F32, GPUK_F32 }, { 1, 1, 1 },
              { { 5 }, { 5 }, { 1 } }, { -1, -1, -1 }, -1, NULL },
    .badshape = dot_rules,
    .empty = dot_empty,
    .fuzz = dot_fuzz,
};

const optest optest_GEMV = {
    .op = GPUK_OP_GEMV,
    .dtypes = OPTEST_FLOATS,
    .cases = b_gemv,
    .ref = gemv_ref,
    .spec = { 3, { "a", "x", "y" }, { GPUK_F32, GPUK_F32, GPUK_F32 }, { 2, 1, 1 },
              { { 3, 4 }, { 4 }, { 3 } }, { -1, -1, -1 }, -1, NULL },
    .badshape = gemv_rules,
    .empty = gemv_empty,
    .fuzz = gemv_fuzz,
    .fuzz_enum = gemv_fuzz_enum,
};

#endif /* OPTEST_CALLS */

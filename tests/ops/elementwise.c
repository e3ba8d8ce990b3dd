/*
 * tests/ops/elementwise.c - what the tests and the fuzz harness know about
 * the elementwise ops add, scale, relu, bias_relu and copy
 * (gpuk_elementwise(3)): their calls, the op suite's cases, the
 * references, the bad-input specs and shape rules, the empty-tensor and
 * NaN cases, the fuzz shapes.  Each takes at most one rounding per
 * element, so every rung must give the same bits, in every dtype: the
 * references round that once in the dtype itself (ref_add1, ref_mul1);
 * each op may run in place.
 */
#include "../opcall.h"

#ifdef OPTEST_CALLS
/* ---- the calls: all that tests/opcall.c takes from this file ---- */

/* in[0] x, in[1] y, out (may be x or y) */
static gpuk_status opcall_ADD(gpuk_context *ctx, const opcall_args *a, const char *v)
{
    return gpuk_add(ctx, a->in[0], a->in[1], a->out, v);
}

/* in[0] x, out (may be x); alpha */
static gpuk_status opcall_SCALE(gpuk_context *ctx, const opcall_args *a, const char *v)
{
    return gpuk_scale(ctx, a->alpha, a->in[0], a->out, v);
}

/* in[0] x, out (may be x) */
static gpuk_status opcall_RELU(gpuk_context *ctx, const opcall_args *a, const char *v)
{
    return gpuk_relu(ctx, a->in[0], a->out, v);
}

/* in[0] x, in[1] bias, out (may be x, not bias) */
static gpuk_status opcall_BIAS_RELU(gpuk_context *ctx, const opcall_args *a, const char *v)
{
    return gpuk_bias_relu(ctx, a->in[0], a->in[1], a->out, v);
}

/* in[0] x, out (may be x) */
static gpuk_status opcall_COPY(gpuk_context *ctx, const opcall_args *a, const char *v)
{
    return gpuk_copy(ctx, a->in[0], a->out, v);
}

#else /* everything else, in the test library */
#include "family.h"

/* ---- the op suite's cases ---- */

/* add, scale, relu, copy: any shape, contiguous; the last two rows run in
 * place; after the table, specials: NaN and infinities through add, +-inf
 * through relu, +-inf and NaN through copy.  scale's alpha is a random
 * value of the dtype: in f64 one no f32 holds, so a kernel reading the
 * float alpha fails. */
static int b_elementwise(oc_case *c, int i, gpuk_dtype dt, uint64_t *g)
{
    static const int T[][6] = { /* ndim, shape, in place */
        { 1, 1, 0, 0, 0, 0 }, { 1, 7, 0, 0, 0, 0 }, { 1, 33, 0, 0, 0, 0 }, { 1, 127, 0, 0, 0, 0 },
        { 1, 257, 0, 0, 0, 0 }, { 1, 1000, 0, 0, 0, 0 }, { 2, 33, 7, 0, 0, 0 },
        { 3, 7, 5, 3, 0, 0 }, { 4, 3, 5, 7, 2, 0 }, { 1, 0, 0, 0, 0, 0 },
        { 1, 257, 0, 0, 0, 1 }, { 2, 33, 7, 0, 0, 1 }, { 1, 4096, 0, 0, 0, 0 },
        { 1, 4096, 0, 0, 0, 0 }, { 2, 64, 68, 0, 0, 0 }, { 1, 4098, 0, 0, 0, 1 },
        { 2, 127, 33, 0, 0, 0 } };
    static const double nan_inf[] = { NAN, INFINITY }, infs[] = { INFINITY, -INFINITY },
                        all3[] = { INFINITY, -INFINITY, NAN };
    int special = i == NELEM(T) - 1;
    if (i >= NELEM(T) || (special && c->op == GPUK_OP_SCALE))
        return 0;
    const int *t = T[i];
    int64_t sh[4], n = 1;
    int L = i % 2 ? OC_OFF1 : OC_DENSE;
    char sb[48];
    for (int d = 0; d < t[0]; d++)
        sh[d] = t[1 + d], n *= sh[d];
    c->n_in = c->op == GPUK_OP_ADD ? 2 : 1;
    c->alpha = (double)ref_mul1(dt, 3, ref_round(dt, oc_rnd(g)));
    for (int j = 0; j < c->n_in; j++)
        oc_arg_set(&c->in[j], dt, t[0], sh, L, RND(n));
    if (t[5])
        oc_in_place(c, 0);
    else
        oc_arg_set(&c->out, dt, t[0], sh, L, NULL);
    if (special && c->op == GPUK_OP_ADD) {
        oc_sprinkle(g, dt, c->in[0].vals, n, 5, nan_inf, 2);
        oc_sprinkle(g, dt, c->in[1].vals, n, 7, infs, 2);
    } else if (special) {
        oc_sprinkle(g, dt, c->in[0].vals, n, 4, all3, c->op == GPUK_OP_COPY ? 3 : 2);
    }
    LBL("%s%s%s %s", oc_shape_str(sb, t[0], sh), t[5] ? " in place" : "",
        special ? (c->op == GPUK_OP_ADD ? " nan+inf" : " specials") : "", oc_layout_name(L));
    return 1;
}

static int b_bias_relu(oc_case *c, int i, gpuk_dtype dt, uint64_t *g)
{
    static const int T[][5] = { /* ndim, shape, in place */
        { 2, 1, 1, 0, 0 }, { 2, 7, 33, 0, 0 }, { 2, 33, 7, 0, 0 }, { 2, 127, 257, 0, 0 },
        { 3, 3, 7, 33, 0 }, { 1, 257, 0, 0, 0 }, { 2, 1, 1000, 0, 0 }, { 2, 33, 7, 0, 1 },
        { 2, 64, 68, 0, 0 }, { 2, 16, 132, 0, 0 }, { 2, 32, 256, 0, 1 },
        /* rows of 512 floats or more: float4's column threads (dense cases) */
        { 2, 5, 1000, 0, 0 }, { 2, 37, 1028, 0, 1 }, { 2, 3, 600, 0, 0 }, { 3, 4, 9, 2048, 0 } };
    if (i >= NELEM(T))
        return 0;
    const int *t = T[i];
    int64_t sh[3], n = 1;
    int L = i % 2 ? OC_OFF1 : OC_DENSE;
    char sb[48];
    for (int d = 0; d < t[0]; d++)
        sh[d] = t[1 + d], n *= sh[d];
    c->n = sh[t[0] - 1], c->m = n / c->n, c->n_in = 2;
    oc_arg_set(&c->in[0], dt, t[0], sh, L, RND(n));
    oc_arg_set(&c->in[1], dt, 1, SH(c->n), L, RND(c->n));
    if (t[4])
        oc_in_place(c, 0);
    else
        oc_arg_set(&c->out, dt, t[0], sh, L, NULL);
    LBL("%s%s %s", oc_shape_str(sb, t[0], sh), t[4] ? " in place" : "", oc_layout_name(L));
    return 1;
}

/* ---- the references ---- */

static void ref_add(const ref_tol *t, int64_t n, const ref_real *x, const ref_real *y,
                    ref_real *ref, double *bound)
{
    for (int64_t i = 0; i < n; i++) {
        ref[i] = ref_add1(t->dtype, x[i], y[i]);
        bound[i] = ref_one_op_bound(t, ref[i]);
    }
}

static void ref_scale(const ref_tol *t, int64_t n, ref_real alpha, const ref_real *x,
                      ref_real *ref, double *bound)
{
    for (int64_t i = 0; i < n; i++) {
        ref[i] = ref_mul1(t->dtype, alpha, x[i]);
        bound[i] = ref_one_op_bound(t, ref[i]);
    }
}

/* relu(x) = x < 0 ? 0 : x: NaN and -0 pass through unchanged. */
static void ref_relu(int64_t n, const ref_real *x, ref_real *ref, double *bound)
{
    for (int64_t i = 0; i < n; i++) {
        ref[i] = x[i] < 0 ? 0.0L : x[i];
        bound[i] = 0.0;
    }
}

/* max(x + b, 0): one rounded add; a nonzero sum never rounds to 0 or
 * across it, so the max adds no error. */
static void ref_bias_relu(const ref_tol *t, int64_t rows, int64_t n, const ref_real *x,
                          const ref_real *bias, ref_real *ref, double *bound)
{
    for (int64_t r = 0; r < rows; r++)
        for (int64_t j = 0; j < n; j++) {
            ref_real s = ref_add1(t->dtype, x[r * n + j], bias[j]);
            ref[r * n + j] = s < 0 ? 0.0L : s;   /* as relu: NaN and -0 pass */
            bound[r * n + j] = ref_one_op_bound(t, ref[r * n + j]);
        }
}

static void ref_copy(int64_t n, const ref_real *x, ref_real *ref, double *bound)
{
    for (int64_t i = 0; i < n; i++) {
        ref[i] = x[i];
        bound[i] = 0.0;
    }
}

/* Operand j of a call in a new ref_real array (the wrappers below). */
static ref_real *in_of(const ref_args *a, int j)
{
    return ref_load(a->in[j].dtype, a->in[j].vals, ref_numel(&a->in[j]));
}

static void add_ref(const ref_args *a, const ref_tol *t, ref_real *ref, double *bound)
{
    ref_real *x = in_of(a, 0), *y = in_of(a, 1);
    ref_add(t, ref_numel(&a->out), x, y, ref, bound);
    free(x);
    free(y);
}

static void scale_ref(const ref_args *a, const ref_tol *t, ref_real *ref, double *bound)
{
    ref_real *x = in_of(a, 0);
    ref_scale(t, ref_numel(&a->out), ref_scalar(t->dtype, a->alpha), x, ref, bound);
    free(x);
}

static void relu_ref(const ref_args *a, const ref_tol *t, ref_real *ref, double *bound)
{
    ref_real *x = in_of(a, 0);
    ref_relu(ref_numel(&a->out), x, ref, bound);
    free(x);
}

/* rows of x's last dimension, the length of the bias */
static void bias_relu_ref(const ref_args *a, const ref_tol *t, ref_real *ref, double *bound)
{
    const ref_operand *xo = &a->in[0];
    int64_t n = ref_numel(&a->out), last = xo->ndim > 0 ? xo->shape[xo->ndim - 1] : 0;
    ref_real *x = in_of(a, 0), *b = in_of(a, 1);
    ref_bias_relu(t, last ? n / last : 0, last, x, b, ref, bound);
    free(x);
    free(b);
}

static void copy_ref(const ref_args *a, const ref_tol *t, ref_real *ref, double *bound)
{
    ref_real *x = in_of(a, 0);
    ref_copy(ref_numel(&a->out), x, ref, bound);
    free(x);
}

/* ---- t_badshape: the rules of each op ---- */

/* same shapes (no broadcasting), contiguous; out may be exactly x or y */
static void add_rules(gpuk_context *ctx)
{
    gpuk_tensor *x = TF(ctx, 2, 3), *y = TF(ctx, 2, 3), *out = TF(ctx, 2, 3);
    E(gpuk_add(ctx, x, TF(ctx, 3, 2), out, NULL), SHAPE, "y");
    E(gpuk_add(ctx, x, TF(ctx, 6), out, NULL), SHAPE, "y");
    E(gpuk_add(ctx, x, y, TF(ctx, 2, 4), NULL), SHAPE, "out");
    E(gpuk_add(ctx, x, TF(ctx, 1, 3), out, NULL), SHAPE, "y");   /* no broadcasting */
    gpuk_tensor *S = STORAGE();
    E(gpuk_add(ctx, V2(S, 2, 3, 4, 1, 0), y, out, NULL), LAYOUT, "x");
    E(gpuk_add(ctx, x, V2(S, 2, 3, 3, 2, 0), out, NULL), LAYOUT, "y");
    E(gpuk_add(ctx, x, y, V2(S, 2, 3, 4, 1, 0), NULL), LAYOUT, "out");
    /* in place: out exactly x or y */
    E(gpuk_add(ctx, x, y, x, NULL), OK, NULL);
    E(gpuk_add(ctx, x, y, y, NULL), OK, NULL);
    E(gpuk_add(ctx, x, x, x, NULL), OK, NULL);
    float got[6];
    gpuk_tensor_read(ctx, x, got, sizeof got);
    /* x = 1,1.5,..; after x += y: 2,3,..; y += x: 3,4.5,..; x += x: 4,6,.. */
    tap_ok(got[0] == 4.0f && got[5] == 14.0f, "add in place computes x+y, then y+x, then x+x "
           "(got %g .. %g)", got[0], got[5]);
    /* a second view with the same place and shape is 'exactly' x too */
    gpuk_tensor *s6 = V2(S, 2, 3, 3, 1, 0);
    E(gpuk_add(ctx, s6, y, V2(S, 2, 3, 3, 1, 0), NULL), OK, NULL);
    E(gpuk_add(ctx, V2(S, 2, 3, 3, 1, 0), y, V2(S, 2, 3, 3, 1, 1), NULL), ALIAS, "out");
    E(gpuk_add(ctx, x, V2(S, 2, 3, 3, 1, 2), V2(S, 2, 3, 3, 1, 0), NULL), ALIAS, "out");
    E(gpuk_add(ctx, V1(S, 6, 1, 0), y, V2(S, 2, 3, 3, 1, 0), NULL), SHAPE, "out");
}

static void scale_rules(gpuk_context *ctx)
{
    ob_unary_rules(ctx, GPUK_OP_SCALE);
}

static void relu_rules(gpuk_context *ctx)
{
    ob_unary_rules(ctx, GPUK_OP_RELU);
}

static void copy_rules(gpuk_context *ctx)
{
    ob_unary_rules(ctx, GPUK_OP_COPY);
}

/* bias is 1-D, the length of x's last dimension; out may be x, not bias */
static void bias_relu_rules(gpuk_context *ctx)
{
    gpuk_tensor *x = TF(ctx, 2, 3), *out = TF(ctx, 2, 3), *S = STORAGE();
    gpuk_tensor *bias = TF(ctx, 3);
    E(gpuk_bias_relu(ctx, x, TF(ctx, 2), out, NULL), SHAPE, "bias");
    E(gpuk_bias_relu(ctx, x, TF(ctx, 1, 3), out, NULL), SHAPE, "bias");
    E(gpuk_bias_relu(ctx, x, bias, TF(ctx, 3, 2), NULL), SHAPE, "out");
    E(gpuk_bias_relu(ctx, x, V1(S, 3, 3, 0), out, NULL), LAYOUT, "bias");
    E(gpuk_bias_relu(ctx, x, bias, x, NULL), OK, NULL);
    gpuk_tensor *xb = TF(ctx, 3);
    E(gpuk_bias_relu(ctx, xb, bias, bias, NULL), ALIAS, "out");
    E(gpuk_bias_relu(ctx, V1(S, 3, 1, 0), bias, V1(S, 3, 1, 2), NULL), ALIAS, "out");
}

/* ---- t_empty: empty outputs, NaN and infinity ---- */

static void add_empty(gpuk_context *ctx, gpuk_dtype dt)
{
    const ref_real N = NAN, P = INFINITY;
    const ref_tol u = oe_tol(dt);   /* finite elements only need to be close */
    ref_real ref[OE_MAXN];
    double bd[OE_MAXN];
    oe_expect e;
    opcall_args k;

    k = oe_call(GPUK_OP_ADD, MK(NULL, 3, 0), MK(NULL, 3, 0), NULL, MK(NULL, 3, 0));
    RUN(k, "[3,0]", NULL, NULL);

    const ref_real ex[6] = { N, P, P, -P, 1, -0.0L }, ey[6] = { 1, 1, -P, -P, -1, -0.0L };
    k = oe_call(GPUK_OP_ADD, MK(ex, 6), MK(ey, 6), NULL, MK(NULL, 6));
    ref_add(&u, 6, ex, ey, ref, bd);
    oe_from_ref(&e, 6, ref, bd);
    RUN(k, "NaN + 1, inf + 1, inf - inf, -inf - inf, 1 - 1, -0 + -0", NULL, &e);
}

static void scale_empty(gpuk_context *ctx, gpuk_dtype dt)
{
    const ref_real N = NAN, P = INFINITY;
    const ref_tol u = oe_tol(dt);
    ref_real ref[OE_MAXN];
    double bd[OE_MAXN];
    oe_expect e;
    opcall_args k;

    k = oe_call(GPUK_OP_SCALE, MK(NULL, 0), NULL, NULL, MK(NULL, 0));
    RUN(k, "[0]", NULL, NULL);

    const ref_real sx[5] = { 0, 1, -2, N, -0.0L };
    k = oe_call(GPUK_OP_SCALE, MK(sx, 5), NULL, NULL, MK(NULL, 5));
    k.alpha = INFINITY;
    ref_scale(&u, 5, P, sx, ref, bd);
    oe_from_ref(&e, 5, ref, bd);
    RUN(k, "alpha = inf: 0 * inf is NaN", NULL, &e);
    k.alpha = NAN;
    oe_const(&e, 5, NAN);
    RUN(k, "alpha = NaN: all NaN", NULL, &e);
}

/* relu is x < 0 ? 0 : x: NaN passes, -0 stays -0 */
static void relu_empty(gpuk_context *ctx, gpuk_dtype dt)
{
    const ref_real P = INFINITY, Q = oe_nan_payload();
    oe_expect e;
    opcall_args k;

    k = oe_call(GPUK_OP_RELU, MK(NULL, 0, 2, 2), NULL, NULL, MK(NULL, 0, 2, 2));
    RUN(k, "[0,2,2]", NULL, NULL);

    const ref_real rl[7] = { Q, -P, P, -1, 0, -0.0L, 2 };
    k = oe_call(GPUK_OP_RELU, MK(rl, 7), NULL, NULL, MK(NULL, 7));
    memset(&e, 0, sizeof e);
    e.n = 7;
    for (int i = 0; i < 7; i++)
        e.v[i] = rl[i] < 0 ? 0.0L : rl[i];
    RUN(k, "NaN passes, -inf -> 0, inf stays, -0 stays -0", NULL, &e);
}

static void bias_relu_empty(gpuk_context *ctx, gpuk_dtype dt)
{
    const ref_real N = NAN, P = INFINITY;
    oe_expect e;
    opcall_args k;

    k = oe_call(GPUK_OP_BIAS_RELU, MK(NULL, 4, 0), MK(NULL, 0), NULL, MK(NULL, 4, 0));
    RUN(k, "x[4,0] bias[0]", NULL, NULL);
    k = oe_call(GPUK_OP_BIAS_RELU, MK(NULL, 0, 3), MK(NULL, 3), NULL, MK(NULL, 0, 3));
    RUN(k, "x[0,3] bias[3]", NULL, NULL);

    const ref_real bx[6] = { N, 1, -P, P, 2, 3 }, bb[3] = { 1, -P, P };
    k = oe_call(GPUK_OP_BIAS_RELU, MK(bx, 2, 3), MK(bb, 3), NULL, MK(NULL, 2, 3));
    memset(&e, 0, sizeof e);
    e.n = 6;
    for (int i = 0; i < 6; i++) {
        ref_real s = ref_add1(dt, bx[i], bb[i % 3]);
        e.v[i] = s < 0 ? 0.0L : s;
    }
    RUN(k, "NaN passes, x + bias = -inf -> 0, inf - inf -> NaN", NULL, &e);
}

/* a copy keeps every bit: NaN payload, -0, infinities, subnormals */
static void copy_empty(gpuk_context *ctx, gpuk_dtype dt)
{
    const ref_real P = INFINITY, Q = oe_nan_payload();
    oe_expect e;
    opcall_args k;

    k = oe_call(GPUK_OP_COPY, MK(NULL, 2, 0, 3), NULL, NULL, MK(NULL, 2, 0, 3));
    RUN(k, "[2,0,3]", NULL, NULL);

    const ref_real mv[6] = { Q, -0.0L, P, -P, oe_tiny(dt), 1 };
    k = oe_call(GPUK_OP_COPY, MK(mv, 6), NULL, NULL, MK(NULL, 6));
    memset(&e, 0, sizeof e);
    e.n = 6;
    e.payload = 1;
    e.src = mv;
    RUN(k, "bit-exact: NaN payload, -0, +-inf, subnormal", NULL, &e);
}

/* ---- the fuzz harness: valid calls from the input bytes ----
 *
 * x of 1-4 dimensions, contiguous (fz_x_in), any second input, then out
 * of x's shape or in place (fz_out_of_x). */

static int add_fuzz(fz *f, fz_call *c, unsigned sp)
{
    int64_t s[4];
    int nd, r = fz_x_in(f, c, sp, &nd, s);
    r |= fz_opnd(f, &c->in[1], c->dt, nd, s, fz_lay_dense(f), sp, 0);
    c->n_in = 2;
    c->name[1] = "y";
    return r | fz_out_of_x(f, c, nd, s, 2);
}

static int scale_fuzz(fz *f, fz_call *c, unsigned sp)
{
    int64_t s[4];
    int nd, r = fz_x_in(f, c, sp, &nd, s);
    c->alpha = fz_val(f, sp);
    return r | fz_out_of_x(f, c, nd, s, 1);
}

/* relu and copy: x alone */
static int unary_fuzz(fz *f, fz_call *c, unsigned sp)
{
    int64_t s[4];
    int nd, r = fz_x_in(f, c, sp, &nd, s);
    return r | fz_out_of_x(f, c, nd, s, 1);
}

static int bias_relu_fuzz(fz *f, fz_call *c, unsigned sp)
{
    int64_t s[4];
    int nd, r = fz_x_in(f, c, sp, &nd, s);
    r |= fz_opnd(f, &c->in[1], c->dt, 1, &s[nd - 1], fz_lay_dense(f), sp, 0);
    c->n_in = 2;
    c->name[1] = "bias";
    return r | fz_out_of_x(f, c, nd, s, 1);
}

/* ---- the descriptors ---- */

#define F GPUK_F32
const optest optest_ADD = {
    .op = GPUK_OP_ADD,
    .dtypes = OPTEST_FLOATS | OPTEST_HALF,
    .cases = b_elementwise,
    .ref = add_ref,
    .spec = { 3, { "x", "y", "out" }, { F, F, F }, { 2, 2, 2 }, { { 2, 3 }, { 2, 3 }, { 2, 3 } },
              { -1, -1, -1 }, -1, NULL },
    .badshape = add_rules,
    .empty = add_empty,
    .fuzz = add_fuzz,
};

const optest optest_SCALE = {
    .op = GPUK_OP_SCALE,
    .dtypes = OPTEST_FLOATS | OPTEST_HALF,
    .cases = b_elementwise,
    .ref = scale_ref,
    .spec = { 2, { "x", "out" }, { F, F }, { 2, 2 }, { { 2, 3 }, { 2, 3 } }, { -1, -1 }, -1,
              NULL },
    .badshape = scale_rules,
    .empty = scale_empty,
    .fuzz = scale_fuzz,
};

const optest optest_RELU = {
    .op = GPUK_OP_RELU,
    .dtypes = OPTEST_FLOATS | OPTEST_HALF,
    .cases = b_elementwise,
    .ref = relu_ref,
    .spec = { 2, { "x", "out" }, { F, F }, { 2, 2 }, { { 2, 3 }, { 2, 3 } }, { -1, -1 }, -1,
              NULL },
    .badshape = relu_rules,
    .empty = relu_empty,
    .fuzz = unary_fuzz,
};

const optest optest_BIAS_RELU = {
    .op = GPUK_OP_BIAS_RELU,
    .dtypes = OPTEST_FLOATS | OPTEST_HALF,
    .cases = b_bias_relu,
    .ref = bias_relu_ref,
    .spec = { 3, { "x", "bias", "out" }, { F, F, F }, { 2, 1, 2 }, { { 2, 3 }, { 3 }, { 2, 3 } },
              { -1, -1, -1 }, -1, NULL },
    .badshape = bias_relu_rules,
    .empty = bias_relu_empty,
    .fuzz = bias_relu_fuzz,
};

const optest optest_COPY = {
    .op = GPUK_OP_COPY,
    .dtypes = OPTEST_FLOATS | OPTEST_HALF,
    .cases = b_elementwise,
    .ref = copy_ref,
    .spec = { 2, { "x", "out" }, { F, F }, { 2, 2 }, { { 2, 3 }, { 2, 3 } }, { -1, -1 }, -1,
              NULL },
    .badshape = copy_rules,
    .empty = copy_empty,
    .fuzz = unary_fuzz,
};
#undef F

#endif /* OPTEST_CALLS */

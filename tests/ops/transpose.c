/*
 * tests/ops/transpose.c - what the tests and the fuzz harness know about
 * transpose (gpuk_transpose(3)): its call, the op suite's cases, the
 * reference, the bad-input spec and shape rules, the empty-tensor and
 * NaN cases, the fuzz shapes.  A transpose only moves elements, so every
 * rung must give the same bits in every dtype, NaN payloads included.
 */
#include "../opcall.h"

#ifdef OPTEST_CALLS
/* ---- the call: all that tests/opcall.c takes from this file ---- */

/* in[0] x, out y */
static gpuk_status opcall_TRANSPOSE(gpuk_context *ctx, const opcall_args *a, const char *v)
{
    return gpuk_transpose(ctx, a->in[0], a->out, v);
}

#else /* everything else, in the test library */
#include "family.h"

/* ---- the op suite's cases ---- */

static int b_transpose(oc_case *c, int i, gpuk_dtype dt, uint64_t *g)
{
    static const int T[][3] = { /* m, n, layout; the last with +-inf */
        { 1, 1, OC_DENSE }, { 7, 33, OC_OFF1 }, { 33, 7, OC_STRIDED }, { 127, 257, OC_STRIDED },
        { 257, 127, OC_OFF1 }, { 1, 257, OC_DENSE }, { 257, 1, OC_STRIDED }, { 64, 64, OC_OFF1 },
        { 1000, 257, OC_STRIDED }, { 130, 260, OC_DENSE }, { 128, 64, OC_PAD4 },
        { 256, 256, OC_DENSE },
        { 33, 7, OC_OFF1 } };
    static const double inf2[] = { INFINITY, -INFINITY };
    if (i >= NELEM(T))
        return 0;
    const int *t = T[i];
    c->m = t[0], c->n = t[1], c->n_in = 1;
    oc_arg_set(&c->in[0], dt, 2, SH(c->m, c->n), t[2], RND(c->m * c->n));
    oc_arg_set(&c->out, dt, 2, SH(c->n, c->m), t[2], NULL);
    if (i == NELEM(T) - 1)
        oc_sprinkle(g, dt, c->in[0].vals, c->m * c->n, 5, inf2, 2);
    LBL("%dx%d%s %s", t[0], t[1], i == NELEM(T) - 1 ? " +-inf" : "", oc_layout_name(t[2]));
    return 1;
}

/* ---- the reference ---- */

static void transpose_ref(const ref_args *a, const ref_tol *t, ref_real *ref, double *bound)
{
    const ref_operand *x = &a->in[0];
    int64_t m = x->shape[0], n = x->shape[1];
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            ref[j * m + i] = ref_get(x->dtype, x->vals, i * n + j);
            bound[j * m + i] = 0.0;
        }
}

/* ---- t_badshape: the rules ---- */

/* x and y may be row-strided views; an output view that maps two
 * elements to one address is refused, and so is any overlap with x. */
static void transpose_rules(gpuk_context *ctx)
{
    gpuk_tensor *x = TF(ctx, 3, 4), *S = STORAGE();
    E(gpuk_transpose(ctx, x, TF(ctx, 3, 4), NULL), SHAPE, "y");
    E(gpuk_transpose(ctx, x, TF(ctx, 4, 4), NULL), SHAPE, "y");
    E(gpuk_transpose(ctx, V2(S, 3, 4, 5, 2, 0), TF(ctx, 4, 3), NULL), LAYOUT, "x");
    E(gpuk_transpose(ctx, V2(S, 3, 4, 5, 1, 0), V2(S, 4, 3, 4, 1, 20), NULL), OK, NULL);
    E(gpuk_transpose(ctx, x, V2(S, 4, 3, 0, 1, 0), NULL), LAYOUT, "y");
    gpuk_tensor *q = TF(ctx, 3, 3);
    E(gpuk_transpose(ctx, q, q, NULL), ALIAS, "y");
    E(gpuk_transpose(ctx, V2(S, 3, 4, 4, 1, 0), V2(S, 4, 3, 3, 1, 11), NULL), ALIAS, "y");
}

/* ---- t_empty: an empty output, NaN and infinity ---- */

static void transpose_empty(gpuk_context *ctx, gpuk_dtype dt)
{
    const ref_real P = INFINITY, Q = oe_nan_payload(), tiny = oe_tiny(dt);
    oe_expect e;
    opcall_args k;

    k = oe_call(GPUK_OP_TRANSPOSE, MK(NULL, 0, 4), NULL, NULL, MK(NULL, 4, 0));
    RUN(k, "x[0,4] -> y[4,0]", NULL, NULL);

    /* a move keeps every bit: NaN payload, -0, infinities, subnormals */
    const ref_real mv[6] = { Q, -0.0L, P, -P, tiny, 1 };
    const ref_real mvt[6] = { Q, -P, -0.0L, tiny, P, 1 };
    k = oe_call(GPUK_OP_TRANSPOSE, MK(mv, 2, 3), NULL, NULL, MK(NULL, 3, 2));
    memset(&e, 0, sizeof e);
    e.n = 6;
    e.payload = 1;
    e.src = mvt;
    RUN(k, "bit-exact: NaN payload, -0, +-inf, subnormal", NULL, &e);
}

/* ---- the fuzz harness: a valid call from the input bytes ---- */

static int transpose_fuzz(fz *f, fz_call *c, unsigned sp)
{
    int64_t m = fz_dim(f), n = fz_dim(f);
    int r = fz_opnd(f, &c->in[0], c->dt, 2, SH(m, n), fz_lay_matrix(f), sp, 0);
    r |= fz_opnd(f, &c->out, c->dt, 2, SH(n, m), fz_lay_matrix(f), 0, 0);
    c->n_in = 1;
    c->name[0] = "x", c->name[3] = "y";
    return r;
}

/* ---- the descriptor ---- */

const optest optest_TRANSPOSE = {
    .op = GPUK_OP_TRANSPOSE,
    .dtypes = OPTEST_FLOATS | OPTEST_HALF,
    .cases = b_transpose,
    .ref = transpose_ref,
    .spec = { 2, { "x", "y" }, { GPUK_F32, GPUK_F32 }, { 2, 2 }, { { 3, 4 }, { 4, 3 } },
              { -1, -1 }, -1, NULL },
    .badshape = transpose_rules,
    .empty = transpose_empty,
    .fuzz = transpose_fuzz,
};

#endif /* OPTEST_CALLS */

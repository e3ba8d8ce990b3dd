/*
 * tests/ops/rows.c - what the tests and the fuzz harness know about the
 * row ops softmax and embedding (gpuk_softmax(3)): their calls, the op
 * suite's cases, the references, the bad-input specs and shape rules, the
 * empty-tensor and NaN cases, the fuzz shapes.  Embedding's table has the
 * op's dtype; its ids are i32 in every dtype.
 */
#include "../opcall.h"

#ifdef OPTEST_CALLS
/* ---- the calls: all that tests/opcall.c takes from this file ---- */

/* in[0] x, out (may be x) */
static gpuk_status opcall_SOFTMAX(gpuk_context *ctx, const opcall_args *a, const char *v)
{
    return gpuk_softmax(ctx, a->in[0], a->out, v);
}

/* in[0] table, in[1] ids (i32), out */
static gpuk_status opcall_EMBEDDING(gpuk_context *ctx, const opcall_args *a, const char *v)
{
    return gpuk_embedding(ctx, a->in[0], a->in[1], a->out, v);
}

#else /* everything else, in the test library */
#include "family.h"

/* ---- the op suite's cases ---- */

/* Rows shifted by +-100 would overflow or underflow exp() in a kernel
 * that skips the max subtraction. */
static int b_softmax(oc_case *c, int i, gpuk_dtype dt, uint64_t *g)
{
    static const int T[][6] = { /* ndim, shape, in place, shift */
        { 2, 1, 1, 0, 0, 0 }, { 2, 7, 33, 0, 0, 0 }, { 2, 33, 7, 0, 0, 0 },
        { 2, 127, 257, 0, 0, 0 }, { 2, 1, 1000, 0, 0, 0 }, { 3, 3, 7, 33, 0, 0 },
        { 1, 257, 0, 0, 0, 0 }, { 2, 33, 7, 0, 1, 0 }, { 2, 7, 257, 0, 0, 100 },
        { 2, 7, 33, 0, 0, -100 },
        /* aligned rows, and rows longer than a one-pass kernel keeps on chip */
        { 2, 64, 256, 0, 0, 0 }, { 2, 3, 8200, 0, 0, 0 }, { 2, 2, 8200, 0, 0, 0 },
        { 2, 4, 8192, 0, 1, 0 },
        /* the one-pass register sizes of 16 and 32 floats a thread, float4
         * (even: dense) and scalar (odd: offset by one) */
        { 2, 5, 4096, 0, 0, 0 }, { 2, 3, 3000, 0, 0, 0 }, { 2, 2, 6000, 0, 0, 0 } };
    if (i >= NELEM(T))
        return 0;
    const int *t = T[i];
    int64_t sh[3], n = 1;
    int L = i % 2 ? OC_OFF1 : OC_DENSE;
    char sb[48];
    for (int d = 0; d < t[0]; d++)
        sh[d] = t[1 + d], n *= sh[d];
    c->n = sh[t[0] - 1], c->m = n / c->n, c->n_in = 1;
    oc_arg_set(&c->in[0], dt, t[0], sh, L, oc_rnd_vec(g, dt, n, t[5] ? 10 : 4, t[5]));
    if (t[4])
        oc_in_place(c, 0);
    else
        oc_arg_set(&c->out, dt, t[0], sh, L, NULL);
    LBL("%s%s%s %s", oc_shape_str(sb, t[0], sh), t[4] ? " in place" : "",
        t[5] > 0 ? " x+100" : t[5] < 0 ? " x-100" : "", oc_layout_name(L));
    return 1;
}

static int b_embedding(oc_case *c, int i, gpuk_dtype dt, uint64_t *g)
{
    static const int T[][6] = { /* V, d, ids ndim, ids shape */
        { 7, 33, 1, 5, 0, 0 }, { 257, 7, 2, 3, 7, 0 }, { 33, 1, 3, 2, 3, 5 }, { 1, 1, 1, 1, 0, 0 },
        { 127, 127, 1, 257, 0, 0 }, { 1000, 16, 2, 4, 33, 0 } };
    if (i >= NELEM(T))
        return 0;
    const int *t = T[i];
    int64_t sh[4], T_ = 1;
    int L = i % 2 ? OC_OFF1 : OC_DENSE;
    char sb[48];
    for (int d = 0; d < t[2]; d++)
        sh[d] = t[3 + d], T_ *= sh[d];
    int32_t *ids = oc_alloc((size_t)T_ * sizeof *ids);
    for (int64_t p = 0; p < T_; p++)
        ids[p] = (int32_t)(oc_rng(g) % (uint64_t)t[0]);
    c->m = t[0], c->n = t[1], c->k = T_, c->n_in = 2;
    oc_arg_set(&c->in[0], dt, 2, SH(c->m, c->n), L, RND(c->m * c->n));
    oc_arg_set(&c->in[1], GPUK_I32, t[2], sh, L, ids);
    sh[t[2]] = t[1];
    oc_arg_set(&c->out, dt, t[2] + 1, sh, L, NULL);
    LBL("table %dx%d ids %s %s", t[0], t[1], oc_shape_str(sb, t[2], sh), oc_layout_name(L));
    return 1;
}

/* ---- the references ---- */

/* Softmax of a row, out_j = e_j / S with e_j = exp(x_j - m), m = max x.
 * The max is exact.  fl(x_j - m) is off by at most u R absolutely, R the
 * row's range max|x_j - m|, which exp turns into a relative error u R;
 * the dtype's exp (expf, exp) is within 2 ulp (4u).  All e_j are
 * positive, so their sum carries the largest term error plus gamma_n; the
 * division adds u (2u if done as a multiply by 1/S).  So out_j is within
 *   gamma_n + u (2R + 10)
 * relatively; an implementation through log S (exp(x_j - m - log S)) adds
 * about 2u ln n, which we include.  With c on top; u is the dtype's. */
static void ref_softmax(const ref_tol *t, int64_t rows, int64_t n, const ref_real *x,
                        ref_real *ref, double *bound)
{
    for (int64_t r = 0; r < rows; r++) {
        const ref_real *xr = x + r * n;
        ref_real m = -HUGE_VALL, lo = HUGE_VALL, s = 0;
        for (int64_t j = 0; j < n; j++) {
            m = xr[j] > m ? xr[j] : m;
            lo = xr[j] < lo ? xr[j] : lo;
        }
        for (int64_t j = 0; j < n; j++)
            s += expl(xr[j] - m);
        double range = (double)(m - lo);
        /* a 16-bit output rounds the f32 result once more (u_out) */
        double rel = ref_gamma(n, t->u) + t->u * (2.0 * range + 2.0 * log((double)n + 1.0) + 10.0) +
                     (t->u_out > t->u ? t->u_out : 0.0);
        for (int64_t j = 0; j < n; j++) {
            ref_real v = expl(xr[j] - m) / s;
            ref[r * n + j] = v;
            /* an exact 0 (from -inf) has no relative error: 0 * rel, not
             * 0 * inf when the range is infinite */
            bound[r * n + j] = (v == 0 ? 0.0 : REF_C * rel * (double)v) + ref_floor_abs(t, n);
        }
    }
}

/* rows along x's last dimension */
static void softmax_ref(const ref_args *a, const ref_tol *t, ref_real *ref, double *bound)
{
    const ref_operand *xo = &a->in[0];
    int64_t n = ref_numel(&a->out), last = xo->ndim > 0 ? xo->shape[xo->ndim - 1] : 0;
    ref_real *x = ref_load(xo->dtype, xo->vals, n);
    ref_softmax(t, last ? n / last : 0, last, x, ref, bound);
    free(x);
}

/* row ids[i] of the table, every bit of it */
static void embedding_ref(const ref_args *a, const ref_tol *t, ref_real *ref, double *bound)
{
    const ref_operand *tb = &a->in[0];
    int64_t d = tb->shape[1], T = ref_numel(&a->in[1]);
    for (int64_t i = 0; i < T; i++) {
        int64_t row = (int64_t)ref_get(GPUK_I32, a->in[1].vals, i);
        for (int64_t j = 0; j < d; j++) {
            ref[i * d + j] = ref_get(tb->dtype, tb->vals, row * d + j);
            bound[i * d + j] = 0.0;
        }
    }
}

/* ---- t_badshape: the rules of each op ---- */

static void softmax_rules(gpuk_context *ctx)
{
    ob_unary_rules(ctx, GPUK_OP_SOFTMAX);
}

/* out is ids' shape plus the table's row; every id must be a row of the
 * table (checked before the gather, so a rejected call writes nothing) */
static void embedding_rules(gpuk_context *ctx)
{
    gpuk_tensor *table = TF(ctx, 5, 3), *ids = TI(ctx, 4), *out = TF(ctx, 4, 3);
    E(gpuk_embedding(ctx, TF(ctx, 15), ids, out, NULL), SHAPE, "table");
    E(gpuk_embedding(ctx, table, TI(ctx, 1, 1, 1, 4), TF(ctx, 1, 1, 1, 4), NULL), SHAPE, "ids");
    E(gpuk_embedding(ctx, table, ids, TF(ctx, 4, 3, 1), NULL), SHAPE, "out");
    E(gpuk_embedding(ctx, table, ids, TF(ctx, 5, 3), NULL), SHAPE, "out");
    E(gpuk_embedding(ctx, table, ids, TF(ctx, 4, 2), NULL), SHAPE, "out");
    E(gpuk_embedding(ctx, table, TI(ctx, 2, 2), TF(ctx, 2, 2, 3), NULL), OK, NULL);
    E(gpuk_embedding(ctx, table, TI(ctx, 2, 2), TF(ctx, 2, 3, 3), NULL), SHAPE, "out");
    gpuk_tensor *S = STORAGE();
    E(gpuk_embedding(ctx, V2(S, 5, 3, 4, 1, 0), ids, out, NULL), LAYOUT, "table");
    E(gpuk_embedding(ctx, table, ids, V2(S, 4, 3, 4, 1, 0), NULL), LAYOUT, "out");
    gpuk_tensor *Si = rel_tensor(ctx, GPUK_I32, 1, REL_SHAPE(16), 0, 0);
    E(gpuk_embedding(ctx, table, V1(Si, 4, 2, 0), out, NULL), LAYOUT, "ids");
    E(gpuk_embedding(ctx, V2(S, 5, 3, 3, 1, 0), ids, V2(S, 4, 3, 3, 1, 3), NULL), ALIAS, "out");

    int32_t bad[][4] = { { 0, 1, 5, 2 }, { 0, -1, 1, 2 }, { INT32_MIN, 0, 0, 0 },
                         { 0, 0, 0, INT32_MAX } };
    for (int i = 0; i < 4; i++) {
        gpuk_tensor *bi = TI(ctx, 4);
        gpuk_tensor_write(ctx, bi, bad[i], sizeof bad[i]);
        char what[96];
        snprintf(what, sizeof what, "embedding: ids {%d, %d, %d, %d} against 5 rows", bad[i][0],
                 bad[i][1], bad[i][2], bad[i][3]);
        rel_expect(ctx, gpuk_embedding(ctx, table, bi, out, NULL), GPUK_ERR_INDEX, "ids", what);
        if (i == 0) {
            /* an empty table has no row to name: every id is out of range */
            rel_expect(ctx, gpuk_embedding(ctx, TF(ctx, 0, 3), bi, out, NULL), GPUK_ERR_INDEX,
                       "ids", "embedding: any id against a table of 0 rows");
            /* nothing is gathered when rows have length 0: ids are not read */
            rel_expect(ctx, gpuk_embedding(ctx, TF(ctx, 5, 0), bi, TF(ctx, 4, 0), NULL), GPUK_OK,
                       NULL, "embedding: out-of-range ids with rows of length 0 (empty out)");
        }
    }
    float got[12];
    gpuk_tensor_read(ctx, out, got, sizeof got);
    tap_ok(got[0] == 1.0f && got[11] == 6.5f, "the rejected gathers left out as it was");

    /* ids are i32 whatever the table's dtype; out has the table's */
    size_t n64 = 0;
    gpuk_variant_count_dtype(ctx, GPUK_OP_EMBEDDING, F64, &n64);
    ED(gpuk_embedding(ctx, table, TD(ctx, 4), out, NULL), "ids", F64, GPUK_I32);
    ED(gpuk_embedding(ctx, table, ids, TD(ctx, 4, 3), NULL), "out", F64, F32);
    if (n64)
        E(gpuk_embedding(ctx, TD(ctx, 5, 3), ids, TD(ctx, 4, 3), NULL), OK, NULL);
    else
        ED(gpuk_embedding(ctx, TD(ctx, 5, 3), ids, TD(ctx, 4, 3), NULL), "table", F64, F32);
}

/* ---- t_empty: empty outputs, rows of one, NaN and infinity ---- */

static void softmax_empty(gpuk_context *ctx, gpuk_dtype dt)
{
    const ref_real N = NAN, P = INFINITY;
    const ref_tol u = oe_tol(dt);   /* finite elements only need to be close */
    ref_real ref[OE_MAXN];
    double bd[OE_MAXN];
    oe_expect e;
    opcall_args k;

    k = oe_call(GPUK_OP_SOFTMAX, MK(NULL, 3, 0), NULL, NULL, MK(NULL, 3, 0));
    RUN(k, "rows of length 0", NULL, NULL);

    /* the largest magnitude the dtype holds finitely (-1e30 is -inf in f16) */
    const ref_real one[3] = { 5, dt == GPUK_F16 ? -6e4L : -1e30L, 0 };
    k = oe_call(GPUK_OP_SOFTMAX, MK(one, 3, 1), NULL, NULL, MK(NULL, 3, 1));
    oe_const(&e, 3, 1.0L);
    RUN(k, "rows of length 1 are 1", NULL, &e);

    const ref_real so[12] = { 1, N, 2, 1, -P, 2, 1, P, 2, -P, -P, -P };
    k = oe_call(GPUK_OP_SOFTMAX, MK(so, 4, 3), NULL, NULL, MK(NULL, 4, 3));
    ref_softmax(&u, 4, 3, so, ref, bd);
    oe_from_ref(&e, 12, ref, bd);
    RUN(k, "rows with NaN, -inf, +inf, all -inf", NULL, &e);
}

/* a gather keeps every bit: NaN payload, -0, infinities, subnormals */
static void embedding_empty(gpuk_context *ctx, gpuk_dtype dt)
{
    const ref_real P = INFINITY, Q = oe_nan_payload(), tiny = oe_tiny(dt);
    oe_expect e;
    opcall_args k;

    k = oe_call(GPUK_OP_EMBEDDING, MK(NULL, 5, 3), oe_ids(ctx, 0, NULL), NULL, MK(NULL, 0, 3));
    RUN(k, "ids[0]", NULL, NULL);

    const ref_real tb[6] = { Q, -0.0L, P, 2, tiny, -P };
    const int32_t ids[3] = { 2, 0, 2 };
    const ref_real gathered[6] = { tiny, -P, Q, -0.0L, tiny, -P };
    k = oe_call(GPUK_OP_EMBEDDING, MK(tb, 3, 2), oe_ids(ctx, 3, ids), NULL, MK(NULL, 3, 2));
    memset(&e, 0, sizeof e);
    e.n = 6;
    e.payload = 1;
    e.src = gathered;
    RUN(k, "bit-exact rows: NaN payload, -0, +-inf, subnormal", NULL, &e);
}

/* ---- the fuzz harness: valid calls from the input bytes ---- */

static int softmax_fuzz(fz *f, fz_call *c, unsigned sp)
{
    int64_t s[4];
    int nd, r = fz_x_in(f, c, sp, &nd, s);
    return r | fz_out_of_x(f, c, nd, s, 1);
}

/* a table of at least one row; ids of 1-3 dimensions, all in range */
static int embedding_fuzz(fz *f, fz_call *c, unsigned sp)
{
    int64_t s[4], V = fz_dim(f), d = fz_dim(f);
    V = V ? V : 1;
    int nd = 1 + (int)fz_pick(f, 3);
    fz_shape_nd(f, nd, s);
    int r = fz_opnd(f, &c->in[0], c->dt, 2, SH(V, d), fz_lay_dense(f), sp, 0);
    r |= fz_opnd(f, &c->in[1], GPUK_I32, nd, s, fz_lay_dense(f), 0, (int32_t)V);
    s[nd] = d;
    r |= fz_opnd(f, &c->out, c->dt, nd + 1, s, fz_lay_dense(f), 0, 0);
    c->n_in = 2;
    c->name[0] = "table", c->name[1] = "ids", c->name[3] = "out";
    return r;
}

/* One id past the table's rows, or below 0 (when anything is gathered:
 * with an empty output the ids are not read). */
static int embedding_fuzz_index(fz *f, fz_call *c, const char **blame)
{
    if (c->out.numel == 0)
        return 0;
    opnd *ids = &c->in[1];
    int64_t at = (int64_t)(fz_rnext(f) % (uint64_t)ids->numel);
    int32_t bad = fz_pick(f, 2) ? (int32_t)c->in[0].shape[0] + (int32_t)fz_pick(f, 3)
                                : -1 - (int32_t)fz_pick(f, 3);
    fz_opnd_set(ids, at, &bad);
    *blame = "ids";
    return 1;
}

/* ---- the descriptors ---- */

const optest optest_SOFTMAX = {
    .op = GPUK_OP_SOFTMAX,
    .dtypes = OPTEST_FLOATS | OPTEST_HALF,
    .cases = b_softmax,
    .ref = softmax_ref,
    .spec = { 2, { "x", "out" }, { GPUK_F32, GPUK_F32 }, { 2, 2 }, { { 2, 3 }, { 2, 3 } },
              { -1, -1 }, -1, NULL },
    .badshape = softmax_rules,
    .empty = softmax_empty,
    .fuzz = softmax_fuzz,
};

/* a wrong rank of ids shows as out's shape disagreeing */
const optest optest_EMBEDDING = {
    .op = GPUK_OP_EMBEDDING,
    .dtypes = OPTEST_FLOATS | OPTEST_HALF,
    .cases = b_embedding,
    .ref = embedding_ref,
    .spec = { 3, { "table", "ids", "out" }, { GPUK_F32, GPUK_I32, GPUK_F32 }, { 2, 1, 2 },
              { { 5, 3 }, { 4 }, { 4, 3 } }, { -1, 2, -1 }, -1, NULL },
    .badshape = embedding_rules,
    .empty = embedding_empty,
    .fuzz = embedding_fuzz,
    .fuzz_index = embedding_fuzz_index,
};

#endif /* OPTEST_CALLS */

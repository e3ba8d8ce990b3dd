/*
 * opcases.c - the cases of the op suite (see opcases.h): one builder per
 * op, each a table of shapes.  Sizes are odd on purpose (1, 7, 33, 127,
 * 257, 1000: no multiple of any tile) and non-square; inner dimensions of
 * 0 check the empty-sum rules of gpuk.h.  Layouts rotate through dense,
 * one element off alignment, and row-strided views (the latter only for
 * the operands gpuk.h lets be strided).
 */
#include "opcases.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"

#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))

const char *oc_layout_name(int layout)
{
    static const char *const names[] = { "dense", "off1", "strided", "pad4" };
    return names[layout];
}

void *oc_alloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        printf("Bail out! out of host memory\n");
        exit(1);
    }
    return p;
}

/* ---- random inputs (splitmix64) ---- */

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A magnitude in [2^-10, 1) with a random sign: never zero, never tiny. */
static float rnd_f(uint64_t *s)
{
    double m = 0x1p-10 + (1.0 - 0x1p-10) * (double)(rng_next(s) >> 11) * 0x1p-53;
    return (float)((rng_next(s) & 1) ? -m : m);
}

static float *rnd_vec(uint64_t *s, int64_t n, float scale, float shift)
{
    float *v = oc_alloc((size_t)n * sizeof *v);
    for (int64_t i = 0; i < n; i++)
        v[i] = shift + scale * rnd_f(s);
    return v;
}

/* reps copies of one random block of n values (a zero-stride batch). */
static float *rnd_rep(uint64_t *s, int64_t n, int64_t reps)
{
    float *v = rnd_vec(s, n * reps, 1.0f, 0.0f);
    for (int64_t r = 1; r < reps; r++)
        memcpy(v + r * n, v, (size_t)n * sizeof *v);
    return v;
}

/* Overwrite about one element in `every` with one of the specials. */
static void sprinkle(uint64_t *s, float *v, int64_t n, int every, const float *sp, int nsp)
{
    for (int64_t i = 0; i < n; i++)
        if (rng_next(s) % (uint64_t)every == 0)
            v[i] = sp[rng_next(s) % (uint64_t)nsp];
}

/* ---- tensors with guards ---- */

static void arg_span(oc_arg *t)
{
    int64_t span = t->numel ? 1 : 0;
    for (int d = 0; t->numel && d < t->ndim; d++)
        span += (t->shape[d] - 1) * t->stride[d];
    t->storage = t->front + span + OC_GUARD_BACK;
}

/* dense: 16 elements in (64-byte aligned); off1: one element in (not
 * 16-byte aligned); strided: 5 in, rows 3 longer than the row, matrices 7
 * elements apart; pad4: 16 in, rows 4 longer, matrices 8 apart, so a row
 * of a multiple of 4 stays 16-byte aligned (the float4 and cp.async paths
 * of the fast rungs).  Strides only for operands that take them. */
static void arg_set(oc_arg *t, gpuk_dtype dt, int ndim, const int64_t *shape, int layout,
                    void *vals)
{
    int64_t st = 1;
    memset(t, 0, sizeof *t);
    t->dtype = dt;
    t->ndim = ndim;
    t->alias = -1;
    t->vals = vals;
    t->numel = 1;
    t->front = layout == OC_DENSE || layout == OC_PAD4 ? 16 : layout == OC_OFF1 ? 1 : 5;
    for (int d = ndim - 1; d >= 0; d--) {
        t->shape[d] = shape[d];
        t->numel *= shape[d];
        t->stride[d] = st;
        st *= shape[d] > 0 ? shape[d] : 1;
        if (layout == OC_STRIDED && ndim >= 2 && d == ndim - 1)
            st += 3;
        if (layout == OC_STRIDED && ndim >= 3 && d == ndim - 2)
            st += 7;
        if (layout == OC_PAD4 && ndim >= 2 && d == ndim - 1)
            st += 4;
        if (layout == OC_PAD4 && ndim >= 3 && d == ndim - 2)
            st += 8;
    }
    arg_span(t);
}

int64_t oc_arg_pos(const oc_arg *t, int64_t lin)
{
    int64_t pos = t->front;
    for (int d = t->ndim - 1; d >= 0; d--) {
        pos += (lin % t->shape[d]) * t->stride[d];
        lin /= t->shape[d];
    }
    return pos;
}

/* ---- reference ---- */

static void ref_operand_of(const oc_arg *t, ref_operand *r)
{
    r->ndim = t->ndim;
    memcpy(r->shape, t->shape, sizeof r->shape);
    r->vals = t->vals;
}

/* The case as ref_op() takes it (ref.c holds the one op -> reference
 * switch, shared with the fuzz harness). */
void oc_ref(oc_case *c, int tf)
{
    ref_args a;
    int64_t n = c->out.numel;
    double *r = oc_alloc((size_t)n * 8), *b = oc_alloc((size_t)n * 8);
    memset(&a, 0, sizeof a);
    a.op = c->op;
    for (int i = 0; i < c->n_in; i++)
        ref_operand_of(&c->in[i], &a.in[i]);
    ref_operand_of(&c->out, &a.out);
    a.alpha = c->alpha, a.beta = c->beta;
    a.trans_a = c->ta, a.trans_b = c->tb, a.axis = c->axis, a.kind = c->kind;
    a.rows = c->rows, a.row_ptr = c->rp, a.col_idx = c->ci, a.values = c->cv;
    ref_op(&a, tf ? REF_U_TF32 : REF_U_FP32, r, b);
    c->ref[tf] = r;
    c->bound[tf] = b;
}


void oc_free(oc_case *c)
{
    for (int i = 0; i < c->n_in; i++)
        if (c->in[i].alias < 0)
            free(c->in[i].vals);
    if (c->out.alias < 0)
        free(c->out.vals);
    free(c->rp);
    free(c->ci);
    free(c->cv);
    for (int t = 0; t < 2; t++) {
        free(c->ref[t]);
        free(c->bound[t]);
    }
    free(c->cpu_out);
}


/* ---- the cases: one builder per op, a table of shapes each ---- */

#define SH(...) ((const int64_t[]){ __VA_ARGS__ })
#define F32 GPUK_F32
#define LBL(...) snprintf(c->label, sizeof c->label, __VA_ARGS__)

static const char *shape_str(char *buf, int nd, const int64_t *sh)
{
    int o = 0;
    for (int d = 0; d < nd; d++)
        o += snprintf(buf + o, 48 - (size_t)o, d ? "x%lld" : "%lld", (long long)sh[d]);
    return buf;
}

/* An output that is exactly input j (in-place ops). */
static void in_place(oc_case *c, int j)
{
    c->out = c->in[j];
    c->out.alias = j;
}

static int b_matmul(oc_case *c, int i, uint64_t *g)
{
    static const int T[][5] = { /* m, k, n, bias, layout */
        { 1, 1, 1, 1, OC_DENSE }, { 7, 33, 5, 0, OC_OFF1 }, { 7, 33, 5, 1, OC_STRIDED },
        { 33, 7, 127, 1, OC_OFF1 }, { 127, 257, 33, 0, OC_STRIDED }, { 257, 127, 1, 1, OC_DENSE },
        { 1, 257, 7, 0, OC_STRIDED }, { 33, 0, 7, 1, OC_DENSE }, { 33, 0, 7, 0, OC_OFF1 },
        { 257, 33, 257, 1, OC_STRIDED }, { 1000, 65, 33, 1, OC_OFF1 },
        /* multiples of 4 on aligned rows: the vectorized paths */
        { 130, 68, 260, 1, OC_DENSE }, { 128, 128, 128, 0, OC_DENSE }, { 64, 36, 132, 1, OC_PAD4 },
        { 256, 64, 128, 0, OC_PAD4 }, { 16, 2048, 12, 1, OC_DENSE } };
    if (i >= NELEM(T))
        return 0;
    const int *t = T[i];
    int64_t m = t[0], k = t[1], n = t[2];
    c->m = m, c->k = k, c->n = n, c->n_in = t[3] ? 3 : 2;
    arg_set(&c->in[0], F32, 2, SH(m, k), t[4], rnd_vec(g, m * k, 1, 0));
    arg_set(&c->in[1], F32, 2, SH(k, n), t[4], rnd_vec(g, k * n, 1, 0));
    if (t[3])
        arg_set(&c->in[2], F32, 1, SH(n), t[4], rnd_vec(g, n, 1, 0));
    arg_set(&c->out, F32, 2, SH(m, n), t[4], NULL);
    LBL("%dx%dx%d%s %s", t[0], t[1], t[2], t[3] ? " bias" : "", oc_layout_name(t[4]));
    return 1;
}

/* An operand of batched matmul: batch `bt` (0: a view of `batch` copies
 * with batch stride 0), matrix r x q. */
static void bm_operand(oc_arg *a, int bt, int batch, int64_t r, int64_t q, int L, uint64_t *g)
{
    int64_t nb = bt ? bt : batch;
    arg_set(a, F32, 3, SH(nb, r, q), L, bt ? rnd_vec(g, nb * r * q, 1, 0) : rnd_rep(g, r * q, nb));
    if (!bt) {
        a->stride[0] = 0;
        arg_span(a);
    }
}

static int b_batched(oc_case *c, int i, uint64_t *g)
{
    static const int T[][7] = { /* batch, a's batch, b's batch (0: stride 0), m, k, n, layout */
        { 1, 1, 1, 1, 1, 1, OC_DENSE }, { 3, 3, 3, 7, 33, 5, OC_OFF1 },
        { 4, 1, 4, 33, 7, 127, OC_STRIDED }, { 5, 5, 1, 127, 33, 7, OC_STRIDED },
        { 2, 2, 2, 257, 17, 33, OC_DENSE }, { 3, 1, 3, 7, 0, 5, OC_OFF1 },
        { 4, 4, 1, 1, 257, 7, OC_OFF1 }, { 3, 0, 3, 33, 7, 5, OC_STRIDED },
        { 2, 2, 0, 7, 33, 127, OC_OFF1 }, { 2, 1, 2, 1000, 33, 65, OC_DENSE },
        { 2, 2, 2, 68, 36, 132, OC_DENSE }, { 3, 1, 3, 64, 64, 64, OC_PAD4 },
        { 2, 2, 0, 128, 32, 64, OC_PAD4 } };
    if (i >= NELEM(T))
        return 0;
    const int *t = T[i];
    c->bc = t[0], c->ba = t[1] > 1 ? t[0] : 1, c->bb = t[2] > 1 ? t[0] : 1;
    c->m = t[3], c->k = t[4], c->n = t[5], c->n_in = 2;
    bm_operand(&c->in[0], t[1], t[0], c->m, c->k, t[6], g);
    bm_operand(&c->in[1], t[2], t[0], c->k, c->n, t[6], g);
    arg_set(&c->out, F32, 3, SH(c->bc, c->m, c->n), t[6], NULL);
    LBL("batch %d (a %d%s, b %d%s) %dx%dx%d %s", t[0], t[1] ? t[1] : t[0],
        t[1] ? "" : " stride 0", t[2] ? t[2] : t[0], t[2] ? "" : " stride 0", t[3], t[4],
        t[5], oc_layout_name(t[6]));
    return 1;
}

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
    arg_set(&c->in[0], F32, 2, SH(m, k), t[4], rnd_vec(g, m * k, 1, 0));
    if (t[3]) {
        c->in[1] = c->in[0];
        c->in[1].alias = 0;
    } else {
        arg_set(&c->in[1], F32, 2, SH(k, n), t[4], rnd_vec(g, k * n, 1, 0));
    }
    arg_set(&c->out, F32, 2, SH(m, n), t[4], NULL);
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
        sprinkle(g, c->in[0].vals, m * k, 4, pinf, 1);
        sprinkle(g, c->in[1].vals, k * n, 4, pinf, 1);
        for (int64_t p = 0; p < k; p++)
            ((float *)c->in[0].vals)[p] = INFINITY;
    } else if (i == NELEM(T) - 1) {
        sprinkle(g, c->in[0].vals, m * k, 9, ninf, 1);
    }
    LBL("%dx%dx%d%s%s %s", t[0], t[1], t[2], t[3] ? " a=b" : "",
        i == NELEM(T) - 3 ? " +-0 ties" : i == NELEM(T) - 2 ? " +inf"
                                          : i == NELEM(T) - 1 ? " -inf" : "",
        oc_layout_name(t[4]));
    return 1;
}

static int b_transpose(oc_case *c, int i, uint64_t *g)
{
    static const int T[][3] = { /* m, n, layout; the last with +-inf */
        { 1, 1, OC_DENSE }, { 7, 33, OC_OFF1 }, { 33, 7, OC_STRIDED }, { 127, 257, OC_STRIDED },
        { 257, 127, OC_OFF1 }, { 1, 257, OC_DENSE }, { 257, 1, OC_STRIDED }, { 64, 64, OC_OFF1 },
        { 1000, 257, OC_STRIDED }, { 130, 260, OC_DENSE }, { 128, 64, OC_PAD4 },
        { 256, 256, OC_DENSE },
        { 33, 7, OC_OFF1 } };
    static const float inf2[] = { INFINITY, -INFINITY };
    if (i >= NELEM(T))
        return 0;
    const int *t = T[i];
    c->m = t[0], c->n = t[1], c->n_in = 1;
    arg_set(&c->in[0], F32, 2, SH(c->m, c->n), t[2], rnd_vec(g, c->m * c->n, 1, 0));
    arg_set(&c->out, F32, 2, SH(c->n, c->m), t[2], NULL);
    if (i == NELEM(T) - 1)
        sprinkle(g, c->in[0].vals, c->m * c->n, 5, inf2, 2);
    LBL("%dx%d%s %s", t[0], t[1], i == NELEM(T) - 1 ? " +-inf" : "", oc_layout_name(t[2]));
    return 1;
}

static int b_reduce(oc_case *c, int i, uint64_t *g)
{
    static const int T[][6] = { /* ndim, shape, axis; each as a sum and a mean */
        { 1, 257, 0, 0, 0, 0 }, { 1, 1, 0, 0, 0, 0 }, { 2, 33, 7, 0, 0, 0 }, { 2, 33, 7, 0, 0, 1 },
        { 2, 127, 257, 0, 0, 0 }, { 2, 127, 257, 0, 0, 1 }, { 3, 7, 33, 5, 0, 0 },
        { 3, 7, 33, 5, 0, 1 }, { 3, 7, 33, 5, 0, 2 }, { 4, 3, 7, 5, 33, 0 },
        { 4, 3, 7, 5, 33, 1 }, { 4, 3, 7, 5, 33, 2 }, { 4, 3, 7, 5, 33, 3 },
        { 2, 1000, 33, 0, 0, 0 }, { 3, 3, 0, 4, 0, 1 },
        /* each twice: off1 then dense (the layout follows the row's parity) */
        { 3, 3, 300, 36, 0, 1 }, { 3, 3, 300, 36, 0, 1 }, { 2, 256, 64, 0, 0, 0 },
        { 2, 256, 64, 0, 0, 0 }, { 2, 64, 256, 0, 0, 1 }, { 2, 64, 256, 0, 0, 1 } };
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
    arg_set(&c->in[0], F32, nd, sh, L, rnd_vec(g, n, 1, 0));
    arg_set(&c->out, F32, ond ? ond : 1, osh, L, NULL);
    LBL("%s %s axis %d %s", c->kind ? "mean" : "sum", shape_str(sb, nd, sh), t[5],
        oc_layout_name(L));
    return 1;
}

/* add, scale, relu, copy: any shape, contiguous; the last two rows run in
 * place; after the table, specials: NaN and infinities through add, +-inf
 * through relu, +-inf and NaN through copy. */
static int b_elementwise(oc_case *c, int i, uint64_t *g)
{
    static const int T[][6] = { /* ndim, shape, in place */
        { 1, 1, 0, 0, 0, 0 }, { 1, 7, 0, 0, 0, 0 }, { 1, 33, 0, 0, 0, 0 }, { 1, 127, 0, 0, 0, 0 },
        { 1, 257, 0, 0, 0, 0 }, { 1, 1000, 0, 0, 0, 0 }, { 2, 33, 7, 0, 0, 0 },
        { 3, 7, 5, 3, 0, 0 }, { 4, 3, 5, 7, 2, 0 }, { 1, 0, 0, 0, 0, 0 },
        { 1, 257, 0, 0, 0, 1 }, { 2, 33, 7, 0, 0, 1 }, { 1, 4096, 0, 0, 0, 0 },
        { 1, 4096, 0, 0, 0, 0 }, { 2, 64, 68, 0, 0, 0 }, { 1, 4098, 0, 0, 0, 1 },
        { 2, 127, 33, 0, 0, 0 } };
    static const float nan_inf[] = { NAN, INFINITY }, infs[] = { INFINITY, -INFINITY },
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
    c->alpha = 3.0f * rnd_f(g);
    for (int j = 0; j < c->n_in; j++)
        arg_set(&c->in[j], F32, t[0], sh, L, rnd_vec(g, n, 1, 0));
    if (t[5])
        in_place(c, 0);
    else
        arg_set(&c->out, F32, t[0], sh, L, NULL);
    if (special && c->op == GPUK_OP_ADD) {
        sprinkle(g, c->in[0].vals, n, 5, nan_inf, 2);
        sprinkle(g, c->in[1].vals, n, 7, infs, 2);
    } else if (special) {
        sprinkle(g, c->in[0].vals, n, 4, all3, c->op == GPUK_OP_COPY ? 3 : 2);
    }
    LBL("%s%s%s %s", shape_str(sb, t[0], sh), t[5] ? " in place" : "",
        special ? (c->op == GPUK_OP_ADD ? " nan+inf" : " specials") : "", oc_layout_name(L));
    return 1;
}

static int b_bias_relu(oc_case *c, int i, uint64_t *g)
{
    static const int T[][5] = { /* ndim, shape, in place */
        { 2, 1, 1, 0, 0 }, { 2, 7, 33, 0, 0 }, { 2, 33, 7, 0, 0 }, { 2, 127, 257, 0, 0 },
        { 3, 3, 7, 33, 0 }, { 1, 257, 0, 0, 0 }, { 2, 1, 1000, 0, 0 }, { 2, 33, 7, 0, 1 },
        { 2, 64, 68, 0, 0 }, { 2, 16, 132, 0, 0 }, { 2, 32, 256, 0, 1 } };
    if (i >= NELEM(T))
        return 0;
    const int *t = T[i];
    int64_t sh[3], n = 1;
    int L = i % 2 ? OC_OFF1 : OC_DENSE;
    char sb[48];
    for (int d = 0; d < t[0]; d++)
        sh[d] = t[1 + d], n *= sh[d];
    c->n = sh[t[0] - 1], c->m = n / c->n, c->n_in = 2;
    arg_set(&c->in[0], F32, t[0], sh, L, rnd_vec(g, n, 1, 0));
    arg_set(&c->in[1], F32, 1, SH(c->n), L, rnd_vec(g, c->n, 1, 0));
    if (t[4])
        in_place(c, 0);
    else
        arg_set(&c->out, F32, t[0], sh, L, NULL);
    LBL("%s%s %s", shape_str(sb, t[0], sh), t[4] ? " in place" : "", oc_layout_name(L));
    return 1;
}

/* Rows shifted by +-100 would overflow or underflow exp() in a kernel
 * that skips the max subtraction. */
static int b_softmax(oc_case *c, int i, uint64_t *g)
{
    static const int T[][6] = { /* ndim, shape, in place, shift */
        { 2, 1, 1, 0, 0, 0 }, { 2, 7, 33, 0, 0, 0 }, { 2, 33, 7, 0, 0, 0 },
        { 2, 127, 257, 0, 0, 0 }, { 2, 1, 1000, 0, 0, 0 }, { 3, 3, 7, 33, 0, 0 },
        { 1, 257, 0, 0, 0, 0 }, { 2, 33, 7, 0, 1, 0 }, { 2, 7, 257, 0, 0, 100 },
        { 2, 7, 33, 0, 0, -100 },
        /* aligned rows, and rows longer than a one-pass kernel keeps on chip */
        { 2, 64, 256, 0, 0, 0 }, { 2, 3, 8200, 0, 0, 0 }, { 2, 2, 8200, 0, 0, 0 },
        { 2, 4, 8192, 0, 1, 0 } };
    if (i >= NELEM(T))
        return 0;
    const int *t = T[i];
    int64_t sh[3], n = 1;
    int L = i % 2 ? OC_OFF1 : OC_DENSE;
    char sb[48];
    for (int d = 0; d < t[0]; d++)
        sh[d] = t[1 + d], n *= sh[d];
    c->n = sh[t[0] - 1], c->m = n / c->n, c->n_in = 1;
    arg_set(&c->in[0], F32, t[0], sh, L, rnd_vec(g, n, t[5] ? 10.0f : 4.0f, (float)t[5]));
    if (t[4])
        in_place(c, 0);
    else
        arg_set(&c->out, F32, t[0], sh, L, NULL);
    LBL("%s%s%s %s", shape_str(sb, t[0], sh), t[4] ? " in place" : "",
        t[5] > 0 ? " x+100" : t[5] < 0 ? " x-100" : "", oc_layout_name(L));
    return 1;
}

static int b_embedding(oc_case *c, int i, uint64_t *g)
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
        ids[p] = (int32_t)(rng_next(g) % (uint64_t)t[0]);
    c->m = t[0], c->n = t[1], c->k = T_, c->n_in = 2;
    arg_set(&c->in[0], F32, 2, SH(c->m, c->n), L, rnd_vec(g, c->m * c->n, 1, 0));
    arg_set(&c->in[1], GPUK_I32, t[2], sh, L, ids);
    sh[t[2]] = t[1];
    arg_set(&c->out, F32, t[2] + 1, sh, L, NULL);
    LBL("table %dx%d ids %s %s", t[0], t[1], shape_str(sb, t[2], sh), oc_layout_name(L));
    return 1;
}

static int b_meanpool(oc_case *c, int i, uint64_t *g)
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
    arg_set(&c->in[0], F32, t[0], SH(t[1], t[2], t[3]), L,
            rnd_vec(g, c->bc * c->k * c->n, 1, 0));
    arg_set(&c->out, F32, t[0] - 1, three ? SH(c->bc, c->n) : SH(c->n), L, NULL);
    LBL("%s %s", shape_str(sb, t[0], c->in[0].shape), oc_layout_name(L));
    return 1;
}

/* CSR with sorted, distinct columns, each kept with probability
 * permille/1000.  Row kinds (t[3]): 1 every fourth row empty, 2 power law
 * (row r: about cols / (r + 1)), 3 the middle row dense among short ones,
 * 4 a run of empty rows in the middle and at the end, 5 the last fifth
 * empty.  The last five cases cut across the stream rung's windows of
 * 2048 nonzeros: rows spanning several, rows filling one exactly, nnz a
 * multiple of 2048 with trailing empty rows, empty rows at one position. */
static int spmv_empty(int kind, int64_t r, int64_t rows)
{
    return (kind == 1 && r % 4 == 1) || (kind == 5 && r >= rows - rows / 5) ||
           (kind == 4 && ((r >= rows / 3 && r < 2 * rows / 3) || r >= rows - rows / 8));
}

static int b_spmv(oc_case *c, int i, uint64_t *g)
{
    static const int T[][4] = { /* rows, cols, permille, row kind */
        { 1, 1, 1000, 0 }, { 7, 33, 300, 0 }, { 33, 7, 500, 1 }, { 257, 127, 100, 0 },
        { 127, 1, 500, 0 }, { 1000, 1000, 10, 0 }, { 33, 33, 0, 0 }, { 7, 257, 200, 1 },
        { 2, 1000, 1000, 0 }, { 64, 2000, 500, 0 }, { 2048, 2048, 0, 2 }, { 1, 5000, 900, 0 },
        { 1, 9000, 1000, 0 }, { 301, 7000, 2, 3 }, { 5000, 40, 200, 4 }, { 640, 16, 1000, 5 },
        { 3, 2048, 1000, 0 } };
    static const char *const kind[] = { "", " empty rows", " power law", " one long row",
                                        " empty runs", " trailing empty" };
    if (i >= NELEM(T))
        return 0;
    const int *t = T[i];
    int64_t nz = 0;
    c->rows = t[0], c->cols = t[1], c->n_in = 1;
    c->rp = oc_alloc((size_t)(c->rows + 1) * sizeof *c->rp);
    c->ci = oc_alloc((size_t)(c->rows * c->cols) * sizeof *c->ci);
    c->rp[0] = 0;
    for (int64_t r = 0; r < c->rows; r++) {
        /* power law: row r keeps about cols / (r + 1) columns */
        uint64_t keep = t[3] == 2 ? 1000000 / (uint64_t)(r + 1)
                        : t[3] == 3 && r == c->rows / 2 ? 1000000 : (uint64_t)t[2] * 1000;
        for (int64_t q = 0; q < c->cols && !spmv_empty(t[3], r, c->rows); q++)
            if (rng_next(g) % 1000000 < keep)
                c->ci[nz++] = (int32_t)q;
        c->rp[r + 1] = (int32_t)nz;
    }
    c->nnz = nz;
    c->cv = rnd_vec(g, nz, 1, 0);
    arg_set(&c->in[0], F32, 1, SH(c->cols), i % 2 ? OC_OFF1 : OC_DENSE,
            rnd_vec(g, c->cols, 1, 0));
    arg_set(&c->out, F32, 1, SH(c->rows), i % 2 ? OC_OFF1 : OC_DENSE, NULL);
    LBL("%dx%d nnz %lld%s %s", t[0], t[1], (long long)nz, kind[t[3]],
        oc_layout_name(i % 2 ? OC_OFF1 : OC_DENSE));
    return 1;
}

static int b_dot(oc_case *c, int i, uint64_t *g)
{
    static const int T[] = { 1, 7, 33, 127, 257, 1000, 0, 4097, 4096 };
    if (i >= NELEM(T))
        return 0;
    int L = i % 2 ? OC_OFF1 : OC_DENSE;
    c->n = T[i], c->n_in = 2;
    arg_set(&c->in[0], F32, 1, SH(c->n), L, rnd_vec(g, c->n, 1, 0));
    arg_set(&c->in[1], F32, 1, SH(c->n), L, rnd_vec(g, c->n, 1, 0));
    arg_set(&c->out, F32, 1, SH(1), L, NULL);
    LBL("n=%d %s", T[i], oc_layout_name(L));
    return 1;
}

/* alpha and beta are in quarters.  With beta == 0 the output starts as
 * NaN, which must not leak in (gpuk.h: y and c are then not read). */
static int b_gemv(oc_case *c, int i, uint64_t *g)
{
    static const int T[][6] = { /* trans, m, n, alpha*4, beta*4, layout */
        { 0, 7, 33, 4, 0, OC_STRIDED }, { 1, 33, 7, 2, -6, OC_OFF1 },
        { 0, 127, 257, -8, 1, OC_STRIDED }, { 1, 257, 127, 4, 0, OC_DENSE },
        { 0, 1, 1, 4, 4, OC_OFF1 }, { 1, 1, 257, 6, 0, OC_STRIDED }, { 0, 33, 0, 4, 2, OC_DENSE },
        { 1, 0, 7, 4, -2, OC_DENSE }, { 0, 257, 33, 3, 0, OC_OFF1 },
        { 1, 1000, 257, 4, 1, OC_STRIDED }, { 0, 33, 17, 0, -6, OC_DENSE },
        { 1, 17, 33, 0, 0, OC_OFF1 } };
    static const float nan1[] = { NAN };
    if (i >= NELEM(T))
        return 0;
    const int *t = T[i];
    int64_t xl = t[0] ? t[1] : t[2], yl = t[0] ? t[2] : t[1];
    c->ta = t[0], c->m = t[1], c->n = t[2], c->n_in = 2;
    c->alpha = t[3] / 4.0f, c->beta = t[4] / 4.0f;
    arg_set(&c->in[0], F32, 2, SH(c->m, c->n), t[5], rnd_vec(g, c->m * c->n, 1, 0));
    arg_set(&c->in[1], F32, 1, SH(xl), t[5], rnd_vec(g, xl, 1, 0));
    arg_set(&c->out, F32, 1, SH(yl), t[5], t[4] ? rnd_vec(g, yl, 1, 0) : NULL);
    if (t[3] == 0) { /* alpha 0: a and x are not read, so their NaN stays out */
        sprinkle(g, c->in[0].vals, c->m * c->n, 3, nan1, 1);
        sprinkle(g, c->in[1].vals, xl, 2, nan1, 1);
    }
    LBL("%s %dx%d alpha %g beta %g%s %s", t[0] ? "T" : "N", t[1], t[2], (double)c->alpha,
        (double)c->beta, t[3] ? "" : " NaN inputs", oc_layout_name(t[5]));
    return 1;
}

static int b_gemm(oc_case *c, int i, uint64_t *g)
{
    static const int T[][8] = { /* trans_a, trans_b, m, n, k, alpha*4, beta*4, layout */
        { 0, 0, 7, 5, 33, 4, 0, OC_STRIDED }, { 1, 0, 7, 5, 33, 2, -6, OC_OFF1 },
        { 0, 1, 33, 127, 7, -8, 1, OC_STRIDED }, { 1, 1, 33, 127, 7, 4, 0, OC_DENSE },
        { 0, 0, 1, 1, 1, 4, 4, OC_OFF1 }, { 1, 1, 127, 33, 257, 6, 0, OC_STRIDED },
        { 0, 1, 257, 1, 127, 4, 2, OC_OFF1 }, { 1, 0, 33, 7, 0, 4, -2, OC_DENSE },
        { 0, 0, 33, 7, 0, 4, 0, OC_DENSE }, { 1, 0, 1000, 65, 33, -4, 0, OC_OFF1 },
        { 0, 0, 33, 17, 7, 0, 6, OC_STRIDED }, { 0, 1, 7, 33, 17, 0, 0, OC_DENSE } };
    static const float nan1[] = { NAN };
    if (i >= NELEM(T))
        return 0;
    const int *t = T[i];
    int64_t m = t[2], n = t[3], k = t[4];
    c->ta = t[0], c->tb = t[1], c->m = m, c->n = n, c->k = k, c->n_in = 2;
    c->alpha = t[5] / 4.0f, c->beta = t[6] / 4.0f;
    arg_set(&c->in[0], F32, 2, t[0] ? SH(k, m) : SH(m, k), t[7], rnd_vec(g, m * k, 1, 0));
    arg_set(&c->in[1], F32, 2, t[1] ? SH(n, k) : SH(k, n), t[7], rnd_vec(g, k * n, 1, 0));
    arg_set(&c->out, F32, 2, SH(m, n), t[7], t[6] ? rnd_vec(g, m * n, 1, 0) : NULL);
    if (t[5] == 0) { /* alpha 0: a and b are not read, so their NaN stays out */
        sprinkle(g, c->in[0].vals, m * k, 3, nan1, 1);
        sprinkle(g, c->in[1].vals, k * n, 2, nan1, 1);
    }
    LBL("%s%s %dx%dx%d alpha %g beta %g%s %s", t[0] ? "T" : "N", t[1] ? "T" : "N", t[2], t[4],
        t[3], (double)c->alpha, (double)c->beta, t[5] ? "" : " NaN inputs",
        oc_layout_name(t[7]));
    return 1;
}

int oc_build(gpuk_op op, int idx, uint64_t seed, oc_case *c)
{
    uint64_t g = seed ^ ((uint64_t)op << 48) ^ ((uint64_t)idx << 32);
    rng_next(&g);
    memset(c, 0, sizeof *c);
    c->op = op;
    c->exact = gpuk_op_exact(op) == 1;   /* the catalogue's column, never a list here */
    c->out.alias = -1;
    /* no default: a new op without a builder is a -Wswitch warning */
    switch (op) {
    case GPUK_OP_MATMUL: return b_matmul(c, idx, &g);
    case GPUK_OP_BATCHED_MATMUL: return b_batched(c, idx, &g);
    case GPUK_OP_MINPLUS: return b_minplus(c, idx, &g);
    case GPUK_OP_TRANSPOSE: return b_transpose(c, idx, &g);
    case GPUK_OP_REDUCE: return b_reduce(c, idx, &g);
    case GPUK_OP_ADD:
    case GPUK_OP_SCALE:
    case GPUK_OP_RELU:
    case GPUK_OP_COPY: return b_elementwise(c, idx, &g);
    case GPUK_OP_BIAS_RELU: return b_bias_relu(c, idx, &g);
    case GPUK_OP_SOFTMAX: return b_softmax(c, idx, &g);
    case GPUK_OP_EMBEDDING: return b_embedding(c, idx, &g);
    case GPUK_OP_MEANPOOL: return b_meanpool(c, idx, &g);
    case GPUK_OP_SPMV: return b_spmv(c, idx, &g);
    case GPUK_OP_DOT: return b_dot(c, idx, &g);
    case GPUK_OP_GEMV: return b_gemv(c, idx, &g);
    case GPUK_OP_GEMM: return b_gemm(c, idx, &g);
    }
    return 0;
}

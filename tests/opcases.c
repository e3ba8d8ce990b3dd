/*
 * opcases.c - the frame of the op suite's cases (see opcases.h): the
 * seed of each case, the helpers the builders use, and the case as the
 * reference takes it.  The builders themselves, one table of shapes per
 * op, are in the family files under tests/ops/ (their descriptors'
 * `cases`).  Sizes there are odd on purpose (1, 7, 33, 127, 257, 1000: no
 * multiple of any tile) and non-square; inner dimensions of 0 check the
 * empty-sum rules of gpuk.h.  Layouts rotate through dense, one element
 * off alignment, and row-strided views (the latter only for the operands
 * gpuk.h lets be strided).
 */
#include "opcases.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "optest.h"
#include "ref.h"

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

uint64_t oc_rng(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double oc_rnd(uint64_t *s)
{
    double m = 0x1p-10 + (1.0 - 0x1p-10) * (double)(oc_rng(s) >> 11) * 0x1p-53;
    return (oc_rng(s) & 1) ? -m : m;
}

float oc_rnd_f(uint64_t *s)
{
    return (float)oc_rnd(s);
}

void *oc_rnd_vec(uint64_t *s, gpuk_dtype dt, int64_t n, double scale, double shift)
{
    void *v = oc_alloc((size_t)n * gpuk_dtype_size(dt));
    ref_real sc = ref_round(dt, scale), sh = ref_round(dt, shift);
    for (int64_t i = 0; i < n; i++)
        ref_put(dt, v, i, ref_add1(dt, sh, ref_mul1(dt, sc, ref_round(dt, oc_rnd(s)))));
    return v;
}

void *oc_rnd_rep(uint64_t *s, gpuk_dtype dt, int64_t n, int64_t reps)
{
    size_t bytes = (size_t)n * gpuk_dtype_size(dt);
    char *v = oc_rnd_vec(s, dt, n * reps, 1.0, 0.0);
    for (int64_t r = 1; r < reps; r++)
        memcpy(v + (size_t)r * bytes, v, bytes);
    return v;
}

void oc_sprinkle(uint64_t *s, gpuk_dtype dt, void *v, int64_t n, int every, const double *sp,
                 int nsp)
{
    for (int64_t i = 0; i < n; i++)
        if (oc_rng(s) % (uint64_t)every == 0)
            ref_put(dt, v, i, sp[oc_rng(s) % (uint64_t)nsp]);
}

/* ---- tensors with guards ---- */

void oc_arg_span(oc_arg *t)
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
void oc_arg_set(oc_arg *t, gpuk_dtype dt, int ndim, const int64_t *shape, int layout,
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
    oc_arg_span(t);
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

gpuk_dtype oc_dtype(const oc_case *c)
{
    return c->n_in > 0 ? c->in[0].dtype : c->out.dtype;
}

static void ref_operand_of(const oc_arg *t, ref_operand *r)
{
    r->ndim = t->ndim;
    memcpy(r->shape, t->shape, sizeof r->shape);
    r->vals = t->vals;
    r->dtype = t->dtype;
}

/* The case as ref_op() takes it (ref.c hands it to the op's reference,
 * the one the fuzz harness uses too). */
void oc_ref(oc_case *c, int tf)
{
    ref_args a;
    int64_t n = c->out.numel;
    ref_real *r = oc_alloc((size_t)n * sizeof *r);
    double *b = oc_alloc((size_t)n * sizeof *b);
    memset(&a, 0, sizeof a);
    a.op = c->op;
    for (int i = 0; i < c->n_in; i++)
        ref_operand_of(&c->in[i], &a.in[i]);
    ref_operand_of(&c->out, &a.out);
    a.alpha = c->alpha, a.beta = c->beta;
    a.trans_a = c->ta, a.trans_b = c->tb, a.axis = c->axis, a.kind = c->kind;
    a.rows = c->rows, a.row_ptr = c->rp, a.col_idx = c->ci, a.values = c->cv;
    a.dtype = oc_dtype(c);
    ref_op(&a, tf ? GPUK_VARIANT_TF32 : 0, r, b);
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


const char *oc_shape_str(char *buf, int nd, const int64_t *sh)
{
    int o = 0;
    buf[0] = '\0';
    for (int d = 0; d < nd; d++)
        o += snprintf(buf + o, 48 - (size_t)o, d ? "x%lld" : "%lld", (long long)sh[d]);
    return buf;
}

void oc_in_place(oc_case *c, int j)
{
    c->out = c->in[j];
    c->out.alias = j;
}

int oc_build(gpuk_op op, gpuk_dtype dt, int idx, uint64_t seed, oc_case *c)
{
    /* the seed of a case mixes op, dtype and idx in, so a case does not
     * depend on the ones before it and GPUK_TEST_SEED replays any one of
     * them; f32 (dt - GPUK_F32 = 0) keeps the seeds it always had */
    uint64_t g = seed ^ ((uint64_t)op << 48) ^ ((uint64_t)(dt - GPUK_F32) << 40) ^
                 ((uint64_t)idx << 32);
    const optest *t = optest_of(op);
    memset(c, 0, sizeof *c);
    if (!t || !(t->dtypes & GPUK_DTYPE_BIT(dt)))
        return 0;
    oc_rng(&g);
    c->op = op;
    c->exact = gpuk_op_exact(op) == 1;   /* the catalogue's column, never a list here */
    c->out.alias = -1;
    return t->cases(c, idx, dt, &g);
}

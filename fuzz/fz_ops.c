/*
 * fz_ops.c - the VALID and MUTATE actions of the fuzz harness: build a
 * valid call of a random op from the input, run it (or a copy with one
 * fault), and check it (see fuzz_api.c).  What is peculiar to each op (its
 * shapes, its enums, its indices) is in its descriptor, in the op's
 * family file under tests/ops/ (tests/optest.h); this file is the frame,
 * and the helpers those builders share.
 *
 * The input bytes decode as they did when the builders were a switch
 * here: each builder reads the same bytes in the same order, so the
 * inputs of fuzz/corpus still mean the same calls.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/opcall.h"
#include "../tests/optest.h"
#include "../tests/ref.h"
#include "fz.h"

/* The call through the shared opcall (tests/opcall.h), with handles h
 * (in[0..2], out), matrix m and the scalars given (a mutation may have
 * changed any of them). */
static gpuk_status issue(const fz_call *c, gpuk_context *x, gpuk_tensor *const *h,
                         const gpuk_csr *m, const char *v, int kind, int axis, int ta, int tb)
{
    opcall_args a;
    opcall_init(&a, c->op);
    for (int i = 0; i < 3; i++)
        a.in[i] = h[i];
    a.out = h[3];
    a.csr = m;
    a.alpha = c->alpha, a.beta = c->beta;
    a.kind = kind, a.axis = axis, a.trans_a = ta, a.trans_b = tb;
    return opcall(x, &a, v);
}

/* ---- helpers of the shape builders (fz.h) ---- */

int fz_lay_matrix(fz *f)
{
    return (int)fz_pick(f, 3);   /* dense, one off, row-padded */
}

int fz_lay_dense(fz *f)
{
    return (int)fz_pick(f, 2);   /* dense, one off */
}

void fz_shape_nd(fz *f, int nd, int64_t *s)
{
    for (int i = 0; i < nd; i++)
        s[i] = fz_small(f);
}

void fz_opnd_fill(fz *f, opnd *o, int nan_fill)
{
    for (int64_t i = 0; i < o->numel; i++) {
        ref_put(o->dt, o->vals, i, nan_fill ? NAN : fz_value(f, o->dt, 0));
        memcpy(o->img + fz_pos(o, i) * o->es, (char *)o->vals + i * o->es, o->es);
    }
    gpuk_tensor_write(fz_ctx, o->st, o->img, (size_t)o->n_store * o->es);
}

int fz_x_in(fz *f, fz_call *c, unsigned special, int *nd, int64_t *s)
{
    *nd = 1 + (int)fz_pick(f, 4);
    fz_shape_nd(f, *nd, s);
    int r = fz_opnd(f, &c->in[0], c->dt, *nd, s, fz_lay_dense(f), special, 0);
    c->n_in = 1;
    c->name[0] = "x", c->name[3] = "out";
    return r;
}

int fz_out_of_x(fz *f, fz_call *c, int nd, const int64_t *s, unsigned inplace_choices)
{
    c->inplace = (int)fz_pick(f, 3) == 0 ? 1 + (int)fz_pick(f, inplace_choices) : 0;
    if (c->inplace) {
        c->out = c->in[c->inplace - 1];
        return 0;
    }
    return fz_opnd(f, &c->out, c->dt, nd, s, fz_lay_dense(f), 0, 0);
}

/* Does the backend have rows of op in dt? */
static int has_rows(gpuk_op op, gpuk_dtype dt)
{
    size_t n = 0;
    return gpuk_variant_count_dtype(fz_ctx, op, dt, &n) == GPUK_OK && n > 0;
}

/* Build a valid call of a random op: the op, its dtype and the rate of
 * specials here, the rest by the op's descriptor (tests/ops/).  0 on
 * success.  The dtype is one bit of the value stream, read without
 * moving it on, not an input byte (as min-plus's update, tests/ops/
 * minplus.c): every corpus input still decodes to the shapes, layouts and
 * scalars it did; about half the calls of an op the backend computes in
 * f64 too are f64. */
static int build(fz *f, fz_call *c)
{
    memset(c, 0, sizeof *c);
    c->op = (gpuk_op)(GPUK_OP_FIRST + (int)fz_pick(f, GPUK_OP_LAST - GPUK_OP_FIRST + 1));
    unsigned sp = fz_pick(f, 4) == 0 ? 6 : 0;   /* specials in one call of four */
    c->alpha = 1.0;
    c->dt = (f->rng >> 43) & 1 && (optest_of(c->op)->dtypes & GPUK_DTYPE_BIT(GPUK_F64)) &&
                    has_rows(c->op, GPUK_F64)
                ? GPUK_F64 : GPUK_F32;
    return optest_of(c->op)->fuzz(f, c, sp);
}

/* The reference of a valid call, ref and bound per output element, by
 * ref_op() of tests/ref.c (the op's descriptor has it), for a rung with
 * these flags. */
static void reference(const fz_call *c, uint32_t flags, ref_real *ref, double *bd)
{
    ref_args a;
    memset(&a, 0, sizeof a);
    a.op = c->op;
    for (int i = 0; i < c->n_in; i++) {
        a.in[i].ndim = c->in[i].nd;
        memcpy(a.in[i].shape, c->in[i].shape, sizeof a.in[i].shape);
        a.in[i].vals = c->in[i].vals;
        a.in[i].dtype = c->in[i].dt;
    }
    a.out.ndim = c->out.nd;
    memcpy(a.out.shape, c->out.shape, sizeof a.out.shape);
    a.out.vals = c->out.vals;
    a.out.dtype = c->out.dt;
    a.alpha = c->alpha, a.beta = c->beta;
    a.trans_a = c->ta, a.trans_b = c->tb, a.axis = c->axis, a.kind = c->kind;
    a.rows = c->rows, a.row_ptr = c->rp, a.col_idx = c->ci, a.values = c->cv;
    a.dtype = c->dt;
    ref_op(&a, flags, ref, bd);
}

static void handles(const fz_call *c, gpuk_tensor **h)
{
    for (int i = 0; i < 3; i++)
        h[i] = i < c->n_in ? c->in[i].v : NULL;
    h[3] = c->out.v;
}

/* Every storage of the call unchanged, except the output view (whose
 * elements land in got when got is not NULL). */
static int check_storages(fz *f, const fz_call *c, const opnd *out, void *got)
{
    int bad = 0;
    for (int i = 0; i < c->n_in && !bad; i++) {
        if (i > 0 && c->in[i].st == c->in[0].st)
            continue;   /* a and b one tensor */
        bad = fz_opnd_check(f, &c->in[i], out, got, c->name[i]);
    }
    if (!bad && !c->inplace)
        bad = fz_opnd_check(f, &c->out, out, got, c->name[3]);
    return bad;
}

/* GPUK_FUZZ_KNOWN="op/variant,...": rungs with a reported, unfixed bug
 * whose values are not compared with the reference (statuses, messages and
 * writes outside the output still are), so a long run can look past them.
 * CI's smoke run leaves it unset. */
static int known_issue(gpuk_op op, const char *variant)
{
    const char *k = getenv("GPUK_FUZZ_KNOWN");
    char want[96];
    if (!k || !*k)
        return 0;
    snprintf(want, sizeof want, "%s/%s", gpuk_op_name(op), variant);
    size_t n = strlen(want);
    for (const char *p = k; (p = strstr(p, want)) != NULL; p += n)
        if ((p == k || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
            return 1;
    return 0;
}

static int run_valid(fz *f, fz_call *c)
{
    size_t nv = 0;
    gpuk_variant_count_dtype(fz_ctx, c->op, c->dt, &nv);
    unsigned vi = fz_pick(f, (unsigned)nv + 2);
    gpuk_variant_info info = { .name = "auto", .summary = "" };
    const char *variant = vi == nv ? NULL : "auto";
    if (vi < nv) {
        gpuk_variant_get_dtype(fz_ctx, c->op, c->dt, vi, &info);
        variant = info.name;
    } else {
        /* the default: find its flags for u */
        for (size_t i = 0; i < nv; i++) {
            gpuk_variant_get_dtype(fz_ctx, c->op, c->dt, i, &info);
            if (info.flags & GPUK_VARIANT_DEFAULT)
                break;
        }
    }
    gpuk_tensor *h[4];
    handles(c, h);
    gpuk_status st = issue(c, fz_ctx, h, c->csr, variant, c->kind, c->axis, c->ta, c->tb);
    const char *op = gpuk_op_name(c->op);
    if (st != GPUK_OK)
        return fz_fail(f, "%s/%s (%s): a valid call failed: %s", op,
                       variant ? variant : "(default)", gpuk_dtype_name(c->dt),
                       gpuk_context_error(fz_ctx));
    int64_t n = c->out.numel;
    void *got = malloc((size_t)(n ? n : 1) * c->out.es);
    ref_real *ref = malloc((size_t)(n ? n : 1) * sizeof *ref);
    double *bd = malloc((size_t)(n ? n : 1) * sizeof *bd);
    /* bit for bit where the catalogue of gpuk.h says every rung agrees */
    int bad = check_storages(f, c, &c->out, got), exact = gpuk_op_exact(c->op) == 1;
    if (!bad && n > 0 && !known_issue(c->op, info.name)) {
        reference(c, info.flags, ref, bd);
        ref_cmp res;
        ref_compare(c->out.dt, n, got, ref, bd, exact, &res);
        if (res.bad) {
            int64_t i = res.first_bad;
            bad = fz_fail(f, "%s/%s (%s): out[%lld] = %.17Lg, reference %.17Lg (bound %.3g, %s); "
                          "%lld of %lld elements off; alpha %.17g, beta %.17g, trans %d %d", op,
                          info.name, gpuk_dtype_name(c->dt), (long long)i,
                          ref_get(c->out.dt, got, i), ref[i], bd[i],
                          exact ? "exact" : "within bound", (long long)res.bad, (long long)n,
                          c->alpha, c->beta, c->ta, c->tb);
        }
    }
    free(got);
    free(ref);
    free(bd);
    return bad;
}

enum { MU_CTX, MU_NULL, MU_DEAD, MU_NEVER, MU_OTHER, MU_DTYPE, MU_VARIANT, MU_ENUM, MU_INDEX,
       MU_COUNT };

/* A dtype of gpuk.h's list other than dt, from bits of the value stream
 * (read without moving it on, so the input bytes still mean what they
 * did): every mismatch of dtypes gets tried, not only f32 against i32. */
static gpuk_dtype other_dtype(const fz *f, gpuk_dtype dt)
{
    static const gpuk_dtype all[] = {
#define FZ_DT_(id, value, name, bytes, dlcode, prec) GPUK_##id,
        GPUK_DTYPE_MAP(FZ_DT_)
#undef FZ_DT_
    };
    int n = (int)(sizeof all / sizeof all[0]);
    int k = (int)((f->rng >> 45) % (uint64_t)(n - 1)), i = 0;
    for (; i < n; i++)
        if (all[i] != dt && k-- == 0)
            break;
    return all[i];
}

static int run_mutated(fz *f, fz_call *c)
{
    const optest *t = optest_of(c->op);
    gpuk_tensor *h[4], *repl = NULL;
    handles(c, h);
    int slots[4], ns = 0;
    for (int i = 0; i < c->n_in; i++)
        slots[ns++] = i;
    slots[ns++] = 3;
    int mu = (int)fz_pick(f, MU_COUNT), which = slots[fz_pick(f, (unsigned)ns)];
    const gpuk_csr *m = c->csr;
    const char *variant = NULL, *blame = c->name[which];
    int kind = c->kind, axis = c->axis, ta = c->ta, tb = c->tb, lead_taken = 0;
    gpuk_status want;
    gpuk_context *x = fz_ctx;
    const opnd *o = which == 3 ? &c->out : &c->in[which];
    gpuk_dtype odt = other_dtype(f, o->dt);
    char vname[16];
    switch (mu) {
    case MU_CTX: x = NULL, want = GPUK_ERR_NULL, blame = NULL; break;
    case MU_NULL:
        /* an op with a CSR argument: that or a tensor; an optional input
         * (the spec's index is the same slot of h) may be NULL */
        if (t->spec.csr && fz_pick(f, 2))
            m = NULL, blame = t->spec.csr;
        else
            h[which] = NULL;
        want = which == t->spec.optional ? GPUK_OK : GPUK_ERR_NULL;
        break;
    case MU_DEAD:
        if (gpuk_tensor_create(fz_ctx, o->dt, o->nd, o->shape, &repl) != GPUK_OK)
            return fz_fail(f, "setup: %s", gpuk_context_error(fz_ctx));
        gpuk_tensor_destroy(fz_ctx, repl);
        h[which] = repl;
        want = GPUK_ERR_HANDLE;
        break;
    case MU_NEVER:
        h[which] = (gpuk_tensor *)((uintptr_t)h[which] + (1ull << 36));
        want = GPUK_ERR_HANDLE;
        break;
    case MU_OTHER:
    case MU_DTYPE:
        if (gpuk_tensor_create(mu == MU_OTHER ? fz_other : fz_ctx, mu == MU_OTHER ? o->dt : odt,
                               o->nd, o->shape, &repl) != GPUK_OK)
            return fz_fail(f, "setup: %s", gpuk_context_error(fz_ctx));
        fz_track(f, mu == MU_OTHER ? fz_other : fz_ctx, repl);
        {   /* defined contents: cast takes an input of another float dtype
             * and reads it (valgrind: a use of uninitialised memory) */
            gpuk_context *rx = mu == MU_OTHER ? fz_other : fz_ctx;
            gpuk_tensor_info ri;
            gpuk_tensor_get_info(rx, repl, &ri);
            void *zeros = calloc(ri.bytes ? ri.bytes : 1, 1);
            if (!zeros || gpuk_tensor_write(rx, repl, zeros, ri.bytes) != GPUK_OK) {
                free(zeros);
                return fz_fail(f, "setup: writing the replacement: %s", gpuk_context_error(rx));
            }
            free(zeros);
        }
        h[which] = repl;
        want = mu == MU_OTHER ? GPUK_ERR_CONTEXT : GPUK_ERR_DTYPE;
        /* an op whose operands may be of any float dtypes (cast) takes it */
        if (mu == MU_DTYPE && t->spec.mixed && gpuk_dtype_precision(odt) > 0)
            want = GPUK_OK;
        /* the op's dtype is the lead's: where the op computes in odt too
         * (i32 min-plus, f64), any other operand of the old dtype, or the
         * CSR matrix (spmv), disagrees; which the core names first is not
         * promised (doc/design.md, Validation) */
        lead_taken = mu == MU_DTYPE && which == 0 && has_rows(c->op, odt);
        break;
    case MU_VARIANT:
        snprintf(vname, sizeof vname, "v%u_%u", fz_u8(f), fz_u8(f));
        variant = vname;
        want = GPUK_ERR_VARIANT;
        blame = vname;
        break;
    case MU_ENUM: {
        /* the op's own: nothing read and nothing to check when it has none */
        fz_enums e = { kind, axis, ta, tb, NULL };
        if (!t->fuzz_enum || !t->fuzz_enum(f, c, &e))
            return 0;
        kind = e.kind, axis = e.axis, ta = e.ta, tb = e.tb, blame = e.blame;
        want = GPUK_ERR_INVALID;
        break;
    }
    default: /* MU_INDEX: the op's own, as for MU_ENUM */
        if (!t->fuzz_index || !t->fuzz_index(f, c, &blame))
            return 0;
        want = GPUK_ERR_INDEX;
        break;
    }
    gpuk_status st = issue(c, x, h, m, variant, kind, axis, ta, tb);
    const char *msg = gpuk_context_error(fz_ctx);
    const char *op = gpuk_op_name(c->op);
    if (st != want)
        return fz_fail(f, "%s: mutation %d on %s: status %d (%s), want %d (%s); message: %s", op,
                       mu, c->name[which], (int)st, gpuk_strerror(st), (int)want,
                       gpuk_strerror(want), msg);
    if (want == GPUK_OK)
        return 0;
    if (lead_taken) {
        int named = t->spec.csr && fz_names(msg, t->spec.csr);
        for (int j = 1; j <= c->n_in; j++) {
            const opnd *q = j < c->n_in ? &c->in[j] : &c->out;
            named |= q->dt == o->dt && fz_names(msg, c->name[j < c->n_in ? j : 3]);
        }
        if (!named)
            return fz_fail(f, "%s: a lead of dtype %s: the message names none of the operands "
                           "of dtype %s: %s", op, gpuk_dtype_name(odt), gpuk_dtype_name(o->dt),
                           msg);
    } else if (blame && !fz_names(msg, blame)) {
        return fz_fail(f, "%s: mutation %d: the message does not name '%s': %s", op, mu, blame,
                       msg);
    }
    return check_storages(f, c, NULL, NULL);
}

int fz_op(fz *f, int mutate)
{
    fz_call c;
    int bad = build(f, &c);
    if (!bad)
        bad = mutate ? run_mutated(f, &c) : run_valid(f, &c);
    /* last first: a copy (a and b one tensor) must meet its original unfreed */
    for (int i = c.n_in - 1; i >= 0; i--)
        if (i == 0 || c.in[i].img != c.in[0].img)
            fz_opnd_free(&c.in[i]);
    if (!c.inplace)
        fz_opnd_free(&c.out);
    gpuk_csr_destroy(fz_ctx, c.csr);
    free(c.rp);
    free(c.ci);
    free(c.cv);
    return bad;
}

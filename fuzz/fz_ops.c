/*
 * fz_ops.c - the VALID and MUTATE actions of the fuzz harness: build a
 * valid call of a random op from the input, run it (or a copy with one
 * fault), and check it (see fuzz_api.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/opcall.h"
#include "../tests/ref.h"
#include "fz.h"

typedef struct call {
    gpuk_op op;
    int n_in;
    opnd in[3], out;
    const char *name[4];      /* in[0..2], out */
    int inplace;              /* out is in[inplace - 1]; 0: its own */
    gpuk_csr *csr;
    float alpha, beta;
    int ta, tb, kind, axis;
    /* SpMV's matrix, for the reference */
    int64_t rows, cols;
    int32_t *rp, *ci;
    float *cv;
} call;

/* The call through the shared opcall (tests/opcall.h), with handles h
 * (in[0..2], out), matrix m and the scalars given (a mutation may have
 * changed any of them). */
static gpuk_status issue(const call *c, gpuk_context *x, gpuk_tensor *const *h, const gpuk_csr *m,
                         const char *v, int kind, int axis, int ta, int tb)
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

/* Layouts an operand may take: matrix operands any, the rest contiguous. */
static int lay_matrix(fz *f)
{
    return (int)fz_pick(f, 3);   /* dense, one off, row-padded */
}
static int lay_dense(fz *f)
{
    return (int)fz_pick(f, 2);   /* dense, one off */
}

static void shape_nd(fz *f, int nd, int64_t *s)
{
    for (int i = 0; i < nd; i++)
        s[i] = fz_small(f);
}

/* Set every element of o's view to v (outputs read when beta != 0, or a
 * NaN that must not be read when beta == 0). */
static void opnd_fill(fz *f, opnd *o, int nan_fill)
{
    for (int64_t i = 0; i < o->numel; i++) {
        float v = nan_fill ? NAN : fz_val(f, 0);
        o->vals[i] = v;
        memcpy(&o->img[fz_pos(o, i)], &v, 4);
    }
    gpuk_tensor_write(fz_ctx, o->st, o->img, (size_t)o->n_store * 4);
}

/* Build a valid call of a random op.  0 on success. */
static int build(fz *f, call *c)
{
    memset(c, 0, sizeof *c);
    c->op = (gpuk_op)(GPUK_OP_FIRST + (int)fz_pick(f, GPUK_OP_LAST - GPUK_OP_FIRST + 1));
    unsigned sp = fz_pick(f, 4) == 0 ? 6 : 0;   /* specials in one call of four */
    int64_t s[4], m, k, n;
    int nd, r = 0;
    const gpuk_dtype F = GPUK_F32;
    c->alpha = 1.0f;
    switch (c->op) {
    case GPUK_OP_MATMUL:
    case GPUK_OP_MINPLUS: {
        int mp = c->op == GPUK_OP_MINPLUS;
        m = fz_dim(f), k = fz_dim(f), n = fz_dim(f);
        r |= fz_opnd(f, &c->in[0], F, 2, (int64_t[]){ m, k }, mp ? lay_dense(f) : lay_matrix(f), sp, 0);
        if (mp && m == k && k == n && fz_pick(f, 2))
            c->in[1] = c->in[0];   /* r = d (x) d */
        else
            r |= fz_opnd(f, &c->in[1], F, 2, (int64_t[]){ k, n }, mp ? lay_dense(f) : lay_matrix(f), sp, 0);
        c->n_in = 2;
        if (!mp && fz_pick(f, 2)) {
            r |= fz_opnd(f, &c->in[2], F, 1, &n, lay_dense(f), sp, 0);
            c->n_in = 3;
        }
        r |= fz_opnd(f, &c->out, F, 2, (int64_t[]){ m, n }, mp ? lay_dense(f) : lay_matrix(f), 0, 0);
        c->name[0] = "a", c->name[1] = "b", c->name[2] = "bias", c->name[3] = mp ? "r" : "c";
        break;
    }
    case GPUK_OP_BATCHED_MATMUL: {
        int64_t bc = fz_small(f), ba = fz_pick(f, 2) ? bc : 1, bb = fz_pick(f, 2) ? bc : 1;
        m = fz_dim(f), k = fz_dim(f), n = fz_dim(f);
        /* a batch of 1 broadcasts; so does a full batch with stride 0 */
        int la = ba == 1 && bc > 1 && fz_pick(f, 2) ? L_BCAST : lay_matrix(f);
        int lb = bb == 1 && bc > 1 && fz_pick(f, 2) ? L_BCAST : lay_matrix(f);
        r |= fz_opnd(f, &c->in[0], F, 3, (int64_t[]){ la == L_BCAST ? bc : ba, m, k }, la, sp, 0);
        r |= fz_opnd(f, &c->in[1], F, 3, (int64_t[]){ lb == L_BCAST ? bc : bb, k, n }, lb, sp, 0);
        r |= fz_opnd(f, &c->out, F, 3, (int64_t[]){ bc, m, n }, lay_matrix(f), 0, 0);
        c->n_in = 2;
        c->name[0] = "a", c->name[1] = "b", c->name[3] = "c";
        break;
    }
    case GPUK_OP_TRANSPOSE:
        m = fz_dim(f), n = fz_dim(f);
        r |= fz_opnd(f, &c->in[0], F, 2, (int64_t[]){ m, n }, lay_matrix(f), sp, 0);
        r |= fz_opnd(f, &c->out, F, 2, (int64_t[]){ n, m }, lay_matrix(f), 0, 0);
        c->n_in = 1;
        c->name[0] = "x", c->name[3] = "y";
        break;
    case GPUK_OP_REDUCE: {
        nd = 1 + (int)fz_pick(f, 4);
        shape_nd(f, nd, s);
        c->axis = (int)fz_pick(f, (unsigned)nd);
        c->kind = (int)fz_pick(f, 2);
        int64_t os[4];
        int on = 0;
        for (int i = 0; i < nd; i++)
            if (i != c->axis)
                os[on++] = s[i];
        if (nd == 1)
            os[on++] = 1;
        r |= fz_opnd(f, &c->in[0], F, nd, s, lay_dense(f), sp, 0);
        r |= fz_opnd(f, &c->out, F, on, os, lay_dense(f), 0, 0);
        c->n_in = 1;
        c->name[0] = "x", c->name[3] = "out";
        break;
    }
    case GPUK_OP_ADD: case GPUK_OP_SCALE: case GPUK_OP_RELU: case GPUK_OP_COPY:
    case GPUK_OP_SOFTMAX: case GPUK_OP_BIAS_RELU:
        nd = 1 + (int)fz_pick(f, 4);
        shape_nd(f, nd, s);
        r |= fz_opnd(f, &c->in[0], F, nd, s, lay_dense(f), sp, 0);
        c->n_in = 1;
        c->name[0] = "x", c->name[3] = "out";
        if (c->op == GPUK_OP_ADD) {
            r |= fz_opnd(f, &c->in[1], F, nd, s, lay_dense(f), sp, 0);
            c->n_in = 2;
            c->name[1] = "y";
        } else if (c->op == GPUK_OP_BIAS_RELU) {
            r |= fz_opnd(f, &c->in[1], F, 1, &s[nd - 1], lay_dense(f), sp, 0);
            c->n_in = 2;
            c->name[1] = "bias";
        } else if (c->op == GPUK_OP_SCALE) {
            c->alpha = fz_val(f, sp);
        }
        c->inplace = (int)fz_pick(f, 3) == 0 ? 1 + (int)fz_pick(f, c->op == GPUK_OP_ADD ? 2 : 1) : 0;
        if (c->inplace)
            c->out = c->in[c->inplace - 1];
        else
            r |= fz_opnd(f, &c->out, F, nd, s, lay_dense(f), 0, 0);
        break;
    case GPUK_OP_EMBEDDING: {
        int64_t V = fz_dim(f), d = fz_dim(f);
        V = V ? V : 1;
        nd = 1 + (int)fz_pick(f, 3);
        shape_nd(f, nd, s);
        r |= fz_opnd(f, &c->in[0], F, 2, (int64_t[]){ V, d }, lay_dense(f), sp, 0);
        r |= fz_opnd(f, &c->in[1], GPUK_I32, nd, s, lay_dense(f), 0, (int32_t)V);
        s[nd] = d;
        r |= fz_opnd(f, &c->out, F, nd + 1, s, lay_dense(f), 0, 0);
        c->n_in = 2;
        c->name[0] = "table", c->name[1] = "ids", c->name[3] = "out";
        break;
    }
    case GPUK_OP_MEANPOOL: {
        nd = 2 + (int)fz_pick(f, 3);
        shape_nd(f, nd, s);
        int64_t os[3];
        for (int i = 0, j = 0; i < nd; i++)
            if (i != nd - 2)
                os[j++] = s[i];
        r |= fz_opnd(f, &c->in[0], F, nd, s, lay_dense(f), sp, 0);
        r |= fz_opnd(f, &c->out, F, nd - 1, os, lay_dense(f), 0, 0);
        c->n_in = 1;
        c->name[0] = "x", c->name[3] = "out";
        break;
    }
    case GPUK_OP_SPMV: {
        c->rows = fz_dim(f), c->cols = fz_dim(f);
        unsigned dens = 1 + fz_pick(f, 4);
        c->rp = malloc((size_t)(c->rows + 1) * 4);
        c->ci = malloc((size_t)(c->rows * c->cols + 1) * 4);
        c->cv = malloc((size_t)(c->rows * c->cols + 1) * 4);
        int32_t nnz = 0;
        c->rp[0] = 0;
        for (int64_t i = 0; i < c->rows; i++) {
            for (int64_t j = 0; j < c->cols; j++)
                if (fz_rnext(f) % 5 < dens) {
                    c->ci[nnz] = (int32_t)j;
                    c->cv[nnz++] = fz_val(f, sp);
                }
            c->rp[i + 1] = nnz;
        }
        if (gpuk_csr_create(fz_ctx, c->rows, c->cols, nnz, c->rp, c->ci, c->cv, &c->csr) != GPUK_OK)
            return fz_fail(f, "a valid %lldx%lld CSR with %d entries was rejected: %s",
                           (long long)c->rows, (long long)c->cols, nnz, gpuk_context_error(fz_ctx));
        r |= fz_opnd(f, &c->in[0], F, 1, &c->cols, lay_dense(f), sp, 0);
        r |= fz_opnd(f, &c->out, F, 1, &c->rows, lay_dense(f), 0, 0);
        c->n_in = 1;
        c->name[0] = "x", c->name[3] = "y";
        break;
    }
    case GPUK_OP_DOT:
        n = fz_dim(f) * (1 + (int64_t)fz_pick(f, 3));
        r |= fz_opnd(f, &c->in[0], F, 1, &n, lay_dense(f), sp, 0);
        r |= fz_opnd(f, &c->in[1], F, 1, &n, lay_dense(f), sp, 0);
        r |= fz_opnd(f, &c->out, F, 1, (int64_t[]){ 1 }, lay_dense(f), 0, 0);
        c->n_in = 2;
        c->name[0] = "x", c->name[1] = "y", c->name[3] = "out";
        break;
    case GPUK_OP_GEMV:
        c->ta = (int)fz_pick(f, 2);
        m = fz_dim(f), n = fz_dim(f);
        r |= fz_opnd(f, &c->in[0], F, 2, (int64_t[]){ m, n }, lay_matrix(f), sp, 0);
        r |= fz_opnd(f, &c->in[1], F, 1, c->ta ? &m : &n, lay_dense(f), sp, 0);
        r |= fz_opnd(f, &c->out, F, 1, c->ta ? &n : &m, lay_dense(f), 0, 0);
        c->n_in = 2;
        c->name[0] = "a", c->name[1] = "x", c->name[3] = "y";
        break;
    case GPUK_OP_GEMM:
        c->ta = (int)fz_pick(f, 2), c->tb = (int)fz_pick(f, 2);
        m = fz_dim(f), n = fz_dim(f), k = fz_dim(f);
        r |= fz_opnd(f, &c->in[0], F, 2, c->ta ? (int64_t[]){ k, m } : (int64_t[]){ m, k },
                     lay_matrix(f), sp, 0);
        r |= fz_opnd(f, &c->in[1], F, 2, c->tb ? (int64_t[]){ n, k } : (int64_t[]){ k, n },
                     lay_matrix(f), sp, 0);
        r |= fz_opnd(f, &c->out, F, 2, (int64_t[]){ m, n }, lay_matrix(f), 0, 0);
        c->n_in = 2;
        c->name[0] = "a", c->name[1] = "b", c->name[3] = "c";
        break;
    }
    if (!r && (c->op == GPUK_OP_GEMV || c->op == GPUK_OP_GEMM)) {
        /* finite alpha and beta only: with an infinite alpha, whether a
         * result is inf or NaN hangs on whether a rounded sum came out 0
         * (inf * 0), which differs between correct rungs; gpuk.h does not
         * pin it down (see fuzz/README).  The slot actions still pass
         * NaN and inf scalars, without an oracle. */
        c->alpha = fz_val(f, 0);
        c->beta = fz_pick(f, 2) ? 0.0f : fz_val(f, 0);
        opnd_fill(f, &c->out, c->beta == 0.0f);
    }
    return r;
}

/* The reference of a valid call, ref and bound per output element,
 * through the one op -> reference switch of tests/ref.c. */
static void reference(const call *c, double u, double *ref, double *bd)
{
    ref_args a;
    memset(&a, 0, sizeof a);
    a.op = c->op;
    for (int i = 0; i < c->n_in; i++) {
        a.in[i].ndim = c->in[i].nd;
        memcpy(a.in[i].shape, c->in[i].shape, sizeof a.in[i].shape);
        a.in[i].vals = c->in[i].vals;
    }
    a.out.ndim = c->out.nd;
    memcpy(a.out.shape, c->out.shape, sizeof a.out.shape);
    a.out.vals = c->out.vals;
    a.alpha = c->alpha, a.beta = c->beta;
    a.trans_a = c->ta, a.trans_b = c->tb, a.axis = c->axis, a.kind = c->kind;
    a.rows = c->rows, a.row_ptr = c->rp, a.col_idx = c->ci, a.values = c->cv;
    ref_op(&a, u, ref, bd);
}

static void handles(const call *c, gpuk_tensor **h)
{
    for (int i = 0; i < 3; i++)
        h[i] = i < c->n_in ? c->in[i].v : NULL;
    h[3] = c->out.v;
}

/* Every storage of the call unchanged, except the output view (whose
 * elements land in got when got is not NULL). */
static int check_storages(fz *f, const call *c, const opnd *out, float *got)
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

static int run_valid(fz *f, call *c)
{
    size_t nv = 0;
    gpuk_variant_count(fz_ctx, c->op, &nv);
    unsigned vi = fz_pick(f, (unsigned)nv + 2);
    gpuk_variant_info info = { .name = "auto", .summary = "" };
    const char *variant = vi == nv ? NULL : "auto";
    if (vi < nv) {
        gpuk_variant_get(fz_ctx, c->op, vi, &info);
        variant = info.name;
    } else {
        /* the default: find its flags for u */
        for (size_t i = 0; i < nv; i++) {
            gpuk_variant_get(fz_ctx, c->op, i, &info);
            if (info.flags & GPUK_VARIANT_DEFAULT)
                break;
        }
    }
    gpuk_tensor *h[4];
    handles(c, h);
    gpuk_status st = issue(c, fz_ctx, h, c->csr, variant, c->kind, c->axis, c->ta, c->tb);
    const char *op = gpuk_op_name(c->op);
    if (st != GPUK_OK)
        return fz_fail(f, "%s/%s: a valid call failed: %s", op, variant ? variant : "(default)",
                       gpuk_context_error(fz_ctx));
    int64_t n = c->out.numel;
    float *got = malloc((size_t)(n ? n : 1) * 4);
    double *ref = malloc((size_t)(n ? n : 1) * 8), *bd = malloc((size_t)(n ? n : 1) * 8);
    /* bit for bit where the catalogue of gpuk.h says every rung agrees */
    int bad = check_storages(f, c, &c->out, got), exact = gpuk_op_exact(c->op) == 1;
    if (!bad && n > 0 && !known_issue(c->op, info.name)) {
        reference(c, ref_unit_roundoff(info.flags), ref, bd);
        ref_cmp res;
        ref_compare(n, got, ref, bd, exact, &res);
        if (res.bad) {
            int64_t i = res.first_bad;
            bad = fz_fail(f, "%s/%s: out[%lld] = %.9g, reference %.9g (bound %.3g, %s); %lld of "
                          "%lld elements off; alpha %g, beta %g, trans %d %d", op, info.name,
                          (long long)i, got[i], ref[i], bd[i], exact ? "exact" : "within bound",
                          (long long)res.bad, (long long)n, c->alpha, c->beta, c->ta, c->tb);
        }
    }
    free(got);
    free(ref);
    free(bd);
    return bad;
}

enum { MU_CTX, MU_NULL, MU_DEAD, MU_NEVER, MU_OTHER, MU_DTYPE, MU_VARIANT, MU_ENUM, MU_INDEX,
       MU_COUNT };

static int run_mutated(fz *f, call *c)
{
    gpuk_tensor *h[4], *repl = NULL;
    handles(c, h);
    int slots[4], ns = 0;
    for (int i = 0; i < c->n_in; i++)
        slots[ns++] = i;
    slots[ns++] = 3;
    int mu = (int)fz_pick(f, MU_COUNT), which = slots[fz_pick(f, (unsigned)ns)];
    const gpuk_csr *m = c->csr;
    const char *variant = NULL, *blame = c->name[which];
    int kind = c->kind, axis = c->axis, ta = c->ta, tb = c->tb;
    gpuk_status want;
    gpuk_context *x = fz_ctx;
    const opnd *o = which == 3 ? &c->out : &c->in[which];
    gpuk_dtype odt = o->dt == GPUK_F32 ? GPUK_I32 : GPUK_F32;
    char vname[16];
    switch (mu) {
    case MU_CTX: x = NULL, want = GPUK_ERR_NULL, blame = NULL; break;
    case MU_NULL:
        if (c->op == GPUK_OP_SPMV && fz_pick(f, 2))
            m = NULL, blame = "a";
        else
            h[which] = NULL;
        want = c->op == GPUK_OP_MATMUL && which == 2 ? GPUK_OK : GPUK_ERR_NULL;
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
        h[which] = repl;
        want = mu == MU_OTHER ? GPUK_ERR_CONTEXT : GPUK_ERR_DTYPE;
        break;
    case MU_VARIANT:
        snprintf(vname, sizeof vname, "v%u_%u", fz_u8(f), fz_u8(f));
        variant = vname;
        want = GPUK_ERR_VARIANT;
        blame = vname;
        break;
    case MU_ENUM:
        want = GPUK_ERR_INVALID;
        if (c->op == GPUK_OP_REDUCE && fz_pick(f, 2))
            kind = 2 + (int)fz_pick(f, 100), blame = "kind";
        else if (c->op == GPUK_OP_REDUCE)
            axis = fz_pick(f, 2) ? -1 - (int)fz_pick(f, 9) : c->in[0].nd + (int)fz_pick(f, 9),
            blame = "axis";
        else if (c->op == GPUK_OP_GEMV)
            ta = 2 + (int)fz_pick(f, 9), blame = "trans";
        else if (c->op == GPUK_OP_GEMM && fz_pick(f, 2))
            ta = -1 - (int)fz_pick(f, 9), blame = "trans_a";
        else if (c->op == GPUK_OP_GEMM)
            tb = 2 + (int)fz_pick(f, 9), blame = "trans_b";
        else
            return 0;   /* every other op by design: no enum or axis to break (an op
                         * added with one gets its case above) */
        break;
    default: /* MU_INDEX */
        if (c->op != GPUK_OP_EMBEDDING || c->out.numel == 0)
            return 0;
        {
            opnd *ids = &c->in[1];
            int64_t at = (int64_t)(fz_rnext(f) % (uint64_t)ids->numel);
            int32_t bad = fz_pick(f, 2) ? (int32_t)c->in[0].shape[0] + (int32_t)fz_pick(f, 3)
                                        : -1 - (int32_t)fz_pick(f, 3);
            memcpy(&ids->vals[at], &bad, 4);
            memcpy(&ids->img[fz_pos(ids, at)], &bad, 4);
            gpuk_tensor_write(fz_ctx, ids->st, ids->img, (size_t)ids->n_store * 4);
        }
        want = GPUK_ERR_INDEX;
        blame = "ids";
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
    if (blame && !fz_names(msg, blame))
        return fz_fail(f, "%s: mutation %d: the message does not name '%s': %s", op, mu, blame, msg);
    return check_storages(f, c, NULL, NULL);
}

int fz_op(fz *f, int mutate)
{
    call c;
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

/*
 * t_badops - the bad-input catalogue, part 2: the checks every op shares,
 * run over every op of the catalogue from its bad-input spec (the
 * descriptors of tests/ops/, see optest.h).
 *
 * For each op, from one valid call: the context NULL; each tensor (or CSR)
 * argument NULL, destroyed, from another context, a token no context made,
 * a token of this context that was never issued, of every other dtype of
 * gpuk.h's list (the message must name the argument and both dtypes, the
 * one it got and the one it wanted), of the wrong number of dimensions;
 * the variant unknown, empty, or in the wrong case (the message must list
 * the variants that exist); and then that none of those failed calls
 * wrote to the output.  An op with a second function on the same
 * arguments (min-plus's gpuk_minplus_update, its descriptor's `second`)
 * gets all of it again through that one.
 *
 * All of it runs once per float dtype of the op's descriptor (f32, f64):
 * the spec's f32 arguments take that dtype (embedding's i32 ids stay).
 * Where the backend has no rows of the op in it, the valid call itself
 * must be refused, GPUK_ERR_DTYPE naming the lead argument, the dtype and
 * the dtypes the op does compute in; the rest is skipped.  The rules
 * peculiar to each op (shapes, layouts, aliasing, enums, ids) are
 * t_badshape.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpuk.h>

#include "opcall.h"
#include "optest.h"
#include "ref.h"
#include "t_rel.h"
#include "tap.h"

#define MAXARG OPTEST_MAXARG
#define BOGUS ((uintptr_t)0xFFFFFF0000000001ull)

/* One function of an op in one dtype: its catalogue row, its spec, which
 * of the op's functions (opcall_args.kind: 0 the first, 1 the
 * descriptor's second) under what name, and the dtype its f32 arguments
 * take in this run. */
typedef struct opspec {
    gpuk_op op;
    const optest_spec *sp;
    int second;
    const char *name;
    gpuk_dtype dt;
} opspec;

static gpuk_context *ctx, *other;
/* the CSR matrices of the run's dtype (spmv), in ctx and in other */
static gpuk_csr *csr_ctx, *csr_other;

/* Every dtype of gpuk.h's list. */
static const gpuk_dtype all_dtypes[] = {
#define BADOPS_DT_(id, value, name, bytes, dlcode, prec) GPUK_##id,
    GPUK_DTYPE_MAP(BADOPS_DT_)
#undef BADOPS_DT_
};
#define N_DTYPES ((int)(sizeof all_dtypes / sizeof all_dtypes[0]))

/* The dtype of argument i in this run. */
static gpuk_dtype arg_dtype(const opspec *s, int i)
{
    return s->sp->dt[i] == GPUK_F32 ? s->dt : s->sp->dt[i];
}

static int has_rows(gpuk_op op, gpuk_dtype dt)
{
    size_t n = 0;
    return gpuk_variant_count_dtype(ctx, op, dt, &n) == GPUK_OK && n > 0;
}

/* The spec's call through the shared opcall (opcall.h): the tensors in
 * order, the output last, every scalar at its opcall_init value (alpha 1,
 * beta 0, no transpose, a sum along axis 0). */
static gpuk_status call(gpuk_context *c, const opspec *s, gpuk_tensor *const *t,
                        const gpuk_csr *m, const char *v)
{
    opcall_args a;
    opcall_init(&a, s->op);
    if (s->second)
        a.kind = 1;
    for (int i = 0; i < s->sp->n - 1; i++)
        a.in[i] = t[i];
    a.out = t[s->sp->n - 1];
    a.csr = m;
    return opcall(c, &a, v);
}

/* A valid tensor of argument i (ids hold 0, 1, 2, ...: in range). */
static gpuk_tensor *make(gpuk_context *c, const opspec *s, int i, gpuk_dtype dt, int ndim_delta)
{
    int64_t shape[GPUK_MAX_DIMS];
    int nd = s->sp->ndim[i];
    memcpy(shape, s->sp->shape[i], sizeof shape);
    if (ndim_delta) {
        /* one more leading dimension of 1 (all the specs are below 4-D) */
        memmove(shape + 1, shape, (size_t)nd * sizeof *shape);
        shape[0] = 1;
        nd++;
    }
    return rel_tensor(c, dt, nd, shape, 0.25f, 0.125f);
}

static void expect_call(const opspec *s, gpuk_tensor *const *t, const gpuk_csr *m,
                        const char *variant, gpuk_status want, const char *blame,
                        const char *what)
{
    char line[160];
    snprintf(line, sizeof line, "%s: %s", s->name, what);
    rel_expect(ctx, call(ctx, s, t, m, variant), want, blame, line);
}

static void variants(const opspec *s, gpuk_tensor *const *t)
{
    size_t n = 0;
    gpuk_variant_info vi;
    gpuk_variant_count_dtype(ctx, s->op, s->dt, &n);
    int all_ok = n > 0;
    for (size_t i = 0; i < n; i++) {
        gpuk_variant_get_dtype(ctx, s->op, s->dt, i, &vi);
        gpuk_status st = call(ctx, s, t, csr_ctx, vi.name);
        if (st != GPUK_OK) {
            tap_diag("  variant %s: %s", vi.name, gpuk_context_error(ctx));
            all_ok = 0;
        }
    }
    tap_ok(all_ok, "%s: each of the %zu variants listed runs the valid call", s->name, n);
    expect_call(s, t, csr_ctx, "auto", GPUK_OK, NULL, "variant \"auto\"");

    gpuk_status st = call(ctx, s, t, csr_ctx, "no_such_rung");
    const char *msg = gpuk_context_error(ctx);
    int lists = st == GPUK_ERR_VARIANT && rel_names(msg, "no_such_rung") &&
                rel_names(msg, "variant");
    for (size_t i = 0; i < n && lists; i++) {
        gpuk_variant_get_dtype(ctx, s->op, s->dt, i, &vi);
        lists = rel_names(msg, vi.name);
    }
    tap_ok(lists, "%s: an unknown variant -> %s, the message names it and lists all %zu "
           "variants", s->name, gpuk_strerror(GPUK_ERR_VARIANT), n);
    if (!lists)
        tap_diag("  got %d: %s", (int)st, msg);
    expect_call(s, t, csr_ctx, "", GPUK_ERR_VARIANT, "variant", "variant \"\"");
    gpuk_variant_get_dtype(ctx, s->op, s->dt, 0, &vi);
    char upper[64];
    snprintf(upper, sizeof upper, "%s", vi.name);
    for (char *p = upper; *p; p++)
        *p = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
    expect_call(s, t, csr_ctx, upper, GPUK_ERR_VARIANT, "variant", "variant in upper case");
}

/* Argument i of the valid call replaced by one of dtype d: GPUK_ERR_DTYPE,
 * the message naming an argument that disagrees and both dtypes.  The
 * op's dtype is the lead's (argument 0): a lead of a dtype the op
 * computes in too (i32 min-plus, f64) is taken, and then any argument of
 * the run's dtype disagrees, or the CSR matrix (spmv): which one the core
 * names first is not promised (doc/design.md, Validation), so any of them
 * will do.  A lead of a dtype the op does not compute in is refused
 * itself, the message listing the dtypes it has (the run's among them). */
static void wrong_dtype(const opspec *s, gpuk_tensor *const *t, int i, gpuk_dtype d)
{
    gpuk_tensor *bad[MAXARG];
    gpuk_dtype mine = arg_dtype(s, i);
    const char *cand[MAXARG + 1];
    int nc = 0, lead_taken = i == 0 && has_rows(s->op, d);
    memcpy(bad, t, sizeof bad);
    if (lead_taken) {
        if (s->sp->csr)
            cand[nc++] = s->sp->csr;
        for (int j = 1; j < s->sp->n; j++)
            if (arg_dtype(s, j) == mine)
                cand[nc++] = s->sp->arg[j];
    } else {
        cand[nc++] = s->sp->arg[i];
    }
    bad[i] = make(ctx, s, i, d, 0);
    gpuk_status st = call(ctx, s, bad, csr_ctx, NULL);
    const char *msg = gpuk_context_error(ctx);
    int named = 0;
    for (int c = 0; c < nc; c++)
        named |= rel_names(msg, cand[c]);
    int ok = st == GPUK_ERR_DTYPE && named && rel_names(msg, gpuk_dtype_name(d)) &&
             rel_names(msg, gpuk_dtype_name(mine));
    tap_ok(ok, "%s: %s of dtype %s -> %s, names %s%s, %s and %s", s->name, s->sp->arg[i],
           gpuk_dtype_name(d), gpuk_strerror(GPUK_ERR_DTYPE), nc > 1 ? "one of " : "",
           lead_taken ? "the others" : cand[0], gpuk_dtype_name(d), gpuk_dtype_name(mine));
    if (!ok)
        tap_diag("  got status %d (%s), message: %s", (int)st, gpuk_strerror(st), msg);
    gpuk_tensor_destroy(ctx, bad[i]);
}

/* Is dtype d for argument i no wrong one?  The output of a matrix product
 * of f16 or bf16 inputs may be f32 (gpuk/backend.h, ABI 2.4). */
static int other_output(const opspec *s, int i, gpuk_dtype d)
{
    return d == GPUK_F32 && i == s->sp->n - 1 && (s->dt == GPUK_F16 || s->dt == GPUK_BF16) &&
           (s->op == GPUK_OP_MATMUL || s->op == GPUK_OP_BATCHED_MATMUL || s->op == GPUK_OP_GEMM);
}

/* The output's contents as a recognizable pattern, in its dtype. */
static void *poison(const opspec *s, int64_t n, size_t *bytes)
{
    gpuk_dtype dt = arg_dtype(s, s->sp->n - 1);
    *bytes = (size_t)n * gpuk_dtype_size(dt);
    void *p = malloc(*bytes ? *bytes : 8);
    for (int64_t k = 0; k < n; k++)
        ref_put(dt, p, k, dt == GPUK_I32 ? (ref_real)(-777 - k) : -777.0L - (ref_real)k);
    return p;
}

static void one_op(const opspec *s)
{
    gpuk_tensor *t[MAXARG], *bad[MAXARG];
    for (int i = 0; i < s->sp->n; i++)
        t[i] = make(ctx, s, i, arg_dtype(s, i), 0);
    const char *op = s->name;
    int outi = s->sp->n - 1;
    size_t out_bytes = 0;
    void *before = NULL;

    /* poison the output so an unwanted write shows */
    {
        gpuk_tensor_info info;
        gpuk_tensor_get_info(ctx, t[outi], &info);
        before = poison(s, info.numel, &out_bytes);
        gpuk_tensor_write(ctx, t[outi], before, out_bytes);
    }

    tap_ok(call(NULL, s, t, csr_ctx, NULL) == GPUK_ERR_NULL, "%s: ctx NULL -> %s", op,
           gpuk_strerror(GPUK_ERR_NULL));
    variants(s, t);

    /* re-poison: the valid calls above wrote the output */
    gpuk_tensor_write(ctx, t[outi], before, out_bytes);

    for (int i = 0; i < s->sp->n; i++) {
        char what[96];
        memcpy(bad, t, sizeof bad);
        const char *name = s->sp->arg[i];
        gpuk_dtype mine = arg_dtype(s, i);

        bad[i] = NULL;
        if (i == s->sp->optional) {
            snprintf(what, sizeof what, "%s NULL (optional)", name);
            expect_call(s, bad, csr_ctx, NULL, GPUK_OK, NULL, what);
            gpuk_tensor_write(ctx, t[outi], before, out_bytes);
        } else {
            snprintf(what, sizeof what, "%s NULL", name);
            expect_call(s, bad, csr_ctx, NULL, GPUK_ERR_NULL, name, what);
        }

        bad[i] = make(ctx, s, i, mine, 0);
        gpuk_tensor_destroy(ctx, bad[i]);
        snprintf(what, sizeof what, "%s destroyed", name);
        expect_call(s, bad, csr_ctx, NULL, GPUK_ERR_HANDLE, name, what);

        bad[i] = make(other, s, i, mine, 0);
        snprintf(what, sizeof what, "%s from another context", name);
        expect_call(s, bad, csr_ctx, NULL, GPUK_ERR_CONTEXT, name, what);
        gpuk_tensor_destroy(other, bad[i]);

        bad[i] = (gpuk_tensor *)BOGUS;
        snprintf(what, sizeof what, "%s a token no context made", name);
        expect_call(s, bad, csr_ctx, NULL, GPUK_ERR_CONTEXT, name, what);

        /* this context's bits, an object number never issued */
        bad[i] = (gpuk_tensor *)((uintptr_t)t[i] + (1u << 30));
        snprintf(what, sizeof what, "%s a token of this context never issued", name);
        expect_call(s, bad, csr_ctx, NULL, GPUK_ERR_HANDLE, name, what);

        for (int d = 0; d < N_DTYPES; d++) {
            if (all_dtypes[d] == mine || other_output(s, i, all_dtypes[d]))
                continue;
            if (s->sp->mixed && gpuk_dtype_precision(all_dtypes[d]) > 0) {
                /* a cast between two float dtypes is a call like any */
                bad[i] = make(ctx, s, i, all_dtypes[d], 0);
                snprintf(what, sizeof what, "%s of dtype %s (any float dtype)", name,
                         gpuk_dtype_name(all_dtypes[d]));
                expect_call(s, bad, csr_ctx, NULL, GPUK_OK, NULL, what);
                gpuk_tensor_destroy(ctx, bad[i]);
                gpuk_tensor_write(ctx, t[outi], before, out_bytes);
                continue;
            }
            wrong_dtype(s, t, i, all_dtypes[d]);
        }

        bad[i] = make(ctx, s, i, mine, 1);
        snprintf(what, sizeof what, "%s with %d dimensions", name, s->sp->ndim[i] + 1);
        expect_call(s, bad, csr_ctx, NULL, GPUK_ERR_SHAPE,
                    s->sp->ndim_blame[i] < 0 ? name : s->sp->arg[s->sp->ndim_blame[i]], what);
        gpuk_tensor_destroy(ctx, bad[i]);
    }

    if (s->sp->csr) { /* the CSR argument gets the handle checks of its own */
        gpuk_csr *dead = NULL;
        const int32_t rp[] = { 0, 1, 1, 2 }, ci[] = { 0, 3 };
        const float v[] = { 1, 2 };
        gpuk_csr_create(ctx, 3, 4, 2, rp, ci, v, &dead);
        gpuk_csr_destroy(ctx, dead);
        const char *a = s->sp->csr;
        char what[96];
        snprintf(what, sizeof what, "%s (CSR) NULL", a);
        expect_call(s, t, NULL, NULL, GPUK_ERR_NULL, a, what);
        snprintf(what, sizeof what, "%s (CSR) destroyed", a);
        expect_call(s, t, dead, NULL, GPUK_ERR_HANDLE, a, what);
        snprintf(what, sizeof what, "%s (CSR) from another context", a);
        expect_call(s, t, csr_other, NULL, GPUK_ERR_CONTEXT, a, what);
        snprintf(what, sizeof what, "%s (CSR) a token no context made", a);
        expect_call(s, t, (gpuk_csr *)BOGUS, NULL, GPUK_ERR_CONTEXT, a, what);
        snprintf(what, sizeof what, "%s (CSR) a token of this context never issued", a);
        expect_call(s, t, (gpuk_csr *)((uintptr_t)csr_ctx + (1u << 30)), NULL, GPUK_ERR_HANDLE,
                    a, what);
    }

    /* none of the failed calls may have touched the output */
    float *after = rel_read(ctx, t[outi], NULL);
    tap_ok(after && memcmp(after, before, out_bytes) == 0,
           "%s: the output is untouched by all the rejected calls", op);
    free(after);
    free(before);
    for (int i = 0; i < s->sp->n; i++)
        gpuk_tensor_destroy(ctx, t[i]);
}

/* The op in a dtype the backend has no rows of it in: the valid call is
 * refused, naming the lead, the dtype, and the dtypes it has. */
static void no_rows(const opspec *s)
{
    gpuk_tensor *t[MAXARG];
    uint32_t have = 0;
    for (int d = 0; d < N_DTYPES; d++)
        if (has_rows(s->op, all_dtypes[d]))
            have |= GPUK_DTYPE_BIT(all_dtypes[d]);
    for (int i = 0; i < s->sp->n; i++)
        t[i] = make(ctx, s, i, arg_dtype(s, i), 0);
    gpuk_status st = call(ctx, s, t, csr_ctx, NULL);
    const char *msg = gpuk_context_error(ctx);
    int ok = st == (have ? GPUK_ERR_DTYPE : GPUK_ERR_UNSUPPORTED) &&
             rel_names(msg, s->sp->arg[0]) && rel_names(msg, gpuk_dtype_name(s->dt));
    for (int d = 0; d < N_DTYPES && ok; d++)
        if (have & GPUK_DTYPE_BIT(all_dtypes[d]))
            ok = rel_names(msg, gpuk_dtype_name(all_dtypes[d]));
    tap_ok(ok, "%s: no rows in %s: the valid call -> %s, names %s, %s and the dtypes the op "
           "has", s->name, gpuk_dtype_name(s->dt), gpuk_status_name(GPUK_ERR_DTYPE),
           s->sp->arg[0], gpuk_dtype_name(s->dt));
    if (!ok)
        tap_diag("  got status %d (%s), message: %s", (int)st, gpuk_strerror(st), msg);
    tap_skip("%s: the other checks of this dtype (the backend has no %s rows of the op)",
             s->name, gpuk_dtype_name(s->dt));
    for (int i = 0; i < s->sp->n; i++)
        gpuk_tensor_destroy(ctx, t[i]);
}

/* The CSR matrices of the run's dtype (spmv's argument a). */
static int make_csrs(gpuk_dtype dt)
{
    const int32_t rp[] = { 0, 2, 2, 3 }, ci[] = { 0, 2, 3 };
    double v[3];
    for (int i = 0; i < 3; i++)
        ref_put(dt, v, i, i + 1);
    gpuk_csr_destroy(ctx, csr_ctx);
    gpuk_csr_destroy(other, csr_other);
    csr_ctx = csr_other = NULL;
    if (gpuk_csr_create_dtype(ctx, dt, 3, 4, 3, rp, ci, v, &csr_ctx) != GPUK_OK ||
        gpuk_csr_create_dtype(other, dt, 3, 4, 3, rp, ci, v, &csr_other) != GPUK_OK) {
        tap_ok(0, "creating the %s CSR matrices: %s", gpuk_dtype_name(dt),
               gpuk_context_error(ctx));
        return 0;
    }
    return 1;
}

int main(void)
{
    if (gpuk_context_open(&ctx, "cpu") != GPUK_OK || gpuk_context_open(&other, "cpu") != GPUK_OK) {
        tap_ok(0, "opening two cpu contexts");
        return tap_done();
    }
    /* the registry: one complete descriptor per row of GPUK_OP_MAP (a
     * missing one does not even link), each filed under its own op */
    int nops = GPUK_OP_LAST - GPUK_OP_FIRST + 1, complete = 0;
    for (int op = GPUK_OP_FIRST; op <= GPUK_OP_LAST; op++) {
        const optest *d = optest_of((gpuk_op)op);
        int whole = d->op == (gpuk_op)op && d->cases && d->ref && d->spec.n > 1 &&
                    d->spec.n <= MAXARG && d->badshape && d->empty && d->fuzz &&
                    (d->dtypes & GPUK_DTYPE_BIT(GPUK_F32));
        if (!whole)
            tap_diag("  the descriptor of %s is incomplete or filed under op %d",
                     gpuk_op_name((gpuk_op)op), (int)d->op);
        complete += whole;
    }
    tap_ok(complete == nops, "every op of the catalogue has a complete descriptor of its own "
           "(%d of %d)", complete, nops);
    /* f32 first (every op), then each other float dtype the descriptors
     * list */
    for (int di = 0; di < N_DTYPES; di++) {
        gpuk_dtype dt = all_dtypes[di];
        if (gpuk_dtype_precision(dt) == 0 || !make_csrs(dt))
            continue;
        for (int op = GPUK_OP_FIRST; op <= GPUK_OP_LAST; op++) {
            const optest *d = optest_of((gpuk_op)op);
            char name[48];
            if (!(d->dtypes & GPUK_DTYPE_BIT(dt)) || d->spec.n <= 1 || d->spec.n > MAXARG)
                continue;   /* a missing descriptor failed the check above */
            snprintf(name, sizeof name, "%s%s%s", gpuk_op_name((gpuk_op)op),
                     dt == GPUK_F32 ? "" : " ", dt == GPUK_F32 ? "" : gpuk_dtype_name(dt));
            const opspec s = { (gpuk_op)op, &d->spec, 0, name, dt };
            if (!has_rows(s.op, dt)) {
                no_rows(&s);
                continue;
            }
            one_op(&s);
            if (d->second) {
                char name2[48];
                snprintf(name2, sizeof name2, "%s%s%s", d->second, dt == GPUK_F32 ? "" : " ",
                         dt == GPUK_F32 ? "" : gpuk_dtype_name(dt));
                const opspec s2 = { s.op, s.sp, 1, name2, dt };
                one_op(&s2);
            }
        }
    }
    gpuk_csr_destroy(ctx, csr_ctx);
    gpuk_csr_destroy(other, csr_other);
    gpuk_context_close(other);
    gpuk_context_close(ctx);
    return tap_done();
}

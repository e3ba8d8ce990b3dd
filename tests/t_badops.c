/*
 * t_badops - the bad-input catalogue, part 2: the checks every op shares,
 * run over every op of the catalogue from its bad-input spec (the
 * descriptors of tests/ops/, see optest.h).
 *
 * For each op, from one valid call: the context NULL; each tensor (or CSR)
 * argument NULL, destroyed, from another context, a token no context made,
 * a token of this context that was never issued, of the wrong dtype, of
 * the wrong number of dimensions; the variant unknown, empty, or in the
 * wrong case (the message must list the variants that exist); and then
 * that none of those failed calls wrote to the output.  An op with a
 * second function on the same arguments (min-plus's gpuk_minplus_update,
 * its descriptor's `second`) gets all of it again through that one.  The
 * rules peculiar to each op (shapes, layouts, aliasing, enums, ids) are
 * t_badshape.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpuk.h>

#include "opcall.h"
#include "optest.h"
#include "t_rel.h"
#include "tap.h"

#define MAXARG OPTEST_MAXARG
#define BOGUS ((uintptr_t)0xFFFFFF0000000001ull)

/* One function of an op: its catalogue row, its spec, and which of the
 * op's functions (opcall_args.kind: 0 the first, 1 the descriptor's second)
 * under what name. */
typedef struct opspec {
    gpuk_op op;
    const optest_spec *sp;
    int second;
    const char *name;
} opspec;

static gpuk_context *ctx, *other;
static gpuk_csr *csr_ctx, *csr_other;

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
    gpuk_variant_count(ctx, s->op, &n);
    int all_ok = n > 0;
    for (size_t i = 0; i < n; i++) {
        gpuk_variant_get(ctx, s->op, i, &vi);
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
        gpuk_variant_get(ctx, s->op, i, &vi);
        lists = rel_names(msg, vi.name);
    }
    tap_ok(lists, "%s: an unknown variant -> %s, the message names it and lists all %zu "
           "variants", s->name, gpuk_strerror(GPUK_ERR_VARIANT), n);
    if (!lists)
        tap_diag("  got %d: %s", (int)st, msg);
    expect_call(s, t, csr_ctx, "", GPUK_ERR_VARIANT, "variant", "variant \"\"");
    gpuk_variant_get(ctx, s->op, 0, &vi);
    char upper[64];
    snprintf(upper, sizeof upper, "%s", vi.name);
    for (char *p = upper; *p; p++)
        *p = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
    expect_call(s, t, csr_ctx, upper, GPUK_ERR_VARIANT, "variant", "variant in upper case");
}

static void one_op(const opspec *s)
{
    gpuk_tensor *t[MAXARG], *bad[MAXARG];
    for (int i = 0; i < s->sp->n; i++)
        t[i] = make(ctx, s, i, s->sp->dt[i], 0);
    const char *op = s->name;
    int outi = s->sp->n - 1;
    int64_t n_out = 0;
    float *before = NULL;

    /* poison the output so an unwanted write shows */
    {
        gpuk_tensor_info info;
        gpuk_tensor_get_info(ctx, t[outi], &info);
        before = malloc(info.bytes);
        for (int64_t k = 0; k < info.numel; k++)
            before[k] = -777.0f - (float)k;
        gpuk_tensor_write(ctx, t[outi], before, info.bytes);
        n_out = info.numel;
    }

    tap_ok(call(NULL, s, t, csr_ctx, NULL) == GPUK_ERR_NULL, "%s: ctx NULL -> %s", op,
           gpuk_strerror(GPUK_ERR_NULL));
    variants(s, t);

    /* re-poison: the valid calls above wrote the output */
    gpuk_tensor_write(ctx, t[outi], before, (size_t)n_out * 4);

    for (int i = 0; i < s->sp->n; i++) {
        char what[96];
        memcpy(bad, t, sizeof bad);
        const char *name = s->sp->arg[i];

        bad[i] = NULL;
        if (i == s->sp->optional) {
            snprintf(what, sizeof what, "%s NULL (optional)", name);
            expect_call(s, bad, csr_ctx, NULL, GPUK_OK, NULL, what);
            gpuk_tensor_write(ctx, t[outi], before, (size_t)n_out * 4);
        } else {
            snprintf(what, sizeof what, "%s NULL", name);
            expect_call(s, bad, csr_ctx, NULL, GPUK_ERR_NULL, name, what);
        }

        bad[i] = make(ctx, s, i, s->sp->dt[i], 0);
        gpuk_tensor_destroy(ctx, bad[i]);
        snprintf(what, sizeof what, "%s destroyed", name);
        expect_call(s, bad, csr_ctx, NULL, GPUK_ERR_HANDLE, name, what);

        bad[i] = make(other, s, i, s->sp->dt[i], 0);
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

        gpuk_dtype odt = s->sp->dt[i] == GPUK_F32 ? GPUK_I32 : GPUK_F32;
        bad[i] = make(ctx, s, i, odt, 0);
        snprintf(what, sizeof what, "%s of dtype %s", name, gpuk_dtype_name(odt));
        /* the op's dtype is the lead's (argument 0): a lead of another dtype
         * the op computes in too (i32 min-plus) is taken, and the next
         * argument of the spec's dtype is the one that disagrees */
        const char *dblame = name;
        size_t nodt = 0;
        if (i == 0 && gpuk_variant_count_dtype(ctx, s->op, odt, &nodt) == GPUK_OK && nodt > 0)
            for (int j = 1; j < s->sp->n; j++)
                if (s->sp->dt[j] == s->sp->dt[0]) {
                    dblame = s->sp->arg[j];
                    break;
                }
        expect_call(s, bad, csr_ctx, NULL, GPUK_ERR_DTYPE, dblame, what);
        gpuk_tensor_destroy(ctx, bad[i]);

        bad[i] = make(ctx, s, i, s->sp->dt[i], 1);
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
    tap_ok(after && memcmp(after, before, (size_t)n_out * 4) == 0,
           "%s: the output is untouched by all the rejected calls", op);
    free(after);
    free(before);
    for (int i = 0; i < s->sp->n; i++)
        gpuk_tensor_destroy(ctx, t[i]);
}

int main(void)
{
    if (gpuk_context_open(&ctx, "cpu") != GPUK_OK || gpuk_context_open(&other, "cpu") != GPUK_OK) {
        tap_ok(0, "opening two cpu contexts");
        return tap_done();
    }
    const int32_t rp[] = { 0, 2, 2, 3 }, ci[] = { 0, 2, 3 };
    const float v[] = { 1, 2, 3 };
    if (gpuk_csr_create(ctx, 3, 4, 3, rp, ci, v, &csr_ctx) != GPUK_OK ||
        gpuk_csr_create(other, 3, 4, 3, rp, ci, v, &csr_other) != GPUK_OK) {
        tap_ok(0, "creating the CSR matrices: %s", gpuk_context_error(ctx));
        return tap_done();
    }
    /* the registry: one complete descriptor per row of GPUK_OP_MAP (a
     * missing one does not even link), each filed under its own op */
    int nops = GPUK_OP_LAST - GPUK_OP_FIRST + 1, complete = 0;
    for (int op = GPUK_OP_FIRST; op <= GPUK_OP_LAST; op++) {
        const optest *d = optest_of((gpuk_op)op);
        int whole = d->op == (gpuk_op)op && d->cases && d->ref && d->spec.n > 1 &&
                    d->spec.n <= MAXARG && d->badshape && d->empty && d->fuzz;
        if (!whole)
            tap_diag("  the descriptor of %s is incomplete or filed under op %d",
                     gpuk_op_name((gpuk_op)op), (int)d->op);
        complete += whole;
    }
    tap_ok(complete == nops, "every op of the catalogue has a complete descriptor of its own "
           "(%d of %d)", complete, nops);
    for (int op = GPUK_OP_FIRST; op <= GPUK_OP_LAST; op++) {
        const optest *d = optest_of((gpuk_op)op);
        const opspec s = { (gpuk_op)op, &d->spec, 0, gpuk_op_name((gpuk_op)op) };
        if (s.sp->n > 1 && s.sp->n <= MAXARG) {   /* else the check above failed */
            one_op(&s);
            if (d->second) {
                const opspec s2 = { s.op, s.sp, 1, d->second };
                one_op(&s2);
            }
        }
    }
    gpuk_context_close(other);
    gpuk_context_close(ctx);
    return tap_done();
}

/*
 * dispatch.c - from validated arguments to a row of the backend's kernel
 * table: variant lookup, the empty-output shortcut, the call, the
 * GPUK_VERBOSE=2 op log, and the GPUK_CHECK shadow run.
 */
#include "gpuk_internal.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

void gk_desc(const gk_tensor *t, gpuk_tdesc *d)
{
    memset(d, 0, sizeof *d);
    d->data = t->st->data ? (char *)t->st->data + (size_t)t->offset * gk_elsize(t->dtype) : NULL;
    d->dtype = t->dtype;
    d->ndim = t->ndim;
    memcpy(d->shape, t->shape, sizeof t->shape);
    memcpy(d->stride, t->stride, sizeof t->stride);
}

/* A contiguous tensor seen with another shape of the same element count. */
void gk_desc_dense(const gk_tensor *t, int ndim, const int64_t *shape, gpuk_tdesc *d)
{
    gk_desc(t, d);
    d->ndim = ndim;
    int64_t s = 1;
    for (int i = GPUK_MAX_DIMS - 1; i >= 0; i--) {
        d->shape[i] = i < ndim ? shape[i] : 0;
        d->stride[i] = 0;
    }
    for (int i = ndim - 1; i >= 0; i--) {
        d->stride[i] = s;
        s *= shape[i];
    }
}

const gpuk_kernel *gk_find_kernel(gpuk_context *ctx, gpuk_op op, const char *variant,
                                  gpuk_status *st)
{
    const gpuk_backend *be = ctx->be;
    const gpuk_kernel *first = NULL, *dflt = NULL;
    int want_default = !variant || strcmp(variant, "auto") == 0;
    for (size_t i = 0; i < be->n_kernels; i++) {
        const gpuk_kernel *k = &be->kernels[i];
        if (k->op != op)
            continue;
        if (!first)
            first = k;
        if (!dflt && (k->flags & GPUK_KF_DEFAULT))
            dflt = k;
        if (!want_default && strcmp(k->variant, variant) == 0) {
            *st = GPUK_OK;
            return k;
        }
    }
    if (!first) {
        *st = gk_fail(ctx, GPUK_ERR_UNSUPPORTED, "%s: backend %s implements no variant of this op",
                      gpuk_op_name(op), be->name);
        return NULL;
    }
    if (want_default) {
        *st = GPUK_OK;
        return dflt ? dflt : first;
    }
    /* name the variants that do exist */
    char have[512];
    size_t at = 0;
    have[0] = '\0';
    for (size_t i = 0; i < be->n_kernels && at < sizeof have; i++)
        if (be->kernels[i].op == op)
            at += (size_t)snprintf(have + at, sizeof have - at, "%s%s", at ? ", " : "",
                                   be->kernels[i].variant);
    *st = gk_fail(ctx, GPUK_ERR_VARIANT, "%s: variant '%s' does not exist on backend %s "
                  "(variants: %s)", gpuk_op_name(op), variant[0] ? variant : "(empty)",
                  be->name, have);
    return NULL;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void log_op(gpuk_context *ctx, const gpuk_args *a, const gpuk_kernel *k, double ms)
{
    char line[512];
    size_t at = (size_t)snprintf(line, sizeof line, "gpuk: %s %s/%s", ctx->be->name,
                                 gpuk_op_name(a->op), k->variant);
    const gpuk_tdesc *ds[4];
    int n = 0;
    for (int i = 0; i < a->n_in; i++)
        ds[n++] = &a->in[i];
    ds[n++] = &a->out;
    for (int i = 0; i < n && at < sizeof line; i++) {
        at += (size_t)snprintf(line + at, sizeof line - at, " %s[", i == n - 1 ? "out" : "in");
        for (int j = 0; j < ds[i]->ndim && at < sizeof line; j++)
            at += (size_t)snprintf(line + at, sizeof line - at, "%s%lld", j ? "x" : "",
                                   (long long)ds[i]->shape[j]);
        if (at < sizeof line)
            at += (size_t)snprintf(line + at, sizeof line - at, "]");
    }
    if (a->csr && at < sizeof line)
        at += (size_t)snprintf(line + at, sizeof line - at, " csr[%lldx%lld nnz %lld]",
                               (long long)a->csr->rows, (long long)a->csr->cols,
                               (long long)a->csr->nnz);
    fprintf(stderr, "%s %.3f ms\n", line, ms);
}

gpuk_status gk_dispatch(gpuk_context *ctx, gpuk_args *args, const char *variant)
{
    gpuk_status st;
    const gpuk_kernel *k = gk_find_kernel(ctx, args->op, variant, &st);
    if (!k)
        return st;
    /* an empty output: nothing to compute, and no zero-block launch */
    if (gpuk_tdesc_numel(&args->out) == 0)
        return GPUK_OK;

    gk_shadow *sh = NULL;
    if (ctx->check && !(sh = gk_shadow_begin(ctx, args, &st)))
        return st;
    double t0 = ctx->verbose >= 2 ? now_ms() : 0;
    st = k->fn(ctx->b, args);
    if (st != GPUK_OK) {
        char what[128];
        snprintf(what, sizeof what, "%s/%s", gpuk_op_name(args->op), k->variant);
        if (sh)
            gk_shadow_end(ctx, sh, NULL, k);   /* only frees */
        return gk_backend_fail(ctx, st, what);
    }
    if (ctx->verbose >= 2) {
        st = ctx->be->sync(ctx->b);
        if (st != GPUK_OK) {
            if (sh)
                gk_shadow_end(ctx, sh, NULL, k);
            return gk_backend_fail(ctx, st, gpuk_op_name(args->op));
        }
        log_op(ctx, args, k, now_ms() - t0);
    }
    return sh ? gk_shadow_end(ctx, sh, args, k) : GPUK_OK;
}

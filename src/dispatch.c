/*
 * dispatch.c - from validated arguments to a row of the backend's kernel
 * table, keyed by (op, dtype, variant): the op's dtype, the plugin's ABI
 * minor for calls that need a later one, variant lookup (name or alias),
 * the empty-output shortcut, the call, the GPUK_VERBOSE=2 op log, and the
 * GPUK_CHECK shadow run.
 */
#include "gpuk_internal.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static int serves(const gpuk_kernel *k, gpuk_op op, gpuk_dtype dtype)
{
    return k->op == op && (k->dtypes & GPUK_DTYPE_BIT(dtype));
}

uint32_t gk_op_dtypes(const gpuk_context *ctx, gpuk_op op)
{
    uint32_t set = 0;
    for (size_t i = 0; i < ctx->plugin->n_rows; i++)
        if (ctx->plugin->rows[i].op == op)
            set |= ctx->plugin->rows[i].dtypes;
    return set;
}

gpuk_status gk_op_dtype(gpuk_context *ctx, gpuk_op op, const gk_tensor *lead, const char *name,
                        gpuk_dtype *out)
{
    uint32_t set = gk_op_dtypes(ctx, op);
    if (!set)
        return gk_fail(ctx, GPUK_ERR_UNSUPPORTED, "%s: backend %s implements no variant of this "
                       "op", gpuk_op_name(op), ctx->be->name);
    if (!(set & GPUK_DTYPE_BIT(lead->dtype))) {
        char have[64];
        gk_dtypes_str(set, have, sizeof have);
        return gk_fail(ctx, GPUK_ERR_DTYPE, "%s: dtype is %s; %s on backend %s computes in %s",
                       name, gpuk_dtype_name(lead->dtype), gpuk_op_name(op), ctx->be->name,
                       have);
    }
    *out = lead->dtype;
    return GPUK_OK;
}

gpuk_status gk_need_abi_minor(gpuk_context *ctx, uint32_t minor, const char *what)
{
    const gpuk_backend *be = ctx->be;
    if (be->abi_minor >= minor)
        return GPUK_OK;
    return gk_fail(ctx, GPUK_ERR_UNSUPPORTED, "%s: backend %s (plugin ABI %u.%u) predates ABI "
                   "%u.%u, which it needs", what, be->name, be->abi_major, be->abi_minor,
                   GPUK_ABI_MAJOR, minor);
}

const gpuk_kernel *gk_nth_kernel(const gpuk_context *ctx, gpuk_op op, gpuk_dtype dtype, size_t i)
{
    for (size_t r = 0; r < ctx->plugin->n_rows; r++)
        if (serves(&ctx->plugin->rows[r], op, dtype) && i-- == 0)
            return &ctx->plugin->rows[r];
    return NULL;
}

const gpuk_kernel *gk_find_kernel(gpuk_context *ctx, gpuk_op op, gpuk_dtype dtype,
                                  const char *variant, gpuk_status *st)
{
    const gpuk_kernel *first = NULL, *dflt = NULL;
    int want_default = !variant || strcmp(variant, "auto") == 0;
    for (size_t i = 0; i < ctx->plugin->n_rows; i++) {
        const gpuk_kernel *k = &ctx->plugin->rows[i];
        if (!serves(k, op, dtype))
            continue;
        if (!first)
            first = k;
        if (!dflt && (k->flags & GPUK_KF_DEFAULT))
            dflt = k;
        if (!want_default &&
            (strcmp(k->variant, variant) == 0 || (k->alias && strcmp(k->alias, variant) == 0))) {
            *st = GPUK_OK;
            return k;
        }
    }
    if (!first) {
        *st = gk_fail(ctx, GPUK_ERR_UNSUPPORTED, "%s: backend %s implements no %s variant of "
                      "this op", gpuk_op_name(op), ctx->be->name, gpuk_dtype_name(dtype));
        return NULL;
    }
    if (want_default) {
        *st = GPUK_OK;
        return dflt ? dflt : first;
    }
    /* name the variants that do exist */
    char have[768];
    size_t at = 0;
    have[0] = '\0';
    for (size_t i = 0; at < sizeof have; i++) {
        const gpuk_kernel *k = gk_nth_kernel(ctx, op, dtype, i);
        if (!k)
            break;
        at += (size_t)snprintf(have + at, sizeof have - at, "%s%s%s%s%s", at ? ", " : "",
                               k->variant, k->alias ? " (" : "", k->alias ? k->alias : "",
                               k->alias ? ")" : "");
    }
    *st = gk_fail(ctx, GPUK_ERR_VARIANT, "%s: variant '%s' does not exist on backend %s "
                  "(%s variants: %s)", gpuk_op_name(op), variant[0] ? variant : "(empty)",
                  ctx->be->name, gpuk_dtype_name(dtype), have);
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
    if (a->accumulate && at < sizeof line)
        at += (size_t)snprintf(line + at, sizeof line - at, " accumulate");
    if (a->csr && at < sizeof line)
        at += (size_t)snprintf(line + at, sizeof line - at, " csr[%lldx%lld nnz %lld]",
                               (long long)a->csr->rows, (long long)a->csr->cols,
                               (long long)a->csr->nnz);
    fprintf(stderr, "%s %.3f ms\n", line, ms);
}

gpuk_status gk_dispatch(gpuk_context *ctx, gpuk_args *args, const char *variant)
{
    gpuk_status st;
    args->size = sizeof *args;
    const gpuk_kernel *k = gk_find_kernel(ctx, args->op, args->dtype, variant, &st);
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

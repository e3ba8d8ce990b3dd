/*
 * dispatch.c - from validated arguments to a row of the backend's kernel
 * table, keyed by (op, dtype, variant): the op's dtype, the plugin's ABI
 * minor for calls that need a later one, variant lookup (name or alias),
 * the choice of "auto" (the call's shape class, then the wisdom file, the
 * backend's built-in rules, the DEFAULT row: doc/design.md, "Choosing a
 * rung"), the empty-output shortcut, the call, the GPUK_VERBOSE=2 op log,
 * and the GPUK_CHECK shadow run.
 */
#include "gpuk_internal.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static int serves(const gpuk_kernel *k, gpuk_op op, gpuk_dtype dtype)
{
    return k->op == op && (k->dtypes & GPUK_DTYPE_BIT(dtype));
}

void gk_plugin_index(gk_plugin *p)
{
    memset(p->op_dtypes, 0, sizeof p->op_dtypes);
    memset(p->fallback, 0xff, sizeof p->fallback);   /* -1 */
    for (size_t i = 0; i < p->n_rows; i++) {
        const gpuk_kernel *k = &p->rows[i];
        if ((unsigned)k->op > GPUK_OP_LAST)
            continue;
        p->op_dtypes[k->op] |= k->dtypes;
        for (unsigned d = 0; d < 32; d++) {
            int32_t *f = &p->fallback[k->op][d];
            if ((k->dtypes & (1u << d)) &&
                (*f < 0 || ((k->flags & GPUK_KF_DEFAULT) &&
                            !(p->rows[*f].flags & GPUK_KF_DEFAULT))))
                *f = (int32_t)i;
        }
    }
}

uint32_t gk_op_dtypes(const gpuk_context *ctx, gpuk_op op)
{
    return (unsigned)op <= GPUK_OP_LAST ? ctx->plugin->op_dtypes[op] : 0;
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

/* The row of (op, dtype) called name, or whose alias it is; NULL if none. */
static const gpuk_kernel *row_named(const gpuk_context *ctx, gpuk_op op, gpuk_dtype dtype,
                                    const char *name)
{
    for (size_t i = 0; i < ctx->plugin->n_rows; i++) {
        const gpuk_kernel *k = &ctx->plugin->rows[i];
        if (serves(k, op, dtype) &&
            (strcmp(k->variant, name) == 0 || (k->alias && strcmp(k->alias, name) == 0)))
            return k;
    }
    return NULL;
}

const gpuk_kernel *gk_find_kernel(gpuk_context *ctx, gpuk_op op, gpuk_dtype dtype,
                                  const char *variant, gpuk_status *st)
{
    const gk_plugin *p = ctx->plugin;
    if ((unsigned)dtype >= 32 || !(gk_op_dtypes(ctx, op) & GPUK_DTYPE_BIT(dtype))) {
        *st = gk_fail(ctx, GPUK_ERR_UNSUPPORTED, "%s: backend %s implements no %s variant of "
                      "this op", gpuk_op_name(op), ctx->be->name, gpuk_dtype_name(dtype));
        return NULL;
    }
    /* a row serves (op, dtype), so gk_plugin_index gave it a fallback */
    if (!variant || strcmp(variant, "auto") == 0) {
        *st = GPUK_OK;
        return &p->rows[p->fallback[op][dtype]];
    }
    const gpuk_kernel *k = row_named(ctx, op, dtype, variant);
    if (k) {
        *st = GPUK_OK;
        return k;
    }
    /* name the variants that do exist */
    char have[768];
    size_t at = 0;
    have[0] = '\0';
    for (size_t i = 0; at < sizeof have; i++) {
        if (!(k = gk_nth_kernel(ctx, op, dtype, i)))
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

int gk_shape_class(const gpuk_args *a)
{
    int64_t out = gpuk_tdesc_numel(&a->out), k = gk_sum_length(a);
    unsigned __int128 work = (unsigned __int128)(uint64_t)(out > 1 ? out : 1) *
                             (uint64_t)(k > 1 ? k : 1);
    int cls = 0;
    while (work >>= 1)
        cls++;
    return cls;
}

/* "auto": the wisdom file's rung for the class (exact, else within 2),
 * else the one the backend's built-in rules name, else the DEFAULT row.
 * The built-in rules exist from plugin ABI 2.3 on; a name they give that
 * is not a row of (op, dtype), or is a TF32 row, is not taken. */
static const gpuk_kernel *choose_auto(gpuk_context *ctx, const gpuk_args *args, int cls,
                                      const char **source, gpuk_status *st)
{
    const gpuk_kernel *dflt = gk_find_kernel(ctx, args->op, args->dtype, NULL, st), *k;
    if (!dflt)
        return NULL;
    const char *name = gk_wisdom_lookup(ctx->wisdom, args->op, args->dtype, cls);
    if (name && (k = row_named(ctx, args->op, args->dtype, name)) != NULL) {
        *source = "wisdom";
        return k;
    }
    const gpuk_backend *be = ctx->be;
    if (be->abi_minor >= 3 && GK_BE_HAS(be, auto_variant) &&
        (name = be->auto_variant(ctx->b, args, cls)) != NULL) {
        k = row_named(ctx, args->op, args->dtype, name);
        if (k && !(k->flags & GPUK_KF_TF32)) {
            *source = "built-in";
            return k;
        }
        if (ctx->verbose >= 1)
            fprintf(stderr, "gpuk: %s: the built-in rule for %s %s class %d names '%.64s', %s; "
                    "the default row %s runs\n", be->name, gpuk_op_name(args->op),
                    gpuk_dtype_name(args->dtype), cls, name,
                    k ? "a TF32 rung (only a call that names it runs it)" : "which is no rung of it",
                    dflt->variant);
    }
    *source = "default";
    return dflt;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void log_op(gpuk_context *ctx, const gpuk_args *a, const gpuk_kernel *k, double ms)
{
    char line[640];
    size_t at = (size_t)snprintf(line, sizeof line, "gpuk: %s %s/%s", ctx->be->name,
                                 gpuk_op_name(a->op), k->variant);
    /* the op's rung first, as always: " op/rung " names what ran */
    if (strcmp(ctx->last_source, "named") != 0)
        at += (size_t)snprintf(line + at, sizeof line - at, " auto -> %s (%s, class %d)",
                               k->variant, ctx->last_source, ctx->last_class);
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
    int cls = gk_shape_class(args);
    const char *source = "named";
    const gpuk_kernel *k;
    if (variant && strcmp(variant, "auto") != 0)
        k = gk_find_kernel(ctx, args->op, args->dtype, variant, &st);
    else
        k = choose_auto(ctx, args, cls, &source, &st);
    if (!k)
        return st;
    ctx->last_variant = k->variant;
    ctx->last_source = source;
    ctx->last_class = cls;
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

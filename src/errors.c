/*
 * errors.c - the bottom floor of the core: recording a failure on a
 * context, and issuing handle tokens.  Every other file of src/ may call
 * these; they call nothing above them (doc/design.md, "Layers").
 */
#include "gpuk_internal.h"

#include <stdio.h>

gpuk_status gk_fail(gpuk_context *ctx, gpuk_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->err, sizeof ctx->err, fmt, ap);
    va_end(ap);
    if (ctx->verbose >= 1)
        fprintf(stderr, "gpuk: error: %s (%s)\n", ctx->err, gpuk_strerror(st));
    return st;
}

gpuk_status gk_backend_fail(gpuk_context *ctx, gpuk_status st, const char *what)
{
    const char *msg = ctx->be->last_error(ctx->b);
    return gk_fail(ctx, st, "%s on %s: %s", what, ctx->be->name,
                   msg && msg[0] ? msg : gpuk_strerror(st));
}

/* A token is the context's serial number above GK_OBJ_BITS counted object
 * numbers; numbers are never reused, so a stale token cannot name a newer
 * object.  0 when the context has issued all 2^40. */
uint64_t gk_new_token(gpuk_context *ctx)
{
    if (ctx->next_obj >= (1ULL << GK_OBJ_BITS))
        return 0;
    return ((uint64_t)ctx->serial << GK_OBJ_BITS) | ctx->next_obj++;
}

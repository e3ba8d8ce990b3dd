/*
 * validate.c - handle lookup and the argument checks every op shares.
 *
 * All validation lives in the core, once, before any backend sees a call
 * (doc/design.md, "Validation").  Each check names the argument in the
 * context's message.
 */
#include "gpuk_internal.h"

#include <stdio.h>
#include <string.h>

static void *lookup(gpuk_context *ctx, const void *h, int kind, const char *name,
                    gpuk_status *st)
{
    const char *what = kind == GK_KIND_TENSOR ? "tensor" : "CSR matrix";
    uint64_t token = (uint64_t)(uintptr_t)h;
    if (!h) {
        *st = gk_fail(ctx, GPUK_ERR_NULL, "%s: %s is NULL", name, what);
        return NULL;
    }
    if ((token >> GK_OBJ_BITS) != ctx->serial) {
        *st = gk_fail(ctx, GPUK_ERR_CONTEXT, "%s: this %s handle was not made by this "
                      "context (another context's, or not a libgpuk handle)", name, what);
        return NULL;
    }
    int *obj = gk_handles_get(&ctx->handles, token);
    if (!obj) {
        *st = gk_fail(ctx, GPUK_ERR_HANDLE, "%s: %s handle is not live (destroyed, or never "
                      "created)", name, what);
        return NULL;
    }
    if (*obj != kind) {
        *st = gk_fail(ctx, GPUK_ERR_HANDLE, "%s: handle is a %s, not a %s", name,
                      *obj == GK_KIND_TENSOR ? "tensor" : "CSR matrix", what);
        return NULL;
    }
    *st = GPUK_OK;
    return obj;
}

gk_tensor *gk_tensor_arg(gpuk_context *ctx, const gpuk_tensor *h, const char *name,
                         gpuk_status *st)
{
    return lookup(ctx, h, GK_KIND_TENSOR, name, st);
}

gk_csr *gk_csr_arg(gpuk_context *ctx, const gpuk_csr *h, const char *name, gpuk_status *st)
{
    return lookup(ctx, h, GK_KIND_CSR, name, st);
}

void gk_shape_str(const gk_tensor *t, char *buf, size_t len)
{
    size_t at = 0;
    at += (size_t)snprintf(buf, len, "[");
    for (int i = 0; i < t->ndim && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%lld", i ? "x" : "", (long long)t->shape[i]);
    if (at < len)
        snprintf(buf + at, len - at, "]");
}

gpuk_status gk_need_dtype(gpuk_context *ctx, const gk_tensor *t, gpuk_dtype dt, const char *name)
{
    if (t->dtype == dt)
        return GPUK_OK;
    return gk_fail(ctx, GPUK_ERR_DTYPE, "%s: dtype is %s, must be %s", name,
                   gpuk_dtype_name(t->dtype), gpuk_dtype_name(dt));
}

gpuk_status gk_need_ndim(gpuk_context *ctx, const gk_tensor *t, int lo, int hi, const char *name)
{
    if (t->ndim >= lo && t->ndim <= hi)
        return GPUK_OK;
    char s[96];
    gk_shape_str(t, s, sizeof s);
    if (lo == hi)
        return gk_fail(ctx, GPUK_ERR_SHAPE, "%s: must be %d-D, is %d-D %s", name, lo, t->ndim, s);
    return gk_fail(ctx, GPUK_ERR_SHAPE, "%s: must have %d to %d dimensions, has %d %s", name,
                   lo, hi, t->ndim, s);
}

int gk_is_contiguous(const gk_tensor *t)
{
    int64_t expect = 1;
    for (int i = t->ndim - 1; i >= 0; i--) {
        if (t->shape[i] != 1 && t->stride[i] != expect)
            return t->numel == 0;   /* an empty view is trivially dense */
        expect *= t->shape[i];
    }
    return 1;
}

gpuk_status gk_need_contiguous(gpuk_context *ctx, const gk_tensor *t, const char *name)
{
    if (gk_is_contiguous(t))
        return GPUK_OK;
    return gk_fail(ctx, GPUK_ERR_LAYOUT, "%s: must be a contiguous (dense row-major) tensor; "
                   "this op does not take strided views", name);
}

gpuk_status gk_need_unit_last(gpuk_context *ctx, const gk_tensor *t, const char *name)
{
    int last = t->ndim - 1;
    if (t->stride[last] == 1 || t->shape[last] <= 1 || t->numel == 0)
        return GPUK_OK;
    return gk_fail(ctx, GPUK_ERR_LAYOUT, "%s: the last dimension must have stride 1 (has %lld)",
                   name, (long long)t->stride[last]);
}

gpuk_status gk_need_dim(gpuk_context *ctx, const gk_tensor *t, int dim, int64_t want,
                        const char *name, const char *why)
{
    if (t->shape[dim] == want)
        return GPUK_OK;
    char s[96];
    gk_shape_str(t, s, sizeof s);
    return gk_fail(ctx, GPUK_ERR_SHAPE, "%s: dimension %d is %lld, must be %lld (%s); shape %s",
                   name, dim, (long long)t->shape[dim], (long long)want, why, s);
}

gpuk_status gk_need_same_shape(gpuk_context *ctx, const gk_tensor *a, const char *an,
                               const gk_tensor *b, const char *bn)
{
    int same = a->ndim == b->ndim;
    for (int i = 0; same && i < a->ndim; i++)
        same = a->shape[i] == b->shape[i];
    if (same)
        return GPUK_OK;
    char sa[96], sb[96];
    gk_shape_str(a, sa, sizeof sa);
    gk_shape_str(b, sb, sizeof sb);
    return gk_fail(ctx, GPUK_ERR_SHAPE, "%s %s and %s %s must have the same shape", an, sa, bn, sb);
}

/* An output whose elements could share memory makes the result depend on
 * write order.  Sufficient test: with dimensions sorted by stride, each
 * stride is at least the span of all smaller ones. */
gpuk_status gk_need_injective(gpuk_context *ctx, const gk_tensor *t, const char *name)
{
    int idx[GPUK_MAX_DIMS], n = 0;
    if (t->numel <= 1)
        return GPUK_OK;
    for (int i = 0; i < t->ndim; i++)
        if (t->shape[i] > 1)
            idx[n++] = i;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && t->stride[idx[j]] < t->stride[idx[j - 1]]; j--) {
            int tmp = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = tmp;
        }
    int64_t span = 1;   /* elements covered by the dimensions already seen */
    for (int i = 0; i < n; i++) {
        int d = idx[i];
        if (t->stride[d] < span)
            return gk_fail(ctx, GPUK_ERR_LAYOUT, "%s: an output view must not map two elements "
                           "to one address (dimension %d has stride %lld)", name, d,
                           (long long)t->stride[d]);
        span = t->stride[d] * (t->shape[d] - 1) + span;
    }
    return GPUK_OK;
}

/* The absolute byte range [lo, hi) a view can touch.  Addresses, not
 * storages, are compared: a wrapped pointer or a DLPack import may lie
 * inside another tensor's memory, or two imports may share memory. */
static void extent(const gk_tensor *t, uintptr_t *lo, uintptr_t *hi)
{
    size_t es = gk_elsize(t->dtype);
    int64_t last = t->offset;
    for (int i = 0; i < t->ndim; i++)
        last += (t->shape[i] - 1) * t->stride[i];
    *lo = (uintptr_t)t->st->data + (uintptr_t)t->offset * es;
    *hi = (uintptr_t)t->st->data + ((uintptr_t)last + 1) * es;
}

/* The same elements in the same order: same first address and layout. */
static int same_view(const gk_tensor *a, const gk_tensor *b)
{
    uintptr_t alo, ahi, blo, bhi;
    extent(a, &alo, &ahi);
    extent(b, &blo, &bhi);
    if (alo != blo || a->ndim != b->ndim || a->dtype != b->dtype)
        return 0;
    for (int i = 0; i < a->ndim; i++)
        if (a->shape[i] != b->shape[i] || (a->shape[i] > 1 && a->stride[i] != b->stride[i]))
            return 0;
    return 1;
}

gpuk_status gk_need_disjoint(gpuk_context *ctx, const gk_tensor *out, const char *out_name,
                             const gk_tensor *in, const char *in_name, int exact_ok)
{
    if (!in || out->numel == 0 || in->numel == 0 || !out->st->data || !in->st->data)
        return GPUK_OK;
    if (exact_ok && same_view(out, in))
        return GPUK_OK;
    uintptr_t alo, ahi, blo, bhi;
    extent(out, &alo, &ahi);
    extent(in, &blo, &bhi);
    if (ahi <= blo || bhi <= alo)
        return GPUK_OK;
    if (exact_ok)
        return gk_fail(ctx, GPUK_ERR_ALIAS, "%s overlaps %s: an output may be exactly its input "
                       "(in place) but not overlap it partly", out_name, in_name);
    return gk_fail(ctx, GPUK_ERR_ALIAS, "%s overlaps %s: their address ranges meet, and this "
                   "op's output must not overlap its inputs", out_name, in_name);
}

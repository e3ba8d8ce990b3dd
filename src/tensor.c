/*
 * tensor.c - creating, viewing, destroying, writing and reading tensors.
 *
 * A tensor is a view (shape, strides, offset) of a reference-counted
 * storage in backend memory.  Views keep their storage alive, so a base
 * may be destroyed before its views.  The kernel operand of a tensor
 * (gk_desc) is made here too, next to the layout it describes.
 */
#include "gpuk_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* numel and bytes of a shape, with overflow checks; returns 0 on overflow. */
static int count(const gk_tensor *t, size_t es, int64_t *numel, size_t *bytes)
{
    int64_t n = 1;
    for (int i = 0; i < t->ndim; i++)
        if (__builtin_mul_overflow(n, t->shape[i], &n))
            return 0;
    int64_t b;
    if (__builtin_mul_overflow(n, (int64_t)es, &b) || (uint64_t)b > SIZE_MAX)
        return 0;
    *numel = n;
    *bytes = (size_t)b;
    return 1;
}

static gpuk_status check_shape(gpuk_context *ctx, gpuk_dtype dtype, int ndim,
                               const int64_t *shape, const char *fn)
{
    if (!gk_elsize(dtype))
        return gk_fail(ctx, GPUK_ERR_DTYPE, "%s: dtype %d is not a gpuk_dtype", fn, (int)dtype);
    if (ndim < 1 || ndim > GPUK_MAX_DIMS)
        return gk_fail(ctx, GPUK_ERR_SHAPE, "%s: ndim is %d, must be 1 to %d", fn, ndim,
                       GPUK_MAX_DIMS);
    if (!shape)
        return gk_fail(ctx, GPUK_ERR_NULL, "%s: shape is NULL", fn);
    for (int i = 0; i < ndim; i++)
        if (shape[i] < 0)
            return gk_fail(ctx, GPUK_ERR_SHAPE, "%s: shape[%d] is %lld, must be >= 0", fn, i,
                           (long long)shape[i]);
    /* The nonzero dimensions must multiply (in bytes) without overflow even
     * when another one is 0: code downstream multiplies subsets of them
     * (the rows of a softmax, the outer count of a reduction). */
    int64_t span = (int64_t)gk_elsize(dtype);
    for (int i = 0; i < ndim; i++)
        if (shape[i] > 0 && __builtin_mul_overflow(span, shape[i], &span))
            return gk_fail(ctx, GPUK_ERR_OVERFLOW, "%s: the byte size of shape overflows "
                           "(zero dimensions aside, the others must multiply within 2^63)", fn);
    return GPUK_OK;
}

/* The view v of (dtype, ndim, shape, strides or dense, offset): strides
 * >= 0, numel, and *last, the element farthest from the storage's start
 * that it reaches, computed without overflow.  The reach counts even for
 * an empty view: its nonempty dimensions' strides still reach kernels (the
 * rows of an [m,0] matrix). */
static gpuk_status layout(gpuk_context *ctx, gpuk_dtype dtype, int ndim, const int64_t *shape,
                          const int64_t *strides, int64_t offset, const char *fn, gk_tensor *v,
                          int64_t *last)
{
    memset(v, 0, sizeof *v);
    v->dtype = dtype;
    v->ndim = ndim;
    v->offset = offset;
    memcpy(v->shape, shape, (size_t)ndim * sizeof *shape);
    int64_t dense = 1, step;
    for (int i = ndim - 1; i >= 0; i--) {
        if (strides && strides[i] < 0)
            return gk_fail(ctx, GPUK_ERR_LAYOUT, "%s: strides[%d] is %lld, must be >= 0", fn, i,
                           (long long)strides[i]);
        v->stride[i] = strides ? strides[i] : dense;
        if (shape[i] > 0 && __builtin_mul_overflow(dense, shape[i], &dense))
            dense = INT64_MAX;
    }
    size_t bytes;
    if (!count(v, gk_elsize(dtype), &v->numel, &bytes))
        return gk_fail(ctx, GPUK_ERR_OVERFLOW, "%s: the element count of this shape overflows",
                       fn);
    *last = offset;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] > 0 && (__builtin_mul_overflow(shape[i] - 1, v->stride[i], &step) ||
                             __builtin_add_overflow(*last, step, last)))
            return gk_fail(ctx, GPUK_ERR_OVERFLOW, "%s: shape, strides and offset reach past "
                           "element 2^63", fn);
    }
    return GPUK_OK;
}

static gpuk_status enroll(gpuk_context *ctx, gk_tensor *t, gpuk_tensor **out)
{
    t->kind = GK_KIND_TENSOR;
    t->token = gk_new_token(ctx);
    if (!t->token)
        return gk_fail(ctx, GPUK_ERR_OVERFLOW, "this context has made 2^40 handles; open a new one");
    if (gk_handles_put(&ctx->handles, t->token, t) != 0)
        return gk_fail(ctx, GPUK_ERR_NO_MEMORY, "out of host memory for the handle table");
    *out = (gpuk_tensor *)(uintptr_t)t->token;
    return GPUK_OK;
}

gpuk_status gpuk_tensor_create(gpuk_context *ctx, gpuk_dtype dtype, int ndim,
                               const int64_t *shape, gpuk_tensor **out)
{
    if (!ctx)
        return GPUK_ERR_NULL;
    if (!out)
        return gk_fail(ctx, GPUK_ERR_NULL, "gpuk_tensor_create: out is NULL");
    *out = NULL;
    gpuk_status st = check_shape(ctx, dtype, ndim, shape, "gpuk_tensor_create");
    if (st != GPUK_OK)
        return st;

    gk_tensor *t = calloc(1, sizeof *t);
    gk_storage *s = calloc(1, sizeof *s);
    if (!t || !s) {
        free(t);
        free(s);
        return gk_fail(ctx, GPUK_ERR_NO_MEMORY, "gpuk_tensor_create: out of host memory");
    }
    t->dtype = dtype;
    t->ndim = ndim;
    memcpy(t->shape, shape, (size_t)ndim * sizeof *shape);
    int64_t stride = 1;
    for (int i = ndim - 1; i >= 0; i--) {
        t->stride[i] = stride;
        if (shape[i] > 0 && __builtin_mul_overflow(stride, shape[i], &stride))
            stride = INT64_MAX;
    }
    size_t bytes;
    if (!count(t, gk_elsize(dtype), &t->numel, &bytes)) {
        free(t);
        free(s);
        return gk_fail(ctx, GPUK_ERR_OVERFLOW, "gpuk_tensor_create: the element count or byte "
                       "size of this shape overflows");
    }
    if (bytes > 0) {
        st = ctx->be->alloc(ctx->b, bytes, &s->data);
        if (st != GPUK_OK) {
            free(t);
            free(s);
            return gk_backend_fail(ctx, st, "gpuk_tensor_create: allocating the tensor");
        }
    }
    s->bytes = bytes;
    atomic_init(&s->refs, 1);
    s->owner = ctx->owner;
    atomic_fetch_add(&ctx->owner->refs, 1);
    t->st = s;
    st = enroll(ctx, t, out);
    if (st != GPUK_OK) {
        gk_storage_unref(s);
        free(t);
    }
    return st;
}

gpuk_status gpuk_tensor_view(gpuk_context *ctx, const gpuk_tensor *base, int ndim,
                             const int64_t *shape, const int64_t *strides, int64_t offset,
                             gpuk_tensor **out)
{
    gpuk_status st;
    if (!ctx)
        return GPUK_ERR_NULL;
    if (!out)
        return gk_fail(ctx, GPUK_ERR_NULL, "gpuk_tensor_view: out is NULL");
    *out = NULL;
    gk_tensor *b = gk_tensor_arg(ctx, base, "base", &st);
    if (!b)
        return st;
    if ((st = check_shape(ctx, b->dtype, ndim, shape, "gpuk_tensor_view")) != GPUK_OK)
        return st;
    if (offset < 0)
        return gk_fail(ctx, GPUK_ERR_LAYOUT, "gpuk_tensor_view: offset is %lld, must be >= 0",
                       (long long)offset);

    gk_tensor v;
    int64_t last;
    if ((st = layout(ctx, b->dtype, ndim, shape, strides, offset, "gpuk_tensor_view", &v,
                     &last)) != GPUK_OK)
        return st;
    /* every reachable element must be inside the storage */
    int64_t store = (int64_t)(b->st->bytes / gk_elsize(b->dtype));
    if (v.numel > 0) {
        if (last >= store)
            return gk_fail(ctx, GPUK_ERR_LAYOUT, "gpuk_tensor_view: shape, strides and offset "
                           "reach element %lld, but base's storage holds %lld elements",
                           (long long)last, (long long)store);
    } else if (offset > store) {
        return gk_fail(ctx, GPUK_ERR_LAYOUT, "gpuk_tensor_view: offset %lld is past the end of "
                       "the storage (%lld elements)", (long long)offset, (long long)store);
    }

    gk_tensor *t = malloc(sizeof *t);
    if (!t)
        return gk_fail(ctx, GPUK_ERR_NO_MEMORY, "gpuk_tensor_view: out of host memory");
    *t = v;
    t->st = b->st;
    st = enroll(ctx, t, out);
    if (st != GPUK_OK) {
        free(t);
        return st;
    }
    atomic_fetch_add(&t->st->refs, 1);
    return GPUK_OK;
}

gpuk_status gpuk_tensor_destroy(gpuk_context *ctx, gpuk_tensor *h)
{
    gpuk_status st;
    if (!ctx)
        return GPUK_ERR_NULL;
    if (!h)
        return GPUK_OK;
    gk_tensor *t = gk_tensor_arg(ctx, h, "t", &st);
    if (!t)
        return st;
    gk_handles_del(&ctx->handles, t->token);
    gk_tensor_release(ctx, t);
    return GPUK_OK;
}

void gk_tensor_release(gpuk_context *ctx, gk_tensor *t)
{
    gk_storage_unref(t->st);
    free(t);
}

gpuk_status gpuk_tensor_get_info_size(gpuk_context *ctx, const gpuk_tensor *h,
                                      gpuk_tensor_info *info, size_t size)
{
    gpuk_status st;
    if (!ctx)
        return GPUK_ERR_NULL;
    gk_tensor *t = gk_tensor_arg(ctx, h, "t", &st);
    if (!t)
        return st;
    if (!info)
        return gk_fail(ctx, GPUK_ERR_NULL, "gpuk_tensor_get_info: info is NULL");
    gpuk_tensor_info in;
    memset(&in, 0, sizeof in);
    in.dtype = t->dtype;
    in.ndim = t->ndim;
    memcpy(in.shape, t->shape, sizeof t->shape);
    memcpy(in.strides, t->stride, sizeof t->stride);
    in.offset = t->offset;
    in.numel = t->numel;
    in.bytes = (size_t)t->numel * gk_elsize(t->dtype);
    in.contiguous = gk_is_contiguous(t);
    in.data = t->numel && t->st->data
                  ? (char *)t->st->data + (size_t)t->offset * gk_elsize(t->dtype) : NULL;
    in.borrowed = t->st->borrowed;
    memcpy(info, &in, size < sizeof in ? size : sizeof in);
    return GPUK_OK;
}

gpuk_status (gpuk_tensor_get_info)(gpuk_context *ctx, const gpuk_tensor *h,
                                   gpuk_tensor_info *info)
{
    return gpuk_tensor_get_info_size(ctx, h, info, sizeof *info);
}

gpuk_status gk_tensor_borrow(gpuk_context *ctx, gpuk_dtype dtype, int ndim, const int64_t *shape,
                             const int64_t *strides, void *data, const char *what,
                             void (*release)(void *arg), void *arg, gpuk_tensor **out)
{
    gpuk_status st;
    gk_tensor v;
    int64_t last;
    if ((st = check_shape(ctx, dtype, ndim, shape, what)) != GPUK_OK ||
        (st = layout(ctx, dtype, ndim, shape, strides, 0, what, &v, &last)) != GPUK_OK)
        return st;
    size_t es = gk_elsize(dtype), span = 0;
    if (v.numel > 0) {
        if (!data)
            return gk_fail(ctx, GPUK_ERR_NULL, "%s: data is NULL for %lld elements", what,
                           (long long)v.numel);
        if ((uintptr_t)data % es)
            return gk_fail(ctx, GPUK_ERR_LAYOUT, "%s: data %p is not aligned to the %zu-byte "
                           "%s element", what, data, es, gpuk_dtype_name(dtype));
        if (__builtin_mul_overflow((uint64_t)last + 1, (uint64_t)es, &span))
            return gk_fail(ctx, GPUK_ERR_OVERFLOW, "%s: the memory the view reaches overflows "
                           "size_t", what);
    }
    if (!GK_BE_HAS(ctx->be, check_pointer))
        return gk_fail(ctx, GPUK_ERR_UNSUPPORTED, "%s: backend %s (plugin ABI %u.%u) cannot take "
                       "the caller's memory", what, ctx->be->name, ctx->be->abi_major,
                       ctx->be->abi_minor);
    if (v.numel > 0 && (st = ctx->be->check_pointer(ctx->b, data, span)) != GPUK_OK)
        return gk_fail(ctx, st, "%s: data: %s", what, ctx->be->last_error(ctx->b));

    gk_tensor *t = malloc(sizeof *t);
    gk_storage *s = calloc(1, sizeof *s);
    if (!t || !s) {
        free(t);
        free(s);
        return gk_fail(ctx, GPUK_ERR_NO_MEMORY, "%s: out of host memory", what);
    }
    *t = v;
    s->data = v.numel > 0 ? data : NULL;
    s->bytes = span;
    atomic_init(&s->refs, 1);
    s->owner = ctx->owner;
    atomic_fetch_add(&ctx->owner->refs, 1);
    s->borrowed = 1;
    t->st = s;
    if ((st = enroll(ctx, t, out)) != GPUK_OK) {
        gk_storage_unref(s);   /* borrowed: frees nothing of the caller's */
        free(t);
        return st;
    }
    /* only now is the release the storage's to call: a failure above
     * leaves it to the caller */
    s->release = release;
    s->release_arg = arg;
    return GPUK_OK;
}

gpuk_status gpuk_tensor_wrap(gpuk_context *ctx, gpuk_dtype dtype, int ndim, const int64_t *shape,
                             const int64_t *strides, void *data, gpuk_tensor **out)
{
    if (!ctx)
        return GPUK_ERR_NULL;
    if (!out)
        return gk_fail(ctx, GPUK_ERR_NULL, "gpuk_tensor_wrap: out is NULL");
    *out = NULL;
    return gk_tensor_borrow(ctx, dtype, ndim, shape, strides, data, "gpuk_tensor_wrap", NULL,
                            NULL, out);
}

/* Move data between a dense host buffer and a (possibly strided) operand:
 * one backend call when it is contiguous, else one per contiguous run of
 * the last dimension (one element per call if that stride is not 1).
 * Returns the backend's status; the caller words the message. */
gpuk_status gk_transfer(gpuk_context *ctx, const gpuk_tdesc *d, void *host, int to_device)
{
    size_t es = gk_elsize(d->dtype);
    int64_t numel = gpuk_tdesc_numel(d), expect = 1;
    int dense = 1;
    char *h = host;
    if (numel == 0)
        return GPUK_OK;
    for (int i = d->ndim - 1; i >= 0; i--) {
        if (d->shape[i] != 1 && d->stride[i] != expect)
            dense = 0;
        expect *= d->shape[i];
    }
    if (dense) {
        size_t n = (size_t)numel * es;
        return to_device ? ctx->be->write(ctx->b, d->data, h, n)
                         : ctx->be->read(ctx->b, h, d->data, n);
    }
    int last = d->ndim - 1;
    int64_t run = d->stride[last] == 1 ? d->shape[last] : 1;
    int64_t idx[GPUK_MAX_DIMS] = { 0 };
    for (int64_t done = 0; done < numel; done += run) {
        int64_t off = 0;
        for (int i = 0; i < d->ndim; i++)
            off += idx[i] * d->stride[i];
        char *dev = (char *)d->data + (size_t)off * es;
        size_t n = (size_t)run * es;
        gpuk_status st = to_device ? ctx->be->write(ctx->b, dev, h, n)
                                   : ctx->be->read(ctx->b, h, dev, n);
        if (st != GPUK_OK)
            return st;
        h += n;
        /* advance the multi-index by `run` elements */
        for (int i = run == 1 ? last : last - 1; i >= 0; i--) {
            if (++idx[i] < d->shape[i])
                break;
            idx[i] = 0;
        }
    }
    return GPUK_OK;
}

static gpuk_status rw(gpuk_context *ctx, const gpuk_tensor *h, void *buf, size_t bytes,
                      int to_device, const char *fn)
{
    gpuk_status st;
    if (!ctx)
        return GPUK_ERR_NULL;
    gk_tensor *t = gk_tensor_arg(ctx, h, "t", &st);
    if (!t)
        return st;
    size_t want = (size_t)t->numel * gk_elsize(t->dtype);
    if (!buf && want > 0)
        return gk_fail(ctx, GPUK_ERR_NULL, "%s: %s is NULL", fn, to_device ? "src" : "dst");
    if (bytes != want)
        return gk_fail(ctx, GPUK_ERR_SIZE, "%s: bytes is %zu, the tensor holds %zu (%lld %s "
                       "elements)", fn, bytes, want, (long long)t->numel,
                       gpuk_dtype_name(t->dtype));
    gpuk_tdesc d;
    gk_desc(t, &d);
    st = gk_transfer(ctx, &d, buf, to_device);
    return st == GPUK_OK ? GPUK_OK : gk_backend_fail(ctx, st, fn);
}

gpuk_status gpuk_tensor_write(gpuk_context *ctx, gpuk_tensor *t, const void *src, size_t bytes)
{
    return rw(ctx, t, (void *)src, bytes, 1, "gpuk_tensor_write");
}

gpuk_status gpuk_tensor_read(gpuk_context *ctx, const gpuk_tensor *t, void *dst, size_t bytes)
{
    return rw(ctx, t, dst, bytes, 0, "gpuk_tensor_read");
}

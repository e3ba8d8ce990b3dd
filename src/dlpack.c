/*
 * dlpack.c - DLPack both ways, without copying: a DLManagedTensor of the
 * context's device borrowed as a gpuk tensor (the producer's deleter runs
 * when the last tensor viewing it is gone), and a gpuk tensor exported as
 * one (the consumer's deleter drops the storage reference it holds, which
 * may be after the context closed: see memory.c).
 *
 * Every field of a DLPack tensor is checked before any element is touched,
 * and a bad one is named in the message, as for any other argument.
 */
#include "gpuk_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_DLPACK_DLPACK_H
#include <dlpack/dlpack.h>

/* The dtype of a DLPack tensor, or 0 when libgpuk has none like it
 * (the dlcode column of GPUK_DTYPE_MAP). */
static gpuk_dtype from_dl_dtype(DLDataType t)
{
    if (t.lanes != 1)
        return (gpuk_dtype)0;
    return gk_dtype_from_dl(t.code, t.bits);
}

static DLDataType to_dl_dtype(gpuk_dtype dt)
{
    DLDataType t = { (uint8_t)gk_dtype_dlcode(dt), (uint8_t)(8 * gk_elsize(dt)), 1 };
    return t;
}

static void call_deleter(void *arg)
{
    DLManagedTensor *dl = arg;
    if (dl->deleter)
        dl->deleter(dl);
}

/* Every field, in the order a reader meets them; the first bad one is
 * named (as GPUK_ERR_INVALID, DTYPE, SHAPE or LAYOUT, and GPUK_ERR_NULL
 * for a NULL shape with ndim above 0); for any of them the caller
 * runs dl's deleter, as gpuk_interop(3) promises. */
static gpuk_status check_fields(gpuk_context *ctx, const DLManagedTensor *dl, gpuk_dtype *dt,
                                int64_t shape[GPUK_MAX_DIMS], int64_t strides[GPUK_MAX_DIMS],
                                int *ndim, int *dense)
{
    const DLTensor *t = &dl->dl_tensor;
    const char *fn = "gpuk_tensor_from_dlpack";
    if (!dl->deleter && dl->manager_ctx)
        return gk_fail(ctx, GPUK_ERR_INVALID, "%s: dl->deleter is NULL but dl->manager_ctx is set: "
                       "nothing could free what the producer holds", fn);
    uint32_t want = ctx->be->dlpack_device;
    if ((uint32_t)t->device.device_type != want) {
        if (t->device.device_type == kDLCUDAHost && want == kDLCPU)
            ;   /* page-locked host memory is host memory to the cpu backend */
        else
            return gk_fail(ctx, GPUK_ERR_INVALID, "%s: dl->dl_tensor.device.device_type is %d; "
                           "backend %s takes DLPack device type %u", fn,
                           (int)t->device.device_type, ctx->be->name, want);
    }
    if (want != kDLCPU && t->device.device_id != ctx->device)
        return gk_fail(ctx, GPUK_ERR_INVALID, "%s: dl->dl_tensor.device.device_id is %d; this "
                       "context runs on device %d", fn, (int)t->device.device_id, ctx->device);
    if (t->dtype.lanes != 1)
        return gk_fail(ctx, GPUK_ERR_DTYPE, "%s: dl->dl_tensor.dtype.lanes is %u; libgpuk takes "
                       "1 (no vector types)", fn, (unsigned)t->dtype.lanes);
    if (!(*dt = from_dl_dtype(t->dtype))) {
        /* "f32 (code 2, 32 bits), i32 (code 0, 32 bits), ..." from the dtype list */
        char have[256];
        size_t at = 0;
#define GK_DL_HAVE(id, value, name, bytes, dlcode, prec)                                          \
        if (at < sizeof have)                                                               \
            at += (size_t)snprintf(have + at, sizeof have - at, "%s%s (code %d, %d bits)",  \
                                   at ? ", " : "", name, dlcode, 8 * (bytes));
        GPUK_DTYPE_MAP(GK_DL_HAVE)
#undef GK_DL_HAVE
        return gk_fail(ctx, GPUK_ERR_DTYPE, "%s: dl->dl_tensor.dtype is code %u with %u bits; "
                       "libgpuk takes %s", fn, (unsigned)t->dtype.code,
                       (unsigned)t->dtype.bits, have);
    }
    if (t->ndim < 0 || t->ndim > GPUK_MAX_DIMS)
        return gk_fail(ctx, GPUK_ERR_SHAPE, "%s: dl->dl_tensor.ndim is %d; libgpuk tensors have "
                       "0 (seen as [1]) to %d dimensions", fn, (int)t->ndim, GPUK_MAX_DIMS);
    if (t->ndim > 0 && !t->shape)
        return gk_fail(ctx, GPUK_ERR_NULL, "%s: dl->dl_tensor.shape is NULL with ndim %d", fn,
                       (int)t->ndim);
    *ndim = t->ndim ? t->ndim : 1;
    *dense = !t->strides;
    for (int i = 0; i < *ndim; i++) {
        shape[i] = t->ndim ? t->shape[i] : 1;
        strides[i] = t->strides && t->ndim ? t->strides[i] : 0;
        if (shape[i] < 0)
            return gk_fail(ctx, GPUK_ERR_SHAPE, "%s: dl->dl_tensor.shape[%d] is %lld", fn, i,
                           (long long)shape[i]);
        if (strides[i] < 0)
            return gk_fail(ctx, GPUK_ERR_LAYOUT, "%s: dl->dl_tensor.strides[%d] is %lld: negative "
                           "strides are not supported", fn, i, (long long)strides[i]);
    }
    if ((t->byte_offset % gk_elsize(*dt)) != 0)
        return gk_fail(ctx, GPUK_ERR_LAYOUT, "%s: dl->dl_tensor.byte_offset %llu misaligns the "
                       "%zu-byte elements", fn, (unsigned long long)t->byte_offset,
                       gk_elsize(*dt));
    return GPUK_OK;
}

gpuk_status gpuk_tensor_from_dlpack(gpuk_context *ctx, struct DLManagedTensor *dl,
                                    gpuk_tensor **out)
{
    if (!ctx)
        return GPUK_ERR_NULL;
    if (!dl)
        return gk_fail(ctx, GPUK_ERR_NULL, "gpuk_tensor_from_dlpack: dl is NULL");
    if (!out)
        return gk_fail(ctx, GPUK_ERR_NULL, "gpuk_tensor_from_dlpack: out is NULL");
    *out = NULL;
    gpuk_dtype dt = GPUK_F32;
    int64_t shape[GPUK_MAX_DIMS], strides[GPUK_MAX_DIMS];
    int ndim = 0, dense = 1;
    gpuk_status st = GPUK_OK;
    if (!ctx->be->dlpack_device || !GK_BE_HAS(ctx->be, check_pointer))
        st = gk_fail(ctx, GPUK_ERR_UNSUPPORTED, "gpuk_tensor_from_dlpack: backend %s (plugin ABI "
                     "%u.%u) cannot take DLPack tensors", ctx->be->name, ctx->be->abi_major,
                     ctx->be->abi_minor);
    if (st == GPUK_OK)
        st = check_fields(ctx, dl, &dt, shape, strides, &ndim, &dense);
    if (st == GPUK_OK) {
        char *data = (char *)dl->dl_tensor.data;
        if (data)
            data += dl->dl_tensor.byte_offset;
        st = gk_tensor_borrow(ctx, dt, ndim, shape, dense ? NULL : strides, data,
                              "gpuk_tensor_from_dlpack", call_deleter, dl, out);
    }
    /* ownership passed with the call: a tensor that could not be made
     * gives it back to its producer now */
    if (st != GPUK_OK)
        call_deleter(dl);
    return st;
}

/* What an export allocates: the DLPack struct, its shape and strides, and
 * the storage reference that keeps the memory alive. */
typedef struct gk_export {
    DLManagedTensor m;
    int64_t shape[GPUK_MAX_DIMS], strides[GPUK_MAX_DIMS];
    gk_storage *st;
} gk_export;

static void export_deleter(DLManagedTensor *m)
{
    gk_export *e = m->manager_ctx;
    gk_storage_unref(e->st);
    free(e);
}

gpuk_status gpuk_tensor_to_dlpack(gpuk_context *ctx, const gpuk_tensor *h, struct DLManagedTensor **out)
{
    gpuk_status st;
    if (!ctx)
        return GPUK_ERR_NULL;
    if (!out)
        return gk_fail(ctx, GPUK_ERR_NULL, "gpuk_tensor_to_dlpack: out is NULL");
    *out = NULL;
    gk_tensor *t = gk_tensor_arg(ctx, h, "t", &st);
    if (!t)
        return st;
    if (!ctx->be->dlpack_device)
        return gk_fail(ctx, GPUK_ERR_UNSUPPORTED, "gpuk_tensor_to_dlpack: backend %s (plugin ABI "
                       "%u.%u) names no DLPack device", ctx->be->name, ctx->be->abi_major,
                       ctx->be->abi_minor);
    gk_export *e = calloc(1, sizeof *e);
    if (!e)
        return gk_fail(ctx, GPUK_ERR_NO_MEMORY, "gpuk_tensor_to_dlpack: out of host memory");
    DLTensor *d = &e->m.dl_tensor;
    d->data = t->st->data;
    d->byte_offset = t->st->data ? (uint64_t)t->offset * gk_elsize(t->dtype) : 0;
    d->device.device_type = (DLDeviceType)ctx->be->dlpack_device;
    d->device.device_id = ctx->be->dlpack_device == kDLCPU ? 0 : ctx->device;
    d->ndim = t->ndim;
    d->dtype = to_dl_dtype(t->dtype);
    memcpy(e->shape, t->shape, sizeof e->shape);
    memcpy(e->strides, t->stride, sizeof e->strides);
    d->shape = e->shape;
    d->strides = e->strides;
    e->m.manager_ctx = e;
    e->m.deleter = export_deleter;
    e->st = t->st;
    atomic_fetch_add(&t->st->refs, 1);
    *out = &e->m;
    return GPUK_OK;
}

#else /* no dlpack/dlpack.h at build time */

/* The struct's layout is DLPack's stable ABI: the deleter is the pointer
 * after a DLTensor (data, device, ndim, dtype, shape, strides, offset) and
 * manager_ctx.  Ownership passes with the call here too, so the producer's
 * deleter runs even though nothing could be made of the tensor. */
struct gk_dl_tail {
    void *data;
    int32_t device_type, device_id, ndim;
    uint8_t code, bits;
    uint16_t lanes;
    int64_t *shape, *strides;
    uint64_t byte_offset;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensor *self);
};

gpuk_status gpuk_tensor_from_dlpack(gpuk_context *ctx, struct DLManagedTensor *dl,
                                    gpuk_tensor **out)
{
    if (!ctx)
        return GPUK_ERR_NULL;
    if (!dl)
        return gk_fail(ctx, GPUK_ERR_NULL, "gpuk_tensor_from_dlpack: dl is NULL");
    if (!out)
        return gk_fail(ctx, GPUK_ERR_NULL, "gpuk_tensor_from_dlpack: out is NULL");
    *out = NULL;
    struct gk_dl_tail *m = (struct gk_dl_tail *)(void *)dl;
    if (m->deleter)
        m->deleter(dl);
    return gk_fail(ctx, GPUK_ERR_UNSUPPORTED, "gpuk_tensor_from_dlpack: libgpuk was built "
                   "without dlpack/dlpack.h (Debian: libdlpack-dev)");
}

gpuk_status gpuk_tensor_to_dlpack(gpuk_context *ctx, const gpuk_tensor *t, struct DLManagedTensor **out)
{
    if (!ctx)
        return GPUK_ERR_NULL;
    if (out)
        *out = NULL;
    return gk_fail(ctx, GPUK_ERR_UNSUPPORTED, "gpuk_tensor_to_dlpack: libgpuk was built "
                   "without dlpack/dlpack.h (Debian: libdlpack-dev)");
}

#endif

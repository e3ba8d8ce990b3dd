/*
 * memory.c - how long memory lives: the references that keep a backend's
 * state and its plugin alive while memory it allocated is still in use (a
 * storage of the context, or one exported through DLPack and freed by its
 * consumer after the context closed), the release of a plugin once nothing
 * uses it, and page-locked host memory for the caller (gpuk_host_alloc).
 *
 * The release of a plugin lives here, not in the loader that opens it,
 * because the last reference to a storage may be dropped from tensor.c:
 * doc/design.md, Layers, puts this file below tensors and the loader above
 * them, and a call from here up to the loader would close a circle.
 *
 * Reference counts are atomic because a DLPack consumer may drop its
 * reference on any thread; everything else of a context stays on the one
 * thread that uses it (gpuk.h, "Thread safety").
 */
#include "gpuk_internal.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

void gk_plugin_release(gk_plugin *p)
{
    if (!p)
        return;
    dlclose(p->dl);   /* RTLD_NODELETE (loader.c): stays mapped */
    free(p->rows);
    free(p->path);
    free(p);
}

void gk_owner_unref(gk_owner *o)
{
    if (!o || atomic_fetch_sub(&o->refs, 1) != 1)
        return;
    o->plugin->be->fini(o->b);
    gk_plugin_release(o->plugin);
    free(o);
}

void gk_storage_unref(gk_storage *st)
{
    if (!st || atomic_fetch_sub(&st->refs, 1) != 1)
        return;
    if (st->borrowed) {
        /* the caller may free or reuse its memory the moment it is handed
         * back: the kernels queued on it must be done first */
        st->owner->plugin->be->sync(st->owner->b);
        if (st->release)
            st->release(st->release_arg);
    } else if (st->data) {
        st->owner->plugin->be->free(st->owner->b, st->data);
    }
    gk_owner_unref(st->owner);
    free(st);
}

gpuk_status gpuk_host_alloc(gpuk_context *ctx, size_t bytes, void **p)
{
    if (!ctx)
        return GPUK_ERR_NULL;
    if (!p)
        return gk_fail(ctx, GPUK_ERR_NULL, "gpuk_host_alloc: p is NULL");
    *p = NULL;
    if (bytes == 0)
        return gk_fail(ctx, GPUK_ERR_INVALID, "gpuk_host_alloc: bytes is 0");
    if (!GK_BE_HAS(ctx->be, host_alloc) || !GK_BE_HAS(ctx->be, host_free))
        return gk_fail(ctx, GPUK_ERR_UNSUPPORTED, "gpuk_host_alloc: backend %s (plugin ABI %u.%u) "
                       "has no host_alloc", ctx->be->name, ctx->be->abi_major, ctx->be->abi_minor);
    void *mem = NULL;
    gpuk_status st = ctx->be->host_alloc(ctx->b, bytes, &mem);
    if (st != GPUK_OK)
        return gk_backend_fail(ctx, st, "gpuk_host_alloc");
    if (gk_handles_put(&ctx->hostmem, (uint64_t)(uintptr_t)mem, (void *)(uintptr_t)bytes) != 0) {
        ctx->be->host_free(ctx->b, mem);
        return gk_fail(ctx, GPUK_ERR_NO_MEMORY, "gpuk_host_alloc: out of host memory for the "
                       "allocation table");
    }
    *p = mem;
    return GPUK_OK;
}

gpuk_status gpuk_host_free(gpuk_context *ctx, void *p)
{
    if (!ctx)
        return GPUK_ERR_NULL;
    if (!p)
        return GPUK_OK;
    if (!gk_handles_del(&ctx->hostmem, (uint64_t)(uintptr_t)p))
        return gk_fail(ctx, GPUK_ERR_INVALID, "gpuk_host_free: p (%p) was not returned by "
                       "gpuk_host_alloc on this context, or was freed already", p);
    ctx->be->host_free(ctx->b, p);
    return GPUK_OK;
}

static void free_host(uint64_t key, void *obj, void *arg)
{
    gpuk_context *ctx = arg;
    (void)obj;
    ctx->be->host_free(ctx->b, (void *)(uintptr_t)key);
}

/* At close: every host allocation the caller left, back to the backend. */
void gk_host_free_all(gpuk_context *ctx)
{
    gk_handles_each(&ctx->hostmem, free_host, ctx);
    gk_handles_free(&ctx->hostmem);
}

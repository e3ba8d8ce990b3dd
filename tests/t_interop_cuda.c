/*
 * t_interop_cuda.c - the caller's memory on the cuda backend (skipped
 * without a usable GPU): device pointers wrapped without a copy, the
 * driver's word on pointers that are not the context's device memory,
 * DLPack round trips of device memory, and reads and writes through the
 * page-locked staging pool at sizes that are not multiples of its slots,
 * from page-locked memory, and with the pool off (GPUK_PINNED=0).
 *
 * The test links no CUDA library: device pointers come from tensors the
 * library made (gpuk_tensor_get_info's data).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpuk.h>

#include "config.h"
#include "t_rel.h"
#include "tap.h"

#ifdef HAVE_DLPACK_DLPACK_H
#include <dlpack/dlpack.h>
#endif

static void *data_of(gpuk_context *ctx, gpuk_tensor *t)
{
    gpuk_tensor_info info;
    return gpuk_tensor_get_info(ctx, t, &info) == GPUK_OK ? info.data : NULL;
}

static void test_wrap(gpuk_context *ctx)
{
    int64_t n = 1000;
    gpuk_tensor *base = rel_tensor(ctx, GPUK_F32, 1, &n, -500.0f, 1.0f), *w = NULL;
    void *dev = data_of(ctx, base);
    gpuk_status st = gpuk_tensor_wrap(ctx, GPUK_F32, 1, &n, NULL, dev, &w);
    tap_ok(st == GPUK_OK && data_of(ctx, w) == dev, "wrap a device pointer: same address (%s: %s)",
           gpuk_strerror(st), gpuk_context_error(ctx));
    if (w && gpuk_relu(ctx, w, w, NULL) == GPUK_OK) {
        float v[1000];
        gpuk_tensor_read(ctx, base, v, sizeof v);
        tap_ok(v[0] == 0.0f && v[999] == 499.0f, "relu through the wrap shows in the base tensor");
    } else {
        tap_ok(0, "relu through the wrap: %s", gpuk_context_error(ctx));
    }
    gpuk_tensor_destroy(ctx, w);
    float after;
    int64_t one = 1;
    gpuk_tensor *v0 = NULL;
    gpuk_tensor_view(ctx, base, 1, &one, NULL, 999, &v0);
    tap_ok(gpuk_tensor_read(ctx, v0, &after, 4) == GPUK_OK && after == 499.0f,
           "destroying the wrap freed nothing");
    gpuk_tensor_destroy(ctx, v0);

    /* what the driver says is not this context's device memory */
    float host[16];
    void *pinned = NULL;
    int64_t big = 2000, sixteen = 16;
    gpuk_tensor *bad = NULL;
    REL_EXPECT(ctx, gpuk_tensor_wrap(ctx, GPUK_F32, 1, &sixteen, NULL, host, &bad),
               GPUK_ERR_INVALID, "data");
    if (gpuk_host_alloc(ctx, 64, &pinned) == GPUK_OK)
        REL_EXPECT(ctx, gpuk_tensor_wrap(ctx, GPUK_F32, 1, &sixteen, NULL, pinned, &bad),
                   GPUK_ERR_INVALID, "data");
    gpuk_host_free(ctx, pinned);
    REL_EXPECT(ctx, gpuk_tensor_wrap(ctx, GPUK_F32, 1, &big, NULL, dev, &bad), GPUK_ERR_INVALID,
               "data");
    gpuk_tensor *gone = rel_tensor(ctx, GPUK_F32, 1, &big, 0, 0);
    void *stale = data_of(ctx, gone);
    gpuk_tensor_destroy(ctx, gone);
    REL_EXPECT(ctx, gpuk_tensor_wrap(ctx, GPUK_F32, 1, &sixteen, NULL, stale, &bad),
               GPUK_ERR_INVALID, "data");
    gpuk_tensor_destroy(ctx, base);
}

/* n floats through write and read; the pattern differs per call. */
static int round_trip(gpuk_context *ctx, float *src, float *dst, int64_t n, float salt)
{
    for (int64_t i = 0; i < n; i++)
        src[i] = (float)(i % 65521) + salt;
    gpuk_tensor *t = NULL;
    gpuk_status st = gpuk_tensor_create(ctx, GPUK_F32, 1, &n, &t);
    if (st == GPUK_OK)
        st = gpuk_tensor_write(ctx, t, src, (size_t)n * 4);
    if (st == GPUK_OK)   /* an op between write and read: the order must hold */
        st = gpuk_scale(ctx, 2.0f, t, t, NULL);
    memset(dst, 0, (size_t)n * 4);
    if (st == GPUK_OK)
        st = gpuk_tensor_read(ctx, t, dst, (size_t)n * 4);
    gpuk_tensor_destroy(ctx, t);
    if (st != GPUK_OK) {
        tap_diag("  %s: %s", gpuk_strerror(st), gpuk_context_error(ctx));
        return 0;
    }
    for (int64_t i = 0; i < n; i++)
        if (dst[i] != 2.0f * src[i]) {
            tap_diag("  element %lld: %g, want %g", (long long)i, dst[i], 2.0f * src[i]);
            return 0;
        }
    return 1;
}

static void test_staging(void)
{
    /* 16 MiB slots: 3 slots and a piece, a piece under one, and small;
     * then lengths of 64 p j + 4 bytes, which the host copy split over p
     * threads once cut 4 bytes short: the row_ptr of a 2^20-row matrix
     * (p = 8, as on a host of 8 cores or more), 537601 floats (64 x 840 x
     * 40 + 4 bytes: p = 5 to 8), and a slot and those 537601 */
    const int64_t sizes[] = { (int64_t)3 * (4 << 20) + 12345, (4 << 20) - 7, 1000,
                              (1 << 20) + 1, 537601, (4 << 20) + 537601 };
    const int nsizes = (int)(sizeof sizes / sizeof sizes[0]);
    int64_t most = sizes[0];
    float *src = malloc((size_t)most * 4), *dst = malloc((size_t)most * 4);
    if (!src || !dst) {
        tap_skip("no host memory for 50 MB of staging tests");
        free(src);
        free(dst);
        return;
    }
    static const char *const modes[] = { "default pool", "GPUK_PINNED=0", "GPUK_PINNED=4M" };
    for (int m = 0; m < 3; m++) {
        if (m == 1)
            setenv("GPUK_PINNED", "0", 1);
        if (m == 2)
            setenv("GPUK_PINNED", "4M", 1);
        gpuk_context *ctx = NULL;
        if (gpuk_context_open(&ctx, "cuda") != GPUK_OK) {
            tap_ok(0, "cuda opens with %s", modes[m]);
            continue;
        }
        for (int s = 0; s < nsizes; s++)
            tap_ok(round_trip(ctx, src, dst, sizes[s], (float)(m * nsizes + s)),
                   "%s: %lld floats written, scaled, read back", modes[m], (long long)sizes[s]);
        gpuk_context_close(ctx);
    }
    unsetenv("GPUK_PINNED");
    free(src);
    free(dst);

    /* from and into page-locked memory: straight to the DMA engine */
    gpuk_context *ctx = NULL;
    void *a = NULL, *b = NULL;
    if (gpuk_context_open(&ctx, "cuda") == GPUK_OK && gpuk_host_alloc(ctx, (size_t)most * 4, &a) ==
        GPUK_OK && gpuk_host_alloc(ctx, (size_t)most * 4, &b) == GPUK_OK)
        tap_ok(round_trip(ctx, a, b, most, 0.5f), "%lld floats from and into gpuk_host_alloc "
               "memory", (long long)most);
    else
        tap_ok(0, "gpuk_host_alloc of %lld bytes on cuda", (long long)most * 4);
    gpuk_host_free(ctx, a);
    gpuk_context_close(ctx);   /* frees b */
}

#ifdef HAVE_DLPACK_DLPACK_H
static void test_dlpack(gpuk_context *ctx)
{
    int64_t shape[2] = { 8, 9 };
    gpuk_tensor *t = rel_tensor(ctx, GPUK_F32, 2, shape, 1.0f, 0.5f), *back = NULL;
    DLManagedTensor *m = NULL;
    gpuk_status st = gpuk_tensor_to_dlpack(ctx, t, &m);
    gpuk_info info;
    gpuk_context_info(ctx, &info);
    tap_ok(st == GPUK_OK && m->dl_tensor.device.device_type == kDLCUDA &&
               m->dl_tensor.device.device_id == info.device_ordinal &&
               m->dl_tensor.data == data_of(ctx, t),
           "to_dlpack: kDLCUDA memory of the context's device, the tensor's address");
    gpuk_tensor_destroy(ctx, t);
    if (st != GPUK_OK)
        return;
    st = gpuk_tensor_from_dlpack(ctx, m, &back);
    float v[72];
    if (st == GPUK_OK)
        st = gpuk_tensor_read(ctx, back, v, sizeof v);
    tap_ok(st == GPUK_OK && data_of(ctx, back) == m->dl_tensor.data && v[71] == 36.5f,
           "and back through from_dlpack: same memory, still alive after its tensor went");
    gpuk_tensor_destroy(ctx, back);   /* runs the export's deleter: the storage goes */

    int64_t n = 4;
    float host[4] = { 1, 2, 3, 4 };
    DLManagedTensor cpu;
    memset(&cpu, 0, sizeof cpu);
    cpu.dl_tensor.data = host;
    cpu.dl_tensor.device.device_type = kDLCPU;
    cpu.dl_tensor.ndim = 1;
    cpu.dl_tensor.dtype.code = kDLFloat;
    cpu.dl_tensor.dtype.bits = 32;
    cpu.dl_tensor.dtype.lanes = 1;
    cpu.dl_tensor.shape = &n;
    REL_EXPECT(ctx, gpuk_tensor_from_dlpack(ctx, &cpu, &back), GPUK_ERR_INVALID, "device_type");
}
#endif

int main(void)
{
    if (!getenv("GPUK_BACKEND_PATH"))
        return tap_skip_all("run through make check: GPUK_BACKEND_PATH is not set");
    gpuk_context *ctx = NULL;
    gpuk_status st = gpuk_context_open(&ctx, "cuda");
    if (st != GPUK_OK)
        return tap_skip_all("no usable CUDA backend here (%s)", gpuk_strerror(st));
    test_wrap(ctx);
#ifdef HAVE_DLPACK_DLPACK_H
    test_dlpack(ctx);
#else
    tap_skip("built without dlpack/dlpack.h");
#endif
    gpuk_context_close(ctx);
    test_staging();
    return tap_done();
}

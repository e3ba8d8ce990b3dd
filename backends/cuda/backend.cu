/*
 * backend.cu - backend_cuda.so: the plugin struct, the device probe,
 * context init/fini, device memory, the event timer and status mapping.
 *
 * The plugin links the CUDA runtime statically, so it loads on a machine
 * without the NVIDIA driver; probe looks for libcuda.so.1 itself before the
 * first runtime call and reports GPUK_ERR_NO_DRIVER / GPUK_ERR_NO_DEVICE.
 * Every op of a context runs asynchronously on the context's one stream;
 * read and sync wait for it.
 */
#include "config.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuda_internal.h"

/* ---------------------------------------------------------------- status mapping */

gpuk_status gkc_fail(gpuk_bctx *b, gpuk_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->err, sizeof b->err, fmt, ap);
    va_end(ap);
    return st;
}

gpuk_status gkc_cuda_error(gpuk_bctx *b, cudaError_t e, const char *what)
{
    if (e == cudaErrorMemoryAllocation) {
        /* Not sticky: clear it so the next call on the context works. */
        (void)cudaGetLastError();
        return gkc_fail(b, GPUK_ERR_DEVICE_MEMORY, "%s: out of device memory (%s)", what,
                        cudaGetErrorString(e));
    }
    return gkc_fail(b, GPUK_ERR_DEVICE, "%s: %s: %s", what, cudaGetErrorName(e),
                    cudaGetErrorString(e));
}

gpuk_status gkc_blas_error(gpuk_bctx *b, cublasStatus_t s, const char *what)
{
    if (s == CUBLAS_STATUS_ALLOC_FAILED) {
        (void)cudaGetLastError();
        return gkc_fail(b, GPUK_ERR_DEVICE_MEMORY, "%s: cuBLAS could not allocate memory (%s)",
                        what, cublasGetStatusName(s));
    }
    return gkc_fail(b, GPUK_ERR_LIBRARY, "%s: cuBLAS failed: %s (%s)", what,
                    cublasGetStatusName(s), cublasGetStatusString(s));
}

gpuk_status gkc_sparse_error(gpuk_bctx *b, cusparseStatus_t s, const char *what)
{
    if (s == CUSPARSE_STATUS_ALLOC_FAILED) {
        (void)cudaGetLastError();
        return gkc_fail(b, GPUK_ERR_DEVICE_MEMORY, "%s: cuSPARSE could not allocate memory (%s)",
                        what, cusparseGetErrorName(s));
    }
    return gkc_fail(b, GPUK_ERR_LIBRARY, "%s: cuSPARSE failed: %s (%s)", what,
                    cusparseGetErrorName(s), cusparseGetErrorString(s));
}

gpuk_status gkc_launched(gpuk_bctx *b, const char *op, const char *variant)
{
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        return GPUK_OK;
    return gkc_fail(b, GPUK_ERR_DEVICE, "%s/%s: kernel launch failed: %s: %s", op, variant,
                    cudaGetErrorName(e), cudaGetErrorString(e));
}

/* ---------------------------------------------------------------- probe */

/* libcuda.so.1 is the driver; without it no runtime call can succeed. */
static int driver_present(void)
{
    void *h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!h)
        return 0;
    dlclose(h);
    return 1;
}

static gpuk_status count_devices(int *count, char *reason, size_t len)
{
    *count = 0;
    if (!driver_present()) {
        snprintf(reason, len, "no NVIDIA driver: libcuda.so.1 not found");
        return GPUK_ERR_NO_DRIVER;
    }
    cudaError_t e = cudaGetDeviceCount(count);
    if (e == cudaErrorNoDevice || (e == cudaSuccess && *count == 0)) {
        *count = 0;
        snprintf(reason, len, "no CUDA device: %s", cudaGetErrorString(e == cudaSuccess ? cudaErrorNoDevice : e));
        return GPUK_ERR_NO_DEVICE;
    }
    if (e != cudaSuccess) {
        *count = 0;
        snprintf(reason, len, "the NVIDIA driver cannot be used: %s: %s", cudaGetErrorName(e),
                 cudaGetErrorString(e));
        return e == cudaErrorDevicesUnavailable ? GPUK_ERR_NO_DEVICE : GPUK_ERR_NO_DRIVER;
    }
    return GPUK_OK;
}

static cudaError_t describe_device(int dev, gpuk_device_desc *d)
{
    cudaDeviceProp p;
    cudaError_t e = cudaGetDeviceProperties(&p, dev);
    if (e != cudaSuccess)
        return e;
    memset(d, 0, sizeof *d);
    size_t len = strnlen(p.name, sizeof d->name - 1);
    memcpy(d->name, p.name, len);
    d->name[len] = '\0';
    d->memory_bytes = p.totalGlobalMem;
    d->multiprocessors = p.multiProcessorCount;
    d->cc_major = p.major;
    d->cc_minor = p.minor;
    int khz = 0;
    if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev) == cudaSuccess)
        d->clock_mhz = khz / 1000;
    return cudaSuccess;
}

static gpuk_status cuda_probe(gpuk_probe_result *out)
{
    memset(out, 0, sizeof *out);
    int count = 0;
    out->status = count_devices(&count, out->reason, sizeof out->reason);
    if (out->status != GPUK_OK)
        return out->status;
    int n = count < GPUK_MAX_DEVICES ? count : GPUK_MAX_DEVICES;
    for (int i = 0; i < n; i++) {
        cudaError_t e = describe_device(i, &out->devices[i]);
        if (e != cudaSuccess) {
            snprintf(out->reason, sizeof out->reason, "device %d: %s: %s", i, cudaGetErrorName(e),
                     cudaGetErrorString(e));
            out->status = GPUK_ERR_NO_DEVICE;
            return out->status;
        }
    }
    out->device_count = n;
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    snprintf(out->reason, sizeof out->reason, "CUDA driver %d.%d, runtime %d.%d, %d device%s",
             drv / 1000, drv % 1000 / 10, rt / 1000, rt % 1000 / 10, count, count == 1 ? "" : "s");
    return GPUK_OK;
}

/* ---------------------------------------------------------------- init / fini */

static void cuda_fini(gpuk_bctx *b);

static gpuk_status cuda_init(const gpuk_init_args *args, gpuk_bctx **out, char *msg, size_t msglen)
{
    *out = NULL;
    int device = args && args->size >= offsetof(gpuk_init_args, device) + sizeof(int)
                     ? args->device : 0;
    int count = 0;
    gpuk_status st = count_devices(&count, msg, msglen);
    if (st != GPUK_OK)
        return st;
    if (device < 0 || device >= count) {
        snprintf(msg, msglen, "device %d requested but %d CUDA device%s present", device, count,
                 count == 1 ? " is" : "s are");
        return GPUK_ERR_NO_DEVICE;
    }
    gpuk_bctx *b = (gpuk_bctx *)calloc(1, sizeof *b);
    if (!b) {
        snprintf(msg, msglen, "out of host memory for the CUDA context");
        return GPUK_ERR_NO_MEMORY;
    }
    b->device = device;
    b->verbose = args->verbose;
    /* 2.1: the staging pool's size, when core is new enough to say */
    if (args->size >= offsetof(gpuk_init_args, pinned_bytes) + sizeof(int64_t))
        b->stage.want = args->pinned_bytes;
    cudaError_t e = describe_device(device, &b->dev);
    const char *what = "cudaGetDeviceProperties";
    if (e == cudaSuccess) {
        what = "cudaSetDevice";
        e = cudaSetDevice(device);
    }
    if (e == cudaSuccess) {
        what = "cudaStreamCreate";
        e = cudaStreamCreateWithFlags(&b->own_stream, cudaStreamNonBlocking);
        b->stream = b->own_stream;
    }
    if (e == cudaSuccess) {
        what = "cudaEventCreate";
        e = cudaEventCreate(&b->t0);
        if (e == cudaSuccess)
            e = cudaEventCreate(&b->t1);
    }
    if (e != cudaSuccess) {
        snprintf(msg, msglen, "CUDA device %d: %s: %s: %s", device, what, cudaGetErrorName(e),
                 cudaGetErrorString(e));
        st = e == cudaErrorMemoryAllocation ? GPUK_ERR_DEVICE_MEMORY : GPUK_ERR_DEVICE;
        (void)cudaGetLastError();
        cuda_fini(b);
        return st;
    }
    *out = b;
    return GPUK_OK;
}

static void cuda_fini(gpuk_bctx *b)
{
    if (!b)
        return;
    cudaSetDevice(b->device);
    if (b->stream)
        cudaStreamSynchronize(b->stream);
    if (b->blas)
        cublasDestroy(b->blas);
    if (b->sparse)
        cusparseDestroy(b->sparse);
    for (int i = 0; i < GKC_NSLOTS; i++)
        if (b->scratch[i])
            cudaFree(b->scratch[i]);
    if (b->t0)
        cudaEventDestroy(b->t0);
    if (b->t1)
        cudaEventDestroy(b->t1);
    gkc_stage_release(b);
    /* a caller's stream is the caller's: only the context's own goes */
    if (b->own_stream)
        cudaStreamDestroy(b->own_stream);
    (void)cudaGetLastError();
    free(b);
}

gpuk_status gkc_enter(gpuk_bctx *b)
{
    GKC_CUDA(b, cudaSetDevice(b->device), "cudaSetDevice");
    return GPUK_OK;
}

gpuk_status gkc_scratch(gpuk_bctx *b, int slot, size_t bytes, void **out)
{
    if (bytes == 0)
        bytes = 16;
    if (b->scratch_bytes[slot] < bytes) {
        if (b->scratch[slot]) {
            GKC_CUDA(b, cudaFree(b->scratch[slot]), "cudaFree (scratch)");
            b->scratch[slot] = NULL;
            b->scratch_bytes[slot] = 0;
        }
        GKC_CUDA(b, cudaMalloc(&b->scratch[slot], bytes), "scratch buffer");
        b->scratch_bytes[slot] = bytes;
    }
    *out = b->scratch[slot];
    return GPUK_OK;
}

gpuk_status gkc_counters(gpuk_bctx *b, int64_t n, unsigned **out)
{
    size_t had = b->scratch_bytes[GKC_SLOT_COUNT];   /* a new buffer (maybe at the old address) */
    void *p = NULL;
    GKC_TRY(gkc_scratch(b, GKC_SLOT_COUNT, (size_t)n * sizeof(unsigned), &p));
    if (b->scratch_bytes[GKC_SLOT_COUNT] != had)
        GKC_CUDA(b, cudaMemsetAsync(p, 0, b->scratch_bytes[GKC_SLOT_COUNT], b->stream),
                 "cudaMemsetAsync (counters)");
    *out = (unsigned *)p;
    return GPUK_OK;
}

gpuk_status gkc_blas(gpuk_bctx *b, cublasHandle_t *out)
{
    if (!b->blas) {
        cublasHandle_t h = NULL;
        GKC_BLAS(b, cublasCreate(&h), "cublasCreate");
        cublasStatus_t s = cublasSetStream(h, b->stream);
        if (s != CUBLAS_STATUS_SUCCESS) {
            cublasDestroy(h);
            return gkc_blas_error(b, s, "cublasSetStream");
        }
        b->blas = h;
    }
    *out = b->blas;
    return GPUK_OK;
}

gpuk_status gkc_sparse(gpuk_bctx *b, cusparseHandle_t *out)
{
    if (!b->sparse) {
        cusparseHandle_t h = NULL;
        GKC_SPARSE(b, cusparseCreate(&h), "cusparseCreate");
        cusparseStatus_t s = cusparseSetStream(h, b->stream);
        if (s != CUSPARSE_STATUS_SUCCESS) {
            cusparseDestroy(h);
            return gkc_sparse_error(b, s, "cusparseSetStream");
        }
        b->sparse = h;
    }
    *out = b->sparse;
    return GPUK_OK;
}

static const char *cuda_last_error(gpuk_bctx *b)
{
    return b ? b->err : "";
}

static void cuda_info(gpuk_bctx *b, gpuk_device_desc *dev, int *num_threads)
{
    if (dev)
        *dev = b->dev;
    if (num_threads)
        *num_threads = 0;
}

/* ---------------------------------------------------------------- memory */

static gpuk_status cuda_alloc(gpuk_bctx *b, size_t bytes, void **out)
{
    *out = NULL;
    GKC_TRY(gkc_enter(b));
    GKC_CUDA(b, cudaMalloc(out, bytes), "cudaMalloc");
    return GPUK_OK;
}

static void cuda_free(gpuk_bctx *b, void *p)
{
    if (!p)
        return;
    /* cudaFree waits for the device, so queued ops that use p finish first. */
    if (cudaSetDevice(b->device) != cudaSuccess || cudaFree(p) != cudaSuccess)
        (void)cudaGetLastError();
}

static gpuk_status cuda_copy(gpuk_bctx *b, void *dst, const void *src, size_t bytes)
{
    GKC_TRY(gkc_enter(b));
    GKC_CUDA(b, cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, b->stream),
             "copy: cudaMemcpyAsync");
    return GPUK_OK;
}

static gpuk_status cuda_sync(gpuk_bctx *b)
{
    GKC_TRY(gkc_enter(b));
    GKC_CUDA(b, cudaStreamSynchronize(b->stream), "cudaStreamSynchronize");
    return GPUK_OK;
}

/* ---------------------------------------------------------------- timer */

static gpuk_status cuda_timer_start(gpuk_bctx *b)
{
    GKC_TRY(gkc_enter(b));
    GKC_CUDA(b, cudaEventRecord(b->t0, b->stream), "timer_start: cudaEventRecord");
    b->timing = 1;
    return GPUK_OK;
}

static gpuk_status cuda_timer_stop(gpuk_bctx *b, double *ms)
{
    *ms = 0.0;
    if (!b->timing)
        return gkc_fail(b, GPUK_ERR_INVALID, "timer_stop: the timer was not started");
    b->timing = 0;
    GKC_TRY(gkc_enter(b));
    GKC_CUDA(b, cudaEventRecord(b->t1, b->stream), "timer_stop: cudaEventRecord");
    GKC_CUDA(b, cudaEventSynchronize(b->t1), "timer_stop: cudaEventSynchronize");
    float f = 0.0f;
    GKC_CUDA(b, cudaEventElapsedTime(&f, b->t0, b->t1), "timer_stop: cudaEventElapsedTime");
    *ms = f;
    return GPUK_OK;
}

static void *cuda_native_stream(gpuk_bctx *b)
{
    return (void *)b->stream;
}

/* ---------------------------------------------------------------- the plugin */

/* The built-in rules of "auto" (ABI 2.3), in auto.cu. */
extern "C" const char *gkc_auto_variant(gpuk_bctx *b, const gpuk_args *args, int shape_class);

static const gpuk_backend cuda_backend = {
    GPUK_ABI_MAJOR,
    GPUK_ABI_MINOR,
    (uint32_t)sizeof(gpuk_backend),
    0u,
    "cuda",
    PACKAGE_VERSION,
    "NVIDIA GPUs through the CUDA runtime: hand-written kernel ladders, cuBLAS and cuSPARSE",
    cuda_probe,
    cuda_init,
    cuda_fini,
    cuda_last_error,
    cuda_info,
    cuda_alloc,
    cuda_free,
    gkc_write,
    gkc_read,
    cuda_copy,
    cuda_sync,
    cuda_timer_start,
    cuda_timer_stop,
    gkc_kernels,
    gkc_n_kernels,
    (uint32_t)sizeof(gpuk_kernel),
    gkc_csr_prepare,
    gkc_csr_release,
    gkc_peak,
    gkc_host_alloc,
    gkc_host_free,
    gkc_check_pointer,
    gkc_use_stream,
    2u,   /* kDLCUDA */
    cuda_native_stream,
    gkc_auto_variant,
};

extern "C" GPUK_PLUGIN_EXPORT const gpuk_backend *gpuk_backend_entry(void);

extern "C" GPUK_PLUGIN_EXPORT const gpuk_backend *gpuk_backend_entry(void)
{
    return &cuda_backend;
}

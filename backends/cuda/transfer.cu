/*
 * transfer.cu - data in and out of the GPU at the link's speed, and the
 * caller's own memory and stream (plugin ABI 2.1).
 *
 * The DMA engines read and write only page-locked host memory.  Given
 * ordinary (pageable) memory, cudaMemcpy stages it through a small driver
 * buffer one piece at a time, which on the H200 host moves 7-11 GB/s of a
 * link that does 55 GB/s from page-locked memory (doc/design.md, "Data in
 * and out").  So a context keeps its own pool of page-locked slots and
 * pipelines: while the DMA engine moves chunk i out of one slot, host
 * threads copy chunk i + 1 into the next.  A copy from or to memory that
 * is already page-locked (gpuk_host_alloc, cudaHostAlloc) skips the pool.
 *
 * Everything is ordered on the context's stream, which may be the
 * caller's (use_stream): a staged write returns once the caller's buffer
 * has been copied into the pool, with the last DMAs still queued; reuse
 * of a slot waits for the DMA that last used it.
 */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cuda_internal.h"

namespace {

/* Below this a transfer is latency, not bandwidth: copy directly. */
constexpr size_t STAGE_MIN = (size_t)1 << 20;
/* Slot size: large enough that a DMA (~300 us at 55 GB/s) dwarfs the cost
 * of issuing it, small enough that the first chunk's copy, which nothing
 * overlaps, is a small part of a large transfer. */
constexpr size_t SLOT_MAX = (size_t)16 << 20;
/* Host copies below this stay on one thread. */
constexpr size_t PAR_MIN = (size_t)2 << 20;

/* The host copies of a staged transfer, split over a few threads: one
 * core's memcpy from pageable memory runs near 10 GB/s, below the link.
 * The helpers are the context's own and sleep on a condition variable
 * between chunks: spinning workers (an OpenMP team's habit) would take
 * cores from the thread that launches the next kernels. */
}  // namespace

struct gkc_copier {
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    pthread_t th[GKC_COPY_THREADS];
    int n;               /* helpers running; the caller is part 0 */
    unsigned gen;        /* bumped for every job */
    int pending, quit;
    char *dst;
    const char *src;
    size_t bytes, part;
};

namespace {

void copy_part(gkc_copier *c, int i)
{
    size_t lo = (size_t)i * c->part;
    if (lo < c->bytes)
        memcpy(c->dst + lo, c->src + lo, c->bytes - lo < c->part ? c->bytes - lo : c->part);
}

void *copier_main(void *arg)
{
    gkc_copier *c = (gkc_copier *)arg;
    pthread_mutex_lock(&c->mu);
    int me = ++c->pending;   /* the helpers count themselves in at start */
    unsigned seen = c->gen;
    pthread_mutex_unlock(&c->mu);
    for (;;) {
        pthread_mutex_lock(&c->mu);
        while (c->gen == seen && !c->quit)
            pthread_cond_wait(&c->go, &c->mu);
        if (c->quit) {
            pthread_mutex_unlock(&c->mu);
            return NULL;
        }
        seen = c->gen;
        pthread_mutex_unlock(&c->mu);
        copy_part(c, me);
        pthread_mutex_lock(&c->mu);
        if (--c->pending == 0)
            pthread_cond_signal(&c->done);
        pthread_mutex_unlock(&c->mu);
    }
}

/* n - 1 helpers; fewer when threads cannot be made (the copy still works). */
gkc_copier *copier_new(int n)
{
    gkc_copier *c = (gkc_copier *)calloc(1, sizeof *c);
    if (!c)
        return NULL;
    pthread_mutex_init(&c->mu, NULL);
    pthread_cond_init(&c->go, NULL);
    pthread_cond_init(&c->done, NULL);
    for (int i = 0; i + 1 < n && i < GKC_COPY_THREADS; i++) {
        if (pthread_create(&c->th[i], NULL, copier_main, c) != 0)
            break;
        c->n++;
    }
    /* wait until every helper has its number */
    pthread_mutex_lock(&c->mu);
    while (c->pending < c->n) {
        pthread_mutex_unlock(&c->mu);
        sched_yield();
        pthread_mutex_lock(&c->mu);
    }
    c->pending = 0;
    pthread_mutex_unlock(&c->mu);
    return c;
}

void par_memcpy(gkc_copier *c, void *dst, const void *src, size_t bytes)
{
    if (!c || c->n == 0 || bytes < PAR_MIN) {
        memcpy(dst, src, bytes);
        return;
    }
    int parts = c->n + 1;
    pthread_mutex_lock(&c->mu);
    c->dst = (char *)dst;
    c->src = (const char *)src;
    c->bytes = bytes;
    /* parts of a whole number of cache lines, rounded up from the exact
     * share: rounded down, a length 64 * parts * j + r (0 < r < parts, a
     * row_ptr of 2^20 + 1 int32 is one) lost its last r bytes */
    c->part = ((bytes + (size_t)parts - 1) / (size_t)parts + 63) & ~(size_t)63;
    c->pending = c->n;
    c->gen++;
    pthread_cond_broadcast(&c->go);
    pthread_mutex_unlock(&c->mu);
    copy_part(c, 0);
    pthread_mutex_lock(&c->mu);
    while (c->pending > 0)
        pthread_cond_wait(&c->done, &c->mu);
    pthread_mutex_unlock(&c->mu);
}

void copier_free(gkc_copier *c)
{
    if (!c)
        return;
    pthread_mutex_lock(&c->mu);
    c->quit = 1;
    pthread_cond_broadcast(&c->go);
    pthread_mutex_unlock(&c->mu);
    for (int i = 0; i < c->n; i++)
        pthread_join(c->th[i], NULL);
    pthread_cond_destroy(&c->go);
    pthread_cond_destroy(&c->done);
    pthread_mutex_destroy(&c->mu);
    free(c);
}

/* Memory the DMA engine can use as it is (page-locked, or device memory
 * the driver maps)?  Pageable memory answers cudaMemoryTypeUnregistered. */
bool pinned(const void *p)
{
    cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        (void)cudaGetLastError();
        return false;
    }
    return a.type == cudaMemoryTypeHost;
}

/* The pool, made on first use: one cudaHostAlloc split in slots, and an
 * event per slot marking its last DMA. */
bool stage_ready(gpuk_bctx *b)
{
    gkc_stage &s = b->stage;
    if (s.state != 0)
        return s.state > 0;
    s.state = -1;
    if (s.want < 2 * (int64_t)4096)
        return false;
    size_t slot = (size_t)s.want / 2 < SLOT_MAX ? (size_t)s.want / 2 : SLOT_MAX;
    slot &= ~(size_t)4095;
    int n = (int)((size_t)s.want / slot);
    if (n > GKC_STAGE_SLOTS)
        n = GKC_STAGE_SLOTS;
    void *buf = NULL;
    cudaError_t e = cudaHostAlloc(&buf, slot * (size_t)n, cudaHostAllocPortable);
    for (int i = 0; e == cudaSuccess && i < n; i++)
        e = cudaEventCreateWithFlags(&s.ev[i], cudaEventDisableTiming);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        for (int i = 0; i < n; i++)
            if (s.ev[i]) {
                cudaEventDestroy(s.ev[i]);
                s.ev[i] = NULL;
            }
        if (buf)
            cudaFreeHost(buf);
        if (b->verbose >= 1)
            fprintf(stderr, "gpuk: cuda: page-locking a %lld-byte staging pool failed (%s); "
                    "reads and writes of pageable memory take the driver's pageable path\n",
                    (long long)s.want, cudaGetErrorString(e));
        return false;
    }
    s.buf = (char *)buf;
    s.slot = slot;
    s.n = n;
    long procs = sysconf(_SC_NPROCESSORS_ONLN);
    s.copier = copier_new(procs < GKC_COPY_THREADS ? (int)(procs > 0 ? procs : 1)
                                                   : GKC_COPY_THREADS);
    s.state = 1;
    if (b->verbose >= 1)
        fprintf(stderr, "gpuk: cuda: staging pool of %d x %zu MiB page-locked, host copies on "
                "%d threads\n", n, slot >> 20, s.copier ? s.copier->n + 1 : 1);
    return true;
}

/* One direct copy, and wait for it (the caller may reuse its buffer). */
gpuk_status direct(gpuk_bctx *b, void *dst, const void *src, size_t bytes, cudaMemcpyKind kind,
                   const char *what)
{
    GKC_CUDA(b, cudaMemcpyAsync(dst, src, bytes, kind, b->stream), what);
    GKC_CUDA(b, cudaStreamSynchronize(b->stream), what);
    return GPUK_OK;
}

}  // namespace

void gkc_stage_release(gpuk_bctx *b)
{
    gkc_stage &s = b->stage;
    for (int i = 0; i < GKC_STAGE_SLOTS; i++)
        if (s.ev[i]) {
            cudaEventDestroy(s.ev[i]);
            s.ev[i] = NULL;
        }
    if (s.buf)
        cudaFreeHost(s.buf);
    copier_free(s.copier);
    s.copier = NULL;
    s.buf = NULL;
    s.state = 0;
}

gpuk_status gkc_write(gpuk_bctx *b, void *dst, const void *src, size_t bytes)
{
    GKC_TRY(gkc_enter(b));
    if (bytes < STAGE_MIN || pinned(src) || !stage_ready(b))
        return direct(b, dst, src, bytes, cudaMemcpyHostToDevice, "write: cudaMemcpyAsync");
    gkc_stage &s = b->stage;
    for (size_t off = 0, i = 0; off < bytes; off += s.slot, i++) {
        size_t len = bytes - off < s.slot ? bytes - off : s.slot;
        int k = (int)(i % (size_t)s.n);
        char *slot = s.buf + (size_t)k * s.slot;
        /* the slot's previous DMA must be done before it is refilled */
        GKC_CUDA(b, cudaEventSynchronize(s.ev[k]), "write: waiting for a staging slot");
        par_memcpy(s.copier, slot, (const char *)src + off, len);
        GKC_CUDA(b, cudaMemcpyAsync((char *)dst + off, slot, len, cudaMemcpyHostToDevice,
                                    b->stream), "write: cudaMemcpyAsync (staged)");
        GKC_CUDA(b, cudaEventRecord(s.ev[k], b->stream), "write: cudaEventRecord");
    }
    return GPUK_OK;
}

gpuk_status gkc_read(gpuk_bctx *b, void *dst, const void *src, size_t bytes)
{
    GKC_TRY(gkc_enter(b));
    if (bytes < STAGE_MIN || pinned(dst) || !stage_ready(b))
        return direct(b, dst, src, bytes, cudaMemcpyDeviceToHost, "read: cudaMemcpyAsync");
    gkc_stage &s = b->stage;
    size_t chunks = (bytes + s.slot - 1) / s.slot;
    auto issue = [&](size_t i) -> gpuk_status {
        size_t off = i * s.slot, len = bytes - off < s.slot ? bytes - off : s.slot;
        int k = (int)(i % (size_t)s.n);
        GKC_CUDA(b, cudaMemcpyAsync(s.buf + (size_t)k * s.slot, (const char *)src + off, len,
                                    cudaMemcpyDeviceToHost, b->stream),
                 "read: cudaMemcpyAsync (staged)");
        GKC_CUDA(b, cudaEventRecord(s.ev[k], b->stream), "read: cudaEventRecord");
        return GPUK_OK;
    };
    /* fill every slot, then drain them in order, refilling each with the
     * chunk n ahead as soon as its contents are out */
    for (size_t i = 0; i < chunks && i < (size_t)s.n; i++)
        GKC_TRY(issue(i));
    for (size_t i = 0; i < chunks; i++) {
        size_t off = i * s.slot, len = bytes - off < s.slot ? bytes - off : s.slot;
        int k = (int)(i % (size_t)s.n);
        GKC_CUDA(b, cudaEventSynchronize(s.ev[k]), "read: waiting for a staging slot");
        par_memcpy(s.copier, (char *)dst + off, s.buf + (size_t)k * s.slot, len);
        if (i + (size_t)s.n < chunks)
            GKC_TRY(issue(i + (size_t)s.n));
    }
    return GPUK_OK;
}

/* ---------------------------------------------------------------- the caller's memory */

gpuk_status gkc_host_alloc(gpuk_bctx *b, size_t bytes, void **out)
{
    *out = NULL;
    GKC_TRY(gkc_enter(b));
    cudaError_t e = cudaHostAlloc(out, bytes, cudaHostAllocPortable);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        *out = NULL;
        return gkc_fail(b, GPUK_ERR_NO_MEMORY, "cudaHostAlloc of %zu bytes: %s", bytes,
                        cudaGetErrorString(e));
    }
    return GPUK_OK;
}

void gkc_host_free(gpuk_bctx *b, void *p)
{
    if (p && cudaFreeHost(p) != cudaSuccess)
        (void)cudaGetLastError();
}

namespace {

/* cuMemGetAddressRange through the runtime's driver entry point, so the
 * plugin needs no link to libcuda: the allocation that holds a pointer. */
typedef int (*range_fn)(unsigned long long *base, size_t *size, unsigned long long ptr);

range_fn address_range()
{
    static range_fn fn;
    static bool tried;
    if (!tried) {
        tried = true;
        void *p = NULL;
        cudaDriverEntryPointQueryResult q;
        if (cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", &p, 12000, cudaEnableDefault,
                                             &q) == cudaSuccess &&
            q == cudaDriverEntryPointSuccess)
            fn = (range_fn)p;
        (void)cudaGetLastError();
    }
    return fn;
}

}  // namespace

gpuk_status gkc_check_pointer(gpuk_bctx *b, const void *p, size_t bytes)
{
    GKC_TRY(gkc_enter(b));
    cudaPointerAttributes a;
    cudaError_t e = cudaPointerGetAttributes(&a, p);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return gkc_fail(b, GPUK_ERR_INVALID, "%p is not memory CUDA knows (%s)", p,
                        cudaGetErrorString(e));
    }
    switch (a.type) {
    case cudaMemoryTypeDevice:
    case cudaMemoryTypeManaged:
        break;
    case cudaMemoryTypeHost:
        return gkc_fail(b, GPUK_ERR_INVALID, "%p is page-locked host memory; kernels of the cuda "
                        "backend take device memory (copy it in with gpuk_tensor_write)", p);
    default:
        return gkc_fail(b, GPUK_ERR_INVALID, "%p is not device memory: ordinary host memory, or "
                        "device memory that was never allocated or has been freed", p);
    }
    if (a.type == cudaMemoryTypeDevice && a.device != b->device)
        return gkc_fail(b, GPUK_ERR_INVALID, "%p is memory of CUDA device %d; this context runs "
                        "on device %d", p, a.device, b->device);
    range_fn range = address_range();
    unsigned long long base = 0;
    size_t size = 0;
    if (range && range(&base, &size, (unsigned long long)(uintptr_t)p) == 0) {
        unsigned long long end = (unsigned long long)(uintptr_t)p + bytes;
        if (end > base + size)
            return gkc_fail(b, GPUK_ERR_INVALID, "the %zu bytes from %p run past the end of its "
                            "allocation (%zu bytes from %p)", bytes, p, size,
                            (void *)(uintptr_t)base);
    }
    return GPUK_OK;
}

gpuk_status gkc_use_stream(gpuk_bctx *b, void *stream)
{
    if (!stream)
        return GPUK_OK;
    GKC_TRY(gkc_enter(b));
    cudaStream_t s = (cudaStream_t)stream;
    int dev = -1;
    cudaError_t e = cudaStreamGetDevice(s, &dev);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return gkc_fail(b, GPUK_ERR_INVALID, "stream %p is not a usable CUDA stream (%s)", stream,
                        cudaGetErrorString(e));
    }
    if (dev != b->device)
        return gkc_fail(b, GPUK_ERR_INVALID, "stream %p belongs to CUDA device %d; this context "
                        "runs on device %d", stream, dev, b->device);
    if (b->blas || b->sparse)
        return gkc_fail(b, GPUK_ERR_INTERNAL, "use_stream after the library handles were made");
    b->own_stream = b->stream;
    b->stream = s;
    return GPUK_OK;
}

/* ---------------------------------------------------------------- the link's ceiling */

/* Host <-> device copies between page-locked and device memory, 256 MiB
 * at a time: the rate gpuk_host_alloc memory should reach. */
gpuk_status gkc_peak_transfer(gpuk_bctx *b, bool to_device, double *value)
{
    *value = 0;
    GKC_TRY(gkc_enter(b));
    const size_t bytes = (size_t)256 << 20;
    void *host = NULL, *dev = NULL;
    cudaEvent_t t0 = NULL, t1 = NULL;
    gpuk_status st = GPUK_OK;
    cudaError_t e = cudaHostAlloc(&host, bytes, cudaHostAllocPortable);
    if (e == cudaSuccess)
        e = cudaMalloc(&dev, bytes);
    if (e == cudaSuccess)
        e = cudaEventCreate(&t0);
    if (e == cudaSuccess)
        e = cudaEventCreate(&t1);
    if (e == cudaSuccess)
        e = cudaMemset(dev, 0, bytes);
    if (e == cudaSuccess)
        memset(host, 1, bytes);
    float best = 0;
    for (int rep = 0; e == cudaSuccess && rep < 6; rep++) {
        e = cudaEventRecord(t0, b->stream);
        if (e == cudaSuccess)
            e = to_device ? cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, b->stream)
                          : cudaMemcpyAsync(host, dev, bytes, cudaMemcpyDeviceToHost, b->stream);
        if (e == cudaSuccess)
            e = cudaEventRecord(t1, b->stream);
        if (e == cudaSuccess)
            e = cudaEventSynchronize(t1);
        float ms = 0;
        if (e == cudaSuccess)
            e = cudaEventElapsedTime(&ms, t0, t1);
        if (e == cudaSuccess && rep > 0 && (best == 0 || ms < best))
            best = ms;   /* rep 0 warms up */
    }
    if (e != cudaSuccess)
        st = gkc_cuda_error(b, e, to_device ? "peak/h2d" : "peak/d2h");
    else
        *value = (double)bytes / (best * 1e-3) / 1e9;
    if (t0)
        cudaEventDestroy(t0);
    if (t1)
        cudaEventDestroy(t1);
    if (dev)
        cudaFree(dev);
    if (host)
        cudaFreeHost(host);
    return st;
}

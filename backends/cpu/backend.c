/*
 * backend.c - the CPU backend's entry struct: probe, context, host memory,
 * timer.  Data pointers are plain host memory (GPUK_BF_HOST_MEMORY), so
 * write/read/copy are memcpy and sync has nothing to wait for: every
 * kernel has finished when it returns.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "cpu.h"

gpuk_status cpu_fail(gpuk_bctx *b, gpuk_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->err, sizeof b->err, fmt, ap);
    va_end(ap);
    return st;
}

/* Large blocks are 2 MiB aligned and offered to the kernel as huge pages
 * (where transparent huge pages are in "madvise" mode): a transpose or a
 * packed matmul touches a new 4 KiB page every few hundred bytes, and the
 * TLB misses cost more than the copy. */
#define CPU_HUGE_MIN ((size_t)4 << 20)
#define CPU_HUGE_ALIGN ((size_t)2 << 20)

static int cpu_memalign(void **p, size_t bytes)
{
    if (bytes >= CPU_HUGE_MIN) {
        int rc = posix_memalign(p, CPU_HUGE_ALIGN, bytes);
#ifdef MADV_HUGEPAGE
        if (rc == 0)
            madvise(*p, bytes & ~(CPU_HUGE_ALIGN - 1), MADV_HUGEPAGE);
#endif
        return rc;
    }
    return posix_memalign(p, 64, bytes);
}

void *cpu_scratch(gpuk_bctx *b, size_t bytes, const char *what)
{
    void *p = NULL;
    /* round up so vector loops may read a whole last cache line */
    size_t sz = (bytes + 63) & ~(size_t)63;
    if (sz < bytes || cpu_memalign(&p, sz ? sz : 64) != 0) {
        cpu_fail(b, GPUK_ERR_NO_MEMORY, "cpu: cannot allocate %zu bytes of scratch for %s",
                 bytes, what);
        return NULL;
    }
    return p;
}

const char *cpu_isa_name(enum cpu_isa isa)
{
    switch (isa) {
    case CPU_ISA_AVX512: return "avx512";
    case CPU_ISA_AVX2: return "avx2+fma";
    default: return "scalar";
    }
}

enum cpu_isa cpu_detect_isa(void)
{
    enum cpu_isa best = CPU_ISA_SCALAR;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    /* F16C too: the 16-bit floats convert with it (half.c); every AVX2
     * processor made has it.  Read from CPUID leaf 1 (ECX bit 29), not
     * __builtin_cpu_supports("f16c"), which clang 14 does not know. */
    unsigned a, b, c, d;
    int f16c = __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 29));
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && f16c)
        best = CPU_ISA_AVX2;
    if (best == CPU_ISA_AVX2 && __builtin_cpu_supports("avx512f"))
        best = CPU_ISA_AVX512;
#endif
    return best;
}

/* The names GPUK_CPU_ISA accepts, in the order of enum cpu_isa. */
static const char *const isa_env_names[] = {"scalar", "avx2", "avx512"};

gpuk_status cpu_choose_isa(enum cpu_isa *isa, int verbose, char *msg, size_t msglen)
{
    enum cpu_isa best = cpu_detect_isa();
    const char *env = getenv("GPUK_CPU_ISA");
    *isa = best;
    if (!env || !*env)
        return GPUK_OK;
    size_t n = sizeof isa_env_names / sizeof isa_env_names[0];
    size_t want = 0;
    while (want < n && strcmp(env, isa_env_names[want]) != 0)
        want++;
    if (want == n) {
        /* gpuk(7), ENVIRONMENT: an unparsable value is an error, never ignored */
        snprintf(msg, msglen, "GPUK_CPU_ISA=%s: use scalar, avx2 or avx512", env);
        return GPUK_ERR_ENV;
    }
    /* a narrower set is honoured (to test those paths here); a wider one
     * than the processor runs keeps what it has */
    if ((enum cpu_isa)want <= best)
        *isa = (enum cpu_isa)want;
    else if (verbose >= 1)
        fprintf(stderr, "gpuk: cpu: GPUK_CPU_ISA=%s asks for more than this processor has; "
                        "its kernels use %s\n", env, cpu_isa_name(best));
    return GPUK_OK;
}

/* The "model name" and "cpu MHz" lines of /proc/cpuinfo (Linux/x86); on
 * other systems the name stays generic. */
static void cpu_describe(gpuk_device_desc *d)
{
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "host CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[512];
        int have_name = 0, have_mhz = 0;
        while (fgets(line, sizeof line, f) && !(have_name && have_mhz)) {
            char *colon = strchr(line, ':');
            if (!colon)
                continue;
            char *val = colon + 1;
            while (*val == ' ' || *val == '\t')
                val++;
            val[strcspn(val, "\n")] = '\0';
            if (!have_name && strncmp(line, "model name", 10) == 0 && *val) {
                snprintf(d->name, sizeof d->name, "%s", val);
                have_name = 1;
            } else if (!have_mhz && strncmp(line, "cpu MHz", 7) == 0) {
                d->clock_mhz = (int)(atof(val) + 0.5);
                have_mhz = 1;
            }
        }
        fclose(f);
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    d->multiprocessors = cores > 0 ? (int)cores : 1;
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    if (pages > 0 && psz > 0)
        d->memory_bytes = (uint64_t)pages * (uint64_t)psz;
}

gpuk_status cpu_probe(gpuk_probe_result *out)
{
    memset(out, 0, sizeof *out);
    out->status = GPUK_OK;
    out->device_count = 1;
    cpu_describe(&out->devices[0]);
    /* the set a context would use; an unparsable GPUK_CPU_ISA is init's
     * error to report, so the probe names the processor's own */
    enum cpu_isa isa;
    char msg[160];
    if (cpu_choose_isa(&isa, 0, msg, sizeof msg) != GPUK_OK)
        isa = cpu_detect_isa();
    snprintf(out->reason, sizeof out->reason, "host CPU, %d cores, SIMD %s",
             out->devices[0].multiprocessors, cpu_isa_name(isa));
    return GPUK_OK;
}

gpuk_status cpu_init(const gpuk_init_args *args, gpuk_bctx **out, char *msg,
                            size_t msglen)
{
    *out = NULL;
    if (args->device != 0) {
        snprintf(msg, msglen, "cpu: device %d does not exist (the CPU backend has device 0 only)",
                 args->device);
        return GPUK_ERR_NO_DEVICE;
    }
    gpuk_bctx *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(msg, msglen, "cpu: out of memory for the backend context");
        return GPUK_ERR_NO_MEMORY;
    }
    if (args->num_threads > 0)
        b->nthreads = args->num_threads;
    else {
#ifdef _OPENMP
        b->nthreads = omp_get_max_threads();
#else
        b->nthreads = 1;
#endif
    }
    if (b->nthreads < 1)
        b->nthreads = 1;
    gpuk_status st = cpu_choose_isa(&b->isa, args->verbose, msg, msglen);
    if (st != GPUK_OK) {
        free(b);
        return st;
    }
    *out = b;
    return GPUK_OK;
}

void cpu_fini(gpuk_bctx *b)
{
    free(b);
}

const char *cpu_last_error(gpuk_bctx *b)
{
    return b->err;
}

void cpu_info(gpuk_bctx *b, gpuk_device_desc *dev, int *num_threads)
{
    if (dev)
        cpu_describe(dev);
    if (num_threads)
        *num_threads = b->nthreads;
}

gpuk_status cpu_alloc(gpuk_bctx *b, size_t bytes, void **out)
{
    void *p = NULL;
    int rc = cpu_memalign(&p, bytes);
    if (rc != 0) {
        *out = NULL;
        return cpu_fail(b, GPUK_ERR_NO_MEMORY, "cpu: cannot allocate %zu bytes (%s)", bytes,
                        strerror(rc));
    }
    *out = p;
    return GPUK_OK;
}

void cpu_free(gpuk_bctx *b, void *p)
{
    free(p);
}

/* The caller's memory (ABI 2.1).  The host's memory is this backend's:
 * gpuk_host_alloc gets the same aligned blocks as tensors, and any host
 * pointer may be wrapped, since nothing here can tell a live host pointer
 * from a stale one (the caller vouches for it, as gpuk.h says). */
gpuk_status cpu_check_pointer(gpuk_bctx *b, const void *p, size_t bytes)
{
    return GPUK_OK;
}

/* No streams on the host: a caller's stream is accepted and ignored. */
gpuk_status cpu_use_stream(gpuk_bctx *b, void *stream)
{
    return GPUK_OK;
}

gpuk_status cpu_write(gpuk_bctx *b, void *dst, const void *src, size_t bytes)
{
    memcpy(dst, src, bytes);
    return GPUK_OK;
}

gpuk_status cpu_read(gpuk_bctx *b, void *dst, const void *src, size_t bytes)
{
    memcpy(dst, src, bytes);
    return GPUK_OK;
}

gpuk_status cpu_copy(gpuk_bctx *b, void *dst, const void *src, size_t bytes)
{
    memmove(dst, src, bytes);
    return GPUK_OK;
}

gpuk_status cpu_sync(gpuk_bctx *b)
{
    return GPUK_OK;
}

gpuk_status cpu_timer_start(gpuk_bctx *b)
{
    clock_gettime(CLOCK_MONOTONIC, &b->t0);
    b->timer_running = 1;
    return GPUK_OK;
}

gpuk_status cpu_timer_stop(gpuk_bctx *b, double *ms)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (!b->timer_running)
        return cpu_fail(b, GPUK_ERR_INVALID, "cpu: timer_stop without timer_start");
    b->timer_running = 0;
    *ms = (double)(t1.tv_sec - b->t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - b->t0.tv_nsec) * 1e-6;
    return GPUK_OK;
}

GPUK_PLUGIN_EXPORT const gpuk_backend *gpuk_backend_entry(void);

GPUK_PLUGIN_EXPORT const gpuk_backend *gpuk_backend_entry(void)
{
    return &cpu_backend;
}

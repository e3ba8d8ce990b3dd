/*
 * peak.c - the CPU's ceilings, measured with the backend's own
 * micro-kernels on all of the context's threads (gpuk_peak_measure):
 *
 *   copy     a 64 MiB copy (larger than any L3 here) through copy's simd
 *            rung (vectors, streaming stores) and through memcpy, a slice
 *            per thread, bytes read + written per second, the best of 5 of
 *            either: the STREAM "copy" figure
 *   fma      24 independent FMA chains per thread held in registers, enough
 *            to cover the FMA latency on two pipes (2 flops per lane)
 *   add+min  24 independent chains x = min(x + y, z), 2 ops per lane-step:
 *            the inner step of min-plus
 *   read     a sum over 64 MiB through reduce's simd rung, a slice per
 *            thread, bytes read per second (the best of 5): with copy, the
 *            ceiling of reduce, dot, gemv and the other ops that read far
 *            more than they write
 *   add+min i32  the same on 32-bit integers (vpaddd + vpminsd): the
 *            inner step of i32 min-plus.  There is no 16-bit rung on this
 *            backend, so no i16x2 ceiling either.
 *
 * The vector width (AVX-512, AVX2, scalar) is the context's ISA.  Each
 * timed run lasts at least 30 ms (repeated back to back), the best of a
 * few is kept; a whole measurement takes a fraction of a second.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CPU_X86 1
#endif

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Each timed measurement lasts at least this long: waking a team of
 * threads (an interrupt per sleeping CPU in a virtual machine) can take
 * a millisecond, which would dominate a 1 ms copy on 16 cores. */
#define PEAK_MIN_S 0.03

/* How many back-to-back runs of something that took dt seconds fill
 * PEAK_MIN_S. */
static int peak_repeats(double dt)
{
    if (dt <= 0.0)
        return 64;
    double r = PEAK_MIN_S / dt + 1.0;
    return r > 4096.0 ? 4096 : (int)r;
}

/* ---- copy bandwidth ---- */

static gpuk_status peak_copy(gpuk_bctx *b, double *value)
{
    const size_t n = (size_t)16 << 20; /* floats: 64 MiB per buffer */
    float *src = cpu_scratch(b, n * sizeof(float), "the copy peak");
    float *dst = src ? cpu_scratch(b, n * sizeof(float), "the copy peak") : NULL;
    if (!dst) {
        free(src);
        return GPUK_ERR_NO_MEMORY;
    }
    int nt = b->nthreads;
    /* first touch by the thread that copies the chunk later */
#pragma omp parallel for num_threads(nt) schedule(static)
    for (size_t i = 0; i < n; i++) {
        src[i] = (float)(i & 1023);
        dst[i] = 0.0f;
    }
    /* the warm-up call also evicts dst from the caches (streaming stores),
     * so no timed call finds its output lines cached */
    cpu_copy_f32(b, dst, src, (int64_t)n);
    double t0 = now_s();
    cpu_copy_f32(b, dst, src, (int64_t)n);
    int calls = peak_repeats(now_s() - t0);
    double best = 0.0;
    for (int rep = 0; rep < 5; rep++) {
        t0 = now_s();
        for (int c = 0; c < calls; c++)
            cpu_copy_f32(b, dst, src, (int64_t)n);
        double dt = now_s() - t0;
        double gbs = 2.0 * (double)n * sizeof(float) * calls / dt * 1e-9;
        if (gbs > best)
            best = gbs;
    }
    /* and the C library's memcpy, a slice per thread: whichever copy is
     * faster on this machine is its ceiling (a rung that beat the one we
     * measured would only show the ceiling was too low) */
    for (int rep = 0; rep < 5; rep++) {
        t0 = now_s();
        for (int c = 0; c < calls; c++) {
#pragma omp parallel num_threads(nt)
            {
#ifdef _OPENMP
                size_t id = (size_t)omp_get_thread_num(), cnt = (size_t)omp_get_num_threads();
#else
                size_t id = 0, cnt = 1;
#endif
                size_t per = (n / cnt + 15) & ~(size_t)15, lo = id * per;
                if (lo < n)
                    memcpy(dst + lo, src + lo, (n - lo < per ? n - lo : per) * sizeof(float));
            }
        }
        double dt = now_s() - t0;
        double gbs = 2.0 * (double)n * sizeof(float) * calls / dt * 1e-9;
        if (gbs > best)
            best = gbs;
    }
    volatile float sink = dst[n / 3];
    (void)sink;
    free(src);
    free(dst);
    *value = best;
    return GPUK_OK;
}

/* ---- read bandwidth ---- */

/* The sum of 64 MiB through reduce's simd rung (vector accumulators, a
 * slice per thread), as the copy figure goes through copy's rung. */
static float read_sum(gpuk_bctx *b, const float *x, size_t n)
{
    float s = 0.0f;
    cpu_reduce_rows(b, x, 1, (int64_t)n, 1, &s, 0);
    return s;
}

static gpuk_status peak_read(gpuk_bctx *b, double *value)
{
    const size_t n = (size_t)16 << 20; /* floats: 64 MiB */
    float *src = cpu_scratch(b, n * sizeof(float), "the read peak");
    if (!src)
        return GPUK_ERR_NO_MEMORY;
    int nt = b->nthreads;
#pragma omp parallel for num_threads(nt) schedule(static)
    for (size_t i = 0; i < n; i++)
        src[i] = (float)(i & 1023);
    volatile float sink = read_sum(b, src, n);
    double t0 = now_s();
    sink += read_sum(b, src, n);
    int calls = peak_repeats(now_s() - t0);
    double best = 0.0;
    for (int rep = 0; rep < 5; rep++) {
        t0 = now_s();
        for (int c = 0; c < calls; c++)
            sink += read_sum(b, src, n);
        double gbs = (double)n * sizeof(float) * calls / (now_s() - t0) * 1e-9;
        if (gbs > best)
            best = gbs;
    }
    (void)sink;
    free(src);
    *value = best;
    return GPUK_OK;
}

/* ---- register-resident chains ---- */

#define PEAK_CHAINS 24
#define PEAK_STEPS 20000L /* one call's steps; runs are repeated to fill PEAK_MIN_S */

/* One thread's chains; returns a value derived from every chain so the
 * compiler keeps them.  `addmin` picks x = min(x + y, z) over x = x*y + z. */
static float chains_scalar(int addmin, long steps)
{
    float x[PEAK_CHAINS];
    for (int i = 0; i < PEAK_CHAINS; i++)
        x[i] = 1.0f + 0.001f * (float)i;
    const float y = addmin ? 0.5f : 0.999f, z = addmin ? 3.0f : 0.001f;
    for (long s = 0; s < steps; s++)
#pragma GCC unroll 24
        for (int i = 0; i < PEAK_CHAINS; i++)
            x[i] = addmin ? (x[i] + y < z ? x[i] + y : z) : x[i] * y + z;
    float r = 0.0f;
    for (int i = 0; i < PEAK_CHAINS; i++)
        r += x[i];
    return r;
}

#ifdef CPU_X86
#define CHAIN_BODY(VEC, SET1, FMA, ADD, MIN, STORE, W)                            \
    VEC x[PEAK_CHAINS];                                                           \
    for (int i = 0; i < PEAK_CHAINS; i++)                                         \
        x[i] = SET1(1.0f + 0.001f * (float)i);                                    \
    const VEC y = SET1(addmin ? 0.5f : 0.999f), z = SET1(addmin ? 3.0f : 0.001f); \
    if (addmin)                                                                   \
        for (long s = 0; s < steps; s++) {                                        \
            _Pragma("GCC unroll 24") for (int i = 0; i < PEAK_CHAINS; i++)        \
                x[i] = MIN(ADD(x[i], y), z);                                      \
        }                                                                         \
    else                                                                          \
        for (long s = 0; s < steps; s++) {                                        \
            _Pragma("GCC unroll 24") for (int i = 0; i < PEAK_CHAINS; i++)        \
                x[i] = FMA(x[i], y, z);                                           \
        }                                                                         \
    float out[W], r = 0.0f;                                                       \
    for (int i = 0; i < PEAK_CHAINS; i++) {                                       \
        STORE(out, x[i]);                                                         \
        for (int l = 0; l < (W); l++)                                             \
            r += out[l];                                                          \
    }                                                                             \
    return r;

__attribute__((target("avx2,fma"))) static float chains_avx2(int addmin, long steps)
{
    CHAIN_BODY(__m256, _mm256_set1_ps, _mm256_fmadd_ps, _mm256_add_ps, _mm256_min_ps,
               _mm256_storeu_ps, 8)
}

__attribute__((target("avx512f"))) static float chains_avx512(int addmin, long steps)
{
    CHAIN_BODY(__m512, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_add_ps, _mm512_min_ps,
               _mm512_storeu_ps, 16)
}
#endif

/* The integer chains, x = min(x + y, z) on int32 lanes: y = 1 and z
 * above any value reached, both from memory the compiler cannot see
 * through, so every step stays an add and a min. */
static volatile int32_t chain_i32_y = 1, chain_i32_z = 0x3FFFFFFF;

static float chains_i32_scalar(int mode, long steps)
{
    (void)mode;
    int32_t x[PEAK_CHAINS];
    const int32_t y = chain_i32_y, z = chain_i32_z;
    for (int i = 0; i < PEAK_CHAINS; i++)
        x[i] = i;
    for (long s = 0; s < steps; s++)
#pragma GCC unroll 24
        for (int i = 0; i < PEAK_CHAINS; i++)
            x[i] = x[i] + y < z ? x[i] + y : z;
    float r = 0.0f;
    for (int i = 0; i < PEAK_CHAINS; i++)
        r += (float)x[i];
    return r;
}

#ifdef CPU_X86
#define CHAIN_I32_BODY(VEC, SET1, ADD, MIN, STORE, W)                             \
    VEC x[PEAK_CHAINS];                                                           \
    for (int i = 0; i < PEAK_CHAINS; i++)                                         \
        x[i] = SET1(i);                                                           \
    const VEC y = SET1(chain_i32_y), z = SET1(chain_i32_z);                       \
    for (long s = 0; s < steps; s++) {                                            \
        _Pragma("GCC unroll 24") for (int i = 0; i < PEAK_CHAINS; i++)            \
            x[i] = MIN(ADD(x[i], y), z);                                          \
    }                                                                             \
    int32_t out[W];                                                               \
    float r = 0.0f;                                                               \
    for (int i = 0; i < PEAK_CHAINS; i++) {                                       \
        STORE((void *)out, x[i]);                                                 \
        for (int l = 0; l < (W); l++)                                             \
            r += (float)out[l];                                                   \
    }                                                                             \
    return r;

__attribute__((target("avx2"))) static float chains_i32_avx2(int mode, long steps)
{
    (void)mode;
    CHAIN_I32_BODY(__m256i, _mm256_set1_epi32, _mm256_add_epi32, _mm256_min_epi32,
                   _mm256_storeu_si256, 8)
}

__attribute__((target("avx512f"))) static float chains_i32_avx512(int mode, long steps)
{
    (void)mode;
    CHAIN_I32_BODY(__m512i, _mm512_set1_epi32, _mm512_add_epi32, _mm512_min_epi32,
                   _mm512_storeu_si512, 16)
}
#endif

/* One parallel region running `steps` steps on every thread; seconds. */
static double chains_time(gpuk_bctx *b, float (*fn)(int, long), int addmin, long steps,
                          volatile float *sink)
{
    double t0 = now_s();
    float acc = 0.0f;
#pragma omp parallel num_threads(b->nthreads) reduction(+ : acc)
    acc += fn(addmin, steps);
    double dt = now_s() - t0;
    *sink += acc;
    return dt;
}

/* mode: 0 FMA, 1 add+min f32, 2 add+min i32 */
static gpuk_status peak_chains(gpuk_bctx *b, int mode, double *value)
{
    int width = 1, addmin = mode;
    float (*fn)(int, long) = mode == 2 ? chains_i32_scalar : chains_scalar;
#ifdef CPU_X86
    if (b->isa == CPU_ISA_AVX512) {
        fn = mode == 2 ? chains_i32_avx512 : chains_avx512;
        width = 16;
    } else if (b->isa == CPU_ISA_AVX2) {
        fn = mode == 2 ? chains_i32_avx2 : chains_avx2;
        width = 8;
    }
#endif
    volatile float sink = 0.0f;
    /* warm up (wakes the threads), then size the run to PEAK_MIN_S */
    chains_time(b, fn, addmin, PEAK_STEPS, &sink);
    long steps = PEAK_STEPS * (long)peak_repeats(chains_time(b, fn, addmin, PEAK_STEPS, &sink));
    double best = 0.0;
    for (int rep = 0; rep < 3; rep++) {
        double dt = chains_time(b, fn, addmin, steps, &sink);
        /* 2 ops per lane-step either way: FMA = 2 flops, add+min = 2 ops */
        double ops = 2.0 * (double)width * PEAK_CHAINS * (double)steps * b->nthreads;
        if (ops / dt > best)
            best = ops / dt;
    }
    *value = best * 1e-9;
    return GPUK_OK;
}

gpuk_status cpu_peak(gpuk_bctx *b, gpuk_peak kind, double *value)
{
    switch (kind) {
    case GPUK_PEAK_COPY_GBS:
        return peak_copy(b, value);
    case GPUK_PEAK_FMA_GFLOPS:
        return peak_chains(b, 0, value);
    case GPUK_PEAK_ADDMIN_GOPS:
        return peak_chains(b, 1, value);
    case GPUK_PEAK_ADDMIN_I32_GOPS:
        return peak_chains(b, 2, value);
    case GPUK_PEAK_READ_GBS:
        return peak_read(b, value);
    case GPUK_PEAK_H2D_GBS:
    case GPUK_PEAK_D2H_GBS:
        break;   /* the host's memory is this backend's: there is no link to measure */
    case GPUK_PEAK_ADDMIN_I16X2_GOPS:
        break;   /* no rung computes in 16-bit lanes here */
    default:
        break;   /* a kind this backend has no micro-kernel for */
    }
    return cpu_fail(b, GPUK_ERR_UNSUPPORTED, "cpu: no micro-kernel for peak %d", (int)kind);
}

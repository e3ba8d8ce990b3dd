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
 *   fma f64, add+min f64  the same chains on doubles (vfmadd...pd, vaddpd +
 *            vminpd), the ceilings of the f64 matmul and min-plus rungs.
 *   bf16 dot (mma_bf16)  24 chains of vdpbf16ps (AVX512_BF16: 16 lanes, 2
 *            products and 2 adds a lane, 4 flops), the ceiling of the
 *            dpbf16 rung; none without AVX512_BF16 (or under GPUK_CPU_ISA
 *            below avx512).  The f16 products and bf16's other rungs
 *            convert to f32 and are held to fma.
 *
 * The chains are written once for every (type, ISA) from the vector
 * traits of simd.h, as the kernels are.
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
#include "half.h"

#include "simd.h"

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
    cpu_reduce_rows_f32(b, x, 1, (int64_t)n, 1, &s, 0);
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
/* The i32 chains are 16: with 24 GCC kept a copy of every chain on the
 * stack, a store a step, and the ceiling came out at 155 Gop/s on 2 Zen 4
 * cores where regtile ran at 190; with 16 it is 232, the 2 x 16 lanes x
 * 2 ops x 3.64 GHz x 2 cores of a step a cycle (an add and a min, one
 * cycle each: 16 chains keep 8 times the latency in flight). */
#define PEAK_CHAINS_I32 16
#define CHAINS_f32 PEAK_CHAINS
#define CHAINS_f64 PEAK_CHAINS
#define CHAINS_i32 PEAK_CHAINS_I32
#define PEAK_STEPS 20000L /* one call's steps; runs are repeated to fill PEAK_MIN_S */

/* What a chain step is: x = x*y + z (FMA, 2 flops a lane) or x = min(x +
 * y, z) (add+min, 2 ops a lane: the inner step of min-plus). */
enum chain_kind { CHAIN_FMA, CHAIN_ADDMIN };

/* One thread's chains in type T; returns a value derived from every chain
 * so the compiler keeps them.  y and z come from memory the compiler
 * cannot see through, so every step stays the operation it names: for
 * the floats y = 0.999 and z = 0.001 (FMA, a fixed point near 1) or y =
 * 0.5 and z = 3 (add+min); for i32, y = 1 and z above any value reached. */
static volatile double chain_fma_y = 0.999, chain_fma_z = 0.001;
static volatile double chain_min_y = 0.5, chain_min_z = 3.0;
static volatile int32_t chain_i32_y = 1, chain_i32_z = 0x3FFFFFFF;

#define CHAIN_SCALAR(DT, T, S, ...)                                                         \
    static float chains_##S##_scalar(enum chain_kind kind, long steps)                      \
    {                                                                                       \
        T x[PEAK_CHAINS];                                                                   \
        for (int i = 0; i < PEAK_CHAINS; i++)                                               \
            x[i] = (T)(1.0 + 0.001 * i);                                                    \
        const T y = (T)(kind == CHAIN_ADDMIN ? chain_min_y : chain_fma_y);                  \
        const T z = (T)(kind == CHAIN_ADDMIN ? chain_min_z : chain_fma_z);                  \
        for (long s = 0; s < steps; s++)                                                    \
            _Pragma("GCC unroll 24") for (int i = 0; i < PEAK_CHAINS; i++)                  \
                x[i] = kind == CHAIN_ADDMIN ? (x[i] + y < z ? x[i] + y : z) : x[i] * y + z; \
        float r = 0.0f;                                                                     \
        for (int i = 0; i < PEAK_CHAINS; i++)                                               \
            r += (float)x[i];                                                               \
        return r;                                                                           \
    }
CPU_FLOAT_DTYPES(CHAIN_SCALAR)

static float chains_i32_scalar(enum chain_kind kind, long steps)
{
    (void)kind;
    int32_t x[PEAK_CHAINS_I32];
    const int32_t y = chain_i32_y, z = chain_i32_z;
    for (int i = 0; i < PEAK_CHAINS_I32; i++)
        x[i] = i;
    for (long s = 0; s < steps; s++)
#pragma GCC unroll 16
        for (int i = 0; i < PEAK_CHAINS_I32; i++)
            x[i] = x[i] + y < z ? x[i] + y : z;
    float r = 0.0f;
    for (int i = 0; i < PEAK_CHAINS_I32; i++)
        r += (float)x[i];
    return r;
}

#ifdef CPU_X86
/* The vector chains of (type, ISA), from the vector traits of simd.h. */
#define CHAIN_VEC(T, S, I)                                                                  \
    __attribute__((target(CPU_V(S, I, TARGET)))) static float chains_##S##_##I(             \
        enum chain_kind kind, long steps)                                                   \
    {                                                                                       \
        CPU_V(S, I, VEC) x[PEAK_CHAINS];                                                    \
        for (int i = 0; i < PEAK_CHAINS; i++)                                               \
            x[i] = CPU_V(S, I, SET1)((T)(1.0 + 0.001 * i));                                 \
        if (kind == CHAIN_ADDMIN) {                                                         \
            const CPU_V(S, I, VEC) y = CPU_V(S, I, SET1)((T)chain_min_y);                   \
            const CPU_V(S, I, VEC) z = CPU_V(S, I, SET1)((T)chain_min_z);                   \
            for (long s = 0; s < steps; s++) {                                              \
                _Pragma("GCC unroll 24") for (int i = 0; i < PEAK_CHAINS; i++)              \
                    x[i] = CPU_V(S, I, MIN)(CPU_V(S, I, ADD)(x[i], y), z);                  \
            }                                                                               \
        } else {                                                                            \
            const CPU_V(S, I, VEC) y = CPU_V(S, I, SET1)((T)chain_fma_y);                   \
            const CPU_V(S, I, VEC) z = CPU_V(S, I, SET1)((T)chain_fma_z);                   \
            for (long s = 0; s < steps; s++) {                                              \
                _Pragma("GCC unroll 24") for (int i = 0; i < PEAK_CHAINS; i++)              \
                    x[i] = CPU_V(S, I, FMA)(x[i], y, z);                                    \
            }                                                                               \
        }                                                                                   \
        T out[CPU_V(S, I, W)];                                                              \
        float r = 0.0f;                                                                     \
        for (int i = 0; i < PEAK_CHAINS; i++) {                                             \
            CPU_V(S, I, STOREU)(out, x[i]);                                                 \
            for (int l = 0; l < CPU_V(S, I, W); l++)                                        \
                r += (float)out[l];                                                         \
        }                                                                                   \
        return r;                                                                           \
    }
CPU_FLOAT_VECS(CHAIN_VEC)

/* The integer chains, x = min(x + y, z) on int32 lanes (vpaddd + vpminsd). */
#define CHAIN_I32(I)                                                                        \
    __attribute__((target(CPU_V(i32, I, TARGET)))) static float chains_i32_##I(             \
        enum chain_kind kind, long steps)                                                   \
    {                                                                                       \
        (void)kind;                                                                         \
        CPU_V(i32, I, VEC) x[PEAK_CHAINS_I32];                                                  \
        for (int i = 0; i < PEAK_CHAINS_I32; i++)                                               \
            x[i] = CPU_V(i32, I, SET1)(i);                                                  \
        const CPU_V(i32, I, VEC) y = CPU_V(i32, I, SET1)(chain_i32_y);                      \
        const CPU_V(i32, I, VEC) z = CPU_V(i32, I, SET1)(chain_i32_z);                      \
        for (long s = 0; s < steps; s++) {                                                  \
            _Pragma("GCC unroll 16") for (int i = 0; i < PEAK_CHAINS_I32; i++)                  \
                x[i] = CPU_V(i32, I, MIN)(CPU_V(i32, I, ADD)(x[i], y), z);                  \
        }                                                                                   \
        int32_t out[CPU_V(i32, I, W)];                                                      \
        float r = 0.0f;                                                                     \
        for (int i = 0; i < PEAK_CHAINS_I32; i++) {                                             \
            CPU_V(i32, I, STOREU)(out, x[i]);                                               \
            for (int l = 0; l < CPU_V(i32, I, W); l++)                                      \
                r += (float)out[l];                                                         \
        }                                                                                   \
        return r;                                                                           \
    }
CHAIN_I32(avx512)
CHAIN_I32(avx2)
#define CHAIN_PICK(S, I) (fn = chains_##S##_##I, width = CPU_V(S, I, W))
#else
#define CHAIN_PICK(S, I) (void)0
#endif

typedef float (*chain_fn)(enum chain_kind, long);

/* One parallel region running `steps` steps on every thread; seconds. */
static double chains_time(gpuk_bctx *b, chain_fn fn, enum chain_kind kind, long steps,
                          volatile float *sink)
{
    double t0 = now_s();
    float acc = 0.0f;
#pragma omp parallel num_threads(b->nthreads) reduction(+ : acc)
    acc += fn(kind, steps);
    double dt = now_s() - t0;
    *sink += acc;
    return dt;
}

/* The ceiling of one (type, kind) of chains on every thread, in G per s. */
#define CHAIN_RUN(S)                                                                        \
    static gpuk_status peak_chains_##S(gpuk_bctx *b, enum chain_kind kind, double *value)  \
    {                                                                                       \
        chain_fn fn = chains_##S##_scalar;                                                  \
        int width = 1;                                                                      \
        if (b->isa == CPU_ISA_AVX512)                                                       \
            CHAIN_PICK(S, avx512);                                                          \
        else if (b->isa == CPU_ISA_AVX2)                                                    \
            CHAIN_PICK(S, avx2);                                                            \
        volatile float sink = 0.0f;                                                         \
        /* warm up (wakes the threads), then size the run to PEAK_MIN_S */                  \
        chains_time(b, fn, kind, PEAK_STEPS, &sink);                                        \
        long steps = PEAK_STEPS * (long)peak_repeats(chains_time(b, fn, kind, PEAK_STEPS, &sink)); \
        double best = 0.0;                                                                  \
        for (int rep = 0; rep < 3; rep++) {                                                 \
            double dt = chains_time(b, fn, kind, steps, &sink);                             \
            /* 2 ops per lane-step either way: FMA = 2 flops, add+min = 2 ops */            \
            double ops = 2.0 * (double)width * CHAINS_##S * (double)steps * b->nthreads;   \
            if (ops / dt > best)                                                            \
                best = ops / dt;                                                            \
        }                                                                                   \
        *value = best * 1e-9;                                                               \
        return GPUK_OK;                                                                     \
    }
CHAIN_RUN(f32)
CHAIN_RUN(f64)
CHAIN_RUN(i32)

/* ---- the bf16 dot: vdpbf16ps chains ---- */

#ifdef CPU_X86
/* x = x + y z0 + y z1 per lane, y the bf16 nearest 0.999 and (z0, z1)
 * those of (0.001, -0.001): the two products cancel exactly, so each
 * chain stays where it started, and each step is the dpbf16 rung's inner
 * instruction */
__attribute__((target("avx512f,avx512bf16"))) static float chains_dpbf16(enum chain_kind kind,
                                                                          long steps)
{
    (void)kind;
    __m512 x[PEAK_CHAINS];
    for (int i = 0; i < PEAK_CHAINS; i++)
        x[i] = _mm512_set1_ps((float)(1.0 + 0.001 * i));
    uint32_t yb = cpu_f32_to_bf16((float)chain_fma_y), zb = cpu_f32_to_bf16((float)chain_fma_z);
    __m512bh y = (__m512bh)_mm512_set1_epi32((int)(yb | yb << 16));
    __m512bh z = (__m512bh)_mm512_set1_epi32((int)(zb | (zb ^ 0x8000u) << 16));
    for (long s = 0; s < steps; s++) {
#pragma GCC unroll 24
        for (int i = 0; i < PEAK_CHAINS; i++)
            x[i] = _mm512_dpbf16_ps(x[i], y, z);
    }
    float out[16], r = 0.0f;
    for (int i = 0; i < PEAK_CHAINS; i++) {
        _mm512_storeu_ps(out, x[i]);
        for (int l = 0; l < 16; l++)
            r += out[l];
    }
    return r;
}
#endif

static gpuk_status peak_dpbf16(gpuk_bctx *b, double *value)
{
#ifdef CPU_X86
    if (b->isa == CPU_ISA_AVX512 && __builtin_cpu_supports("avx512bf16")) {
        volatile float sink = 0.0f;
        chains_time(b, chains_dpbf16, CHAIN_FMA, PEAK_STEPS, &sink);
        long steps = PEAK_STEPS *
                     (long)peak_repeats(chains_time(b, chains_dpbf16, CHAIN_FMA, PEAK_STEPS, &sink));
        double best = 0.0;
        for (int rep = 0; rep < 3; rep++) {
            double dt = chains_time(b, chains_dpbf16, CHAIN_FMA, steps, &sink);
            /* 16 lanes, 2 multiply-adds each: 4 flops a lane-step */
            double flops = 4.0 * 16 * PEAK_CHAINS * (double)steps * b->nthreads;
            if (flops / dt > best)
                best = flops / dt;
        }
        *value = best * 1e-9;
        return GPUK_OK;
    }
#endif
    return cpu_fail(b, GPUK_ERR_UNSUPPORTED,
                    "cpu: no bf16 dot here (AVX512_BF16 absent, or GPUK_CPU_ISA below avx512)");
}

gpuk_status cpu_peak(gpuk_bctx *b, gpuk_peak kind, double *value)
{
    switch (kind) {
    case GPUK_PEAK_COPY_GBS:
        return peak_copy(b, value);
    case GPUK_PEAK_FMA_GFLOPS:
        return peak_chains_f32(b, CHAIN_FMA, value);
    case GPUK_PEAK_ADDMIN_GOPS:
        return peak_chains_f32(b, CHAIN_ADDMIN, value);
    case GPUK_PEAK_FMA_F64_GFLOPS:
        return peak_chains_f64(b, CHAIN_FMA, value);
    case GPUK_PEAK_ADDMIN_F64_GOPS:
        return peak_chains_f64(b, CHAIN_ADDMIN, value);
    case GPUK_PEAK_ADDMIN_I32_GOPS:
        return peak_chains_i32(b, CHAIN_ADDMIN, value);
    case GPUK_PEAK_READ_GBS:
        return peak_read(b, value);
    case GPUK_PEAK_MMA_BF16_GFLOPS:
        return peak_dpbf16(b, value);
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

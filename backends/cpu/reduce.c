/*
 * reduce.c - the reduce family on the CPU (tests/ops/reduce.c,
 * gpuk_reduce(3)): sum or mean of x[outer,len,inner] along len ->
 * out[outer,inner], and meanpool, the mean over tokens of x[b,t,d], in
 * f32 and f64 from one source (dtype.h), f16 and bf16 summed in f32 and
 * rounded once to the output.  A sum over nothing is 0, a mean over
 * nothing is NaN.
 *
 *   naive  one output at a time, a scalar accumulator walking len
 *   simd   OpenMP over outputs; unit-stride vector sums (inner == 1) or
 *          whole rows of inner accumulated as vectors (inner > 1)
 */
#include "config.h"

#include <math.h>

#include "cpu.h"
#include "half.h"
#include "simd.h"

/* naive: the textbook loop; with inner > 1 consecutive steps are inner
 * elements apart, one cache line per element.  The sum is kept in the
 * compute type (f32 for the 16-bit types, each element widened as read);
 * a mean divides it by len (NaN when len is 0) before the one rounding to
 * the output.  meanpool is the mean over t of x[b,t,d]: reduce's
 * [outer, len, inner] as it stands, t == 0 giving NaN. */
static inline int red_mean(const gpuk_args *args)
{
    return args->op == GPUK_OP_MEANPOOL || args->reduce_kind == GPUK_REDUCE_MEAN;
}

#define REDUCE_NAIVE(DT, T, S, ...)                                                         \
    CPU_INSTANCE(reduce_naive, S)                                                           \
    {                                                                                       \
        const gpuk_tdesc *tx = &args->in[0];                                                \
        int64_t outer = tx->shape[0], len = tx->shape[1], inner = tx->shape[2];             \
        const T *x = T_PTR(tx, T);                                                          \
        T *out = T_PTR(&args->out, T);                                                      \
        int mean = red_mean(args);                                                          \
        for (int64_t o = 0; o < outer; o++)                                                 \
            for (int64_t i = 0; i < inner; i++) {                                           \
                CPU_CT(S) acc = 0;                                                          \
                for (int64_t l = 0; l < len; l++)                                           \
                    acc += CPU_LD(S, x[(o * len + l) * inner + i]);                         \
                if (mean)                                                                   \
                    acc = len ? acc / (CPU_CT(S))len : (CPU_CT(S))NAN;                      \
                out[o * inner + i] = CPU_ST(S, acc);                                        \
            }                                                                               \
        return GPUK_OK;                                                                     \
    }
CPU_GENERIC(reduce_naive, CPU_REAL_DTYPES, REDUCE_NAIVE)

/* ---- simd ---- */

/* sum of n contiguous elements: four vector accumulators, masked tail;
 * accum: acc[0..n) += x[0..n) */
#define REDUCE_VEC(T, S, I)                                                                 \
    __attribute__((target(CPU_V(S, I, TARGET)))) static T sum_##S##_##I(const T *x,         \
                                                                         int64_t n)         \
    {                                                                                       \
        enum { W_ = CPU_V(S, I, W) };                                                       \
        CPU_V(S, I, VEC) s0 = CPU_V(S, I, ZERO)(), s1 = s0, s2 = s0, s3 = s0;               \
        int64_t i = 0;                                                                      \
        for (; i + 4 * W_ <= n; i += 4 * W_) {                                              \
            s0 = CPU_V(S, I, ADD)(s0, CPU_V(S, I, LOADU)(x + i));                           \
            s1 = CPU_V(S, I, ADD)(s1, CPU_V(S, I, LOADU)(x + i + W_));                      \
            s2 = CPU_V(S, I, ADD)(s2, CPU_V(S, I, LOADU)(x + i + 2 * W_));                  \
            s3 = CPU_V(S, I, ADD)(s3, CPU_V(S, I, LOADU)(x + i + 3 * W_));                  \
        }                                                                                   \
        for (; i < n; i += W_) {                                                            \
            CPU_V(S, I, MASK) mk = CPU_V(S, I, MASKOF)(n - i >= W_ ? W_ : n - i);           \
            s0 = CPU_V(S, I, ADD)(s0, CPU_V(S, I, MLOADU)(mk, x + i));                      \
        }                                                                                   \
        return CPU_V(S, I, HSUM)(CPU_V(S, I, ADD)(CPU_V(S, I, ADD)(s0, s1),                 \
                                                  CPU_V(S, I, ADD)(s2, s3)));               \
    }                                                                                       \
    __attribute__((target(CPU_V(S, I, TARGET)))) static void accum_##S##_##I(               \
        T *acc, const T *x, int64_t n)                                                      \
    {                                                                                       \
        enum { W_ = CPU_V(S, I, W) };                                                       \
        int64_t i = 0;                                                                      \
        for (; i + W_ <= n; i += W_)                                                        \
            CPU_V(S, I, STOREU)(acc + i, CPU_V(S, I, ADD)(CPU_V(S, I, LOADU)(acc + i),      \
                                                          CPU_V(S, I, LOADU)(x + i)));      \
        if (i < n) {                                                                        \
            CPU_V(S, I, MASK) mk = CPU_V(S, I, MASKOF)(n - i);                              \
            CPU_V(S, I, MSTOREU)(acc + i, mk,                                               \
                                 CPU_V(S, I, ADD)(CPU_V(S, I, MLOADU)(mk, acc + i),         \
                                                  CPU_V(S, I, MLOADU)(mk, x + i)));         \
        }                                                                                   \
    }

#define REDUCE_SCALAR(DT, T, S, ...)                                                        \
    static T sum_##S##_scalar(const T *x, int64_t n)                                        \
    {                                                                                       \
        T s[8] = {0}, r = 0;                                                                \
        int64_t i = 0;                                                                      \
        for (; i + 8 <= n; i += 8)                                                          \
            for (int q = 0; q < 8; q++)                                                     \
                s[q] += x[i + q];                                                           \
        for (int q = 0; q < 8; q++)                                                         \
            r += s[q];                                                                      \
        for (; i < n; i++)                                                                  \
            r += x[i];                                                                      \
        return r;                                                                           \
    }                                                                                       \
    static void accum_##S##_scalar(T *acc, const T *x, int64_t n)                           \
    {                                                                                       \
        for (int64_t i = 0; i < n; i++)                                                     \
            acc[i] += x[i];                                                                 \
    }
CPU_FLOAT_DTYPES(REDUCE_SCALAR)

#ifdef CPU_X86
CPU_FLOAT_VECS(REDUCE_VEC)
#define REDUCE_OF(what, S, I) what##_##S##_##I
#else
#define REDUCE_OF(what, S, I) what##_##S##_scalar
#endif

/* Column chunk of the inner > 1 case: up to 4 KiB of accumulators (1024
 * floats, 512 doubles) stay in L1 while len rows stream past; narrower
 * (down to 256 bytes) when that leaves fewer than 4 chunks per thread. */
#define RED_CHUNK_BYTES 4096
#define RED_CHUNK_MIN_BYTES 256
/* Fewer elements than this per thread are summed on one thread. */
#define RED_PAR_MIN 32768

#define REDUCE_ROWS(DT, T, S, ...)                                                          \
    void cpu_reduce_rows_##S(gpuk_bctx *b, const T *x, int64_t outer, int64_t len,          \
                             int64_t inner, T *out, int mean)                               \
    {                                                                                       \
        T (*sum)(const T *, int64_t) = sum_##S##_scalar;                                    \
        void (*accum)(T *, const T *, int64_t) = accum_##S##_scalar;                        \
        if (b->isa == CPU_ISA_AVX512)                                                       \
            sum = REDUCE_OF(sum, S, avx512), accum = REDUCE_OF(accum, S, avx512);           \
        else if (b->isa == CPU_ISA_AVX2)                                                    \
            sum = REDUCE_OF(sum, S, avx2), accum = REDUCE_OF(accum, S, avx2);               \
        int nt = outer * len * inner < RED_PAR_MIN ? 1 : b->nthreads;                       \
        if (inner == 1 && outer < nt) {                                                     \
            /* few long rows: split each row among the threads; partial sums                \
             * are added in thread order (same bits for a given thread count) */            \
            for (int64_t o = 0; o < outer; o++) {                                           \
                const T *row = x + o * len;                                                 \
                T part[256];                                                                \
                int cnt = nt > 256 ? 256 : nt;                                              \
                _Pragma("omp parallel for num_threads(cnt) schedule(static)")               \
                for (int t = 0; t < cnt; t++)                                               \
                    part[t] = sum(row + len * t / cnt, len * (t + 1) / cnt - len * t / cnt); \
                T s = 0;                                                                    \
                for (int t = 0; t < cnt; t++)                                               \
                    s += part[t];                                                           \
                out[o] = s;                                                                 \
            }                                                                               \
        } else if (inner == 1) {                                                            \
            _Pragma("omp parallel for num_threads(nt) schedule(static)")                    \
            for (int64_t o = 0; o < outer; o++)                                             \
                out[o] = sum(x + o * len, len);                                             \
        } else {                                                                            \
            /* rows of inner elements added as vectors into an L1-resident slice */         \
            int64_t cw = RED_CHUNK_BYTES / (int64_t)sizeof(T);                              \
            while (cw > RED_CHUNK_MIN_BYTES / (int64_t)sizeof(T) &&                         \
                   outer * ((inner + cw - 1) / cw) < 4 * (int64_t)nt)                       \
                cw /= 2;                                                                    \
            int64_t chunks = (inner + cw - 1) / cw;                                         \
            _Pragma("omp parallel for num_threads(nt) schedule(static) collapse(2)")        \
            for (int64_t o = 0; o < outer; o++)                                             \
                for (int64_t c = 0; c < chunks; c++) {                                      \
                    int64_t i0 = c * cw;                                                    \
                    int64_t w = inner - i0 < cw ? inner - i0 : cw;                          \
                    T *acc = out + o * inner + i0;                                          \
                    for (int64_t i = 0; i < w; i++)                                         \
                        acc[i] = 0;                                                         \
                    for (int64_t l = 0; l < len; l++)                                       \
                        accum(acc, x + (o * len + l) * inner + i0, w);                      \
                }                                                                           \
        }                                                                                   \
        if (mean)                                                                           \
            for (int64_t i = 0; i < outer * inner; i++)                                     \
                out[i] = len ? out[i] / (T)len : (T)NAN;                                    \
    }                                                                                       \
    /* simd: OpenMP over outputs (or over a row, when there are fewer rows                  \
     * than threads) and vector sums: AVX-512/AVX2 along a contiguous row                   \
     * when inner == 1, else whole rows of inner added as vectors into a                    \
     * slice of the output kept in L1 */                                                    \
    CPU_INSTANCE(reduce_simd, S)                                                            \
    {                                                                                       \
        const gpuk_tdesc *tx = &args->in[0];                                                \
        cpu_reduce_rows_##S(b, T_PTR(tx, T), tx->shape[0], tx->shape[1], tx->shape[2],      \
                            T_PTR(&args->out, T), red_mean(args));                          \
        return GPUK_OK;                                                                     \
    }
CPU_FLOAT_DTYPES(REDUCE_ROWS)
CPU_BY_DTYPE(reduce_simd, CPU_FLOAT_DTYPES)

/* ---- f16 and bf16: sums in f32, one rounding to the output ---- */

static inline uint16_t red_h_put(gpuk_dtype dt, float f)
{
    return dt == GPUK_F16 ? cpu_f32_to_f16(f) : cpu_f32_to_bf16(f);
}

/* simd: the f32 simd rung's vector sums (sum_f32_<isa>, accum_f32_<isa>)
 * over spans widened into L1 by the vector converters, so memory sees
 * only the 16-bit input.  inner == 1: each row summed span by span (a
 * row split among the threads when there are fewer rows than threads,
 * the parts added in thread order); inner > 1: f32 accumulators for a
 * slice of RED_HSPAN outputs, each of the len rows' slice widened and
 * added.  One rounding to the 16-bit output at the end. */
#define RED_HSPAN 1024

typedef float (*red_sum_fn)(const float *, int64_t);
typedef void (*red_accum_fn)(float *, const float *, int64_t);

/* sum of x[0..n) in f32, span by span */
static float red_half_sum(enum cpu_isa isa, gpuk_dtype dt, red_sum_fn sum, const uint16_t *x,
                          int64_t n)
{
    float buf[RED_HSPAN] __attribute__((aligned(64))), s = 0;
    for (int64_t i = 0; i < n; i += RED_HSPAN) {
        int64_t w = n - i < RED_HSPAN ? n - i : RED_HSPAN;
        cpu_row_to_f32(isa, dt, x + i, buf, w);
        s += sum(buf, w);
    }
    return s;
}

static gpuk_status red_simd_half(gpuk_bctx *b, gpuk_dtype dt, const uint16_t *x, int64_t outer,
                                 int64_t len, int64_t inner, uint16_t *out, int mean)
{
    red_sum_fn sum = sum_f32_scalar;
    red_accum_fn accum = accum_f32_scalar;
    if (b->isa == CPU_ISA_AVX512)
        sum = REDUCE_OF(sum, f32, avx512), accum = REDUCE_OF(accum, f32, avx512);
    else if (b->isa == CPU_ISA_AVX2)
        sum = REDUCE_OF(sum, f32, avx2), accum = REDUCE_OF(accum, f32, avx2);
    enum cpu_isa isa = b->isa;
    int nt = outer * len * inner < RED_PAR_MIN ? 1 : b->nthreads;
    if (inner == 1 && outer < nt) {
        for (int64_t o = 0; o < outer; o++) {
            const uint16_t *row = x + o * len;
            float part[256];
            int cnt = nt > 256 ? 256 : nt;
#pragma omp parallel for num_threads(cnt) schedule(static)
            for (int t = 0; t < cnt; t++)
                part[t] = red_half_sum(isa, dt, sum, row + len * t / cnt,
                                       len * (t + 1) / cnt - len * t / cnt);
            float s = 0;
            for (int t = 0; t < cnt; t++)
                s += part[t];
            if (mean)
                s = len ? s / (float)len : NAN;
            out[o] = red_h_put(dt, s);
        }
    } else if (inner == 1) {
#pragma omp parallel for num_threads(nt) schedule(static)
        for (int64_t o = 0; o < outer; o++) {
            float s = red_half_sum(isa, dt, sum, x + o * len, len);
            if (mean)
                s = len ? s / (float)len : NAN;
            out[o] = red_h_put(dt, s);
        }
    } else {
        int64_t chunks = (inner + RED_HSPAN - 1) / RED_HSPAN;
#pragma omp parallel for num_threads(nt) schedule(static) collapse(2)
        for (int64_t o = 0; o < outer; o++)
            for (int64_t c = 0; c < chunks; c++) {
                float acc[RED_HSPAN] __attribute__((aligned(64)));
                float buf[RED_HSPAN] __attribute__((aligned(64)));
                int64_t i0 = c * RED_HSPAN, w = inner - i0 < RED_HSPAN ? inner - i0 : RED_HSPAN;
                for (int64_t i = 0; i < w; i++)
                    acc[i] = 0;
                for (int64_t l = 0; l < len; l++) {
                    cpu_row_to_f32(isa, dt, x + (o * len + l) * inner + i0, buf, w);
                    accum(acc, buf, w);
                }
                if (mean)
                    for (int64_t i = 0; i < w; i++)
                        acc[i] = len ? acc[i] / (float)len : NAN;
                cpu_row_from_f32(isa, dt, acc, out + o * inner + i0, w);
            }
    }
    return GPUK_OK;
}

#define REDUCE_HALF(DT, T, S, ...)                                                          \
    CPU_INSTANCE(reduce_simd_half, S)                                                       \
    {                                                                                       \
        const gpuk_tdesc *tx = &args->in[0];                                                \
        return red_simd_half(b, DT, T_PTR(tx, T), tx->shape[0], tx->shape[1], tx->shape[2], \
                             T_PTR(&args->out, T), red_mean(args));                         \
    }
CPU_GENERIC(reduce_simd_half, CPU_HALF_DTYPES, REDUCE_HALF)

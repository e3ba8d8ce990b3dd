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

/* ---- simd ----
 *
 * Written once for the four types: sums and accumulators are in the
 * compute type CT (f32 for f16 and bf16, whose simd.h traits load 16-bit
 * elements straight into f32 vectors), and each output is rounded once
 * to the output type at the end; the accumulators load and store through
 * the compute type's traits (simd.h, CPU_VC). */

/* sum of n contiguous elements: four vector accumulators, masked tail;
 * accum: acc[0..n) += x[0..n) */
#define REDUCE_VEC(T, S, I)                                                                 \
    __attribute__((target(CPU_V(S, I, TARGET)))) static CPU_CT(S) sum_##S##_##I(            \
        const T *x, int64_t n)                                                              \
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
        CPU_CT(S) *acc, const T *x, int64_t n)                                              \
    {                                                                                       \
        enum { W_ = CPU_V(S, I, W) };                                                       \
        int64_t i = 0;                                                                      \
        for (; i + W_ <= n; i += W_)                                                        \
            CPU_VC(S, I, STOREU)(acc + i, CPU_V(S, I, ADD)(CPU_VC(S, I, LOADU)(acc + i),    \
                                                           CPU_V(S, I, LOADU)(x + i)));     \
        if (i < n) {                                                                        \
            CPU_VC(S, I, MASK) ma = CPU_VC(S, I, MASKOF)(n - i);                            \
            CPU_V(S, I, MASK) mx = CPU_V(S, I, MASKOF)(n - i);                              \
            CPU_VC(S, I, MSTOREU)(acc + i, ma,                                              \
                                  CPU_V(S, I, ADD)(CPU_VC(S, I, MLOADU)(ma, acc + i),       \
                                                   CPU_V(S, I, MLOADU)(mx, x + i)));        \
        }                                                                                   \
    }

#define REDUCE_SCALAR(DT, T, S, ...)                                                        \
    static CPU_CT(S) sum_##S##_scalar(const T *x, int64_t n)                                \
    {                                                                                       \
        CPU_CT(S) s[8] = {0}, r = 0;                                                        \
        int64_t i = 0;                                                                      \
        for (; i + 8 <= n; i += 8)                                                          \
            for (int q = 0; q < 8; q++)                                                     \
                s[q] += CPU_LD(S, x[i + q]);                                                \
        for (int q = 0; q < 8; q++)                                                         \
            r += s[q];                                                                      \
        for (; i < n; i++)                                                                  \
            r += CPU_LD(S, x[i]);                                                           \
        return r;                                                                           \
    }                                                                                       \
    static void accum_##S##_scalar(CPU_CT(S) *acc, const T *x, int64_t n)                   \
    {                                                                                       \
        for (int64_t i = 0; i < n; i++)                                                     \
            acc[i] += CPU_LD(S, x[i]);                                                      \
    }
CPU_REAL_DTYPES(REDUCE_SCALAR)

#ifdef CPU_X86
CPU_REAL_VECS(REDUCE_VEC)
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

/* One output from its sum: the mean divides first (NaN over nothing), then
 * the one rounding to the output type. */
#define RED_OUT(S, s, mean, len) \
    CPU_ST(S, (mean) ? ((len) ? (s) / (CPU_CT(S))(len) : (CPU_CT(S))NAN) : (s))

#define REDUCE_ROWS(DT, T, S, ...)                                                          \
    void cpu_reduce_rows_##S(gpuk_bctx *b, const T *x, int64_t outer, int64_t len,          \
                             int64_t inner, T *out, int mean)                               \
    {                                                                                       \
        typedef CPU_CT(S) CT;                                                               \
        CT (*sum)(const T *, int64_t) = sum_##S##_scalar;                                   \
        void (*accum)(CT *, const T *, int64_t) = accum_##S##_scalar;                       \
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
                CT part[256];                                                               \
                int cnt = nt > 256 ? 256 : nt;                                              \
                _Pragma("omp parallel for num_threads(cnt) schedule(static)")               \
                for (int t = 0; t < cnt; t++)                                               \
                    part[t] = sum(row + len * t / cnt, len * (t + 1) / cnt - len * t / cnt); \
                CT s = 0;                                                                   \
                for (int t = 0; t < cnt; t++)                                               \
                    s += part[t];                                                           \
                out[o] = RED_OUT(S, s, mean, len);                                          \
            }                                                                               \
        } else if (inner == 1) {                                                            \
            _Pragma("omp parallel for num_threads(nt) schedule(static)")                    \
            for (int64_t o = 0; o < outer; o++)                                             \
                out[o] = RED_OUT(S, sum(x + o * len, len), mean, len);                      \
        } else {                                                                            \
            /* rows of inner elements added as vectors into a slice of                      \
             * accumulators in L1, rounded to out once at the end */                        \
            int64_t cw = RED_CHUNK_BYTES / (int64_t)sizeof(CT);                             \
            while (cw > RED_CHUNK_MIN_BYTES / (int64_t)sizeof(CT) &&                        \
                   outer * ((inner + cw - 1) / cw) < 4 * (int64_t)nt)                       \
                cw /= 2;                                                                    \
            int64_t chunks = (inner + cw - 1) / cw;                                         \
            _Pragma("omp parallel for num_threads(nt) schedule(static) collapse(2)")        \
            for (int64_t o = 0; o < outer; o++)                                             \
                for (int64_t c = 0; c < chunks; c++) {                                      \
                    CT acc[RED_CHUNK_BYTES / sizeof(CT)] __attribute__((aligned(64)));      \
                    int64_t i0 = c * cw;                                                    \
                    int64_t w = inner - i0 < cw ? inner - i0 : cw;                          \
                    for (int64_t i = 0; i < w; i++)                                         \
                        acc[i] = 0;                                                         \
                    for (int64_t l = 0; l < len; l++)                                       \
                        accum(acc, x + (o * len + l) * inner + i0, w);                      \
                    for (int64_t i = 0; i < w; i++)                                         \
                        out[o * inner + i0 + i] = RED_OUT(S, acc[i], mean, len);            \
                }                                                                           \
        }                                                                                   \
    }                                                                                       \
    /* simd: OpenMP over outputs (or over a row, when there are fewer rows                  \
     * than threads) and vector sums: AVX-512/AVX2 along a contiguous row                   \
     * when inner == 1, else whole rows of inner added as vectors into a                    \
     * slice of accumulators kept in L1 */                                                  \
    CPU_INSTANCE(reduce_simd, S)                                                            \
    {                                                                                       \
        const gpuk_tdesc *tx = &args->in[0];                                                \
        cpu_reduce_rows_##S(b, T_PTR(tx, T), tx->shape[0], tx->shape[1], tx->shape[2],      \
                            T_PTR(&args->out, T), red_mean(args));                          \
        return GPUK_OK;                                                                     \
    }
CPU_REAL_DTYPES(REDUCE_ROWS)
CPU_BY_DTYPE(reduce_simd, CPU_REAL_DTYPES)

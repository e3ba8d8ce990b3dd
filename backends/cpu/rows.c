/*
 * rows.c - the rows family on the CPU (tests/ops/rows.c): softmax along
 * the last dimension and the embedding gather, two row-wise ops of the
 * text classifier of examples/textclf (its mean pooling is a reduction,
 * in reduce.c), in f32 and f64 from one source (dtype.h).  Softmax takes
 * its exponentials in the type's own precision, f16 and bf16 rows in f32
 * (widened, computed, rounded once back); embedding moves elements of any
 * of the four as they are, and its ids are i32 whatever the table's type.
 *
 *   naive      plain loops
 *   simd, omp  OpenMP over rows, vector loops inside a row
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "half.h"
#include "simd.h"

/* ---- softmax: x[rows,n] -> out[rows,n], in place allowed ---- */

/* naive: three passes per row (max, sum of exp, exp divided by the sum),
 * in the compute type (f32 for the 16-bit types, one rounding to the
 * output).  Subtracting the row max keeps exp from overflowing; the third
 * pass computes each exp again rather than keeping it in out, where a
 * 16-bit output would round it before the divide.  In place is safe:
 * x[j] is read before out[j] is written. */
#define SOFTMAX_NAIVE(DT, T, S, ...)                                                        \
    CPU_INSTANCE(softmax_naive, S)                                                          \
    {                                                                                       \
        const gpuk_tdesc *tx = &args->in[0];                                                \
        int64_t rows = tx->shape[0], n = tx->shape[1];                                      \
        const T *x = T_PTR(tx, T);                                                          \
        T *o = T_PTR(&args->out, T);                                                        \
        for (int64_t r = 0; r < rows; r++) {                                                \
            const T *xr = x + r * n;                                                        \
            T *orow = o + r * n;                                                            \
            CPU_CT(S) mx = -INFINITY, sum = 0;                                              \
            for (int64_t j = 0; j < n; j++)                                                 \
                mx = CPU_LD(S, xr[j]) > mx ? CPU_LD(S, xr[j]) : mx;                         \
            for (int64_t j = 0; j < n; j++)                                                 \
                sum += CPU_EXP(S)(CPU_LD(S, xr[j]) - mx);                                   \
            for (int64_t j = 0; j < n; j++)                                                 \
                orow[j] = CPU_ST(S, CPU_EXP(S)(CPU_LD(S, xr[j]) - mx) / sum);               \
        }                                                                                   \
        return GPUK_OK;                                                                     \
    }
CPU_GENERIC(softmax_naive, CPU_REAL_DTYPES, SOFTMAX_NAIVE)

/* ---- embedding: out[t,:] = table[ids[t],:] ---- */

/* naive: one row copy per token (ids already checked by core). */
#define EMBEDDING_NAIVE(DT, T, S, ...)                                                      \
    CPU_INSTANCE(embedding_naive, S)                                                        \
    {                                                                                       \
        const gpuk_tdesc *tt = &args->in[0];                                                \
        int64_t d = tt->shape[1], ntok = args->in[1].shape[0];                              \
        const T *table = T_PTR(tt, T);                                                      \
        const int32_t *ids = T_PTR(&args->in[1], const int32_t);                            \
        T *o = T_PTR(&args->out, T);                                                        \
        for (int64_t t = 0; t < ntok; t++)                                                  \
            for (int64_t j = 0; j < d; j++)                                                 \
                o[t * d + j] = table[(int64_t)ids[t] * d + j];                              \
        return GPUK_OK;                                                                     \
    }
CPU_GENERIC(embedding_naive, CPU_REAL_DTYPES, EMBEDDING_NAIVE)

/* ---- the threaded rungs ---- */

/* Rows below this many elements in total run on one thread. */
#define ROWS_PAR_MIN 32768

#ifdef CPU_X86
/*
 * Vector exponentials for softmax's arguments (x - max <= 0, or NaN): the
 * classic reduction x = k ln2 + r with |r| <= ln2/2 (ln2 split in two
 * parts so k ln2 is exact), exp(r) by a polynomial, then 2^k put into the
 * exponent field.  NaN stays NaN.
 *
 * f32: the degree-6 polynomial of Cephes' expf (about 1 ulp); below -87.3
 * the result is flushed to 0.
 */
#define EXP_BODY(VEC, VECI, SET1, ADD, MUL, FMA, ROUND, CVT, SHL, ADDI, SET1I, CAST, LT, BLEND) \
    VEC k = ROUND(MUL(x, SET1(1.44269504088896341f)));                                      \
    VEC r = FMA(k, SET1(-0.693359375f), x);                                                 \
    r = FMA(k, SET1(2.12194440e-4f), r);                                                    \
    VEC p = SET1(1.9875691500e-4f);                                                         \
    p = FMA(p, r, SET1(1.3981999507e-3f));                                                  \
    p = FMA(p, r, SET1(8.3334519073e-3f));                                                  \
    p = FMA(p, r, SET1(4.1665795894e-2f));                                                  \
    p = FMA(p, r, SET1(1.6666665459e-1f));                                                  \
    p = FMA(p, r, SET1(5.0000001201e-1f));                                                  \
    p = FMA(p, MUL(r, r), ADD(r, SET1(1.0f)));                                              \
    VECI e = SHL(ADDI(CVT(k), SET1I(127)), 23);                                             \
    VEC y = MUL(p, CAST(e));                                                                \
    return BLEND(y, SET1(0.0f), LT(x, SET1(-87.3f)));

__attribute__((target("avx512f"))) static inline __m512 exp_f32_avx512(__m512 x)
{
#define R512(v) _mm512_roundscale_ps(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
#define LT512(a, b) _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ)
#define BL512(y, z, mk) _mm512_mask_blend_ps(mk, y, z)
    EXP_BODY(__m512, __m512i, _mm512_set1_ps, _mm512_add_ps, _mm512_mul_ps, _mm512_fmadd_ps, R512,
             _mm512_cvtps_epi32, _mm512_slli_epi32, _mm512_add_epi32, _mm512_set1_epi32,
             _mm512_castsi512_ps, LT512, BL512)
}

__attribute__((target("avx2,fma"))) static inline __m256 exp_f32_avx2(__m256 x)
{
#define R256(v) _mm256_round_ps(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
#define LT256(a, b) _mm256_cmp_ps(a, b, _CMP_LT_OQ)
#define BL256(y, z, mk) _mm256_blendv_ps(y, z, mk)
    EXP_BODY(__m256, __m256i, _mm256_set1_ps, _mm256_add_ps, _mm256_mul_ps, _mm256_fmadd_ps, R256,
             _mm256_cvtps_epi32, _mm256_slli_epi32, _mm256_add_epi32, _mm256_set1_epi32,
             _mm256_castsi256_ps, LT256, BL256)
}

/*
 * f64: exp(r) by its Taylor polynomial to degree 13 (the first term left
 * out is below 0.35^14 / 14! = 4e-18 relative, a small fraction of an
 * ulp), evaluated by Horner with FMAs.  k comes out of the rounding as a
 * double, and 2^k is made without a 64-bit conversion (AVX-512F and AVX2
 * have none): adding 1.5 2^52 + 1023 puts k + 1023 in the low bits, and a
 * shift moves them into the exponent field.  Results below 2^-1022 are
 * subnormal, which no exponent field holds, so 2^k is applied in two
 * halves, each a normal number: the first product is exact, the second
 * rounds once.  Below -745.2 (and at -inf) the result is 0.
 */
#define EXP64_BODY(VEC, SET1, ADD, MUL, FMA, ROUND, FLOOR, BITS, FROMBITS, SHL, LT, BLEND)  \
    const VEC magic = SET1(6755399441055744.0 + 1023.0);                                    \
    VEC k = ROUND(MUL(x, SET1(1.4426950408889634)));                                        \
    VEC r = FMA(k, SET1(-6.93147180369123816490e-01), x);                                   \
    r = FMA(k, SET1(-1.90821492927058770002e-10), r);                                       \
    VEC p = SET1(1.0 / 6227020800.0);                                                       \
    p = FMA(p, r, SET1(1.0 / 479001600.0));                                                 \
    p = FMA(p, r, SET1(1.0 / 39916800.0));                                                  \
    p = FMA(p, r, SET1(1.0 / 3628800.0));                                                   \
    p = FMA(p, r, SET1(1.0 / 362880.0));                                                    \
    p = FMA(p, r, SET1(1.0 / 40320.0));                                                     \
    p = FMA(p, r, SET1(1.0 / 5040.0));                                                      \
    p = FMA(p, r, SET1(1.0 / 720.0));                                                       \
    p = FMA(p, r, SET1(1.0 / 120.0));                                                       \
    p = FMA(p, r, SET1(1.0 / 24.0));                                                        \
    p = FMA(p, r, SET1(1.0 / 6.0));                                                         \
    p = FMA(p, r, SET1(0.5));                                                               \
    p = FMA(p, r, SET1(1.0));                                                               \
    p = FMA(p, r, SET1(1.0));                                                               \
    VEC k1 = FLOOR(MUL(k, SET1(0.5))), k2 = ADD(k, MUL(k1, SET1(-1.0)));                    \
    VEC s1 = FROMBITS(SHL(BITS(ADD(k1, magic)), 52));                                       \
    VEC s2 = FROMBITS(SHL(BITS(ADD(k2, magic)), 52));                                       \
    VEC y = MUL(MUL(p, s1), s2);                                                            \
    return BLEND(y, SET1(0.0), LT(x, SET1(-745.2)));

__attribute__((target("avx512f"))) static inline __m512d exp_f64_avx512(__m512d x)
{
#define RD512(v) _mm512_roundscale_pd(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
#define FL512(v) _mm512_roundscale_pd(v, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)
#define LTD512(a, b) _mm512_cmp_pd_mask(a, b, _CMP_LT_OQ)
#define BLD512(y, z, mk) _mm512_mask_blend_pd(mk, y, z)
    EXP64_BODY(__m512d, _mm512_set1_pd, _mm512_add_pd, _mm512_mul_pd, _mm512_fmadd_pd, RD512,
               FL512, _mm512_castpd_si512, _mm512_castsi512_pd, _mm512_slli_epi64, LTD512,
               BLD512)
}

__attribute__((target("avx2,fma"))) static inline __m256d exp_f64_avx2(__m256d x)
{
#define RD256(v) _mm256_round_pd(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
#define FL256(v) _mm256_round_pd(v, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)
#define LTD256(a, b) _mm256_cmp_pd(a, b, _CMP_LT_OQ)
#define BLD256(y, z, mk) _mm256_blendv_pd(y, z, mk)
    EXP64_BODY(__m256d, _mm256_set1_pd, _mm256_add_pd, _mm256_mul_pd, _mm256_fmadd_pd, RD256,
               FL256, _mm256_castpd_si256, _mm256_castsi256_pd, _mm256_slli_epi64, LTD256,
               BLD256)
}

/* One row, for every (type, ISA): vector max, vector exp stored and
 * summed, vector scale by the reciprocal of the sum; the tail of each pass
 * (fewer than a vector's elements) in scalars, with the C library's exp. */
#define SOFTMAX_ROW(T, S, I)                                                                \
    __attribute__((target(CPU_V(S, I, TARGET)))) static void softmax_row_##S##_##I(         \
        const T *xr, T *orow, int64_t n)                                                    \
    {                                                                                       \
        enum { W_ = CPU_V(S, I, W) };                                                       \
        int64_t nv = n / W_ * W_;                                                           \
        CPU_V(S, I, VEC) vmx = CPU_V(S, I, SET1)(-INFINITY);                                \
        for (int64_t j = 0; j < nv; j += W_)                                                \
            vmx = CPU_V(S, I, MAX)(CPU_V(S, I, LOADU)(xr + j), vmx);                        \
        T mx = nv ? CPU_V(S, I, HMAX)(vmx) : -INFINITY;                                     \
        for (int64_t j = nv; j < n; j++)                                                    \
            mx = xr[j] > mx ? xr[j] : mx;                                                   \
        const CPU_V(S, I, VEC) m = CPU_V(S, I, SET1)(mx);                                   \
        CPU_V(S, I, VEC) vs = CPU_V(S, I, ZERO)();                                          \
        for (int64_t j = 0; j < nv; j += W_) {                                              \
            CPU_V(S, I, VEC) e = exp_##S##_##I(CPU_V(S, I, SUB)(CPU_V(S, I, LOADU)(xr + j), m)); \
            CPU_V(S, I, STOREU)(orow + j, e);                                               \
            vs = CPU_V(S, I, ADD)(vs, e);                                                   \
        }                                                                                   \
        T sum = CPU_V(S, I, HSUM)(vs);                                                      \
        for (int64_t j = nv; j < n; j++) {                                                  \
            T e = CPU_EXP(S)(xr[j] - mx);                                                   \
            orow[j] = e;                                                                    \
            sum += e;                                                                       \
        }                                                                                   \
        T inv = 1 / sum;                                                                    \
        const CPU_V(S, I, VEC) vinv = CPU_V(S, I, SET1)(inv);                               \
        for (int64_t j = 0; j < nv; j += W_)                                                \
            CPU_V(S, I, STOREU)(orow + j, CPU_V(S, I, MUL)(CPU_V(S, I, LOADU)(orow + j), vinv)); \
        for (int64_t j = nv; j < n; j++)                                                    \
            orow[j] *= inv;                                                                 \
    }
CPU_FLOAT_VECS(SOFTMAX_ROW)
#define SOFTMAX_ROW_OF(S, I) softmax_row_##S##_##I
#else
#define SOFTMAX_ROW_OF(S, I) softmax_row_##S##_scalar
#endif

/* softmax simd: OpenMP over rows; in each row a vector max, a vector exp
 * (the C library's exp is a call per element and dominated the naive
 * rung) whose results are summed as they are stored, and a multiply by the
 * reciprocal of the sum instead of a divide per element.  In place is
 * safe: x[j] is read before out[j] is written.  The scalar row serves
 * CPUs without AVX2. */
#define SOFTMAX_SIMD(DT, T, S, ...)                                                         \
    static void softmax_row_##S##_scalar(const T *xr, T *orow, int64_t n)                   \
    {                                                                                       \
        T mx = -INFINITY;                                                                   \
        for (int64_t j = 0; j < n; j++)                                                     \
            mx = xr[j] > mx ? xr[j] : mx;                                                   \
        T sum = 0;                                                                          \
        for (int64_t j = 0; j < n; j++) {                                                   \
            T e = CPU_EXP(S)(xr[j] - mx);                                                   \
            orow[j] = e;                                                                    \
            sum += e;                                                                       \
        }                                                                                   \
        T inv = 1 / sum;                                                                    \
        for (int64_t j = 0; j < n; j++)                                                     \
            orow[j] *= inv;                                                                 \
    }                                                                                       \
    CPU_INSTANCE(softmax_simd, S)                                                           \
    {                                                                                       \
        const gpuk_tdesc *tx = &args->in[0];                                                \
        int64_t rows = tx->shape[0], n = tx->shape[1];                                      \
        const T *x = T_PTR(tx, T);                                                          \
        T *o = T_PTR(&args->out, T);                                                        \
        void (*row)(const T *, T *, int64_t) = softmax_row_##S##_scalar;                    \
        if (b->isa == CPU_ISA_AVX512)                                                       \
            row = SOFTMAX_ROW_OF(S, avx512);                                                \
        else if (b->isa == CPU_ISA_AVX2)                                                    \
            row = SOFTMAX_ROW_OF(S, avx2);                                                  \
        int nt = rows * n < ROWS_PAR_MIN ? 1 : b->nthreads;                                 \
        _Pragma("omp parallel for num_threads(nt) schedule(static)")                        \
        for (int64_t r = 0; r < rows; r++)                                                  \
            row(x + r * n, o + r * n, n);                                                   \
        return GPUK_OK;                                                                     \
    }
CPU_GENERIC(softmax_simd, CPU_FLOAT_DTYPES, SOFTMAX_SIMD)

/* embedding omp: OpenMP over tokens, each row a memcpy. */
#define EMBEDDING_OMP(DT, T, S, ...)                                                        \
    CPU_INSTANCE(embedding_omp, S)                                                          \
    {                                                                                       \
        const gpuk_tdesc *tt = &args->in[0];                                                \
        int64_t d = tt->shape[1], ntok = args->in[1].shape[0];                              \
        const T *table = T_PTR(tt, T);                                                      \
        const int32_t *ids = T_PTR(&args->in[1], const int32_t);                            \
        T *o = T_PTR(&args->out, T);                                                        \
        int nt = ntok * d < ROWS_PAR_MIN ? 1 : b->nthreads;                                 \
        _Pragma("omp parallel for num_threads(nt) schedule(static)")                        \
        for (int64_t t = 0; t < ntok; t++)                                                  \
            memcpy(o + t * d, table + (int64_t)ids[t] * d, (size_t)d * sizeof(T));          \
        return GPUK_OK;                                                                     \
    }
CPU_GENERIC(embedding_omp, CPU_REAL_DTYPES, EMBEDDING_OMP)

/* ---- softmax's simd rung in f16 and bf16: each row widened to f32, the
 * f32 row code, the result rounded once back (dtype.h, CPU_HALF_DTYPES) ---- */

/* simd: OpenMP over rows, each widened into the thread's buffer by the
 * vector converters, the f32 simd rung's row (vector max, exp, scale) on
 * the buffer in place, and rounded back. */
#define SOFTMAX_SIMD_HALF(DT, T, S, ...)                                                    \
    CPU_INSTANCE(softmax_simd_half, S)                                                      \
    {                                                                                       \
        const gpuk_tdesc *tx = &args->in[0];                                                \
        int64_t rows = tx->shape[0], n = tx->shape[1];                                      \
        const T *x = T_PTR(tx, T);                                                          \
        T *o = T_PTR(&args->out, T);                                                        \
        void (*rowf)(const float *, float *, int64_t) = softmax_row_f32_scalar;             \
        if (b->isa == CPU_ISA_AVX512)                                                       \
            rowf = SOFTMAX_ROW_OF(f32, avx512);                                             \
        else if (b->isa == CPU_ISA_AVX2)                                                    \
            rowf = SOFTMAX_ROW_OF(f32, avx2);                                               \
        int nt = rows * n < ROWS_PAR_MIN ? 1 : b->nthreads;                                 \
        int64_t ld = (n + 15) / 16 * 16; /* each thread's row on its own lines */           \
        float *buf = cpu_scratch(b, (size_t)nt * (size_t)ld * sizeof(float),                \
                                 "softmax rows in f32");                                    \
        if (!buf)                                                                           \
            return GPUK_ERR_NO_MEMORY;                                                      \
        _Pragma("omp parallel num_threads(nt)")                                             \
        {                                                                                   \
            float *row = buf + (size_t)CPU_THREAD_NUM() * (size_t)ld;                       \
            _Pragma("omp for schedule(static)")                                             \
            for (int64_t r = 0; r < rows; r++) {                                            \
                cpu_row_to_f32(b->isa, DT, x + r * n, row, n);                              \
                rowf(row, row, n);                                                          \
                cpu_row_from_f32(b->isa, DT, row, o + r * n, n);                            \
            }                                                                               \
        }                                                                                   \
        free(buf);                                                                          \
        return GPUK_OK;                                                                     \
    }
CPU_GENERIC(softmax_simd_half, CPU_HALF_DTYPES, SOFTMAX_SIMD_HALF)

/*
 * rows.c - the rows family on the CPU (tests/ops/rows.c): softmax along
 * the last dimension and the embedding gather, two row-wise ops of the
 * text classifier of examples/textclf (its mean pooling is a reduction,
 * in reduce.c).
 *
 *   naive      plain loops
 *   simd, omp  OpenMP over rows, vector loops inside a row
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "cpu.h"

/* ---- softmax: x[rows,n] -> out[rows,n], in place allowed ---- */

/* naive: three passes per row (max, exp and sum, divide).  Subtracting the
 * row max keeps exp from overflowing; exp values are stored in out first,
 * which is safe in place because x[j] is read before out[j] is written. */
CPU_KERNEL(softmax_naive)
{
    const gpuk_tdesc *tx = &args->in[0];
    int64_t rows = tx->shape[0], n = tx->shape[1];
    const float *x = T_F32(tx);
    float *o = T_F32(&args->out);
    for (int64_t r = 0; r < rows; r++) {
        const float *xr = x + r * n;
        float *orow = o + r * n;
        float mx = -INFINITY;
        for (int64_t j = 0; j < n; j++)
            mx = xr[j] > mx ? xr[j] : mx;
        float sum = 0.0f;
        for (int64_t j = 0; j < n; j++) {
            float e = expf(xr[j] - mx);
            orow[j] = e;
            sum += e;
        }
        for (int64_t j = 0; j < n; j++)
            orow[j] /= sum;
    }
    return GPUK_OK;
}

/* ---- embedding: out[t,:] = table[ids[t],:] ---- */

/* naive: one row copy per token (ids already checked by core). */
CPU_KERNEL(embedding_naive)
{
    const gpuk_tdesc *tt = &args->in[0];
    int64_t d = tt->shape[1], ntok = args->in[1].shape[0];
    const float *table = T_F32(tt);
    const int32_t *ids = (const int32_t *)args->in[1].data;
    float *o = T_F32(&args->out);
    for (int64_t t = 0; t < ntok; t++)
        for (int64_t j = 0; j < d; j++)
            o[t * d + j] = table[(int64_t)ids[t] * d + j];
    return GPUK_OK;
}

/* ---- the threaded rungs ---- */

/* Rows below this many elements in total run on one thread. */
#define ROWS_PAR_MIN 32768

/* The scalar row of the simd rung (CPUs without AVX2): exponentials
 * summed as they are stored, then a multiply by the reciprocal of the sum
 * instead of a divide per element. */
static void softmax_row_scalar(const float *xr, float *orow, int64_t n)
{
    float mx = -INFINITY;
    for (int64_t j = 0; j < n; j++)
        mx = xr[j] > mx ? xr[j] : mx;
    float sum = 0.0f;
    for (int64_t j = 0; j < n; j++) {
        float e = expf(xr[j] - mx);
        orow[j] = e;
        sum += e;
    }
    float inv = 1.0f / sum;
    for (int64_t j = 0; j < n; j++)
        orow[j] *= inv;
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

/*
 * A vector exp for softmax's arguments (x - max <= 0, or NaN): the
 * classic reduction x = k ln2 + r with |r| <= ln2/2 (ln2 split in two
 * parts so k ln2 is exact), exp(r) by the degree-6 polynomial of Cephes'
 * expf (about 1 ulp), then 2^k put into the exponent field.  Below
 * -87.3 the result underflows to 0; NaN stays NaN.
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

__attribute__((target("avx512f"))) static inline __m512 exp_avx512(__m512 x)
{
#define R512(v) _mm512_roundscale_ps(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
#define LT512(a, b) _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ)
#define BL512(y, z, mk) _mm512_mask_blend_ps(mk, y, z)
    EXP_BODY(__m512, __m512i, _mm512_set1_ps, _mm512_add_ps, _mm512_mul_ps, _mm512_fmadd_ps, R512,
             _mm512_cvtps_epi32, _mm512_slli_epi32, _mm512_add_epi32, _mm512_set1_epi32,
             _mm512_castsi512_ps, LT512, BL512)
}

__attribute__((target("avx2,fma"))) static inline __m256 exp_avx2(__m256 x)
{
#define R256(v) _mm256_round_ps(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
#define LT256(a, b) _mm256_cmp_ps(a, b, _CMP_LT_OQ)
#define BL256(y, z, mk) _mm256_blendv_ps(y, z, mk)
    EXP_BODY(__m256, __m256i, _mm256_set1_ps, _mm256_add_ps, _mm256_mul_ps, _mm256_fmadd_ps, R256,
             _mm256_cvtps_epi32, _mm256_slli_epi32, _mm256_add_epi32, _mm256_set1_epi32,
             _mm256_castsi256_ps, LT256, BL256)
}

/* One row: vector max, vector exp stored and summed, vector scale; the
 * tails go through masks. */
__attribute__((target("avx512f"))) static void softmax_row_avx512(const float *xr, float *orow,
                                                                  int64_t n)
{
    __m512 vmx = _mm512_set1_ps(-INFINITY);
    int64_t j = 0;
    for (; j + 16 <= n; j += 16)
        vmx = _mm512_max_ps(_mm512_loadu_ps(xr + j), vmx);
    float mx = _mm512_reduce_max_ps(vmx);
    for (; j < n; j++)
        mx = xr[j] > mx ? xr[j] : mx;
    const __m512 m = _mm512_set1_ps(mx);
    __m512 vs = _mm512_setzero_ps();
    for (j = 0; j < n; j += 16) {
        __mmask16 mk = n - j >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (n - j)) - 1);
        __m512 e = exp_avx512(_mm512_sub_ps(_mm512_maskz_loadu_ps(mk, xr + j), m));
        e = _mm512_maskz_mov_ps(mk, e);
        _mm512_mask_storeu_ps(orow + j, mk, e);
        vs = _mm512_add_ps(vs, e);
    }
    const __m512 inv = _mm512_set1_ps(1.0f / _mm512_reduce_add_ps(vs));
    for (j = 0; j < n; j += 16) {
        __mmask16 mk = n - j >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (n - j)) - 1);
        _mm512_mask_storeu_ps(orow + j, mk, _mm512_mul_ps(_mm512_maskz_loadu_ps(mk, orow + j), inv));
    }
}

__attribute__((target("avx2,fma"))) static void softmax_row_avx2(const float *xr, float *orow,
                                                                int64_t n)
{
    float mx = -INFINITY;
    for (int64_t j = 0; j < n; j++)
        mx = xr[j] > mx ? xr[j] : mx;
    const __m256 m = _mm256_set1_ps(mx);
    __m256 vs = _mm256_setzero_ps();
    int64_t j = 0;
    for (; j + 8 <= n; j += 8) {
        __m256 e = exp_avx2(_mm256_sub_ps(_mm256_loadu_ps(xr + j), m));
        _mm256_storeu_ps(orow + j, e);
        vs = _mm256_add_ps(vs, e);
    }
    float lanes[8], sum = 0.0f;
    _mm256_storeu_ps(lanes, vs);
    for (int l = 0; l < 8; l++)
        sum += lanes[l];
    for (; j < n; j++) {
        float e = expf(xr[j] - mx);
        orow[j] = e;
        sum += e;
    }
    const __m256 inv = _mm256_set1_ps(1.0f / sum);
    for (j = 0; j + 8 <= n; j += 8)
        _mm256_storeu_ps(orow + j, _mm256_mul_ps(_mm256_loadu_ps(orow + j), inv));
    for (; j < n; j++)
        orow[j] *= 1.0f / sum;
}
#endif

/* softmax simd: OpenMP over rows; in each row a vector max, a vector exp
 * (the C library's expf is a call per element and dominated the naive
 * rung) whose results are summed as they are stored, and a multiply by the
 * reciprocal of the sum instead of a divide per element.  In place is
 * safe: x[j] is read before out[j] is written. */
CPU_KERNEL(softmax_simd)
{
    const gpuk_tdesc *tx = &args->in[0];
    int64_t rows = tx->shape[0], n = tx->shape[1];
    const float *x = T_F32(tx);
    float *o = T_F32(&args->out);
    void (*row)(const float *, float *, int64_t) = softmax_row_scalar;
#if defined(__x86_64__) || defined(__i386__)
    if (b->isa == CPU_ISA_AVX512)
        row = softmax_row_avx512;
    else if (b->isa == CPU_ISA_AVX2)
        row = softmax_row_avx2;
#endif
    int nt = rows * n < ROWS_PAR_MIN ? 1 : b->nthreads;
#pragma omp parallel for num_threads(nt) schedule(static)
    for (int64_t r = 0; r < rows; r++)
        row(x + r * n, o + r * n, n);
    return GPUK_OK;
}

/* embedding omp: OpenMP over tokens, each row a memcpy. */
CPU_KERNEL(embedding_omp)
{
    const gpuk_tdesc *tt = &args->in[0];
    int64_t d = tt->shape[1], ntok = args->in[1].shape[0];
    const float *table = T_F32(tt);
    const int32_t *ids = (const int32_t *)args->in[1].data;
    float *o = T_F32(&args->out);
    int nt = ntok * d < ROWS_PAR_MIN ? 1 : b->nthreads;
#pragma omp parallel for num_threads(nt) schedule(static)
    for (int64_t t = 0; t < ntok; t++)
        memcpy(o + t * d, table + (int64_t)ids[t] * d, (size_t)d * sizeof(float));
    return GPUK_OK;
}

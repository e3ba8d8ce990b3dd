/*
 * half.c - rows of f16 and bf16 to f32 and back (half.h): the vector
 * paths a kernel stages its operands with.  F16C converts f16 in both
 * directions, rounding to nearest even with NaN kept quiet, as half.h's
 * scalar code does; bf16 to f32 is a 16-bit shift, and f32 to bf16 the
 * scalar code's carry trick on 32-bit lanes.  The scalar loop finishes
 * every row, so each path agrees with half.h bit for bit.
 */
#include "half.h"
#include "simd.h"

#ifdef CPU_X86
__attribute__((target("avx512f,f16c"))) static int64_t to_f32_avx512(gpuk_dtype dt,
                                                                     const uint16_t *s,
                                                                     float *d, int64_t n)
{
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m256i h = _mm256_loadu_si256((const __m256i *)(s + i));
        __m512 f = dt == GPUK_F16
                       ? _mm512_cvtph_ps(h)
                       : _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
        _mm512_storeu_ps(d + i, f);
    }
    return i;
}

__attribute__((target("avx512f,f16c"))) static int64_t from_f32_avx512(gpuk_dtype dt,
                                                                               const float *s,
                                                                               uint16_t *d,
                                                                               int64_t n)
{
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m512 f = _mm512_loadu_ps(s + i);
        __m256i h;
        if (dt == GPUK_F16) {
            h = _mm512_cvtps_ph(f, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        } else {
            __m512i u = _mm512_castps_si512(f);
            __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(1));
            __m512i r = _mm512_srli_epi32(
                _mm512_add_epi32(u, _mm512_add_epi32(lsb, _mm512_set1_epi32(0x7fff))), 16);
            __m512i q = _mm512_or_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(0x40));
            __mmask16 nan = _mm512_cmp_ps_mask(f, f, _CMP_UNORD_Q);
            h = _mm512_cvtepi32_epi16(_mm512_mask_blend_epi32(nan, r, q));
        }
        _mm256_storeu_si256((__m256i *)(d + i), h);
    }
    return i;
}

__attribute__((target("avx2,f16c"))) static int64_t to_f32_avx2(gpuk_dtype dt, const uint16_t *s,
                                                               float *d, int64_t n)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m128i h = _mm_loadu_si128((const __m128i *)(s + i));
        __m256 f = dt == GPUK_F16
                       ? _mm256_cvtph_ps(h)
                       : _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
        _mm256_storeu_ps(d + i, f);
    }
    return i;
}

__attribute__((target("avx2,f16c"))) static int64_t from_f32_avx2(gpuk_dtype dt, const float *s,
                                                                 uint16_t *d, int64_t n)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 f = _mm256_loadu_ps(s + i);
        __m128i h;
        if (dt == GPUK_F16) {
            h = _mm256_cvtps_ph(f, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        } else {
            __m256i u = _mm256_castps_si256(f);
            __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1));
            __m256i r = _mm256_srli_epi32(
                _mm256_add_epi32(u, _mm256_add_epi32(lsb, _mm256_set1_epi32(0x7fff))), 16);
            __m256i q = _mm256_or_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(0x40));
            __m256i nan = _mm256_castps_si256(_mm256_cmp_ps(f, f, _CMP_UNORD_Q));
            __m256i v = _mm256_blendv_epi8(r, q, nan);
            /* packus works within 128-bit halves: gather the two halves' words */
            __m256i p = _mm256_permute4x64_epi64(_mm256_packus_epi32(v, v), 0xd8);
            h = _mm256_castsi256_si128(p);
        }
        _mm_storeu_si128((__m128i *)(d + i), h);
    }
    return i;
}
#endif

void cpu_row_to_f32(enum cpu_isa isa, gpuk_dtype dt, const void *src, float *dst, int64_t n)
{
    if (dt == GPUK_F32) {
        memcpy(dst, src, (size_t)n * 4);
        return;
    }
    if (dt != GPUK_F16 && dt != GPUK_BF16)
        return;
    const uint16_t *s = src;
    int64_t i = 0;
#ifdef CPU_X86
    if (isa == CPU_ISA_AVX512)
        i = to_f32_avx512(dt, s, dst, n);
    else if (isa == CPU_ISA_AVX2)
        i = to_f32_avx2(dt, s, dst, n);
#else
    (void)isa;
#endif
    for (; i < n; i++)
        dst[i] = dt == GPUK_F16 ? cpu_f16_to_f32(s[i]) : cpu_bf16_to_f32(s[i]);
}

void cpu_row_from_f32(enum cpu_isa isa, gpuk_dtype dt, const float *src, void *dst, int64_t n)
{
    if (dt == GPUK_F32) {
        memcpy(dst, src, (size_t)n * 4);
        return;
    }
    if (dt != GPUK_F16 && dt != GPUK_BF16)
        return;
    uint16_t *d = dst;
    int64_t i = 0;
#ifdef CPU_X86
    if (isa == CPU_ISA_AVX512)
        i = from_f32_avx512(dt, src, d, n);
    else if (isa == CPU_ISA_AVX2)
        i = from_f32_avx2(dt, src, d, n);
#else
    (void)isa;
#endif
    for (; i < n; i++)
        d[i] = dt == GPUK_F16 ? cpu_f32_to_f16(src[i]) : cpu_f32_to_bf16(src[i]);
}

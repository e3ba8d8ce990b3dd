/*
 * half.h - the CPU backend's 16-bit floats (issue 27): f16 (IEEE binary16)
 * and bf16 (the top half of an f32) are storage types; every kernel
 * computes in f32 and converts at the edges (gpuk(7), "Element types").
 *
 * Every conversion to a narrower type rounds to nearest, ties to even,
 * keeps infinities and NaN (made quiet, the sign kept) and sends a finite
 * value past the largest finite one (f16: 65504 and up to half an ulp
 * above it) to an infinity, as the hardware converters (F16C, CUDA's
 * __float2half_rn) do.  f64 goes to f16 or bf16 in one rounding: first to
 * f32 rounding to odd, which f32's 13 (bf16: 16) spare bits make
 * harmless, then to nearest even.
 *
 * Rows: cpu_row_to_f32 and cpu_row_from_f32 convert n elements with the
 * widest vector code the context's ISA allows (F16C on AVX2 and AVX-512),
 * and are what a kernel calls to stage a panel or a row in f32.
 */
#ifndef GPUK_CPU_HALF_H
#define GPUK_CPU_HALF_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "cpu.h"

static inline uint32_t cpu_f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static inline float cpu_bits_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline float cpu_bf16_to_f32(uint16_t h)
{
    return cpu_bits_f32((uint32_t)h << 16);
}

static inline uint16_t cpu_f32_to_bf16(float f)
{
    uint32_t u = cpu_f32_bits(f);
    if (isnan(f))
        return (uint16_t)((u >> 16) | 0x40u);
    /* adding 0x7fff, plus the lowest kept bit, carries exactly when the
     * dropped half is above the tie, or at it with an odd kept half; a
     * carry out of the largest finite value lands on the infinity */
    return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

static inline float cpu_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 0x1f)   /* infinity or NaN: the payload moves up with the mantissa */
        return cpu_bits_f32(sign | 0x7f800000u | (m << 13));
    if (e == 0)      /* zero or subnormal: m 2^-24, exact in f32 */
        return sign ? -ldexpf((float)m, -24) : ldexpf((float)m, -24);
    return cpu_bits_f32(sign | ((e + 112u) << 23) | (m << 13));
}

static inline uint16_t cpu_f32_to_f16(float f)
{
    uint32_t u = cpu_f32_bits(f);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    float a = fabsf(f);
    if (isnan(f))
        return (uint16_t)(sign | 0x7e00u | ((u >> 13) & 0x3ffu));
    if (a >= 65520.0f)   /* 65504 + half an ulp (16): the tie goes to the even infinity */
        return (uint16_t)(sign | 0x7c00u);
    if (a < 6.103515625e-05f) {
        /* subnormal (or zero): a multiple of 2^-24; rintf rounds to
         * nearest even in the default mode, and a result of 1024 is the
         * smallest normal, whose encoding follows on */
        return (uint16_t)(sign | (uint16_t)rintf(a * 16777216.0f));
    }
    uint32_t v = cpu_f32_bits(a);
    uint32_t r = v + 0xfffu + ((v >> 13) & 1u);   /* round the 13 dropped bits */
    return (uint16_t)(sign | (((r >> 13) - (112u << 10)) & 0x7fffu));
}

/* A 16-bit element of the run-time dtype dt (GPUK_F16 or GPUK_BF16) as
 * f32, and an f32 rounded to one. */
static inline float cpu_half_to_f32(gpuk_dtype dt, uint16_t h)
{
    return dt == GPUK_F16 ? cpu_f16_to_f32(h) : cpu_bf16_to_f32(h);
}

static inline uint16_t cpu_f32_to_half(gpuk_dtype dt, float f)
{
    return dt == GPUK_F16 ? cpu_f32_to_f16(f) : cpu_f32_to_bf16(f);
}

/* f64 to f32 rounding to odd: the f32 neighbour of v whose last bit is 1
 * when v is not an f32, so that one more rounding to a type at least two
 * bits narrower gives the same result as rounding v directly. */
static inline float cpu_f64_to_f32_odd(double v)
{
    float f = (float)v;
    if (isfinite(f) && (double)f != v && !(cpu_f32_bits(f) & 1u))
        f = nextafterf(f, v > (double)f ? INFINITY : -INFINITY);
    return f;
}

static inline uint16_t cpu_f64_to_f16(double v)
{
    return cpu_f32_to_f16(cpu_f64_to_f32_odd(v));
}

static inline uint16_t cpu_f64_to_bf16(double v)
{
    return cpu_f32_to_bf16(cpu_f64_to_f32_odd(v));
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

/* ---- vector forms: 16 (AVX-512) or 8 (AVX2) elements at a time ----
 *
 * widen turns the raw 16-bit words into f32 lanes (exact); narrow rounds
 * f32 lanes back to words with the scalar code's results bit for bit:
 * F16C for f16 (nearest even, NaN made quiet), for bf16 the carry trick
 * above on 32-bit lanes.  simd.h's f16 and bf16 traits are built on the
 * loads and stores after them, so a vector loop written against the
 * traits computes in f32 between a 16-bit load and a 16-bit store, with
 * no staging buffer. */
#define CPU_H512_ __attribute__((target("avx512f,f16c")))
#define CPU_H256_ __attribute__((target("avx2,fma,f16c")))

/* bf16's last step: per lane the rounded top half r, or for a NaN the
 * quieted one q, packed to 16-bit words */
CPU_H512_ static inline __m256i cpu_bf16_pack_avx512(__m512 f, __m512i r, __m512i q)
{
    __mmask16 nan = _mm512_cmp_ps_mask(f, f, _CMP_UNORD_Q);
    return _mm512_cvtepi32_epi16(_mm512_mask_blend_epi32(nan, r, q));
}

CPU_H256_ static inline __m128i cpu_bf16_pack_avx2(__m256 f, __m256i r, __m256i q)
{
    __m256i v = _mm256_blendv_epi8(r, q, _mm256_castps_si256(_mm256_cmp_ps(f, f, _CMP_UNORD_Q)));
    /* packus packs within 128-bit halves: bring the two halves' words together */
    return _mm256_castsi256_si128(_mm256_permute4x64_epi64(_mm256_packus_epi32(v, v), 0xd8));
}

/* widen and narrow for ISA I: P the intrinsics' prefix, VF and VI the f32
 * and 32-bit integer vectors, RAW the register of the 16-bit words, B the
 * vector's width in bits */
#define CPU_H16_CVT_(I, TGT, P, VF, VI, RAW, B)                                     \
    TGT static inline VF cpu_widen_f16_##I(RAW h)                                  \
    {                                                                              \
        return P##_cvtph_ps(h);                                                    \
    }                                                                              \
    TGT static inline VF cpu_widen_bf16_##I(RAW h)                                 \
    {                                                                              \
        return P##_castsi##B##_ps(P##_slli_epi32(P##_cvtepu16_epi32(h), 16));      \
    }                                                                              \
    TGT static inline RAW cpu_narrow_f16_##I(VF f)                                 \
    {                                                                              \
        return P##_cvtps_ph(f, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);     \
    }                                                                              \
    TGT static inline RAW cpu_narrow_bf16_##I(VF f)                                \
    {                                                                              \
        VI u = P##_castps_si##B(f), hi = P##_srli_epi32(u, 16);                    \
        VI lsb = P##_and_si##B(hi, P##_set1_epi32(1));                             \
        VI r = P##_srli_epi32(                                                     \
            P##_add_epi32(u, P##_add_epi32(lsb, P##_set1_epi32(0x7fff))), 16);     \
        return cpu_bf16_pack_##I(f, r, P##_or_si##B(hi, P##_set1_epi32(0x40)));    \
    }
CPU_H16_CVT_(avx512, CPU_H512_, _mm512, __m512, __m512i, __m256i, 512)
CPU_H16_CVT_(avx2, CPU_H256_, _mm256, __m256, __m256i, __m128i, 256)

/* For type S on ISA I (vector VEC of W f32 lanes, RAW the words' register):
 * cpu_vld_S_I and cpu_vst_S_I (unaligned), cpu_vstream_S_I (aligned, past
 * the caches), and the tail forms of the first r < W elements, which stage
 * through a W-word buffer on the stack (a masked 16-bit access would need
 * AVX-512BW); the lanes past r load as +0. */
#define CPU_H16_IO_(S, I, TGT, VEC, RAW, W, LD, ST, STREAM)                        \
    TGT static inline VEC cpu_vld_##S##_##I(const uint16_t *p)                     \
    {                                                                              \
        return cpu_widen_##S##_##I(LD((const RAW *)(const void *)p));              \
    }                                                                              \
    TGT static inline void cpu_vst_##S##_##I(uint16_t *p, VEC v)                   \
    {                                                                              \
        ST((RAW *)(void *)p, cpu_narrow_##S##_##I(v));                             \
    }                                                                              \
    TGT static inline void cpu_vstream_##S##_##I(uint16_t *p, VEC v)               \
    {                                                                              \
        STREAM((RAW *)(void *)p, cpu_narrow_##S##_##I(v));                         \
    }                                                                              \
    TGT static inline VEC cpu_vmld_##S##_##I(int r, const uint16_t *p)             \
    {                                                                              \
        uint16_t t[W] = {0};                                                       \
        memcpy(t, p, (size_t)r * sizeof *t);                                       \
        return cpu_vld_##S##_##I(t);                                               \
    }                                                                              \
    TGT static inline void cpu_vmst_##S##_##I(uint16_t *p, int r, VEC v)           \
    {                                                                              \
        uint16_t t[W];                                                             \
        cpu_vst_##S##_##I(t, v);                                                   \
        memcpy(p, t, (size_t)r * sizeof *t);                                       \
    }
CPU_H16_IO_(f16, avx512, CPU_H512_, __m512, __m256i, 16, _mm256_loadu_si256,
            _mm256_storeu_si256, _mm256_stream_si256)
CPU_H16_IO_(bf16, avx512, CPU_H512_, __m512, __m256i, 16, _mm256_loadu_si256,
            _mm256_storeu_si256, _mm256_stream_si256)
CPU_H16_IO_(f16, avx2, CPU_H256_, __m256, __m128i, 8, _mm_loadu_si128, _mm_storeu_si128,
            _mm_stream_si128)
CPU_H16_IO_(bf16, avx2, CPU_H256_, __m256, __m128i, 8, _mm_loadu_si128, _mm_storeu_si128,
            _mm_stream_si128)
#endif /* x86 */

/* n elements of dtype dt (GPUK_F16, GPUK_BF16 or GPUK_F32) to f32, and
 * back; other dtypes are the caller's error (nothing is written). */
void cpu_row_to_f32(enum cpu_isa isa, gpuk_dtype dt, const void *src, float *dst, int64_t n);
void cpu_row_from_f32(enum cpu_isa isa, gpuk_dtype dt, const float *src, void *dst, int64_t n);

#endif /* GPUK_CPU_HALF_H */

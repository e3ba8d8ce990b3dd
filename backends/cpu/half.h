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

/* n elements of dtype dt (GPUK_F16, GPUK_BF16 or GPUK_F32) to f32, and
 * back; other dtypes are the caller's error (nothing is written). */
void cpu_row_to_f32(enum cpu_isa isa, gpuk_dtype dt, const void *src, float *dst, int64_t n);
void cpu_row_from_f32(enum cpu_isa isa, gpuk_dtype dt, const float *src, void *dst, int64_t n);

#endif /* GPUK_CPU_HALF_H */

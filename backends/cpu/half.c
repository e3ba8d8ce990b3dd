/*
 * half.c - rows of f16 and bf16 to f32 and back (half.h): what a kernel
 * stages a panel or a row with.  The vector loops are half.h's vector
 * forms; the scalar loop finishes every row, so each path agrees with
 * half.h's scalar code bit for bit.
 */
#include "half.h"
#include "simd.h"

#ifdef CPU_X86
/* The vector part of a row for type S on ISA I, the count it converted. */
#define HALF_ROWS_(S, I)                                                                   \
    __attribute__((target(CPU_V(S, I, TARGET)))) static int64_t to_f32_##S##_##I(          \
        const uint16_t *s, float *d, int64_t n)                                            \
    {                                                                                      \
        int64_t i = 0;                                                                     \
        for (; i + CPU_V(S, I, W) <= n; i += CPU_V(S, I, W))                               \
            CPU_V(f32, I, STOREU)(d + i, CPU_V(S, I, LOADU)(s + i));                       \
        return i;                                                                          \
    }                                                                                      \
    __attribute__((target(CPU_V(S, I, TARGET)))) static int64_t from_f32_##S##_##I(        \
        const float *s, uint16_t *d, int64_t n)                                            \
    {                                                                                      \
        int64_t i = 0;                                                                     \
        for (; i + CPU_V(S, I, W) <= n; i += CPU_V(S, I, W))                               \
            CPU_V(S, I, STOREU)(d + i, CPU_V(f32, I, LOADU)(s + i));                       \
        return i;                                                                          \
    }
HALF_ROWS_(f16, avx512)
HALF_ROWS_(bf16, avx512)
HALF_ROWS_(f16, avx2)
HALF_ROWS_(bf16, avx2)

/* The vector converter of (dt, isa), NULL for the scalar path. */
#define HALF_PICK_(dir, T1, T2)                                                             \
    static int64_t (*dir##_pick(enum cpu_isa isa, gpuk_dtype dt))(T1, T2, int64_t)          \
    {                                                                                       \
        if (isa == CPU_ISA_AVX512)                                                          \
            return dt == GPUK_F16 ? dir##_f16_avx512 : dir##_bf16_avx512;                   \
        if (isa == CPU_ISA_AVX2)                                                            \
            return dt == GPUK_F16 ? dir##_f16_avx2 : dir##_bf16_avx2;                       \
        return NULL;                                                                        \
    }
HALF_PICK_(to_f32, const uint16_t *, float *)
HALF_PICK_(from_f32, const float *, uint16_t *)
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
    int64_t (*vec)(const uint16_t *, float *, int64_t) = to_f32_pick(isa, dt);
    if (vec)
        i = vec(s, dst, n);
#else
    (void)isa;
#endif
    for (; i < n; i++)
        dst[i] = cpu_half_to_f32(dt, s[i]);
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
    int64_t (*vec)(const float *, uint16_t *, int64_t) = from_f32_pick(isa, dt);
    if (vec)
        i = vec(src, d, n);
#else
    (void)isa;
#endif
    for (; i < n; i++)
        d[i] = cpu_f32_to_half(dt, src[i]);
}

/*
 * simd.h - vector traits of the CPU backend, one block per (type, ISA),
 * so a vector loop is written once and instantiated per pair (dtype.h
 * tells the whole mechanism):
 *
 *     CPU_V(S, I, OP)   S a type suffix (f32, f64, f16, bf16, i32), I an
 *                       ISA (avx512, avx2), OP one of the names below
 *
 *   VEC W TARGET        the vector type, its lanes, the target attribute
 *   LOAD LOADU STOREU   aligned / unaligned load, unaligned store
 *   STREAM              aligned store that bypasses the caches
 *   SET1 ZERO           broadcast, zero
 *   ADD SUB MUL FMA     FMA(a, b, c) = a b + c in one rounding
 *   MIN MAX             MIN(a, b) = a < b ? a : b (b for a NaN: minps)
 *   MASK MASKOF(r)      the tail mask type and the mask of the first r < W
 *   MLOADU(mk, p)       lanes, zero past the mask; MSTOREU(p, mk, v)
 *   HSUM HMAX           across the lanes
 *
 * The integer block has what min-plus and its ceiling use (VEC, W,
 * TARGET, LOADU, STOREU, SET1, ADD (wrapping), MIN).  x86 only: a file
 * includes this under CPU_X86.
 */
#ifndef GPUK_CPU_SIMD_H
#define GPUK_CPU_SIMD_H

#if defined(__x86_64__) || defined(__i386__)
#define CPU_X86 1
#include <immintrin.h>

#define CPU_V(S, I, OP) CPU_V_##S##_##I##_##OP
/* The traits of S's compute type (dtype.h, CPU_CS): f32's for f16 and
 * bf16, S's own otherwise; for arrays kept in the compute type. */
#define CPU_VC(S, I, OP) CPU_VC_(CPU_CS(S), I, OP)
#define CPU_VC_(C, I, OP) CPU_V(C, I, OP)

/* ---- AVX-512 ---- */

#define CPU_V_f32_avx512_VEC __m512
#define CPU_V_f32_avx512_W 16
#define CPU_V_f32_avx512_TARGET "avx512f"
#define CPU_V_f32_avx512_LOAD _mm512_load_ps
#define CPU_V_f32_avx512_LOADU _mm512_loadu_ps
#define CPU_V_f32_avx512_STOREU _mm512_storeu_ps
#define CPU_V_f32_avx512_STREAM _mm512_stream_ps
#define CPU_V_f32_avx512_SET1 _mm512_set1_ps
#define CPU_V_f32_avx512_ZERO _mm512_setzero_ps
#define CPU_V_f32_avx512_ADD _mm512_add_ps
#define CPU_V_f32_avx512_SUB _mm512_sub_ps
#define CPU_V_f32_avx512_MUL _mm512_mul_ps
#define CPU_V_f32_avx512_FMA _mm512_fmadd_ps
#define CPU_V_f32_avx512_MIN _mm512_min_ps
#define CPU_V_f32_avx512_MAX _mm512_max_ps
#define CPU_V_f32_avx512_MASK __mmask16
#define CPU_V_f32_avx512_MASKOF(r) ((__mmask16)((1u << (r)) - 1))
#define CPU_V_f32_avx512_MLOADU(mk, p) _mm512_maskz_loadu_ps(mk, p)
#define CPU_V_f32_avx512_MSTOREU(p, mk, v) _mm512_mask_storeu_ps(p, mk, v)
#define CPU_V_f32_avx512_HSUM _mm512_reduce_add_ps
#define CPU_V_f32_avx512_HMAX _mm512_reduce_max_ps

#define CPU_V_f64_avx512_VEC __m512d
#define CPU_V_f64_avx512_W 8
#define CPU_V_f64_avx512_TARGET "avx512f"
#define CPU_V_f64_avx512_LOAD _mm512_load_pd
#define CPU_V_f64_avx512_LOADU _mm512_loadu_pd
#define CPU_V_f64_avx512_STOREU _mm512_storeu_pd
#define CPU_V_f64_avx512_STREAM _mm512_stream_pd
#define CPU_V_f64_avx512_SET1 _mm512_set1_pd
#define CPU_V_f64_avx512_ZERO _mm512_setzero_pd
#define CPU_V_f64_avx512_ADD _mm512_add_pd
#define CPU_V_f64_avx512_SUB _mm512_sub_pd
#define CPU_V_f64_avx512_MUL _mm512_mul_pd
#define CPU_V_f64_avx512_FMA _mm512_fmadd_pd
#define CPU_V_f64_avx512_MIN _mm512_min_pd
#define CPU_V_f64_avx512_MAX _mm512_max_pd
#define CPU_V_f64_avx512_MASK __mmask8
#define CPU_V_f64_avx512_MASKOF(r) ((__mmask8)((1u << (r)) - 1))
#define CPU_V_f64_avx512_MLOADU(mk, p) _mm512_maskz_loadu_pd(mk, p)
#define CPU_V_f64_avx512_MSTOREU(p, mk, v) _mm512_mask_storeu_pd(p, mk, v)
#define CPU_V_f64_avx512_HSUM _mm512_reduce_add_pd
#define CPU_V_f64_avx512_HMAX _mm512_reduce_max_pd

#define CPU_V_i32_avx512_VEC __m512i
#define CPU_V_i32_avx512_W 16
#define CPU_V_i32_avx512_TARGET "avx512f"
#define CPU_V_i32_avx512_LOADU(p) _mm512_loadu_si512((const void *)(p))
#define CPU_V_i32_avx512_STOREU(p, v) _mm512_storeu_si512((void *)(p), v)
#define CPU_V_i32_avx512_SET1 _mm512_set1_epi32
#define CPU_V_i32_avx512_ADD _mm512_add_epi32
#define CPU_V_i32_avx512_MIN _mm512_min_epi32

/* ---- AVX2 (with FMA: every AVX2 processor this backend picks has it) ---- */

/* Sums and maxima across lanes, lane by lane in order. */
__attribute__((target("avx2,fma"))) static inline float cpu_hsum_f32_avx2(__m256 v)
{
    float l[8], r = 0.0f;
    _mm256_storeu_ps(l, v);
    for (int i = 0; i < 8; i++)
        r += l[i];
    return r;
}
__attribute__((target("avx2,fma"))) static inline double cpu_hsum_f64_avx2(__m256d v)
{
    double l[4], r = 0.0;
    _mm256_storeu_pd(l, v);
    for (int i = 0; i < 4; i++)
        r += l[i];
    return r;
}
__attribute__((target("avx2,fma"))) static inline float cpu_hmax_f32_avx2(__m256 v)
{
    float l[8], r;
    _mm256_storeu_ps(l, v);
    r = l[0];
    for (int i = 1; i < 8; i++)
        r = l[i] > r ? l[i] : r;
    return r;
}
__attribute__((target("avx2,fma"))) static inline double cpu_hmax_f64_avx2(__m256d v)
{
    double l[4], r;
    _mm256_storeu_pd(l, v);
    r = l[0];
    for (int i = 1; i < 4; i++)
        r = l[i] > r ? l[i] : r;
    return r;
}

#define CPU_V_f32_avx2_VEC __m256
#define CPU_V_f32_avx2_W 8
#define CPU_V_f32_avx2_TARGET "avx2,fma"
#define CPU_V_f32_avx2_LOAD _mm256_load_ps
#define CPU_V_f32_avx2_LOADU _mm256_loadu_ps
#define CPU_V_f32_avx2_STOREU _mm256_storeu_ps
#define CPU_V_f32_avx2_STREAM _mm256_stream_ps
#define CPU_V_f32_avx2_SET1 _mm256_set1_ps
#define CPU_V_f32_avx2_ZERO _mm256_setzero_ps
#define CPU_V_f32_avx2_ADD _mm256_add_ps
#define CPU_V_f32_avx2_SUB _mm256_sub_ps
#define CPU_V_f32_avx2_MUL _mm256_mul_ps
#define CPU_V_f32_avx2_FMA _mm256_fmadd_ps
#define CPU_V_f32_avx2_MIN _mm256_min_ps
#define CPU_V_f32_avx2_MAX _mm256_max_ps
#define CPU_V_f32_avx2_MASK __m256i
#define CPU_V_f32_avx2_MASKOF(r) \
    _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(r)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7))
#define CPU_V_f32_avx2_MLOADU(mk, p) _mm256_maskload_ps(p, mk)
#define CPU_V_f32_avx2_MSTOREU(p, mk, v) _mm256_maskstore_ps(p, mk, v)
#define CPU_V_f32_avx2_HSUM cpu_hsum_f32_avx2
#define CPU_V_f32_avx2_HMAX cpu_hmax_f32_avx2

#define CPU_V_f64_avx2_VEC __m256d
#define CPU_V_f64_avx2_W 4
#define CPU_V_f64_avx2_TARGET "avx2,fma"
#define CPU_V_f64_avx2_LOAD _mm256_load_pd
#define CPU_V_f64_avx2_LOADU _mm256_loadu_pd
#define CPU_V_f64_avx2_STOREU _mm256_storeu_pd
#define CPU_V_f64_avx2_STREAM _mm256_stream_pd
#define CPU_V_f64_avx2_SET1 _mm256_set1_pd
#define CPU_V_f64_avx2_ZERO _mm256_setzero_pd
#define CPU_V_f64_avx2_ADD _mm256_add_pd
#define CPU_V_f64_avx2_SUB _mm256_sub_pd
#define CPU_V_f64_avx2_MUL _mm256_mul_pd
#define CPU_V_f64_avx2_FMA _mm256_fmadd_pd
#define CPU_V_f64_avx2_MIN _mm256_min_pd
#define CPU_V_f64_avx2_MAX _mm256_max_pd
#define CPU_V_f64_avx2_MASK __m256i
#define CPU_V_f64_avx2_MASKOF(r) \
    _mm256_cmpgt_epi64(_mm256_set1_epi64x((long long)(r)), _mm256_setr_epi64x(0, 1, 2, 3))
#define CPU_V_f64_avx2_MLOADU(mk, p) _mm256_maskload_pd(p, mk)
#define CPU_V_f64_avx2_MSTOREU(p, mk, v) _mm256_maskstore_pd(p, mk, v)
#define CPU_V_f64_avx2_HSUM cpu_hsum_f64_avx2
#define CPU_V_f64_avx2_HMAX cpu_hmax_f64_avx2

#define CPU_V_i32_avx2_VEC __m256i
#define CPU_V_i32_avx2_W 8
#define CPU_V_i32_avx2_TARGET "avx2,fma"
#define CPU_V_i32_avx2_LOADU(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define CPU_V_i32_avx2_STOREU(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), v)
#define CPU_V_i32_avx2_SET1 _mm256_set1_epi32
#define CPU_V_i32_avx2_ADD _mm256_add_epi32
#define CPU_V_i32_avx2_MIN _mm256_min_epi32

/* ---- f16 and bf16: f32 vectors between 16-bit loads and stores ----
 * The vector is f32's and so is the arithmetic; LOADU, STOREU, STREAM and
 * the tail's MLOADU and MSTOREU convert (half.h's vector forms, which a
 * file using these traits includes; the tail "mask" is the count of
 * elements left).  No aligned LOAD: a 16-bit row need not be aligned. */
#define CPU_V_f16_avx512_VEC CPU_V_f32_avx512_VEC
#define CPU_V_f16_avx512_W 16
#define CPU_V_f16_avx512_TARGET "avx512f,f16c"
#define CPU_V_f16_avx512_LOADU cpu_vld_f16_avx512
#define CPU_V_f16_avx512_STOREU cpu_vst_f16_avx512
#define CPU_V_f16_avx512_STREAM cpu_vstream_f16_avx512
#define CPU_V_f16_avx512_SET1 CPU_V_f32_avx512_SET1
#define CPU_V_f16_avx512_ZERO CPU_V_f32_avx512_ZERO
#define CPU_V_f16_avx512_ADD CPU_V_f32_avx512_ADD
#define CPU_V_f16_avx512_SUB CPU_V_f32_avx512_SUB
#define CPU_V_f16_avx512_MUL CPU_V_f32_avx512_MUL
#define CPU_V_f16_avx512_FMA CPU_V_f32_avx512_FMA
#define CPU_V_f16_avx512_MIN CPU_V_f32_avx512_MIN
#define CPU_V_f16_avx512_MAX CPU_V_f32_avx512_MAX
#define CPU_V_f16_avx512_HSUM CPU_V_f32_avx512_HSUM
#define CPU_V_f16_avx512_HMAX CPU_V_f32_avx512_HMAX
#define CPU_V_f16_avx512_MASK int
#define CPU_V_f16_avx512_MASKOF(r) ((int)(r))
#define CPU_V_f16_avx512_MLOADU cpu_vmld_f16_avx512
#define CPU_V_f16_avx512_MSTOREU cpu_vmst_f16_avx512
#define CPU_V_f16_avx2_VEC CPU_V_f32_avx2_VEC
#define CPU_V_f16_avx2_W 8
#define CPU_V_f16_avx2_TARGET "avx2,fma,f16c"
#define CPU_V_f16_avx2_LOADU cpu_vld_f16_avx2
#define CPU_V_f16_avx2_STOREU cpu_vst_f16_avx2
#define CPU_V_f16_avx2_STREAM cpu_vstream_f16_avx2
#define CPU_V_f16_avx2_SET1 CPU_V_f32_avx2_SET1
#define CPU_V_f16_avx2_ZERO CPU_V_f32_avx2_ZERO
#define CPU_V_f16_avx2_ADD CPU_V_f32_avx2_ADD
#define CPU_V_f16_avx2_SUB CPU_V_f32_avx2_SUB
#define CPU_V_f16_avx2_MUL CPU_V_f32_avx2_MUL
#define CPU_V_f16_avx2_FMA CPU_V_f32_avx2_FMA
#define CPU_V_f16_avx2_MIN CPU_V_f32_avx2_MIN
#define CPU_V_f16_avx2_MAX CPU_V_f32_avx2_MAX
#define CPU_V_f16_avx2_HSUM CPU_V_f32_avx2_HSUM
#define CPU_V_f16_avx2_HMAX CPU_V_f32_avx2_HMAX
#define CPU_V_f16_avx2_MASK int
#define CPU_V_f16_avx2_MASKOF(r) ((int)(r))
#define CPU_V_f16_avx2_MLOADU cpu_vmld_f16_avx2
#define CPU_V_f16_avx2_MSTOREU cpu_vmst_f16_avx2
#define CPU_V_bf16_avx512_VEC CPU_V_f32_avx512_VEC
#define CPU_V_bf16_avx512_W 16
#define CPU_V_bf16_avx512_TARGET "avx512f,f16c"
#define CPU_V_bf16_avx512_LOADU cpu_vld_bf16_avx512
#define CPU_V_bf16_avx512_STOREU cpu_vst_bf16_avx512
#define CPU_V_bf16_avx512_STREAM cpu_vstream_bf16_avx512
#define CPU_V_bf16_avx512_SET1 CPU_V_f32_avx512_SET1
#define CPU_V_bf16_avx512_ZERO CPU_V_f32_avx512_ZERO
#define CPU_V_bf16_avx512_ADD CPU_V_f32_avx512_ADD
#define CPU_V_bf16_avx512_SUB CPU_V_f32_avx512_SUB
#define CPU_V_bf16_avx512_MUL CPU_V_f32_avx512_MUL
#define CPU_V_bf16_avx512_FMA CPU_V_f32_avx512_FMA
#define CPU_V_bf16_avx512_MIN CPU_V_f32_avx512_MIN
#define CPU_V_bf16_avx512_MAX CPU_V_f32_avx512_MAX
#define CPU_V_bf16_avx512_HSUM CPU_V_f32_avx512_HSUM
#define CPU_V_bf16_avx512_HMAX CPU_V_f32_avx512_HMAX
#define CPU_V_bf16_avx512_MASK int
#define CPU_V_bf16_avx512_MASKOF(r) ((int)(r))
#define CPU_V_bf16_avx512_MLOADU cpu_vmld_bf16_avx512
#define CPU_V_bf16_avx512_MSTOREU cpu_vmst_bf16_avx512
#define CPU_V_bf16_avx2_VEC CPU_V_f32_avx2_VEC
#define CPU_V_bf16_avx2_W 8
#define CPU_V_bf16_avx2_TARGET "avx2,fma,f16c"
#define CPU_V_bf16_avx2_LOADU cpu_vld_bf16_avx2
#define CPU_V_bf16_avx2_STOREU cpu_vst_bf16_avx2
#define CPU_V_bf16_avx2_STREAM cpu_vstream_bf16_avx2
#define CPU_V_bf16_avx2_SET1 CPU_V_f32_avx2_SET1
#define CPU_V_bf16_avx2_ZERO CPU_V_f32_avx2_ZERO
#define CPU_V_bf16_avx2_ADD CPU_V_f32_avx2_ADD
#define CPU_V_bf16_avx2_SUB CPU_V_f32_avx2_SUB
#define CPU_V_bf16_avx2_MUL CPU_V_f32_avx2_MUL
#define CPU_V_bf16_avx2_FMA CPU_V_f32_avx2_FMA
#define CPU_V_bf16_avx2_MIN CPU_V_f32_avx2_MIN
#define CPU_V_bf16_avx2_MAX CPU_V_f32_avx2_MAX
#define CPU_V_bf16_avx2_HSUM CPU_V_f32_avx2_HSUM
#define CPU_V_bf16_avx2_HMAX CPU_V_f32_avx2_HMAX
#define CPU_V_bf16_avx2_MASK int
#define CPU_V_bf16_avx2_MASKOF(r) ((int)(r))
#define CPU_V_bf16_avx2_MLOADU cpu_vmld_bf16_avx2
#define CPU_V_bf16_avx2_MSTOREU cpu_vmst_bf16_avx2
/* Every (type, ISA) pair of a dtype list (dtype.h) with the ISAs above,
 * X(T, S, I): a vector loop is instantiated for all of them by one line,
 * CPU_FLOAT_VECS(BODY), so a type added to a list gets its vector code
 * once its traits are here. */
#define CPU_VECS_OF_(DT, T, S, X) X(T, S, avx512) X(T, S, avx2)
#define CPU_FLOAT_VECS(X) CPU_FLOAT_DTYPES(CPU_VECS_OF_, X)
#define CPU_REAL_VECS(X) CPU_REAL_DTYPES(CPU_VECS_OF_, X)
#define CPU_MINPLUS_VECS(X) CPU_MINPLUS_DTYPES(CPU_VECS_OF_, X)

#endif /* x86 */

#endif /* GPUK_CPU_SIMD_H */

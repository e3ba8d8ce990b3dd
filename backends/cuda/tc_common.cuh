/*
 * tc_common.cuh - what the tensor-core matmul rungs share (issue 27):
 * the operands of MATMUL, BATCHED_MATMUL and GEMM with f16 or bf16 inputs
 * as one struct, the epilogue that turns an f32 sum into c's element (f32,
 * or the inputs' 16-bit dtype rounded to nearest even), the mma.sync and
 * ldmatrix wrappers of the portable rungs, and the entry points one rung
 * falls back to when another cannot take an operand.
 *
 * One struct serves the three ops.  c[i, j] = alpha sum_q A(i, q) B(q, j)
 * (+ beta c[i, j]) (+ bias[j]), where A(i, q) is a[i lda + q], or a[q lda + i]
 * when ta (GEMM's trans_a: a stored [k, m]), and B(q, j) is b[q ldb + j], or
 * b[j ldb + q] when tb (b stored [n, k]).  MATMUL and BATCHED_MATMUL are
 * alpha 1, beta 0: alpha * sum is then the sum itself, and the bias (in c's
 * dtype) is added to the f32 sum before the one rounding to c.  A batch
 * moves a, b and c by sa, sb and sc elements (0: a broadcast operand).
 *
 * Calls with no products (k = 0, or GEMM's alpha = 0, where BLAS reads
 * neither a nor b) never reach a kernel: gkc_tc_begin writes c = bias,
 * beta c or 0 itself, so every kernel may assume k >= 1.
 */
#ifndef GPUK_CUDA_TC_COMMON_CUH
#define GPUK_CUDA_TC_COMMON_CUH

#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include "cuda_internal.h"

struct gkc_tc {
    const void *a, *b;      /* inputs of args->dtype: f16 or bf16 (f32 for the tf32 rung) */
    const void *bias;       /* MATMUL's bias[n] in c's dtype, else NULL */
    void *c;
    int64_t m, n, k;
    int64_t lda, ldb, ldc;  /* row strides of a and b as stored, and of c */
    int64_t batch, sa, sb, sc;
    int ta, tb;             /* a stored [k, m]; b stored [n, k] */
    int out16;              /* c (and bias) in the inputs' 16-bit dtype, else f32 */
    int bf16;               /* inputs are bf16 (else f16, or f32) */
    float alpha, beta;
    const char *op;
};

/* The operands of a checked call (host).  A stored matrix of one row gets
 * its row length (rounded up to 8) as its stride, whatever the view said:
 * the stride is never used, and a 16-byte multiple keeps the copy engines
 * of the later rungs open to it; a batch of one gets batch strides 0. */
gkc_tc gkc_tc_from(const gpuk_args *args);

/* Every rung's first step: p from args, and a call with no products (k = 0,
 * or GEMM's alpha = 0) finished here (*done = 1). */
gpuk_status gkc_tc_begin(gpuk_bctx *b, const gpuk_args *args, const char *variant, gkc_tc *p,
                         int *done);

/* May 16-byte copies (cp.async, TMA) read every row of a and b?  Both
 * pointers 16-byte aligned, and their row and batch strides, in bytes
 * (elements of esize bytes), multiples of 16. */
int gkc_tc_rows16(const gkc_tc *p, int esize);

/* Is the device compute capability 9.0, the only one sm_90a code runs on? */
static inline int gkc_tc_hopper(const gpuk_bctx *b)
{
    return b->dev.cc_major == 9 && b->dev.cc_minor == 0;
}

/* A TMA tensor map (host) of one operand stored [batch][rows][cols], cols
 * contiguous, row stride ld and batch stride sbatch in elements of esize
 * bytes (2: f16 or bf16 as bf16 says; 4: f32), sbatch 0 for an operand
 * every batch shares; copied in boxes of box_cols x box_rows x 1, box_cols
 * 128 bytes long, with the 128-byte swizzle the wgmma descriptors of
 * tc_hopper.cuh read, and zeros outside the matrix.  *ok = 0 (and GPUK_OK)
 * when the copy engine cannot describe the operand (a stride that is no
 * multiple of 16 bytes, a pointer not 16-byte aligned, a dimension past
 * 2^31, or the driver refusing it, or no driver entry point): the caller
 * then takes another rung. */
gpuk_status gkc_tc_tensor_map(gpuk_bctx *b, CUtensorMap *map, const void *base, int esize, int bf16,
                              int64_t rows, int64_t cols, int64_t ld, int64_t batch, int64_t sbatch,
                              int box_cols, int box_rows, int *ok);

/* The tensor maps of a 16-bit a and b for the wgmma rungs: boxes of 64
 * elements along the contiguous dimension by box_a rows of a K-major a
 * (64 rows, that is k, of an MN-major one) and box_b rows of a K-major b
 * (likewise 64 of an MN-major one).  *ok as gkc_tc_tensor_map says. */
gpuk_status gkc_tc_maps16(gpuk_bctx *b, const gkc_tc &p, int box_a, int box_b, CUtensorMap *ma,
                          CUtensorMap *mb, int *ok);

/* The tensor map of c for the TMA stores of an epilogue: boxes of 128
 * bytes of a row (64 16-bit elements or 32 f32, as p.out16 says) by
 * box_rows rows, 128-byte swizzle.  *ok as gkc_tc_tensor_map says, and
 * 0 where a row of c is not a whole number of 16-byte chunks: a TMA store
 * writes whole chunks, so the last chunk of such a row would overwrite
 * what lies past column n (found by the op suite's guards, 2026-11-27). */
gpuk_status gkc_tc_map_c(gpuk_bctx *b, const gkc_tc &p, int box_rows, CUtensorMap *mc, int *ok);

/* The portable rungs by name, for the fallbacks of the later ones
 * (hgemm_mma.cu): mma_ldmatrix takes any operand, mma_async those of
 * gkc_tc_rows16 (and hands the others to mma_ldmatrix). */
gpuk_status gkc_tc_mma_ldmatrix(gpuk_bctx *b, const gkc_tc &p, const char *variant);
gpuk_status gkc_tc_mma_async(gpuk_bctx *b, const gkc_tc &p, const char *variant);

/* The backend's tensor-core ceilings (peak_tc.cu), for peak.cu's switch:
 * GPUK_PEAK_MMA_BF16_GFLOPS, MMA_F16_GFLOPS and MMA_TF32_GFLOPS. */
gpuk_status gkc_peak_tc(gpuk_bctx *b, gpuk_peak kind, double *value);

#ifdef __CUDACC__
/* ---------------------------------------------------------------- elements */

__device__ __forceinline__ float tc_f32(__half x) { return __half2float(x); }
__device__ __forceinline__ float tc_f32(__nv_bfloat16 x) { return __bfloat162float(x); }
__device__ __forceinline__ float tc_f32(float x) { return x; }

/* f32 -> T, round to nearest even (NaN and infinities kept) */
template <class T> __device__ __forceinline__ T tc_round(float v);
template <> __device__ __forceinline__ __half tc_round<__half>(float v)
{
    return __float2half_rn(v);
}
template <> __device__ __forceinline__ __nv_bfloat16 tc_round<__nv_bfloat16>(float v)
{
    return __float2bfloat16_rn(v);
}
template <> __device__ __forceinline__ float tc_round<float>(float v) { return v; }

/* two f32 -> two T in one 32-bit word, the first in the low half */
template <class T> __device__ __forceinline__ uint32_t tc_pack2(float lo, float hi);
template <> __device__ __forceinline__ uint32_t tc_pack2<__half>(float lo, float hi)
{
    __half2 h = __floats2half2_rn(lo, hi);
    return *(uint32_t *)&h;
}
template <> __device__ __forceinline__ uint32_t tc_pack2<__nv_bfloat16>(float lo, float hi)
{
    __nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);
    return *(uint32_t *)&h;
}

/* ---------------------------------------------------------------- epilogue */

/* Element o of c (or of bias), stored as T or f32 as p.out16 says. */
template <class T>
__device__ __forceinline__ float tc_out_load(const gkc_tc &p, const void *base, int64_t o)
{
    return p.out16 ? tc_f32(((const T *)base)[o]) : ((const float *)base)[o];
}

/* The value c[i, j] takes (offset o) for the f32 sum acc of its products:
 * alpha acc, + beta c (read only when beta != 0), + bias[j]; one rounding
 * to c's dtype follows at the store. */
template <class T>
__device__ __forceinline__ float tc_final(const gkc_tc &p, const void *cz, int64_t o, int64_t j,
                                          float acc)
{
    float v = p.alpha * acc;
    if (p.beta != 0.0f)
        v = fmaf(p.beta, tc_out_load<T>(p, cz, o), v);
    if (p.bias)
        v += tc_out_load<T>(p, p.bias, j);
    return v;
}

/* c[i, j] of the batch whose c is cz, for i < m, j < n. */
template <class T>
__device__ __forceinline__ void tc_put(const gkc_tc &p, void *cz, int64_t i, int64_t j, float acc)
{
    int64_t o = i * p.ldc + j;
    float v = tc_final<T>(p, cz, o, j, acc);
    if (p.out16)
        ((T *)cz)[o] = tc_round<T>(v);
    else
        ((float *)cz)[o] = v;
}

/* c[i, j] and c[i, j + 1] (the pair every mma accumulator layout gives a
 * lane), skipping what lies outside the matrix; one 4- or 8-byte store
 * when the pair is whole and aligned. */
template <class T>
__device__ __forceinline__ void tc_put2(const gkc_tc &p, void *cz, int64_t i, int64_t j, float a0,
                                        float a1)
{
    if (i >= p.m || j >= p.n)
        return;
    if (j + 1 >= p.n) {
        tc_put<T>(p, cz, i, j, a0);
        return;
    }
    int64_t o = i * p.ldc + j;
    float v0 = tc_final<T>(p, cz, o, j, a0), v1 = tc_final<T>(p, cz, o + 1, j + 1, a1);
    if (p.out16) {
        T *q = (T *)cz + o;
        if (((uintptr_t)q & 3) == 0) {
            *(uint32_t *)q = tc_pack2<T>(v0, v1);
        } else {
            q[0] = tc_round<T>(v0);
            q[1] = tc_round<T>(v1);
        }
    } else {
        float *q = (float *)cz + o;
        if (((uintptr_t)q & 7) == 0) {
            *(float2 *)q = make_float2(v0, v1);
        } else {
            q[0] = v0;
            q[1] = v1;
        }
    }
}

/* A lane's share of a wgmma accumulator row block: N / 4 groups of 8
 * columns, acc[4q .. 4q + 3] at (i, j + 8q), (i, j + 8q + 1), (i + 8, j + 8q),
 * (i + 8, j + 8q + 1) (tc_hopper.cuh).  Where all of it lies inside c,
 * alpha is 1, beta 0 and the pairs are aligned (the common matmul), it is
 * stored without a test an element: on a small k the tensor cores wait for
 * the epilogue, and tc_put2's tests are most of its instructions. */
template <class T, int N>
__device__ __forceinline__ void tc_store_rows(const gkc_tc &p, void *cz, int64_t i, int64_t j,
                                              const float (&acc)[N])
{
    constexpr int NQ = N / 4;
    int64_t o = i * p.ldc + j;
    bool fast = p.alpha == 1.0f && p.beta == 0.0f && i + 8 < p.m && j + 8 * NQ - 7 < p.n &&
                (p.ldc & 1) == 0 &&
                (p.out16 ? ((uintptr_t)((T *)cz + o) & 3) == 0
                         : ((uintptr_t)((float *)cz + o) & 7) == 0);
    if (!fast) {
#pragma unroll
        for (int q = 0; q < NQ; q++) {
            tc_put2<T>(p, cz, i, j + 8 * q, acc[4 * q], acc[4 * q + 1]);
            tc_put2<T>(p, cz, i + 8, j + 8 * q, acc[4 * q + 2], acc[4 * q + 3]);
        }
        return;
    }
    const T *b16 = (const T *)p.bias;
    const float *b32 = (const float *)p.bias;
#pragma unroll
    for (int q = 0; q < NQ; q++) {
        int64_t jq = j + 8 * q;
        float b0 = 0.0f, b1 = 0.0f;
        if (p.bias) {
            b0 = p.out16 ? tc_f32(b16[jq]) : b32[jq];
            b1 = p.out16 ? tc_f32(b16[jq + 1]) : b32[jq + 1];
        }
        float v0 = acc[4 * q] + b0, v1 = acc[4 * q + 1] + b1;
        float v2 = acc[4 * q + 2] + b0, v3 = acc[4 * q + 3] + b1;
        if (p.out16) {
            T *r0 = (T *)cz + o + 8 * q;
            *(uint32_t *)r0 = tc_pack2<T>(v0, v1);
            *(uint32_t *)(r0 + 8 * p.ldc) = tc_pack2<T>(v2, v3);
        } else {
            float *r0 = (float *)cz + o + 8 * q;
            *(float2 *)r0 = make_float2(v0, v1);
            *(float2 *)(r0 + 8 * p.ldc) = make_float2(v2, v3);
        }
    }
}

/* The batch z's c (element arithmetic in c's dtype). */
__device__ __forceinline__ void *tc_c_at(const gkc_tc &p, int64_t z)
{
    return p.out16 ? (void *)((uint16_t *)p.c + z * p.sc) : (void *)((float *)p.c + z * p.sc);
}

/* ---------------------------------------------------------------- mma.sync */

/* Four 8x8 matrices of 16-bit elements from shared memory: lane l names
 * row l % 8 of matrix l / 8; register r of lane (g = l / 4, t = l % 4) gets
 * row g, elements 2t and 2t + 1 of matrix r, or with TRANS the matrix
 * transposed (elements [2t][g] and [2t + 1][g]). */
template <bool TRANS>
__device__ __forceinline__ void tc_ldmatrix4(uint32_t (&r)[4], const void *row)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(row);
    if (TRANS)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(s));
    else
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(s));
}

/* d += A B for a 16x16 A (a: the ldmatrix x4 of its four 8x8 quarters, in
 * the order rows 0-7/k 0-7, rows 8-15/k 0-7, rows 0-7/k 8-15, rows 8-15/k 8-15)
 * and a 16x8 B (b: k 0-7 and k 8-15 of its 8 columns); d[0..1] are row g,
 * columns 2t and 2t + 1, d[2..3] row g + 8. */
template <class T>
__device__ __forceinline__ void tc_mma16816(float (&d)[4], const uint32_t (&a)[4], uint32_t b0,
                                            uint32_t b1);
template <>
__device__ __forceinline__ void tc_mma16816<__nv_bfloat16>(float (&d)[4], const uint32_t (&a)[4],
                                                           uint32_t b0, uint32_t b1)
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
template <>
__device__ __forceinline__ void tc_mma16816<__half>(float (&d)[4], const uint32_t (&a)[4],
                                                    uint32_t b0, uint32_t b1)
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
#endif /* __CUDACC__ */

#endif /* GPUK_CUDA_TC_COMMON_CUH */

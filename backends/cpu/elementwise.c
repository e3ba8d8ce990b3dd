/*
 * elementwise.c - add, scale, relu, bias+relu, copy over flat arrays.  The
 * output may be exactly an input (in place).
 *
 *   naive  a plain loop per op
 *   simd   AVX-512/AVX2 vectors with a masked tail, unaligned loads,
 *          OpenMP over large chunks, streaming stores for large outputs
 */
#include "config.h"

#include <string.h>

#include "cpu.h"

/* ---- naive: one scalar loop per op ---- */

CPU_KERNEL(add_naive)
{
    int64_t n = T_NUMEL(&args->out);
    const float *x = T_F32(&args->in[0]), *y = T_F32(&args->in[1]);
    float *o = T_F32(&args->out);
    for (int64_t i = 0; i < n; i++)
        o[i] = x[i] + y[i];
    return GPUK_OK;
}

CPU_KERNEL(scale_naive)
{
    int64_t n = T_NUMEL(&args->out);
    const float *x = T_F32(&args->in[0]);
    float *o = T_F32(&args->out);
    float alpha = args->alpha;
    for (int64_t i = 0; i < n; i++)
        o[i] = alpha * x[i];
    return GPUK_OK;
}

/* relu keeps NaN (x > 0 is false for NaN, so NaN would become 0 with a
 * plain compare): max(x, 0) written to pass NaN through. */
static inline float relu1(float x)
{
    return x < 0.0f ? 0.0f : x;
}

CPU_KERNEL(relu_naive)
{
    int64_t n = T_NUMEL(&args->out);
    const float *x = T_F32(&args->in[0]);
    float *o = T_F32(&args->out);
    for (int64_t i = 0; i < n; i++)
        o[i] = relu1(x[i]);
    return GPUK_OK;
}

CPU_KERNEL(bias_relu_naive)
{
    const gpuk_tdesc *tx = &args->in[0];
    int64_t rows = tx->shape[0], n = tx->shape[1];
    const float *x = T_F32(tx), *bias = T_F32(&args->in[1]);
    float *o = T_F32(&args->out);
    for (int64_t r = 0; r < rows; r++)
        for (int64_t j = 0; j < n; j++)
            o[r * n + j] = relu1(x[r * n + j] + bias[j]);
    return GPUK_OK;
}

CPU_KERNEL(copy_naive)
{
    int64_t n = T_NUMEL(&args->out);
    const float *x = T_F32(&args->in[0]);
    float *o = T_F32(&args->out);
    for (int64_t i = 0; i < n; i++)
        o[i] = x[i];
    return GPUK_OK;
}

/* ---- simd: one engine for the four arithmetic ops and copy ---- */

enum ew_op { EW_ADD, EW_SCALE, EW_RELU, EW_BIAS_RELU, EW_COPY };

/* Work below this many elements is done on one thread. */
#define EW_PAR_MIN 65536
/* Outputs from this size on (not in place) use streaming stores: they
 * write whole lines to memory without reading them first (a plain store
 * to a line not in cache reads it first: 3 bytes of traffic per byte
 * written instead of 2). */
#define EW_STREAM_BYTES ((int64_t)16 << 20)

static inline float ew_scalar1(enum ew_op op, float x, float y, float alpha)
{
    switch (op) {
    case EW_ADD: return x + y;
    case EW_SCALE: return alpha * x;
    case EW_RELU: return relu1(x);
    case EW_COPY: return x;
    default: return relu1(x + y);
    }
}

/* o[i] = op(x[i], y[i]) for i < n; the op is fixed per call so the switch
 * moves out of the loop. */
static void ew_scalar(enum ew_op op, const float *x, const float *y, float alpha, float *o,
                      int64_t n, int stream)
{
    for (int64_t i = 0; i < n; i++)
        o[i] = ew_scalar1(op, x[i], y ? y[i] : 0.0f, alpha);
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

/* relu as max(0, x): maxps returns its second operand for NaN, so NaN
 * passes through like the scalar rung. */
#define EW_BODY(VEC, W, LOAD, MASK_T, MASKOF, MLOAD, STORE, MSTORE, STREAM, SET1, ADD, MUL, MAX) \
    const VEC al = SET1(alpha), zero = SET1(0.0f);                                            \
    int64_t i = 0;                                                                            \
    if (stream) /* scalar head up to a 64-byte boundary of o */                               \
        for (; i < n && ((uintptr_t)(o + i) & 63) != 0; i++)                                  \
            o[i] = ew_scalar1(op, x[i], y ? y[i] : 0.0f, alpha);                              \
    for (; i + (W) <= n; i += (W)) {                                                          \
        VEC v = LOAD(x + i);                                                                  \
        switch (op) {                                                                         \
        case EW_ADD: v = ADD(v, LOAD(y + i)); break;                                          \
        case EW_SCALE: v = MUL(al, v); break;                                                 \
        case EW_RELU: v = MAX(zero, v); break;                                                \
        case EW_COPY: break;                                                                  \
        default: v = MAX(zero, ADD(v, LOAD(y + i))); break;                                   \
        }                                                                                     \
        if (stream)                                                                           \
            STREAM(o + i, v);                                                                 \
        else                                                                                  \
            STORE(o + i, v);                                                                  \
    }                                                                                         \
    if (i < n) {                                                                              \
        MASK_T mk = MASKOF(n - i);                                                            \
        VEC v = MLOAD(mk, x + i);                                                             \
        switch (op) {                                                                         \
        case EW_ADD: v = ADD(v, MLOAD(mk, y + i)); break;                                     \
        case EW_SCALE: v = MUL(al, v); break;                                                 \
        case EW_RELU: v = MAX(zero, v); break;                                                \
        case EW_COPY: break;                                                                  \
        default: v = MAX(zero, ADD(v, MLOAD(mk, y + i))); break;                              \
        }                                                                                     \
        MSTORE(o + i, mk, v);                                                                 \
    }

#define AVX512_MASKOF(r) ((__mmask16)((1u << (r)) - 1))
#define AVX512_MLOAD(mk, p) _mm512_maskz_loadu_ps(mk, p)
#define AVX512_MSTORE(p, mk, v) _mm512_mask_storeu_ps(p, mk, v)

__attribute__((target("avx512f"))) static void ew_avx512(enum ew_op op, const float *x,
                                                        const float *y, float alpha, float *o,
                                                        int64_t n, int stream)
{
    EW_BODY(__m512, 16, _mm512_loadu_ps, __mmask16, AVX512_MASKOF, AVX512_MLOAD, _mm512_storeu_ps,
            AVX512_MSTORE, _mm512_stream_ps, _mm512_set1_ps, _mm512_add_ps, _mm512_mul_ps,
            _mm512_max_ps)
}

/* AVX2 tails: vmaskmovps with a lane mask built from the remaining count. */
#define AVX2_MASKOF(r) _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(r)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7))
#define AVX2_MLOAD(mk, p) _mm256_maskload_ps(p, mk)
#define AVX2_MSTORE(p, mk, v) _mm256_maskstore_ps(p, mk, v)

__attribute__((target("avx2"))) static void ew_avx2(enum ew_op op, const float *x,
                                                   const float *y, float alpha, float *o,
                                                   int64_t n, int stream)
{
    EW_BODY(__m256, 8, _mm256_loadu_ps, __m256i, AVX2_MASKOF, AVX2_MLOAD, _mm256_storeu_ps,
            AVX2_MSTORE, _mm256_stream_ps, _mm256_set1_ps, _mm256_add_ps, _mm256_mul_ps,
            _mm256_max_ps)
}

__attribute__((target("sse2"))) static void ew_fence(void)
{
    _mm_sfence();
}
#endif

typedef void (*ew_fn)(enum ew_op, const float *, const float *, float, float *, int64_t, int);

static ew_fn ew_pick(gpuk_bctx *b)
{
#if defined(__x86_64__) || defined(__i386__)
    if (b->isa == CPU_ISA_AVX512)
        return ew_avx512;
    if (b->isa == CPU_ISA_AVX2)
        return ew_avx2;
#endif
    return ew_scalar;
}

/* A flat op over n elements: threads take contiguous chunks (multiples
 * of 16 elements, so chunk starts keep the array's alignment). */
static gpuk_status ew_run(gpuk_bctx *b, enum ew_op op, const float *x, const float *y,
                          float alpha, float *o, int64_t n)
{
    ew_fn f = ew_pick(b);
    int stream = b->isa != CPU_ISA_SCALAR && o != x && o != y &&
                 n * (int64_t)sizeof(float) >= EW_STREAM_BYTES;
    int nt = n < EW_PAR_MIN ? 1 : b->nthreads;
    int64_t blocks = (n + 15) / 16;
#pragma omp parallel num_threads(nt)
    {
        int id = 0, cnt = 1;
#ifdef _OPENMP
        id = omp_get_thread_num();
        cnt = omp_get_num_threads();
#endif
        int64_t lo = blocks * id / cnt * 16, hi = blocks * (id + 1) / cnt * 16;
        if (hi > n)
            hi = n;
        if (lo < hi)
            f(op, x + lo, y ? y + lo : NULL, alpha, o + lo, hi - lo, stream);
#if defined(__x86_64__) || defined(__i386__)
        if (stream)
            ew_fence();
#endif
    }
    return GPUK_OK;
}

/* simd: AVX-512 (masked tail) or AVX2 (maskload tail) vectors, OpenMP
 * chunks for large arrays, streaming stores for outputs larger than the
 * caches. */
CPU_KERNEL(add_simd)
{
    return ew_run(b, EW_ADD, T_F32(&args->in[0]), T_F32(&args->in[1]), 0.0f, T_F32(&args->out),
                  T_NUMEL(&args->out));
}

CPU_KERNEL(scale_simd)
{
    return ew_run(b, EW_SCALE, T_F32(&args->in[0]), NULL, args->alpha, T_F32(&args->out),
                  T_NUMEL(&args->out));
}

CPU_KERNEL(relu_simd)
{
    return ew_run(b, EW_RELU, T_F32(&args->in[0]), NULL, 0.0f, T_F32(&args->out),
                  T_NUMEL(&args->out));
}

/* bias_relu: the same engine per row (bias is the second operand). */
CPU_KERNEL(bias_relu_simd)
{
    const gpuk_tdesc *tx = &args->in[0];
    int64_t rows = tx->shape[0], n = tx->shape[1];
    const float *x = T_F32(tx), *bias = T_F32(&args->in[1]);
    float *o = T_F32(&args->out);
    ew_fn f = ew_pick(b);
    int stream = b->isa != CPU_ISA_SCALAR && o != x &&
                 rows * n * (int64_t)sizeof(float) >= EW_STREAM_BYTES;
    int nt = rows * n < EW_PAR_MIN ? 1 : b->nthreads;
#pragma omp parallel num_threads(nt)
    {
#pragma omp for schedule(static)
        for (int64_t r = 0; r < rows; r++)
            f(EW_BIAS_RELU, x + r * n, bias, 0.0f, o + r * n, n, stream);
#if defined(__x86_64__) || defined(__i386__)
        if (stream)
            ew_fence();
#endif
    }
    return GPUK_OK;
}

/* copy: the same engine with no arithmetic (streaming stores when large,
 * which the C library's memcpy does not always use); in place is a no-op.
 * The copy ceiling of peak.c runs exactly this. */
void cpu_copy_f32(gpuk_bctx *b, float *dst, const float *src, int64_t n)
{
    if (dst != src)
        ew_run(b, EW_COPY, src, NULL, 0.0f, dst, n);
}

CPU_KERNEL(copy_simd)
{
    cpu_copy_f32(b, T_F32(&args->out), T_F32(&args->in[0]), T_NUMEL(&args->out));
    return GPUK_OK;
}

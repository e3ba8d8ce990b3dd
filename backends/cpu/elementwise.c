/*
 * elementwise.c - the elementwise family on the CPU (tests/ops/
 * elementwise.c, gpuk_elementwise(3)): add, scale, relu, bias+relu, copy
 * over flat arrays, in f32 and f64 from one source (dtype.h), and in f16
 * and bf16 through f32 (their own section at the end).  The output may be
 * exactly an input (in place).  Each op rounds once per element, so every
 * rung gives the same bits.
 *
 *   naive  a plain loop per op
 *   simd   AVX-512/AVX2 vectors with a masked tail, unaligned loads,
 *          OpenMP over large chunks, streaming stores for large outputs
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "half.h"
#include "simd.h"

/* relu keeps NaN (x > 0 is false for NaN, so NaN would become 0 with a
 * plain compare): max(x, 0) written to pass NaN through. */
#define EW_RELU1(x) ((x) < 0 ? 0 : (x))

/* ---- naive: one scalar loop per op ---- */

#define EW_NAIVE(DT, T, S, ...)                                                             \
    CPU_INSTANCE(add_naive, S)                                                              \
    {                                                                                       \
        int64_t n = T_NUMEL(&args->out);                                                    \
        const T *x = T_PTR(&args->in[0], T), *y = T_PTR(&args->in[1], T);                   \
        T *o = T_PTR(&args->out, T);                                                        \
        for (int64_t i = 0; i < n; i++)                                                     \
            o[i] = x[i] + y[i];                                                             \
        return GPUK_OK;                                                                     \
    }                                                                                       \
    CPU_INSTANCE(scale_naive, S)                                                            \
    {                                                                                       \
        int64_t n = T_NUMEL(&args->out);                                                    \
        const T *x = T_PTR(&args->in[0], T);                                                \
        T *o = T_PTR(&args->out, T);                                                        \
        T alpha = CPU_ALPHA(S, args);                                                       \
        for (int64_t i = 0; i < n; i++)                                                     \
            o[i] = alpha * x[i];                                                            \
        return GPUK_OK;                                                                     \
    }                                                                                       \
    CPU_INSTANCE(relu_naive, S)                                                             \
    {                                                                                       \
        int64_t n = T_NUMEL(&args->out);                                                    \
        const T *x = T_PTR(&args->in[0], T);                                                \
        T *o = T_PTR(&args->out, T);                                                        \
        for (int64_t i = 0; i < n; i++)                                                     \
            o[i] = EW_RELU1(x[i]);                                                          \
        return GPUK_OK;                                                                     \
    }                                                                                       \
    CPU_INSTANCE(bias_relu_naive, S)                                                        \
    {                                                                                       \
        const gpuk_tdesc *tx = &args->in[0];                                                \
        int64_t rows = tx->shape[0], n = tx->shape[1];                                      \
        const T *x = T_PTR(tx, T), *bias = T_PTR(&args->in[1], T);                          \
        T *o = T_PTR(&args->out, T);                                                        \
        for (int64_t r = 0; r < rows; r++)                                                  \
            for (int64_t j = 0; j < n; j++)                                                 \
                o[r * n + j] = EW_RELU1(x[r * n + j] + bias[j]);                            \
        return GPUK_OK;                                                                     \
    }
CPU_FLOAT_DTYPES(EW_NAIVE)
CPU_BY_DTYPE(add_naive, CPU_FLOAT_DTYPES)
CPU_BY_DTYPE(scale_naive, CPU_FLOAT_DTYPES)
CPU_BY_DTYPE(relu_naive, CPU_FLOAT_DTYPES)
CPU_BY_DTYPE(bias_relu_naive, CPU_FLOAT_DTYPES)

/* copy moves elements: one body serves every type, 16-bit words included */
#define EW_COPY_NAIVE(DT, T, S, ...)                                                        \
    CPU_INSTANCE(copy_naive, S)                                                             \
    {                                                                                       \
        int64_t n = T_NUMEL(&args->out);                                                    \
        const T *x = T_PTR(&args->in[0], T);                                                \
        T *o = T_PTR(&args->out, T);                                                        \
        for (int64_t i = 0; i < n; i++)                                                     \
            o[i] = x[i];                                                                    \
        return GPUK_OK;                                                                     \
    }
CPU_GENERIC(copy_naive, CPU_MOVE_DTYPES, EW_COPY_NAIVE)

/* ---- simd: one engine for the four arithmetic ops and copy ---- */

enum ew_op { EW_ADD, EW_SCALE, EW_RELU, EW_BIAS_RELU, EW_COPY };

/* Work below this many elements is done on one thread. */
#define EW_PAR_MIN 65536
/* Outputs from this size on (not in place) use streaming stores: they
 * write whole lines to memory without reading them first (a plain store
 * to a line not in cache reads it first: 3 bytes of traffic per byte
 * written instead of 2). */
#define EW_STREAM_BYTES ((int64_t)16 << 20)

/* One element of an op; the op is fixed per call, so the switch moves out
 * of the loops. */
#define EW_SCALAR(DT, T, S, ...)                                                            \
    static inline T ew_scalar1_##S(enum ew_op op, T x, T y, T alpha)                        \
    {                                                                                       \
        switch (op) {                                                                       \
        case EW_ADD: return x + y;                                                          \
        case EW_SCALE: return alpha * x;                                                    \
        case EW_RELU: return EW_RELU1(x);                                                   \
        case EW_COPY: return x;                                                             \
        default: return EW_RELU1(x + y);                                                    \
        }                                                                                   \
    }                                                                                       \
    /* o[i] = op(x[i], y[i]) for i < n, the portable path */                                \
    static void ew_##S##_scalar(enum ew_op op, const T *x, const T *y, T alpha, T *o,       \
                                int64_t n, int stream)                                      \
    {                                                                                       \
        for (int64_t i = 0; i < n; i++)                                                     \
            o[i] = ew_scalar1_##S(op, x[i], y ? y[i] : 0, alpha);                           \
    }
CPU_FLOAT_DTYPES(EW_SCALAR)

/* The vector path of (type, ISA).  relu as max(0, x): maxps returns its
 * second operand for NaN, so NaN passes through like the scalar rung. */
#define EW_STEP(S, I, v, yv)                                                                \
    switch (op) {                                                                           \
    case EW_ADD: v = CPU_V(S, I, ADD)(v, yv); break;                                        \
    case EW_SCALE: v = CPU_V(S, I, MUL)(al, v); break;                                      \
    case EW_RELU: v = CPU_V(S, I, MAX)(zero, v); break;                                     \
    case EW_COPY: break;                                                                    \
    default: v = CPU_V(S, I, MAX)(zero, CPU_V(S, I, ADD)(v, yv)); break;                    \
    }
#define EW_VEC(T, S, I)                                                                     \
    __attribute__((target(CPU_V(S, I, TARGET)))) static void ew_##S##_##I(                  \
        enum ew_op op, const T *x, const T *y, T alpha, T *o, int64_t n, int stream)        \
    {                                                                                       \
        enum { W_ = CPU_V(S, I, W) };                                                       \
        const CPU_V(S, I, VEC) al = CPU_V(S, I, SET1)(alpha), zero = CPU_V(S, I, ZERO)();   \
        int64_t i = 0;                                                                      \
        if (stream) /* scalar head up to a 64-byte boundary of o */                         \
            for (; i < n && ((uintptr_t)(o + i) & 63) != 0; i++)                            \
                o[i] = ew_scalar1_##S(op, x[i], y ? y[i] : 0, alpha);                       \
        for (; i + W_ <= n; i += W_) {                                                      \
            CPU_V(S, I, VEC) v = CPU_V(S, I, LOADU)(x + i);                                 \
            EW_STEP(S, I, v, CPU_V(S, I, LOADU)(y + i))                                     \
            if (stream)                                                                     \
                CPU_V(S, I, STREAM)(o + i, v);                                              \
            else                                                                            \
                CPU_V(S, I, STOREU)(o + i, v);                                              \
        }                                                                                   \
        if (i < n) {                                                                        \
            CPU_V(S, I, MASK) mk = CPU_V(S, I, MASKOF)(n - i);                              \
            CPU_V(S, I, VEC) v = CPU_V(S, I, MLOADU)(mk, x + i);                            \
            EW_STEP(S, I, v, CPU_V(S, I, MLOADU)(mk, y + i))                                \
            CPU_V(S, I, MSTOREU)(o + i, mk, v);                                             \
        }                                                                                   \
    }

#ifdef CPU_X86
CPU_FLOAT_VECS(EW_VEC)
#define EW_OF(S, I) ew_##S##_##I

__attribute__((target("sse2"))) static void ew_fence(void)
{
    _mm_sfence();
}
#else
#define EW_OF(S, I) ew_##S##_scalar
static void ew_fence(void)
{
}
#endif

/* A flat op over n elements: threads take contiguous chunks (multiples
 * of 16 elements, so chunk starts keep the array's alignment). */
#define EW_RUN(DT, T, S, ...)                                                               \
    typedef void (*ew_fn_##S)(enum ew_op, const T *, const T *, T, T *, int64_t, int);      \
    static ew_fn_##S ew_pick_##S(gpuk_bctx *b)                                              \
    {                                                                                       \
        if (b->isa == CPU_ISA_AVX512)                                                       \
            return EW_OF(S, avx512);                                                        \
        if (b->isa == CPU_ISA_AVX2)                                                         \
            return EW_OF(S, avx2);                                                          \
        return ew_##S##_scalar;                                                             \
    }                                                                                       \
    static gpuk_status ew_run_##S(gpuk_bctx *b, enum ew_op op, const T *x, const T *y,      \
                                  T alpha, T *o, int64_t n)                                 \
    {                                                                                       \
        ew_fn_##S f = ew_pick_##S(b);                                                       \
        int stream = b->isa != CPU_ISA_SCALAR && o != x && o != y &&                        \
                     n * (int64_t)sizeof(T) >= EW_STREAM_BYTES;                             \
        int nt = n < EW_PAR_MIN ? 1 : b->nthreads;                                          \
        int64_t blocks = (n + 15) / 16;                                                     \
        _Pragma("omp parallel num_threads(nt)")                                             \
        {                                                                                   \
            int id = CPU_THREAD_NUM(), cnt = CPU_NUM_THREADS();                             \
            int64_t lo = blocks * id / cnt * 16, hi = blocks * (id + 1) / cnt * 16;         \
            if (hi > n)                                                                     \
                hi = n;                                                                     \
            if (lo < hi)                                                                    \
                f(op, x + lo, y ? y + lo : NULL, alpha, o + lo, hi - lo, stream);           \
            if (stream)                                                                     \
                ew_fence();                                                                 \
        }                                                                                   \
        return GPUK_OK;                                                                     \
    }
CPU_FLOAT_DTYPES(EW_RUN)

/* simd: AVX-512 (masked tail) or AVX2 (maskload tail) vectors, OpenMP
 * chunks for large arrays, streaming stores for outputs larger than the
 * caches.  bias_relu runs the same engine per row (bias is the second
 * operand).  copy is the engine with no arithmetic (streaming stores when
 * large, which the C library's memcpy does not always use); in place is a
 * no-op.  The copy ceiling of peak.c runs exactly cpu_copy_<type>. */
#define EW_SIMD(DT, T, S, ...)                                                              \
    CPU_INSTANCE(add_simd, S)                                                               \
    {                                                                                       \
        return ew_run_##S(b, EW_ADD, T_PTR(&args->in[0], T), T_PTR(&args->in[1], T), 0,     \
                          T_PTR(&args->out, T), T_NUMEL(&args->out));                       \
    }                                                                                       \
    CPU_INSTANCE(scale_simd, S)                                                             \
    {                                                                                       \
        return ew_run_##S(b, EW_SCALE, T_PTR(&args->in[0], T), NULL, CPU_ALPHA(S, args),    \
                          T_PTR(&args->out, T), T_NUMEL(&args->out));                       \
    }                                                                                       \
    CPU_INSTANCE(relu_simd, S)                                                              \
    {                                                                                       \
        return ew_run_##S(b, EW_RELU, T_PTR(&args->in[0], T), NULL, 0, T_PTR(&args->out, T), \
                          T_NUMEL(&args->out));                                             \
    }                                                                                       \
    CPU_INSTANCE(bias_relu_simd, S)                                                         \
    {                                                                                       \
        const gpuk_tdesc *tx = &args->in[0];                                                \
        int64_t rows = tx->shape[0], n = tx->shape[1];                                      \
        const T *x = T_PTR(tx, T), *bias = T_PTR(&args->in[1], T);                          \
        T *o = T_PTR(&args->out, T);                                                        \
        ew_fn_##S f = ew_pick_##S(b);                                                       \
        int stream = b->isa != CPU_ISA_SCALAR && o != x &&                                  \
                     rows * n * (int64_t)sizeof(T) >= EW_STREAM_BYTES;                      \
        int nt = rows * n < EW_PAR_MIN ? 1 : b->nthreads;                                   \
        _Pragma("omp parallel num_threads(nt)")                                             \
        {                                                                                   \
            _Pragma("omp for schedule(static)")                                             \
            for (int64_t r = 0; r < rows; r++)                                              \
                f(EW_BIAS_RELU, x + r * n, bias, 0, o + r * n, n, stream);                  \
            if (stream)                                                                     \
                ew_fence();                                                                 \
        }                                                                                   \
        return GPUK_OK;                                                                     \
    }                                                                                       \
    void cpu_copy_##S(gpuk_bctx *b, T *dst, const T *src, int64_t n)                        \
    {                                                                                       \
        if (dst != src)                                                                     \
            ew_run_##S(b, EW_COPY, src, NULL, 0, dst, n);                                   \
    }                                                                                       \
    CPU_INSTANCE(copy_simd, S)                                                              \
    {                                                                                       \
        cpu_copy_##S(b, T_PTR(&args->out, T), T_PTR(&args->in[0], T), T_NUMEL(&args->out)); \
        return GPUK_OK;                                                                     \
    }
CPU_FLOAT_DTYPES(EW_SIMD)
CPU_BY_DTYPE(add_simd, CPU_FLOAT_DTYPES)
CPU_BY_DTYPE(scale_simd, CPU_FLOAT_DTYPES)
CPU_BY_DTYPE(relu_simd, CPU_FLOAT_DTYPES)
CPU_BY_DTYPE(bias_relu_simd, CPU_FLOAT_DTYPES)
CPU_BY_DTYPE(copy_simd, CPU_FLOAT_DTYPES)

/* ---- f16 and bf16: stored in 16 bits, computed in f32 (dtype.h) ----
 *
 * An element is widened to f32 (exact), the op runs in f32 and the result
 * is rounded once to the 16-bit type.  add and the products of scale
 * round twice (to f32, then to 16 bits), which gives the same bits as one
 * rounding: f32's 24 bits are at least 2p + 2 of f16's (p = 11) and
 * bf16's (p = 8), so the first rounding never moves a value across a
 * 16-bit rounding boundary (gpuk(7), "Element types").  Every rung
 * therefore writes the same bits, and the moves (copy) keep every bit. */

static inline float ew_h_get(gpuk_dtype dt, uint16_t h)
{
    return dt == GPUK_F16 ? cpu_f16_to_f32(h) : cpu_bf16_to_f32(h);
}

static inline uint16_t ew_h_put(gpuk_dtype dt, float f)
{
    return dt == GPUK_F16 ? cpu_f32_to_f16(f) : cpu_f32_to_bf16(f);
}

/* naive: the f32 scalar of each op between two scalar conversions (copy:
 * copy_naive above moves the 16-bit words). */
#define EW_HALF_NAIVE(DT, T, S, ...)                                                        \
    CPU_INSTANCE(add_naive_half, S)                                                         \
    {                                                                                       \
        int64_t n = T_NUMEL(&args->out);                                                    \
        const T *x = T_PTR(&args->in[0], T), *y = T_PTR(&args->in[1], T);                   \
        T *o = T_PTR(&args->out, T);                                                        \
        for (int64_t i = 0; i < n; i++)                                                     \
            o[i] = ew_h_put(DT, ew_h_get(DT, x[i]) + ew_h_get(DT, y[i]));                   \
        return GPUK_OK;                                                                     \
    }                                                                                       \
    CPU_INSTANCE(scale_naive_half, S)                                                       \
    {                                                                                       \
        int64_t n = T_NUMEL(&args->out);                                                    \
        const T *x = T_PTR(&args->in[0], T);                                                \
        T *o = T_PTR(&args->out, T);                                                        \
        float alpha = args->alpha;                                                          \
        for (int64_t i = 0; i < n; i++)                                                     \
            o[i] = ew_h_put(DT, alpha * ew_h_get(DT, x[i]));                                \
        return GPUK_OK;                                                                     \
    }                                                                                       \
    CPU_INSTANCE(relu_naive_half, S)                                                        \
    {                                                                                       \
        int64_t n = T_NUMEL(&args->out);                                                    \
        const T *x = T_PTR(&args->in[0], T);                                                \
        T *o = T_PTR(&args->out, T);                                                        \
        for (int64_t i = 0; i < n; i++)                                                     \
            o[i] = ew_h_put(DT, EW_RELU1(ew_h_get(DT, x[i])));                              \
        return GPUK_OK;                                                                     \
    }                                                                                       \
    CPU_INSTANCE(bias_relu_naive_half, S)                                                   \
    {                                                                                       \
        const gpuk_tdesc *tx = &args->in[0];                                                \
        int64_t rows = tx->shape[0], n = tx->shape[1];                                      \
        const T *x = T_PTR(tx, T), *bias = T_PTR(&args->in[1], T);                          \
        T *o = T_PTR(&args->out, T);                                                        \
        for (int64_t r = 0; r < rows; r++)                                                  \
            for (int64_t j = 0; j < n; j++)                                                 \
                o[r * n + j] = ew_h_put(                                                    \
                    DT, EW_RELU1(ew_h_get(DT, x[r * n + j]) + ew_h_get(DT, bias[j])));      \
        return GPUK_OK;                                                                     \
    }
CPU_HALF_DTYPES(EW_HALF_NAIVE)
CPU_BY_DTYPE(add_naive_half, CPU_HALF_DTYPES)
CPU_BY_DTYPE(scale_naive_half, CPU_HALF_DTYPES)
CPU_BY_DTYPE(relu_naive_half, CPU_HALF_DTYPES)
CPU_BY_DTYPE(bias_relu_naive_half, CPU_HALF_DTYPES)

/* simd: spans of EW_HSPAN elements widened into f32 buffers on the stack
 * by the vector converters (F16C, or shifts for bf16: cpu_row_to_f32),
 * the f32 engine of the simd rung above over the buffers, and the result
 * rounded back (cpu_row_from_f32); OpenMP over spans.  The buffers stay
 * in L1, so the traffic is the 16-bit arrays' alone: half of f32's. */
#define EW_HSPAN 1024

/* o[0..n) = op(x, y) for one span; bias_relu passes the row's bias,
 * already in f32, as yf.  In place is safe: a span is read whole before
 * it is written. */
static void ew_half_span(gpuk_bctx *b, gpuk_dtype dt, enum ew_op op, const uint16_t *x,
                         const uint16_t *y, const float *yf, float alpha, uint16_t *o, int64_t n)
{
    float xb[EW_HSPAN] __attribute__((aligned(64))), yb[EW_HSPAN] __attribute__((aligned(64)));
    ew_fn_f32 f = ew_pick_f32(b);
    cpu_row_to_f32(b->isa, dt, x, xb, n);
    if (y)
        cpu_row_to_f32(b->isa, dt, y, yb, n);
    f(op, xb, y ? yb : yf, alpha, xb, n, 0);
    cpu_row_from_f32(b->isa, dt, xb, o, n);
}

static gpuk_status ew_half_run(gpuk_bctx *b, gpuk_dtype dt, enum ew_op op, const uint16_t *x,
                               const uint16_t *y, float alpha, uint16_t *o, int64_t n)
{
    int64_t spans = (n + EW_HSPAN - 1) / EW_HSPAN;
    int nt = n < EW_PAR_MIN ? 1 : b->nthreads;
#pragma omp parallel for num_threads(nt) schedule(static)
    for (int64_t s = 0; s < spans; s++) {
        int64_t i = s * EW_HSPAN, w = n - i < EW_HSPAN ? n - i : EW_HSPAN;
        ew_half_span(b, dt, op, x + i, y ? y + i : NULL, NULL, alpha, o + i, w);
    }
    return GPUK_OK;
}

#define EW_HALF_SIMD(DT, T, S, ...)                                                         \
    CPU_INSTANCE(add_simd_half, S)                                                          \
    {                                                                                       \
        return ew_half_run(b, DT, EW_ADD, T_PTR(&args->in[0], T), T_PTR(&args->in[1], T),   \
                           0, T_PTR(&args->out, T), T_NUMEL(&args->out));                   \
    }                                                                                       \
    CPU_INSTANCE(scale_simd_half, S)                                                        \
    {                                                                                       \
        return ew_half_run(b, DT, EW_SCALE, T_PTR(&args->in[0], T), NULL, args->alpha,      \
                           T_PTR(&args->out, T), T_NUMEL(&args->out));                      \
    }                                                                                       \
    CPU_INSTANCE(relu_simd_half, S)                                                         \
    {                                                                                       \
        return ew_half_run(b, DT, EW_RELU, T_PTR(&args->in[0], T), NULL, 0,                 \
                           T_PTR(&args->out, T), T_NUMEL(&args->out));                      \
    }                                                                                       \
    /* bias_relu: the bias widened once, then each row in spans */                         \
    CPU_INSTANCE(bias_relu_simd_half, S)                                                    \
    {                                                                                       \
        const gpuk_tdesc *tx = &args->in[0];                                                \
        int64_t rows = tx->shape[0], n = tx->shape[1];                                      \
        const T *x = T_PTR(tx, T);                                                          \
        T *o = T_PTR(&args->out, T);                                                        \
        float *bf = cpu_scratch(b, (size_t)n * sizeof(float), "bias_relu's bias in f32");   \
        if (!bf)                                                                            \
            return GPUK_ERR_NO_MEMORY;                                                      \
        cpu_row_to_f32(b->isa, DT, T_PTR(&args->in[1], T), bf, n);                          \
        int64_t spans = (n + EW_HSPAN - 1) / EW_HSPAN;                                      \
        int nt = rows * n < EW_PAR_MIN ? 1 : b->nthreads;                                   \
        _Pragma("omp parallel for num_threads(nt) schedule(static) collapse(2)")            \
        for (int64_t r = 0; r < rows; r++)                                                  \
            for (int64_t s = 0; s < spans; s++) {                                           \
                int64_t j = s * EW_HSPAN, w = n - j < EW_HSPAN ? n - j : EW_HSPAN;          \
                ew_half_span(b, DT, EW_BIAS_RELU, x + r * n + j, NULL, bf + j, 0,           \
                             o + r * n + j, w);                                             \
            }                                                                               \
        free(bf);                                                                           \
        return GPUK_OK;                                                                     \
    }                                                                                       \
    /* copy: no arithmetic, so no conversion: OpenMP chunks of memcpy */                    \
    CPU_INSTANCE(copy_omp_half, S)                                                          \
    {                                                                                       \
        int64_t n = T_NUMEL(&args->out);                                                    \
        const T *x = T_PTR(&args->in[0], T);                                                \
        T *o = T_PTR(&args->out, T);                                                        \
        if (o == x)                                                                         \
            return GPUK_OK;                                                                 \
        int nt = n < EW_PAR_MIN ? 1 : b->nthreads;                                          \
        _Pragma("omp parallel num_threads(nt)")                                             \
        {                                                                                   \
            int id = CPU_THREAD_NUM(), cnt = CPU_NUM_THREADS();                             \
            int64_t lo = n * id / cnt, hi = n * (id + 1) / cnt;                             \
            if (lo < hi)                                                                    \
                memcpy(o + lo, x + lo, (size_t)(hi - lo) * sizeof(T));                      \
        }                                                                                   \
        return GPUK_OK;                                                                     \
    }
CPU_HALF_DTYPES(EW_HALF_SIMD)
CPU_BY_DTYPE(add_simd_half, CPU_HALF_DTYPES)
CPU_BY_DTYPE(scale_simd_half, CPU_HALF_DTYPES)
CPU_BY_DTYPE(relu_simd_half, CPU_HALF_DTYPES)
CPU_BY_DTYPE(bias_relu_simd_half, CPU_HALF_DTYPES)
CPU_BY_DTYPE(copy_omp_half, CPU_HALF_DTYPES)

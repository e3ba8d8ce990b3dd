/*
 * elementwise.c - the elementwise family on the CPU (tests/ops/
 * elementwise.c, gpuk_elementwise(3)): add, scale, relu, bias+relu, copy
 * over flat arrays, in f32, f64, f16 and bf16 from one source (dtype.h:
 * the 16-bit types load into f32, compute there and round once on the
 * store).  The output may be exactly an input (in place).  Each op rounds
 * once per element, so every rung gives the same bits.
 *
 *   naive  a plain loop per op
 *   simd   AVX-512/AVX2 vectors with a masked tail, unaligned loads,
 *          OpenMP over large chunks, streaming stores for large outputs;
 *          for f16 and bf16 the conversions happen in the registers
 *          (simd.h's 16-bit traits), so the memory traffic is half f32's
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
            o[i] = CPU_ST(S, CPU_LD(S, x[i]) + CPU_LD(S, y[i]));                            \
        return GPUK_OK;                                                                     \
    }                                                                                       \
    CPU_INSTANCE(scale_naive, S)                                                            \
    {                                                                                       \
        int64_t n = T_NUMEL(&args->out);                                                    \
        const T *x = T_PTR(&args->in[0], T);                                                \
        T *o = T_PTR(&args->out, T);                                                        \
        CPU_CT(S) alpha = CPU_ALPHA(S, args);                                               \
        for (int64_t i = 0; i < n; i++)                                                     \
            o[i] = CPU_ST(S, alpha * CPU_LD(S, x[i]));                                      \
        return GPUK_OK;                                                                     \
    }                                                                                       \
    CPU_INSTANCE(relu_naive, S)                                                             \
    {                                                                                       \
        int64_t n = T_NUMEL(&args->out);                                                    \
        const T *x = T_PTR(&args->in[0], T);                                                \
        T *o = T_PTR(&args->out, T);                                                        \
        for (int64_t i = 0; i < n; i++)                                                     \
            o[i] = CPU_ST(S, EW_RELU1(CPU_LD(S, x[i])));                                    \
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
                o[r * n + j] =                                                              \
                    CPU_ST(S, EW_RELU1(CPU_LD(S, x[r * n + j]) + CPU_LD(S, bias[j])));      \
        return GPUK_OK;                                                                     \
    }
CPU_REAL_DTYPES(EW_NAIVE)
CPU_BY_DTYPE(add_naive, CPU_REAL_DTYPES)
CPU_BY_DTYPE(scale_naive, CPU_REAL_DTYPES)
CPU_BY_DTYPE(relu_naive, CPU_REAL_DTYPES)
CPU_BY_DTYPE(bias_relu_naive, CPU_REAL_DTYPES)

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
CPU_GENERIC(copy_naive, CPU_REAL_DTYPES, EW_COPY_NAIVE)

/* ---- simd: one engine for the four arithmetic ops and copy ---- */

enum ew_op { EW_ADD, EW_SCALE, EW_RELU, EW_BIAS_RELU, EW_COPY };

/* Work below this many elements is done on one thread. */
#define EW_PAR_MIN 65536
/* Outputs from this size on (not in place) use streaming stores: they
 * write whole lines to memory without reading them first (a plain store
 * to a line not in cache reads it first: 3 bytes of traffic per byte
 * written instead of 2). */
#define EW_STREAM_BYTES ((int64_t)16 << 20)

/* One element of an op, in the compute type; the op is fixed per call, so
 * the switch moves out of the loops.  EW_ONE: element i loaded, computed
 * and stored. */
#define EW_ONE(S, op, x, y, alpha, i)                                                       \
    CPU_ST(S, ew_scalar1_##S(op, CPU_LD(S, (x)[i]), (y) ? CPU_LD(S, (y)[i]) : 0, alpha))
#define EW_SCALAR(DT, T, S, ...)                                                            \
    static inline CPU_CT(S) ew_scalar1_##S(enum ew_op op, CPU_CT(S) x, CPU_CT(S) y,         \
                                           CPU_CT(S) alpha)                                 \
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
    static void ew_##S##_scalar(enum ew_op op, const T *x, const T *y, CPU_CT(S) alpha,     \
                                T *o, int64_t n, int stream)                                \
    {                                                                                       \
        for (int64_t i = 0; i < n; i++)                                                     \
            o[i] = EW_ONE(S, op, x, y, alpha, i);                                           \
    }
CPU_REAL_DTYPES(EW_SCALAR)

/* The vector path of (type, ISA).  relu as max(0, x): maxps returns its
 * second operand for NaN, so NaN passes through like the scalar rung.
 * The 16-bit types' loads and stores convert (simd.h). */
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
        enum ew_op op, const T *x, const T *y, CPU_CT(S) alpha, T *o, int64_t n, int stream) \
    {                                                                                       \
        enum { W_ = CPU_V(S, I, W) };                                                       \
        const CPU_V(S, I, VEC) al = CPU_V(S, I, SET1)(alpha), zero = CPU_V(S, I, ZERO)();   \
        int64_t i = 0;                                                                      \
        if (stream) /* scalar head up to a 64-byte boundary of o */                         \
            for (; i < n && ((uintptr_t)(o + i) & 63) != 0; i++)                            \
                o[i] = EW_ONE(S, op, x, y, alpha, i);                                       \
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
CPU_REAL_VECS(EW_VEC)
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
    typedef void (*ew_fn_##S)(enum ew_op, const T *, const T *, CPU_CT(S), T *, int64_t,    \
                              int);                                                         \
    static ew_fn_##S ew_pick_##S(gpuk_bctx *b)                                              \
    {                                                                                       \
        if (b->isa == CPU_ISA_AVX512)                                                       \
            return EW_OF(S, avx512);                                                        \
        if (b->isa == CPU_ISA_AVX2)                                                         \
            return EW_OF(S, avx2);                                                          \
        return ew_##S##_scalar;                                                             \
    }                                                                                       \
    static gpuk_status ew_run_##S(gpuk_bctx *b, enum ew_op op, const T *x, const T *y,      \
                                  CPU_CT(S) alpha, T *o, int64_t n)                         \
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
CPU_REAL_DTYPES(EW_RUN)

/* simd: AVX-512 (masked tail) or AVX2 (maskload tail) vectors, OpenMP
 * chunks for large arrays, streaming stores for outputs larger than the
 * caches.  bias_relu runs the same engine per row (bias is the second
 * operand). */
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
    }
CPU_REAL_DTYPES(EW_SIMD)
CPU_BY_DTYPE(add_simd, CPU_REAL_DTYPES)
CPU_BY_DTYPE(scale_simd, CPU_REAL_DTYPES)
CPU_BY_DTYPE(relu_simd, CPU_REAL_DTYPES)
CPU_BY_DTYPE(bias_relu_simd, CPU_REAL_DTYPES)

/* copy: the engine with no arithmetic (streaming stores when large, which
 * the C library's memcpy does not always use); in place is a no-op.  The
 * copy ceiling of peak.c runs exactly cpu_copy_<type>.  f32 and f64 only:
 * through the engine a 16-bit type would be converted, which quiets a
 * signalling NaN, and a copy keeps every bit. */
#define EW_COPY_SIMD(DT, T, S, ...)                                                         \
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
CPU_FLOAT_DTYPES(EW_COPY_SIMD)
CPU_BY_DTYPE(copy_simd, CPU_FLOAT_DTYPES)

/* copy of the 16-bit types: OpenMP chunks of memcpy */
#define EW_COPY_HALF(DT, T, S, ...)                                                         \
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
CPU_GENERIC(copy_omp_half, CPU_HALF_DTYPES, EW_COPY_HALF)

/*
 * blas.c - the blas family on the CPU (tests/ops/blas.c, gpuk_blas(3)):
 * dot and gemv (alpha, beta, a transpose), in f32 and f64 from one source
 * (dtype.h); gemm, BLAS-shaped too, is a matmul (matmul.c).  With beta ==
 * 0 the output is not read, so NaN there does not propagate; with alpha
 * == 0 the inputs are not read (the BLAS convention).
 *
 *   naive     textbook loops
 *   simd      AVX-512/AVX2 with several accumulators and OpenMP
 *   openblas  cblas_sdot / cblas_ddot, cblas_sgemv / cblas_dgemv
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "simd.h"

#ifdef HAVE_OPENBLAS
#include <cblas.h>
#endif

/* ---- alpha == 0: the BLAS convention, shared by every gemv/gemm rung ----
 * With alpha = 0 the inputs are not read (as beta = 0 means the output is
 * not read): out = beta out, or 0.  Without this a NaN or inf in a, b or x
 * would reach out through 0 * NaN in some rungs and not in others (a
 * library skips the products).  The scalars are the type's own: an f64
 * alpha of 1e-300 is not 0, though its float is. */
#define ALPHA_ZERO(DT, T, S, ...)                                                           \
    static int alpha_zero_##S(const gpuk_args *args, int64_t rows, int64_t cols)            \
    {                                                                                       \
        T beta = CPU_BETA(S, args);                                                         \
        if (CPU_ALPHA(S, args) != 0)                                                        \
            return 0;                                                                       \
        const gpuk_tdesc *o = &args->out;                                                   \
        int64_t ld = o->ndim == 2 ? o->stride[0] : cols;                                    \
        T *out = T_PTR(o, T);                                                               \
        for (int64_t i = 0; i < rows; i++)                                                  \
            for (int64_t j = 0; j < cols; j++)                                              \
                out[i * ld + j] = beta == 0 ? 0 : beta * out[i * ld + j];                   \
        return 1;                                                                           \
    }
CPU_FLOAT_DTYPES(ALPHA_ZERO)

#define ALPHA_ZERO_CASE_(DT, T, S, ...) \
    case DT:                            \
        return alpha_zero_##S(args, rows, cols);

int cpu_alpha_zero(const gpuk_args *args, int64_t rows, int64_t cols)
{
    switch (args->dtype) {
        CPU_FLOAT_DTYPES(ALPHA_ZERO_CASE_, ~)
    default:
        return 0;
    }
}

/* ---- naive ---- */

/* dot: out[0] = x . y, one accumulator */
#define DOT_NAIVE(DT, T, S, ...)                                                            \
    CPU_INSTANCE(dot_naive, S)                                                              \
    {                                                                                       \
        int64_t n = args->in[0].shape[0];                                                   \
        const T *x = T_PTR(&args->in[0], T), *y = T_PTR(&args->in[1], T);                   \
        T acc = 0;                                                                          \
        for (int64_t i = 0; i < n; i++)                                                     \
            acc += x[i] * y[i];                                                             \
        T_PTR(&args->out, T)[0] = acc;                                                      \
        return GPUK_OK;                                                                     \
    }
CPU_GENERIC(dot_naive, CPU_FLOAT_DTYPES, DOT_NAIVE)

/* gemv: y = alpha op(a) x + beta y, one dot product per output */
#define GEMV_NAIVE(DT, T, S, ...)                                                           \
    CPU_INSTANCE(gemv_naive, S)                                                             \
    {                                                                                       \
        const gpuk_tdesc *ta = &args->in[0];                                                \
        int64_t m = ta->shape[0], n = ta->shape[1], lda = T_LD(ta);                         \
        const T *a = T_PTR(ta, T), *x = T_PTR(&args->in[1], T);                             \
        T *y = T_PTR(&args->out, T);                                                        \
        T alpha = CPU_ALPHA(S, args), beta = CPU_BETA(S, args);                             \
        int64_t ny = args->trans_a ? n : m, nx = args->trans_a ? m : n;                     \
        if (alpha_zero_##S(args, 1, ny))                                                    \
            return GPUK_OK;                                                                 \
        for (int64_t i = 0; i < ny; i++) {                                                  \
            T acc = 0;                                                                      \
            for (int64_t p = 0; p < nx; p++)                                                \
                acc += (args->trans_a ? a[p * lda + i] : a[i * lda + p]) * x[p];            \
            y[i] = beta == 0 ? alpha * acc : alpha * acc + beta * y[i];                     \
        }                                                                                   \
        return GPUK_OK;                                                                     \
    }
CPU_GENERIC(gemv_naive, CPU_FLOAT_DTYPES, GEMV_NAIVE)

/* ---- simd ---- */

/* x . y with four vector accumulators (an add chain per accumulator hides
 * the FMA latency); the tail is a masked load. */
#define DOT_VEC(T, S, I)                                                                    \
    __attribute__((target(CPU_V(S, I, TARGET)))) static T dot_##S##_##I(const T *x,         \
                                                                         const T *y,        \
                                                                         int64_t n)         \
    {                                                                                       \
        enum { W_ = CPU_V(S, I, W) };                                                       \
        CPU_V(S, I, VEC) s0 = CPU_V(S, I, ZERO)(), s1 = s0, s2 = s0, s3 = s0;               \
        int64_t i = 0;                                                                      \
        for (; i + 4 * W_ <= n; i += 4 * W_) {                                              \
            s0 = CPU_V(S, I, FMA)(CPU_V(S, I, LOADU)(x + i), CPU_V(S, I, LOADU)(y + i), s0); \
            s1 = CPU_V(S, I, FMA)(CPU_V(S, I, LOADU)(x + i + W_),                           \
                                  CPU_V(S, I, LOADU)(y + i + W_), s1);                      \
            s2 = CPU_V(S, I, FMA)(CPU_V(S, I, LOADU)(x + i + 2 * W_),                       \
                                  CPU_V(S, I, LOADU)(y + i + 2 * W_), s2);                  \
            s3 = CPU_V(S, I, FMA)(CPU_V(S, I, LOADU)(x + i + 3 * W_),                       \
                                  CPU_V(S, I, LOADU)(y + i + 3 * W_), s3);                  \
        }                                                                                   \
        for (; i < n; i += W_) {                                                            \
            CPU_V(S, I, MASK) mk = CPU_V(S, I, MASKOF)(n - i >= W_ ? W_ : n - i);           \
            s0 = CPU_V(S, I, FMA)(CPU_V(S, I, MLOADU)(mk, x + i), CPU_V(S, I, MLOADU)(mk, y + i), \
                                  s0);                                                      \
        }                                                                                   \
        return CPU_V(S, I, HSUM)(CPU_V(S, I, ADD)(CPU_V(S, I, ADD)(s0, s1),                 \
                                                  CPU_V(S, I, ADD)(s2, s3)));               \
    }

#define DOT_SCALAR(DT, T, S, ...)                                                           \
    static T dot_##S##_scalar(const T *x, const T *y, int64_t n)                            \
    {                                                                                       \
        T s[8] = {0};                                                                       \
        int64_t i = 0;                                                                      \
        for (; i + 8 <= n; i += 8)                                                          \
            for (int q = 0; q < 8; q++)                                                     \
                s[q] += x[i + q] * y[i + q];                                                \
        T r = 0;                                                                            \
        for (int q = 0; q < 8; q++)                                                         \
            r += s[q];                                                                      \
        for (; i < n; i++)                                                                  \
            r += x[i] * y[i];                                                               \
        return r;                                                                           \
    }
CPU_FLOAT_DTYPES(DOT_SCALAR)

#ifdef CPU_X86
CPU_FLOAT_VECS(DOT_VEC)
#define DOT_OF(S, I) dot_##S##_##I
#else
#define DOT_OF(S, I) dot_##S##_scalar
#endif

#define DOT_PICK(DT, T, S, ...)                                                             \
    static T (*dot_pick_##S(gpuk_bctx *b))(const T *, const T *, int64_t)                  \
    {                                                                                       \
        if (b->isa == CPU_ISA_AVX512)                                                       \
            return DOT_OF(S, avx512);                                                       \
        if (b->isa == CPU_ISA_AVX2)                                                         \
            return DOT_OF(S, avx2);                                                         \
        return dot_##S##_scalar;                                                            \
    }
CPU_FLOAT_DTYPES(DOT_PICK)

/* Work below this many elements per thread is not worth waking threads. */
#define BLAS_PAR_MIN 32768

/* dot simd: each thread sums a contiguous chunk with the vector kernel;
 * the partial sums are added in thread order, so a given thread count
 * always gives the same bits. */
#define DOT_SIMD(DT, T, S, ...)                                                             \
    CPU_INSTANCE(dot_simd, S)                                                               \
    {                                                                                       \
        int64_t n = args->in[0].shape[0];                                                   \
        const T *x = T_PTR(&args->in[0], T), *y = T_PTR(&args->in[1], T);                   \
        T (*dot)(const T *, const T *, int64_t) = dot_pick_##S(b);                          \
        int nt = b->nthreads;                                                               \
        if (n < (int64_t)nt * BLAS_PAR_MIN || nt == 1) {                                    \
            T_PTR(&args->out, T)[0] = dot(x, y, n);                                         \
            return GPUK_OK;                                                                 \
        }                                                                                   \
        T part[256];                                                                        \
        if (nt > 256)                                                                       \
            nt = 256;                                                                       \
        _Pragma("omp parallel num_threads(nt)")                                             \
        {                                                                                   \
            int id = CPU_THREAD_NUM(), cnt = CPU_NUM_THREADS();                             \
            int64_t lo = n * id / cnt, hi = n * (id + 1) / cnt;                             \
            part[id] = dot(x + lo, y + lo, hi - lo);                                        \
            if (id == 0)                                                                    \
                for (int t = cnt; t < nt; t++)                                              \
                    part[t] = 0;                                                            \
        }                                                                                   \
        T r = 0;                                                                            \
        for (int t = 0; t < nt; t++)                                                        \
            r += part[t];                                                                   \
        T_PTR(&args->out, T)[0] = r;                                                        \
        return GPUK_OK;                                                                     \
    }
CPU_GENERIC(dot_simd, CPU_FLOAT_DTYPES, DOT_SIMD)

/* gemv simd.  No transpose: OpenMP over rows of a, each a vector dot with
 * x.  Transposed: y = a^T x adds x[p] times row p of a into y, so threads
 * take column slices of a and each walks all rows over its slice (rows
 * are read with unit stride in both cases). */
#define GEMV_SIMD(DT, T, S, ...)                                                            \
    CPU_INSTANCE(gemv_simd, S)                                                              \
    {                                                                                       \
        const gpuk_tdesc *ta = &args->in[0];                                                \
        int64_t m = ta->shape[0], n = ta->shape[1], lda = T_LD(ta);                         \
        const T *a = T_PTR(ta, T), *x = T_PTR(&args->in[1], T);                             \
        T *y = T_PTR(&args->out, T);                                                        \
        T alpha = CPU_ALPHA(S, args), beta = CPU_BETA(S, args);                             \
        if (alpha_zero_##S(args, 1, args->trans_a ? n : m))                                 \
            return GPUK_OK;                                                                 \
        int nt = m * n < (int64_t)BLAS_PAR_MIN * 2 ? 1 : b->nthreads;                       \
        if (!args->trans_a) {                                                               \
            T (*dot)(const T *, const T *, int64_t) = dot_pick_##S(b);                      \
            _Pragma("omp parallel for num_threads(nt) schedule(static)")                    \
            for (int64_t i = 0; i < m; i++) {                                               \
                T acc = dot(a + i * lda, x, n);                                             \
                y[i] = beta == 0 ? alpha * acc : alpha * acc + beta * y[i];                 \
            }                                                                               \
            return GPUK_OK;                                                                 \
        }                                                                                   \
        /* slices of 256 columns: one slice of y stays in L1 while all rows pass */         \
        _Pragma("omp parallel for num_threads(nt) schedule(static)")                        \
        for (int64_t j0 = 0; j0 < n; j0 += 256) {                                           \
            int64_t j1 = j0 + 256 < n ? j0 + 256 : n;                                       \
            T acc[256];                                                                     \
            for (int64_t j = j0; j < j1; j++)                                               \
                acc[j - j0] = 0;                                                            \
            for (int64_t p = 0; p < m; p++) {                                               \
                const T xp = x[p];                                                          \
                const T *ar = a + p * lda;                                                  \
                _Pragma("omp simd") for (int64_t j = j0; j < j1; j++)                       \
                    acc[j - j0] += xp * ar[j];                                              \
            }                                                                               \
            for (int64_t j = j0; j < j1; j++)                                               \
                y[j] = beta == 0 ? alpha * acc[j - j0] : alpha * acc[j - j0] + beta * y[j]; \
        }                                                                                   \
        return GPUK_OK;                                                                     \
    }
CPU_GENERIC(gemv_simd, CPU_FLOAT_DTYPES, GEMV_SIMD)

/* ---- OpenBLAS ---- */

#ifdef HAVE_OPENBLAS
#define DOT_OPENBLAS(DT, T, S, ...)                                                         \
    CPU_INSTANCE(dot_openblas, S)                                                           \
    {                                                                                       \
        int64_t n = args->in[0].shape[0];                                                   \
        if (!cpu_fits_int(n))                                                               \
            return dot_simd_##S(b, args);                                                   \
        int saved_threads = cpu_openblas_enter(b);                                          \
        T_PTR(&args->out, T)[0] = CPU_CBLAS(S, dot)((int)n, T_PTR(&args->in[0], T), 1,     \
                                                    T_PTR(&args->in[1], T), 1);             \
        cpu_openblas_leave(saved_threads);                                                  \
        return GPUK_OK;                                                                     \
    }
CPU_GENERIC(dot_openblas, CPU_FLOAT_DTYPES, DOT_OPENBLAS)

/* cblas_sgemv scales x by alpha before the products: with an infinite
 * entry in a and an x so small that alpha x underflows to 0, that gives
 * inf * 0 = NaN where alpha (a x) is inf.  So the library computes t = a x
 * (alpha 1, beta 0, into scratch) and alpha and beta are applied here, in
 * the order every other rung uses.  cblas rejects (and prints about) a
 * leading dimension below the row length, which a view with overlapping
 * rows can have: those calls take the simd rung. */
#define GEMV_OPENBLAS(DT, T, S, ...)                                                        \
    CPU_INSTANCE(gemv_openblas, S)                                                          \
    {                                                                                       \
        const gpuk_tdesc *ta = &args->in[0];                                                \
        int64_t m = ta->shape[0], n = ta->shape[1], lda = T_LD(ta);                         \
        int64_t ny = args->trans_a ? n : m;                                                 \
        T *y = T_PTR(&args->out, T);                                                        \
        T alpha = CPU_ALPHA(S, args), beta = CPU_BETA(S, args);                             \
        if (alpha_zero_##S(args, 1, ny))                                                    \
            return GPUK_OK;                                                                 \
        if (m == 1)                                                                         \
            lda = n;                                                                        \
        if (lda < n || !cpu_fits_int(m) || !cpu_fits_int(n) || !cpu_fits_int(lda) ||       \
            m == 0 || n == 0)                                                               \
            return gemv_simd_##S(b, args);                                                  \
        T *t = malloc((size_t)ny * sizeof *t);                                              \
        if (!t)                                                                             \
            return cpu_fail(b, GPUK_ERR_NO_MEMORY, "gemv/openblas: no memory for %lld "     \
                            "elements", (long long)ny);                                     \
        int saved_threads = cpu_openblas_enter(b);                                          \
        CPU_CBLAS(S, gemv)(CblasRowMajor, args->trans_a ? CblasTrans : CblasNoTrans, (int)m, \
                           (int)n, 1, T_PTR(ta, T), (int)lda, T_PTR(&args->in[1], T), 1, 0, \
                           t, 1);                                                           \
        cpu_openblas_leave(saved_threads);                                                  \
        for (int64_t i = 0; i < ny; i++)                                                    \
            y[i] = beta == 0 ? alpha * t[i] : alpha * t[i] + beta * y[i];                   \
        free(t);                                                                            \
        return GPUK_OK;                                                                     \
    }
CPU_GENERIC(gemv_openblas, CPU_FLOAT_DTYPES, GEMV_OPENBLAS)
#endif

/*
 * matmul.c - the matmul family on the CPU (tests/ops/matmul.c,
 * gpuk_matmul(3)): matmul c[m,n] = a[m,k] . b[k,n] (+ bias[n]), batched
 * matmul, and gemm c = alpha op(a) op(b) + beta c, as one ladder, in f32
 * and f64 from one source (dtype.h):
 *
 *   naive     the textbook triple loop with a register accumulator
 *   blocked   cache tiles, i-k-j order: B and C are read along rows
 *   simd      packed panels + AVX2/AVX-512 register micro-kernels, OpenMP
 *             (the engine is in matmul_packed.c)
 *   openblas  cblas_sgemm / cblas_dgemm (the vendor library, for comparison)
 *
 * Each rung is a cpu_gemm_<rung>_<type> function on raw pointers (batched
 * matmul runs them per batch entry) plus a thin kernel that unpacks
 * gpuk_args.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cpu.h"

#ifdef HAVE_OPENBLAS
#include <cblas.h>
#endif

/* Rung 1: one dot product per output, in a register accumulator that
 * starts at the bias.  B is read down a column, a stride of ldb elements
 * per step, so almost every load misses the cache for large n. */
#define GEMM_NAIVE(DT, T, S, ...)                                                           \
    gpuk_status cpu_gemm_naive_##S(gpuk_bctx *b, int64_t m, int64_t n, int64_t k,           \
                                   const T *a, int64_t lda, const T *bm, int64_t ldb,       \
                                   const T *bias, T *c, int64_t ldc)                        \
    {                                                                                       \
        for (int64_t i = 0; i < m; i++)                                                     \
            for (int64_t j = 0; j < n; j++) {                                               \
                T acc = bias ? bias[j] : 0;                                                 \
                for (int64_t p = 0; p < k; p++)                                             \
                    acc += a[i * lda + p] * bm[p * ldb + j];                                \
                c[i * ldc + j] = acc;                                                       \
            }                                                                               \
        return GPUK_OK;                                                                     \
    }                                                                                       \
    /* C = bias (or 0) for every row: the k == 0 answer, and the starting                   \
     * value of the blocked rung.  Never reads C, which may hold anything. */              \
    static void gemm_init_c_##S(int64_t m, int64_t n, const T *bias, T *c, int64_t ldc)     \
    {                                                                                       \
        for (int64_t i = 0; i < m; i++)                                                     \
            for (int64_t j = 0; j < n; j++)                                                 \
                c[i * ldc + j] = bias ? bias[j] : 0;                                        \
    }
CPU_FLOAT_DTYPES(GEMM_NAIVE)

/* Rung 2: tiles of 64 x 256 x 256 (rows x k x columns) so a tile of B
 * (256 KiB of floats, 512 KiB of doubles) stays in L2 while 64 rows of C
 * and A pass over it, and i-k-j order inside: the innermost loop walks a
 * row of B and a row of C with unit stride, which the compiler vectorises
 * (baseline SSE, `omp simd`) and the prefetcher can follow.  One thread. */
#define BLK_M 64
#define BLK_K 256
#define BLK_N 256

#define GEMM_BLOCKED(DT, T, S, ...)                                                         \
    gpuk_status cpu_gemm_blocked_##S(gpuk_bctx *b, int64_t m, int64_t n, int64_t k,         \
                                     const T *a, int64_t lda, const T *bm, int64_t ldb,     \
                                     const T *bias, T *c, int64_t ldc)                      \
    {                                                                                       \
        gemm_init_c_##S(m, n, bias, c, ldc);                                                \
        for (int64_t j0 = 0; j0 < n; j0 += BLK_N) {                                         \
            int64_t j1 = j0 + BLK_N < n ? j0 + BLK_N : n;                                   \
            for (int64_t p0 = 0; p0 < k; p0 += BLK_K) {                                     \
                int64_t p1 = p0 + BLK_K < k ? p0 + BLK_K : k;                               \
                for (int64_t i0 = 0; i0 < m; i0 += BLK_M) {                                 \
                    int64_t i1 = i0 + BLK_M < m ? i0 + BLK_M : m;                           \
                    for (int64_t i = i0; i < i1; i++) {                                     \
                        T *restrict crow = c + i * ldc;                                     \
                        for (int64_t p = p0; p < p1; p++) {                                 \
                            const T aip = a[i * lda + p];                                   \
                            const T *restrict brow = bm + p * ldb;                          \
                            _Pragma("omp simd") for (int64_t j = j0; j < j1; j++)           \
                                crow[j] += aip * brow[j];                                   \
                        }                                                                   \
                    }                                                                       \
                }                                                                           \
            }                                                                               \
        }                                                                                   \
        return GPUK_OK;                                                                     \
    }
CPU_FLOAT_DTYPES(GEMM_BLOCKED)

/* Rung 3 (simd) is cpu_gemm_simd_<type>, in matmul_packed.c. */

#ifdef HAVE_OPENBLAS
int cpu_openblas_enter(gpuk_bctx *b)
{
#ifdef _OPENMP
    int saved = omp_get_max_threads();
#else
    int saved = 0;
#endif
    openblas_set_num_threads(b->nthreads);
    return saved;
}

void cpu_openblas_leave(int saved)
{
#ifdef _OPENMP
    omp_set_num_threads(saved);
#else
    (void)saved;
#endif
}
#endif

/* Rung 4: OpenBLAS.  The bias is written into C first and accumulated with
 * beta = 1.  cblas rejects (and prints about) leading dimensions below the
 * row length, which a view with overlapping rows can have: those calls go
 * to the simd rung instead. */
#ifdef HAVE_OPENBLAS
#define GEMM_OPENBLAS(DT, T, S, ...)                                                        \
    gpuk_status cpu_gemm_openblas_##S(gpuk_bctx *b, int64_t m, int64_t n, int64_t k,        \
                                      const T *a, int64_t lda, const T *bm, int64_t ldb,    \
                                      const T *bias, T *c, int64_t ldc)                     \
    {                                                                                       \
        if (k == 0) {                                                                       \
            gemm_init_c_##S(m, n, bias, c, ldc);                                            \
            return GPUK_OK;                                                                 \
        }                                                                                   \
        if (m == 1)                                                                         \
            lda = k;                                                                        \
        if (k == 1)                                                                         \
            ldb = n;                                                                        \
        if (m == 1)                                                                         \
            ldc = n;                                                                        \
        if (lda < k || ldb < n || ldc < n || !cpu_fits_int(m) || !cpu_fits_int(n) ||        \
            !cpu_fits_int(k) || !cpu_fits_int(lda) || !cpu_fits_int(ldb) || !cpu_fits_int(ldc)) \
            return cpu_gemm_simd_##S(b, m, n, k, a, lda, bm, ldb, bias, c, ldc);            \
        T beta = 0;                                                                         \
        if (bias) {                                                                         \
            gemm_init_c_##S(m, n, bias, c, ldc);                                            \
            beta = 1;                                                                       \
        }                                                                                   \
        int saved_threads = cpu_openblas_enter(b);                                          \
        CPU_CBLAS(S, gemm)(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)k, \
                           1, a, (int)lda, bm, (int)ldb, beta, c, (int)ldc);                \
        cpu_openblas_leave(saved_threads);                                                  \
        return GPUK_OK;                                                                     \
    }
CPU_FLOAT_DTYPES(GEMM_OPENBLAS)
#endif

/* ---- matmul: unpack the canonical operands and call a rung ---- */

#define MATMUL_RUNG(DT, T, S, rung)                                                         \
    CPU_INSTANCE(matmul_##rung, S)                                                          \
    {                                                                                       \
        const gpuk_tdesc *a = &args->in[0], *bm = &args->in[1], *c = &args->out;           \
        const T *bias = args->has_bias ? T_PTR(&args->in[2], T) : NULL;                     \
        return cpu_gemm_##rung##_##S(b, a->shape[0], bm->shape[1], a->shape[1], T_PTR(a, T), \
                                     T_LD(a), T_PTR(bm, T), T_LD(bm), bias, T_PTR(c, T),    \
                                     T_LD(c));                                              \
    }
CPU_FLOAT_DTYPES(MATMUL_RUNG, naive)
CPU_BY_DTYPE(matmul_naive, CPU_FLOAT_DTYPES)
CPU_FLOAT_DTYPES(MATMUL_RUNG, blocked)
CPU_BY_DTYPE(matmul_blocked, CPU_FLOAT_DTYPES)
CPU_FLOAT_DTYPES(MATMUL_RUNG, simd)
CPU_BY_DTYPE(matmul_simd, CPU_FLOAT_DTYPES)
#ifdef HAVE_OPENBLAS
CPU_FLOAT_DTYPES(MATMUL_RUNG, openblas)
CPU_BY_DTYPE(matmul_openblas, CPU_FLOAT_DTYPES)
#endif

/* ---- batched matmul: c[i] = a[i or 0] . b[i or 0] ----
 * for a[B,m,k], b[B,k,n], c[B,m,n] (a broadcast operand has batch stride
 * 0).  Each rung runs one matmul rung per batch entry. */

/* One matmul per batch entry through the given rung. */
#define BMM_RUN(DT, T, S, ...)                                                              \
    static gpuk_status bmm_run_##S(gpuk_bctx *b, const gpuk_args *args, cpu_gemm_fn_##S fn) \
    {                                                                                       \
        const gpuk_tdesc *a = &args->in[0], *bm = &args->in[1], *c = &args->out;           \
        int64_t nb = c->shape[0], m = c->shape[1], n = c->shape[2], k = a->shape[2];        \
        for (int64_t i = 0; i < nb; i++) {                                                  \
            gpuk_status st = fn(b, m, n, k, T_PTR(a, T) + i * a->stride[0], a->stride[1],   \
                                T_PTR(bm, T) + i * bm->stride[0], bm->stride[1], NULL,      \
                                T_PTR(c, T) + i * c->stride[0], c->stride[1]);              \
            if (st != GPUK_OK)                                                              \
                return st;                                                                  \
        }                                                                                   \
        return GPUK_OK;                                                                     \
    }
CPU_FLOAT_DTYPES(BMM_RUN)

#define BMM_RUNG(DT, T, S, rung)                                                            \
    CPU_INSTANCE(bmm_##rung, S)                                                             \
    {                                                                                       \
        return bmm_run_##S(b, args, cpu_gemm_##rung##_##S);                                 \
    }
/* Rungs 1 and 2: the naive and the blocked matmul per batch entry. */
CPU_FLOAT_DTYPES(BMM_RUNG, naive)
CPU_BY_DTYPE(bmm_naive, CPU_FLOAT_DTYPES)
CPU_FLOAT_DTYPES(BMM_RUNG, blocked)
CPU_BY_DTYPE(bmm_blocked, CPU_FLOAT_DTYPES)
#ifdef HAVE_OPENBLAS
/* Rung 4: cblas_sgemm / cblas_dgemm per batch entry. */
CPU_FLOAT_DTYPES(BMM_RUNG, openblas)
CPU_BY_DTYPE(bmm_openblas, CPU_FLOAT_DTYPES)
#endif

/* Rung 3: the packed SIMD matmul per batch entry.  A large product is
 * split among the threads (they share its packed B panel in cache); small
 * products, where a parallel region costs more than the work, go one per
 * thread instead, each thread running the engine alone. */
#define BMM_SPLIT_MIN ((int64_t)1 << 21) /* multiply-adds per product */

#define BMM_SIMD(DT, T, S, ...)                                                             \
    CPU_INSTANCE(bmm_simd, S)                                                               \
    {                                                                                       \
        const gpuk_tdesc *a = &args->in[0], *bm = &args->in[1], *c = &args->out;           \
        int64_t nb = c->shape[0], m = c->shape[1], n = c->shape[2], k = a->shape[2];        \
        if (b->nthreads == 1 || nb == 1 || m * n * (k > 0 ? k : 1) >= BMM_SPLIT_MIN)        \
            return bmm_run_##S(b, args, cpu_gemm_simd_##S);                                 \
        gpuk_status first_err = GPUK_OK;                                                    \
        _Pragma("omp parallel num_threads(b->nthreads)")                                    \
        {                                                                                   \
            /* a private one-thread context: the engine's parallel regions                  \
             * then run on this thread alone */                                             \
            gpuk_bctx one = *b;                                                             \
            one.nthreads = 1;                                                               \
            _Pragma("omp for schedule(dynamic, 1)")                                         \
            for (int64_t i = 0; i < nb; i++) {                                              \
                gpuk_status st = cpu_gemm_simd_##S(                                         \
                    &one, m, n, k, T_PTR(a, T) + i * a->stride[0], a->stride[1],            \
                    T_PTR(bm, T) + i * bm->stride[0], bm->stride[1], NULL,                  \
                    T_PTR(c, T) + i * c->stride[0], c->stride[1]);                          \
                if (st != GPUK_OK) {                                                        \
                    _Pragma("omp critical(gpuk_cpu_bmm_err)")                               \
                    if (first_err == GPUK_OK) {                                             \
                        first_err = st;                                                     \
                        memcpy(b->err, one.err, sizeof b->err);                             \
                    }                                                                       \
                }                                                                           \
            }                                                                               \
        }                                                                                   \
        return first_err;                                                                   \
    }
CPU_GENERIC(bmm_simd, CPU_FLOAT_DTYPES, BMM_SIMD)

/* ---- gemm: c[m,n] = alpha op(a) op(b) + beta c ---- */

#define GEMM_NAIVE_RUNG(DT, T, S, ...)                                                      \
    CPU_INSTANCE(gemm_naive, S)                                                             \
    {                                                                                       \
        const gpuk_tdesc *ta = &args->in[0], *tb = &args->in[1], *tc = &args->out;         \
        int64_t m = tc->shape[0], n = tc->shape[1];                                         \
        int64_t k = args->trans_a ? ta->shape[0] : ta->shape[1];                            \
        const T *a = T_PTR(ta, T), *bm = T_PTR(tb, T);                                      \
        T *c = T_PTR(tc, T);                                                                \
        int64_t lda = T_LD(ta), ldb = T_LD(tb), ldc = T_LD(tc);                             \
        T alpha = CPU_ALPHA(S, args), beta = CPU_BETA(S, args);                             \
        if (cpu_alpha_zero(args, m, n))                                                     \
            return GPUK_OK;                                                                 \
        for (int64_t i = 0; i < m; i++)                                                     \
            for (int64_t j = 0; j < n; j++) {                                               \
                T acc = 0;                                                                  \
                for (int64_t p = 0; p < k; p++) {                                           \
                    T av = args->trans_a ? a[p * lda + i] : a[i * lda + p];                 \
                    T bv = args->trans_b ? bm[j * ldb + p] : bm[p * ldb + j];               \
                    acc += av * bv;                                                         \
                }                                                                           \
                T *cij = &c[i * ldc + j];                                                   \
                *cij = beta == 0 ? alpha * acc : alpha * acc + beta * *cij;                 \
            }                                                                               \
        return GPUK_OK;                                                                     \
    }
CPU_GENERIC(gemm_naive, CPU_FLOAT_DTYPES, GEMM_NAIVE_RUNG)

/* gemm simd: the packed micro-kernel engine of matmul; transposes are only
 * a different stride when packing, alpha and beta are applied when a tile
 * is written. */
#define GEMM_SIMD_RUNG(DT, T, S, ...)                                                       \
    CPU_INSTANCE(gemm_simd, S)                                                              \
    {                                                                                       \
        const gpuk_tdesc *ta = &args->in[0], *tb = &args->in[1], *tc = &args->out;         \
        int64_t m = tc->shape[0], n = tc->shape[1];                                         \
        int64_t k = args->trans_a ? ta->shape[0] : ta->shape[1];                            \
        int64_t lda = T_LD(ta), ldb = T_LD(tb);                                             \
        if (cpu_alpha_zero(args, m, n))                                                     \
            return GPUK_OK;                                                                 \
        return cpu_gemm_packed_##S(b, m, n, k, T_PTR(ta, T), args->trans_a ? 1 : lda,       \
                                   args->trans_a ? lda : 1, T_PTR(tb, T),                   \
                                   args->trans_b ? 1 : ldb, args->trans_b ? ldb : 1,        \
                                   CPU_ALPHA(S, args), CPU_BETA(S, args), NULL,             \
                                   T_PTR(tc, T), T_LD(tc));                                 \
    }
CPU_GENERIC(gemm_simd, CPU_FLOAT_DTYPES, GEMM_SIMD_RUNG)

#ifdef HAVE_OPENBLAS
#define GEMM_OPENBLAS_RUNG(DT, T, S, ...)                                                   \
    CPU_INSTANCE(gemm_openblas, S)                                                          \
    {                                                                                       \
        const gpuk_tdesc *ta = &args->in[0], *tb = &args->in[1], *tc = &args->out;         \
        int64_t m = tc->shape[0], n = tc->shape[1];                                         \
        int64_t k = args->trans_a ? ta->shape[0] : ta->shape[1];                            \
        int64_t lda = T_LD(ta), ldb = T_LD(tb), ldc = T_LD(tc);                             \
        /* stored shapes: a [m,k] or [k,m]; b [k,n] or [n,k] */                             \
        int64_t a_rows = ta->shape[0], a_cols = ta->shape[1];                               \
        int64_t b_rows = tb->shape[0], b_cols = tb->shape[1];                               \
        if (a_rows == 1)                                                                    \
            lda = a_cols;                                                                   \
        if (b_rows == 1)                                                                    \
            ldb = b_cols;                                                                   \
        if (m == 1)                                                                         \
            ldc = n;                                                                        \
        if (cpu_alpha_zero(args, m, n))                                                     \
            return GPUK_OK;                                                                 \
        if (k == 0 || lda < a_cols || ldb < b_cols || ldc < n || !cpu_fits_int(m) ||        \
            !cpu_fits_int(n) || !cpu_fits_int(k) || !cpu_fits_int(lda) ||                   \
            !cpu_fits_int(ldb) || !cpu_fits_int(ldc))                                       \
            return gemm_simd_##S(b, args);                                                  \
        T *c = T_PTR(tc, T), beta = CPU_BETA(S, args);                                      \
        if (beta == 0)                                                                      \
            for (int64_t i = 0; i < m; i++)                                                 \
                memset(c + i * ldc, 0, (size_t)n * sizeof(T));                              \
        int saved_threads = cpu_openblas_enter(b);                                          \
        CPU_CBLAS(S, gemm)(CblasRowMajor, args->trans_a ? CblasTrans : CblasNoTrans,        \
                           args->trans_b ? CblasTrans : CblasNoTrans, (int)m, (int)n,       \
                           (int)k, CPU_ALPHA(S, args), T_PTR(ta, T), (int)lda,              \
                           T_PTR(tb, T), (int)ldb, beta, c, (int)ldc);                      \
        cpu_openblas_leave(saved_threads);                                                  \
        return GPUK_OK;                                                                     \
    }
CPU_GENERIC(gemm_openblas, CPU_FLOAT_DTYPES, GEMM_OPENBLAS_RUNG)
#endif

/*
 * matmul.c - the matmul family on the CPU (tests/ops/matmul.c,
 * gpuk_matmul(3)): matmul c[m,n] = a[m,k] . b[k,n] (+ bias[n]), batched
 * matmul, and gemm c = alpha op(a) op(b) + beta c, as one ladder:
 *
 *   naive     the textbook triple loop with a register accumulator
 *   blocked   cache tiles, i-k-j order: B and C are read along rows
 *   simd      packed panels + AVX2/AVX-512 register micro-kernels, OpenMP
 *             (the engine is in matmul_packed.c)
 *   openblas  cblas_sgemm (the vendor library, for comparison)
 *
 * Each rung is a cpu_sgemm_fn on raw pointers (batched matmul runs them
 * per batch entry) plus a thin kernel that unpacks gpuk_args.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cpu.h"

/* Rung 1: one dot product per output, in a register accumulator that
 * starts at the bias.  B is read down a column, a stride of ldb
 * floats per step, so almost every load misses the cache for large n. */
gpuk_status cpu_sgemm_naive(gpuk_bctx *b, int64_t m, int64_t n, int64_t k,
                            const float *a, int64_t lda, const float *bm, int64_t ldb,
                            const float *bias, float *c, int64_t ldc)
{
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            float acc = bias ? bias[j] : 0.0f;
            for (int64_t p = 0; p < k; p++)
                acc += a[i * lda + p] * bm[p * ldb + j];
            c[i * ldc + j] = acc;
        }
    return GPUK_OK;
}

/* C = bias (or 0) for every row: the k == 0 answer, and the starting value
 * of the blocked rung.  Never reads C, which may hold anything. */
static void sgemm_init_c(int64_t m, int64_t n, const float *bias, float *c, int64_t ldc)
{
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++)
            c[i * ldc + j] = bias ? bias[j] : 0.0f;
}

/* Rung 2: tiles of 64 x 256 x 256 (rows x k x columns) so a tile of B
 * (256 KiB) stays in L2 while 64 rows of C and A pass over it, and i-k-j
 * order inside: the innermost loop walks a row of B and a row of C with
 * unit stride, which the compiler vectorises (baseline SSE, `omp simd`)
 * and the prefetcher can follow.  One thread. */
#define BLK_M 64
#define BLK_K 256
#define BLK_N 256

gpuk_status cpu_sgemm_blocked(gpuk_bctx *b, int64_t m, int64_t n, int64_t k,
                              const float *a, int64_t lda, const float *bm, int64_t ldb,
                              const float *bias, float *c, int64_t ldc)
{
    sgemm_init_c(m, n, bias, c, ldc);
    for (int64_t j0 = 0; j0 < n; j0 += BLK_N) {
        int64_t j1 = j0 + BLK_N < n ? j0 + BLK_N : n;
        for (int64_t p0 = 0; p0 < k; p0 += BLK_K) {
            int64_t p1 = p0 + BLK_K < k ? p0 + BLK_K : k;
            for (int64_t i0 = 0; i0 < m; i0 += BLK_M) {
                int64_t i1 = i0 + BLK_M < m ? i0 + BLK_M : m;
                for (int64_t i = i0; i < i1; i++) {
                    float *restrict crow = c + i * ldc;
                    for (int64_t p = p0; p < p1; p++) {
                        const float aip = a[i * lda + p];
                        const float *restrict brow = bm + p * ldb;
#pragma omp simd
                        for (int64_t j = j0; j < j1; j++)
                            crow[j] += aip * brow[j];
                    }
                }
            }
        }
    }
    return GPUK_OK;
}

#ifdef HAVE_OPENBLAS
#include <cblas.h>

void cpu_openblas_threads(gpuk_bctx *b)
{
    openblas_set_num_threads(b->nthreads);
}

/* Rung 4: OpenBLAS.  The bias is written into C first and accumulated with
 * beta = 1.  cblas rejects (and prints about) leading dimensions below the
 * row length, which a view with overlapping rows can have: those calls go
 * to the simd rung instead. */
gpuk_status cpu_sgemm_openblas(gpuk_bctx *b, int64_t m, int64_t n, int64_t k,
                               const float *a, int64_t lda, const float *bm, int64_t ldb,
                               const float *bias, float *c, int64_t ldc)
{
    if (k == 0) {
        sgemm_init_c(m, n, bias, c, ldc);
        return GPUK_OK;
    }
    if (m == 1)
        lda = k;
    if (k == 1)
        ldb = n;
    if (m == 1)
        ldc = n;
    if (lda < k || ldb < n || ldc < n || m > INT32_MAX || n > INT32_MAX || k > INT32_MAX ||
        lda > INT32_MAX || ldb > INT32_MAX || ldc > INT32_MAX)
        return cpu_sgemm_simd(b, m, n, k, a, lda, bm, ldb, bias, c, ldc);
    float beta = 0.0f;
    if (bias) {
        sgemm_init_c(m, n, bias, c, ldc);
        beta = 1.0f;
    }
    cpu_openblas_threads(b);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)k, 1.0f, a,
                (int)lda, bm, (int)ldb, beta, c, (int)ldc);
    return GPUK_OK;
}
#endif

/* The kernels: unpack the canonical MATMUL operands and call a rung. */
static gpuk_status matmul_run(gpuk_bctx *b, const gpuk_args *args, cpu_sgemm_fn fn)
{
    const gpuk_tdesc *a = &args->in[0], *bm = &args->in[1], *c = &args->out;
    const float *bias = args->has_bias ? T_F32(&args->in[2]) : NULL;
    return fn(b, a->shape[0], bm->shape[1], a->shape[1], T_F32(a), T_LD(a), T_F32(bm),
              T_LD(bm), bias, T_F32(c), T_LD(c));
}

CPU_KERNEL(matmul_naive)
{
    return matmul_run(b, args, cpu_sgemm_naive);
}

CPU_KERNEL(matmul_blocked)
{
    return matmul_run(b, args, cpu_sgemm_blocked);
}

CPU_KERNEL(matmul_simd)
{
    return matmul_run(b, args, cpu_sgemm_simd);
}

#ifdef HAVE_OPENBLAS
CPU_KERNEL(matmul_openblas)
{
    return matmul_run(b, args, cpu_sgemm_openblas);
}
#endif

/* ---- batched matmul ----
 * batched.c - c[i] = a[i or 0] . b[i or 0] for a[B,m,k], b[B,k,n],
 * c[B,m,n] (a broadcast operand has batch stride 0).  Each rung runs one
 * matmul rung per batch; see matmul.c for what each rung adds.
 */

/* One matmul per batch entry through the given rung. */
static gpuk_status bmm_run(gpuk_bctx *b, const gpuk_args *args, cpu_sgemm_fn fn)
{
    const gpuk_tdesc *a = &args->in[0], *bm = &args->in[1], *c = &args->out;
    int64_t nb = c->shape[0], m = c->shape[1], n = c->shape[2], k = a->shape[2];
    for (int64_t i = 0; i < nb; i++) {
        gpuk_status st = fn(b, m, n, k, T_F32(a) + i * a->stride[0], a->stride[1],
                            T_F32(bm) + i * bm->stride[0], bm->stride[1], NULL,
                            T_F32(c) + i * c->stride[0], c->stride[1]);
        if (st != GPUK_OK)
            return st;
    }
    return GPUK_OK;
}

/* Rung 1: the naive triple loop per batch. */
CPU_KERNEL(bmm_naive)
{
    return bmm_run(b, args, cpu_sgemm_naive);
}

/* Rung 2: the cache-blocked matmul per batch entry. */
CPU_KERNEL(bmm_blocked)
{
    return bmm_run(b, args, cpu_sgemm_blocked);
}

/* Rung 3: the packed SIMD matmul per batch entry.  A large product is
 * split among the threads (they share its packed B panel in cache); small
 * products, where a parallel region costs more than the work, go one per
 * thread instead, each thread running the engine alone. */
#define BMM_SPLIT_MIN ((int64_t)1 << 21) /* multiply-adds per product */

CPU_KERNEL(bmm_simd)
{
    const gpuk_tdesc *a = &args->in[0], *bm = &args->in[1], *c = &args->out;
    int64_t nb = c->shape[0], m = c->shape[1], n = c->shape[2], k = a->shape[2];
    if (b->nthreads == 1 || nb == 1 || m * n * (k > 0 ? k : 1) >= BMM_SPLIT_MIN)
        return bmm_run(b, args, cpu_sgemm_simd);
    gpuk_status first_err = GPUK_OK;
#pragma omp parallel num_threads(b->nthreads)
    {
        /* a private one-thread context: the engine's parallel regions then
         * run on this thread alone */
        gpuk_bctx one = *b;
        one.nthreads = 1;
#pragma omp for schedule(dynamic, 1)
        for (int64_t i = 0; i < nb; i++) {
            gpuk_status st = cpu_sgemm_simd(&one, m, n, k, T_F32(a) + i * a->stride[0],
                                            a->stride[1], T_F32(bm) + i * bm->stride[0],
                                            bm->stride[1], NULL, T_F32(c) + i * c->stride[0],
                                            c->stride[1]);
            if (st != GPUK_OK) {
#pragma omp critical(gpuk_cpu_bmm_err)
                if (first_err == GPUK_OK) {
                    first_err = st;
                    memcpy(b->err, one.err, sizeof b->err);
                }
            }
        }
    }
    return first_err;
}

#ifdef HAVE_OPENBLAS
/* Rung 4: cblas_sgemm per batch entry. */
CPU_KERNEL(bmm_openblas)
{
    return bmm_run(b, args, cpu_sgemm_openblas);
}
#endif

/* ---- gemm: c[m,n] = alpha op(a) op(b) + beta c ---- */

CPU_KERNEL(gemm_naive)
{
    const gpuk_tdesc *ta = &args->in[0], *tb = &args->in[1], *tc = &args->out;
    int64_t m = tc->shape[0], n = tc->shape[1];
    int64_t k = args->trans_a ? ta->shape[0] : ta->shape[1];
    const float *a = T_F32(ta), *bm = T_F32(tb);
    float *c = T_F32(tc);
    int64_t lda = T_LD(ta), ldb = T_LD(tb), ldc = T_LD(tc);
    float alpha = args->alpha, beta = args->beta;
    if (cpu_alpha_zero(args, m, n))
        return GPUK_OK;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            float acc = 0.0f;
            for (int64_t p = 0; p < k; p++) {
                float av = args->trans_a ? a[p * lda + i] : a[i * lda + p];
                float bv = args->trans_b ? bm[j * ldb + p] : bm[p * ldb + j];
                acc += av * bv;
            }
            float *cij = &c[i * ldc + j];
            *cij = beta == 0.0f ? alpha * acc : alpha * acc + beta * *cij;
        }
    return GPUK_OK;
}

/* gemm simd: the packed micro-kernel engine of matmul; transposes are only
 * a different stride when packing, alpha and beta are applied when a tile
 * is written. */
CPU_KERNEL(gemm_simd)
{
    const gpuk_tdesc *ta = &args->in[0], *tb = &args->in[1], *tc = &args->out;
    int64_t m = tc->shape[0], n = tc->shape[1];
    int64_t k = args->trans_a ? ta->shape[0] : ta->shape[1];
    int64_t lda = T_LD(ta), ldb = T_LD(tb);
    if (cpu_alpha_zero(args, m, n))
        return GPUK_OK;
    return cpu_sgemm_packed(b, m, n, k, T_F32(ta), args->trans_a ? 1 : lda,
                            args->trans_a ? lda : 1, T_F32(tb), args->trans_b ? 1 : ldb,
                            args->trans_b ? ldb : 1, args->alpha, args->beta, NULL, T_F32(tc),
                            T_LD(tc));
}

#ifdef HAVE_OPENBLAS
CPU_KERNEL(gemm_openblas)
{
    const gpuk_tdesc *ta = &args->in[0], *tb = &args->in[1], *tc = &args->out;
    int64_t m = tc->shape[0], n = tc->shape[1];
    int64_t k = args->trans_a ? ta->shape[0] : ta->shape[1];
    int64_t lda = T_LD(ta), ldb = T_LD(tb), ldc = T_LD(tc);
    /* stored shapes: a [m,k] or [k,m]; b [k,n] or [n,k] */
    int64_t a_rows = ta->shape[0], a_cols = ta->shape[1];
    int64_t b_rows = tb->shape[0], b_cols = tb->shape[1];
    if (a_rows == 1)
        lda = a_cols;
    if (b_rows == 1)
        ldb = b_cols;
    if (m == 1)
        ldc = n;
    if (cpu_alpha_zero(args, m, n))
        return GPUK_OK;
    if (k == 0 || lda < a_cols || ldb < b_cols || ldc < n || !cpu_fits_int(m) || !cpu_fits_int(n) ||
        !cpu_fits_int(k) || !cpu_fits_int(lda) || !cpu_fits_int(ldb) || !cpu_fits_int(ldc))
        return gemm_simd(b, args);
    float *c = T_F32(tc);
    if (args->beta == 0.0f)
        for (int64_t i = 0; i < m; i++)
            memset(c + i * ldc, 0, (size_t)n * sizeof(float));
    cpu_openblas_threads(b);
    cblas_sgemm(CblasRowMajor, args->trans_a ? CblasTrans : CblasNoTrans,
                args->trans_b ? CblasTrans : CblasNoTrans, (int)m, (int)n, (int)k, args->alpha,
                T_F32(ta), (int)lda, T_F32(tb), (int)ldb, args->beta, c, (int)ldc);
    return GPUK_OK;
}
#endif

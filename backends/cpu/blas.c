/*
 * blas.c - the blas family on the CPU (tests/ops/blas.c, gpuk_blas(3)):
 * dot and gemv (alpha, beta, a transpose); gemm, BLAS-shaped too, is a
 * matmul (matmul.c).  With beta == 0 the output is not read, so NaN
 * there does not propagate; with alpha == 0 the inputs are not read (the
 * BLAS convention).
 *
 *   naive     textbook loops
 *   simd      AVX-512/AVX2 with several accumulators and OpenMP
 *   openblas  cblas_sdot / cblas_sgemv
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cpu.h"

#ifdef HAVE_OPENBLAS
#include <cblas.h>
#endif

/* ---- dot: out[0] = x . y ---- */

CPU_KERNEL(dot_naive)
{
    int64_t n = args->in[0].shape[0];
    const float *x = T_F32(&args->in[0]), *y = T_F32(&args->in[1]);
    float acc = 0.0f;
    for (int64_t i = 0; i < n; i++)
        acc += x[i] * y[i];
    T_F32(&args->out)[0] = acc;
    return GPUK_OK;
}

/* ---- alpha == 0: the BLAS convention, shared by every gemv/gemm rung ----
 * With alpha = 0 the inputs are not read (as beta = 0 means the output is
 * not read): out = beta out, or 0.  Without this a NaN or inf in a, b or x
 * would reach out through 0 * NaN in some rungs and not in others (a
 * library skips the products). */
int cpu_alpha_zero(const gpuk_args *args, int64_t rows, int64_t cols)
{
    if (args->alpha != 0.0f)
        return 0;
    const gpuk_tdesc *o = &args->out;
    int64_t ld = o->ndim == 2 ? o->stride[0] : cols;
    float *out = T_F32(o);
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++)
            out[i * ld + j] = args->beta == 0.0f ? 0.0f : args->beta * out[i * ld + j];
    return 1;
}

/* ---- gemv: y = alpha op(a) x + beta y ---- */

CPU_KERNEL(gemv_naive)
{
    const gpuk_tdesc *ta = &args->in[0];
    int64_t m = ta->shape[0], n = ta->shape[1], lda = T_LD(ta);
    const float *a = T_F32(ta), *x = T_F32(&args->in[1]);
    float *y = T_F32(&args->out);
    float alpha = args->alpha, beta = args->beta;
    int64_t ny = args->trans_a ? n : m, nx = args->trans_a ? m : n;
    if (cpu_alpha_zero(args, 1, ny))
        return GPUK_OK;
    for (int64_t i = 0; i < ny; i++) {
        float acc = 0.0f;
        for (int64_t p = 0; p < nx; p++)
            acc += (args->trans_a ? a[p * lda + i] : a[i * lda + p]) * x[p];
        y[i] = beta == 0.0f ? alpha * acc : alpha * acc + beta * y[i];
    }
    return GPUK_OK;
}

/* ---- simd rungs ---- */

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

/* x . y with four vector accumulators (an add chain per accumulator hides
 * the FMA latency); the tail is a masked load. */
__attribute__((target("avx512f"))) static float dot_avx512(const float *x, const float *y,
                                                           int64_t n)
{
    __m512 s0 = _mm512_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
    int64_t i = 0;
    for (; i + 64 <= n; i += 64) {
        s0 = _mm512_fmadd_ps(_mm512_loadu_ps(x + i), _mm512_loadu_ps(y + i), s0);
        s1 = _mm512_fmadd_ps(_mm512_loadu_ps(x + i + 16), _mm512_loadu_ps(y + i + 16), s1);
        s2 = _mm512_fmadd_ps(_mm512_loadu_ps(x + i + 32), _mm512_loadu_ps(y + i + 32), s2);
        s3 = _mm512_fmadd_ps(_mm512_loadu_ps(x + i + 48), _mm512_loadu_ps(y + i + 48), s3);
    }
    for (; i < n; i += 16) {
        __mmask16 mk = n - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (n - i)) - 1);
        s0 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(mk, x + i), _mm512_maskz_loadu_ps(mk, y + i), s0);
    }
    return _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(s0, s1), _mm512_add_ps(s2, s3)));
}

__attribute__((target("avx2,fma"))) static float dot_avx2(const float *x, const float *y,
                                                          int64_t n)
{
    __m256 s0 = _mm256_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
    int64_t i = 0;
    for (; i + 32 <= n; i += 32) {
        s0 = _mm256_fmadd_ps(_mm256_loadu_ps(x + i), _mm256_loadu_ps(y + i), s0);
        s1 = _mm256_fmadd_ps(_mm256_loadu_ps(x + i + 8), _mm256_loadu_ps(y + i + 8), s1);
        s2 = _mm256_fmadd_ps(_mm256_loadu_ps(x + i + 16), _mm256_loadu_ps(y + i + 16), s2);
        s3 = _mm256_fmadd_ps(_mm256_loadu_ps(x + i + 24), _mm256_loadu_ps(y + i + 24), s3);
    }
    float lanes[8], r = 0.0f;
    _mm256_storeu_ps(lanes, _mm256_add_ps(_mm256_add_ps(s0, s1), _mm256_add_ps(s2, s3)));
    for (int l = 0; l < 8; l++)
        r += lanes[l];
    for (; i < n; i++)
        r += x[i] * y[i];
    return r;
}
#endif

static float dot_scalar(const float *x, const float *y, int64_t n)
{
    float s[8] = {0};
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        for (int q = 0; q < 8; q++)
            s[q] += x[i + q] * y[i + q];
    float r = 0.0f;
    for (int q = 0; q < 8; q++)
        r += s[q];
    for (; i < n; i++)
        r += x[i] * y[i];
    return r;
}

typedef float (*dot_fn)(const float *, const float *, int64_t);

static dot_fn dot_pick(gpuk_bctx *b)
{
#if defined(__x86_64__) || defined(__i386__)
    if (b->isa == CPU_ISA_AVX512)
        return dot_avx512;
    if (b->isa == CPU_ISA_AVX2)
        return dot_avx2;
#endif
    return dot_scalar;
}

/* Work below this many elements per thread is not worth waking threads. */
#define BLAS_PAR_MIN 32768

/* dot simd: each thread sums a contiguous chunk with the vector kernel;
 * the partial sums are added in thread order, so a given thread count
 * always gives the same bits. */
CPU_KERNEL(dot_simd)
{
    int64_t n = args->in[0].shape[0];
    const float *x = T_F32(&args->in[0]), *y = T_F32(&args->in[1]);
    dot_fn dot = dot_pick(b);
    int nt = b->nthreads;
    if (n < (int64_t)nt * BLAS_PAR_MIN || nt == 1) {
        T_F32(&args->out)[0] = dot(x, y, n);
        return GPUK_OK;
    }
    float part[256];
    if (nt > 256)
        nt = 256;
#pragma omp parallel num_threads(nt)
    {
        int id = 0, cnt = 1;
#ifdef _OPENMP
        id = omp_get_thread_num();
        cnt = omp_get_num_threads();
#endif
        int64_t lo = n * id / cnt, hi = n * (id + 1) / cnt;
        part[id] = dot(x + lo, y + lo, hi - lo);
        if (id == 0)
            for (int t = cnt; t < nt; t++)
                part[t] = 0.0f;
    }
    float r = 0.0f;
    for (int t = 0; t < nt; t++)
        r += part[t];
    T_F32(&args->out)[0] = r;
    return GPUK_OK;
}

/* gemv simd.  No transpose: OpenMP over rows of a, each a vector dot with
 * x.  Transposed: y = a^T x adds x[p] times row p of a into y, so threads
 * take column slices of a and each walks all rows over its slice (rows
 * are read with unit stride in both cases). */
CPU_KERNEL(gemv_simd)
{
    const gpuk_tdesc *ta = &args->in[0];
    int64_t m = ta->shape[0], n = ta->shape[1], lda = T_LD(ta);
    const float *a = T_F32(ta), *x = T_F32(&args->in[1]);
    float *y = T_F32(&args->out);
    float alpha = args->alpha, beta = args->beta;
    if (cpu_alpha_zero(args, 1, args->trans_a ? n : m))
        return GPUK_OK;
    int nt = m * n < (int64_t)BLAS_PAR_MIN * 2 ? 1 : b->nthreads;
    if (!args->trans_a) {
        dot_fn dot = dot_pick(b);
#pragma omp parallel for num_threads(nt) schedule(static)
        for (int64_t i = 0; i < m; i++) {
            float acc = dot(a + i * lda, x, n);
            y[i] = beta == 0.0f ? alpha * acc : alpha * acc + beta * y[i];
        }
        return GPUK_OK;
    }
    /* slices of 256 columns: one slice of y stays in L1 while all rows pass */
#pragma omp parallel for num_threads(nt) schedule(static)
    for (int64_t j0 = 0; j0 < n; j0 += 256) {
        int64_t j1 = j0 + 256 < n ? j0 + 256 : n;
        float acc[256];
        for (int64_t j = j0; j < j1; j++)
            acc[j - j0] = 0.0f;
        for (int64_t p = 0; p < m; p++) {
            const float xp = x[p];
            const float *ar = a + p * lda;
#pragma omp simd
            for (int64_t j = j0; j < j1; j++)
                acc[j - j0] += xp * ar[j];
        }
        for (int64_t j = j0; j < j1; j++)
            y[j] = beta == 0.0f ? alpha * acc[j - j0] : alpha * acc[j - j0] + beta * y[j];
    }
    return GPUK_OK;
}


/* ---- OpenBLAS ---- */

#ifdef HAVE_OPENBLAS

CPU_KERNEL(dot_openblas)
{
    int64_t n = args->in[0].shape[0];
    if (!cpu_fits_int(n))
        return dot_simd(b, args);
    cpu_openblas_threads(b);
    T_F32(&args->out)[0] = cblas_sdot((int)n, T_F32(&args->in[0]), 1, T_F32(&args->in[1]), 1);
    return GPUK_OK;
}

/* cblas_sgemv scales x by alpha before the products: with an infinite
 * entry in a and an x so small that alpha x underflows to 0, that gives
 * inf * 0 = NaN where alpha (a x) is inf.  So the library computes t = a x
 * (alpha 1, beta 0, into scratch) and alpha and beta are applied here, in
 * the order every other rung uses.  cblas rejects (and prints about) a
 * leading dimension below the row length, which a view with overlapping
 * rows can have: those calls take the simd rung. */
CPU_KERNEL(gemv_openblas)
{
    const gpuk_tdesc *ta = &args->in[0];
    int64_t m = ta->shape[0], n = ta->shape[1], lda = T_LD(ta);
    int64_t ny = args->trans_a ? n : m;
    float *y = T_F32(&args->out);
    if (cpu_alpha_zero(args, 1, ny))
        return GPUK_OK;
    if (m == 1)
        lda = n;
    if (lda < n || !cpu_fits_int(m) || !cpu_fits_int(n) || !cpu_fits_int(lda) || m == 0 || n == 0)
        return gemv_simd(b, args);
    float *t = malloc((size_t)ny * sizeof *t);
    if (!t)
        return cpu_fail(b, GPUK_ERR_NO_MEMORY, "gemv/openblas: no memory for %lld floats",
                        (long long)ny);
    cpu_openblas_threads(b);
    cblas_sgemv(CblasRowMajor, args->trans_a ? CblasTrans : CblasNoTrans, (int)m, (int)n, 1.0f,
                T_F32(ta), (int)lda, T_F32(&args->in[1]), 1, 0.0f, t, 1);
    for (int64_t i = 0; i < ny; i++)
        y[i] = args->beta == 0.0f ? args->alpha * t[i] : args->alpha * t[i] + args->beta * y[i];
    free(t);
    return GPUK_OK;
}

#endif

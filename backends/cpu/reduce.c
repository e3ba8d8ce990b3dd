/*
 * reduce.c - the reduce family on the CPU (tests/ops/reduce.c,
 * gpuk_reduce(3)): sum or mean of x[outer,len,inner] along len ->
 * out[outer,inner], and meanpool, the mean over tokens of x[b,t,d].
 * A sum over nothing is 0, a mean over nothing is NaN.
 *
 *   naive  one output at a time, a scalar accumulator walking len
 *   simd   OpenMP over outputs; unit-stride vector sums (inner == 1) or
 *          whole rows of inner accumulated as vectors (inner > 1)
 */
#include "config.h"

#include <math.h>

#include "cpu.h"

/* Divide the sums by len for a mean (NaN when len is 0). */
static void reduce_finish(const gpuk_args *args, int64_t len, float *out, int64_t count)
{
    if (args->reduce_kind != GPUK_REDUCE_MEAN)
        return;
    if (len == 0) {
        for (int64_t i = 0; i < count; i++)
            out[i] = NAN;
        return;
    }
    float inv = (float)len;
    for (int64_t i = 0; i < count; i++)
        out[i] /= inv;
}

/* naive: the textbook loop; with inner > 1 consecutive steps are inner
 * floats apart, one cache line per element. */
CPU_KERNEL(reduce_naive)
{
    const gpuk_tdesc *tx = &args->in[0];
    int64_t outer = tx->shape[0], len = tx->shape[1], inner = tx->shape[2];
    const float *x = T_F32(tx);
    float *out = T_F32(&args->out);
    for (int64_t o = 0; o < outer; o++)
        for (int64_t i = 0; i < inner; i++) {
            float acc = 0.0f;
            for (int64_t l = 0; l < len; l++)
                acc += x[(o * len + l) * inner + i];
            out[o * inner + i] = acc;
        }
    reduce_finish(args, len, out, outer * inner);
    return GPUK_OK;
}

/* ---- simd ---- */

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

/* Sum of n contiguous floats: four vector accumulators, masked tail. */
__attribute__((target("avx512f"))) static float sum_avx512(const float *x, int64_t n)
{
    __m512 s0 = _mm512_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
    int64_t i = 0;
    for (; i + 64 <= n; i += 64) {
        s0 = _mm512_add_ps(s0, _mm512_loadu_ps(x + i));
        s1 = _mm512_add_ps(s1, _mm512_loadu_ps(x + i + 16));
        s2 = _mm512_add_ps(s2, _mm512_loadu_ps(x + i + 32));
        s3 = _mm512_add_ps(s3, _mm512_loadu_ps(x + i + 48));
    }
    for (; i < n; i += 16) {
        __mmask16 mk = n - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (n - i)) - 1);
        s0 = _mm512_add_ps(s0, _mm512_maskz_loadu_ps(mk, x + i));
    }
    return _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(s0, s1), _mm512_add_ps(s2, s3)));
}

/* acc[0..n) += x[0..n) */
__attribute__((target("avx512f"))) static void accum_avx512(float *acc, const float *x, int64_t n)
{
    int64_t i = 0;
    for (; i + 16 <= n; i += 16)
        _mm512_storeu_ps(acc + i, _mm512_add_ps(_mm512_loadu_ps(acc + i), _mm512_loadu_ps(x + i)));
    if (i < n) {
        __mmask16 mk = (__mmask16)((1u << (n - i)) - 1);
        _mm512_mask_storeu_ps(acc + i, mk,
                              _mm512_add_ps(_mm512_maskz_loadu_ps(mk, acc + i),
                                            _mm512_maskz_loadu_ps(mk, x + i)));
    }
}

__attribute__((target("avx2"))) static float sum_avx2(const float *x, int64_t n)
{
    __m256 s0 = _mm256_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
    int64_t i = 0;
    for (; i + 32 <= n; i += 32) {
        s0 = _mm256_add_ps(s0, _mm256_loadu_ps(x + i));
        s1 = _mm256_add_ps(s1, _mm256_loadu_ps(x + i + 8));
        s2 = _mm256_add_ps(s2, _mm256_loadu_ps(x + i + 16));
        s3 = _mm256_add_ps(s3, _mm256_loadu_ps(x + i + 24));
    }
    float lanes[8], r = 0.0f;
    _mm256_storeu_ps(lanes, _mm256_add_ps(_mm256_add_ps(s0, s1), _mm256_add_ps(s2, s3)));
    for (int l = 0; l < 8; l++)
        r += lanes[l];
    for (; i < n; i++)
        r += x[i];
    return r;
}

__attribute__((target("avx2"))) static void accum_avx2(float *acc, const float *x, int64_t n)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(acc + i, _mm256_add_ps(_mm256_loadu_ps(acc + i), _mm256_loadu_ps(x + i)));
    for (; i < n; i++)
        acc[i] += x[i];
}
#endif

static float sum_scalar(const float *x, int64_t n)
{
    float s[8] = {0}, r = 0.0f;
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        for (int q = 0; q < 8; q++)
            s[q] += x[i + q];
    for (int q = 0; q < 8; q++)
        r += s[q];
    for (; i < n; i++)
        r += x[i];
    return r;
}

static void accum_scalar(float *acc, const float *x, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        acc[i] += x[i];
}

struct reduce_isa {
    float (*sum)(const float *, int64_t);
    void (*accum)(float *, const float *, int64_t);
};

static struct reduce_isa reduce_pick(gpuk_bctx *b)
{
    struct reduce_isa r = {sum_scalar, accum_scalar};
#if defined(__x86_64__) || defined(__i386__)
    if (b->isa == CPU_ISA_AVX512)
        r.sum = sum_avx512, r.accum = accum_avx512;
    else if (b->isa == CPU_ISA_AVX2)
        r.sum = sum_avx2, r.accum = accum_avx2;
#endif
    return r;
}

/* Column chunk of the inner > 1 case: up to 1024 floats of accumulators
 * (4 KiB) stay in L1 while len rows stream past; narrower (down to 64)
 * when that leaves fewer than 4 chunks per thread. */
#define RED_CHUNK 1024
#define RED_CHUNK_MIN 64
/* Fewer elements than this per thread are summed on one thread. */
#define RED_PAR_MIN 32768

void cpu_reduce_rows(gpuk_bctx *b, const float *x, int64_t outer, int64_t len, int64_t inner,
                     float *out, int mean)
{
    struct reduce_isa f = reduce_pick(b);
    int nt = outer * len * inner < RED_PAR_MIN ? 1 : b->nthreads;
    if (inner == 1 && outer < nt) {
        /* few long rows: split each row among the threads; partial sums are
         * added in thread order (same bits for a given thread count) */
        for (int64_t o = 0; o < outer; o++) {
            const float *row = x + o * len;
            float part[256];
            int cnt = nt > 256 ? 256 : nt;
#pragma omp parallel for num_threads(cnt) schedule(static)
            for (int t = 0; t < cnt; t++)
                part[t] = f.sum(row + len * t / cnt, len * (t + 1) / cnt - len * t / cnt);
            float s = 0.0f;
            for (int t = 0; t < cnt; t++)
                s += part[t];
            out[o] = s;
        }
    } else if (inner == 1) {
#pragma omp parallel for num_threads(nt) schedule(static)
        for (int64_t o = 0; o < outer; o++)
            out[o] = f.sum(x + o * len, len);
    } else {
        /* rows of inner floats added as vectors into an L1-resident slice */
        int64_t cw = RED_CHUNK;
        while (cw > RED_CHUNK_MIN && outer * ((inner + cw - 1) / cw) < 4 * (int64_t)nt)
            cw /= 2;
        int64_t chunks = (inner + cw - 1) / cw;
#pragma omp parallel for num_threads(nt) schedule(static) collapse(2)
        for (int64_t o = 0; o < outer; o++)
            for (int64_t c = 0; c < chunks; c++) {
                int64_t i0 = c * cw;
                int64_t w = inner - i0 < cw ? inner - i0 : cw;
                float *acc = out + o * inner + i0;
                for (int64_t i = 0; i < w; i++)
                    acc[i] = 0.0f;
                for (int64_t l = 0; l < len; l++)
                    f.accum(acc, x + (o * len + l) * inner + i0, w);
            }
    }
    if (mean) {
        float d = (float)len;
        for (int64_t i = 0; i < outer * inner; i++)
            out[i] = len ? out[i] / d : NAN;
    }
}

/* simd: OpenMP over outputs (or over a row, when there are fewer rows
 * than threads) and vector sums: AVX-512/AVX2 along a contiguous row when
 * inner == 1, else whole rows of inner added as vectors into a slice of
 * the output kept in L1. */
CPU_KERNEL(reduce_simd)
{
    const gpuk_tdesc *tx = &args->in[0];
    cpu_reduce_rows(b, T_F32(tx), tx->shape[0], tx->shape[1], tx->shape[2], T_F32(&args->out),
                    args->reduce_kind == GPUK_REDUCE_MEAN);
    return GPUK_OK;
}

/* ---- meanpool: x[b,t,d] -> out[b,d], the mean over t ---- */

/* naive: per output, walk t with a stride of d floats.  t == 0 gives NaN. */
CPU_KERNEL(meanpool_naive)
{
    const gpuk_tdesc *tx = &args->in[0];
    int64_t nb = tx->shape[0], t = tx->shape[1], d = tx->shape[2];
    const float *x = T_F32(tx);
    float *o = T_F32(&args->out);
    for (int64_t bi = 0; bi < nb; bi++)
        for (int64_t j = 0; j < d; j++) {
            float acc = 0.0f;
            for (int64_t s = 0; s < t; s++)
                acc += x[(bi * t + s) * d + j];
            o[bi * d + j] = t ? acc / (float)t : NAN;
        }
    return GPUK_OK;
}

/* meanpool simd: the vectorised column sums of reduce's simd rung (rows
 * of d floats added into an L1 slice of the output), OpenMP over batch
 * and slices. */
CPU_KERNEL(meanpool_simd)
{
    const gpuk_tdesc *tx = &args->in[0];
    cpu_reduce_rows(b, T_F32(tx), tx->shape[0], tx->shape[1], tx->shape[2], T_F32(&args->out), 1);
    return GPUK_OK;
}

/*
 * matmul_lowp.c - the matmul family (matmul, batched_matmul, gemm) with
 * f16 and bf16 inputs on the CPU (issue 27): products accumulate in f32;
 * the output, and matmul's bias, are f32 or the inputs' dtype, as the
 * output tensor says (gpuk/backend.h, ABI 2.4), rounded once at the end.
 *
 *   naive    convert-on-load triple loop in f32 (the shadow's reference)
 *   simd     operands staged to f32 (half.h's rows), then matmul's f32
 *            packed engine; a 16-bit output converted back once
 *   dpbf16   bf16 only: vdpbf16ps micro-kernels on k-pair packed panels
 *            (AVX512_BF16), else the simd rung
 *
 * Every rung takes one product in the general form of cpu_gemm_packed
 * (struct lowp below: element (i,p) of a at a[i*a_rs + p*a_cs], alpha,
 * beta, a bias); the three ops unpack their operands into it, so each
 * rung serves all three.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "half.h"
#include "simd.h"

/* One product c = alpha a.b + beta c (+ bias[j]); beta == 0 does not read
 * c; alpha == 0 never reaches a rung (lowp_alpha_zero). */
struct lowp {
    gpuk_dtype dt, odt;      /* the inputs' dtype, the output's (and bias') */
    int64_t m, n, k;
    const uint16_t *a;
    int64_t a_rs, a_cs;
    const uint16_t *b;
    int64_t b_rs, b_cs;
    float alpha, beta;
    const void *bias;        /* odt, n elements, or NULL */
    void *c;                 /* odt */
    int64_t ldc;
};
typedef gpuk_status (*lowp_fn)(gpuk_bctx *b, const struct lowp *g);

/* Bytes of an element of the dtypes here (a plugin links nothing of
 * libgpuk, so not gpuk_dtype_size). */
static size_t lowp_esize(gpuk_dtype dt)
{
    return dt == GPUK_F32 ? 4 : 2;
}

/* element i of an output-typed array as f32, and a store rounding once */
static float out_get(gpuk_dtype odt, const void *p, int64_t i)
{
    if (odt == GPUK_F32)
        return ((const float *)p)[i];
    return cpu_half_to_f32(odt, ((const uint16_t *)p)[i]);
}

static void out_put(gpuk_dtype odt, void *p, int64_t i, float v)
{
    if (odt == GPUK_F32)
        ((float *)p)[i] = v;
    else
        ((uint16_t *)p)[i] = cpu_f32_to_half(odt, v);
}

/* The epilogue of one finished f32 value: alpha acc + beta c + bias. */
static float lowp_finish(const struct lowp *g, float acc, int64_t i, int64_t j)
{
    float v = g->alpha == 1 ? acc : g->alpha * acc;
    if (g->beta != 0)
        v += g->beta * out_get(g->odt, g->c, i * g->ldc + j);
    if (g->bias)
        v += out_get(g->odt, g->bias, j);
    return v;
}

/* ---- naive ---- */

/* Rung 1: one dot product per output, each element converted to f32 as it
 * is loaded (B read down a column): the textbook loop, the reference the
 * others are checked against. */
#define LOWP_NAIVE(S)                                                                       \
    static void lowp_naive_##S(const struct lowp *g)                                       \
    {                                                                                       \
        for (int64_t i = 0; i < g->m; i++)                                                  \
            for (int64_t j = 0; j < g->n; j++) {                                            \
                float acc = 0;                                                              \
                const uint16_t *a = g->a + i * g->a_rs, *bm = g->b + j * g->b_cs;           \
                for (int64_t p = 0; p < g->k; p++)                                          \
                    acc += cpu_##S##_to_f32(a[p * g->a_cs]) * cpu_##S##_to_f32(bm[p * g->b_rs]); \
                out_put(g->odt, g->c, i * g->ldc + j, lowp_finish(g, acc, i, j));           \
            }                                                                               \
    }
LOWP_NAIVE(f16)
LOWP_NAIVE(bf16)

static gpuk_status lowp_naive(gpuk_bctx *b, const struct lowp *g)
{
    (void)b;
    if (g->dt == GPUK_F16)
        lowp_naive_f16(g);
    else
        lowp_naive_bf16(g);
    return GPUK_OK;
}

/* ---- simd: stage to f32, run the f32 engine ---- */

/* Staged f32 copies of a and b take at most this much; a longer k is
 * staged and multiplied a k-slice at a time (slices of whole engine
 * k-blocks, 512, so the roundings are those of one call). */
#define LOWP_STAGE_BYTES ((int64_t)64 << 20)
#define LOWP_STAGE_KGRAN 512
/* Conversions below this many elements run on one thread. */
#define LOWP_PAR_MIN ((int64_t)1 << 16)

/* rows x cols of dtype dt (row r at src + r*ld) to f32 rows of dst (dst_ld),
 * the rows over the threads when there are many elements */
static void stage_rows(gpuk_bctx *b, gpuk_dtype dt, const void *src, int64_t ld, int64_t rows,
                       int64_t cols, float *dst, int64_t dst_ld, int to_f32)
{
    size_t es = lowp_esize(dt);
    int nt = rows * cols >= LOWP_PAR_MIN && rows > 1 ? b->nthreads : 1;
#pragma omp parallel for num_threads(nt) schedule(static)
    for (int64_t r = 0; r < rows; r++) {
        char *s = (char *)src + (size_t)(r * ld) * es;
        if (to_f32)
            cpu_row_to_f32(b->isa, dt, s, dst + r * dst_ld, cols);
        else
            cpu_row_from_f32(b->isa, dt, dst + r * dst_ld, s, cols);
    }
}

/* The k-slice [p0, p0+kc) of an operand whose element (r,p) is at
 * x[r*rs + p*cs], staged in f32 keeping its stored layout: rows of r when
 * cs == 1 (stride kc), else rows of p (rs == 1: the transposed operand).
 * The engine's strides of the staged copy go to *srs, *scs. */
static void stage_operand(gpuk_bctx *b, gpuk_dtype dt, const uint16_t *x, int64_t rs,
                          int64_t cs, int64_t rows, int64_t p0, int64_t kc, float *dst,
                          int64_t *srs, int64_t *scs)
{
    if (cs == 1) {
        stage_rows(b, dt, x + p0, rs, rows, kc, dst, kc, 1);
        *srs = kc, *scs = 1;
    } else {
        stage_rows(b, dt, x + p0 * cs, cs, kc, rows, dst, rows, 1);
        *srs = 1, *scs = rows;
    }
}

/* Rung 2: the operands converted to f32 once (F16C or a shift, vectors of
 * 16), then matmul's f32 packed engine, whose 6 x 4 AVX-512 tiles reach
 * most of the FMA peak: O(mk + kn) conversions buy back the O(mkn) of the
 * naive loop's per-product ones and its column walk.  A 16-bit output is
 * accumulated in an f32 copy and rounded once at the end. */
static gpuk_status lowp_simd(gpuk_bctx *b, const struct lowp *g)
{
    int64_t m = g->m, n = g->n, k = g->k;
    int64_t kb = k;
    if ((m + n) * k * 4 > LOWP_STAGE_BYTES) {
        kb = LOWP_STAGE_BYTES / ((m + n) * 4) / LOWP_STAGE_KGRAN * LOWP_STAGE_KGRAN;
        kb = kb < LOWP_STAGE_KGRAN ? LOWP_STAGE_KGRAN : kb;
    }
    int wide = g->odt == GPUK_F32;
    float *a32 = cpu_scratch(b, (size_t)(m * (kb ? kb : 1)) * 4, "f32 copy of a");
    float *b32 = a32 ? cpu_scratch(b, (size_t)(n * (kb ? kb : 1)) * 4, "f32 copy of b") : NULL;
    float *c32 = NULL, *bias32 = NULL;
    gpuk_status st = GPUK_OK;
    if (b32 && !wide) {
        c32 = cpu_scratch(b, (size_t)(m * n) * 4, "f32 copy of c");
        if (c32 && g->bias)
            bias32 = cpu_scratch(b, (size_t)n * 4, "f32 copy of the bias");
    }
    if (!b32 || (!wide && (!c32 || (g->bias && !bias32)))) {
        st = GPUK_ERR_NO_MEMORY;
        goto out;
    }
    float *c = wide ? g->c : c32;
    int64_t ldc = wide ? g->ldc : n;
    const float *bias = wide ? g->bias : bias32;
    if (!wide) {
        if (g->beta != 0)
            stage_rows(b, g->odt, g->c, g->ldc, m, n, c32, n, 1);
        if (g->bias)
            cpu_row_to_f32(b->isa, g->odt, g->bias, bias32, n);
    }
    for (int64_t p0 = 0; st == GPUK_OK && (p0 == 0 || p0 < k); p0 += kb ? kb : 1) {
        int64_t kc = k - p0 < kb ? k - p0 : kb, ars, acs, brs, bcs;
        stage_operand(b, g->dt, g->a, g->a_rs, g->a_cs, m, p0, kc, a32, &ars, &acs);
        /* b's element (p,j) at b[p*b_rs + j*b_cs]: rows of p when b_cs == 1 */
        if (g->b_cs == 1) {
            stage_rows(b, g->dt, g->b + p0 * g->b_rs, g->b_rs, kc, n, b32, n, 1);
            brs = n, bcs = 1;
        } else {
            stage_rows(b, g->dt, g->b + p0, g->b_cs, n, kc, b32, kc, 1);
            brs = 1, bcs = kc;
        }
        st = cpu_gemm_packed_f32(b, m, n, kc, a32, ars, acs, b32, brs, bcs, g->alpha,
                                 p0 == 0 ? g->beta : 1.0f, p0 == 0 ? bias : NULL, c, ldc);
    }
    if (st == GPUK_OK && !wide)
        stage_rows(b, g->odt, g->c, g->ldc, m, n, c32, n, 0);
out:
    free(bias32);
    free(c32);
    free(b32);
    free(a32);
    return st;
}

/* ---- dpbf16: vdpbf16ps on k-pair packed panels ---- */

/* Blocks, in k-pairs and elements: the byte sizes of the f32 engine's
 * (matmul_packed.c): a KC x NR panel of B is 128 KiB there and here (1024
 * bf16 k-steps of 64 columns), so a 1024-long k is one block, and c is
 * written once, in its own dtype, with no f32 pass over it. */
#define DP_KC2 512            /* k-pairs of a block: 1024 k-steps */
#define DP_MC 192             /* rows of an A block */
#define DP_NC 4096            /* columns of a B block */
#define DP_MR 6
#define DP_NRV 4
#define DP_NR (16 * DP_NRV)   /* 64 columns */
#define DP_PAR_MIN ((int64_t)1 << 20)
/* Inputs whose nonzero magnitudes are all at least 2^-56 are multiples of
 * 2^-63, their products and every partial sum multiples of 2^-126: then
 * vdpbf16ps's flush of subnormal inputs and results (it ignores MXCSR)
 * changes nothing.  A smaller one sends the product to the simd rung. */
#define DP_TINY_EXP (127 - 56)

/* Is one of n bf16 in (0, 2^-56) in magnitude?  |x| - 1 below the bits
 * of 2^-56, less one, as unsigned 16-bit numbers (0 wraps to the top). */
static int dp_row_tiny(const uint16_t *s, int64_t n)
{
    unsigned acc = 0;
    for (int64_t q = 0; q < n; q++)
        acc |= (unsigned)((uint16_t)((s[q] & 0x7fffu) - 1u) < (DP_TINY_EXP << 7) - 1u);
    return acc != 0;
}

#ifdef CPU_X86
/* the same, 32 a step: the scan must cost little beside the product */
__attribute__((target("avx512f,avx512bw"))) static int dp_row_tiny_avx512(const uint16_t *s,
                                                                         int64_t n)
{
    const __m512i mag = _mm512_set1_epi16(0x7fff), one = _mm512_set1_epi16(1);
    const __m512i lim = _mm512_set1_epi16((short)((DP_TINY_EXP << 7) - 1));
    __mmask32 hit = 0;
    int64_t q = 0;
    for (; q + 32 <= n; q += 32) {
        __m512i v = _mm512_sub_epi16(_mm512_and_si512(_mm512_loadu_si512(s + q), mag), one);
        hit |= _mm512_cmplt_epu16_mask(v, lim);
    }
    return hit != 0 || dp_row_tiny(s + q, n - q);
}
#endif

/* Does one of rows x cols bf16 (row r at x + r*ld) lie in (0, 2^-56)?
 * (Run only where dpbf16 runs: AVX-512 is there.) */
static int dp_has_tiny(gpuk_bctx *b, const uint16_t *x, int64_t ld, int64_t rows, int64_t cols)
{
    int bad = 0;
    int nt = rows * cols >= LOWP_PAR_MIN && rows > 1 ? b->nthreads : 1;
#pragma omp parallel for num_threads(nt) schedule(static) reduction(| : bad)
    for (int64_t r = 0; r < rows; r++)
#ifdef CPU_X86
        bad |= dp_row_tiny_avx512(x + r * ld, cols);
#else
        bad |= dp_row_tiny(x + r * ld, cols);
#endif
    return bad;
}

static uint32_t load32(const uint16_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static uint32_t pair(uint16_t lo, uint16_t hi)
{
    return (uint32_t)lo | (uint32_t)hi << 16;
}

/* Rows [i0, i0+mc) x k [p0, p0+kc) of a into MR-tall panels of k-pairs:
 * pair q of row i is (a[i][p0+2q], a[i][p0+2q+1]) as one 32-bit word,
 * MR words a pair step; an odd kc ends with a 0 partner, rows past the
 * edge are 0. */
static void dp_pack_a(const struct lowp *g, int64_t i0, int64_t mc, int64_t p0, int64_t kc,
                      uint32_t *ap)
{
    int64_t kc2 = (kc + 1) / 2;
    for (int64_t ir = 0; ir < mc; ir += DP_MR) {
        int rows = mc - ir < DP_MR ? (int)(mc - ir) : DP_MR;
        for (int i = 0; i < DP_MR; i++) {
            uint32_t *d = ap + i;
            int64_t q = 0;
            if (i >= rows) {
                for (; q < kc2; q++)
                    d[q * DP_MR] = 0;
                continue;
            }
            const uint16_t *a = g->a + (i0 + ir + i) * g->a_rs + p0 * g->a_cs;
            if (g->a_cs == 1)
                for (; q < kc / 2; q++)
                    d[q * DP_MR] = load32(a + 2 * q);
            else
                for (; q < kc / 2; q++)
                    d[q * DP_MR] = pair(a[2 * q * g->a_cs], a[(2 * q + 1) * g->a_cs]);
            if (q < kc2)
                d[q * DP_MR] = pair(a[2 * q * g->a_cs], 0);
        }
        ap += kc2 * DP_MR;
    }
}

#ifdef CPU_X86
/* Two rows of 32 bf16 interleaved into 32 pairs: the column-pair layout
 * of a B panel, two vpermt2w. */
__attribute__((target("avx512f,avx512bw"))) static void dp_interleave32(const uint16_t *r0,
                                                                       const uint16_t *r1,
                                                                       uint32_t *d)
{
    static const uint16_t lo[32] = {0, 32, 1, 33, 2, 34, 3, 35, 4, 36, 5, 37, 6, 38, 7, 39,
                                    8, 40, 9, 41, 10, 42, 11, 43, 12, 44, 13, 45, 14, 46, 15, 47};
    __m512i il = _mm512_loadu_si512(lo);
    __m512i ih = _mm512_add_epi16(il, _mm512_set1_epi16(16));
    __m512i x = _mm512_loadu_si512(r0), y = _mm512_loadu_si512(r1);
    _mm512_storeu_si512(d, _mm512_permutex2var_epi16(x, il, y));
    _mm512_storeu_si512(d + 16, _mm512_permutex2var_epi16(x, ih, y));
}
#endif

/* The NR-wide panel of b from column j0, k [p0, p0+kc): pair step q holds
 * (b[p0+2q][j], b[p0+2q+1][j]) for the NR columns j, columns past n and
 * an odd kc's missing partner 0. */
static void dp_pack_b(const struct lowp *g, int64_t p0, int64_t kc, int64_t j0, uint32_t *bp)
{
    int64_t kc2 = (kc + 1) / 2;
    int cols = g->n - j0 < DP_NR ? (int)(g->n - j0) : DP_NR;
    for (int64_t q = 0; q < kc2; q++) {
        int64_t p = p0 + 2 * q;
        int two = p + 1 < p0 + kc;
        uint32_t *d = bp + q * DP_NR;
        int j = 0;
        if (g->b_cs == 1) {
            const uint16_t *r0 = g->b + p * g->b_rs + j0, *r1 = two ? r0 + g->b_rs : r0;
#ifdef CPU_X86
            if (two)
                for (; j + 32 <= cols; j += 32)
                    dp_interleave32(r0 + j, r1 + j, d + j);
#endif
            for (; j < cols; j++)
                d[j] = pair(r0[j], two ? r1[j] : 0);
        } else {
            for (; j < cols; j++) {
                const uint16_t *s = g->b + (j0 + j) * g->b_cs + p;
                d[j] = two ? load32(s) : pair(s[0], 0);
            }
        }
        for (; j < DP_NR; j++)
            d[j] = 0;
    }
}

/* What the tiles of one product share. */
struct dp_run {
    const struct lowp *g;
    float *acc_c;         /* partial sums between k-blocks: c itself (f32) or an f32 copy */
    int64_t acc_ld;
    const float *bias32;  /* the bias in f32, or NULL */
    enum cpu_isa isa;
};

/* The epilogue of an MR x NR tile t (f32, rows of DP_NR) at (i0, j0):
 * the first k-block adds beta c and the bias, later ones the partial sum;
 * the last writes c in its dtype, the others the f32 partial sums. */
static void dp_store(const struct dp_run *r, const float *t, int64_t i0, int64_t j0, int mr,
                     int nr, int first, int last)
{
    const struct lowp *g = r->g;
    size_t oes = lowp_esize(g->odt);
    float row[DP_NR], old[DP_NR];
    for (int i = 0; i < mr; i++) {
        const float *ti = t + i * DP_NR;
        /* the f32 partial sums, there only between k-blocks */
        float *pc = first && last ? NULL : r->acc_c + (i0 + i) * r->acc_ld + j0;
        char *oc = (char *)g->c + (size_t)((i0 + i) * g->ldc + j0) * oes;
        for (int j = 0; j < nr; j++)
            row[j] = g->alpha == 1 ? ti[j] : g->alpha * ti[j];
        if (first && g->beta != 0) {
            cpu_row_to_f32(r->isa, g->odt, oc, old, nr);
            for (int j = 0; j < nr; j++)
                row[j] += g->beta * old[j];
        } else if (!first) {
            for (int j = 0; j < nr; j++)
                row[j] += pc[j];
        }
        if (first && r->bias32)
            for (int j = 0; j < nr; j++)
                row[j] += r->bias32[j0 + j];
        if (last)
            cpu_row_from_f32(r->isa, g->odt, row, oc, nr);
        else
            memcpy(pc, row, (size_t)nr * 4);
    }
}

#ifdef CPU_X86
/* Rung 3: vdpbf16ps multiplies 16 pairs of bf16 and adds both products to
 * an f32 lane in one instruction, at the FMA's rate: twice the flops of
 * vfmadd231ps, with no conversion at all.  The tile is the f32 engine's
 * 6 x 4 vectors (24 accumulators, 4 B vectors, a broadcast pair: 29 zmm),
 * each step now two k-steps: one 32-bit broadcast of a row's pair per
 * row, 4 loads of B's interleaved pairs, 24 dot instructions. */
__attribute__((target("avx512f,avx512bf16"))) static void dp_tile(const struct dp_run *r,
                                                                  int64_t kc2,
                                                                  const uint32_t *ap,
                                                                  const uint32_t *bp,
                                                                  int64_t i0, int64_t j0, int mr,
                                                                  int nr, int first, int last)
{
    __m512 acc[DP_MR][DP_NRV];
#pragma GCC unroll 6
    for (int i = 0; i < DP_MR; i++)
#pragma GCC unroll 4
        for (int v = 0; v < DP_NRV; v++)
            acc[i][v] = _mm512_setzero_ps();
    for (int64_t q = 0; q < kc2; q++) {
        __m512bh bv[DP_NRV];
#pragma GCC unroll 4
        for (int v = 0; v < DP_NRV; v++)
            bv[v] = (__m512bh)_mm512_loadu_si512(bp + v * 16);
#pragma GCC unroll 6
        for (int i = 0; i < DP_MR; i++) {
            __m512bh av = (__m512bh)_mm512_set1_epi32((int)ap[i]);
#pragma GCC unroll 4
            for (int v = 0; v < DP_NRV; v++)
                acc[i][v] = _mm512_dpbf16_ps(acc[i][v], av, bv[v]);
        }
        ap += DP_MR;
        bp += DP_NR;
    }
    float t[DP_MR * DP_NR];
#pragma GCC unroll 6
    for (int i = 0; i < DP_MR; i++)
#pragma GCC unroll 4
        for (int v = 0; v < DP_NRV; v++)
            _mm512_storeu_ps(t + i * DP_NR + v * 16, acc[i][v]);
    dp_store(r, t, i0, j0, mr, nr, first, last);
}

/* The threaded, blocked driver of matmul_packed.c's cpu_packed_run, on
 * k-pair panels: threads split the rows of c (or its columns when there
 * are few rows), share the packing of each B block, pack their own A. */
static gpuk_status dp_run(gpuk_bctx *b, const struct lowp *g, const struct dp_run *r)
{
    int64_t m = g->m, n = g->n, k = g->k;
    int nt = m * n * k < DP_PAR_MIN ? 1 : b->nthreads;
    int tm = m >= (int64_t)nt * DP_MR * 2 ? nt : 1, tn = nt / tm;
    int64_t kc2_max = (k + 1) / 2 < DP_KC2 ? (k + 1) / 2 : DP_KC2;
    int64_t nc_max = n < DP_NC ? n : DP_NC;
    int64_t mc_max = DP_MC / DP_MR * DP_MR;
    int64_t npanels = (nc_max + DP_NR - 1) / DP_NR;
    uint32_t *bpk = cpu_scratch(b, (size_t)(npanels * DP_NR * kc2_max) * 4, "packed B");
    uint32_t *apk = bpk ? cpu_scratch(b, (size_t)nt * (size_t)(mc_max * kc2_max) * 4, "packed A")
                        : NULL;
    if (!apk) {
        free(bpk);
        return GPUK_ERR_NO_MEMORY;
    }
#pragma omp parallel num_threads(nt)
    {
        int id = CPU_THREAD_NUM();
        int ti = id % tm, tj = id / tm;
        int64_t mt = (m + DP_MR - 1) / DP_MR;
        int64_t r0 = mt * ti / tm * DP_MR, r1 = mt * (ti + 1) / tm * DP_MR;
        r1 = r1 < m ? r1 : m;
        uint32_t *ap = apk + (size_t)id * (size_t)(mc_max * kc2_max);
        for (int64_t jc = 0; jc < n; jc += DP_NC) {
            int64_t nc = n - jc < DP_NC ? n - jc : DP_NC;
            int64_t np = (nc + DP_NR - 1) / DP_NR;
            int64_t q0 = np * tj / tn, q1 = np * (tj + 1) / tn;
            for (int64_t pc = 0; pc < k; pc += 2 * DP_KC2) {
                int64_t kc = k - pc < 2 * DP_KC2 ? k - pc : 2 * DP_KC2, kc2 = (kc + 1) / 2;
#pragma omp for schedule(static)
                for (int64_t q = 0; q < np; q++)
                    dp_pack_b(g, pc, kc, jc + q * DP_NR, bpk + q * DP_NR * kc2);
                for (int64_t ic = r0; ic < r1; ic += mc_max) {
                    int64_t mc = r1 - ic < mc_max ? r1 - ic : mc_max;
                    dp_pack_a(g, ic, mc, pc, kc, ap);
                    for (int64_t q = q0; q < q1; q++) {
                        int64_t j = jc + q * DP_NR;
                        int nr = n - j < DP_NR ? (int)(n - j) : DP_NR;
                        for (int64_t ir = 0; ir < mc; ir += DP_MR) {
                            int mr = mc - ir < DP_MR ? (int)(mc - ir) : DP_MR;
                            dp_tile(r, kc2, ap + ir * kc2, bpk + q * DP_NR * kc2, ic + ir, j,
                                    mr, nr, pc == 0, pc + kc >= k);
                        }
                    }
                }
#pragma omp barrier
            }
        }
    }
    free(apk);
    free(bpk);
    return GPUK_OK;
}
#endif

static int dp_available(const gpuk_bctx *b)
{
#ifdef CPU_X86
    return b->isa == CPU_ISA_AVX512 && __builtin_cpu_supports("avx512bf16");
#else
    (void)b;
    return 0;
#endif
}

/* The operand's stored rows: rows x cols at x with leading dimension ld. */
static int dp_operand_tiny(gpuk_bctx *b, const uint16_t *x, int64_t rs, int64_t cs, int64_t r,
                           int64_t q)
{
    return cs == 1 ? dp_has_tiny(b, x, rs, r, q) : dp_has_tiny(b, x, cs, q, r);
}

static gpuk_status lowp_dpbf16(gpuk_bctx *b, const struct lowp *g)
{
    /* without AVX512_BF16 (or with GPUK_CPU_ISA below avx512), with k = 0,
     * or with inputs small enough for the flush to show: the simd rung */
    if (!dp_available(b) || g->dt != GPUK_BF16 || g->k == 0 ||
        dp_operand_tiny(b, g->a, g->a_rs, g->a_cs, g->m, g->k) ||
        dp_operand_tiny(b, g->b, g->b_rs, g->b_cs, g->k, g->n))
        return lowp_simd(b, g);
#ifdef CPU_X86
    struct dp_run r = {g, (float *)g->c, g->ldc, NULL, b->isa};
    float *tmp = NULL, *bias32 = NULL;
    if (g->odt != GPUK_F32 && g->k > 2 * DP_KC2) {
        tmp = cpu_scratch(b, (size_t)(g->m * g->n) * 4, "f32 partial sums of c");
        if (!tmp)
            return GPUK_ERR_NO_MEMORY;
        r.acc_c = tmp, r.acc_ld = g->n;
    }
    if (g->bias && g->odt != GPUK_F32) {
        bias32 = cpu_scratch(b, (size_t)g->n * 4, "f32 copy of the bias");
        if (!bias32) {
            free(tmp);
            return GPUK_ERR_NO_MEMORY;
        }
        cpu_row_to_f32(b->isa, g->odt, g->bias, bias32, g->n);
    }
    r.bias32 = bias32 ? bias32 : g->bias;
    gpuk_status st = dp_run(b, g, &r);
    free(bias32);
    free(tmp);
    return st;
#else
    return lowp_simd(b, g);
#endif
}

/* ---- the ops: their operands as one struct lowp ---- */

/* alpha == 0 (gemm): c = beta c, or 0 without reading it (the BLAS
 * convention of blas.c's cpu_alpha_zero, in the output's dtype). */
static void lowp_alpha_zero(const struct lowp *g)
{
    for (int64_t i = 0; i < g->m; i++)
        for (int64_t j = 0; j < g->n; j++)
            out_put(g->odt, g->c, i * g->ldc + j,
                    g->beta == 0 ? 0.0f : g->beta * out_get(g->odt, g->c, i * g->ldc + j));
}

static gpuk_status matmul_lowp(gpuk_bctx *b, const gpuk_args *args, lowp_fn fn)
{
    const gpuk_tdesc *a = &args->in[0], *bm = &args->in[1], *c = &args->out;
    struct lowp g = {args->dtype, c->dtype, a->shape[0], bm->shape[1], a->shape[1],
                     a->data, T_LD(a), 1, bm->data, T_LD(bm), 1, 1.0f, 0.0f,
                     args->has_bias ? args->in[2].data : NULL, c->data, T_LD(c)};
    return fn(b, &g);
}

/* Batch entries one after the other through fn, each on every thread;
 * small products one per thread instead (matmul.c's bmm_simd says why). */
#define LOWP_BMM_SPLIT_MIN ((int64_t)1 << 21)

/* Entry z of a batch whose entry 0 is *g (batch strides from args). */
static struct lowp bmm_entry(const struct lowp *g, const gpuk_args *args, int64_t z)
{
    size_t ies = lowp_esize(args->dtype), oes = lowp_esize(args->out.dtype);
    struct lowp e = *g;
    e.a = (const uint16_t *)((const char *)g->a + (size_t)(z * args->in[0].stride[0]) * ies);
    e.b = (const uint16_t *)((const char *)g->b + (size_t)(z * args->in[1].stride[0]) * ies);
    e.c = (char *)g->c + (size_t)(z * args->out.stride[0]) * oes;
    return e;
}

static gpuk_status bmm_lowp(gpuk_bctx *b, const gpuk_args *args, lowp_fn fn)
{
    const gpuk_tdesc *a = &args->in[0], *bm = &args->in[1], *c = &args->out;
    int64_t nb = c->shape[0];
    struct lowp g = {args->dtype, c->dtype, c->shape[1], c->shape[2], a->shape[2],
                     a->data, a->stride[1], 1, bm->data, bm->stride[1], 1, 1.0f, 0.0f,
                     NULL, c->data, c->stride[1]};
    if (b->nthreads == 1 || nb == 1 || fn == lowp_naive ||
        g.m * g.n * (g.k > 0 ? g.k : 1) >= LOWP_BMM_SPLIT_MIN) {
        for (int64_t z = 0; z < nb; z++) {
            struct lowp e = bmm_entry(&g, args, z);
            gpuk_status st = fn(b, &e);
            if (st != GPUK_OK)
                return st;
        }
        return GPUK_OK;
    }
    gpuk_status first_err = GPUK_OK;
#pragma omp parallel num_threads(b->nthreads)
    {
        /* a private one-thread context: the rung's parallel regions then
         * run on this thread alone */
        gpuk_bctx one = *b;
        one.nthreads = 1;
#pragma omp for schedule(dynamic, 1)
        for (int64_t z = 0; z < nb; z++) {
            struct lowp e = bmm_entry(&g, args, z);
            gpuk_status st = fn(&one, &e);
            if (st != GPUK_OK) {
#pragma omp critical(gpuk_cpu_bmm_lowp_err)
                if (first_err == GPUK_OK) {
                    first_err = st;
                    memcpy(b->err, one.err, sizeof b->err);
                }
            }
        }
    }
    return first_err;
}

/* gemm: a transpose is a swap of a's (b's) strides. */
static gpuk_status gemm_lowp(gpuk_bctx *b, const gpuk_args *args, lowp_fn fn)
{
    const gpuk_tdesc *ta = &args->in[0], *tb = &args->in[1], *tc = &args->out;
    int64_t lda = T_LD(ta), ldb = T_LD(tb);
    struct lowp g = {args->dtype, tc->dtype, tc->shape[0], tc->shape[1],
                     args->trans_a ? ta->shape[0] : ta->shape[1],
                     ta->data, args->trans_a ? 1 : lda, args->trans_a ? lda : 1,
                     tb->data, args->trans_b ? 1 : ldb, args->trans_b ? ldb : 1,
                     args->alpha, args->beta, NULL, tc->data, T_LD(tc)};
    if (g.alpha == 0) {
        lowp_alpha_zero(&g);
        return GPUK_OK;
    }
    return fn(b, &g);
}

#define LOWP_KERNELS(rung)                              \
    CPU_KERNEL(matmul_lowp_##rung)                      \
    {                                                   \
        return matmul_lowp(b, args, lowp_##rung);       \
    }                                                   \
    CPU_KERNEL(bmm_lowp_##rung)                         \
    {                                                   \
        return bmm_lowp(b, args, lowp_##rung);          \
    }                                                   \
    CPU_KERNEL(gemm_lowp_##rung)                        \
    {                                                   \
        return gemm_lowp(b, args, lowp_##rung);         \
    }
LOWP_KERNELS(naive)
LOWP_KERNELS(simd)
LOWP_KERNELS(dpbf16)

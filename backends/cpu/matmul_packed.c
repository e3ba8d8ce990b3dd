/*
 * matmul_packed.c - the packed engine behind the simd rungs of the matmul
 * family (matmul, batched_matmul, gemm) and min-plus packed: packing,
 * the threaded blocked driver and the register micro-kernels.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cpu.h"

/*
 * Rung 3: simd.  The BLIS/GotoBLAS structure:
 *   - a KC x NC block of B (256 x up to 4096) is packed into NR-wide
 *     panels (each k-step of a panel is NR contiguous floats), shared by
 *     all threads, which pack a slice each;
 *   - each thread packs an MC x KC block of its rows of A (192 x 256) into
 *     MR-tall panels, kept in L2;
 *   - a micro-kernel holds an MR x NR tile of C in vector registers and
 *     runs the whole KC loop with one broadcast per row of A and NR/W
 *     vector loads of B per step, so every loaded value feeds MR or NR/W
 *     FMAs instead of one.
 * Micro-kernels: AVX-512 12 x 32 (24 zmm accumulators), AVX2 6 x 16 (12
 * ymm accumulators), picked per context from the CPU's features.  Tiles
 * at the edges are padded with zeros when packed and written back through
 * a small buffer.  The summation order within each k-block is still k
 * ascending, so the error bound is that of the naive loop.
 * (Tried: one independent block of C per thread, B blocks of 512 columns
 * in each core's L2, no barriers.  On 16 Xeon cores it packed 4x more and
 * ran n = 2048 at 740-940 GFLOP/s against 1090-1140 for this shared-B
 * form; on 2 cores they tied.)
 */
#define SIMD_KC 256
#define SIMD_MC 192
#define SIMD_NC 4096

/* What a micro-kernel does with its tile: on the first k-block
 * c = alpha*acc (+ beta*c when beta != 0) (+ bias[j]); on later blocks
 * c += alpha*acc.  matmul uses alpha = 1, beta = 0; gemm (blas.c) all. */
struct sg_epi {
    float alpha, beta;
    const float *bias; /* NULL or bias[j0..] of this tile */
};

/* The epilogue for one row segment of a tile, scalar (edges, portable). */
static void tile_store_edge(const float *t, int nrfull, float *c, int64_t ldc, int mr, int nr,
                            int first, const struct sg_epi *e)
{
    for (int i = 0; i < mr; i++)
        for (int j = 0; j < nr; j++) {
            float v = e->alpha * t[i * nrfull + j];
            float *cij = &c[i * ldc + j];
            if (first) {
                if (e->beta != 0.0f)
                    v += e->beta * *cij;
                *cij = e->bias ? v + e->bias[j] : v;
            } else
                *cij += v;
        }
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

__attribute__((target("avx512f"))) static void
sgemm_avx512_12x32(int64_t kc, const float *ap, const float *bp, float *c, int64_t ldc, int mr,
                   int nr, int first, const struct sg_epi *e)
{
    __m512 acc[12][2];
#pragma GCC unroll 12
    for (int i = 0; i < 12; i++)
        acc[i][0] = acc[i][1] = _mm512_setzero_ps();
    for (int64_t p = 0; p < kc; p++) {
        __m512 b0 = _mm512_load_ps(bp), b1 = _mm512_load_ps(bp + 16);
#pragma GCC unroll 12
        for (int i = 0; i < 12; i++) {
            __m512 av = _mm512_set1_ps(ap[i]);
            acc[i][0] = _mm512_fmadd_ps(av, b0, acc[i][0]);
            acc[i][1] = _mm512_fmadd_ps(av, b1, acc[i][1]);
        }
        ap += 12;
        bp += 32;
    }
    if (mr == 12 && nr == 32) {
        __m512 al = _mm512_set1_ps(e->alpha), be = _mm512_set1_ps(e->beta);
        __m512 bias0 = _mm512_setzero_ps(), bias1 = _mm512_setzero_ps();
        if (first && e->bias) {
            bias0 = _mm512_loadu_ps(e->bias);
            bias1 = _mm512_loadu_ps(e->bias + 16);
        }
        int scaled = e->alpha != 1.0f, readc = !first || e->beta != 0.0f;
#pragma GCC unroll 12
        for (int i = 0; i < 12; i++) {
            float *ci = c + i * ldc;
            __m512 v0 = scaled ? _mm512_mul_ps(al, acc[i][0]) : acc[i][0];
            __m512 v1 = scaled ? _mm512_mul_ps(al, acc[i][1]) : acc[i][1];
            if (readc) {
                __m512 c0 = _mm512_loadu_ps(ci), c1 = _mm512_loadu_ps(ci + 16);
                if (first) {
                    c0 = _mm512_mul_ps(be, c0);
                    c1 = _mm512_mul_ps(be, c1);
                }
                v0 = _mm512_add_ps(v0, c0);
                v1 = _mm512_add_ps(v1, c1);
            }
            if (first) {
                v0 = _mm512_add_ps(v0, bias0);
                v1 = _mm512_add_ps(v1, bias1);
            }
            _mm512_storeu_ps(ci, v0);
            _mm512_storeu_ps(ci + 16, v1);
        }
        return;
    }
    float t[12 * 32];
    for (int i = 0; i < 12; i++) {
        _mm512_storeu_ps(t + i * 32, acc[i][0]);
        _mm512_storeu_ps(t + i * 32 + 16, acc[i][1]);
    }
    tile_store_edge(t, 32, c, ldc, mr, nr, first, e);
}

__attribute__((target("avx2,fma"))) static void
sgemm_avx2_6x16(int64_t kc, const float *ap, const float *bp, float *c, int64_t ldc, int mr,
                int nr, int first, const struct sg_epi *e)
{
    __m256 acc[6][2];
#pragma GCC unroll 6
    for (int i = 0; i < 6; i++)
        acc[i][0] = acc[i][1] = _mm256_setzero_ps();
    for (int64_t p = 0; p < kc; p++) {
        __m256 b0 = _mm256_load_ps(bp), b1 = _mm256_load_ps(bp + 8);
#pragma GCC unroll 6
        for (int i = 0; i < 6; i++) {
            __m256 av = _mm256_broadcast_ss(ap + i);
            acc[i][0] = _mm256_fmadd_ps(av, b0, acc[i][0]);
            acc[i][1] = _mm256_fmadd_ps(av, b1, acc[i][1]);
        }
        ap += 6;
        bp += 16;
    }
    float t[6 * 16];
    for (int i = 0; i < 6; i++) {
        _mm256_storeu_ps(t + i * 16, acc[i][0]);
        _mm256_storeu_ps(t + i * 16 + 8, acc[i][1]);
    }
    tile_store_edge(t, 16, c, ldc, mr, nr, first, e);
}
#endif

/* The portable micro-kernel (4 x 8) for CPUs without AVX2: same packing,
 * the compiler's own vectorisation. */
static void sgemm_scalar_4x8(int64_t kc, const float *ap, const float *bp, float *c,
                             int64_t ldc, int mr, int nr, int first, const struct sg_epi *e)
{
    float t[4 * 8] = {0};
    for (int64_t p = 0; p < kc; p++) {
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 8; j++)
                t[i * 8 + j] += ap[i] * bp[j];
        ap += 4;
        bp += 8;
    }
    tile_store_edge(t, 8, c, ldc, mr, nr, first, e);
}

typedef void (*ukernel_fn)(int64_t kc, const float *ap, const float *bp, float *c, int64_t ldc,
                           int mr, int nr, int first, const struct sg_epi *e);

void cpu_pack_a(const float *a, int64_t rs, int64_t cs, int64_t i0, int64_t mc, int64_t p0,
                int64_t kc, int mr_, float *ap)
{
    for (int64_t ir = 0; ir < mc; ir += mr_) {
        int rows = mc - ir < mr_ ? (int)(mc - ir) : mr_;
        const float *src = a + (i0 + ir) * rs + p0 * cs;
        /* k-step by k-step: the panel is written sequentially while the
         * MR source rows are read as MR sequential streams */
        for (int64_t p = 0; p < kc; p++) {
            float *dst = ap + p * mr_;
            int i = 0;
            for (; i < rows; i++)
                dst[i] = src[i * rs + p * cs];
            for (; i < mr_; i++)
                dst[i] = 0.0f;
        }
        ap += kc * mr_;
    }
}

void cpu_pack_b_panel(const float *bm, int64_t rs, int64_t cs, int64_t p0, int64_t kc,
                      int64_t j0, int64_t n, int nr_, float *bp)
{
    int cols = n - j0 < nr_ ? (int)(n - j0) : nr_;
    for (int64_t p = 0; p < kc; p++) {
        const float *src = bm + (p0 + p) * rs + j0 * cs;
        float *dst = bp + p * nr_;
        int j = 0;
        if (cs == 1)
            for (; j < cols; j++)
                dst[j] = src[j];
        else
            for (; j < cols; j++)
                dst[j] = src[j * cs];
        for (; j < nr_; j++)
            dst[j] = 0.0f;
    }
}

/* Products smaller than this (multiply-adds) run on one thread. */
#define SIMD_PAR_MIN ((int64_t)1 << 18)

gpuk_status cpu_packed_run(gpuk_bctx *b, const struct cpu_packed *pp)
{
    int64_t m = pp->m, n = pp->n, k = pp->k;
    int MR = pp->mr, NR = pp->nr;
    int nt = m * n * k < SIMD_PAR_MIN ? 1 : b->nthreads;
    /* Threads split the rows of C when there are enough of them, else the
     * columns; each packs the rows of A it needs itself. */
    int tm = m >= (int64_t)nt * MR * 2 ? nt : 1, tn = nt / tm;
    int64_t nc_max = n < SIMD_NC ? n : SIMD_NC;
    int64_t kc_max = k < SIMD_KC ? k : SIMD_KC;
    int64_t mc_max = SIMD_MC / MR * MR; /* whole panels per A block */
    int64_t npanels = (nc_max + NR - 1) / NR;
    float *bpk = cpu_scratch(b, (size_t)(npanels * NR * kc_max) * sizeof(float), "packed B");
    float *apk = bpk ? cpu_scratch(b, (size_t)nt * (size_t)(mc_max * kc_max) * sizeof(float),
                                   "packed A")
                     : NULL;
    if (!apk) {
        free(bpk);
        return GPUK_ERR_NO_MEMORY;
    }
#pragma omp parallel num_threads(nt)
    {
        int id = 0;
#ifdef _OPENMP
        id = omp_get_thread_num();
#endif
        int ti = id % tm, tj = id / tm;
        /* this thread's rows [r0, r1): whole MR tiles */
        int64_t mt = (m + MR - 1) / MR;
        int64_t r0 = mt * ti / tm * MR, r1 = mt * (ti + 1) / tm * MR;
        r1 = r1 < m ? r1 : m;
        float *ap = apk + (size_t)id * (size_t)(mc_max * kc_max);
        for (int64_t jc = 0; jc < n; jc += SIMD_NC) {
            int64_t nc = n - jc < SIMD_NC ? n - jc : SIMD_NC;
            int64_t np = (nc + NR - 1) / NR;
            /* this thread's column panels [q0, q1) */
            int64_t q0 = np * tj / tn, q1 = np * (tj + 1) / tn;
            for (int64_t pc = 0; pc < k; pc += SIMD_KC) {
                int64_t kc = k - pc < SIMD_KC ? k - pc : SIMD_KC;
                /* all threads pack the shared B block, a slice each */
#pragma omp for schedule(static)
                for (int64_t q = 0; q < np; q++)
                    cpu_pack_b_panel(pp->b, pp->b_rs, pp->b_cs, pc, kc, jc + q * NR, n, NR,
                                     bpk + q * NR * kc);
                for (int64_t ic = r0; ic < r1; ic += mc_max) {
                    int64_t mc = r1 - ic < mc_max ? r1 - ic : mc_max;
                    cpu_pack_a(pp->a, pp->a_rs, pp->a_cs, ic, mc, pc, kc, MR, ap);
                    for (int64_t q = q0; q < q1; q++) {
                        int64_t j = jc + q * NR;
                        int nr = n - j < NR ? (int)(n - j) : NR;
                        for (int64_t ir = 0; ir < mc; ir += MR) {
                            int mr = mc - ir < MR ? (int)(mc - ir) : MR;
                            pp->tile(pp->ctx, kc, ap + ir * kc, bpk + q * NR * kc,
                                     pp->c + (ic + ir) * pp->ldc + j, pp->ldc, mr, nr, pc == 0, j);
                        }
                    }
                }
                /* the B block is repacked next round only when all are done */
#pragma omp barrier
            }
        }
    }
    free(apk);
    free(bpk);
    return GPUK_OK;
}

/* The matmul/gemm tile: the micro-kernel with its epilogue. */
struct sg_ctx {
    ukernel_fn uk;
    float alpha, beta;
    const float *bias;
};

static void sgemm_tile(const void *ctx, int64_t kc, const float *ap, const float *bp, float *c,
                       int64_t ldc, int mr, int nr, int first, int64_t j)
{
    const struct sg_ctx *g = ctx;
    struct sg_epi e = {g->alpha, g->beta, g->bias ? g->bias + j : NULL};
    g->uk(kc, ap, bp, c, ldc, mr, nr, first, &e);
}

gpuk_status cpu_sgemm_packed(gpuk_bctx *b, int64_t m, int64_t n, int64_t k, const float *a,
                             int64_t a_rs, int64_t a_cs, const float *bm, int64_t b_rs,
                             int64_t b_cs, float alpha, float beta, const float *bias, float *c,
                             int64_t ldc)
{
    if (k == 0) {
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) {
                float v = beta != 0.0f ? beta * c[i * ldc + j] : 0.0f;
                c[i * ldc + j] = bias ? v + bias[j] : v;
            }
        return GPUK_OK;
    }
    struct sg_ctx g = {sgemm_scalar_4x8, alpha, beta, bias};
    struct cpu_packed pp = {m, n, k, a, a_rs, a_cs, bm, b_rs, b_cs, c, ldc, 4, 8, sgemm_tile, &g};
#if defined(__x86_64__) || defined(__i386__)
    if (b->isa == CPU_ISA_AVX512)
        g.uk = sgemm_avx512_12x32, pp.mr = 12, pp.nr = 32;
    else if (b->isa == CPU_ISA_AVX2)
        g.uk = sgemm_avx2_6x16, pp.mr = 6, pp.nr = 16;
#endif
    return cpu_packed_run(b, &pp);
}

gpuk_status cpu_sgemm_simd(gpuk_bctx *b, int64_t m, int64_t n, int64_t k,
                           const float *a, int64_t lda, const float *bm, int64_t ldb,
                           const float *bias, float *c, int64_t ldc)
{
    return cpu_sgemm_packed(b, m, n, k, a, lda, 1, bm, ldb, 1, 1.0f, 0.0f, bias, c, ldc);
}

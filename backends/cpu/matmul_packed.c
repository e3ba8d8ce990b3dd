/*
 * matmul_packed.c - the packed engine behind the simd rungs of the matmul
 * family (matmul, batched_matmul, gemm) and min-plus packed: packing,
 * the threaded blocked driver and the register micro-kernels, in f32 and
 * f64 from one source (dtype.h).
 *
 * The BLIS/GotoBLAS structure:
 *   - a KC x NC block of B (512 x up to 16 KiB of a row) is packed into
 *     NR-wide panels (each k-step of a panel is NR contiguous elements),
 *     shared by all threads, which pack a slice each;
 *   - each thread packs an MC x KC block of its rows of A (192 x 512) into
 *     MR-tall panels, kept in L2;
 *   - a micro-kernel holds an MR x NR tile of C in vector registers and
 *     runs the whole KC loop with one broadcast per row of A and NR/W
 *     vector loads of B per step, so every loaded value feeds MR or NR/W
 *     FMAs instead of one.
 * Micro-kernels, one macro for every (type, ISA): AVX-512 6 rows x 4
 * vectors (6 x 64 floats, 6 x 32 doubles: 24 zmm accumulators), AVX2
 * 6 x 2 vectors (6 x 16 floats, 6 x 8 doubles: 12 ymm accumulators),
 * picked per context from the CPU's features.  Tiles at the edges are
 * padded with zeros when packed and written back through a small buffer.
 * The summation order within each k-block is still k ascending, so the
 * error bound is that of the naive loop.
 * (Tried: one independent block of C per thread, B blocks of 512 columns
 * in each core's L2, no barriers.  On 16 Xeon cores it packed 4x more and
 * ran n = 2048 at 740-940 GFLOP/s against 1090-1140 for this shared-B
 * form; on 2 cores they tied.)
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "simd.h"

/* Blocks: KC k-steps, MC rows of A, and a B block NC_BYTES wide (4096
 * floats, 2048 doubles).  KC was 256 with 12 x 2 tiles (the B panel a
 * micro-kernel streams, KC x NR elements, then fit L1); with 6 x 4 tiles
 * 512 was faster at n = 1024 and 2048 though the panel (128 KiB of
 * doubles) lives in L2: half the passes over C (bench/NOTES.md, "f64 on
 * the CPU"). */
#define SIMD_KC 512
#define SIMD_MC 192
#define SIMD_NC_BYTES 16384

/* ---- packing: a move of bits, one routine per element size ---- */

#define PACK_FNS(U)                                                                         \
    static void pack_a_##U(const U *a, int64_t rs, int64_t cs, int64_t i0, int64_t mc,      \
                           int64_t p0, int64_t kc, int mr_, U *ap)                          \
    {                                                                                       \
        for (int64_t ir = 0; ir < mc; ir += mr_) {                                          \
            int rows = mc - ir < mr_ ? (int)(mc - ir) : mr_;                                \
            const U *src = a + (i0 + ir) * rs + p0 * cs;                                    \
            /* k-step by k-step: the panel is written sequentially while  \
             * the MR source rows are read as MR sequential streams */                      \
            for (int64_t p = 0; p < kc; p++) {                                              \
                U *dst = ap + p * mr_;                                                      \
                int i = 0;                                                                  \
                for (; i < rows; i++)                                                       \
                    dst[i] = src[i * rs + p * cs];                                          \
                for (; i < mr_; i++)                                                        \
                    dst[i] = 0;                                                             \
            }                                                                               \
            ap += kc * mr_;                                                                 \
        }                                                                                   \
    }                                                                                       \
    static void pack_b_##U(const U *bm, int64_t rs, int64_t cs, int64_t p0, int64_t kc,     \
                           int64_t j0, int64_t n, int nr_, U *bp)                           \
    {                                                                                       \
        int cols = n - j0 < nr_ ? (int)(n - j0) : nr_;                                      \
        for (int64_t p = 0; p < kc; p++) {                                                  \
            const U *src = bm + (p0 + p) * rs + j0 * cs;                                    \
            U *dst = bp + p * nr_;                                                          \
            int j = 0;                                                                      \
            if (cs == 1)                                                                    \
                for (; j < cols; j++)                                                       \
                    dst[j] = src[j];                                                        \
            else                                                                            \
                for (; j < cols; j++)                                                       \
                    dst[j] = src[j * cs];                                                   \
            for (; j < nr_; j++)                                                            \
                dst[j] = 0;                                                                 \
        }                                                                                   \
    }
PACK_FNS(uint32_t)
PACK_FNS(uint64_t)

/* Rows [i0,i0+mc) x k-range [p0,p0+kc) of a into MR-tall panels (each
 * k-step of a panel is MR consecutive elements), rows past the edge 0. */
static void pack_a(size_t esize, const void *a, int64_t rs, int64_t cs, int64_t i0, int64_t mc,
                   int64_t p0, int64_t kc, int mr, void *ap)
{
    if (esize == 8)
        pack_a_uint64_t(a, rs, cs, i0, mc, p0, kc, mr, ap);
    else
        pack_a_uint32_t(a, rs, cs, i0, mc, p0, kc, mr, ap);
}

/* The NR-wide panel of b from column j0 (each k-step NR consecutive
 * elements), columns past n 0. */
static void pack_b(size_t esize, const void *bm, int64_t rs, int64_t cs, int64_t p0, int64_t kc,
                   int64_t j0, int64_t n, int nr, void *bp)
{
    if (esize == 8)
        pack_b_uint64_t(bm, rs, cs, p0, kc, j0, n, nr, bp);
    else
        pack_b_uint32_t(bm, rs, cs, p0, kc, j0, n, nr, bp);
}

/* ---- the driver ---- */

/* Products smaller than this (multiply-adds) run on one thread. */
#define SIMD_PAR_MIN ((int64_t)1 << 20)

gpuk_status cpu_packed_run(gpuk_bctx *b, const struct cpu_packed *pp)
{
    int64_t m = pp->m, n = pp->n, k = pp->k;
    size_t es = pp->esize;
    int MR = pp->mr, NR = pp->nr;
    int nt = m * n * k < SIMD_PAR_MIN ? 1 : b->nthreads;
    /* Threads split the rows of C when there are enough of them, else the
     * columns; each packs the rows of A it needs itself. */
    int tm = m >= (int64_t)nt * MR * 2 ? nt : 1, tn = nt / tm;
    int64_t nc_blk = SIMD_NC_BYTES / (int64_t)es;
    int64_t nc_max = n < nc_blk ? n : nc_blk;
    int64_t kc_max = k < SIMD_KC ? k : SIMD_KC;
    int64_t mc_max = SIMD_MC / MR * MR; /* whole panels per A block */
    int64_t npanels = (nc_max + NR - 1) / NR;
    char *bpk = cpu_scratch(b, (size_t)(npanels * NR * kc_max) * es, "packed B");
    char *apk = bpk ? cpu_scratch(b, (size_t)nt * (size_t)(mc_max * kc_max) * es, "packed A")
                    : NULL;
    if (!apk) {
        free(bpk);
        return GPUK_ERR_NO_MEMORY;
    }
    const char *a = pp->a, *bm = pp->b;
    char *c = pp->c;
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
        char *ap = apk + (size_t)id * (size_t)(mc_max * kc_max) * es;
        for (int64_t jc = 0; jc < n; jc += nc_blk) {
            int64_t nc = n - jc < nc_blk ? n - jc : nc_blk;
            int64_t np = (nc + NR - 1) / NR;
            /* this thread's column panels [q0, q1) */
            int64_t q0 = np * tj / tn, q1 = np * (tj + 1) / tn;
            for (int64_t pc = 0; pc < k; pc += SIMD_KC) {
                int64_t kc = k - pc < SIMD_KC ? k - pc : SIMD_KC;
                /* all threads pack the shared B block, a slice each */
#pragma omp for schedule(static)
                for (int64_t q = 0; q < np; q++)
                    pack_b(es, bm, pp->b_rs, pp->b_cs, pc, kc, jc + q * NR, n, NR,
                           bpk + (size_t)(q * NR * kc) * es);
                for (int64_t ic = r0; ic < r1; ic += mc_max) {
                    int64_t mc = r1 - ic < mc_max ? r1 - ic : mc_max;
                    pack_a(es, a, pp->a_rs, pp->a_cs, ic, mc, pc, kc, MR, ap);
                    for (int64_t q = q0; q < q1; q++) {
                        int64_t j = jc + q * NR;
                        int nr = n - j < NR ? (int)(n - j) : NR;
                        for (int64_t ir = 0; ir < mc; ir += MR) {
                            int mr = mc - ir < MR ? (int)(mc - ir) : MR;
                            pp->tile(pp->ctx, kc, ap + (size_t)(ir * kc) * es,
                                     bpk + (size_t)(q * NR * kc) * es,
                                     c + (size_t)((ic + ir) * pp->ldc + j) * es, pp->ldc, mr, nr,
                                     pc == 0, j);
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

/* ---- the matmul/gemm micro-kernels ---- */

/* What a micro-kernel does with its tile: on the first k-block
 * c = alpha*acc (+ beta*c when beta != 0) (+ bias[j]); on later blocks
 * c += alpha*acc.  matmul uses alpha = 1, beta = 0; gemm all. */
#define GEMM_EPI(DT, T, S, ...)                                                              \
    struct gemm_epi_##S {                                                                    \
        T alpha, beta;                                                                       \
        const T *bias; /* NULL or bias[j0..] of this tile */                                 \
    };                                                                                       \
    typedef void (*gemm_uk_##S)(int64_t kc, const T *ap, const T *bp, T *c, int64_t ldc,     \
                                int mr, int nr, int first, const struct gemm_epi_##S *e);    \
    /* the epilogue for the part of a tile inside c, scalar (edges, portable) */             \
    static void gemm_store_edge_##S(const T *t, int nrfull, T *c, int64_t ldc, int mr,       \
                                    int nr, int first, const struct gemm_epi_##S *e)         \
    {                                                                                        \
        for (int i = 0; i < mr; i++)                                                         \
            for (int j = 0; j < nr; j++) {                                                   \
                T v = e->alpha * t[i * nrfull + j];                                          \
                T *cij = &c[i * ldc + j];                                                    \
                if (first) {                                                                 \
                    if (e->beta != 0)                                                        \
                        v += e->beta * *cij;                                                 \
                    *cij = e->bias ? v + e->bias[j] : v;                                     \
                } else                                                                       \
                    *cij += v;                                                               \
            }                                                                                \
    }                                                                                        \
    /* the portable 4 x 8 tile for CPUs without AVX2: same packing, the                      \
     * compiler's own vectorisation */                                                       \
    static void gemm_uk_##S##_scalar(int64_t kc, const T *ap, const T *bp, T *c, int64_t ldc, \
                                     int mr, int nr, int first, const struct gemm_epi_##S *e) \
    {                                                                                        \
        T t[4 * 8] = {0};                                                                    \
        for (int64_t p = 0; p < kc; p++) {                                                   \
            for (int i = 0; i < 4; i++)                                                      \
                for (int j = 0; j < 8; j++)                                                  \
                    t[i * 8 + j] += ap[i] * bp[j];                                           \
            ap += 4;                                                                         \
            bp += 8;                                                                         \
        }                                                                                    \
        gemm_store_edge_##S(t, 8, c, ldc, mr, nr, first, e);                                 \
    }
CPU_FLOAT_DTYPES(GEMM_EPI)

/* The vector tile of (type, ISA): MR_ rows x NRV vectors of C in
 * registers; a whole tile is finished in vectors, an edge tile through
 * the scalar epilogue.  The bias is added only where there is one (a
 * vector of zeros would turn a -0 into +0). */
#define GEMM_UKERNEL_AS(T, S, I, NAME, MR_, NRV)                                                      \
    __attribute__((target(CPU_V(S, I, TARGET)))) static void NAME(                           \
        int64_t kc, const T *ap, const T *bp, T *c, int64_t ldc, int mr, int nr, int first,  \
        const struct gemm_epi_##S *e)                                                        \
    {                                                                                        \
        enum { W_ = CPU_V(S, I, W), NR_ = W_ * (NRV) };                                      \
        typedef CPU_V(S, I, VEC) vec;                                                        \
        vec acc[MR_][NRV];                                                                   \
        _Pragma("GCC unroll 16") for (int i = 0; i < (MR_); i++)                            \
            _Pragma("GCC unroll 4") for (int v = 0; v < (NRV); v++)                         \
                acc[i][v] = CPU_V(S, I, ZERO)();                                             \
        for (int64_t p = 0; p < kc; p++) {                                                   \
            vec bv[NRV];                                                                     \
            _Pragma("GCC unroll 4") for (int v = 0; v < (NRV); v++)                         \
                bv[v] = CPU_V(S, I, LOAD)(bp + v * W_);                                      \
            _Pragma("GCC unroll 16") for (int i = 0; i < (MR_); i++) {                      \
                vec av = CPU_V(S, I, SET1)(ap[i]);                                           \
                _Pragma("GCC unroll 4") for (int v = 0; v < (NRV); v++)                     \
                    acc[i][v] = CPU_V(S, I, FMA)(av, bv[v], acc[i][v]);                      \
            }                                                                                \
            ap += (MR_);                                                                     \
            bp += NR_;                                                                       \
        }                                                                                    \
        if (mr == (MR_) && nr == NR_) {                                                      \
            const vec al = CPU_V(S, I, SET1)(e->alpha), be = CPU_V(S, I, SET1)(e->beta);     \
            int scaled = e->alpha != 1, readc = !first || e->beta != 0;                      \
            int biased = first && e->bias;                                                   \
            vec bias[NRV];                                                                   \
            _Pragma("GCC unroll 4") for (int v = 0; v < (NRV); v++)                         \
                bias[v] = biased ? CPU_V(S, I, LOADU)(e->bias + v * W_) : CPU_V(S, I, ZERO)(); \
            _Pragma("GCC unroll 16") for (int i = 0; i < (MR_); i++) {                      \
                T *ci = c + i * ldc;                                                         \
                _Pragma("GCC unroll 4") for (int v = 0; v < (NRV); v++) {                   \
                    vec x = scaled ? CPU_V(S, I, MUL)(al, acc[i][v]) : acc[i][v];            \
                    if (readc) {                                                             \
                        vec cv = CPU_V(S, I, LOADU)(ci + v * W_);                            \
                        if (first)                                                           \
                            cv = CPU_V(S, I, MUL)(be, cv);                                   \
                        x = CPU_V(S, I, ADD)(x, cv);                                         \
                    }                                                                        \
                    if (biased)                                                              \
                        x = CPU_V(S, I, ADD)(x, bias[v]);                                    \
                    CPU_V(S, I, STOREU)(ci + v * W_, x);                                     \
                }                                                                            \
            }                                                                                \
            return;                                                                          \
        }                                                                                    \
        T t[(MR_) * NR_];                                                                    \
        _Pragma("GCC unroll 16") for (int i = 0; i < (MR_); i++)                            \
            _Pragma("GCC unroll 4") for (int v = 0; v < (NRV); v++)                         \
                CPU_V(S, I, STOREU)(t + i * NR_ + v * W_, acc[i][v]);                        \
        gemm_store_edge_##S(t, NR_, c, ldc, mr, nr, first, e);                               \
    }

/* The tile of each ISA, rows x vectors of C, the same for every type.
 * AVX-512 6 x 4: 24 accumulators, 4 vectors of B and a broadcast in 29 of
 * the 32 zmm registers, 10 loads for 24 FMAs a k-step (12 x 2 took 14 and
 * ran 8-10% slower in both types on Zen 4; 8 x 3 between them); AVX2
 * 6 x 2: 12 accumulators, 2 vectors of B and a broadcast in 15 of the 16
 * ymm. */
#define GEMM_MR_avx512 6
#define GEMM_NRV_avx512 4
#define GEMM_MR_avx2 6
#define GEMM_NRV_avx2 2
/* The AVX-512 tile for products whose columns would leave much of 6 x 4's
 * 64 floats (32 doubles) as padding: 12 x 2, the tile before, half as
 * wide and about 10% slower on whole tiles (f32 batched 32^3 x 16: 1.2x
 * slower on 6 x 4, gemm 96^3 1.15x).  gemm_wide() chooses. */
#define GEMM_MR_narrow 12
#define GEMM_NRV_narrow 2
#define GEMM_UKERNEL(T, S, I) \
    GEMM_UKERNEL_AS(T, S, I, gemm_uk_##S##_##I, GEMM_MR_##I, GEMM_NRV_##I)
#define GEMM_UKERNEL_NARROW(DT, T, S, ...) \
    GEMM_UKERNEL_AS(T, S, avx512, gemm_uk_##S##_narrow, GEMM_MR_narrow, GEMM_NRV_narrow)
#ifdef CPU_X86
CPU_FLOAT_VECS(GEMM_UKERNEL)
CPU_FLOAT_DTYPES(GEMM_UKERNEL_NARROW)
/* kernel gemm_uk_<S>_<K>, its tile K, the lanes of its ISA I */
#define GEMM_NR_OF(S, K, I) (GEMM_NRV_##K * CPU_V(S, I, W))
#define GEMM_UK_PICK(S, K, I) \
    (g.uk = gemm_uk_##S##_##K, pp.mr = GEMM_MR_##K, pp.nr = GEMM_NR_OF(S, K, I))
#else
#define GEMM_NR_OF(S, K, I) 0
#define GEMM_UK_PICK(S, K, I) (void)0
#endif

/* Does a product n columns wide take the wide AVX-512 tile?  Whichever
 * pads n less, the narrow one's columns counted 10% dearer. */
static int gemm_wide(int64_t n, int64_t nr_wide, int64_t nr_narrow)
{
    int64_t wide = (n + nr_wide - 1) / nr_wide * nr_wide;
    int64_t narrow = (n + nr_narrow - 1) / nr_narrow * nr_narrow;
    return 10 * wide <= 11 * narrow;
}

/* The engine's tile: the micro-kernel with its epilogue; and the entry. */
#define GEMM_PACKED(DT, T, S, ...)                                                           \
    struct gemm_ctx_##S {                                                                    \
        gemm_uk_##S uk;                                                                      \
        T alpha, beta;                                                                       \
        const T *bias;                                                                       \
    };                                                                                       \
    static void gemm_tile_##S(const void *ctx, int64_t kc, const void *ap, const void *bp,   \
                              void *c, int64_t ldc, int mr, int nr, int first, int64_t j)    \
    {                                                                                        \
        const struct gemm_ctx_##S *g = ctx;                                                  \
        struct gemm_epi_##S e = {g->alpha, g->beta, g->bias ? g->bias + j : NULL};           \
        g->uk(kc, ap, bp, c, ldc, mr, nr, first, &e);                                        \
    }                                                                                        \
    gpuk_status cpu_gemm_packed_##S(gpuk_bctx *b, int64_t m, int64_t n, int64_t k,           \
                                    const T *a, int64_t a_rs, int64_t a_cs, const T *bm,     \
                                    int64_t b_rs, int64_t b_cs, T alpha, T beta,             \
                                    const T *bias, T *c, int64_t ldc)                        \
    {                                                                                        \
        if (k == 0) {                                                                        \
            for (int64_t i = 0; i < m; i++)                                                  \
                for (int64_t j = 0; j < n; j++) {                                            \
                    T v = beta != 0 ? beta * c[i * ldc + j] : 0;                             \
                    c[i * ldc + j] = bias ? v + bias[j] : v;                                 \
                }                                                                            \
            return GPUK_OK;                                                                  \
        }                                                                                    \
        struct gemm_ctx_##S g = {gemm_uk_##S##_scalar, alpha, beta, bias};                   \
        struct cpu_packed pp = {m, n, k, sizeof(T), a, a_rs, a_cs, bm, b_rs, b_cs, c, ldc,   \
                                4, 8, gemm_tile_##S, &g};                                    \
        if (b->isa == CPU_ISA_AVX512 &&                                                      \
            gemm_wide(n, GEMM_NR_OF(S, avx512, avx512), GEMM_NR_OF(S, narrow, avx512)))      \
            GEMM_UK_PICK(S, avx512, avx512);                                                 \
        else if (b->isa == CPU_ISA_AVX512)                                                   \
            GEMM_UK_PICK(S, narrow, avx512);                                                 \
        else if (b->isa == CPU_ISA_AVX2)                                                     \
            GEMM_UK_PICK(S, avx2, avx2);                                                     \
        return cpu_packed_run(b, &pp);                                                       \
    }                                                                                        \
    gpuk_status cpu_gemm_simd_##S(gpuk_bctx *b, int64_t m, int64_t n, int64_t k, const T *a, \
                                  int64_t lda, const T *bm, int64_t ldb, const T *bias, T *c, \
                                  int64_t ldc)                                               \
    {                                                                                        \
        return cpu_gemm_packed_##S(b, m, n, k, a, lda, 1, bm, ldb, 1, 1, 0, bias, c, ldc);   \
    }
CPU_FLOAT_DTYPES(GEMM_PACKED)

/*
 * minplus_i32.c - min-plus on 32-bit integers (gpuk_minplus(3), i32): the
 * naive rung (the GPUK_CHECK shadow's reference, the first row of
 * (minplus, i32)) and regtile, f32 regtile's register tiles in AVX-512 or
 * AVX2 integer vectors (vpaddd + vpminsd), OpenMP over tiles.
 *
 * Semantics (gpuk.h): r[i,j] = min(INF, min_k (a[i,k] + b[k,j])), INF =
 * GPUK_I32_INF, each sum the 32-bit two's-complement sum.  Every rung
 * starts an output's minimum at INF and folds each wrapped sum in with a
 * signed min, so a sum at or above INF never moves it: that is the
 * saturation, and k = 0 leaves INF.  An update (args->accumulate) starts
 * from min(old r, INF) instead, which gives min(old r, p) for the p the
 * plain call would write.  Integer add wraps the same way in C (through
 * uint32_t) as in vpaddd, integer min is exact, and there is neither NaN
 * nor a signed zero: the result depends on no order, thread count or
 * rung, and needs no pass after the main loop (the f32 rungs settle +0/-0
 * ties there).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cpu.h"

#define MPI_INF ((int32_t)GPUK_I32_INF)
#define T_I32(t) ((int32_t *)(t)->data)

/* The 32-bit two's-complement sum: unsigned arithmetic wraps in C, and
 * the conversion back keeps the bits (GCC and Clang define it so). */
static inline int32_t mpi_add(int32_t x, int32_t y)
{
    return (int32_t)((uint32_t)x + (uint32_t)y);
}

static inline int32_t mpi_min(int32_t x, int32_t y)
{
    return x < y ? x : y;
}

/* Does this call fold the old r in (ABI 2.2; a core of 2.1 never says)? */
static inline int mpi_accumulate(const gpuk_args *args)
{
    return GPUK_ARGS_HAS(args, accumulate) && args->accumulate;
}

/* Where an output's minimum starts: INF, or for an update min(old, INF). */
static inline int32_t mpi_start(const int32_t *old, int upd)
{
    return upd ? mpi_min(*old, MPI_INF) : MPI_INF;
}

/* naive: the textbook triple loop on one thread; b is read down a column.
 * The shadow of GPUK_CHECK replays every i32 min-plus on it. */
CPU_KERNEL(minplus_i32_naive)
{
    const gpuk_tdesc *ta = &args->in[0], *tb = &args->in[1], *tr = &args->out;
    int64_t m = ta->shape[0], k = ta->shape[1], n = tb->shape[1];
    const int32_t *a = T_I32(ta), *bm = T_I32(tb);
    int32_t *r = T_I32(tr);
    int64_t lda = T_LD(ta), ldb = T_LD(tb), ldr = T_LD(tr);
    int upd = mpi_accumulate(args);
    (void)b;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            int32_t acc = mpi_start(&r[i * ldr + j], upd);
            for (int64_t p = 0; p < k; p++)
                acc = mpi_min(mpi_add(a[i * lda + p], bm[p * ldb + j]), acc);
            r[i * ldr + j] = acc;
        }
    return GPUK_OK;
}

/*
 * regtile's micro-kernels: an MR x NR tile of r in vector registers for
 * the whole k loop; each k step loads NR/W vectors of a packed row of b
 * and broadcasts MR values of a column of a, so one load feeds MR (or
 * NR/W) add+min pairs.  a[i][p] is at a[i * lda + p], b[p][0..NR) at
 * bp + p * NR (packed, padded: the tile is always whole in k).  upd: start
 * from min(r, INF), else from INF.  A partial tile (mr < MR or nr < NR)
 * goes through a buffer: the cells outside r start at INF, and only the
 * cells inside are written back.
 */
typedef void (*mpi_ukernel)(int64_t k, const int32_t *a, int64_t lda, const int32_t *bp,
                            int32_t *r, int64_t ldr, int mr, int nr, int upd);

static void mpi_tile_load(int32_t *t, int nrfull, int mrfull, const int32_t *r, int64_t ldr,
                          int mr, int nr, int upd)
{
    for (int i = 0; i < mrfull; i++)
        for (int j = 0; j < nrfull; j++)
            t[i * nrfull + j] = i < mr && j < nr ? mpi_start(&r[i * ldr + j], upd) : MPI_INF;
}

static void mpi_tile_store(const int32_t *t, int nrfull, int32_t *r, int64_t ldr, int mr, int nr)
{
    for (int i = 0; i < mr; i++)
        for (int j = 0; j < nr; j++)
            r[i * ldr + j] = t[i * nrfull + j];
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define MPI_X86 1

/* Unaligned loads and stores of int32 vectors, typed for the macro below. */
__attribute__((target("avx512f"))) static inline __m512i mpi_ld16(const int32_t *p)
{
    return _mm512_loadu_si512((const void *)p);
}
__attribute__((target("avx512f"))) static inline void mpi_st16(int32_t *p, __m512i v)
{
    _mm512_storeu_si512((void *)p, v);
}
__attribute__((target("avx2"))) static inline __m256i mpi_ld8(const int32_t *p)
{
    return _mm256_loadu_si256((const __m256i *)(const void *)p);
}
__attribute__((target("avx2"))) static inline void mpi_st8(int32_t *p, __m256i v)
{
    _mm256_storeu_si256((__m256i *)(void *)p, v);
}

#define MPI_UKERNEL(NAME, TARGET, VEC, W, MR_, NRV, LOADU, STOREU, SET1, ADD, MIN)               \
    __attribute__((target(TARGET))) static void NAME(int64_t k, const int32_t *a, int64_t lda,   \
                                                     const int32_t *bp, int32_t *r, int64_t ldr, \
                                                     int mr, int nr, int upd)                    \
    {                                                                                            \
        enum { NR_ = (W) * (NRV) };                                                              \
        VEC acc[MR_][NRV];                                                                       \
        int whole = mr == (MR_) && nr == NR_;                                                    \
        int32_t t[(MR_) * NR_];                                                                  \
        if (!whole)                                                                              \
            mpi_tile_load(t, NR_, MR_, r, ldr, mr, nr, upd);                                     \
        _Pragma("GCC unroll 16") for (int i = 0; i < (MR_); i++)                                \
            _Pragma("GCC unroll 4") for (int v = 0; v < (NRV); v++)                             \
                acc[i][v] = !whole ? LOADU(t + i * NR_ + v * (W))                                \
                            : upd  ? MIN(LOADU(r + i * ldr + v * (W)), SET1(MPI_INF))            \
                                   : SET1(MPI_INF);                                              \
        for (int64_t p = 0; p < k; p++) {                                                        \
            VEC bv[NRV];                                                                         \
            _Pragma("GCC unroll 4") for (int v = 0; v < (NRV); v++)                             \
                bv[v] = LOADU(bp + p * NR_ + v * (W));                                           \
            _Pragma("GCC unroll 16") for (int i = 0; i < (MR_); i++) {                          \
                VEC av = SET1(a[i * lda + p]);                                                   \
                _Pragma("GCC unroll 4") for (int v = 0; v < (NRV); v++)                         \
                    acc[i][v] = MIN(ADD(av, bv[v]), acc[i][v]);                                  \
            }                                                                                    \
        }                                                                                        \
        _Pragma("GCC unroll 16") for (int i = 0; i < (MR_); i++)                                \
            _Pragma("GCC unroll 4") for (int v = 0; v < (NRV); v++)                             \
                STOREU(whole ? r + i * ldr + v * (W) : t + i * NR_ + v * (W), acc[i][v]);        \
        if (!whole)                                                                              \
            mpi_tile_store(t, NR_, r, ldr, mr, nr);                                              \
    }

/* 12 x 32: 24 accumulators, 2 rows of b and a broadcast in 27 of the 32
 * zmm registers; 6 x 16 the same in 15 of the 16 ymm. */
MPI_UKERNEL(mpi_avx512_12x32, "avx512f", __m512i, 16, 12, 2, mpi_ld16, mpi_st16, _mm512_set1_epi32,
            _mm512_add_epi32, _mm512_min_epi32)
MPI_UKERNEL(mpi_avx2_6x16, "avx2", __m256i, 8, 6, 2, mpi_ld8, mpi_st8, _mm256_set1_epi32,
            _mm256_add_epi32, _mm256_min_epi32)
#endif

/* Portable 4 x 8 tile for CPUs without AVX2 (and GPUK_CPU_ISA=scalar). */
static void mpi_scalar_4x8(int64_t k, const int32_t *a, int64_t lda, const int32_t *bp,
                           int32_t *r, int64_t ldr, int mr, int nr, int upd)
{
    int32_t t[4 * 8];
    mpi_tile_load(t, 8, 4, r, ldr, mr, nr, upd);
    for (int64_t p = 0; p < k; p++)
        for (int i = 0; i < 4; i++) {
            int32_t av = a[i * lda + p];
            for (int j = 0; j < 8; j++)
                t[i * 8 + j] = mpi_min(mpi_add(av, bp[p * 8 + j]), t[i * 8 + j]);
        }
    mpi_tile_store(t, 8, r, ldr, mr, nr);
}

static mpi_ukernel mpi_pick(gpuk_bctx *b, int *mr, int *nr)
{
#ifdef MPI_X86
    if (b->isa == CPU_ISA_AVX512) {
        *mr = 12, *nr = 32;
        return mpi_avx512_12x32;
    }
    if (b->isa == CPU_ISA_AVX2) {
        *mr = 6, *nr = 16;
        return mpi_avx2_6x16;
    }
#endif
    *mr = 4, *nr = 8;
    return mpi_scalar_4x8;
}

/* regtile: register blocking, vectors along j.  b is copied into NR-wide
 * column panels (the k steps of one panel contiguous, so a micro-kernel
 * streams it) and a into rows padded to a multiple of MR; the padding
 * holds INF and only reaches outputs that are never stored.  OpenMP over
 * tiles; each output's whole k runs in one register, so no result
 * depends on the split. */
CPU_KERNEL(minplus_i32_regtile)
{
    const gpuk_tdesc *ta = &args->in[0], *tb = &args->in[1], *tr = &args->out;
    int64_t m = ta->shape[0], k = ta->shape[1], n = tb->shape[1];
    const int32_t *a = T_I32(ta), *bm = T_I32(tb);
    int32_t *r = T_I32(tr);
    int64_t lda = T_LD(ta), ldb = T_LD(tb), ldr = T_LD(tr);
    int upd = mpi_accumulate(args);
    if (k == 0) {
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++)
                r[i * ldr + j] = mpi_start(&r[i * ldr + j], upd);
        return GPUK_OK;
    }
    int MR, NR;
    mpi_ukernel uk = mpi_pick(b, &MR, &NR);
    int64_t mt = (m + MR - 1) / MR, nt = (n + NR - 1) / NR;
    int32_t *bpad = cpu_scratch(b, (size_t)k * (size_t)(nt * NR) * sizeof(int32_t),
                                "the packed b of i32 min-plus");
    int32_t *apad = bpad ? cpu_scratch(b, (size_t)(mt * MR) * (size_t)k * sizeof(int32_t),
                                       "the padded a of i32 min-plus")
                         : NULL;
    if (!apad) {
        free(bpad);
        return GPUK_ERR_NO_MEMORY;
    }
#pragma omp parallel num_threads(b->nthreads)
    {
#pragma omp for schedule(static)
        for (int64_t tj = 0; tj < nt; tj++)
            for (int64_t p = 0; p < k; p++)
                for (int64_t j = tj * NR; j < (tj + 1) * NR; j++)
                    bpad[(tj * k + p) * NR + j - tj * NR] = j < n ? bm[p * ldb + j] : MPI_INF;
#pragma omp for schedule(static)
        for (int64_t i = 0; i < mt * MR; i++)
            for (int64_t p = 0; p < k; p++)
                apad[i * k + p] = i < m ? a[i * lda + p] : MPI_INF;
#pragma omp for schedule(static) collapse(2)
        for (int64_t ti = 0; ti < mt; ti++)
            for (int64_t tj = 0; tj < nt; tj++) {
                int64_t i = ti * MR, j = tj * NR;
                int mr = m - i < MR ? (int)(m - i) : MR;
                int nr = n - j < NR ? (int)(n - j) : NR;
                uk(k, apad + i * k, k, bpad + tj * k * NR, r + i * ldr + j, ldr, mr, nr, upd);
            }
    }
    free(apad);
    free(bpad);
    return GPUK_OK;
}

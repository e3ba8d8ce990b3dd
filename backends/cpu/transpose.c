/*
 * transpose.c - the transpose family on the CPU (tests/ops/transpose.c,
 * gpuk_transpose(3)): y[n,m] = x[m,n]^T, in f32, f64, f16 and bf16 from
 * one source (dtype.h), the register transposes written per element size
 * (f16 and bf16 share the 2-byte one).
 *
 *   naive    read x along rows, write y down columns
 *   blocked  32 x 32 tiles, register transposes (AVX-512 blocks of 64-byte
 *            rows straight to y: 16 x 16 floats, 8 x 8 doubles, 32 x 32
 *            2-byte words; AVX blocks of 32-byte rows through a buffer:
 *            8 x 8, 4 x 4, 16 x 16), streaming stores, OpenMP
 */
#include "config.h"

#include <string.h>

#include "cpu.h"
#include "simd.h"

/* naive: reads are sequential, but every write lands ldy elements from
 * the last, so each touches a new cache line that is evicted long before
 * its neighbours are written. */
#define TRANSPOSE_NAIVE(DT, T, S, ...)                                                      \
    CPU_INSTANCE(transpose_naive, S)                                                        \
    {                                                                                       \
        const gpuk_tdesc *tx = &args->in[0], *ty = &args->out;                             \
        int64_t m = tx->shape[0], n = tx->shape[1];                                         \
        const T *x = T_PTR(tx, T);                                                          \
        T *y = T_PTR(ty, T);                                                                \
        int64_t ldx = T_LD(tx), ldy = T_LD(ty);                                             \
        for (int64_t i = 0; i < m; i++)                                                     \
            for (int64_t j = 0; j < n; j++)                                                 \
                y[j * ldy + i] = x[i * ldx + j];                                            \
        return GPUK_OK;                                                                     \
    }
CPU_GENERIC(transpose_naive, CPU_REAL_DTYPES, TRANSPOSE_NAIVE)

/* blocked: 32 x 32 tiles, OpenMP over tiles.  With AVX2 a tile is
 * transposed into a buffer (blocks of 32-byte rows through registers:
 * 8 x 8 floats or 4 x 4 doubles, a load per row, rounds of shuffles, a
 * store per row) and then written out one 32-element row of y at a time;
 * with AVX-512, blocks of 64-byte rows (16 x 16 floats, 8 x 8 doubles)
 * go straight to y as whole lines (tr_block_<type>_avx512).  Every cache
 * line read or written is used whole at once:
 * with a power-of-two row length the 32 lines of a tile's column of y all
 * map to one L1 set, and a plain tiled loop that leaves them half written
 * loses them before the next block fills them.  Large outputs are
 * written with streaming stores, and the next tile's rows of x are
 * prefetched.  (Measured on a 16-core Xeon, 8192^2: plain stores 26.7
 * GB/s, streaming 110 GB/s; on 2 of its cores the prefetch took 24 to
 * 36 GB/s.  64-row or 128-column tiles were slower.  On one Zen 5 core
 * an in-cache transpose runs near 50 GB/s, no faster than a copy from
 * DRAM, and from DRAM it reaches about half of a copy: 19-21 GB/s with
 * the AVX path, 25-26 with AVX-512; prefetching 2-8 tiles ahead did not
 * help.  Those are f32 figures.) */
#define TR_TILE 32

#ifdef CPU_X86
/* f32, AVX: an 8 x 8 block (8 loads, three rounds of shuffles, 8 stores). */
__attribute__((target("avx2"))) static void tr_block_f32_avx2(const float *x, int64_t ldx,
                                                             float *y, int64_t ldy, int stream)
{
    __m256 r0 = _mm256_loadu_ps(x + 0 * ldx), r1 = _mm256_loadu_ps(x + 1 * ldx);
    __m256 r2 = _mm256_loadu_ps(x + 2 * ldx), r3 = _mm256_loadu_ps(x + 3 * ldx);
    __m256 r4 = _mm256_loadu_ps(x + 4 * ldx), r5 = _mm256_loadu_ps(x + 5 * ldx);
    __m256 r6 = _mm256_loadu_ps(x + 6 * ldx), r7 = _mm256_loadu_ps(x + 7 * ldx);
    /* pairs of rows interleaved, then pairs of pairs, then 128-bit halves */
    __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1);
    __m256 t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3);
    __m256 t4 = _mm256_unpacklo_ps(r4, r5), t5 = _mm256_unpackhi_ps(r4, r5);
    __m256 t6 = _mm256_unpacklo_ps(r6, r7), t7 = _mm256_unpackhi_ps(r6, r7);
    __m256 s0 = _mm256_shuffle_ps(t0, t2, 0x44), s1 = _mm256_shuffle_ps(t0, t2, 0xEE);
    __m256 s2 = _mm256_shuffle_ps(t1, t3, 0x44), s3 = _mm256_shuffle_ps(t1, t3, 0xEE);
    __m256 s4 = _mm256_shuffle_ps(t4, t6, 0x44), s5 = _mm256_shuffle_ps(t4, t6, 0xEE);
    __m256 s6 = _mm256_shuffle_ps(t5, t7, 0x44), s7 = _mm256_shuffle_ps(t5, t7, 0xEE);
    _mm256_storeu_ps(y + 0 * ldy, _mm256_permute2f128_ps(s0, s4, 0x20));
    _mm256_storeu_ps(y + 1 * ldy, _mm256_permute2f128_ps(s1, s5, 0x20));
    _mm256_storeu_ps(y + 2 * ldy, _mm256_permute2f128_ps(s2, s6, 0x20));
    _mm256_storeu_ps(y + 3 * ldy, _mm256_permute2f128_ps(s3, s7, 0x20));
    _mm256_storeu_ps(y + 4 * ldy, _mm256_permute2f128_ps(s0, s4, 0x31));
    _mm256_storeu_ps(y + 5 * ldy, _mm256_permute2f128_ps(s1, s5, 0x31));
    _mm256_storeu_ps(y + 6 * ldy, _mm256_permute2f128_ps(s2, s6, 0x31));
    _mm256_storeu_ps(y + 7 * ldy, _mm256_permute2f128_ps(s3, s7, 0x31));
}

/* AVX-512: a 16 x 16 block in four rounds of 16 shuffles (pairs of rows
 * interleaved, then quads, then 128-bit lanes twice).  Each output row
 * is 64 bytes, a whole cache line when y is 64-byte aligned, so it can be
 * stored straight to y (streamed when large): no buffer, and no line left
 * half written. */
__attribute__((target("avx512f"))) static void tr_block_f32_avx512(const float *x, int64_t ldx,
                                                                   float *y, int64_t ldy,
                                                                   int stream)
{
    __m512 r[16], t[16], u[16];
#pragma GCC unroll 16
    for (int i = 0; i < 16; i++)
        r[i] = _mm512_loadu_ps(x + i * ldx);
#pragma GCC unroll 8
    for (int i = 0; i < 16; i += 2) {
        t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
    }
    /* u[4g + c], 128-bit lane L: rows 4g..4g+3 of column 4L + c */
#pragma GCC unroll 4
    for (int g = 0; g < 16; g += 4) {
        u[g] = _mm512_shuffle_ps(t[g], t[g + 2], 0x44);
        u[g + 1] = _mm512_shuffle_ps(t[g], t[g + 2], 0xEE);
        u[g + 2] = _mm512_shuffle_ps(t[g + 1], t[g + 3], 0x44);
        u[g + 3] = _mm512_shuffle_ps(t[g + 1], t[g + 3], 0xEE);
    }
#pragma GCC unroll 4
    for (int c = 0; c < 4; c++) {
        __m512 p0 = _mm512_shuffle_f32x4(u[c], u[4 + c], 0x44);
        __m512 p1 = _mm512_shuffle_f32x4(u[c], u[4 + c], 0xEE);
        __m512 q0 = _mm512_shuffle_f32x4(u[8 + c], u[12 + c], 0x44);
        __m512 q1 = _mm512_shuffle_f32x4(u[8 + c], u[12 + c], 0xEE);
        __m512 o[4] = {_mm512_shuffle_f32x4(p0, q0, 0x88), _mm512_shuffle_f32x4(p0, q0, 0xDD),
                       _mm512_shuffle_f32x4(p1, q1, 0x88), _mm512_shuffle_f32x4(p1, q1, 0xDD)};
#pragma GCC unroll 4
        for (int l = 0; l < 4; l++) {
            float *dst = y + (4 * l + c) * ldy;
            if (stream)
                _mm512_stream_ps(dst, o[l]);
            else
                _mm512_storeu_ps(dst, o[l]);
        }
    }
}

/* f64, AVX: a 4 x 4 block, pairs of rows interleaved, then 128-bit halves
 * swapped. */
__attribute__((target("avx2"))) static void tr_block_f64_avx2(const double *x, int64_t ldx,
                                                             double *y, int64_t ldy, int stream)
{
    __m256d r0 = _mm256_loadu_pd(x), r1 = _mm256_loadu_pd(x + ldx);
    __m256d r2 = _mm256_loadu_pd(x + 2 * ldx), r3 = _mm256_loadu_pd(x + 3 * ldx);
    __m256d t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
    __m256d t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
    _mm256_storeu_pd(y, _mm256_permute2f128_pd(t0, t2, 0x20));
    _mm256_storeu_pd(y + ldy, _mm256_permute2f128_pd(t1, t3, 0x20));
    _mm256_storeu_pd(y + 2 * ldy, _mm256_permute2f128_pd(t0, t2, 0x31));
    _mm256_storeu_pd(y + 3 * ldy, _mm256_permute2f128_pd(t1, t3, 0x31));
}

/* f64, AVX-512: an 8 x 8 block in three rounds, as the 16 x 16 of floats:
 * t[2g + c], 128-bit lane L, holds column 2L + c of rows 2g and 2g + 1,
 * and two rounds of 128-bit shuffles gather each column's four lanes.
 * Each output row is 64 bytes, straight to y (streamed when large). */
__attribute__((target("avx512f"))) static void tr_block_f64_avx512(const double *x, int64_t ldx,
                                                                   double *y, int64_t ldy,
                                                                   int stream)
{
    __m512d r[8], t[8];
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++)
        r[i] = _mm512_loadu_pd(x + i * ldx);
#pragma GCC unroll 4
    for (int i = 0; i < 8; i += 2) {
        t[i] = _mm512_unpacklo_pd(r[i], r[i + 1]);
        t[i + 1] = _mm512_unpackhi_pd(r[i], r[i + 1]);
    }
#pragma GCC unroll 2
    for (int c = 0; c < 2; c++) {
        __m512d u0 = _mm512_shuffle_f64x2(t[c], t[2 + c], 0x44);
        __m512d u1 = _mm512_shuffle_f64x2(t[c], t[2 + c], 0xEE);
        __m512d v0 = _mm512_shuffle_f64x2(t[4 + c], t[6 + c], 0x44);
        __m512d v1 = _mm512_shuffle_f64x2(t[4 + c], t[6 + c], 0xEE);
        __m512d o[4] = {_mm512_shuffle_f64x2(u0, v0, 0x88), _mm512_shuffle_f64x2(u0, v0, 0xDD),
                        _mm512_shuffle_f64x2(u1, v1, 0x88), _mm512_shuffle_f64x2(u1, v1, 0xDD)};
#pragma GCC unroll 4
        for (int l = 0; l < 4; l++) {
            double *dst = y + (2 * l + c) * ldy;
            if (stream)
                _mm512_stream_pd(dst, o[l]);
            else
                _mm512_storeu_pd(dst, o[l]);
        }
    }
}

/* 2-byte elements (f16, bf16 moved as words), AVX2: a 16 x 16 block of
 * 32-byte rows in four rounds, the 16-bit analogue of the 8 x 8 of
 * floats: rows interleaved by pairs (16-bit), by quads (32-bit), by
 * octets (64-bit), each 128-bit lane then holding one column of 8 rows,
 * and the lanes of rows 0-7 and 8-15 joined.  o[j] is row j of the
 * transposed block. */
__attribute__((target("avx2"))) static inline void tr_u16_16x16(const uint16_t *x, int64_t ldx,
                                                               __m256i o[16])
{
    __m256i r[16], a[16], c[16];
#pragma GCC unroll 16
    for (int i = 0; i < 16; i++)
        r[i] = _mm256_loadu_si256((const __m256i *)(const void *)(x + i * ldx));
    /* a[2p], lane L: columns 8L..8L+3 of rows 2p, 2p+1 interleaved; a[2p+1]: 8L+4..8L+7 */
#pragma GCC unroll 8
    for (int i = 0; i < 16; i += 2) {
        a[i] = _mm256_unpacklo_epi16(r[i], r[i + 1]);
        a[i + 1] = _mm256_unpackhi_epi16(r[i], r[i + 1]);
    }
    /* r[4q + k], lane L: columns 8L+2k and 8L+2k+1 of rows 4q..4q+3 */
#pragma GCC unroll 4
    for (int g = 0; g < 16; g += 4) {
        r[g] = _mm256_unpacklo_epi32(a[g], a[g + 2]);
        r[g + 1] = _mm256_unpackhi_epi32(a[g], a[g + 2]);
        r[g + 2] = _mm256_unpacklo_epi32(a[g + 1], a[g + 3]);
        r[g + 3] = _mm256_unpackhi_epi32(a[g + 1], a[g + 3]);
    }
    /* c[8h + j], lane L: column 8L + j of rows 8h..8h+7 */
#pragma GCC unroll 2
    for (int h = 0; h < 2; h++)
#pragma GCC unroll 4
        for (int k = 0; k < 4; k++) {
            c[8 * h + 2 * k] = _mm256_unpacklo_epi64(r[8 * h + k], r[8 * h + 4 + k]);
            c[8 * h + 2 * k + 1] = _mm256_unpackhi_epi64(r[8 * h + k], r[8 * h + 4 + k]);
        }
#pragma GCC unroll 8
    for (int j = 0; j < 8; j++) {
        o[j] = _mm256_permute2x128_si256(c[j], c[8 + j], 0x20);
        o[8 + j] = _mm256_permute2x128_si256(c[j], c[8 + j], 0x31);
    }
}

/* AVX: the 16 x 16 block into 32-byte rows of y (tr_tile's buffer, or y
 * itself from the AVX-512 block below when y's rows are not aligned). */
__attribute__((target("avx2"))) static void tr_block_u16_avx2(const uint16_t *x, int64_t ldx,
                                                             uint16_t *y, int64_t ldy, int stream)
{
    __m256i o[16];
    (void)stream;
    tr_u16_16x16(x, ldx, o);
#pragma GCC unroll 16
    for (int j = 0; j < 16; j++)
        _mm256_storeu_si256((__m256i *)(void *)(y + j * ldy), o[j]);
}

/* AVX-512: a 32 x 32 block, each output row a whole 64-byte line joined
 * from two 16 x 16 blocks side by side (16-bit shuffles on zmm registers
 * would need AVX-512BW), stored straight to y, streamed when large: a
 * line written in two 32-byte halves from different blocks would leave
 * the write-combining buffers partial lines to flush. */
__attribute__((target("avx512f,avx2"))) static void tr_block_u16_avx512(const uint16_t *x,
                                                                       int64_t ldx, uint16_t *y,
                                                                       int64_t ldy, int stream)
{
    /* rows of y not on line boundaries: the four blocks one by one, 32-byte
     * stores (a 64-byte store would straddle two lines every time) */
    if (!stream && (((uintptr_t)y & 63) != 0 || (ldy & 31) != 0)) {
        for (int j = 0; j < 32; j += 16)
            for (int i = 0; i < 32; i += 16)
                tr_block_u16_avx2(x + i * ldx + j, ldx, y + j * ldy + i, ldy, 0);
        return;
    }
    for (int j = 0; j < 32; j += 16) {
        __m256i lo[16], hi[16];
        tr_u16_16x16(x + j, ldx, lo);           /* rows 0-15 of x: columns 0-15 of y */
        tr_u16_16x16(x + 16 * ldx + j, ldx, hi); /* rows 16-31 of x: columns 16-31 */
#pragma GCC unroll 16
        for (int q = 0; q < 16; q++) {
            uint16_t *dst = y + (j + q) * ldy;
            __m512i row = _mm512_inserti64x4(_mm512_castsi256_si512(lo[q]), hi[q], 1);
            if (stream)
                _mm512_stream_si512((void *)dst, row);
            else
                _mm512_store_si512((void *)dst, row);
        }
    }
}
#define tr_block_f16_avx2 tr_block_u16_avx2
#define tr_block_bf16_avx2 tr_block_u16_avx2
#define tr_block_f16_avx512 tr_block_u16_avx512
#define tr_block_bf16_avx512 tr_block_u16_avx512

__attribute__((target("avx2"))) static void tr_stream_fence(void)
{
    _mm_sfence();
}
#define TR_BLOCK_OF(S, I) tr_block_##S##_##I
#else
static void tr_stream_fence(void)
{
}
#endif

/* One 32 x 32 tile [i0,i0+h) x [j0,j0+w) of x into y.  avx: 2 for AVX-512
 * (W x W blocks of 64-byte rows straight to y, streamed when large and
 * every row of y aligned), 1 for AVX (blocks of 32-byte rows into buf,
 * then written out one 32-element row of y at a time, non-temporal when
 * large: for a y larger than the caches the lines go straight to memory,
 * without first being read in; a plain store reads each line before
 * writing it, 3 bytes of traffic per byte moved instead of 2), 0 or an
 * edge tile: element by element into buf. */
#define TR_TILE_FN(DT, T, S, ...)                                                           \
    static void tr_tile_##S(const T *x, int64_t ldx, T *y, int64_t ldy, int64_t i0, int h,  \
                            int64_t j0, int w, int avx, int stream, T *buf)                 \
    {                                                                                       \
        enum { W512 = 64 / (int)sizeof(T), W256 = 32 / (int)sizeof(T) };                    \
        const T *xt = x + i0 * ldx + j0;                                                    \
        if (avx == 2 && h == TR_TILE && w == TR_TILE) {                                     \
            T *yt = y + j0 * ldy + i0;                                                      \
            int aligned = ((uintptr_t)yt & 63) == 0 && (ldy & (W512 - 1)) == 0;             \
            for (int i = 0; i < TR_TILE; i += W512)                                         \
                for (int j = 0; j < TR_TILE; j += W512)                                     \
                    TR_BLOCK(S, avx512)(xt + i * ldx + j, ldx, yt + j * ldy + i, ldy,       \
                                        stream && aligned);                                 \
            return;                                                                         \
        }                                                                                   \
        if (avx && h == TR_TILE && w == TR_TILE) {                                          \
            for (int i = 0; i < h; i += W256)                                               \
                for (int j = 0; j < w; j += W256)                                           \
                    TR_BLOCK(S, avx2)(xt + i * ldx + j, ldx, buf + j * TR_TILE + i, TR_TILE, 0); \
        } else {                                                                            \
            for (int i = 0; i < h; i++)                                                     \
                for (int j = 0; j < w; j++)                                                 \
                    buf[j * TR_TILE + i] = xt[i * ldx + j];                                 \
        }                                                                                   \
        for (int j = 0; j < w; j++) {                                                       \
            T *dst = y + (j0 + j) * ldy + i0;                                               \
            if (stream && h == TR_TILE && ((uintptr_t)dst & 31) == 0) {                     \
                TR_ROW_STREAM(S)(dst, buf + j * TR_TILE);                                   \
                continue;                                                                   \
            }                                                                               \
            memcpy(dst, buf + j * TR_TILE, (size_t)h * sizeof(T));                          \
        }                                                                                   \
    }

#ifdef CPU_X86
#define TR_BLOCK(S, I) tr_block_##S##_##I
#define TR_ROW_STREAM(S) tr_row_stream_##S
/* One row of a tile (TR_TILE elements, from an aligned buffer) into y with
 * non-temporal stores. */
#define TR_ROW_STREAM_FN(T, S)                                                              \
    __attribute__((target("avx2"))) static void tr_row_stream_##S(T *dst, const T *src)     \
    {                                                                                       \
        for (int q = 0; q < TR_TILE; q += CPU_V(S, avx2, W))                                \
            CPU_V(S, avx2, STREAM)(dst + q, CPU_V(S, avx2, LOAD)(src + q));                 \
    }
TR_ROW_STREAM_FN(float, f32)
TR_ROW_STREAM_FN(double, f64)
/* the 2-byte words of f16 and bf16 move as integers (simd.h's 16-bit
 * traits convert to f32) */
__attribute__((target("avx2"))) static void tr_row_stream_u16(uint16_t *dst, const uint16_t *src)
{
    for (int q = 0; q < TR_TILE; q += 16)
        _mm256_stream_si256((__m256i *)(void *)(dst + q),
                            _mm256_load_si256((const __m256i *)(const void *)(src + q)));
}
#define tr_row_stream_f16 tr_row_stream_u16
#define tr_row_stream_bf16 tr_row_stream_u16
#else
/* no vector path: avx is always 0 and stream never set */
#define TR_BLOCK(S, I) (void)
#define TR_ROW_STREAM(S) (void)
#endif
CPU_REAL_DTYPES(TR_TILE_FN)

/* Outputs from this size on bypass the caches (see tr_tile). */
#define TR_STREAM_BYTES ((int64_t)16 << 20)

#define TRANSPOSE_BLOCKED(DT, T, S, ...)                                                    \
    CPU_INSTANCE(transpose_blocked, S)                                                      \
    {                                                                                       \
        const gpuk_tdesc *tx = &args->in[0], *ty = &args->out;                             \
        int64_t m = tx->shape[0], n = tx->shape[1];                                         \
        const T *x = T_PTR(tx, T);                                                          \
        T *y = T_PTR(ty, T);                                                                \
        int64_t ldx = T_LD(tx), ldy = T_LD(ty);                                             \
        int64_t tm = (m + TR_TILE - 1) / TR_TILE, tn = (n + TR_TILE - 1) / TR_TILE;         \
        int avx = b->isa == CPU_ISA_AVX512 ? 2 : b->isa == CPU_ISA_AVX2 ? 1 : 0;            \
        int stream = avx && m * n * (int64_t)sizeof(T) >= TR_STREAM_BYTES;                  \
        _Pragma("omp parallel num_threads(b->nthreads)")                                    \
        {                                                                                   \
            T buf[TR_TILE * TR_TILE] __attribute__((aligned(64)));                          \
            _Pragma("omp for schedule(static) collapse(2)")                                 \
            for (int64_t bi = 0; bi < tm; bi++)                                             \
                for (int64_t bj = 0; bj < tn; bj++) {                                       \
                    int64_t i0 = bi * TR_TILE, j0 = bj * TR_TILE;                           \
                    int h = m - i0 < TR_TILE ? (int)(m - i0) : TR_TILE;                     \
                    int w = n - j0 < TR_TILE ? (int)(n - j0) : TR_TILE;                     \
                    /* the next tile's rows of x: 32 short streams 16 KiB or                \
                     * more apart, which the hardware prefetchers follow poorly */          \
                    if (j0 + TR_TILE < n)                                                   \
                        for (int i = 0; i < h; i++)                                         \
                            for (int q = 0; q < TR_TILE; q += 64 / (int)sizeof(T))          \
                                __builtin_prefetch(x + (i0 + i) * ldx + j0 + TR_TILE + q);  \
                    tr_tile_##S(x, ldx, y, ldy, i0, h, j0, w, avx, stream, buf);            \
                }                                                                           \
            if (stream)                                                                     \
                tr_stream_fence();                                                          \
        }                                                                                   \
        return GPUK_OK;                                                                     \
    }
CPU_GENERIC(transpose_blocked, CPU_REAL_DTYPES, TRANSPOSE_BLOCKED)

/*
 * transpose.c - y[n,m] = x[m,n]^T.
 *
 *   naive    read x along rows, write y down columns
 *   blocked  32 x 32 tiles, register transposes (AVX-512 16 x 16 straight
 *            to y, AVX 8 x 8 through a buffer), streaming stores, OpenMP
 */
#include "config.h"

#include <string.h>

#include "cpu.h"

/* naive: reads are sequential, but every write lands ldy floats from the
 * last, so each touches a new cache line that is evicted long before its
 * neighbours are written. */
CPU_KERNEL(transpose_naive)
{
    const gpuk_tdesc *tx = &args->in[0], *ty = &args->out;
    int64_t m = tx->shape[0], n = tx->shape[1];
    const float *x = T_F32(tx);
    float *y = T_F32(ty);
    int64_t ldx = T_LD(tx), ldy = T_LD(ty);
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++)
            y[j * ldy + i] = x[i * ldx + j];
    return GPUK_OK;
}

/* blocked: 32 x 32 tiles, OpenMP over tiles.  With AVX2 a tile is
 * transposed into a 4 KiB buffer (8 x 8 blocks through registers: 8
 * loads, three rounds of shuffles, 8 stores) and then written out one
 * 128-byte row of y at a time; with AVX-512, 16 x 16 blocks go straight to
 * y as whole 64-byte lines (tr_16x16_avx512).  Every cache line read or written is used whole at once:
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
 * help.) */
#define TR_TILE 32

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

__attribute__((target("avx2"))) static void tr_8x8_avx(const float *x, int64_t ldx, float *y,
                                                      int64_t ldy)
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

/* One row of a tile into y with non-temporal stores: for a y larger than
 * the caches the lines go straight to memory, without first being read in
 * (a plain store reads each line before writing it: 3 bytes of traffic per
 * byte moved instead of 2). */
__attribute__((target("avx2"))) static void tr_row_stream(float *dst, const float *src, int h)
{
    for (int q = 0; q < h; q += 8)
        _mm256_stream_ps(dst + q, _mm256_load_ps(src + q));
}

/* AVX-512: a 16 x 16 block in four rounds of 16 shuffles (pairs of rows
 * interleaved, then quads, then 128-bit lanes twice).  Each output row
 * is 64 bytes, a whole cache line when y is 64-byte aligned, so it can be
 * stored straight to y (streamed when large): no buffer, and no line left
 * half written. */
__attribute__((target("avx512f"))) static void tr_16x16_avx512(const float *x, int64_t ldx,
                                                               float *y, int64_t ldy, int stream)
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

__attribute__((target("avx2"))) static void tr_stream_fence(void)
{
    _mm_sfence();
}
#endif

/* Tile [i0,i0+h) x [j0,j0+w) of x into y, through buf[w][TR_TILE]. */
static void tr_tile(const float *x, int64_t ldx, float *y, int64_t ldy, int64_t i0, int h,
                    int64_t j0, int w, int avx, int stream, float *buf)
{
    const float *xt = x + i0 * ldx + j0;
#if defined(__x86_64__) || defined(__i386__)
    if (avx == 2 && h == TR_TILE && w == TR_TILE) {
        /* stream only whole aligned lines: every row of y aligned */
        float *yt = y + j0 * ldy + i0;
        int aligned = ((uintptr_t)yt & 63) == 0 && (ldy & 15) == 0;
        for (int i = 0; i < TR_TILE; i += 16)
            for (int j = 0; j < TR_TILE; j += 16)
                tr_16x16_avx512(xt + i * ldx + j, ldx, yt + j * ldy + i, ldy, stream && aligned);
        return;
    }
#endif
    if (avx && h == TR_TILE && w == TR_TILE) {
#if defined(__x86_64__) || defined(__i386__)
        for (int i = 0; i < h; i += 8)
            for (int j = 0; j < w; j += 8)
                tr_8x8_avx(xt + i * ldx + j, ldx, buf + j * TR_TILE + i, TR_TILE);
#endif
    } else {
        for (int i = 0; i < h; i++)
            for (int j = 0; j < w; j++)
                buf[j * TR_TILE + i] = xt[i * ldx + j];
    }
    for (int j = 0; j < w; j++) {
        float *dst = y + (j0 + j) * ldy + i0;
#if defined(__x86_64__) || defined(__i386__)
        if (stream && h == TR_TILE && ((uintptr_t)dst & 31) == 0) {
            tr_row_stream(dst, buf + j * TR_TILE, h);
            continue;
        }
#endif
        memcpy(dst, buf + j * TR_TILE, (size_t)h * sizeof(float));
    }
}

/* Outputs from this size on bypass the caches (see tr_row_stream). */
#define TR_STREAM_BYTES ((int64_t)16 << 20)

CPU_KERNEL(transpose_blocked)
{
    const gpuk_tdesc *tx = &args->in[0], *ty = &args->out;
    int64_t m = tx->shape[0], n = tx->shape[1];
    const float *x = T_F32(tx);
    float *y = T_F32(ty);
    int64_t ldx = T_LD(tx), ldy = T_LD(ty);
    int64_t tm = (m + TR_TILE - 1) / TR_TILE, tn = (n + TR_TILE - 1) / TR_TILE;
    int avx = b->isa == CPU_ISA_AVX512 ? 2 : b->isa == CPU_ISA_AVX2 ? 1 : 0;
    int stream = avx && m * n * (int64_t)sizeof(float) >= TR_STREAM_BYTES;
#pragma omp parallel num_threads(b->nthreads)
    {
        float buf[TR_TILE * TR_TILE] __attribute__((aligned(64)));
#pragma omp for schedule(static) collapse(2)
        for (int64_t bi = 0; bi < tm; bi++)
            for (int64_t bj = 0; bj < tn; bj++) {
                int64_t i0 = bi * TR_TILE, j0 = bj * TR_TILE;
                int h = m - i0 < TR_TILE ? (int)(m - i0) : TR_TILE;
                int w = n - j0 < TR_TILE ? (int)(n - j0) : TR_TILE;
                /* the next tile's rows of x: 32 short streams 16 KiB or more
                 * apart, which the hardware prefetchers follow poorly */
                if (j0 + TR_TILE < n)
                    for (int i = 0; i < h; i++)
                        for (int q = 0; q < TR_TILE; q += 16)
                            __builtin_prefetch(x + (i0 + i) * ldx + j0 + TR_TILE + q);
                tr_tile(x, ldx, y, ldy, i0, h, j0, w, avx, stream, buf);
            }
#if defined(__x86_64__) || defined(__i386__)
        if (stream)
            tr_stream_fence();
#endif
    }
    return GPUK_OK;
}

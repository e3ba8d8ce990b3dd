/*
 * tile_pipe.cuh - the k-slice pipeline shared by matmul/warptile_db,
 * warptile_at and warptile_wide (sgemm_async.cu), minplus/pipelined
 * (minplus.cu) and the i32 min-plus rungs pipelined, dpx and dpx_i16x2
 * (minplus_i32.cu): a 128 x W output tile (W = 128, or 256 for warptile_wide)
 * per block of 256 threads, k slices of BK (16, or 32 for warptile_wide) staged
 * through STAGES shared-memory buffers by cp.async, so the copies of the
 * next STAGES-1 slices fly while one slice is computed, with one barrier
 * per slice.
 *
 * Shared layout of a stage: A row-major as[128][SA] (a 16-byte cp.async
 * cannot transpose; SA = BK + 4 keeps a warp's 4 rows at one k in 4
 * distinct bank quads), or with AT transposed as[BK][132] through 4-byte
 * copies; then B row-major bs[BK][W].  Cells outside the matrix or past
 * kend arrive as 0 (cp.async zero-fill): right for a sum of products; an
 * op for which 0 is not neutral fixes the cells past kend in the last
 * slice (the `fix` callback).  Rows not 16-byte aligned (VEC false) use
 * 4-byte copies.
 *
 * The pipeline only moves 4-byte words: the operands are typed float
 * (gkc_mm), but an integer caller passes its int32 (or packed 16-bit pair)
 * matrices through the same pointers and reads and fixes shared memory as
 * integers (minplus_i32.cu).
 */
#ifndef GPUK_CUDA_TILE_PIPE_CUH
#define GPUK_CUDA_TILE_PIPE_CUH

#include "cuda_internal.h"

namespace gkc_pipe {

constexpr int BM = 128, BN = 128, STAGES = 3, NT = 256;

/* The shared layout of a stage for k slices of BK (16 or 32): A row-major
 * as[BM][BK + 4], or with AT transposed, as[BK][BM + 4]; then bs[BK][W]. */
template <int BK, bool AT, int W = BN>
struct geom {
    static constexpr int SA = AT ? BM + 4 : BK + 4;   /* A row stride (floats) */
    static constexpr int A_FLOATS = AT ? BK * SA : BM * SA, B_FLOATS = BK * W;
    static constexpr int STAGE_FLOATS = A_FLOATS + B_FLOATS;
    static constexpr size_t SMEM_BYTES = (size_t)STAGES * STAGE_FLOATS * sizeof(float);
};

/* One thread's share of the copies of a k-slice: NA copies of A, the q-th
 * RA rows after the first, and NB of B, RB rows apart; a copy is a float4
 * when VEC, except for A when AT: a transposing copy can only move single
 * floats.  The row pointers are made once; a slice only moves them on, and
 * only a slice that crosses kend (the end of this block's k range) tests k. */
template <int BK, bool VEC, bool AT, int W = BN>
struct slice_loader {
    using G = geom<BK, AT, W>;
    static constexpr int AW = VEC && !AT ? 4 : 1, BW = VEC ? 4 : 1;   /* floats per copy */
    static constexpr int ACH = BK / AW, BCH = W / BW;    /* copies per row of A, of B */
    static constexpr int RA = NT / ACH, RB = NT / BCH;    /* rows covered per pass */
    static constexpr int NA = BM / RA, NB = BK / RB;      /* copies per thread */
    const float *pa, *pb;
    int64_t astep, bstep, arows;                 /* arows: rows of A left from this thread's first */
    int acol, brow, soff_a, soff_b, bbytes;

    __device__ __forceinline__ slice_loader(const gkc_mm &p, int64_t i0, int64_t j0, int64_t kbeg)
    {
        int t = threadIdx.x;
        int row = t / ACH, bcol = (t % BCH) * BW;
        acol = (t % ACH) * AW;
        brow = t / BCH;
        arows = p.m - (i0 + row);
        int64_t j = j0 + bcol, cols = p.n - j;
        bbytes = cols <= 0 ? 0 : VEC ? (int)(cols >= 4 ? 16 : cols * 4) : 4;
        pa = p.a + (arows > 0 ? (i0 + row) * p.lda + kbeg + acol : 0);
        pb = p.b + (cols > 0 ? (kbeg + brow) * p.ldb + j : 0);
        astep = RA * p.lda;
        bstep = RB * p.ldb;
        soff_a = AT ? acol * G::SA + row : row * G::SA + acol;
        soff_b = G::A_FLOATS + brow * W + bcol;
    }

    __device__ __forceinline__ static int aoff(int q) { return AT ? RA * q : RA * q * G::SA; }

    /* Copy the slice [k0, k0 + BK) into stage st, then move on.  An
     * interior block (VEC, no row or column edge) on a whole slice copies
     * whole floats or float4 every time: no tests at all. */
    __device__ __forceinline__ void issue(const gkc_mm &p, float *st, int64_t k0, int64_t kend,
                                          bool interior)
    {
        if (VEC && interior && k0 + BK <= kend) {
#pragma unroll
            for (int q = 0; q < NA; q++) {
                if (AW == 4)
                    gkc_cp_async16(st + soff_a + aoff(q), pa + q * astep, 16);
                else
                    gkc_cp_async4(st + soff_a + aoff(q), pa + q * astep, 4);
            }
#pragma unroll
            for (int q = 0; q < NB; q++)
                gkc_cp_async16(st + soff_b + RB * q * W, pb + q * bstep, 16);
            pa += BK;
            pb += BK * p.ldb;
            return;
        }
        int64_t left = kend - (k0 + acol);
        int afull = left <= 0 ? 0 : AW == 4 && left < 4 ? (int)left * 4 : AW * 4;
        bool full = k0 + BK <= kend;
#pragma unroll
        for (int q = 0; q < NA; q++) {
            int ab = RA * q < arows ? afull : 0;
            const float *sa = ab ? pa + q * astep : p.a;
            if (AW == 4)
                gkc_cp_async16(st + soff_a + aoff(q), sa, ab);
            else
                gkc_cp_async4(st + soff_a + aoff(q), sa, ab);
        }
#pragma unroll
        for (int q = 0; q < NB; q++) {
            int bb = full || k0 + brow + RB * q < kend ? bbytes : 0;
            const float *sb = bb ? pb + q * bstep : p.b;
            if (VEC)
                gkc_cp_async16(st + soff_b + RB * q * W, sb, bb);
            else
                gkc_cp_async4(st + soff_b + RB * q * W, sb, bb);
        }
        pa += BK;
        pb += BK * p.ldb;
    }

    /* The fast path of issue() one copy at a time, for run_pipe: the
     * q-th copy of A, the q-th of B, then the move to the next slice. */
    __device__ __forceinline__ void issue_a(float *st, int q)
    {
        if (AW == 4)
            gkc_cp_async16(st + soff_a + aoff(q), pa + q * astep, 16);
        else
            gkc_cp_async4(st + soff_a + aoff(q), pa + q * astep, 4);
    }
    __device__ __forceinline__ void issue_b(float *st, int q)
    {
        gkc_cp_async16(st + soff_b + RB * q * W, pb + q * bstep, 16);
    }
    __device__ __forceinline__ void advance(const gkc_mm &p)
    {
        pa += BK;
        pb += BK * p.ldb;
    }
};

/* How the copies of a slice reach the pipeline (run_pipe):
 *   BURST   all of slice ks + 2's copies just before slice ks's compute;
 *   SPREAD  among slice ks's k steps instead, in a block whose slices are
 *           all whole and inside the matrix (VEC); any other block bursts;
 *   WHOLE   SPREAD, the caller promising that every block is such a block
 *           (whole tiles, k a multiple of BK), so the burst is not compiled.
 * A burst of 24 copies a thread (warptile_wide) fills the load/store
 * queue, and the instruction that next writes a copy's address register
 * waits until the queue has read it: on the H200 ncu counted 4% of
 * warptile_wide's stall samples there, none in cuBLAS, whose copies sit
 * among its FMAs (bench/NOTES.md, "Session 8"). */
enum class issue_mode { burst, spread, whole };

/* Run the pipeline over k in [kbeg, kend): compute(as, bs, issue) once per
 * slice (as and bs as geom<BK, AT, W> lays them out, all BK k valid or
 * zero).  A block that bursts first runs, on a slice that ends past kend,
 * fix(as, bs, kvalid) followed by a barrier, and its compute's issue does
 * nothing; a block that spreads has compute call issue(kb, i) at k step
 * kb + i, i a constant of its unrolled body of U steps.  p is one matrix:
 * a batched caller passes the block's batch (gkc_mm_at). */
template <int BK, bool VEC, bool AT, int W, int U, issue_mode M, class Fix, class Compute>
__device__ __forceinline__ void run_pipe(const gkc_mm &p, float *smem, int64_t i0, int64_t j0,
                                         int64_t kbeg, int64_t kend, Fix fix, Compute compute)
{
    using G = geom<BK, AT, W>;
    using L = slice_loader<BK, VEC, AT, W>;
    if constexpr (M != issue_mode::burst) {
        /* copy q of A at step q BK / NA, of B at step q BK / NB + 1: every
         * step of an unrolled body must fall on the same pattern */
        static_assert(BK % U == 0 && (U * L::NA) % BK == 0 && (U * L::NB) % BK == 0 &&
                          BK % L::NA == 0 && BK % L::NB == 0 && BK / L::NB > 1,
                      "run_pipe: copies do not spread evenly over the k steps");
    }
    int64_t nslices = kend > kbeg ? gkc_cdiv(kend - kbeg, BK) : 0;
    L ld(p, i0, j0, kbeg);
    bool interior = M == issue_mode::whole || (i0 + BM <= p.m && j0 + W <= p.n);
    bool spread = M == issue_mode::whole ||
                  (M == issue_mode::spread && VEC && interior && (kend - kbeg) % BK == 0);
    /* Prologue: slices 0 .. STAGES-2 in flight.  Every step commits a
     * group, empty or not, so wait_group counts stay in step. */
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < nslices)
            ld.issue(p, smem + s * G::STAGE_FLOATS, kbeg + s * BK, kend, interior);
        gkc_cp_async_commit();
    }
    int rd = 0, wr = STAGES - 1;   /* stage read this slice, stage written */
    for (int64_t ks = 0; ks < nslices; ks++) {
        gkc_cp_async_wait<STAGES - 2>();   /* slice ks has landed (this thread's copies) */
        __syncthreads();                   /* ... everyone's; and slice ks-1 is consumed */
        float *as = smem + rd * G::STAGE_FLOATS, *bs = as + G::A_FLOATS;
        float *dst = smem + wr * G::STAGE_FLOATS;
        int64_t k0 = kbeg + ks * BK;
        bool more = ks + STAGES - 1 < nslices;
        if (spread) {
            compute((const float *)as, (const float *)bs, [&](int kb, int i) {
                if (!more)
                    return;
                if ((i * L::NA) % BK == 0)
                    ld.issue_a(dst, (kb + i) * L::NA / BK);
                if (i % (BK / L::NB) == 1)
                    ld.issue_b(dst, (kb + i) * L::NB / BK);
            });
            if (more)
                ld.advance(p);
            gkc_cp_async_commit();
        } else {
            if (k0 + BK > kend) {
                fix(as, bs, (int)(kend - k0));
                __syncthreads();
            }
            if (more)
                ld.issue(p, dst, k0 + (STAGES - 1) * BK, kend, interior);
            gkc_cp_async_commit();
            compute((const float *)as, (const float *)bs, [](int, int) {});
        }
        rd = rd == STAGES - 1 ? 0 : rd + 1;
        wr = wr == STAGES - 1 ? 0 : wr + 1;
    }
    gkc_cp_async_wait<0>();   /* no copy may outlive the block */
}

/* run_pipe with every copy in bursts, for a compute(as, bs) that takes no
 * issue. */
template <int BK, bool VEC, bool AT, int W = BN, class Fix, class Compute>
__device__ __forceinline__ void run(const gkc_mm &p, float *smem, int64_t i0, int64_t j0,
                                    int64_t kbeg, int64_t kend, Fix fix, Compute compute)
{
    run_pipe<BK, VEC, AT, W, 1, issue_mode::burst>(
        p, smem, i0, j0, kbeg, kend, fix,
        [&](const float *as, const float *bs, auto) { compute(as, bs); });
}

/* The lane's place in the 128 x W tile: 8 warps of 32 x W/2 (4 down, 2
 * across), lanes 4 x 8; the lane's rows are wm + lm + 4r (r < 8) and its
 * columns wn + ln + 32q + c (c < 4, q < W / 64). */
struct lane_tile {
    int wm, wn, lm, ln;
    __device__ __forceinline__ lane_tile(int w = BN)
    {
        int t = threadIdx.x, warp = t >> 5, lane = t & 31;
        wm = (warp >> 1) * 32;
        wn = (warp & 1) * (w / 2);
        lm = lane >> 3;
        ln = (lane & 7) * 4;
    }
    __device__ __forceinline__ int row(int r) const { return wm + lm + 4 * r; }
    __device__ __forceinline__ int col(int c) const { return wn + ln + (c & 3) + (c >> 2) * 32; }
};

}  // namespace gkc_pipe

#endif /* GPUK_CUDA_TILE_PIPE_CUH */

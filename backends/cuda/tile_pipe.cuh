/*
 * tile_pipe.cuh - the k-slice pipeline shared by every rung that stages
 * its operands through shared memory with cp.async: matmul/warptile_db,
 * warptile_at and warptile_wide (sgemm_async.cu), the f64 tensor-core rung
 * dmma (dgemm_mma.cu), and the min-plus tile of f32, f64 and i32
 * (pipelined, dpx, dpx_i16x2 in minplus.cu): a 128 x W output tile
 * (W = 128, or 256 for warptile_wide) per block of 256 threads, k slices
 * of BK staged through STAGES shared-memory buffers by cp.async, so the
 * copies of the next STAGES-1 slices fly while one slice is computed, with
 * one barrier per slice.
 *
 * Generic over the element type T: float, double, int32, and the packed
 * 16-bit pairs of dpx_i16x2 as unsigned.  Every count is in elements of
 * T: BK, the strides, the pads; a 16-byte copy moves 16 / sizeof(T) of
 * them (4 floats, 2 doubles).  The pipeline never looks at the values:
 * the caller's compute reads them, and its fix sets the cells past k.
 *
 * Shared layout of a stage (geom): A row-major as[128][SA], SA = BK + 4 (a
 * 16-byte cp.async cannot transpose; the pad of 4 elements keeps a warp's
 * 4 rows at one k in 4 distinct bank groups), or with AT transposed
 * as[BK][132] through single-element copies; then B row-major bs[BK][SB],
 * SB = W + PB (PB = 0, or 4 for dmma, whose fragment reads walk down a
 * column of B: doc in dgemm_mma.cu).  Cells outside the matrix or past
 * kend arrive as 0 (cp.async zero-fill): right for a sum of products; an
 * op for which 0 is not neutral fixes the cells past kend in the last
 * slice (the `fix` callback).  Rows not 16-byte aligned (VEC false) use
 * copies of one element (4 or 8 bytes).
 */
#ifndef GPUK_CUDA_TILE_PIPE_CUH
#define GPUK_CUDA_TILE_PIPE_CUH

#include "cuda_internal.h"

namespace gkc_pipe {

constexpr int BM = 128, BN = 128, NT = 256;

/* Elements of T in one 16-byte copy. */
template <class T>
constexpr int V16 = 16 / (int)sizeof(T);

/* One stage of the pipeline for elements T and k slices of BK: A row-major
 * as[BM][BK + 4], or with AT transposed as[BK][BM + 4]; then bs[BK][W + PB];
 * STAGES of them (3, or 4 for dmma). */
template <class T_, int BK_, bool AT_ = false, int W_ = BN, int PB = 0, int STAGES_ = 3>
struct geom {
    using T = T_;
    static constexpr int BK = BK_, W = W_, STAGES = STAGES_;
    static constexpr bool AT = AT_;
    static constexpr int SA = AT ? BM + 4 : BK + 4;   /* A row stride (elements) */
    static constexpr int SB = W + PB;                 /* B row stride */
    static constexpr int A_ELEMS = AT ? BK * SA : BM * SA, B_ELEMS = BK * SB;
    static constexpr int STAGE_ELEMS = A_ELEMS + B_ELEMS;
    static constexpr size_t SMEM_BYTES = (size_t)STAGES * STAGE_ELEMS * sizeof(T);
    static_assert((SA * sizeof(T)) % 16 == 0 && (SB * sizeof(T)) % 16 == 0 &&
                      (A_ELEMS * sizeof(T)) % 16 == 0,
                  "geom: every shared row must start on a 16-byte boundary");
};

/* An 8-byte cp.async (one double when rows are not 16-byte aligned);
 * zero-fill as gkc_cp_async4. */
__device__ __forceinline__ void cp_async8(void *dst, const void *src, int bytes)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(s), "l"(src), "r"(bytes)
                 : "memory");
}

/* A cp.async of SIZE bytes (4, 8 or 16), `bytes` of them read. */
template <int SIZE>
__device__ __forceinline__ void cp_async(void *dst, const void *src, int bytes)
{
    static_assert(SIZE == 4 || SIZE == 8 || SIZE == 16, "cp.async moves 4, 8 or 16 bytes");
    if constexpr (SIZE == 16)
        gkc_cp_async16(dst, src, bytes);
    else if constexpr (SIZE == 8)
        cp_async8(dst, src, bytes);
    else
        gkc_cp_async4(dst, src, bytes);
}

/* One thread's share of the copies of a k-slice: NA copies of A, the q-th
 * RA rows after the first, and NB of B, RB rows apart; a copy is 16 bytes
 * when VEC, except for A when AT: a transposing copy can only move single
 * elements.  The row pointers are made once; a slice only moves them on,
 * and only a slice that crosses kend (the end of this block's k range)
 * tests k. */
template <class G, bool VEC>
struct slice_loader {
    using T = typename G::T;
    static constexpr int BK = G::BK, W = G::W, SA = G::SA, SB = G::SB;
    static constexpr bool AT = G::AT;
    /* elements a copy, bytes a copy */
    static constexpr int AW = VEC && !AT ? V16<T> : 1, BW = VEC ? V16<T> : 1;
    static constexpr int ASZ = AW * (int)sizeof(T), BSZ = BW * (int)sizeof(T);
    static constexpr int ACH = BK / AW, BCH = W / BW;    /* copies per row of A, of B */
    static constexpr int RA = NT / ACH, RB = NT / BCH;    /* rows covered per pass */
    static constexpr int NA = BM / RA, NB = BK / RB;      /* copies per thread */
    static_assert(NT % ACH == 0 && NT % BCH == 0 && BM % RA == 0 && BK % RB == 0,
                  "slice_loader: the copies of a slice do not divide among the threads");
    const T *pa, *pb;
    int64_t astep, bstep, arows;   /* arows: rows of A left from this thread's first */
    int acol, brow, soff_a, soff_b, bbytes;

    __device__ __forceinline__ slice_loader(const gkc_mm_t<T> &p, int64_t i0, int64_t j0,
                                            int64_t kbeg)
    {
        int t = threadIdx.x;
        int row = t / ACH, bcol = (t % BCH) * BW;
        acol = (t % ACH) * AW;
        brow = t / BCH;
        arows = p.m - (i0 + row);
        int64_t j = j0 + bcol, cols = p.n - j;
        bbytes = cols <= 0 ? 0 : VEC ? (int)(cols >= BW ? 16 : cols * (int64_t)sizeof(T))
                                     : (int)sizeof(T);
        pa = p.a + (arows > 0 ? (i0 + row) * p.lda + kbeg + acol : 0);
        pb = p.b + (cols > 0 ? (kbeg + brow) * p.ldb + j : 0);
        astep = RA * p.lda;
        bstep = RB * p.ldb;
        soff_a = AT ? acol * SA + row : row * SA + acol;
        soff_b = G::A_ELEMS + brow * SB + bcol;
    }

    __device__ __forceinline__ static int aoff(int q) { return AT ? RA * q : RA * q * SA; }

    /* Copy the slice [k0, k0 + BK) into stage st, then move on.  An
     * interior block (VEC, no row or column edge) on a whole slice copies
     * whole 16-byte pieces (or single elements of A when AT) every time:
     * no tests at all. */
    __device__ __forceinline__ void issue(const gkc_mm_t<T> &p, T *st, int64_t k0, int64_t kend,
                                          bool interior)
    {
        if (VEC && interior && k0 + BK <= kend) {
#pragma unroll
            for (int q = 0; q < NA; q++)
                cp_async<ASZ>(st + soff_a + aoff(q), pa + q * astep, ASZ);
#pragma unroll
            for (int q = 0; q < NB; q++)
                cp_async<16>(st + soff_b + RB * q * SB, pb + q * bstep, 16);
            pa += BK;
            pb += BK * p.ldb;
            return;
        }
        int64_t left = kend - (k0 + acol);
        int afull = left <= 0 ? 0 : AW > 1 && left < AW ? (int)left * (int)sizeof(T) : ASZ;
        bool full = k0 + BK <= kend;
#pragma unroll
        for (int q = 0; q < NA; q++) {
            int ab = RA * q < arows ? afull : 0;
            const T *sa = ab ? pa + q * astep : p.a;
            cp_async<ASZ>(st + soff_a + aoff(q), sa, ab);
        }
#pragma unroll
        for (int q = 0; q < NB; q++) {
            int bb = full || k0 + brow + RB * q < kend ? bbytes : 0;
            const T *sb = bb ? pb + q * bstep : p.b;
            cp_async<BSZ>(st + soff_b + RB * q * SB, sb, bb);
        }
        pa += BK;
        pb += BK * p.ldb;
    }

    /* The fast path of issue() one copy at a time, for run_pipe: the
     * q-th copy of A, the q-th of B, then the move to the next slice. */
    __device__ __forceinline__ void issue_a(T *st, int q)
    {
        cp_async<ASZ>(st + soff_a + aoff(q), pa + q * astep, ASZ);
    }
    __device__ __forceinline__ void issue_b(T *st, int q)
    {
        cp_async<16>(st + soff_b + RB * q * SB, pb + q * bstep, 16);
    }
    __device__ __forceinline__ void advance(const gkc_mm_t<T> &p)
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
 * slice (as and bs as G lays them out, all BK k valid or zero).  A block
 * that bursts first runs, on a slice that ends past kend, fix(as, bs,
 * kvalid) followed by a barrier, and its compute's issue does nothing; a
 * block that spreads has compute call issue(kb, i) at k step kb + i, i a
 * constant of its unrolled body of U steps.  p is one matrix: a batched
 * caller passes the block's batch (gkc_mm_at). */
template <class G, bool VEC, int U, issue_mode M, class Fix, class Compute>
__device__ __forceinline__ void run_pipe(const gkc_mm_t<typename G::T> &p, typename G::T *smem,
                                         int64_t i0, int64_t j0, int64_t kbeg, int64_t kend,
                                         Fix fix, Compute compute)
{
    using T = typename G::T;
    using L = slice_loader<G, VEC>;
    constexpr int BK = G::BK, STAGES = G::STAGES;
    if constexpr (M != issue_mode::burst) {
        /* copy q of A at step q BK / NA, of B at step q BK / NB + 1: every
         * step of an unrolled body must fall on the same pattern */
        static_assert(BK % U == 0 && (U * L::NA) % BK == 0 && (U * L::NB) % BK == 0 &&
                          BK % L::NA == 0 && BK % L::NB == 0 && BK / L::NB > 1,
                      "run_pipe: copies do not spread evenly over the k steps");
    }
    int64_t nslices = kend > kbeg ? gkc_cdiv(kend - kbeg, BK) : 0;
    L ld(p, i0, j0, kbeg);
    bool interior = M == issue_mode::whole || (i0 + BM <= p.m && j0 + G::W <= p.n);
    bool spread = M == issue_mode::whole ||
                  (M == issue_mode::spread && VEC && interior && (kend - kbeg) % BK == 0);
    /* Prologue: slices 0 .. STAGES-2 in flight.  Every step commits a
     * group, empty or not, so wait_group counts stay in step. */
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < nslices)
            ld.issue(p, smem + s * G::STAGE_ELEMS, kbeg + s * BK, kend, interior);
        gkc_cp_async_commit();
    }
    int rd = 0, wr = STAGES - 1;   /* stage read this slice, stage written */
    for (int64_t ks = 0; ks < nslices; ks++) {
        gkc_cp_async_wait<STAGES - 2>();   /* slice ks has landed (this thread's copies) */
        __syncthreads();                   /* ... everyone's; and slice ks-1 is consumed */
        T *as = smem + rd * G::STAGE_ELEMS, *bs = as + G::A_ELEMS;
        T *dst = smem + wr * G::STAGE_ELEMS;
        int64_t k0 = kbeg + ks * BK;
        bool more = ks + STAGES - 1 < nslices;
        if (spread) {
            compute((const T *)as, (const T *)bs, [&](int kb, int i) {
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
            compute((const T *)as, (const T *)bs, [](int, int) {});
        }
        rd = rd == STAGES - 1 ? 0 : rd + 1;
        wr = wr == STAGES - 1 ? 0 : wr + 1;
    }
    gkc_cp_async_wait<0>();   /* no copy may outlive the block */
}

/* run_pipe with every copy in bursts, for a compute(as, bs) that takes no
 * issue. */
template <class G, bool VEC, class Fix, class Compute>
__device__ __forceinline__ void run(const gkc_mm_t<typename G::T> &p, typename G::T *smem,
                                    int64_t i0, int64_t j0, int64_t kbeg, int64_t kend, Fix fix,
                                    Compute compute)
{
    using T = typename G::T;
    run_pipe<G, VEC, 1, issue_mode::burst>(
        p, smem, i0, j0, kbeg, kend, fix,
        [&](const T *as, const T *bs, auto) { compute(as, bs); });
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

/*
 * dgemm_mma.cu - the f64 matmul rungs on the FP64 tensor cores, after the
 * SIMT ladder of matmul.cu and sgemm_regtile.cu in double: dmma (copies
 * by the threads, cp.async) and dmma_tma (copies by the copy engine,
 * further down).
 *
 * Why the tensor cores.  The FP64 pipe of an H100 SM does 64 DFMA a clock
 * (about 34 TFLOP/s for the GPU); its DMMA units do 128 FMA a clock (about
 * 67).  PTX gives them to a warp as mma.sync with f64 shapes: m8n8k4 from
 * sm_80, and from sm_90 m16n8k4, m16n8k8 and m16n8k16, each one SASS
 * instruction (DMMA.16x8x16 for the largest: 2048 FMAs, some 64 clocks of
 * one SM quarter's tensor core).  This rung uses m16n8k16: the most FMAs
 * per instruction and per read of the accumulators, so the fewest
 * instructions and register reads between the loads and the tensor core.
 *
 * The tile.  A block of 256 threads computes 128 x 128 outputs, k slices of
 * 32 staged through 3 cp.async stages (tile_pipe.cuh: the pipeline of the
 * f32 rungs, in doubles).  Its 8 warps are 4 down by 2 across, each a 32 x
 * 64 warp tile: 2 x 8 DMMA fragments of 16 x 8, so a slice is 32 DMMAs a
 * warp, and the 64 accumulators a lane (128 registers) are why one block
 * fills an SM (launch bounds 256 x 1; 128 x 128 doubles of output tile
 * take half the register file, a larger tile would not fit).  The next
 * slices' copies are issued among the DMMAs (tile_pipe.cuh's SPREAD), and
 * tiles are walked in bands of 8 row-tiles (dmma_order).
 *
 * The fragments are gkc_dmma16's (cuda_internal.h; g = lane / 4, t = lane
 * % 4): a lane holds A[g + 8 (v & 1)][t + 4 (v >> 1)], B[t + 4 v][g] and
 * C[g + 8 (v >> 1)][2 t + (v & 1)] of each 16 x 16, 16 x 8, 16 x 8 piece.
 * ldmatrix moves no 64-bit elements, so each value is one 8-byte shared
 * load: per k step a lane loads 16 of A and 32 of B for 16 DMMAs.  Shared
 * rows are padded so that no load conflicts: 8-byte loads are served half
 * a warp (16 lanes, g < 4 or g >= 4) at a time, and
 *   A as[128][36]: lanes (g, t) hit banks 2 (36 g + t) mod 32 = 8 g + 2 t
 *     (+ a constant), 16 distinct pairs;
 *   B bs[32][132]: lanes hit 2 (132 t + g) mod 32 = 8 t + 2 g, likewise.
 * (An unpadded B row of 128 doubles would put the four t of a column in
 * one bank pair: 4-way conflicts.)
 *
 * Everything else is the contract of the other matmul rungs: any m, n, k
 * (cp.async zero-fills cells outside the matrix, which add nothing), rows
 * not 16-byte aligned (8-byte copies), strided operands, the batch in
 * blockIdx.z with broadcast batches (gkc_mm_at), the bias as the start of
 * every accumulator, k = 0 giving the bias or zeros, each output written
 * once.
 */
#include <atomic>
#include <cuda.h>
#include <cudaTypedefs.h>
#include "cuda_internal.h"
#include "tile_pipe.cuh"

namespace {

using gkc_pipe::BM;
using gkc_pipe::BN;
using gkc_pipe::NT;

/* k slices of 32 (two m16n8k16 steps), 3 stages of 69 KB: 207 KB a block
 * (of the 227 an SM offers).  With two steps a slice, ptxas loads the
 * second step's fragments among the first step's DMMAs, so the tensor
 * core waits on shared memory only at the slice's start; slices of 16
 * (4 stages, 146 KB) leave that wait in every 16 k, and half the k per
 * barrier (cuobjdump -sass; 234 registers, 224 with slices of 16, no
 * spills). */
constexpr int BK = 32, STAGES = 3;
using G = gkc_pipe::geom<double, BK, false, BN, 4, STAGES>;
constexpr int WM = 32, WN = 64;                  /* warp tile */
constexpr int FM = WM / 16, FN = WN / 8;         /* DMMA fragments down and across */

/* Tiles walked GROUP row-tiles at a time: down a band of GROUP row-tiles,
 * column by column, so that the blocks running at once share rows of A
 * and columns of B in L2.  (bx, by) is the block's place in its launch. */
template <int GROUP>
__device__ __forceinline__ void dmma_order(int *bx, int *by)
{
    if constexpr (GROUP > 1) {
        int nx = gridDim.x, ny = gridDim.y, id = blockIdx.y * nx + blockIdx.x,
            per = GROUP * nx;
        int first = id / per * GROUP, rows = min(GROUP, ny - first), r = id % per;
        *by = first + r % rows;
        *bx = r / rows;
    } else {
        *bx = blockIdx.x;
        *by = blockIdx.y;
    }
}

/* WHOLE: every block whole and inside the matrix, k a multiple of BK
 * (the host checks): the burst path of edge blocks is not compiled (228
 * registers against 246, and no test a slice). */
template <bool VEC, bool WHOLE>
__global__ void __launch_bounds__(NT, 1) matmul_dmma(gkc_mm_t<double> p, int64_t y0, int64_t z0)
{
    extern __shared__ __align__(16) unsigned char smem_bytes[];
    double *smem = reinterpret_cast<double *>(smem_bytes);
    p = gkc_mm_at(p, z0 + blockIdx.z);
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    int wm = (warp >> 1) * WM, wn = (warp & 1) * WN, bx, by;
    dmma_order<8>(&bx, &by);
    int64_t i0 = (y0 + by) * BM, j0 = (int64_t)bx * BN;
    /* the lane's accumulators: fragment (i, j), element v at row
     * wm + 16 i + g + 8 (v >> 1), column wn + 8 j + 2 t + (v & 1) */
    double acc[FM][FN][4];
#pragma unroll
    for (int j = 0; j < FN; j++)
#pragma unroll
        for (int h = 0; h < 2; h++) {
            int64_t col = j0 + wn + 8 * j + 2 * t + h;
            double start = p.bias && col < p.n ? p.bias[col] : 0.0;
#pragma unroll
            for (int i = 0; i < FM; i++) {
                acc[i][j][h] = start;
                acc[i][j][h + 2] = start;
            }
        }
    /* the lane's first A and B elements in a stage; the rest are constant
     * offsets from them */
    int aoff = (wm + g) * G::SA + t, boff = t * G::SB + wn + g;
    /* The next slices' copies go out among this slice's DMMAs (SPREAD,
     * tile_pipe.cuh), one after each fragment column j: run_pipe issues
     * A's q-th copy at k step 4 q and B's at 4 q + 1, so even columns
     * name step kk + 2 j (an A copy) and odd ones kk + 2 j - 1 (a B copy).
     * Issued all at once after the barrier, as dmma first did, every warp
     * spent its first ~250 clocks of a slice on copies while the tensor
     * cores idled (bench/NOTES.md, "dmma's copies among its DMMAs": 84% of
     * cuBLAS against 95% spread, same tile, in the harness). */
    constexpr auto MODE = WHOLE ? gkc_pipe::issue_mode::whole : gkc_pipe::issue_mode::spread;
    gkc_pipe::run_pipe<G, VEC, BK, MODE>(
        p, smem, i0, j0, 0, p.k, [](double *, double *, int) {},
        [&](const double *as, const double *bs, auto issue) {
#pragma unroll
        for (int kk = 0; kk < BK; kk += 16) {
            double af[FM][8];
#pragma unroll
            for (int i = 0; i < FM; i++)
#pragma unroll
                for (int v = 0; v < 8; v++)
                    af[i][v] = as[aoff + (16 * i + 8 * (v & 1)) * G::SA + kk + 4 * (v >> 1)];
#pragma unroll
            for (int j = 0; j < FN; j++) {
                double bf[4];
#pragma unroll
                for (int v = 0; v < 4; v++)
                    bf[v] = bs[boff + (kk + 4 * v) * G::SB + 8 * j];
#pragma unroll
                for (int i = 0; i < FM; i++)
                    gkc_dmma16(acc[i][j], af[i], bf);
                issue(0, kk + 2 * j - (j & 1));
            }
        }
    });
#pragma unroll
    for (int i = 0; i < FM; i++)
#pragma unroll
        for (int h = 0; h < 2; h++) {
            int64_t row = i0 + wm + 16 * i + g + 8 * h;
            if (row >= p.m)
                continue;
            double *crow = p.c + row * p.ldc;
#pragma unroll
            for (int j = 0; j < FN; j++)
#pragma unroll
                for (int e = 0; e < 2; e++) {
                    int64_t col = j0 + wn + 8 * j + 2 * t + e;
                    if (col < p.n)
                        crow[col] = acc[i][j][2 * h + e];
                }
        }
}

}  // namespace

/* dmma: x over column tiles, y over row tiles, z over the batch. */
GKC_KERNEL(gkc_matmul_dmma)
{
    GKC_TRY(gkc_enter(b));
    gkc_mm_t<double> p = gkc_mm_from<double>(args);
    bool whole = gkc_mm_vec(&p) && p.m % BM == 0 && p.n % BN == 0 && p.k % BK == 0;
    auto kern = whole ? matmul_dmma<true, true>
                      : gkc_mm_vec(&p) ? matmul_dmma<true, false> : matmul_dmma<false, false>;
    constexpr size_t smem = G::SMEM_BYTES;
    GKC_CUDA(b, cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem),
             "matmul/dmma: cudaFuncSetAttribute");
    cudaStream_t s = b->stream;
    return gkc_launch_grid(b, p.op, "dmma", gkc_cdiv(p.n, BN), gkc_cdiv(p.m, BM), p.batch,
                           [&](dim3 g, int64_t y0, int64_t z0) {
                               kern<<<g, NT, smem, s>>>(p, y0, z0);
                           });
}

/*
 * dmma_tma: dmma's tensor-core step fed by the copy engine.
 *
 * Why.  The f64 tuning harness (bench/NOTES.md, "f64 tuning") ran dmma's
 * tile with its global copies left out at 60-61 TFLOP/s, cuBLAS's speed,
 * and with them at 48-50: what costs is the threads' own cp.async (their
 * address arithmetic, 16 LDGSTS a slice a thread, and the barrier every
 * slice that makes the copies of all threads visible), not the loop.
 * Here one thread asks the copy engine (cp.async.bulk.tensor, TMA) for
 * whole boxes, each stage completing on an mbarrier that counts the bytes
 * (full), and each warp announces on a second mbarrier (empty) when it
 * has read a stage: the math warps issue no copy and meet no block-wide
 * barrier.  The thread that copies is lane 0 of warp 0, which refills a
 * stage LAG slices after it was read (it waits on that stage's empty);
 * the others never wait for it unless the data is late.
 *
 * Shared layout.  TMA writes a box densely, so the padding of dmma is not
 * available; its 128-byte swizzle (16-byte chunk c of a 128-byte row r
 * stored at chunk c ^ (r % 8), boxes on 1024-byte boundaries) is.  A box
 * is 16 doubles wide (128 bytes): A arrives as BK / 16 boxes of [BM rows]
 * x [16 k], B as BN / 16 boxes of [BK k] x [16 columns].
 *
 * Fragments without conflicts.  Within each 16 of k a lane's four k
 * (the fragment's t + 4w, w < 4) may be any four, if A and B agree: the
 * sum is the same products in another order.  Lane t takes chunks c0 and
 * c0 ^ 1 (k = 2 c0, 2 c0 + 1, 2 c0 ^ 2, 2 c0 ^ 2 + 1) with c0 = 0, 3, 5,
 * 6 for t = 0..3, so A's fragment is two 16-byte loads a row (a128 of the
 * harness).  For B, fragments 2q and 2q + 1 take columns 2g and 2g + 1 of
 * box q (16 columns), so one 16-byte load a k gives a lane both: 4 loads
 * of B feed 4 DMMAs where dmma needs 16.  Their outputs are columns
 * 16 q + 4 t + 2 e + (fragment & 1), four adjacent columns a lane: two
 * 16-byte stores.  Banks (a 16-byte load is served 8 lanes at a time):
 *   A, row g (mod 8), chunk c ^ g: c0 >> 1 is t, so 8 lanes (two g, four
 *     t) hit 8 distinct chunks;
 *   B, row k = 2 c + e, chunk g ^ (k % 8): c0 % 4 = 0, 3, 1, 2 and
 *     (c0 ^ 1) % 4 = 1, 2, 0, 3 are distinct over t, g's low bit fills
 *     bit 0: 8 distinct chunks.
 *
 * The contract is dmma's: any m, n (boxes past the edge arrive as zeros
 * and those outputs are not stored; a box wholly past n is not asked
 * for), any k (the slice's last 16 of k, wholly past k, is neither copied
 * nor computed), bias, strides, batches with broadcast operands (a
 * tensor map of [batch][rows][cols], batch 1 for a broadcast one).  The
 * copy engine needs 16-byte aligned bases and row and batch strides; a
 * call without them, with k = 0, on a device before sm_90, or that the
 * driver cannot describe runs dmma instead.
 */

namespace {

/* ---------------------------------------------------------------- copy engine (PTX 8.0, sm_90) */

__device__ __forceinline__ uint32_t tm_smem(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void tm_bar_init(uint64_t *bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(tm_smem(bar)), "r"(count)
                 : "memory");
}

/* the inits visible to the other threads and to the copy engine */
__device__ __forceinline__ void tm_bar_init_done()
{
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

/* the copier's arrival on full: `bytes` of boxes will land on it */
__device__ __forceinline__ void tm_bar_expect(uint64_t *bar, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(tm_smem(bar)),
                 "r"(bytes)
                 : "memory");
}

__device__ __forceinline__ void tm_bar_arrive(uint64_t *bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(tm_smem(bar)) : "memory");
}

/* until the phase of this parity has completed (the u-th phase of a
 * barrier, from 0, has parity u & 1) */
__device__ __forceinline__ void tm_bar_wait(uint64_t *bar, unsigned parity)
{
    uint32_t done;
    do {
        asm volatile("{\n.reg .pred p;\n"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                     "selp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(done)
                     : "r"(tm_smem(bar)), "r"(parity)
                     : "memory");
    } while (!done);
}

/* box (c0 along the contiguous dimension, c1 rows, c2 batch) into dst */
__device__ __forceinline__ void tm_load(void *dst, const CUtensorMap *map, uint64_t *bar, int c0,
                                        int c1, int c2)
{
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3, %4}], [%5];\n" ::"r"(tm_smem(dst)),
                 "l"((uint64_t)map), "r"(c0), "r"(c1), "r"(c2), "r"(tm_smem(bar))
                 : "memory");
}

/* ---------------------------------------------------------------- the tile */

/* A block of BM x 128 outputs (BM / 32 x 2 warps of 32 x 64, dmma's warp
 * tile), k slices of BK through STAGES stages, the copier LAG slices
 * behind the readers, MINB blocks an SM, tiles walked GROUP row-tiles at a
 * time (1: plain order). */
template <int BM_, int BK_, int STAGES_, int LAG_, int MINB_, int GROUP_>
struct tma_cfg {
    static constexpr int BM = BM_, BN = 128, BK = BK_, STAGES = STAGES_, LAG = LAG_;
    static constexpr int MINB = MINB_, GROUP = GROUP_;
    static constexpr int WARPS = BM / 32 * 2, NT = WARPS * 32;
    static constexpr int DEPTH = STAGES - LAG;               /* slices copied ahead */
    static constexpr int A_BOX = BM * 16, B_BOX = BK * 16;   /* doubles */
    static constexpr int A_ST = BK / 16 * A_BOX, ST = A_ST + BN / 16 * B_BOX;
    static constexpr size_t SMEM = (size_t)STAGES * ST * sizeof(double) + 2 * STAGES * 8 + 1024;
    static_assert(BM % 32 == 0 && BK % 16 == 0 && BK <= 256 && BM <= 256 && LAG >= 1 &&
                      DEPTH >= 1,
                  "tma_cfg: a box is at most 256 rows, and the copier must trail the readers");
};

template <class C>
__global__ void __launch_bounds__(C::NT, C::MINB)
    matmul_dmma_tma(const __grid_constant__ CUtensorMap ma, const __grid_constant__ CUtensorMap mb,
                    gkc_mm_t<double> p, int64_t y0, int64_t z0)
{
    constexpr int BM = C::BM, BN = C::BN, BK = C::BK, S = C::STAGES, D = C::DEPTH;
    constexpr int FM = 2, FN = 8;
    extern __shared__ __align__(16) unsigned char tma_smem[];
    double *sm = reinterpret_cast<double *>(tma_smem + ((1024 - (tm_smem(tma_smem) & 1023)) & 1023));
    uint64_t *full = reinterpret_cast<uint64_t *>(sm + S * C::ST), *empty = full + S;
    int64_t z = z0 + blockIdx.z;
    p = gkc_mm_at(p, z);
    int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31, g = lane >> 2, t = lane & 3;
    int wm = (warp >> 1) * 32, wn = (warp & 1) * 64;
    int bx, by;
    dmma_order<C::GROUP>(&bx, &by);
    int64_t i0 = (y0 + by) * BM, j0 = (int64_t)bx * BN;
    int za = p.sa ? (int)z : 0, zb = p.sb ? (int)z : 0;
    int nslices = (int)gkc_cdiv(p.k, BK);

    /* slice q into its stage: every box that holds a cell of the matrix */
    auto copy = [&](int q) {
        int st = q % S;
        double *as = sm + st * C::ST, *bs = as + C::A_ST;
        int64_t k0 = (int64_t)q * BK, kl = p.k - k0, nl = p.n - j0;
        int na = kl >= BK ? BK / 16 : (int)((kl + 15) / 16);
        int nb = nl >= BN ? BN / 16 : (int)((nl + 15) / 16);
        tm_bar_expect(&full[st], (unsigned)((na * C::A_BOX + nb * C::B_BOX) * sizeof(double)));
        for (int kb = 0; kb < na; kb++)
            tm_load(as + kb * C::A_BOX, &ma, &full[st], (int)(k0 + 16 * kb), (int)i0, za);
        for (int jb = 0; jb < nb; jb++)
            tm_load(bs + jb * C::B_BOX, &mb, &full[st], (int)(j0 + 16 * jb), (int)k0, zb);
    };
    if (tid == 0) {
        for (int s = 0; s < S; s++) {
            tm_bar_init(&full[s], 1);
            tm_bar_init(&empty[s], C::WARPS);
        }
        tm_bar_init_done();
        for (int q = 0; q < D && q < nslices; q++)
            copy(q);
    }
    __syncthreads();

    /* accumulators as dmma's: fragment (i, j), element v at row wm + 16 i +
     * g + 8 (v >> 1), column wn + 8 j + 2 t + (v & 1) */
    double acc[FM][FN][4];
#pragma unroll
    for (int j = 0; j < FN; j++)
#pragma unroll
        for (int e = 0; e < 2; e++) {
            int64_t col = j0 + wn + 8 * j + 2 * t + e;
            double start = p.bias && col < p.n ? p.bias[col] : 0.0;
#pragma unroll
            for (int i = 0; i < FM; i++) {
                acc[i][j][e] = start;
                acc[i][j][e + 2] = start;
            }
        }
    /* the lane's k of slot w within 16 (see the top), and where A's and
     * B's elements of that k sit in a stage: A at row wm + g (+ 16 i + 8 h,
     * + a box for the second 16 of k), B in box wn / 16 at column g of the
     * fragment pair's first (jp = 0) or second (jp = 1) 8 (+ a box for
     * each next 16 columns, + 16 rows for the second 16 of k) */
    int aoff[4], boff[4][2];
#pragma unroll
    for (int w = 0; w < 4; w++) {
        int u = t ^ w, kw = 8 * (u >> 1) + 2 * t + (u & 1);
        aoff[w] = (wm + g) * 16 + 2 * ((kw >> 1) ^ g) + (kw & 1);
#pragma unroll
        for (int jp = 0; jp < 2; jp++)
            boff[w][jp] = (wn / 16) * C::B_BOX + kw * 16 + 2 * ((4 * jp + (g >> 1)) ^ (kw & 7)) +
                          (g & 1);
    }
    int st = 0;
    unsigned phase = 0;
    for (int ks = 0; ks < nslices; ks++) {
        if (warp == 0) {
            int q = ks + D;
            if (lane == 0 && q < nslices) {
                if (q >= S)
                    tm_bar_wait(&empty[q % S], ((q / S) & 1) ^ 1);
                copy(q);
            }
            __syncwarp();
        }
        tm_bar_wait(&full[st], phase);
        const double *as = sm + st * C::ST, *bs = as + C::A_ST;
        int64_t kl = p.k - (int64_t)ks * BK;
#pragma unroll
        for (int kk = 0; kk < BK; kk += 16) {
            if (kk > 0 && kl <= kk)
                break;   /* not copied: wholly past k */
            const double *ak = as + (kk / 16) * C::A_BOX, *bk = bs + kk * 16;
            double af[FM][8];
#pragma unroll
            for (int i = 0; i < FM; i++)
#pragma unroll
                for (int v = 0; v < 8; v++)
                    af[i][v] = ak[aoff[v >> 1] + (16 * i + 8 * (v & 1)) * 16];
#pragma unroll
            for (int j = 0; j < FN; j++) {
                double bf[4];
#pragma unroll
                for (int w = 0; w < 4; w++)
                    bf[w] = bk[boff[w][j & 1] + (j >> 1) * C::B_BOX];
#pragma unroll
                for (int i = 0; i < FM; i++)
                    gkc_dmma16(acc[i][j], af[i], bf);
            }
        }
        __syncwarp();
        if (lane == 0)
            tm_bar_arrive(&empty[st]);
        if (++st == S) {
            st = 0;
            phase ^= 1;
        }
    }

    bool pairs = (p.ldc & 1) == 0 && gkc_aligned16(p.c);
#pragma unroll
    for (int i = 0; i < FM; i++)
#pragma unroll
        for (int h = 0; h < 2; h++) {
            int64_t row = i0 + wm + 16 * i + g + 8 * h;
            if (row >= p.m)
                continue;
            double *crow = p.c + row * p.ldc;
#pragma unroll
            for (int j = 0; j < FN; j++) {
                int64_t col = j0 + wn + 8 * j + 2 * t;
                double v0 = acc[i][j][2 * h], v1 = acc[i][j][2 * h + 1];
                if (pairs && col + 1 < p.n) {
                    *reinterpret_cast<double2 *>(crow + col) = make_double2(v0, v1);
                } else {
                    if (col < p.n)
                        crow[col] = v0;
                    if (col + 1 < p.n)
                        crow[col + 1] = v1;
                }
            }
        }
}

/* cuTensorMapEncodeTiled, found once through the runtime (the plugin does
 * not link the driver library); NULL when the driver has none. */
PFN_cuTensorMapEncodeTiled_v12000 tma_encoder()
{
    static std::atomic<int> state{0};   /* 0: not looked up, 1: found, -1: absent */
    static std::atomic<PFN_cuTensorMapEncodeTiled_v12000> fn{nullptr};
    if (state.load(std::memory_order_acquire) == 0) {
        void *f = nullptr;
        cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
        cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000,
                                                         cudaEnableDefault, &q);
        if (e == cudaSuccess && q == cudaDriverEntryPointSuccess && f) {
            fn.store((PFN_cuTensorMapEncodeTiled_v12000)f, std::memory_order_relaxed);
            state.store(1, std::memory_order_release);
        } else {
            (void)cudaGetLastError();
            state.store(-1, std::memory_order_release);
        }
    }
    return state.load(std::memory_order_acquire) == 1 ? fn.load(std::memory_order_relaxed)
                                                      : nullptr;
}

/* The map of an f64 operand stored [batch][rows][cols] (row stride ld,
 * batch stride sbatch, 0 for one every batch shares), boxes of 16 columns
 * by box_rows, 128-byte swizzle, zeros outside.  False where the copy
 * engine cannot describe it. */
bool tma_map(CUtensorMap *map, const double *base, int64_t rows, int64_t cols, int64_t ld,
             int64_t batch, int64_t sbatch, int box_rows)
{
    PFN_cuTensorMapEncodeTiled_v12000 encode = tma_encoder();
    if (!encode || rows < 1 || cols < 1 || rows > INT32_MAX || cols > INT32_MAX ||
        batch > INT32_MAX || ld < 0 || sbatch < 0)
        return false;
    int64_t nb = sbatch ? batch : 1;
    int64_t whole = (rows * ld * 8 + 15) / 16 * 16;   /* a batch stride never used */
    cuuint64_t dim[3] = {(cuuint64_t)cols, (cuuint64_t)rows, (cuuint64_t)nb};
    cuuint64_t stride[2] = {(cuuint64_t)(ld * 8), (cuuint64_t)(sbatch ? sbatch * 8 : whole)};
    cuuint32_t box[3] = {16, (cuuint32_t)box_rows, 1}, estride[3] = {1, 1, 1};
    CUresult r = encode(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT64, 3, (void *)base, dim, stride, box,
                        estride, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                        CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    return r == CUDA_SUCCESS;
}

/* Launch configuration C on p, or *ran = false where the copy engine
 * cannot take the call (the caller runs dmma). */
template <class C>
gpuk_status dmma_tma_launch(gpuk_bctx *b, const gkc_mm_t<double> &p, bool *ran)
{
    *ran = false;
    CUtensorMap ma, mb;
    if (b->dev.cc_major < 9 || p.k < 1 || !gkc_mm_vec(&p) ||
        !tma_map(&ma, p.a, p.m, p.k, p.lda, p.batch, p.sa, C::BM) ||
        !tma_map(&mb, p.b, p.k, p.n, p.ldb, p.batch, p.sb, C::BK))
        return GPUK_OK;
    *ran = true;
    auto kern = matmul_dmma_tma<C>;
    GKC_CUDA(b, cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     (int)C::SMEM),
             "matmul/dmma_tma: cudaFuncSetAttribute");
    cudaStream_t s = b->stream;
    return gkc_launch_grid(b, p.op, "dmma_tma", gkc_cdiv(p.n, C::BN), gkc_cdiv(p.m, C::BM),
                           p.batch, [&](dim3 g, int64_t y0, int64_t z0) {
                               kern<<<g, C::NT, C::SMEM, s>>>(ma, mb, p, y0, z0);
                           });
}

/* The rung's configuration (bench/NOTES.md, "dmma fed by the copy
 * engine": the harness's candidates and which won). */
using tma_rung = tma_cfg<128, 16, 6, 1, 1, 8>;

}  // namespace

/* dmma_tma: as dmma (x column tiles, y row tiles, z the batch), or dmma
 * itself where the copy engine cannot take the operands. */
GKC_KERNEL(gkc_matmul_dmma_tma)
{
    GKC_TRY(gkc_enter(b));
    gkc_mm_t<double> p = gkc_mm_from<double>(args);
    bool ran = false;
    GKC_TRY(dmma_tma_launch<tma_rung>(b, p, &ran));
    return ran ? GPUK_OK : gkc_matmul_dmma(b, args);
}

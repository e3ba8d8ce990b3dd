/*
 * dgemm_mma.cu - the f64 matmul rung on the FP64 tensor cores, after the
 * SIMT ladder of matmul.cu and sgemm_regtile.cu in double: dmma.
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
 * take half the register file, a larger tile would not fit).
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

template <bool VEC>
__global__ void __launch_bounds__(NT, 1) matmul_dmma(gkc_mm_t<double> p, int64_t y0, int64_t z0)
{
    extern __shared__ __align__(16) unsigned char smem_bytes[];
    double *smem = reinterpret_cast<double *>(smem_bytes);
    p = gkc_mm_at(p, z0 + blockIdx.z);
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    int wm = (warp >> 1) * WM, wn = (warp & 1) * WN;
    int64_t i0 = (y0 + blockIdx.y) * BM, j0 = (int64_t)blockIdx.x * BN;
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
    gkc_pipe::run<G, VEC>(p, smem, i0, j0, 0, p.k, [](double *, double *, int) {},
                          [&](const double *as, const double *bs) {
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
    auto kern = gkc_mm_vec(&p) ? matmul_dmma<true> : matmul_dmma<false>;
    constexpr size_t smem = G::SMEM_BYTES;
    GKC_CUDA(b, cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem),
             "matmul/dmma: cudaFuncSetAttribute");
    cudaStream_t s = b->stream;
    return gkc_launch_grid(b, p.op, "dmma", gkc_cdiv(p.n, BN), gkc_cdiv(p.m, BM), p.batch,
                           [&](dim3 g, int64_t y0, int64_t z0) {
                               kern<<<g, NT, smem, s>>>(p, y0, z0);
                           });
}

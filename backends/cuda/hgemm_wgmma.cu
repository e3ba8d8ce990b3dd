/*
 * hgemm_wgmma.cu - rung 4 of the f16/bf16 matrix-product ladder (issue 27),
 * wgmma_tma: Hopper's own path to the tensor cores.  Built for sm_90a
 * alone (backends/cuda/local.mk); on any other GPU, and for operands the
 * copy engine cannot describe, the rung runs mma_async (hgemm_mma.cu).
 *
 * What changes from mma_async, and why it is faster:
 *  - wgmma: one instruction of a warpgroup (4 warps) multiplies a 64x128
 *    tile by a 128-wide k16 slice, 8x the work of the four warps' mma.sync,
 *    reading both operands straight from shared memory through a
 *    descriptor: no ldmatrix, no fragment registers, and it runs
 *    asynchronously, so issuing it costs the warps almost nothing;
 *  - TMA (cp.async.bulk.tensor): one thread asks the copy engine for a
 *    whole 128x64 box, which lands swizzled as wgmma reads it (128-byte
 *    swizzle, tc_hopper.cuh), zeros outside the matrix, and completes on
 *    an mbarrier with a byte count: no address arithmetic and no copy
 *    instructions in the other 127 threads.
 * What it keeps: one warpgroup does everything.  Per slice it waits for
 * the copy, issues 8 wgmma (2 halves of the 128x128 tile by 4 k steps),
 * waits for them, meets the other warps at a barrier, and only then lets
 * thread 0 refill the stage with the slice 3 ahead.  The tensor cores idle
 * through each wait and barrier; a second block on the SM (3 stages of
 * 32 KB each leave room for two) fills part of the gap.  bench/NOTES.md,
 * "Tensor cores": about 61% of cuBLAS expected.
 *
 * Layouts: a stored [m][k] (K-major) or, GEMM's trans_a, [k][m] (MN-major),
 * b stored [k][n] (MN-major, the usual matmul) or, trans_b, [n][k]; the
 * boxes and descriptors for each are those of tc_hopper.cuh, and wgmma's
 * imm-trans bits tell it which.  The batch is the third coordinate of the
 * tensor maps (an operand every batch shares has one batch).
 */
#include "tc_hopper.cuh"

namespace {

constexpr int BM = 128, BN = 128, BK = 64, STAGES = 3, NT = 128;
constexpr int A_BYTES = BM * BK * 2, B_BYTES = BN * BK * 2, STAGE_BYTES = A_BYTES + B_BYTES;
constexpr int BOX = 64 * 128;   /* bytes of a 64-row box of an MN-major tile */
constexpr size_t SMEM = (size_t)STAGES * STAGE_BYTES + 1024;

/* Slice k0 of the tile (i0, j0) of batch (za, zb) into stage st, on bar.
 * A 64-wide box that lies wholly past the edge of an m x n matrix is not
 * asked for (tc_hopper.cuh, "Boxes past the edge"). */
template <int TA, int TB>
__device__ __forceinline__ void load_slice(const CUtensorMap *ma, const CUtensorMap *mb,
                                           unsigned char *st, uint64_t *bar, int i0, int j0,
                                           int k0, int za, int zb, int64_t m, int64_t n)
{
    bool a2 = !TA || i0 + 64 < m, b2 = TB || j0 + 64 < n;
    tc_bar_expect(bar, STAGE_BYTES - (a2 ? 0 : BOX) - (b2 ? 0 : BOX));
    unsigned char *sa = st, *sb = st + A_BYTES;
    if (TA) {
        tc_tma_load(sa, ma, bar, i0, k0, za);
        if (a2)
            tc_tma_load(sa + BOX, ma, bar, i0 + 64, k0, za);
    } else {
        tc_tma_load(sa, ma, bar, k0, i0, za);
    }
    if (TB) {
        tc_tma_load(sb, mb, bar, k0, j0, zb);
    } else {
        tc_tma_load(sb, mb, bar, j0, k0, zb);
        if (b2)
            tc_tma_load(sb + BOX, mb, bar, j0 + 64, k0, zb);
    }
}

template <class T, int TA, int TB>
__global__ void __launch_bounds__(NT, 2)
    hgemm_wgmma_tma(const __grid_constant__ CUtensorMap ma, const __grid_constant__ CUtensorMap mb,
                    gkc_tc p, int64_t tiles_m, int64_t tiles_n)
{
    extern __shared__ unsigned char smem_raw[];
    __shared__ __align__(8) uint64_t full[STAGES];
    unsigned char *smem = tc_align1024(smem_raw);
    int64_t per = tiles_m * tiles_n, z = blockIdx.x / per, r = blockIdx.x - z * per;
    int64_t mt = r / tiles_n, nt = r - mt * tiles_n;
    int i0 = (int)(mt * BM), j0 = (int)(nt * BN);
    int za = p.sa ? (int)z : 0, zb = p.sb ? (int)z : 0;
    int nk = (int)gkc_cdiv(p.k, BK);
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; s++)
            tc_bar_init(&full[s], 1);
        tc_bar_init_fence();
        for (int s = 0; s < STAGES && s < nk; s++)
            load_slice<TA, TB>(&ma, &mb, smem + s * STAGE_BYTES, &full[s], i0, j0, s * BK, za, zb,
                               p.m, p.n);
    }
    __syncthreads();

    float acc[2][64];
    for (int kt = 0; kt < nk; kt++) {
        int s = kt % STAGES;
        tc_bar_wait(&full[s], (kt / STAGES) & 1);
        unsigned char *sa = smem + s * STAGE_BYTES, *sb = sa + A_BYTES;
        tc_wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < BK / 16; kk++) {
            uint64_t db = TB ? tc_desc(sb + 32 * kk, 16, 1024) : tc_desc(sb + 2048 * kk, BOX, 1024);
#pragma unroll
            for (int h = 0; h < 2; h++) {
                uint64_t da = TA ? tc_desc(sa + BOX * h + 2048 * kk, BOX, 1024)
                                 : tc_desc(sa + BOX * h + 32 * kk, 16, 1024);
                /* imm-trans: a stored [k][m] and b stored [k][n] are MN-major */
                tc_wgmma_n128<T, TA, 1 - TB>(acc[h], da, db, kt > 0 || kk > 0);
            }
        }
        tc_wgmma_commit();
        tc_wgmma_wait<0>();
        __syncthreads();   /* every warp's wgmma have read stage s */
        if (threadIdx.x == 0 && kt + STAGES < nk)
            load_slice<TA, TB>(&ma, &mb, sa, &full[s], i0, j0, (kt + STAGES) * BK, za, zb, p.m,
                               p.n);
    }
    tc_fence_acc(acc[0]);
    tc_fence_acc(acc[1]);

    void *cz = tc_c_at(p, z);
    int warp = threadIdx.x >> 5, g = (threadIdx.x >> 2) & 7, t = threadIdx.x & 3;
    tc_store_rows<T>(p, cz, i0 + 16 * warp + g, j0 + 2 * t, acc[0]);
    tc_store_rows<T>(p, cz, i0 + 64 + 16 * warp + g, j0 + 2 * t, acc[1]);
}

template <class T, int TA, int TB>
gpuk_status launch(gpuk_bctx *b, const gkc_tc &p, const CUtensorMap &ma, const CUtensorMap &mb,
                   int64_t tiles_m, int64_t tiles_n, const char *variant)
{
    auto kern = hgemm_wgmma_tma<T, TA, TB>;
    GKC_CUDA(b, cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)SMEM),
             "wgmma_tma: cudaFuncSetAttribute");
    kern<<<(unsigned)(tiles_m * tiles_n * p.batch), NT, SMEM, b->stream>>>(ma, mb, p, tiles_m,
                                                                          tiles_n);
    GKC_LAUNCHED(b, p.op, variant);
    return GPUK_OK;
}

template <class T>
gpuk_status by_layout(gpuk_bctx *b, const gkc_tc &p, const CUtensorMap &ma, const CUtensorMap &mb,
                      int64_t tm, int64_t tn, const char *variant)
{
    if (p.ta)
        return p.tb ? launch<T, 1, 1>(b, p, ma, mb, tm, tn, variant)
                    : launch<T, 1, 0>(b, p, ma, mb, tm, tn, variant);
    return p.tb ? launch<T, 0, 1>(b, p, ma, mb, tm, tn, variant)
                : launch<T, 0, 0>(b, p, ma, mb, tm, tn, variant);
}

}  // namespace

GKC_KERNEL(gkc_hgemm_wgmma_tma)
{
    const char *variant = "wgmma_tma";
    gkc_tc p;
    int done;
    GKC_TRY(gkc_tc_begin(b, args, variant, &p, &done));
    if (done)
        return GPUK_OK;
    int64_t tm = gkc_cdiv(p.m, BM), tn = gkc_cdiv(p.n, BN);
    int ok = 0;
    CUtensorMap ma, mb;
    if (gkc_tc_hopper(b) && tm * tn * p.batch <= INT32_MAX)
        GKC_TRY(gkc_tc_maps16(b, p, BM, BN, &ma, &mb, &ok));
    if (!ok)
        return gkc_tc_mma_async(b, p, variant);
    return p.bf16 ? by_layout<__nv_bfloat16>(b, p, ma, mb, tm, tn, variant)
                  : by_layout<__half>(b, p, ma, mb, tm, tn, variant);
}

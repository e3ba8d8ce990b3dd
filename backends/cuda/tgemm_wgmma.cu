/*
 * tgemm_wgmma.cu - the hand-written TF32 rung of f32 MATMUL (issue 27),
 * wgmma_tf32, beside cuBLAS's cublas_tf32 and, like it, flagged
 * GPUK_KF_TF32: inputs with a 10-bit mantissa, f32 accumulation, asked for
 * by name only (doc/design.md, "Ladders").  Built for sm_90a alone; on any
 * other GPU, and for operands TMA cannot describe (rows or pointers not
 * 16-byte aligned), it runs cublas_tf32 instead.
 *
 * The kernel is wgmma_persistent's (hgemm_ws.cu: producer warpgroup,
 * two consumers, full and empty mbarriers, setmaxnreg, persistent tiles
 * in bands), with one twist.  tf32 wgmma reads shared-memory operands only
 * K-major, and b is stored [k][n], MN-major.  So the kernel computes
 * c^T = b^T a^T: its "A" (64 rows of the product, which are columns of c)
 * is b^T, which it may take from registers, and its "B" is a^T, whose
 * shared tile, a's rows m by k, is K-major as stored.  Each consumer loads
 * its b^T fragments from the b tile with plain 32-bit shared loads (the
 * tile is row-major [k][n] in boxes of 32 columns, 128-byte swizzled),
 * rounds them to tf32 to nearest (cvt.rna; the tensor cores ignore the
 * low 13 bits of a^T, so each product errs by at most 3 of tf32's unit
 * roundoffs, not the 4 of two truncations), and keeps them untouched until
 * their batch has finished: wgmma reads registers asynchronously.  The tile is 128
 * columns of c (two consumers of 64) by 256 rows, k in slices of 32 f32
 * (128 bytes), 4 stages of 48 KB.  The epilogue writes c^T's rows down
 * c's columns: each store instruction of a warp covers 4 rows of c by 8
 * adjacent columns, whole 32-byte sectors.
 *
 * wgmma_tf32_pipe, the next step: two sets of fragments, so that a
 * consumer loads slice kt + 1's while slice kt's batch runs (pipe_step
 * below).  ptxas keeps the batches asynchronous (no C7513; SASS: one
 * WARPGROUP.DEPBAR.LE gsb0, 0x1 a batch, the sets in distinct
 * registers).  bench/NOTES.md, "Tensor cores, part 2".
 */
#include "tc_hopper.cuh"

GKC_KERNEL(gkc_matmul_cublas_tf32);   /* cublas.cu: the fallback */

namespace {

constexpr int BMT = 256, BNT = 128, BK = 32, STAGES = 4, NT = 384;
constexpr int A_BYTES = BMT * BK * 4, B_BYTES = BNT * BK * 4, STAGE_BYTES = A_BYTES + B_BYTES;
constexpr int BBOX = 32 * 128;  /* one box of the b tile: 32 k rows of 32 columns */
constexpr size_t SMEM = (size_t)STAGES * STAGE_BYTES + 1024;
constexpr int64_t BAND = 8;     /* tiles of 256 rows a band: 2048 rows of c */

__device__ __forceinline__ uint32_t to_tf32(float x)
{
    uint32_t r;
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
    return r;
}

/* The consumer's b^T fragments of one slice: fr[4 kk + e] for k step kk,
 * element e of the register fragment of tc_wgmma_tf32_rs, row n (of the
 * product: a column of c) and column k: b[k][n], at box n / 32, row k,
 * 16-byte chunk (n % 32) / 4 swizzled by k % 8, word n % 4. */
__device__ __forceinline__ void load_frags(uint32_t (&fr)[16], const unsigned char *sb, int n,
                                           int t)
{
    const unsigned char *box = sb + (n >> 5) * BBOX;
#pragma unroll
    for (int kk = 0; kk < BK / 8; kk++)
#pragma unroll
        for (int e = 0; e < 4; e++) {
            int nn = (n & 31) + (e & 1) * 8, k = 8 * kk + t + (e >> 1) * 4;
            const float *w = (const float *)(box + k * 128 + ((((nn >> 2) ^ (k & 7))) << 4)) +
                             (nn & 3);
            fr[4 * kk + e] = to_tf32(*w);
        }
}

template <int N>
__device__ __forceinline__ void fence_regs(uint32_t (&r)[N])
{
#pragma unroll
    for (int i = 0; i < N; i++)
        asm volatile("" : "+r"(r[i])::"memory");
}

/* Boxes of b wholly past column n are not asked for (tc_hopper.cuh). */
__device__ __forceinline__ void produce(const CUtensorMap *ma, const CUtensorMap *mb,
                                        const tc_sched &sc, int64_t n, unsigned char *smem,
                                        uint64_t *full, uint64_t *empty, int nk)
{
    uint32_t it = 0;
    for (int64_t u = blockIdx.x; u < sc.units; u += gridDim.x) {
        int64_t z, mt, nt;
        tc_unit_at(sc, u, z, mt, nt);
        int i0 = (int)(mt * BMT), j0 = (int)(nt * BNT), bytes = A_BYTES;
        for (int q = 0; q < BNT / 32; q++)
            bytes += j0 + 32 * q < n ? BBOX : 0;
        for (int kt = 0; kt < nk; kt++, it++) {
            int s = it % STAGES, k0 = kt * BK;
            tc_bar_wait(&empty[s], ((it / STAGES) & 1) ^ 1);
            uint64_t *bar = &full[s];
            unsigned char *sa = smem + s * STAGE_BYTES, *sb = sa + A_BYTES;
            tc_bar_expect(bar, bytes);
            tc_tma_load(sa, ma, bar, k0, i0, 0);
#pragma unroll
            for (int q = 0; q < BNT / 32; q++)
                if (j0 + 32 * q < n)
                    tc_tma_load(sb + BBOX * q, mb, bar, j0 + 32 * q, k0, 0);
        }
    }
}

/* One slice for a consumer: its fragments loaded, the batch issued and
 * waited for, the stage released.  Waiting for the batch before loading
 * the next slice's fragments is what lets ptxas pipeline the wgmma at all:
 * with a batch still in flight while the next fragments are written, it
 * serializes every wgmma (ptxas C7513).  The two consumers still keep the
 * tensor cores busy between them: one loads while the other's batch runs. */
__device__ __forceinline__ void slice(float (&acc)[128], uint32_t (&fr)[16], unsigned char *smem,
                                      uint64_t *full, uint64_t *empty, uint32_t it, int kt, int n,
                                      int t)
{
    int s = it % STAGES;
    tc_bar_wait(&full[s], (it / STAGES) & 1);
    unsigned char *sa = smem + s * STAGE_BYTES, *sb = sa + A_BYTES;
    load_frags(fr, sb, n, t);
    tc_wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < BK / 8; kk++) {
        const uint32_t a[4] = {fr[4 * kk], fr[4 * kk + 1], fr[4 * kk + 2], fr[4 * kk + 3]};
        tc_wgmma_tf32_rs(acc, a, tc_desc(sa + 32 * kk, 16, 1024), kt > 0 || kk > 0);
    }
    tc_wgmma_commit();
    tc_wgmma_wait<0>();
    fence_regs(fr);   /* the fragments stay in their registers until the batch is done */
    if ((threadIdx.x & 31) == 0)
        tc_bar_arrive(&empty[s]);
}

/* wgmma_tf32_pipe: slice kt's batch is issued from fragment set B, and
 * while it runs the consumer waits for the batch before it (wait_group 1),
 * frees that batch's stage and loads slice kt + 1's fragments into the
 * other set, which that batch has just stopped reading.  The tensor cores
 * always hold one batch of each consumer; in wgmma_tf32 they hold none of
 * a consumer's while it loads, and the two consumers, waiting on the same
 * full barriers, load at the same time. */
template <int B>
__device__ __forceinline__ void pipe_step(float (&acc)[128], uint32_t (&fr)[2][16],
                                          unsigned char *smem, uint64_t *full, uint64_t *empty,
                                          uint32_t it, int kt, int nk, int n, int t)
{
    unsigned char *sa = smem + (it % STAGES) * STAGE_BYTES;
    tc_wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < BK / 8; kk++) {
        const uint32_t a[4] = {fr[B][4 * kk], fr[B][4 * kk + 1], fr[B][4 * kk + 2],
                               fr[B][4 * kk + 3]};
        tc_wgmma_tf32_rs(acc, a, tc_desc(sa + 32 * kk, 16, 1024), kt > 0 || kk > 0);
    }
    tc_wgmma_commit();
    tc_wgmma_wait<1>();   /* slice kt - 1's batch is done: its stage and set 1 - B are free */
    fence_regs(fr[1 - B]);
    if (kt > 0 && (threadIdx.x & 31) == 0)
        tc_bar_arrive(&empty[(it - 1) % STAGES]);
    if (kt + 1 < nk) {
        uint32_t s1 = (it + 1) % STAGES;
        tc_bar_wait(&full[s1], ((it + 1) / STAGES) & 1);
        load_frags(fr[1 - B], smem + s1 * STAGE_BYTES + A_BYTES, n, t);
    }
}

/* c^T's rows n .. of the tile out of the accumulators: acc[4q + e] is
 * product row n (+ 8 for e >= 2), column 8q + 2t (+ 1 for odd e), that
 * is c[i = column][j = row] */
__device__ __forceinline__ void store_tile(const gkc_tc &p, const float (&acc)[128], int64_t mt,
                                           int64_t nt, int n, int t)
{
    int64_t j = nt * BNT + n, i0 = mt * BMT + 2 * t;
#pragma unroll
    for (int q = 0; q < 32; q++)
#pragma unroll
        for (int e = 0; e < 4; e++) {
            int64_t i = i0 + 8 * q + (e & 1), jj = j + (e >> 1) * 8;
            if (i < p.m && jj < p.n)
                tc_put<float>(p, p.c, i, jj, acc[4 * q + e]);
        }
}

template <int PIPE>
__device__ __forceinline__ void consume(const gkc_tc &p, const tc_sched &sc, unsigned char *smem,
                                        uint64_t *full, uint64_t *empty, int c, int nk)
{
    int warp = (threadIdx.x >> 5) & 3, g = (threadIdx.x >> 2) & 7, t = threadIdx.x & 3;
    int n = 64 * c + 16 * warp + g;   /* the lane's first row of the product in the tile */
    uint32_t it = 0, fr[2][16];
    float acc[128];
    for (int64_t u = blockIdx.x; u < sc.units; u += gridDim.x) {
        int64_t z, mt, nt;
        tc_unit_at(sc, u, z, mt, nt);
        if (PIPE) {
            tc_bar_wait(&full[it % STAGES], (it / STAGES) & 1);
            load_frags(fr[0], smem + (it % STAGES) * STAGE_BYTES + A_BYTES, n, t);
            for (int kt = 0; kt < nk; kt += 2) {
                pipe_step<0>(acc, fr, smem, full, empty, it++, kt, nk, n, t);
                if (kt + 1 < nk)
                    pipe_step<1>(acc, fr, smem, full, empty, it++, kt + 1, nk, n, t);
            }
            tc_wgmma_wait<0>();
            if ((threadIdx.x & 31) == 0)
                tc_bar_arrive(&empty[(it - 1) % STAGES]);
        } else {
            for (int kt = 0; kt < nk; kt++)
                slice(acc, fr[0], smem, full, empty, it++, kt, n, t);
        }
        tc_fence_acc(acc);
        store_tile(p, acc, mt, nt, n, t);
    }
}

template <int PIPE>
__global__ void __launch_bounds__(NT, 1)
    tgemm_wgmma(const __grid_constant__ CUtensorMap ma, const __grid_constant__ CUtensorMap mb,
                gkc_tc p, tc_sched sc)
{
    extern __shared__ unsigned char smem_raw[];
    __shared__ __align__(8) uint64_t full[STAGES], empty[STAGES];
    unsigned char *smem = tc_align1024(smem_raw);
    int nk = (int)gkc_cdiv(p.k, BK);
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; s++) {
            tc_bar_init(&full[s], 1);
            tc_bar_init(&empty[s], 2 * 4);
        }
        tc_bar_init_fence();
    }
    __syncthreads();
    if (threadIdx.x < 128) {
        tc_regs_down<40>();
        if (threadIdx.x == 0)
            produce(&ma, &mb, sc, p.n, smem, full, empty, nk);
    } else {
        tc_regs_up<232>();
        consume<PIPE>(p, sc, smem, full, empty, threadIdx.x / 128 - 1, nk);
    }
}

template <int PIPE>
gpuk_status run(gpuk_bctx *b, const gpuk_args *args, const char *variant)
{
    auto kern = tgemm_wgmma<PIPE>;
    gkc_tc p;
    int done;
    GKC_TRY(gkc_tc_begin(b, args, variant, &p, &done));
    if (done)
        return GPUK_OK;
    int ok = 0;
    CUtensorMap ma, mb;
    if (gkc_tc_hopper(b)) {
        GKC_TRY(gkc_tc_tensor_map(b, &ma, p.a, 4, 0, p.m, p.k, p.lda, 1, 0, 32, BMT, &ok));
        if (ok)
            GKC_TRY(gkc_tc_tensor_map(b, &mb, p.b, 4, 0, p.k, p.n, p.ldb, 1, 0, 32, BK, &ok));
    }
    /* Asked once a device (gkc_facts): 1 where the kernel starts at the
     * 168 registers setmaxnreg's arithmetic needs (after raising its
     * shared memory limit), 0 where it does not. */
    static gkc_facts facts;
    int fact = 0;
    if (ok && !facts.known(b->device, &fact)) {
        cudaFuncAttributes fa;
        GKC_CUDA(b, cudaFuncGetAttributes(&fa, kern), "wgmma_tf32: cudaFuncGetAttributes");
        if (fa.numRegs == 65536 / NT / 8 * 8) {
            GKC_CUDA(b, cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             (int)SMEM),
                     "wgmma_tf32: cudaFuncSetAttribute");
            fact = 1;
        }
        facts.keep(b->device, fact);
    }
    if (!ok || fact == 0)
        return gkc_matmul_cublas_tf32(b, args);
    tc_sched sc = {};
    sc.tiles_m = gkc_cdiv(p.m, BMT);
    sc.tiles_n = gkc_cdiv(p.n, BNT);
    sc.units_m = sc.tiles_m;
    sc.units = sc.tiles_m * sc.tiles_n;
    sc.group = BAND;
    int64_t grid = sc.units < gkc_sms(b) ? sc.units : gkc_sms(b);
    kern<<<(unsigned)grid, NT, SMEM, b->stream>>>(ma, mb, p, sc);
    GKC_LAUNCHED(b, p.op, variant);
    return GPUK_OK;
}

}  // namespace

GKC_KERNEL(gkc_matmul_wgmma_tf32)
{
    return run<0>(b, args, "wgmma_tf32");
}

GKC_KERNEL(gkc_matmul_wgmma_tf32_pipe)
{
    return run<1>(b, args, "wgmma_tf32_pipe");
}

/*
 * hgemm_ws.cu - rungs 5-10 of the f16/bf16 matrix-product ladder (issue 27):
 * wgmma_ws, wgmma_persistent, wgmma_cluster, wgmma_tma_store, wgmma_pdl
 * and wgmma_streamk, one kernel template with the step of each rung as a
 * launch choice or a template argument.  Built for sm_90a alone;
 * elsewhere, and for operands TMA cannot describe, each runs mma_async
 * (hgemm_mma.cu).  Layouts, boxes and descriptors as in hgemm_wgmma.cu
 * and tc_hopper.cuh.
 *
 * The kernel: a 128x256 output tile, k in slices of 64 through 4 stages of
 * 48 KB, 3 warpgroups.  Warpgroup 0 is the producer: one thread waits for
 * a stage to be empty, arms its full barrier with the slice's bytes and
 * asks TMA for the slice, then moves on to the next stage, never waiting
 * for the tensor cores.  Warpgroups 1 and 2 are consumers: each waits for
 * a stage to be full, issues 4 wgmma m64n256k16 (its 64 rows of the tile,
 * all 256 columns), and as soon as the batch before it has finished
 * (wgmma.wait_group 1: one batch stays in flight) tells the producer the
 * stage that batch read is empty.  Full barriers count the producer's one
 * arrival plus the bytes; empty barriers one arrival per consumer warp.
 * Each barrier is used round after round; the r-th round waits on phase
 * parity r & 1 (tc_bar_wait).  The producer needs few registers and the
 * consumers 128 accumulators each: setmaxnreg moves them, 40 for the
 * producer and 232 for the consumers (the 384 x 168 a block starts with).
 *
 * wgmma_ws (rung 5), over wgmma_tma: nothing waits any more.  The copies
 * run 3 slices ahead of the tensor cores without a block-wide barrier, a
 * consumer never waits for its own wgmma except to free a stage, and two
 * consumers keep the SM's tensor cores fed from one tile twice the size
 * (B is read once for 128 rows of A, not 64).  One tile per block.
 *
 * wgmma_persistent (rung 6): one block per SM, looping over tiles, so the
 * producer runs on into the next tile's slices while the consumers write
 * the last tile out: the epilogue and the start of a tile overlap instead
 * of costing each block its ramp.  Tiles go in bands of 16 rows of tiles
 * (2048 rows of c), down a band's column of tiles before the next column,
 * so the tiles running at once share fewer rows of a and columns of b and
 * L2 serves more of their reads.
 *
 * wgmma_cluster (rung 7): blocks in clusters of 2 on tiles one above the
 * other, which need the same slice of B.  Each block asks TMA for half of
 * it, multicast to both blocks' shared memory (and barriers): L2 sends
 * each byte of B once for two tiles, 2/3 of the bytes a pair asked for
 * before.  A stage is empty only when the consumers of both blocks have
 * read it (empty barriers count the consumer warps of the cluster, which
 * arrive on both blocks' barriers), and the cluster meets at the start
 * (barriers initialised before the peer's copies arrive) and at the end
 * (no block leaves while its peer may still arrive on its barriers).  The
 * second block of a pair past the last row of tiles computes a real tile
 * it does not store, so that its peer still gets its half of B.
 *
 * wgmma_tma_store (rung 8): wgmma_cluster with the tile leaving through
 * shared memory and TMA stores.  Each consumer rounds its 64 rows a box
 * (64 rows of 128 bytes) at a time into one of two boxes of its own in
 * shared memory (the 128-byte swizzle: a warp's stores hit 32 banks) and
 * one thread hands the box to the copy engine, which writes whole lines
 * of c while the consumers go back to the tensor cores.  The consumers
 * of every earlier rung leave the tensor cores idle until 64 scattered
 * 4-byte stores a thread have issued, all SMs at once; here they wait
 * only for their box's shared-memory stores.  Before a box is written
 * again its last store must have read it (bulk wait_group.read 1: the
 * other box may still be in flight).  The host takes this path when c's
 * rows, row length and start are 16-byte aligned and beta is 0 (beta c
 * would read c back; TMA writes a row's last 16 bytes whole); otherwise
 * wgmma_cluster's epilogue.
 *
 * wgmma_pdl (rung 9): wgmma_tma_store launched as a programmatic
 * dependent launch (cuda_internal.h, gkc_launch_pdl): the GPU launches
 * the kernel and its blocks set up their barriers while the kernel before
 * it drains, and every thread waits on the device (griddepcontrol.wait)
 * before it touches global memory.  Every kernel of this file starts
 * that way; a plain launch passes straight through the wait.
 *
 * wgmma_streamk (rung 10): wgmma_pdl with stream-K on the last wave.  The
 * persistent grid's last round is partial when the clusters do not
 * divide the units (4096^3: 256 units on 66 clusters, the fourth round 58
 * of 66 busy; 8192^3: the sixteenth 34 of 66), and the kernel lasts as
 * long as its busiest cluster.  Here the whole rounds stay as they are and
 * the last round's units are cut along k into equal shares, one a cluster
 * (tc_piece_at): a share spans at most two units, each piece's cluster
 * leaves its 64 x 256 f32 sums a consumer in L2 for the cluster holding
 * the unit's last slices, which adds them before the epilogue
 * (tc_part_store, tc_part_add).  Every cluster ends at the same slice
 * count, plus one partial written or read.  That costs 5-10 slices, so
 * the rung cuts only a last round that leaves a quarter of the clusters
 * idle (8192^3 and 6144^3, not 4096^3) and is wgmma_pdl elsewhere.
 *
 * bench/NOTES.md, "Tensor cores": the predictions (80%, 83% and 100% of
 * cuBLAS at 8192^3 on an H100) and the measurements; "Tensor cores, part
 * 2" those of rungs 8 and 9.
 */
#include "tc_hopper.cuh"

namespace {

constexpr int BM = 128, BN = 256, BK = 64, STAGES = 4, NT = 384, CONSUMERS = 2;
constexpr int A_BYTES = BM * BK * 2, B_BYTES = BN * BK * 2, STAGE_BYTES = A_BYTES + B_BYTES;
constexpr int BOX = 64 * 128;   /* bytes of a 64-row box of an MN-major tile */
/* the TMA-store epilogue's boxes of c: two a consumer */
constexpr int C_BYTES = CONSUMERS * 2 * BOX;
constexpr size_t smem_bytes(int epi)
{
    return (size_t)STAGES * STAGE_BYTES + (epi ? C_BYTES : 0) + 1024;
}
/* setmaxnreg moves registers within the block's own allocation: the
 * producer's 128 threads give back what the consumers' 256 take, so the
 * kernel must start at exactly the 168 its launch bounds allow (the host
 * checks, and runs mma_async otherwise rather than hang in setmaxnreg). */
constexpr int PRODUCER_REGS = 40, CONSUMER_REGS = 232, LAUNCH_REGS = 65536 / NT / 8 * 8;
static_assert((LAUNCH_REGS - PRODUCER_REGS) * 128 >= (CONSUMER_REGS - LAUNCH_REGS) * 256,
              "hgemm_ws: the consumers would take more registers than the producer frees");
constexpr int64_t BAND = 16;    /* rows of tiles a band of the persistent order holds */

/* The producer thread: every slice of every unit of this block, in order. */
template <int TA, int TB, int CL, bool SK>
__device__ __forceinline__ void produce(const CUtensorMap *ma, const CUtensorMap *mb,
                                        const gkc_tc &p, const tc_sched &sc, unsigned char *smem,
                                        uint64_t *full, uint64_t *empty, unsigned rank, int nk)
{
    uint32_t it = 0;   /* slices so far: stage it % STAGES, round it / STAGES */
    tc_piece pc;
    for (int i = 0; tc_piece_at<SK>(sc, blockIdx.x / CL, gridDim.x / CL, nk, i, pc); i++) {
        int64_t z, um, nt;
        tc_unit_at(sc, pc.u, z, um, nt);
        int64_t mt = um * CL + rank;
        if (mt >= sc.tiles_m)
            mt = sc.tiles_m - 1;   /* a spare block: real data, never stored */
        int i0 = (int)(mt * BM), j0 = (int)(nt * BN);
        int za = p.sa ? (int)z : 0, zb = p.sb ? (int)z : 0;
        /* the bytes a slice brings: boxes wholly past the edge are not
         * asked for (tc_hopper.cuh), by this block or by its peer, which
         * shares the column of tiles and so skips the same boxes of B */
        bool a2 = !TA || i0 + 64 < p.m;
        int bytes = A_BYTES - (a2 ? 0 : BOX);
        for (int q = 0; q < (TB ? CL : BN / 64); q++) {
            int width = TB ? BN / CL : 64;
            if (j0 + width * q < p.n)
                bytes += width * BK * 2;
        }
        for (int kt = pc.kb; kt < pc.ke; kt++, it++) {
            int s = it % STAGES, k0 = kt * BK;
            tc_bar_wait(&empty[s], ((it / STAGES) & 1) ^ 1);
            uint64_t *bar = &full[s];
            unsigned char *sa = smem + s * STAGE_BYTES, *sb = sa + A_BYTES;
            tc_bar_expect(bar, bytes);
            if (TA) {
                tc_tma_load(sa, ma, bar, i0, k0, za);
                if (a2)
                    tc_tma_load(sa + BOX, ma, bar, i0 + 64, k0, za);
            } else {
                tc_tma_load(sa, ma, bar, k0, i0, za);
            }
            if (CL == 1) {
                if (TB) {
                    tc_tma_load(sb, mb, bar, k0, j0, zb);
                } else {
#pragma unroll
                    for (int q = 0; q < BN / 64; q++)
                        if (j0 + 64 * q < p.n)
                            tc_tma_load(sb + BOX * q, mb, bar, j0 + 64 * q, k0, zb);
                }
            } else {
                /* this block's share of B, to every block of the cluster */
                const uint16_t all = (uint16_t)((1u << CL) - 1);
                if (TB) {
                    if (j0 + (int)rank * (BN / CL) < p.n)
                        tc_tma_load_mc(sb + rank * (B_BYTES / CL), mb, bar, k0,
                                       j0 + (int)rank * (BN / CL), zb, all);
                } else {
#pragma unroll
                    for (int q = 0; q < BN / 64 / CL; q++) {
                        int box = (int)rank * (BN / 64 / CL) + q;
                        if (j0 + 64 * box < p.n)
                            tc_tma_load_mc(sb + BOX * box, mb, bar, j0 + 64 * box, k0, zb, all);
                    }
                }
            }
        }
    }
}

/* A consumer warp is done with a stage: one arrival on its empty barrier
 * in every block of the cluster (wait_group is warp-synchronous, so lane
 * 0 arrives for a warp whose wgmma have all finished). */
template <int CL>
__device__ __forceinline__ void release(uint64_t *bar)
{
    if ((threadIdx.x & 31) != 0)
        return;
    if (CL == 1) {
        tc_bar_arrive(bar);
    } else {
#pragma unroll
        for (unsigned r = 0; r < CL; r++)
            tc_bar_arrive_cluster(bar, r);
    }
}

/* Rung 8's epilogue for consumer c: its rows i0 .. i0 + 63 of the tile at
 * column j0, O the element of c (T, or f32), a box of W columns at a time
 * through its two boxes at cb in turn: nbox counts the consumer's stores
 * over all its tiles (a tile at the right edge may store an odd number),
 * so the store before last always came from the box about to be written.  Lane (g, t) of warp w writes rows
 * 16w + g and 16w + g + 8 of the box, columns 8q + 2t and 8q + 2t + 1 of
 * its group q: alpha acc + bias[j], as tc_store_rows computes it, in one
 * 4-byte (8-byte) store each.  Boxes wholly past column n are skipped;
 * TMA leaves out the rest of what lies past the edges.  SCALED false is
 * alpha 1 and no bias (every matmul): the sums go out as they are, without
 * 128 FFMA a thread a tile (of the 698 instructions a warp spent on a
 * tile's epilogue, against cuBLAS's 252: bench/NOTES.md, "2026-11-27,
 * eighth session" and "ninth session"). */
template <class T, class O, bool SCALED>
__device__ __forceinline__ void store_boxes(const gkc_tc &p, const CUtensorMap *mc,
                                            unsigned char *cb, const float (&acc)[128],
                                            int64_t z, int64_t i0, int64_t j0, int c,
                                            uint32_t &nbox)
{
    constexpr int W = 128 / (int)sizeof(O), GQ = W / 8, NBX = BN / W;
    int tid = threadIdx.x & 127, r = 16 * (tid >> 5) + ((tid >> 2) & 7), t = tid & 3;
    const O *bias = (const O *)p.bias;
#pragma unroll
    for (int bx = 0; bx < NBX; bx++) {
        int64_t jb = j0 + bx * W;
        if (jb >= p.n)
            break;
        unsigned char *box = cb + (nbox & 1) * BOX;
        if (tid == 0)
            tc_bulk_wait_read<1>();   /* the store before last, from this box, has read it */
        tc_named_sync(1 + c, 128);
#pragma unroll
        for (int qq = 0; qq < GQ; qq++) {
            const int q = bx * GQ + qq;
            float v0 = acc[4 * q], v1 = acc[4 * q + 1], v2 = acc[4 * q + 2], v3 = acc[4 * q + 3];
            if constexpr (SCALED) {
                int64_t j = jb + 8 * qq + 2 * t;
                float b0 = 0.0f, b1 = 0.0f;
                if (bias) {
                    b0 = j < p.n ? tc_f32(bias[j]) : 0.0f;
                    b1 = j + 1 < p.n ? tc_f32(bias[j + 1]) : 0.0f;
                }
                v0 = p.alpha * v0 + b0, v1 = p.alpha * v1 + b1;
                v2 = p.alpha * v2 + b0, v3 = p.alpha * v3 + b1;
            }
            /* byte cbyte of row r, 16-byte chunk swizzled by r % 8 (row r + 8 alike) */
            int cbyte = (8 * qq + 2 * t) * (int)sizeof(O);
            unsigned char *at = box + r * 128 + ((((cbyte >> 4) ^ (r & 7)) << 4) | (cbyte & 15));
            if constexpr (sizeof(O) == 2) {
                *(uint32_t *)at = tc_pack2<T>(v0, v1);
                *(uint32_t *)(at + 8 * 128) = tc_pack2<T>(v2, v3);
            } else {
                *(float2 *)at = make_float2(v0, v1);
                *(float2 *)(at + 8 * 128) = make_float2(v2, v3);
            }
        }
        tc_fence_async_smem();
        tc_named_sync(1 + c, 128);
        if (tid == 0) {
            tc_tma_store(mc, box, (int)jb, (int)i0, (int)z);
            tc_bulk_commit();
        }
        nbox++;
    }
}

/* Consumer c (0 or 1): rows 64c .. 64c + 63 of each of the block's tiles,
 * stored by tc_store_rows (EPI 0) or through shared memory by TMA (EPI 1). */
template <class T, int TA, int TB, int CL, int EPI, bool SK>
__device__ __forceinline__ void consume(const gkc_tc &p, const CUtensorMap *mc, const tc_sched &sc,
                                        unsigned char *smem, uint64_t *full, uint64_t *empty,
                                        int c, unsigned rank, int nk)
{
    int warp = (threadIdx.x >> 5) & 3, g = (threadIdx.x >> 2) & 7, t = threadIdx.x & 3;
    uint32_t it = 0, nbox = 0;
    float acc[128];
    const int cl = blockIdx.x / CL, ncl = gridDim.x / CL;
    tc_piece pc;
    for (int i = 0; tc_piece_at<SK>(sc, cl, ncl, nk, i, pc); i++) {
        int prev = 0;
        for (int kt = pc.kb; kt < pc.ke; kt++, it++) {
            int s = it % STAGES;
            tc_bar_wait(&full[s], (it / STAGES) & 1);
            unsigned char *sa = smem + s * STAGE_BYTES, *sb = sa + A_BYTES;
            tc_wgmma_fence();
#pragma unroll
            for (int kk = 0; kk < BK / 16; kk++) {
                uint64_t da = TA ? tc_desc(sa + BOX * c + 2048 * kk, BOX, 1024)
                                 : tc_desc(sa + BOX * c + 32 * kk, 16, 1024);
                uint64_t db = TB ? tc_desc(sb + 32 * kk, 16, 1024)
                                 : tc_desc(sb + 2048 * kk, BOX, 1024);
                /* imm-trans: a stored [k][m] and b stored [k][n] are MN-major */
                tc_wgmma_n256<T, TA, 1 - TB>(acc, da, db, kt > pc.kb || kk > 0);
            }
            tc_wgmma_commit();
            tc_wgmma_wait<1>();   /* the batch of slice kt - 1 has finished */
            if (kt > pc.kb)
                release<CL>(&empty[prev]);
            prev = s;
        }
        tc_wgmma_wait<0>();
        release<CL>(&empty[prev]);
        tc_fence_acc(acc);
        if (pc.role != TC_WHOLE) {
            /* stream-K (rung 10): a partial goes to the cluster with the
             * unit's tail, which adds those of every cluster before it */
            const int tid = threadIdx.x & 127, slot = (cl * CL + (int)rank) * CONSUMERS + c;
            if (pc.role == TC_PART) {
                tc_part_store(sc.part + (size_t)slot * (64 * BN), sc.flags + slot, acc, tid,
                              1 + c, 128);
                continue;
            }
            const uint32_t head = (uint32_t)(pc.u - sc.dp) * nk;   /* the unit's first slice */
            for (int o = cl - 1; o >= 0 && tc_sk_start(sc, o + 1, ncl) > head; o--) {
                if (tc_sk_start(sc, o, ncl) == tc_sk_start(sc, o + 1, ncl))
                    continue;   /* a cluster without a share */
                int os = (o * CL + (int)rank) * CONSUMERS + c;
                tc_part_add(sc.part + (size_t)os * (64 * BN), sc.flags + os, acc, tid, 1 + c, 128);
            }
        }
        int64_t z, um, nt;   /* not needed before: fewer registers live in the loop */
        tc_unit_at(sc, pc.u, z, um, nt);
        int64_t mt = um * CL + rank;
        if (mt >= sc.tiles_m)
            continue;
        if (EPI) {
            int64_t i0 = mt * BM + 64 * c;
            unsigned char *cb = smem + STAGES * STAGE_BYTES + c * 2 * BOX;
            if (i0 >= p.m)
                continue;
            const bool scaled = p.alpha != 1.0f || p.bias;
            if (p.out16 && scaled)
                store_boxes<T, T, true>(p, mc, cb, acc, z, i0, nt * BN, c, nbox);
            else if (p.out16)
                store_boxes<T, T, false>(p, mc, cb, acc, z, i0, nt * BN, c, nbox);
            else if (scaled)
                store_boxes<T, float, true>(p, mc, cb, acc, z, i0, nt * BN, c, nbox);
            else
                store_boxes<T, float, false>(p, mc, cb, acc, z, i0, nt * BN, c, nbox);
        } else {
            tc_store_rows<T>(p, tc_c_at(p, z), mt * BM + 64 * c + 16 * warp + g,
                             nt * BN + 2 * t, acc);
        }
    }
    /* the block's shared memory must outlive the last store's reads, and
     * c be written when the kernel ends */
    if (EPI && (threadIdx.x & 127) == 0)
        tc_bulk_wait_all();
}

template <class T, int TA, int TB, int CL, int EPI, bool SK>
__global__ void __launch_bounds__(NT, 1)
    hgemm_ws(const __grid_constant__ CUtensorMap ma, const __grid_constant__ CUtensorMap mb,
             const __grid_constant__ CUtensorMap mc, gkc_tc p, tc_sched sc)
{
    extern __shared__ unsigned char smem_raw[];
    __shared__ __align__(8) uint64_t full[STAGES], empty[STAGES];
    unsigned char *smem = tc_align1024(smem_raw);
    unsigned rank = CL > 1 ? tc_cluster_rank() : 0;
    int nk = (int)gkc_cdiv(p.k, BK);
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; s++) {
            tc_bar_init(&full[s], 1);
            tc_bar_init(&empty[s], CONSUMERS * 4 * CL);
        }
        tc_bar_init_fence();
        tc_prefetch_map(&ma);
        tc_prefetch_map(&mb);
        if (EPI)
            tc_prefetch_map(&mc);
    }
    if (CL > 1)
        tc_cluster_sync();
    else
        __syncthreads();
    /* rung 9 (a programmatic dependent launch): the stream's earlier
     * kernels end here, before any access to a, b or c */
    gkc_pdl_enter();
    if (threadIdx.x < 128) {
        tc_regs_down<PRODUCER_REGS>();
        if (threadIdx.x == 0)
            produce<TA, TB, CL, SK>(&ma, &mb, p, sc, smem, full, empty, rank, nk);
    } else {
        tc_regs_up<CONSUMER_REGS>();
        consume<T, TA, TB, CL, EPI, SK>(p, &mc, sc, smem, full, empty, threadIdx.x / 128 - 1, rank,
                                    nk);
    }
    if (CL > 1)
        tc_cluster_sync();
}

/* What a rung asks of the kernel. */
struct how {
    bool persistent;   /* one block (cluster) an SM, looping over tiles */
    bool tma_store;    /* rung 8's epilogue, where c allows it (run) */
    bool pdl;          /* a programmatic dependent launch */
    bool streamk;      /* the last wave's units cut along k (persistent only) */
};

template <class T, int TA, int TB, int CL, int EPI, bool SK>
gpuk_status launch(gpuk_bctx *b, const gkc_tc &p, const CUtensorMap &ma, const CUtensorMap &mb,
                   const CUtensorMap &mc, how h, const char *variant, int *fits)
{
    auto kern = hgemm_ws<T, TA, TB, CL, EPI, SK>;
    constexpr size_t SMEM = smem_bytes(EPI);
    *fits = 0;
    tc_sched sc;
    sc.tiles_m = gkc_cdiv(p.m, BM);
    sc.tiles_n = gkc_cdiv(p.n, BN);
    sc.units_m = gkc_cdiv(sc.tiles_m, CL);
    sc.units = p.batch * sc.units_m * sc.tiles_n;
    sc.group = h.persistent ? BAND / CL : 1;
    sc.dp = sc.units;
    sc.rounds = sc.sk_slices = 0;
    sc.part = NULL;
    sc.flags = NULL;
    int64_t slots = sc.units < INT32_MAX / CL ? sc.units : INT32_MAX / CL;
    cudaLaunchAttribute attr[2];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = CL;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    attr[1].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[1].val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((unsigned)(slots * CL));
    cfg.blockDim = dim3(NT);
    cfg.dynamicSmemBytes = SMEM;
    cfg.stream = b->stream;
    cfg.attrs = CL > 1 ? attr : attr + 1;
    cfg.numAttrs = CL > 1 ? 1 : 0;
    /* Asked once a device (gkc_facts): how many blocks (clusters of CL)
     * fit on the GPU at once, after raising the kernel's shared memory
     * limit, or 0 where the kernel does not start at the 168 registers
     * setmaxnreg's arithmetic needs (the caller then runs another rung
     * rather than hang in setmaxnreg). */
    static gkc_facts facts;
    int fit;
    if (!facts.known(b->device, &fit)) {
        cudaFuncAttributes fa;
        GKC_CUDA(b, cudaFuncGetAttributes(&fa, kern), "wgmma: cudaFuncGetAttributes");
        fit = 0;
        if (fa.numRegs == LAUNCH_REGS) {
            GKC_CUDA(b, cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             (int)SMEM),
                     "wgmma: cudaFuncSetAttribute");
            int n = (int)gkc_sms(b);
            if (CL > 1)
                GKC_CUDA(b, cudaOccupancyMaxActiveClusters(&n, kern, &cfg),
                         "wgmma_cluster: cudaOccupancyMaxActiveClusters");
            fit = n >= 1 ? n : 0;
        }
        facts.keep(b->device, fit);
    }
    if (fit == 0)
        return GPUK_OK;
    if (h.persistent) {
        /* as many blocks (clusters) as fit at once: one block an SM */
        if (slots > fit)
            slots = fit;
        cfg.gridDim = dim3((unsigned)(slots * CL));
    }
    /* Stream-K on the last wave where it leaves a quarter of the clusters
     * or more idle: those units' slices shared out equally, at the price
     * of a 64 KB partial a consumer written and read through L2 by most
     * clusters, which measured as 5-10 slices' time, not the one
     * predicted (8192^3, 48% idle: 0.7-2.5% faster than wgmma_pdl; 6144^3,
     * 27%: 0.2-2.2%; 4096^3, 12%: 3.4% slower).  Elsewhere the kernel
     * without it, whose producer keeps its registers (bench/NOTES.md,
     * "Stream-K on the last wave"). */
    if constexpr (SK) {
        int64_t nk = gkc_cdiv(p.k, BK), rem = sc.units % slots, rounds = sc.units / slots;
        if (!h.persistent || rounds < 1 || rem == 0 || (slots - rem) * 4 < slots || nk < 4 ||
            rem * nk * slots >= ((int64_t)1 << 32) || rounds >= INT32_MAX)
            return launch<T, TA, TB, CL, EPI, false>(b, p, ma, mb, mc, h, variant, fits);
        int64_t parts = slots * CL * CONSUMERS;
        void *w = NULL;
        GKC_TRY(gkc_scratch(b, GKC_SLOT_WORK, (size_t)parts * 64 * BN * sizeof(float), &w));
        GKC_TRY(gkc_counters(b, parts, &sc.flags));
        sc.part = (float *)w;
        sc.dp = rounds * slots;
        sc.rounds = (uint32_t)rounds;
        sc.sk_slices = (uint32_t)(rem * nk);
    }
    if (h.pdl)
        cfg.numAttrs++;
    *fits = 1;
    GKC_CUDA(b, cudaLaunchKernelEx(&cfg, kern, ma, mb, mc, p, sc), variant);
    GKC_LAUNCHED(b, p.op, variant);
    return GPUK_OK;
}

template <class T, int CL, int EPI, bool SK>
gpuk_status by_layout(gpuk_bctx *b, const gkc_tc &p, const CUtensorMap &ma, const CUtensorMap &mb,
                      const CUtensorMap &mc, how h, const char *variant, int *fits)
{
    if (p.ta)
        return p.tb ? launch<T, 1, 1, CL, EPI, SK>(b, p, ma, mb, mc, h, variant, fits)
                    : launch<T, 1, 0, CL, EPI, SK>(b, p, ma, mb, mc, h, variant, fits);
    return p.tb ? launch<T, 0, 1, CL, EPI, SK>(b, p, ma, mb, mc, h, variant, fits)
                : launch<T, 0, 0, CL, EPI, SK>(b, p, ma, mb, mc, h, variant, fits);
}

template <int CL, bool SK>
gpuk_status by_type(gpuk_bctx *b, const gkc_tc &p, const CUtensorMap &ma, const CUtensorMap &mb,
                    const CUtensorMap *mc, how h, const char *variant, int *fits)
{
    if (mc)
        return p.bf16 ? by_layout<__nv_bfloat16, CL, 1, SK>(b, p, ma, mb, *mc, h, variant, fits)
                      : by_layout<__half, CL, 1, SK>(b, p, ma, mb, *mc, h, variant, fits);
    /* the kernel never reads mc: any valid map fills the parameter */
    return p.bf16 ? by_layout<__nv_bfloat16, CL, 0, SK>(b, p, ma, mb, ma, h, variant, fits)
                  : by_layout<__half, CL, 0, SK>(b, p, ma, mb, ma, h, variant, fits);
}

/* The rung: CL blocks a cluster, persistent or one tile a block, c
 * through TMA where the rung asks and c allows; a cluster that cannot be
 * placed at all runs the rung without clusters, and a kernel that cannot
 * start (its registers) runs mma_async. */
template <int CL>
gpuk_status run(gpuk_bctx *b, const gpuk_args *args, how h, const char *variant)
{
    gkc_tc p;
    int done;
    GKC_TRY(gkc_tc_begin(b, args, variant, &p, &done));
    if (done)
        return GPUK_OK;
    int ok = 0, fits = 0, cok = 0;
    CUtensorMap ma, mb, mc;
    if (gkc_tc_hopper(b))
        GKC_TRY(gkc_tc_maps16(b, p, BM, BN / CL, &ma, &mb, &ok));
    if (!ok)
        return gkc_tc_mma_async(b, p, variant);
    if (h.tma_store && p.beta == 0.0f)
        GKC_TRY(gkc_tc_map_c(b, p, 64, &mc, &cok));
    const CUtensorMap *pc = cok ? &mc : NULL;
    /* stream-K is compiled in for clusters of 2 only: rung 10 is rung 9's kernel with it */
    if (CL == 2 && h.streamk)
        GKC_TRY((by_type<CL, CL == 2>(b, p, ma, mb, pc, h, variant, &fits)));
    else
        GKC_TRY((by_type<CL, false>(b, p, ma, mb, pc, h, variant, &fits)));
    if (fits)
        return GPUK_OK;
    if (CL > 1) {
        GKC_TRY(gkc_tc_maps16(b, p, BM, BN, &ma, &mb, &ok));
        if (ok) {
            GKC_TRY((by_type<1, false>(b, p, ma, mb, pc, h, variant, &fits)));
            if (fits)
                return GPUK_OK;
        }
    }
    return gkc_tc_mma_async(b, p, variant);
}

}  // namespace

GKC_KERNEL(gkc_hgemm_wgmma_ws)
{
    return run<1>(b, args, how{false, false, false, false}, "wgmma_ws");
}

GKC_KERNEL(gkc_hgemm_wgmma_persistent)
{
    return run<1>(b, args, how{true, false, false, false}, "wgmma_persistent");
}

GKC_KERNEL(gkc_hgemm_wgmma_cluster)
{
    return run<2>(b, args, how{true, false, false, false}, "wgmma_cluster");
}

GKC_KERNEL(gkc_hgemm_wgmma_tma_store)
{
    return run<2>(b, args, how{true, true, false, false}, "wgmma_tma_store");
}

GKC_KERNEL(gkc_hgemm_wgmma_pdl)
{
    return run<2>(b, args, how{true, true, true, false}, "wgmma_pdl");
}

GKC_KERNEL(gkc_hgemm_wgmma_streamk)
{
    return run<2>(b, args, how{true, true, true, true}, "wgmma_streamk");
}

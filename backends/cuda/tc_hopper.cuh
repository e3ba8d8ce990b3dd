/*
 * tc_hopper.cuh - the Hopper pieces of the wgmma rungs (hgemm_wgmma.cu,
 * hgemm_ws.cu, tgemm_wgmma.cu, peak_tc.cu): mbarriers, TMA copies,
 * clusters, wgmma and its shared-memory descriptors, setmaxnreg.  Only
 * files built for sm_90a include it (backends/cuda/local.mk): wgmma and
 * setmaxnreg exist nowhere else, and sm_90a code runs on compute
 * capability 9.0 alone, so every rung that uses it first asks
 * gkc_tc_hopper() and otherwise takes a portable rung.
 *
 * Shared-memory tiles (the one layout the TMA copies write and the wgmma
 * descriptors read).  A tile is a column of boxes; a box is R rows of 128
 * bytes (64 16-bit elements or 32 f32), stored densely with the 128-byte
 * swizzle: 16-byte chunk c of row r sits at chunk c ^ (r % 8).  Tiles
 * start on 1024-byte boundaries, so the swizzle is a function of the
 * address alone and a descriptor may start anywhere a row or a 16-byte
 * chunk starts.  An operand whose contiguous dimension is k (K-major: A
 * stored [m][k], B stored [n][k]) has rows m (or n), one box of 64 k; an
 * operand contiguous along m or n (MN-major: A stored [k][m], B stored
 * [k][n]) has rows k and one box of BK rows per 64 columns, 128 BK bytes
 * apart.  The descriptor of wgmma (tc_desc) takes, for a K-major tile,
 * SBO = 1024 (8 rows of 128 bytes: the next 8 m or n) and advances by 32
 * bytes per k step of 16; for an MN-major one SBO = 1024 (the next 8 k)
 * and LBO = the box size (the next 64 m or n), and a k step of 16 is 16
 * rows, 2048 bytes.  wgmma's imm-trans bit says which: 0 K-major, 1 MN.
 *
 * Boxes past the edge.  TMA fills the part of a box outside the matrix
 * with zeros and counts the whole box on the barrier.  A box that lies
 * wholly outside (the second 64 columns of a tile 40 wide, say) is not
 * asked for at all, and the barrier expects its bytes less: what stays in
 * its place in shared memory is stale, but it only ever meets rows or
 * columns of the product that lie outside c too, which are not stored.
 */
#ifndef GPUK_CUDA_TC_HOPPER_CUH
#define GPUK_CUDA_TC_HOPPER_CUH

#include <type_traits>
#include "tc_common.cuh"

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#error "tc_hopper.cuh: wgmma and setmaxnreg need sm_90a (backends/cuda/local.mk)"
#endif

#ifdef __CUDACC__

/* ---------------------------------------------------------------- shared memory */

__device__ __forceinline__ uint32_t tc_smem(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

/* The first 1024-byte boundary at or after p (dynamic shared memory is
 * asked for with 1024 bytes to spare). */
__device__ __forceinline__ unsigned char *tc_align1024(unsigned char *p)
{
    uint32_t s = tc_smem(p);
    return p + ((1024 - (s & 1023)) & 1023);
}

/* ---------------------------------------------------------------- mbarriers */

__device__ __forceinline__ void tc_bar_init(uint64_t *bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(tc_smem(bar)), "r"(count)
                 : "memory");
}

/* After the inits, before any other thread or copy engine (or another
 * CTA of the cluster) may touch the barriers. */
__device__ __forceinline__ void tc_bar_init_fence()
{
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

/* The producer's arrival, announcing `bytes` of copies that will complete
 * on the barrier (the phase ends when they have landed). */
__device__ __forceinline__ void tc_bar_expect(uint64_t *bar, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(tc_smem(bar)),
                 "r"(bytes)
                 : "memory");
}

__device__ __forceinline__ void tc_bar_arrive(uint64_t *bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(tc_smem(bar)) : "memory");
}

/* Arrive on the barrier at the same offset in CTA `cta` of the cluster.
 * Only the end of this warp's wgmma (async proxy, already waited for) is
 * announced, so the default CTA-scope release suffices; a cluster-scope
 * release would fence every global store still in flight. */
__device__ __forceinline__ void tc_bar_arrive_cluster(uint64_t *bar, unsigned cta)
{
    asm volatile("{\n.reg .b32 ra;\n"
                 "mapa.shared::cluster.u32 ra, %0, %1;\n"
                 "mbarrier.arrive.shared::cluster.b64 _, [ra];\n}\n"
                 ::"r"(tc_smem(bar)), "r"(cta)
                 : "memory");
}

/* Wait until the phase of parity `parity` has completed: phases alternate
 * 0, 1, 0, ..., so the i-th use of a barrier (from 0) waits on i & 1, and
 * waiting on the parity before the first phase (1) returns at once. */
__device__ __forceinline__ void tc_bar_wait(uint64_t *bar, unsigned parity)
{
    uint32_t done;
    do {
        asm volatile("{\n.reg .pred p;\n"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                     "selp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(done)
                     : "r"(tc_smem(bar)), "r"(parity)
                     : "memory");
    } while (!done);
}

/* ---------------------------------------------------------------- TMA */

/* Box (c0, c1, c2) of map (c0 along the contiguous dimension) into dst,
 * completing `box bytes` on bar; with a cluster mask, into the same
 * offset of every CTA in the mask, each on its own barrier. */
__device__ __forceinline__ void tc_tma_load(void *dst, const CUtensorMap *map, uint64_t *bar,
                                            int c0, int c1, int c2)
{
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3, %4}], [%5];\n" ::"r"(tc_smem(dst)),
                 "l"((uint64_t)map), "r"(c0), "r"(c1), "r"(c2), "r"(tc_smem(bar))
                 : "memory");
}

__device__ __forceinline__ void tc_tma_load_mc(void *dst, const CUtensorMap *map, uint64_t *bar,
                                               int c0, int c1, int c2, uint16_t mask)
{
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 ".multicast::cluster [%0], [%1, {%2, %3, %4}], [%5], %6;\n" ::"r"(tc_smem(dst)),
                 "l"((uint64_t)map), "r"(c0), "r"(c1), "r"(c2), "r"(tc_smem(bar)), "h"(mask)
                 : "memory");
}

/* Box (c0, c1, c2) of map from src in shared memory (the TMA store of
 * the epilogue): elements outside the matrix are not written.  The copy
 * runs asynchronously; it joins the issuing thread's current bulk group,
 * which tc_bulk_commit closes.  tc_bulk_wait_read<N>: until at most N of
 * the thread's groups still read shared memory (their source may be
 * written again); tc_bulk_wait_all: until every group's writes are done. */
__device__ __forceinline__ void tc_tma_store(const CUtensorMap *map, const void *src, int c0,
                                             int c1, int c2)
{
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group"
                 " [%0, {%2, %3, %4}], [%1];\n" ::"l"((uint64_t)map),
                 "r"(tc_smem(src)), "r"(c0), "r"(c1), "r"(c2)
                 : "memory");
}
__device__ __forceinline__ void tc_bulk_commit()
{
    asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
}
template <int N>
__device__ __forceinline__ void tc_bulk_wait_read()
{
    asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(N) : "memory");
}
__device__ __forceinline__ void tc_bulk_wait_all()
{
    asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory");
}

/* Ordinary shared-memory stores that TMA (the async proxy) reads next:
 * each writing thread fences before the barrier that hands them over. */
__device__ __forceinline__ void tc_fence_async_smem()
{
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

/* Fetch a tensor map (a __grid_constant__ parameter) into the copy
 * engine's cache before its first use. */
__device__ __forceinline__ void tc_prefetch_map(const CUtensorMap *map)
{
    asm volatile("prefetch.tensormap [%0];\n" ::"l"((uint64_t)map) : "memory");
}

/* Barrier `id` (1-15; 0 is __syncthreads) among the `count` threads that
 * name it: one warpgroup of a warp-specialized block. */
__device__ __forceinline__ void tc_named_sync(int id, int count)
{
    asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(count) : "memory");
}

/* ---------------------------------------------------------------- clusters */

__device__ __forceinline__ unsigned tc_cluster_rank()
{
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
    return r;
}

/* Every thread of every CTA of the cluster. */
__device__ __forceinline__ void tc_cluster_sync()
{
    asm volatile("barrier.cluster.arrive.release.aligned;\n"
                 "barrier.cluster.wait.acquire.aligned;\n" ::: "memory");
}

/* ---------------------------------------------------------------- tile order */

/* The work of a launch in units: a unit is CL tiles one above the other
 * (a cluster's), ordered batch by batch, each batch in bands of `group`
 * unit rows, down a band's column before the next column (group 1: plain
 * row-major order), so the tiles running at once share rows of a and
 * columns of b and L2 serves more of their reads. */
struct tc_sched {
    int64_t tiles_m, tiles_n, units_m, units, group;
    /* stream-K on the last wave (hgemm_ws.cu, wgmma_streamk): units below
     * dp = rounds x the clusters are whole, round-robin; the units - dp
     * after them (fewer than the clusters) are cut along k, every cluster
     * taking an equal share of their sk_slices slices (times the clusters
     * below 2^32: the host's promise, so the shares are 32-bit sums).
     * part: a 64 x 256 f32 partial per (cluster, block, consumer); flags:
     * one counter each, zero between kernels (gkc_counters). */
    int64_t dp;
    uint32_t rounds, sk_slices;
    float *part;
    unsigned *flags;
};

/* Unit u: batch z, unit row um (its tiles um * CL + rank), column nt. */
__device__ __forceinline__ void tc_unit_at(const tc_sched &s, int64_t u, int64_t &z, int64_t &um,
                                           int64_t &nt)
{
    int64_t per = s.units_m * s.tiles_n;
    z = u / per;
    int64_t r = u - z * per, band = r / (s.group * s.tiles_n), first = band * s.group;
    int64_t rows = s.units_m - first < s.group ? s.units_m - first : s.group;
    int64_t in = r - band * s.group * s.tiles_n;
    um = first + in % rows;
    nt = in / rows;
}

/* What a cluster does next: unit u, its k slices [kb, ke) of nk, and
 * with them either the whole tile (TC_WHOLE), a partial sum left for
 * another cluster (TC_PART), or the last slices, to which the partials
 * of the clusters before it are added before the tile is stored
 * (TC_FINISH). */
enum { TC_WHOLE = 0, TC_PART = 1, TC_FINISH = 2 };
struct tc_piece {
    int64_t u;
    int kb, ke, role;
};

/* The first slice of stream-K's share of cluster c of g (ends at that of c + 1). */
__device__ __forceinline__ uint32_t tc_sk_start(const tc_sched &s, uint32_t c, uint32_t g)
{
    return c * s.sk_slices / g;
}

/* Piece i of cluster c of g.  First its whole units, g apart (s.rounds
 * of them with stream-K); then its stream-K share, which spans at most
 * two units (it is shorter than one), taken last unit first: the head of
 * a unit is then the first piece its cluster computes and the tail the
 * last, so the cluster finishing a unit (the one with its tail) waits
 * only on clusters of lower index, whose partials were their first
 * pieces: no cycle of waits, and little waiting. */
template <bool SK>
__device__ __forceinline__ bool tc_piece_at(const tc_sched &s, int c, int g, int nk, int i,
                                            tc_piece &p)
{
    if constexpr (!SK) {   /* whole units only: the compiler sees no other role */
        p.u = c + (int64_t)i * g, p.kb = 0, p.ke = nk, p.role = TC_WHOLE;
        return p.u < s.units;
    }
    if (i < (int)s.rounds) {
        p.u = c + (int64_t)i * g, p.kb = 0, p.ke = nk, p.role = TC_WHOLE;
        return true;
    }
    i -= (int)s.rounds;
    uint32_t s0 = tc_sk_start(s, c, g), s1 = tc_sk_start(s, c + 1, g);
    if (s0 >= s1 || i > 1)
        return false;
    uint32_t first = s0 / nk, last = (s1 - 1) / nk;
    if (i == 1 && first == last)
        return false;
    uint32_t v = i == 0 ? last : first, lo = v * nk;
    p.u = s.dp + v;
    p.kb = (int)((s0 > lo ? s0 : lo) - lo);
    p.ke = (int)((s1 < lo + nk ? s1 : lo + nk) - lo);
    p.role = p.ke < nk ? TC_PART : p.kb > 0 ? TC_FINISH : TC_WHOLE;
    return true;
}

/* A consumer warpgroup's partial sums, 128 per thread: thread t's
 * acc[4j .. 4j + 3] at float4 j * 128 + t, so a warp's store is 512
 * consecutive bytes.  Written through L2 (st.cg), fenced, then flagged
 * by one thread (release); read after the flag (acquire) through L2. */
template <int N>
__device__ __forceinline__ void tc_part_store(float *part, unsigned *flag, const float (&acc)[N],
                                              int tid, int bar, int nthreads)
{
    float4 *w = (float4 *)part;
#pragma unroll
    for (int j = 0; j < N / 4; j++)
        __stcg(&w[j * nthreads + tid],
               make_float4(acc[4 * j], acc[4 * j + 1], acc[4 * j + 2], acc[4 * j + 3]));
    __threadfence();
    tc_named_sync(bar, nthreads);
    if (tid == 0)
        asm volatile("st.release.gpu.global.u32 [%0], %1;\n" ::"l"(flag), "r"(1u) : "memory");
}

template <int N>
__device__ __forceinline__ void tc_part_add(const float *part, unsigned *flag, float (&acc)[N],
                                            int tid, int bar, int nthreads)
{
    if (tid == 0) {
        unsigned v;
        for (;;) {
            asm volatile("ld.acquire.gpu.global.u32 %0, [%1];\n" : "=r"(v) : "l"(flag) : "memory");
            if (v)
                break;
            __nanosleep(100);
        }
        *flag = 0;   /* read once, by this thread: zero again for the next kernel */
    }
    tc_named_sync(bar, nthreads);
    const float4 *r = (const float4 *)part;
#pragma unroll
    for (int j = 0; j < N / 4; j++) {
        float4 q = __ldcg(&r[j * nthreads + tid]);
        acc[4 * j] += q.x, acc[4 * j + 1] += q.y, acc[4 * j + 2] += q.z, acc[4 * j + 3] += q.w;
    }
}

/* ---------------------------------------------------------------- registers */

template <int R>
__device__ __forceinline__ void tc_regs_up()
{
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(R));
}
template <int R>
__device__ __forceinline__ void tc_regs_down()
{
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(R));
}

/* ---------------------------------------------------------------- wgmma */

/* The shared-memory descriptor of a tile at p (see the top of the file):
 * address, LBO and SBO in 16-byte units, 128-byte swizzle (mode 1). */
__device__ __forceinline__ uint64_t tc_desc(const void *p, uint32_t lbo, uint32_t sbo)
{
    uint64_t a = tc_smem(p);
    return ((a & 0x3FFFF) >> 4) | ((uint64_t)(lbo >> 4) << 16) | ((uint64_t)(sbo >> 4) << 32) |
           (1ull << 62);
}

/* Before the first wgmma of a batch (its accumulators were written by
 * other instructions), after the batch, and the wait for all but N batches. */
__device__ __forceinline__ void tc_wgmma_fence()
{
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void tc_wgmma_commit()
{
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
template <int N>
__device__ __forceinline__ void tc_wgmma_wait()
{
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}

/* After a wait: the accumulators are the wgmma's output only from here on,
 * so no read of them may move above the wait. */
template <int N>
__device__ __forceinline__ void tc_fence_acc(float (&d)[N])
{
#pragma unroll
    for (int i = 0; i < N; i++)
        asm volatile("" : "+f"(d[i])::"memory");
}

/* The accumulator operands: N f32 registers of a lane, %0 ... %(N-1). */
#define TC_D64_LIST \
    "{" \
    "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, " \
    "%12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, " \
    "%24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, " \
    "%36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
    "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, " \
    "%60, %61, %62, %63" \
    "}"
#define TC_D64_OPS(d) \
    "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), \
    "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), \
    "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), \
    "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), \
    "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), \
    "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), \
    "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), \
    "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), \
    "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), \
    "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), \
    "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
#define TC_D128_LIST \
    "{" \
    "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, " \
    "%12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, " \
    "%24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, " \
    "%36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
    "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, " \
    "%60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, " \
    "%72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, " \
    "%84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, " \
    "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, " \
    "%108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, " \
    "%120, %121, %122, %123, %124, %125, %126, %127" \
    "}"
#define TC_D128_OPS(d) \
    "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), \
    "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), \
    "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), \
    "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), \
    "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), \
    "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), \
    "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), \
    "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), \
    "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), \
    "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), \
    "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), \
    "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), \
    "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), \
    "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), \
    "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), \
    "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), \
    "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), \
    "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), \
    "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), \
    "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), \
    "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), \
    "+f"(d[126]), "+f"(d[127])

/* d = A B (acc == 0) or d += A B for A 64 x 16 (descriptor da) and B
 * 16 x N (db), both in shared memory, T f16 or bf16 with f32 accumulation.
 * MNA, MNB: wgmma's imm-trans bits, 1 for a tile that is MN-major (A
 * stored [k][m], B stored [k][n]: the usual matmul's B), 0 for K-major;
 * note that GEMM's trans_b makes B K-major.  Lane (g = l / 4, t = l % 4)
 * of warp w of the warpgroup holds d[4i .. 4i + 3] = rows 16w + g and
 * 16w + g + 8, columns 8i + 2t and 8i + 2t + 1 (the pairs d[4i], d[4i + 1]
 * and d[4i + 2], d[4i + 3]). */
#define TC_WGMMA_SS(shape, ty, LIST, OPS, nd, i0, i1, i2, i3, i4)                              \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %" #i2 ", 0;\n"                               \
                 "wgmma.mma_async.sync.aligned." shape ".f32." ty "." ty " " LIST                 \
                 ", %" #i0 ", %" #i1 ", p, 1, 1, %" #i3 ", %" #i4 ";\n}\n"                        \
                 : OPS(nd)                                                                         \
                 : "l"(da), "l"(db), "r"(acc), "n"(MNA), "n"(MNB))

template <class T, int MNA, int MNB>
__device__ __forceinline__ void tc_wgmma_n128(float (&d)[64], uint64_t da, uint64_t db, int acc)
{
    if constexpr (std::is_same<T, __nv_bfloat16>::value)
        TC_WGMMA_SS("m64n128k16", "bf16", TC_D64_LIST, TC_D64_OPS, d, 64, 65, 66, 67, 68);
    else
        TC_WGMMA_SS("m64n128k16", "f16", TC_D64_LIST, TC_D64_OPS, d, 64, 65, 66, 67, 68);
}

template <class T, int MNA, int MNB>
__device__ __forceinline__ void tc_wgmma_n256(float (&d)[128], uint64_t da, uint64_t db, int acc)
{
    if constexpr (std::is_same<T, __nv_bfloat16>::value)
        TC_WGMMA_SS("m64n256k16", "bf16", TC_D128_LIST, TC_D128_OPS, d, 128, 129, 130, 131, 132);
    else
        TC_WGMMA_SS("m64n256k16", "f16", TC_D128_LIST, TC_D128_OPS, d, 128, 129, 130, 131, 132);
}

/* tf32, m64 x 256 x k8, B from shared memory (K-major: the only layout
 * tf32 has).  tc_wgmma_tf32_ss: A too (K-major); tc_wgmma_tf32_rs: A from
 * registers, lane (g, t) of warp w holding a[0] = A(16w + g, t),
 * a[1] = A(16w + g + 8, t), a[2] = A(16w + g, t + 4), a[3] = A(16w + g + 8, t + 4). */
__device__ __forceinline__ void tc_wgmma_tf32_ss(float (&d)[128], uint64_t da, uint64_t db, int acc)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 " TC_D128_LIST
                 ", %128, %129, p, 1, 1;\n}\n"
                 : TC_D128_OPS(d)
                 : "l"(da), "l"(db), "r"(acc));
}

__device__ __forceinline__ void tc_wgmma_tf32_rs(float (&d)[128], const uint32_t (&a)[4],
                                                 uint64_t db, int acc)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %133, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 " TC_D128_LIST
                 ", {%128, %129, %130, %131}, %132, p, 1, 1;\n}\n"
                 : TC_D128_OPS(d)
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(acc));
}

#endif /* __CUDACC__ */

#endif /* GPUK_CUDA_TC_HOPPER_CUH */

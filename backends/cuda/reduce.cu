/*
 * reduce.cu - the reductions (gpuk_reduce(3)): reduce and meanpool.
 * reduce: out[o, i] = sum (or mean) over l of x[o, l, i], for a dense
 * x[outer, len, inner].  Output g = o * inner + i reads len elements,
 * inner apart, starting at x + o * len * inner + i.  meanpool:
 * out[b, :] = mean over t of x[b, t, :].
 *
 * The ladder changes who reduces one output: a block with a shared-memory
 * tree, a warp with shuffles, or several blocks at once; then how a
 * block's loads are issued (row_float4).  An
 * empty len gives 0 for a sum and 0/0 = NaN for a mean.
 */
#include "cuda_internal.h"

namespace {

struct rd {
    const float *x;
    float *out;
    int64_t outer, len, inner, outputs;
    int mean;
};

__device__ __forceinline__ const float *rd_base(const rd &p, int64_t g)
{
    int64_t o = g / p.inner, i = g - o * p.inner;
    return p.x + o * p.len * p.inner + i;
}

__device__ __forceinline__ float rd_finish(const rd &p, float s)
{
    return p.mean ? s / (float)p.len : s;
}

constexpr int NT = 256;

/* 1. smem_tree: one block per output.  Each thread sums a strided share of
 * the row, then the block halves the active threads each level through
 * shared memory, a barrier per level (the classic tree reduction). */
__global__ void reduce_smem_tree(rd p)
{
    gkc_pdl_enter();
    __shared__ float sh[NT];
    for (int64_t g = blockIdx.x; g < p.outputs; g += gridDim.x) {
        const float *x = rd_base(p, g);
        float s = 0.0f;
        for (int64_t l = threadIdx.x; l < p.len; l += NT)
            s += x[l * p.inner];
        sh[threadIdx.x] = s;
        for (int stride = NT / 2; stride > 0; stride /= 2) {
            __syncthreads();
            if (threadIdx.x < stride)
                sh[threadIdx.x] += sh[threadIdx.x + stride];
        }
        if (threadIdx.x == 0)
            p.out[g] = rd_finish(p, sh[0]);
        __syncthreads();   /* sh[0] is read before the next output overwrites sh */
    }
}

/* 2. warp_shuffle: one warp per output, the partial sums combined through
 * registers with __shfl_xor_sync: no shared memory, no block barriers, and
 * 8 outputs in flight per block instead of 1. */
__global__ void reduce_warp_shuffle(rd p)
{
    gkc_pdl_enter();
    int lane = threadIdx.x & 31;
    int64_t warp = ((int64_t)blockIdx.x * NT + threadIdx.x) >> 5;
    int64_t nwarps = ((int64_t)gridDim.x * NT) >> 5;
    for (int64_t g = warp; g < p.outputs; g += nwarps) {
        const float *x = rd_base(p, g);
        float s = 0.0f;
        for (int64_t l = lane; l < p.len; l += 32)
            s += x[l * p.inner];
        s = gkc_warp_sum(s);
        if (lane == 0)
            p.out[g] = rd_finish(p, s);
    }
}

/* 3. grid_stride: few long outputs leave most SMs idle under 1 and 2, so
 * here `parts` blocks share each output, each striding over the row with
 * the whole group's stride; block sums go to a scratch array and a second
 * pass (one warp per output) adds the parts in a fixed order
 * (deterministic: no atomics).  With parts == 1 the first pass writes the
 * result itself. */
__global__ void reduce_grid_stride(rd p, int parts, float *partial)
{
    gkc_pdl_enter();
    __shared__ float sh[32];
    int64_t nblk = p.outputs * parts;
    for (int64_t blk = blockIdx.x; blk < nblk; blk += gridDim.x) {
        int64_t g = blk / parts;
        int part = (int)(blk - g * parts);
        const float *x = rd_base(p, g);
        float s = 0.0f;
#pragma unroll 4
        for (int64_t l = (int64_t)part * NT + threadIdx.x; l < p.len; l += (int64_t)parts * NT)
            s += x[l * p.inner];
        s = gkc_block_sum(s, sh);
        if (threadIdx.x == 0) {
            if (parts == 1)
                p.out[g] = rd_finish(p, s);
            else
                partial[blk] = s;
        }
    }
}

__global__ void reduce_parts(rd p, int parts, const float *partial)
{
    gkc_pdl_enter();
    int lane = threadIdx.x & 31;
    int64_t warp = ((int64_t)blockIdx.x * NT + threadIdx.x) >> 5;
    int64_t nwarps = ((int64_t)gridDim.x * NT) >> 5;
    for (int64_t g = warp; g < p.outputs; g += nwarps) {
        float s = 0.0f;
        for (int q = lane; q < parts; q += 32)
            s += partial[g * parts + q];
        s = gkc_warp_sum(s);
        if (lane == 0)
            p.out[g] = rd_finish(p, s);
    }
}

/* 4. lanes_inner: for a reduction along a non-last axis (inner > 1) the
 * rungs above give each output to a thread group that walks l, so a
 * warp's loads are inner floats apart: one transaction per lane.  Here the
 * 32 lanes of a warp take consecutive i (float4 when rows are 16-byte
 * aligned: 512 bytes a warp load, else 128) and the 8 warps of the block
 * take every 8th l; blockIdx.y splits len into parts when the outputs
 * alone are too few blocks to fill the GPU.  The 8 warp partials of a
 * column meet in shared memory, summed in a fixed order. */
constexpr int LX = 32, LY = NT / LX;
template <bool VEC>
__global__ void reduce_lanes_inner(rd p, int64_t cblocks, int64_t per_part, float *partial)
{
    gkc_pdl_enter();
    constexpr int W = VEC ? 4 : 1, CW = LX * W;   /* columns a lane, a block */
    __shared__ float sh[LY][CW + 1];
    int lx = threadIdx.x % LX, ly = threadIdx.x / LX;
    int64_t l0 = (int64_t)blockIdx.y * per_part;
    int64_t l1 = l0 + per_part < p.len ? l0 + per_part : p.len;
    for (int64_t bx = blockIdx.x; bx < p.outer * cblocks; bx += gridDim.x) {
        int64_t o = bx / cblocks, c0 = (bx - o * cblocks) * CW, i = c0 + lx * W;
        float4 s = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        if (i < p.inner) {   /* VEC: inner % 4 == 0, so i + 3 < inner too */
            const float *x = p.x + o * p.len * p.inner + i;
#pragma unroll 8
            for (int64_t l = l0 + ly; l < l1; l += LY) {
                if (VEC) {
                    float4 v = *(const float4 *)(x + l * p.inner);
                    s.x += v.x;
                    s.y += v.y;
                    s.z += v.z;
                    s.w += v.w;
                } else {
                    s.x += x[l * p.inner];
                }
            }
        }
#pragma unroll
        for (int u = 0; u < W; u++)
            sh[ly][lx * W + u] = gkc_f4(s, u);
        __syncthreads();
        int64_t g = c0 + threadIdx.x;   /* the first CW threads finish a column each */
        if (threadIdx.x < CW && g < p.inner) {
            float t = sh[0][threadIdx.x];
#pragma unroll
            for (int q = 1; q < LY; q++)
                t += sh[q][threadIdx.x];
            if (partial)
                partial[(int64_t)blockIdx.y * p.outputs + o * p.inner + g] = t;
            else
                p.out[o * p.inner + g] = rd_finish(p, t);
        }
        __syncthreads();   /* sh is read before the next column block overwrites it */
    }
}

/* out[g] = finish(sum over part of partial[part][g]), parts in order. */
__global__ void reduce_lanes_parts(rd p, int parts, const float *partial)
{
    gkc_pdl_enter();
    int64_t step = (int64_t)gridDim.x * NT;
    for (int64_t g = (int64_t)blockIdx.x * NT + threadIdx.x; g < p.outputs; g += step) {
        float s = 0.0f;
        for (int q = 0; q < parts; q++)
            s += partial[(int64_t)q * p.outputs + g];
        p.out[g] = rd_finish(p, s);
    }
}

/* 5. row_float4: contiguous rows (inner == 1), 16-byte aligned, a block
 * of 512 a row and V float4 a thread, every load of a pass issued before
 * the first add.  smem_tree's loop waits on memory several times a row,
 * so at 4096^2 the grid's last blocks ran on after the rest were done and
 * the call cost 3 us over its bytes; here a row of up to 8192 floats
 * arrives in one round trip (bench/NOTES.md, "Rows in one round trip").
 * Longer rows take passes of 2048 float4. */
constexpr int RNT = 512;
template <int V>
__global__ void __launch_bounds__(RNT) reduce_row_float4(rd p)
{
    gkc_pdl_enter();
    __shared__ float sh[32];
    int64_t len4 = p.len / 4;
    for (int64_t g = blockIdx.x; g < p.outputs; g += gridDim.x) {
        const float4 *x = (const float4 *)(p.x + g * p.len);
        auto pass = [&](int64_t c0) {   /* V float4 at c0, c0 + RNT, ... */
            float4 a[V];
#pragma unroll
            for (int u = 0; u < V; u++)
                a[u] = c0 + u * RNT < len4 ? __ldcs(x + c0 + u * RNT)
                                           : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            float t = 0.0f;
#pragma unroll
            for (int u = 0; u < V; u++)
                t += (a[u].x + a[u].y) + (a[u].z + a[u].w);
            return t;
        };
        float s = gkc_row_passes<V, RNT>(len4, pass);   /* V = 1, 2: one pass, no loop */
        s = gkc_block_sum(s, sh);
        if (threadIdx.x == 0)
            p.out[g] = rd_finish(p, s);
    }
}

rd rd_from(const gpuk_args *args)
{
    rd p;
    p.x = (const float *)args->in[0].data;
    p.out = (float *)args->out.data;
    p.outer = args->in[0].shape[0];
    p.len = args->in[0].shape[1];
    p.inner = args->in[0].shape[2];
    p.outputs = p.outer * p.inner;
    p.mean = args->reduce_kind == GPUK_REDUCE_MEAN;
    return p;
}

/* Scratch for the partial sums of a split reduction (parts per output);
 * none when each output is one part. */
gpuk_status partials(gpuk_bctx *b, int64_t outputs, int64_t parts, float **out)
{
    *out = NULL;
    if (parts <= 1)
        return GPUK_OK;
    void *buf = NULL;
    GKC_TRY(gkc_scratch(b, GKC_SLOT_WORK, (size_t)(outputs * parts) * sizeof(float), &buf));
    *out = (float *)buf;
    return GPUK_OK;
}

/* meanpool: block per batch row (blockIdx.x), a slice of NT columns per
 * blockIdx.y; each thread owns a column and walks down the tokens, so a
 * warp reads 32 consecutive floats per token.  t == 0 gives 0/0 = NaN. */
__global__ void meanpool_block_row(const float *x, float *out, int64_t batch, int64_t t,
                                   int64_t d)
{
    gkc_pdl_enter();
    for (int64_t bi = blockIdx.x; bi < batch; bi += gridDim.x) {
        const float *xb = x + bi * t * d;
        for (int64_t j = (int64_t)blockIdx.y * NT + threadIdx.x; j < d;
             j += (int64_t)gridDim.y * NT) {
            float s = 0.0f;
            for (int64_t r = 0; r < t; r++)
                s += xb[r * d + j];
            out[bi * d + j] = s / (float)t;
        }
    }
}

}  // namespace

GKC_KERNEL(gkc_reduce_smem_tree)
{
    GKC_TRY(gkc_enter(b));
    rd p = rd_from(args);
    gkc_launch_pdl(b->stream, reduce_smem_tree, gkc_blocks(p.outputs, 1, 1 << 20), NT, 0, p);
    GKC_LAUNCHED(b, "reduce", "smem_tree");
    return GPUK_OK;
}

GKC_KERNEL(gkc_reduce_warp_shuffle)
{
    GKC_TRY(gkc_enter(b));
    rd p = rd_from(args);
    gkc_launch_pdl(b->stream, reduce_warp_shuffle, gkc_blocks(p.outputs, NT / 32, 1 << 20), NT, 0,
                   p);
    GKC_LAUNCHED(b, "reduce", "warp_shuffle");
    return GPUK_OK;
}

GKC_KERNEL(gkc_reduce_grid_stride)
{
    GKC_TRY(gkc_enter(b));
    rd p = rd_from(args);
    /* Aim for about 4 blocks per SM in all, but give no block less than
     * 8 elements per thread, and never more parts than 1024. */
    int64_t want = gkc_grid_cap(b) / 8;                  /* 4 blocks per SM */
    int64_t parts = want / (p.outputs > 0 ? p.outputs : 1);
    int64_t most = gkc_cdiv(p.len, NT * 8);
    if (parts > most)
        parts = most;
    if (parts > 1024)
        parts = 1024;
    if (parts < 1)
        parts = 1;
    float *partial = NULL;
    GKC_TRY(partials(b, p.outputs, parts, &partial));
    gkc_launch_pdl(b->stream, reduce_grid_stride, gkc_blocks(p.outputs * parts, 1, 1 << 20), NT, 0,
                   p, (int)parts, partial);
    GKC_LAUNCHED(b, "reduce", "grid_stride");
    if (parts > 1) {
        gkc_launch_pdl(b->stream, reduce_parts, gkc_blocks(p.outputs, NT / 32, 1 << 20), NT, 0, p,
                       (int)parts, partial);
        GKC_LAUNCHED(b, "reduce", "grid_stride (combine)");
    }
    return GPUK_OK;
}

GKC_KERNEL(gkc_reduce_lanes_inner)
{
    rd p = rd_from(args);
    if (p.inner < LX)   /* fewer columns than lanes: the contiguous rung does better */
        return gkc_reduce_grid_stride(b, args);
    GKC_TRY(gkc_enter(b));
    bool vec = p.inner % 4 == 0 && gkc_aligned16(p.x);
    int64_t cw = vec ? 4 * LX : LX;
    /* About 8 blocks per SM in all; each thread at least 16 rows of its part. */
    int64_t cblocks = gkc_cdiv(p.inner, cw), blocks = p.outer * cblocks;
    int64_t want = gkc_grid_cap(b) / 4;
    int64_t parts = gkc_cdiv(want, blocks);
    int64_t most = p.len / (LY * 16);
    if (parts > most)
        parts = most;
    if (parts > 1024)
        parts = 1024;
    if (parts < 1)
        parts = 1;
    int64_t per_part = gkc_cdiv(p.len, parts);
    parts = per_part > 0 ? gkc_cdiv(p.len, per_part) : 1;
    if (parts < 1)
        parts = 1;
    if (per_part < 1)
        per_part = 1;
    float *partial = NULL;
    GKC_TRY(partials(b, p.outputs, parts, &partial));
    dim3 grid(gkc_blocks(blocks, 1, 1 << 20), (unsigned)parts);
    if (vec)
        gkc_launch_pdl(b->stream, reduce_lanes_inner<true>, grid, NT, 0, p, cblocks, per_part,
                       partial);
    else
        gkc_launch_pdl(b->stream, reduce_lanes_inner<false>, grid, NT, 0, p, cblocks, per_part,
                       partial);
    GKC_LAUNCHED(b, "reduce", "lanes_inner");
    if (parts > 1) {
        gkc_launch_pdl(b->stream, reduce_lanes_parts, gkc_blocks(p.outputs, NT, gkc_grid_cap(b)),
                       NT, 0, p, (int)parts, partial);
        GKC_LAUNCHED(b, "reduce", "lanes_inner (combine)");
    }
    return GPUK_OK;
}

GKC_KERNEL(gkc_reduce_row_float4)
{
    rd p = rd_from(args);
    if (p.inner != 1 || p.len % 4 != 0 || !gkc_aligned16(p.x))
        return gkc_reduce_smem_tree(b, args);   /* not rows of whole aligned float4 */
    GKC_TRY(gkc_enter(b));
    int64_t len4 = p.len / 4;
    unsigned g = gkc_blocks(p.outputs, 1, 1 << 20);
    if (len4 <= RNT)
        gkc_launch_pdl(b->stream, reduce_row_float4<1>, g, RNT, 0, p);
    else if (len4 <= 2 * RNT)
        gkc_launch_pdl(b->stream, reduce_row_float4<2>, g, RNT, 0, p);
    else
        gkc_launch_pdl(b->stream, reduce_row_float4<4>, g, RNT, 0, p);
    GKC_LAUNCHED(b, "reduce", "row_float4");
    return GPUK_OK;
}

GKC_KERNEL(gkc_meanpool_block_row)
{
    GKC_TRY(gkc_enter(b));
    const float *x = (const float *)args->in[0].data;
    float *out = (float *)args->out.data;
    int64_t batch = args->in[0].shape[0], t = args->in[0].shape[1], d = args->in[0].shape[2];
    dim3 grid(gkc_blocks(batch, 1, 1 << 20), gkc_blocks(d, NT, GKC_MAX_GRID_YZ));
    gkc_launch_pdl(b->stream, meanpool_block_row, grid, NT, 0, x, out, batch, t, d);
    GKC_LAUNCHED(b, "meanpool", "block_row");
    return GPUK_OK;
}

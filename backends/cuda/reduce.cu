/*
 * reduce.cu - out[o, i] = sum (or mean) over l of x[o, l, i], for a dense
 * x[outer, len, inner].  Output g = o * inner + i reads len elements,
 * inner apart, starting at x + o * len * inner + i.
 *
 * The ladder changes who reduces one output: a block with a shared-memory
 * tree (seed 001), a warp with shuffles, or several blocks at once.  An
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
 * shared memory, a barrier per level (seed 001's tree). */
__global__ void reduce_smem_tree(rd p)
{
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

}  // namespace

GKC_KERNEL(gkc_reduce_smem_tree)
{
    GKC_TRY(gkc_enter(b));
    rd p = rd_from(args);
    reduce_smem_tree<<<gkc_blocks(p.outputs, 1, 1 << 20), NT, 0, b->stream>>>(p);
    GKC_LAUNCHED(b, "reduce", "smem_tree");
    return GPUK_OK;
}

GKC_KERNEL(gkc_reduce_warp_shuffle)
{
    GKC_TRY(gkc_enter(b));
    rd p = rd_from(args);
    reduce_warp_shuffle<<<gkc_blocks(p.outputs, NT / 32, 1 << 20), NT, 0, b->stream>>>(p);
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
    int64_t most = (p.len + NT * 8 - 1) / (NT * 8);
    if (parts > most)
        parts = most;
    if (parts > 1024)
        parts = 1024;
    if (parts < 1)
        parts = 1;
    float *partial = NULL;
    if (parts > 1) {
        void *buf = NULL;
        GKC_TRY(gkc_scratch(b, GKC_SLOT_WORK, (size_t)(p.outputs * parts) * sizeof(float), &buf));
        partial = (float *)buf;
    }
    reduce_grid_stride<<<gkc_blocks(p.outputs * parts, 1, 1 << 20), NT, 0, b->stream>>>(
        p, (int)parts, partial);
    GKC_LAUNCHED(b, "reduce", "grid_stride");
    if (parts > 1) {
        reduce_parts<<<gkc_blocks(p.outputs, NT / 32, 1 << 20), NT, 0, b->stream>>>(
            p, (int)parts, partial);
        GKC_LAUNCHED(b, "reduce", "grid_stride (combine)");
    }
    return GPUK_OK;
}

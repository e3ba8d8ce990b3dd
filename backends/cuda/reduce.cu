/*
 * reduce.cu - the reductions (gpuk_reduce(3)), every kernel a template
 * over the element type T (float, double, f16, bf16; sums round in T's
 * compute type gkc_c<T>, f32 for the 16-bit types, whose elements are
 * widened as they are read and whose result is rounded once, as the
 * CPU's rows do):
 *   reduce    out[o, i] = sum (or mean) over l of x[o, l, i], for a dense
 *             x[outer, len, inner].  Output g = o * inner + i reads len
 *             elements, inner apart, starting at x + o * len * inner + i;
 *   meanpool  out[b, :] = mean over t of x[b, t, :].
 *
 * The reduce ladder changes who reduces one output: a block with a
 * shared-memory tree, a warp with shuffles, or several blocks at once;
 * then how a block's loads are issued (row_float4).  An empty len gives 0
 * for a sum and 0/0 = NaN for a mean.  The vector rungs count their loads
 * in 16-byte vectors (gkc_vec: 4 floats, 2 doubles or 8 16-bit values),
 * so a thread keeps the same bytes in flight in every dtype.
 */
#include "cuda_internal.h"

namespace {

template <class T>
struct rd {
    const T *x;
    T *out;
    int64_t outer, len, inner, outputs;
    int mean;
};

template <class T>
__device__ __forceinline__ const T *rd_base(const rd<T> &p, int64_t g)
{
    int64_t o = g / p.inner, i = g - o * p.inner;
    return p.x + o * p.len * p.inner + i;
}

/* The output of a sum s (in the compute type): the mean divides there,
 * then one rounding to T. */
template <class T>
__device__ __forceinline__ T rd_finish(const rd<T> &p, gkc_c<T> s)
{
    return gkc_st<T>(p.mean ? s / (gkc_c<T>)p.len : s);
}

constexpr int NT = 256;

template <class T>
struct f_sum {
    __device__ T operator()(T a, T b) const { return a + b; }
};

/* 1. smem_tree: one block per output.  Each thread sums a strided share of
 * the row, then the block halves the active threads each level through
 * shared memory, a barrier per level (the classic tree reduction). */
template <class T>
__global__ void reduce_smem_tree(rd<T> p)
{
    gkc_pdl_enter();
    __shared__ gkc_c<T> sh[NT];
    for (int64_t g = blockIdx.x; g < p.outputs; g += gridDim.x) {
        const T *x = rd_base(p, g);
        gkc_c<T> s = 0;
        for (int64_t l = threadIdx.x; l < p.len; l += NT)
            s += gkc_ld(x[l * p.inner]);
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
template <class T>
__global__ void reduce_warp_shuffle(rd<T> p)
{
    gkc_pdl_enter();
    int lane = threadIdx.x & 31;
    int64_t warp = ((int64_t)blockIdx.x * NT + threadIdx.x) >> 5;
    int64_t nwarps = ((int64_t)gridDim.x * NT) >> 5;
    for (int64_t g = warp; g < p.outputs; g += nwarps) {
        const T *x = rd_base(p, g);
        gkc_c<T> s = 0;
        for (int64_t l = lane; l < p.len; l += 32)
            s += gkc_ld(x[l * p.inner]);
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
 * result itself.  The partial sums are in the compute type. */
template <class T>
__global__ void reduce_grid_stride(rd<T> p, int parts, gkc_c<T> *partial)
{
    gkc_pdl_enter();
    __shared__ gkc_c<T> sh[32];
    int64_t nblk = p.outputs * parts;
    for (int64_t blk = blockIdx.x; blk < nblk; blk += gridDim.x) {
        int64_t g = blk / parts;
        int part = (int)(blk - g * parts);
        const T *x = rd_base(p, g);
        gkc_c<T> s = 0;
#pragma unroll 4
        for (int64_t l = (int64_t)part * NT + threadIdx.x; l < p.len; l += (int64_t)parts * NT)
            s += gkc_ld(x[l * p.inner]);
        s = gkc_block_sum(s, sh);
        if (threadIdx.x == 0) {
            if (parts == 1)
                p.out[g] = rd_finish(p, s);
            else
                partial[blk] = s;
        }
    }
}

template <class T>
__global__ void reduce_parts(rd<T> p, int parts, const gkc_c<T> *partial)
{
    gkc_pdl_enter();
    int lane = threadIdx.x & 31;
    int64_t warp = ((int64_t)blockIdx.x * NT + threadIdx.x) >> 5;
    int64_t nwarps = ((int64_t)gridDim.x * NT) >> 5;
    for (int64_t g = warp; g < p.outputs; g += nwarps) {
        gkc_c<T> s = 0;
        for (int q = lane; q < parts; q += 32)
            s += partial[g * parts + q];
        s = gkc_warp_sum(s);
        if (lane == 0)
            p.out[g] = rd_finish(p, s);
    }
}

/* 4. lanes_inner: for a reduction along a non-last axis (inner > 1) the
 * rungs above give each output to a thread group that walks l, so a
 * warp's loads are inner elements apart: one transaction per lane.  Here
 * the 32 lanes of a warp take consecutive i (a 16-byte vector when rows
 * are 16-byte aligned: 512 bytes a warp load, else 128 in f32, 256 in
 * f64) and the 8 warps of the block take every 8th l; blockIdx.y splits
 * len into parts when the outputs alone are too few blocks to fill the
 * GPU.  The 8 warp partials of a column meet in shared memory, summed in
 * a fixed order.  A lane's W sums are in the compute type (li_sums). */
constexpr int LX = 32, LY = NT / LX;

/* A lane's W running sums for lanes_inner: the loaded vector itself for
 * float and double (W = N, or its first element when W = 1) ... */
template <class T, int W, bool WIDE = sizeof(gkc_c<T>) != sizeof(T)>
struct li_sums {
    typedef typename gkc_vec<T>::type V;
    V s = gkc_vfill(T(0));
    __device__ __forceinline__ void add(const V &v) { s = gkc_vmap(s, v, f_sum<T>()); }
    __device__ __forceinline__ void add1(T e) { s.x += e; }
    __device__ __forceinline__ T get(int u) const { return gkc_vget(s, u); }
};
/* ... and W floats for a 16-bit T, each element widened as it comes. */
template <class T, int W>
struct li_sums<T, W, true> {
    typedef typename gkc_vec<T>::type V;
    gkc_c<T> s[W] = {};
    __device__ __forceinline__ void add(const V &v)
    {
#pragma unroll
        for (int u = 0; u < W; u++)
            s[u] += gkc_vget(v, u);
    }
    __device__ __forceinline__ void add1(T e) { s[0] += gkc_ld(e); }
    __device__ __forceinline__ gkc_c<T> get(int u) const { return s[u]; }
};

template <class T, bool VEC>
__global__ void reduce_lanes_inner(rd<T> p, int64_t cblocks, int64_t per_part,
                                   gkc_c<T> *partial)
{
    typedef typename gkc_vec<T>::type V;
    typedef gkc_c<T> C;
    gkc_pdl_enter();
    constexpr int W = VEC ? gkc_vec<T>::N : 1, CW = LX * W;   /* columns a lane, a block */
    __shared__ C sh[LY][CW + 1];
    int lx = threadIdx.x % LX, ly = threadIdx.x / LX;
    int64_t l0 = (int64_t)blockIdx.y * per_part;
    int64_t l1 = l0 + per_part < p.len ? l0 + per_part : p.len;
    for (int64_t bx = blockIdx.x; bx < p.outer * cblocks; bx += gridDim.x) {
        int64_t o = bx / cblocks, c0 = (bx - o * cblocks) * CW, i = c0 + lx * W;
        li_sums<T, W> s;
        if (i < p.inner) {   /* VEC: inner % W == 0, so i + W - 1 < inner too */
            const T *x = p.x + o * p.len * p.inner + i;
#pragma unroll 8
            for (int64_t l = l0 + ly; l < l1; l += LY) {
                if (VEC) {
                    V v = *(const V *)(x + l * p.inner);
                    s.add(v);
                } else {
                    s.add1(x[l * p.inner]);
                }
            }
        }
#pragma unroll
        for (int u = 0; u < W; u++)
            sh[ly][lx * W + u] = s.get(u);
        __syncthreads();
        int64_t g = c0 + threadIdx.x;   /* the first CW threads finish a column each */
        if (threadIdx.x < CW && g < p.inner) {
            C t = sh[0][threadIdx.x];
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
template <class T>
__global__ void reduce_lanes_parts(rd<T> p, int parts, const gkc_c<T> *partial)
{
    gkc_pdl_enter();
    int64_t step = (int64_t)gridDim.x * NT;
    for (int64_t g = (int64_t)blockIdx.x * NT + threadIdx.x; g < p.outputs; g += step) {
        gkc_c<T> s = 0;
        for (int q = 0; q < parts; q++)
            s += partial[(int64_t)q * p.outputs + g];
        p.out[g] = rd_finish(p, s);
    }
}

/* 5. row_float4: contiguous rows (inner == 1), 16-byte aligned, a block
 * of 512 a row and V vectors of 16 bytes a thread, every load of a pass
 * issued before the first add.  smem_tree's loop waits on memory several
 * times a row, so at 4096^2 the grid's last blocks ran on after the rest
 * were done and the call cost 3 us over its bytes; here a row of up to 32
 * KB (8192 floats, 4096 doubles) arrives in one round trip
 * (bench/NOTES.md, "Rows in one round trip").  Longer rows take passes of
 * 2048 vectors.  A 16-bit row of 16 KB is the same 8192 elements. */
constexpr int RNT = 512;
template <class T, int V>
__global__ void __launch_bounds__(RNT) reduce_row_float4(rd<T> p)
{
    typedef typename gkc_vec<T>::type VT;
    gkc_pdl_enter();
    __shared__ gkc_c<T> sh[32];
    int64_t len4 = p.len / gkc_vec<T>::N;
    for (int64_t g = blockIdx.x; g < p.outputs; g += gridDim.x) {
        const VT *x = (const VT *)(p.x + g * p.len);
        auto pass = [&](int64_t c0) {   /* V vectors at c0, c0 + RNT, ... */
            VT a[V];
#pragma unroll
            for (int u = 0; u < V; u++)
                a[u] = c0 + u * RNT < len4 ? gkc_ldcs(x + c0 + u * RNT) : gkc_vfill(T(0));
            gkc_c<T> t = 0;
#pragma unroll
            for (int u = 0; u < V; u++)
                t += gkc_vsum(a[u]);
            return t;
        };
        gkc_c<T> s = gkc_row_passes<V, RNT>(len4, pass);   /* V = 1, 2: one pass, no loop */
        s = gkc_block_sum(s, sh);
        if (threadIdx.x == 0)
            p.out[g] = rd_finish(p, s);
    }
}

template <class T>
rd<T> rd_from(const gpuk_args *args)
{
    rd<T> p;
    p.x = (const T *)args->in[0].data;
    p.out = (T *)args->out.data;
    p.outer = args->in[0].shape[0];
    p.len = args->in[0].shape[1];
    p.inner = args->in[0].shape[2];
    p.outputs = p.outer * p.inner;
    p.mean = args->reduce_kind == GPUK_REDUCE_MEAN;
    return p;
}

/* Scratch for the partial sums of a split reduction (parts per output),
 * in the compute type T; none when each output is one part. */
template <class T>
gpuk_status partials(gpuk_bctx *b, int64_t outputs, int64_t parts, T **out)
{
    *out = NULL;
    if (parts <= 1)
        return GPUK_OK;
    void *buf = NULL;
    GKC_TRY(gkc_scratch(b, GKC_SLOT_WORK, (size_t)(outputs * parts) * sizeof(T), &buf));
    *out = (T *)buf;
    return GPUK_OK;
}

template <class T>
gpuk_status smem_tree(gpuk_bctx *b, const gpuk_args *args)
{
    GKC_TRY(gkc_enter(b));
    rd<T> p = rd_from<T>(args);
    gkc_launch_pdl(b->stream, reduce_smem_tree<T>, gkc_blocks(p.outputs, 1, 1 << 20), NT, 0, p);
    GKC_LAUNCHED(b, "reduce", "smem_tree");
    return GPUK_OK;
}

template <class T>
gpuk_status warp_shuffle(gpuk_bctx *b, const gpuk_args *args)
{
    GKC_TRY(gkc_enter(b));
    rd<T> p = rd_from<T>(args);
    gkc_launch_pdl(b->stream, reduce_warp_shuffle<T>, gkc_blocks(p.outputs, NT / 32, 1 << 20), NT,
                   0, p);
    GKC_LAUNCHED(b, "reduce", "warp_shuffle");
    return GPUK_OK;
}

template <class T>
gpuk_status grid_stride(gpuk_bctx *b, const gpuk_args *args)
{
    GKC_TRY(gkc_enter(b));
    rd<T> p = rd_from<T>(args);
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
    gkc_c<T> *partial = NULL;
    GKC_TRY(partials(b, p.outputs, parts, &partial));
    gkc_launch_pdl(b->stream, reduce_grid_stride<T>, gkc_blocks(p.outputs * parts, 1, 1 << 20), NT,
                   0, p, (int)parts, partial);
    GKC_LAUNCHED(b, "reduce", "grid_stride");
    if (parts > 1) {
        gkc_launch_pdl(b->stream, reduce_parts<T>, gkc_blocks(p.outputs, NT / 32, 1 << 20), NT, 0,
                       p, (int)parts, partial);
        GKC_LAUNCHED(b, "reduce", "grid_stride (combine)");
    }
    return GPUK_OK;
}

template <class T>
gpuk_status lanes_inner(gpuk_bctx *b, const gpuk_args *args)
{
    constexpr int N = gkc_vec<T>::N;
    rd<T> p = rd_from<T>(args);
    if (p.inner < LX)   /* fewer columns than lanes: the contiguous rung does better */
        return grid_stride<T>(b, args);
    GKC_TRY(gkc_enter(b));
    bool vec = p.inner % N == 0 && gkc_aligned16(p.x);
    int64_t cw = vec ? N * LX : LX;
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
    gkc_c<T> *partial = NULL;
    GKC_TRY(partials(b, p.outputs, parts, &partial));
    dim3 grid(gkc_blocks(blocks, 1, 1 << 20), (unsigned)parts);
    if (vec)
        gkc_launch_pdl(b->stream, reduce_lanes_inner<T, true>, grid, NT, 0, p, cblocks, per_part,
                       partial);
    else
        gkc_launch_pdl(b->stream, reduce_lanes_inner<T, false>, grid, NT, 0, p, cblocks, per_part,
                       partial);
    GKC_LAUNCHED(b, "reduce", "lanes_inner");
    if (parts > 1) {
        gkc_launch_pdl(b->stream, reduce_lanes_parts<T>,
                       gkc_blocks(p.outputs, NT, gkc_grid_cap(b)), NT, 0, p, (int)parts, partial);
        GKC_LAUNCHED(b, "reduce", "lanes_inner (combine)");
    }
    return GPUK_OK;
}

template <class T>
gpuk_status row_float4(gpuk_bctx *b, const gpuk_args *args)
{
    constexpr int N = gkc_vec<T>::N;
    rd<T> p = rd_from<T>(args);
    if (p.inner != 1 || p.len % N != 0 || !gkc_aligned16(p.x))
        return smem_tree<T>(b, args);   /* not rows of whole aligned vectors */
    GKC_TRY(gkc_enter(b));
    int64_t len4 = p.len / N;
    unsigned g = gkc_blocks(p.outputs, 1, 1 << 20);
    if (len4 <= RNT)
        gkc_launch_pdl(b->stream, reduce_row_float4<T, 1>, g, RNT, 0, p);
    else if (len4 <= 2 * RNT)
        gkc_launch_pdl(b->stream, reduce_row_float4<T, 2>, g, RNT, 0, p);
    else
        gkc_launch_pdl(b->stream, reduce_row_float4<T, 4>, g, RNT, 0, p);
    GKC_LAUNCHED(b, "reduce", "row_float4");
    return GPUK_OK;
}

/* meanpool: block per batch row (blockIdx.x), a slice of NT columns per
 * blockIdx.y; each thread owns a column and walks down the tokens, so a
 * warp reads 32 consecutive elements per token.  t == 0 gives 0/0 = NaN.
 * The sum and the division are in the compute type (f32 for 16-bit T). */
template <class T>
__global__ void meanpool_block_row(const T *x, T *out, int64_t batch, int64_t t, int64_t d)
{
    typedef gkc_c<T> C;
    gkc_pdl_enter();
    for (int64_t bi = blockIdx.x; bi < batch; bi += gridDim.x) {
        const T *xb = x + bi * t * d;
        for (int64_t j = (int64_t)blockIdx.y * NT + threadIdx.x; j < d;
             j += (int64_t)gridDim.y * NT) {
            C s = 0;
            for (int64_t r = 0; r < t; r++)
                s += gkc_ld(xb[r * d + j]);
            out[bi * d + j] = gkc_st<T>(s / (C)t);
        }
    }
}

template <class T>
gpuk_status meanpool(gpuk_bctx *b, const gpuk_args *args)
{
    GKC_TRY(gkc_enter(b));
    const T *x = (const T *)args->in[0].data;
    T *out = (T *)args->out.data;
    int64_t batch = args->in[0].shape[0], t = args->in[0].shape[1], d = args->in[0].shape[2];
    dim3 grid(gkc_blocks(batch, 1, 1 << 20), gkc_blocks(d, NT, GKC_MAX_GRID_YZ));
    gkc_launch_pdl(b->stream, meanpool_block_row<T>, grid, NT, 0, x, out, batch, t, d);
    GKC_LAUNCHED(b, "meanpool", "block_row");
    return GPUK_OK;
}

}  // namespace

GKC_KERNEL_FLOATS(gkc_reduce_smem_tree, smem_tree)
GKC_KERNEL_FLOATS(gkc_reduce_warp_shuffle, warp_shuffle)
GKC_KERNEL_FLOATS(gkc_reduce_grid_stride, grid_stride)
GKC_KERNEL_FLOATS(gkc_reduce_lanes_inner, lanes_inner)
GKC_KERNEL_FLOATS(gkc_reduce_row_float4, row_float4)
GKC_KERNEL_FLOATS(gkc_meanpool_block_row, meanpool)

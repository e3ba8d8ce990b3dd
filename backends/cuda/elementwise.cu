/*
 * elementwise.cu - add, scale, relu, bias_relu, copy over dense float
 * arrays; out may be exactly an input (in place).
 *
 * Each op is a small functor; the two rungs are shared by all of them:
 *   1. coalesced  a grid-stride loop, one float per thread per step;
 *   2. float4     16-byte loads and stores.
 * Pointers need not be 16-byte aligned (views start anywhere): when all
 * operands sit at the same offset within 16 bytes, a scalar head brings them
 * to a boundary and a scalar tail finishes; otherwise the scalar rung runs.
 */
#include "cuda_internal.h"

namespace {

struct f_add {
    __device__ float operator()(float x, float y) const { return x + y; }
};
struct f_scale {
    float alpha;
    __device__ float operator()(float x, float) const { return alpha * x; }
};
/* x < 0 ? 0 : x lets a NaN through (fmaxf(x, 0) would turn it into 0). */
struct f_relu {
    __device__ float operator()(float x, float) const { return x < 0.0f ? 0.0f : x; }
};
struct f_copy {
    __device__ float operator()(float x, float) const { return x; }
};

constexpr int NT = 256;

/* 1. coalesced: consecutive threads touch consecutive floats, so each warp
 * access is one 128-byte transaction; the grid is capped and strides. */
template <bool BINARY, class F>
__global__ void ew_coalesced(F f, const float *x, const float *y, float *out, int64_t n)
{
    gkc_pdl_enter();
    int64_t step = (int64_t)gridDim.x * NT;
    for (int64_t i = (int64_t)blockIdx.x * NT + threadIdx.x; i < n; i += step)
        out[i] = f(x[i], BINARY ? y[i] : 0.0f);
}

/* 2. float4: four floats per load and store instruction, a quarter of the
 * memory instructions for the same bytes.  head floats (0..3) come before
 * the first 16-byte boundary, nv float4 follow, then the tail.  Each pass
 * of the loop issues the loads of two float4 a step apart before either
 * store: 64 bytes in flight a thread instead of 32 (a binary op: 32 and 16
 * an input), which HBM's latency needs to reach its rate (bench/NOTES.md,
 * "Memory-bound ops at 4096^2"). */
template <bool BINARY, class F>
__global__ void ew_float4(F f, const float *x, const float *y, float *out, int64_t n, int head)
{
    gkc_pdl_enter();
    int64_t tid = (int64_t)blockIdx.x * NT + threadIdx.x;
    int64_t step = (int64_t)gridDim.x * NT;
    int64_t nv = (n - head) / 4;
    const float4 *x4 = (const float4 *)(x + head);
    const float4 *y4 = (const float4 *)(BINARY ? y + head : x + head);
    float4 *o4 = (float4 *)(out + head);
    auto apply = [&](float4 a, float4 b) {
        float4 c;
        c.x = f(a.x, b.x);
        c.y = f(a.y, b.y);
        c.z = f(a.z, b.z);
        c.w = f(a.w, b.w);
        return c;
    };
    int64_t v = tid;
    for (; v + step < nv; v += 2 * step) {
        float4 a0 = x4[v], a1 = x4[v + step];
        float4 b0 = BINARY ? y4[v] : a0, b1 = BINARY ? y4[v + step] : a1;
        o4[v] = apply(a0, b0);
        o4[v + step] = apply(a1, b1);
    }
    if (v < nv)
        o4[v] = apply(x4[v], BINARY ? y4[v] : x4[v]);
    int64_t tail0 = head + nv * 4;
    if (tid < head)
        out[tid] = f(x[tid], BINARY ? y[tid] : 0.0f);
    else if (tid >= 4 && tid - 4 < n - tail0)
        out[tail0 + tid - 4] = f(x[tail0 + tid - 4], BINARY ? y[tail0 + tid - 4] : 0.0f);
}

/* bias_relu over x[rows, n]: 1. coalesced with a column index per element. */
__global__ void bias_relu_coalesced(const float *x, const float *bias, float *out, int64_t rows,
                                    int64_t n)
{
    gkc_pdl_enter();
    int64_t total = rows * n, step = (int64_t)gridDim.x * NT;
    for (int64_t i = (int64_t)blockIdx.x * NT + threadIdx.x; i < total; i += step) {
        float v = x[i] + bias[i % n];
        out[i] = v < 0.0f ? 0.0f : v;
    }
}

/* relu(a + c) on four lanes; a NaN sum stays NaN (NaN < 0 is false) */
__device__ __forceinline__ float4 bias_relu4(float4 a, float4 c)
{
    c.x = a.x + c.x;
    c.y = a.y + c.y;
    c.z = a.z + c.z;
    c.w = a.w + c.w;
    c.x = c.x < 0.0f ? 0.0f : c.x;
    c.y = c.y < 0.0f ? 0.0f : c.y;
    c.z = c.z < 0.0f ? 0.0f : c.z;
    c.w = c.w < 0.0f ? 0.0f : c.w;
    return c;
}

/* 2. float4 when every row starts on a 16-byte boundary (n % 4 == 0 and
 * x, out, bias aligned): each float4 lies in one row and matches a float4
 * of bias.  A thread owns one float4 column, loads its bias once and walks
 * down the rows (blockIdx.y, gridDim.y apart), two rows' loads in flight:
 * one global load a float4 of x, as in copy, where a flat index over x
 * would load a bias float4 beside each and divide to find its column
 * (3-7% below copy on the H200: bench/NOTES.md). */
__global__ void bias_relu_float4(const float4 *x, const float4 *bias, float4 *out, int64_t rows,
                                 int64_t n4)
{
    gkc_pdl_enter();
    int64_t c = (int64_t)blockIdx.x * NT + threadIdx.x, step = gridDim.y;
    if (c >= n4)
        return;
    float4 b = bias[c];
    int64_t r = blockIdx.y;
    for (; r + step < rows; r += 2 * step) {
        float4 a0 = x[r * n4 + c], a1 = x[(r + step) * n4 + c];
        out[r * n4 + c] = bias_relu4(a0, b);
        out[(r + step) * n4 + c] = bias_relu4(a1, b);
    }
    if (r < rows)
        out[r * n4 + c] = bias_relu4(x[r * n4 + c], b);
}

/* Rows too short to give a block of column threads work (n4 < NT / 2):
 * a flat grid-stride loop over the float4, the column by division. */
__global__ void bias_relu_float4_flat(const float4 *x, const float4 *bias, float4 *out,
                                      int64_t rows, int64_t n4)
{
    gkc_pdl_enter();
    int64_t total = rows * n4, step = (int64_t)gridDim.x * NT;
    for (int64_t i = (int64_t)blockIdx.x * NT + threadIdx.x; i < total; i += step)
        out[i] = bias_relu4(x[i], bias[i % n4]);
}

template <bool BINARY, class F>
gpuk_status run_ew(gpuk_bctx *b, const gpuk_args *args, F f, bool vec, const char *op)
{
    GKC_TRY(gkc_enter(b));
    const float *x = (const float *)args->in[0].data;
    const float *y = BINARY ? (const float *)args->in[1].data : NULL;
    float *out = (float *)args->out.data;
    int64_t n = gpuk_tdesc_numel(&args->out);
    unsigned off = gkc_offset16(out);
    if (vec && gkc_offset16(x) == off && (!BINARY || gkc_offset16(y) == off) && off % 4 == 0) {
        int64_t head = ((16 - off) % 16) / 4;
        if (head > n)
            head = n;
        /* A short array is all latency: spread it over a block an SM, some
         * threads idle, rather than half the SMs (64K floats: 65 full
         * blocks, 5-12% behind coalesced's 256 on the H200, bench/NOTES.md). */
        int64_t n4 = (n - head) / 4 + 4;
        unsigned g = gkc_blocks(n4, NT, gkc_grid_cap(b));
        if (g < gkc_sms(b))
            g = gkc_blocks(n4, 32, gkc_sms(b));
        gkc_launch_pdl(b->stream, ew_float4<BINARY, F>, g, NT, 0, f, x, y, out, n, (int)head);
        GKC_LAUNCHED(b, op, "float4");
        return GPUK_OK;
    }
    gkc_launch_pdl(b->stream, ew_coalesced<BINARY, F>, gkc_blocks(n, NT, gkc_grid_cap(b)), NT, 0, f,
                   x, y, out, n);
    GKC_LAUNCHED(b, op, vec ? "float4 (scalar path)" : "coalesced");
    return GPUK_OK;
}

gpuk_status run_bias_relu(gpuk_bctx *b, const gpuk_args *args, bool vec)
{
    GKC_TRY(gkc_enter(b));
    const float *x = (const float *)args->in[0].data;
    const float *bias = (const float *)args->in[1].data;
    float *out = (float *)args->out.data;
    int64_t rows = args->in[0].shape[0], n = args->in[0].shape[1];
    if (vec && n % 4 == 0 && gkc_aligned16(x) && gkc_aligned16(bias) && gkc_aligned16(out)) {
        int64_t n4 = n / 4, gx = gkc_cdiv(n4, NT);
        if (n4 < NT / 2 || gx > INT32_MAX)
            gkc_launch_pdl(b->stream, bias_relu_float4_flat,
                           gkc_blocks(rows * n4, NT, gkc_grid_cap(b)), NT, 0, (const float4 *)x,
                           (const float4 *)bias, (float4 *)out, rows, n4);
        else {
            /* gx x gy blocks fill the grid-stride cap: gy groups of rows */
            int64_t gy = gkc_grid_cap(b) / gx;
            gy = gy < 1 ? 1 : gy > GKC_MAX_GRID_YZ ? GKC_MAX_GRID_YZ : gy;
            gkc_launch_pdl(b->stream, bias_relu_float4, dim3((unsigned)gx, gkc_blocks(rows, 1, gy)),
                           NT, 0, (const float4 *)x, (const float4 *)bias, (float4 *)out, rows,
                           n4);
        }
        GKC_LAUNCHED(b, "bias_relu", "float4");
        return GPUK_OK;
    }
    gkc_launch_pdl(b->stream, bias_relu_coalesced, gkc_blocks(rows * n, NT, gkc_grid_cap(b)), NT, 0,
                   x, bias, out, rows, n);
    GKC_LAUNCHED(b, "bias_relu", vec ? "float4 (scalar path)" : "coalesced");
    return GPUK_OK;
}

}  // namespace

GKC_KERNEL(gkc_add_coalesced) { return run_ew<true>(b, args, f_add(), false, "add"); }
GKC_KERNEL(gkc_add_float4) { return run_ew<true>(b, args, f_add(), true, "add"); }
GKC_KERNEL(gkc_scale_coalesced) { return run_ew<false>(b, args, f_scale{args->alpha}, false, "scale"); }
GKC_KERNEL(gkc_scale_float4) { return run_ew<false>(b, args, f_scale{args->alpha}, true, "scale"); }
GKC_KERNEL(gkc_relu_coalesced) { return run_ew<false>(b, args, f_relu(), false, "relu"); }
GKC_KERNEL(gkc_relu_float4) { return run_ew<false>(b, args, f_relu(), true, "relu"); }
GKC_KERNEL(gkc_copy_coalesced) { return run_ew<false>(b, args, f_copy(), false, "copy"); }
GKC_KERNEL(gkc_copy_float4) { return run_ew<false>(b, args, f_copy(), true, "copy"); }
GKC_KERNEL(gkc_bias_relu_coalesced) { return run_bias_relu(b, args, false); }
GKC_KERNEL(gkc_bias_relu_float4) { return run_bias_relu(b, args, true); }

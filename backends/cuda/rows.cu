/*
 * rows.cu - the row ops of a small text classifier (examples/textclf),
 * each one block per output row with threads along the row, so every
 * access is coalesced:
 *   softmax    out[r, :] = exp(x[r, :] - max) / sum exp(x[r, :] - max)
 *              (block_row: three sweeps; online: two; one_pass: one);
 *   embedding  out[t, :] = table[ids[t], :].
 * (meanpool, a reduction, is in reduce.cu.)
 */
#include "cuda_internal.h"

namespace {

constexpr int NT = 256;

/* softmax, block_row: subtracting the row max first keeps every exp()
 * argument <= 0, so nothing overflows whatever the inputs' scale (numerically
 * stable).  Three sweeps over the row: max, sum of exps, normalize; a NaN
 * anywhere in the row reaches the sum and so every output.  expf, not
 * __expf: the fast intrinsic loses several bits.  out may be x itself. */
__global__ void softmax_block_row(const float *x, float *out, int64_t rows, int64_t n)
{
    gkc_pdl_enter();
    __shared__ float sh[32];
    for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
        const float *xr = x + r * n;
        float *orow = out + r * n;
        float mx = -INFINITY;
        for (int64_t j = threadIdx.x; j < n; j += NT)
            mx = fmaxf(mx, xr[j]);
        mx = gkc_block_max(mx, sh);
        float s = 0.0f;
        for (int64_t j = threadIdx.x; j < n; j += NT)
            s += expf(xr[j] - mx);
        s = gkc_block_sum(s, sh);
        /* Each thread rewrites only the elements it read itself, and both
         * block reductions are done, so in-place is safe. */
        for (int64_t j = threadIdx.x; j < n; j += NT)
            orow[j] = expf(xr[j] - mx) / s;
    }
}

/* softmax, online: block_row reads each row three times.  Here one sweep
 * keeps a running (max m, sum s of exp(x - m)) per thread and the block
 * merges the pairs; a second sweep writes.  Two reads instead of three.
 * The sweep takes 4 elements at a time: their max, their exps against it
 * (independent, so they overlap), and one rescale of the running pair, in
 * place of a rescale (and a serial exp) per element.  Infinities and NaN
 * end as block_row's do: an inf or NaN in the row makes s NaN, and a row
 * of -inf gives NaN. */
__device__ __forceinline__ void online_merge(float &m, float &s, float m2, float s2)
{
    float mx = fmaxf(m, m2);
    if (mx == -INFINITY)
        s = s + s2;   /* both empty so far (0), or NaN */
    else
        s = s * expf(m - mx) + s2 * expf(m2 - mx);   /* exp(-inf) = 0; inf - inf: NaN */
    m = mx;
}

/* (m, s) of up to 4 values; -inf (and the padding) adds nothing, NaN
 * reaches s through exp, as does an inf (exp(inf - inf)). */
__device__ __forceinline__ void online_chunk(float &m, float &s, const float (&v)[4])
{
    float mx = fmaxf(fmaxf(v[0], v[1]), fmaxf(v[2], v[3]));
    float cs = 0.0f;
#pragma unroll
    for (int u = 0; u < 4; u++)
        cs += v[u] == -INFINITY ? 0.0f : expf(v[u] - mx);
    online_merge(m, s, mx, cs);
}

/* The (m, s) of the whole block, broadcast; sh holds 64 floats. */
__device__ __forceinline__ void block_online(float &m, float &s, float *sh)
{
    for (int o = 16; o > 0; o >>= 1) {
        float m2 = __shfl_xor_sync(0xffffffffu, m, o), s2 = __shfl_xor_sync(0xffffffffu, s, o);
        online_merge(m, s, m2, s2);
    }
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    __syncthreads();
    if (lane == 0) {
        sh[warp] = m;
        sh[32 + warp] = s;
    }
    __syncthreads();
    m = sh[0];
    s = sh[32];
    for (int w = 1; w < NT / 32; w++)   /* same order in every thread */
        online_merge(m, s, sh[w], sh[32 + w]);
}

__global__ void softmax_online(const float *x, float *out, int64_t rows, int64_t n)
{
    gkc_pdl_enter();
    __shared__ float sh[64];
    for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
        const float *xr = x + r * n;
        float *orow = out + r * n;
        float m = -INFINITY, s = 0.0f;
        for (int64_t j = threadIdx.x; j < n; j += 4 * NT) {
            float v[4];
#pragma unroll
            for (int u = 0; u < 4; u++)
                v[u] = j + u * NT < n ? xr[j + u * NT] : -INFINITY;
            online_chunk(m, s, v);
        }
        block_online(m, s, sh);
        for (int64_t j = threadIdx.x; j < n; j += NT)
            orow[j] = expf(xr[j] - m) / s;
    }
}

/* softmax, one_pass: the row is read once into registers (ONE_MAX floats
 * a thread: rows of up to 8192), then max, sum and the writes work from
 * registers: one read and one write per element, the least there is.
 * Rows whose starts are 16-byte aligned load and store float4; longer rows
 * take the online kernel.  The registers a thread holds are sized to the
 * row (8, 16 or 32 floats): a 4096-long row in 32 would leave half of them
 * padding, spend expf on it, and fit half as many blocks on an SM to hide
 * each row's load-reduce-store latency behind the others'. */
template <bool VEC, int ONE_MAX>
__global__ void __launch_bounds__(NT) softmax_one_pass(const float *x, float *out, int64_t rows,
                                                       int64_t n)
{
    gkc_pdl_enter();
    __shared__ float sh[32];
    constexpr int NV = VEC ? ONE_MAX / 4 : ONE_MAX;   /* loads per thread */
    for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
        const float *xr = x + r * n;
        float *orow = out + r * n;
        float v[ONE_MAX];
        float mx = -INFINITY;
#pragma unroll
        for (int q = 0; q < NV; q++) {
            int64_t j = VEC ? ((int64_t)q * NT + threadIdx.x) * 4 : (int64_t)q * NT + threadIdx.x;
            if (VEC) {
                float4 t = j < n ? *(const float4 *)(xr + j)
                                 : make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
                v[4 * q] = t.x;
                v[4 * q + 1] = t.y;
                v[4 * q + 2] = t.z;
                v[4 * q + 3] = t.w;
            } else {
                v[q] = j < n ? xr[j] : -INFINITY;
            }
        }
#pragma unroll
        for (int q = 0; q < ONE_MAX; q++)
            mx = fmaxf(mx, v[q]);
        mx = gkc_block_max(mx, sh);
        float s = 0.0f;
#pragma unroll
        for (int q = 0; q < ONE_MAX; q++) {
            int64_t j = VEC ? ((int64_t)(q / 4) * NT + threadIdx.x) * 4 + q % 4
                            : (int64_t)q * NT + threadIdx.x;
            v[q] = j < n ? expf(v[q] - mx) : 0.0f;   /* padding adds nothing */
            s += v[q];
        }
        s = gkc_block_sum(s, sh);
        /* Everything this thread writes it has read (in-place is safe), and
         * both block reductions are past. */
#pragma unroll
        for (int q = 0; q < NV; q++) {
            int64_t j = VEC ? ((int64_t)q * NT + threadIdx.x) * 4 : (int64_t)q * NT + threadIdx.x;
            if (j >= n)
                continue;
            if (VEC)
                *(float4 *)(orow + j) = make_float4(v[4 * q] / s, v[4 * q + 1] / s,
                                                    v[4 * q + 2] / s, v[4 * q + 3] / s);
            else
                orow[j] = v[q] / s;
        }
    }
}

/* embedding: block per token; ids were range-checked by core. */
__global__ void embedding_block_row(const float *table, const int32_t *ids, float *out,
                                    int64_t tokens, int64_t d)
{
    gkc_pdl_enter();
    for (int64_t t = blockIdx.x; t < tokens; t += gridDim.x) {
        const float *src = table + (int64_t)ids[t] * d;
        float *dst = out + t * d;
        for (int64_t j = threadIdx.x; j < d; j += NT)
            dst[j] = src[j];
    }
}

}  // namespace

GKC_KERNEL(gkc_embedding_block_row)
{
    GKC_TRY(gkc_enter(b));
    const float *table = (const float *)args->in[0].data;
    const int32_t *ids = (const int32_t *)args->in[1].data;
    float *out = (float *)args->out.data;
    int64_t d = args->in[0].shape[1];
    int64_t tokens = gpuk_tdesc_numel(&args->in[1]);
    gkc_launch_pdl(b->stream, embedding_block_row, gkc_blocks(tokens, 1, 1 << 20), NT, 0, table,
                   ids, out, tokens, d);
    GKC_LAUNCHED(b, "embedding", "block_row");
    return GPUK_OK;
}

GKC_KERNEL(gkc_softmax_block_row)
{
    GKC_TRY(gkc_enter(b));
    const float *x = (const float *)args->in[0].data;
    float *out = (float *)args->out.data;
    int64_t rows = args->in[0].shape[0], n = args->in[0].shape[1];
    gkc_launch_pdl(b->stream, softmax_block_row, gkc_blocks(rows, 1, 1 << 20), NT, 0, x, out, rows,
                   n);
    GKC_LAUNCHED(b, "softmax", "block_row");
    return GPUK_OK;
}

GKC_KERNEL(gkc_softmax_online)
{
    GKC_TRY(gkc_enter(b));
    const float *x = (const float *)args->in[0].data;
    float *out = (float *)args->out.data;
    int64_t rows = args->in[0].shape[0], n = args->in[0].shape[1];
    gkc_launch_pdl(b->stream, softmax_online, gkc_blocks(rows, 1, 1 << 20), NT, 0, x, out, rows, n);
    GKC_LAUNCHED(b, "softmax", "online");
    return GPUK_OK;
}

GKC_KERNEL(gkc_softmax_one_pass)
{
    const float *x = (const float *)args->in[0].data;
    float *out = (float *)args->out.data;
    int64_t rows = args->in[0].shape[0], n = args->in[0].shape[1];
    if (n > (int64_t)32 * NT)
        return gkc_softmax_online(b, args);
    GKC_TRY(gkc_enter(b));
    bool vec = n % 4 == 0 && gkc_aligned16(x) && gkc_aligned16(out);
    unsigned g = gkc_blocks(rows, 1, 1 << 20);
    cudaStream_t s = b->stream;
    if (vec && n <= 8 * NT)
        gkc_launch_pdl(s, softmax_one_pass<true, 8>, g, NT, 0, x, out, rows, n);
    else if (vec && n <= 16 * NT)
        gkc_launch_pdl(s, softmax_one_pass<true, 16>, g, NT, 0, x, out, rows, n);
    else if (vec)
        gkc_launch_pdl(s, softmax_one_pass<true, 32>, g, NT, 0, x, out, rows, n);
    else if (n <= 8 * NT)
        gkc_launch_pdl(s, softmax_one_pass<false, 8>, g, NT, 0, x, out, rows, n);
    else if (n <= 16 * NT)
        gkc_launch_pdl(s, softmax_one_pass<false, 16>, g, NT, 0, x, out, rows, n);
    else
        gkc_launch_pdl(s, softmax_one_pass<false, 32>, g, NT, 0, x, out, rows, n);
    GKC_LAUNCHED(b, "softmax", "one_pass");
    return GPUK_OK;
}

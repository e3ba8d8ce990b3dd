/*
 * rows.cu - the row ops of seed 002's text classifier, each one block per
 * output row with threads along the row, so every access is coalesced:
 *   softmax    out[r, :] = exp(x[r, :] - max) / sum exp(x[r, :] - max);
 *   embedding  out[t, :] = table[ids[t], :];
 *   meanpool   out[b, :] = mean over t of x[b, t, :].
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

/* embedding: block per token; ids were range-checked by core. */
__global__ void embedding_block_row(const float *table, const int32_t *ids, float *out,
                                    int64_t tokens, int64_t d)
{
    for (int64_t t = blockIdx.x; t < tokens; t += gridDim.x) {
        const float *src = table + (int64_t)ids[t] * d;
        float *dst = out + t * d;
        for (int64_t j = threadIdx.x; j < d; j += NT)
            dst[j] = src[j];
    }
}

/* meanpool: block per batch row (blockIdx.x), a slice of NT columns per
 * blockIdx.y; each thread owns a column and walks down the tokens, so a
 * warp reads 32 consecutive floats per token.  t == 0 gives 0/0 = NaN. */
__global__ void meanpool_block_row(const float *x, float *out, int64_t batch, int64_t t,
                                   int64_t d)
{
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

GKC_KERNEL(gkc_embedding_block_row)
{
    GKC_TRY(gkc_enter(b));
    const float *table = (const float *)args->in[0].data;
    const int32_t *ids = (const int32_t *)args->in[1].data;
    float *out = (float *)args->out.data;
    int64_t d = args->in[0].shape[1];
    int64_t tokens = gpuk_tdesc_numel(&args->in[1]);
    embedding_block_row<<<gkc_blocks(tokens, 1, 1 << 20), NT, 0, b->stream>>>(table, ids, out,
                                                                            tokens, d);
    GKC_LAUNCHED(b, "embedding", "block_row");
    return GPUK_OK;
}

GKC_KERNEL(gkc_meanpool_block_row)
{
    GKC_TRY(gkc_enter(b));
    const float *x = (const float *)args->in[0].data;
    float *out = (float *)args->out.data;
    int64_t batch = args->in[0].shape[0], t = args->in[0].shape[1], d = args->in[0].shape[2];
    dim3 grid(gkc_blocks(batch, 1, 1 << 20), gkc_blocks(d, NT, GKC_MAX_GRID_YZ));
    meanpool_block_row<<<grid, NT, 0, b->stream>>>(x, out, batch, t, d);
    GKC_LAUNCHED(b, "meanpool", "block_row");
    return GPUK_OK;
}

GKC_KERNEL(gkc_softmax_block_row)
{
    GKC_TRY(gkc_enter(b));
    const float *x = (const float *)args->in[0].data;
    float *out = (float *)args->out.data;
    int64_t rows = args->in[0].shape[0], n = args->in[0].shape[1];
    softmax_block_row<<<gkc_blocks(rows, 1, 1 << 20), NT, 0, b->stream>>>(x, out, rows, n);
    GKC_LAUNCHED(b, "softmax", "block_row");
    return GPUK_OK;
}

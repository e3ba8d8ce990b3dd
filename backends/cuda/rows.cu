/*
 * rows.cu - the row ops (gpuk_softmax(3)) of a small text classifier
 * (examples/textclf), each one block per output row with threads along
 * the row, so every access is coalesced; every kernel is a template over
 * the element type T (float, double, f16, bf16):
 *   softmax    out[r, :] = exp(x[r, :] - max) / sum exp(x[r, :] - max)
 *              (block_row: three sweeps; online: two; one_pass: one),
 *              with exp and the sum in T's compute type (gkc_c: f32 for
 *              f16 and bf16, each element widened as it is read and the
 *              result rounded once, as the CPU's rows; gkc_exp: expf or
 *              exp);
 *   embedding  out[t, :] = table[ids[t], :] (ids i32 in every dtype;
 *              block_row: a block a token; float4: a warp a token; f16
 *              and bf16 move as uint16_t).
 */
#include "cuda_internal.h"

namespace {

constexpr int NT = 256;

/* softmax, block_row: subtracting the row max first keeps every exp()
 * argument <= 0, so nothing overflows whatever the inputs' scale (numerically
 * stable).  Three sweeps over the row: max, sum of exps, normalize; a NaN
 * anywhere in the row reaches the sum and so every output.  out may be x
 * itself. */
template <class T>
__global__ void softmax_block_row(const T *x, T *out, int64_t rows, int64_t n)
{
    typedef gkc_c<T> C;
    gkc_pdl_enter();
    __shared__ C sh[32];
    for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
        const T *xr = x + r * n;
        T *orow = out + r * n;
        C mx = -INFINITY;
        for (int64_t j = threadIdx.x; j < n; j += NT)
            mx = gkc_fmax(mx, gkc_ld(xr[j]));
        mx = gkc_block_max(mx, sh);
        C s = 0;
        for (int64_t j = threadIdx.x; j < n; j += NT)
            s += gkc_exp(gkc_ld(xr[j]) - mx);
        s = gkc_block_sum(s, sh);
        /* Each thread rewrites only the elements it read itself, and both
         * block reductions are done, so in-place is safe. */
        for (int64_t j = threadIdx.x; j < n; j += NT)
            orow[j] = gkc_st<T>(gkc_exp(gkc_ld(xr[j]) - mx) / s);
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
template <class T>
__device__ __forceinline__ void online_merge(T &m, T &s, T m2, T s2)
{
    T mx = gkc_fmax(m, m2);
    if (mx == T(-INFINITY))
        s = s + s2;   /* both empty so far (0), or NaN */
    else
        s = s * gkc_exp(m - mx) + s2 * gkc_exp(m2 - mx);   /* exp(-inf) = 0; inf - inf: NaN */
    m = mx;
}

/* (m, s) of up to 4 values; -inf (and the padding) adds nothing, NaN
 * reaches s through exp, as does an inf (exp(inf - inf)). */
template <class T>
__device__ __forceinline__ void online_chunk(T &m, T &s, const T (&v)[4])
{
    T mx = gkc_fmax(gkc_fmax(v[0], v[1]), gkc_fmax(v[2], v[3]));
    T cs = 0;
#pragma unroll
    for (int u = 0; u < 4; u++)
        cs += v[u] == T(-INFINITY) ? T(0) : gkc_exp(v[u] - mx);
    online_merge(m, s, mx, cs);
}

/* The (m, s) of the whole block, broadcast; sh holds 64 values. */
template <class T>
__device__ __forceinline__ void block_online(T &m, T &s, T *sh)
{
    for (int o = 16; o > 0; o >>= 1) {
        T m2 = __shfl_xor_sync(0xffffffffu, m, o), s2 = __shfl_xor_sync(0xffffffffu, s, o);
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

template <class T>
__global__ void softmax_online(const T *x, T *out, int64_t rows, int64_t n)
{
    typedef gkc_c<T> C;
    gkc_pdl_enter();
    __shared__ C sh[64];
    for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
        const T *xr = x + r * n;
        T *orow = out + r * n;
        C m = -INFINITY, s = 0;
        for (int64_t j = threadIdx.x; j < n; j += 4 * NT) {
            C v[4];
#pragma unroll
            for (int u = 0; u < 4; u++)
                v[u] = j + u * NT < n ? gkc_ld(xr[j + u * NT]) : C(-INFINITY);
            online_chunk(m, s, v);
        }
        block_online(m, s, sh);
        for (int64_t j = threadIdx.x; j < n; j += NT)
            orow[j] = gkc_st<T>(gkc_exp(gkc_ld(xr[j]) - m) / s);
    }
}

/* softmax, one_pass: the row is read once into registers (ONE_MAX
 * elements a thread: rows of up to 8192), then max, sum and the writes
 * work from registers: one read and one write per element, the least
 * there is.  Rows whose starts are 16-byte aligned load and store 16-byte
 * vectors (N = 4 floats, 2 doubles); longer rows take the online kernel.
 * The registers a thread holds are sized to the row (8, 16 or 32
 * elements): a 4096-long row in 32 would leave half of them padding, spend
 * exp on it, and fit half as many blocks on an SM to hide each row's
 * load-reduce-store latency behind the others'.  In f64 the same element
 * counts hold twice the bytes in twice the registers, so half as many
 * blocks fit an SM with the same bytes of rows in flight.  f16 and bf16
 * hold the row in f32 registers, as f32 does, from half the bytes: a
 * 16-byte load brings 8 elements (NV = ONE_MAX / 8 loads a thread). */
template <class T, bool VEC, int ONE_MAX, int NTB = NT>
__global__ void __launch_bounds__(NTB) softmax_one_pass(const T *x, T *out, int64_t rows,
                                                        int64_t n)
{
    typedef typename gkc_vec<T>::type V;
    typedef gkc_c<T> C;
    constexpr int N = gkc_vec<T>::N;
    gkc_pdl_enter();
    __shared__ C sh[32];
    constexpr int NV = VEC ? ONE_MAX / N : ONE_MAX;   /* loads per thread */
    for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
        const T *xr = x + r * n;
        T *orow = out + r * n;
        C v[ONE_MAX];
        C mx = -INFINITY;
#pragma unroll
        for (int q = 0; q < NV; q++) {
            int64_t j = VEC ? ((int64_t)q * NTB + threadIdx.x) * N : (int64_t)q * NTB + threadIdx.x;
            if (VEC) {
                V t = j < n ? *(const V *)(xr + j) : gkc_vfill(gkc_st<T>(C(-INFINITY)));
#pragma unroll
                for (int u = 0; u < N; u++)
                    v[N * q + u] = gkc_vget(t, u);
            } else {
                v[q] = j < n ? gkc_ld(xr[j]) : C(-INFINITY);
            }
        }
#pragma unroll
        for (int q = 0; q < ONE_MAX; q++)
            mx = gkc_fmax(mx, v[q]);
        mx = gkc_block_max(mx, sh);
        C s = 0;
#pragma unroll
        for (int q = 0; q < ONE_MAX; q++) {
            int64_t j = VEC ? ((int64_t)(q / N) * NTB + threadIdx.x) * N + q % N
                            : (int64_t)q * NTB + threadIdx.x;
            v[q] = j < n ? gkc_exp(v[q] - mx) : C(0);   /* padding adds nothing */
            s += v[q];
        }
        s = gkc_block_sum(s, sh);
        /* one division a thread, not one an element (f32's takes a dozen
         * instructions, f64's more): f16 and bf16 rows of 8192 went from
         * 89% to 98% of copy on the H100 (bench/NOTES.md, "The GPU's
         * 16-bit rows"); one more rounding, within doc/design.md's bound */
        const C rs = C(1) / s;
        /* Everything this thread writes it has read (in-place is safe), and
         * both block reductions are past. */
#pragma unroll
        for (int q = 0; q < NV; q++) {
            int64_t j = VEC ? ((int64_t)q * NTB + threadIdx.x) * N : (int64_t)q * NTB + threadIdx.x;
            if (j >= n)
                continue;
            if (VEC) {
                V t;
                if constexpr (N == 8) {
                    C e[8];
#pragma unroll
                    for (int u = 0; u < 8; u++)
                        e[u] = v[8 * q + u] * rs;
                    t = gkc_vpack<T>(e);
                } else if constexpr (N == 4) {
                    t = make_float4(v[4 * q] * rs, v[4 * q + 1] * rs, v[4 * q + 2] * rs,
                                    v[4 * q + 3] * rs);
                } else {
                    t = make_double2(v[2 * q] * rs, v[2 * q + 1] * rs);
                }
                *(V *)(orow + j) = t;
            } else {
                orow[j] = gkc_st<T>(v[q] * rs);
            }
        }
    }
}

/* embedding: block per token; ids were range-checked by core. */
template <class T>
__global__ void embedding_block_row(const T *table, const int32_t *ids, T *out, int64_t tokens,
                                    int64_t d)
{
    gkc_pdl_enter();
    for (int64_t t = blockIdx.x; t < tokens; t += gridDim.x) {
        const T *src = table + (int64_t)ids[t] * d;
        T *dst = out + t * d;
        for (int64_t j = threadIdx.x; j < d; j += NT)
            dst[j] = src[j];
    }
}

/* embedding, float4: block_row gives a block one token and a thread one
 * element, so a block lives for two dependent round trips (the id, then
 * the row) to move a row: 19% of copy at 262144 x 256 on the H200
 * (bench/NOTES.md).  Here a warp takes a token at a time, tokens
 * grid-strided over the warps, moves the row in VT (a 16-byte vector when
 * the rows are whole aligned vectors, else T) with up to four a lane in
 * flight, and loads the next token's id before this row: one round trip
 * a token.  nd: the row's length in VT. */
template <class VT>
__global__ void __launch_bounds__(NT) embedding_warp_rows(const VT *table, const int32_t *ids,
                                                          VT *out, int64_t tokens, int64_t nd)
{
    gkc_pdl_enter();
    int lane = threadIdx.x & 31;
    int64_t nw = ((int64_t)gridDim.x * NT) >> 5;
    int64_t t = ((int64_t)blockIdx.x * NT + threadIdx.x) >> 5;
    if (t >= tokens)
        return;   /* the whole warp */
    int32_t id = ids[t];
    for (; t < tokens; t += nw) {
        int32_t next = t + nw < tokens ? ids[t + nw] : 0;
        const VT *src = table + (int64_t)id * nd;
        VT *dst = out + t * nd;
        for (int64_t c0 = lane; c0 < nd; c0 += 4 * 32) {
            VT v[4];
#pragma unroll
            for (int u = 0; u < 4; u++)
                if (c0 + 32 * u < nd)
                    v[u] = src[c0 + 32 * u];
#pragma unroll
            for (int u = 0; u < 4; u++)
                if (c0 + 32 * u < nd)
                    dst[c0 + 32 * u] = v[u];
        }
        id = next;
    }
}

template <class T>
gpuk_status embedding(gpuk_bctx *b, const gpuk_args *args)
{
    GKC_TRY(gkc_enter(b));
    const T *table = (const T *)args->in[0].data;
    const int32_t *ids = (const int32_t *)args->in[1].data;
    T *out = (T *)args->out.data;
    int64_t d = args->in[0].shape[1];
    int64_t tokens = gpuk_tdesc_numel(&args->in[1]);
    gkc_launch_pdl(b->stream, embedding_block_row<T>, gkc_blocks(tokens, 1, 1 << 20), NT, 0, table,
                   ids, out, tokens, d);
    GKC_LAUNCHED(b, "embedding", "block_row");
    return GPUK_OK;
}

template <class T>
gpuk_status embedding_float4(gpuk_bctx *b, const gpuk_args *args)
{
    typedef typename gkc_vec<T>::type V;
    constexpr int N = gkc_vec<T>::N;
    GKC_TRY(gkc_enter(b));
    const T *table = (const T *)args->in[0].data;
    const int32_t *ids = (const int32_t *)args->in[1].data;
    T *out = (T *)args->out.data;
    int64_t d = args->in[0].shape[1];
    int64_t tokens = gpuk_tdesc_numel(&args->in[1]);
    unsigned g = gkc_blocks(tokens, NT / 32, gkc_grid_cap(b));
    bool vec = d % N == 0 && gkc_aligned16(table) && gkc_aligned16(out);
    if (vec)
        gkc_launch_pdl(b->stream, embedding_warp_rows<V>, g, NT, 0, (const V *)table, ids, (V *)out,
                       tokens, d / N);
    else
        gkc_launch_pdl(b->stream, embedding_warp_rows<T>, g, NT, 0, table, ids, out, tokens, d);
    GKC_LAUNCHED(b, "embedding", vec ? "float4" : "float4 (scalar path)");
    return GPUK_OK;
}

template <class T>
gpuk_status block_row(gpuk_bctx *b, const gpuk_args *args)
{
    GKC_TRY(gkc_enter(b));
    const T *x = (const T *)args->in[0].data;
    T *out = (T *)args->out.data;
    int64_t rows = args->in[0].shape[0], n = args->in[0].shape[1];
    gkc_launch_pdl(b->stream, softmax_block_row<T>, gkc_blocks(rows, 1, 1 << 20), NT, 0, x, out,
                   rows, n);
    GKC_LAUNCHED(b, "softmax", "block_row");
    return GPUK_OK;
}

template <class T>
gpuk_status online(gpuk_bctx *b, const gpuk_args *args)
{
    GKC_TRY(gkc_enter(b));
    const T *x = (const T *)args->in[0].data;
    T *out = (T *)args->out.data;
    int64_t rows = args->in[0].shape[0], n = args->in[0].shape[1];
    gkc_launch_pdl(b->stream, softmax_online<T>, gkc_blocks(rows, 1, 1 << 20), NT, 0, x, out, rows,
                   n);
    GKC_LAUNCHED(b, "softmax", "online");
    return GPUK_OK;
}

template <class T>
gpuk_status one_pass(gpuk_bctx *b, const gpuk_args *args)
{
    const T *x = (const T *)args->in[0].data;
    T *out = (T *)args->out.data;
    int64_t rows = args->in[0].shape[0], n = args->in[0].shape[1];
    if (n > (int64_t)32 * NT)
        return online<T>(b, args);
    GKC_TRY(gkc_enter(b));
    bool vec = n % gkc_vec<T>::N == 0 && gkc_aligned16(x) && gkc_aligned16(out);
    unsigned g = gkc_blocks(rows, 1, 1 << 20);
    cudaStream_t s = b->stream;
    /* f64 rows of 4097 to 8192: blocks of 512, 16 elements a thread.  With
     * 256 threads holding 32 doubles each (103 registers) two blocks fit an
     * SM, 16 warps, and a block's exps and divisions ran on 8 warps while
     * the other block waited on memory: 62% of copy at 8192^2 on the H100,
     * where rows of 2048 (8 a thread, many blocks an SM) reached 89%, and
     * halving the DP work (a table exp, 1/s) moved it by 2 points
     * (bench/NOTES.md, "f64 softmax").  The same two rows an SM, on twice
     * the warps. */
    if constexpr (sizeof(T) == 8) {
        if (n > 16 * NT) {
            if (vec)
                gkc_launch_pdl(s, softmax_one_pass<T, true, 16, 2 * NT>, g, 2 * NT, 0, x, out,
                               rows, n);
            else
                gkc_launch_pdl(s, softmax_one_pass<T, false, 16, 2 * NT>, g, 2 * NT, 0, x, out,
                               rows, n);
            GKC_LAUNCHED(b, "softmax", "one_pass");
            return GPUK_OK;
        }
    }
    if (vec && n <= 8 * NT)
        gkc_launch_pdl(s, softmax_one_pass<T, true, 8>, g, NT, 0, x, out, rows, n);
    else if (vec && n <= 16 * NT)
        gkc_launch_pdl(s, softmax_one_pass<T, true, 16>, g, NT, 0, x, out, rows, n);
    else if (vec)
        gkc_launch_pdl(s, softmax_one_pass<T, true, 32>, g, NT, 0, x, out, rows, n);
    else if (n <= 8 * NT)
        gkc_launch_pdl(s, softmax_one_pass<T, false, 8>, g, NT, 0, x, out, rows, n);
    else if (n <= 16 * NT)
        gkc_launch_pdl(s, softmax_one_pass<T, false, 16>, g, NT, 0, x, out, rows, n);
    else
        gkc_launch_pdl(s, softmax_one_pass<T, false, 32>, g, NT, 0, x, out, rows, n);
    GKC_LAUNCHED(b, "softmax", "one_pass");
    return GPUK_OK;
}

}  // namespace

GKC_KERNEL_FLOATS(gkc_softmax_block_row, block_row)
GKC_KERNEL_FLOATS(gkc_softmax_online, online)
GKC_KERNEL_FLOATS(gkc_softmax_one_pass, one_pass)
GKC_KERNEL_MOVES(gkc_embedding_block_row, embedding)
GKC_KERNEL_MOVES(gkc_embedding_float4, embedding_float4)

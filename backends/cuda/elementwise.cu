/*
 * elementwise.cu - add, scale, relu, bias_relu, copy over dense arrays of
 * float, double, f16 or bf16 (each kernel a template over the element
 * type T); out may be exactly an input (in place).  Every op is exact: one
 * rounding at most, the same bits from every rung.  f16 and bf16 compute
 * in f32 (gkc_num: each element widened, the f32 op, one rounding back,
 * as the CPU's rows), which is that one rounding too: f32's 24 bits hold
 * a sum or product of two 16-bit values' rounding boundaries exactly
 * enough (gpuk(7), "Element types").  copy moves either as uint16_t.
 *
 * Each op is a small functor; the two rungs are shared by all of them:
 *   1. coalesced  a grid-stride loop, one element per thread per step;
 *   2. float4     16-byte loads and stores (float4, or double2 for f64:
 *                 gkc_vec), so a thread moves the same bytes in both.
 * Pointers need not be 16-byte aligned (views start anywhere): when all
 * operands sit at the same offset within 16 bytes, a scalar head brings them
 * to a boundary and a scalar tail finishes; otherwise the scalar rung runs.
 */
#include "cuda_internal.h"

namespace {

template <class T>
struct f_add {
    __device__ T operator()(T x, T y) const { return x + y; }
};
template <class T>
struct f_scale {
    T alpha;
    __device__ T operator()(T x, T) const { return alpha * x; }
};
/* x < 0 ? 0 : x lets a NaN through (fmax(x, 0) would turn it into 0). */
template <class T>
struct f_relu {
    __device__ T operator()(T x, T) const { return x < T(0) ? T(0) : x; }
};
template <class T>
struct f_copy {
    __device__ T operator()(T x, T) const { return x; }
};
/* relu(x + b) in one step: a 16-bit type rounds the result once (a sum
 * rounded before the compare could give -0 where relu gives +0). */
template <class T>
struct f_bias_relu {
    __device__ T operator()(T x, T b) const
    {
        T v = x + b;
        return v < T(0) ? T(0) : v;
    }
};

constexpr int NT = 256;

/* out[i] = f(x[i], y[i]) through the compute type (for float and double
 * the plain expression). */
template <class T, bool BINARY, class F>
__device__ __forceinline__ void ew_one(F f, const T *x, const T *y, T *out, int64_t i)
{
    typedef gkc_c<T> C;
    out[i] = gkc_st<T>(f(gkc_ld(x[i]), BINARY ? gkc_ld(y[i]) : C(0)));
}

/* 1. coalesced: consecutive threads touch consecutive elements, so each
 * warp access is one 128-byte (f64: 256-byte, 16-bit: 64-byte)
 * transaction; the grid is capped and strides. */
template <class T, bool BINARY, class F>
__global__ void ew_coalesced(F f, const T *x, const T *y, T *out, int64_t n)
{
    gkc_pdl_enter();
    int64_t step = (int64_t)gridDim.x * NT;
    for (int64_t i = (int64_t)blockIdx.x * NT + threadIdx.x; i < n; i += step)
        ew_one<T, BINARY>(f, x, y, out, i);
}

/* 2. float4: 16 bytes per load and store instruction (N = 4 floats, 2
 * doubles or 8 16-bit values), a quarter (a half) of the memory
 * instructions for the same bytes.  head elements (0..N-1) come before the first 16-byte boundary,
 * nv vectors follow, then the tail.  Each pass of the loop issues the
 * loads of two vectors a step apart before either store: 64 bytes in
 * flight a thread instead of 32 (a binary op: 32 and 16 an input), which
 * HBM's latency needs to reach its rate (bench/NOTES.md, "Memory-bound ops
 * at 4096^2"); f64 keeps those bytes with the same vector count. */
template <class T, bool BINARY, class F>
__global__ void ew_vec(F f, const T *x, const T *y, T *out, int64_t n, int head)
{
    typedef typename gkc_vec<T>::type V;
    constexpr int N = gkc_vec<T>::N;
    gkc_pdl_enter();
    int64_t tid = (int64_t)blockIdx.x * NT + threadIdx.x;
    int64_t step = (int64_t)gridDim.x * NT;
    int64_t nv = (n - head) / N;
    const V *x4 = (const V *)(x + head);
    const V *y4 = (const V *)(BINARY ? y + head : x + head);
    V *o4 = (V *)(out + head);
    int64_t v = tid;
    for (; v + step < nv; v += 2 * step) {
        V a0 = x4[v], a1 = x4[v + step];
        V b0 = BINARY ? y4[v] : a0, b1 = BINARY ? y4[v + step] : a1;
        o4[v] = gkc_vmap(a0, b0, f);
        o4[v + step] = gkc_vmap(a1, b1, f);
    }
    if (v < nv)
        o4[v] = gkc_vmap(x4[v], BINARY ? y4[v] : x4[v], f);
    int64_t tail0 = head + nv * N;
    if (tid < head)
        ew_one<T, BINARY>(f, x, y, out, tid);
    else if (tid >= N && tid - N < n - tail0)
        ew_one<T, BINARY>(f, x, y, out, tail0 + tid - N);
}

/* bias_relu over x[rows, n]: 1. coalesced with a column index per element. */
template <class T>
__global__ void bias_relu_coalesced(const T *x, const T *bias, T *out, int64_t rows, int64_t n)
{
    gkc_pdl_enter();
    int64_t total = rows * n, step = (int64_t)gridDim.x * NT;
    for (int64_t i = (int64_t)blockIdx.x * NT + threadIdx.x; i < total; i += step) {
        typedef gkc_c<T> C;
        C v = gkc_ld(x[i]) + gkc_ld(bias[i % n]);
        out[i] = gkc_st<T>(v < C(0) ? C(0) : v);
    }
}

/* relu(a + c) lane by lane, every add before the first compare; a NaN sum
 * stays NaN (NaN < 0 is false) */
template <class V>
__device__ __forceinline__ V bias_relu_v(V a, V c)
{
    typedef decltype(gkc_vget(a, 0)) T;
    c = gkc_vmap(a, c, f_add<T>());
    return gkc_vmap(c, c, f_relu<T>());
}
/* 8 16-bit values: relu(a + c) in f32, rounded once. */
template <class T>
__device__ __forceinline__ gkc_v8<T> bias_relu_v(gkc_v8<T> a, gkc_v8<T> c)
{
    return gkc_vmap(a, c, f_bias_relu<gkc_c<T>>());
}

/* 2. float4 when every row starts on a 16-byte boundary (n a multiple of
 * N and x, out, bias aligned): each vector lies in one row and matches a
 * vector of bias.  A thread owns one vector column, loads its bias once
 * and walks down the rows (blockIdx.y, gridDim.y apart), two rows' loads
 * in flight: one global load a vector of x, as in copy, where a flat index
 * over x would load a bias vector beside each and divide to find its
 * column (3-7% below copy on the H200: bench/NOTES.md). */
template <class V>
__global__ void bias_relu_vec(const V *x, const V *bias, V *out, int64_t rows, int64_t n4)
{
    gkc_pdl_enter();
    int64_t c = (int64_t)blockIdx.x * NT + threadIdx.x, step = gridDim.y;
    if (c >= n4)
        return;
    V b = bias[c];
    int64_t r = blockIdx.y;
    for (; r + step < rows; r += 2 * step) {
        V a0 = x[r * n4 + c], a1 = x[(r + step) * n4 + c];
        out[r * n4 + c] = bias_relu_v(a0, b);
        out[(r + step) * n4 + c] = bias_relu_v(a1, b);
    }
    if (r < rows)
        out[r * n4 + c] = bias_relu_v(x[r * n4 + c], b);
}

/* Rows too short to give a block of column threads work (n4 < NT / 2):
 * a flat grid-stride loop over the vectors, the column by division. */
template <class V>
__global__ void bias_relu_vec_flat(const V *x, const V *bias, V *out, int64_t rows, int64_t n4)
{
    gkc_pdl_enter();
    int64_t total = rows * n4, step = (int64_t)gridDim.x * NT;
    for (int64_t i = (int64_t)blockIdx.x * NT + threadIdx.x; i < total; i += step)
        out[i] = bias_relu_v(x[i], bias[i % n4]);
}

template <class T, bool BINARY, class F>
gpuk_status run_ew(gpuk_bctx *b, const gpuk_args *args, F f, bool vec, const char *op)
{
    constexpr int N = gkc_vec<T>::N;
    GKC_TRY(gkc_enter(b));
    const T *x = (const T *)args->in[0].data;
    const T *y = BINARY ? (const T *)args->in[1].data : NULL;
    T *out = (T *)args->out.data;
    int64_t n = gpuk_tdesc_numel(&args->out);
    unsigned off = gkc_offset16(out);
    if (vec && gkc_offset16(x) == off && (!BINARY || gkc_offset16(y) == off) &&
        off % sizeof(T) == 0) {
        int64_t head = gkc_head16<T>(out);
        if (head > n)
            head = n;
        /* A short array is all latency: spread it over a block an SM, some
         * threads idle, rather than half the SMs (64K floats: 65 full
         * blocks, 5-12% behind coalesced's 256 on the H200, bench/NOTES.md). */
        int64_t n4 = (n - head) / N + N;
        unsigned g = gkc_blocks(n4, NT, gkc_grid_cap(b));
        if (g < gkc_sms(b))
            g = gkc_blocks(n4, 32, gkc_sms(b));
        gkc_launch_pdl(b->stream, ew_vec<T, BINARY, F>, g, NT, 0, f, x, y, out, n, (int)head);
        GKC_LAUNCHED(b, op, "float4");
        return GPUK_OK;
    }
    gkc_launch_pdl(b->stream, ew_coalesced<T, BINARY, F>, gkc_blocks(n, NT, gkc_grid_cap(b)), NT,
                   0, f, x, y, out, n);
    GKC_LAUNCHED(b, op, vec ? "float4 (scalar path)" : "coalesced");
    return GPUK_OK;
}

template <class T>
gpuk_status run_bias_relu(gpuk_bctx *b, const gpuk_args *args, bool vec)
{
    typedef typename gkc_vec<T>::type V;
    constexpr int N = gkc_vec<T>::N;
    GKC_TRY(gkc_enter(b));
    const T *x = (const T *)args->in[0].data;
    const T *bias = (const T *)args->in[1].data;
    T *out = (T *)args->out.data;
    int64_t rows = args->in[0].shape[0], n = args->in[0].shape[1];
    if (vec && n % N == 0 && gkc_aligned16(x) && gkc_aligned16(bias) && gkc_aligned16(out)) {
        int64_t n4 = n / N, gx = gkc_cdiv(n4, NT);
        if (n4 < NT / 2 || gx > INT32_MAX)
            gkc_launch_pdl(b->stream, bias_relu_vec_flat<V>,
                           gkc_blocks(rows * n4, NT, gkc_grid_cap(b)), NT, 0, (const V *)x,
                           (const V *)bias, (V *)out, rows, n4);
        else {
            /* gx x gy blocks fill the grid-stride cap: gy groups of rows */
            int64_t gy = gkc_grid_cap(b) / gx;
            gy = gy < 1 ? 1 : gy > GKC_MAX_GRID_YZ ? GKC_MAX_GRID_YZ : gy;
            gkc_launch_pdl(b->stream, bias_relu_vec<V>, dim3((unsigned)gx, gkc_blocks(rows, 1, gy)),
                           NT, 0, (const V *)x, (const V *)bias, (V *)out, rows, n4);
        }
        GKC_LAUNCHED(b, "bias_relu", "float4");
        return GPUK_OK;
    }
    gkc_launch_pdl(b->stream, bias_relu_coalesced<T>, gkc_blocks(rows * n, NT, gkc_grid_cap(b)), NT,
                   0, x, bias, out, rows, n);
    GKC_LAUNCHED(b, "bias_relu", vec ? "float4 (scalar path)" : "coalesced");
    return GPUK_OK;
}

/* The entry points of the table's rows, per element type; the functors
 * work in the compute type (f16, bf16: f32, and scale's alpha is then the
 * float member, as the CPU's). */
template <class T> gpuk_status add_coalesced(gpuk_bctx *b, const gpuk_args *args)
{
    return run_ew<T, true>(b, args, f_add<gkc_c<T>>(), false, "add");
}
template <class T> gpuk_status add_float4(gpuk_bctx *b, const gpuk_args *args)
{
    return run_ew<T, true>(b, args, f_add<gkc_c<T>>(), true, "add");
}
template <class T> gpuk_status scale_coalesced(gpuk_bctx *b, const gpuk_args *args)
{
    f_scale<gkc_c<T>> f = {gkc_scalar<gkc_c<T>>(args->alpha, args->alpha_f64)};
    return run_ew<T, false>(b, args, f, false, "scale");
}
template <class T> gpuk_status scale_float4(gpuk_bctx *b, const gpuk_args *args)
{
    f_scale<gkc_c<T>> f = {gkc_scalar<gkc_c<T>>(args->alpha, args->alpha_f64)};
    return run_ew<T, false>(b, args, f, true, "scale");
}
template <class T> gpuk_status relu_coalesced(gpuk_bctx *b, const gpuk_args *args)
{
    return run_ew<T, false>(b, args, f_relu<gkc_c<T>>(), false, "relu");
}
template <class T> gpuk_status relu_float4(gpuk_bctx *b, const gpuk_args *args)
{
    return run_ew<T, false>(b, args, f_relu<gkc_c<T>>(), true, "relu");
}
template <class T> gpuk_status copy_coalesced(gpuk_bctx *b, const gpuk_args *args)
{
    return run_ew<T, false>(b, args, f_copy<T>(), false, "copy");
}
template <class T> gpuk_status copy_float4(gpuk_bctx *b, const gpuk_args *args)
{
    return run_ew<T, false>(b, args, f_copy<T>(), true, "copy");
}
template <class T> gpuk_status bias_relu_coalesced_row(gpuk_bctx *b, const gpuk_args *args)
{
    return run_bias_relu<T>(b, args, false);
}
template <class T> gpuk_status bias_relu_float4_row(gpuk_bctx *b, const gpuk_args *args)
{
    return run_bias_relu<T>(b, args, true);
}

}  // namespace

GKC_KERNEL_FLOATS(gkc_add_coalesced, add_coalesced)
GKC_KERNEL_FLOATS(gkc_add_float4, add_float4)
GKC_KERNEL_FLOATS(gkc_scale_coalesced, scale_coalesced)
GKC_KERNEL_FLOATS(gkc_scale_float4, scale_float4)
GKC_KERNEL_FLOATS(gkc_relu_coalesced, relu_coalesced)
GKC_KERNEL_FLOATS(gkc_relu_float4, relu_float4)
GKC_KERNEL_MOVES(gkc_copy_coalesced, copy_coalesced)
GKC_KERNEL_MOVES(gkc_copy_float4, copy_float4)
GKC_KERNEL_FLOATS(gkc_bias_relu_coalesced, bias_relu_coalesced_row)
GKC_KERNEL_FLOATS(gkc_bias_relu_float4, bias_relu_float4_row)

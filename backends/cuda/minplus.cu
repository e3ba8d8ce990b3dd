/*
 * minplus.cu - r[i][j] = min_k a[i][k] + b[k][j], the (min, +) product
 * that shortest-path algorithms square: the rungs before the cp.async
 * pipeline, each written once over a semiring (minplus.cuh) and serving
 * the dtypes its table rows list: naive (f32, f64, i32), transposed,
 * tiled, regtile_4x4, regtile_8x8 (f32, f64).  The pipelined tile
 * (pipelined, dpx, dpx_i16x2) is in minplus_pipe.cu.  (Until ABI 2.0 the
 * f32 rungs were named v0..v5; those names remain as aliases in table.cu.)
 *
 * Bit-exact on every rung: each term is one add, rounded the same
 * everywhere, and min is exact in any order (minplus.cuh says how each
 * dtype keeps the NaN and -0 rules).  Cells outside the matrices are the
 * semiring's inf, which never wins a min; an empty k leaves the start
 * value.
 *
 * Update (gpuk_minplus_update, args->accumulate): each output's minimum
 * starts from its old value instead of inf, read once before the k loop
 * (mp_start); from then on the old value is one more candidate of the
 * same order-free minimum.  The register-tiled rungs take the flag as a
 * template argument, so their plain kernels are unchanged.
 */
#include "cuda_internal.h"
#include "minplus.cuh"

namespace {

template <class T>
struct mp {
    const T *a, *b;
    T *r;
    int64_t m, n, k, lda, ldb, ldr;
    bool upd;   /* an update: start from r's old values */
};

template <class T>
mp<T> mp_from(const gpuk_args *args)
{
    mp<T> p;
    p.a = (const T *)args->in[0].data;
    p.b = (const T *)args->in[1].data;
    p.r = (T *)args->out.data;
    p.m = args->in[0].shape[0];
    p.k = args->in[0].shape[1];
    p.n = args->in[1].shape[1];
    p.lda = args->in[0].stride[0];
    p.ldb = args->in[1].stride[0];
    p.ldr = args->out.stride[0];
    p.upd = mp_accumulate(args);
    return p;
}

constexpr int TS = 16;

/* naive: one thread per output, threadIdx.x walking rows i.  A warp's
 * loads of a[i][k] are lda apart: 32 transactions per step. */
template <class S>
__global__ void minplus_naive(mp<typename S::T> p, int64_t y0)
{
    using T = typename S::T;
    int64_t i = (int64_t)blockIdx.x * TS + threadIdx.x;
    int64_t j = (y0 + blockIdx.y) * TS + threadIdx.y;
    if (i >= p.m || j >= p.n)
        return;
    T v = mp_start<S>(p.r + i * p.ldr + j, p.upd);
    for (int64_t k = 0; k < p.k; k++)
        v = S::step(v, p.a[i * p.lda + k], p.b[k * p.ldb + j]);
    p.r[i * p.ldr + j] = v;
}

/* transposed: same mapping, but a was transposed into at[k][m] first (a
 * scratch buffer of the context), so the warp's 32 rows i are 32
 * consecutive elements of at: one transaction per step instead of 32.  (When
 * squaring a distance matrix, r = d (x) d, one transposes d; with two
 * operands it is the one indexed by the fast thread index, a, that needs
 * it.)  The transposition is transpose.cu's (gkc_transpose_into). */
template <class S>
__global__ void minplus_transposed(mp<typename S::T> p, const typename S::T *at, int64_t y0)
{
    using T = typename S::T;
    int64_t i = (int64_t)blockIdx.x * TS + threadIdx.x;
    int64_t j = (y0 + blockIdx.y) * TS + threadIdx.y;
    if (i >= p.m || j >= p.n)
        return;
    T v = mp_start<S>(p.r + i * p.ldr + j, p.upd);
    for (int64_t k = 0; k < p.k; k++)
        v = S::step(v, at[k * p.m + i], p.b[k * p.ldb + j]);
    p.r[i * p.ldr + j] = v;
}

/* tiled: 16x16 tiles of a and b staged in shared memory; each global load
 * now serves 16 threads, and the inner loop reads only shared memory. */
template <class S>
__global__ void minplus_tiled(mp<typename S::T> p, int64_t y0)
{
    using T = typename S::T;
    __shared__ T as[TS][TS];
    __shared__ T bs[TS][TS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int64_t j = (int64_t)blockIdx.x * TS + tx;
    int64_t i = (y0 + blockIdx.y) * TS + ty;
    T v = mp_start<S>(p.r + i * p.ldr + j, p.upd && i < p.m && j < p.n);
    for (int64_t k0 = 0; k0 < p.k; k0 += TS) {
        as[ty][tx] = (i < p.m && k0 + tx < p.k) ? p.a[i * p.lda + k0 + tx] : S::inf();
        bs[ty][tx] = (k0 + ty < p.k && j < p.n) ? p.b[(k0 + ty) * p.ldb + j] : S::inf();
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TS; k++)
            v = S::step(v, as[ty][k], bs[k][tx]);
        __syncthreads();
    }
    if (i < p.m && j < p.n)
        p.r[i * p.ldr + j] = v;
}

/* regtile_4x4: each thread owns a 4x4 block of outputs (rows ty+16r, cols
 * tx+16c of a 64x64 block tile), so each value loaded from shared memory
 * feeds 4 add+min steps from registers: 4x less shared traffic per
 * operation.  The a tile is stored k-major (as[k][row], padded) so the 4
 * row values of a step are one broadcast each. */
constexpr int T44 = 64, K44 = 16;
template <class S>
__global__ void minplus_regtile_4x4(mp<typename S::T> p, int64_t y0)
{
    using T = typename S::T;
    __shared__ T as[K44][T44 + 1];
    __shared__ T bs[K44][T44];
    int tx = threadIdx.x, ty = threadIdx.y;
    int64_t i0 = (y0 + blockIdx.y) * T44, j0 = (int64_t)blockIdx.x * T44;
    T v[4][4];
#pragma unroll
    for (int r = 0; r < 4; r++)
#pragma unroll
        for (int c = 0; c < 4; c++) {
            int64_t i = i0 + ty + 16 * r, j = j0 + tx + 16 * c;
            v[r][c] = mp_start<S>(p.r + i * p.ldr + j, p.upd && i < p.m && j < p.n);
        }
    for (int64_t k0 = 0; k0 < p.k; k0 += K44) {
#pragma unroll
        for (int q = 0; q < 4; q++) {
            int64_t i = i0 + ty + 16 * q, k = k0 + tx;
            as[tx][ty + 16 * q] = (i < p.m && k < p.k) ? p.a[i * p.lda + k] : S::inf();
            int64_t j = j0 + tx + 16 * q, kb = k0 + ty;
            bs[ty][tx + 16 * q] = (kb < p.k && j < p.n) ? p.b[kb * p.ldb + j] : S::inf();
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < K44; k++) {
            T x[4], y[4];
#pragma unroll
            for (int q = 0; q < 4; q++) {
                x[q] = as[k][ty + 16 * q];
                y[q] = bs[k][tx + 16 * q];
            }
#pragma unroll
            for (int r = 0; r < 4; r++)
#pragma unroll
                for (int c = 0; c < 4; c++)
                    v[r][c] = S::step(v[r][c], x[r], y[c]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int r = 0; r < 4; r++)
#pragma unroll
        for (int c = 0; c < 4; c++) {
            int64_t i = i0 + ty + 16 * r, j = j0 + tx + 16 * c;
            if (i < p.m && j < p.n)
                p.r[i * p.ldr + j] = v[r][c];
        }
}

/* Four consecutive elements of row `row` from column `col` on (of rows
 * cols long, row stride ld), inf outside the matrix: one or two 16-byte
 * loads when VEC and all four are inside, else one at a time. */
template <class S, bool VEC>
__device__ __forceinline__ void ld4_or_inf(typename S::T *x, const typename S::T *base,
                                           int64_t row, int64_t rows, int64_t col, int64_t cols,
                                           int64_t ld)
{
    const typename S::T *pr = base + row * ld;
    if (VEC && row < rows && col + 3 < cols) {
        gkc_ld4(x, pr + col);
        return;
    }
    bool in = row < rows;
#pragma unroll
    for (int q = 0; q < 4; q++)
        x[q] = in && col + q < cols ? pr[col + q] : S::inf();
}

/* regtile_8x8: an 8x8 register tile per thread (128x128 block tile, k
 * depth 8), with 16-byte accesses everywhere it pays: four 16-byte shared
 * loads (eight for a double) feed 64 add+min steps (16 per loaded float,
 * regtile_4x4 had 4), and the tiles come from global memory 16 bytes at a
 * time when the rows are 16-byte aligned (VEC), else element by element.
 * A thread's rows are ty*4+{0..3} and 64+ty*4+{0..3}, its columns likewise
 * from tx, so a warp's reads of bs are contiguous (no bank conflict); as is
 * k-major and padded by 4 so its transposed stores do not conflict. */
constexpr int T88 = 128, K88 = 8;
template <class S, bool VEC, bool UPD>
__global__ void __launch_bounds__(256) minplus_regtile_8x8(mp<typename S::T> p, int64_t y0)
{
    using T = typename S::T;
    __shared__ __align__(16) T as[K88][T88 + 4];
    __shared__ __align__(16) T bs[K88][T88];
    int tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
    int64_t i0 = (y0 + blockIdx.y) * T88, j0 = (int64_t)blockIdx.x * T88;
    T v[8][8];
#pragma unroll
    for (int r = 0; r < 8; r++)
#pragma unroll
        for (int c = 0; c < 8; c++) {
            int64_t i = i0 + (r < 4 ? ty * 4 + r : 64 + ty * 4 + r - 4);
            int64_t j = j0 + (c < 4 ? tx * 4 + c : 64 + tx * 4 + c - 4);
            v[r][c] = mp_start<S>(p.r + i * p.ldr + j, UPD && i < p.m && j < p.n);
        }
    int arow = t >> 1, akq = (t & 1) * 4;      /* this thread's four of the a tile */
    int bk = t >> 5, bcol = (t & 31) * 4;      /* and of the b tile */
    for (int64_t k0 = 0; k0 < p.k; k0 += K88) {
        T x[4], y[4];
        ld4_or_inf<S, VEC>(x, p.a, i0 + arow, p.m, k0 + akq, p.k, p.lda);
#pragma unroll
        for (int q = 0; q < 4; q++)
            as[akq + q][arow] = x[q];
        ld4_or_inf<S, VEC>(y, p.b, k0 + bk, p.k, j0 + bcol, p.n, p.ldb);
        gkc_st4(&bs[bk][bcol], y);
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < K88; kk++) {
            T xa[8], yb[8];
            gkc_ld4(xa, &as[kk][ty * 4]);
            gkc_ld4(xa + 4, &as[kk][64 + ty * 4]);
            gkc_ld4(yb, &bs[kk][tx * 4]);
            gkc_ld4(yb + 4, &bs[kk][64 + tx * 4]);
#pragma unroll
            for (int r = 0; r < 8; r++)
#pragma unroll
                for (int c = 0; c < 8; c++)
                    v[r][c] = S::step(v[r][c], xa[r], yb[c]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int r = 0; r < 8; r++) {
        int64_t i = i0 + (r < 4 ? ty * 4 + r : 64 + ty * 4 + r - 4);
        if (i >= p.m)
            continue;
#pragma unroll
        for (int c = 0; c < 8; c++) {
            int64_t j = j0 + (c < 4 ? tx * 4 + c : 64 + tx * 4 + c - 4);
            if (j < p.n)
                p.r[i * p.ldr + j] = v[r][c];
        }
    }
}

/* f(S{}) with the semiring of the call's dtype: the float ones for the
 * rungs of f32 and f64, and sr_wrap for i32 where the row serves it. */
template <class F>
gpuk_status with_float(const gpuk_args *args, F f)
{
    return args->dtype == GPUK_F64 ? f(sr_f64{}) : f(sr_f32{});
}
template <class F>
gpuk_status with_any(const gpuk_args *args, F f)
{
    return args->dtype == GPUK_I32 ? f(sr_wrap{}) : with_float(args, f);
}

/* Launch kern over the output in TS x TS thread blocks of `tile` outputs;
 * x walks rows (ROWS_X, the naive mapping) or columns. */
template <bool ROWS_X, class P, class Launch>
gpuk_status launch(gpuk_bctx *b, const P &p, const char *variant, int64_t tile, Launch l)
{
    int64_t gr = gkc_cdiv(p.m, tile), gc = gkc_cdiv(p.n, tile);
    return gkc_launch_grid(b, "minplus", variant, ROWS_X ? gr : gc, ROWS_X ? gc : gr, 1,
                           [&](dim3 g, int64_t y0, int64_t) { l(g, y0); });
}

}  // namespace

GKC_KERNEL(gkc_minplus_naive)
{
    GKC_TRY(gkc_enter(b));
    cudaStream_t s = b->stream;
    return with_any(args, [&](auto sr) {
        using S = decltype(sr);
        mp<typename S::T> p = mp_from<typename S::T>(args);
        return launch<true>(b, p, "naive", TS, [&](dim3 g, int64_t y0) {
            minplus_naive<S><<<g, dim3(TS, TS), 0, s>>>(p, y0);
        });
    });
}

GKC_KERNEL(gkc_minplus_transposed)
{
    GKC_TRY(gkc_enter(b));
    cudaStream_t s = b->stream;
    return with_float(args, [&](auto sr) {
        using S = decltype(sr);
        using T = typename S::T;
        mp<T> p = mp_from<T>(args);
        void *at = NULL;
        GKC_TRY(gkc_scratch(b, GKC_SLOT_A, (size_t)(p.m * p.k) * sizeof(T), &at));
        GKC_TRY(gkc_transpose_into(b, p.a, p.m, p.k, p.lda, (T *)at, p.m, "minplus",
                                   "transposed"));
        const T *a_t = (const T *)at;
        return launch<true>(b, p, "transposed", TS, [&](dim3 g, int64_t y0) {
            minplus_transposed<S><<<g, dim3(TS, TS), 0, s>>>(p, a_t, y0);
        });
    });
}

GKC_KERNEL(gkc_minplus_tiled)
{
    GKC_TRY(gkc_enter(b));
    cudaStream_t s = b->stream;
    return with_float(args, [&](auto sr) {
        using S = decltype(sr);
        mp<typename S::T> p = mp_from<typename S::T>(args);
        return launch<false>(b, p, "tiled", TS, [&](dim3 g, int64_t y0) {
            minplus_tiled<S><<<g, dim3(TS, TS), 0, s>>>(p, y0);
        });
    });
}

GKC_KERNEL(gkc_minplus_regtile_4x4)
{
    GKC_TRY(gkc_enter(b));
    cudaStream_t s = b->stream;
    return with_float(args, [&](auto sr) {
        using S = decltype(sr);
        mp<typename S::T> p = mp_from<typename S::T>(args);
        return launch<false>(b, p, "regtile_4x4", T44, [&](dim3 g, int64_t y0) {
            minplus_regtile_4x4<S><<<g, dim3(16, 16), 0, s>>>(p, y0);
        });
    });
}

GKC_KERNEL(gkc_minplus_regtile_8x8)
{
    GKC_TRY(gkc_enter(b));
    cudaStream_t s = b->stream;
    return with_float(args, [&](auto sr) {
        using S = decltype(sr);
        using T = typename S::T;
        mp<T> p = mp_from<T>(args);
        constexpr int64_t v16 = 16 / sizeof(T);
        bool vec = gkc_aligned16(p.a) && gkc_aligned16(p.b) && p.lda % v16 == 0 &&
                   p.ldb % v16 == 0;
        auto kern = p.upd ? (vec ? minplus_regtile_8x8<S, true, true>
                                 : minplus_regtile_8x8<S, false, true>)
                          : (vec ? minplus_regtile_8x8<S, true, false>
                                 : minplus_regtile_8x8<S, false, false>);
        return launch<false>(b, p, "regtile_8x8", T88, [&](dim3 g, int64_t y0) {
            kern<<<g, dim3(16, 16), 0, s>>>(p, y0);
        });
    });
}

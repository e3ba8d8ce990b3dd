/*
 * spmv.cu - y[rows] = A x for a CSR matrix A (32-bit indices): the
 * hand-written rungs (cuSPARSE is in cusparse.cu, stream in
 * spmv_stream.cu): thread per row, warp per row, then lanes per row chosen
 * from the row lengths.  y is overwritten; an empty row gives 0.  Every
 * kernel is a template over the element type T of the values, x and y
 * (float, double; sums in T).
 */
#include "cuda_internal.h"

namespace {

constexpr int NT = 256;

/* 1. scalar: one thread per row (the textbook CSR kernel, writing y
 * instead of adding to it).  Neighbouring threads walk different rows, so
 * a warp's loads of values and col_idx land far apart, and a long row
 * stalls its whole warp. */
template <class T>
__global__ void spmv_scalar(const int32_t *row_ptr, const int32_t *col, const T *val, const T *x,
                            T *y, int64_t rows)
{
    int64_t step = (int64_t)gridDim.x * NT;
    for (int64_t r = (int64_t)blockIdx.x * NT + threadIdx.x; r < rows; r += step) {
        T s = 0;
        for (int32_t e = row_ptr[r]; e < row_ptr[r + 1]; e++)
            s += val[e] * x[col[e]];
        y[r] = s;
    }
}

/* 2. vector: one warp per row.  The lanes read 32 consecutive values and
 * indices per step (coalesced), and the 32 partial sums meet through
 * shuffles.  Pays off once rows hold a few dozen entries; very short rows
 * leave lanes idle. */
template <class T>
__global__ void spmv_vector(const int32_t *row_ptr, const int32_t *col, const T *val, const T *x,
                            T *y, int64_t rows)
{
    int lane = threadIdx.x & 31;
    int64_t warp = ((int64_t)blockIdx.x * NT + threadIdx.x) >> 5;
    int64_t nwarps = ((int64_t)gridDim.x * NT) >> 5;
    for (int64_t r = warp; r < rows; r += nwarps) {
        int32_t end = row_ptr[r + 1];
        T s = 0;
        for (int32_t e = row_ptr[r] + lane; e < end; e += 32)
            s += val[e] * x[col[e]];
        s = gkc_warp_sum(s);
        if (lane == 0)
            y[r] = s;
    }
}

/* sum of val[k] * x[col[k]] for k = k0, k0 + step, ... < end, four
 * entries at a time (then two, then one): their index, value and x loads
 * are all issued before the first multiply, so four gathers are in flight,
 * not one. */
template <class T>
__device__ __forceinline__ T dot_range(const int32_t *col, const T *val, const T *x, int32_t k,
                                       int32_t end, int32_t step)
{
    T s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (; (int64_t)k + 3 * step < end; k += 4 * step) {
        int32_t c0 = __ldcs(col + k), c1 = __ldcs(col + k + step);
        int32_t c2 = __ldcs(col + k + 2 * step), c3 = __ldcs(col + k + 3 * step);
        T v0 = __ldcs(val + k), v1 = __ldcs(val + k + step);
        T v2 = __ldcs(val + k + 2 * step), v3 = __ldcs(val + k + 3 * step);
        s0 += v0 * __ldg(x + c0);
        s1 += v1 * __ldg(x + c1);
        s2 += v2 * __ldg(x + c2);
        s3 += v3 * __ldg(x + c3);
    }
    if ((int64_t)k + step < end) {   /* two left: both gathers in flight */
        int32_t c0 = __ldcs(col + k), c1 = __ldcs(col + k + step);
        T v0 = __ldcs(val + k), v1 = __ldcs(val + k + step);
        s0 += v0 * __ldg(x + c0);
        s1 += v1 * __ldg(x + c1);
        k += 2 * step;
    }
    if (k < end)
        s2 += __ldcs(val + k) * __ldg(x + __ldcs(col + k));
    return (s0 + s1) + (s2 + s3);
}

/* Rows longer than VLONG are cut into segments of SEG entries, each
 * summed by one block of SEG_NT threads (spmv_segments: four entries a
 * thread, one round of dot_range); spmv_adaptive lists them.  The list
 * lives in a scratch buffer: [0] the segment count, then (row, segment)
 * pairs, then one partial sum per segment. */
constexpr int32_t VLONG = 512, SEG = 512;
constexpr int SEG_NT = 128;
template <class T>
struct seglist {
    int32_t *count;
    int2 *seg;
    T *part;
};

/* 3. adaptive: vector only pays when a row fills the warp; with 16
 * entries a row, 16 of the 32 lanes idle and every row costs a 5-step
 * shuffle.  Here L lanes share a row, L the power of two at or above
 * half the mean row length (2..32: two rounds for a typical row), so a
 * warp takes 32 / L rows at once, the lanes of a warp still read
 * consecutive entries (rows follow each other in CSR; with L >= 8 each
 * group reads whole 32-byte sectors), the reduction is log2(L) shuffles,
 * and a lane keeps up to four gathers in flight.  Row length decides the rest: a row longer
 * than 4L rounds is done by the whole warp after the short ones (one at a
 * time, from a ballot), and a row longer than VLONG is cut into segments
 * that blocks of a second kernel share, so one long row stalls neither its
 * warp's short rows nor one SM for thousands of rounds.  The matrix is
 * streamed (evict-first loads) so the gathered x stays in cache. */
template <class T, int L>
__global__ void spmv_adaptive(const int32_t *row_ptr, const int32_t *col, const T *val, const T *x,
                              T *y, int64_t rows, int32_t vlong, seglist<T> sl)
{
    constexpr int G = 32 / L;   /* rows per warp step */
    int lane = threadIdx.x & 31, g = lane / L, li = lane % L;
    int64_t warp = ((int64_t)blockIdx.x * NT + threadIdx.x) >> 5;
    int64_t nwarps = ((int64_t)gridDim.x * NT) >> 5;
    for (int64_t r0 = warp * G; r0 < rows; r0 += nwarps * G) {
        int64_t r = r0 + g;
        int32_t b = 0, e = 0;
        if (r < rows) {
            b = row_ptr[r];
            e = row_ptr[r + 1];
        }
        int32_t len = e - b;
        bool huge = len > vlong, medium = !huge && len > 4 * L;
        if (huge && li == 0) {
            int32_t nseg = (len + SEG - 1) / SEG, base = atomicAdd(sl.count, nseg);
            for (int32_t q = 0; q < nseg; q++)
                sl.seg[base + q] = make_int2((int32_t)r, q);
        }
        T s = medium || huge ? T(0) : dot_range(col, val, x, b + li, e, L);
#pragma unroll
        for (int o = L / 2; o > 0; o >>= 1)
            s += __shfl_xor_sync(0xffffffffu, s, o);
        if (li == 0 && r < rows && !medium && !huge)
            y[r] = s;
        unsigned todo = __ballot_sync(0xffffffffu, medium && li == 0);
        while (todo) {
            int src = __ffs(todo) - 1;
            todo &= todo - 1;
            int32_t mb = __shfl_sync(0xffffffffu, b, src), me = __shfl_sync(0xffffffffu, e, src);
            T t = gkc_warp_sum(dot_range(col, val, x, mb + lane, me, 32));
            if (lane == 0)
                y[r0 + src / L] = t;
        }
    }
}

/* One block per listed segment: its partial sum. */
template <class T>
__global__ void spmv_segments(const int32_t *row_ptr, const int32_t *col, const T *val, const T *x,
                              seglist<T> sl)
{
    __shared__ T sh[32];
    int32_t count = *sl.count;
    for (int32_t q = blockIdx.x; q < count; q += gridDim.x) {
        int2 rs = sl.seg[q];
        int32_t b = row_ptr[rs.x] + rs.y * SEG, e = row_ptr[rs.x + 1];
        if (e - b > SEG)
            e = b + SEG;
        T s = gkc_block_sum(dot_range(col, val, x, b + threadIdx.x, e, SEG_NT), sh);
        if (threadIdx.x == 0)
            sl.part[q] = s;
    }
}

/* y of each long row: its segments' partials, in segment order (a row's
 * segments are consecutive in the list). */
template <class T>
__global__ void spmv_segments_sum(const int32_t *row_ptr, T *y, seglist<T> sl)
{
    int32_t count = *sl.count;
    for (int32_t q = blockIdx.x * NT + threadIdx.x; q < count; q += gridDim.x * NT) {
        int2 rs = sl.seg[q];
        if (rs.y != 0)
            continue;
        int32_t nseg = (row_ptr[rs.x + 1] - row_ptr[rs.x] + SEG - 1) / SEG;
        T s = 0;
        for (int32_t i = 0; i < nseg; i++)
            s += sl.part[q + i];
        y[rs.x] = s;
    }
}

template <class T, int L>
gpuk_status launch_adaptive(gpuk_bctx *b, const gpuk_csr_desc *A, const T *x, T *y)
{
    seglist<T> sl = {NULL, NULL, NULL};
    int32_t vlong = INT32_MAX;
    /* at most nnz / (VLONG + 1) long rows, each with at most len / SEG + 1 segments */
    int64_t most = A->nnz / (VLONG + 1) + A->nnz / SEG + 1;
    if (A->max_row_nnz > VLONG && A->rows < INT32_MAX) {
        /* [0] the count, [1] padding, the (row, segment) pairs, then the
         * partials: 8 + 8 most bytes in, so aligned for T */
        void *buf = NULL;
        size_t bytes = (size_t)(2 + 2 * most) * sizeof(int32_t) + (size_t)most * sizeof(T);
        GKC_TRY(gkc_scratch(b, GKC_SLOT_WORK, bytes, &buf));
        sl.count = (int32_t *)buf;
        sl.seg = (int2 *)(sl.count + 2);
        sl.part = (T *)(sl.count + 2 + 2 * most);
        vlong = VLONG;
        GKC_CUDA(b, cudaMemsetAsync(sl.count, 0, sizeof(int32_t), b->stream),
                 "spmv/adaptive: cudaMemsetAsync");
    }
    int64_t warps = gkc_cdiv(A->rows, 32 / L);
    spmv_adaptive<T, L><<<gkc_blocks(warps, NT / 32, gkc_grid_cap(b)), NT, 0, b->stream>>>(
        A->row_ptr, A->col_idx, (const T *)A->values, x, y, A->rows, vlong, sl);
    GKC_LAUNCHED(b, "spmv", "adaptive");
    if (sl.count) {
        spmv_segments<T><<<gkc_blocks(most, 1, gkc_grid_cap(b)), SEG_NT, 0, b->stream>>>(
            A->row_ptr, A->col_idx, (const T *)A->values, x, sl);
        GKC_LAUNCHED(b, "spmv", "adaptive (segments)");
        spmv_segments_sum<T><<<gkc_blocks(most, NT, gkc_grid_cap(b)), NT, 0, b->stream>>>(
            A->row_ptr, y, sl);
        GKC_LAUNCHED(b, "spmv", "adaptive (segment sums)");
    }
    return GPUK_OK;
}

template <class T>
gpuk_status scalar(gpuk_bctx *b, const gpuk_args *args)
{
    GKC_TRY(gkc_enter(b));
    const gpuk_csr_desc *A = args->csr;
    spmv_scalar<T><<<gkc_blocks(A->rows, NT, gkc_grid_cap(b)), NT, 0, b->stream>>>(
        A->row_ptr, A->col_idx, (const T *)A->values, (const T *)args->in[0].data,
        (T *)args->out.data, A->rows);
    GKC_LAUNCHED(b, "spmv", "scalar");
    return GPUK_OK;
}

template <class T>
gpuk_status vector(gpuk_bctx *b, const gpuk_args *args)
{
    GKC_TRY(gkc_enter(b));
    const gpuk_csr_desc *A = args->csr;
    spmv_vector<T><<<gkc_blocks(A->rows, NT / 32, gkc_grid_cap(b)), NT, 0, b->stream>>>(
        A->row_ptr, A->col_idx, (const T *)A->values, (const T *)args->in[0].data,
        (T *)args->out.data, A->rows);
    GKC_LAUNCHED(b, "spmv", "vector");
    return GPUK_OK;
}

template <class T>
gpuk_status adaptive(gpuk_bctx *b, const gpuk_args *args)
{
    GKC_TRY(gkc_enter(b));
    const gpuk_csr_desc *A = args->csr;
    const T *x = (const T *)args->in[0].data;
    T *y = (T *)args->out.data;
    int64_t half = A->rows > 0 ? A->nnz / (2 * A->rows) : 0;   /* mean / 2 */
    int lanes = 2;
    while (lanes < 32 && lanes < half)
        lanes *= 2;
    switch (lanes) {
    case 2: return launch_adaptive<T, 2>(b, A, x, y);
    case 4: return launch_adaptive<T, 4>(b, A, x, y);
    case 8: return launch_adaptive<T, 8>(b, A, x, y);
    case 16: return launch_adaptive<T, 16>(b, A, x, y);
    default: return launch_adaptive<T, 32>(b, A, x, y);
    }
}

}  // namespace

GKC_KERNEL_F32_F64(gkc_spmv_scalar, scalar)
GKC_KERNEL_F32_F64(gkc_spmv_vector, vector)
GKC_KERNEL_F32_F64(gkc_spmv_adaptive, adaptive)

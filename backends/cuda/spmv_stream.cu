/*
 * spmv_stream.cu - the "stream" rung of SpMV: y = A x, cut by nonzeros,
 * not by rows (a merge-based / CSR-stream hybrid).
 *
 * Every other rung gives each thread group a row, so the loads a warp
 * issues depend on row lengths: short rows leave lanes idle, long rows
 * serialise one group.  SpMV on a large matrix is bound by the gathers of
 * x through L2, so what matters is how many gathers are in flight and
 * how many bytes of col_idx and values each load instruction brings.
 * Here block w takes the fixed window of nonzeros [w*CH, (w+1)*CH),
 * CH = NT*PER: every thread issues PER/4 16-byte loads of col_idx and of
 * values and then PER independent gathers of x, whatever the rows look
 * like, and parks the products in shared memory.  Rows are summed from
 * there: a window "owns" the rows whose first nonzero lies in it
 * (start[w] .. start[w+1] - 1, from a partition built once per matrix in
 * csr_prepare), and a row running past its window's end is cut into
 * pieces, one per window it touches, added up in window order by a small
 * second kernel.  No float atomics: the result is the same every run.
 * The kernels are templates over the element type T of the values, x and
 * y (float, double): a thread's 8 values are 2 float4 or 4 double2.
 */
#include "cuda_internal.h"

namespace {

constexpr int NT = 256;
/* Nonzeros per thread: PER gathers in flight per thread, PER/4 16-byte
 * loads each of col_idx and values.  A multiple of 4. */
constexpr int PER = 8;
constexpr int CH = NT * PER;   /* nonzeros per window; a multiple of 4 */
/* Row offsets of a window are staged in shared memory RCH rows at a time
 * (RCH + 1 offsets: two per thread).  A window owns at most CH nonempty
 * rows but any number of empty ones, hence the chunks. */
constexpr int RCH = 2 * NT - 1;

static_assert(PER % 4 == 0, "PER must be a multiple of 4");

/* start[w] = the first row r with row_ptr[r] >= w*CH, for w in [0, nwin),
 * and start[nwin] = rows.  Thread r writes the windows w with
 * row_ptr[r-1] < w*CH <= row_ptr[r]: w in (row_ptr[r-1]/CH,
 * row_ptr[r]/CH] (w = 0 for r = 0).  These ranges tile [0, nnz/CH], so
 * every window is written once, including windows no row starts in (they
 * get the next row that starts at or after them). */
__global__ void stream_partition(const int32_t *row_ptr, int64_t rows, int32_t *start,
                                 int64_t nwin)
{
    int64_t step = (int64_t)gridDim.x * NT;
    for (int64_t r = (int64_t)blockIdx.x * NT + threadIdx.x; r <= rows; r += step) {
        int64_t hi = row_ptr[r] / CH;
        int64_t lo = r == 0 ? 0 : row_ptr[r - 1] / CH + 1;
        for (int64_t w = lo; w <= hi; w++)
            start[w] = (int32_t)r;
        if (r == rows)
            start[nwin] = (int32_t)rows;
    }
}

/* This thread's PER nonzeros.  Thread t takes the 4 consecutive
 * positions q = j*4*NT + 4*t .. q+3 for j < PER/4, so each load
 * instruction of a warp covers 512 contiguous bytes of col_idx (and of
 * values in f32; in f64 two instructions of 16 bytes a lane cover the 32
 * bytes of a lane's 4 values) and each vector store to prod is
 * conflict-free in f32.  full: the window holds CH nonzeros and col/val
 * are 16-byte aligned (a window starts at a multiple of CH, itself a
 * multiple of 4), so int4 and 16-byte value loads are legal; else guarded
 * scalar loads, column 0 and value 0 past the window's n nonzeros.  Both
 * are read once (evict-first), keeping L2 for x. */
template <class T>
__device__ __forceinline__ void window_load(const int32_t *col, const T *val, int n, bool full,
                                            int (&c)[PER], T (&v)[PER])
{
    typedef typename gkc_vec<T>::type V;
    constexpr int N = gkc_vec<T>::N;
    const int t = threadIdx.x;
    if (full) {
#pragma unroll
        for (int j = 0; j < PER / 4; j++) {
            int4 ci = __ldcs((const int4 *)(col + j * 4 * NT + 4 * t));
            V vi[4 / N];
#pragma unroll
            for (int h = 0; h < 4 / N; h++)
                vi[h] = __ldcs((const V *)(val + j * 4 * NT + 4 * t) + h);
            c[4 * j] = ci.x, c[4 * j + 1] = ci.y, c[4 * j + 2] = ci.z, c[4 * j + 3] = ci.w;
#pragma unroll
            for (int k = 0; k < 4; k++)
                v[4 * j + k] = gkc_vget(vi[k / N], k % N);
        }
    } else {
#pragma unroll
        for (int k = 0; k < PER; k++) {
            int q = (k / 4) * 4 * NT + 4 * t + k % 4;
            c[k] = q < n ? __ldcs(col + q) : 0;
            v[k] = q < n ? __ldcs(val + q) : T(0);
        }
    }
}

/* Their products: every gather of x issued before the first multiply, so
 * PER are in flight, through the read-only path so x stays cached.  0
 * past n (x[0] exists: nnz > 0 means cols > 0; it is never used there). */
template <class T>
__device__ __forceinline__ void window_products(const T *x, const int (&c)[PER], const T (&v)[PER],
                                                int n, T (&p)[PER])
{
    T g[PER];
#pragma unroll
    for (int k = 0; k < PER; k++)
        g[k] = __ldg(x + c[k]);
#pragma unroll
    for (int k = 0; k < PER; k++)
        p[k] = (k / 4) * 4 * NT + 4 * (int)threadIdx.x + k % 4 < n ? v[k] * g[k] : T(0);
}

/* A head and a tail sum side by side in shared memory. */
template <class T> struct pair2;
template <> struct pair2<float> {
    typedef float2 type;
};
template <> struct pair2<double> {
    typedef double2 type;
};

/* One block per window.  L lanes share a row (L = the power of two at or
 * above half the mean row length, as in spmv_adaptive): 32/L rows per
 * warp step, consecutive lanes read consecutive words of prod, a row
 * costs log2(L) shuffles.  A row with more than 4L entries in the window
 * is summed by the whole warp afterwards (ballot loop), so it does not
 * hold up the short rows of its group.
 *
 * Spanning rows: the head piece is the part of a row that began in an
 * earlier window ([0, hh) here, when row_ptr[start[w]] > w*CH); the tail
 * piece is the part of this window's last owned row when that row runs
 * past the window ([tl, CH)).  Each thread adds its products that fall in
 * either piece while it holds them, so the two pieces cost two warp sums
 * and eight shared reads, however long they are: a row of 250k nonzeros
 * is spread over ~120 blocks, each adding a full-window head piece.
 * Six blocks an SM (40 registers, no spills; 48 without the bound): a
 * block spends most of its life waiting on its gathers, so residency is
 * what keeps them in flight. */
template <class T, int L>
__global__ void __launch_bounds__(NT, 6)
stream_windows(const int32_t *row_ptr, const int32_t *col, const T *val, const T *x, T *y,
               int64_t nnz, const int32_t *start, T *head, T *tail, bool vec)
{
    typedef typename gkc_vec<T>::type V;
    constexpr int N = gkc_vec<T>::N;
    __shared__ __align__(16) T prod[CH];
    __shared__ int32_t rp[RCH + 1];   /* row offsets relative to base */
    __shared__ typename pair2<T>::type red[NT / 32];
    constexpr int G = 32 / L;
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5, g = lane / L, li = lane % L;
    const int64_t w = blockIdx.x, base = w * CH;
    const int n = (int)(nnz - base < CH ? nnz - base : CH);   /* 0 <= n <= CH */

    /* Loads in the order that keeps most in flight: the partition, the
     * window's col/val, the row offsets (which wait for the partition),
     * then the gathers (which wait for col).  The partition and the few
     * row offsets below are the same words for every thread (one
     * transaction a warp). */
    const int64_t s0 = start[w], s1 = start[w + 1];
    int c[PER];
    T v[PER];
    window_load(col + base, val + base, n, vec && n == CH, c, v);
    const int64_t p0 = row_ptr[s0], pe = row_ptr[s1];
    const int hh = p0 > base ? (int)((p0 < base + CH ? p0 : base + CH) - base) : 0;
    const bool has_tail = s1 > s0 && pe > base + CH;   /* then n == CH */
    const int tl = has_tail ? (int)(row_ptr[s1 - 1] - base) : CH;
    const int64_t s_end = has_tail ? s1 - 1 : s1;   /* rows [s0, s_end) end in the window */

    /* First chunk of row offsets: entries s0 .. s0 + min(RCH, s1 - s0).
     * Row s1 exists (s1 <= rows); rows from s0 on start at or past base. */
    const int64_t nr0 = s1 - s0 < RCH ? s1 - s0 : RCH;
    int32_t rp_a = t <= nr0 ? row_ptr[s0 + t] : 0;
    int32_t rp_b = t + NT <= nr0 ? row_ptr[s0 + t + NT] : 0;

    T p[PER];
    window_products(x, c, v, n, p);
    T hs = 0, ts = 0;
#pragma unroll
    for (int j = 0; j < PER / 4; j++) {
        int q = j * 4 * NT + 4 * t;
#pragma unroll
        for (int h = 0; h < 4; h += N) {
            V pv;
            if constexpr (N == 4)
                pv = make_float4(p[4 * j], p[4 * j + 1], p[4 * j + 2], p[4 * j + 3]);
            else
                pv = make_double2(p[4 * j + h], p[4 * j + h + 1]);
            *(V *)(prod + q + h) = pv;
        }
#pragma unroll
        for (int k = 0; k < 4; k++) {
            hs += q + k < hh ? p[4 * j + k] : T(0);
            ts += q + k >= tl ? p[4 * j + k] : T(0);
        }
    }
    if (t <= nr0)
        rp[t] = (int32_t)(rp_a - base);
    if (t + NT <= nr0)
        rp[t + NT] = (int32_t)(rp_b - base);
    const bool pieces = hh > 0 || has_tail;   /* the same in every thread */
    if (pieces) {
        hs = gkc_warp_sum(hs);
        ts = gkc_warp_sum(ts);
        if (lane == 0)
            red[warp] = {hs, ts};
    }
    __syncthreads();
    if (pieces && t == 0) {   /* fixed order: deterministic */
        T h = 0, tt = 0;
#pragma unroll
        for (int i = 0; i < NT / 32; i++) {
            h += red[i].x;
            tt += red[i].y;
        }
        if (hh > 0)
            head[w] = h;
        if (has_tail)
            tail[w] = tt;
    }

    for (int64_t c0 = s0; c0 < s_end; c0 += RCH) {   /* block-uniform bounds */
        const int nr = (int)(s_end - c0 < RCH ? s_end - c0 : RCH);
        if (c0 != s0) {   /* later chunks: only windows with over RCH rows */
            __syncthreads();   /* the previous chunk is read */
            for (int i = t; i <= nr; i += NT)
                rp[i] = (int32_t)(row_ptr[c0 + i] - base);
            __syncthreads();
        }
        for (int i0 = warp * G; i0 < nr; i0 += NT / L) {   /* warp-uniform */
            const int i = i0 + g;
            int b = 0, e = 0;
            if (i < nr) {
                b = rp[i];
                e = rp[i + 1];   /* <= CH: the row ends in the window */
            }
            const bool medium = e - b > 4 * L;
            T s = 0;
            if (!medium) {
#pragma unroll
                for (int k = 0; k < 4; k++)
                    if (b + li + k * L < e)
                        s += prod[b + li + k * L];
            }
#pragma unroll
            for (int o = L / 2; o > 0; o >>= 1)
                s += __shfl_xor_sync(0xffffffffu, s, o);
            if (li == 0 && i < nr && !medium)
                y[c0 + i] = s;   /* an empty row gives 0 */
            unsigned todo = __ballot_sync(0xffffffffu, medium && li == 0);
            while (todo) {
                const int src = __ffs(todo) - 1;
                todo &= todo - 1;
                const int mb = __shfl_sync(0xffffffffu, b, src);
                const int me = __shfl_sync(0xffffffffu, e, src);
                T u = 0;
                for (int k = mb + lane; k < me; k += 32)
                    u += prod[k];
                u = gkc_warp_sum(u);
                if (lane == 0)
                    y[c0 + i0 + src / L] = u;
            }
        }
    }
}

/* One thread per window: if the window's last owned row runs past it,
 * that row's y is its tail piece here plus the head pieces of the windows
 * up to the one holding its last nonzero, in window order.  The partition
 * alone says which windows these are, so no list of spanning rows is
 * built or stored; a thread walks ~120 heads for a 250k-nonzero row. */
template <class T>
__global__ void stream_fixup(const int32_t *row_ptr, const int32_t *start, const T *head,
                             const T *tail, T *y, int64_t nwin)
{
    int64_t step = (int64_t)gridDim.x * NT;
    for (int64_t w = (int64_t)blockIdx.x * NT + threadIdx.x; w < nwin; w += step) {
        int64_t s0 = start[w], s1 = start[w + 1];
        if (s1 <= s0)
            continue;
        int64_t e = row_ptr[s1];
        if (e <= (w + 1) * CH)
            continue;
        int64_t last = (e - 1) / CH;
        T s = tail[w];
        for (int64_t v = w + 1; v <= last; v++)
            s += head[v];
        y[s1 - 1] = s;
    }
}

template <class T, int L>
gpuk_status launch_stream(gpuk_bctx *b, const gpuk_csr_desc *A, const T *x, T *y)
{
    int64_t nwin = gkc_stream_windows(A->nnz);
    const gkc_csr_state *st = (const gkc_csr_state *)A->prepared;
    const int32_t *start = st ? st->win_start : NULL;
    /* scratch: head and tail pieces, and the partition when none was prepared */
    size_t bytes = (size_t)(2 * nwin) * sizeof(T) + (start ? 0 : (size_t)(nwin + 1) * 4);
    void *buf = NULL;
    GKC_TRY(gkc_scratch(b, GKC_SLOT_WORK, bytes, &buf));
    T *head = (T *)buf, *tail = head + nwin;
    if (!start) {
        int32_t *s = (int32_t *)(tail + nwin);
        GKC_TRY(gkc_stream_partition(b, A, s));
        start = s;
    }
    bool vec = gkc_aligned16(A->col_idx) && gkc_aligned16(A->values);
    stream_windows<T, L><<<(unsigned)nwin, NT, 0, b->stream>>>(
        A->row_ptr, A->col_idx, (const T *)A->values, x, y, A->nnz, start, head, tail, vec);
    GKC_LAUNCHED(b, "spmv", "stream");
    if (nwin > 1) {   /* with one window no row can span */
        stream_fixup<T><<<gkc_blocks(nwin, NT, gkc_grid_cap(b)), NT, 0, b->stream>>>(
            A->row_ptr, start, head, tail, y, nwin);
        GKC_LAUNCHED(b, "spmv", "stream (fix-up)");
    }
    return GPUK_OK;
}

}  // namespace

int64_t gkc_stream_windows(int64_t nnz)
{
    return nnz / CH + 1;   /* +1: trailing empty rows start at nnz and need a window */
}

gpuk_status gkc_stream_partition(gpuk_bctx *b, const gpuk_csr_desc *A, int32_t *start)
{
    int64_t nwin = gkc_stream_windows(A->nnz);
    stream_partition<<<gkc_blocks(A->rows + 1, NT, gkc_grid_cap(b)), NT, 0, b->stream>>>(
        A->row_ptr, A->rows, start, nwin);
    GKC_LAUNCHED(b, "spmv", "stream (partition)");
    return GPUK_OK;
}

namespace {

template <class T>
gpuk_status stream(gpuk_bctx *b, const gpuk_args *args)
{
    GKC_TRY(gkc_enter(b));
    const gpuk_csr_desc *A = args->csr;
    const T *x = (const T *)args->in[0].data;
    T *y = (T *)args->out.data;
    if (A->rows == 0)
        return GPUK_OK;
    if (A->nnz == 0) {   /* no windows to cut: every row is empty */
        GKC_CUDA(b, cudaMemsetAsync(y, 0, (size_t)A->rows * sizeof(T), b->stream),
                 "spmv/stream: cudaMemsetAsync");
        return GPUK_OK;
    }
    int64_t half = A->nnz / (2 * A->rows);   /* mean / 2 */
    int lanes = 2;
    while (lanes < 32 && lanes < half)
        lanes *= 2;
    switch (lanes) {
    case 2: return launch_stream<T, 2>(b, A, x, y);
    case 4: return launch_stream<T, 4>(b, A, x, y);
    case 8: return launch_stream<T, 8>(b, A, x, y);
    case 16: return launch_stream<T, 16>(b, A, x, y);
    default: return launch_stream<T, 32>(b, A, x, y);
    }
}

}  // namespace

GKC_KERNEL_F32_F64(gkc_spmv_stream, stream)

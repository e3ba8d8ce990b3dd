/*
 * minplus_pipe.cu - the min-plus rungs on the cp.async pipeline of
 * tile_pipe.cuh: one tile kernel, minplus_tile, instantiated per semiring
 * (minplus.cuh) for every rung of this file:
 *   pipelined  f32, f64: regtile_8x8's register tile fed by the pipeline;
 *              a step is FADD + FMNMX (f32), or DADD + DSETP + 2 FSEL
 *              (f64, sr_f64_lt: a strict less-than, its +0/-0 ties
 *              settled by a pass after the tile, negzero_fix);
 *   pipelined  i32: the same on int32, IMAD.IADD or IADD3 + VIMNMX a step;
 *   dpx        i32: one VIADDMNMX a step (__viaddmin_s32);
 *   dpx_i16x2  i32 through 16-bit pairs when every value is small: one
 *              VIADDMNMX.S16x2 for two steps, after a pre-pass; else dpx.
 *
 * The tile: 128 x 128 outputs a block of 256 threads, 8 x 8 a lane in the
 * warp-tiled layout (gkc_pipe::lane_tile), k slices of 16 through 3
 * cp.async stages: the copies of the next two slices fly while one is
 * computed, one barrier per 16 k (regtile_8x8: two per 8), and no
 * registers or instructions stage the tiles.  Per k step, 16-byte shared
 * loads (4 for a 4-byte T, 8 for a double) feed 64 add+min steps.
 * cp.async zero-fills cells past k, and 0 is not neutral for min, so the
 * last slice sets them to the semiring's inf first (rows and columns past
 * the edge only reach outputs that are never stored).  f64 holds 64
 * doubles of tile a lane: 128 registers of accumulators, so one block an
 * SM (launch bounds) instead of two.  i32: cells past k are GPUK_I32_INF
 * in a and in b alike, so their sum is 2^31 - 2: no wrap, and never below
 * the minimum, which never exceeds INF.
 *
 * dpx_i16x2.  A pre-pass over a and b (m k + k n reads, against m n k
 * steps) sets a flag if any value lies outside S = [0, 2^13) u {INF}, and
 * writes them 16 bits a value: phi(x) = x for x < 2^13, phi(INF) = H =
 * 2^14 - 1; a2[i][p] holds phi(a[i][p]) in both halves (a broadcast),
 * b2[p][q] the pair phi(b[p][2q]), phi(b[p][2q+1]).  Both tile kernels are
 * launched and read the flag first: the 16-bit one returns when it is set,
 * the i32 dpx one when it is clear, so the choice needs no round trip to
 * the host.  Why the 16-bit kernel gives the i32 bits on S:
 *   - For x, y in S the 32-bit sum s = x + y <= 2 INF < 2^31 does not
 *     wrap, and the 16-bit sum t = phi(x) + phi(y) <= 2H = 32766 < 2^15
 *     does not either.
 *   - If x, y < 2^13, s = t <= 2^14 - 2 < H (and < INF).  If either is INF,
 *     s >= INF (the other is >= 0) and t >= H.  So the clamped candidates
 *     c32 = min(INF, s) and c16 = min(H, t) satisfy c32 = psi(c16), with
 *     psi(y) = y for y < H and psi(H) = INF.
 *   - psi is strictly increasing on [0, H], so it commutes with min:
 *     psi(min(H, min_k t_k)) = psi(min_k c16_k) = min_k psi(c16_k) =
 *     min_k c32_k = min(INF, min_k s_k), the i32 rungs' p (with k = 0 both
 *     sides are the start value: psi(H) = INF).
 *   - The 16-bit accumulator starts at H and only moves down, so it holds
 *     min(H, min_k t_k) at the end; its k-slice padding is H in a and b,
 *     t = 2H, never below it.  It is mapped back by psi, and an update then
 *     takes min(old, INF, p) in 32 bits, exactly as the i32 rungs do; the
 *     old r plays no part in the 16-bit domain, so it needs no test.
 * Outside S nothing is promised in 16 bits (a negative weight meeting H,
 * a sum past 2^15), which is why the flag sends such a call to dpx.
 */
#include "cuda_internal.h"
#include "minplus.cuh"
#include "tile_pipe.cuh"

namespace {

using gkc_pipe::BM;
using gkc_pipe::BN;
using gkc_pipe::NT;

constexpr int KP = 16;   /* k slices of 16 elements, every dtype */

/* Where the tile's outputs go (the tile's O):
 *   to_r      r itself (p.c), each minimum starting at mp_start;
 *   gated     to_r, but the kernel returns at once unless *gate is set,
 *             or gate is NULL: dpx as dpx_i16x2's fallback, and alone;
 *   to_pairs  dpx_i16x2's: p holds the packed operands, and the two
 *             halves of a word go to columns 2q and 2q + 1 of the int32
 *             r, mapped back by psi; the kernel returns when *flag says
 *             some value is outside S (dpx computes then). */
template <class S>
struct to_r {
    using T = typename S::T;
    static constexpr bool ALIGNED = false, PAIRS = false;   /* operands of any rows */
    __device__ __forceinline__ bool skip() const { return false; }
    __device__ __forceinline__ T start(const gkc_mm_t<T> &p, int64_t i, int64_t j,
                                       bool read) const
    {
        return mp_start<S>(p.c + i * p.ldc + j, read);
    }
    __device__ __forceinline__ void put(const gkc_mm_t<T> &p, int64_t i, int64_t j, T v,
                                        bool) const
    {
        p.c[i * p.ldc + j] = v;
    }
};

template <class S>
struct gated : to_r<S> {
    const int *gate;
    __device__ __forceinline__ bool skip() const { return gate && !*gate; }
};

struct to_pairs {
    static constexpr bool ALIGNED = true, PAIRS = true;     /* rows 16-byte aligned */
    int *r;
    int64_t ldr, n;                          /* r's row stride and true column count */
    const int *flag;
    __device__ __forceinline__ bool skip() const { return *flag; }
    __device__ __forceinline__ unsigned start(const gkc_mm_t<unsigned> &, int64_t, int64_t,
                                              bool) const
    {
        return sr_pairs::inf();
    }
    __device__ __forceinline__ void put(const gkc_mm_t<unsigned> &, int64_t i, int64_t q,
                                        unsigned v, bool upd) const
    {
#pragma unroll
        for (int h = 0; h < 2; h++) {
            unsigned t = h ? v >> 16 : v & 0xFFFFu;
            int x = t >= MP16_H ? GPUK_I32_INF : (int)t;
            int64_t j = 2 * q + h;
            int *o = r + i * ldr + j;
            if (j < n)
                *o = upd ? min(*o, x) : x;
        }
    }
};

/* The tile kernel of every rung here: S the semiring, O where outputs go,
 * VEC 16-byte copies, UPD an update. */
template <class S, class O, bool VEC, bool UPD>
__global__ void __launch_bounds__(NT, sizeof(typename S::T) == 8 ? 1 : 2)
    minplus_tile(gkc_mm_t<typename S::T> p, int64_t y0, O o)
{
    using T = typename S::T;
    using G = gkc_pipe::geom<T, KP>;
    if (o.skip())
        return;
    extern __shared__ __align__(16) unsigned char smem_bytes[];
    T *smem = reinterpret_cast<T *>(smem_bytes);
    gkc_pipe::lane_tile lt;
    int64_t i0 = (y0 + blockIdx.y) * BM, j0 = (int64_t)blockIdx.x * BN;
    /* an update's 64 loads go out before the pipeline's first copies; they
     * land in the registers of the tile itself */
    T v[8][8];
#pragma unroll
    for (int r = 0; r < 8; r++)
#pragma unroll
        for (int c = 0; c < 8; c++) {
            int64_t i = i0 + lt.row(r), j = j0 + lt.col(c);
            v[r][c] = o.start(p, i, j, UPD && i < p.m && j < p.n);
        }
    auto fix = [](T *as, T *bs, int kvalid) {
        for (int e = threadIdx.x; e < BM * KP; e += NT) {
            int row = e / KP, k = e % KP;     /* as: [row][k] */
            if (k >= kvalid)
                as[row * G::SA + k] = S::inf();
            if (e / BN >= kvalid)             /* bs: [k][col] */
                bs[e] = S::inf();
        }
    };
    gkc_pipe::run<G, VEC>(p, smem, i0, j0, 0, p.k, fix, [&](const T *as, const T *bs) {
        constexpr int VW = gkc_pipe::V16<T>;   /* k steps in a 16-byte load of a row */
#pragma unroll
        for (int kc = 0; kc < KP; kc += VW) {
            typename gkc_vec<T>::type a[8];
#pragma unroll
            for (int r = 0; r < 8; r++)
                a[r] = *(const typename gkc_vec<T>::type *)&as[lt.row(r) * G::SA + kc];
#pragma unroll
            for (int kk = 0; kk < VW; kk++) {
                const T *brow = bs + (kc + kk) * BN + lt.wn + lt.ln;
                T y[8];
                gkc_ld4(y, brow);
                gkc_ld4(y + 4, brow + 32);
#pragma unroll
                for (int r = 0; r < 8; r++) {
                    T x = gkc_vget(a[r], kk);
#pragma unroll
                    for (int c = 0; c < 8; c++)
                        v[r][c] = S::step(v[r][c], x, y[c]);
                }
            }
        }
    });
#pragma unroll
    for (int r = 0; r < 8; r++) {
        int64_t i = i0 + lt.row(r);
        if (i >= p.m)
            continue;
#pragma unroll
        for (int c = 0; c < 8; c++) {
            int64_t j = j0 + lt.col(c);
            if (O::PAIRS || j < p.n)   /* to_pairs tests its two columns itself */
                o.put(p, i, j, v[r][c], UPD);
        }
    }
}

/* The tile kernel for p (an update when upd), its shared memory allowed,
 * launched over p.m x p.n. */
template <class S, class O>
gpuk_status launch_tile(gpuk_bctx *b, const gkc_mm_t<typename S::T> &p, bool upd, O o,
                        const char *variant)
{
    using T = typename S::T;
    void (*kern)(gkc_mm_t<T>, int64_t, O);
    if constexpr (O::ALIGNED)
        kern = upd ? minplus_tile<S, O, true, true> : minplus_tile<S, O, true, false>;
    else if (gkc_mm_vec(&p))
        kern = upd ? minplus_tile<S, O, true, true> : minplus_tile<S, O, true, false>;
    else
        kern = upd ? minplus_tile<S, O, false, true> : minplus_tile<S, O, false, false>;
    constexpr size_t smem = gkc_pipe::geom<T, KP>::SMEM_BYTES;
    GKC_CUDA(b, cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem),
             "minplus: cudaFuncSetAttribute");
    cudaStream_t s = b->stream;
    return gkc_launch_grid(b, "minplus", variant, gkc_cdiv(p.n, BN), gkc_cdiv(p.m, BM), 1,
                           [&](dim3 g, int64_t y0, int64_t) {
                               kern<<<g, NT, smem, s>>>(p, y0, o);
                           });
}

/* The call's operands for the tile (min-plus has no bias). */
template <class T>
gkc_mm_t<T> tile_operands(const gpuk_args *args)
{
    gkc_mm_t<T> p = gkc_mm_from<T>(args);
    p.bias = NULL;
    return p;
}

/* The i32 rungs pipelined and dpx: the tile on int32 with a gate (NULL:
 * always run). */
template <class S>
gpuk_status launch_i32(gpuk_bctx *b, const gpuk_args *args, const char *variant, const int *gate)
{
    gated<S> o;
    o.gate = gate;
    return launch_tile<S>(b, tile_operands<int>(args), mp_accumulate(args), o, variant);
}

/* phi of one value, noting in bad whether it lies outside S. */
constexpr int SMALL = 1 << 13;   /* S = [0, SMALL) u {INF} */
__device__ __forceinline__ unsigned phi(int x, bool &bad)
{
    if (x == GPUK_I32_INF)
        return MP16_H;
    bad |= (unsigned)x >= (unsigned)SMALL;   /* negative, or 2^13 and up */
    return (unsigned)x & 0xFFFFu;
}

/* The pre-pass: a2[i][p] = phi(a[i][p]) in both halves for p < k (H in
 * the padding up to lda2), rows i from blockIdx.y on, gridDim.y apart; any
 * value outside S sets *flag.  Every thread reaches the block vote. */
__global__ void mp16_pack_a(const int *a, int64_t m, int64_t k, int64_t lda, unsigned *a2,
                            int64_t lda2, int *flag)
{
    int64_t p = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    bool bad = false;
    for (int64_t i = blockIdx.y; p < lda2 && i < m; i += gridDim.y) {
        unsigned h = p < k ? phi(a[i * lda + p], bad) : MP16_H;
        a2[i * lda2 + p] = h | (h << 16);
    }
    if (__syncthreads_or(bad) && threadIdx.x == 0)
        atomicOr(flag, 1);
}

/* b2[p][q] = phi(b[p][2q]) | phi(b[p][2q+1]) << 16, H past column n (an odd
 * n's last pair, and the padding up to ldb2); rows as above. */
__global__ void mp16_pack_b(const int *b, int64_t k, int64_t n, int64_t ldb, unsigned *b2,
                            int64_t ldb2, int *flag)
{
    int64_t q = (int64_t)blockIdx.x * blockDim.x + threadIdx.x, j = 2 * q;
    bool bad = false;
    for (int64_t p = blockIdx.y; q < ldb2 && p < k; p += gridDim.y) {
        const int *row = b + p * ldb;
        unsigned lo = j < n ? phi(row[j], bad) : MP16_H;
        unsigned hi = j + 1 < n ? phi(row[j + 1], bad) : MP16_H;
        b2[p * ldb2 + q] = lo | (hi << 16);
    }
    if (__syncthreads_or(bad) && threadIdx.x == 0)
        atomicOr(flag, 1);
}

/* Blocks of 256 threads along a row of `cols`, rows spread over the y
 * dimension (at most 1024 row groups; each block loops over its rows). */
dim3 pack_grid(int64_t rows, int64_t cols)
{
    int64_t gy = rows < 1024 ? rows : 1024;
    return dim3((unsigned)gkc_cdiv(cols, 256), (unsigned)(gy > 0 ? gy : 1));
}

/* f64 pipelined's zero-sign pass (sr_f64_lt keeps the first of tied
 * candidates).  A sum is -0 only as (-0) + (-0), so no +0 result can be
 * wrong unless a and b both hold a -0: negzero_scan sets bit `bit` of
 * *flag when x[rows, cols] holds one (rows walked as mp16_pack_a does);
 * negzero_fix, after the tile, returns at once unless both bits are set,
 * and then makes each +0 output -0 iff some k pairs two -0: O(k) a zero
 * output, and only on such inputs.  A -0 result is right as it is: only a
 * -0 candidate (such a sum, or an update's old value, the first candidate
 * of its chain) makes one.  The same rule and proof as the CPU's
 * minplus_zero_signs (backends/cpu/minplus.c). */
__device__ __forceinline__ bool is_negzero(double x)
{
    return __double_as_longlong(x) == (long long)0x8000000000000000ull;
}

__global__ void negzero_scan(const double *x, int64_t rows, int64_t cols, int64_t ld, int bit,
                             int *flag)
{
    int64_t c = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    bool neg = false;
    for (int64_t r = blockIdx.y; c < cols && r < rows; r += gridDim.y)
        neg |= is_negzero(x[r * ld + c]);
    if (__syncthreads_or(neg) && threadIdx.x == 0)
        atomicOr(flag, bit);
}

constexpr int FIX = 16;   /* negzero_fix: FIX x FIX outputs a block */
__global__ void negzero_fix(gkc_mm_t<double> p, const int *flag, int64_t y0)
{
    if (*flag != 3)
        return;
    int64_t j = (int64_t)blockIdx.x * FIX + threadIdx.x;
    int64_t i = (y0 + blockIdx.y) * FIX + threadIdx.y;
    if (i >= p.m || j >= p.n)
        return;
    double *o = p.c + i * p.ldc + j;
    if (__double_as_longlong(*o) != 0)   /* only a +0 can be wrong */
        return;
    for (int64_t k = 0; k < p.k; k++)
        if (is_negzero(p.a[i * p.lda + k]) && is_negzero(p.b[k * p.ldb + j])) {
            *o = -0.0;
            return;
        }
}

/* f64 pipelined: the scans, the tile with sr_f64_lt, the fix. */
gpuk_status pipelined_f64(gpuk_bctx *b, const gpuk_args *args)
{
    gkc_mm_t<double> p = tile_operands<double>(args);
    void *flag = NULL;
    GKC_TRY(gkc_scratch(b, GKC_SLOT_WORK, sizeof(int), &flag));
    int *fl = (int *)flag;
    cudaStream_t s = b->stream;
    GKC_CUDA(b, cudaMemsetAsync(fl, 0, sizeof(int), s), "minplus/pipelined: cudaMemsetAsync");
    if (p.m > 0 && p.k > 0) {
        negzero_scan<<<pack_grid(p.m, p.k), 256, 0, s>>>(p.a, p.m, p.k, p.lda, 1, fl);
        GKC_LAUNCHED(b, "minplus", "pipelined");
        negzero_scan<<<pack_grid(p.k, p.n), 256, 0, s>>>(p.b, p.k, p.n, p.ldb, 2, fl);
        GKC_LAUNCHED(b, "minplus", "pipelined");
    }
    GKC_TRY(launch_tile<sr_f64_lt>(b, p, mp_accumulate(args), to_r<sr_f64_lt>{}, "pipelined"));
    return gkc_launch_grid(b, "minplus", "pipelined", gkc_cdiv(p.n, FIX), gkc_cdiv(p.m, FIX), 1,
                           [&](dim3 g, int64_t y0, int64_t) {
                               negzero_fix<<<g, dim3(FIX, FIX), 0, s>>>(p, fl, y0);
                           });
}

}  // namespace

GKC_KERNEL(gkc_minplus_pipelined)
{
    GKC_TRY(gkc_enter(b));
    if (args->dtype == GPUK_F64)
        return pipelined_f64(b, args);
    return launch_tile<sr_f32>(b, tile_operands<float>(args), mp_accumulate(args),
                               to_r<sr_f32>{}, "pipelined");
}

GKC_KERNEL(gkc_minplus_i32_pipelined)
{
    GKC_TRY(gkc_enter(b));
    return launch_i32<sr_unfused>(b, args, "pipelined", NULL);
}

GKC_KERNEL(gkc_minplus_i32_dpx)
{
    GKC_TRY(gkc_enter(b));
    return launch_i32<sr_dpx>(b, args, "dpx", NULL);
}

GKC_KERNEL(gkc_minplus_i32_dpx_i16x2)
{
    GKC_TRY(gkc_enter(b));
    gkc_mm_t<int> q = tile_operands<int>(args);
    /* a2: k words a row, b2: ceil(n / 2); both rows rounded up to 4 words
     * (16 bytes), so every row of the scratch buffers starts aligned and
     * the tile kernel always takes its 16-byte copies */
    int64_t n2 = gkc_cdiv(q.n, 2), lda2 = gkc_cdiv(q.k, 4) * 4, ldb2 = gkc_cdiv(n2, 4) * 4;
    void *a2 = NULL, *b2 = NULL, *flag = NULL;
    GKC_TRY(gkc_scratch(b, GKC_SLOT_A, (size_t)(q.m * lda2) * 4, &a2));
    GKC_TRY(gkc_scratch(b, GKC_SLOT_B, (size_t)(q.k * ldb2) * 4, &b2));
    GKC_TRY(gkc_scratch(b, GKC_SLOT_WORK, sizeof(int), &flag));
    cudaStream_t s = b->stream;
    int *fl = (int *)flag;
    GKC_CUDA(b, cudaMemsetAsync(fl, 0, sizeof(int), s), "minplus/dpx_i16x2: cudaMemsetAsync");
    if (q.m > 0 && lda2 > 0) {
        mp16_pack_a<<<pack_grid(q.m, lda2), 256, 0, s>>>(q.a, q.m, q.k, q.lda, (unsigned *)a2,
                                                          lda2, fl);
        GKC_LAUNCHED(b, "minplus", "dpx_i16x2");
    }
    if (q.k > 0 && ldb2 > 0) {
        mp16_pack_b<<<pack_grid(q.k, ldb2), 256, 0, s>>>(q.b, q.k, q.n, q.ldb, (unsigned *)b2,
                                                          ldb2, fl);
        GKC_LAUNCHED(b, "minplus", "dpx_i16x2");
    }
    gkc_mm_t<unsigned> p = {};
    p.a = (const unsigned *)a2;
    p.b = (const unsigned *)b2;
    p.m = q.m, p.n = n2, p.k = q.k, p.lda = lda2, p.ldb = ldb2;
    p.batch = 1;
    p.op = "minplus";
    to_pairs o;
    o.r = q.c;
    o.ldr = q.ldc;
    o.n = q.n;
    o.flag = fl;
    bool upd = mp_accumulate(args);
    GKC_TRY(launch_tile<sr_pairs>(b, p, upd, o, "dpx_i16x2"));
    /* the fallback: dpx itself, which runs only where the flag is set */
    gated<sr_dpx> g;
    g.gate = fl;
    return launch_tile<sr_dpx>(b, q, upd, g, "dpx_i16x2");
}

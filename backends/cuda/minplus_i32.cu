/*
 * minplus_i32.cu - min-plus on 32-bit integers (gpuk_minplus(3), i32):
 * naive; pipelined, f32 pipelined's register tile and cp.async pipeline
 * (tile_pipe.cuh) on integer add + min, two instructions a step as FADD +
 * FMNMX are; dpx, the same kernel with Hopper's fused add-min (VIADDMNMX,
 * one instruction a step); dpx_i16x2, two 16-bit lanes a register
 * (VIADDMNMX.S16x2, two steps an instruction) when every value is small,
 * else dpx.
 *
 * Semantics (gpuk.h): r[i,j] = min(INF, min_k (a[i,k] + b[k,j])) with INF
 * = GPUK_I32_INF and each sum the wrapped 32-bit sum; an update gives
 * min(old r, that).  Every rung starts an output's minimum at INF, or for
 * an update at min(old, INF), and folds in each wrapped sum with a signed
 * min: DPX's add-min wraps too (add.s32 then min.s32 in PTX).  Integer min
 * is exact and order-free, so every rung gives the CPU's bits.  Cells of
 * a k slice past the end of k are set to INF in a and in b alike, so their
 * sum is INF + INF = 2^31 - 2: no wrap, and never below the minimum, which
 * never exceeds INF.  Rows and columns past the edge reach only outputs
 * that are not stored.
 *
 * The SASS (cuobjdump -sass, sm_90).  ptxas fuses an integer add.s32
 * followed by a min.s32 into VIADDMNMX wherever it sees the pair, so the
 * naive rung's min(v, a + b) is already VIADDMNMX, and so is any
 * rewording of the sum (unsigned, an inline-asm add, a runtime zero added
 * in: ptxas hoists the zero into y and fuses the rest).  pipelined keeps
 * the two apart by writing the add as the PTX video instruction
 * vadd.s32.s32.s32 (a plain wrapping add: no .sat), which ptxas lowers to
 * IADD3 or IMAD.IADD after its fusion: 64 adds, about 40 on the FMA pipe
 * as IMAD.IADD and the rest IADD3, and 64 VIMNMX per k step, the
 * integer image of f32's FADD + FMNMX.  dpx writes __viaddmin_s32 and gets
 * one VIADDMNMX per step (1024 in the unrolled k slice of 16, no VIMNMX);
 * dpx_i16x2's __viaddmin_s16x2 is VIADDMNMX.S16x2 (1024 a slice).
 *
 * dpx_i16x2.  A pre-pass over a and b (m k + k n reads, against m n k
 * steps) sets a flag if any value lies outside S = [0, 2^13) u {INF}, and
 * writes them 16 bits a value: phi(x) = x for x < 2^13, phi(INF) = H =
 * 2^14 - 1; a2[i][p] holds phi(a[i][p]) in both halves (a broadcast),
 * b2[p][q] the pair phi(b[p][2q]), phi(b[p][2q+1]).  Both main kernels are
 * launched and read the flag first: the 16-bit one returns when it is set,
 * the i32 dpx kernel when it is clear, so the choice needs no round trip
 * to the host.  Why the 16-bit kernel gives the i32 bits on S:
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
#include "tile_pipe.cuh"

namespace {

constexpr int INF = GPUK_I32_INF;
constexpr int SMALL = 1 << 13;             /* S = [0, SMALL) u {INF} */
constexpr unsigned H = (1u << 14) - 1;     /* phi(INF): the 16-bit infinity */
constexpr unsigned H2 = H | (H << 16);     /* H in both halves */

struct mpi {
    const int *a, *b;
    int *r;
    int64_t m, n, k, lda, ldb, ldr;
    bool upd;
};

bool mpi_accumulate(const gpuk_args *args)
{
    return GPUK_ARGS_HAS(args, accumulate) && args->accumulate;
}

mpi mpi_from(const gpuk_args *args)
{
    mpi p;
    p.a = (const int *)args->in[0].data;
    p.b = (const int *)args->in[1].data;
    p.r = (int *)args->out.data;
    p.m = args->in[0].shape[0];
    p.k = args->in[0].shape[1];
    p.n = args->in[1].shape[1];
    p.lda = args->in[0].stride[0];
    p.ldb = args->in[1].stride[0];
    p.ldr = args->out.stride[0];
    p.upd = mpi_accumulate(args);
    return p;
}

/* The wrapped 32-bit sum (unsigned arithmetic wraps in C++; signed would
 * be undefined). */
__device__ __forceinline__ int wadd(int x, int y)
{
    return (int)((unsigned)x + (unsigned)y);
}

/* The same sum as the PTX video add without .sat (it wraps too), which
 * ptxas does not fuse with the min that follows (see the top). */
__device__ __forceinline__ int vadd_unfused(int x, int y)
{
    int s;
    asm("vadd.s32.s32.s32 %0, %1, %2;" : "=r"(s) : "r"(x), "r"(y));
    return s;
}

/* Where the minimum of output *o starts: INF, or min(old, INF).  Only an
 * output inside r may be read. */
__device__ __forceinline__ int mpi_start(const int *o, bool upd)
{
    return upd ? min(*o, INF) : INF;
}

constexpr int T = 16;

/* naive: one thread per output, threadIdx.x walking rows i (f32 naive's
 * mapping): a warp's loads of a[i][k] are lda apart, 32 transactions a
 * step. */
__global__ void minplus_i32_naive(mpi p, int64_t y0)
{
    int64_t i = (int64_t)blockIdx.x * T + threadIdx.x;
    int64_t j = (y0 + blockIdx.y) * T + threadIdx.y;
    if (i >= p.m || j >= p.n)
        return;
    int v = mpi_start(p.r + i * p.ldr + j, p.upd);
    for (int64_t k = 0; k < p.k; k++)
        v = min(v, wadd(p.a[i * p.lda + k], p.b[k * p.ldb + j]));
    p.r[i * p.ldr + j] = v;
}

/* Component i (a constant after unrolling) of an int4 / uint4. */
__device__ __forceinline__ int i4(const int4 &v, int i)
{
    return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}
__device__ __forceinline__ unsigned u4(const uint4 &v, int i)
{
    return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}

/* The pipeline of tile_pipe.cuh moves 4-byte words and never looks at
 * them, so it carries int32 as it carries float: the gkc_mm's float
 * pointers hold the int32 (or packed 16-bit) operands, and shared memory
 * is written (fix) and read (compute) here only as integers. */
gkc_mm mm_of(const void *a, int64_t lda, const void *b, int64_t ldb, int64_t m, int64_t n,
             int64_t k)
{
    gkc_mm p = {};
    p.a = (const float *)a;
    p.b = (const float *)b;
    p.m = m, p.n = n, p.k = k, p.lda = lda, p.ldb = ldb;
    p.batch = 1;
    p.op = "minplus";
    return p;
}

/* k slices of 16, as f32 pipelined. */
constexpr int KP = 16;

/* Set the cells of the last k slice past kvalid to fill, in a and b
 * alike (cp.async left 0 there, and 0 is not neutral for min). */
__device__ __forceinline__ void fix_slice(float *asf, float *bsf, int kvalid, unsigned fill)
{
    using namespace gkc_pipe;
    constexpr int SA = geom<float, KP>::SA;
    unsigned *as = reinterpret_cast<unsigned *>(asf), *bs = reinterpret_cast<unsigned *>(bsf);
    for (int e = threadIdx.x; e < BM * KP; e += NT) {
        int row = e / KP, k = e % KP;     /* as: [row][k] */
        if (k >= kvalid)
            as[row * SA + k] = fill;
        if (e / BN >= kvalid)             /* bs: [k][col] */
            bs[e] = fill;
    }
}

/* pipelined (DPX false) and dpx (DPX true): f32 pipelined's kernel on
 * int32.  A 128 x 128 tile per block of 256 threads, 8 x 8 outputs per
 * lane in the warp-tiled layout, k slices of 16 through 3 cp.async stages;
 * per k step four 16-byte shared loads feed 64 add+min steps.  pipelined
 * computes a step as min(v, vadd(x, y)): IADD3 or IMAD.IADD, then VIMNMX
 * (see the top); dpx as __viaddmin_s32(x, y, v): VIADDMNMX.  gate: NULL,
 * or dpx_i16x2's flag, and then the kernel runs only when the flag is
 * set. */
template <bool VEC, bool UPD, bool DPX>
__global__ void __launch_bounds__(gkc_pipe::NT, 2)
    minplus_i32_tile(gkc_mm p, int *r, int64_t ldr, const int *gate, int64_t y0)
{
    using namespace gkc_pipe;
    if (gate && !*gate)
        return;
    constexpr int SA = geom<float, KP>::SA;
    extern __shared__ __align__(16) float smem[];
    lane_tile lt;
    int64_t i0 = (y0 + blockIdx.y) * BM, j0 = (int64_t)blockIdx.x * BN;
    int v[8][8];
#pragma unroll
    for (int rr = 0; rr < 8; rr++)
#pragma unroll
        for (int c = 0; c < 8; c++) {
            int64_t i = i0 + lt.row(rr), j = j0 + lt.col(c);
            v[rr][c] = mpi_start(r + i * ldr + j, UPD && i < p.m && j < p.n);
        }
    auto fix = [](float *as, float *bs, int kvalid) { fix_slice(as, bs, kvalid, INF); };
    run<geom<float, KP>, VEC>(p, smem, i0, j0, 0, p.k, fix, [&](const float *asf, const float *bsf) {
        const int *as = reinterpret_cast<const int *>(asf);
        const int *bs = reinterpret_cast<const int *>(bsf);
#pragma unroll
        for (int kc = 0; kc < KP; kc += 4) {
            int4 a[8];
#pragma unroll
            for (int rr = 0; rr < 8; rr++)
                a[rr] = *(const int4 *)&as[lt.row(rr) * SA + kc];
#pragma unroll
            for (int kk = 0; kk < 4; kk++) {
                const int *brow = bs + (kc + kk) * BN + lt.wn + lt.ln;
                int4 b0 = *(const int4 *)brow, b1 = *(const int4 *)(brow + 32);
                int y[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
                for (int rr = 0; rr < 8; rr++) {
                    int x = i4(a[rr], kk);
#pragma unroll
                    for (int c = 0; c < 8; c++) {
                        if (DPX)
                            v[rr][c] = __viaddmin_s32(x, y[c], v[rr][c]);
                        else
                            v[rr][c] = min(v[rr][c], vadd_unfused(x, y[c]));
                    }
                }
            }
        }
    });
#pragma unroll
    for (int rr = 0; rr < 8; rr++) {
        int64_t i = i0 + lt.row(rr);
        if (i >= p.m)
            continue;
#pragma unroll
        for (int c = 0; c < 8; c++) {
            int64_t j = j0 + lt.col(c);
            if (j < p.n)
                r[i * ldr + j] = v[rr][c];
        }
    }
}

/* phi of one value, noting in bad whether it lies outside S. */
__device__ __forceinline__ unsigned phi(int x, bool &bad)
{
    if (x == INF)
        return H;
    bad |= (unsigned)x >= (unsigned)SMALL;   /* negative, or 2^13 and up */
    return (unsigned)x & 0xFFFFu;
}

/* The pre-pass: a2[i][p] = phi(a[i][p]) in both halves for p < k (H2 in the
 * padding up to lda2), rows i from blockIdx.y on, gridDim.y apart; any
 * value outside S sets *flag.  Every thread reaches the block vote. */
__global__ void mpi_pack_a(const int *a, int64_t m, int64_t k, int64_t lda, unsigned *a2,
                           int64_t lda2, int *flag)
{
    int64_t p = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    bool bad = false;
    for (int64_t i = blockIdx.y; p < lda2 && i < m; i += gridDim.y) {
        unsigned h = p < k ? phi(a[i * lda + p], bad) : H;
        a2[i * lda2 + p] = h | (h << 16);
    }
    if (__syncthreads_or(bad) && threadIdx.x == 0)
        atomicOr(flag, 1);
}

/* b2[p][q] = phi(b[p][2q]) | phi(b[p][2q+1]) << 16, H past column n (an odd
 * n's last pair, and the padding up to ldb2); rows as above. */
__global__ void mpi_pack_b(const int *b, int64_t k, int64_t n, int64_t ldb, unsigned *b2,
                           int64_t ldb2, int *flag)
{
    int64_t q = (int64_t)blockIdx.x * blockDim.x + threadIdx.x, j = 2 * q;
    bool bad = false;
    for (int64_t p = blockIdx.y; q < ldb2 && p < k; p += gridDim.y) {
        const int *row = b + p * ldb;
        unsigned lo = j < n ? phi(row[j], bad) : H;
        unsigned hi = j + 1 < n ? phi(row[j + 1], bad) : H;
        b2[p * ldb2 + q] = lo | (hi << 16);
    }
    if (__syncthreads_or(bad) && threadIdx.x == 0)
        atomicOr(flag, 1);
}

/* dpx_i16x2's main kernel: dpx's tile on packed words, so a block covers
 * 128 rows by 128 words = 256 columns and a lane 8 rows by 16 columns;
 * each VIADDMNMX.S16x2 is a step of two outputs (columns 2q and 2q + 1)
 * from one broadcast a value.  p holds a2 and b2 (p.n: words per row of
 * the result, ceil(n / 2)); n is the true column count.  Returns at once
 * when *flag says some value is outside S (dpx computes then). */
template <bool UPD>
__global__ void __launch_bounds__(gkc_pipe::NT, 2)
    minplus_i16x2_tile(gkc_mm p, int *r, int64_t n, int64_t ldr, const int *flag, int64_t y0)
{
    using namespace gkc_pipe;
    if (*flag)
        return;
    constexpr int SA = geom<float, KP>::SA;
    extern __shared__ __align__(16) float smem[];
    lane_tile lt;
    int64_t i0 = (y0 + blockIdx.y) * BM, q0 = (int64_t)blockIdx.x * BN;
    unsigned v[8][8];
#pragma unroll
    for (int rr = 0; rr < 8; rr++)
#pragma unroll
        for (int c = 0; c < 8; c++)
            v[rr][c] = H2;
    auto fix = [](float *as, float *bs, int kvalid) { fix_slice(as, bs, kvalid, H2); };
    run<geom<float, KP>, true>(p, smem, i0, q0, 0, p.k, fix, [&](const float *asf, const float *bsf) {
        const unsigned *as = reinterpret_cast<const unsigned *>(asf);
        const unsigned *bs = reinterpret_cast<const unsigned *>(bsf);
#pragma unroll
        for (int kc = 0; kc < KP; kc += 4) {
            uint4 a[8];
#pragma unroll
            for (int rr = 0; rr < 8; rr++)
                a[rr] = *(const uint4 *)&as[lt.row(rr) * SA + kc];
#pragma unroll
            for (int kk = 0; kk < 4; kk++) {
                const unsigned *brow = bs + (kc + kk) * BN + lt.wn + lt.ln;
                uint4 b0 = *(const uint4 *)brow, b1 = *(const uint4 *)(brow + 32);
                unsigned y[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
                for (int rr = 0; rr < 8; rr++) {
                    unsigned x = u4(a[rr], kk);
#pragma unroll
                    for (int c = 0; c < 8; c++)
                        v[rr][c] = __viaddmin_s16x2(x, y[c], v[rr][c]);
                }
            }
        }
    });
    /* back to 32 bits: psi (H is INF), then an update's min with the old */
#pragma unroll
    for (int rr = 0; rr < 8; rr++) {
        int64_t i = i0 + lt.row(rr);
        if (i >= p.m)
            continue;
#pragma unroll
        for (int c = 0; c < 8; c++) {
            int64_t j = 2 * (q0 + lt.col(c));
#pragma unroll
            for (int h = 0; h < 2; h++) {
                unsigned t = h ? v[rr][c] >> 16 : v[rr][c] & 0xFFFFu;
                int x = t >= H ? INF : (int)t;
                int *o = r + i * ldr + j + h;
                if (j + h < n)
                    *o = UPD ? min(*o, x) : x;
            }
        }
    }
}

using tile_fn = void (*)(gkc_mm, int *, int64_t, const int *, int64_t);

/* The i32 tile kernel of this call (DPX or not), its shared memory
 * allowed, launched over m x n; gate as minplus_i32_tile takes it. */
template <bool DPX>
gpuk_status launch_tile(gpuk_bctx *b, const gpuk_args *args, const char *variant, const int *gate)
{
    mpi q = mpi_from(args);
    gkc_mm p = mm_of(q.a, q.lda, q.b, q.ldb, q.m, q.n, q.k);
    bool vec = gkc_mm_vec(&p);
    tile_fn kern = q.upd ? (vec ? minplus_i32_tile<true, true, DPX> : minplus_i32_tile<false, true, DPX>)
                         : (vec ? minplus_i32_tile<true, false, DPX> : minplus_i32_tile<false, false, DPX>);
    constexpr size_t smem = gkc_pipe::geom<float, KP>::SMEM_BYTES;
    GKC_CUDA(b, cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem),
             "minplus: cudaFuncSetAttribute");
    cudaStream_t s = b->stream;
    int *r = q.r;
    int64_t ldr = q.ldr;
    return gkc_launch_grid(b, "minplus", variant, gkc_cdiv(q.n, gkc_pipe::BN),
                           gkc_cdiv(q.m, gkc_pipe::BM), 1, [&](dim3 g, int64_t y0, int64_t) {
                               kern<<<g, gkc_pipe::NT, smem, s>>>(p, r, ldr, gate, y0);
                           });
}

/* Blocks of 256 threads along a row of `cols`, rows spread over the y
 * dimension (at most 1024 row groups; each block loops over its rows). */
dim3 pack_grid(int64_t rows, int64_t cols)
{
    int64_t gy = rows < 1024 ? rows : 1024;
    return dim3((unsigned)gkc_cdiv(cols, 256), (unsigned)(gy > 0 ? gy : 1));
}

}  // namespace

GKC_KERNEL(gkc_minplus_i32_naive)
{
    GKC_TRY(gkc_enter(b));
    mpi p = mpi_from(args);
    cudaStream_t s = b->stream;
    return gkc_launch_grid(b, "minplus", "naive", gkc_cdiv(p.m, T), gkc_cdiv(p.n, T), 1,
                           [&](dim3 g, int64_t y0, int64_t) {
                               minplus_i32_naive<<<g, dim3(T, T), 0, s>>>(p, y0);
                           });
}

GKC_KERNEL(gkc_minplus_i32_pipelined)
{
    GKC_TRY(gkc_enter(b));
    return launch_tile<false>(b, args, "pipelined", NULL);
}

GKC_KERNEL(gkc_minplus_i32_dpx)
{
    GKC_TRY(gkc_enter(b));
    return launch_tile<true>(b, args, "dpx", NULL);
}

GKC_KERNEL(gkc_minplus_i32_dpx_i16x2)
{
    GKC_TRY(gkc_enter(b));
    mpi q = mpi_from(args);
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
        mpi_pack_a<<<pack_grid(q.m, lda2), 256, 0, s>>>(q.a, q.m, q.k, q.lda, (unsigned *)a2,
                                                         lda2, fl);
        GKC_LAUNCHED(b, "minplus", "dpx_i16x2");
    }
    if (q.k > 0 && ldb2 > 0) {
        mpi_pack_b<<<pack_grid(q.k, ldb2), 256, 0, s>>>(q.b, q.k, q.n, q.ldb, (unsigned *)b2,
                                                         ldb2, fl);
        GKC_LAUNCHED(b, "minplus", "dpx_i16x2");
    }
    gkc_mm p = mm_of(a2, lda2, b2, ldb2, q.m, n2, q.k);
    auto kern = q.upd ? minplus_i16x2_tile<true> : minplus_i16x2_tile<false>;
    constexpr size_t smem = gkc_pipe::geom<float, KP>::SMEM_BYTES;
    GKC_CUDA(b, cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem),
             "minplus/dpx_i16x2: cudaFuncSetAttribute");
    int *r = q.r;
    int64_t n = q.n, ldr = q.ldr;
    GKC_TRY(gkc_launch_grid(b, "minplus", "dpx_i16x2", gkc_cdiv(n2, gkc_pipe::BN),
                            gkc_cdiv(q.m, gkc_pipe::BM), 1, [&](dim3 g, int64_t y0, int64_t) {
                                kern<<<g, gkc_pipe::NT, smem, s>>>(p, r, n, ldr, fl, y0);
                            }));
    /* the fallback: dpx itself, which runs only where the flag is set */
    return launch_tile<true>(b, args, "dpx_i16x2", fl);
}

/*
 * hgemm_mma.cu - rungs 2 and 3 of the f16/bf16 matrix-product ladder
 * (issue 27): the tensor cores driven by hand with mma.sync, fed by
 * ldmatrix; portable to any GPU from sm_80 on.  Operands and epilogue as
 * tc_common.cuh says.
 *
 * Both rungs: a 128x128 output tile per block of 8 warps (2 down, 4
 * across), each warp 64x32, that is 4 x 4 mma.sync.m16n8k16 per k step of
 * 16 from 4 A fragments (one ldmatrix.x4 each) and 4 B fragments (two
 * ldmatrix.x4); 64 f32 accumulators a lane, written straight from
 * registers by the epilogue (tc_put2: a lane holds pairs of adjacent
 * columns).  Shared memory keeps each operand as it is stored: a tile of
 * A is [m][k] or, transposed (GEMM's trans_a), [k][m], and ldmatrix's
 * .trans form turns the second into the same fragments; likewise for B.
 *
 * mma_ldmatrix (rung 2), over wmma: a warp tile of 64x32 instead of 32x32
 * (each ldmatrix'ed A fragment feeds 4 mma, each B fragment 4), fragments
 * whose layout we know, so the epilogue needs no round trip through
 * shared memory, and 16-byte global loads where the rows allow.  Rows are
 * padded by 16 bytes so the 8 rows an ldmatrix phase reads fall in 8
 * different bank quads.  Still one slice at a time: load, barrier,
 * compute, barrier.  Any stride and alignment (element loads otherwise).
 *
 * mma_async (rung 3): the slices of k (64 deep now) arrive through a
 * 3-stage cp.async pipeline, so copies of the next two slices fly while
 * one is computed, with one barrier a slice (the scheme of tile_pipe.cuh).
 * Padding gives way to an XOR swizzle: 16-byte chunk c of row r is stored
 * at chunk c ^ (r % 8), which keeps an ldmatrix phase's 8 rows (and a
 * cp.async phase's 8 chunks) in 8 different bank quads with no byte
 * spent, so 3 stages of 32 KB leave room for 2 blocks an SM.  16-byte
 * copies need 16-byte aligned rows (gkc_tc_rows16); other operands run
 * mma_ldmatrix.  bench/NOTES.md ("Tensor cores") has the predictions.
 */
#include "tc_common.cuh"

namespace {

constexpr int BM = 128, BN = 128, NT = 256;
constexpr int WM = 64, WN = 32;   /* warp tile: 4 m16 tiles by 4 n8 tiles */

/* Element offset of (r, c) in a tile whose rows hold C elements: padded
 * by 8 elements, or (SWZ) dense with 16-byte chunks swizzled by r % 8
 * (C >= 64, so the chunk index stays in the row; c a multiple of 8 or
 * inside one chunk). */
template <int C, bool SWZ>
__device__ __forceinline__ int soff(int r, int c)
{
    return SWZ ? r * C + ((((c >> 3) ^ (r & 7))) << 3) + (c & 7) : r * (C + 8) + c;
}

/* The stored tile [r0, r0 + R) x [c0, c0 + C) of an operand g (row stride
 * ld, nr x nc elements) into s, 0 outside: 16-byte loads when vec and the
 * chunk is whole, else element by element. */
template <class T, int R, int C>
__device__ __forceinline__ void tile_load(T *s, const T *g, int64_t ld, int64_t r0, int64_t c0,
                                          int64_t nr, int64_t nc, bool vec)
{
    union chunk {
        uint4 v;
        uint16_t h[8];
    };
    static_assert(R * C / 8 % NT == 0, "tile_load: chunks do not divide among the threads");
#pragma unroll
    for (int u = 0; u < R * C / 8 / NT; u++) {
        int e = threadIdx.x + u * NT, r = e / (C / 8), c = e % (C / 8) * 8;
        int64_t gr = r0 + r, gc = c0 + c;
        chunk x;
        if (vec && gr < nr && gc + 8 <= nc) {
            x.v = *(const uint4 *)(g + gr * ld + gc);
        } else {
            const uint16_t *row = (const uint16_t *)g + gr * ld + gc;
#pragma unroll
            for (int q = 0; q < 8; q++)
                x.h[q] = gr < nr && gc + q < nc ? row[q] : (uint16_t)0;
        }
        *(uint4 *)(s + soff<C, false>(r, c)) = x.v;
    }
}

/* The same tile by 16-byte cp.async into the swizzled layout; a chunk
 * that runs past the matrix copies its valid part and zero-fills the rest
 * (rows are 16-byte aligned, so a chunk's valid elements come first). */
template <class T, int R, int C>
__device__ __forceinline__ void tile_copy(T *s, const T *g, int64_t ld, int64_t r0, int64_t c0,
                                          int64_t nr, int64_t nc)
{
    static_assert(R * C / 8 % NT == 0, "tile_copy: chunks do not divide among the threads");
#pragma unroll
    for (int u = 0; u < R * C / 8 / NT; u++) {
        int e = threadIdx.x + u * NT, r = e / (C / 8), c = e % (C / 8) * 8;
        int64_t gr = r0 + r, gc = c0 + c;
        int64_t left = nc - gc;
        int bytes = gr < nr && left > 0 ? (left >= 8 ? 16 : (int)left * 2) : 0;
        gkc_cp_async16(s + soff<C, true>(r, c), bytes ? g + gr * ld + gc : g, bytes);
    }
}

/* The stored tiles of one slice of k at k0: A as [m][k] (or [k][m] when
 * TA), B as [k][n] (or [n][k] when TB). */
template <class T, bool TA, bool TB, int BK, bool ASYNC>
__device__ __forceinline__ void slice_in(const gkc_tc &p, const T *a, const T *b, T *as, T *bs,
                                         int64_t i0, int64_t j0, int64_t k0, bool vec)
{
    if (ASYNC) {
        if (TA)
            tile_copy<T, BK, BM>(as, a, p.lda, k0, i0, p.k, p.m);
        else
            tile_copy<T, BM, BK>(as, a, p.lda, i0, k0, p.m, p.k);
        if (TB)
            tile_copy<T, BN, BK>(bs, b, p.ldb, j0, k0, p.n, p.k);
        else
            tile_copy<T, BK, BN>(bs, b, p.ldb, k0, j0, p.k, p.n);
    } else {
        if (TA)
            tile_load<T, BK, BM>(as, a, p.lda, k0, i0, p.k, p.m, vec);
        else
            tile_load<T, BM, BK>(as, a, p.lda, i0, k0, p.m, p.k, vec);
        if (TB)
            tile_load<T, BN, BK>(bs, b, p.ldb, j0, k0, p.n, p.k, vec);
        else
            tile_load<T, BK, BN>(bs, b, p.ldb, k0, j0, p.k, p.n, vec);
    }
}

/* acc += the warp's 64x32 of A B over one slice of BK, from the stored
 * tiles as and bs (laid out as soff<., SWZ> says).  Lane l names the row
 * of matrix l / 8 of an ldmatrix.x4: for A's fragment (quarters in the
 * order m 0-7/k 0-7, m 8-15/k 0-7, m 0-7/k 8-15, m 8-15/k 8-15) that is m
 * offset ((l >> 3) & 1) * 8 and k offset (l >> 4) * 8; for two B
 * fragments side by side (k 0-7/n 0-7, k 8-15/n 0-7, k 0-7/n 8-15,
 * k 8-15/n 8-15), k offset ((l >> 3) & 1) * 8 and n offset (l >> 4) * 8.
 * A row of a stored tile is a row of that matrix, or with .trans a column. */
template <class T, bool TA, bool TB, int BK, bool SWZ>
__device__ __forceinline__ void slice_mma(float (&acc)[4][4][4], const T *as, const T *bs, int wm,
                                          int wn, int lane)
{
    constexpr int CA = TA ? BM : BK, CB = TB ? BK : BN;   /* row lengths of the stored tiles */
    int l8 = lane & 7, h8 = ((lane >> 3) & 1) * 8, q8 = (lane >> 4) * 8;
#pragma unroll
    for (int kk = 0; kk < BK; kk += 16) {
        uint32_t af[4][4], bf[4][2];
#pragma unroll
        for (int mi = 0; mi < 4; mi++) {
            int m = wm + 16 * mi;
            const T *row = TA ? as + soff<CA, SWZ>(kk + l8 + q8, m + h8)
                              : as + soff<CA, SWZ>(m + l8 + h8, kk + q8);
            tc_ldmatrix4<TA>(af[mi], row);
        }
#pragma unroll
        for (int nj = 0; nj < 4; nj += 2) {
            int n = wn + 8 * nj;
            uint32_t q[4];
            const T *row = TB ? bs + soff<CB, SWZ>(n + l8 + q8, kk + h8)
                              : bs + soff<CB, SWZ>(kk + l8 + h8, n + q8);
            tc_ldmatrix4<!TB>(q, row);
            bf[nj][0] = q[0];
            bf[nj][1] = q[1];
            bf[nj + 1][0] = q[2];
            bf[nj + 1][1] = q[3];
        }
#pragma unroll
        for (int mi = 0; mi < 4; mi++)
#pragma unroll
            for (int nj = 0; nj < 4; nj++)
                tc_mma16816<T>(acc[mi][nj], af[mi], bf[nj][0], bf[nj][1]);
    }
}

/* The block's place: batch, tile origin, warp tile, operands of the batch. */
struct place {
    int64_t z, i0, j0;
    int wm, wn, lane;
    __device__ __forceinline__ place(int64_t y0, int64_t z0)
    {
        z = z0 + blockIdx.z;
        i0 = (y0 + blockIdx.y) * BM;
        j0 = (int64_t)blockIdx.x * BN;
        int warp = threadIdx.x >> 5;
        lane = threadIdx.x & 31;
        wm = (warp >> 2) * WM;
        wn = (warp & 3) * WN;
    }
};

/* Lane (g, t) holds rows g and g + 8 of each m16 tile, columns 2t, 2t + 1
 * of each n8 tile. */
template <class T>
__device__ __forceinline__ void store_acc(const gkc_tc &p, const place &w,
                                          const float (&acc)[4][4][4])
{
    void *cz = tc_c_at(p, w.z);
    int g = w.lane >> 2, t = w.lane & 3;
#pragma unroll
    for (int mi = 0; mi < 4; mi++)
#pragma unroll
        for (int nj = 0; nj < 4; nj++) {
            int64_t i = w.i0 + w.wm + 16 * mi + g, j = w.j0 + w.wn + 8 * nj + 2 * t;
            tc_put2<T>(p, cz, i, j, acc[mi][nj][0], acc[mi][nj][1]);
            tc_put2<T>(p, cz, i + 8, j, acc[mi][nj][2], acc[mi][nj][3]);
        }
}

template <class T, bool TA, bool TB>
__global__ void __launch_bounds__(NT, 2) hgemm_mma_ldmatrix(gkc_tc p, int vec, int64_t y0, int64_t z0)
{
    constexpr int BK = 32;
    constexpr int A_ELEMS = TA ? BK * (BM + 8) : BM * (BK + 8);
    constexpr int B_ELEMS = TB ? BN * (BK + 8) : BK * (BN + 8);
    __shared__ __align__(16) T as[A_ELEMS];
    __shared__ __align__(16) T bs[B_ELEMS];
    place w(y0, z0);
    const T *a = (const T *)p.a + w.z * p.sa, *b = (const T *)p.b + w.z * p.sb;
    float acc[4][4][4] = {};
    for (int64_t k0 = 0; k0 < p.k; k0 += BK) {
        slice_in<T, TA, TB, BK, false>(p, a, b, as, bs, w.i0, w.j0, k0, vec != 0);
        __syncthreads();
        slice_mma<T, TA, TB, BK, false>(acc, as, bs, w.wm, w.wn, w.lane);
        __syncthreads();
    }
    store_acc<T>(p, w, acc);
}

constexpr int ABK = 64, STAGES = 3;
constexpr int A_STAGE = BM * ABK, B_STAGE = ABK * BN;   /* elements */
constexpr size_t ASYNC_SMEM = (size_t)STAGES * (A_STAGE + B_STAGE) * 2;

template <class T, bool TA, bool TB>
__global__ void __launch_bounds__(NT, 2) hgemm_mma_async(gkc_tc p, int64_t y0, int64_t z0)
{
    extern __shared__ __align__(128) unsigned char smem_raw[];
    T *sm = (T *)smem_raw;
    place w(y0, z0);
    const T *a = (const T *)p.a + w.z * p.sa, *b = (const T *)p.b + w.z * p.sb;
    int64_t nk = gkc_cdiv(p.k, ABK);
    auto issue = [&](int64_t kt) {
        T *as = sm + (int)(kt % STAGES) * (A_STAGE + B_STAGE);
        slice_in<T, TA, TB, ABK, true>(p, a, b, as, as + A_STAGE, w.i0, w.j0, kt * ABK, true);
    };
    /* slices 0 .. STAGES-2 in flight; every step commits a group, empty or
     * not, so that wait_group's count stays in step */
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < nk)
            issue(s);
        gkc_cp_async_commit();
    }
    float acc[4][4][4] = {};
    for (int64_t kt = 0; kt < nk; kt++) {
        gkc_cp_async_wait<STAGES - 2>();   /* this thread's copies of slice kt have landed */
        __syncthreads();                   /* everyone's; and slice kt - 1 is consumed */
        if (kt + STAGES - 1 < nk)
            issue(kt + STAGES - 1);        /* into the stage slice kt - 1 held */
        gkc_cp_async_commit();
        const T *as = sm + (int)(kt % STAGES) * (A_STAGE + B_STAGE);
        slice_mma<T, TA, TB, ABK, true>(acc, as, as + A_STAGE, w.wm, w.wn, w.lane);
    }
    gkc_cp_async_wait<0>();
    store_acc<T>(p, w, acc);
}

template <class T, bool TA, bool TB>
gpuk_status launch(gpuk_bctx *b, const gkc_tc &p, bool async, const char *variant)
{
    cudaStream_t s = b->stream;
    if (async) {
        auto kern = hgemm_mma_async<T, TA, TB>;
        GKC_CUDA(b, cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         (int)ASYNC_SMEM),
                 "mma_async: cudaFuncSetAttribute");
        return gkc_launch_grid(b, p.op, variant, gkc_cdiv(p.n, BN), gkc_cdiv(p.m, BM), p.batch,
                               [&](dim3 g, int64_t y0, int64_t z0) {
                                   kern<<<g, NT, ASYNC_SMEM, s>>>(p, y0, z0);
                               });
    }
    int vec = gkc_tc_rows16(&p, 2);
    return gkc_launch_grid(b, p.op, variant, gkc_cdiv(p.n, BN), gkc_cdiv(p.m, BM), p.batch,
                           [&](dim3 g, int64_t y0, int64_t z0) {
                               hgemm_mma_ldmatrix<T, TA, TB><<<g, NT, 0, s>>>(p, vec, y0, z0);
                           });
}

template <class T>
gpuk_status by_layout(gpuk_bctx *b, const gkc_tc &p, bool async, const char *variant)
{
    if (p.ta)
        return p.tb ? launch<T, true, true>(b, p, async, variant)
                    : launch<T, true, false>(b, p, async, variant);
    return p.tb ? launch<T, false, true>(b, p, async, variant)
                : launch<T, false, false>(b, p, async, variant);
}

gpuk_status run(gpuk_bctx *b, const gkc_tc &p, bool async, const char *variant)
{
    return p.bf16 ? by_layout<__nv_bfloat16>(b, p, async, variant)
                  : by_layout<__half>(b, p, async, variant);
}

}  // namespace

gpuk_status gkc_tc_mma_ldmatrix(gpuk_bctx *b, const gkc_tc &p, const char *variant)
{
    return run(b, p, false, variant);
}

gpuk_status gkc_tc_mma_async(gpuk_bctx *b, const gkc_tc &p, const char *variant)
{
    return run(b, p, gkc_tc_rows16(&p, 2) != 0, variant);
}

GKC_KERNEL(gkc_hgemm_mma_ldmatrix)
{
    gkc_tc p;
    int done;
    GKC_TRY(gkc_tc_begin(b, args, "mma_ldmatrix", &p, &done));
    return done ? GPUK_OK : gkc_tc_mma_ldmatrix(b, p, "mma_ldmatrix");
}

GKC_KERNEL(gkc_hgemm_mma_async)
{
    gkc_tc p;
    int done;
    GKC_TRY(gkc_tc_begin(b, args, "mma_async", &p, &done));
    return done ? GPUK_OK : gkc_tc_mma_async(b, p, "mma_async");
}

/*
 * f64-tune-mm.cuh - f64-tune.cu's matmul half: candidate DMMA tiles beside
 * the library's dmma and cuBLAS DGEMM (what each variant tests and the
 * predictions: bench/NOTES.md, "f64 tuning").
 *
 * One kernel template, mm_tile<C>, over a configuration C: block tile BM x
 * BN of warps of WM x WN (m16n8k16 fragments, as dgemm_mma.cu), k slices
 * of BK through STAGES cp.async stages, MINB blocks an SM, and three
 * switches:
 *   A128   A's fragments as 16-byte loads: within each 16 of k the
 *          fragment's k = t + 4u is read from k = 4t + u (a permutation of
 *          the sum, the same for A and B), so a lane's four k of one row
 *          are adjacent: 2 LDS.128 instead of 4 LDS.64.  A rows of BK + 2
 *          doubles keep a quarter-warp's 16-byte reads on 8 distinct bank
 *          quads (row stride 17 or 9 units: odd); B rows unpadded, with the
 *          16-byte chunks of row k XORed by 2 ((k / 4) mod 4), so the four
 *          t of a half-warp (rows 4t + v) land on distinct banks;
 *   GROUP  tiles walked GROUP row-tiles at a time (1: the plain order),
 *          so a wave of blocks shares more of a and b in L2;
 *   COPY   false: the copies of slices past the prologue are left out (a
 *          diagnostic: the time of the compute and the barriers alone).
 * Only whole tiles: m, n multiples of BM, BN, k of BK, rows 16-byte
 * aligned (the library's rung keeps the edges; a winner goes there).
 *
 * The "tma" rows are the library's dmma_tma kernel itself
 * (dgemm_mma.cu, matmul_dmma_tma<C>) in other configurations tma_cfg<BM,
 * BK, STAGES, LAG, MINB, GROUP>, edges and all; each configuration is
 * also checked on small odd shapes (edges, k past a slice, bias, strided
 * rows, a broadcast batch) against a long double reference.
 */
namespace tune {

template <int BM_, int BN_, int WM_, int WN_, int BK_, int STAGES_, int MINB_, bool A128_,
          int GROUP_, bool COPY_ = true, bool INTER_ = false, bool K8_ = false>
struct mmcfg {
    static constexpr int BM = BM_, BN = BN_, WM = WM_, WN = WN_, BK = BK_, STAGES = STAGES_;
    static constexpr int MINB = MINB_, GROUP = GROUP_;
    static constexpr bool A128 = A128_, COPY = COPY_, INTER = INTER_, K8 = K8_;
    static constexpr int WARPS_N = BN / WN, NT = (BM / WM) * WARPS_N * 32;
    static constexpr int FM = WM / 16, FN = WN / 8;
    static constexpr int SA = A128 ? BK + 2 : BK + 4, SB = A128 ? BN : BN + 4;
    static constexpr int A_EL = BM * SA, ST_EL = A_EL + BK * SB;
    static constexpr size_t SMEM = (size_t)STAGES * ST_EL * sizeof(double);
    static constexpr int ACP = BM * BK / 2 / NT, BCP = BK * BN / 2 / NT;   /* copies a thread */
    static_assert(ACP * NT * 2 == BM * BK && BCP * NT * 2 == BK * BN, "copies must divide");
    static_assert(BK % 16 == 0 && WM % 16 == 0 && WN % 8 == 0, "fragment shapes");
};

/* mma.sync m16n8k8 in f64: A[g + 8 (v & 1)][t + 4 (v >> 1)] for v < 4 and
 * B[t + 4 w][g] for w < 2, the first half of gkc_dmma16's registers */
__device__ __forceinline__ void dmma8(double (&d)[4], double a0, double a1, double a2, double a3,
                                      double b0, double b1)
{
    asm("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
        "{%8, %9}, {%0, %1, %2, %3};\n"
        : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
        : "d"(a0), "d"(a1), "d"(a2), "d"(a3), "d"(b0), "d"(b1));
}

template <class C>
__global__ void __launch_bounds__(C::NT, C::MINB)
    mm_tile(const double *__restrict__ A, const double *__restrict__ B, double *__restrict__ Cm,
            int64_t k, int64_t lda, int64_t ldb, int64_t ldc)
{
    constexpr int BM = C::BM, BN = C::BN, BK = C::BK, SA = C::SA, SB = C::SB;
    constexpr int FM = C::FM, FN = C::FN, NT = C::NT, STAGES = C::STAGES;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    double *sm = reinterpret_cast<double *>(smem_raw);
    int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31, g = lane >> 2, t = lane & 3;
    int wm = (warp / C::WARPS_N) * C::WM, wn = (warp % C::WARPS_N) * C::WN;
    int bx = blockIdx.x, by = blockIdx.y;
    if constexpr (C::GROUP > 1) {
        int nx = gridDim.x, ny = gridDim.y, id = by * nx + bx, per = C::GROUP * nx;
        int first = id / per * C::GROUP, rows = min(C::GROUP, ny - first), r = id % per;
        by = first + r % rows;
        bx = r / rows;
    }
    /* the thread's copies: A rows r0 + q RA at column 2 ca, B rows rb0 + q RB at
     * column 2 cb; two pointers moved on a slice at a time */
    constexpr int RA = NT / (BK / 2), RB = NT / (BN / 2);
    int r0 = tid / (BK / 2), ca = tid % (BK / 2), rb0 = tid / (BN / 2), cb = tid % (BN / 2);
    const double *pa = A + ((int64_t)by * BM + r0) * lda + 2 * ca;
    const double *pb = B + (int64_t)rb0 * ldb + (int64_t)bx * BN + 2 * cb;
    int64_t astep = RA * lda, bstep = RB * ldb;
    int sa_off = r0 * SA + 2 * ca, sb_off = rb0 * SB;
    /* copy number c (< ACP + BCP) of a slice into stage st: A's first */
    auto copy1 = [&](int st, int c) {
        double *sa = sm + st * C::ST_EL, *sb = sa + C::A_EL;
        if (c < C::ACP) {
            gkc_cp_async16(sa + sa_off + c * RA * SA, pa + c * astep, 16);
        } else {
            int q = c - C::ACP, r = rb0 + q * RB;
            int cs = C::A128 ? cb ^ (((r >> 2) & 3) << 1) : cb;
            gkc_cp_async16(sb + sb_off + q * RB * SB + 2 * cs, pb + q * bstep, 16);
        }
    };
    auto advance = [&] {
        pa += BK;
        pb += BK * ldb;
    };
    auto load = [&](int st) {
#pragma unroll
        for (int c = 0; c < C::ACP + C::BCP; c++)
            copy1(st, c);
        advance();
    };
    double acc[FM][FN][4];
#pragma unroll
    for (int i = 0; i < FM; i++)
#pragma unroll
        for (int j = 0; j < FN; j++)
#pragma unroll
            for (int v = 0; v < 4; v++)
                acc[i][j][v] = 0.0;
    int64_t nk = k / BK;
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < nk)
            load(s);
        gkc_cp_async_commit();
    }
    /* B fragments: A128 reads row kk + 4t + v, column (wn + 8j + g) xor 4t, which
     * is 16 (j / 2) + bx4[j % 2]; else row kk + t + 4v, column wn + 8j + g */
    int bfrag = C::A128 ? 4 * t * SB : t * SB + wn + g;
    int bx4[2] = {wn + (g ^ (4 * t)), wn + ((8 + g) ^ (4 * t))};
    int rd = 0, wr = STAGES - 1;
    /* INTER: the slice's copies spread over its DMMA groups (CUTLASS's
     * multistage order), not issued all at once after the barrier */
    constexpr int TOT = C::ACP + C::BCP, ITERS = (BK / 16) * FN;
    for (int64_t ks = 0; ks < nk; ks++) {
        gkc_cp_async_wait<STAGES - 2>();
        __syncthreads();
        bool more = C::COPY && ks + STAGES - 1 < nk;
        if (!C::INTER && more)
            load(wr);
        const double *sa = sm + rd * C::ST_EL, *sb = sa + C::A_EL;
#pragma unroll
        for (int kk = 0; kk < BK; kk += 16) {
            double af[FM][8];
#pragma unroll
            for (int i = 0; i < FM; i++)
#pragma unroll
                for (int h = 0; h < 2; h++) {
                    const double *ar = sa + (wm + 16 * i + g + 8 * h) * SA + kk;
                    if constexpr (C::A128) {
                        double2 p0 = *(const double2 *)(ar + 4 * t);
                        double2 p1 = *(const double2 *)(ar + 4 * t + 2);
                        af[i][h] = p0.x, af[i][h + 2] = p0.y;
                        af[i][h + 4] = p1.x, af[i][h + 6] = p1.y;
                    } else {
#pragma unroll
                        for (int u = 0; u < 4; u++)
                            af[i][h + 2 * u] = ar[t + 4 * u];
                    }
                }
#pragma unroll
            for (int j = 0; j < FN; j++) {
                double bf[4];
#pragma unroll
                for (int v = 0; v < 4; v++)
                    bf[v] = C::A128 ? sb[bfrag + (kk + v) * SB + 16 * (j >> 1) + bx4[j & 1]]
                                    : sb[bfrag + (kk + 4 * v) * SB + 8 * j];
#pragma unroll
                for (int i = 0; i < FM; i++)
                    if constexpr (C::K8) {   /* the same products as two m16n8k8 */
                        dmma8(acc[i][j], af[i][0], af[i][1], af[i][2], af[i][3], bf[0], bf[1]);
                        dmma8(acc[i][j], af[i][4], af[i][5], af[i][6], af[i][7], bf[2], bf[3]);
                    } else {
                        gkc_dmma16(acc[i][j], af[i], bf);
                    }
                if constexpr (C::INTER) {
                    int it = (kk / 16) * FN + j;
                    if (more)
#pragma unroll
                        for (int c = TOT * it / ITERS; c < TOT * (it + 1) / ITERS; c++)
                            copy1(wr, c);
                }
            }
        }
        if (C::INTER && more)
            advance();
        gkc_cp_async_commit();
        rd = rd == STAGES - 1 ? 0 : rd + 1;
        wr = wr == STAGES - 1 ? 0 : wr + 1;
    }
    gkc_cp_async_wait<0>();
    double *co = Cm + ((int64_t)by * BM + wm + g) * ldc + (int64_t)bx * BN + wn + 2 * t;
#pragma unroll
    for (int i = 0; i < FM; i++)
#pragma unroll
        for (int h = 0; h < 2; h++)
#pragma unroll
            for (int j = 0; j < FN; j++)
                *(double2 *)(co + (16 * i + 8 * h) * ldc + 8 * j) =
                    make_double2(acc[i][j][2 * h], acc[i][j][2 * h + 1]);
}

template <class C>
void mm_launch(const double *A, const double *B, double *Cm, int64_t n)
{
    static bool set = false;
    if (!set) {
        CK(cudaFuncSetAttribute(mm_tile<C>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                (int)C::SMEM));
        set = true;
    }
    dim3 grid((unsigned)(n / C::BN), (unsigned)(n / C::BM));
    mm_tile<C><<<grid, C::NT, C::SMEM>>>(A, B, Cm, n, n, n, n);
}

/* max over the matrix of |c - r| / (2 gamma_k s) (s = sum |a||b|), as the
 * bits of a non-negative double (their order is the integers'); a NaN or
 * an infinite c counts as 1e300. */
__global__ void mm_bound(const double *c, const double *r, const double *s, int64_t len,
                         double gamma2, unsigned long long *worst)
{
    double w = 0.0;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < len;
         i += (int64_t)gridDim.x * blockDim.x) {
        double e = fabs(c[i] - r[i]) / (gamma2 * s[i] + 1e-300);
        w = fmax(w, isfinite(c[i]) ? e : 1e300);
    }
    atomicMax(worst, (unsigned long long)__double_as_longlong(w));
}

__global__ void mm_abs(const double *x, double *y, int64_t len)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < len;
         i += (int64_t)gridDim.x * blockDim.x)
        y[i] = fabs(x[i]);
}

struct mm_case {
    int64_t n;
    std::vector<double> ha, hb;
    double *a, *b, *ref, *s, *c;
    unsigned long long *worst;
};

/* The check of c against cuBLAS (the bound over the whole matrix) and 64
 * long double dots; "ok (w)" with w the worst bound ratio. */
void mm_check(mm_case &q, char *out, size_t len)
{
    int64_t n = q.n, nn = n * n;
    CK(cudaMemset(q.worst, 0, sizeof *q.worst));
    double u = 0x1p-53, gamma = n * u / (1 - n * u);
    mm_bound<<<g_sms * 8, 256>>>(q.c, q.ref, q.s, nn, 2 * gamma, q.worst);
    unsigned long long wb;
    CK(cudaMemcpy(&wb, q.worst, sizeof wb, cudaMemcpyDeviceToHost));
    double w;
    memcpy(&w, &wb, sizeof w);
    double spot = 0.0;
    for (int p = 0; p < 64; p++) {
        int64_t i = (int64_t)(urand() * n), j = (int64_t)(urand() * n);
        long double dot = 0, mag = 0;
        for (int64_t l = 0; l < n; l++) {
            long double x = (long double)q.ha[i * n + l] * q.hb[l * n + j];
            dot += x;
            mag += fabsl(x);
        }
        double got;
        CK(cudaMemcpy(&got, q.c + i * n + j, sizeof got, cudaMemcpyDeviceToHost));
        double e = (double)(fabsl((long double)got - dot) / (gamma * mag));
        spot = std::max(spot, std::isfinite(got) ? e : 1e300);
    }
    bool ok = w <= 1.0 && spot <= 1.0;
    snprintf(out, len, "%s (bound %.3f, dot %.3f)", ok ? "ok" : "FAIL", w, spot);
    g_fail += !ok;
}

using mm_base = mmcfg<128, 128, 32, 64, 32, 3, 1, false, 1>;      /* the library's tile */
using mm_bk16 = mmcfg<128, 128, 32, 64, 16, 4, 1, false, 1>;
using mm_grp8 = mmcfg<128, 128, 32, 64, 32, 3, 1, false, 8>;
using mm_a128 = mmcfg<128, 128, 32, 64, 32, 3, 1, true, 1>;
using mm_a128g = mmcfg<128, 128, 32, 64, 32, 3, 1, true, 8>;
using mm_2cta = mmcfg<64, 128, 32, 64, 16, 4, 2, false, 1>;
using mm_2cta_a = mmcfg<64, 128, 32, 64, 16, 4, 2, true, 8>;
using mm_w32 = mmcfg<128, 128, 32, 32, 32, 3, 1, false, 1>;      /* 16 warps of 32 x 32 */
using mm_w32g = mmcfg<128, 128, 32, 32, 32, 3, 1, false, 8>;
using mm_nocopy = mmcfg<128, 128, 32, 64, 32, 3, 1, false, 1, false>;
/* copies spread over the DMMAs; the 64 x 128 tiles two an SM as cuBLAS's DGEMM
 * runs them on the H100 (ncu: 128 threads, 3 stages of k 16, 2 blocks an SM) */
using mm_grp8_i = mmcfg<128, 128, 32, 64, 32, 3, 1, false, 8, true, true>;
using mm_2cta_a_i = mmcfg<64, 128, 32, 64, 16, 4, 2, true, 8, true, true>;
using mm_2cta_a3 = mmcfg<64, 128, 32, 64, 16, 3, 2, true, 8>;
using mm_2cta_a3_i = mmcfg<64, 128, 32, 64, 16, 3, 2, true, 8, true, true>;
using mm_2cta_a32_i = mmcfg<64, 128, 32, 64, 32, 2, 2, true, 8, true, true>;
using mm_2cta_a3_ik8 = mmcfg<64, 128, 32, 64, 16, 3, 2, true, 8, true, true, true>;
using mm_grp8_ik8 = mmcfg<128, 128, 32, 64, 32, 3, 1, false, 8, true, true, true>;

/* The TMA candidates (the library's rung is tma_rung, dgemm_mma.cu). */
using tma_k32 = tma_cfg<128, 32, 3, 1, 1, 8>;
using tma_k16 = tma_cfg<128, 16, 6, 1, 1, 8>;
using tma_k16_plain = tma_cfg<128, 16, 6, 1, 1, 1>;
using tma_k16_lag2 = tma_cfg<128, 16, 6, 2, 1, 8>;
using tma_k16_s4 = tma_cfg<128, 16, 4, 1, 1, 8>;
using tma_k32_plain = tma_cfg<128, 32, 3, 1, 1, 1>;
using tma_2cta_k16 = tma_cfg<64, 16, 4, 1, 2, 8>;
using tma_2cta_k16_lag2 = tma_cfg<64, 16, 4, 2, 2, 8>;
using tma_2cta_k32 = tma_cfg<64, 32, 2, 1, 2, 8>;

template <class C>
void tma_run(const gkc_mm_t<double> &p)
{
    bool ran = false;
    if (dmma_tma_launch<C>(&g_bctx, p, &ran) != GPUK_OK || !ran) {
        fprintf(stderr, "dmma_tma launch failed (ran %d): %s\n", (int)ran, g_bctx.err);
        exit(2);
    }
}

/* Configuration C on small shapes with every edge, against a long double
 * dot: |c - ref| within 2 gamma_(k+1) (sum |a||b| + |bias|). */
template <class C>
bool tma_edges(const char *name)
{
    struct shape {
        int64_t m, n, k, lda, ldb, ldc, batch;
        bool bcast_a, bias;
    } cases[] = {
        {131, 77, 45, 46, 78, 77, 1, false, true},    /* every edge, bias */
        {128, 256, 64, 64, 256, 256, 1, false, false}, /* whole tiles */
        {200, 130, 33, 34, 132, 131, 1, false, true},  /* k one past a slice of 32 */
        {1, 33, 1, 2, 34, 33, 1, false, true},         /* one row, k = 1 */
        {70, 300, 17, 18, 300, 301, 3, true, false},   /* batch of 3, a broadcast */
        {96, 64, 160, 160, 64, 64, 2, false, false},   /* batch of 2, k over many slices */
    };
    bool ok = true;
    for (const shape &s : cases) {
        size_t na = (size_t)(s.m * s.lda) * (s.bcast_a ? 1 : s.batch);
        size_t nb = (size_t)(s.k * s.ldb) * s.batch, nc = (size_t)(s.m * s.ldc) * s.batch;
        std::vector<double> ha(na), hb(nb), hbias(s.n), hc(nc);
        for (auto &x : ha)
            x = 2 * urand() - 1;
        for (auto &x : hb)
            x = 2 * urand() - 1;
        for (auto &x : hbias)
            x = 2 * urand() - 1;
        double *da, *db, *dbias, *dc;
        CK(cudaMalloc(&da, na * 8));
        CK(cudaMalloc(&db, nb * 8));
        CK(cudaMalloc(&dbias, s.n * 8));
        CK(cudaMalloc(&dc, nc * 8));
        CK(cudaMemcpy(da, ha.data(), na * 8, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(db, hb.data(), nb * 8, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dbias, hbias.data(), s.n * 8, cudaMemcpyHostToDevice));
        CK(cudaMemset(dc, 0xff, nc * 8));   /* NaN: a cell not written shows */
        gkc_mm_t<double> p;
        memset(&p, 0, sizeof p);
        p.a = da, p.b = db, p.c = dc, p.bias = s.bias ? dbias : NULL;
        p.m = s.m, p.n = s.n, p.k = s.k, p.lda = s.lda, p.ldb = s.ldb, p.ldc = s.ldc;
        p.batch = s.batch;
        p.sa = s.batch > 1 && !s.bcast_a ? s.m * s.lda : 0;
        p.sb = s.batch > 1 ? s.k * s.ldb : 0;
        p.sc = s.batch > 1 ? s.m * s.ldc : 0;
        p.op = s.batch > 1 ? "batched_matmul" : "matmul";
        tma_run<C>(p);
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(hc.data(), dc, nc * 8, cudaMemcpyDeviceToHost));
        double u = 0x1p-53, gamma = (s.k + 1) * u / (1 - (s.k + 1) * u), worst = 0;
        for (int64_t z = 0; z < s.batch; z++)
            for (int64_t i = 0; i < s.m; i++)
                for (int64_t j = 0; j < s.n; j++) {
                    const double *ar = ha.data() + p.sa * z + i * s.lda;
                    const double *bz = hb.data() + p.sb * z;
                    long double dot = s.bias ? hbias[j] : 0, mag = s.bias ? fabs(hbias[j]) : 0;
                    for (int64_t l = 0; l < s.k; l++) {
                        long double x = (long double)ar[l] * bz[l * s.ldb + j];
                        dot += x;
                        mag += fabsl(x);
                    }
                    double got = hc[p.sc * z + i * s.ldc + j];
                    double e = std::isfinite(got)
                                   ? (double)(fabsl((long double)got - dot) / (2 * gamma * mag + 1e-300))
                                   : 1e300;
                    worst = std::max(worst, e);
                }
        if (worst > 1.0) {
            printf("  %-24s %lldx%lldx%lld batch %lld: FAIL (bound %.3g)\n", name,
                   (long long)s.m, (long long)s.n, (long long)s.k, (long long)s.batch, worst);
            ok = false;
        }
        CK(cudaFree(da));
        CK(cudaFree(db));
        CK(cudaFree(dbias));
        CK(cudaFree(dc));
    }
    if (ok)
        printf("  %-24s edges, bias, strides, batches  ok\n", name);
    g_fail += !ok;
    return ok;
}

void run_tma_edges()
{
    printf("\nmatmul f64 dmma_tma configurations on small shapes (long double reference)\n");
    tma_edges<tma_rung>("lib dmma_tma");
    tma_edges<tma_k32>("tma k32 s3 grp8");
    tma_edges<tma_k16>("tma k16 s6 grp8");
    tma_edges<tma_k16_plain>("tma k16 s6");
    tma_edges<tma_k16_lag2>("tma k16 s6 lag2 grp8");
    tma_edges<tma_k16_s4>("tma k16 s4 grp8");
    tma_edges<tma_k32_plain>("tma k32 s3");
    tma_edges<tma_2cta_k16>("tma 64x128 x2 k16 s4");
    tma_edges<tma_2cta_k16_lag2>("tma 64x128 x2 k16 lag2");
    tma_edges<tma_2cta_k32>("tma 64x128 x2 k32 s2");
}

void run_matmul(int64_t n)
{
    mm_case q;
    q.n = n;
    int64_t nn = n * n;
    q.ha.resize(nn);
    q.hb.resize(nn);
    for (auto &x : q.ha)
        x = 2 * urand() - 1;
    for (auto &x : q.hb)
        x = 2 * urand() - 1;
    size_t bytes = (size_t)nn * sizeof(double);
    CK(cudaMalloc(&q.a, bytes));
    CK(cudaMalloc(&q.b, bytes));
    CK(cudaMalloc(&q.ref, bytes));
    CK(cudaMalloc(&q.s, bytes));
    CK(cudaMalloc(&q.c, bytes));
    CK(cudaMalloc(&q.worst, sizeof *q.worst));
    CK(cudaMemcpy(q.a, q.ha.data(), bytes, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(q.b, q.hb.data(), bytes, cudaMemcpyHostToDevice));
    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "cublasCreate failed\n");
        exit(2);
    }
    const double one = 1.0, zero = 0.0;
    int ni = (int)n;
    /* row-major c = a b is column-major c^T = b^T a^T */
    auto gemm = [&](const double *a, const double *b, double *c) {
        cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, ni, ni, ni, &one, b, ni, a, ni, &zero, c, ni);
    };
    double flops = 2.0 * n * n * n;
    char shape[32], chk[96];
    snprintf(shape, sizeof shape, "%lld^3", (long long)n);
    double ms_blas = time_ms([&] { gemm(q.a, q.b, q.ref); });
    {   /* s = |a| |b| through the same DGEMM, into q.s (q.c holds the copies meanwhile) */
        double *absa = q.c, *absb = NULL;
        CK(cudaMalloc(&absb, bytes));
        mm_abs<<<g_sms * 8, 256>>>(q.a, absa, nn);
        mm_abs<<<g_sms * 8, 256>>>(q.b, absb, nn);
        gemm(absa, absb, q.s);
        CK(cudaDeviceSynchronize());
        CK(cudaFree(absb));
    }
    header("matmul f64", "TFLOP/s", "cuBLAS");
    CK(cudaMemcpy(q.c, q.ref, bytes, cudaMemcpyDeviceToDevice));
    mm_check(q, chk, sizeof chk);
    row("cublas", shape, ms_blas, flops / ms_blas * 1e-9, 100.0, 0, chk);
    /* F64TUNE_ONLY=text: only the rows whose name holds it (and cuBLAS), so
     * that a profiler sees one candidate's kernel */
    const char *only = getenv("F64TUNE_ONLY");
    auto wanted = [&](const char *name) { return !only || strstr(name, only); };
    /* the library's dmma through its own entry point */
    if (wanted("lib dmma")) {
        gpuk_args args = dense_args(GPUK_OP_MATMUL, q.a, q.b, q.c, n, n, n);
        CK(cudaMemset(q.c, 0xff, bytes));
        double ms = time_ms([&] { lib_call(gkc_matmul_dmma, &args); });
        mm_check(q, chk, sizeof chk);
        row("lib dmma", shape, ms, flops / ms * 1e-9, 100.0 * ms_blas / ms,
            regs_of(matmul_dmma<true, true>), chk);
    }
    auto cand = [&](const char *name, auto launch, int regs, bool diag) {
        if (!wanted(name))
            return;
        CK(cudaMemset(q.c, 0xff, bytes));
        double ms = time_ms(launch);
        if (diag)
            snprintf(chk, sizeof chk, "diag (not a product)");
        else
            mm_check(q, chk, sizeof chk);
        row(name, shape, ms, flops / ms * 1e-9, 100.0 * ms_blas / ms, regs, chk);
    };
#define MM_CAND(name, cfg, diag)                                                           \
    cand(name, [&] { mm_launch<cfg>(q.a, q.b, q.c, n); }, regs_of(mm_tile<cfg>), diag)
    MM_CAND("base 128x128 k32 s3", mm_base, false);
    MM_CAND("bk16 s4", mm_bk16, false);
    MM_CAND("grp8", mm_grp8, false);
    MM_CAND("a128", mm_a128, false);
    MM_CAND("a128 grp8", mm_a128g, false);
    MM_CAND("64x128 x2/SM k16 s4", mm_2cta, false);
    MM_CAND("64x128 x2/SM a128 grp8", mm_2cta_a, false);
    MM_CAND("w32x32 t512", mm_w32, false);
    MM_CAND("w32x32 t512 grp8", mm_w32g, false);
    MM_CAND("base nocopy", mm_nocopy, true);
    MM_CAND("grp8 inter", mm_grp8_i, false);
    MM_CAND("64x128 x2 a128 grp8 inter", mm_2cta_a_i, false);
    MM_CAND("64x128 x2 a128 grp8 s3", mm_2cta_a3, false);
    MM_CAND("64x128 x2 a128 grp8 s3 inter", mm_2cta_a3_i, false);
    MM_CAND("64x128 x2 a128 k32 s2 inter", mm_2cta_a32_i, false);
    MM_CAND("64x128 x2 a128 grp8 s3 inter k8", mm_2cta_a3_ik8, false);
    MM_CAND("grp8 inter k8", mm_grp8_ik8, false);
#undef MM_CAND
    if (wanted("lib dmma_tma")) {   /* the library's dmma_tma through its own entry point */
        gpuk_args args = dense_args(GPUK_OP_MATMUL, q.a, q.b, q.c, n, n, n);
        CK(cudaMemset(q.c, 0xff, bytes));
        double ms = time_ms([&] { lib_call(gkc_matmul_dmma_tma, &args); });
        mm_check(q, chk, sizeof chk);
        row("lib dmma_tma", shape, ms, flops / ms * 1e-9, 100.0 * ms_blas / ms,
            regs_of(matmul_dmma_tma<tma_rung>), chk);
    }
    gpuk_args targs = dense_args(GPUK_OP_MATMUL, q.a, q.b, q.c, n, n, n);
    gkc_mm_t<double> tp = gkc_mm_from<double>(&targs);
#define TMA_CAND(name, cfg)                                                                \
    cand(name, [&] { tma_run<cfg>(tp); }, regs_of(matmul_dmma_tma<cfg>), false)
    TMA_CAND("tma k32 s3 grp8", tma_k32);
    TMA_CAND("tma k32 s3", tma_k32_plain);
    TMA_CAND("tma k16 s6 grp8", tma_k16);
    TMA_CAND("tma k16 s6", tma_k16_plain);
    TMA_CAND("tma k16 s6 lag2 grp8", tma_k16_lag2);
    TMA_CAND("tma k16 s4 grp8", tma_k16_s4);
    TMA_CAND("tma 64x128 x2 k16 s4 grp8", tma_2cta_k16);
    TMA_CAND("tma 64x128 x2 k16 lag2", tma_2cta_k16_lag2);
    TMA_CAND("tma 64x128 x2 k32 s2 grp8", tma_2cta_k32);
#undef TMA_CAND
    cublasDestroy(h);
    CK(cudaFree(q.a));
    CK(cudaFree(q.b));
    CK(cudaFree(q.ref));
    CK(cudaFree(q.s));
    CK(cudaFree(q.c));
    CK(cudaFree(q.worst));
}

}  // namespace tune

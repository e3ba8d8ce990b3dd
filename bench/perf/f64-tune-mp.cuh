/*
 * f64-tune-mp.cuh - f64-tune.cu's min-plus half: candidate f64 tiles
 * beside the library's pipelined rung (what each tests and the
 * predictions: bench/NOTES.md, "f64 tuning").
 *
 * One kernel template, mp_tile<C>, the library's tile (minplus_pipe.cu:
 * 128 x 128 outputs a block, the step sr_f64_lt, k slices through cp.async
 * stages) with the lane tile and the block's threads as parameters: a lane
 * holds LR x LC outputs, rows lm + 4r and columns ln + c (+ 32 for c >= 4)
 * of its warp's 4 LR x 8 LC piece (gkc_pipe::lane_tile's layout), and
 * NTH = 32 x (128 / 4 LR) x (128 / 8 LC) threads fill the block.  8 x 8 on
 * 256 threads is the library's tile (128 registers of accumulators a lane:
 * 8 warps an SM); 8 x 4 or 4 x 8 on 512 threads keep the block's 128 x 128
 * outputs in the same registers spread over 16 warps an SM, for the
 * latency the 8 warps cannot hide, at 3/16 instead of 1/8 shared loads a
 * step.  KP: k a slice; COPY false leaves the copies past the prologue out
 * (a diagnostic).  Each candidate runs between the library's own zero-sign
 * scans and fix (negzero_scan, negzero_fix), so its output must equal the
 * rung's bit for bit.  Only whole tiles (m, n multiples of 128, k of KP).
 */
namespace tune {

template <int LR_, int LC_, int KP_, int STAGES_, class ST_ = st_fsel, bool COPY_ = true>
struct mpcfg {
    using ST = ST_;
    static constexpr int LR = LR_, LC = LC_, KP = KP_, STAGES = STAGES_;
    static constexpr bool COPY = COPY_;
    static constexpr int WR = 4 * LR, WC = 8 * LC;             /* a warp's rows, columns */
    static constexpr int WARPS_N = 128 / WC, NTH = (128 / WR) * WARPS_N * 32;
    static constexpr int SA = KP + 4, SB = 128;                /* as minplus_pipe.cu's geom */
    static constexpr int A_EL = 128 * SA, ST_EL = A_EL + KP * SB;
    static constexpr size_t SMEM = (size_t)STAGES * ST_EL * sizeof(double);
    static constexpr int ACP = 128 * KP / 2 / NTH, BCP = KP * 128 / 2 / NTH;
    static_assert(LC == 4 || LC == 8, "a lane's columns come in 16-byte pairs of pairs");
    static_assert(ACP * NTH * 2 == 128 * KP && BCP * NTH * 2 == 128 * KP, "copies must divide");
};

template <class C>
__global__ void __launch_bounds__(C::NTH, 1)
    mp_tile(const double *__restrict__ A, const double *__restrict__ B, double *__restrict__ R,
            int64_t k, int64_t lda, int64_t ldb, int64_t ldr)
{
    constexpr int LR = C::LR, LC = C::LC, KP = C::KP, SA = C::SA, NTH = C::NTH;
    constexpr int STAGES = C::STAGES;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    double *sm = reinterpret_cast<double *>(smem_raw);
    int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    int wm = (warp / C::WARPS_N) * C::WR, wn = (warp % C::WARPS_N) * C::WC;
    int lm = lane >> 3, ln = (lane & 7) * 4;
    const double *ga = A + (int64_t)blockIdx.y * 128 * lda, *gb = B + (int64_t)blockIdx.x * 128;
    auto load = [&](int st, int64_t kb) {
        double *sa = sm + st * C::ST_EL, *sb = sa + C::A_EL;
#pragma unroll
        for (int q = 0; q < C::ACP; q++) {
            int idx = tid + q * NTH, r = idx / (KP / 2), c = idx % (KP / 2);
            gkc_cp_async16(sa + r * SA + 2 * c, ga + r * lda + kb + 2 * c, 16);
        }
#pragma unroll
        for (int q = 0; q < C::BCP; q++) {
            int idx = tid + q * NTH, r = idx / 64, c = idx % 64;
            gkc_cp_async16(sb + r * C::SB + 2 * c, gb + (kb + r) * ldb + 2 * c, 16);
        }
    };
    double v[LR][LC];
#pragma unroll
    for (int r = 0; r < LR; r++)
#pragma unroll
        for (int c = 0; c < LC; c++)
            v[r][c] = sr_f64_lt::inf();
    int64_t nk = k / KP;
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < nk)
            load(s, s * KP);
        gkc_cp_async_commit();
    }
    int rd = 0, wr = STAGES - 1;
    for (int64_t ks = 0; ks < nk; ks++) {
        gkc_cp_async_wait<STAGES - 2>();
        __syncthreads();
        if (C::COPY && ks + STAGES - 1 < nk)
            load(wr, (ks + STAGES - 1) * KP);
        gkc_cp_async_commit();
        const double *as = sm + rd * C::ST_EL, *bs = as + C::A_EL;
#pragma unroll
        for (int kc = 0; kc < KP; kc += 2) {
            double2 a[LR];
#pragma unroll
            for (int r = 0; r < LR; r++)
                a[r] = *(const double2 *)&as[(wm + lm + 4 * r) * SA + kc];
#pragma unroll
            for (int kk = 0; kk < 2; kk++) {
                const double *brow = bs + (kc + kk) * C::SB + wn + ln;
                double y[LC];
                gkc_ld4(y, brow);
                if constexpr (LC == 8)
                    gkc_ld4(y + 4, brow + 32);
#pragma unroll
                for (int r = 0; r < LR; r++) {
                    double x = kk ? a[r].y : a[r].x;
#pragma unroll
                    for (int c = 0; c < LC; c++)
                        v[r][c] = C::ST::step(v[r][c], x, y[c]);
                }
            }
        }
        rd = rd == STAGES - 1 ? 0 : rd + 1;
        wr = wr == STAGES - 1 ? 0 : wr + 1;
    }
    gkc_cp_async_wait<0>();
#pragma unroll
    for (int r = 0; r < LR; r++) {
        double *o = R + ((int64_t)blockIdx.y * 128 + wm + lm + 4 * r) * ldr +
                    (int64_t)blockIdx.x * 128 + wn + ln;
        gkc_st4(o, &v[r][0]);
        if constexpr (LC == 8)
            gkc_st4(o + 32, &v[r][4]);
    }
}

/* A candidate as the rung runs: the zero-sign scans, the tile, the fix
 * (the library's kernels around this tile). */
template <class C>
void mp_launch(const double *a, const double *b, double *r, int64_t m, int64_t n, int64_t k,
               int *flag)
{
    static bool set = false;
    if (!set) {
        CK(cudaFuncSetAttribute(mp_tile<C>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                (int)C::SMEM));
        set = true;
    }
    CK(cudaMemsetAsync(flag, 0, sizeof(int)));
    negzero_scan<<<pack_grid(m, k), 256>>>(a, m, k, k, 1, flag);
    negzero_scan<<<pack_grid(k, n), 256>>>(b, k, n, n, 2, flag);
    mp_tile<C><<<dim3((unsigned)(n / 128), (unsigned)(m / 128)), C::NTH, C::SMEM>>>(a, b, r, k, k,
                                                                                    n, n);
    gkc_mm_t<double> p = {};
    p.a = a, p.b = b, p.c = r;
    p.m = m, p.n = n, p.k = k, p.lda = k, p.ldb = n, p.ldc = n;
    negzero_fix<<<dim3((unsigned)gkc_cdiv(n, FIX), (unsigned)gkc_cdiv(m, FIX)), dim3(FIX, FIX)>>>(
        p, flag, 0);
}

/* Outputs whose bits differ between x and y. */
__global__ void mp_diff(const double *x, const double *y, int64_t len, unsigned long long *count)
{
    unsigned long long d = 0;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < len;
         i += (int64_t)gridDim.x * blockDim.x)
        d += __double_as_longlong(x[i]) != __double_as_longlong(y[i]);
    atomicAdd(count, d);
}

using mp_base = mpcfg<8, 8, 16, 3>;     /* the library's tile */
using mp_8x4 = mpcfg<8, 4, 16, 3>;
using mp_4x8 = mpcfg<4, 8, 16, 3>;
using mp_k32 = mpcfg<8, 8, 32, 3>;
using mp_8x4sel = mpcfg<8, 4, 16, 3, st_sel>;
using mp_8x4mix = mpcfg<8, 4, 16, 3, st_mix>;
using mp_nocopy = mpcfg<8, 8, 16, 3, st_fsel, false>;
using mp_8x4nocopy = mpcfg<8, 4, 16, 3, st_fsel, false>;

/* One shape: the rung's output, then each candidate's against it.  fill
 * makes a value of a or b; time_it false checks only. */
struct mp_run {
    int64_t m, n, k;
    double *a, *b, *ref, *r;
    int *flag;
    unsigned long long *count;
    double ms_lib = 0;
};

template <class F>
void mp_setup(mp_run &s, F fill)
{
    std::vector<double> ha(s.m * s.k), hb(s.k * s.n);
    for (auto &x : ha)
        x = fill();
    for (auto &x : hb)
        x = fill();
    CK(cudaMalloc(&s.a, ha.size() * sizeof(double)));
    CK(cudaMalloc(&s.b, hb.size() * sizeof(double)));
    CK(cudaMalloc(&s.ref, (size_t)(s.m * s.n) * sizeof(double)));
    CK(cudaMalloc(&s.r, (size_t)(s.m * s.n) * sizeof(double)));
    CK(cudaMalloc(&s.count, sizeof *s.count));
    CK(cudaMemcpy(s.a, ha.data(), ha.size() * sizeof(double), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(s.b, hb.data(), hb.size() * sizeof(double), cudaMemcpyHostToDevice));
    /* the rung through its own entry point (its flag lives in the context's scratch) */
    gpuk_args args = dense_args(GPUK_OP_MINPLUS, s.a, s.b, s.ref, s.m, s.n, s.k);
    s.ms_lib = time_ms([&] { lib_call(gkc_minplus_pipelined, &args); });
    void *flag = NULL;
    if (gkc_scratch(&g_bctx, GKC_SLOT_A, sizeof(int), &flag) != GPUK_OK)
        exit(2);
    s.flag = (int *)flag;
}

void mp_free(mp_run &s)
{
    CK(cudaFree(s.a));
    CK(cudaFree(s.b));
    CK(cudaFree(s.ref));
    CK(cudaFree(s.r));
    CK(cudaFree(s.count));
}

/* Run candidate C on s (timed when time_it), its check into chk. */
template <class C>
double mp_try(mp_run &s, bool time_it, bool diag, char *chk, size_t len)
{
    CK(cudaMemset(s.r, 0xff, (size_t)(s.m * s.n) * sizeof(double)));
    auto go = [&] { mp_launch<C>(s.a, s.b, s.r, s.m, s.n, s.k, s.flag); };
    double ms = 0;
    if (time_it)
        ms = time_ms(go);
    else {
        go();
        CK(cudaDeviceSynchronize());
    }
    if (diag) {
        snprintf(chk, len, "diag (not a result)");
        return ms;
    }
    CK(cudaMemset(s.count, 0, sizeof *s.count));
    mp_diff<<<g_sms * 8, 256>>>(s.r, s.ref, s.m * s.n, s.count);
    unsigned long long d;
    CK(cudaMemcpy(&d, s.count, sizeof d, cudaMemcpyDeviceToHost));
    snprintf(chk, len, d ? "FAIL: %llu outputs differ from the rung" : "ok (bit-exact)", d);
    g_fail += d != 0;
    return ms;
}

#define MP_CANDIDATES(X)                                                                   \
    X("base 8x8 t256 k16", mp_base, false)                                                 \
    X("8x4 t512 k16", mp_8x4, false)                                                       \
    X("4x8 t512 k16", mp_4x8, false)                                                       \
    X("8x8 t256 k32", mp_k32, false)                                                       \
    X("8x4 t512 k16 sel", mp_8x4sel, false)                                                \
    X("8x4 t512 k16 sel+fsel", mp_8x4mix, false)                                           \
    X("8x8 t256 nocopy", mp_nocopy, true)                                                  \
    X("8x4 t512 nocopy", mp_8x4nocopy, true)

/* The rules on small shapes: values from {NaN, +-inf, +-0, small}, then
 * nothing but +-0 (every output a tie the zero-sign pass settles). */
void run_minplus_rules()
{
    printf("\nmin-plus f64 rules (each candidate bit for bit against the rung)\n");
    for (int set = 0; set < 2; set++) {
        mp_run s;
        s.m = 384, s.n = 256, s.k = 160;
        mp_setup(s, [&] {
            double u = urand(), w = urand();
            if (set == 1)
                return u < 0.5 ? -0.0 : 0.0;
            return u < 0.05 ? NAN : u < 0.08 ? INFINITY : u < 0.10 ? -INFINITY
                 : u < 0.25 ? 0.0 : u < 0.40 ? -0.0 : (double)(int)(8 * w) - 4.0;
        });
        char chk[96];
        const char *what = set ? "+-0 only" : "NaN inf +-0";
#define MP_RULE(name, cfg, diag)                                                           \
    if (!diag) {                                                                           \
        mp_try<cfg>(s, false, false, chk, sizeof chk);                                     \
        printf("  %-24s %-12s %s\n", name, what, chk);                                     \
    }
        MP_CANDIDATES(MP_RULE)
#undef MP_RULE
        mp_free(s);
    }
}

void run_minplus(int64_t n)
{
    if (g_addmin_ceiling == 0) {
        double *out;
        int blocks = g_sms * 8 * 2;
        CK(cudaMalloc(&out, (size_t)blocks * 256 * sizeof(double)));
        double ms = time_ms([&] { addmin_uniform<<<blocks, 256>>>(out, 0.5, 3.0); });
        g_addmin_ceiling = (double)blocks * 256 * CH_STEPS * CH * 2 / ms * 1e-6;
        CK(cudaFree(out));
    }
    mp_run s;
    s.m = s.n = s.k = n;
    mp_setup(s, [] {
        double u = urand();
        return u < 0.01 ? NAN : u < 0.015 ? INFINITY : 200.0 * urand() - 100.0;
    });
    char shape[32], chk[96];
    snprintf(shape, sizeof shape, "%lld^3", (long long)n);
    double ops = 2.0 * n * n * n, ceil_gops = g_addmin_ceiling;
    header("min-plus f64", "Tops", "ceiling");
    row("lib pipelined", shape, s.ms_lib, ops / s.ms_lib * 1e-9,
        100.0 * ops / s.ms_lib * 1e-6 / ceil_gops,
        regs_of(minplus_tile<sr_f64_lt, to_r<sr_f64_lt>, true, false>), "reference");
#define MP_ROW(name, cfg, diag)                                                            \
    {                                                                                      \
        double ms = mp_try<cfg>(s, true, diag, chk, sizeof chk);                           \
        row(name, shape, ms, ops / ms * 1e-9, 100.0 * ops / ms * 1e-6 / ceil_gops,         \
            regs_of(mp_tile<cfg>), chk);                                                   \
    }
    MP_CANDIDATES(MP_ROW)
#undef MP_ROW
    mp_free(s);
}

}  // namespace tune

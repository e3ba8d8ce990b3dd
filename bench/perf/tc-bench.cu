/*
 * tc-bench.cu - checks and times the tensor-core matrix products of issue 27
 * through libgpuk's public API (gpuk_matmul, gpuk_batched_matmul, gpuk_gemm
 * on f16 and bf16 tensors, f32 matmul for the TF32 rungs):
 *
 *   check  every rung of the three ops in f16 and bf16 on shapes that reach
 *          every path: partial tiles with 16-byte rows (the TMA rungs' own
 *          code), odd shapes and strides and a misaligned view (their
 *          fallbacks), matrices smaller than one box, more tiles than SMs,
 *          k = 0, bias, f32 and 16-bit c, broadcast batches, GEMM's four
 *          transposes with alpha and beta, alpha = 0; the TF32 rungs too;
 *   time   every matmul rung at 2048^3, 4096^3 and 8192^3 (16-bit c) and
 *          the TF32 rungs, then bf16 and TF32 at 2048 x 16384 x 2048
 *          (the mainloop's rate apart from a call's fixed cost), checked
 *          on sampled outputs: TFLOP/s, % of the
 *          cuBLAS row of the dtype (cublas_tf32 for TF32), % of the
 *          backend's tensor-core ceiling (gpuk_peak_measure; else "n/a").
 *
 * Inputs are random in [-1, 1), never zero, rounded to the dtype here
 * (round to nearest even, checked against CUDA's own conversions first);
 * the reference sums in double from the rounded values; an output passes
 * within 2 gamma_K(2^-24) sum |a||b| (K = k, + 1 for a bias, + 2 for
 * alpha and beta: doc/design.md, "Tolerances") plus one rounding to c's
 * dtype, and for TF32 within 2 (2u + u^2 + gamma_K(2^-24) (1 + u)^2) sum
 * |a||b|, u = 2^-11.  Times: the median of 5 timed runs after a warm-up,
 * each run enough back-to-back calls to last 2 ms, on the context's clock.
 *
 * Build (not built by make) from a configured, built tree BUILD:
 *   nvcc -O2 -std=c++17 -arch=sm_90 -I include bench/perf/tc-bench.cu \
 *        -L BUILD/src/.libs -lgpuk -o BUILD/tc-bench
 * Run (about a minute on an H100):
 *   LD_LIBRARY_PATH=BUILD/src/.libs \
 *   GPUK_BACKEND_PATH=BUILD/backends/cpu/.libs:BUILD/backends/cuda/.libs \
 *   BUILD/tc-bench [check] [time]     (default: both)
 * Exit status 1 when a check fails or a call returns an error.
 */
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <gpuk.h>

namespace {

int failures = 0;
gpuk_context *ctx = NULL;

/* A call that must succeed: the bench stops (status 1) on any other. */
void ok(gpuk_status st, int line, const char *what)
{
    if (st == GPUK_OK)
        return;
    fprintf(stderr, "tc-bench.cu:%d: %s: %s (%s)\n", line, what, gpuk_strerror(st),
            gpuk_context_error(ctx));
    exit(1);
}
#define OK(call) ok((call), __LINE__, #call)

uint64_t rng_state = 0x9E3779B97F4A7C15ull;
uint64_t rng()   /* xorshift64* */
{
    rng_state ^= rng_state >> 12, rng_state ^= rng_state << 25, rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}
float urand()   /* uniform in [-1, 1), never 0 */
{
    float x = (float)((double)(rng() >> 40) / (double)(1ull << 23) - 1.0);
    return x == 0.0f ? 0.5f : x;
}

uint32_t bits(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }
float from_bits(uint32_t u) { float x; memcpy(&x, &u, 4); return x; }
/* f32 -> bf16, round to nearest even; NaN stays a (quiet) NaN */
uint16_t to_bf16(float x)
{
    uint32_t u = bits(x);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((u >> 16) | 0x40);
    u += 0x7fffu + ((u >> 16) & 1);
    return (uint16_t)(u >> 16);
}

/* f32 -> f16, round to nearest even: 65520 and above overflow to infinity,
 * below 2^-14 the subnormal steps of 2^-24 */
uint16_t to_f16(float x)
{
    uint32_t u = bits(x), a = u & 0x7fffffffu;
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    if (a > 0x7f800000u)
        return sign | 0x7e00;
    if (a >= 0x477ff000u)   /* 65520 */
        return sign | 0x7c00;
    if (a < 0x38800000u)    /* 2^-14: subnormal, an exact multiple of 2^-24 after rounding */
        return sign | (uint16_t)nearbyint((double)from_bits(a) * 16777216.0);
    uint32_t m = a & 0x7fffffu, h = ((a >> 23) - 112) << 10 | (m >> 13), rem = m & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1)))
        h++;
    return sign | (uint16_t)h;
}

float bf16_value(uint16_t h) { return from_bits((uint32_t)h << 16); }
float f16_value(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY)
                                                       : ldexpf((float)(m | 1024), e - 25);
    return (h & 0x8000) ? -v : v;
}

/* The conversions above against CUDA's host conversions. */
void check_conversions()
{
    const float edge[] = {0.0f, 65504.0f, 65519.99f, 65520.0f, 1e-8f, 5.96e-8f, 2.98e-8f,
                          6.1e-5f, 3.0e38f, INFINITY, 1.0f + 1e-3f};
    int bad = 0;
    for (int i = 0; i < 2000000; i++) {
        /* the edges with both signs, then random bits: every exponent, NaN too */
        float x = i < 22 ? edge[i % 11] * (i < 11 ? 1.0f : -1.0f) : from_bits((uint32_t)rng());
        __nv_bfloat16 b = __float2bfloat16_rn(x);
        __half h = __float2half_rn(x);
        uint16_t bb, hh;
        memcpy(&bb, &b, 2);
        memcpy(&hh, &h, 2);
        bool nan = x != x;
        if (((nan ? (to_bf16(x) & 0x7fff) <= 0x7f80 : to_bf16(x) != bb) ||
             (nan ? (to_f16(x) & 0x7fff) <= 0x7c00 : to_f16(x) != hh)) && bad++ < 5)
            printf("    conversion of %a: bf16 %04x (cuda %04x), f16 %04x (cuda %04x)\n", x,
                   to_bf16(x), bb, to_f16(x), hh);
    }
    printf("check conversions f32 -> bf16, f16 against cuda_bf16.h/cuda_fp16.h: %s\n",
           bad ? "FAIL" : "ok");
    failures += bad != 0;
}

struct hmat {   /* host matrices of dtype dt: their 16-bit storage (not for f32), values */
    gpuk_dtype dt;
    std::vector<uint16_t> h;
    std::vector<float> v;
};

hmat make_host(gpuk_dtype dt, size_t n)
{
    hmat m{dt, std::vector<uint16_t>(dt == GPUK_F32 ? 0 : n), std::vector<float>(n)};
    for (size_t i = 0; i < n; i++) {
        float x = urand();
        if (dt == GPUK_F32) {
            m.v[i] = x;
            continue;
        }
        m.h[i] = dt == GPUK_BF16 ? to_bf16(x) : to_f16(x);
        m.v[i] = dt == GPUK_BF16 ? bf16_value(m.h[i]) : f16_value(m.h[i]);
    }
    return m;
}

const void *host_data(const hmat &m)
{
    return m.dt == GPUK_F32 ? (const void *)m.v.data() : (const void *)m.h.data();
}

/* A device tensor of `count` matrices rows x cols stored with row stride ld
 * (>= cols), `offset` elements into a larger buffer: a view, so rows may be
 * padded and the start misaligned.  count 0: a 2-D matrix. */
struct dview { gpuk_tensor *base = NULL, *t = NULL; };
dview make_view(gpuk_dtype dt, int64_t count, int64_t rows, int64_t cols, int64_t ld,
                int64_t offset, const hmat *src)
{
    int64_t nb = count ? count : 1, total = offset + nb * rows * ld;
    int64_t shape[3] = {count, rows, cols}, strides[3] = {rows * ld, ld, 1};
    int nd = count ? 3 : 2, first = count ? 0 : 1;
    dview d;
    if (rows * cols == 0) {   /* k = 0: a plain empty tensor, nothing to write */
        OK(gpuk_tensor_create(ctx, dt, nd, shape + first, &d.t));
        return d;
    }
    OK(gpuk_tensor_create(ctx, dt, 1, &total, &d.base));
    OK(gpuk_tensor_view(ctx, d.base, nd, shape + first, strides + first, offset, &d.t));
    if (src)
        OK(gpuk_tensor_write(ctx, d.t, host_data(*src), (size_t)(nb * rows * cols) *
                                                            gpuk_dtype_size(dt)));
    return d;
}
void drop(dview &d)
{
    gpuk_tensor_destroy(ctx, d.t);
    gpuk_tensor_destroy(ctx, d.base);
}

/* Read an output of n elements as floats. */
std::vector<float> read_out(gpuk_tensor *t, gpuk_dtype dt, size_t n)
{
    std::vector<float> out(n);
    std::vector<uint16_t> h(dt == GPUK_F32 ? 0 : n);
    OK(gpuk_tensor_read(ctx, t, dt == GPUK_F32 ? (void *)out.data() : (void *)h.data(),
                        n * gpuk_dtype_size(dt)));
    for (size_t i = 0; i < h.size(); i++)
        out[i] = dt == GPUK_BF16 ? bf16_value(h[i]) : f16_value(h[i]);
    return out;
}

/* Fill an output with NaN (f32 or 16-bit), so that a rung that writes
 * nothing fails. */
void poison(gpuk_tensor *t, gpuk_dtype dt, size_t n)
{
    std::vector<float> x(dt == GPUK_F32 ? n : 0, NAN);
    std::vector<uint16_t> h(dt == GPUK_F32 ? 0 : n, 0x7fff);
    OK(gpuk_tensor_write(ctx, t, dt == GPUK_F32 ? (void *)x.data() : (void *)h.data(),
                         n * gpuk_dtype_size(dt)));
}

std::vector<std::string> rungs(gpuk_op op, gpuk_dtype dt)
{
    size_t n = 0;
    OK(gpuk_variant_count_dtype(ctx, op, dt, &n));
    std::vector<std::string> v;
    for (size_t i = 0; i < n; i++) {
        gpuk_variant_info vi;
        OK(gpuk_variant_get_dtype(ctx, op, dt, i, &vi));
        v.push_back(vi.name);
    }
    return v;
}

/* c = alpha op(a) op(b) + beta c (+ bias): a stored [ba][ta ? k : m][ta ? m : k], b likewise */
struct spec {
    gpuk_op op;
    gpuk_dtype dt, out;
    int64_t batch, ba, bb, m, k, n;
    int ta, tb;
    bool bias;
    double alpha, beta;
    int64_t pad, offset;   /* extra elements per stored row of a and b; a's start offset */
    bool tf32;             /* the TF32 bound (f32 inputs, TF32 rungs) */
};

double gamma_k(double k, double u) { return k * u / (1 - k * u); }
struct problem {
    spec s;
    hmat a, b, bias, c0;
    int64_t ra, ca, rb, cb;         /* stored shapes of one matrix of a and of b */
    std::vector<float> arow, bcol;  /* op(a) by rows and op(b) by columns: [batch][m or n][k] */
    dview da, db, dbias, dc;

    /* reference and bound of output (z, i, j) */
    void ref(int64_t z, int64_t i, int64_t j, double *r, double *bound) const
    {
        const float *x = arow.data() + ((s.ba > 1 ? z : 0) * s.m + i) * s.k;
        const float *y = bcol.data() + ((s.bb > 1 ? z : 0) * s.n + j) * s.k;
        double sum = 0, mag = 0;
        for (int64_t q = 0; q < s.k; q++)
            sum += (double)x[q] * y[q], mag += fabs((double)x[q] * y[q]);
        double K = (double)s.k + (s.op == GPUK_OP_GEMM ? 2 : s.bias ? 1 : 0);
        if (s.op == GPUK_OP_GEMM) {
            double old = s.beta != 0 ? s.beta * c0.v[(z * s.m + i) * s.n + j] : 0;
            sum = s.alpha * sum + old, mag = fabs(s.alpha) * mag + fabs(old);
        } else if (s.bias) {
            sum += bias.v[j], mag += fabs(bias.v[j]);
        }
        const double u = 0x1p-11, g = gamma_k(K, 0x1p-24);
        double e = 2 * (s.tf32 ? 2 * u + u * u + g * (1 + u) * (1 + u) : g) * mag;
        *r = sum;
        double uc = s.out == GPUK_BF16 ? 0x1p-8 : s.out == GPUK_F16 ? 0x1p-11 : 0x1p-24;
        *bound = e + uc * (fabs(sum) + e) + 1e-30;   /* + one rounding to c's dtype */
    }
};

problem setup(const spec &s)
{
    problem p;
    p.s = s;
    p.ra = s.ta ? s.k : s.m, p.ca = s.ta ? s.m : s.k;
    p.rb = s.tb ? s.n : s.k, p.cb = s.tb ? s.k : s.n;
    p.a = make_host(s.dt, (size_t)(s.ba * p.ra * p.ca));
    p.b = make_host(s.dt, (size_t)(s.bb * p.rb * p.cb));
    /* the reference's operands, contiguous along k: row i of op(a), column j of op(b) */
    auto along_k = [&](std::vector<float> &dst, const hmat &src, int64_t nb, int64_t rows,
                       bool k_fast) {
        dst.resize((size_t)(nb * rows * s.k));
        for (int64_t z = 0; z < nb; z++)
            for (int64_t r = 0; r < rows; r++)
                for (int64_t q = 0; q < s.k; q++)
                    dst[(z * rows + r) * s.k + q] =
                        src.v[z * rows * s.k + (k_fast ? r * s.k + q : q * rows + r)];
    };
    along_k(p.arow, p.a, s.ba, s.m, !s.ta);
    along_k(p.bcol, p.b, s.bb, s.n, s.tb);
    bool batched = s.op == GPUK_OP_BATCHED_MATMUL;
    p.da = make_view(s.dt, batched ? s.ba : 0, p.ra, p.ca, p.ca + s.pad, s.offset, &p.a);
    p.db = make_view(s.dt, batched ? s.bb : 0, p.rb, p.cb, p.cb + s.pad, 0, &p.b);
    p.dc = make_view(s.out, batched ? s.batch : 0, s.m, s.n, s.n, 0, NULL);
    if (s.bias) {
        p.bias = make_host(s.out, (size_t)s.n);
        OK(gpuk_tensor_create(ctx, s.out, 1, &s.n, &p.dbias.t));
        OK(gpuk_tensor_write(ctx, p.dbias.t, host_data(p.bias),
                             (size_t)s.n * gpuk_dtype_size(s.out)));
    }
    if (s.op == GPUK_OP_GEMM)
        p.c0 = make_host(s.out, (size_t)(s.m * s.n));
    return p;
}

void teardown(problem &p)
{
    for (dview *d : {&p.da, &p.db, &p.dc, &p.dbias})
        drop(*d);
}

/* c as the op starts it: NaN, or for GEMM its initial value */
void reset_out(problem &p)
{
    size_t n = (size_t)(p.s.batch * p.s.m * p.s.n);
    if (p.s.op == GPUK_OP_GEMM)
        OK(gpuk_tensor_write(ctx, p.dc.t, host_data(p.c0), n * gpuk_dtype_size(p.s.out)));
    else
        poison(p.dc.t, p.s.out, n);
}

gpuk_status call(problem &p, const char *rung)
{
    const spec &s = p.s;
    if (s.op == GPUK_OP_MATMUL)
        return gpuk_matmul(ctx, p.da.t, p.db.t, p.dbias.t, p.dc.t, rung);
    if (s.op == GPUK_OP_BATCHED_MATMUL)
        return gpuk_batched_matmul(ctx, p.da.t, p.db.t, p.dc.t, rung);
    return gpuk_gemm(ctx, s.ta ? GPUK_TRANS : GPUK_NO_TRANS, s.tb ? GPUK_TRANS : GPUK_NO_TRANS,
                     s.alpha, p.da.t, p.db.t, s.beta, p.dc.t, rung);
}

/* The outputs to check: all of them, or `samples` random ones plus the
 * corners of the matrix and of its first tiles. */
std::vector<int64_t> pick(const spec &s, int samples)
{
    int64_t total = s.batch * s.m * s.n;
    std::vector<int64_t> idx;
    for (int64_t e = 0; !samples && e < total; e++)
        idx.push_back(e);
    const int64_t corner[][2] = {{0, 0}, {127, 255}, {128, 256}, {s.m - 1, s.n - 1},
                                 {s.m - 1, 0}, {0, s.n - 1}, {255, 127}, {64, 128}};
    for (auto &c : corner)
        if (samples && c[0] < s.m && c[1] < s.n)
            idx.push_back(c[0] * s.n + c[1]);
    for (int q = 0; q < samples; q++)
        idx.push_back((int64_t)(rng() % (uint64_t)total));
    return idx;
}

/* References of the picked outputs, in parallel. */
void references(const problem &p, const std::vector<int64_t> &idx, std::vector<double> &r,
                std::vector<double> &bound)
{
    r.assign(idx.size(), 0);
    bound.assign(idx.size(), 0);
    unsigned nt = std::max(1u, std::min(32u, std::thread::hardware_concurrency()));
    int64_t mn = p.s.m * p.s.n;
    std::vector<std::thread> th;
    for (unsigned w = 0; w < nt; w++)
        th.emplace_back([&, w] {
            for (size_t q = w; q < idx.size(); q += nt)
                p.ref(idx[q] / mn, idx[q] % mn / p.s.n, idx[q] % p.s.n, &r[q], &bound[q]);
        });
    for (auto &t : th)
        t.join();
}

/* Run rung once on p and compare: 0 when every picked output passes, 1
 * when some do not, 2 when the call itself failed. */
int verify(problem &p, const char *rung, const std::vector<int64_t> &idx,
           const std::vector<double> &r, const std::vector<double> &bound, double *worst)
{
    reset_out(p);
    *worst = 0;
    gpuk_status st = call(p, rung);
    if (st != GPUK_OK) {
        printf("    %s: %s (%s)\n", rung, gpuk_strerror(st), gpuk_context_error(ctx));
        return 2;
    }
    std::vector<float> got = read_out(p.dc.t, p.s.out, (size_t)(p.s.batch * p.s.m * p.s.n));
    int64_t bad = 0, first = -1;
    for (size_t q = 0; q < idx.size(); q++) {
        double err = fabs((double)got[idx[q]] - r[q]);
        if (!(err <= bound[q]) && bad++ == 0)   /* NaN fails too */
            first = (int64_t)q;
        *worst = std::max(*worst, err / bound[q]);
    }
    if (bad)
        printf("    %s: %lld of %zu wrong, first [%lld] got %.9g want %.9g (bound %.3g)\n", rung,
               (long long)bad, idx.size(), (long long)idx[first], got[idx[first]], r[first],
               bound[first]);
    return bad ? 1 : 0;
}

/* What a case is, for its line of output. */
std::string describe(const spec &s)
{
    char d[160];
    snprintf(d, sizeof d, "%s%lldx%lldx%lld%s%s%s%s%s%s", s.tf32 ? "tf32 " : "", (long long)s.m,
             (long long)s.k, (long long)s.n, s.ta ? " aT" : "", s.tb ? " bT" : "",
             s.bias ? " bias" : "", s.pad ? " padded" : "", s.offset ? " misaligned" : "",
             s.op == GPUK_OP_GEMM ? " alpha beta" : "");
    std::string r = d;
    if (s.batch > 1)
        r = std::to_string(s.batch) + "x " + r + (s.ba < s.batch ? " a shared" : "") +
            (s.bb < s.batch ? " b shared" : "");
    return s.op == GPUK_OP_GEMM && s.alpha == 0 ? r + " (alpha 0)" : r;
}

/* Every rung of the op on one spec (or those in only), all outputs compared. */
void check_case(const spec &s, const std::vector<std::string> &only = {})
{
    std::string what = describe(s);
    problem p = setup(s);
    std::vector<int64_t> idx = pick(s, 0);
    std::vector<double> r, bound;
    references(p, idx, r, bound);
    std::vector<std::string> list = only.empty() ? rungs(s.op, s.dt) : only;
    for (auto &v : list) {
        double worst = 0;
        bool ok = verify(p, v.c_str(), idx, r, bound, &worst) == 0;
        printf("check %-14s %-4s->%-4s %-17s %-40s %s (worst err/bound %.3f)\n",
               gpuk_op_name(s.op), gpuk_dtype_name(s.dt), gpuk_dtype_name(s.out), v.c_str(),
               what.c_str(), ok ? "ok" : "FAIL", worst);
        failures += !ok;
    }
    teardown(p);
}

/* A case of op: matmul unless said otherwise; batches of 1, no transpose */
spec mm(gpuk_dtype dt, gpuk_dtype out, int64_t m, int64_t k, int64_t n, bool bias,
        gpuk_op op = GPUK_OP_MATMUL, int64_t batch = 1)
{
    return spec{op, dt, out, batch, batch, batch, m, k, n, 0, 0, bias, 1, 0, 0, 0, false};
}

/* The TF32 rows of f32 matmul (cublas_tf32 and the hand-written one) */
std::vector<std::string> tf32_rungs()
{
    std::vector<std::string> v;
    for (auto &r : rungs(GPUK_OP_MATMUL, GPUK_F32))
        if (r.find("tf32") != std::string::npos)
            v.push_back(r);
    return v;
}

void run_checks()
{
    for (gpuk_dtype dt : {GPUK_BF16, GPUK_F16}) {
        const gpuk_op B = GPUK_OP_BATCHED_MATMUL, G = GPUK_OP_GEMM;
        /* partial tiles in m, n and k with 16-byte rows: the TMA rungs' edges */
        check_case(mm(dt, dt, 1000, 1000, 1000, true));
        check_case(mm(dt, GPUK_F32, 1000, 1000, 1000, false));
        /* odd everything: 16-byte copies impossible, every fallback */
        check_case(mm(dt, dt, 1000, 999, 1001, true));
        check_case(mm(dt, GPUK_F32, 17, 33, 65, true));
        /* smaller than one box; k = 0 */
        check_case(mm(dt, dt, 40, 24, 48, false));
        check_case(mm(dt, dt, 33, 0, 70, true));
        spec s = mm(dt, dt, 264, 392, 520, true);
        s.pad = 24;   /* padded rows, still 16-byte multiples: TMA with ld > columns */
        check_case(s);
        s.pad = 0, s.offset = 1;   /* a starts 2 bytes off: no 16-byte copies of a */
        check_case(s);
        /* many k slices; more tiles than SMs (a persistent block's second
         * tile) with an odd count of tile rows (a cluster's spare block) */
        check_case(mm(dt, GPUK_F32, 1536, 2048, 1280, false));
        check_case(mm(dt, dt, 2900, 200, 2560, true));
        /* two tiles or more a block whose right-edge tiles store an odd
         * number of boxes of c (rung 8's TMA stores alternate two) */
        check_case(mm(dt, dt, 8192, 64, 800, true));
        spec bm = mm(dt, GPUK_F32, 200, 136, 264, false, B, 3);
        bm.ba = 1;
        check_case(bm);
        bm = mm(dt, dt, 33, 17, 65, false, B, 3);
        bm.bb = 1;
        check_case(bm);
        check_case(mm(dt, GPUK_F32, 1024, 128, 1024, false, B, 8));
        for (int t = 0; t < 4; t++) {
            spec g = mm(dt, t & 1 ? GPUK_F32 : dt, 392, 264, 520, false, G);
            g.ta = t & 1, g.tb = t >> 1, g.alpha = 0.75, g.beta = -0.5;
            check_case(g);
        }
        /* beta 0, alpha not 1: c is not read, so rung 8's TMA stores take it */
        for (int t = 0; t < 2; t++) {
            spec g = mm(dt, t ? GPUK_F32 : dt, 392, 264, 520, false, G);
            g.ta = t, g.alpha = 0.75, g.beta = 0;
            check_case(g);
        }
        spec g = mm(dt, dt, 131, 77, 45, false, G);
        g.ta = g.tb = 1, g.alpha = -1.25, g.beta = 2;
        check_case(g);
        g.alpha = 0, g.beta = 0.5;   /* c = beta c, a and b not read */
        check_case(g);
    }
    /* TF32: the hand-written rung and cuBLAS's, and their fallbacks */
    std::vector<std::string> tf32 = tf32_rungs();
    for (spec t : {mm(GPUK_F32, GPUK_F32, 1000, 1000, 1000, true),
                   mm(GPUK_F32, GPUK_F32, 999, 1001, 1003, true),
                   mm(GPUK_F32, GPUK_F32, 1536, 2048, 1280, false)}) {
        t.tf32 = true;
        check_case(t, tf32);
    }
}

/* Median of 5 runs, ms a call, after a warm-up (verify's call) and a call
 * that sizes a run: enough calls to last some 2 ms.  *host_us: the
 * fastest run's host time a call, submission alone (the GPU runs behind:
 * at most 200 calls, far from filling the launch queue); near the GPU's
 * time a call, the row is bound by the host, not by its kernel. */
double time_ms(problem &p, const char *rung, double *host_us)
{
    double t[5];
    int calls = 1;
    *host_us = 1e30;
    for (int r = -1; r < 5; r++) {
        double ms = 0;
        OK(gpuk_timer_start(ctx));
        auto h0 = std::chrono::steady_clock::now();
        for (int c = 0; c < calls; c++)
            OK(call(p, rung));
        auto h1 = std::chrono::steady_clock::now();
        OK(gpuk_timer_stop(ctx, &ms));
        if (r >= 0) {
            t[r] = ms / calls;
            *host_us = std::min(*host_us,
                                std::chrono::duration<double, std::micro>(h1 - h0).count() / calls);
        } else if (ms > 0 && ms < 2.0) {
            calls = (int)std::min(200.0, ceil(2.0 / ms));
        }
    }
    std::sort(t, t + 5);
    return t[2];
}

/* Every rung in list on s, checked on sampled outputs and timed; the
 * library row `lib` first, so that each line can say its share. */
void time_case(const spec &s, const char *lib, double ceiling_gflops,
               std::vector<std::string> list)
{
    problem p = setup(s);
    std::vector<int64_t> idx = pick(s, 256);
    std::vector<double> r, bound;
    references(p, idx, r, bound);
    std::stable_partition(list.begin(), list.end(), [&](const std::string &v) { return v == lib; });
    double flop = 2.0 * (double)s.batch * s.m * s.n * s.k, lib_ms = 0, worst = 0;
    const char *dt = s.tf32 ? "tf32" : gpuk_dtype_name(s.dt);
    char shape[48];   /* n^3, or m x k x n */
    if (s.m == s.k && s.k == s.n)
        snprintf(shape, sizeof shape, "%5lld^3", (long long)s.m);
    else
        snprintf(shape, sizeof shape, "%lldx%lldx%lld", (long long)s.m, (long long)s.k,
                 (long long)s.n);
    for (auto &v : list) {
        int verdict = verify(p, v.c_str(), idx, r, bound, &worst);
        failures += verdict != 0;
        if (verdict == 2) {
            printf("time %-4s %s %-17s failed\n", dt, shape, v.c_str());
            continue;
        }
        double host_us = 0, ms = time_ms(p, v.c_str(), &host_us), tf = flop / (ms * 1e9);
        if (v == lib)
            lib_ms = ms;
        char vs_lib[32] = "n/a", vs_peak[32] = "n/a";
        if (lib_ms > 0)
            snprintf(vs_lib, sizeof vs_lib, "%6.1f%%", 100.0 * lib_ms / ms);
        if (ceiling_gflops > 0)
            snprintf(vs_peak, sizeof vs_peak, "%6.1f%%", 100.0 * tf * 1e3 / ceiling_gflops);
        printf("time %-4s %s %-17s %9.4f ms %7.1f TFLOP/s  %s of %s  %s of ceiling  %s "
               "(%zu sampled, worst %.3f)  host %.1f us\n",
               dt, shape, v.c_str(), ms, tf, vs_lib, lib, vs_peak,
               verdict ? "WRONG" : "ok", idx.size(), worst, host_us);
    }
    teardown(p);
}

void run_timing()
{
    double peak[3] = {0, 0, 0};
    const gpuk_peak kinds[3] = {GPUK_PEAK_MMA_BF16_GFLOPS, GPUK_PEAK_MMA_F16_GFLOPS,
                                GPUK_PEAK_MMA_TF32_GFLOPS};
    for (int i = 0; i < 3; i++) {
        gpuk_status st = gpuk_peak_measure(ctx, kinds[i], &peak[i]);
        printf("ceiling %s: %.0f GFLOP/s%s%s%s\n", gpuk_peak_name(kinds[i]), peak[i],
               st ? " (n/a: " : "", st ? gpuk_context_error(ctx) : "", st ? ")" : "");
    }
    for (int64_t n : {2048, 4096, 8192}) {
        time_case(mm(GPUK_BF16, GPUK_BF16, n, n, n, false), "cublas", peak[0],
                  rungs(GPUK_OP_MATMUL, GPUK_BF16));
        time_case(mm(GPUK_F16, GPUK_F16, n, n, n, false), "cublas", peak[1],
                  rungs(GPUK_OP_MATMUL, GPUK_F16));
        spec t = mm(GPUK_F32, GPUK_F32, n, n, n, false);
        t.tf32 = true;
        time_case(t, "cublas_tf32", peak[2], tf32_rungs());
    }
    /* One wave of tiles with 8 times 2048^3's k: against 2048^3, the
     * difference is 7/8 of this row's time at the rung's mainloop rate
     * alone, and what is left of 2048^3 the cost a call that does not
     * grow with k (launch, first loads, epilogue): bench/NOTES.md,
     * "Tensor cores, part 2" */
    time_case(mm(GPUK_BF16, GPUK_BF16, 2048, 16384, 2048, false), "cublas", peak[0],
              rungs(GPUK_OP_MATMUL, GPUK_BF16));
    spec t = mm(GPUK_F32, GPUK_F32, 2048, 16384, 2048, false);
    t.tf32 = true;
    time_case(t, "cublas_tf32", peak[2], tf32_rungs());
}

}  // namespace

int main(int argc, char **argv)
{
    OK(gpuk_context_open(&ctx, "cuda"));
    gpuk_info info;
    OK(gpuk_context_info(ctx, &info));
    printf("device: %s (%d SMs)\n", info.device, info.multiprocessors);
    auto want = [&](const char *w) {
        bool any = argc < 2;
        for (int i = 1; i < argc; i++)
            any |= !strcmp(argv[i], w);
        return any;
    };
    check_conversions();
    if (want("check"))
        run_checks();
    if (want("time"))
        run_timing();
    gpuk_context_close(ctx);
    printf("tc-bench: %d failure(s)\n", failures);
    return failures ? 1 : 0;
}

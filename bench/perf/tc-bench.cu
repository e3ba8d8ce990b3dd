/*
 * tc-bench.cu - checks and times the tensor-core matrix products of issue 27
 * through libgpuk's public API (gpuk_matmul, gpuk_batched_matmul, gpuk_gemm
 * on f16 and bf16 tensors, and f32 matmul for the TF32 rungs):
 *
 *   check  every rung of MATMUL, BATCHED_MATMUL and GEMM in f16 and bf16
 *          on shapes that reach every path: partial tiles with 16-byte
 *          rows (the TMA rungs' own code), odd shapes and strides and a
 *          misaligned pointer (their fallbacks), tiny matrices smaller
 *          than one box, k = 0, bias, f32 and 16-bit outputs, batches with
 *          a broadcast operand, GEMM's four transposes with alpha, beta
 *          and alpha = 0; the TF32 rungs of f32 matmul likewise;
 *   time   every rung of matmul at 2048^3, 4096^3 and 8192^3 (16-bit
 *          output), and the TF32 rungs, checked on sampled outputs, as
 *          TFLOP/s, % of the cuBLAS row of the same dtype (of cublas_tf32
 *          for TF32) and % of the backend's tensor-core ceiling
 *          (gpuk_peak_measure; "n/a" where it has none).
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

#define OK(call)                                                                          \
    do {                                                                                  \
        gpuk_status st_ = (call);                                                         \
        if (st_ != GPUK_OK) {                                                             \
            fprintf(stderr, "%s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #call,            \
                    gpuk_strerror(st_), gpuk_context_error(ctx));                         \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)

uint64_t rng_state = 0x9E3779B97F4A7C15ull;
uint64_t rng()
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}
float urand()   /* uniform in [-1, 1), never 0 */
{
    float x = (float)((double)(rng() >> 40) / (double)(1ull << 23) - 1.0);
    return x == 0.0f ? 0.5f : x;
}

/* ---------------------------------------------------------------- 16-bit floats */

uint32_t bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    return u;
}
float from_bits(uint32_t u)
{
    float x;
    memcpy(&x, &u, 4);
    return x;
}

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

float bf16_value(uint16_t h)
{
    return from_bits((uint32_t)h << 16);
}
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
    int bad = 0;
    for (int i = 0; i < 2000000; i++) {
        float x;
        if (i < 64) {
            const float edge[] = {0.0f, -0.0f, 65504.0f, 65519.99f, 65520.0f, 1e-8f, 5.96e-8f,
                                  2.98e-8f, 6.1e-5f, 3.0e38f, INFINITY, -INFINITY, 1.0f + 1e-3f};
            x = edge[i % 13] * (i >= 13 ? -1.0f : 1.0f);
        } else {
            x = from_bits((uint32_t)rng());   /* every exponent, NaN included */
        }
        __nv_bfloat16 b = __float2bfloat16_rn(x);
        __half h = __float2half_rn(x);
        uint16_t bb, hh;
        memcpy(&bb, &b, 2);
        memcpy(&hh, &h, 2);
        bool nan = x != x;
        if ((nan ? (to_bf16(x) & 0x7fff) <= 0x7f80 : to_bf16(x) != bb) ||
            (nan ? (to_f16(x) & 0x7fff) <= 0x7c00 : to_f16(x) != hh)) {
            if (bad++ < 5)
                printf("    conversion of %a: bf16 %04x (cuda %04x), f16 %04x (cuda %04x)\n", x,
                       to_bf16(x), bb, to_f16(x), hh);
        }
    }
    printf("check conversions f32 -> bf16, f16 against cuda_bf16.h/cuda_fp16.h: %s\n",
           bad ? "FAIL" : "ok");
    failures += bad != 0;
}

/* ---------------------------------------------------------------- tensors */

struct hmat {   /* a host matrix (or batch of them) of dtype dt: storage bits and values */
    gpuk_dtype dt;
    std::vector<uint16_t> h;
    std::vector<float> v;
};

hmat make_host(gpuk_dtype dt, size_t n)
{
    hmat m;
    m.dt = dt;
    m.v.resize(n);
    if (dt != GPUK_F32)
        m.h.resize(n);
    for (size_t i = 0; i < n; i++) {
        float x = urand();
        if (dt == GPUK_BF16) {
            m.h[i] = to_bf16(x);
            m.v[i] = bf16_value(m.h[i]);
        } else if (dt == GPUK_F16) {
            m.h[i] = to_f16(x);
            m.v[i] = f16_value(m.h[i]);
        } else {
            m.v[i] = x;
        }
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
struct dview {
    gpuk_tensor *base = NULL, *t = NULL;
};
dview make_view(gpuk_dtype dt, int64_t count, int64_t rows, int64_t cols, int64_t ld,
                int64_t offset, const hmat *src)
{
    int64_t nb = count ? count : 1, total = offset + nb * rows * ld;
    dview d;
    if (rows * cols == 0) {   /* k = 0: a plain empty tensor, nothing to write */
        int64_t shape[3] = {count, rows, cols};
        OK(gpuk_tensor_create(ctx, dt, count ? 3 : 2, count ? shape : shape + 1, &d.t));
        return d;
    }
    OK(gpuk_tensor_create(ctx, dt, 1, &total, &d.base));
    if (count) {
        int64_t shape[3] = {count, rows, cols}, strides[3] = {rows * ld, ld, 1};
        OK(gpuk_tensor_view(ctx, d.base, 3, shape, strides, offset, &d.t));
    } else {
        int64_t shape[2] = {rows, cols}, strides[2] = {ld, 1};
        OK(gpuk_tensor_view(ctx, d.base, 2, shape, strides, offset, &d.t));
    }
    if (src)
        OK(gpuk_tensor_write(ctx, d.t, host_data(*src), (size_t)(nb * rows * cols) *
                                                            gpuk_dtype_size(dt)));
    return d;
}
void drop(dview &d)
{
    gpuk_tensor_destroy(ctx, d.t);
    gpuk_tensor_destroy(ctx, d.base);
    d.t = d.base = NULL;
}

/* Read an output of n elements as floats. */
std::vector<float> read_out(gpuk_tensor *t, gpuk_dtype dt, size_t n)
{
    std::vector<float> out(n);
    if (dt == GPUK_F32) {
        OK(gpuk_tensor_read(ctx, t, out.data(), n * 4));
        return out;
    }
    std::vector<uint16_t> h(n);
    OK(gpuk_tensor_read(ctx, t, h.data(), n * 2));
    for (size_t i = 0; i < n; i++)
        out[i] = dt == GPUK_BF16 ? bf16_value(h[i]) : f16_value(h[i]);
    return out;
}

/* Fill an output with NaN (f32) or with 16-bit NaN, so that a rung that
 * writes nothing fails. */
void poison(gpuk_tensor *t, gpuk_dtype dt, size_t n)
{
    if (dt == GPUK_F32) {
        std::vector<float> x(n, NAN);
        OK(gpuk_tensor_write(ctx, t, x.data(), n * 4));
    } else {
        std::vector<uint16_t> x(n, 0x7fff);
        OK(gpuk_tensor_write(ctx, t, x.data(), n * 2));
    }
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

/* ---------------------------------------------------------------- one case */

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

double unit_of(gpuk_dtype dt)
{
    return dt == GPUK_BF16 ? 0x1p-8 : dt == GPUK_F16 ? 0x1p-11 : 0x1p-24;
}

double gamma_k(double k, double u)
{
    return k * u / (1 - k * u);
}

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
        for (int64_t q = 0; q < s.k; q++) {
            double pr = (double)x[q] * y[q];
            sum += pr;
            mag += fabs(pr);
        }
        double K = (double)s.k;
        if (s.op == GPUK_OP_GEMM) {
            double old = s.beta != 0 ? s.beta * c0.v[(z * s.m + i) * s.n + j] : 0;
            sum = s.alpha * sum + old;
            mag = fabs(s.alpha) * mag + fabs(old);
            K += 2;
        } else if (s.bias) {
            sum += bias.v[j];
            mag += fabs(bias.v[j]);
            K += 1;
        }
        double e;
        if (s.tf32) {
            double u = 0x1p-11;
            e = 2 * (2 * u + u * u + gamma_k(K, 0x1p-24) * (1 + u) * (1 + u)) * mag;
        } else {
            e = 2 * gamma_k(K, 0x1p-24) * mag;
        }
        *r = sum;
        *bound = e + unit_of(s.out) * (fabs(sum) + e) + 1e-30;
    }
};

problem setup(const spec &s)
{
    problem p;
    p.s = s;
    p.ra = s.ta ? s.k : s.m;
    p.ca = s.ta ? s.m : s.k;
    p.rb = s.tb ? s.n : s.k;
    p.cb = s.tb ? s.k : s.n;
    p.a = make_host(s.dt, (size_t)(s.ba * p.ra * p.ca));
    p.b = make_host(s.dt, (size_t)(s.bb * p.rb * p.cb));
    /* the reference's operands, contiguous along k */
    p.arow.resize((size_t)(s.ba * s.m * s.k));
    p.bcol.resize((size_t)(s.bb * s.n * s.k));
    for (int64_t z = 0; z < s.ba; z++)
        for (int64_t i = 0; i < s.m; i++)
            for (int64_t q = 0; q < s.k; q++)
                p.arow[(z * s.m + i) * s.k + q] =
                    p.a.v[z * p.ra * p.ca + (s.ta ? q * s.m + i : i * s.k + q)];
    for (int64_t z = 0; z < s.bb; z++)
        for (int64_t q = 0; q < s.k; q++)
            for (int64_t j = 0; j < s.n; j++)
                p.bcol[(z * s.n + j) * s.k + q] =
                    p.b.v[z * p.rb * p.cb + (s.tb ? j * s.k + q : q * s.n + j)];
    bool batched = s.op == GPUK_OP_BATCHED_MATMUL;
    p.da = make_view(s.dt, batched ? s.ba : 0, p.ra, p.ca, p.ca + s.pad, s.offset, &p.a);
    p.db = make_view(s.dt, batched ? s.bb : 0, p.rb, p.cb, p.cb + s.pad, 0, &p.b);
    p.dc = make_view(s.out, batched ? s.batch : 0, s.m, s.n, s.n, 0, NULL);
    if (s.bias) {
        p.bias = make_host(s.out, (size_t)s.n);
        OK(gpuk_tensor_create(ctx, s.out, 1, &s.n, &p.dbias.t));
        OK(gpuk_tensor_write(ctx, p.dbias.t, host_data(p.bias), (size_t)s.n * gpuk_dtype_size(s.out)));
    }
    if (s.op == GPUK_OP_GEMM)
        p.c0 = make_host(s.out, (size_t)(s.m * s.n));
    return p;
}

void teardown(problem &p)
{
    drop(p.da);
    drop(p.db);
    drop(p.dc);
    gpuk_tensor_destroy(ctx, p.dbias.t);
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
    if (!samples) {
        for (int64_t e = 0; e < total; e++)
            idx.push_back(e);
        return idx;
    }
    const int64_t corner[][2] = {{0, 0}, {127, 255}, {128, 256}, {s.m - 1, s.n - 1},
                                 {s.m - 1, 0}, {0, s.n - 1}, {255, 127}, {64, 128}};
    for (auto &c : corner)
        if (c[0] < s.m && c[1] < s.n)
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
    std::vector<std::thread> th;
    for (unsigned w = 0; w < nt; w++)
        th.emplace_back([&, w] {
            int64_t mn = p.s.m * p.s.n;
            for (size_t q = w; q < idx.size(); q += nt) {
                int64_t e = idx[q], z = e / mn, i = e % mn / p.s.n, j = e % p.s.n;
                p.ref(z, i, j, &r[q], &bound[q]);
            }
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
        if (!(err <= bound[q])) {
            if (first < 0)
                first = (int64_t)q;
            bad++;
        }
        if (err / bound[q] > *worst)
            *worst = err / bound[q];
    }
    if (bad)
        printf("    %s: %lld of %zu wrong, first [%lld] got %.9g want %.9g (bound %.3g)\n", rung,
               (long long)bad, idx.size(), (long long)idx[first], got[idx[first]], r[first],
               bound[first]);
    return bad ? 1 : 0;
}

const char *dname(gpuk_dtype dt)
{
    return gpuk_dtype_name(dt);
}

/* Every rung of the op on one spec, all outputs compared. */
void check_case(const char *what, const spec &s, const std::vector<std::string> &only = {})
{
    problem p = setup(s);
    std::vector<int64_t> idx = pick(s, 0);
    std::vector<double> r, bound;
    references(p, idx, r, bound);
    std::vector<std::string> list = only.empty() ? rungs(s.op, s.dt) : only;
    for (auto &v : list) {
        double worst = 0;
        bool ok = verify(p, v.c_str(), idx, r, bound, &worst) == 0;
        printf("check %-14s %-4s->%-4s %-17s %-40s %s (worst err/bound %.3f)\n",
               gpuk_op_name(s.op), dname(s.dt), dname(s.out), v.c_str(), what, ok ? "ok" : "FAIL",
               worst);
        failures += !ok;
    }
    teardown(p);
}

spec mm(gpuk_dtype dt, gpuk_dtype out, int64_t m, int64_t k, int64_t n, bool bias)
{
    spec s = {};
    s.op = GPUK_OP_MATMUL;
    s.dt = dt;
    s.out = out;
    s.batch = s.ba = s.bb = 1;
    s.m = m;
    s.k = k;
    s.n = n;
    s.bias = bias;
    s.alpha = 1;
    return s;
}

void run_checks()
{
    for (gpuk_dtype dt : {GPUK_BF16, GPUK_F16}) {
        /* partial tiles in m, n and k with 16-byte rows: the TMA rungs' edges */
        check_case("1000x1000x1000 bias", mm(dt, dt, 1000, 1000, 1000, true));
        check_case("1000x1000x1000 f32 out", mm(dt, GPUK_F32, 1000, 1000, 1000, false));
        /* odd everything: 16-byte copies impossible, every fallback */
        check_case("1000x999x1001 bias", mm(dt, dt, 1000, 999, 1001, true));
        check_case("17x33x65 bias f32 out", mm(dt, GPUK_F32, 17, 33, 65, true));
        /* smaller than one box, 16-byte rows */
        check_case("40x24x48", mm(dt, dt, 40, 24, 48, false));
        check_case("k = 0 with bias", mm(dt, dt, 33, 0, 70, true));
        spec s = mm(dt, dt, 264, 392, 520, true);
        s.pad = 24;   /* padded rows, still 16-byte multiples: TMA with ld > columns */
        check_case("264x392x520 padded rows", s);
        s.pad = 0;
        s.offset = 1; /* a starts 2 bytes off: no 16-byte copies of a */
        check_case("264x392x520 a misaligned", s);
        /* many k slices; then more tiles than SMs (a persistent block's
         * second tile), an odd count of tile rows (a cluster's spare block) */
        check_case("1536x2048x1280 f32 out", mm(dt, GPUK_F32, 1536, 2048, 1280, false));
        check_case("2900x200x2560 bias", mm(dt, dt, 2900, 200, 2560, true));

        spec bm = mm(dt, GPUK_F32, 200, 136, 264, false);
        bm.op = GPUK_OP_BATCHED_MATMUL;
        bm.batch = bm.bb = 3;
        bm.ba = 1;   /* a broadcast */
        check_case("3x 200x136x264, a broadcast", bm);
        bm.out = dt;
        bm.ba = 3;
        bm.bb = 1;
        bm.m = 33, bm.k = 17, bm.n = 65;
        check_case("3x 33x17x65, b broadcast", bm);
        bm.batch = bm.ba = bm.bb = 8;
        bm.m = 1024, bm.k = 128, bm.n = 1024;
        bm.out = GPUK_F32;
        check_case("8x 1024x128x1024 (256 tiles)", bm);

        for (int t = 0; t < 4; t++) {
            spec g = mm(dt, t & 1 ? GPUK_F32 : dt, 392, 264, 520, false);
            g.op = GPUK_OP_GEMM;
            g.ta = t & 1;
            g.tb = t >> 1;
            g.alpha = 0.75;
            g.beta = -0.5;
            char what[64];
            snprintf(what, sizeof what, "392x264x520 %s%s a=.75 b=-.5", g.ta ? "aT" : "a",
                     g.tb ? " bT" : " b");
            check_case(what, g);
        }
        spec g = mm(dt, dt, 131, 77, 45, false);
        g.op = GPUK_OP_GEMM;
        g.ta = g.tb = 1;
        g.alpha = -1.25;
        g.beta = 2;
        check_case("131x77x45 aT bT a=-1.25 b=2", g);
        g.alpha = 0;
        g.beta = 0.5;
        check_case("alpha = 0: c = beta c", g);
    }
    /* TF32: the hand-written rung and cuBLAS's, and their fallbacks */
    std::vector<std::string> tf32;
    for (auto &v : rungs(GPUK_OP_MATMUL, GPUK_F32))
        if (v.find("tf32") != std::string::npos)
            tf32.push_back(v);
    spec t = mm(GPUK_F32, GPUK_F32, 1000, 1000, 1000, true);
    t.tf32 = true;
    check_case("tf32 1000x1000x1000 bias", t, tf32);
    t.m = 999, t.k = 1001, t.n = 1003;
    check_case("tf32 999x1001x1003 bias", t, tf32);
    t.m = 1536, t.k = 2048, t.n = 1280;
    t.bias = false;
    check_case("tf32 1536x2048x1280", t, tf32);
}

/* ---------------------------------------------------------------- timing */

/* Median of 5 runs after a warm-up, ms a call; a run is enough calls to
 * last some 2 ms. */
double time_ms(problem &p, const char *rung)
{
    OK(call(p, rung));
    double one = 0;
    OK(gpuk_timer_start(ctx));
    OK(call(p, rung));
    OK(gpuk_timer_stop(ctx, &one));
    int calls = one > 0 && one < 2.0 ? (int)std::min(200.0, ceil(2.0 / one)) : 1;
    std::vector<double> t;
    for (int r = 0; r < 5; r++) {
        double ms = 0;
        OK(gpuk_timer_start(ctx));
        for (int c = 0; c < calls; c++)
            OK(call(p, rung));
        OK(gpuk_timer_stop(ctx, &ms));
        t.push_back(ms / calls);
    }
    std::sort(t.begin(), t.end());
    return t[2];
}

struct result {
    std::string rung;
    double ms;
    int verdict;   /* verify's */
    double worst;
};

void time_case(const spec &s, const char *lib, double ceiling_gflops,
               const std::vector<std::string> &list)
{
    problem p = setup(s);
    std::vector<int64_t> idx = pick(s, 256);
    std::vector<double> r, bound;
    references(p, idx, r, bound);
    std::vector<result> res;
    double lib_ms = 0;
    for (auto &v : list) {
        result x;
        x.rung = v;
        x.verdict = verify(p, v.c_str(), idx, r, bound, &x.worst);
        x.ms = x.verdict == 2 ? 0 : time_ms(p, v.c_str());
        if (v == lib)
            lib_ms = x.ms;
        failures += x.verdict != 0;
        res.push_back(x);
    }
    double flop = 2.0 * (double)s.batch * s.m * s.n * s.k;
    for (auto &x : res) {
        if (x.verdict == 2) {
            printf("time %-4s %5lld^3 %-17s failed\n", s.tf32 ? "tf32" : dname(s.dt),
                   (long long)s.m, x.rung.c_str());
            continue;
        }
        double tf = flop / (x.ms * 1e9);
        char vs_lib[32] = "n/a", vs_peak[32] = "n/a";
        if (lib_ms > 0)
            snprintf(vs_lib, sizeof vs_lib, "%6.1f%%", 100.0 * lib_ms / x.ms);
        if (ceiling_gflops > 0)
            snprintf(vs_peak, sizeof vs_peak, "%6.1f%%", 100.0 * tf * 1e3 / ceiling_gflops);
        printf("time %-4s %5lld^3 %-17s %9.4f ms %7.1f TFLOP/s  %s of %s  %s of ceiling  %s "
               "(%zu sampled, worst %.3f)\n",
               s.tf32 ? "tf32" : dname(s.dt), (long long)s.m, x.rung.c_str(), x.ms, tf, vs_lib,
               lib, vs_peak, x.verdict ? "WRONG" : "ok", idx.size(), x.worst);
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
        if (st == GPUK_OK)
            printf("ceiling %s: %.0f GFLOP/s\n", gpuk_peak_name(kinds[i]), peak[i]);
        else
            printf("ceiling %s: n/a (%s: %s)\n", gpuk_peak_name(kinds[i]), gpuk_strerror(st),
                   gpuk_context_error(ctx));
    }
    for (int64_t n : {2048, 4096, 8192}) {
        time_case(mm(GPUK_BF16, GPUK_BF16, n, n, n, false), "cublas", peak[0],
                  rungs(GPUK_OP_MATMUL, GPUK_BF16));
        time_case(mm(GPUK_F16, GPUK_F16, n, n, n, false), "cublas", peak[1],
                  rungs(GPUK_OP_MATMUL, GPUK_F16));
        std::vector<std::string> tf32;
        for (auto &v : rungs(GPUK_OP_MATMUL, GPUK_F32))
            if (v.find("tf32") != std::string::npos)
                tf32.push_back(v);
        spec t = mm(GPUK_F32, GPUK_F32, n, n, n, false);
        t.tf32 = true;
        time_case(t, "cublas_tf32", peak[2], tf32);
    }
}

}  // namespace

int main(int argc, char **argv)
{
    gpuk_status st = gpuk_context_open(&ctx, "cuda");
    if (st != GPUK_OK) {
        fprintf(stderr, "tc-bench: no cuda context: %s\n", gpuk_strerror(st));
        return 1;
    }
    gpuk_info info;
    OK(gpuk_context_info(ctx, &info));
    printf("device: %s (%d SMs)\n", info.device, info.multiprocessors);
    auto want = [&](const char *w) {
        if (argc < 2)
            return true;
        for (int i = 1; i < argc; i++)
            if (!strcmp(argv[i], w))
                return true;
        return false;
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

/*
 * gpuk-perf.cu - measurements gpuk-bench does not make (issue 8), through
 * libgpuk's public API, plus one direct kernel launch loop:
 *
 *   check     every matmul rung (with and without bias), min-plus v4/v5 and
 *             softmax one_pass on ALIGNED odd shapes, where the 16-byte
 *             paths run (the op suite's layouts never align them), against
 *             a float64 reference on the host;
 *   reduce    x[8192, 8192] summed along axis 0 (a non-last axis), every rung;
 *   spmv      every SpMV rung on 4M rows x 16 random columns and on a 4M-row
 *             power-law matrix (Pareto row lengths, alpha 1.5, at least 5),
 *             each checked against a float64 reference;
 *   overhead  10^4 tiny adds through gpuk_add against 10^4 direct <<<>>>
 *             launches of an equivalent kernel: host time per call
 *             (submission only) and per op (submission + sync).
 *
 * Build (not built by make) from a configured build tree BUILD:
 *   nvcc -O2 -std=c++17 -arch=sm_90 -I include bench/perf/gpuk-perf.cu \
 *        -L BUILD/src/.libs -lgpuk -o BUILD/gpuk-perf
 * Run:
 *   LD_LIBRARY_PATH=BUILD/src/.libs \
 *   GPUK_BACKEND_PATH=BUILD/backends/cpu/.libs:BUILD/backends/cuda/.libs \
 *   BUILD/gpuk-perf [check] [reduce] [spmv] [overhead]     (default: all)
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
#include <vector>

#include <cuda_runtime.h>
#include <gpuk.h>

namespace {

int failures = 0;

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
float urand()   /* uniform in [-1, 1) */
{
    return (float)((double)(rng() >> 40) / (double)(1ull << 23) - 1.0);
}
double unit()   /* uniform in (0, 1] */
{
    return ((double)(rng() >> 11) + 1.0) / 9007199254740992.0;
}

std::vector<float> rand_vec(size_t n)
{
    std::vector<float> v(n);
    for (auto &x : v)
        x = urand();
    return v;
}

gpuk_tensor *make(gpuk_context *ctx, std::vector<int64_t> shape, const float *src)
{
    gpuk_tensor *t = NULL;
    OK(gpuk_tensor_create(ctx, GPUK_F32, (int)shape.size(), shape.data(), &t));
    if (src) {
        size_t n = 1;
        for (auto s : shape)
            n *= (size_t)s;
        OK(gpuk_tensor_write(ctx, t, src, n * sizeof(float)));
    }
    return t;
}

std::vector<std::string> variants(gpuk_context *ctx, gpuk_op op)
{
    size_t n = 0;
    OK(gpuk_variant_count(ctx, op, &n));
    std::vector<std::string> v;
    for (size_t i = 0; i < n; i++) {
        gpuk_variant_info vi;
        OK(gpuk_variant_get(ctx, op, i, &vi));
        v.push_back(vi.name);
    }
    return v;
}

/* Median of reps timed runs (after one warm-up) of f, in ms, on the context's clock. */
template <class F>
double time_ms(gpuk_context *ctx, int reps, F f)
{
    f();
    std::vector<double> t;
    for (int i = 0; i < reps; i++) {
        double ms = 0;
        OK(gpuk_timer_start(ctx));
        f();
        OK(gpuk_timer_stop(ctx, &ms));
        t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

void poison(gpuk_context *ctx, gpuk_tensor *t, size_t n)
{
    std::vector<float> nan(n, NAN);
    OK(gpuk_tensor_write(ctx, t, nan.data(), n * sizeof(float)));
}

/* ---------------------------------------------------------------- check */

const double U = 1.0 / 16777216.0;
double gamma_k(int64_t k)
{
    return k * U / (1 - k * U);
}

void check_matmul(gpuk_context *ctx, int64_t m, int64_t k, int64_t n, bool bias)
{
    auto a = rand_vec(m * k), b = rand_vec(k * n), bv = rand_vec(n);
    std::vector<double> ref(m * n), bound(m * n);
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double s = bias ? bv[j] : 0, abss = bias ? fabs(bv[j]) : 0;
            for (int64_t q = 0; q < k; q++) {
                double p = (double)a[i * k + q] * b[q * n + j];
                s += p;
                abss += fabs(p);
            }
            ref[i * n + j] = s;
            bound[i * n + j] = 2 * gamma_k(k + 1) * abss + U * fabs(s) + 1e-30;
        }
    gpuk_tensor *ta = make(ctx, {m, k}, a.data()), *tb = make(ctx, {k, n}, b.data());
    gpuk_tensor *tbias = bias ? make(ctx, {n}, bv.data()) : NULL, *tc = make(ctx, {m, n}, NULL);
    std::vector<float> got(m * n);
    for (auto &v : variants(ctx, GPUK_OP_MATMUL)) {
        if (v.find("tf32") != std::string::npos)
            continue;
        poison(ctx, tc, m * n);
        OK(gpuk_matmul(ctx, ta, tb, tbias, tc, v.c_str()));
        OK(gpuk_tensor_read(ctx, tc, got.data(), got.size() * sizeof(float)));
        int64_t bad = 0, first = -1;
        double worst = 0;
        for (int64_t e = 0; e < m * n; e++) {
            double err = fabs(got[e] - ref[e]);
            if (!(err <= bound[e])) {
                if (first < 0)
                    first = e;
                bad++;
            }
            if (err / bound[e] > worst)
                worst = err / bound[e];
        }
        printf("check matmul %-13s %5lldx%5lldx%5lld%s: %s (worst err/bound %.3f)\n", v.c_str(),
               (long long)m, (long long)k, (long long)n, bias ? " bias" : "     ",
               bad ? "FAIL" : "ok", worst);
        if (bad) {
            printf("    %lld wrong, first [%lld] got %.9g want %.9g\n", (long long)bad,
                   (long long)first, got[first], ref[first]);
            failures++;
        }
    }
    gpuk_tensor_destroy(ctx, ta);
    gpuk_tensor_destroy(ctx, tb);
    gpuk_tensor_destroy(ctx, tbias);
    gpuk_tensor_destroy(ctx, tc);
}

void check_minplus(gpuk_context *ctx, int64_t m, int64_t k, int64_t n)
{
    auto a = rand_vec(m * k), b = rand_vec(k * n);
    std::vector<float> ref(m * n), got(m * n);
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            float v = INFINITY;
            for (int64_t q = 0; q < k; q++)
                v = fminf(v, a[i * k + q] + b[q * n + j]);
            ref[i * n + j] = v;
        }
    gpuk_tensor *ta = make(ctx, {m, k}, a.data()), *tb = make(ctx, {k, n}, b.data());
    gpuk_tensor *tc = make(ctx, {m, n}, NULL);
    for (const char *v : {"v4", "v5"}) {
        poison(ctx, tc, m * n);
        OK(gpuk_minplus(ctx, ta, tb, tc, v));
        OK(gpuk_tensor_read(ctx, tc, got.data(), got.size() * sizeof(float)));
        bool same = memcmp(got.data(), ref.data(), got.size() * sizeof(float)) == 0;
        printf("check minplus %-3s %5lldx%5lldx%5lld: %s\n", v, (long long)m, (long long)k,
               (long long)n, same ? "ok (bit-exact)" : "FAIL");
        failures += !same;
    }
    gpuk_tensor_destroy(ctx, ta);
    gpuk_tensor_destroy(ctx, tb);
    gpuk_tensor_destroy(ctx, tc);
}

void check_softmax(gpuk_context *ctx, int64_t rows, int64_t n)
{
    auto x = rand_vec(rows * n);
    for (auto &v : x)
        v *= 8;
    std::vector<float> got(rows * n);
    gpuk_tensor *tx = make(ctx, {rows, n}, x.data()), *ty = make(ctx, {rows, n}, NULL);
    for (const char *v : {"online", "one_pass"}) {
        poison(ctx, ty, rows * n);
        OK(gpuk_softmax(ctx, tx, ty, v));
        OK(gpuk_tensor_read(ctx, ty, got.data(), got.size() * sizeof(float)));
        double worst = 0;
        for (int64_t r = 0; r < rows; r++) {
            double mx = -INFINITY, s = 0;
            for (int64_t j = 0; j < n; j++)
                mx = std::max(mx, (double)x[r * n + j]);
            for (int64_t j = 0; j < n; j++)
                s += exp(x[r * n + j] - mx);
            for (int64_t j = 0; j < n; j++) {
                double want = exp(x[r * n + j] - mx) / s;
                double rel = fabs(got[r * n + j] - want) / want;
                if (!(rel <= worst))
                    worst = rel;
            }
        }
        /* DESIGN.md's bound: 2 (gamma_n + u (2 range + 2 log(n + 1) + 10)), range <= 16 */
        double bound = 2 * (gamma_k(n) + U * (32 + 2 * log((double)n + 1) + 10));
        bool ok = worst <= bound;
        printf("check softmax %-8s %5lldx%5lld: %s (max rel err %.3g, bound %.3g)\n", v,
               (long long)rows, (long long)n, ok ? "ok" : "FAIL", worst, bound);
        failures += !ok;
    }
    gpuk_tensor_destroy(ctx, tx);
    gpuk_tensor_destroy(ctx, ty);
}

void check_transpose(gpuk_context *ctx, int64_t m, int64_t n)
{
    auto x = rand_vec(m * n);
    std::vector<float> got(m * n);
    gpuk_tensor *tx = make(ctx, {m, n}, x.data()), *ty = make(ctx, {n, m}, NULL);
    for (auto &v : variants(ctx, GPUK_OP_TRANSPOSE)) {
        poison(ctx, ty, m * n);
        OK(gpuk_transpose(ctx, tx, ty, v.c_str()));
        OK(gpuk_tensor_read(ctx, ty, got.data(), got.size() * sizeof(float)));
        int64_t bad = 0;
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++)
                bad += memcmp(&got[j * m + i], &x[i * n + j], 4) != 0;
        printf("check transpose %-12s %5lldx%5lld: %s\n", v.c_str(), (long long)m, (long long)n,
               bad ? "FAIL" : "ok (bit-exact)");
        failures += bad != 0;
    }
    gpuk_tensor_destroy(ctx, tx);
    gpuk_tensor_destroy(ctx, ty);
}

/* x[o, l, i] summed along l, every reduce rung. */
void check_reduce(gpuk_context *ctx, int64_t outer, int64_t len, int64_t inner)
{
    auto x = rand_vec(outer * len * inner);
    std::vector<double> ref(outer * inner, 0.0), abss(outer * inner, 0.0);
    for (int64_t o = 0; o < outer; o++)
        for (int64_t l = 0; l < len; l++)
            for (int64_t i = 0; i < inner; i++) {
                ref[o * inner + i] += x[(o * len + l) * inner + i];
                abss[o * inner + i] += fabs(x[(o * len + l) * inner + i]);
            }
    gpuk_tensor *tx = make(ctx, {outer, len, inner}, x.data()), *ty = make(ctx, {outer, inner}, NULL);
    std::vector<float> got(outer * inner);
    for (auto &v : variants(ctx, GPUK_OP_REDUCE)) {
        poison(ctx, ty, outer * inner);
        OK(gpuk_reduce(ctx, GPUK_REDUCE_SUM, tx, 1, ty, v.c_str()));
        OK(gpuk_tensor_read(ctx, ty, got.data(), got.size() * sizeof(float)));
        int64_t bad = 0;
        for (int64_t g = 0; g < outer * inner; g++)
            bad += !(fabs(got[g] - ref[g]) <= 2 * gamma_k(len) * abss[g] + U * fabs(ref[g]));
        printf("check reduce %-13s %lldx%lldx%lld axis 1: %s\n", v.c_str(), (long long)outer,
               (long long)len, (long long)inner, bad ? "FAIL" : "ok");
        failures += bad != 0;
    }
    gpuk_tensor_destroy(ctx, tx);
    gpuk_tensor_destroy(ctx, ty);
}

struct csr;
void check_spmv_small(gpuk_context *ctx);

void run_checks(gpuk_context *ctx)
{
    check_spmv_small(ctx);
    check_transpose(ctx, 260, 136);
    check_transpose(ctx, 64, 128);
    check_reduce(ctx, 3, 1000, 260);
    check_reduce(ctx, 7, 300, 36);
    check_reduce(ctx, 2, 5000, 132);
    check_matmul(ctx, 1000, 132, 260, true);
    check_matmul(ctx, 129, 68, 36, false);
    check_matmul(ctx, 257, 1024, 132, true);   /* warptile_db splits k here */
    check_matmul(ctx, 512, 2048, 256, false);  /* 16 parts */
    check_matmul(ctx, 300, 4, 8, true);
    check_minplus(ctx, 1000, 132, 260);
    check_minplus(ctx, 129, 68, 36);
    check_minplus(ctx, 257, 1027, 132);
    check_softmax(ctx, 33, 260);
    check_softmax(ctx, 5, 8192);
    check_softmax(ctx, 3, 9000);   /* past one_pass's registers: the online kernel */
}

/* ---------------------------------------------------------------- reduce along axis 0 */

void run_reduce(gpuk_context *ctx, double copy_gbs)
{
    const int64_t R = 8192, C = 8192;
    auto x = rand_vec(R * C);
    std::vector<double> ref(C, 0.0), abss(C, 0.0);
    for (int64_t r = 0; r < R; r++)
        for (int64_t c = 0; c < C; c++) {
            ref[c] += x[r * C + c];
            abss[c] += fabs(x[r * C + c]);
        }
    gpuk_tensor *tx = make(ctx, {R, C}, x.data()), *ty = make(ctx, {C}, NULL);
    std::vector<float> got(C);
    for (auto &v : variants(ctx, GPUK_OP_REDUCE)) {
        poison(ctx, ty, C);
        OK(gpuk_reduce(ctx, GPUK_REDUCE_SUM, tx, 0, ty, v.c_str()));
        OK(gpuk_tensor_read(ctx, ty, got.data(), C * sizeof(float)));
        int bad = 0;
        for (int64_t c = 0; c < C; c++)
            bad += !(fabs(got[c] - ref[c]) <= 2 * gamma_k(R) * abss[c] + U * fabs(ref[c]));
        double ms = time_ms(ctx, 20, [&] { OK(gpuk_reduce(ctx, GPUK_REDUCE_SUM, tx, 0, ty, v.c_str())); });
        double gbs = (double)(R * C + C) * 4 / (ms * 1e6);
        printf("reduce axis0 8192x8192 %-13s %8.4f ms %7.0f GB/s %5.1f%% of copy kernel  %s\n",
               v.c_str(), ms, gbs, 100 * gbs / copy_gbs, bad ? "WRONG" : "ok");
        failures += bad != 0;
    }
    gpuk_tensor_destroy(ctx, tx);
    gpuk_tensor_destroy(ctx, ty);
}

/* ---------------------------------------------------------------- SpMV */

struct csr {
    int64_t rows, cols;
    std::vector<int32_t> rp, ci;
    std::vector<float> v;
};

/* Each row: len distinct sorted random columns; len from lenf(). */
template <class LenF>
csr make_csr(int64_t rows, int64_t cols, LenF lenf)
{
    csr A;
    A.rows = rows;
    A.cols = cols;
    A.rp.assign(rows + 1, 0);
    std::vector<int32_t> row;
    for (int64_t r = 0; r < rows; r++) {
        int64_t len = lenf();
        row.clear();
        for (int64_t q = 0; q < len; q++)
            row.push_back((int32_t)(rng() % (uint64_t)cols));
        std::sort(row.begin(), row.end());
        row.erase(std::unique(row.begin(), row.end()), row.end());
        A.ci.insert(A.ci.end(), row.begin(), row.end());
        A.rp[r + 1] = (int32_t)A.ci.size();
    }
    A.v = rand_vec(A.ci.size());
    return A;
}

void run_spmv_one(gpuk_context *ctx, const char *name, const csr &A, bool timed = true)
{
    int64_t nnz = (int64_t)A.ci.size(), longest = 0;
    for (int64_t r = 0; r < A.rows; r++)
        longest = std::max<int64_t>(longest, A.rp[r + 1] - A.rp[r]);
    auto x = rand_vec(A.cols);
    std::vector<double> ref(A.rows), abss(A.rows);
    for (int64_t r = 0; r < A.rows; r++) {
        double s = 0, a = 0;
        for (int32_t e = A.rp[r]; e < A.rp[r + 1]; e++) {
            double p = (double)A.v[e] * x[A.ci[e]];
            s += p;
            a += fabs(p);
        }
        ref[r] = s;
        abss[r] = a;
    }
    gpuk_csr *m = NULL;
    OK(gpuk_csr_create(ctx, A.rows, A.cols, nnz, A.rp.data(), A.ci.data(), A.v.data(), &m));
    gpuk_tensor *tx = make(ctx, {A.cols}, x.data()), *ty = make(ctx, {A.rows}, NULL);
    std::vector<float> got(A.rows);
    double bytes = (double)(2 * nnz + (A.rows + 1) + A.cols + A.rows) * 4;
    printf("%sspmv %s: %lld rows, %lld nnz (mean %.1f, longest %lld)\n", timed ? "" : "check ",
           name, (long long)A.rows,
           (long long)nnz, (double)nnz / A.rows, (long long)longest);
    double t_lib = 0;
    std::vector<std::pair<std::string, double>> rows;
    for (auto &v : variants(ctx, GPUK_OP_SPMV)) {
        poison(ctx, ty, A.rows);
        OK(gpuk_spmv(ctx, m, tx, ty, v.c_str()));
        OK(gpuk_tensor_read(ctx, ty, got.data(), A.rows * sizeof(float)));
        int64_t bad = 0;
        for (int64_t r = 0; r < A.rows; r++) {
            int64_t len = A.rp[r + 1] - A.rp[r];
            bad += !(fabs(got[r] - ref[r]) <= 2 * gamma_k(len) * abss[r] + U * fabs(ref[r]) + 1e-30);
        }
        if (!timed) {
            printf("check spmv %-9s %-9s: %s\n", name, v.c_str(), bad ? "FAIL" : "ok");
            failures += bad != 0;
            continue;
        }
        double ms = time_ms(ctx, 15, [&] { OK(gpuk_spmv(ctx, m, tx, ty, v.c_str())); });
        if (v == "cusparse")
            t_lib = ms;
        rows.push_back({v, ms});
        printf("  spmv %-9s %-9s %8.4f ms %7.0f GB/s  %s\n", name, v.c_str(), ms,
               bytes / (ms * 1e6), bad ? "WRONG" : "ok");
        failures += bad != 0;
    }
    for (auto &r : rows)
        if (timed)
            printf("  spmv %-9s %-9s cuSPARSE time / this time = %.3f\n", name, r.first.c_str(),
               t_lib / r.second);
    gpuk_csr_destroy(ctx, m);
    gpuk_tensor_destroy(ctx, tx);
    gpuk_tensor_destroy(ctx, ty);
}

/* A small power-law matrix: short, medium and segmented long rows, for
 * the checks (and compute-sanitizer). */
void check_spmv_small(gpuk_context *ctx)
{
    csr A = make_csr(20000, 20000, [] {
        double l = 5.0 * pow(unit(), -1.0 / 1.5);
        return (int64_t)std::min(l, 6000.0);
    });
    run_spmv_one(ctx, "powerlaw-20k", A, false);
}

void run_spmv(gpuk_context *ctx)
{
    const int64_t R = 4 << 20;
    {
        csr A = make_csr(R, R, [] { return (int64_t)16; });
        run_spmv_one(ctx, "random16", A);
    }
    {
        /* Pareto(alpha 1.5, minimum 5): mean 15, longest ~ 5 R^(2/3) */
        csr A = make_csr(R, R, [] {
            double l = 5.0 * pow(unit(), -1.0 / 1.5);
            return (int64_t)std::min(l, 262144.0);
        });
        run_spmv_one(ctx, "powerlaw", A);
    }
}

/* ---------------------------------------------------------------- overhead */

__global__ void direct_add(const float *x, const float *y, float *z, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        z[i] = x[i] + y[i];
}

double now_us()
{
    return std::chrono::duration<double, std::micro>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

/* Bursts of BURST calls, the device idle before each: the host time of a
 * burst is the submission cost alone (the launch queue never fills, so no
 * call waits for the GPU), and the time to the end of the following sync
 * adds the GPU's own time per kernel.  N calls in all, per mode. */
void run_overhead(gpuk_context *ctx)
{
    const int N = 10000, BURST = 250, n = 1024;
    auto hx = rand_vec(n);
    gpuk_tensor *x = make(ctx, {n}, hx.data()), *y = make(ctx, {n}, hx.data()),
                *z = make(ctx, {n}, NULL);
    float *dx, *dy, *dz;
    cudaStream_t s;
    if (cudaMalloc(&dx, n * 4) || cudaMalloc(&dy, n * 4) || cudaMalloc(&dz, n * 4) ||
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)) {
        fprintf(stderr, "cuda setup failed\n");
        exit(1);
    }
    cudaMemcpy(dx, hx.data(), n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dy, hx.data(), n * 4, cudaMemcpyHostToDevice);
    struct res {
        std::string what;
        double submit, total;
    };
    std::vector<res> out;
    auto measure = [&](const char *what, auto sync, auto call) {
        double sub = 0, tot = 0;
        for (int rep = 0; rep < 2; rep++) {   /* rep 0 warms up */
            sub = tot = 0;
            for (int b0 = 0; b0 < N; b0 += BURST) {
                sync();
                double t0 = now_us();
                for (int i = 0; i < BURST; i++)
                    call();
                double t1 = now_us();
                sync();
                double t2 = now_us();
                sub += t1 - t0;
                tot += t2 - t0;
            }
        }
        out.push_back({what, sub / N, tot / N});
    };
    auto ctx_sync = [&] { OK(gpuk_sync(ctx)); };
    auto dev_sync = [&] { cudaStreamSynchronize(s); };
    measure("gpuk_add, default variant", ctx_sync, [&] { OK(gpuk_add(ctx, x, y, z, NULL)); });
    measure("gpuk_add, variant \"float4\"", ctx_sync,
            [&] { OK(gpuk_add(ctx, x, y, z, "float4")); });
    measure("gpuk_add, variant \"coalesced\"", ctx_sync,
            [&] { OK(gpuk_add(ctx, x, y, z, "coalesced")); });
    measure("direct <<<>>> launch", dev_sync, [&] { direct_add<<<4, 256, 0, s>>>(dx, dy, dz, n); });
    measure("direct launch + cudaGetLastError", dev_sync, [&] {
        direct_add<<<4, 256, 0, s>>>(dx, dy, dz, n);
        if (cudaGetLastError() != cudaSuccess)
            exit(1);
    });
    measure("direct launch + set device + check", dev_sync, [&] {
        cudaSetDevice(0);
        direct_add<<<4, 256, 0, s>>>(dx, dy, dz, n);
        if (cudaGetLastError() != cudaSuccess)
            exit(1);
    });
    printf("overhead: %d adds of %d floats in bursts of %d, host clock (us per call)\n", N, n,
           BURST);
    for (auto &r : out)
        printf("  %-38s submit %6.2f us  submit+sync %6.2f us\n", r.what.c_str(), r.submit,
               r.total);
    printf("  libgpuk over a direct launch (default variant): %.2f us submit, %.2f us with sync\n",
           out[0].submit - out[3].submit, out[0].total - out[3].total);
    cudaFree(dx);
    cudaFree(dy);
    cudaFree(dz);
    cudaStreamDestroy(s);
    gpuk_tensor_destroy(ctx, x);
    gpuk_tensor_destroy(ctx, y);
    gpuk_tensor_destroy(ctx, z);
}

}  // namespace

int main(int argc, char **argv)
{
    gpuk_context *ctx = NULL;
    gpuk_status st = gpuk_context_open(&ctx, "cuda");
    if (st != GPUK_OK) {
        fprintf(stderr, "gpuk-perf: no cuda context: %s\n", gpuk_strerror(st));
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
    double copy_gbs = 0;
    OK(gpuk_peak_measure(ctx, GPUK_PEAK_COPY_GBS, &copy_gbs));
    printf("copy kernel ceiling: %.0f GB/s\n", copy_gbs);
    if (want("check"))
        run_checks(ctx);
    if (want("reduce"))
        run_reduce(ctx, copy_gbs);
    if (want("spmv"))
        run_spmv(ctx);
    if (want("overhead"))
        run_overhead(ctx);
    gpuk_context_close(ctx);
    printf("gpuk-perf: %d failure(s)\n", failures);
    return failures ? 1 : 0;
}

/*
 * f64-perf.c - the f64 matmul and min-plus rungs of a backend, checked and
 * timed through the public API until the op suite and gpuk-bench speak f64
 * (issue 26; not built by make, like gpuk-perf.cu):
 *
 *   check   every f64 rung of matmul, batched_matmul and min-plus on odd,
 *           strided (matmul), misaligned (offset 1: rows not 16-byte aligned),
 *           k = 0, bias and broadcast-batch cases: matmul against a long double
 *           reference within 2 gamma_K sum|a||b| + u |r| (doc/design.md,
 *           "Tolerances", u = 2^-53), min-plus bit for bit against the rules
 *           (a NaN sum skipped, -0 below +0, the update form) on inputs with
 *           NaN, +inf, -0 and +0, and on mostly-zero ones where many minima
 *           are a tie of +0 and -0 sums (f64 pipelined's zero-sign pass);
 *   bench   the rungs at the sizes given (default 4096 8192 for matmul, 4096
 *           for min-plus): median of 5 timed calls after one, TFLOP/s or
 *           Tops/s and % of the "cublas" row; the slow rungs (naive,
 *           coalesced, tiled) only up to 2048;
 *   peaks   the f64 ceilings, FMA_F64, MMA_F64, ADDMIN_F64.
 *
 *   cc -O2 -I include bench/perf/f64-perf.c -L BUILD/src/.libs -lgpuk -lm -o f64-perf
 *   LD_LIBRARY_PATH=BUILD/src/.libs GPUK_BACKEND_PATH=BUILD/backends/cuda/.libs \
 *       ./f64-perf [check] [bench [N...]] [peaks]        (default: all three)
 * (the word cpu runs the same on the CPU backend: the harness checked.)
 */
#include <gpuk.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gpuk_context *ctx;
static int failures;

#define TRY(call)                                                                       \
    do {                                                                                \
        gpuk_status s_ = (call);                                                        \
        if (s_ != GPUK_OK) {                                                            \
            printf("FAIL %s: %s: %s\n", #call, gpuk_status_name(s_),                    \
                   gpuk_context_error(ctx));                                            \
            failures++;                                                                 \
            return -1;                                                                  \
        }                                                                               \
    } while (0)

static uint64_t rng = 88172645463325252ull;
static double urand(void)   /* [0, 1) */
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (double)(rng >> 11) * 0x1p-53;
}

/* A device matrix rows x cols with row stride ld at element offset off of
 * its storage, filled from h (rows x cols, dense); *base must be destroyed. */
static int upload(int64_t rows, int64_t cols, int64_t ld, int64_t off, const double *h,
                  gpuk_tensor **base, gpuk_tensor **view)
{
    int64_t n = off + (rows ? (rows - 1) * ld + cols : 0) + 1;
    double *buf = calloc((size_t)n, sizeof *buf);
    for (int64_t i = 0; i < rows; i++)
        memcpy(buf + off + i * ld, h + i * cols, (size_t)cols * sizeof *buf);
    int64_t sh[2] = {rows, cols}, st[2] = {ld, 1};
    TRY(gpuk_tensor_create(ctx, GPUK_F64, 1, &n, base));
    TRY(gpuk_tensor_write(ctx, *base, buf, (size_t)n * sizeof *buf));
    free(buf);
    TRY(gpuk_tensor_view(ctx, *base, 2, sh, st, off, view));
    return 0;
}

static int download(const gpuk_tensor *base, int64_t rows, int64_t cols, int64_t ld, int64_t off,
                    double *h)
{
    int64_t n = off + (rows ? (rows - 1) * ld + cols : 0) + 1;
    double *buf = malloc((size_t)n * sizeof *buf);
    TRY(gpuk_tensor_read(ctx, base, buf, (size_t)n * sizeof *buf));
    for (int64_t i = 0; i < rows; i++)
        memcpy(h + i * cols, buf + off + i * ld, (size_t)cols * sizeof *buf);
    free(buf);
    return 0;
}

/* ---- matmul ---- */

/* c = a b (+ bias) for every f64 rung; layout: 0 dense, 1 offset 1 and row
 * strides cols + 3 (misaligned, strided). */
static void check_matmul(int64_t m, int64_t k, int64_t n, int bias, int layout)
{
    double *a = malloc((m * k + 1) * sizeof *a), *b = malloc((k * n + 1) * sizeof *b);
    double *bv = malloc((n + 1) * sizeof *bv), *c = malloc((m * n + 1) * sizeof *c);
    for (int64_t i = 0; i < m * k; i++)
        a[i] = 2 * urand() - 1;
    for (int64_t i = 0; i < k * n; i++)
        b[i] = 2 * urand() - 1;
    for (int64_t j = 0; j < n; j++)
        bv[j] = 2 * urand() - 1;
    int64_t off = layout ? 1 : 0, pad = layout ? 3 : 0;
    gpuk_tensor *ab, *av, *bb, *bw, *cb, *cv, *zb = NULL, *zv = NULL;
    double *zero = calloc((size_t)(m * n + 1), sizeof *zero);
    if (upload(m, k, k + pad, off, a, &ab, &av) || upload(k, n, n + pad, off, b, &bb, &bw) ||
        upload(m, n, n + pad, off, zero, &cb, &cv) || (bias && upload(1, n, n, 0, bv, &zb, &zv)))
        return;
    gpuk_tensor *bias1 = NULL;
    if (bias) {
        int64_t sh = n, st = 1;
        if (gpuk_tensor_view(ctx, zb, 1, &sh, &st, 0, &bias1) != GPUK_OK) {
            printf("FAIL bias view\n");
            failures++;
            return;
        }
    }
    size_t nv = 0;
    gpuk_variant_count_dtype(ctx, GPUK_OP_MATMUL, GPUK_F64, &nv);
    for (size_t v = 0; v < nv; v++) {
        gpuk_variant_info vi;
        gpuk_variant_get_dtype(ctx, GPUK_OP_MATMUL, GPUK_F64, v, &vi);
        gpuk_status st = gpuk_matmul(ctx, av, bw, bias1, cv, vi.name);
        if (st == GPUK_OK && download(cb, m, n, n + pad, off, c) == 0) {
            double worst = 0;
            for (int64_t i = 0; i < m; i++)
                for (int64_t j = 0; j < n; j++) {
                    long double r = bias ? bv[j] : 0, s = bias ? fabs(bv[j]) : 0;
                    for (int64_t p = 0; p < k; p++) {
                        r += (long double)a[i * k + p] * b[p * n + j];
                        s += fabsl((long double)a[i * k + p] * b[p * n + j]);
                    }
                    double K = (double)(k + bias), u = 0x1p-53, g = K * u / (1 - K * u);
                    double bound = 2 * (2 * g * (double)s + u * fabs((double)r)) + 1e-300;
                    double e = fabs(c[i * n + j] - (double)r) / bound;
                    worst = e > worst ? e : worst;
                }
            int ok = worst <= 1.0;
            failures += !ok;
            printf("%s matmul f64 %-13s %lldx%lldx%lld%s %s: worst error %.3f of the bound\n",
                   ok ? "ok  " : "FAIL", vi.name, (long long)m, (long long)k, (long long)n,
                   bias ? " bias" : "", layout ? "offset 1, strided" : "dense", worst);
        } else {
            printf("FAIL matmul f64 %s: %s: %s\n", vi.name, gpuk_status_name(st),
                   gpuk_context_error(ctx));
            failures++;
        }
    }
    gpuk_tensor_destroy(ctx, ab), gpuk_tensor_destroy(ctx, bb), gpuk_tensor_destroy(ctx, cb);
    gpuk_tensor_destroy(ctx, zb);
    free(a), free(b), free(bv), free(c), free(zero);
}

/* batched: a [3, m, k] against b [m.. k, n] broadcast (batch stride 0). */
static void check_batched(int64_t m, int64_t k, int64_t n)
{
    int64_t nb = 3;
    double *a = malloc(nb * m * k * sizeof *a), *b = malloc(k * n * sizeof *b);
    double *c = malloc(nb * m * n * sizeof *c);
    for (int64_t i = 0; i < nb * m * k; i++)
        a[i] = 2 * urand() - 1;
    for (int64_t i = 0; i < k * n; i++)
        b[i] = 2 * urand() - 1;
    gpuk_tensor *at, *bt, *bview, *ct;
    int64_t sa[3] = {nb, m, k}, sb[3] = {nb, k, n}, stb[3] = {0, n, 1}, sc[3] = {nb, m, n};
    if (gpuk_tensor_create(ctx, GPUK_F64, 3, sa, &at) ||
        gpuk_tensor_create(ctx, GPUK_F64, 2, sb + 1, &bt) ||
        gpuk_tensor_create(ctx, GPUK_F64, 3, sc, &ct) ||
        gpuk_tensor_write(ctx, at, a, nb * m * k * sizeof *a) ||
        gpuk_tensor_write(ctx, bt, b, k * n * sizeof *b) ||
        gpuk_tensor_view(ctx, bt, 3, sb, stb, 0, &bview)) {
        printf("FAIL batched setup: %s\n", gpuk_context_error(ctx));
        failures++;
        return;
    }
    size_t nv = 0;
    gpuk_variant_count_dtype(ctx, GPUK_OP_BATCHED_MATMUL, GPUK_F64, &nv);
    for (size_t v = 0; v < nv; v++) {
        gpuk_variant_info vi;
        gpuk_variant_get_dtype(ctx, GPUK_OP_BATCHED_MATMUL, GPUK_F64, v, &vi);
        gpuk_status st = gpuk_batched_matmul(ctx, at, bview, ct, vi.name);
        if (st != GPUK_OK || gpuk_tensor_read(ctx, ct, c, nb * m * n * sizeof *c) != GPUK_OK) {
            printf("FAIL batched f64 %s: %s\n", vi.name, gpuk_context_error(ctx));
            failures++;
            continue;
        }
        double worst = 0;
        for (int64_t z = 0; z < nb; z++)
            for (int64_t i = 0; i < m; i++)
                for (int64_t j = 0; j < n; j++) {
                    long double r = 0, s = 0;
                    for (int64_t p = 0; p < k; p++) {
                        long double t = (long double)a[(z * m + i) * k + p] * b[p * n + j];
                        r += t, s += fabsl(t);
                    }
                    double u = 0x1p-53, g = k * u / (1 - k * u);
                    double bound = 2 * (2 * g * (double)s + u * fabs((double)r)) + 1e-300;
                    double e = fabs(c[(z * m + i) * n + j] - (double)r) / bound;
                    worst = e > worst ? e : worst;
                }
        failures += worst > 1.0;
        printf("%s batched_matmul f64 %-13s 3 x %lldx%lldx%lld, b broadcast: worst %.3f of "
               "the bound\n", worst <= 1.0 ? "ok  " : "FAIL", vi.name, (long long)m, (long long)k,
               (long long)n, worst);
    }
    gpuk_tensor_destroy(ctx, at), gpuk_tensor_destroy(ctx, bt), gpuk_tensor_destroy(ctx, ct);
    free(a), free(b), free(c);
}

/* ---- min-plus ---- */

/* Small integers (many ties) with +inf, NaN, -0 and +0 among them; zeros:
 * non-negative and mostly zeros, so that many minima are a tie of +0 and
 * -0 sums. */
static double special(int zeros)
{
    double x = urand();
    if (x < 0.04)
        return INFINITY;
    if (x < 0.06)
        return NAN;
    if (x < (zeros ? 0.40 : 0.10))
        return -0.0;
    if (x < (zeros ? 0.70 : 0.14))
        return 0.0;
    return zeros ? floor(3 * urand()) : floor(16 * urand()) - 4;
}

static int same_bits(double x, double y)
{
    return (isnan(x) && isnan(y)) || memcmp(&x, &y, sizeof x) == 0;
}

/* IEEE 754-2019 minimum of non-NaN x and y, -0 below +0; a NaN y skipped. */
static double mp_min(double x, double y)
{
    if (isnan(y))
        return x;
    if (y < x || (y == x && signbit(y)))
        return y;
    return x;
}

static void check_minplus(int64_t m, int64_t k, int64_t n, int layout, int upd, int zeros)
{
    double *a = malloc((m * k + 1) * sizeof *a), *b = malloc((k * n + 1) * sizeof *b);
    double *old = malloc((m * n + 1) * sizeof *old), *r = malloc((m * n + 1) * sizeof *r);
    for (int64_t i = 0; i < m * k; i++)
        a[i] = special(zeros);
    for (int64_t i = 0; i < k * n; i++)
        b[i] = special(zeros);
    for (int64_t i = 0; i < m * n; i++)
        old[i] = special(zeros);
    int64_t off = layout ? 1 : 0, pad = 0;   /* min-plus operands are dense (gpuk.h) */
    size_t nv = 0;
    gpuk_variant_count_dtype(ctx, GPUK_OP_MINPLUS, GPUK_F64, &nv);
    for (size_t v = 0; v < nv; v++) {
        gpuk_variant_info vi;
        gpuk_variant_get_dtype(ctx, GPUK_OP_MINPLUS, GPUK_F64, v, &vi);
        gpuk_tensor *ab, *av, *bb, *bw, *rb, *rv;
        if (upload(m, k, k + pad, off, a, &ab, &av) || upload(k, n, n + pad, off, b, &bb, &bw) ||
            upload(m, n, n + pad, off, old, &rb, &rv))
            return;
        gpuk_status st = upd ? gpuk_minplus_update(ctx, av, bw, rv, vi.name)
                             : gpuk_minplus(ctx, av, bw, rv, vi.name);
        int64_t bad = 0;
        if (st == GPUK_OK && download(rb, m, n, n + pad, off, r) == 0) {
            for (int64_t i = 0; i < m; i++)
                for (int64_t j = 0; j < n; j++) {
                    double x = upd && !isnan(old[i * n + j]) ? old[i * n + j] : INFINITY;
                    for (int64_t p = 0; p < k; p++)
                        x = mp_min(x, a[i * k + p] + b[p * n + j]);
                    bad += !same_bits(x, r[i * n + j]);
                }
        } else {
            bad = -1;
            printf("FAIL %s\n", gpuk_context_error(ctx));
        }
        failures += bad != 0;
        printf("%s minplus%s f64 %-12s %lldx%lldx%lld %s%s: %lld outputs differ\n",
               bad ? "FAIL" : "ok  ", upd ? "_update" : "", vi.name, (long long)m, (long long)k,
               (long long)n, layout ? "offset 1" : "dense", zeros ? ", zero ties" : "",
               (long long)bad);
        gpuk_tensor_destroy(ctx, ab), gpuk_tensor_destroy(ctx, bb), gpuk_tensor_destroy(ctx, rb);
    }
    free(a), free(b), free(old), free(r);
}

/* ---- timing ---- */

static int slow(const char *name)
{
    return !strcmp(name, "naive") || !strcmp(name, "coalesced") || !strcmp(name, "tiled");
}

static int cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

static void bench_op(gpuk_op op, int64_t s)
{
    int64_t sh[2] = {s, s};
    gpuk_tensor *a, *b, *c;
    if (gpuk_tensor_create(ctx, GPUK_F64, 2, sh, &a) ||
        gpuk_tensor_create(ctx, GPUK_F64, 2, sh, &b) ||
        gpuk_tensor_create(ctx, GPUK_F64, 2, sh, &c)) {
        printf("FAIL bench %lld: %s\n", (long long)s, gpuk_context_error(ctx));
        failures++;
        return;
    }
    double *h = malloc((size_t)(s * s) * sizeof *h);
    for (int64_t i = 0; i < s * s; i++)
        h[i] = op == GPUK_OP_MINPLUS ? floor(100 * urand()) : 2 * urand() - 1;
    gpuk_tensor_write(ctx, a, h, (size_t)(s * s) * sizeof *h);
    gpuk_tensor_write(ctx, b, h, (size_t)(s * s) * sizeof *h);
    free(h);
    size_t nv = 0;
    gpuk_variant_count_dtype(ctx, op, GPUK_F64, &nv);
    double ref = 0, work = 2.0 * s * s * s;
    for (int pass = 0; pass < 2; pass++)   /* the library row first, for the % */
        for (size_t v = 0; v < nv; v++) {
            gpuk_variant_info vi;
            gpuk_variant_get_dtype(ctx, op, GPUK_F64, v, &vi);
            int lib = (vi.flags & GPUK_VARIANT_LIBRARY) != 0;
            if (lib != (pass == 0) || (slow(vi.name) && s > 2048))
                continue;
            double t[6];
            gpuk_status st = GPUK_OK;
            for (int r = 0; r < 6 && st == GPUK_OK; r++) {
                gpuk_timer_start(ctx);
                st = op == GPUK_OP_MINPLUS ? gpuk_minplus(ctx, a, b, c, vi.name)
                                           : gpuk_matmul(ctx, a, b, NULL, c, vi.name);
                gpuk_timer_stop(ctx, &t[r]);
            }
            if (st != GPUK_OK) {
                printf("FAIL %s %s: %s\n", gpuk_op_name(op), vi.name, gpuk_context_error(ctx));
                failures++;
                continue;
            }
            qsort(t + 1, 5, sizeof *t, cmp);
            if (lib)
                ref = t[3];
            printf("%s f64 %-13s %5lld^3 %9.3f ms %7.2f T%s/s %6.1f%% of %s\n", gpuk_op_name(op),
                   vi.name, (long long)s, t[3], work / t[3] * 1e-9,
                   op == GPUK_OP_MINPLUS ? "op" : "FLOP", ref > 0 ? 100 * ref / t[3] : 0.0,
                   ref > 0 ? "the library row" : "(no library row)");
        }
    gpuk_tensor_destroy(ctx, a), gpuk_tensor_destroy(ctx, b), gpuk_tensor_destroy(ctx, c);
}

int main(int argc, char **argv)
{
    int all = 1, check = 0, bench = 0, peaks = 0;
    const char *backend = "cuda";
    int64_t sizes[16];
    int ns = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "check"))
            check = 1, all = 0;
        else if (!strcmp(argv[i], "bench"))
            bench = 1, all = 0;
        else if (!strcmp(argv[i], "peaks"))
            peaks = 1, all = 0;
        else if (!strcmp(argv[i], "cpu"))
            backend = "cpu";
        else if (atoll(argv[i]) > 0 && ns < 16)
            sizes[ns++] = atoll(argv[i]);
    }
    check |= all, bench |= all, peaks |= all;
    if (gpuk_context_open(&ctx, backend) != GPUK_OK) {
        printf("FAIL no %s backend (GPUK_VERBOSE=1 says why)\n", backend);
        return 1;
    }
    if (check) {
        check_matmul(130, 67, 257, 1, 0);
        check_matmul(257, 33, 129, 0, 1);
        check_matmul(256, 512, 256, 0, 0);
        check_matmul(200, 96, 300, 1, 1);
        check_matmul(33, 0, 7, 1, 0);
        check_matmul(33, 0, 7, 0, 1);
        check_matmul(1, 1, 1, 1, 0);
        check_batched(70, 45, 130);
        check_minplus(130, 67, 257, 0, 0, 0);
        check_minplus(257, 33, 129, 1, 0, 0);
        check_minplus(200, 96, 300, 1, 1, 0);
        check_minplus(33, 0, 7, 0, 1, 0);
        check_minplus(256, 64, 256, 0, 1, 0);
        check_minplus(130, 40, 257, 0, 0, 1);
        check_minplus(256, 32, 256, 1, 1, 1);
    }
    if (bench) {
        int64_t mm[2] = {4096, 8192}, mp[1] = {4096};
        for (int i = 0; i < (ns ? ns : 2); i++)
            bench_op(GPUK_OP_MATMUL, ns ? sizes[i] : mm[i]);
        for (int i = 0; i < (ns ? ns : 1); i++)
            bench_op(GPUK_OP_MINPLUS, ns ? sizes[i] : mp[i]);
    }
    if (peaks) {
        gpuk_peak k[3] = {GPUK_PEAK_FMA_F64_GFLOPS, GPUK_PEAK_MMA_F64_GFLOPS,
                          GPUK_PEAK_ADDMIN_F64_GOPS};
        for (int i = 0; i < 3; i++) {
            double v = 0;
            gpuk_status st = gpuk_peak_measure(ctx, k[i], &v);
            printf("peak %-18s %10.1f %s%s\n", gpuk_peak_name(k[i]), v, gpuk_peak_unit(k[i]),
                   st == GPUK_OK ? "" : " (failed)");
            failures += st != GPUK_OK;
        }
    }
    gpuk_context_close(ctx);
    printf("%d failure(s)\n", failures);
    return failures != 0;
}

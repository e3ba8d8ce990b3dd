/*
 * t_ops_cuda - every (op, dtype, variant) of the CUDA backend's table
 * against the reference and against the CPU backend (see opsuite.h).
 *
 * Without a usable GPU (no driver, no device, no plugin, or a plugin that
 * cannot load because the CUDA runtime is absent) the whole file is a TAP
 * skip that names the reason.  Any other failure to open is a failed
 * check, and on a machine with a GPU a run of zero checks fails
 * (tap_done).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpuk.h>

#include "opcases.h"
#include "opsuite.h"
#include "ref.h"
#include "tap.h"

static int no_gpu_status(gpuk_status st)
{
    return st == GPUK_ERR_NO_DRIVER || st == GPUK_ERR_NO_DEVICE ||
           st == GPUK_ERR_BACKEND_NOT_FOUND || st == GPUK_ERR_BACKEND_LOAD;
}

/* The reason the open failed: the context has none to give (it is NULL),
 * so take the reason of the last rejected candidate with that status from
 * the load report (the loader's summary when no file was found), on one
 * line for TAP. */
static void why_not(const gpuk_load_report *rep, gpuk_status st, char *buf, size_t len)
{
    snprintf(buf, len, "%s", gpuk_strerror(st));
    for (size_t i = 0; rep && i < gpuk_load_report_count(rep); i++) {
        const gpuk_load_attempt *a = gpuk_load_report_get(rep, i);
        if (a && a->status == st && a->reason && a->reason[0]) {
            snprintf(buf, len, "%s: %s%s%s%s", gpuk_strerror(st), a->reason,
                     a->path && a->path[0] ? " (" : "", a->path ? a->path : "",
                     a->path && a->path[0] ? ")" : "");
        }
    }
    for (char *p = buf; *p; p++)
        if (*p == '\n' || *p == '#')
            *p = ' ';
}

/* c filled with NaN (all bits set, a NaN in f32, f16 and bf16) through buf
 * before a rung runs: an element the rung leaves unwritten then fails the
 * comparison instead of showing the last rung's value.  It also keeps
 * compute-sanitizer's initcheck quiet about reading c back after cuBLAS,
 * whose batched bf16 kernel writes c in a way initcheck does not follow
 * (torch.bmm alone on the same shape shows the same report; bench/NOTES.md,
 * "2026-11-27, seventh session"). */
static gpuk_status poison(gpuk_context *ctx, gpuk_tensor *c, void *buf, size_t bytes)
{
    memset(buf, 0xff, bytes);
    return gpuk_tensor_write(ctx, c, buf, bytes);
}

/* warptile_wide has a kernel of its own for a matrix of whole 128 x 256
 * tiles, k a multiple of 32 and a wave of tiles or more (sgemm_async.cu),
 * a shape the op suite's small cases never take: 192 tiles, more than
 * any current GPU has SMs, checked against cuBLAS, with and without a
 * bias. */
static void whole_tiles(void)
{
    enum { M = 2048, K = 128, N = 3072 };
    gpuk_context *ctx = NULL;
    gpuk_tensor *a = NULL, *b = NULL, *bias = NULL, *c = NULL;
    int64_t sa[2] = {M, K}, sb[2] = {K, N}, sc[2] = {M, N}, sbias[1] = {N};
    uint64_t g = tap_seed();
    float *ha = oc_rnd_vec(&g, GPUK_F32, (int64_t)M * K, 1, 0);
    float *hb = oc_rnd_vec(&g, GPUK_F32, (int64_t)K * N, 1, 0);
    float *hbias = oc_rnd_vec(&g, GPUK_F32, N, 1, 0), *got = oc_alloc(sizeof(float) * M * N);
    float *want = oc_alloc(sizeof(float) * M * N);
    gpuk_status st;
    if ((st = gpuk_context_open(&ctx, "cuda")) != GPUK_OK ||
        (st = gpuk_tensor_create(ctx, GPUK_F32, 2, sa, &a)) != GPUK_OK ||
        (st = gpuk_tensor_create(ctx, GPUK_F32, 2, sb, &b)) != GPUK_OK ||
        (st = gpuk_tensor_create(ctx, GPUK_F32, 1, sbias, &bias)) != GPUK_OK ||
        (st = gpuk_tensor_create(ctx, GPUK_F32, 2, sc, &c)) != GPUK_OK ||
        (st = gpuk_tensor_write(ctx, a, ha, sizeof(float) * M * K)) != GPUK_OK ||
        (st = gpuk_tensor_write(ctx, b, hb, sizeof(float) * K * N)) != GPUK_OK ||
        (st = gpuk_tensor_write(ctx, bias, hbias, sizeof(float) * N)) != GPUK_OK)
        goto out;
    for (int with_bias = 0; with_bias < 2; with_bias++) {
        const gpuk_tensor *bb = with_bias ? bias : NULL;
        if ((st = poison(ctx, c, want, sizeof(float) * M * N)) != GPUK_OK ||
            (st = gpuk_matmul(ctx, a, b, bb, c, "cublas")) != GPUK_OK ||
            (st = gpuk_tensor_read(ctx, c, want, sizeof(float) * M * N)) != GPUK_OK ||
            (st = poison(ctx, c, got, sizeof(float) * M * N)) != GPUK_OK ||
            (st = gpuk_matmul(ctx, a, b, bb, c, "warptile_wide")) != GPUK_OK ||
            (st = gpuk_tensor_read(ctx, c, got, sizeof(float) * M * N)) != GPUK_OK)
            goto out;
        /* a sum of 128 products of values in [-1, 1) in another order:
         * some 1e-6 of its magnitude apart, far below 1e-4 */
        double worst = 0, scale = 1;
        for (int64_t i = 0; i < (int64_t)M * N; i++) {
            scale = fmax(scale, fabs((double)want[i]));
            double e = fabs((double)got[i] - (double)want[i]);
            worst = e > worst || isnan(e) ? e : worst;
        }
        tap_ok(worst <= 1e-4 * scale,
               "cuda matmul/warptile_wide %dx%dx%d%s (whole tiles): max |diff| %.3g against "
               "cublas, scale %.3g", M, K, N, with_bias ? " bias" : "", worst, scale);
    }
out:
    if (st != GPUK_OK)
        tap_ok(0, "cuda matmul/warptile_wide %dx%dx%d (whole tiles): %s: %s", M, K, N,
               gpuk_strerror(st), ctx ? gpuk_context_error(ctx) : "");
    if (ctx) {
        gpuk_tensor *all[] = {a, b, bias, c};
        for (int i = 0; i < 4; i++)
            gpuk_tensor_destroy(ctx, all[i]);   /* NULL: no-op */
        gpuk_context_close(ctx);
    }
    free(ha), free(hb), free(hbias), free(got), free(want);
}

/* wgmma_streamk cuts the last wave's tiles along k only when the
 * persistent grid's clusters do not divide the units (hgemm_ws.cu), which
 * the op suite's small cases never reach: shapes of 72, 81 and 80 units of
 * two 128 x 256 tiles (on 132 SMs, 66 clusters: 6, 15 and 14 units shared
 * out, k slices of 64 a few a cluster, so many units gather partials from
 * several clusters; 2176 rows leave a spare block, 2100 columns an edge),
 * in bf16 and f16, c in the inputs' dtype with a bias and in f32, a batch
 * of 5 and a gemm with b transposed (another kernel); each against
 * cuBLAS.  On another SM count the shapes still run, stream-K or not. */
static void stream_k(void)
{
    static const int T[][5] = { /* batch (0: gemm, b transposed), m, k, n, bias */
        { 1, 2304, 320, 2048, 1 }, { 1, 2176, 520, 2100, 1 }, { 5, 1024, 256, 1024, 0 },
        { 0, 2304, 264, 2048, 0 } };
    static const gpuk_dtype dts[] = { GPUK_BF16, GPUK_F16 };
    for (size_t ti = 0; ti < sizeof T / sizeof T[0]; ti++)
        for (int di = 0; di < 2; di++)
            for (int f32 = 0; f32 < 2; f32++) {
                const int *t = T[ti];
                int64_t bt = t[0] ? t[0] : 1, m = t[1], k = t[2], n = t[3];
                int nt = t[0] == 0;   /* gemm: c = a b^T, b stored n x k */
                gpuk_dtype dt = dts[di], odt = f32 ? GPUK_F32 : dt;
                size_t es = 2, os = f32 ? 4 : 2;
                int nd = bt > 1 ? 3 : 2;
                int64_t sa[3] = { bt, m, k }, sb[3] = { bt, nt ? n : k, nt ? k : n };
                int64_t sc[3] = { bt, m, n };
                int64_t sbias[1] = { n };
                gpuk_context *ctx = NULL;
                gpuk_tensor *a = NULL, *b = NULL, *bias = NULL, *c = NULL;
                uint64_t g = tap_seed() + ti * 4 + (uint64_t)(di * 2 + f32);
                void *ha = oc_rnd_vec(&g, dt, bt * m * k, 1, 0);
                void *hb = oc_rnd_vec(&g, dt, bt * k * n, 1, 0);
                void *hbias = oc_rnd_vec(&g, odt, n, 1, 0);
                void *got = oc_alloc(os * bt * m * n), *want = oc_alloc(os * bt * m * n);
                char what[160];
                snprintf(what, sizeof what, "cuda %s/wgmma_streamk %s%lldx%lldx%lld%s c %s",
                         bt > 1 ? "batched_matmul" : nt ? "gemm" : "matmul",
                         bt > 1 ? "batch 5 " : nt ? "NT " : "",
                         (long long)m, (long long)k, (long long)n, t[4] ? " bias" : "",
                         gpuk_dtype_name(odt));
                const gpuk_tensor *bb = NULL;
                gpuk_status st;
                if ((st = gpuk_context_open(&ctx, "cuda")) != GPUK_OK ||
                    (st = gpuk_tensor_create(ctx, dt, nd, sa + 3 - nd, &a)) != GPUK_OK ||
                    (st = gpuk_tensor_create(ctx, dt, nd, sb + 3 - nd, &b)) != GPUK_OK ||
                    (st = gpuk_tensor_create(ctx, odt, 1, sbias, &bias)) != GPUK_OK ||
                    (st = gpuk_tensor_create(ctx, odt, nd, sc + 3 - nd, &c)) != GPUK_OK ||
                    (st = gpuk_tensor_write(ctx, a, ha, es * bt * m * k)) != GPUK_OK ||
                    (st = gpuk_tensor_write(ctx, b, hb, es * bt * k * n)) != GPUK_OK ||
                    (st = gpuk_tensor_write(ctx, bias, hbias, os * n)) != GPUK_OK)
                    goto out;
                bb = t[4] ? bias : NULL;
                for (int v = 0; v < 2; v++) {
                    const char *rung = v ? "wgmma_streamk" : "cublas";
                    if ((st = poison(ctx, c, v ? got : want, os * bt * m * n)) != GPUK_OK)
                        goto out;
                    st = bt > 1 ? gpuk_batched_matmul(ctx, a, b, c, rung)
                         : nt ? gpuk_gemm(ctx, GPUK_NO_TRANS, GPUK_TRANS, 1.0, a, b, 0.0, c, rung)
                              : gpuk_matmul(ctx, a, b, bb, c, rung);
                    if (st != GPUK_OK ||
                        (st = gpuk_tensor_read(ctx, c, v ? got : want, os * bt * m * n)) != GPUK_OK)
                        goto out;
                }
                {
                    /* k products of values in [-1, 1) summed in f32 in another
                     * order: far below 1e-4 of the largest; a 16-bit c may
                     * round the other way, one unit in 2^-8 */
                    double worst = 0, scale = 1, tol = f32 ? 1e-4 : 1.0 / 128;
                    int64_t bad = -1;
                    for (int64_t i = 0; i < bt * m * n; i++) {
                        double w = (double)ref_get(odt, want, i), x = (double)ref_get(odt, got, i);
                        scale = fmax(scale, fabs(w));
                        double e = fabs(x - w);
                        if (e > worst || isnan(e))
                            worst = e, bad = i;
                    }
                    tap_ok(worst <= tol * scale, "%s: max |diff| %.3g against cublas (at %lld), "
                           "scale %.3g", what, worst, (long long)bad, scale);
                }
            out:
                if (st != GPUK_OK)
                    tap_ok(0, "%s: %s: %s", what, gpuk_strerror(st),
                           ctx ? gpuk_context_error(ctx) : "");
                if (ctx) {
                    gpuk_tensor *all[] = { a, b, bias, c };
                    for (int i = 0; i < 4; i++)
                        gpuk_tensor_destroy(ctx, all[i]);
                    gpuk_context_close(ctx);
                }
                free(ha), free(hb), free(hbias), free(got), free(want);
            }
}

int main(void)
{
    gpuk_options o;
    gpuk_context *ctx = NULL;
    gpuk_load_report *rep = NULL;
    char why[512];

    gpuk_options_init(&o);
    o.backend = "cuda";
    gpuk_status st = gpuk_context_open_ex(&ctx, &o, &rep);
    if (st != GPUK_OK) {
        why_not(rep, st, why, sizeof why);
        if (rep)
            gpuk_load_report_free(rep);
        if (no_gpu_status(st))
            return tap_skip_all("no usable CUDA backend (%s)", why);
        tap_ok(0, "open a cuda context: %s", why);
        return tap_done();
    }
    if (rep)
        gpuk_load_report_free(rep);
    gpuk_context_close(ctx);
    opsuite_run("cuda");
    whole_tiles();
    stream_k();
    return tap_done();
}

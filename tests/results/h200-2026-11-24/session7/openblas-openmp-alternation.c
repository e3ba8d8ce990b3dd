/* alternating OpenBLAS gemm and an OpenMP elementwise op in one context */
#include <gpuk.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1024, iters = argc > 2 ? atoi(argv[2]) : 30;
    const char *rv = argc > 3 ? argv[3] : NULL;
    gpuk_context *ctx;
    if (gpuk_context_open(&ctx, "cpu")) return 1;
    int64_t s[2] = { n, n };
    gpuk_tensor *a, *b, *c;
    gpuk_tensor_create(ctx, GPUK_F32, 2, s, &a); gpuk_tensor_create(ctx, GPUK_F32, 2, s, &b); gpuk_tensor_create(ctx, GPUK_F32, 2, s, &c);
    float *h = calloc((size_t)n * n, 4);
    for (long i = 0; i < (long)n * n; i++) h[i] = (float)(i % 7) - 3;
    gpuk_tensor_write(ctx, a, h, (size_t)n * n * 4); gpuk_tensor_write(ctx, b, h, (size_t)n * n * 4);
    double tg = 0, tr = 0;
    for (int it = -2; it < iters; it++) {
        double t0 = now();
        if (gpuk_gemm(ctx, GPUK_NO_TRANS, GPUK_NO_TRANS, 1.0f, a, b, 0.0f, c, "openblas")) return 2;
        double t1 = now();
        if (rv && gpuk_relu(ctx, c, c, rv)) return 3;
        double t2 = now();
        if (it >= 0) tg += t1 - t0, tr += t2 - t1;
    }
    printf("n=%d relu=%s: gemm %.3f ms/call (%.1f GFLOP/s), relu %.3f ms/call\n", n, rv ? rv : "none",
           tg / iters * 1e3, 2.0 * n * n * n / (tg / iters) * 1e-9, tr / iters * 1e3);
    return 0;
}

/*
 * overhead.c - the C side of python/bench_overhead.py: the cost of one call
 * of a small op from C, to compare with the same call from Python.
 *
 *   overhead [calls] [elements] [backend]     (defaults: 200000 16 cpu)
 *
 * Times, per call, averaged over `calls` calls after a warm-up:
 *   add        gpuk_add(ctx, x, y, out, NULL) on tensors made once
 *   add+alloc  gpuk_tensor_create, gpuk_add, gpuk_tensor_destroy (what
 *              gpuk.add(x, y) without out= does)
 *   add+wrap   gpuk_tensor_wrap of three host arrays, gpuk_add, three
 *              gpuk_tensor_destroy (what gpuk.add does with NumPy arrays on a
 *              CPU context; only where the backend can wrap host memory)
 * and prints one line per case: "name ns_per_call".
 * Build: cc -O2 overhead.c $(pkg-config --cflags --libs gpuk)
 */
#include <gpuk.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

#define CHECK(call)                                                                 \
    do {                                                                            \
        gpuk_status s_ = (call);                                                    \
        if (s_ != GPUK_OK) {                                                        \
            fprintf(stderr, "%s: %s: %s\n", #call, gpuk_status_name(s_),            \
                    ctx ? gpuk_context_error(ctx) : "");                            \
            return 1;                                                               \
        }                                                                           \
    } while (0)

int main(int argc, char **argv)
{
    long calls = argc > 1 ? atol(argv[1]) : 200000;
    int64_t n = argc > 2 ? atol(argv[2]) : 16;
    const char *backend = argc > 3 ? argv[3] : "cpu";
    if (calls < 1 || n < 1) {
        fprintf(stderr, "usage: overhead [calls >= 1] [elements >= 1] [backend]\n");
        return 2;
    }
    gpuk_context *ctx = NULL;
    CHECK(gpuk_context_open(&ctx, backend));
    gpuk_tensor *x, *y, *out;
    CHECK(gpuk_tensor_create(ctx, GPUK_F32, 1, &n, &x));
    CHECK(gpuk_tensor_create(ctx, GPUK_F32, 1, &n, &y));
    CHECK(gpuk_tensor_create(ctx, GPUK_F32, 1, &n, &out));
    float *host = calloc((size_t)n, sizeof *host);
    if (!host)
        return 1;
    for (int64_t i = 0; i < n; i++)
        host[i] = (float)i;
    CHECK(gpuk_tensor_write(ctx, x, host, (size_t)n * sizeof *host));
    CHECK(gpuk_tensor_write(ctx, y, host, (size_t)n * sizeof *host));

    for (long i = 0; i < calls / 10 + 1; i++)
        CHECK(gpuk_add(ctx, x, y, out, NULL));
    CHECK(gpuk_sync(ctx));
    double t0 = now_ns();
    for (long i = 0; i < calls; i++)
        CHECK(gpuk_add(ctx, x, y, out, NULL));
    CHECK(gpuk_sync(ctx));
    double t1 = now_ns();
    printf("add %.1f\n", (t1 - t0) / (double)calls);

    t0 = now_ns();
    for (long i = 0; i < calls; i++) {
        gpuk_tensor *o;
        CHECK(gpuk_tensor_create(ctx, GPUK_F32, 1, &n, &o));
        CHECK(gpuk_add(ctx, x, y, o, NULL));
        CHECK(gpuk_tensor_destroy(ctx, o));
    }
    CHECK(gpuk_sync(ctx));
    t1 = now_ns();
    printf("add+alloc %.1f\n", (t1 - t0) / (double)calls);

    /* what gpuk.add(x, y, out=z) does with three NumPy arrays on a CPU
     * context: wrap each in place, add, destroy the three handles */
    float *hz = calloc((size_t)n, sizeof *hz);
    if (!hz)
        return 1;
    t0 = now_ns();
    for (long i = 0; i < calls; i++) {
        gpuk_tensor *wx, *wy, *wz;
        CHECK(gpuk_tensor_wrap(ctx, GPUK_F32, 1, &n, NULL, host, &wx));
        CHECK(gpuk_tensor_wrap(ctx, GPUK_F32, 1, &n, NULL, host, &wy));
        CHECK(gpuk_tensor_wrap(ctx, GPUK_F32, 1, &n, NULL, hz, &wz));
        CHECK(gpuk_add(ctx, wx, wy, wz, NULL));
        CHECK(gpuk_tensor_destroy(ctx, wx));
        CHECK(gpuk_tensor_destroy(ctx, wy));
        CHECK(gpuk_tensor_destroy(ctx, wz));
    }
    t1 = now_ns();
    if (gpuk_tensor_wrap(ctx, GPUK_F32, 1, &n, NULL, host, &x) == GPUK_OK) {
        gpuk_tensor_destroy(ctx, x);
        printf("add+wrap %.1f\n", (t1 - t0) / (double)calls);
    }

    free(hz);
    free(host);
    gpuk_context_close(ctx);
    return 0;
}

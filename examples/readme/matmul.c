/* matmul.c - the program of README.md ("Using it"): c = a . b on the default
 * backend, with the default rung and with the naive one, each checked
 * against a plain loop.  Build: cc matmul.c $(pkg-config --cflags --libs gpuk) -lm */
#include <gpuk.h>
#include <math.h>
#include <stdio.h>

#define M 64
#define K 32
#define N 16

static float host_a[M][K], host_b[K][N], host_c[M][N];

/* Every call returns a status; on failure the context's message names the argument. */
#define CHECK(call)                                                                   \
    do {                                                                              \
        gpuk_status s_ = (call);                                                      \
        if (s_ != GPUK_OK) {                                                          \
            fprintf(stderr, "%s: %s: %s\n", #call, gpuk_status_name(s_),              \
                    gpuk_context_error(ctx));                                         \
            gpuk_context_close(ctx);                                                  \
            return 1;                                                                 \
        }                                                                             \
    } while (0)

int main(void)
{
    gpuk_context *ctx;
    gpuk_status st = gpuk_context_open(&ctx, NULL);   /* GPUK_BACKEND, else auto */
    if (st != GPUK_OK) {
        fprintf(stderr, "cannot open a backend: %s (%s); GPUK_VERBOSE=1 says why\n",
                gpuk_status_name(st), gpuk_strerror(st));
        return 1;
    }
    gpuk_info info;
    CHECK(gpuk_context_info(ctx, &info));

    for (int i = 0; i < M; i++)          /* small integers: every sum is exact in f32 */
        for (int p = 0; p < K; p++)
            host_a[i][p] = (float)((2 * i + p) % 7 - 3);
    for (int p = 0; p < K; p++)
        for (int j = 0; j < N; j++)
            host_b[p][j] = (float)((p + 2 * j) % 5 - 2);

    int64_t sa[2] = { M, K }, sb[2] = { K, N }, sc[2] = { M, N };
    gpuk_tensor *a, *b, *c;
    CHECK(gpuk_tensor_create(ctx, GPUK_F32, 2, sa, &a));
    CHECK(gpuk_tensor_create(ctx, GPUK_F32, 2, sb, &b));
    CHECK(gpuk_tensor_create(ctx, GPUK_F32, 2, sc, &c));
    CHECK(gpuk_tensor_write(ctx, a, host_a, sizeof host_a));
    CHECK(gpuk_tensor_write(ctx, b, host_b, sizeof host_b));

    /* NULL takes the backend's default rung; "naive" is a rung on every backend */
    const char *rungs[2] = { NULL, "naive" };
    for (int r = 0; r < 2; r++) {
        CHECK(gpuk_matmul(ctx, a, b, NULL, c, rungs[r]));
        CHECK(gpuk_tensor_read(ctx, c, host_c, sizeof host_c));
        double worst = 0;
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                double sum = 0;          /* the plain loop */
                for (int p = 0; p < K; p++)
                    sum += (double)host_a[i][p] * host_b[p][j];
                worst = fmax(worst, fabs(sum - host_c[i][j]));
            }
        printf("%s backend, %s rung: c[0][0..3] = %g %g %g %g; largest difference "
               "from a plain loop: %g\n", info.backend, rungs[r] ? rungs[r] : "default",
               host_c[0][0], host_c[0][1], host_c[0][2], host_c[0][3], worst);
        if (worst > 1e-3) {
            fprintf(stderr, "wrong result from the %s rung\n", rungs[r] ? rungs[r] : "default");
            gpuk_context_close(ctx);
            return 1;
        }
    }
    gpuk_context_close(ctx);             /* frees a, b and c too */
    return 0;
}

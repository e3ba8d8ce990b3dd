/* faults.c - issue 3 scratch check on the GPU: out of device memory leaves
 * the context usable; a device ordinal past the last device is refused with
 * a message.  Not committed. */
#include <gpuk.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int fails;
#define EXPECT(c, ...) do { int ok_ = (c); printf("%s - ", ok_ ? "ok" : "not ok"); printf(__VA_ARGS__); printf("\n"); if (!ok_) fails++; } while (0)

int main(void)
{
    gpuk_context *ctx = NULL;
    gpuk_status st = gpuk_context_open(&ctx, "cuda");
    EXPECT(st == GPUK_OK, "open cuda: %s", gpuk_strerror(st));
    if (st)
        return 1;
    gpuk_tensor *big = NULL;
    int64_t huge = (int64_t)60 << 30;     /* 60 Gi floats = 240 GiB */
    st = gpuk_tensor_create(ctx, GPUK_F32, 1, &huge, &big);
    EXPECT(st == GPUK_ERR_DEVICE_MEMORY, "240 GiB tensor: %s: %s", gpuk_strerror(st), gpuk_context_error(ctx));

    int64_t sa[2] = { 3, 5 }, sb[2] = { 5, 4 }, sc[2] = { 3, 4 };
    gpuk_tensor *a, *b, *c;
    float ha[15], hb[20], hc[12], want[12];
    for (int i = 0; i < 15; i++) ha[i] = (float)(i % 7) - 2.5f;
    for (int i = 0; i < 20; i++) hb[i] = (float)(i % 5) * 0.5f - 1.0f;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++) {
            double s = 0;
            for (int k = 0; k < 5; k++) s += (double)ha[i * 5 + k] * hb[k * 4 + j];
            want[i * 4 + j] = (float)s;
        }
    st = gpuk_tensor_create(ctx, GPUK_F32, 2, sa, &a);
    if (!st) st = gpuk_tensor_create(ctx, GPUK_F32, 2, sb, &b);
    if (!st) st = gpuk_tensor_create(ctx, GPUK_F32, 2, sc, &c);
    if (!st) st = gpuk_tensor_write(ctx, a, ha, sizeof ha);
    if (!st) st = gpuk_tensor_write(ctx, b, hb, sizeof hb);
    EXPECT(st == GPUK_OK, "tensors after the failed allocation: %s %s", gpuk_strerror(st), gpuk_context_error(ctx));
    const char *vs[] = { "naive", "tiled", "cublas", NULL };
    for (int v = 0; vs[v] && !st; v++) {
        memset(hc, 0, sizeof hc);
        st = gpuk_matmul(ctx, a, b, NULL, c, vs[v]);
        if (!st) st = gpuk_tensor_read(ctx, c, hc, sizeof hc);
        double err = 0;
        for (int i = 0; i < 12; i++) err = fmax(err, fabs(hc[i] - want[i]));
        EXPECT(st == GPUK_OK && err < 1e-5, "matmul/%s after out-of-memory: %s, max err %g", vs[v], gpuk_strerror(st), err);
    }
    st = gpuk_sync(ctx);
    EXPECT(st == GPUK_OK, "sync: %s", gpuk_strerror(st));
    gpuk_context_close(ctx);

    gpuk_options o;
    gpuk_options_init(&o);
    o.backend = "cuda";
    o.device = 7;
    ctx = NULL;
    gpuk_load_report *rep = NULL;
    st = gpuk_context_open_ex(&ctx, &o, &rep);
    EXPECT(st != GPUK_OK && ctx == NULL, "device 7 on a 1-GPU machine refused: %s", gpuk_strerror(st));
    if (rep) {
        printf("# %s\n", gpuk_load_report_text(rep));
        gpuk_load_report_free(rep);
    }
    gpuk_context_close(ctx);
    printf("%d failed\n", fails);
    return fails != 0;
}

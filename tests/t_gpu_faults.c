/*
 * t_gpu_faults - device memory exhaustion on the CUDA backend: a tensor
 * larger than the device, then the device filled with 1 GiB tensors until
 * an allocation fails, must each answer GPUK_ERR_DEVICE_MEMORY with a
 * message, and the context must stay usable: ops issued afterwards (every
 * matmul variant, an SpMV) give the right answer, and gpuk_sync reports no
 * stale error.  Without a usable CUDA device the whole file is skipped.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpuk.h>

#include "ref.h"
#include "t_rel.h"
#include "tap.h"

static gpuk_context *ctx;

/* Every matmul variant on a 33x17x29 product against the reference. */
static int matmul_all(const char *when)
{
    const int64_t m = 33, k = 17, n = 29;
    float a[33 * 17], b[17 * 29], c[33 * 29];
    ref_real ref[33 * 29];
    double bd[33 * 29];
    for (int i = 0; i < m * k; i++)
        a[i] = (float)((i * 7) % 13) / 8.0f - 0.75f;
    for (int i = 0; i < k * n; i++)
        b[i] = (float)((i * 5) % 11) / 4.0f - 1.25f;
    gpuk_tensor *ta = NULL, *tb = NULL, *tc = NULL;
    int ok = gpuk_tensor_create(ctx, GPUK_F32, 2, REL_SHAPE(m, k), &ta) == GPUK_OK &&
             gpuk_tensor_create(ctx, GPUK_F32, 2, REL_SHAPE(k, n), &tb) == GPUK_OK &&
             gpuk_tensor_create(ctx, GPUK_F32, 2, REL_SHAPE(m, n), &tc) == GPUK_OK &&
             gpuk_tensor_write(ctx, ta, a, sizeof a) == GPUK_OK &&
             gpuk_tensor_write(ctx, tb, b, sizeof b) == GPUK_OK;
    tap_ok(ok, "%s: small tensors can be made and written", when);
    if (!ok) {
        tap_diag("  %s", gpuk_context_error(ctx));
        return 0;
    }
    /* the reference of the call, as ref_op() takes it (tests/ref.h) */
    ref_args ra;
    memset(&ra, 0, sizeof ra);
    ra.op = GPUK_OP_MATMUL;
    ra.dtype = GPUK_F32;
    ra.in[0] = (ref_operand){ 2, { m, k }, a, GPUK_F32 };
    ra.in[1] = (ref_operand){ 2, { k, n }, b, GPUK_F32 };
    ra.out = (ref_operand){ 2, { m, n }, NULL, GPUK_F32 };
    size_t nv = 0;
    gpuk_variant_count(ctx, GPUK_OP_MATMUL, &nv);
    for (size_t i = 0; i < nv; i++) {
        gpuk_variant_info vi;
        gpuk_variant_get(ctx, GPUK_OP_MATMUL, i, &vi);
        ref_op(&ra, vi.flags, ref, bd);
        gpuk_status st = gpuk_matmul(ctx, ta, tb, NULL, tc, vi.name);
        ref_cmp res = { 0 };
        if (st == GPUK_OK && (st = gpuk_tensor_read(ctx, tc, c, sizeof c)) == GPUK_OK)
            ref_compare(GPUK_F32, m * n, c, ref, bd, 0, &res);
        tap_ok(st == GPUK_OK && res.bad == 0, "%s: matmul/%s is right", when, vi.name);
        if (st != GPUK_OK)
            tap_diag("  %s", gpuk_context_error(ctx));
        ok = ok && st == GPUK_OK && res.bad == 0;
    }
    REL_EXPECT(ctx, gpuk_sync(ctx), GPUK_OK, NULL);
    gpuk_tensor_destroy(ctx, ta);
    gpuk_tensor_destroy(ctx, tb);
    gpuk_tensor_destroy(ctx, tc);
    return ok;
}

static void spmv_after(void)
{
    const int32_t rp[] = { 0, 2, 2, 3 }, ci[] = { 0, 3, 1 };
    const float cv[] = { 2, -1, 4 }, x[] = { 1, 2, 3, 4 };
    float y[3] = { 0 };
    gpuk_csr *m = NULL;
    gpuk_tensor *tx = NULL, *ty = NULL;
    gpuk_status st = gpuk_csr_create(ctx, 3, 4, 3, rp, ci, cv, &m);
    if (st == GPUK_OK)
        st = gpuk_tensor_create(ctx, GPUK_F32, 1, REL_SHAPE(4), &tx);
    if (st == GPUK_OK)
        st = gpuk_tensor_create(ctx, GPUK_F32, 1, REL_SHAPE(3), &ty);
    if (st == GPUK_OK)
        st = gpuk_tensor_write(ctx, tx, x, sizeof x);
    if (st == GPUK_OK)
        st = gpuk_spmv(ctx, m, tx, ty, NULL);
    if (st == GPUK_OK)
        st = gpuk_tensor_read(ctx, ty, y, sizeof y);
    tap_ok(st == GPUK_OK && y[0] == -2 && y[1] == 0 && y[2] == 8,
           "after the failures a CSR matrix is made and SpMV is right");
    if (st != GPUK_OK)
        tap_diag("  %s", gpuk_context_error(ctx));
    gpuk_csr_destroy(ctx, m);
    gpuk_tensor_destroy(ctx, tx);
    gpuk_tensor_destroy(ctx, ty);
}

int main(void)
{
    gpuk_status st = gpuk_context_open(&ctx, "cuda");
    if (st != GPUK_OK)
        return tap_skip_all("no usable CUDA backend here (%s)", gpuk_strerror(st));
    gpuk_info info;
    gpuk_context_info(ctx, &info);
    tap_diag("device %s, %.1f GiB", info.device, (double)info.device_memory / (1 << 30));

    /* one tensor larger than the device */
    uint64_t mem = info.device_memory ? info.device_memory : (uint64_t)1 << 40;
    int64_t floats = (int64_t)((mem + ((uint64_t)1 << 30)) / 4);
    gpuk_tensor *t = NULL;
    REL_EXPECT(ctx, gpuk_tensor_create(ctx, GPUK_F32, 1, &floats, &t), GPUK_ERR_DEVICE_MEMORY,
               "gpuk_tensor_create");
    REL_EXPECT(ctx, gpuk_tensor_create(ctx, GPUK_F32, 2, REL_SHAPE(1LL << 25, 1LL << 20), &t),
               GPUK_ERR_DEVICE_MEMORY, "gpuk_tensor_create");
    tap_ok(t == NULL, "a failed create leaves *out NULL");
    matmul_all("after one oversized tensor");

    /* fill the device a GiB at a time until it refuses */
    int64_t gib = (int64_t)1 << 28;   /* floats */
    int n = 0, max = (int)(mem >> 30) + 4;
    gpuk_tensor **held = calloc((size_t)max, sizeof *held);
    while (n < max && (st = gpuk_tensor_create(ctx, GPUK_F32, 1, &gib, &held[n])) == GPUK_OK)
        n++;
    tap_ok(st == GPUK_ERR_DEVICE_MEMORY, "filling the device: %d GiB held, then %s", n,
           gpuk_strerror(st));
    /* an op on a full device may itself need memory (cuBLAS workspace, a
     * scratch buffer): out of memory is an answer, a crash or a stale
     * error later is not */
    gpuk_tensor *a = NULL, *c = NULL;
    st = gpuk_tensor_create(ctx, GPUK_F32, 2, REL_SHAPE(64, 64), &a);
    if (st == GPUK_OK)
        st = gpuk_tensor_create(ctx, GPUK_F32, 2, REL_SHAPE(64, 64), &c);
    if (st == GPUK_OK)
        st = gpuk_matmul(ctx, a, a, NULL, c, NULL);
    tap_ok(st == GPUK_OK || st == GPUK_ERR_DEVICE_MEMORY, "a matmul on the full device: %s",
           gpuk_strerror(st));
    gpuk_tensor_destroy(ctx, a);
    gpuk_tensor_destroy(ctx, c);
    for (int i = 0; i < n; i++)
        gpuk_tensor_destroy(ctx, held[i]);
    free(held);
    matmul_all("after filling and freeing the device");
    spmv_after();
    gpuk_context_close(ctx);
    return tap_done();
}

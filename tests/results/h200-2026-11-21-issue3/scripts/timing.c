/* timing.c - issue 3: every CUDA variant at one large size, next to cuBLAS,
 * cuSPARSE and copy bandwidth.  Through the public API (device events via
 * gpuk_timer_*), median of REPS after one warm-up.  Scratch, not committed. */
#include <gpuk.h>
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

#define CK(x) do { gpuk_status s_ = (x); if (s_) { fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, gpuk_context_error(ctx)); exit(1); } } while (0)

static gpuk_context *ctx;
static uint64_t rs = 88172645463325252ull;
static float rnd(void) { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return (float)((rs >> 40) & 0xffffff) / 16777216.0f * 2.0f - 1.0f + 1e-3f; }

static gpuk_tensor *mk(int nd, int64_t d0, int64_t d1, int fill)
{
    int64_t sh[2] = { d0, d1 };
    gpuk_tensor *t;
    CK(gpuk_tensor_create(ctx, GPUK_F32, nd, sh, &t));
    int64_t n = nd == 1 ? d0 : d0 * d1;
    if (fill) {
        float *h = malloc((size_t)n * 4);
        for (int64_t i = 0; i < n; i++) h[i] = rnd();
        CK(gpuk_tensor_write(ctx, t, h, (size_t)n * 4));
        free(h);
    }
    return t;
}

static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }

typedef gpuk_status (*runfn)(const char *v, void *arg);
static double timeit(runfn f, const char *v, void *arg, int reps)
{
    double t[16];
    CK(f(v, arg));            /* warm-up */
    CK(gpuk_sync(ctx));
    for (int i = 0; i < reps; i++) {
        CK(gpuk_timer_start(ctx));
        CK(f(v, arg));
        CK(gpuk_timer_stop(ctx, &t[i]));
    }
    qsort(t, reps, sizeof t[0], cmpd);
    return t[reps / 2];
}

static gpuk_tensor *A, *B, *C, *X, *Y;
static gpuk_csr *S;
static gpuk_status r_matmul(const char *v, void *a) { (void)a; return gpuk_matmul(ctx, A, B, NULL, C, v); }
static gpuk_status r_gemm(const char *v, void *a) { (void)a; return gpuk_gemm(ctx, GPUK_NO_TRANS, GPUK_NO_TRANS, 1.0f, A, B, 0.0f, C, v); }
static gpuk_status r_minplus(const char *v, void *a) { (void)a; return gpuk_minplus(ctx, A, B, C, v); }
static gpuk_status r_transpose(const char *v, void *a) { (void)a; return gpuk_transpose(ctx, A, C, v); }
static gpuk_status r_spmv(const char *v, void *a) { (void)a; return gpuk_spmv(ctx, S, X, Y, v); }
static gpuk_status r_reduce(const char *v, void *a) { return gpuk_reduce(ctx, GPUK_REDUCE_SUM, A, *(int *)a, Y, v); }
static gpuk_status r_add(const char *v, void *a) { (void)a; return gpuk_add(ctx, A, B, C, v); }
static gpuk_status r_copy(const char *v, void *a) { (void)a; return gpuk_copy(ctx, A, C, v); }
static gpuk_status r_softmax(const char *v, void *a) { (void)a; return gpuk_softmax(ctx, A, C, v); }

static void ladder(gpuk_op op, const char *size, runfn f, void *arg, double work, const char *unit, int reps)
{
    size_t nv;
    CK(gpuk_variant_count(ctx, op, &nv));
    for (size_t i = 0; i < nv; i++) {
        gpuk_variant_info vi;
        CK(gpuk_variant_get(ctx, op, i, &vi));
        double ms = timeit(f, vi.name, arg, reps);
        printf("| %-10s | %-12s | %-22s | %10.3f | %10.1f %s |\n", gpuk_op_name(op), vi.name, size, ms,
               work / (ms * 1e6), unit);
        fflush(stdout);
    }
}

int main(void)
{
    gpuk_info info;
    if (gpuk_context_open(&ctx, "cuda")) { fprintf(stderr, "open: %s\n", gpuk_context_error(ctx)); return 1; }
    CK(gpuk_context_info(ctx, &info));
    printf("device: %s, %d SMs\n\n", info.device, info.multiprocessors);
    printf("| op | variant | size | ms (median) | rate |\n|---|---|---|---|---|\n");

    double pk;
    CK(gpuk_peak_measure(ctx, GPUK_PEAK_COPY_GBS, &pk));
    printf("| peak | copy float4 kernel | 256 MiB | - | %10.1f GB/s |\n", pk);
    CK(gpuk_peak_measure(ctx, GPUK_PEAK_FMA_GFLOPS, &pk));
    printf("| peak | FFMA 8x8 tile | - | - | %10.1f GFLOP/s |\n", pk);
    CK(gpuk_peak_measure(ctx, GPUK_PEAK_ADDMIN_GOPS, &pk));
    printf("| peak | add+min 8x8 tile | - | - | %10.1f Gop/s |\n", pk);
    {   /* cudaMemcpy device-to-device, for comparison with the kernel */
        void *s, *d; size_t bytes = (size_t)1 << 30; cudaEvent_t e0, e1; float ms, best = 1e30f;
        cudaMalloc(&s, bytes); cudaMalloc(&d, bytes); cudaMemset(s, 1, bytes);
        cudaEventCreate(&e0); cudaEventCreate(&e1);
        for (int i = 0; i < 6; i++) {
            cudaEventRecord(e0, 0); cudaMemcpyAsync(d, s, bytes, cudaMemcpyDeviceToDevice, 0); cudaEventRecord(e1, 0);
            cudaEventSynchronize(e1); cudaEventElapsedTime(&ms, e0, e1); if (i && ms < best) best = ms;
        }
        printf("| peak | cudaMemcpy D2D | 1 GiB | %10.3f | %10.1f GB/s |\n", best, 2.0 * bytes / (best * 1e6));
        cudaFree(s); cudaFree(d);
    }

    int64_t n = 4096;
    A = mk(2, n, n, 1); B = mk(2, n, n, 1); C = mk(2, n, n, 0);
    ladder(GPUK_OP_MATMUL, "4096^3", r_matmul, NULL, 2.0 * n * n * n, "GFLOP/s", 5);
    ladder(GPUK_OP_GEMM, "4096^3", r_gemm, NULL, 2.0 * n * n * n, "GFLOP/s", 5);
    ladder(GPUK_OP_MINPLUS, "4096^3", r_minplus, NULL, 2.0 * n * n * n, "Gop/s", 3);
    gpuk_tensor_destroy(ctx, A); gpuk_tensor_destroy(ctx, B); gpuk_tensor_destroy(ctx, C);

    n = 8192;
    A = mk(2, n, n, 1); C = mk(2, n, n, 0);
    ladder(GPUK_OP_TRANSPOSE, "8192^2", r_transpose, NULL, 2.0 * 4 * n * n, "GB/s", 5);
    B = mk(2, n, n, 1);
    ladder(GPUK_OP_ADD, "64M", r_add, NULL, 3.0 * 4 * n * n, "GB/s", 5);
    ladder(GPUK_OP_COPY, "64M", r_copy, NULL, 2.0 * 4 * n * n, "GB/s", 5);
    ladder(GPUK_OP_SOFTMAX, "8192^2 rows", r_softmax, NULL, 2.0 * 4 * n * n, "GB/s", 5);
    gpuk_tensor_destroy(ctx, B); gpuk_tensor_destroy(ctx, C);
    int ax = 1;
    Y = mk(1, n, 0, 0);
    ladder(GPUK_OP_REDUCE, "8192^2 axis 1", r_reduce, &ax, 4.0 * n * n, "GB/s", 5);
    ax = 0;
    ladder(GPUK_OP_REDUCE, "8192^2 axis 0", r_reduce, &ax, 4.0 * n * n, "GB/s", 5);
    gpuk_tensor_destroy(ctx, A); gpuk_tensor_destroy(ctx, Y);

    {   /* SpMV: 4M rows x 16 random nnz, 4M columns */
        int64_t rows = 4 << 20, cols = rows, per = 16, nnz = rows * per;
        int32_t *rp = malloc((rows + 1) * 4), *ci = malloc(nnz * 4);
        float *cv = malloc(nnz * 4);
        for (int64_t r = 0; r <= rows; r++) rp[r] = (int32_t)(r * per);
        for (int64_t r = 0; r < rows; r++) {
            int32_t *c = ci + r * per;
            for (int q = 0; q < per; q++) { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; c[q] = (int32_t)(rs % (uint64_t)cols); }
            for (int q = 1; q < per; q++) for (int p = q; p > 0 && c[p] < c[p - 1]; p--) { int32_t t = c[p]; c[p] = c[p - 1]; c[p - 1] = t; }
        }
        for (int64_t e = 0; e < nnz; e++) cv[e] = rnd();
        CK(gpuk_csr_create(ctx, rows, cols, nnz, rp, ci, cv, &S));
        free(rp); free(ci); free(cv);
        X = mk(1, cols, 0, 1); Y = mk(1, rows, 0, 0);
        /* minimum traffic: values + col indices + row_ptr + y + x once */
        double bytes = nnz * 8.0 + (rows + 1) * 4.0 + rows * 4.0 + cols * 4.0;
        ladder(GPUK_OP_SPMV, "4M x 16 random", r_spmv, NULL, bytes, "GB/s", 7);
    }
    gpuk_context_close(ctx);
    return 0;
}

// scratch: forms of warptile_wide timed in turns with cuBLAS (issue 18), not a rung.
#include "../backends/cuda/sgemm_async.cu"
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cmath>
#include <cublas_v2.h>

__global__ void fill(float *x, int64_t n, unsigned seed)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x) {
        unsigned h = (unsigned)i * 2654435761u ^ seed;
        h ^= h >> 13; h *= 0x5bd1e995u; h ^= h >> 15;
        x[i] = (float)(h & 0xffffff) / 8388608.0f - 1.0f;
    }
}

typedef void (*kfn)(gkc_mm, int64_t, int64_t, int64_t, int64_t, int64_t);
struct form { const char *name; kfn k; size_t smem; };
#define FORM(name, BK, AT, U, SP) {name, matmul_warptile_db<BK, true, AT, 256, U, true, SP>, geom<BK, AT, 256>::SMEM_BYTES}
static form forms[] = {
    FORM("at_u16", 32, true, 16, false),
    FORM("at_u32", 32, true, 32, false),
    FORM("sp_u16", 32, true, 16, true),
    FORM("sp_u32", 32, true, 32, true),
    FORM("sp_u8", 32, true, 8, true),
    FORM("sp_u4", 32, true, 4, true),
};
static const int NF = sizeof forms / sizeof forms[0];

static void run_shape(int64_t m, int64_t n, int64_t k, int reps)
{
    float *a, *b, *c, *r;
    cudaMalloc(&a, m * k * 4); cudaMalloc(&b, k * n * 4); cudaMalloc(&c, m * n * 4); cudaMalloc(&r, m * n * 4);
    fill<<<1024, 256>>>(a, m * k, 1); fill<<<1024, 256>>>(b, k * n, 2);
    gkc_mm p{};
    p.a = a; p.b = b; p.c = c; p.bias = nullptr;
    p.m = m; p.n = n; p.k = k; p.lda = k; p.ldb = n; p.ldc = n; p.batch = 1;
    dim3 g((unsigned)(n / 256), (unsigned)(m / 128), 1);
    for (auto &f : forms)
        cudaFuncSetAttribute(f.k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)f.smem);
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    cublasHandle_t h; cublasCreate(&h);
    float one = 1, zero = 0;
    auto timed = [&](int which) {
        cudaEventRecord(e0);
        if (which < NF)
            forms[which].k<<<g, NT, forms[which].smem>>>(p, k, 1, 0, 0, 0);
        else
            cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k, &one, b, (int)n, a,
                        (int)k, &zero, r, (int)n);
        cudaEventRecord(e1); cudaEventSynchronize(e1);
        float ms; cudaEventElapsedTime(&ms, e0, e1);
        return (double)ms;
    };
    std::vector<std::vector<double>> t(NF + 1);
    for (int w = 0; w <= NF; w++) timed(w);
    /* correctness of each form against cuBLAS */
    std::vector<float> hr(m * n), hc(m * n);
    cudaMemcpy(hr.data(), r, m * n * 4, cudaMemcpyDeviceToHost);
    for (int f = 0; f < NF; f++) {
        cudaMemset(c, 0xff, m * n * 4);
        timed(f);
        cudaMemcpy(hc.data(), c, m * n * 4, cudaMemcpyDeviceToHost);
        double worst = 0, scale = 0;
        for (int64_t i = 0; i < m * n; i++) {
            scale = std::max(scale, (double)fabsf(hr[i]));
            double e = fabs((double)hc[i] - hr[i]);
            if (!(e <= worst)) worst = e;
        }
        printf("  %-8s max |diff| %.3g of scale %.3g%s\n", forms[f].name, worst, scale,
               worst <= 1e-3 * scale ? "" : "  WRONG");
    }
    for (int rep = 0; rep < reps; rep++)
        for (int w = 0; w <= NF; w++) {
            int x = (rep & 1) ? NF - w : w;   /* alternate the order */
            t[x].push_back(timed(x));
        }
    auto med = [](std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; };
    double cb = med(t[NF]);
    printf("%lldx%lldx%lld, medians of %d in turns: cuBLAS %.4f ms\n", (long long)m, (long long)n,
           (long long)k, reps, cb);
    for (int f = 0; f < NF; f++) {
        cudaFuncAttributes at; cudaFuncGetAttributes(&at, forms[f].k);
        printf("  %-8s %.4f ms  %.1f%% of cuBLAS  (%d registers, %zu local)\n", forms[f].name,
               med(t[f]), 100 * cb / med(t[f]), at.numRegs, at.localSizeBytes);
    }
    cublasDestroy(h);
    cudaFree(a); cudaFree(b); cudaFree(c); cudaFree(r);
}

int main()
{
    run_shape(4096, 4096, 4096, 40);
    run_shape(8192, 8192, 8192, 10);
    run_shape(2048, 2048, 2048, 100);
    run_shape(8192, 1024, 8192, 40);
    return 0;
}

// scratch: where in a k step the spread copies go (issue 18), not a rung.
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

/* run_spread with the copy positions as parameters: A copy at steps with
 * i % 2 == AP, B copy at i % 4 == BP, before (AFTER false) or after the FMAs */
template <int U, int AP, int BP, bool AFTER>
__device__ __forceinline__ void tile_x(float (&acc)[8][16], const gkc_mm &p, float *smem,
                                       const lane_tile &lt, int64_t i0, int64_t j0)
{
    constexpr int BK = 32, W = 256, NC = 16;
    using G = geom<BK, true, W>;
    using L = slice_loader<BK, true, true, W>;
    constexpr int SA = G::SA;
    int64_t kbeg = 0, kend = p.k;
    int64_t nslices = gkc_cdiv(kend - kbeg, BK);
    L ld(p, i0, j0, kbeg);
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < nslices)
            ld.issue(p, smem + s * G::STAGE_FLOATS, kbeg + s * BK, kend, true);
        gkc_cp_async_commit();
    }
    int rd = 0, wr = STAGES - 1;
    for (int64_t ks = 0; ks < nslices; ks++) {
        gkc_cp_async_wait<STAGES - 2>();
        __syncthreads();
        const float *as = smem + rd * G::STAGE_FLOATS, *bs = as + G::A_FLOATS;
        float *dst = smem + wr * G::STAGE_FLOATS;
        bool more = ks + STAGES - 1 < nslices;
#pragma unroll 1
        for (int kb = 0; kb < BK; kb += U) {
#pragma unroll
            for (int i = 0; i < U; i++) {
                const float *arow = as + (kb + i) * SA + lt.wm + 4 * lt.lm;
                float4 a0 = *(const float4 *)arow, a1 = *(const float4 *)(arow + 16);
                float x[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
                auto issue = [&] {
                    if (!more) return;
                    if (i % 2 == AP) ld.issue_a(dst, (kb + i) / 2);
                    if (i % 4 == BP) ld.issue_b(dst, (kb + i) / 4);
                };
                if (!AFTER) issue();
                const float *brow = bs + (kb + i) * W + lt.wn + lt.ln;
                float y[NC];
#pragma unroll
                for (int q = 0; q < NC / 4; q++) {
                    float4 bq = *(const float4 *)(brow + 32 * q);
                    y[4 * q] = bq.x, y[4 * q + 1] = bq.y, y[4 * q + 2] = bq.z, y[4 * q + 3] = bq.w;
                }
#pragma unroll
                for (int c = 0; c < NC; c++)
#pragma unroll
                    for (int rr = 0; rr < 8; rr++) {
                        int r = (c & 1) ? 7 - rr : rr;
                        acc[r][c] += x[r] * y[c];
                    }
                if (AFTER) issue();
            }
        }
        if (more) ld.advance(p);
        gkc_cp_async_commit();
        rd = rd == STAGES - 1 ? 0 : rd + 1;
        wr = wr == STAGES - 1 ? 0 : wr + 1;
    }
    gkc_cp_async_wait<0>();
}

template <int U, int AP, int BP, bool AFTER>
__global__ void __launch_bounds__(NT, 1) xform(gkc_mm p, int64_t, int64_t, int64_t, int64_t, int64_t)
{
    extern __shared__ __align__(16) float smem[];
    lane_tile lt(256);
    int64_t i0 = (int64_t)blockIdx.y * BM, j0 = (int64_t)blockIdx.x * 256;
    float acc[8][16];
    acc_start(acc, p, lt, j0, true);
    tile_x<U, AP, BP, AFTER>(acc, p, smem, lt, i0, j0);
    acc_store<true>(p.c, p.ldc, acc, lt, i0, j0, p.m, p.n);
}

typedef void (*kfn)(gkc_mm, int64_t, int64_t, int64_t, int64_t, int64_t);
struct form { const char *name; kfn k; size_t smem; };
constexpr size_t SM = geom<32, true, 256>::SMEM_BYTES;
static form forms[] = {
    {"prod_whole", nullptr, SM},
    {"prod_sp8", matmul_warptile_db<32, true, true, 256, 8, true, true>, SM},
    {"x8_a0b1", xform<8, 0, 1, false>, SM},
    {"x8_a1b0", xform<8, 1, 0, false>, SM},
    {"x4_a0b1", xform<4, 0, 1, false>, SM},
    {"x16_a0b1", xform<16, 0, 1, false>, SM},
    {"x32_a0b1", xform<32, 0, 1, false>, SM},
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
        if (f.k)
            cudaFuncSetAttribute(f.k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)f.smem);
    cudaFuncSetAttribute(matmul_wide_whole<8>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)SM);
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    cublasHandle_t h; cublasCreate(&h);
    float one = 1, zero = 0;
    auto timed = [&](int which) {
        cudaEventRecord(e0);
        if (which < NF && !forms[which].k)
            matmul_wide_whole<8><<<g, NT, SM>>>(p, 0);
        else if (which < NF)
            forms[which].k<<<g, NT, forms[which].smem>>>(p, k, 1, 0, 0, 0);
        else
            cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k, &one, b, CUDA_R_32F,
                         (int)n, a, CUDA_R_32F, (int)k, &zero, r, CUDA_R_32F, (int)n,
                         CUBLAS_COMPUTE_32F_PEDANTIC, CUBLAS_GEMM_DEFAULT);
        cudaEventRecord(e1); cudaEventSynchronize(e1);
        float ms; cudaEventElapsedTime(&ms, e0, e1);
        return (double)ms;
    };
    std::vector<std::vector<double>> t(NF + 1);
    for (int w = 0; w <= NF; w++) timed(w);
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
        if (!(worst <= 1e-3 * scale))
            printf("  %-14s WRONG: max |diff| %.3g of scale %.3g\n", forms[f].name, worst, scale);
    }
    for (int rep = 0; rep < reps; rep++)
        for (int w = 0; w <= NF; w++) {
            int x = (rep & 1) ? NF - w : w;
            t[x].push_back(timed(x));
        }
    auto med = [](std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; };
    double cb = med(t[NF]);
    printf("%lldx%lldx%lld, medians of %d in turns: cuBLAS (GemmEx pedantic) %.4f ms\n",
           (long long)m, (long long)n, (long long)k, reps, cb);
    for (int f = 0; f < NF; f++) {
        cudaFuncAttributes at;
        if (forms[f].k) cudaFuncGetAttributes(&at, forms[f].k);
        else cudaFuncGetAttributes(&at, matmul_wide_whole<8>);
        printf("  %-14s %.4f ms  %.1f%% of cuBLAS  (%d registers, %zu local)\n", forms[f].name,
               med(t[f]), 100 * cb / med(t[f]), at.numRegs, at.localSizeBytes);
    }
    cublasDestroy(h);
    cudaFree(a); cudaFree(b); cudaFree(c); cudaFree(r);
}

int main(int argc, char **argv)
{
    int big = argc > 1;
    run_shape(4096, 4096, 4096, 30);
    if (big) {
        run_shape(8192, 8192, 8192, 6);
        run_shape(2048, 2048, 2048, 60);
        run_shape(8192, 1024, 8192, 30);
    }
    return 0;
}

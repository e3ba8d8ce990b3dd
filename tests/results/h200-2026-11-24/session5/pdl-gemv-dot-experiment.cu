// Scratch experiment (not committed): PDL, gemv and dot kernels at 4096^2 / 8192^2.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cublas_v2.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1);} } while (0)

__device__ __forceinline__ void pdl_wait() { asm volatile("griddepcontrol.wait;" ::: "memory"); }
__device__ __forceinline__ void pdl_go() { asm volatile("griddepcontrol.launch_dependents;" ::: "memory"); }

constexpr int NT = 256;

template <bool PDL>
__global__ void copy2(const float4 *x, float4 *o, int64_t n4)
{
    if (PDL) { pdl_go(); pdl_wait(); }
    int64_t step = (int64_t)gridDim.x * NT, v = (int64_t)blockIdx.x * NT + threadIdx.x;
    for (; v + step < n4; v += 2 * step) {
        float4 a0 = x[v], a1 = x[v + step];
        o[v] = a0; o[v + step] = a1;
    }
    if (v < n4) o[v] = x[v];
}

template <bool PDL>
__global__ void rowsum_tree(const float *x, float *out, int rows, int len)
{
    if (PDL) { pdl_go(); pdl_wait(); }
    __shared__ float sh[NT];
    for (int g = blockIdx.x; g < rows; g += gridDim.x) {
        const float *r = x + (int64_t)g * len;
        float s = 0.f;
        for (int l = threadIdx.x; l < len; l += NT) s += r[l];
        sh[threadIdx.x] = s;
        for (int st = NT / 2; st > 0; st /= 2) { __syncthreads(); if (threadIdx.x < st) sh[threadIdx.x] += sh[threadIdx.x + st]; }
        if (threadIdx.x == 0) out[g] = sh[0];
        __syncthreads();
    }
}

__device__ __forceinline__ float wsum(float s)
{
    for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    return s;
}

// gemv N: a warp per row, U float4 of A in flight a lane.
template <bool PDL, int U>
__global__ void gemv_warp(const float *A, int64_t lda, const float *x, float *y, int64_t m, int64_t n)
{
    if (PDL) { pdl_go(); pdl_wait(); }
    int lane = threadIdx.x & 31;
    int64_t w = ((int64_t)blockIdx.x * NT + threadIdx.x) >> 5, nw = ((int64_t)gridDim.x * NT) >> 5;
    int64_t n4 = n / 4;
    const float4 *x4 = (const float4 *)x;
    for (int64_t i = w; i < m; i += nw) {
        const float4 *a4 = (const float4 *)(A + i * lda);
        float s = 0.f;
        int64_t c = lane;
        for (; c + 32 * (U - 1) < n4; c += 32 * U) {
            float4 a[U], b[U];
#pragma unroll
            for (int u = 0; u < U; u++) a[u] = __ldcs(a4 + c + 32 * u);
#pragma unroll
            for (int u = 0; u < U; u++) b[u] = __ldg(x4 + c + 32 * u);
#pragma unroll
            for (int u = 0; u < U; u++) s += a[u].x * b[u].x + a[u].y * b[u].y + a[u].z * b[u].z + a[u].w * b[u].w;
        }
        for (; c < n4; c += 32) { float4 a = a4[c], b = x4[c]; s += a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
        s = wsum(s);
        if (lane == 0) y[i] = s;
    }
}

// gemv N: a block per row, scalar loads as smem_tree.
template <bool PDL>
__global__ void gemv_block(const float *A, int64_t lda, const float *x, float *y, int64_t m, int64_t n)
{
    if (PDL) { pdl_go(); pdl_wait(); }
    __shared__ float sh[NT / 32];
    for (int64_t i = blockIdx.x; i < m; i += gridDim.x) {
        const float *a = A + i * lda;
        float s = 0.f;
        for (int64_t l = threadIdx.x; l < n; l += NT) s += a[l] * __ldg(x + l);
        s = wsum(s);
        if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = s;
        __syncthreads();
        if (threadIdx.x < 32) {
            float t = threadIdx.x < NT / 32 ? sh[threadIdx.x] : 0.f;
            t = wsum(t);
            if (threadIdx.x == 0) y[i] = t;
        }
        __syncthreads();
    }
}

// dot: one kernel, block partials, the last block adds them in order.
template <bool PDL>
__global__ void dot_last(const float4 *x, const float4 *y, int64_t n4, float *part, unsigned *count, float *out)
{
    if (PDL) { pdl_go(); pdl_wait(); }
    __shared__ float sh[NT / 32];
    __shared__ bool last;
    int64_t step = (int64_t)gridDim.x * NT, v = (int64_t)blockIdx.x * NT + threadIdx.x;
    float s0 = 0.f, s1 = 0.f;
    for (; v + step < n4; v += 2 * step) {
        float4 a0 = x[v], a1 = x[v + step], b0 = y[v], b1 = y[v + step];
        s0 += a0.x * b0.x + a0.y * b0.y + a0.z * b0.z + a0.w * b0.w;
        s1 += a1.x * b1.x + a1.y * b1.y + a1.z * b1.z + a1.w * b1.w;
    }
    if (v < n4) { float4 a0 = x[v], b0 = y[v]; s0 += a0.x * b0.x + a0.y * b0.y + a0.z * b0.z + a0.w * b0.w; }
    float s = wsum(s0 + s1);
    if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = s;
    __syncthreads();
    if (threadIdx.x == 0) {
        float t = 0.f;
        for (int q = 0; q < NT / 32; q++) t += sh[q];
        part[blockIdx.x] = t;
        __threadfence();
        last = atomicAdd(count, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (last) {
        __threadfence();
        float t = 0.f;
        for (int q = threadIdx.x; q < (int)gridDim.x; q += NT) t += ((volatile float *)part)[q];
        t = wsum(t);
        if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = t;
        __syncthreads();
        if (threadIdx.x == 0) {
            float u = 0.f;
            for (int q = 0; q < NT / 32; q++) u += sh[q];
            *out = u;
            *count = 0;
        }
    }
}

template <class F>
double time_calls(F launch, int calls)
{
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0); cudaEventCreate(&e1);
    for (int i = 0; i < 5; i++) launch();
    CK(cudaDeviceSynchronize());
    std::vector<double> t;
    for (int rep = 0; rep < 7; rep++) {
        cudaEventRecord(e0);
        for (int i = 0; i < calls; i++) launch();
        cudaEventRecord(e1);
        CK(cudaEventSynchronize(e1));
        float ms; cudaEventElapsedTime(&ms, e0, e1);
        t.push_back(ms * 1000.0 / calls);
    }
    std::sort(t.begin(), t.end());
    CK(cudaGetLastError());
    return t[3];
}

template <class K, class... A>
void launch(bool pdl, K k, unsigned grid, A... args)
{
    cudaLaunchConfig_t c = {};
    c.gridDim = grid; c.blockDim = NT; c.stream = 0;
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    at[0].val.programmaticStreamSerializationAllowed = 1;
    c.attrs = at; c.numAttrs = pdl ? 1 : 0;
    CK(cudaLaunchKernelEx(&c, k, args...));
}

int main()
{
    int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    const int64_t N = 8192LL * 8192;
    float *x, *y, *o, *part, *out; unsigned *cnt;
    CK(cudaMalloc(&x, N * 4)); CK(cudaMalloc(&y, N * 4)); CK(cudaMalloc(&o, N * 4));
    CK(cudaMalloc(&part, 1 << 20)); CK(cudaMalloc(&out, 64)); CK(cudaMalloc(&cnt, 64));
    CK(cudaMemset(cnt, 0, 64));
    std::vector<float> h(N);
    for (int64_t i = 0; i < N; i++) h[i] = (float)((i * 2654435761u) % 1000) / 1000.f - 0.5f;
    CK(cudaMemcpy(x, h.data(), N * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(y, h.data(), N * 4, cudaMemcpyHostToDevice));
    cublasHandle_t hb; cublasCreate(&hb);
    unsigned cap = sms * 32;
    for (int64_t side : {4096, 8192}) {
        int64_t n = side * side, n4 = n / 4;
        double rb = n * 4.0, cb = 2 * rb;
        unsigned g = std::min<int64_t>(cap, (n4 + NT - 1) / NT);
        int calls = side == 4096 ? 60 : 15;
        for (int p = 0; p < 2; p++) {
            double t = time_calls([&] { if (p) launch(true, copy2<true>, g, (const float4 *)x, (float4 *)o, n4); else launch(false, copy2<false>, g, (const float4 *)x, (float4 *)o, n4); }, calls);
            printf("%ld copy pdl=%d %.3f us %.0f GB/s\n", side, p, t, cb / t / 1e3);
        }
        double tm = time_calls([&] { cudaMemcpyAsync(o, x, n * 4, cudaMemcpyDeviceToDevice); }, calls);
        printf("%ld memcpy %.3f us %.0f GB/s\n", side, tm, cb / tm / 1e3);
        for (int p = 0; p < 2; p++) {
            double t = time_calls([&] { if (p) launch(true, rowsum_tree<true>, side, (const float *)x, o, (int)side, (int)side); else launch(false, rowsum_tree<false>, side, (const float *)x, o, (int)side, (int)side); }, calls);
            printf("%ld rowsum_tree pdl=%d %.3f us %.0f GB/s\n", side, p, t, rb / t / 1e3);
        }
        float one = 1.f, zero = 0.f;
        double tc = time_calls([&] { cublasSgemv(hb, CUBLAS_OP_T, side, side, &one, x, side, y, 1, &zero, o, 1); }, calls);
        printf("%ld gemv cublas %.3f us %.0f GB/s\n", side, tc, rb / tc / 1e3);
        for (int p = 0; p < 2; p++) {
            unsigned gw = std::min<int64_t>(cap, side / 8);
            double t2 = time_calls([&] { if (p) launch(true, gemv_warp<true, 2>, gw, (const float *)x, side, (const float *)y, o, side, side); else launch(false, gemv_warp<false, 2>, gw, (const float *)x, side, (const float *)y, o, side, side); }, calls);
            double t4 = time_calls([&] { if (p) launch(true, gemv_warp<true, 4>, gw, (const float *)x, side, (const float *)y, o, side, side); else launch(false, gemv_warp<false, 4>, gw, (const float *)x, side, (const float *)y, o, side, side); }, calls);
            double t8 = time_calls([&] { if (p) launch(true, gemv_warp<true, 8>, gw, (const float *)x, side, (const float *)y, o, side, side); else launch(false, gemv_warp<false, 8>, gw, (const float *)x, side, (const float *)y, o, side, side); }, calls);
            double tb = time_calls([&] { if (p) launch(true, gemv_block<true>, side, (const float *)x, side, (const float *)y, o, side, side); else launch(false, gemv_block<false>, side, (const float *)x, side, (const float *)y, o, side, side); }, calls);
            printf("%ld gemv pdl=%d warp2 %.3f (%.0f) warp4 %.3f (%.0f) warp8 %.3f (%.0f) block %.3f (%.0f)\n", side, p,
                   t2, rb / t2 / 1e3, t4, rb / t4 / 1e3, t8, rb / t8 / 1e3, tb, rb / tb / 1e3);
        }
        // check gemv against cublas
        cublasSgemv(hb, CUBLAS_OP_T, side, side, &one, x, side, y, 1, &zero, o, 1);
        std::vector<float> r1(side), r2(side);
        cudaMemcpy(r1.data(), o, side * 4, cudaMemcpyDeviceToHost);
        launch(false, gemv_warp<false, 4>, 1024, (const float *)x, side, (const float *)y, o, side, side);
        cudaMemcpy(r2.data(), o, side * 4, cudaMemcpyDeviceToHost);
        double md = 0; for (int i = 0; i < side; i++) md = std::max(md, (double)fabsf(r1[i] - r2[i]));
        printf("%ld gemv maxdiff %.3g (y0 %.4f)\n", side, md, r1[0]);
        // dot
        double td = time_calls([&] { cublasSetPointerMode(hb, CUBLAS_POINTER_MODE_DEVICE); cublasSdot(hb, n, x, 1, y, 1, out); }, calls);
        printf("%ld dot cublas %.3f us %.0f GB/s\n", side, td, cb / td / 1e3);
        for (int p = 0; p < 2; p++) {
            for (unsigned gd : {(unsigned)sms * 4, (unsigned)sms * 8, (unsigned)sms * 16}) {
                double t = time_calls([&] { if (p) launch(true, dot_last<true>, gd, (const float4 *)x, (const float4 *)y, n4, part, cnt, out); else launch(false, dot_last<false>, gd, (const float4 *)x, (const float4 *)y, n4, part, cnt, out); }, calls);
                printf("%ld dot_last pdl=%d grid %u %.3f us %.0f GB/s\n", side, p, gd, t, cb / t / 1e3);
            }
        }
        float d1, d2;
        cublasSetPointerMode(hb, CUBLAS_POINTER_MODE_HOST);
        cublasSdot(hb, n, x, 1, y, 1, &d1);
        launch(false, dot_last<false>, sms * 8, (const float4 *)x, (const float4 *)y, n4, part, cnt, out);
        cudaMemcpy(&d2, out, 4, cudaMemcpyDeviceToHost);
        printf("%ld dot check cublas %.6g own %.6g\n", side, d1, d2);
    }
    return 0;
}

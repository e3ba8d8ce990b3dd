// Scratch experiment (not committed): row sums and gemv at 4096^2 / 8192^2
// with every load of a block's row in flight at once, all with PDL.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1);} } while (0)

__device__ __forceinline__ void pdl() { asm volatile("griddepcontrol.wait;" ::: "memory"); asm volatile("griddepcontrol.launch_dependents;" ::: "memory"); }
__device__ __forceinline__ float wsum(float s) { for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o); return s; }
__device__ __forceinline__ float d4(float4 a, float4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }

template <int NT>
__device__ __forceinline__ float bsum(float s, float *sh)
{
    s = wsum(s);
    if ((threadIdx.x & 31) == 0) sh[threadIdx.x >> 5] = s;
    __syncthreads();
    float t = threadIdx.x < NT / 32 ? sh[threadIdx.x] : 0.f;
    if (threadIdx.x < 32) t = wsum(t);
    return t;
}

// smem_tree as in reduce.cu
__global__ void rowsum_tree(const float *x, float *out, int rows, int len)
{
    pdl();
    __shared__ float sh[256];
    for (int g = blockIdx.x; g < rows; g += gridDim.x) {
        const float *r = x + (int64_t)g * len;
        float s = 0.f;
        for (int l = threadIdx.x; l < len; l += 256) s += r[l];
        sh[threadIdx.x] = s;
        for (int st = 128; st > 0; st /= 2) { __syncthreads(); if (threadIdx.x < st) sh[threadIdx.x] += sh[threadIdx.x + st]; }
        if (threadIdx.x == 0) out[g] = sh[0];
        __syncthreads();
    }
}

// a block of NT per row, V float4 a thread all loaded before any add
template <int NT, int V, bool GEMV>
__global__ void __launch_bounds__(NT) rows_v(const float *x, const float *v, float *out, int rows, int len)
{
    pdl();
    __shared__ float sh[32];
    int n4 = len / 4;
    const float4 *v4 = (const float4 *)v;
    for (int g = blockIdx.x; g < rows; g += gridDim.x) {
        const float4 *r = (const float4 *)(x + (int64_t)g * len);
        float4 a[V], b[V];
#pragma unroll
        for (int u = 0; u < V; u++) {
            int c = threadIdx.x + u * NT;
            a[u] = c < n4 ? __ldcs(r + c) : make_float4(0, 0, 0, 0);
        }
        if (GEMV) {
#pragma unroll
            for (int u = 0; u < V; u++) {
                int c = threadIdx.x + u * NT;
                b[u] = c < n4 ? __ldg(v4 + c) : make_float4(0, 0, 0, 0);
            }
        }
        float s = 0.f;
#pragma unroll
        for (int u = 0; u < V; u++) s += GEMV ? d4(a[u], b[u]) : (a[u].x + a[u].y) + (a[u].z + a[u].w);
        s = bsum<NT>(s, sh);
        if (threadIdx.x == 0) out[g] = s;
        __syncthreads();
    }
}

// gemv warp per row, 4 float4 in flight (the committed rung)
__global__ void gemv_warp4(const float *A, int64_t lda, const float *x, float *y, int64_t m, int64_t n)
{
    pdl();
    int lane = threadIdx.x & 31;
    int64_t w = ((int64_t)blockIdx.x * 256 + threadIdx.x) >> 5, nw = ((int64_t)gridDim.x * 256) >> 5;
    int64_t n4 = n / 4;
    const float4 *x4 = (const float4 *)x;
    for (int64_t i = w; i < m; i += nw) {
        const float4 *a4 = (const float4 *)(A + i * lda);
        float s = 0.f;
        for (int64_t c = lane; c + 96 < n4; c += 128) {
            float4 a[4], b[4];
#pragma unroll
            for (int u = 0; u < 4; u++) a[u] = __ldcs(a4 + c + 32 * u);
#pragma unroll
            for (int u = 0; u < 4; u++) b[u] = __ldg(x4 + c + 32 * u);
#pragma unroll
            for (int u = 0; u < 4; u++) s += d4(a[u], b[u]);
        }
        s = wsum(s);
        if (lane == 0) y[i] = s;
    }
}


__device__ __forceinline__ float gkc_block_sum(float v, float *sh)
{
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    v = wsum(v);
    __syncthreads();
    if (lane == 0) sh[warp] = v;
    __syncthreads();
    return wsum(lane < nwarps ? sh[lane] : 0.0f);
}
__device__ __forceinline__ float axpby(float alpha, float s, float beta, const float *y) { return alpha * s + (beta != 0.0f ? beta * *y : 0.0f); }
constexpr int RNT = 512;
template <int MODE>
__global__ void __launch_bounds__(RNT) gemv_lib(const float *a, int64_t lda, const float *x, float *y, int64_t m, int64_t n, float alpha, float beta)
{
    pdl();
    __shared__ float sh[32];
    const float4 *x4 = (const float4 *)x, z = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    int64_t n4 = n / 4;
    int c0 = threadIdx.x, c1 = threadIdx.x + RNT;
    for (int64_t i = blockIdx.x; i < m; i += gridDim.x) {
        float s = 0.0f;
        if (alpha != 0.0f) {
            const float *ar = a + i * lda;
            const float4 *r = (const float4 *)ar;
            float4 a0 = c0 < n4 ? __ldcs(r + c0) : z, a1 = c1 < n4 ? __ldcs(r + c1) : z;
            float4 v0 = c0 < n4 ? __ldg(x4 + c0) : z, v1 = c1 < n4 ? __ldg(x4 + c1) : z;
            s = d4(a0, v0) + d4(a1, v1);
            if (MODE != 1)
                for (int64_t j = 4 * n4 + threadIdx.x; j < n; j += RNT) s += ar[j] * x[j];
        }
        if (MODE == 2) { s = bsum<RNT>(s, sh); } else s = gkc_block_sum(s, sh);
        if (threadIdx.x == 0) y[i] = axpby(alpha, s, beta, y + i);
        if (MODE == 2) __syncthreads();
    }
}
__global__ void __launch_bounds__(RNT) peak_rows4(const float4 *src, float *out)
{
    pdl();
    __shared__ float sh[32];
    const float4 *x = src + (int64_t)blockIdx.x * 2048;
    float4 v[4];
#pragma unroll
    for (int u = 0; u < 4; u++) v[u] = x[threadIdx.x + u * RNT];
    float s = (v[0].x + v[0].y + v[0].z + v[0].w) + (v[1].x + v[1].y + v[1].z + v[1].w) + (v[2].x + v[2].y + v[2].z + v[2].w) + (v[3].x + v[3].y + v[3].z + v[3].w);
    s = gkc_block_sum(s, sh);
    if (threadIdx.x == 0) out[blockIdx.x] = s;
}

template <class F>
double time_calls(F launch, int calls)
{
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0); cudaEventCreate(&e1);
    for (int i = 0; i < 5; i++) launch();
    CK(cudaDeviceSynchronize());
    std::vector<double> t;
    for (int rep = 0; rep < 9; rep++) {
        cudaEventRecord(e0);
        for (int i = 0; i < calls; i++) launch();
        cudaEventRecord(e1);
        CK(cudaEventSynchronize(e1));
        float ms; cudaEventElapsedTime(&ms, e0, e1);
        t.push_back(ms * 1000.0 / calls);
    }
    std::sort(t.begin(), t.end());
    CK(cudaGetLastError());
    return t[4];
}

template <class K, class... A>
void launch(K k, unsigned grid, unsigned nt, A... args)
{
    cudaLaunchConfig_t c = {};
    c.gridDim = grid; c.blockDim = nt; c.stream = 0;
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    at[0].val.programmaticStreamSerializationAllowed = 1;
    c.attrs = at; c.numAttrs = 1;
    CK(cudaLaunchKernelEx(&c, k, args...));
}

int main()
{
    const int64_t N = 8192LL * 8192;
    float *x, *v, *o;
    CK(cudaMalloc(&x, N * 4)); CK(cudaMalloc(&v, 8192 * 4)); CK(cudaMalloc(&o, 8192 * 4 * 4));
    std::vector<float> h(N);
    for (int64_t i = 0; i < N; i++) h[i] = (float)((i * 2654435761u) % 1000) / 1000.f - 0.5f;
    CK(cudaMemcpy(x, h.data(), N * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(v, h.data(), 8192 * 4, cudaMemcpyHostToDevice));
    for (int side : {4096, 8192}) {
        double rb = (double)side * side * 4;
        int calls = side == 4096 ? 80 : 20;
        auto rep = [&](const char *name, double t) { printf("%d %-28s %8.3f us %6.0f GB/s\n", side, name, t, rb / t / 1e3); };
        rep("rowsum_tree", time_calls([&] { launch(rowsum_tree, side, 256, (const float *)x, o, side, side); }, calls));
        rep("gemv_warp4", time_calls([&] { launch(gemv_warp4, side / 8, 256, (const float *)x, (int64_t)side, (const float *)v, o, (int64_t)side, (int64_t)side); }, calls));
        if (side == 4096) {
            rep("rows_v nt256 v4 sum", time_calls([&] { launch(rows_v<256, 4, false>, side, 256, (const float *)x, (const float *)v, o, side, side); }, calls));
            rep("rows_v nt128 v8 sum", time_calls([&] { launch(rows_v<128, 8, false>, side, 128, (const float *)x, (const float *)v, o, side, side); }, calls));
            rep("rows_v nt512 v2 sum", time_calls([&] { launch(rows_v<512, 2, false>, side, 512, (const float *)x, (const float *)v, o, side, side); }, calls));
            rep("rows_v nt1024 v1 sum", time_calls([&] { launch(rows_v<1024, 1, false>, side, 1024, (const float *)x, (const float *)v, o, side, side); }, calls));
            rep("rows_v nt256 v4 gemv", time_calls([&] { launch(rows_v<256, 4, true>, side, 256, (const float *)x, (const float *)v, o, side, side); }, calls));
            rep("rows_v nt128 v8 gemv", time_calls([&] { launch(rows_v<128, 8, true>, side, 128, (const float *)x, (const float *)v, o, side, side); }, calls));
            rep("rows_v nt512 v2 gemv", time_calls([&] { launch(rows_v<512, 2, true>, side, 512, (const float *)x, (const float *)v, o, side, side); }, calls));
        } else {
            rep("rows_v nt256 v8 sum", time_calls([&] { launch(rows_v<256, 8, false>, side, 256, (const float *)x, (const float *)v, o, side, side); }, calls));
            rep("rows_v nt512 v4 sum", time_calls([&] { launch(rows_v<512, 4, false>, side, 512, (const float *)x, (const float *)v, o, side, side); }, calls));
            rep("rows_v nt256 v8 gemv", time_calls([&] { launch(rows_v<256, 8, true>, side, 256, (const float *)x, (const float *)v, o, side, side); }, calls));
            rep("rows_v nt512 v4 gemv", time_calls([&] { launch(rows_v<512, 4, true>, side, 512, (const float *)x, (const float *)v, o, side, side); }, calls));
        }
        if (side == 4096) {
            for (int mode = 0; mode < 3; mode++) {
                char nm[64]; snprintf(nm, sizeof nm, "gemv_lib mode %d", mode);
                rep(nm, time_calls([&] { if (mode == 0) launch(gemv_lib<0>, side, 512, (const float *)x, (int64_t)side, (const float *)v, o, (int64_t)side, (int64_t)side, 1.0f, 0.0f);
                                         else if (mode == 1) launch(gemv_lib<1>, side, 512, (const float *)x, (int64_t)side, (const float *)v, o, (int64_t)side, (int64_t)side, 1.0f, 0.0f);
                                         else launch(gemv_lib<2>, side, 512, (const float *)x, (int64_t)side, (const float *)v, o, (int64_t)side, (int64_t)side, 1.0f, 0.0f); }, calls));
            }
            rep("rows_v nt512 v2 gemv again", time_calls([&] { launch(rows_v<512, 2, true>, side, 512, (const float *)x, (const float *)v, o, side, side); }, calls));
        } else {
            rep("peak_rows4 (as peak.cu)", time_calls([&] { launch(peak_rows4, 8192 * 8192 / 8192, 512, (const float4 *)x, o); }, calls));
        }
    }
    // correctness of rows_v gemv against warp4 at 4096
    std::vector<float> r1(4096), r2(4096);
    launch(gemv_warp4, 512, 256, (const float *)x, (int64_t)4096, (const float *)v, o, (int64_t)4096, (int64_t)4096);
    CK(cudaMemcpy(r1.data(), o, 4096 * 4, cudaMemcpyDeviceToHost));
    launch(rows_v<256, 4, true>, 4096, 256, (const float *)x, (const float *)v, o, 4096, 4096);
    CK(cudaMemcpy(r2.data(), o, 4096 * 4, cudaMemcpyDeviceToHost));
    double md = 0; for (int i = 0; i < 4096; i++) md = std::max(md, (double)fabsf(r1[i] - r2[i]));
    printf("gemv check maxdiff %.3g\n", md);
    return 0;
}

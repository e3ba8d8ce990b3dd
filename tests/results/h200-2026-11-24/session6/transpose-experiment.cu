// Standalone: transpose block orders and shapes at 4096^2 and 8192^2, with
// programmatic dependent launch as in the library; copy float4 as the ceiling.
#include <cstdio>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

__device__ __forceinline__ void pdl_enter()
{
    asm volatile("griddepcontrol.wait;\n" ::: "memory");
    asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
}

template <class... P, class... A>
static void launch(void (*k)(P...), dim3 g, dim3 b, A... a)
{
    cudaLaunchAttribute at;
    at.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    at.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t c = {};
    c.gridDim = g; c.blockDim = b; c.stream = 0; c.attrs = &at; c.numAttrs = 1;
    cudaLaunchKernelEx(&c, k, ((P)a)...);
}

constexpr int T = 64;
// ty threads down (8: 16 elements a thread; 16: 8 a thread).  G: 0 = 2-D grid
// as the library; else a 1-D grid walking G tile rows down, then across.
template <int TY, int G>
__global__ void __launch_bounds__(32 * TY) tr(const float *x, float *y, int64_t n)
{
    pdl_enter();
    constexpr int Q = (T / TY) * 2;
    __shared__ float tile[T][T + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int64_t bi, bj, nt = n / T;
    if (G == 0) {
        bi = blockIdx.y; bj = blockIdx.x;
    } else {
        int64_t L = blockIdx.x, grp = L / (G * nt), first = grp * G;
        int64_t gs = nt - first < G ? nt - first : G, r = L % (G * nt);
        bi = first + r % gs; bj = r / gs;
    }
    int64_t i0 = bi * T, j0 = bj * T;
    float v[Q];
#pragma unroll
    for (int q = 0; q < Q; q++)
        v[q] = x[(i0 + ty + TY * (q / 2)) * n + j0 + tx + 32 * (q % 2)];
#pragma unroll
    for (int q = 0; q < Q; q++)
        tile[ty + TY * (q / 2)][tx + 32 * (q % 2)] = v[q];
    __syncthreads();
#pragma unroll
    for (int q = 0; q < Q; q++)
        v[q] = tile[tx + 32 * (q % 2)][ty + TY * (q / 2)];
#pragma unroll
    for (int q = 0; q < Q; q++)
        y[(j0 + ty + TY * (q / 2)) * n + i0 + tx + 32 * (q % 2)] = v[q];
}

__global__ void copy4(const float4 *x, float4 *y, int64_t nv)
{
    pdl_enter();
    int64_t step = (int64_t)gridDim.x * blockDim.x, v = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (; v + step < nv; v += 2 * step) {
        float4 a = x[v], b = x[v + step];
        y[v] = a; y[v + step] = b;
    }
    if (v < nv) y[v] = x[v];
}

template <class F>
static double time_us(F f, int calls)
{
    cudaEvent_t a, b;
    cudaEventCreate(&a); cudaEventCreate(&b);
    std::vector<double> t;
    for (int rep = 0; rep < 7; rep++) {
        cudaEventRecord(a);
        for (int c = 0; c < calls; c++) f();
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float ms; cudaEventElapsedTime(&ms, a, b);
        t.push_back(ms * 1000.0 / calls);
    }
    std::sort(t.begin(), t.end());
    return t[3];
}

int main()
{
    int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    for (int64_t n : {4096, 8192}) {
        size_t bytes = n * n * 4;
        float *x, *y;
        CK(cudaMalloc(&x, bytes)); CK(cudaMalloc(&y, bytes));
        cudaMemset(x, 1, bytes);
        int calls = n == 4096 ? 60 : 16;
        double moved = 2.0 * bytes;
        int64_t nt = n / T;
        auto rep = [&](const char *name, double us, double copy_us) {
            printf("n=%lld %-22s %9.2f us %7.0f GB/s %6.1f%% of copy\n", (long long)n, name, us,
                   moved / us / 1e3, copy_us > 0 ? 100.0 * copy_us / us : 100.0);
        };
        for (int round = 0; round < 2; round++) {
            double cu = time_us([&] { launch(copy4, dim3(sms * 32), dim3(256), (const float4 *)x, (float4 *)y, (int64_t)(n * n / 4)); }, calls);
            rep("copy float4", cu, 0);
            rep("tile64 2-D (library)", time_us([&] { launch(tr<8, 0>, dim3(nt, nt), dim3(32, 8), (const float *)x, y, n); }, calls), cu);
            rep("tile64 TY16 2-D", time_us([&] { launch(tr<16, 0>, dim3(nt, nt), dim3(32, 16), (const float *)x, y, n); }, calls), cu);
            rep("tile64 band 4", time_us([&] { launch(tr<8, 4>, dim3(nt * nt), dim3(32, 8), (const float *)x, y, n); }, calls), cu);
            rep("tile64 band 8", time_us([&] { launch(tr<8, 8>, dim3(nt * nt), dim3(32, 8), (const float *)x, y, n); }, calls), cu);
            rep("tile64 band 16", time_us([&] { launch(tr<8, 16>, dim3(nt * nt), dim3(32, 8), (const float *)x, y, n); }, calls), cu);
            rep("tile64 band 32", time_us([&] { launch(tr<8, 32>, dim3(nt * nt), dim3(32, 8), (const float *)x, y, n); }, calls), cu);
            rep("tile64 TY16 band 16", time_us([&] { launch(tr<16, 16>, dim3(nt * nt), dim3(32, 16), (const float *)x, y, n); }, calls), cu);
        }
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        cudaFree(x); cudaFree(y);
    }
    return 0;
}

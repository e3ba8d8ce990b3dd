// scratch: per-block clocks of warptile_wide (issue 18 diagnosis, not a rung).
// The kernel is matmul_warptile_db<32, true, true, 256, U, true> with thread 0
// stamping %globaltimer and %smid at its start and after its store.
#include "../backends/cuda/sgemm_async.cu"
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cublas_v2.h>

struct stamp { unsigned long long t0, t1; unsigned sm, pad; };

__device__ __forceinline__ unsigned long long gtime()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
__device__ __forceinline__ unsigned smid()
{
    unsigned s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

template <int U, bool STAMP>
__global__ void __launch_bounds__(NT, 1) stamped(gkc_mm p, stamp *st)
{
    extern __shared__ __align__(16) float smem[];
    unsigned long long t0 = STAMP ? gtime() : 0;
    lane_tile lt(256);
    int64_t i0 = (int64_t)blockIdx.y * BM, j0 = (int64_t)blockIdx.x * 256;
    float acc[8][16];
    acc_start(acc, p, lt, j0, true);
    acc_tile<32, true, true, 256, U, true>(acc, p, smem, lt, i0, j0, 0, p.k);
    acc_store<true>(p.c, p.ldc, acc, lt, i0, j0, p.m, p.n);
    if (!STAMP)
        return;
    __syncthreads();
    if (threadIdx.x == 0) {
        stamp *s = st + blockIdx.y * gridDim.x + blockIdx.x;
        s->t0 = t0;
        s->t1 = gtime();
        s->sm = smid();
    }
}

__global__ void fill(float *x, int64_t n, unsigned seed)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x) {
        unsigned h = (unsigned)i * 2654435761u ^ seed;
        h ^= h >> 13; h *= 0x5bd1e995u; h ^= h >> 15;
        x[i] = (float)(h & 0xffffff) / 8388608.0f - 1.0f;
    }
}

template <int U>
static void run_shape(int64_t m, int64_t n, int64_t k, int reps, const char *csv)
{
    float *a, *b, *c;
    cudaMalloc(&a, m * k * 4); cudaMalloc(&b, k * n * 4); cudaMalloc(&c, m * n * 4);
    fill<<<1024, 256>>>(a, m * k, 1); fill<<<1024, 256>>>(b, k * n, 2);
    gkc_mm p{};
    p.a = a; p.b = b; p.c = c; p.bias = nullptr;
    p.m = m; p.n = n; p.k = k; p.lda = k; p.ldb = n; p.ldc = n; p.batch = 1;
    dim3 g((unsigned)(n / 256), (unsigned)(m / 128));
    int tiles = g.x * g.y;
    stamp *st; cudaMalloc(&st, tiles * sizeof(stamp));
    constexpr size_t sm = geom<32, true, 256>::SMEM_BYTES;
    cudaFuncSetAttribute(stamped<U, true>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sm);
    cudaFuncSetAttribute(stamped<U, false>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sm);
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    cublasHandle_t h; cublasCreate(&h);
    float one = 1, zero = 0;
    std::vector<stamp> hs(tiles);
    std::vector<double> tp, ts, tc;
    auto timed = [&](int which) {
        cudaEventRecord(e0);
        if (which == 0)
            stamped<U, false><<<g, NT, sm>>>(p, st);
        else if (which == 1)
            stamped<U, true><<<g, NT, sm>>>(p, st);
        else
            cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k, &one, b, (int)n, a,
                        (int)k, &zero, c, (int)n);
        cudaEventRecord(e1); cudaEventSynchronize(e1);
        float ms; cudaEventElapsedTime(&ms, e0, e1);
        return (double)ms;
    };
    for (int w = 0; w < 3; w++) timed(w);
    for (int r = 0; r < reps; r++) {
        tp.push_back(timed(0));
        ts.push_back(timed(1));
        tc.push_back(timed(2));
    }
    auto med = [](std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; };
    double best_ours = med(tp), best_st = med(ts), best_cb = med(tc);
    // the last rep's stamps: rerun ours once more to have them after a cuBLAS call too
    stamped<U, true><<<g, NT, sm>>>(p, st);
    cudaDeviceSynchronize();
    cudaMemcpy(hs.data(), st, tiles * sizeof(stamp), cudaMemcpyDeviceToHost);
    unsigned long long T0 = ~0ull, T1 = 0;
    for (auto &s : hs) { T0 = std::min(T0, s.t0); T1 = std::max(T1, s.t1); }
    int nsm = 0;
    for (auto &s : hs) nsm = std::max(nsm, (int)s.sm + 1);
    std::vector<unsigned long long> last(nsm, 0), first(nsm, ~0ull);
    std::vector<int> cnt(nsm, 0);
    std::vector<double> dur;
    for (auto &s : hs) {
        last[s.sm] = std::max(last[s.sm], s.t1);
        first[s.sm] = std::min(first[s.sm], s.t0);
        cnt[s.sm]++;
        dur.push_back((s.t1 - s.t0) / 1e3);
    }
    std::sort(dur.begin(), dur.end());
    double span = (T1 - T0) / 1e3, idle = 0;
    int used = 0;
    std::vector<double> ends;
    for (int i = 0; i < nsm; i++)
        if (cnt[i]) { used++; idle += (T1 - last[i]) / 1e3; ends.push_back((last[i] - T0) / 1e3); }
    std::sort(ends.begin(), ends.end());
    // per-block end times of each wave: the k-th tile an SM ran
    printf("shape %lldx%lldx%lld U=%d tiles %d SMs used %d: span %.1f us; medians of %d in turns: "
           "plain %.1f us (%.1f%% of cuBLAS), stamped %.1f us, cuBLAS %.1f us\n",
           (long long)m, (long long)n, (long long)k, U, tiles, used, span, reps, best_ours * 1e3,
           100 * best_cb / best_ours, best_st * 1e3, best_cb * 1e3);
    printf("  tile duration us: min %.1f p10 %.1f median %.1f p90 %.1f max %.1f\n", dur.front(),
           dur[dur.size() / 10], dur[dur.size() / 2], dur[dur.size() * 9 / 10], dur.back());
    printf("  SM last end us: min %.1f p10 %.1f median %.1f p90 %.1f max %.1f; idle tail %.1f%% of SM time\n",
           ends.front(), ends[ends.size() / 10], ends[ends.size() / 2], ends[ends.size() * 9 / 10],
           ends.back(), 100 * idle / (used * span));
    // tiles per SM histogram
    int hist[64] = {0};
    for (int i = 0; i < nsm; i++) if (cnt[i] < 64) hist[cnt[i]]++;
    printf("  tiles per SM:");
    for (int i = 0; i < 64; i++) if (hist[i]) printf(" %d:%d", i, hist[i]);
    printf("\n");
    if (csv) {
        FILE *f = fopen(csv, "w");
        fprintf(f, "block,bx,by,sm,start_us,end_us\n");
        for (int i = 0; i < tiles; i++)
            fprintf(f, "%d,%d,%d,%u,%.3f,%.3f\n", i, i % g.x, i / g.x, hs[i].sm,
                    (hs[i].t0 - T0) / 1e3, (hs[i].t1 - T0) / 1e3);
        fclose(f);
    }
    cublasDestroy(h);
    cudaFree(a); cudaFree(b); cudaFree(c); cudaFree(st);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    char path[512];
    snprintf(path, sizeof path, "%s/stamps-4096.csv", dir);
    run_shape<16>(4096, 4096, 4096, 20, path);
    snprintf(path, sizeof path, "%s/stamps-8192.csv", dir);
    run_shape<32>(8192, 8192, 8192, 5, path);
    snprintf(path, sizeof path, "%s/stamps-2048.csv", dir);
    run_shape<16>(2048, 2048, 2048, 50, path);
    run_shape<16>(8192, 1024, 8192, 20, nullptr);
    return 0;
}

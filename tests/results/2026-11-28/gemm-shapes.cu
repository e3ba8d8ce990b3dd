// Probe (not shipped): cuBLAS SGEMM (pedantic f32) rates on SUMMA's local shapes.
// Row-major c[m][n] (+)= a[m][k] b[k][n]; "at" = a held transposed (k x m row-major).
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>

#define CK(x) do { auto e_ = (x); if ((int)e_ != 0) { printf("fail %s:%d %d\n", __FILE__, __LINE__, (int)e_); exit(1); } } while (0)

static float *A, *B, *C;
static cublasHandle_t h;
static cublasLtHandle_t lt;
static void *ws;
static size_t wsz = 64u << 20;

static double timeit(int reps, void (*f)(void *), void *arg)
{
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    f(arg);
    cudaDeviceSynchronize();
    std::vector<float> t;
    for (int r = 0; r < reps; r++) {
        cudaEventRecord(e0);
        f(arg);
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float ms;
        cudaEventElapsedTime(&ms, e0, e1);
        t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

struct job {
    long m, n, k, chunks;  // chunks: the k split into this many beta-1 calls
    int at;
    float beta;
};

static void run_ex(void *p)
{
    job *j = (job *)p;
    long kc = j->k / j->chunks;
    for (long c = 0; c < j->chunks; c++) {
        float alpha = 1, beta = c == 0 ? j->beta : 1.0f;
        const float *a = j->at ? A + c * kc * j->m : A + c * kc;
        const float *b = B + c * kc * j->n;
        CK(cublasGemmEx_64(h, CUBLAS_OP_N, j->at ? CUBLAS_OP_T : CUBLAS_OP_N, j->n, j->m, kc, &alpha,
                           b, CUDA_R_32F, j->n, a, CUDA_R_32F, j->at ? j->m : j->k, &beta, C,
                           CUDA_R_32F, j->n, CUBLAS_COMPUTE_32F_PEDANTIC, CUBLAS_GEMM_DEFAULT));
    }
}

struct ltjob {
    job j;
    cublasLtMatmulDesc_t d;
    cublasLtMatrixLayout_t la, lb, lc;
    cublasLtMatmulAlgo_t algo;
};

static void run_lt(void *p)
{
    ltjob *q = (ltjob *)p;
    float alpha = 1, beta = q->j.beta;
    CK(cublasLtMatmul(lt, q->d, &alpha, B, q->lb, A, q->la, &beta, C, q->lc, C, q->lc, &q->algo, ws,
                      wsz, 0));
}

static void lt_sweep(long m, long n, long k, int at, float beta)
{
    ltjob q;
    q.j = { m, n, k, 1, at, beta };
    cublasComputeType_t ct = CUBLAS_COMPUTE_32F_PEDANTIC;
    if (cublasLtMatmulDescCreate(&q.d, ct, CUDA_R_32F) != 0) {
        ct = CUBLAS_COMPUTE_32F;
        CK(cublasLtMatmulDescCreate(&q.d, ct, CUDA_R_32F));
    }
    cublasOperation_t tn = CUBLAS_OP_N, tt = at ? CUBLAS_OP_T : CUBLAS_OP_N;
    CK(cublasLtMatmulDescSetAttribute(q.d, CUBLASLT_MATMUL_DESC_TRANSA, &tn, sizeof tn));
    CK(cublasLtMatmulDescSetAttribute(q.d, CUBLASLT_MATMUL_DESC_TRANSB, &tt, sizeof tt));
    // column-major: first operand is b^T (n x k, ld n), second a^T (k x m, ld k) or a (m x k... ld m) with op T
    CK(cublasLtMatrixLayoutCreate(&q.lb, CUDA_R_32F, n, k, n));
    if (at)
        CK(cublasLtMatrixLayoutCreate(&q.la, CUDA_R_32F, m, k, m));
    else
        CK(cublasLtMatrixLayoutCreate(&q.la, CUDA_R_32F, k, m, k));
    CK(cublasLtMatrixLayoutCreate(&q.lc, CUDA_R_32F, n, m, n));
    cublasLtMatmulPreference_t pref;
    CK(cublasLtMatmulPreferenceCreate(&pref));
    CK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wsz,
                                            sizeof wsz));
    cublasLtMatmulHeuristicResult_t res[24];
    int got = 0;
    CK(cublasLtMatmulAlgoGetHeuristic(lt, q.d, q.lb, q.la, q.lc, q.lc, pref, 24, res, &got));
    double fl = 2.0 * m * n * k;
    for (int i = 0; i < got; i++) {
        q.algo = res[i].algo;
        int tile = -1, sk = -1, stages = -1, cta = -1;
        size_t w;
        cublasLtMatmulAlgoConfigGetAttribute(&q.algo, CUBLASLT_ALGO_CONFIG_TILE_ID, &tile, sizeof tile, &w);
        cublasLtMatmulAlgoConfigGetAttribute(&q.algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM, &sk, sizeof sk, &w);
        cublasLtMatmulAlgoConfigGetAttribute(&q.algo, CUBLASLT_ALGO_CONFIG_STAGES_ID, &stages, sizeof stages, &w);
        cublasLtMatmulAlgoConfigGetAttribute(&q.algo, CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID, &cta, sizeof cta, &w);
        double ms = timeit(5, run_lt, &q);
        printf("lt %6ld %6ld %6ld at=%d beta=%g ct=%d algo#%2d tile=%d splitk=%d stages=%d cluster=%d ws=%zu  %8.3f ms %6.2f TF/s\n",
               m, n, k, at, beta, (int)ct, i, tile, sk, stages, cta, res[i].workspaceSize, ms,
               fl / ms / 1e9);
    }
    fflush(stdout);
}

int main(int argc, char **argv)
{
    size_t big = (size_t)32768 * 16384;  // largest operand
    CK(cudaMalloc(&A, big * 4));
    CK(cudaMalloc(&B, big * 4));
    CK(cudaMalloc(&C, (size_t)32768 * 16384 * 4));
    // small whole values: no overflow, no denormals
    std::vector<float> hv(big);
    for (size_t i = 0; i < big; i++) hv[i] = (float)((i * 2654435761u >> 20) % 7) - 3.0f;
    CK(cudaMemcpy(A, hv.data(), big * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(B, hv.data(), big * 4, cudaMemcpyHostToDevice));
    CK(cudaMemset(C, 0, (size_t)32768 * 16384 * 4));
    CK(cublasCreate(&h));
    CK(cublasLtCreate(&lt));
    CK(cudaMalloc(&ws, wsz));
    struct { long m, n; } cs[] = { { 16384, 8192 }, { 8192, 8192 }, { 16384, 16384 }, { 32768, 16384 } };
    for (auto s : cs) {
        long ktot = s.m == 32768 ? 4096 : (s.m == 16384 && s.n == 16384 ? 8192 : 8192);
        for (int at = 0; at < 2; at++)
            for (long kc : { 1024L, 2048L, 4096L, ktot }) {
                if (kc > ktot) continue;
                for (float beta : { 0.0f, 1.0f }) {
                    job j = { s.m, s.n, ktot, ktot / kc, at, beta };
                    double ms = timeit(3, run_ex, &j);
                    printf("ex %6ld %6ld k=%5ld in %2ld calls at=%d beta=%g  %8.3f ms %6.2f TF/s\n", s.m, s.n,
                           ktot, j.chunks, at, beta, ms, 2.0 * s.m * s.n * ktot / ms / 1e9);
                    fflush(stdout);
                }
            }
    }
    // one square reference
    {
        job j = { 16384, 16384, 16384, 1, 0, 0.0f };
        double ms = timeit(3, run_ex, &j);
        printf("ex  16384^3 one call  %8.3f ms %6.2f TF/s\n", ms, 2.0 * 16384 * 16384 * 16384.0 / ms / 1e9);
    }
    lt_sweep(16384, 8192, 1024, 0, 1.0f);
    lt_sweep(8192, 8192, 1024, 0, 1.0f);
    lt_sweep(16384, 8192, 4096, 1, 1.0f);
    lt_sweep(8192, 8192, 4096, 1, 1.0f);
    return 0;
}

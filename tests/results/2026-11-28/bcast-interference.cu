// Probe (not shipped; for issue 28's overlap, doc/distributed.md "Panel groups"):
// does a panel broadcast slow the local SGEMM it overlaps less when the copy
// engines move it (cudaMemcpyPeerAsync, no SM) than when NCCL's kernels do?
//
// One process, G GPUs (2 by default, peer access on).  On every GPU a
// high-priority stream moves "panels" while the default-priority stream runs
// the SUMMA step's local products (cuBLAS pedantic SGEMM, m x n x k, a held
// transposed as summa.c's groups hold it, beta 1).  Printed per mode: the
// products' time on GPU 0 (events on its compute stream), the transfers' time
// alone, and how much longer the products ran than alone.
//
//   nvcc -O2 -arch=sm_90 bcast-interference.cu -lcublas -lnccl -o bcast-interference
//   NCCL_NVLS_ENABLE=0 ./bcast-interference [G] [m n k] [panel MB] [ops] [panels an op]
#include <cublas_v2.h>
#include <nccl.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                                              \
    do {                                                                                   \
        long e_ = (long)(x);                                                               \
        if (e_) {                                                                          \
            printf("failed: %s (%ld) at line %d\n", #x, e_, __LINE__);                     \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

struct gpu {
    float *a, *b, *c;            // a^T (k x m), b (k x n), c (m x n)
    char *send, *recv;           // panel source and destination
    cudaStream_t comp, comm;
    cublasHandle_t h;
    ncclComm_t nc;
    cudaEvent_t t0, t1, c0, c1;
};

static int G = 2, OPS = 8, PER_OP = 8;   // a 2 x 2 step at 16384: 4 a and 4 b panels
static long M = 8192, N = 8192, K = 4096;
static size_t PANEL = 32u << 20;
static std::vector<gpu> g;

enum mode { ALONE, NCCL, CE, COMM_NCCL, COMM_CE };
static const char *NAME[] = { "products alone", "with NCCL broadcasts", "with copy-engine pulls",
                              "NCCL broadcasts alone", "copy-engine pulls alone" };

static void products(int i)
{
    float one = 1;
    for (int o = 0; o < OPS; o++)
        CK(cublasGemmEx(g[i].h, CUBLAS_OP_N, CUBLAS_OP_T, N, M, K, &one, g[i].b, CUDA_R_32F, N,
                        g[i].a, CUDA_R_32F, M, &one, g[i].c, CUDA_R_32F, N,
                        CUBLAS_COMPUTE_32F_PEDANTIC, CUBLAS_GEMM_DEFAULT));
}

// OPS x PER_OP panels, root cycling over the GPUs, as SUMMA's block-cyclic roots
static void transfers(bool nccl)
{
    for (int p = 0; p < OPS * PER_OP; p++) {
        int root = p % G;
        if (nccl) {
            CK(ncclGroupStart());
            for (int i = 0; i < G; i++)
                CK(ncclBroadcast(g[i].send, g[i].recv, PANEL / 4, ncclFloat, root, g[i].nc,
                                 g[i].comm));
            CK(ncclGroupEnd());
        } else {
            // each receiver pulls from the root; the root copies its own locally
            for (int i = 0; i < G; i++) {
                CK(cudaSetDevice(i));
                CK(cudaMemcpyPeerAsync(g[i].recv, i, g[root].send, root, PANEL, g[i].comm));
            }
        }
    }
}

static void run(mode md, float *prod_ms, float *comm_ms)
{
    for (int i = 0; i < G; i++) {
        CK(cudaSetDevice(i));
        CK(cudaDeviceSynchronize());
        CK(cudaEventRecord(g[i].t0, g[i].comp));
        CK(cudaEventRecord(g[i].c0, g[i].comm));
    }
    if (md == ALONE || md == NCCL || md == CE)
        for (int i = 0; i < G; i++) {
            CK(cudaSetDevice(i));
            products(i);
        }
    if (md != ALONE)
        transfers(md == NCCL || md == COMM_NCCL);
    *prod_ms = *comm_ms = 0;
    for (int i = 0; i < G; i++) {
        CK(cudaSetDevice(i));
        CK(cudaEventRecord(g[i].t1, g[i].comp));
        CK(cudaEventRecord(g[i].c1, g[i].comm));
        CK(cudaDeviceSynchronize());
        float a, b;
        CK(cudaEventElapsedTime(&a, g[i].t0, g[i].t1));
        CK(cudaEventElapsedTime(&b, g[i].c0, g[i].c1));
        *prod_ms = std::max(*prod_ms, a);
        *comm_ms = std::max(*comm_ms, b);
    }
}

int main(int argc, char **argv)
{
    if (argc > 1) G = atoi(argv[1]);
    if (argc > 4) M = atol(argv[2]), N = atol(argv[3]), K = atol(argv[4]);
    if (argc > 5) PANEL = (size_t)atol(argv[5]) << 20;
    if (argc > 6) OPS = atoi(argv[6]);
    if (argc > 7) PER_OP = atoi(argv[7]);
    int have = 0;
    CK(cudaGetDeviceCount(&have));
    if (have < G) {
        printf("needs %d GPUs, has %d\n", G, have);
        return 1;
    }
    g.resize(G);
    std::vector<int> dev(G);
    for (int i = 0; i < G; i++) dev[i] = i;
    std::vector<ncclComm_t> comms(G);
    CK(ncclCommInitAll(comms.data(), G, dev.data()));
    int lo, hi;
    for (int i = 0; i < G; i++) {
        CK(cudaSetDevice(i));
        for (int j = 0; j < G; j++)
            if (j != i) {
                int ok = 0;
                CK(cudaDeviceCanAccessPeer(&ok, i, j));
                if (ok) cudaDeviceEnablePeerAccess(j, 0);
            }
        gpu &x = g[i];
        x.nc = comms[i];
        CK(cudaMalloc(&x.a, (size_t)K * M * 4));
        CK(cudaMalloc(&x.b, (size_t)K * N * 4));
        CK(cudaMalloc(&x.c, (size_t)M * N * 4));
        CK(cudaMemset(x.a, 0, (size_t)K * M * 4));
        CK(cudaMemset(x.b, 0, (size_t)K * N * 4));
        CK(cudaMemset(x.c, 0, (size_t)M * N * 4));
        CK(cudaMalloc(&x.send, PANEL));
        CK(cudaMalloc(&x.recv, PANEL));
        CK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
        CK(cudaStreamCreateWithPriority(&x.comp, cudaStreamNonBlocking, lo));
        CK(cudaStreamCreateWithPriority(&x.comm, cudaStreamNonBlocking, hi));
        CK(cublasCreate(&x.h));
        CK(cublasSetStream(x.h, x.comp));
        CK(cudaEventCreate(&x.t0));
        CK(cudaEventCreate(&x.t1));
        CK(cudaEventCreate(&x.c0));
        CK(cudaEventCreate(&x.c1));
    }
    printf("%d GPUs; %d products of %ld x %ld x %ld (a^T, beta 1), %d panels of %zu MB an op\n", G,
           OPS, M, N, K, PER_OP, PANEL >> 20);
    float p, c, alone = 0;
    for (int md = ALONE; md <= COMM_CE; md++) {
        run((mode)md, &p, &c);   // warm-up
        std::vector<float> ps, cs;
        for (int r = 0; r < 5; r++) {
            run((mode)md, &p, &c);
            ps.push_back(p), cs.push_back(c);
        }
        std::sort(ps.begin(), ps.end());
        std::sort(cs.begin(), cs.end());
        p = ps[2], c = cs[2];
        if (md == ALONE) alone = p;
        double bytes = (double)OPS * PER_OP * PANEL;
        if (md <= CE)
            printf("%-26s products %8.3f ms (%+5.2f%% against alone)  transfers end at %8.3f ms\n",
                   NAME[md], p, 100.0 * (p - alone) / alone, c);
        else
            printf("%-26s %8.3f ms, %6.1f GB/s a receiver\n", NAME[md], c,
                   bytes * (G - 1) / G / c / 1e6);
    }
    return 0;
}

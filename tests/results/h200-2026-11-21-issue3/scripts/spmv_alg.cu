// spmv_alg.cu - scratch experiment for issue 3 (not committed): is the racecheck
// hazard seen inside cusparse::csrmv_v3_kernel a property of the library
// algorithm, and what does each CSR SpMV algorithm cost on 4M x 16 random?
//   ./spmv_alg small ALG   many small 127x1 matrices (0/1 entry a row), ALG 0=default 1=CSR_ALG1 2=CSR_ALG2
//   ./spmv_alg big         4M rows x 16 random nnz: median time of each algorithm
#include <cuda_runtime.h>
#include <cusparse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>
#include <algorithm>

#define CK(x) do { auto e_ = (x); if ((int)e_) { printf("%s:%d %s failed (%d)\n", __FILE__, __LINE__, #x, (int)e_); exit(1); } } while (0)

static unsigned long long rs = 12345;
static unsigned nxt() { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return (unsigned)(rs >> 11); }

static cusparseSpMVAlg_t alg_of(int a) { return a == 1 ? CUSPARSE_SPMV_CSR_ALG1 : a == 2 ? CUSPARSE_SPMV_CSR_ALG2 : CUSPARSE_SPMV_ALG_DEFAULT; }

static float run(cusparseHandle_t h, int rows, int cols, std::vector<int> &rp, std::vector<int> &ci, int alg, int reps, double *err)
{
    int nnz = rp[rows];
    std::vector<float> cv(nnz), x(cols), y(rows);
    for (auto &v : cv) v = (nxt() % 2001) / 1000.0f - 1.0f;
    for (auto &v : x) v = (nxt() % 2001) / 1000.0f - 1.0f;
    int *drp, *dci; float *dcv, *dx, *dy; void *buf = NULL; size_t bytes = 0;
    CK(cudaMalloc(&drp, (rows + 1) * 4)); CK(cudaMalloc(&dci, std::max(nnz, 1) * 4)); CK(cudaMalloc(&dcv, std::max(nnz, 1) * 4));
    CK(cudaMalloc(&dx, cols * 4)); CK(cudaMalloc(&dy, rows * 4));
    CK(cudaMemcpy(drp, rp.data(), (rows + 1) * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dci, ci.data(), nnz * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dcv, cv.data(), nnz * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dx, x.data(), cols * 4, cudaMemcpyHostToDevice));
    CK(cudaMemset(dy, 0, rows * 4));
    cusparseSpMatDescr_t A; cusparseDnVecDescr_t X, Y; float one = 1, zero = 0;
    CK(cusparseCreateCsr(&A, rows, cols, nnz, drp, dci, dcv, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    CK(cusparseCreateDnVec(&X, cols, dx, CUDA_R_32F)); CK(cusparseCreateDnVec(&Y, rows, dy, CUDA_R_32F));
    CK(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y, CUDA_R_32F, alg_of(alg), &bytes));
    CK(cudaMalloc(&buf, bytes + 16));
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    std::vector<float> t;
    for (int r = 0; r <= reps; r++) {
        CK(cudaEventRecord(e0));
        CK(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y, CUDA_R_32F, alg_of(alg), buf));
        CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
        float ms; cudaEventElapsedTime(&ms, e0, e1); if (r) t.push_back(ms);
    }
    CK(cudaMemcpy(y.data(), dy, rows * 4, cudaMemcpyDeviceToHost));
    double e = 0;
    for (int r = 0; r < rows; r++) {
        double s = 0; for (int q = rp[r]; q < rp[r + 1]; q++) s += (double)cv[q] * x[ci[q]];
        e = std::max(e, fabs(s - y[r]));
    }
    *err = e;
    cusparseDestroySpMat(A); cusparseDestroyDnVec(X); cusparseDestroyDnVec(Y);
    cudaFree(drp); cudaFree(dci); cudaFree(dcv); cudaFree(dx); cudaFree(dy); cudaFree(buf);
    std::sort(t.begin(), t.end());
    return t.empty() ? 0 : t[t.size() / 2];
}

int main(int argc, char **argv)
{
    cusparseHandle_t h; CK(cusparseCreate(&h));
    if (argc > 2 && !strcmp(argv[1], "small")) {
        int alg = atoi(argv[2]); double worst = 0;
        for (int trial = 0; trial < 40; trial++) {
            int rows = 127, cols = 1 + trial % 3;
            std::vector<int> rp(rows + 1), ci;
            for (int r = 0; r < rows; r++) {
                rp[r] = (int)ci.size();
                for (int c = 0; c < cols; c++) if (nxt() % 2) ci.push_back(c);
            }
            rp[rows] = (int)ci.size();
            double e; run(h, rows, cols, rp, ci, alg, 1, &e); worst = std::max(worst, e);
        }
        printf("small alg %d: 40 matrices, max err %g\n", alg, worst);
    } else {
        int rows = 4 << 20, cols = rows, per = 16;
        std::vector<int> rp(rows + 1), ci((size_t)rows * per);
        for (int r = 0; r <= rows; r++) rp[r] = r * per;
        for (int r = 0; r < rows; r++) { int *c = &ci[(size_t)r * per]; for (int q = 0; q < per; q++) c[q] = nxt() % cols; std::sort(c, c + per); }
        for (int alg = 0; alg <= 2; alg++) { double e; float ms = run(h, rows, cols, rp, ci, alg, 9, &e); printf("big 4M x 16: alg %d median %.3f ms, max err %g\n", alg, ms, e); }
    }
    cusparseDestroy(h);
    return 0;
}

/*
 * table.c - the CPU backend's kernel table: every (op, variant) it offers,
 * in ladder order (naive first, library last).  Core, the tests, the bench
 * and gpuk-info all read this one list.
 */
#include "config.h"

#include "cpu.h"

#define D GPUK_KF_DEFAULT
#define L GPUK_KF_LIBRARY

const gpuk_kernel cpu_kernels[] = {
    {GPUK_OP_MATMUL, "naive", 0, matmul_naive,
     "textbook triple loop, register accumulator; B read down columns"},
    {GPUK_OP_MATMUL, "blocked", 0, matmul_blocked,
     "L2-sized tiles, i-k-j order: rows of B and C read with unit stride"},
    {GPUK_OP_MATMUL, "simd", D, matmul_simd,
     "packed panels, AVX-512 12x32 / AVX2 6x16 register micro-kernel, OpenMP"},
#ifdef HAVE_OPENBLAS
    {GPUK_OP_MATMUL, "openblas", L, matmul_openblas, "cblas_sgemm"},
#endif

    {GPUK_OP_BATCHED_MATMUL, "naive", 0, bmm_naive, "the naive matmul loop per batch entry"},
    {GPUK_OP_BATCHED_MATMUL, "blocked", 0, bmm_blocked, "the blocked matmul per batch entry"},
    {GPUK_OP_BATCHED_MATMUL, "simd", D, bmm_simd, "the packed SIMD matmul per batch entry"},
#ifdef HAVE_OPENBLAS
    {GPUK_OP_BATCHED_MATMUL, "openblas", L, bmm_openblas, "cblas_sgemm per batch entry"},
#endif

    {GPUK_OP_MINPLUS, "naive", 0, minplus_naive, "textbook triple loop on one thread"},
    {GPUK_OP_MINPLUS, "v0", 0, minplus_v0, "the naive loop, OpenMP over rows"},
    {GPUK_OP_MINPLUS, "v1", 0, minplus_v1, "b transposed first: both operands read with unit stride"},
    {GPUK_OP_MINPLUS, "v2", 0, minplus_v2, "8 independent accumulators: instruction-level parallelism"},
    {GPUK_OP_MINPLUS, "v3", 0, minplus_v3, "AVX-512/AVX2 vectors along k, +inf padding"},
    {GPUK_OP_MINPLUS, "v4", D, minplus_v4, "register blocking: 12x32 (AVX-512) / 6x16 (AVX2) tiles of r"},
    {GPUK_OP_MINPLUS, "v5", 0, minplus_v5,
     "v4 + k-blocking and packing (matmul's driver); did not beat v4 at n=2048"},

    {GPUK_OP_TRANSPOSE, "naive", 0, transpose_naive, "row-wise reads, column-wise writes"},
    {GPUK_OP_TRANSPOSE, "blocked", D, transpose_blocked,
     "32x32 tiles in L1, 8x8 AVX register transposes, OpenMP over tiles"},

    {GPUK_OP_REDUCE, "naive", 0, reduce_naive, "one scalar accumulator per output"},
    {GPUK_OP_REDUCE, "simd", D, reduce_simd,
     "OpenMP over outputs or row chunks, 4 vector accumulators / L1 row slices"},

    {GPUK_OP_ADD, "naive", 0, add_naive, "scalar loop"},
    {GPUK_OP_ADD, "simd", D, add_simd, "AVX-512/AVX2 vectors, masked tails, OpenMP, streaming stores when large"},
    {GPUK_OP_SCALE, "naive", 0, scale_naive, "scalar loop"},
    {GPUK_OP_SCALE, "simd", D, scale_simd, "AVX-512/AVX2 vectors, masked tails, OpenMP, streaming stores when large"},
    {GPUK_OP_RELU, "naive", 0, relu_naive, "scalar loop"},
    {GPUK_OP_RELU, "simd", D, relu_simd, "AVX-512/AVX2 vectors, masked tails, OpenMP, streaming stores when large"},
    {GPUK_OP_BIAS_RELU, "naive", 0, bias_relu_naive, "scalar loop"},
    {GPUK_OP_BIAS_RELU, "simd", D, bias_relu_simd, "AVX-512/AVX2 vectors, masked tails, OpenMP, streaming stores when large"},
    {GPUK_OP_COPY, "naive", 0, copy_naive, "scalar loop"},
    {GPUK_OP_COPY, "simd", D, copy_simd, "AVX-512/AVX2 vectors, OpenMP, streaming stores when large"},

    {GPUK_OP_SOFTMAX, "naive", 0, softmax_naive, "three passes per row: max, exp+sum, divide"},
    {GPUK_OP_SOFTMAX, "simd", D, softmax_simd,
     "OpenMP over rows, vector max, vector exp summed as stored, scale by 1/sum"},
    {GPUK_OP_EMBEDDING, "naive", 0, embedding_naive, "one row copy per token"},
    {GPUK_OP_EMBEDDING, "omp", D, embedding_omp, "OpenMP over tokens, memcpy per row"},
    {GPUK_OP_MEANPOOL, "naive", 0, meanpool_naive, "scalar sum over tokens per output"},
    {GPUK_OP_MEANPOOL, "simd", D, meanpool_simd,
     "rows added as vectors into an L1 slice, OpenMP (reduce's simd rung)"},

    {GPUK_OP_SPMV, "naive", 0, spmv_naive, "textbook CSR row loop"},
    {GPUK_OP_SPMV, "omp", 0, spmv_omp, "OpenMP over equal row counts, 4 accumulators per row"},
    {GPUK_OP_SPMV, "balanced", D, spmv_balanced,
     "OpenMP over row ranges of equal nonzeros+rows (binary search in row_ptr)"},

    {GPUK_OP_DOT, "naive", 0, dot_naive, "scalar loop"},
    {GPUK_OP_DOT, "simd", D, dot_simd, "AVX-512/AVX2, 4 vector accumulators, OpenMP chunks"},
#ifdef HAVE_OPENBLAS
    {GPUK_OP_DOT, "openblas", L, dot_openblas, "cblas_sdot"},
#endif
    {GPUK_OP_GEMV, "naive", 0, gemv_naive, "one dot product per output"},
    {GPUK_OP_GEMV, "simd", D, gemv_simd, "vector dots per row (or axpy over column slices), OpenMP"},
#ifdef HAVE_OPENBLAS
    {GPUK_OP_GEMV, "openblas", L, gemv_openblas, "cblas_sgemv"},
#endif
    {GPUK_OP_GEMM, "naive", 0, gemm_naive, "textbook triple loop"},
    {GPUK_OP_GEMM, "simd", D, gemm_simd, "matmul's packed AVX-512/AVX2 micro-kernels, OpenMP"},
#ifdef HAVE_OPENBLAS
    {GPUK_OP_GEMM, "openblas", L, gemm_openblas, "cblas_sgemm"},
#endif
};

/* The plugin: one const struct (the entry function in backend.c returns
 * it), defined here where the table's length is known. */
const gpuk_backend cpu_backend = {
    .abi_major = GPUK_ABI_MAJOR,
    .abi_minor = GPUK_ABI_MINOR,
    .size = sizeof(gpuk_backend),
    .flags = GPUK_BF_HOST_MEMORY,
    .name = "cpu",
    .version = PACKAGE_VERSION,
    .description = "host CPU: naive, cache-blocked, OpenMP+SIMD (AVX2/AVX-512) rungs"
#ifdef HAVE_OPENBLAS
                   " and OpenBLAS"
#endif
    ,
    .probe = cpu_probe,
    .init = cpu_init,
    .fini = cpu_fini,
    .last_error = cpu_last_error,
    .info = cpu_info,
    .alloc = cpu_alloc,
    .free = cpu_free,
    .write = cpu_write,
    .read = cpu_read,
    .copy = cpu_copy,
    .sync = cpu_sync,
    .timer_start = cpu_timer_start,
    .timer_stop = cpu_timer_stop,
    .kernels = cpu_kernels,
    .n_kernels = sizeof cpu_kernels / sizeof cpu_kernels[0],
    .csr_prepare = NULL,
    .csr_release = NULL,
    .peak = cpu_peak,
};

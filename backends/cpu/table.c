/*
 * table.c - the CPU backend's kernel table: every (op, variant) it offers,
 * in ladder order (naive first, library last).  Core, the tests, the bench
 * and gpuk-info all read this one list.
 */
#include "config.h"

#include "cpu.h"

#define D GPUK_KF_DEFAULT
#define L GPUK_KF_LIBRARY
/* A row's function serves every type its source is written for (dtype.h):
 * the sets come from those lists.  Their names spell the types because
 * bench/auto-rules.py reads "F32" in a row's set; the assertions keep the
 * names true when a list grows. */
#define F32F64 CPU_SET(CPU_FLOAT_DTYPES)
#define F32F64I32 CPU_SET(CPU_MINPLUS_DTYPES)
#define I32 GPUK_DT_I32 /* rows of a min-plus rung whose DEFAULT differs by type */
/* f16 and bf16: rows of their own, computing in f32 (dtype.h) */
#define F16BF16 CPU_SET(CPU_HALF_DTYPES)
#define F32F64F16BF16 CPU_SET(CPU_REAL_DTYPES)
/* the matmul family's 16-bit inputs (matmul_lowp.c): f32 accumulation, c
 * (and matmul's bias) in f32 or the inputs' dtype */
#define H16 (GPUK_DT_F16 | GPUK_DT_BF16)
#define F16 GPUK_DT_F16
#define BF16 GPUK_DT_BF16
#define MMA GPUK_KF_MMA
_Static_assert(F32F64 == (GPUK_DT_F32 | GPUK_DT_F64), "rename F32F64 after its list");
_Static_assert(F32F64I32 == (GPUK_DT_F32 | GPUK_DT_F64 | GPUK_DT_I32),
               "rename F32F64I32 after its list");
_Static_assert(F16BF16 == (GPUK_DT_F16 | GPUK_DT_BF16), "rename F16BF16 after its list");
_Static_assert(F32F64F16BF16 == (F32F64 | F16BF16), "rename F32F64F16BF16 after its list");

/* The entry points, defined in their op family's file (CPU_KERNEL). */
#define K(name) gpuk_status name(gpuk_bctx *b, const gpuk_args *args);
K(matmul_naive) K(matmul_blocked) K(matmul_simd) K(bmm_naive) K(bmm_blocked) K(bmm_simd)
K(minplus_naive) K(minplus_omp) K(minplus_transposed) K(minplus_ilp) K(minplus_simd_k)
K(minplus_regtile) K(minplus_packed)
K(transpose_naive) K(transpose_blocked) K(reduce_naive)
K(reduce_simd) K(add_naive) K(add_simd) K(scale_naive) K(scale_simd) K(relu_naive) K(relu_simd)
K(bias_relu_naive) K(bias_relu_simd) K(copy_naive) K(copy_simd) K(softmax_naive)
K(softmax_simd) K(embedding_naive) K(embedding_omp)
K(spmv_naive) K(spmv_omp) K(spmv_balanced) K(dot_naive) K(dot_simd) K(gemv_naive) K(gemv_simd)
K(gemm_naive) K(gemm_simd) K(matmul_lowp_naive) K(matmul_lowp_simd) K(matmul_lowp_dpbf16)
K(bmm_lowp_naive) K(bmm_lowp_simd) K(bmm_lowp_dpbf16) K(gemm_lowp_naive) K(gemm_lowp_simd)
K(gemm_lowp_dpbf16) K(apsp_naive) K(apsp_omp) K(apsp_blocked)
K(copy_omp_half) K(cast_naive) K(cast_simd) K(softmax_simd_half)
#ifdef HAVE_OPENBLAS
K(matmul_openblas) K(bmm_openblas) K(dot_openblas) K(gemv_openblas) K(gemm_openblas)
#endif
#undef K

const gpuk_kernel cpu_kernels[] = {
    {GPUK_OP_MATMUL, F32F64, "naive", 0, matmul_naive,
     "textbook triple loop, register accumulator; B read down columns", NULL},
    {GPUK_OP_MATMUL, H16, "naive", 0, matmul_lowp_naive,
     "convert-on-load triple loop, f32 accumulator", NULL},
    {GPUK_OP_MATMUL, F32F64, "blocked", 0, matmul_blocked,
     "L2-sized tiles, i-k-j order: rows of B and C read with unit stride", NULL},
    {GPUK_OP_MATMUL, F32F64, "simd", D, matmul_simd,
     "packed panels, AVX-512 6 x 4 / AVX2 6 x 2 vector register micro-kernel, OpenMP", NULL},
    {GPUK_OP_MATMUL, F16, "simd", D, matmul_lowp_simd,
     "a and b converted to f32 (F16C), the f32 simd engine; c rounded once", NULL},
    {GPUK_OP_MATMUL, BF16, "simd", 0, matmul_lowp_simd,
     "a and b converted to f32 (a shift), the f32 simd engine; c rounded once", NULL},
    {GPUK_OP_MATMUL, BF16, "dpbf16", D | MMA, matmul_lowp_dpbf16,
     "vdpbf16ps 6 x 4 vector tiles on k-pair packed panels, OpenMP (AVX512_BF16, else simd)", NULL},
#ifdef HAVE_OPENBLAS
    {GPUK_OP_MATMUL, F32F64, "openblas", L, matmul_openblas, "cblas_sgemm / cblas_dgemm", NULL},
#endif

    {GPUK_OP_BATCHED_MATMUL, F32F64, "naive", 0, bmm_naive, "the naive matmul loop per batch entry", NULL},
    {GPUK_OP_BATCHED_MATMUL, H16, "naive", 0, bmm_lowp_naive,
     "per batch entry: convert-on-load triple loop, f32 accumulator", NULL},
    {GPUK_OP_BATCHED_MATMUL, F32F64, "blocked", 0, bmm_blocked, "the blocked matmul per batch entry", NULL},
    {GPUK_OP_BATCHED_MATMUL, F32F64, "simd", D, bmm_simd, "the packed SIMD matmul per batch entry", NULL},
    {GPUK_OP_BATCHED_MATMUL, F16, "simd", D, bmm_lowp_simd,
     "per batch entry: a and b converted to f32 (F16C), the f32 simd engine; c rounded once", NULL},
    {GPUK_OP_BATCHED_MATMUL, BF16, "simd", 0, bmm_lowp_simd,
     "per batch entry: a and b converted to f32 (a shift), the f32 simd engine; c rounded once", NULL},
    {GPUK_OP_BATCHED_MATMUL, BF16, "dpbf16", D | MMA, bmm_lowp_dpbf16,
     "per batch entry: vdpbf16ps 6 x 4 vector tiles on k-pair packed panels, OpenMP (AVX512_BF16, else simd)", NULL},
#ifdef HAVE_OPENBLAS
    {GPUK_OP_BATCHED_MATMUL, F32F64, "openblas", L, bmm_openblas, "cblas_sgemm / cblas_dgemm per batch entry", NULL},
#endif

    {GPUK_OP_GEMM, F32F64, "naive", 0, gemm_naive, "textbook triple loop", NULL},
    {GPUK_OP_GEMM, H16, "naive", 0, gemm_lowp_naive,
     "convert-on-load triple loop, f32 accumulator", NULL},
    {GPUK_OP_GEMM, F32F64, "simd", D, gemm_simd, "matmul's packed AVX-512/AVX2 micro-kernels, OpenMP", NULL},
    {GPUK_OP_GEMM, F16, "simd", D, gemm_lowp_simd,
     "a and b converted to f32 (F16C), the f32 simd engine; c rounded once", NULL},
    {GPUK_OP_GEMM, BF16, "simd", 0, gemm_lowp_simd,
     "a and b converted to f32 (a shift), the f32 simd engine; c rounded once", NULL},
    {GPUK_OP_GEMM, BF16, "dpbf16", D | MMA, gemm_lowp_dpbf16,
     "vdpbf16ps 6 x 4 vector tiles on k-pair packed panels, OpenMP (AVX512_BF16, else simd)", NULL},
#ifdef HAVE_OPENBLAS
    {GPUK_OP_GEMM, F32F64, "openblas", L, gemm_openblas, "cblas_sgemm / cblas_dgemm", NULL},
#endif

    {GPUK_OP_MINPLUS, F32F64I32, "naive", 0, minplus_naive,
     "textbook triple loop on one thread (i32: wrapping add, min from GPUK_I32_INF)", "v0"},
    {GPUK_OP_MINPLUS, F32F64, "omp", 0, minplus_omp, "the naive loop, OpenMP over rows", NULL},
    {GPUK_OP_MINPLUS, F32F64, "transposed", 0, minplus_transposed,
     "b transposed first: both operands read with unit stride", "v1"},
    {GPUK_OP_MINPLUS, F32F64, "ilp", 0, minplus_ilp,
     "8 independent accumulators: instruction-level parallelism", "v2"},
    {GPUK_OP_MINPLUS, F32F64, "simd_k", 0, minplus_simd_k, "AVX-512/AVX2 vectors along k, +inf padding", "v3"},
    {GPUK_OP_MINPLUS, F32F64, "regtile", D, minplus_regtile,
     "register blocking: 6 x 4 (AVX-512) / 6 x 2 (AVX2) vectors of r, vaddps/pd + vminps/pd", "v4"},
    {GPUK_OP_MINPLUS, I32, "regtile", 0, minplus_regtile,
     "register blocking: 6 x 4 (AVX-512) / 6 x 2 (AVX2) vectors of r, vpaddd + vpminsd", NULL},
    /* packed is i32's DEFAULT: 1.1x regtile at 1024, 1.7x at 4096 (2 Zen 4
     * cores), level below; f32's regtile stays, packed its 2-thread rule */
    {GPUK_OP_MINPLUS, F32F64, "packed", 0, minplus_packed,
     "regtile + k-blocking and packing (matmul's engine): b's panels stay in cache for a long k", "v5"},
    {GPUK_OP_MINPLUS, I32, "packed", D, minplus_packed,
     "regtile + k-blocking and packing (matmul's engine): b's panels stay in cache for a long k", NULL},

    {GPUK_OP_TRANSPOSE, F32F64F16BF16, "naive", 0, transpose_naive, "row-wise reads, column-wise writes", NULL},
    {GPUK_OP_TRANSPOSE, F32F64F16BF16, "blocked", D, transpose_blocked,
     "32x32 tiles in L1, AVX-512/AVX register transposes of 64/32-byte rows, OpenMP over tiles",
     NULL},

    /* meanpool is reduce's mean over the middle axis: the same kernels (reduce.c);
     * f16, bf16 summed in f32 and rounded once to the output */
    {GPUK_OP_REDUCE, F32F64F16BF16, "naive", 0, reduce_naive,
     "one scalar accumulator per output (f32 for f16/bf16, each element widened as read)", NULL},
    {GPUK_OP_REDUCE, F32F64F16BF16, "simd", D, reduce_simd,
     "OpenMP over outputs or row chunks, 4 vector accumulators / L1 row slices (f32 for f16/bf16)",
     NULL},
    {GPUK_OP_MEANPOOL, F32F64F16BF16, "naive", 0, reduce_naive,
     "scalar sum over tokens per output (f32 for f16/bf16)", NULL},
    {GPUK_OP_MEANPOOL, F32F64F16BF16, "simd", D, reduce_simd,
     "rows added as vectors into an L1 slice, OpenMP (reduce's simd rung)", NULL},

    /* f16, bf16: each element loaded to f32 and rounded once back (elementwise.c) */
    {GPUK_OP_ADD, F32F64F16BF16, "naive", 0, add_naive, "scalar loop", NULL},
    {GPUK_OP_ADD, F32F64F16BF16, "simd", D, add_simd, "AVX-512/AVX2 vectors, masked tails, OpenMP, streaming stores when large; f16/bf16 converted in registers", NULL},
    {GPUK_OP_SCALE, F32F64F16BF16, "naive", 0, scale_naive, "scalar loop", NULL},
    {GPUK_OP_SCALE, F32F64F16BF16, "simd", D, scale_simd, "AVX-512/AVX2 vectors, masked tails, OpenMP, streaming stores when large; f16/bf16 converted in registers", NULL},
    {GPUK_OP_RELU, F32F64F16BF16, "naive", 0, relu_naive, "scalar loop", NULL},
    {GPUK_OP_RELU, F32F64F16BF16, "simd", D, relu_simd, "AVX-512/AVX2 vectors, masked tails, OpenMP, streaming stores when large; f16/bf16 converted in registers", NULL},
    {GPUK_OP_BIAS_RELU, F32F64F16BF16, "naive", 0, bias_relu_naive, "scalar loop", NULL},
    {GPUK_OP_BIAS_RELU, F32F64F16BF16, "simd", D, bias_relu_simd, "AVX-512/AVX2 vectors, masked tails, OpenMP, streaming stores when large; f16/bf16 converted in registers", NULL},
    {GPUK_OP_COPY, F32F64F16BF16, "naive", 0, copy_naive, "scalar loop", NULL},
    {GPUK_OP_COPY, F32F64, "simd", D, copy_simd, "AVX-512/AVX2 vectors, OpenMP, streaming stores when large", NULL},
    {GPUK_OP_COPY, F16BF16, "omp", D, copy_omp_half, "one memcpy per OpenMP thread", NULL},

    {GPUK_OP_SOFTMAX, F32F64F16BF16, "naive", 0, softmax_naive,
     "three passes per row: max, sum of exp, exp over the sum (in f32 for f16/bf16)", NULL},
    {GPUK_OP_SOFTMAX, F32F64, "simd", D, softmax_simd,
     "OpenMP over rows, vector max, vector exp summed as stored, scale by 1/sum", NULL},
    {GPUK_OP_SOFTMAX, F16BF16, "simd", D, softmax_simd_half,
     "OpenMP over rows; row widened in L1 (F16C / shifts), the f32 simd row, rounded back", NULL},
    {GPUK_OP_EMBEDDING, F32F64F16BF16, "naive", 0, embedding_naive, "one row copy per token", NULL},
    {GPUK_OP_EMBEDDING, F32F64F16BF16, "omp", D, embedding_omp, "OpenMP over tokens, memcpy per row", NULL},

    {GPUK_OP_SPMV, F32F64, "naive", 0, spmv_naive, "textbook CSR row loop", NULL},
    {GPUK_OP_SPMV, F32F64, "omp", 0, spmv_omp, "OpenMP over equal row counts, 4 accumulators per row", NULL},
    {GPUK_OP_SPMV, F32F64, "balanced", D, spmv_balanced,
     "OpenMP over row ranges of equal nonzeros+rows (binary search in row_ptr)", NULL},

    {GPUK_OP_DOT, F32F64, "naive", 0, dot_naive, "scalar loop", NULL},
    {GPUK_OP_DOT, F32F64, "simd", D, dot_simd, "AVX-512/AVX2, 4 vector accumulators, OpenMP chunks", NULL},
#ifdef HAVE_OPENBLAS
    {GPUK_OP_DOT, F32F64, "openblas", L, dot_openblas, "cblas_sdot / cblas_ddot", NULL},
#endif
    {GPUK_OP_GEMV, F32F64, "naive", 0, gemv_naive, "one dot product per output", NULL},
    {GPUK_OP_GEMV, F32F64, "simd", D, gemv_simd, "vector dots per row (or axpy over column slices), OpenMP", NULL},
#ifdef HAVE_OPENBLAS
    {GPUK_OP_GEMV, F32F64, "openblas", L, gemv_openblas, "cblas_sgemv / cblas_dgemv", NULL},
#endif

    /* apsp.c: the naive row first, the shadow's reference */
    {GPUK_OP_APSP, F32F64I32, "naive", 0, apsp_naive,
     "textbook Floyd-Warshall on one thread, with predecessors", NULL},
    {GPUK_OP_APSP, F32F64I32, "omp", 0, apsp_omp,
     "the naive loops, each step's rows over OpenMP threads (row k and column k stay fixed)", NULL},
    {GPUK_OP_APSP, F32F64I32, "blocked", D, apsp_blocked,
     "blocked Floyd-Warshall, blocks of 256: the n^3 work as min-plus updates on min-plus regtile "
     "(i32 with a negative weight: an INF-testing loop); with pred, omp's loops", NULL},

    /* cast.c: from the row's dtype to out's, any of the four (gpuk/backend.h) */
    {GPUK_OP_CAST, F32F64F16BF16, "naive", 0, cast_naive,
     "one element at a time, scalar conversions (f64 to 16 bits in one rounding)", NULL},
    {GPUK_OP_CAST, F32F64F16BF16, "simd", D, cast_simd,
     "OpenMP over spans; F16C / AVX-512 row converters for f32 and 16-bit sides", NULL},
};

/* The built-in rules of "auto" (ABI 2.3), in auto.c. */
const char *cpu_auto_variant(gpuk_bctx *b, const gpuk_args *args, int shape_class);

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
    .kernel_size = sizeof(gpuk_kernel),
    .csr_prepare = NULL,
    .csr_release = NULL,
    .peak = cpu_peak,
    .host_alloc = cpu_alloc,
    .host_free = cpu_free,
    .check_pointer = cpu_check_pointer,
    .use_stream = cpu_use_stream,
    .dlpack_device = 1,   /* kDLCPU */
    .native_stream = NULL,
    .auto_variant = cpu_auto_variant,
};

/*
 * auto.c - the CPU backend's built-in rules for "auto" (plugin ABI 2.3,
 * gpuk_backend.auto_variant): which rung a call runs when the caller names
 * none and no wisdom file settles it (doc/design.md, "Choosing a rung").
 *
 * The rules are the output of bench/auto-rules.py over measured ladders,
 * and nothing else: each names the rung that was within 3% of the fastest
 * at every measured size of its class range, where the DEFAULT row of
 * table.c was not.  A rule is keyed by (op, dtype, class range): a rung
 * that wins in f32 says nothing about f64 or i32 (issue 29 item 12: rules
 * keyed by op alone misfired on other dtypes).  Which rung wins on a CPU
 * depends on how many threads share the work, so there are two tables:
 *
 *   few   2 threads: the 2-core AMD EPYC (Zen 4, AVX-512) CI machine,
 *         with the 6 x 4 micro-kernels (bench/NOTES.md, "f64 on the CPU,
 *         and auto on two cores"): packed min-plus (f32); OpenBLAS for
 *         the smallest products (64^3, batched 32^3 or 64^3 x 16), where
 *         simd's packing and thread team cost more than the work;
 *         elsewhere simd leads or the two are within the run-to-run
 *         spread of each other;
 *   many  16 threads: the Intel Xeon (AVX-512) host of the H200
 *         (bench/results/nvidia-h200.csv), measured with the 12 x 2
 *         micro-kernels before the 6 x 4 ones: OpenBLAS beat simd by 9-24%
 *         on matmul, gemm and batched matmul above the smallest sizes
 *         (simd won at 1024^3), 3.3x on gemv at 8192^2; packed min-plus
 *         won from 1024 to 2048; omp spmv beat balanced on two of the
 *         three power-law matrices.  To be measured again there.
 *
 * The tables switch at 6 threads, the geometric middle of 2 and 16: the
 * two machines differ in vendor too, so the count stands for both.
 * Classes outside the measured range take the rule of the nearest
 * measured class; a boundary lies halfway between two measured classes.
 * The 2-thread table has rules for f32 and f64 (measured in each); the
 * 16-thread one for f32 only.  Without a rule a call runs its dtype's
 * DEFAULT row: i32 always (its DEFAULT min-plus, packed, won every size
 * it did not tie), f64 min-plus (regtile and packed within 3% of each
 * other from 64 to 2048).  A rung that needs OpenBLAS is named only when
 * the plugin was built with it.
 */
#include "config.h"

#include <stddef.h>

#include "cpu.h"

typedef struct cpu_rule {
    gpuk_op op;
    gpuk_dtype dtype;        /* a rule holds for the dtype it was measured in */
    int lo, hi;              /* the shape classes it covers, inclusive */
    const char *variant;
} cpu_rule;

#define ANY_HI 127

/* 2 threads: bench/auto-rules.py over six gpuk-bench runs on the 2-core
 * CI machine (bench/NOTES.md, "f64 on the CPU, and auto on two cores"),
 * kept where every run agreed.  Between 256^3 and 2048^3 simd and
 * OpenBLAS traded places by up to 25% from run to run (each ahead in some
 * run at every size), as did omp and balanced spmv by 1-4%: there the
 * DEFAULT row stays.  What held in every run: */
static const cpu_rule few[] = {
    {GPUK_OP_MINPLUS, GPUK_F32, 0, ANY_HI, "packed"},      /* 256..4096: regtile up to 1.36x slower; 64: tie */
#ifdef HAVE_OPENBLAS
    {GPUK_OP_MATMUL, GPUK_F32, 0, 21, "openblas"},         /* 64^3: simd 2.0x slower */
    {GPUK_OP_GEMM, GPUK_F32, 0, 21, "openblas"},           /* 64^3: simd 1.9x */
    {GPUK_OP_BATCHED_MATMUL, GPUK_F32, 0, 23, "openblas"}, /* 32^3 b16: simd 2.4x; 64^3 b16: 1.22x, 1.26x */
    /* f64, three --quick runs: the same small products, and simd ahead
     * from 256^3 (gemm) or 512^3 (matmul) and 256^3 x 16 on */
    {GPUK_OP_MATMUL, GPUK_F64, 0, 21, "openblas"},         /* 64^3: simd 1.54x slower */
    {GPUK_OP_GEMM, GPUK_F64, 0, 21, "openblas"},           /* 64^3: simd 1.50x */
    {GPUK_OP_BATCHED_MATMUL, GPUK_F64, 0, 22, "openblas"}, /* 32^3 b16: simd 1.8x */
#endif
};

/* 16 threads: bench/auto-rules.py, "cpu on nvidia-h200 (16 threads)" */
static const cpu_rule many[] = {
#ifdef HAVE_OPENBLAS
    {GPUK_OP_MATMUL, GPUK_F32, 0, 27, "openblas"},         /* 256^3: simd 1.19x slower */
    {GPUK_OP_MATMUL, GPUK_F32, 32, ANY_HI, "openblas"},    /* 2048^3..8192^3: simd 1.16-1.24x */
    {GPUK_OP_GEMM, GPUK_F32, 0, 27, "openblas"},           /* 256^3: simd 1.19x */
    {GPUK_OP_GEMM, GPUK_F32, 32, ANY_HI, "openblas"},      /* 2048^3..8192^3: simd 1.09-1.12x */
    {GPUK_OP_BATCHED_MATMUL, GPUK_F32, 26, ANY_HI, "openblas"}, /* 256..2048 b16: simd up to 1.36x */
    {GPUK_OP_GEMV, GPUK_F32, 26, ANY_HI, "openblas"},      /* 8192^2: simd 3.3x */
#endif
    {GPUK_OP_MINPLUS, GPUK_F32, 19, 23, "packed"},         /* 1024, 2048: regtile 1.14x, 1.005x */
    {GPUK_OP_SPMV, GPUK_F32, 30, 34, "omp"},               /* 262144 power-law: balanced 1.28x */
    {GPUK_OP_SPMV, GPUK_F32, 39, ANY_HI, "omp"},           /* 4194304 power-law: balanced 1.25x */
};

#define CPU_AUTO_MANY_THREADS 6

const char *cpu_auto_variant(gpuk_bctx *b, const gpuk_args *args, int shape_class);

const char *cpu_auto_variant(gpuk_bctx *b, const gpuk_args *args, int shape_class)
{
    const cpu_rule *r = few;
    size_t n = sizeof few / sizeof few[0];
    if (b->nthreads >= CPU_AUTO_MANY_THREADS) {
        r = many;
        n = sizeof many / sizeof many[0];
    }
    for (size_t i = 0; i < n; i++)
        if (r[i].op == args->op && r[i].dtype == args->dtype && shape_class >= r[i].lo &&
            shape_class <= r[i].hi)
            return r[i].variant;
    return NULL;
}

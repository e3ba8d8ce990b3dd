/*
 * auto.c - the CPU backend's built-in rules for "auto" (plugin ABI 2.3,
 * gpuk_backend.auto_variant): which rung a call runs when the caller names
 * none and no wisdom file settles it (doc/design.md, "Choosing a rung").
 *
 * The rules are the output of bench/auto-rules.py over the two reference
 * machines' ladders, and nothing else: each names the rung that was
 * within 3% of the fastest at every measured size of its class range,
 * where the DEFAULT row of table.c was not.  Which rung wins on a CPU
 * depends on how many threads share the work, so there are two tables:
 *
 *   few   2 threads: a 2-core AMD EPYC with AVX-512
 *         (bench/results/cpu-2core-epyc.csv): packed min-plus, whose
 *         k-blocking keeps the panels in L2, wins at every size (1.75x at
 *         4096); OpenBLAS beats simd on the BLAS-like ops; omp spmv
 *         beats balanced from 1M rows on;
 *   many  16 threads: the Intel Xeon (AVX-512) host of the H200
 *         (bench/results/nvidia-h200.csv): OpenBLAS beats simd by 9-24%
 *         on matmul, gemm and batched matmul above the smallest sizes
 *         (simd wins at 1024^3), 3.3x on gemv at 8192^2; packed min-plus
 *         wins from 1024 to 2048; omp spmv beats balanced on two of the
 *         three power-law matrices.
 *
 * The tables switch at 6 threads, the geometric middle of 2 and 16: the
 * two machines differ in vendor too, so the count stands for both.
 * Classes outside the measured range take the rule of the nearest
 * measured class; a boundary lies halfway between two measured classes.
 * Rules hold for f32 only (the only dtype measured); other dtypes run
 * their DEFAULT row.  A rung that needs OpenBLAS is named only when the
 * plugin was built with it.
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

/* 2 threads: bench/auto-rules.py, "cpu on cpu-2core-epyc (2 threads)",
 * min-plus from the run of 2026-11-21; the BLAS-like ops from that of
 * 2026-11-24 (bench/results/cpu-2core-epyc.csv), in which OpenBLAS beat
 * simd at every size where the 2026-11-21 run had simd ahead (a newer
 * OpenBLAS from the quick start, the one configure now requires). */
static const cpu_rule few[] = {
    {GPUK_OP_MINPLUS, GPUK_F32, 0, ANY_HI, "packed"},      /* 1.02x, 1.00x, 1.00x, 1.75x over regtile */
#ifdef HAVE_OPENBLAS
    {GPUK_OP_MATMUL, GPUK_F32, 0, ANY_HI, "openblas"},     /* 1024^3..4096^3: simd 1.15-1.17x slower */
    {GPUK_OP_GEMM, GPUK_F32, 0, ANY_HI, "openblas"},       /* 256^3..4096^3: simd 1.10-1.16x */
    {GPUK_OP_BATCHED_MATMUL, GPUK_F32, 0, ANY_HI, "openblas"}, /* 64..2048 b16: simd 1.21-1.88x */
    {GPUK_OP_GEMV, GPUK_F32, 23, ANY_HI, "openblas"},      /* 4096^2, 8192^2: simd 1.05x, 1.22x */
#endif
    /* from the run of 2026-11-24 with auto timed in turns: omp within 2.8%
     * of the best from 1M rows on, balanced 1.08x at 1M random and 1.09x
     * (in turns) at 4M power-law; the run before had it 1.14x at 4M random */
    {GPUK_OP_SPMV, GPUK_F32, 24, ANY_HI, "omp"},
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

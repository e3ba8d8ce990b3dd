/*
 * batched.c - c[i] = a[i or 0] . b[i or 0] for a[B,m,k], b[B,k,n],
 * c[B,m,n] (a broadcast operand has batch stride 0).  Each rung runs one
 * matmul rung per batch; see matmul.c for what each rung adds.
 */
#include "config.h"

#include <string.h>

#include "cpu.h"

/* One matmul per batch entry through the given rung. */
static gpuk_status bmm_run(gpuk_bctx *b, const gpuk_args *args, cpu_sgemm_fn fn)
{
    const gpuk_tdesc *a = &args->in[0], *bm = &args->in[1], *c = &args->out;
    int64_t nb = c->shape[0], m = c->shape[1], n = c->shape[2], k = a->shape[2];
    for (int64_t i = 0; i < nb; i++) {
        gpuk_status st = fn(b, m, n, k, T_F32(a) + i * a->stride[0], a->stride[1],
                            T_F32(bm) + i * bm->stride[0], bm->stride[1], NULL,
                            T_F32(c) + i * c->stride[0], c->stride[1]);
        if (st != GPUK_OK)
            return st;
    }
    return GPUK_OK;
}

/* Rung 1: the naive triple loop per batch. */
CPU_KERNEL(bmm_naive)
{
    return bmm_run(b, args, cpu_sgemm_naive);
}

/* Rung 2: the cache-blocked matmul per batch entry. */
CPU_KERNEL(bmm_blocked)
{
    return bmm_run(b, args, cpu_sgemm_blocked);
}

/* Rung 3: the packed SIMD matmul per batch entry.  A large product is
 * split among the threads (they share its packed B panel in cache); small
 * products, where a parallel region costs more than the work, go one per
 * thread instead, each thread running the engine alone. */
#define BMM_SPLIT_MIN ((int64_t)1 << 21) /* multiply-adds per product */

CPU_KERNEL(bmm_simd)
{
    const gpuk_tdesc *a = &args->in[0], *bm = &args->in[1], *c = &args->out;
    int64_t nb = c->shape[0], m = c->shape[1], n = c->shape[2], k = a->shape[2];
    if (b->nthreads == 1 || nb == 1 || m * n * (k > 0 ? k : 1) >= BMM_SPLIT_MIN)
        return bmm_run(b, args, cpu_sgemm_simd);
    gpuk_status first_err = GPUK_OK;
#pragma omp parallel num_threads(b->nthreads)
    {
        /* a private one-thread context: the engine's parallel regions then
         * run on this thread alone */
        gpuk_bctx one = *b;
        one.nthreads = 1;
#pragma omp for schedule(dynamic, 1)
        for (int64_t i = 0; i < nb; i++) {
            gpuk_status st = cpu_sgemm_simd(&one, m, n, k, T_F32(a) + i * a->stride[0],
                                            a->stride[1], T_F32(bm) + i * bm->stride[0],
                                            bm->stride[1], NULL, T_F32(c) + i * c->stride[0],
                                            c->stride[1]);
            if (st != GPUK_OK) {
#pragma omp critical(gpuk_cpu_bmm_err)
                if (first_err == GPUK_OK) {
                    first_err = st;
                    memcpy(b->err, one.err, sizeof b->err);
                }
            }
        }
    }
    return first_err;
}

#ifdef HAVE_OPENBLAS
/* Rung 4: cblas_sgemm per batch entry. */
CPU_KERNEL(bmm_openblas)
{
    return bmm_run(b, args, cpu_sgemm_openblas);
}
#endif

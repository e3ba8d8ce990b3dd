/*
 * t_threads - the thread-safety contract of gpuk.h: distinct contexts are
 * independent and may be used from different threads at the same time.
 *
 * NTHREADS threads each open their own cpu context and, for ROUNDS rounds,
 * run every variant of eight ops on inputs of their own, comparing each
 * result with the float64 reference; each round also opens and closes a
 * second context (the loader and the context counter under contention)
 * and passes a neighbour thread's tensor handle to its own context, which
 * must answer GPUK_ERR_CONTEXT without reading the neighbour's state.
 * The threads only record; the main thread prints the TAP lines.
 *
 * Built with -fsanitize=thread (tests/tsan.sh) this is the ThreadSanitizer
 * run.  There the vendor-library rungs (OpenBLAS) are skipped: OpenBLAS's
 * own thread pool and locks are not instrumented, so TSan cannot see
 * their synchronisation and reports races that are not there; the same
 * holds for libgomp, which is why tsan.sh runs with GPUK_NUM_THREADS=1
 * (an OpenMP region of one thread spawns no worker).
 */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpuk.h>

#include "opcall.h"
#include "ref.h"
#include "t_rel.h"
#include "tap.h"

#if defined(__SANITIZE_THREAD__)
#define UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UNDER_TSAN 1
#endif
#endif
#ifndef UNDER_TSAN
#define UNDER_TSAN 0
#endif

#define NTHREADS 4

typedef struct worker {
    int id;
    uint64_t seed;
    int rounds;
    pthread_t th;
    gpuk_context *ctx;
    int opened;
    long runs, bad, skipped_lib;
    char first_bad[256];
    long foreign_ok, foreign_bad, reopen_bad;
} worker;

static worker W[NTHREADS];
static gpuk_tensor *published[NTHREADS];
static pthread_barrier_t barrier;

static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static float rnd(uint64_t *s)
{
    return (float)((double)(next(s) >> 11) * 0x1p-53 * 2.0 - 1.0);
}

static gpuk_tensor *tensor(worker *w, int nd, const int64_t *shape, const float *v)
{
    gpuk_tensor *t = NULL;
    if (gpuk_tensor_create(w->ctx, GPUK_F32, nd, shape, &t) != GPUK_OK)
        return NULL;
    int64_t n = 1;
    for (int i = 0; i < nd; i++)
        n *= shape[i];
    if (v)
        gpuk_tensor_write(w->ctx, t, v, (size_t)n * 4);
    return t;
}

static void note_bad(worker *w, const char *fmt, const char *a, const char *b, const char *c)
{
    if (w->bad++ == 0)
        snprintf(w->first_bad, sizeof w->first_bad, fmt, a, b, c);
}

/* Run the call on every variant; compare its output (n elements) with
 * ref/bound, bit for bit for the ops the catalogue marks exact. */
static void every_variant(worker *w, const opcall_args *call, int64_t n, const double *ref,
                          const double *bound)
{
    size_t nv = 0;
    gpuk_op op = call->op;
    gpuk_variant_count(w->ctx, op, &nv);
    float *got = malloc((size_t)n * 4 + 4);
    for (size_t k = 0; k < nv; k++) {
        gpuk_variant_info vi;
        gpuk_variant_get(w->ctx, op, k, &vi);
        if (UNDER_TSAN && (vi.flags & GPUK_VARIANT_LIBRARY)) {
            w->skipped_lib++;
            continue;
        }
        w->runs++;
        gpuk_status st = opcall(w->ctx, call, vi.name);
        if (st != GPUK_OK) {
            note_bad(w, "%s/%s: %s", gpuk_op_name(op), vi.name, gpuk_context_error(w->ctx));
            continue;
        }
        ref_cmp res;
        gpuk_tensor_read(w->ctx, call->out, got, (size_t)n * 4);
        ref_compare(n, got, ref, bound, gpuk_op_exact(op) == 1, &res);
        if (res.bad)
            note_bad(w, "%s/%s: %s", gpuk_op_name(op), vi.name, "differs from the reference");
    }
    free(got);
}

/* A call of op on x, y, z into out (opcall.h), the other scalars at their
 * opcall_init values. */
static opcall_args C(gpuk_op op, gpuk_tensor *x, gpuk_tensor *y, gpuk_tensor *z, gpuk_tensor *out)
{
    opcall_args a;
    opcall_init(&a, op);
    a.in[0] = x;
    a.in[1] = y;
    a.in[2] = z;
    a.out = out;
    return a;
}

/* One round: every variant of the eight ops on fresh inputs. */
static void round_of_ops(worker *w)
{
    const int64_t m = 37, k = 29, n = 41;
    const double u = REF_U_FP32;
    float *a = malloc(m * k * 4), *b = malloc(k * n * 4), *bias = malloc(n * 4);
    double *ref = malloc(m * n * 8), *bd = malloc(m * n * 8);
    for (int64_t i = 0; i < m * k; i++)
        a[i] = rnd(&w->seed);
    for (int64_t i = 0; i < k * n; i++)
        b[i] = rnd(&w->seed);
    for (int64_t i = 0; i < n; i++)
        bias[i] = rnd(&w->seed);
    gpuk_tensor *ta = tensor(w, 2, REL_SHAPE(m, k), a), *tb = tensor(w, 2, REL_SHAPE(k, n), b);
    gpuk_tensor *tbias = tensor(w, 1, REL_SHAPE(n), bias);
    gpuk_tensor *to = tensor(w, 2, REL_SHAPE(m, n), NULL);

    ref_matmul(m, k, n, a, b, bias, u, ref, bd);
    opcall_args call = C(GPUK_OP_MATMUL, ta, tb, tbias, to);
    every_variant(w, &call, m * n, ref, bd);
    ref_minplus(m, k, n, a, b, ref, bd);
    call = C(GPUK_OP_MINPLUS, ta, tb, NULL, to);
    every_variant(w, &call, m * n, ref, bd);
    /* gemm with a read as [k, m]: the same floats, transposed */
    gpuk_tensor *at = tensor(w, 2, REL_SHAPE(k, m), a);
    ref_gemm(1, 0, m, n, k, 1.5f, a, b, 0.0f, NULL, u, ref, bd);
    call = C(GPUK_OP_GEMM, at, tb, NULL, to);
    call.trans_a = GPUK_TRANS;
    call.alpha = 1.5f;
    every_variant(w, &call, m * n, ref, bd);

    gpuk_tensor *sm = tensor(w, 2, REL_SHAPE(m, k), NULL);
    ref_softmax(m, k, a, u, ref, bd);
    call = C(GPUK_OP_SOFTMAX, ta, NULL, NULL, sm);
    every_variant(w, &call, m * k, ref, bd);
    gpuk_tensor *tr = tensor(w, 2, REL_SHAPE(k, m), NULL);
    ref_transpose(m, k, a, ref, bd);
    call = C(GPUK_OP_TRANSPOSE, ta, NULL, NULL, tr);
    every_variant(w, &call, m * k, ref, bd);
    gpuk_tensor *red = tensor(w, 1, REL_SHAPE(k), NULL);
    ref_reduce(0, 2, REL_SHAPE(m, k), 0, a, u, ref, bd);
    call = C(GPUK_OP_REDUCE, ta, NULL, NULL, red);
    every_variant(w, &call, k, ref, bd);
    gpuk_tensor *a2 = tensor(w, 2, REL_SHAPE(m, k), a + 0), *sum = tensor(w, 2, REL_SHAPE(m, k), NULL);
    ref_add(m * k, a, a, u, ref, bd);
    call = C(GPUK_OP_ADD, ta, a2, NULL, sum);
    every_variant(w, &call, m * k, ref, bd);

    /* a CSR matrix of m rows, k columns, about one entry in four */
    int32_t *rp = malloc((m + 1) * 4), *ci = malloc(m * k * 4);
    float *cv = malloc(m * k * 4);
    int32_t nnz = 0;
    rp[0] = 0;
    for (int64_t i = 0; i < m; i++) {
        for (int64_t j = 0; j < k; j++)
            if (next(&w->seed) % 4 == 0) {
                ci[nnz] = (int32_t)j;
                cv[nnz++] = rnd(&w->seed);
            }
        rp[i + 1] = nnz;
    }
    gpuk_csr *csr = NULL;
    if (gpuk_csr_create(w->ctx, m, k, nnz, rp, ci, cv, &csr) != GPUK_OK)
        note_bad(w, "%s%s%s", "csr_create: ", gpuk_context_error(w->ctx), "");
    gpuk_tensor *xv = tensor(w, 1, REL_SHAPE(k), b), *yv = tensor(w, 1, REL_SHAPE(m), NULL);
    ref_spmv(m, rp, ci, cv, b, u, ref, bd);
    call = C(GPUK_OP_SPMV, xv, NULL, NULL, yv);
    call.csr = csr;
    every_variant(w, &call, m, ref, bd);

    gpuk_csr_destroy(w->ctx, csr);
    gpuk_tensor *all[] = { ta, tb, tbias, to, at, sm, tr, red, a2, sum, xv, yv };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        gpuk_tensor_destroy(w->ctx, all[i]);
    free(rp);
    free(ci);
    free(cv);
    free(a);
    free(b);
    free(bias);
    free(ref);
    free(bd);
}

static void *work(void *p)
{
    worker *w = p;
    gpuk_options o;
    gpuk_options_init(&o);
    o.backend = "cpu";
    w->opened = gpuk_context_open_ex(&w->ctx, &o, NULL) == GPUK_OK;
    /* everyone publishes one tensor, then uses a neighbour's on its own context */
    if (w->opened)
        published[w->id] = tensor(w, 1, REL_SHAPE(3), (const float[]){ 1, 2, 3 });
    pthread_barrier_wait(&barrier);
    if (!w->opened)
        return NULL;
    gpuk_tensor *mine = tensor(w, 1, REL_SHAPE(3), NULL);
    for (int r = 0; r < w->rounds; r++) {
        round_of_ops(w);
        gpuk_tensor *theirs = published[(w->id + 1) % NTHREADS];
        if (theirs) {
            gpuk_status st = gpuk_copy(w->ctx, theirs, mine, NULL);
            if (st == GPUK_ERR_CONTEXT)
                w->foreign_ok++;
            else
                w->foreign_bad++;
        }
        gpuk_context *extra = NULL;
        if (gpuk_context_open(&extra, "cpu") != GPUK_OK)
            w->reopen_bad++;
        gpuk_context_close(extra);
    }
    /* nobody may close a context whose tensor a neighbour still passes */
    pthread_barrier_wait(&barrier);
    return NULL;
}

int main(void)
{
    uint64_t seed = tap_seed();
    const char *rs = getenv("GPUK_THREADS_ROUNDS");
    int rounds = rs && atoi(rs) > 0 ? atoi(rs) : 3;
    tap_diag("%d threads x %d rounds%s", NTHREADS, rounds,
             UNDER_TSAN ? " (ThreadSanitizer build: vendor-library rungs skipped)" : "");
    pthread_barrier_init(&barrier, NULL, NTHREADS);
    for (int i = 0; i < NTHREADS; i++) {
        W[i].id = i;
        W[i].seed = seed ^ (0x1234567ull * (uint64_t)(i + 1));
        W[i].rounds = rounds;
        if (pthread_create(&W[i].th, NULL, work, &W[i]) != 0) {
            tap_ok(0, "starting thread %d", i);
            return tap_done();
        }
    }
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(W[i].th, NULL);
    for (int i = 0; i < NTHREADS; i++) {
        worker *w = &W[i];
        tap_ok(w->opened, "thread %d opened its own cpu context", i);
        tap_ok(w->runs > 0 && w->bad == 0, "thread %d: %ld (op, variant) runs, all match the "
               "reference%s%s", i, w->runs, w->bad ? "; first failure: " : "", w->first_bad);
        tap_ok(w->foreign_ok == rounds && w->foreign_bad == 0, "thread %d: a neighbour's tensor "
               "on its context is GPUK_ERR_CONTEXT every time (%ld of %d)", i, w->foreign_ok,
               rounds);
        tap_ok(w->reopen_bad == 0, "thread %d: %d extra contexts opened and closed meanwhile", i,
               rounds);
        if (w->skipped_lib)
            tap_skip("thread %d: %ld vendor-library runs skipped under ThreadSanitizer (OpenBLAS "
                     "is not instrumented)", i, w->skipped_lib);
        gpuk_context_close(w->ctx);
    }
    pthread_barrier_destroy(&barrier);
    return tap_done();
}

/*
 * t_threads - the thread-safety contract of gpuk.h: distinct contexts are
 * independent and may be used from different threads at the same time.
 *
 * NTHREADS threads each open their own cpu context and, for ROUNDS rounds,
 * run every variant of every op of the catalogue, in every dtype the
 * backend computes it in, on small cases of the op suite (its
 * descriptors, tests/ops/), each thread and round with inputs of their
 * own, in guarded storage, comparing each result with the reference;
 * each round also opens and closes a second context (the loader and the
 * context counter under contention) and passes a
 * neighbour thread's tensor handle to its own context, which must answer
 * GPUK_ERR_CONTEXT without reading the neighbour's state.  The threads
 * only record; the main thread prints the TAP lines.
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

#include "opcases.h"
#include "opsuite.h"
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
/* the op suite's cases 1 and 2 of each op: small (tens to a few thousand
 * outputs), in two layouts, and quick under TSan and valgrind */
#define FIRST_CASE 1
#define LAST_CASE 2

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

/* Run case c on every variant of its op; compare its output with the
 * reference, bit for bit for the ops the catalogue marks exact. */
static void every_variant(worker *w, oc_case *c)
{
    size_t nv = 0;
    gpuk_op op = c->op;
    gpuk_dtype dt = oc_dtype(c);
    char why[512];
    gpuk_variant_count_dtype(w->ctx, op, dt, &nv);
    void *got = oc_alloc((size_t)c->out.numel * gpuk_dtype_size(c->out.dtype));
    for (size_t k = 0; k < nv; k++) {
        gpuk_variant_info vi;
        gpuk_variant_get_dtype(w->ctx, op, dt, k, &vi);
        if (UNDER_TSAN && (vi.flags & GPUK_VARIANT_LIBRARY)) {
            w->skipped_lib++;
            continue;
        }
        w->runs++;
        if (!opsuite_run_case(w->ctx, c, vi.name, got, why, sizeof why)) {
            note_bad(w, "%s/%s: %.160s", gpuk_op_name(op), vi.name, why);
            continue;
        }
        int tf = (vi.flags & GPUK_VARIANT_TF32) != 0;
        if (!c->ref[tf])
            oc_ref(c, tf);
        ref_cmp res;
        ref_compare(c->out.dtype, c->out.numel, got, c->ref[tf], c->bound[tf], c->exact, &res);
        if (res.bad)
            note_bad(w, "%s/%s %s: differs from the reference", gpuk_op_name(op), vi.name,
                     c->label);
    }
    free(got);
}

/* One round: the small cases of every op, through every variant, on
 * inputs drawn from the worker's own stream. */
static void round_of_ops(worker *w)
{
    uint64_t seed = next(&w->seed);
    static const gpuk_dtype dts[] = {
#define T_THREADS_DT_(id, value, name, bytes, dlcode, prec) GPUK_##id,
        GPUK_DTYPE_MAP(T_THREADS_DT_)
#undef T_THREADS_DT_
    };
    for (int op = GPUK_OP_FIRST; op <= GPUK_OP_LAST; op++)
        for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++)
            for (int idx = FIRST_CASE; idx <= LAST_CASE; idx++) {
                oc_case c;
                if (!oc_build((gpuk_op)op, dts[d], idx, seed, &c))
                    continue;
                every_variant(w, &c);
                oc_free(&c);
            }
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

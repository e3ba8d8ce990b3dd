/*
 * measure.c - timing one row, and the transfers of one case.
 *
 * A rung is timed on the backend's own clock (gpuk_timer_start/stop: CUDA
 * events on a GPU, a monotonic clock on the CPU) around each repetition,
 * after warm-up runs that absorb first-touch page faults, module loading
 * and library handle creation.  The median is the figure; min and max show
 * the spread.  Transfers are timed on the host clock around write + sync
 * and around read, since that is what a caller of the API waits for: once
 * from the case's ordinary (pageable) buffers, which a GPU backend stages
 * through its page-locked pool, and once from copies in gpuk_host_alloc
 * memory, which go straight to the DMA engine.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

void api_error(char *buf, size_t len, gpuk_context *ctx, const char *what, gpuk_status st)
{
    const char *msg = ctx ? gpuk_context_error(ctx) : "";
    if (msg && *msg)
        snprintf(buf, len, "%s: %s: %s", what, gpuk_strerror(st), msg);
    else
        snprintf(buf, len, "%s: %s", what, gpuk_strerror(st));
}

static size_t spec_bytes(const btspec *t)
{
    size_t n = gpuk_dtype_size(t->dtype);
    for (int i = 0; i < t->ndim; i++)
        n *= (size_t)t->shape[i];
    return n;
}

/* The case's host data copied into gpuk_host_alloc memory (page-locked on
 * a GPU): in[0..n_in), the CSR arrays, the output buffer.  0, or -1 when
 * the backend has no host_alloc (or memory ran out): no pinned figures. */
typedef struct pinned {
    void *in[3], *rp, *ci, *cv, *out;
} pinned;

static void pinned_free(gpuk_context *ctx, pinned *p)
{
    void *all[] = {p->in[0], p->in[1], p->in[2], p->rp, p->ci, p->cv, p->out};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        gpuk_host_free(ctx, all[i]);
    memset(p, 0, sizeof *p);
}

static int pinned_copy(gpuk_context *ctx, void **dst, const void *src, size_t bytes)
{
    if (!bytes)
        return 0;
    if (gpuk_host_alloc(ctx, bytes, dst) != GPUK_OK)
        return -1;
    if (src)
        memcpy(*dst, src, bytes);
    return 0;
}

static int pinned_make(gpuk_context *ctx, const bcase *c, pinned *p)
{
    memset(p, 0, sizeof *p);
    int bad = 0;
    for (int i = 0; i < c->n_in; i++)
        bad |= pinned_copy(ctx, &p->in[i], c->host_in[i], spec_bytes(&c->in[i]));
    if (c->op == GPUK_OP_SPMV) {
        bad |= pinned_copy(ctx, &p->rp, c->row_ptr, (size_t)(c->sh.m + 1) * sizeof(int32_t));
        bad |= pinned_copy(ctx, &p->ci, c->col_idx, (size_t)c->nnz * sizeof(int32_t));
        bad |= pinned_copy(ctx, &p->cv, c->values, (size_t)c->nnz * gpuk_dtype_size(c->dtype));
    }
    bad |= pinned_copy(ctx, &p->out, NULL, c->out_numel * gpuk_dtype_size(c->out.dtype));
    if (bad)
        pinned_free(ctx, p);
    return bad ? -1 : 0;
}

/* What dev_upload does, from the pinned copies. */
static gpuk_status upload_pinned(gpuk_context *ctx, const bcase *c, bdev *d, const pinned *p,
                                 const char **what)
{
    gpuk_status st;
    for (int i = 0; i < c->n_in; i++) {
        *what = "gpuk_tensor_write (page-locked)";
        if ((st = gpuk_tensor_write(ctx, d->in[i], p->in[i], spec_bytes(&c->in[i]))) != GPUK_OK)
            return st;
    }
    if (c->op == GPUK_OP_SPMV) {
        gpuk_csr_destroy(ctx, d->csr);
        d->csr = NULL;
        *what = "gpuk_csr_create (page-locked)";
        if ((st = gpuk_csr_create_dtype(ctx, c->dtype, c->sh.m, c->sh.n, c->nnz, p->rp, p->ci,
                                        p->cv, &d->csr)) != GPUK_OK)
            return st;
    }
    *what = "gpuk_sync";
    return gpuk_sync(ctx);
}

int measure_transfers(bench *b, bbackend *be, bcase *c, bdev *d, bxfer *x, char *err,
                      size_t errlen)
{
    enum { N = 3 };
    double tin[N], tout[N], pin[N], pout[N];
    const char *what = "";
    gpuk_status st;
    pinned p;
    int have_pinned = pinned_make(be->ctx, c, &p) == 0;
    (void)b;
    x->in_ms = x->out_ms = x->in_pinned_ms = x->out_pinned_ms = NAN;
    for (int i = 0; i < N; i++) {
        /* writes return once the caller's buffer may be reused; the sync
         * counts the DMA still queued behind them */
        double t0 = now_ms();
        if ((st = dev_upload(be->ctx, c, d, &what)) != GPUK_OK)
            goto fail;
        tin[i] = now_ms() - t0;
        t0 = now_ms();
        what = "gpuk_tensor_read";
        if ((st = dev_download(be->ctx, c, d, c->got)) != GPUK_OK)
            goto fail;
        tout[i] = now_ms() - t0;
        if (!have_pinned)
            continue;
        t0 = now_ms();
        if ((st = upload_pinned(be->ctx, c, d, &p, &what)) != GPUK_OK)
            goto fail;
        pin[i] = now_ms() - t0;
        t0 = now_ms();
        what = "gpuk_tensor_read (page-locked)";
        if ((st = gpuk_tensor_read(be->ctx, d->out, p.out,
                                   c->out_numel * gpuk_dtype_size(c->out.dtype))) != GPUK_OK)
            goto fail;
        pout[i] = now_ms() - t0;
    }
    x->in_ms = median_of(tin, N);
    x->out_ms = median_of(tout, N);
    if (have_pinned) {
        x->in_pinned_ms = median_of(pin, N);
        x->out_pinned_ms = median_of(pout, N);
        pinned_free(be->ctx, &p);
    }
    return 0;
fail:
    api_error(err, errlen, be->ctx, what, st);
    if (have_pinned)
        pinned_free(be->ctx, &p);
    return -1;
}

/* The latest measured row of the same backend, op, dtype and variant:
 * the base of the time prediction at the next size. */
static const brow *last_measured(const bench *b, const brow *r)
{
    for (size_t i = b->n_rows; i-- > 0;) {
        const brow *p = &b->rows[i];
        if (p == r || p->status != ROW_OK || p->be != r->be || p->op != r->op ||
            p->dtype != r->dtype)
            continue;
        if (strcmp(p->variant, r->variant) == 0)
            return p;
    }
    return NULL;
}

static int fail(brow *r, gpuk_context *ctx, const char *what, gpuk_status st)
{
    r->status = ROW_FAILED;
    api_error(r->msg, sizeof r->msg, ctx, what, st);
    return -1;
}

/* i32: every element written (none left at CASE_I32_POISON) and equal to
 * the first rung's: integers have no rounding, so every rung agrees. */
static int check_i32(bbackend *be, bcase *c, brow *r)
{
    const int32_t *got = c->got, *ref = c->ref;
    for (size_t i = 0; i < c->out_numel; i++)
        if (got[i] == CASE_I32_POISON) {
            r->status = ROW_FAILED;
            snprintf(r->msg, sizeof r->msg, "wrong result: element %zu was never written", i);
            return -1;
        }
    if (!c->ref_from[0]) {
        memcpy(c->ref, got, c->out_numel * sizeof(int32_t));
        snprintf(c->ref_from, sizeof c->ref_from, "%s/%s", be->name, r->variant);
        return 0;
    }
    for (size_t i = 0; i < c->out_numel; i++)
        if (got[i] != ref[i]) {
            r->status = ROW_FAILED;
            snprintf(r->msg, sizeof r->msg, "wrong result: element %zu is %ld, %s gave %ld", i,
                     (long)got[i], c->ref_from, (long)ref[i]);
            return -1;
        }
    return 0;
}

/* A float dtype: every element finite; the same bits as the first rung's
 * output for the exact ops (the catalogue's exact column: one IEEE
 * operation an element, or a min of them, so every rung gives the same
 * bits in every dtype); for sums, within 0.1% of the largest magnitude of
 * the first rung's output in f32 (1% for TF32 rungs), and within the same
 * multiple of the unit roundoff u in another dtype (16777 u: 1.9e-12 in
 * f64).  The inputs are uniform in
 * [-1, 1), so a sum of K products has a spread of about sqrt(K)/3 and
 * rounding, in any summation order, moves it by some 1e-6 of that in f32
 * (some 17 u; in f64 as many roundings of its own u); TF32 by some 1e-4.  That leaves room for every correct rung and still catches a wrong
 * index, a missed tile or an unwritten element.  A dot product has one
 * element, which may cancel to near zero: its scale is the spread itself. */
static int check_output(bench *b, bbackend *be, bcase *c, brow *r)
{
    const gpuk_dtype dt = c->out.dtype;
    if (dt == GPUK_I32)
        return check_i32(be, c, r);
    const size_t size = gpuk_dtype_size(dt);
    for (size_t i = 0; i < c->out_numel; i++)
        if (!isfinite(input_get(dt, c->got, i))) {
            r->status = ROW_FAILED;
            snprintf(r->msg, sizeof r->msg, "wrong result: element %zu is %g (inputs are finite)",
                     i, input_get(dt, c->got, i));
            return -1;
        }
    if (!c->ref_from[0]) {
        memcpy(c->ref, c->got, c->out_numel * size);
        snprintf(c->ref_from, sizeof c->ref_from, "%s/%s", be->name, r->variant);
        return 0;
    }
    const char *got = c->got, *ref = c->ref;
    if (gpuk_op_exact(c->op) == 1) {
        for (size_t i = 0; i < c->out_numel; i++)
            if (memcmp(got + i * size, ref + i * size, size) != 0) {
                r->status = ROW_FAILED;
                snprintf(r->msg, sizeof r->msg,
                         "wrong result: element %zu is %.17g, %s gave %.17g (an exact op: the "
                         "bits must agree)",
                         i, input_get(dt, got, i), c->ref_from, input_get(dt, ref, i));
                return -1;
            }
        return 0;
    }
    double scale = c->op == GPUK_OP_DOT ? sqrt((double)c->sh.n) / 3 : 0, worst = 0;
    size_t at = 0;
    for (size_t i = 0; i < c->out_numel; i++) {
        double g = input_get(dt, got, i), e = input_get(dt, ref, i);
        scale = fmax(scale, fabs(e));
        if (fabs(g - e) > worst) {
            worst = fabs(g - e);
            at = i;
        }
    }
    const double u = ldexp(1.0, -gpuk_dtype_precision(dt)), per_u = 1e-3 / 0x1p-24;
    double tol = (r->flags & GPUK_VARIANT_TF32) ? 1e-2 * scale : per_u * u * scale;
    if (worst > tol) {
        r->status = ROW_FAILED;
        snprintf(r->msg, sizeof r->msg,
                 "wrong result: element %zu is %.17g, %s gave %.17g (|diff| %.3g > tolerance %.3g)",
                 at, input_get(dt, got, at), c->ref_from, input_get(dt, ref, at), worst, tol);
        return -1;
    }
    (void)b;
    return 0;
}

/* After a run: the call's shape class, and for the auto row the rung the
 * library chose and why (the same at every repetition of one case). */
static void note_choice(gpuk_context *ctx, brow *r)
{
    const char *v = gpuk_last_variant(ctx), *by = gpuk_last_variant_source(ctx);
    r->shape_class = gpuk_last_shape_class(ctx);
    if (r->is_auto && v && by) {
        snprintf(r->chosen, sizeof r->chosen, "%s", v);
        snprintf(r->chosen_by, sizeof r->chosen_by, "%s", by);
    }
}

/* One timed repetition: `calls` calls of variant back to back between
 * the context's timer marks; ms a call, or NaN when something failed,
 * which then fails r (when there is one) naming the call. */
double measure_calls(bbackend *be, const bcase *c, const bdev *d, const char *variant, int calls,
                     brow *r)
{
    gpuk_context *ctx = be->ctx;
    gpuk_status st;
    double t = NAN;
    if ((st = gpuk_timer_start(ctx)) != GPUK_OK) {
        if (r)
            fail(r, ctx, "gpuk_timer_start", st);
        return NAN;
    }
    for (int j = 0; j < calls; j++)
        if ((st = dev_run(ctx, c, j % (d->nrot + 1) ? &d->rot[j % (d->nrot + 1) - 1] : d,
                          variant)) != GPUK_OK) {
            if (r)
                fail(r, ctx, gpuk_op_name(c->op), st);
            gpuk_timer_stop(ctx, &t);   /* close the interval; the row has failed */
            return NAN;
        }
    if ((st = gpuk_timer_stop(ctx, &t)) != GPUK_OK) {
        if (r)
            fail(r, ctx, "gpuk_timer_stop", st);
        return NAN;
    }
    return t / calls;
}

void measure_row(bench *b, bbackend *be, bcase *c, bdev *d, brow *r)
{
    gpuk_context *ctx = be->ctx;
    const bconf *cf = &b->conf;
    const double budget = cf->max_seconds * 1e3;
    gpuk_status st;

    /* A slow rung at a large size would eat the whole run: predict its
     * time from the previous size, scaled by the work, and skip it when
     * one run would take more than half the row's budget.  At small
     * sizes fixed costs dominate and the prediction errs high, so the
     * quick sizes, chosen for every rung to run, are never skipped. */
    const brow *p = last_measured(b, r);
    if (p && budget > 0 && p->work > 0 && !cf->quick) {
        double t = p->ms_min * r->work / p->work; /* min: the least disturbed run */
        if (2 * t > budget) {
            r->status = ROW_SKIPPED;
            snprintf(r->msg, sizeof r->msg,
                     "skipped: about %.3g s a run (from %s), over half of --max-seconds %g",
                     t / 1e3, p->shape, cf->max_seconds);
            return;
        }
    }
    if (cf->check && (st = dev_poison(ctx, c, d)) != GPUK_OK) {
        fail(r, ctx, "gpuk_tensor_write (poison the output)", st);
        return;
    }
    /* Warm-up.  A run of seconds needs no second warm-up: stop after a
     * fifth of the budget.  The fastest run sizes the repetitions. */
    double fastest = 0, spent = 0;
    for (int i = 0; i < cf->warmup; i++) {
        double t0 = now_ms();
        if ((st = dev_run(ctx, c, d, r->variant)) != GPUK_OK ||
            (st = gpuk_sync(ctx)) != GPUK_OK) {
            fail(r, ctx, gpuk_op_name(c->op), st);
            return;
        }
        note_choice(ctx, r);
        double dt = now_ms() - t0;
        fastest = i == 0 || dt < fastest ? dt : fastest;
        spent += dt;
        if (budget > 0 && spent > 0.2 * budget)
            break;
    }
    /* A short call runs several times back to back in each repetition,
     * enough to fill BENCH_REP_MS: a GPU then starts each kernel as the
     * previous one ends, so the row is the kernel's time in a stream of
     * calls, not the launch latency of an idle device (some 5 us, more
     * than a 1M-element op takes); on a CPU it averages out the wake-up
     * of the thread team.  The fastest warm-up run (the first loads the
     * code; its sync is included) over-estimates a call, so calls errs
     * low. */
    int calls = 1;
    if (fastest > 0 && fastest < BENCH_REP_MS)
        calls = (int)(BENCH_REP_MS / fastest);
    if (fastest > 0 && fastest < BENCH_REP_MS && calls < d->nrot + 1)
        calls = d->nrot + 1;   /* short calls take every copy once a repetition (bdev.rot) */
    if (calls > BENCH_MAX_CALLS)
        calls = BENCH_MAX_CALLS;
    if (calls < 1)
        calls = 1;
    int reps = cf->reps;
    if (budget > 0 && fastest > 0 && (budget - spent) / (fastest * calls) < reps) {
        reps = (int)((budget - spent) / (fastest * calls));
        if (reps < 1)
            reps = 1;
    }
    double *t = malloc((size_t)reps * sizeof *t);
    if (!t) {
        r->status = ROW_FAILED;
        snprintf(r->msg, sizeof r->msg, "out of host memory");
        return;
    }
    r->ms_min = INFINITY;
    r->ms_max = 0;
    for (int i = 0; i < reps; i++) {
        t[i] = measure_calls(be, c, d, r->variant, calls, r);
        if (r->status == ROW_FAILED)
            goto out;
        if (i == 0)
            note_choice(ctx, r);
        r->ms_min = fmin(r->ms_min, t[i]);
        r->ms_max = fmax(r->ms_max, t[i]);
    }
    r->reps = reps;
    r->calls = calls;
    r->ms_med = median_of(t, reps);
    r->status = ROW_OK;
    if (cf->check) {
        if ((st = dev_download(ctx, c, d, c->got)) != GPUK_OK)
            fail(r, ctx, "gpuk_tensor_read (the result)", st);
        else
            check_output(b, be, c, r);
    }
out:
    if (r->status == ROW_FAILED)
        r->ms_med = r->ms_min = r->ms_max = NAN;
    free(t);
}


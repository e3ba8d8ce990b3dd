/*
 * measure.c - timing one row, and the transfers of one case.
 *
 * A rung is timed on the backend's own clock (gpuk_timer_start/stop: CUDA
 * events on a GPU, a monotonic clock on the CPU) around each repetition,
 * after warm-up runs that absorb first-touch page faults, module loading
 * and library handle creation.  The median is the figure; min and max show
 * the spread.  Transfers are timed on the host clock around write + sync
 * and around read, since that is what a caller of the API waits for.
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

int measure_transfers(bench *b, bbackend *be, bcase *c, bdev *d, double *in_ms, double *out_ms,
                      char *err, size_t errlen)
{
    enum { N = 3 };
    double tin[N], tout[N];
    const char *what = "";
    gpuk_status st;
    (void)b;
    for (int i = 0; i < N; i++) {
        double t0 = now_ms();
        st = dev_upload(be->ctx, c, d, &what);
        if (st != GPUK_OK)
            goto fail;
        tin[i] = now_ms() - t0;
        what = "gpuk_sync";
        st = gpuk_sync(be->ctx);
        if (st != GPUK_OK)
            goto fail;
        t0 = now_ms();
        what = "gpuk_tensor_read";
        st = dev_download(be->ctx, c, d, c->got);
        if (st != GPUK_OK)
            goto fail;
        tout[i] = now_ms() - t0;
    }
    *in_ms = median_of(tin, N);
    *out_ms = median_of(tout, N);
    return 0;
fail:
    api_error(err, errlen, be->ctx, what, st);
    return -1;
}

/* The latest measured row of the same backend, op and variant: the base
 * of the time prediction at the next size. */
static const brow *last_measured(const bench *b, const brow *r)
{
    for (size_t i = b->n_rows; i-- > 0;) {
        const brow *p = &b->rows[i];
        if (p == r || p->status != ROW_OK || p->be != r->be || p->op != r->op)
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

/* Every element finite; equal to the first rung's output for the ops
 * that are one IEEE operation per element (min-plus, copies, add,
 * scale, relu); for sums, within 0.1% (TF32 rungs: 1%) of the largest
 * magnitude of the first rung's output.  The inputs are uniform in
 * [-1, 1), so a sum of K products has a spread of about sqrt(K)/3 and
 * FP32 rounding, in any summation order, moves it by some 1e-6 of that;
 * TF32 by some 1e-4.  That leaves room for every correct rung and still
 * catches a wrong index, a missed tile or an unwritten element.  A dot
 * product has one element, which may cancel to near zero: its scale is
 * the spread itself. */
static int check_output(bench *b, bbackend *be, bcase *c, brow *r)
{
    const float *got = c->got;
    for (size_t i = 0; i < c->out_numel; i++)
        if (!isfinite(got[i])) {
            r->status = ROW_FAILED;
            snprintf(r->msg, sizeof r->msg, "wrong result: element %zu is %g (inputs are finite)",
                     i, (double)got[i]);
            return -1;
        }
    if (!c->ref_from[0]) {
        memcpy(c->ref, got, c->out_numel * sizeof(float));
        snprintf(c->ref_from, sizeof c->ref_from, "%s/%s", be->name, r->variant);
        return 0;
    }
    double scale = c->op == GPUK_OP_DOT ? sqrt((double)c->sh.n) / 3 : 0, worst = 0;
    size_t at = 0;
    for (size_t i = 0; i < c->out_numel; i++) {
        double e = fabs((double)got[i] - (double)c->ref[i]);
        scale = fmax(scale, fabs((double)c->ref[i]));
        if (e > worst) {
            worst = e;
            at = i;
        }
    }
    double tol = gpuk_op_exact(c->op) == 1        ? 0
                 : (r->flags & GPUK_VARIANT_TF32) ? 1e-2 * scale
                                                  : 1e-3 * scale;
    if (worst > tol) {
        r->status = ROW_FAILED;
        snprintf(r->msg, sizeof r->msg,
                 "wrong result: element %zu is %.7g, %s gave %.7g (|diff| %.3g > tolerance %.3g)",
                 at, (double)got[at], c->ref_from, (double)c->ref[at], worst, tol);
        return -1;
    }
    (void)b;
    return 0;
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
     * fifth of the budget.  The first run sizes the repetitions. */
    double first = 0, spent = 0;
    for (int i = 0; i < cf->warmup; i++) {
        double t0 = now_ms();
        if ((st = dev_run(ctx, c, d, r->variant)) != GPUK_OK ||
            (st = gpuk_sync(ctx)) != GPUK_OK) {
            fail(r, ctx, gpuk_op_name(c->op), st);
            return;
        }
        double dt = now_ms() - t0;
        first = i == 0 ? dt : first;
        spent += dt;
        if (budget > 0 && spent > 0.2 * budget)
            break;
    }
    int reps = cf->reps;
    if (budget > 0 && first > 0 && (budget - spent) / first < reps) {
        reps = (int)((budget - spent) / first);
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
        if ((st = gpuk_timer_start(ctx)) != GPUK_OK) {
            fail(r, ctx, "gpuk_timer_start", st);
            goto out;
        }
        if ((st = dev_run(ctx, c, d, r->variant)) != GPUK_OK) {
            fail(r, ctx, gpuk_op_name(c->op), st);
            goto out;
        }
        if ((st = gpuk_timer_stop(ctx, &t[i])) != GPUK_OK) {
            fail(r, ctx, "gpuk_timer_stop", st);
            goto out;
        }
        r->ms_min = fmin(r->ms_min, t[i]);
        r->ms_max = fmax(r->ms_max, t[i]);
    }
    r->reps = reps;
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

/*
 * shadow.c - GPUK_CHECK=1: every op is replayed on the CPU backend's
 * first (naive) rung and the two answers compared.
 *
 * Before the kernel runs, its inputs are copied to the host (an op may
 * overwrite its own input in place, GEMM/GEMV read their output when
 * beta != 0, and so does min-plus when it accumulates, in
 * gpuk_minplus_update).  Afterwards the output is read back, the naive CPU
 * rung runs on the host copies (the CPU backend works on plain host
 * pointers), starting from the output's initial contents, and each element
 * must agree:
 *   - bit for bit for the ops the catalogue of gpuk.h marks exact (at most
 *     one rounding per element: min-plus, transpose, copy, gather, relu,
 *     add, scale, bias+relu, cast), and for every integer output whatever the
 *     op (an integer op has no rounding: i32 min-plus);
 *   - for sums, within 2 * (2 gamma_K + 2u) * M, where M is the same op
 *     run on absolute values (so M = sum |a||b| for a product), K is the
 *     catalogue's sum length and gamma_K = K u / (1 - K u): the bound of
 *     doc/design.md ("Tolerances") for each of the two results, added;
 *   - for softmax, within (4 gamma_n + 16u) |y| (exp and the normalizing
 *     sum each carry a few roundings).
 * NaN must meet NaN, and infinities must match in place and sign.  u is
 * the unit roundoff the rung computes in: 2^-prec of the op's dtype
 * (GPUK_DTYPE_MAP), f32's for f16 and bf16 (which compute in f32), 2^-11
 * for a TF32 rung; an output of a narrower dtype adds its own rounding.
 * Values of every float dtype are compared as doubles, which hold each
 * exactly.
 */
#include "gpuk_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gk_shadow {
    gpuk_args host;          /* the op on dense host copies */
    void *buf[5];            /* in[0..2], out (initial), csr arrays block */
    gpuk_csr_desc csr;
};

static void dense_like(const gpuk_tdesc *d, void *data, gpuk_tdesc *h)
{
    *h = *d;
    h->data = data;
    int64_t s = 1;
    for (int i = d->ndim - 1; i >= 0; i--) {
        h->stride[i] = s;
        s *= d->shape[i];
    }
}

static void shadow_free(gk_shadow *sh)
{
    if (!sh)
        return;
    for (int i = 0; i < 5; i++)
        free(sh->buf[i]);
    free(sh);
}

/* A dense host copy of a backend operand; the broadcast batches of
 * batched matmul (stride 0) are copied once per batch, which is what the
 * naive rung expects of a dense operand. */
static gpuk_status snapshot(gpuk_context *ctx, const gpuk_tdesc *d, void **buf, gpuk_tdesc *h)
{
    size_t bytes = (size_t)gpuk_tdesc_numel(d) * gk_elsize(d->dtype);
    *buf = malloc(bytes ? bytes : 1);
    if (!*buf)
        return gk_fail(ctx, GPUK_ERR_NO_MEMORY, "GPUK_CHECK: no host memory for a %zu-byte copy",
                       bytes);
    gpuk_status st = gk_transfer(ctx, d, *buf, 0);
    if (st != GPUK_OK)
        return gk_backend_fail(ctx, st, "GPUK_CHECK: copying an operand to the host");
    dense_like(d, *buf, h);
    return GPUK_OK;
}

gk_shadow *gk_shadow_begin(gpuk_context *ctx, const gpuk_args *args, gpuk_status *st)
{
    gk_shadow *sh = calloc(1, sizeof *sh);
    if (!sh) {
        *st = gk_fail(ctx, GPUK_ERR_NO_MEMORY, "GPUK_CHECK: out of host memory");
        return NULL;
    }
    sh->host = *args;
    /* the replay hands the shadow's plugin the same arguments: it must
     * know every member set (an update reads r: ABI 2.2) */
    if (args->accumulate && ctx->shadow->be->abi_minor < 2) {
        *st = gk_fail(ctx, GPUK_ERR_UNSUPPORTED, "GPUK_CHECK: the cpu shadow (plugin ABI %u.%u) "
                      "cannot replay gpuk_minplus_update, which needs ABI %u.2",
                      ctx->shadow->be->abi_major, ctx->shadow->be->abi_minor, GPUK_ABI_MAJOR);
        goto fail;
    }
    for (int i = 0; i < args->n_in; i++)
        if ((*st = snapshot(ctx, &args->in[i], &sh->buf[i], &sh->host.in[i])) != GPUK_OK)
            goto fail;
    if ((*st = snapshot(ctx, &args->out, &sh->buf[3], &sh->host.out)) != GPUK_OK)
        goto fail;
    if (args->csr) {
        const gpuk_csr_desc *c = args->csr;
        size_t rp = (size_t)(c->rows + 1) * 4, nz = (size_t)c->nnz * 4;
        size_t nv = (size_t)c->nnz * gk_elsize(args->dtype);
        /* values first: an f64 array after odd-count int32 arrays would be
         * misaligned; malloc's alignment covers every dtype at offset 0 */
        char *blk = malloc(nv + rp + nz);
        sh->buf[4] = blk;
        if (!blk) {
            *st = gk_fail(ctx, GPUK_ERR_NO_MEMORY, "GPUK_CHECK: out of host memory");
            goto fail;
        }
        gpuk_status s1 = ctx->be->read(ctx->b, blk + nv, c->row_ptr, rp);
        gpuk_status s2 = nz ? ctx->be->read(ctx->b, blk + nv + rp, c->col_idx, nz) : GPUK_OK;
        gpuk_status s3 = nv ? ctx->be->read(ctx->b, blk, c->values, nv) : GPUK_OK;
        if (s1 != GPUK_OK || s2 != GPUK_OK || s3 != GPUK_OK) {
            *st = gk_backend_fail(ctx, s1 != GPUK_OK ? s1 : s2 != GPUK_OK ? s2 : s3,
                                  "GPUK_CHECK: copying the CSR matrix to the host");
            goto fail;
        }
        sh->csr = *c;
        sh->csr.row_ptr = (const int32_t *)(blk + nv);
        sh->csr.col_idx = (const int32_t *)(blk + nv + rp);
        sh->csr.values = blk;
        sh->csr.prepared = NULL;
        sh->host.csr = &sh->csr;
    }
    *st = GPUK_OK;
    return sh;
fail:
    shadow_free(sh);
    return NULL;
}

/* Run the naive rung on host copies: out receives the result, starting
 * from the initial output (beta, a min-plus update); with abs, on |inputs|
 * (and |alpha|, |beta|, |initial out|), which only the f32 sums ask for. */
static gpuk_status replay(gpuk_context *ctx, const gpuk_kernel *ref, const gk_shadow *sh,
                          void *out, int abs_inputs)
{
    gpuk_context *s = ctx->shadow;
    gpuk_args a = sh->host;
    a.has_out2 = 0;   /* a second output (APSP's pred) is the kernel's alone: not compared */
    void *tmp[4] = { 0 };
    size_t n_out = (size_t)gpuk_tdesc_numel(&a.out);
    /* the initial output (beta, update) */
    memcpy(out, sh->buf[3], n_out * gk_elsize(a.out.dtype));
    a.out.data = out;
    gpuk_csr_desc csr;
    if (abs_inputs) {
        for (int i = 0; i < a.n_in; i++) {
            if (!gk_dtype_is_float(a.in[i].dtype))
                continue;
            size_t n = (size_t)gpuk_tdesc_numel(&a.in[i]), es = gk_elsize(a.in[i].dtype);
            void *f = malloc(n ? n * es : 1);
            if (!f)
                goto oom;
            memcpy(f, sh->buf[i], n * es);
            gk_abs_inplace(f, a.in[i].dtype, n);
            tmp[i] = f;
            a.in[i].data = f;
        }
        if (gk_dtype_is_float(a.out.dtype))
            gk_abs_inplace(out, a.out.dtype, n_out);
        a.alpha = fabsf(a.alpha);
        a.beta = fabsf(a.beta);
        a.alpha_f64 = fabs(a.alpha_f64);
        a.beta_f64 = fabs(a.beta_f64);
        if (a.csr) {
            csr = *a.csr;
            size_t es = gk_elsize(a.dtype);
            void *v = malloc(csr.nnz ? (size_t)csr.nnz * es : 1);
            if (!v)
                goto oom;
            memcpy(v, sh->csr.values, (size_t)csr.nnz * es);
            gk_abs_inplace(v, a.dtype, (size_t)csr.nnz);
            tmp[3] = v;
            csr.values = v;
            a.csr = &csr;
        }
    }
    gpuk_status st = ref->fn(s->b, &a);
    for (int i = 0; i < 4; i++)
        free(tmp[i]);
    if (st != GPUK_OK)
        return gk_fail(ctx, st, "GPUK_CHECK: the cpu shadow's %s/%s failed: %s",
                       gpuk_op_name(a.op), ref->variant, s->be->last_error(s->b));
    return GPUK_OK;
oom:
    for (int i = 0; i < 4; i++)
        free(tmp[i]);
    return gk_fail(ctx, GPUK_ERR_NO_MEMORY, "GPUK_CHECK: out of host memory");
}

/* gamma_K = K u / (1 - K u); infinite (no bound) once K u reaches 1. */
static double gamma_of(double K, double u)
{
    return K * u < 1 ? K * u / (1 - K * u) : INFINITY;
}

/* The coefficient of a K-term sum.  gamma_K serves while K u is well
 * below 1; a TF32 rung (u = 2^-11) reaches K u = 1/2 at K = 1024, and past
 * that the model behind the bound takes over: each input rounded once to
 * u (a product of two is off by 2u + u^2), the products exact and summed
 * in FP32, which adds gamma_K at 2^-24 (tests/ref.c does the same). */
static double sum_coef(double K, double u)
{
    const double u32 = ldexp(1.0, -24);
    if (K * u < 0.5 || u <= u32)
        return gamma_of(K, u);
    return 2 * u + u * u + gamma_of(K, u32) * (1 + u) * (1 + u);
}

/* APSP's M.  A distance sums the edges of one path, so |w| summed along
 * that path is its M; with weights >= 0 the shortest paths of |w| are the
 * same paths, and the replay on |w| gave exactly that.  A negative weight
 * breaks this, and the shadow, which does not know the paths, takes n
 * times the largest finite |w| instead: no path of fewer than n edges
 * sums more.  (The op suite's bound is tight for every case; this one
 * only has to be safe.) */
static void apsp_magnitude(const gk_shadow *sh, void *mag, size_t n_out)
{
    const gpuk_tdesc *w = &sh->host.in[0];
    size_t n = (size_t)w->shape[0];
    double big = 0;
    int neg = 0;
    for (size_t i = 0; i < n * n; i++) {
        double v = gk_load_f(sh->buf[0], w->dtype, i);
        if (isfinite(v)) {
            neg |= v < 0;
            big = fmax(big, fabs(v));
        }
    }
    if (!neg || !gk_dtype_is_float(w->dtype))
        return;
    for (size_t i = 0; i < n_out; i++)
        gk_store_f(mag, w->dtype, i, (double)n * big);
}

/* Element i of a float output as a double; same_bits compares two
 * elements' bits (any NaN matching any NaN). */
static int same_bits(const void *x, const void *y, size_t i, gpuk_dtype dt)
{
    double a = gk_load_f(x, dt, i), b = gk_load_f(y, dt, i);
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    size_t es = gk_elsize(dt);
    return memcmp((const char *)x + i * es, (const char *)y + i * es, es) == 0;
}

/* An integer output: every element equal, nothing else to weigh. */
static gpuk_status compare_i32(gpuk_context *ctx, const gpuk_args *args, const gpuk_kernel *k,
                               const gpuk_kernel *ref, const int32_t *got, const int32_t *want,
                               size_t n)
{
    size_t bad = 0, worst = n;
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i] && bad++ == 0)
            worst = i;
    if (!bad)
        return GPUK_OK;
    char at[64];
    int64_t cols = args->out.ndim >= 2 ? args->out.shape[args->out.ndim - 1] : 0;
    if (cols)
        snprintf(at, sizeof at, "[%lld,%lld]", (long long)(worst / cols),
                 (long long)(worst % cols));
    else
        snprintf(at, sizeof at, "[%zu]", worst);
    return gk_fail(ctx, GPUK_ERR_CHECK, "GPUK_CHECK: %s/%s (%s) on %s disagrees with the cpu %s "
                   "rung: out%s = %ld, expected %ld (integers must match exactly); %zu of %zu "
                   "elements differ%s", gpuk_op_name(args->op), k->variant,
                   gpuk_dtype_name(args->out.dtype), ctx->be->name, ref->variant, at,
                   (long)got[worst], (long)want[worst], bad, n,
                   args->accumulate ? " (an update: out was folded in)" : "");
}

gpuk_status gk_shadow_end(gpuk_context *ctx, gk_shadow *sh, const gpuk_args *args,
                          const gpuk_kernel *k)
{
    gpuk_status st = GPUK_OK;
    void *got = NULL, *want = NULL, *mag = NULL;
    if (!args)   /* the kernel failed: only clean up */
        goto done;
    /* the shadow's first rung of (op, dtype) is its naive one */
    const gpuk_kernel *ref = gk_nth_kernel(ctx->shadow, args->op, args->dtype, 0);
    if (!ref) {
        st = gk_fail(ctx, GPUK_ERR_UNSUPPORTED, "GPUK_CHECK: the cpu shadow has no %s rung of %s",
                     gpuk_dtype_name(args->dtype), gpuk_op_name(args->op));
        goto done;
    }
    gpuk_dtype odt = args->out.dtype;
    size_t n = (size_t)gpuk_tdesc_numel(&args->out), es = gk_elsize(odt);
    got = malloc(n * es);
    want = malloc(n * es);
    mag = malloc(n * es);
    if (!got || !want || !mag) {
        st = gk_fail(ctx, GPUK_ERR_NO_MEMORY, "GPUK_CHECK: out of host memory");
        goto done;
    }
    if ((st = gk_transfer(ctx, &args->out, got, 0)) != GPUK_OK) {
        st = gk_backend_fail(ctx, st, "GPUK_CHECK: reading the result");
        goto done;
    }
    if ((st = replay(ctx, ref, sh, want, 0)) != GPUK_OK)
        goto done;
    if (odt == GPUK_I32) {
        st = compare_i32(ctx, args, k, ref, (const int32_t *)got, (const int32_t *)want, n);
        goto done;
    }
    int exact = gpuk_op_exact(args->op) == 1;
    /* the rung's unit roundoff (f16 and bf16 compute in f32), and one more
     * rounding where the output is narrower */
    double u = (k->flags & GPUK_KF_TF32) ? ldexp(1.0, -11) : gk_compute_roundoff(args->dtype);
    double u_out = ldexp(1.0, -gpuk_dtype_precision(odt));
    if (u_out < u)
        u_out = u;
    double K = (double)gk_sum_length(args), gamma = sum_coef(K, u), factor = 0;
    if (!exact) {
        if (args->op == GPUK_OP_SOFTMAX) {
            memcpy(mag, want, n * es);
            factor = 4 * gamma + 16 * u_out;
        } else {
            if ((st = replay(ctx, ref, sh, mag, 1)) != GPUK_OK)
                goto done;
            factor = 2 * (2 * gamma + 2 * u_out);
            if (args->op == GPUK_OP_APSP)
                apsp_magnitude(sh, mag, n);
        }
    }
    /* the underflow floor: a few of the output type's smallest subnormals */
    double tiny = ldexp(1.0, gk_dtype_min_exp(odt)) * 8;
    size_t worst = n;
    double worst_ratio = 0, worst_diff = 0, worst_bound = 0;
    for (size_t i = 0; i < n; i++) {
        double g = gk_load_f(got, odt, i), w = gk_load_f(want, odt, i);
        double ratio, diff = 0, bound = 0;
        if (exact || isnan(g) || isnan(w) || isinf(g) || isinf(w)) {
            ratio = same_bits(got, want, i, odt) || (!exact && g == w) ? 0 : INFINITY;
        } else {
            diff = fabs(g - w);
            bound = factor * fabs(gk_load_f(mag, odt, i)) + tiny;
            ratio = diff / bound;
        }
        if (ratio > 1 && ratio > worst_ratio) {
            worst = i;
            worst_ratio = ratio;
            worst_diff = diff;
            worst_bound = bound;
        }
    }
    if (worst < n) {
        char shape[64];
        int64_t cols = args->out.ndim >= 2 ? args->out.shape[args->out.ndim - 1] : 0;
        if (cols)
            snprintf(shape, sizeof shape, "[%lld,%lld]", (long long)(worst / cols),
                     (long long)(worst % cols));
        else
            snprintf(shape, sizeof shape, "[%zu]", worst);
        double g = gk_load_f(got, odt, worst), w = gk_load_f(want, odt, worst);
        int digits = gpuk_dtype_precision(odt) > 24 ? 17 : 9;
        if (exact || isinf(worst_ratio))
            st = gk_fail(ctx, GPUK_ERR_CHECK, "GPUK_CHECK: %s/%s (%s) on %s disagrees with the "
                         "cpu %s rung: out%s = %.*g, expected %.*g (must match exactly); out "
                         "has %zu elements%s", gpuk_op_name(args->op), k->variant,
                         gpuk_dtype_name(args->dtype), ctx->be->name, ref->variant, shape,
                         digits, g, digits, w, n,
                         args->accumulate ? " (an update: out was folded in)" : "");
        else
            st = gk_fail(ctx, GPUK_ERR_CHECK, "GPUK_CHECK: %s/%s (%s) on %s disagrees with the "
                         "cpu %s rung: out%s = %.*g, expected %.*g, error %.3g > bound %.3g; out "
                         "has %zu elements", gpuk_op_name(args->op), k->variant,
                         gpuk_dtype_name(args->dtype), ctx->be->name, ref->variant, shape,
                         digits, g, digits, w, worst_diff, worst_bound, n);
    }
done:
    free(got);
    free(want);
    free(mag);
    shadow_free(sh);
    return st;
}

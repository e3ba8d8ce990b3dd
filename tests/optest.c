/*
 * optest.c - the registry of op descriptors (see optest.h), and what the
 * family files' parts for t_empty and t_badshape share.
 */
#include "optest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "t_rel.h"
#include "tap.h"

/* ---- the registry ---- */

/* Indexed by the op's value, one entry per row of GPUK_OP_MAP: a row
 * whose family file defines no optest_<ID> leaves an undefined symbol,
 * and the test library does not link. */
static const optest *const registry[GPUK_OP_LAST + 1] = {
#define OPTEST_ROW_(id, value, name, exact, sum) [value] = &optest_##id,
    GPUK_OP_MAP(OPTEST_ROW_)
#undef OPTEST_ROW_
};

const optest *optest_of(gpuk_op op)
{
    if ((int)op < GPUK_OP_FIRST || (int)op > GPUK_OP_LAST)
        return NULL;
    return registry[op];
}

/* ---- t_empty ---- */

/* Setup that fails leaves nothing after it meaningful: a failed check
 * that says why, then out. */
static void oe_bail(gpuk_context *ctx)
{
    tap_ok(0, "setup: %s", gpuk_context_error(ctx));
    exit(tap_done());
}

gpuk_tensor *oe_tensor(gpuk_context *ctx, gpuk_dtype dt, int nd, const int64_t *shape,
                       const ref_real *vals)
{
    gpuk_tensor *t = NULL;
    gpuk_tensor_info info;
    if (gpuk_tensor_create(ctx, dt, nd, shape, &t) != GPUK_OK ||
        gpuk_tensor_get_info(ctx, t, &info) != GPUK_OK)
        oe_bail(ctx);
    void *fill = malloc(info.bytes ? info.bytes : 8);
    if (!fill)
        oe_bail(ctx);
    for (int64_t i = 0; i < info.numel; i++)
        ref_put(dt, fill, i, vals ? vals[i] : OE_SENT);
    gpuk_tensor_write(ctx, t, fill, info.bytes);
    free(fill);
    return t;
}

gpuk_tensor *oe_ids(gpuk_context *ctx, int64_t n, const int32_t *vals)
{
    gpuk_tensor *t = NULL;
    if (gpuk_tensor_create(ctx, GPUK_I32, 1, &n, &t) != GPUK_OK)
        oe_bail(ctx);
    if (vals)
        gpuk_tensor_write(ctx, t, vals, (size_t)n * sizeof *vals);
    return t;
}

opcall_args oe_call(gpuk_op op, gpuk_tensor *a, gpuk_tensor *b, gpuk_tensor *c, gpuk_tensor *out)
{
    opcall_args k;
    opcall_init(&k, op);
    k.in[0] = a;
    k.in[1] = b;
    k.in[2] = c;
    k.out = out;
    return k;
}

void oe_const(oe_expect *e, int64_t n, ref_real v)
{
    memset(e, 0, sizeof *e);
    e->n = n;
    for (int64_t i = 0; i < n; i++)
        e->v[i] = v;
}

void oe_from_ref(oe_expect *e, int64_t n, const ref_real *ref, const double *bound)
{
    memset(e, 0, sizeof *e);
    e->n = n;
    for (int64_t i = 0; i < n; i++) {
        e->v[i] = ref[i];
        e->bound[i] = bound[i];
    }
}

ref_real oe_nan_payload(void)
{
    uint32_t w = 0x7FC12345u;
    float f;
    memcpy(&f, &w, 4);
    return f;
}

ref_real oe_tiny(gpuk_dtype dt)
{
    return (ref_real)ref_tol_of(dt, 0).tiny;
}

ref_tol oe_tol(gpuk_dtype dt)
{
    return ref_tol_of(dt, dt == GPUK_F32 ? GPUK_VARIANT_TF32 : 0);
}

/* Compare got (e->n elements of dt) with e; 1 on a match, else 0 with the
 * first miss in why.  An exact 0 wants the sign too, unless its bound is
 * negative. */
static int matches(gpuk_dtype dt, const void *got, const oe_expect *e, char *why, size_t len)
{
    for (int64_t i = 0; i < e->n; i++) {
        ref_real want = e->v[i], g = ref_get(dt, got, i);
        int ok;
        if (e->payload) {
            unsigned char bits[16];
            size_t es = gpuk_dtype_size(dt);
            ref_put(dt, bits, 0, e->src[i]);
            ok = memcmp((const char *)got + (size_t)i * es, bits, es) == 0;
        } else if (isnan(want)) {
            ok = isnan(g);
        } else if (e->bound[i] > 0 && ref_isfinite(want)) {
            ok = fabsl(g - want) <= (ref_real)e->bound[i];
        } else {
            ok = g == want && (want != 0 || !signbit(g) == !signbit(want) || e->bound[i] < 0);
        }
        if (!ok) {
            snprintf(why, len, "element %lld is %.17Lg, want %.17Lg", (long long)i, g, want);
            return 0;
        }
    }
    return 1;
}

void oe_run(gpuk_context *ctx, const opcall_args *k, gpuk_dtype dt, const char *label,
            const ref_real *out_init, const oe_expect *e)
{
    size_t nv = 0;
    gpuk_op op = k->op;
    char what[16] = "";
    if (dt != GPUK_F32)
        snprintf(what, sizeof what, " %s", gpuk_dtype_name(dt));
    gpuk_variant_count_dtype(ctx, op, dt, &nv);
    if (nv == 0) {
        tap_skip("%s%s: %s: the backend has no %s variant of this op", gpuk_op_name(op), what,
                 label, gpuk_dtype_name(dt));
        return;
    }
    gpuk_tensor_info info;
    gpuk_tensor_get_info(ctx, k->out, &info);
    void *init = malloc(info.bytes + 8), *got = malloc(info.bytes + 8);
    if (!init || !got)
        oe_bail(ctx);
    for (int64_t i = 0; i < info.numel; i++)
        ref_put(dt, init, i, out_init ? out_init[i] : OE_SENT);
    for (size_t v = 0; v < nv; v++) {
        gpuk_variant_info vi;
        gpuk_variant_get_dtype(ctx, op, dt, v, &vi);
        gpuk_tensor_write(ctx, k->out, init, info.bytes);
        gpuk_status st = opcall(ctx, k, vi.name);
        char why[200] = "";
        int ok = st == GPUK_OK;
        if (!ok)
            snprintf(why, sizeof why, "status %s: %s", gpuk_strerror(st), gpuk_context_error(ctx));
        else if (gpuk_tensor_read(ctx, k->out, got, info.bytes) != GPUK_OK)
            ok = 0, snprintf(why, sizeof why, "read back failed");
        else if (e)
            ok = matches(dt, got, e, why, sizeof why);
        tap_ok(ok, "%s/%s%s: %s", gpuk_op_name(op), vi.name, what, label);
        if (!ok)
            tap_diag("  %s", why);
    }
    free(init);
    free(got);
}

/* ---- t_badshape ---- */

void ob_unary_rules(gpuk_context *ctx, gpuk_op op)
{
    const char *name = gpuk_op_name(op);
    char what[96];
    opcall_args k;
    gpuk_tensor *u = TF(ctx, 2, 3), *T = rel_tensor(ctx, GPUK_F32, 1, REL_SHAPE(64), 0.0f, 1.0f);
    opcall_init(&k, op);
    k.alpha = 0.5f;
#define UNARY_(x_, out_) (k.in[0] = (x_), k.out = (out_), opcall(ctx, &k, NULL))
    snprintf(what, sizeof what, "%s: out of another shape", name);
    rel_expect(ctx, UNARY_(u, TF(ctx, 3, 2)), GPUK_ERR_SHAPE, "out", what);
    snprintf(what, sizeof what, "%s: strided x", name);
    rel_expect(ctx, UNARY_(rel_view(ctx, T, 2, REL_SHAPE(2, 3), REL_SHAPE(5, 1), 0), TF(ctx, 2, 3)),
               GPUK_ERR_LAYOUT, "x", what);
    snprintf(what, sizeof what, "%s: strided out", name);
    rel_expect(ctx, UNARY_(u, rel_view(ctx, T, 2, REL_SHAPE(2, 3), REL_SHAPE(3, 2), 0)),
               GPUK_ERR_LAYOUT, "out", what);
    snprintf(what, sizeof what, "%s: in place (out is x)", name);
    rel_expect(ctx, UNARY_(u, u), GPUK_OK, NULL, what);
    snprintf(what, sizeof what, "%s: out overlaps x by all but one element", name);
    rel_expect(ctx, UNARY_(rel_view(ctx, T, 1, REL_SHAPE(6), REL_SHAPE(1), 0),
                           rel_view(ctx, T, 1, REL_SHAPE(6), REL_SHAPE(1), 1)),
               GPUK_ERR_ALIAS, "out", what);
#undef UNARY_
}

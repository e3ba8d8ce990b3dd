/*
 * t_check - the op suite under GPUK_CHECK: every (op, dtype, rung) the
 * backend lists runs the smaller cases of the op suite (its descriptors,
 * tests/ops/) on a context with the shadow on (doc/design.md, "GPUK_CHECK
 * shadow mode"), which replays each call on the cpu's naive rung of its
 * dtype and compares with that dtype's unit roundoff.  A right answer must
 * pass the shadow (GPUK_OK), and must still match the reference here: so
 * the shadow's bounds are checked not to refuse correct results, in f64
 * as in f32, and every rung's results stay right with the shadow's copies
 * around them.  One TAP check per (op, dtype, rung); a dtype the backend
 * has no rows of the op in is a skip.
 *
 * The backend is GPUK_TEST_BACKEND (default cpu; tests/t_check_cuda.sh
 * runs it on cuda, where the shadow's reference is the cpu plugin).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpuk.h>

#include "opcases.h"
#include "opsuite.h"
#include "optest.h"
#include "ref.h"
#include "tap.h"

/* Cases of at most this many element operations (outputs, or outputs
 * times k for the products): the shadow runs the naive rung twice more. */
#define CHECK_WORK (1 << 16)
#define CHECK_CASES 6

static int64_t work(const oc_case *c)
{
    int64_t w = c->out.numel;
    return optest_of(c->op)->products ? w * (c->k > 0 ? c->k : 1) : w;
}

/* One (op, dtype, rung): its first CHECK_CASES small cases. */
static void rung(gpuk_context *cc, gpuk_op op, gpuk_dtype dt, const gpuk_variant_info *vi,
                 uint64_t seed)
{
    int ran = 0, ok = 1;
    char why[512] = "", first[256] = "";
    oc_case c;
    for (int idx = 0; ran < CHECK_CASES && oc_build(op, dt, idx, seed, &c); idx++) {
        if (work(&c) > CHECK_WORK) {
            oc_free(&c);
            continue;
        }
        void *got = oc_alloc((size_t)(c.out.numel ? c.out.numel : 1) *
                             gpuk_dtype_size(c.out.dtype));
        int tf = (vi->flags & GPUK_VARIANT_TF32) != 0;
        ref_cmp r;
        if (!opsuite_run_case(cc, &c, vi->name, got, why, sizeof why)) {
            if (ok)
                snprintf(first, sizeof first, "%s: %s", c.label, why);
            ok = 0;
        } else {
            oc_ref(&c, tf);
            ref_compare(c.out.dtype, c.out.numel, got, c.ref[tf], c.bound[tf], c.exact, &r);
            if (r.bad && ok)
                snprintf(first, sizeof first, "%s: %lld elements off the reference (first "
                         "[%lld])", c.label, (long long)r.bad, (long long)r.first_bad);
            ok &= r.bad == 0;
        }
        ran++;
        free(got);
        oc_free(&c);
    }
    tap_ok(ok && ran > 0, "%s/%s %s under GPUK_CHECK: %d cases pass the shadow and the "
           "reference%s%s (seed %llu)", gpuk_op_name(op), vi->name, gpuk_dtype_name(dt), ran,
           ok ? "" : "; first failure: ", first, (unsigned long long)seed);
}

/* Every rung of (op, dt), or a skip where the backend has none. */
static void one_dtype(gpuk_context *cc, gpuk_op op, gpuk_dtype dt, uint64_t seed)
{
    size_t nv = 0;
    gpuk_variant_count_dtype(cc, op, dt, &nv);
    if (nv == 0)
        tap_skip("%s %s under GPUK_CHECK: the backend has no %s variant", gpuk_op_name(op),
                 gpuk_dtype_name(dt), gpuk_dtype_name(dt));
    for (size_t v = 0; v < nv; v++) {
        gpuk_variant_info vi;
        if (gpuk_variant_get_dtype(cc, op, dt, v, &vi) == GPUK_OK)
            rung(cc, op, dt, &vi, seed);
    }
}

int main(void)
{
    static const gpuk_dtype dts[] = {
#define T_CHECK_DT_(id, value, name, bytes, dlcode, prec) GPUK_##id,
        GPUK_DTYPE_MAP(T_CHECK_DT_)
#undef T_CHECK_DT_
    };
    const char *be = getenv("GPUK_TEST_BACKEND");
    gpuk_options o;
    gpuk_context *cc = NULL;
    uint64_t seed = tap_seed();
    gpuk_options_init(&o);
    o.backend = be && *be ? be : "cpu";
    o.check = 1;
    gpuk_status st = gpuk_context_open_ex(&cc, &o, NULL);
    if (st != GPUK_OK && strcmp(o.backend, "cpu") != 0)
        return tap_skip_all("backend %s does not open here: %s", o.backend, gpuk_strerror(st));
    if (!tap_ok(st == GPUK_OK, "a %s context with GPUK_CHECK opens (%s)", o.backend,
                gpuk_strerror(st)))
        return tap_done();
    for (int op = GPUK_OP_FIRST; op <= GPUK_OP_LAST; op++)
        for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++)
            if (optest_of((gpuk_op)op)->dtypes & GPUK_DTYPE_BIT(dts[d]))
                one_dtype(cc, (gpuk_op)op, dts[d], seed);
    gpuk_context_close(cc);
    return tap_done();
}

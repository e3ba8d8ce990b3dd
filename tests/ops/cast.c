/*
 * tests/ops/cast.c - what the tests and the fuzz harness know about
 * gpuk_cast (gpuk_cast(3)): its call, the op suite's cases, the
 * reference, the bad-input spec and rules, the rounding corners, the fuzz
 * shapes.  The op's dtype is x's (the lead's, as for every op); out may
 * be any of f32, f64, f16 and bf16, so each case names its own output
 * dtype.  A cast rounds once, so every rung must give the same bits: the
 * reference is the input, read exactly, rounded once to out's dtype by
 * the comparison itself (ref_put rounds to nearest even in any dtype,
 * from long double, so f64 to f16 never rounds through f32).
 */
#include "../opcall.h"

#ifdef OPTEST_CALLS
/* ---- the call: all that tests/opcall.c takes from this file ---- */

/* in[0] x, out (of any float dtype; may be x, then of x's) */
static gpuk_status opcall_CAST(gpuk_context *ctx, const opcall_args *a, const char *v)
{
    return gpuk_cast(ctx, a->in[0], a->out, v);
}

#else /* everything else, in the test library */
#include "family.h"

/* The dtypes a cast goes to, in the order the cases take them. */
static const gpuk_dtype cast_to[] = { GPUK_F32, GPUK_F64, GPUK_F16, GPUK_BF16 };
#define N_TO NELEM(cast_to)

/* Values at the rounding boundaries of every target (each stored first
 * in the case's dtype, so a narrow source keeps what it can of them):
 * ties between two 16-bit neighbours, just above them (f64 only: the
 * value f32 would round onto the tie, so a kernel that rounds f64 through
 * f32 rounds the wrong way), the largest finite values and the first that
 * overflow, subnormals and the ties below them, signed zeros and
 * specials. */
static const double corners[] = {
    1 + 0x1p-11, 1 + 3 * 0x1p-11, 1 + 0x1p-11 + 0x1p-40, -(1 + 0x1p-11 + 0x1p-40),
    1 + 0x1p-8, 1 + 3 * 0x1p-8, 1 + 0x1p-8 + 0x1p-40, 1 + 0x1p-24, 1 + 3 * 0x1p-24,
    1 + 0x1p-24 + 0x1p-50, 65504, 65519, 65520, -65520, 65536, 0x1.FEp127, 0x1.FFp127,
    0x1.FFFFFEp127, 0x1.FFFFFFp127, 1e300, -1e300, 0x1p-24, 0x1p-25, 3 * 0x1p-25, 0x1p-14,
    0x1p-15 + 0x1p-25, 0x1p-126, 0x1p-133, 0x1p-134, 0x1p-149, 0x1p-150, 3 * 0x1p-150,
    0x1p-1074, 0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN, 1.0 / 3, -2.0 / 3,
};

/* Cases: shapes x the four targets; inputs are the corners, then values
 * with random exponents across the source's range (f16: 2^-27..2^17;
 * the others 2^-152..2^130, past f32's, so f64 also overflows and
 * underflows f32).  The last shape runs in place when the target is the
 * source. */
static int b_cast(oc_case *c, int i, gpuk_dtype dt, uint64_t *g)
{
    static const int T[][5] = { /* ndim, shape */
        { 1, 1, 0, 0, 0 }, { 1, NELEM(corners), 0, 0, 0 }, { 1, 1000, 0, 0, 0 },
        { 2, 33, 7, 0, 0 }, { 3, 7, 5, 3, 0 }, { 1, 0, 0, 0, 0 }, { 1, 4099, 0, 0, 0 },
        { 2, 64, 1030, 0, 0 }, { 2, 127, 33, 0, 0 } };
    int si = i / N_TO, ti = i % N_TO;
    if (si >= NELEM(T))
        return 0;
    const int *t = T[si];
    gpuk_dtype to = cast_to[ti];
    int64_t sh[4], n = 1;
    int L = si % 2 ? OC_OFF1 : OC_DENSE, in_place = si == NELEM(T) - 1 && to == dt;
    char sb[48];
    for (int d = 0; d < t[0]; d++)
        sh[d] = t[1 + d], n *= sh[d];
    int lo = dt == GPUK_F16 ? -27 : -152, span = dt == GPUK_F16 ? 45 : 283;
    void *x = oc_alloc((size_t)(n ? n : 1) * gpuk_dtype_size(dt));
    for (int64_t j = 0; j < n; j++) {
        double v = j < NELEM(corners) ? corners[j]
                                      : ldexp(oc_rnd(g), lo + (int)(oc_rng(g) % (uint64_t)span));
        PUT(x, j, v);
    }
    c->n_in = 1;
    oc_arg_set(&c->in[0], dt, t[0], sh, L, x);
    if (in_place)
        oc_in_place(c, 0);
    else
        oc_arg_set(&c->out, to, t[0], sh, L, NULL);
    LBL("%s to %s%s %s", oc_shape_str(sb, t[0], sh), gpuk_dtype_name(to),
        in_place ? " in place" : "", oc_layout_name(L));
    return 1;
}

/* The input itself, exactly (every float dtype fits a long double): the
 * one rounding to out's dtype is the comparison's (ref_compare puts the
 * reference in the output's dtype and compares bits). */
static void cast_ref(const ref_args *a, const ref_tol *t, ref_real *ref, double *bound)
{
    int64_t n = ref_numel(&a->out);
    (void)t;
    for (int64_t i = 0; i < n; i++) {
        ref[i] = ref_get(a->in[0].dtype, a->in[0].vals, i);
        bound[i] = 0.0;
    }
}

/* ---- t_badshape ---- */

/* the unary rules; then an integer on either side, or a mismatch of
 * shapes across dtypes */
static void cast_rules(gpuk_context *ctx)
{
    ob_unary_rules(ctx, GPUK_OP_CAST);
    int64_t s23[2] = { 2, 3 }, s32[2] = { 3, 2 };
    gpuk_tensor *x = TF(ctx, 2, 3), *i32 = NULL, *h = NULL, *h32 = NULL;
    gpuk_tensor_create(ctx, GPUK_I32, 2, s23, &i32);
    gpuk_tensor_create(ctx, GPUK_F16, 2, s23, &h);
    gpuk_tensor_create(ctx, GPUK_BF16, 2, s32, &h32);
    ED(gpuk_cast(ctx, i32, x, NULL), "x", GPUK_I32, GPUK_F32);
    ED(gpuk_cast(ctx, x, i32, NULL), "out", GPUK_I32, GPUK_F32);
    ED(gpuk_cast(ctx, h, i32, NULL), "out", GPUK_I32, GPUK_F16);
    E(gpuk_cast(ctx, x, h, NULL), OK, NULL);
    E(gpuk_cast(ctx, h, x, NULL), OK, NULL);
    E(gpuk_cast(ctx, h, h32, NULL), SHAPE, "out");
    E(gpuk_cast(ctx, x, h32, NULL), SHAPE, "out");
}

/* ---- t_empty: the rounding corners, each written out by hand ---- */

/* One conversion: from (the run's dtype), the input, to, the bits of the
 * result in to's dtype, as a value (NaN: any NaN). */
typedef struct cast_corner {
    gpuk_dtype from, to;
    double in, want;
    const char *what;
} cast_corner;

#define H GPUK_F16
#define B GPUK_BF16
static const cast_corner hand[] = {
    { F32, H, 1 + 0x1p-11, 1, "a tie goes to the even neighbour, down" },
    { F32, H, 1 + 3 * 0x1p-11, 1 + 0x1p-9, "a tie goes to the even neighbour, up" },
    { F32, H, 1 + 0x1p-11 + 0x1p-23, 1 + 0x1p-10, "just above a tie rounds up" },
    { F64, H, 1 + 0x1p-11 + 0x1p-40, 1 + 0x1p-10, "f64 rounds once (via f32 it would tie down)" },
    { F64, B, 1 + 0x1p-8 + 0x1p-40, 1 + 0x1p-7, "f64 rounds once (via f32 it would tie down)" },
    { F32, H, 65519, 65504, "below 65520 stays finite" },
    { F32, H, 65520, INFINITY, "65520 overflows to inf" },
    { F32, H, -65520, -INFINITY, "-65520 overflows to -inf" },
    { F32, H, 0x1p-24, 0x1p-24, "the smallest subnormal is kept" },
    { F32, H, 0x1p-25, 0.0, "half the smallest subnormal ties to 0" },
    { F32, H, 3 * 0x1p-25, 0x1p-23, "1.5 subnormals tie to 2" },
    { F32, H, -0x1p-26, -0.0, "a tiny negative becomes -0" },
    { F32, H, -0.0, -0.0, "-0 stays -0" },
    { F32, B, 0x1.FFFFFEp127, INFINITY, "FLT_MAX overflows bf16" },
    { F32, B, 1 + 0x1p-8, 1, "bf16 tie to even, down" },
    { F32, B, 1 + 3 * 0x1p-8, 1 + 0x1p-6, "bf16 tie to even, up" },
    { F32, B, 0x1p-133, 0x1p-133, "bf16's smallest subnormal is kept" },
    { F32, B, 0x1p-134, 0.0, "half of it ties to 0" },
    { F64, F32, 1 + 0x1p-24 + 0x1p-50, 1 + 0x1p-23, "f64 to f32 above a tie" },
    { F64, F32, 0x1.FFFFFFp127, INFINITY, "f64 half an ulp past FLT_MAX overflows" },
    { F64, F32, 0x1.FFFFFEFp127, 0x1.FFFFFEp127, "just below that stays FLT_MAX" },
    { F64, F32, 0x1p-150, 0.0, "half of f32's smallest subnormal ties to 0" },
    { F64, H, 1e300, INFINITY, "1e300 to f16 is inf" },
    { F64, H, -0x1p-30, -0.0, "a tiny negative f64 becomes -0" },
    { H, F32, 0x1p-24, 0x1p-24, "f16 subnormals widen exactly" },
    { H, B, 0x1p-24, 0x1p-24, "to bf16 too (f32's range)" },
    { H, B, 1 + 0x1p-8, 1, "f16 to bf16 rounds to even once" },
    { B, H, 0x1p20, INFINITY, "bf16 past f16's range is inf" },
    { B, H, 0x1p-30, 0.0, "bf16 below f16's subnormals is 0" },
    { B, F64, 0x1.FEp127, 0x1.FEp127, "bf16's largest widens exactly" },
    { F32, F64, 0x1p-149, 0x1p-149, "f32 subnormals widen exactly" },
    { F32, F32, -0.0, -0.0, "same dtype: a copy" },
    { F32, H, NAN, NAN, "NaN stays NaN" },
    { F64, B, INFINITY, INFINITY, "inf stays inf" },
    { B, F32, -INFINITY, -INFINITY, "-inf stays -inf" },
};
#undef H
#undef B

/* Every rung of the run's dtype on one corner: one check each. */
static void corner_run(gpuk_context *ctx, const cast_corner *k)
{
    size_t nv = 0;
    int64_t one = 1;
    gpuk_tensor *x = NULL, *o = NULL;
    unsigned char in[8], got[8], want[8];
    gpuk_variant_count_dtype(ctx, GPUK_OP_CAST, k->from, &nv);
    if (nv == 0) {
        tap_skip("cast %s to %s: the backend has no %s variant", gpuk_dtype_name(k->from),
                 gpuk_dtype_name(k->to), gpuk_dtype_name(k->from));
        return;
    }
    ref_put(k->from, in, 0, k->in);
    ref_put(k->to, want, 0, k->want);
    if (gpuk_tensor_create(ctx, k->from, 1, &one, &x) != GPUK_OK ||
        gpuk_tensor_create(ctx, k->to, 1, &one, &o) != GPUK_OK ||
        gpuk_tensor_write(ctx, x, in, gpuk_dtype_size(k->from)) != GPUK_OK) {
        tap_ok(0, "setup: %s", gpuk_context_error(ctx));
        return;
    }
    for (size_t v = 0; v < nv; v++) {
        gpuk_variant_info vi;
        gpuk_variant_get_dtype(ctx, GPUK_OP_CAST, k->from, v, &vi);
        memset(got, 0x5A, sizeof got);
        gpuk_tensor_write(ctx, o, got, gpuk_dtype_size(k->to));
        gpuk_status st = gpuk_cast(ctx, x, o, vi.name);
        gpuk_tensor_read(ctx, o, got, gpuk_dtype_size(k->to));
        ref_real g = ref_get(k->to, got, 0);
        int ok = st == GPUK_OK && (isnan(k->want) ? isnan(g)
                                   : memcmp(got, want, gpuk_dtype_size(k->to)) == 0);
        tap_ok(ok, "cast/%s %s to %s: %a -> %a: %s", vi.name, gpuk_dtype_name(k->from),
               gpuk_dtype_name(k->to), k->in, k->want, k->what);
        if (!ok)
            tap_diag("  status %s, got %La", gpuk_strerror(st), g);
    }
    gpuk_tensor_destroy(ctx, x);
    gpuk_tensor_destroy(ctx, o);
}

static void cast_empty(gpuk_context *ctx, gpuk_dtype dt)
{
    opcall_args k;
    for (int t = 0; t < N_TO; t++) {
        int64_t s[3] = { 2, 0, 3 };
        gpuk_tensor *x = NULL, *o = NULL;
        gpuk_tensor_create(ctx, dt, 3, s, &x);
        gpuk_tensor_create(ctx, cast_to[t], 3, s, &o);
        k = oe_call(GPUK_OP_CAST, x, NULL, NULL, o);
        char label[48];
        snprintf(label, sizeof label, "[2,0,3] to %s", gpuk_dtype_name(cast_to[t]));
        /* only the status: an empty output has nothing to compare */
        RUN(k, label, NULL, NULL);
    }
    for (int i = 0; i < NELEM(hand); i++)
        if (hand[i].from == dt)
            corner_run(ctx, &hand[i]);
}

/* ---- the fuzz harness: x of 1-4 dimensions, out of any float dtype ---- */

static int cast_fuzz(fz *f, fz_call *c, unsigned sp)
{
    int64_t s[4];
    int nd, r = fz_x_in(f, c, sp, &nd, s);
    gpuk_dtype to = cast_to[fz_pick(f, N_TO)];
    if (to == c->dt)
        return r | fz_out_of_x(f, c, nd, s, 1);
    return r | fz_opnd(f, &c->out, to, nd, s, fz_lay_dense(f), 0, 0);
}

#define F GPUK_F32
const optest optest_CAST = {
    .op = GPUK_OP_CAST,
    .dtypes = OPTEST_FLOATS | OPTEST_HALF,
    .cases = b_cast,
    .ref = cast_ref,
    .spec = { 2, { "x", "out" }, { F, F }, { 2, 2 }, { { 2, 3 }, { 2, 3 } }, { -1, -1 }, -1,
              NULL, 1 },
    .badshape = cast_rules,
    .empty = cast_empty,
    .fuzz = cast_fuzz,
};
#undef F

#endif /* OPTEST_CALLS */

/*
 * t_ref - the reference itself (ref.h), checked without any backend: the
 * element access of every dtype, the tolerances per dtype, that the
 * reference is more precise than f64 where it must be and rounds in the
 * dtype where it must (the exact ops), and that the f64 bounds are tight
 * enough to catch a result computed in f32 yet loose enough for correct
 * double computations in any order.
 *
 * The last two run over every f64 case of the op suite (the descriptors
 * of tests/ops/): the reference rounded to f64, which a perfect kernel
 * returns, must pass; the reference rounded to f32 must fail wherever
 * that rounding changed anything.  So every f64 case and reference is
 * exercised here even where no backend has f64 rows yet.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpuk.h>

#include "opcases.h"
#include "optest.h"
#include "ref.h"
#include "tap.h"

static int bits16(gpuk_dtype dt, ref_real x)
{
    uint16_t h;
    ref_put(dt, &h, 0, x);
    return h;
}

/* f16 and bf16 encodings, rounding, overflow and subnormals; f32, f64
 * and i32 through the same calls. */
static void elements(void)
{
    static const struct {
        ref_real x;
        int f16, bf16;
    } T[] = {
        { 1.0L, 0x3C00, 0x3F80 },           { -2.0L, 0xC000, 0xC000 },
        { 65504.0L, 0x7BFF, 0x4780 },       { 65520.0L, 0x7C00, 0x4780 },
        { 0x1p-24L, 0x0001, 0x3380 },       { 0x1p-25L, 0x0000, 0x3300 },
        { 0x1.8p-25L, 0x0001, 0x3340 },     { 1.0L + 0x1p-11L, 0x3C00, 0x3F80 },
        { 1.0L + 0x3p-11L, 0x3C02, 0x3F80 }, { 1.0L + 0x1p-8L, 0x3C04, 0x3F80 },
        { 1.0L + 0x3p-8L, 0x3C0C, 0x3F82 }, { 0x1p-14L, 0x0400, 0x3880 },
        { -0.0L, 0x8000, 0x8000 },          { 0x1.FFp127L, 0x7C00, 0x7F80 },
    };
    int ok = 1;
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++) {
        int h = bits16(GPUK_F16, T[i].x), b = bits16(GPUK_BF16, T[i].x);
        if (h != T[i].f16 || b != T[i].bf16) {
            tap_diag("  %La: f16 0x%04X (want 0x%04X), bf16 0x%04X (want 0x%04X)", T[i].x, h,
                     T[i].f16, b, T[i].bf16);
            ok = 0;
        }
        /* what was stored reads back as the value rounded */
        uint16_t e = (uint16_t)h;
        if (ref_get(GPUK_F16, &e, 0) != ref_round(GPUK_F16, T[i].x))
            ok = 0;
    }
    tap_ok(ok, "f16 and bf16: round to nearest even, overflow to inf, subnormals, -0 (%zu values)",
           sizeof T / sizeof T[0]);
    uint16_t nan16 = (uint16_t)bits16(GPUK_F16, NAN), nanb = (uint16_t)bits16(GPUK_BF16, NAN);
    tap_ok(isnan(ref_get(GPUK_F16, &nan16, 0)) && isnan(ref_get(GPUK_BF16, &nanb, 0)),
           "f16 and bf16 keep NaN a NaN");

    double d[3];
    float f[3];
    int32_t n[3];
    ref_put(GPUK_F64, d, 1, 1.0L / 3);
    ref_put(GPUK_F32, f, 2, 1.0L / 3);
    ref_put(GPUK_I32, n, 0, -7);
    tap_ok(d[1] == 1.0 / 3 && f[2] == 1.0f / 3 && n[0] == -7 &&
               ref_get(GPUK_F64, d, 1) == (ref_real)(1.0 / 3) && ref_get(GPUK_I32, n, 0) == -7,
           "f64, f32 and i32 elements: stored rounded once, read back exactly");
}

static void tolerances(void)
{
    ref_tol a = ref_tol_of(GPUK_F32, 0), b = ref_tol_of(GPUK_F32, GPUK_VARIANT_TF32);
    ref_tol c = ref_tol_of(GPUK_F64, 0), d = ref_tol_of(GPUK_F64, GPUK_VARIANT_TF32);
    ref_tol e = ref_tol_of(GPUK_I32, 0);
    tap_ok(a.u == 0x1p-24 && a.tiny == 0x1p-149 && b.u == 0x1p-11 && b.u_acc == 0x1p-24,
           "f32: u = 2^-24, floor 2^-149; a TF32 rung u = 2^-11, accumulating at 2^-24");
    tap_ok(c.u == 0x1p-53 && c.u_acc == 0x1p-53 && c.tiny == 0x1p-1074 && d.u == 0x1p-53,
           "f64: u = 2^-53 (TF32 does not apply), floor 2^-1074");
    tap_ok(e.u == 0 && e.tiny == 0 && ref_sum_bound(&e, 9, 100, 3) == 0,
           "i32: no rounding, a bound of 0");
    /* the policy's form: c gamma_k sum|t| + u |r| + (2k + 2) tiny */
    double want = REF_C * ref_gamma(7, 0x1p-53) * 3.0 + 0x1p-53 * 2.0 + 16 * 0x1p-1074;
    tap_ok(ref_sum_bound(&c, 7, 3, 2) == want, "f64: the bound of a 7-term sum is "
           "2 gamma_7 sum|t| + u |r| + 16 2^-1074 (%.3g)", want);
    /* a product of 16-bit inputs: f32's sum, then one rounding to a
     * 16-bit output (issue 27) */
    ref_tol h = ref_tol_product(GPUK_BF16, GPUK_F32, 0), hb = ref_tol_product(GPUK_BF16, GPUK_BF16, 0);
    ref_tol hf = ref_tol_product(GPUK_F16, GPUK_F16, 0), p = ref_tol_product(GPUK_F32, GPUK_F32, 0);
    double e32 = REF_C * ref_gamma(7, 0x1p-24) * 3.0 + 0x1p-24 * 2.0 + 16 * 0x1p-149;
    tap_ok(h.u == 0x1p-24 && h.u_out == h.u && ref_sum_bound(&h, 7, 3, 2) == e32 &&
           ref_sum_bound(&hb, 7, 3, 2) == e32 + 0x1p-8 * (2.0 + e32) + 0x1p-133 &&
           ref_sum_bound(&hf, 7, 3, 2) == e32 + 0x1p-11 * (2.0 + e32) + 0x1p-24 &&
           p.u == a.u && p.u_out == p.u,
           "16-bit products: f32's bound into an f32 c, plus one rounding into f16 or bf16");
}

/* Does long double arithmetic deliver its 64 bits here?  Not under
 * valgrind, whose x87 computes in 64-bit doubles: there the reference
 * sums as a double would (still within the policy's c = 2 margin, which
 * covers a reference as wrong as the kernel), and the checks of its
 * extra precision are skipped. */
static int wide_at_run_time(void)
{
    volatile ref_real one = 1, tiny = 0x1p-60L;
    return one + tiny != one;
}

/* The reference is more precise than f64: sums keep what a double sum
 * loses; single operations round once, in the dtype. */
static void precision(void)
{
    volatile double vone = 1.0, v30 = 1.0 + 0x1p-30;
    tap_diag("long double: %d significand bits; %s", LDBL_MANT_DIG,
             REF_WIDE ? "plain long double sums" : "compensated sums (long double is no wider "
                                                   "than double)");
    if (REF_WIDE && !wide_at_run_time()) {
        tap_skip("long double computes with 53 bits here (valgrind's x87?): the reference's "
                 "extra precision is not checked");
    } else {
        ref_acc s = ref_acc_start(vone);
        ref_acc_add(&s, 0x1p-60L);
        ref_acc_add(&s, -vone);
        double naive = vone + 0x1p-60;
        naive -= vone;
        tap_ok(ref_acc_value(&s) == 0x1p-60L && naive == 0.0,
               "1 + 2^-60 - 1: the reference sum is 2^-60, a double sum 0");
        ref_acc p = ref_acc_start(0.0L);
        ref_acc_prod(&p, v30, v30);
        ref_acc_add(&p, -vone);
        double dp = v30 * v30 - vone;
        tap_ok(ref_acc_value(&p) == 0x1p-29L + 0x1p-60L && dp == 0x1p-29,
               "(1 + 2^-30)^2 - 1: the reference keeps the product's 2^-60, double loses it");
    }

    /* 1 + (2^-53 + 2^-105) is just above the tie between 1 and 1 + 2^-52:
     * f64 rounds it up; through a 64-bit long double it rounds to the tie
     * first, then to even, 1.  ref_add1 must give the f64 answer. */
    volatile ref_real b = 0x1p-53L + 0x1p-105L;
    double twice = (double)(vone + b);
    tap_ok(ref_add1(GPUK_F64, vone, b) == 1.0L + 0x1p-52L &&
               (twice == 1.0 || !REF_WIDE || !wide_at_run_time()),
           "ref_add1 in f64 rounds once: 1 + (2^-53 + 2^-105) = 1 + 2^-52 (twice: %a)", twice);
    tap_ok(ref_add1(GPUK_F32, 1, 0x1p-24L + 0x1p-47L) == 1.0L + 0x1p-23L &&
               ref_mul1(GPUK_F32, 3, 1.0L / 3) == (float)(3 * (float)(1.0L / 3)),
           "ref_add1 and ref_mul1 in f32 are the float operations");
    tap_ok(ref_add1(GPUK_I32, INT32_MAX, 1) == INT32_MIN, "ref_add1 in i32 wraps");
    tap_ok(ref_scalar(GPUK_F64, 1.0 / 3) == (ref_real)(1.0 / 3) &&
               ref_scalar(GPUK_F32, 1.0 / 3) == (ref_real)(float)(1.0 / 3),
           "a scalar reaches an f64 op whole, an f32 op rounded to float");
    tap_ok(ref_isinf(ref_get(GPUK_F64, (const double[]){ -INFINITY }, 0)) &&
               !ref_isfinite((ref_real)NAN) && ref_isfinite(-0x1p-1074L),
           "ref_isinf and ref_isfinite see an infinity, a NaN and a subnormal for what they are");
}

/* ref_compare in f64: exact ops bit for bit (-0 is not +0, any NaN is
 * any NaN), the others within the bound. */
static void compare(void)
{
    const double got[4] = { -0.0, NAN, 1.0 + 0x1p-52, INFINITY };
    const ref_real want[4] = { 0.0L, -(ref_real)NAN, 1.0L, INFINITY };
    const double bound[4] = { 1, 1, 0x1p-51, 1 };
    ref_cmp r;
    ref_compare(GPUK_F64, 4, got, want, bound, 1, &r);
    tap_ok(r.bad == 2 && r.first_bad == 0, "f64 exact: -0 against +0 and 1 + 2^-52 against 1 "
           "are wrong, NaN against NaN and inf against inf right (%lld wrong)", (long long)r.bad);
    ref_compare(GPUK_F64, 4, got, want, bound, 0, &r);
    tap_ok(r.bad == 0 && r.max_err == 0x1p-52, "f64 within bounds: all four pass, max err "
           "2^-52 (%a)", r.max_err);
    const double other[4] = { 0.0, NAN, 1.0, INFINITY };
    ref_compare_pair(GPUK_F64, 4, got, other, bound, bound, 1, &r);
    tap_ok(r.bad == 2, "f64 pair, exact: two differ (%lld)", (long long)r.bad);
}

/* Element operations of a case, as opsuite's QUICK rule counts them. */
static int64_t work(const oc_case *c)
{
    int64_t w = c->out.numel;
    return optest_of(c->op)->products ? w * (c->k > 0 ? c->k : 1) : w;
}

/* Every f64 case: the reference rounded to f64 passes, rounded to f32 it
 * is caught wherever that changed a bit. */
static void f64_cases(uint64_t seed)
{
    for (int op = GPUK_OP_FIRST; op <= GPUK_OP_LAST; op++) {
        int cases = 0, perfect_ok = 0, caught = 0, unchanged = 0;
        int64_t elems = 0, flagged = 0;
        oc_case c;
        for (int idx = 0; oc_build((gpuk_op)op, GPUK_F64, idx, seed, &c); idx++) {
            int64_t n = c.out.numel;
            if (work(&c) > (1 << 22)) { /* the op suite has those; not twice here */
                oc_free(&c);
                continue;
            }
            oc_ref(&c, 0);
            double *mine = oc_alloc((size_t)(n ? n : 1) * sizeof *mine);
            double *lo = oc_alloc((size_t)(n ? n : 1) * sizeof *lo);
            int64_t changed = 0;
            for (int64_t i = 0; i < n; i++) {
                ref_put(GPUK_F64, mine, i, c.ref[0][i]);
                ref_put(GPUK_F64, lo, i, ref_round(GPUK_F32, c.ref[0][i]));
                changed += memcmp(&mine[i], &lo[i], sizeof(double)) != 0;
            }
            ref_cmp r;
            ref_compare(GPUK_F64, n, mine, c.ref[0], c.bound[0], c.exact, &r);
            perfect_ok += r.bad == 0;
            if (r.bad)
                tap_diag("  %s %s: the reference rounded to f64 fails at [%lld]: %.17Lg",
                         gpuk_op_name((gpuk_op)op), c.label, (long long)r.first_bad,
                         c.ref[0][r.first_bad]);
            ref_compare(GPUK_F64, n, lo, c.ref[0], c.bound[0], c.exact, &r);
            /* a case with a handful of outputs (spmv 1 x 9000: one) may
             * land each within its bound after the f32 rounding by chance
             * (a sum that cancels has a bound wide against its value):
             * only a case with 8 or more changed elements is judged */
            if (changed == 0 || (changed < 8 && r.bad == 0))
                unchanged++;
            else if (r.bad > 0)
                caught++;
            else
                tap_diag("  %s %s: %lld elements rounded to f32 pass the f64 bound",
                         gpuk_op_name((gpuk_op)op), c.label, (long long)changed);
            elems += changed;
            flagged += r.bad;
            cases++;
            free(mine);
            free(lo);
            oc_free(&c);
        }
        if (!cases)
            continue;
        tap_ok(perfect_ok == cases, "%s f64: the reference rounded to f64 passes, %d of %d "
               "cases", gpuk_op_name((gpuk_op)op), perfect_ok, cases);
        tap_ok(caught == cases - unchanged, "%s f64: rounded to f32 it is caught in %d of the "
               "%d cases it changes in 8 elements or more (%lld of %lld changed elements flagged)",
               gpuk_op_name((gpuk_op)op), caught, cases - unchanged, (long long)flagged,
               (long long)elems);
    }
}

/* Correct double computations in three orders (forward, backward, four
 * interleaved partial sums) and with fma: all within the f64 bound of the
 * matmul and reduce references, on their f64 cases. */
static double sum_in(const double *t, int64_t k, int order)
{
    double s = 0.0, part[4] = { 0, 0, 0, 0 };
    if (order == 0)
        for (int64_t p = 0; p < k; p++)
            s += t[p];
    else if (order == 1)
        for (int64_t p = k - 1; p >= 0; p--)
            s += t[p];
    else {
        for (int64_t p = 0; p < k; p++)
            part[p % 4] += t[p];
        s = (part[0] + part[2]) + (part[1] + part[3]);
    }
    return s;
}

static void double_orders(uint64_t seed)
{
    static const gpuk_op ops[] = { GPUK_OP_MATMUL, GPUK_OP_REDUCE };
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
        int cases = 0, good = 0;
        double worst = 0;
        oc_case c;
        for (int idx = 0; oc_build(ops[o], GPUK_F64, idx, seed, &c); idx++) {
            if (work(&c) > (1 << 21) || (ops[o] == GPUK_OP_REDUCE && c.kind)) {
                oc_free(&c);
                continue;
            }
            oc_ref(&c, 0);
            int64_t n = c.out.numel, k = c.k, nn = c.n, len = 0;
            double *got = oc_alloc((size_t)(n ? n : 1) * sizeof *got);
            double *t = oc_alloc((size_t)(k + 1 + c.in[0].numel) * sizeof *t);
            const double *a = c.in[0].vals, *b = c.n_in > 1 ? c.in[1].vals : NULL;
            int ok = 1;
            for (int order = 0; order < 4; order++) {
                for (int64_t e = 0; e < n; e++) {
                    if (ops[o] == GPUK_OP_MATMUL) {
                        int64_t i = e / nn, j = e % nn;
                        const double *bias = c.n_in > 2 ? c.in[2].vals : NULL;
                        for (int64_t p = 0; p < k; p++)
                            t[p] = a[i * k + p] * b[p * nn + j];
                        len = k;
                        if (bias)
                            t[len++] = bias[j];
                        if (order == 3) { /* fma, forward */
                            double s = bias ? bias[j] : 0.0;
                            for (int64_t p = 0; p < k; p++)
                                s = fma(a[i * k + p], b[p * nn + j], s);
                            got[e] = s;
                            continue;
                        }
                    } else { /* a sum along the case's axis */
                        const oc_arg *x = &c.in[0];
                        int64_t inner = 1, L = x->shape[c.axis];
                        for (int d = c.axis + 1; d < x->ndim; d++)
                            inner *= x->shape[d];
                        for (int64_t l = 0; l < L; l++)
                            t[l] = a[((e / inner) * L + l) * inner + e % inner];
                        len = L;
                    }
                    got[e] = sum_in(t, len, order % 3);
                }
                ref_cmp r;
                ref_compare(GPUK_F64, n, got, c.ref[0], c.bound[0], 0, &r);
                ok &= r.bad == 0;
                if (r.worst_ratio > worst)
                    worst = r.worst_ratio;
            }
            good += ok;
            cases++;
            free(got);
            free(t);
            oc_free(&c);
        }
        tap_ok(good == cases && cases > 0, "%s f64: double sums forward, backward, in four "
               "parts and with fma all pass, %d of %d cases (worst err/bound %.3g)",
               gpuk_op_name(ops[o]), good, cases, worst);
    }
}

/* A kernel that took gpuk_args.alpha (the float) for alpha_f64 is off by
 * the scalars' 2^-30 (the f64 cases of gemm, gemv and scale hold scalars
 * no f32 does): every f64 case whose result that changes must then
 * fail. */
static void f64_scalars(uint64_t seed)
{
    static const gpuk_op ops[] = { GPUK_OP_GEMM, GPUK_OP_GEMV, GPUK_OP_SCALE };
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
        int cases = 0, caught = 0;
        oc_case c;
        for (int idx = 0; oc_build(ops[o], GPUK_F64, idx, seed, &c); idx++) {
            int64_t n = c.out.numel;
            double a = c.alpha, b = c.beta;
            if (n == 0 || work(&c) > (1 << 22) || (a == (float)a && b == (float)b)) {
                oc_free(&c);
                continue;
            }
            oc_ref(&c, 0);
            /* the reference of the same call with float scalars, in f64 */
            c.alpha = (float)a, c.beta = (float)b;
            ref_real *r0 = c.ref[0];
            double *b0 = c.bound[0];
            c.ref[0] = NULL, c.bound[0] = NULL;
            oc_ref(&c, 0);
            double *wrong = oc_alloc((size_t)n * sizeof *wrong);
            int changed = 0;
            for (int64_t i = 0; i < n; i++) {
                ref_put(GPUK_F64, wrong, i, c.ref[0][i]);
                changed |= wrong[i] != (double)r0[i];
            }
            ref_cmp r;
            ref_compare(GPUK_F64, n, wrong, r0, b0, c.exact, &r);
            /* where the scalar is not read (k = 0 and beta 0) nothing changes */
            caught += changed && r.bad > 0;
            cases += changed;
            free(wrong);
            free(r0);
            free(b0);
            oc_free(&c);
        }
        tap_ok(cases > 0 && caught == cases, "%s f64: a kernel using the float alpha and beta "
               "fails, %d of %d cases", gpuk_op_name(ops[o]), caught, cases);
    }
}

int main(void)
{
    uint64_t seed = tap_seed();
    elements();
    tolerances();
    precision();
    compare();
    f64_cases(seed);
    f64_scalars(seed);
    double_orders(seed);
    return tap_done();
}

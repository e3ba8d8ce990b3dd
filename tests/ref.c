/*
 * ref.c - what the float64 references share (see ref.h): the parts of
 * every bound, the dispatch from an op to its reference, the comparison.
 *
 * The bounds follow the policy of doc/design.md ("Tolerances").  A float
 * computation that adds K terms t_i, each carrying at most one rounding of
 * its own (a product), satisfies |fl(S) - S| <= gamma_K * sum |t_i| in any summation order
 * (Higham, Accuracy and Stability of Numerical Algorithms, 3.1), so tree,
 * pairwise, split-K and blocked orders all fit one bound.  To that we add:
 *   - u * |ref|: the output is a float, so even a perfect result sits up to
 *     half an ulp from the double reference;
 *   - a floor of (2K + 2) * 2^-149: each product or sum that underflows may
 *     lose up to that much absolutely, which gamma_K does not cover, and it
 *     keeps an exact-zero bound from demanding more than IEEE can deliver.
 * REF_C = 2 is the policy's safety constant c.
 */
#include "ref.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include <gpuk.h>

#include "optest.h"

double ref_unit_roundoff(uint32_t variant_flags)
{
    return (variant_flags & GPUK_VARIANT_TF32) ? REF_U_TF32 : REF_U_FP32;
}

double ref_gamma(int64_t k, double u)
{
    double ku = (double)k * u;
    if (k <= 0)
        return 0.0;
    return ku < 1.0 ? ku / (1.0 - ku) : HUGE_VAL;
}

/* The relative coefficient of a k-term sum at unit roundoff u.  Per the
 * policy it is c * gamma_k(u).  When k u gets near 1 that stops being
 * defined; for reduced-precision (TF32) inputs we then fall back to the
 * model behind it: each input is rounded once to u (a product of two such
 * inputs is off by 2u + u^2), the products are exact in FP32, and the sum
 * is accumulated in FP32, which adds gamma_k(2^-24) on top. */
static double sum_coef(int64_t k, double u)
{
    if ((double)k * u < 0.5)
        return REF_C * ref_gamma(k, u);
    if (u > REF_U_FP32)
        return REF_C * (2 * u + u * u + ref_gamma(k, REF_U_FP32) * (1 + u) * (1 + u));
    return HUGE_VAL;
}

double ref_floor_abs(int64_t k)
{
    return (double)(2 * k + 2) * 0x1p-149;
}

double ref_sum_bound(int64_t k, double abssum, double r, double u)
{
    return sum_coef(k, u) * abssum + u * fabs(r) + ref_floor_abs(k);
}

/* One correctly rounded operation: u |r| is the whole story; c keeps the
 * same margin as the sums. */
double ref_one_op_bound(double r, double u)
{
    return REF_C * u * fabs(r) + ref_floor_abs(1);
}

/* ---- shared by the BLAS-shaped ops (gemv in blas.c, gemm in matmul.c) ---- */

/* alpha * (sum of K products) + beta * y0: the product path meets K
 * roundings in the sum, one for alpha and one for the final add (K + 2);
 * the beta path fewer.  So gamma_{K+2} of |alpha| sum|a x| + |beta y0|,
 * whatever order a library uses (alpha folded into the products, or beta
 * applied first). */
void ref_blas_entry(double s, double abss, int64_t k, float alpha, float beta,
                    const float *y0, double u, double *ref, double *bound)
{
    /* alpha = 0: the inputs are not read (the BLAS convention, gpuk.h), so
     * a NaN among the products does not count */
    if (alpha == 0.0f)
        s = abss = 0.0;
    double r = (double)alpha * s, mag = fabs((double)alpha) * abss;
    if (beta != 0.0f) {
        r += (double)beta * (double)*y0;
        mag += fabs((double)beta * (double)*y0);
    }
    *ref = r;
    /* products lost to underflow are scaled by alpha too */
    double a = fabs((double)alpha);
    *bound = ref_sum_bound(k + 2, mag, r, u) +
             (a > 1.0 ? (a - 1.0) * ref_floor_abs(k + 2) : 0.0);
}

/* ---- any op, from its operands ---- */

int64_t ref_numel(const ref_operand *t)
{
    int64_t n = 1;
    for (int d = 0; d < t->ndim; d++)
        n *= t->shape[d];
    return n;
}

/* The op's reference from its descriptor (tests/ops/): an op added to
 * GPUK_OP_MAP without one does not link. */
void ref_op(const ref_args *a, double u, double *ref, double *bound)
{
    const optest *t = optest_of(a->op);
    if (t)
        t->ref(a, u, ref, bound);
}

/* ---- comparison ---- */

static uint32_t bits_of(float f)
{
    uint32_t w;
    memcpy(&w, &f, sizeof w);
    return w;
}

static void cmp_init(int64_t n, ref_cmp *res)
{
    memset(res, 0, sizeof *res);
    res->n = n;
    res->first_bad = -1;
    res->worst_ratio = -1.0; /* no finite element compared yet */
}

static void cmp_bad(ref_cmp *res, int64_t i)
{
    if (res->bad++ == 0)
        res->first_bad = i;
}

/* Record err against bound b for element i. */
static void cmp_err(ref_cmp *res, int64_t i, double err, double b)
{
    double ratio = err == 0.0 ? 0.0 : (b > 0.0 ? err / b : HUGE_VAL);
    if (err > res->max_err)
        res->max_err = err;
    if (ratio > res->worst_ratio) {
        res->worst_ratio = ratio;
        res->worst_bound = b;
    }
    if (!(err <= b))
        cmp_bad(res, i);
}

void ref_compare(int64_t n, const float *got, const double *ref, const double *bound,
                 int exact, ref_cmp *res)
{
    cmp_init(n, res);
    for (int64_t i = 0; i < n; i++) {
        double r = ref[i], g = got[i];
        if (isnan(r) || isnan(g)) {
            if (!(isnan(r) && isnan(g)))
                cmp_bad(res, i);
        } else if (exact) {
            if (bits_of(got[i]) != bits_of((float)r))
                cmp_bad(res, i);
        } else if (isinf(r) || isinf(g)) {
            if (r != g)
                cmp_bad(res, i);
        } else {
            cmp_err(res, i, fabs(g - r), bound[i]);
        }
    }
}

void ref_compare_pair(int64_t n, const float *a, const float *b, const double *bound_a,
                      const double *bound_b, int exact, ref_cmp *res)
{
    cmp_init(n, res);
    for (int64_t i = 0; i < n; i++) {
        if (isnan(a[i]) || isnan(b[i])) {
            if (!(isnan(a[i]) && isnan(b[i])))
                cmp_bad(res, i);
        } else if (exact) {
            if (bits_of(a[i]) != bits_of(b[i]))
                cmp_bad(res, i);
        } else if (isinf(a[i]) || isinf(b[i])) {
            if (a[i] != b[i])
                cmp_bad(res, i);
        } else {
            cmp_err(res, i, fabs((double)a[i] - (double)b[i]), bound_a[i] + bound_b[i]);
        }
    }
}

/* ---- i32 outputs ---- */

int32_t ref_i32_at(const void *v, int64_t i)
{
    int32_t x;
    memcpy(&x, (const char *)v + 4 * i, 4);
    return x;
}

void ref_compare_i32(int64_t n, const void *got, const double *ref, ref_cmp *res)
{
    cmp_init(n, res);
    for (int64_t i = 0; i < n; i++) {
        double g = (double)ref_i32_at(got, i), err = fabs(g - ref[i]);
        if (err > res->max_err)
            res->max_err = err;
        if (g != ref[i])
            cmp_bad(res, i);
    }
    res->worst_ratio = res->bad ? HUGE_VAL : 0.0;
}

void ref_compare_pair_i32(int64_t n, const void *a, const void *b, ref_cmp *res)
{
    cmp_init(n, res);
    for (int64_t i = 0; i < n; i++)
        if (ref_i32_at(a, i) != ref_i32_at(b, i))
            cmp_bad(res, i);
    res->worst_ratio = res->bad ? HUGE_VAL : 0.0;
}

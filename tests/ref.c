/*
 * ref.c - what the references share (see ref.h): elements of any dtype,
 * the parts of every bound, the dispatch from an op to its reference, the
 * comparison.
 *
 * The bounds follow the policy of doc/design.md ("Tolerances").  A
 * computation in a float type of unit roundoff u that adds K terms t_i,
 * each carrying at most one rounding of its own (a product), satisfies
 * |fl(S) - S| <= gamma_K * sum |t_i| in any summation order (Higham,
 * Accuracy and Stability of Numerical Algorithms, 3.1), so tree, pairwise,
 * split-K and blocked orders all fit one bound.  To that we add:
 *   - u * |ref|: the output is stored in the dtype, so even a perfect
 *     result sits up to half an ulp from the (wider) reference;
 *   - a floor of (2K + 2) * tiny, tiny the dtype's smallest subnormal
 *     (f32 2^-149, f64 2^-1074): each product or sum that underflows may
 *     lose up to that much absolutely, which gamma_K does not cover, and
 *     it keeps an exact-zero bound from demanding more than IEEE can give.
 * u is 2^-gpuk_dtype_precision(dtype): 2^-24 for f32, 2^-53 for f64, and
 * 2^-11 for a rung that rounds its f32 inputs to TF32.  REF_C = 2 is the
 * policy's safety constant c.
 */
#include "ref.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpuk.h>

#include "optest.h"

/* TF32 keeps 10 fraction bits: u = 2^-11 */
#define REF_PREC_TF32 11

/* ---- f16 and bf16, which C has no type for ---- */

/* x rounded to nearest (ties to even) in a binary format of p significand
 * bits whose smallest normal is 2^emin and largest finite max: the
 * exponent of x's ulp, then an integer rounding at that scale. */
static ref_real round_format(ref_real x, int p, int emin, ref_real max)
{
    int e;
    if (!ref_isfinite(x) || x == 0)
        return x;
    frexpl(x, &e); /* |x| in [2^(e-1), 2^e) */
    int q = (e - 1 >= emin ? e : emin + 1) - p;
    ref_real r = ldexpl(nearbyintl(ldexpl(x, -q)), q);
    return fabsl(r) > max ? copysignl(INFINITY, x) : r;
}

#define F16_MAX 65504.0L
#define BF16_MAX 0x1.FEp127L

static ref_real f16_value(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    ref_real v = e == 31 ? (m ? NAN : INFINITY)
                 : e == 0 ? ldexpl((ref_real)m, -24) : ldexpl((ref_real)(1024 + m), e - 25);
    return (h & 0x8000) ? -v : v;
}

static uint16_t f16_bits(ref_real x)
{
    uint16_t s = signbit(x) ? 0x8000 : 0;
    if (isnan(x))
        return s | 0x7E00;
    x = fabsl(round_format(x, 11, -14, F16_MAX));
    if (ref_isinf(x))
        return s | 0x7C00;
    if (x < 0x1p-14L) /* subnormal (or zero): the significand in units of 2^-24 */
        return s | (uint16_t)ldexpl(x, 24);
    int e;
    frexpl(x, &e);
    return s | (uint16_t)((e + 14) << 10) | (uint16_t)(ldexpl(x, 11 - e) - 1024);
}

/* bf16 is the upper half of an f32: rounded to 8 bits first, the f32 of
 * the value has zeros in its lower half */
static uint16_t bf16_bits(ref_real x)
{
    float f = isnan(x) ? NAN : (float)round_format(x, 8, -126, BF16_MAX);
    uint32_t w;
    memcpy(&w, &f, 4);
    return (uint16_t)(w >> 16);
}

static ref_real bf16_value(uint16_t h)
{
    uint32_t w = (uint32_t)h << 16;
    float f;
    memcpy(&f, &w, 4);
    return f;
}

/* ---- elements of any dtype ---- */

ref_real ref_get(gpuk_dtype dt, const void *v, int64_t i)
{
    const char *p = (const char *)v + (size_t)i * gpuk_dtype_size(dt);
    switch (dt) {
    case GPUK_F32: {
        float x;
        memcpy(&x, p, sizeof x);
        return x;
    }
    case GPUK_F64: {
        double x;
        memcpy(&x, p, sizeof x);
        return x;
    }
    case GPUK_I32: {
        int32_t x;
        memcpy(&x, p, sizeof x);
        return x;
    }
    case GPUK_F16:
    case GPUK_BF16: {
        uint16_t h;
        memcpy(&h, p, sizeof h);
        return dt == GPUK_F16 ? f16_value(h) : bf16_value(h);
    }
    }
    return NAN;
}

void ref_put(gpuk_dtype dt, void *v, int64_t i, ref_real x)
{
    char *p = (char *)v + (size_t)i * gpuk_dtype_size(dt);
    switch (dt) {
    case GPUK_F32: {
        float f = (float)x;
        memcpy(p, &f, sizeof f);
        return;
    }
    case GPUK_F64: {
        double d = (double)x;
        memcpy(p, &d, sizeof d);
        return;
    }
    case GPUK_I32: {
        int32_t n = (int32_t)x;
        memcpy(p, &n, sizeof n);
        return;
    }
    case GPUK_F16:
    case GPUK_BF16: {
        uint16_t h = dt == GPUK_F16 ? f16_bits(x) : bf16_bits(x);
        memcpy(p, &h, sizeof h);
        return;
    }
    }
}

ref_real ref_round(gpuk_dtype dt, ref_real x)
{
    unsigned char b[16];
    ref_put(dt, b, 0, x);
    return ref_get(dt, b, 0);
}

/* Two's complement of a 64-bit integer's low 32 bits, by formula. */
static int32_t wrap32(int64_t s)
{
    return (int32_t)(((s + 0x80000000LL) & 0xFFFFFFFFLL) - 0x80000000LL);
}

ref_real ref_add1(gpuk_dtype dt, ref_real x, ref_real y)
{
    switch (dt) {
    case GPUK_F32:
        return (float)x + (float)y;
    case GPUK_F64:
        return (double)x + (double)y;
    case GPUK_I32:
        return wrap32((int64_t)x + (int64_t)y);
    case GPUK_F16:
    case GPUK_BF16:
        break;
    }
    /* through float: 24 bits >= 2 * 11 + 2, so rounding twice is innocuous */
    return ref_round(dt, (float)x + (float)y);
}

ref_real ref_mul1(gpuk_dtype dt, ref_real x, ref_real y)
{
    switch (dt) {
    case GPUK_F32:
        return (float)x * (float)y;
    case GPUK_F64:
        return (double)x * (double)y;
    case GPUK_I32:
        return wrap32((int64_t)x * (int64_t)y);
    case GPUK_F16:
    case GPUK_BF16:
        break;
    }
    return ref_round(dt, (float)x * (float)y);
}

static ref_real *ref_alloc(int64_t n)
{
    ref_real *r = malloc((size_t)(n > 0 ? n : 1) * sizeof *r);
    if (!r) {
        printf("Bail out! out of host memory for a reference of %lld elements\n", (long long)n);
        exit(1);
    }
    return r;
}

ref_real *ref_load(gpuk_dtype dt, const void *vals, int64_t n)
{
    if (!vals)
        return NULL;
    ref_real *r = ref_alloc(n);
    for (int64_t i = 0; i < n; i++)
        r[i] = ref_get(dt, vals, i);
    return r;
}

ref_real *ref_transposed(const ref_real *m, int64_t rows, int64_t cols)
{
    ref_real *t = ref_alloc(rows * cols);
    for (int64_t r = 0; r < rows; r++)
        for (int64_t q = 0; q < cols; q++)
            t[q * rows + r] = m[r * cols + q];
    return t;
}

ref_real ref_scalar(gpuk_dtype dt, double v)
{
    /* gpuk_args carries alpha as a float and alpha_f64 whole (backend.h):
     * only an f64 kernel reads the latter */
    return dt == GPUK_F64 ? (ref_real)v : (ref_real)(float)v;
}

/* ---- tolerances ---- */

/* The smallest subnormal of a float dtype: the list of gpuk.h gives the
 * precision, not the exponent range, so this one fact per dtype is here. */
static double dtype_tiny(gpuk_dtype dt)
{
    switch (dt) {
    case GPUK_F32:
        return FLT_TRUE_MIN;
    case GPUK_F64:
        return DBL_TRUE_MIN;
    case GPUK_F16:
        return 0x1p-24;
    case GPUK_BF16:
        return 0x1p-133;
    case GPUK_I32:
        break;
    }
    return 0.0;
}

ref_tol ref_tol_of(gpuk_dtype dt, uint32_t variant_flags)
{
    ref_tol t;
    int prec = gpuk_dtype_precision(dt);
    t.dtype = dt;
    t.u_acc = prec ? ldexp(1.0, -prec) : 0.0;
    t.u = prec && dt == GPUK_F32 && (variant_flags & GPUK_VARIANT_TF32)
              ? ldexp(1.0, -REF_PREC_TF32) : t.u_acc;
    t.u_out = t.u;
    if (dt == GPUK_F16 || dt == GPUK_BF16) {
        /* computed in f32 (gpuk(7), "Element types"): the f32 bound of the
         * computation, plus one rounding to the 16-bit output */
        t.u = t.u_acc = ldexp(1.0, -gpuk_dtype_precision(GPUK_F32));
        t.u_out = ldexp(1.0, -prec);
    }
    t.tiny = dtype_tiny(dt);
    t.tiny_out = t.u_out > t.u ? dtype_tiny(dt) : 0.0;
    return t;
}

ref_tol ref_tol_product(gpuk_dtype dt, gpuk_dtype out, uint32_t variant_flags)
{
    if (dt != GPUK_F16 && dt != GPUK_BF16)
        return ref_tol_of(dt, variant_flags);
    ref_tol t = ref_tol_of(GPUK_F32, 0);
    t.dtype = dt;
    if (out != GPUK_F32) {
        t.u_out = ldexp(1.0, -gpuk_dtype_precision(out));
        t.tiny_out = dtype_tiny(out);
    }
    return t;
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
 * inputs is off by 2u + u^2), the products are exact in the dtype, and the
 * sum is accumulated at the dtype's own u_acc, which adds gamma_k(u_acc)
 * on top. */
static double sum_coef(const ref_tol *t, int64_t k)
{
    if ((double)k * t->u < 0.5)
        return REF_C * ref_gamma(k, t->u);
    if (t->u > t->u_acc)
        return REF_C * (2 * t->u + t->u * t->u +
                        ref_gamma(k, t->u_acc) * (1 + t->u) * (1 + t->u));
    return HUGE_VAL;
}

double ref_floor_abs(const ref_tol *t, int64_t k)
{
    return (double)(2 * k + 2) * t->tiny;
}

double ref_sum_bound(const ref_tol *t, int64_t k, ref_real abssum, ref_real r)
{
    double c = sum_coef(t, k);
    /* 0 * inf would be NaN: a sum of nothing is exact */
    double rel = abssum == 0 ? 0.0 : c * (double)abssum;
    double e = rel + t->u * fabs((double)r) + ref_floor_abs(t, k);
    return t->u_out > t->u ? e + t->u_out * (fabs((double)r) + e) + t->tiny_out : e;
}

/* One correctly rounded operation: u |r| is the whole story; c keeps the
 * same margin as the sums. */
double ref_one_op_bound(const ref_tol *t, ref_real r)
{
    return REF_C * t->u_out * fabs((double)r) + ref_floor_abs(t, 1);
}

/* ---- shared by the BLAS-shaped ops (gemv in blas.c, gemm in matmul.c) ---- */

/* alpha * (sum of K products) + beta * y0: the product path meets K
 * roundings in the sum, one for alpha and one for the final add (K + 2);
 * the beta path fewer.  So gamma_{K+2} of |alpha| sum|a x| + |beta y0|,
 * whatever order a library uses (alpha folded into the products, or beta
 * applied first). */
void ref_blas_entry(const ref_tol *t, const ref_acc *s, int64_t k, ref_real alpha,
                    ref_real beta, const ref_real *y0, ref_real *ref, double *bound)
{
    /* alpha = 0: the inputs are not read (the BLAS convention, gpuk.h), so
     * a NaN among the products does not count */
    ref_real sv = alpha == 0 ? 0.0L : ref_acc_value(s), abss = alpha == 0 ? 0.0L : s->abs;
    ref_real r = alpha * sv, mag = fabsl(alpha) * abss;
    if (beta != 0) {
        r += beta * *y0;
        mag += fabsl(beta * *y0);
    }
    *ref = r;
    /* products lost to underflow are scaled by alpha too */
    double a = fabs((double)alpha);
    *bound = ref_sum_bound(t, k + 2, mag, r) +
             (a > 1.0 ? (a - 1.0) * ref_floor_abs(t, k + 2) : 0.0);
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
void ref_op(const ref_args *a, uint32_t variant_flags, ref_real *ref, double *bound)
{
    const optest *t = optest_of(a->op);
    /* a matrix product of 16-bit inputs accumulates in f32 (ref_tol_product) */
    ref_tol tol = t && t->products ? ref_tol_product(a->dtype, a->out.dtype, variant_flags)
                                   : ref_tol_of(a->dtype, variant_flags);
    /* the result is stored in the output's dtype: a coarser one than the
     * computation's (a 16-bit output of f32 arithmetic) rounds once more */
    int out_prec = gpuk_dtype_precision(a->out.dtype);
    if (out_prec && ldexp(1.0, -out_prec) > tol.u_out) {
        tol.u_out = ldexp(1.0, -out_prec);
        tol.tiny_out = dtype_tiny(a->out.dtype);
    }
    if (t)
        t->ref(a, &tol, ref, bound);
}

/* ---- comparison ---- */

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
static void cmp_err(ref_cmp *res, int64_t i, ref_real err, double b)
{
    double e = (double)err, ratio = err == 0 ? 0.0 : (b > 0.0 ? e / b : HUGE_VAL);
    if (e > res->max_err)
        res->max_err = e;
    if (ratio > res->worst_ratio) {
        res->worst_ratio = ratio;
        res->worst_bound = b;
    }
    if (!(err <= (ref_real)b))
        cmp_bad(res, i);
}

/* Element i of a and of b have the same bits. */
static int same_bits(gpuk_dtype dt, const void *a, int64_t i, const void *b, int64_t j)
{
    size_t es = gpuk_dtype_size(dt);
    return memcmp((const char *)a + (size_t)i * es, (const char *)b + (size_t)j * es, es) == 0;
}

/* An integer dtype: every element equal, the largest difference noted. */
static void compare_int(gpuk_dtype dt, int64_t n, const void *got, const void *want,
                        const ref_real *ref, ref_cmp *res)
{
    for (int64_t i = 0; i < n; i++) {
        ref_real g = ref_get(dt, got, i), w = ref ? ref[i] : ref_get(dt, want, i);
        if (ref && fabsl(g - w) > res->max_err)
            res->max_err = (double)fabsl(g - w);
        if (g != w)
            cmp_bad(res, i);
    }
    res->worst_ratio = res->bad ? HUGE_VAL : 0.0;
}

void ref_compare(gpuk_dtype dt, int64_t n, const void *got, const ref_real *ref,
                 const double *bound, int exact, ref_cmp *res)
{
    cmp_init(n, res);
    if (gpuk_dtype_precision(dt) == 0) {
        compare_int(dt, n, got, NULL, ref, res);
        return;
    }
    for (int64_t i = 0; i < n; i++) {
        ref_real r = ref[i], g = ref_get(dt, got, i);
        if (isnan(r) || isnan(g)) {
            if (!(isnan(r) && isnan(g)))
                cmp_bad(res, i);
        } else if (exact) {
            unsigned char want[16];
            ref_put(dt, want, 0, r);
            if (!same_bits(dt, got, i, want, 0))
                cmp_bad(res, i);
        } else if (ref_isinf(r) || ref_isinf(g)) {
            if (r != g)
                cmp_bad(res, i);
        } else {
            cmp_err(res, i, fabsl(g - r), bound[i]);
        }
    }
}

void ref_compare_pair(gpuk_dtype dt, int64_t n, const void *a, const void *b,
                      const double *bound_a, const double *bound_b, int exact, ref_cmp *res)
{
    cmp_init(n, res);
    if (gpuk_dtype_precision(dt) == 0) {
        compare_int(dt, n, a, b, NULL, res);
        return;
    }
    for (int64_t i = 0; i < n; i++) {
        ref_real x = ref_get(dt, a, i), y = ref_get(dt, b, i);
        if (isnan(x) || isnan(y)) {
            if (!(isnan(x) && isnan(y)))
                cmp_bad(res, i);
        } else if (exact) {
            if (!same_bits(dt, a, i, b, i))
                cmp_bad(res, i);
        } else if (ref_isinf(x) || ref_isinf(y)) {
            if (x != y)
                cmp_bad(res, i);
        } else {
            cmp_err(res, i, fabsl(x - y), bound_a[i] + bound_b[i]);
        }
    }
}

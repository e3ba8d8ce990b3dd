/*
 * ref.c - float64 reference and error bounds (see ref.h).
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

static double floor_abs(int64_t k)
{
    return (double)(2 * k + 2) * 0x1p-149;
}

/* The bound of one output that is a k-term sum whose terms have absolute
 * sum abssum and whose exact value is r. */
static double sum_bound(int64_t k, double abssum, double r, double u)
{
    return sum_coef(k, u) * abssum + u * fabs(r) + floor_abs(k);
}

/* One correctly rounded operation (add, scale, bias add): u |r| is the
 * whole story; c keeps the same margin as the sums. */
static double one_op_bound(double r, double u)
{
    return REF_C * u * fabs(r) + floor_abs(1);
}

/* ---- products ---- */

/* Matmul: K products plus the bias as one more addend (whether the kernel
 * starts its accumulator from the bias or adds it last). */
void ref_matmul(int64_t m, int64_t k, int64_t n, const float *a, const float *b,
                const float *bias, double u, double *ref, double *bound)
{
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double s = bias ? bias[j] : 0.0, abss = bias ? fabs(bias[j]) : 0.0;
            for (int64_t p = 0; p < k; p++) {
                double t = (double)a[i * k + p] * b[p * n + j];
                s += t;
                abss += fabs(t);
            }
            ref[i * n + j] = s;
            bound[i * n + j] = sum_bound(k + (bias ? 1 : 0), abss, s, u);
        }
}

void ref_batched_matmul(int64_t bc, int64_t ba, int64_t bb, int64_t m, int64_t k,
                        int64_t n, const float *a, const float *b, double u,
                        double *ref, double *bound)
{
    for (int64_t z = 0; z < bc; z++)
        ref_matmul(m, k, n, a + (ba == 1 ? 0 : z) * m * k, b + (bb == 1 ? 0 : z) * k * n,
                   NULL, u, ref + z * m * n, bound + z * m * n);
}

/* Min-plus is exact: one float add, then min, which never rounds.  The
 * double sum rounded to float equals the float sum (double has more than
 * 2*24+2 bits, so rounding twice is innocuous for +). */
void ref_minplus(int64_t m, int64_t k, int64_t n, const float *a, const float *b,
                 double *ref, double *bound)
{
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            float best = INFINITY;
            for (int64_t p = 0; p < k; p++) {
                float t = (float)((double)a[i * k + p] + (double)b[p * n + j]);
                /* NaN sums are skipped (as fmin does); of +0 and -0, -0 is
                 * the smaller (IEEE 754-2019 minimum), whatever the order */
                if (t < best || (t == 0.0f && best == 0.0f && signbit(t)))
                    best = t;
            }
            ref[i * n + j] = best;
            bound[i * n + j] = 0.0;
        }
}

void ref_transpose(int64_t m, int64_t n, const float *x, double *ref, double *bound)
{
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            ref[j * m + i] = x[i * n + j];
            bound[j * m + i] = 0.0;
        }
}

/* ---- reductions ---- */

/* Sum: len terms, gamma_len (products are absent, so this is generous by
 * one).  Mean: the sum, then a division by len or a multiply by a rounded
 * 1/len, two more roundings: gamma_{len+2} of sum |x| / len.  A mean over
 * nothing is NaN (gpuk.h). */
void ref_reduce(int kind, int ndim, const int64_t *shape, int axis, const float *x,
                double u, double *ref, double *bound)
{
    int64_t outer = 1, inner = 1, len = shape[axis];
    for (int d = 0; d < axis; d++)
        outer *= shape[d];
    for (int d = axis + 1; d < ndim; d++)
        inner *= shape[d];
    for (int64_t o = 0; o < outer; o++)
        for (int64_t i = 0; i < inner; i++) {
            double s = 0.0, abss = 0.0;
            for (int64_t l = 0; l < len; l++) {
                double v = x[(o * len + l) * inner + i];
                s += v;
                abss += fabs(v);
            }
            int64_t q = o * inner + i;
            if (kind == 0) {
                ref[q] = s;
                bound[q] = sum_bound(len, abss, s, u);
            } else if (len == 0) {
                ref[q] = NAN;
                bound[q] = 0.0;
            } else {
                ref[q] = s / (double)len;
                bound[q] = sum_bound(len + 2, abss / (double)len, ref[q], u);
            }
        }
}

/* Mean pool is a mean over the middle axis of x[b,t,d]. */
void ref_meanpool(int64_t b, int64_t t, int64_t d, const float *x, double u,
                  double *ref, double *bound)
{
    int64_t shape[3] = { b, t, d };
    ref_reduce(1, 3, shape, 1, x, u, ref, bound);
}

/* ---- elementwise ---- */

void ref_add(int64_t n, const float *x, const float *y, double u, double *ref,
             double *bound)
{
    for (int64_t i = 0; i < n; i++) {
        ref[i] = (double)x[i] + (double)y[i];
        bound[i] = one_op_bound(ref[i], u);
    }
}

void ref_scale(int64_t n, float alpha, const float *x, double u, double *ref,
               double *bound)
{
    for (int64_t i = 0; i < n; i++) {
        ref[i] = (double)alpha * (double)x[i];
        bound[i] = one_op_bound(ref[i], u);
    }
}

/* relu(x) = x < 0 ? 0 : x: NaN and -0 pass through unchanged. */
void ref_relu(int64_t n, const float *x, double *ref, double *bound)
{
    for (int64_t i = 0; i < n; i++) {
        ref[i] = x[i] < 0.0f ? 0.0 : (double)x[i];
        bound[i] = 0.0;
    }
}

/* max(x + b, 0): one rounded add; a nonzero float sum never rounds to 0
 * or across it, so the max adds no error. */
void ref_bias_relu(int64_t rows, int64_t n, const float *x, const float *bias,
                   double u, double *ref, double *bound)
{
    for (int64_t r = 0; r < rows; r++)
        for (int64_t j = 0; j < n; j++) {
            double s = (double)x[r * n + j] + (double)bias[j];
            ref[r * n + j] = s < 0.0 ? 0.0 : s;   /* as relu: NaN and -0 pass */
            bound[r * n + j] = one_op_bound(ref[r * n + j], u);
        }
}

void ref_copy(int64_t n, const float *x, double *ref, double *bound)
{
    for (int64_t i = 0; i < n; i++) {
        ref[i] = x[i];
        bound[i] = 0.0;
    }
}

/* Softmax of a row, out_j = e_j / S with e_j = exp(x_j - m), m = max x.
 * The max is exact.  fl(x_j - m) is off by at most u R absolutely, R the
 * row's range max|x_j - m|, which exp turns into a relative error u R;
 * expf itself is within 2 ulp (4u).  All e_j are positive, so their sum
 * carries the largest term error plus gamma_n; the division adds u (2u if
 * done as a multiply by 1/S).  So out_j is within
 *   gamma_n + u (2R + 10)
 * relatively; an implementation through log S (exp(x_j - m - log S)) adds
 * about 2u ln n, which we include.  With c on top. */
void ref_softmax(int64_t rows, int64_t n, const float *x, double u, double *ref,
                 double *bound)
{
    for (int64_t r = 0; r < rows; r++) {
        const float *xr = x + r * n;
        double m = -HUGE_VAL, lo = HUGE_VAL, s = 0.0;
        for (int64_t j = 0; j < n; j++) {
            m = xr[j] > m ? xr[j] : m;
            lo = xr[j] < lo ? xr[j] : lo;
        }
        for (int64_t j = 0; j < n; j++)
            s += exp((double)xr[j] - m);
        double range = m - lo;
        double rel = ref_gamma(n, u) + u * (2.0 * range + 2.0 * log((double)n + 1.0) + 10.0);
        for (int64_t j = 0; j < n; j++) {
            double v = exp((double)xr[j] - m) / s;
            ref[r * n + j] = v;
            /* an exact 0 (from -inf) has no relative error: 0 * rel, not
             * 0 * inf when the range is infinite */
            bound[r * n + j] = (v == 0.0 ? 0.0 : REF_C * rel * v) + floor_abs(n);
        }
    }
}

void ref_embedding(int64_t V, int64_t d, const float *table, int64_t T,
                   const int32_t *ids, double *ref, double *bound)
{
    (void)V;
    for (int64_t t = 0; t < T; t++)
        for (int64_t j = 0; j < d; j++) {
            ref[t * d + j] = table[(int64_t)ids[t] * d + j];
            bound[t * d + j] = 0.0;
        }
}

/* ---- sparse and BLAS-shaped ---- */

/* Row i is a sum of nnz_i products. */
void ref_spmv(int64_t rows, const int32_t *row_ptr, const int32_t *col_idx,
              const float *vals, const float *x, double u, double *ref, double *bound)
{
    for (int64_t i = 0; i < rows; i++) {
        double s = 0.0, abss = 0.0;
        for (int32_t p = row_ptr[i]; p < row_ptr[i + 1]; p++) {
            double t = (double)vals[p] * x[col_idx[p]];
            s += t;
            abss += fabs(t);
        }
        ref[i] = s;
        bound[i] = sum_bound(row_ptr[i + 1] - row_ptr[i], abss, s, u);
    }
}

void ref_dot(int64_t n, const float *x, const float *y, double u, double *ref,
             double *bound)
{
    double s = 0.0, abss = 0.0;
    for (int64_t i = 0; i < n; i++) {
        double t = (double)x[i] * y[i];
        s += t;
        abss += fabs(t);
    }
    ref[0] = s;
    bound[0] = sum_bound(n, abss, s, u);
}

/* alpha * (sum of K products) + beta * y0: the product path meets K
 * roundings in the sum, one for alpha and one for the final add (K + 2);
 * the beta path fewer.  So gamma_{K+2} of |alpha| sum|a x| + |beta y0|,
 * whatever order a library uses (alpha folded into the products, or beta
 * applied first). */
static void blas_entry(double s, double abss, int64_t k, float alpha, float beta,
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
    *bound = sum_bound(k + 2, mag, r, u) + (a > 1.0 ? (a - 1.0) * floor_abs(k + 2) : 0.0);
}

void ref_gemv(int trans, int64_t m, int64_t n, float alpha, const float *a,
              const float *x, float beta, const float *y0, double u, double *ref,
              double *bound)
{
    int64_t rows = trans ? n : m, len = trans ? m : n;
    for (int64_t i = 0; i < rows; i++) {
        double s = 0.0, abss = 0.0;
        for (int64_t p = 0; p < len; p++) {
            double av = trans ? a[p * n + i] : a[i * n + p];
            double t = av * x[p];
            s += t;
            abss += fabs(t);
        }
        blas_entry(s, abss, len, alpha, beta, y0 + i, u, ref + i, bound + i);
    }
}

void ref_gemm(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, float alpha,
              const float *a, const float *b, float beta, const float *c0, double u,
              double *ref, double *bound)
{
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double s = 0.0, abss = 0.0;
            for (int64_t p = 0; p < k; p++) {
                double av = trans_a ? a[p * m + i] : a[i * k + p];
                double bv = trans_b ? b[j * k + p] : b[p * n + j];
                s += av * bv;
                abss += fabs(av * bv);
            }
            blas_entry(s, abss, k, alpha, beta, c0 + i * n + j, u, ref + i * n + j,
                       bound + i * n + j);
        }
}

/* ---- any op, from its operands ---- */

static int64_t numel_of(const ref_operand *t)
{
    int64_t n = 1;
    for (int d = 0; d < t->ndim; d++)
        n *= t->shape[d];
    return n;
}

/* No default case: a row added to GPUK_OP_MAP without a reference here is
 * a -Wswitch warning. */
void ref_op(const ref_args *a, double u, double *ref, double *bound)
{
    const ref_operand *x = &a->in[0], *y = &a->in[1], *out = &a->out;
    const float *x0 = x->vals, *x1 = y->vals, *y0 = out->vals;
    const int64_t *s0 = x->shape;
    int64_t n = numel_of(out), last = x->ndim > 0 ? s0[x->ndim - 1] : 0;
    switch (a->op) {
    case GPUK_OP_MATMUL:
        ref_matmul(s0[0], s0[1], y->shape[1], x0, x1, a->in[2].vals, u, ref, bound);
        break;
    case GPUK_OP_BATCHED_MATMUL:
        ref_batched_matmul(out->shape[0], s0[0], y->shape[0], s0[1], s0[2], y->shape[2], x0, x1,
                           u, ref, bound);
        break;
    case GPUK_OP_MINPLUS: ref_minplus(s0[0], s0[1], y->shape[1], x0, x1, ref, bound); break;
    case GPUK_OP_TRANSPOSE: ref_transpose(s0[0], s0[1], x0, ref, bound); break;
    case GPUK_OP_REDUCE: ref_reduce(a->kind, x->ndim, s0, a->axis, x0, u, ref, bound); break;
    case GPUK_OP_ADD: ref_add(n, x0, x1, u, ref, bound); break;
    case GPUK_OP_SCALE: ref_scale(n, a->alpha, x0, u, ref, bound); break;
    case GPUK_OP_RELU: ref_relu(n, x0, ref, bound); break;
    case GPUK_OP_BIAS_RELU: ref_bias_relu(last ? n / last : 0, last, x0, x1, u, ref, bound); break;
    case GPUK_OP_COPY: ref_copy(n, x0, ref, bound); break;
    case GPUK_OP_SOFTMAX: ref_softmax(last ? n / last : 0, last, x0, u, ref, bound); break;
    case GPUK_OP_EMBEDDING:
        ref_embedding(s0[0], s0[1], x0, numel_of(y), y->vals, ref, bound);
        break;
    case GPUK_OP_MEANPOOL: {
        int64_t b = 1;   /* [b..., t, d]: every dimension before the last two */
        for (int d = 0; d < x->ndim - 2; d++)
            b *= s0[d];
        ref_meanpool(b, s0[x->ndim - 2], last, x0, u, ref, bound);
        break;
    }
    case GPUK_OP_SPMV:
        ref_spmv(a->rows, a->row_ptr, a->col_idx, a->values, x0, u, ref, bound);
        break;
    case GPUK_OP_DOT: ref_dot(s0[0], x0, x1, u, ref, bound); break;
    case GPUK_OP_GEMV:
        ref_gemv(a->trans_a, s0[0], s0[1], a->alpha, x0, x1, a->beta, y0, u, ref, bound);
        break;
    case GPUK_OP_GEMM:
        ref_gemm(a->trans_a, a->trans_b, out->shape[0], out->shape[1],
                 a->trans_a ? s0[0] : s0[1], a->alpha, x0, x1, a->beta, y0, u, ref, bound);
        break;
    }
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

/*
 * ref.h - the float64 reference of every libgpuk op, for the tests.
 *
 * Each function takes dense row-major host arrays and writes, per output
 * element, the exact-as-double result ref[i] and the error a correct FP32
 * (or TF32) implementation may make, bound[i] (the c * gamma_K policy of
 * doc/design.md, "Tolerances"; the derivations are next to each function
 * in ref.c).  For the ops the catalogue of gpuk.h marks exact
 * (gpuk_op_exact), ref rounded to float is the one float every backend
 * must return; the pure moves (minplus, transpose, copy, embedding, relu)
 * also write bound 0.  u is the unit roundoff of the variant under test
 * (ref_unit_roundoff).
 *
 * ref_op() is the one switch from an op to its reference, for callers
 * that hold a call as operands and scalars (the op suite, the fuzz
 * harness); a new op adds its reference there, in ref.c.
 *
 * This code is independent of every backend: it shares no kernel code
 * with them, so an error common to both cannot hide.
 */
#ifndef GPUK_TEST_REF_H
#define GPUK_TEST_REF_H

#include <stddef.h>
#include <stdint.h>

#include <gpuk.h>

#define REF_U_FP32 0x1p-24
#define REF_U_TF32 0x1p-11

/* The constant c of the policy's c * gamma_K bound. */
#define REF_C 2.0

/* u for a variant with these GPUK_VARIANT_* flags. */
double ref_unit_roundoff(uint32_t variant_flags);

/* gamma_k = k u / (1 - k u): the relative error bound of a k-term
 * recursive sum; defined only while k u < 1 (else HUGE_VAL). */
double ref_gamma(int64_t k, double u);

/* c[m,n] = a[m,k] b[k,n] (+ bias[n] when bias is not NULL). */
void ref_matmul(int64_t m, int64_t k, int64_t n, const float *a, const float *b,
                const float *bias, double u, double *ref, double *bound);

/* c[bc,m,n] = a[ba,m,k] b[bb,k,n]; ba and bb are 1 (broadcast) or bc. */
void ref_batched_matmul(int64_t bc, int64_t ba, int64_t bb, int64_t m, int64_t k,
                        int64_t n, const float *a, const float *b, double u,
                        double *ref, double *bound);

/* r[i,j] = min_k fl32(a[i,k] + b[k,j]); +inf for k == 0.  Exact. */
void ref_minplus(int64_t m, int64_t k, int64_t n, const float *a, const float *b,
                 double *ref, double *bound);

/* y[n,m] = x[m,n]^T.  Exact. */
void ref_transpose(int64_t m, int64_t n, const float *x, double *ref, double *bound);

/* Sum (kind 0) or mean (kind 1) of x (ndim 1..4) along axis; the output is
 * x's shape without that axis, in row-major order. */
void ref_reduce(int kind, int ndim, const int64_t *shape, int axis, const float *x,
                double u, double *ref, double *bound);

void ref_add(int64_t n, const float *x, const float *y, double u, double *ref,
             double *bound);
void ref_scale(int64_t n, float alpha, const float *x, double u, double *ref,
               double *bound);
/* Exact: x > 0 ? x : +0. */
void ref_relu(int64_t n, const float *x, double *ref, double *bound);
void ref_bias_relu(int64_t rows, int64_t n, const float *x, const float *bias,
                   double u, double *ref, double *bound);
/* Exact. */
void ref_copy(int64_t n, const float *x, double *ref, double *bound);

/* Softmax of each row of x[rows,n]. */
void ref_softmax(int64_t rows, int64_t n, const float *x, double u, double *ref,
                 double *bound);

/* out[t,:] = table[ids[t],:] for table[V,d].  Exact. */
void ref_embedding(int64_t V, int64_t d, const float *table, int64_t T,
                   const int32_t *ids, double *ref, double *bound);

/* out[b,d] = mean over t of x[b,t,d]. */
void ref_meanpool(int64_t b, int64_t t, int64_t d, const float *x, double u,
                  double *ref, double *bound);

/* y[rows] = A x for CSR A. */
void ref_spmv(int64_t rows, const int32_t *row_ptr, const int32_t *col_idx,
              const float *vals, const float *x, double u, double *ref, double *bound);

/* out[0] = x . y */
void ref_dot(int64_t n, const float *x, const float *y, double u, double *ref,
             double *bound);

/* y = alpha op(a) x + beta y0 for a[m,n]; y0 is not read when beta == 0. */
void ref_gemv(int trans, int64_t m, int64_t n, float alpha, const float *a,
              const float *x, float beta, const float *y0, double u, double *ref,
              double *bound);

/* c = alpha op(a) op(b) + beta c0, c[m,n]; a stored [m,k] (or [k,m] when
 * trans_a), b stored [k,n] (or [n,k] when trans_b); c0 not read when
 * beta == 0. */
void ref_gemm(int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, float alpha,
              const float *a, const float *b, float beta, const float *c0, double u,
              double *ref, double *bound);

/* ---- any op, from its operands ---- */

/* One operand: ndim, shape and dense row-major values (f32, or i32 for
 * embedding ids); vals NULL: the operand is absent (matmul's bias). */
typedef struct ref_operand {
    int ndim;
    int64_t shape[4];
    const void *vals;
} ref_operand;

/* A call as ref_op() takes it: the operands in the order of opcall.h,
 * out.vals the output's contents before the call (gemv and gemm read them
 * when beta != 0), the scalars, and spmv's CSR matrix (rows, arrays). */
typedef struct ref_args {
    gpuk_op op;
    ref_operand in[3], out;
    float alpha, beta;
    int trans_a, trans_b, axis, kind;
    int64_t rows;
    const int32_t *row_ptr, *col_idx;
    const float *values;
} ref_args;

/* The reference of a call, sizes taken from the operands' shapes as the
 * library takes them: ref[i], bound[i] for every element of out. */
void ref_op(const ref_args *a, double u, double *ref, double *bound);

/* ---- comparison ---- */

typedef struct ref_cmp {
    int64_t n;          /* elements compared */
    int64_t bad;        /* elements outside the bound (or not bit-identical) */
    int64_t first_bad;  /* index of the first bad element, -1 if none */
    double max_err;     /* largest |got - ref| over finite elements */
    double worst_bound; /* the bound at the element with the largest err/bound */
    double worst_ratio; /* largest err/bound; -1 when no finite element was compared */
} ref_cmp;

/* Compare got[] to ref[] within bound[].  exact: bit-identical to
 * (float)ref.
 * A NaN ref wants a NaN; an infinite ref wants the same infinity; a finite
 * ref wants a finite got within the bound. */
void ref_compare(int64_t n, const float *got, const double *ref, const double *bound,
                 int exact, ref_cmp *res);

/* Compare two backends' outputs: exact (bitwise; any NaN equals any NaN)
 * or within bound_a[i] + bound_b[i]. */
void ref_compare_pair(int64_t n, const float *a, const float *b, const double *bound_a,
                      const double *bound_b, int exact, ref_cmp *res);

#endif

/*
 * ref.h - the float64 reference of every libgpuk op, for the tests.
 *
 * A reference takes dense row-major host arrays and writes, per output
 * element, the exact-as-double result ref[i] and the error a correct FP32
 * (or TF32) implementation may make, bound[i] (the c * gamma_K policy of
 * doc/design.md, "Tolerances"; the derivations are next to each op's
 * reference).  For the ops the catalogue of gpuk.h marks exact
 * (gpuk_op_exact), ref rounded to float is the one float every backend
 * must return; the pure moves (minplus, transpose, copy, embedding, relu)
 * also write bound 0.  u is the unit roundoff of the variant under test
 * (ref_unit_roundoff).
 *
 * Each op's reference lives in its family file under tests/ops/ (its
 * descriptor's `ref`, see optest.h), next to the derivation of its bound;
 * this file has what they share.  ref_op() takes a call as operands and
 * scalars (the op suite, the fuzz harness, the thread test) and hands it
 * to the op's reference.
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

/* ---- the parts of a bound (doc/design.md, "Tolerances") ---- */

/* The bound of one output that is a k-term sum whose terms have absolute
 * sum abssum and whose exact value is r: c gamma_k abssum + u |r| + the
 * underflow floor. */
double ref_sum_bound(int64_t k, double abssum, double r, double u);
/* One correctly rounded operation (an add, a scale, a bias add). */
double ref_one_op_bound(double r, double u);
/* (2k + 2) 2^-149: what k products and sums that underflow may lose. */
double ref_floor_abs(int64_t k);
/* One output of a BLAS-shaped op, alpha * s + beta * y0, where s is a sum
 * of k products with absolute sum abssum: the value and its bound (gemv
 * and gemm; y0 is not read when beta == 0, s not when alpha == 0). */
void ref_blas_entry(double s, double abssum, int64_t k, float alpha, float beta,
                    const float *y0, double u, double *ref, double *bound);

/* ---- any op, from its operands ---- */

/* One operand: ndim, shape and dense row-major values (f32; i32 for
 * embedding ids and for every operand of an i32 op, see ref_args.dtype);
 * vals NULL: the operand is absent (matmul's bias). */
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
    gpuk_dtype dtype;   /* the op's dtype (its lead operand's); 0 means f32 */
} ref_args;

/* The reference of a call, sizes taken from the operands' shapes as the
 * library takes them: ref[i], bound[i] for every element of out.  An op
 * outside the catalogue writes nothing. */
void ref_op(const ref_args *a, double u, double *ref, double *bound);

/* Elements of an operand (the product of its shape). */
int64_t ref_numel(const ref_operand *t);

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

/* The same for i32 outputs (n int32 values at got, a, b; no alignment
 * needed), always exact, as an integer op has no rounding: got[i] must
 * equal ref[i], an integer the double holds exactly; a[i] must equal
 * b[i].  max_err is the largest |got - ref| (0 for the pair). */
void ref_compare_i32(int64_t n, const void *got, const double *ref, ref_cmp *res);
void ref_compare_pair_i32(int64_t n, const void *a, const void *b, ref_cmp *res);
/* Element i of an i32 array held in a buffer of another type. */
int32_t ref_i32_at(const void *v, int64_t i);

#endif

/*
 * ref.h - the reference of every libgpuk op, for the tests.
 *
 * A reference takes dense row-major host arrays of any dtype and writes,
 * per output element, the reference value ref[i] and the error a correct
 * implementation in that dtype may make, bound[i] (the c * gamma_K policy
 * of doc/design.md, "Tolerances", with the unit roundoff of the dtype
 * under test; the derivations are next to each op's reference).  For the
 * ops the catalogue of gpuk.h marks exact (gpuk_op_exact), ref rounded to
 * the output's dtype is the one value every backend must return, compared
 * bit for bit; the pure moves (minplus, transpose, copy, embedding, relu)
 * and cast (whose reference is its input, rounded by the comparison) also
 * write bound 0.
 *
 * The reference is more precise than the type under test (issue 26):
 * operands are read as ref_real (long double) and sums accumulate in it,
 * so an f64 sum is checked against a value carrying 11 more bits than f64
 * has.  The exact ops are the exception on purpose: their one rounding is
 * done in the dtype itself (ref_add1, ref_mul1), since rounding a wider
 * result a second time can differ from rounding the exact one once.
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

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <gpuk.h>

/* ---- the reference's arithmetic ----
 *
 * ref_real is long double.  On x86-64 (LDBL_MANT_DIG 64) that is the x87
 * extended format, u = 2^-64: a K-term sum of f64 products accumulated in
 * it is off by at most about K 2^-64 of sum |t|, 2^-11 of what the f64
 * bound allows, so REF_WIDE picks the plain sum.  Where long double is no
 * wider than double (some ABIs make it double), REF_WIDE is 0 and the
 * accumulator below switches to a compensated sum with exact products
 * (TwoSum, and fmal for each product's rounding error): double-double
 * accuracy until the value is read, which then rounds once, an error the
 * u |r| term of every bound already allows for. */
typedef long double ref_real;
#ifndef REF_WIDE /* -DREF_WIDE=0 tries the compensated sums on x86-64 too */
#define REF_WIDE (LDBL_MANT_DIG >= DBL_MANT_DIG + 8)
#endif

/* The exact ops round once in the dtype's own arithmetic (ref_add1): that
 * needs C to evaluate float and double expressions in their own types. */
#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "the references need FLT_EVAL_METHOD 0 (SSE arithmetic, not x87)"
#endif

/* isinf and isfinite of a ref_real, by comparisons that hold wherever
 * long double is emulated as double: GCC's builtins compare |x| with
 * LDBL_MAX, which valgrind's 64-bit x87 rounds to infinity, so under make
 * check-valgrind every infinity would look finite.  (isnan, x != x, holds
 * there.) */
static inline int ref_isinf(ref_real x)
{
    return fabsl(x) == (ref_real)INFINITY;
}

static inline int ref_isfinite(ref_real x)
{
    return x - x == 0;
}

/* A sum under way: its value s (+ c, the compensation, where REF_WIDE is
 * 0) and abs, the sum of the terms' magnitudes that the bound scales. */
typedef struct ref_acc {
    ref_real s, c, abs;
} ref_acc;

static inline ref_acc ref_acc_start(ref_real first)
{
    ref_acc a = { first, 0.0L, fabsl(first) };
    return a;
}

static inline void ref_acc_add(ref_acc *a, ref_real t)
{
#if REF_WIDE
    a->s += t;
#else
    ref_real s = a->s + t, bp = s - a->s;
    a->c += (a->s - (s - bp)) + (t - bp);
    a->s = s;
#endif
    a->abs += fabsl(t);
}

/* The term x * y. */
static inline void ref_acc_prod(ref_acc *a, ref_real x, ref_real y)
{
    ref_real p = x * y;
#if !REF_WIDE
    if (ref_isfinite(p))
        a->c += fmal(x, y, -p);
#endif
    ref_acc_add(a, p);
}

/* The sum's value; an infinite or NaN running sum is the answer as it is
 * (its compensation would only turn inf into NaN). */
static inline ref_real ref_acc_value(const ref_acc *a)
{
    return ref_isfinite(a->s) ? a->s + a->c : a->s;
}

/* ---- elements of any dtype ---- */

/* Element i of v, an array of dtype dt, as ref_real (exact for every
 * dtype of GPUK_DTYPE_MAP: each fits a long double's significand and
 * exponent). */
ref_real ref_get(gpuk_dtype dt, const void *v, int64_t i);
/* Store x, rounded to nearest (ties to even) in dt, as element i of v.
 * i32 takes an integer value (it is exact there). */
void ref_put(gpuk_dtype dt, void *v, int64_t i, ref_real x);
/* x rounded to dt and back: the value dt holds nearest to x. */
ref_real ref_round(gpuk_dtype dt, ref_real x);
/* x + y and x * y of two values of dt, rounded once as dt's own operation
 * rounds them (f32: the float operation, f64: the double one; f16 and
 * bf16 through float, whose 24 bits are enough for one innocuous double
 * rounding; i32: two's complement, wrapped). */
ref_real ref_add1(gpuk_dtype dt, ref_real x, ref_real y);
ref_real ref_mul1(gpuk_dtype dt, ref_real x, ref_real y);
/* Elements n of dt in a new ref_real array (NULL vals: NULL). */
ref_real *ref_load(gpuk_dtype dt, const void *vals, int64_t n);
/* The rows x cols matrix m transposed, in a new array: the references of
 * the products read both operands in order (the largest cases multiply
 * 30 million pairs of long doubles). */
ref_real *ref_transposed(const ref_real *m, int64_t rows, int64_t cols);

/* ---- tolerances (doc/design.md, "Tolerances") ---- */

/* The constant c of the policy's c * gamma_K bound. */
#define REF_C 2.0

/* What the bound of one (dtype, rung) needs. */
typedef struct ref_tol {
    gpuk_dtype dtype;
    double u;      /* the rung's unit roundoff: 2^-prec of the dtype, 2^-11 for a TF32 rung,
                    * f32's for f16 and bf16, which compute in f32 */
    double u_acc;  /* the unit roundoff sums are added in: the dtype's own (a TF32 rung
                    * still adds in f32), f32's for f16 and bf16 */
    double u_out;  /* the rounding of the stored result: u, or the output dtype's own
                    * where that is coarser (a 16-bit output of an f32 computation) */
    double tiny;   /* the dtype's smallest subnormal (2^-149, 2^-1074): the underflow floor */
    double tiny_out; /* with u_out above u, the output dtype's smallest subnormal: what
                      * that last rounding may lose near 0; else 0 */
} ref_tol;

/* The tolerances of a rung with these GPUK_VARIANT_* flags computing in
 * dt: u = 2^-gpuk_dtype_precision(dt), or 2^-11 for a TF32 rung of f32,
 * or f32's 2^-24 for f16 and bf16 with u_out their own 2^-prec (the one
 * rounding of the result); u = 0 for an integer dtype (compared exactly).
 * ref_op() sets u_out from the call's output dtype. */
ref_tol ref_tol_of(gpuk_dtype dt, uint32_t variant_flags);

/* The tolerances of a matrix product (matmul, batched matmul, gemm) whose
 * inputs are dt and output out (gpuk_args of ABI 2.4): for f16 and bf16
 * inputs the products are exact in f32 and accumulate there, so the sum
 * has f32's bound (u = u_acc = 2^-24, f32's underflow floor); an output in
 * the inputs' dtype adds one rounding to it (u_out, tiny_out; see
 * ref_sum_bound).  Any other dt: ref_tol_of(dt, variant_flags). */
ref_tol ref_tol_product(gpuk_dtype dt, gpuk_dtype out, uint32_t variant_flags);

/* gamma_k = k u / (1 - k u): the relative error bound of a k-term
 * recursive sum; defined only while k u < 1 (else HUGE_VAL). */
double ref_gamma(int64_t k, double u);

/* The bound of one output that is a k-term sum whose terms have absolute
 * sum abssum and whose exact value is r: c gamma_k abssum + u |r| + the
 * underflow floor (E); with u_out, the rounding of that result to the
 * output's dtype on top: E + u_out (|r| + E) + tiny_out. */
double ref_sum_bound(const ref_tol *t, int64_t k, ref_real abssum, ref_real r);
/* One correctly rounded operation (an add, a scale, a bias add). */
double ref_one_op_bound(const ref_tol *t, ref_real r);
/* (2k + 2) tiny: what k products and sums that underflow may lose. */
double ref_floor_abs(const ref_tol *t, int64_t k);
/* One output of a BLAS-shaped op, alpha * s + beta * y0, where s is a sum
 * of k products: the value and its bound (gemv and gemm; y0 is not read
 * when beta == 0, s not when alpha == 0).  alpha and beta are as the
 * op's dtype takes them (ref_scalar). */
void ref_blas_entry(const ref_tol *t, const ref_acc *s, int64_t k, ref_real alpha,
                    ref_real beta, const ref_real *y0, ref_real *ref, double *bound);
/* A scalar of the public API (a double) as an op of dtype dt takes it:
 * rounded to f32 for an f32 op (gpuk_args.alpha), whole for f64
 * (gpuk_args.alpha_f64). */
ref_real ref_scalar(gpuk_dtype dt, double v);

/* ---- any op, from its operands ---- */

/* One operand: dtype, ndim, shape and dense row-major values; vals NULL:
 * the operand is absent (matmul's bias). */
typedef struct ref_operand {
    int ndim;
    int64_t shape[4];
    const void *vals;
    gpuk_dtype dtype;
} ref_operand;

/* A call as ref_op() takes it: the operands in the order of opcall.h,
 * out.vals the output's contents before the call (gemv and gemm read them
 * when beta != 0), the scalars, and spmv's CSR matrix (rows, arrays; its
 * values of the op's dtype). */
typedef struct ref_args {
    gpuk_op op;
    ref_operand in[3], out;
    double alpha, beta;
    int trans_a, trans_b, axis, kind;
    int64_t rows;
    const int32_t *row_ptr, *col_idx;
    const void *values;
    gpuk_dtype dtype;   /* the op's dtype (its lead operand's) */
} ref_args;

/* The reference of a call, sizes taken from the operands' shapes as the
 * library takes them, for a rung with these GPUK_VARIANT_* flags: ref[i],
 * bound[i] for every element of out.  An op outside the catalogue writes
 * nothing. */
void ref_op(const ref_args *a, uint32_t variant_flags, ref_real *ref, double *bound);

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

/* Compare got[] (n elements of dt) to ref[] within bound[].  exact: the
 * bits of ref rounded to dt.  A NaN ref wants a NaN (any NaN); an infinite
 * ref wants the same infinity; a finite ref wants a finite got within the
 * bound.  An integer dtype is always compared exactly (max_err is then
 * the largest |got - ref|). */
void ref_compare(gpuk_dtype dt, int64_t n, const void *got, const ref_real *ref,
                 const double *bound, int exact, ref_cmp *res);

/* Compare two backends' outputs (n elements of dt): exact (bitwise; any
 * NaN equals any NaN; always for an integer dtype) or within bound_a[i] +
 * bound_b[i]. */
void ref_compare_pair(gpuk_dtype dt, int64_t n, const void *a, const void *b,
                      const double *bound_a, const double *bound_b, int exact, ref_cmp *res);

#endif

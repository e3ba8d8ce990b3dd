/*
 * opcases.h - the cases of the op suite: shapes, layouts and inputs of
 * every op in every dtype the tests know it in, generated from a seed, and
 * their reference (ref.h).  The runner (opsuite.c) places them in guarded
 * storage on a backend and compares.  Each op's table of cases is in its
 * family file under tests/ops/ (its descriptor's `cases`, see optest.h),
 * written once for every float dtype: the dtype is a parameter of the
 * builder, and the helpers below draw and place values of any dtype.
 */
#ifndef GPUK_TEST_OPCASES_H
#define GPUK_TEST_OPCASES_H

#include <stddef.h>
#include <stdint.h>

#include <gpuk.h>

#include "ref.h"

/* Where a tensor sits in its storage (see oc_arg_set). */
enum { OC_DENSE, OC_OFF1, OC_STRIDED, OC_PAD4 };

#define OC_GUARD_BACK 16 /* elements of guard after every view */

/* One tensor operand: its view (shape, strides, offset = front) inside a
 * 1-D storage of `storage` elements. */
typedef struct oc_arg {
    gpuk_dtype dtype;
    int ndim;
    int64_t shape[GPUK_MAX_DIMS], stride[GPUK_MAX_DIMS];
    int64_t front, storage, numel;
    int alias;  /* index of the input whose tensor this is; -1: its own storage */
    void *vals; /* numel dense values of dtype; for an output its initial contents, NULL:
                 * poison */
} oc_arg;

/* One call of one op. */
typedef struct oc_case {
    gpuk_op op;
    char label[96]; /* shape and layout, e.g. "7x33x5 bias strided" */
    int n_in;
    int exact;      /* gpuk_op_exact(op): compared bit for bit, not within a bound */
    oc_arg in[3], out;
    double alpha, beta;          /* as the public API takes them (ref_scalar rounds) */
    int ta, tb, axis, kind;
    int64_t bc, ba, bb, m, k, n; /* the sizes the reference takes */
    int64_t rows, cols, nnz;     /* SPMV: the CSR matrix */
    int32_t *rp, *ci;
    void *cv;                    /* its values, of the case's dtype */
    ref_real *ref[2];            /* [0] at the dtype's u, [1] at the TF32 u (oc_ref) */
    double *bound[2];
    void *cpu_out;               /* the runner's copy of the CPU backend's output */
    int cpu_tried;
} oc_case;

/* malloc that bails out of the TAP run when the host has no memory. */
void *oc_alloc(size_t n);

/* The dtype a case computes in: its lead operand's (gpuk.h). */
gpuk_dtype oc_dtype(const oc_case *c);

/* Case number idx of op in dtype dt, inputs drawn from seed (mixed with
 * op, dt and idx, so a case does not depend on the ones before it).
 * Returns 0 past the last case, and at once for a dtype the op's
 * descriptor has no cases in. */
int oc_build(gpuk_op op, gpuk_dtype dt, int idx, uint64_t seed, oc_case *c);

/* Fill c->ref[tf], c->bound[tf] (tf: the variant computes in TF32). */
void oc_ref(oc_case *c, int tf);

void oc_free(oc_case *c);

/* Storage element of the view's row-major element lin. */
int64_t oc_arg_pos(const oc_arg *t, int64_t lin);

const char *oc_layout_name(int layout);

/* ---- for the case builders of the family files ---- */

/* splitmix64: the next word of the stream *s. */
uint64_t oc_rng(uint64_t *s);
/* A magnitude in [2^-10, 1) with a random sign, with a double's 53 bits:
 * never zero, never tiny. */
double oc_rnd(uint64_t *s);
/* The same rounded to f32 (the values every f32 case has always drawn). */
float oc_rnd_f(uint64_t *s);
/* n values shift + scale * oc_rnd, each rounded to dt and computed in dt
 * (so the f32 values are the ones the f32 cases always had), in a new
 * array of dt. */
void *oc_rnd_vec(uint64_t *s, gpuk_dtype dt, int64_t n, double scale, double shift);
/* reps copies of one random block of n values (a zero-stride batch). */
void *oc_rnd_rep(uint64_t *s, gpuk_dtype dt, int64_t n, int64_t reps);
/* Overwrite about one element in `every` of v (n elements of dt) with one
 * of the nsp specials. */
void oc_sprinkle(uint64_t *s, gpuk_dtype dt, void *v, int64_t n, int every, const double *sp,
                 int nsp);
/* (Elements of a case's arrays are read and written with ref_get and
 * ref_put of ref.h.) */

/* Place t: shape and vals (NULL for an output: poison) in a storage laid
 * out as layout says (OC_DENSE, OC_OFF1, OC_STRIDED, OC_PAD4; strides only
 * go to operands with 2 dimensions or more). */
void oc_arg_set(oc_arg *t, gpuk_dtype dt, int ndim, const int64_t *shape, int layout,
                void *vals);
/* Recompute t->storage after its strides were changed by hand. */
void oc_arg_span(oc_arg *t);
/* The output is exactly input j (in-place ops). */
void oc_in_place(oc_case *c, int j);
/* "7x33x5" into buf (48 bytes); returns buf. */
const char *oc_shape_str(char *buf, int nd, const int64_t *sh);

#endif

/*
 * opcases.h - the cases of the op suite: shapes, layouts and inputs of
 * every op, generated from a seed, and their float64 reference.  The
 * runner (opsuite.c) places them in guarded storage on a backend and
 * compares.  Each op's table of cases is in its family file under
 * tests/ops/ (its descriptor's `cases`, see optest.h); this is the frame
 * they share and the helpers they build with.
 */
#ifndef GPUK_TEST_OPCASES_H
#define GPUK_TEST_OPCASES_H

#include <stddef.h>
#include <stdint.h>

#include <gpuk.h>

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
    void *vals; /* numel dense values; for an output its initial contents, NULL: poison */
} oc_arg;

/* One call of one op. */
typedef struct oc_case {
    gpuk_op op;
    char label[96]; /* shape and layout, e.g. "7x33x5 bias strided" */
    int n_in;
    int exact;      /* gpuk_op_exact(op): compared bit for bit, not within a bound */
    oc_arg in[3], out;
    float alpha, beta;
    int ta, tb, axis, kind;
    int64_t bc, ba, bb, m, k, n; /* the sizes the reference takes */
    int64_t rows, cols, nnz;     /* SPMV: the CSR matrix */
    int32_t *rp, *ci;
    float *cv;
    double *ref[2], *bound[2]; /* [0] at the FP32 u, [1] at the TF32 u (oc_ref) */
    float *cpu_out;            /* the runner's copy of the CPU backend's output */
    int cpu_tried;
} oc_case;

/* malloc that bails out of the TAP run when the host has no memory. */
void *oc_alloc(size_t n);

/* Case number idx of op, inputs drawn from seed (mixed with op and idx,
 * so a case does not depend on the ones before it).  Returns 0 past the
 * last case. */
int oc_build(gpuk_op op, int idx, uint64_t seed, oc_case *c);

/* Fill c->ref[tf], c->bound[tf] (tf: the variant computes in TF32). */
void oc_ref(oc_case *c, int tf);

void oc_free(oc_case *c);

/* Storage element of the view's row-major element lin. */
int64_t oc_arg_pos(const oc_arg *t, int64_t lin);

const char *oc_layout_name(int layout);

/* ---- for the case builders of the family files ---- */

/* splitmix64: the next word of the stream *s. */
uint64_t oc_rng(uint64_t *s);
/* A magnitude in [2^-10, 1) with a random sign: never zero, never tiny. */
float oc_rnd_f(uint64_t *s);
/* n values shift + scale * oc_rnd_f, in a new array. */
float *oc_rnd_vec(uint64_t *s, int64_t n, float scale, float shift);
/* reps copies of one random block of n values (a zero-stride batch). */
float *oc_rnd_rep(uint64_t *s, int64_t n, int64_t reps);
/* Overwrite about one element in `every` with one of the nsp specials. */
void oc_sprinkle(uint64_t *s, float *v, int64_t n, int every, const float *sp, int nsp);

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

/*
 * optest.h - everything the tests and the fuzz harness know about an op,
 * as one descriptor per op, and the registry of those descriptors.
 *
 * Before, a new op meant a case in seven switches and tables spread over
 * tests/ and fuzz/ (the call, the suite's cases, the reference, the
 * bad-input spec, the shape rules, the empty-tensor cases, the fuzz
 * shapes).  Now each op family has one file under tests/ops/ (mirroring
 * the man pages: matmul.c, minplus.c, transpose.c, reduce.c,
 * elementwise.c, rows.c, spmv.c, blas.c) that holds all of it for its
 * ops, and the generic drivers (opcases.c, ref.c, opsuite.c, t_badops,
 * t_badshape, t_empty, t_threads, fuzz/fz_ops.c, fuzz/fz_slots.c) ask the
 * registry.  The call itself is in the same family file, reached through
 * opcall() (opcall.c says why it is apart from the descriptor).
 *
 * The registry is generated from the catalogue of gpuk.h: every row of
 * GPUK_OP_MAP declares `extern const optest optest_<ID>`, and optest.c
 * takes the address of each.  A row without a descriptor is a link error,
 * so nothing can be forgotten; a descriptor filed under the wrong op, or
 * with a part missing, fails the first check of t_badops.
 *
 * Adding an op to an existing family: its descriptor and call in that
 * family's file, nothing else on the test side.  A new family: a new file
 * (copy the layout of tests/ops/blas.c), its line in OPTEST_FAMILIES of
 * tests/local.mk and its #include in tests/opcall.c.
 */
#ifndef GPUK_TEST_OPTEST_H
#define GPUK_TEST_OPTEST_H

#include <stddef.h>
#include <stdint.h>

#include <gpuk.h>

#include "../fuzz/fz.h"
#include "opcall.h"
#include "opcases.h"
#include "ref.h"

#define OPTEST_MAXARG 4

/* t_badops: one valid call of the op, from which every shared check
 * (NULL, destroyed, foreign, never issued, wrong dtype, wrong rank) is
 * derived.  The tensor arguments are given in opcall_args order (in[0],
 * in[1], ..., the output last). */
typedef struct optest_spec {
    int n;                            /* tensor arguments, the output last */
    const char *arg[OPTEST_MAXARG];   /* their names as gpuk.h gives them */
    gpuk_dtype dt[OPTEST_MAXARG];
    int ndim[OPTEST_MAXARG];
    int64_t shape[OPTEST_MAXARG][GPUK_MAX_DIMS];
    /* for a wrong number of dimensions, the argument the message blames
     * (-1: the argument itself; else the index of the one whose shape
     * then disagrees) */
    int ndim_blame[OPTEST_MAXARG];
    int optional;                     /* index of an argument that may be NULL, or -1 */
    const char *csr;                  /* the name of a CSR argument (opcall_args.csr), or NULL */
} optest_spec;

typedef struct optest {
    gpuk_op op; /* the row of the catalogue this describes (checked by t_badops) */

    /* The op suite (opcases.c): case number idx, inputs drawn from *g; 0
     * past the last case.  c arrives zeroed with op, exact and out.alias
     * set. */
    int (*cases)(oc_case *c, int idx, uint64_t *g);
    /* 1: an output element is an inner loop of c->k steps, so the case's
     * work is outputs x k (GPUK_TEST_QUICK leaves out the large ones) */
    int products;

    /* The float64 reference and its bound, from the operands as the
     * library takes them (ref.c's ref_op, shared by the suite and the
     * fuzz harness): ref[i], bound[i] for every output element. */
    void (*ref)(const ref_args *a, double u, double *ref, double *bound);

    optest_spec spec;                   /* t_badops */
    /* t_badops too: the name of the op's second function on the same
     * arguments, which opcall runs for opcall_args.kind = 1 (min-plus:
     * "minplus_update"), checked as the first is; NULL: the op has one */
    const char *second;
    void (*badshape)(gpuk_context *ctx); /* t_badshape: the op's own rules, REL_EXPECT each */
    void (*empty)(gpuk_context *ctx);   /* t_empty: empty outputs and sums, NaN and inf */

    /* The fuzz harness (fuzz/fz_ops.c).  fuzz builds a valid call from the
     * input bytes (special: the rate of IEEE specials in the inputs);
     * nonzero when a setup failed (fz_fail said why).  fuzz_enum puts one
     * enum or axis of c out of range in *e and returns 1, fuzz_index one
     * index of c's inputs and returns 1 (naming the argument in *blame);
     * both return 0 without reading a byte when there is nothing to
     * break, and are NULL for ops with no such scalar or index. */
    int (*fuzz)(fz *f, fz_call *c, unsigned special);
    int (*fuzz_enum)(fz *f, const fz_call *c, fz_enums *e);
    int (*fuzz_index)(fz *f, fz_call *c, const char **blame);
} optest;

/* One descriptor per row of the catalogue, defined in its family file. */
#define OPTEST_DECLARE_(id, value, name, exact, sum) extern const optest optest_##id;
GPUK_OP_MAP(OPTEST_DECLARE_)
#undef OPTEST_DECLARE_

/* The descriptor of op; NULL for a value outside the catalogue. */
const optest *optest_of(gpuk_op op);

/* ---- shared by the family files' parts for t_empty (optest.c) ---- */

#define OE_MAXN 64          /* output elements one expectation covers */
#define OE_SENT (-12345.0f) /* a finite output sentinel: a forgotten element shows */

/* Each output element's expectation: a value (NaN: any NaN), compared
 * exactly, or within bound where bound > 0; payload: NaNs (and every other
 * element) must carry exactly the bits of src_bits (the moves). */
typedef struct oe_expect {
    int64_t n;
    double v[OE_MAXN], bound[OE_MAXN];
    int payload;
    const float *src_bits;
} oe_expect;

/* An f32 tensor holding vals, or OE_SENT everywhere when vals is NULL;
 * an i32 tensor of n ids.  Both bail out of the test when they fail. */
gpuk_tensor *oe_tensor(gpuk_context *ctx, int nd, const int64_t *shape, const float *vals);
gpuk_tensor *oe_ids(gpuk_context *ctx, int64_t n, const int32_t *vals);
/* op on a, b, c (matmul's bias; NULL for the others) into out, every
 * scalar at its opcall_init value. */
opcall_args oe_call(gpuk_op op, gpuk_tensor *a, gpuk_tensor *b, gpuk_tensor *c, gpuk_tensor *out);
/* Run k on every variant of its op, the output starting as out_init (NULL:
 * OE_SENT) each time, and compare with e (NULL: only the status): one TAP
 * check per variant, "op/variant: label". */
void oe_run(gpuk_context *ctx, const opcall_args *k, const char *label, const float *out_init,
            const oe_expect *e);
void oe_const(oe_expect *e, int64_t n, double v);
void oe_from_ref(oe_expect *e, int64_t n, const double *ref, const double *bound);
/* A quiet NaN with a payload of its own (0x7FC12345), for the moves. */
float oe_nan_payload(void);

/* ---- shared by the family files' parts for t_badshape (optest.c) ---- */

/* The rules every op of one tensor in, one of the same shape out shares
 * (scale, relu, copy, softmax): out of another shape, x or out strided,
 * in place allowed, out overlapping x by all but one element.  Five
 * checks, named after the op. */
void ob_unary_rules(gpuk_context *ctx, gpuk_op op);

#endif

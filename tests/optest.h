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
    /* 1: the arguments may be of different float dtypes (cast): another
     * float dtype is a valid call, only an integer one is refused */
    int mixed;
} optest_spec;

/* The dtypes every float op is tested in (an op's `dtypes`); a float
 * dtype the tests learn is added here, and each op's builder, reference
 * and t_empty part take it as their dtype parameter. */
#define OPTEST_FLOATS (GPUK_DTYPE_BIT(GPUK_F32) | GPUK_DTYPE_BIT(GPUK_F64))
/* The 16-bit floats, which a kernel computes in f32 (gpuk(7), "Element
 * types"): an op lists them beside OPTEST_FLOATS once a backend has rows
 * in them (a backend without is skipped, with the reason). */
#define OPTEST_HALF (GPUK_DTYPE_BIT(GPUK_F16) | GPUK_DTYPE_BIT(GPUK_BF16))

typedef struct optest {
    gpuk_op op; /* the row of the catalogue this describes (checked by t_badops) */
    /* GPUK_DTYPE_BIT of each dtype the op is tested in (the dtype of its
     * lead operand): OPTEST_FLOATS, plus i32 for min-plus.  The op suite,
     * t_empty, t_badops and the fuzz harness walk these; a backend without
     * rows of the op in one of them has that part skipped, with the reason. */
    uint32_t dtypes;

    /* The op suite (opcases.c): case number idx in dtype dt (one of
     * `dtypes`), inputs drawn from *g; 0 past the last case.  c arrives
     * zeroed with op, exact and out.alias set. */
    int (*cases)(oc_case *c, int idx, gpuk_dtype dt, uint64_t *g);
    /* 1: an output element is an inner loop of c->k steps, so the case's
     * work is outputs x k (GPUK_TEST_QUICK leaves out the large ones) */
    int products;

    /* The reference and its bound, from the operands as the library takes
     * them (ref.c's ref_op, shared by the suite and the fuzz harness), for
     * the dtype and rung whose tolerances t gives: ref[i], bound[i] for
     * every output element. */
    void (*ref)(const ref_args *a, const ref_tol *t, ref_real *ref, double *bound);

    optest_spec spec;                   /* t_badops */
    /* t_badops too: the name of the op's second function on the same
     * arguments, which opcall runs for opcall_args.kind = 1 (min-plus:
     * "minplus_update"), checked as the first is; NULL: the op has one */
    const char *second;
    void (*badshape)(gpuk_context *ctx); /* t_badshape: the op's own rules, REL_EXPECT each */
    /* t_empty: empty outputs and sums, NaN and inf, in dtype dt (one of
     * `dtypes`) */
    void (*empty)(gpuk_context *ctx, gpuk_dtype dt);

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
#define OE_SENT (-12345.0L) /* a finite output sentinel: a forgotten element shows */

/* Each output element's expectation: a value (NaN: any NaN), compared
 * exactly, or within bound where bound > 0; payload: every element must
 * carry exactly the bits src[i] has in the dtype (the moves: NaN payloads,
 * -0, subnormals). */
typedef struct oe_expect {
    int64_t n;
    ref_real v[OE_MAXN];
    double bound[OE_MAXN];
    int payload;
    const ref_real *src;
} oe_expect;

/* A tensor of dtype dt holding vals (rounded to dt), or OE_SENT
 * everywhere when vals is NULL; an i32 tensor of n ids.  Both bail out of
 * the test when they fail. */
gpuk_tensor *oe_tensor(gpuk_context *ctx, gpuk_dtype dt, int nd, const int64_t *shape,
                       const ref_real *vals);
gpuk_tensor *oe_ids(gpuk_context *ctx, int64_t n, const int32_t *vals);
/* op on a, b, c (matmul's bias; NULL for the others) into out, every
 * scalar at its opcall_init value. */
opcall_args oe_call(gpuk_op op, gpuk_tensor *a, gpuk_tensor *b, gpuk_tensor *c, gpuk_tensor *out);
/* Run k on every variant of its op in dtype dt, the output starting as
 * out_init (NULL: OE_SENT) each time, and compare with e (NULL: only the
 * status): one TAP check per variant, "op/variant: label" (with the dtype
 * after the op when it is not f32).  A dtype the backend has no variant
 * of the op in is one TAP skip that says so. */
void oe_run(gpuk_context *ctx, const opcall_args *k, gpuk_dtype dt, const char *label,
            const ref_real *out_init, const oe_expect *e);
void oe_const(oe_expect *e, int64_t n, ref_real v);
void oe_from_ref(oe_expect *e, int64_t n, const ref_real *ref, const double *bound);
/* A quiet NaN with a payload of its own (0x7FC12345 as an f32), for the
 * moves: rounded to another dtype it keeps what of the payload fits. */
ref_real oe_nan_payload(void);
/* The smallest subnormal of dt (1e-45 in f32, 5e-324 in f64): moves must
 * keep it. */
ref_real oe_tiny(gpuk_dtype dt);
/* The unit roundoff the t_empty parts compare finite results with: the
 * TF32 one for f32 (every rung's, loosely: those elements only need to be
 * close), the dtype's own otherwise. */
ref_tol oe_tol(gpuk_dtype dt);

/* ---- shared by the family files' parts for t_badshape (optest.c) ---- */

/* The rules every op of one tensor in, one of the same shape out shares
 * (scale, relu, copy, softmax): out of another shape, x or out strided,
 * in place allowed, out overlapping x by all but one element.  Five
 * checks, named after the op. */
void ob_unary_rules(gpuk_context *ctx, gpuk_op op);

#endif

/*
 * opcall.h - one call of any op of gpuk.h, from a struct: the op, its
 * tensors and every scalar any op takes.
 *
 * The op suite, the bad-input and empty-tensor tests, the thread test,
 * the fuzz harness and gpuk-bench each used to carry their own switch from
 * gpuk_op to the API function; they now fill an opcall_args and call
 * opcall(), so the mapping from an op to its call is written once, in the
 * op's family file under tests/ops/ (see opcall.c).  Each caller keeps its
 * own shapes and setup: only the call is shared.
 *
 * Operands go in the order of the op's parameters, the output apart: the
 * first tensor input is in[0], the next in[1], ...; a CSR matrix goes to
 * csr; an optional input left out (matmul's bias) is NULL.  Each op's call
 * in its family file says which parameter each slot is, e.g. for matmul
 * in[0] a, in[1] b, in[2] bias, out c.
 *
 * Scalars are plain ints, not the enums, so a test can pass values outside
 * them (a bad trans or reduce kind) and see the library refuse them.
 *
 * kind is the op's kind: reduce's gpuk_reduce_kind, and for min-plus
 * which of its two functions runs (0 gpuk_minplus, OPCALL_MINPLUS_UPDATE
 * gpuk_minplus_update, r = min(r, a (x) b)).  So every caller that carries
 * a case's kind (the op suite, the reference, the fuzz harness) runs and
 * checks the update through the one descriptor of min-plus.
 */
#ifndef GPUK_TEST_OPCALL_H
#define GPUK_TEST_OPCALL_H

#include <gpuk.h>

typedef struct opcall_args {
    gpuk_op op;
    const gpuk_tensor *in[3];
    gpuk_tensor *out;
    const gpuk_csr *csr;
    double alpha, beta;   /* as gpuk_scale, gpuk_gemv and gpuk_gemm take them */
    int trans_a, trans_b;
    int axis, kind;
} opcall_args;

/* min-plus's kind for gpuk_minplus_update (any nonzero kind calls it) */
#define OPCALL_MINPLUS_UPDATE 1

/* args for op with no operands yet: every tensor NULL, alpha 1, beta 0,
 * no transposes, axis 0, a sum. */
void opcall_init(opcall_args *args, gpuk_op op);

/* Call the op on ctx with variant (NULL or "auto": the default) and
 * return its status; GPUK_ERR_INVALID for an op value outside the
 * catalogue. */
gpuk_status opcall(gpuk_context *ctx, const opcall_args *args, const char *variant);

#endif

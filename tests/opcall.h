/*
 * opcall.h - one call of any op of gpuk.h, from a struct: the op, its
 * tensors and every scalar any op takes.
 *
 * The op suite, the bad-input and empty-tensor tests, the thread test,
 * the fuzz harness and gpuk-bench each used to carry their own switch from
 * gpuk_op to the API function; they now fill an opcall_args and call
 * opcall(), so the mapping from an op to its call is written once.  Each
 * caller keeps its own shapes and setup: only the call is shared.
 *
 * Operands in the order of the op's parameters, the output apart:
 *
 *   matmul          in[0] a, in[1] b, in[2] bias (NULL: none), out c
 *   batched_matmul  in[0] a, in[1] b, out c
 *   minplus         in[0] a, in[1] b, out r
 *   transpose, relu, copy, softmax, meanpool
 *                   in[0] x, out (y or out)
 *   reduce          in[0] x, out; kind, axis
 *   add, dot        in[0] x, in[1] y, out
 *   scale           in[0] x, out; alpha
 *   bias_relu       in[0] x, in[1] bias, out
 *   embedding       in[0] table, in[1] ids, out
 *   spmv            csr a, in[0] x, out y
 *   gemv            in[0] a, in[1] x, out y; trans_a, alpha, beta
 *   gemm            in[0] a, in[1] b, out c; trans_a, trans_b, alpha, beta
 *
 * Scalars are plain ints, not the enums, so a test can pass values outside
 * them (a bad trans or reduce kind) and see the library refuse them.
 */
#ifndef GPUK_TEST_OPCALL_H
#define GPUK_TEST_OPCALL_H

#include <gpuk.h>

typedef struct opcall_args {
    gpuk_op op;
    const gpuk_tensor *in[3];
    gpuk_tensor *out;
    const gpuk_csr *csr;
    float alpha, beta;
    int trans_a, trans_b;
    int axis, kind;
} opcall_args;

/* args for op with no operands yet: every tensor NULL, alpha 1, beta 0,
 * no transposes, axis 0, a sum. */
void opcall_init(opcall_args *args, gpuk_op op);

/* Call the op on ctx with variant (NULL or "auto": the default) and
 * return its status; GPUK_ERR_INVALID for an op value outside the
 * catalogue. */
gpuk_status opcall(gpuk_context *ctx, const opcall_args *args, const char *variant);

#endif

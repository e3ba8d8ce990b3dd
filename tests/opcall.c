/*
 * opcall.c - the one switch from gpuk_op to the API call (see opcall.h).
 *
 * The switch has no default case on purpose: with -Wswitch (part of
 * -Wall) a row added to GPUK_OP_MAP without a case here is a compiler
 * warning, in the one place of the tests, the fuzz harness and the
 * benchmark that needs to learn how to call it.
 */
#include "opcall.h"

#include <string.h>

void opcall_init(opcall_args *args, gpuk_op op)
{
    memset(args, 0, sizeof *args);
    args->op = op;
    args->alpha = 1.0f;
    args->beta = 0.0f;
    args->kind = GPUK_REDUCE_SUM;
}

gpuk_status opcall(gpuk_context *ctx, const opcall_args *a, const char *v)
{
    const gpuk_tensor *const *in = a->in;
    gpuk_tensor *out = a->out;
    switch (a->op) {
    case GPUK_OP_MATMUL: return gpuk_matmul(ctx, in[0], in[1], in[2], out, v);
    case GPUK_OP_BATCHED_MATMUL: return gpuk_batched_matmul(ctx, in[0], in[1], out, v);
    case GPUK_OP_MINPLUS: return gpuk_minplus(ctx, in[0], in[1], out, v);
    case GPUK_OP_TRANSPOSE: return gpuk_transpose(ctx, in[0], out, v);
    case GPUK_OP_REDUCE:
        return gpuk_reduce(ctx, (gpuk_reduce_kind)a->kind, in[0], a->axis, out, v);
    case GPUK_OP_ADD: return gpuk_add(ctx, in[0], in[1], out, v);
    case GPUK_OP_SCALE: return gpuk_scale(ctx, a->alpha, in[0], out, v);
    case GPUK_OP_RELU: return gpuk_relu(ctx, in[0], out, v);
    case GPUK_OP_BIAS_RELU: return gpuk_bias_relu(ctx, in[0], in[1], out, v);
    case GPUK_OP_COPY: return gpuk_copy(ctx, in[0], out, v);
    case GPUK_OP_SOFTMAX: return gpuk_softmax(ctx, in[0], out, v);
    case GPUK_OP_EMBEDDING: return gpuk_embedding(ctx, in[0], in[1], out, v);
    case GPUK_OP_MEANPOOL: return gpuk_meanpool(ctx, in[0], out, v);
    case GPUK_OP_SPMV: return gpuk_spmv(ctx, a->csr, in[0], out, v);
    case GPUK_OP_DOT: return gpuk_dot(ctx, in[0], in[1], out, v);
    case GPUK_OP_GEMV:
        return gpuk_gemv(ctx, (gpuk_trans)a->trans_a, a->alpha, in[0], in[1], a->beta, out, v);
    case GPUK_OP_GEMM:
        return gpuk_gemm(ctx, (gpuk_trans)a->trans_a, (gpuk_trans)a->trans_b, a->alpha, in[0],
                         in[1], a->beta, out, v);
    }
    /* a value no row of the catalogue has (the switch covers every row) */
    return GPUK_ERR_INVALID;
}

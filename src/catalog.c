/*
 * catalog.c - facts derived from the catalogues of gpuk.h for the tools
 * and bindings that would otherwise keep copies of them: the work, the
 * least traffic and the shape class of one call of an op (gpuk_op_cost),
 * and the layout of the structures the library fills or reads across an
 * FFI (gpuk_struct_layout).  gpuk-bench (bench/cases.c), the Python
 * package (python/gpuk/_bench.py) and bench/auto-rules.py (through
 * gpuk-bench --cost) ask here instead of writing a formula of their own.
 *
 * The cost builds the op's canonical operands (the table in
 * gpuk/backend.h) from the caller's dimensions and counts from them:
 * bytes are every operand read once and every output written once, the
 * sum length and the shape class are the ones dispatch uses
 * (gk_sum_length, gk_shape_class), so the class a tool predicts is the
 * class gpuk_last_shape_class reports.  Only the operations per output
 * are written per op, in one switch with no default (a new op of
 * GPUK_OP_MAP is a -Wswitch warning here until it has its line).
 */
#include "gpuk_internal.h"

#include <string.h>

/* A dense operand of a canonical call: only its dtype and shape matter. */
static void operand(gpuk_tdesc *t, gpuk_dtype dt, int ndim, int64_t a, int64_t b, int64_t c)
{
    memset(t, 0, sizeof *t);
    t->dtype = dt;
    t->ndim = ndim;
    t->shape[0] = a;
    t->shape[1] = b;
    t->shape[2] = c;
}

/* The canonical operands of op for dims (gpuk.h, gpuk_op_cost), and the
 * arithmetic of one call: operations per output element times the outputs,
 * counted as gpuk-bench has always counted them (an FMA, an add+min: 2). */
static double canonical(gpuk_op op, gpuk_dtype dt, const int64_t *d, gpuk_args *a,
                        gpuk_csr_desc *csr, int *reads_out)
{
    const double d0 = (double)d[0], d1 = (double)d[1], d2 = (double)d[2];
    *reads_out = 0;
    a->n_in = 1;
    switch (op) {
    case GPUK_OP_MATMUL: /* m, k, n, bias */
        a->has_bias = d[3] != 0;
        a->n_in = a->has_bias ? 3 : 2;
        operand(&a->in[0], dt, 2, d[0], d[1], 0);
        operand(&a->in[1], dt, 2, d[1], d[2], 0);
        operand(&a->in[2], dt, 1, d[2], 0, 0);
        operand(&a->out, dt, 2, d[0], d[2], 0);
        return 2 * d0 * d1 * d2 + (a->has_bias ? d0 * d2 : 0);
    case GPUK_OP_BATCHED_MATMUL: /* batch, m, k, n */
        a->n_in = 2;
        operand(&a->in[0], dt, 3, d[0], d[1], d[2]);
        operand(&a->in[1], dt, 3, d[0], d[2], d[3]);
        operand(&a->out, dt, 3, d[0], d[1], d[3]);
        return 2 * d0 * d1 * d2 * (double)d[3];
    case GPUK_OP_MINPLUS: /* m, k, n, accumulate: the update reads r and folds it in */
        a->n_in = 2;
        a->accumulate = d[3] != 0;
        *reads_out = a->accumulate;
        operand(&a->in[0], dt, 2, d[0], d[1], 0);
        operand(&a->in[1], dt, 2, d[1], d[2], 0);
        operand(&a->out, dt, 2, d[0], d[2], 0);
        return 2 * d0 * d1 * d2 + (a->accumulate ? d0 * d2 : 0);
    case GPUK_OP_TRANSPOSE: /* m, n */
        operand(&a->in[0], dt, 2, d[0], d[1], 0);
        operand(&a->out, dt, 2, d[1], d[0], 0);
        return 0;
    case GPUK_OP_REDUCE: /* outer, len, inner */
        operand(&a->in[0], dt, 3, d[0], d[1], d[2]);
        operand(&a->out, dt, 2, d[0], d[2], 0);
        return d0 * d1 * d2;
    case GPUK_OP_ADD: /* n */
        a->n_in = 2;
        operand(&a->in[0], dt, 1, d[0], 0, 0);
        operand(&a->in[1], dt, 1, d[0], 0, 0);
        operand(&a->out, dt, 1, d[0], 0, 0);
        return d0;
    case GPUK_OP_SCALE:
    case GPUK_OP_RELU:
    case GPUK_OP_COPY: /* n */
        operand(&a->in[0], dt, 1, d[0], 0, 0);
        operand(&a->out, dt, 1, d[0], 0, 0);
        return op == GPUK_OP_COPY ? 0 : d0;
    case GPUK_OP_BIAS_RELU: /* rows, n: an add and a max an element */
        a->n_in = 2;
        operand(&a->in[0], dt, 2, d[0], d[1], 0);
        operand(&a->in[1], dt, 1, d[1], 0, 0);
        operand(&a->out, dt, 2, d[0], d[1], 0);
        return 2 * d0 * d1;
    case GPUK_OP_SOFTMAX: /* rows, n: max, subtract, exp, sum, divide */
        operand(&a->in[0], dt, 2, d[0], d[1], 0);
        operand(&a->out, dt, 2, d[0], d[1], 0);
        return 5 * d0 * d1;
    case GPUK_OP_EMBEDDING: /* V, d, T: the ids are i32 whatever the table's dtype */
        a->n_in = 2;
        /* a gather reads the T rows it copies, not the whole table: the
         * table stands here as what is read of it, T rows of d */
        operand(&a->in[0], dt, 2, d[2], d[1], 0);
        operand(&a->in[1], GPUK_I32, 1, d[2], 0, 0);
        operand(&a->out, dt, 2, d[2], d[1], 0);
        return 0;
    case GPUK_OP_MEANPOOL: /* b, t, d */
        operand(&a->in[0], dt, 3, d[0], d[1], d[2]);
        operand(&a->out, dt, 2, d[0], d[2], 0);
        return d0 * d1 * d2;
    case GPUK_OP_SPMV: /* rows, cols, nnz, longest row */
        csr->rows = d[0];
        csr->cols = d[1];
        csr->nnz = d[2];
        csr->max_row_nnz = d[3];
        a->csr = csr;
        operand(&a->in[0], dt, 1, d[1], 0, 0);
        operand(&a->out, dt, 1, d[0], 0, 0);
        return 2 * d2;
    case GPUK_OP_DOT: /* n */
        a->n_in = 2;
        operand(&a->in[0], dt, 1, d[0], 0, 0);
        operand(&a->in[1], dt, 1, d[0], 0, 0);
        operand(&a->out, dt, 1, 1, 0, 0);
        return 2 * d0;
    case GPUK_OP_GEMV: /* m, n, trans, beta != 0: a[m,n], op(a) x */
        a->n_in = 2;
        a->trans_a = d[2] != 0;
        *reads_out = d[3] != 0;
        operand(&a->in[0], dt, 2, d[0], d[1], 0);
        operand(&a->in[1], dt, 1, a->trans_a ? d[0] : d[1], 0, 0);
        operand(&a->out, dt, 1, a->trans_a ? d[1] : d[0], 0, 0);
        return 2 * d0 * d1;
    case GPUK_OP_GEMM: /* m, k, n, beta != 0: op(a)[m,k] op(b)[k,n] */
        a->n_in = 2;
        *reads_out = d[3] != 0;
        operand(&a->in[0], dt, 2, d[0], d[1], 0);
        operand(&a->in[1], dt, 2, d[1], d[2], 0);
        operand(&a->out, dt, 2, d[0], d[2], 0);
        return 2 * d0 * d1 * d2;
    case GPUK_OP_CAST: /* n, out's dtype (0: dt): a conversion, no arithmetic counted */
        operand(&a->in[0], dt, 1, d[0], 0, 0);
        operand(&a->out, d[1] ? (gpuk_dtype)d[1] : dt, 1, d[0], 0, 0);
        return 0;
    case GPUK_OP_APSP: /* n, predecessors 0/1: n^3 relaxations, an add and a min each */
        a->has_out2 = d[1] != 0;
        operand(&a->in[0], dt, 2, d[0], d[0], 0);
        operand(&a->out, dt, 2, d[0], d[0], 0);
        operand(&a->out2, GPUK_I32, 2, d[0], d[0], 0);
        return 2 * d0 * d0 * d0;
    }
    return -1;
}

/* How many of dims the op reads: the rest may hold anything. */
static int dims_used(gpuk_op op)
{
    switch (op) {
    case GPUK_OP_TRANSPOSE:
    case GPUK_OP_BIAS_RELU:
    case GPUK_OP_SOFTMAX:
    case GPUK_OP_APSP:
    case GPUK_OP_CAST:
        return 2;
    case GPUK_OP_ADD:
    case GPUK_OP_SCALE:
    case GPUK_OP_RELU:
    case GPUK_OP_COPY:
    case GPUK_OP_DOT:
        return 1;
    case GPUK_OP_REDUCE:
    case GPUK_OP_EMBEDDING:
    case GPUK_OP_MEANPOOL:
        return 3;
    case GPUK_OP_MATMUL:
    case GPUK_OP_BATCHED_MATMUL:
    case GPUK_OP_MINPLUS:
    case GPUK_OP_SPMV:
    case GPUK_OP_GEMV:
    case GPUK_OP_GEMM:
        return 4;
    }
    return 0;
}

/* Elements of an operand, in double: past 2^63 it is no tensor. */
static double operand_numel(const gpuk_tdesc *t)
{
    double n = 1;
    for (int i = 0; i < t->ndim; i++)
        n *= (double)t->shape[i];
    return n;
}

static double operand_bytes(const gpuk_tdesc *t)
{
    return (double)gpuk_dtype_size(t->dtype) * operand_numel(t);
}

gpuk_status gpuk_op_cost(gpuk_op op, gpuk_dtype dtype, const int64_t dims[GPUK_COST_DIMS],
                         double *flops, double *bytes, int *shape_class)
{
    if (!dims)
        return GPUK_ERR_NULL;
    int used = dims_used(op);
    if (used == 0)
        return GPUK_ERR_INVALID;
    if (gpuk_dtype_size(dtype) == 0)
        return GPUK_ERR_DTYPE;
    int64_t d[GPUK_COST_DIMS] = {0};
    for (int i = 0; i < used; i++) {
        if (dims[i] < 0)
            return GPUK_ERR_SHAPE;
        d[i] = dims[i];
    }
    if (op == GPUK_OP_CAST && d[1] && (d[1] >= 32 || gpuk_dtype_size((gpuk_dtype)d[1]) == 0))
        return GPUK_ERR_DTYPE; /* the output's dtype, when given, is one gpuk.h lists */
    if (op == GPUK_OP_SPMV && (d[3] > d[1] || d[3] > d[2]))
        return GPUK_ERR_SHAPE; /* a row longer than the columns or than every entry */

    gpuk_args a;
    gpuk_csr_desc csr;
    memset(&a, 0, sizeof a);
    memset(&csr, 0, sizeof csr);
    a.size = sizeof a;
    a.op = op;
    a.dtype = dtype;
    int reads_out = 0;
    double f = canonical(op, dtype, d, &a, &csr, &reads_out);
    /* every operand must be a tensor that could exist: its element count
     * fits int64 (the class below counts them in int64) */
    if (operand_numel(&a.out) >= 0x1p63 || operand_numel(&a.out2) >= 0x1p63)
        return GPUK_ERR_OVERFLOW;
    for (int i = 0; i < a.n_in; i++)
        if (operand_numel(&a.in[i]) >= 0x1p63)
            return GPUK_ERR_OVERFLOW;

    double b = operand_bytes(&a.out) * (1 + reads_out) + (a.has_out2 ? operand_bytes(&a.out2) : 0);
    for (int i = 0; i < a.n_in; i++)
        b += operand_bytes(&a.in[i]);
    if (a.csr) /* the values, a column index each, and the row pointers */
        b += (double)csr.nnz * ((double)gpuk_dtype_size(dtype) + sizeof(int32_t)) +
             (double)(csr.rows + 1) * sizeof(int32_t);
    if (flops)
        *flops = f;
    if (bytes)
        *bytes = b;
    if (shape_class)
        *shape_class = gk_shape_class(&a);
    return GPUK_OK;
}

/* ---- structure layouts ----
 *
 * The members of each structure a binding declares for itself, in order.
 * The check after each list fails the build when a member appended to the
 * structure in gpuk.h is missing here: the last member listed must end
 * where the structure does, but for the padding that rounds it up. */
#define GK_LAYOUT_OPTIONS(X) X(size) X(backend) X(device) X(num_threads) X(check) \
    X(verbose) X(stream) X(pinned_bytes) X(wisdom)
#define GK_LAYOUT_INFO(X) X(backend) X(backend_version) X(backend_path) X(device) \
    X(device_ordinal) X(num_threads) X(device_memory) X(multiprocessors) X(check) \
    X(abi_major) X(abi_minor) X(stream) X(dlpack_device)
#define GK_LAYOUT_TENSOR_INFO(X) X(dtype) X(ndim) X(shape) X(strides) X(offset) X(numel) \
    X(bytes) X(contiguous) X(data) X(borrowed)
#define GK_LAYOUT_VARIANT_INFO(X) X(name) X(summary) X(flags) X(dtypes) X(alias)
#define GK_LAYOUT_LOAD_ATTEMPT(X) X(backend) X(path) X(status) X(reason) X(chosen)

/* Every structure: X(type, list of its members, the member listed last). */
#define GK_LAYOUTS(X)                                               \
    X(gpuk_options, GK_LAYOUT_OPTIONS, wisdom)                      \
    X(gpuk_info, GK_LAYOUT_INFO, dlpack_device)                     \
    X(gpuk_tensor_info, GK_LAYOUT_TENSOR_INFO, borrowed)            \
    X(gpuk_variant_info, GK_LAYOUT_VARIANT_INFO, alias)             \
    X(gpuk_load_attempt, GK_LAYOUT_LOAD_ATTEMPT, chosen)

#define GK_END(type, last) (offsetof(type, last) + sizeof(((type *)0)->last))
#define GK_LAYOUT_CHECK(type, list, last)                                               \
    _Static_assert(sizeof(type) - GK_END(type, last) < _Alignof(type),                  \
                   #type ": a member after " #last " is missing from src/catalog.c");
GK_LAYOUTS(GK_LAYOUT_CHECK)
#undef GK_LAYOUT_CHECK

gpuk_status gpuk_struct_layout(const char *type, const char *member, size_t *offset,
                               size_t *size)
{
    if (!type)
        return GPUK_ERR_NULL;
#define GK_MEMBER(m)                                      \
    if (strcmp(member, #m) == 0) {                        \
        at = offsetof(gk_type, m);                        \
        len = sizeof(((gk_type *)0)->m);                  \
        goto found;                                       \
    }
#define GK_TYPE(t, list, last)                            \
    if (strcmp(type, #t) == 0) {                          \
        typedef t gk_type;                                \
        if (!member) {                                    \
            at = 0;                                       \
            len = sizeof(t);                              \
            goto found;                                   \
        }                                                 \
        list(GK_MEMBER)                                   \
        return GPUK_ERR_INVALID;                          \
    }
    size_t at, len;
    GK_LAYOUTS(GK_TYPE)
#undef GK_TYPE
#undef GK_MEMBER
    return GPUK_ERR_INVALID;
found:
    if (offset)
        *offset = at;
    if (size)
        *size = len;
    return GPUK_OK;
}

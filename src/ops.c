/*
 * ops.c - the public op functions: check every argument, reshape the
 * tensors into the canonical operands of backend.h, dispatch.
 *
 * Each function reads as a list of rules; the checks themselves live in
 * validate.c so every op words its messages the same way.
 */
#include "gpuk_internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Fetch a tensor argument or return its status. */
#define ARG(var, handle, name)                                 \
    gk_tensor *var = gk_tensor_arg(ctx, (handle), (name), &st); \
    if (!var)                                                  \
        return st
#define CHECK(expr)                  \
    do {                             \
        if ((st = (expr)) != GPUK_OK) \
            return st;               \
    } while (0)
#define ENTER()          \
    gpuk_status st;      \
    if (!ctx)            \
        return GPUK_ERR_NULL

static void args_init(gpuk_args *a, gpuk_op op, gpuk_dtype dt)
{
    memset(a, 0, sizeof *a);
    a->size = sizeof *a;
    a->op = op;
    a->dtype = dt;
}

/* alpha and beta as every kernel reads them: exactly (f64, ABI 2.4), and
 * rounded to float for the kernels of the other dtypes.  C leaves a
 * conversion past float's range undefined, so that part is spelled out
 * as round-to-nearest does it: up to half an ulp past FLT_MAX (2^103)
 * rounds to FLT_MAX, from there on to infinity. */
static float to_float(double v)
{
    const double edge = (double)FLT_MAX + 0x1p103;
    if (isnan(v) || fabs(v) <= FLT_MAX)
        return (float)v;
    float big = fabs(v) >= edge ? INFINITY : FLT_MAX;
    return v > 0 ? big : -big;
}

static void set_scalars(gpuk_args *a, double alpha, double beta)
{
    a->alpha = to_float(alpha);
    a->beta = to_float(beta);
    a->alpha_f64 = alpha;
    a->beta_f64 = beta;
}

/* The op computes in lead's dtype, if the backend has a row for it. */
#define DTYPE(op, lead, name) \
    gpuk_dtype dt;            \
    CHECK(gk_op_dtype(ctx, (op), (lead), (name), &dt))

/* The output of a matrix product (matmul, batched_matmul, gemm): the
 * inputs' dtype, or f32 for inputs of a 16-bit float dtype, whose
 * products accumulate in f32 (gpuk(7), "Element types"): the output
 * tensor says which. */
static gpuk_dtype product_out(gpuk_dtype dt, const gk_tensor *out)
{
    if ((dt == GPUK_F16 || dt == GPUK_BF16) && out->dtype == GPUK_F32)
        return GPUK_F32;
    return dt;
}

/* dtype dt, exactly ndim dimensions, unit stride in the last one */
static gpuk_status matrix(gpuk_context *ctx, const gk_tensor *t, gpuk_dtype dt, int ndim,
                          const char *name)
{
    gpuk_status st;
    CHECK(gk_need_dtype(ctx, t, dt, name));
    CHECK(gk_need_ndim(ctx, t, ndim, ndim, name));
    return gk_need_unit_last(ctx, t, name);
}

/* dtype dt, ndim in [lo, hi], contiguous */
static gpuk_status dense(gpuk_context *ctx, const gk_tensor *t, gpuk_dtype dt, int lo, int hi,
                         const char *name)
{
    gpuk_status st;
    CHECK(gk_need_dtype(ctx, t, dt, name));
    CHECK(gk_need_ndim(ctx, t, lo, hi, name));
    return gk_need_contiguous(ctx, t, name);
}

static void flat(const gk_tensor *t, gpuk_tdesc *d)
{
    int64_t n = t->numel;
    gk_desc_dense(t, 1, &n, d);
}

/* [rows, n] view of a dense tensor whose last dimension is n */
static void rows_of(const gk_tensor *t, gpuk_tdesc *d)
{
    int64_t n = t->shape[t->ndim - 1];
    int64_t shape[2] = { n ? t->numel / n : 1, n };
    if (n == 0) {
        shape[0] = 1;
        for (int i = 0; i < t->ndim - 1; i++)
            shape[0] *= t->shape[i];
    }
    gk_desc_dense(t, 2, shape, d);
}

gpuk_status gpuk_matmul(gpuk_context *ctx, const gpuk_tensor *a, const gpuk_tensor *b,
                        const gpuk_tensor *bias, gpuk_tensor *c, const char *variant)
{
    ENTER();
    ARG(A, a, "a");
    ARG(B, b, "b");
    ARG(C, c, "c");
    gk_tensor *BI = NULL;
    if (bias && !(BI = gk_tensor_arg(ctx, bias, "bias", &st)))
        return st;
    DTYPE(GPUK_OP_MATMUL, A, "a");
    CHECK(matrix(ctx, A, dt, 2, "a"));
    CHECK(matrix(ctx, B, dt, 2, "b"));
    CHECK(matrix(ctx, C, product_out(dt, C), 2, "c"));
    CHECK(gk_need_dim(ctx, B, 0, A->shape[1], "b", "rows of b = columns of a (k)"));
    CHECK(gk_need_dim(ctx, C, 0, A->shape[0], "c", "rows of c = rows of a (m)"));
    CHECK(gk_need_dim(ctx, C, 1, B->shape[1], "c", "columns of c = columns of b (n)"));
    if (BI) {
        CHECK(dense(ctx, BI, C->dtype, 1, 1, "bias"));
        CHECK(gk_need_dim(ctx, BI, 0, B->shape[1], "bias", "one bias per column of c (n)"));
    }
    CHECK(gk_need_injective(ctx, C, "c"));
    CHECK(gk_need_disjoint(ctx, C, "c", A, "a", 0));
    CHECK(gk_need_disjoint(ctx, C, "c", B, "b", 0));
    CHECK(gk_need_disjoint(ctx, C, "c", BI, "bias", 0));

    gpuk_args args;
    args_init(&args, GPUK_OP_MATMUL, dt);
    gk_desc(A, &args.in[0]);
    gk_desc(B, &args.in[1]);
    args.n_in = 2;
    if (BI) {
        gk_desc(BI, &args.in[2]);
        args.n_in = 3;
        args.has_bias = 1;
    }
    gk_desc(C, &args.out);
    return gk_dispatch(ctx, &args, variant);
}

gpuk_status gpuk_batched_matmul(gpuk_context *ctx, const gpuk_tensor *a, const gpuk_tensor *b,
                                gpuk_tensor *c, const char *variant)
{
    ENTER();
    ARG(A, a, "a");
    ARG(B, b, "b");
    ARG(C, c, "c");
    DTYPE(GPUK_OP_BATCHED_MATMUL, A, "a");
    CHECK(matrix(ctx, A, dt, 3, "a"));
    CHECK(matrix(ctx, B, dt, 3, "b"));
    CHECK(matrix(ctx, C, product_out(dt, C), 3, "c"));
    int64_t batch = C->shape[0];
    if (A->shape[0] != batch && A->shape[0] != 1)
        return gk_fail(ctx, GPUK_ERR_SHAPE, "a: batch dimension is %lld, must be 1 (broadcast) "
                       "or c's batch %lld", (long long)A->shape[0], (long long)batch);
    if (B->shape[0] != batch && B->shape[0] != 1)
        return gk_fail(ctx, GPUK_ERR_SHAPE, "b: batch dimension is %lld, must be 1 (broadcast) "
                       "or c's batch %lld", (long long)B->shape[0], (long long)batch);
    CHECK(gk_need_dim(ctx, B, 1, A->shape[2], "b", "rows of b = columns of a (k)"));
    CHECK(gk_need_dim(ctx, C, 1, A->shape[1], "c", "rows of c = rows of a (m)"));
    CHECK(gk_need_dim(ctx, C, 2, B->shape[2], "c", "columns of c = columns of b (n)"));
    CHECK(gk_need_injective(ctx, C, "c"));
    CHECK(gk_need_disjoint(ctx, C, "c", A, "a", 0));
    CHECK(gk_need_disjoint(ctx, C, "c", B, "b", 0));

    gpuk_args args;
    args_init(&args, GPUK_OP_BATCHED_MATMUL, dt);
    gk_desc(A, &args.in[0]);
    gk_desc(B, &args.in[1]);
    gk_desc(C, &args.out);
    args.n_in = 2;
    /* broadcast: the kernel sees every batch, the shared one at stride 0 */
    for (int i = 0; i < 2; i++) {
        if (args.in[i].shape[0] != batch) {
            args.in[i].shape[0] = batch;
            args.in[i].stride[0] = 0;
        }
    }
    return gk_dispatch(ctx, &args, variant);
}

/* gpuk_minplus and gpuk_minplus_update: one op, one set of rules; the
 * update reads r, which a plugin older than ABI 2.2 would not know to do. */
static gpuk_status minplus(gpuk_context *ctx, const gpuk_tensor *a, const gpuk_tensor *b,
                           gpuk_tensor *r, const char *variant, int accumulate)
{
    ENTER();
    ARG(A, a, "a");
    ARG(B, b, "b");
    ARG(R, r, "r");
    DTYPE(GPUK_OP_MINPLUS, A, "a");
    if (accumulate)
        CHECK(gk_need_abi_minor(ctx, 2, "gpuk_minplus_update"));
    CHECK(dense(ctx, A, dt, 2, 2, "a"));
    CHECK(dense(ctx, B, dt, 2, 2, "b"));
    CHECK(dense(ctx, R, dt, 2, 2, "r"));
    CHECK(gk_need_dim(ctx, B, 0, A->shape[1], "b", "rows of b = columns of a (k)"));
    CHECK(gk_need_dim(ctx, R, 0, A->shape[0], "r", "rows of r = rows of a (m)"));
    CHECK(gk_need_dim(ctx, R, 1, B->shape[1], "r", "columns of r = columns of b (n)"));
    CHECK(gk_need_disjoint(ctx, R, "r", A, "a", 0));
    CHECK(gk_need_disjoint(ctx, R, "r", B, "b", 0));

    gpuk_args args;
    args_init(&args, GPUK_OP_MINPLUS, dt);
    gk_desc(A, &args.in[0]);
    gk_desc(B, &args.in[1]);
    gk_desc(R, &args.out);
    args.n_in = 2;
    args.accumulate = accumulate;
    return gk_dispatch(ctx, &args, variant);
}

gpuk_status gpuk_minplus(gpuk_context *ctx, const gpuk_tensor *a, const gpuk_tensor *b,
                         gpuk_tensor *r, const char *variant)
{
    return minplus(ctx, a, b, r, variant, 0);
}

gpuk_status gpuk_minplus_update(gpuk_context *ctx, const gpuk_tensor *a, const gpuk_tensor *b,
                                gpuk_tensor *r, const char *variant)
{
    return minplus(ctx, a, b, r, variant, 1);
}

gpuk_status gpuk_transpose(gpuk_context *ctx, const gpuk_tensor *x, gpuk_tensor *y,
                           const char *variant)
{
    ENTER();
    ARG(X, x, "x");
    ARG(Y, y, "y");
    DTYPE(GPUK_OP_TRANSPOSE, X, "x");
    CHECK(matrix(ctx, X, dt, 2, "x"));
    CHECK(matrix(ctx, Y, dt, 2, "y"));
    CHECK(gk_need_dim(ctx, Y, 0, X->shape[1], "y", "rows of y = columns of x"));
    CHECK(gk_need_dim(ctx, Y, 1, X->shape[0], "y", "columns of y = rows of x"));
    CHECK(gk_need_injective(ctx, Y, "y"));
    CHECK(gk_need_disjoint(ctx, Y, "y", X, "x", 0));

    gpuk_args args;
    args_init(&args, GPUK_OP_TRANSPOSE, dt);
    gk_desc(X, &args.in[0]);
    gk_desc(Y, &args.out);
    args.n_in = 1;
    return gk_dispatch(ctx, &args, variant);
}

gpuk_status gpuk_reduce(gpuk_context *ctx, gpuk_reduce_kind kind, const gpuk_tensor *x, int axis,
                        gpuk_tensor *out, const char *variant)
{
    ENTER();
    if (kind != GPUK_REDUCE_SUM && kind != GPUK_REDUCE_MEAN)
        return gk_fail(ctx, GPUK_ERR_INVALID, "kind is %d, must be GPUK_REDUCE_SUM or "
                       "GPUK_REDUCE_MEAN", (int)kind);
    ARG(X, x, "x");
    ARG(O, out, "out");
    DTYPE(GPUK_OP_REDUCE, X, "x");
    CHECK(dense(ctx, X, dt, 1, GPUK_MAX_DIMS, "x"));
    if (axis < 0 || axis >= X->ndim)
        return gk_fail(ctx, GPUK_ERR_INVALID, "axis is %d, must be in [0, %d) for %d-D x", axis,
                       X->ndim, X->ndim);
    CHECK(dense(ctx, O, dt, 1, GPUK_MAX_DIMS, "out"));
    int64_t outer = 1, inner = 1;
    for (int i = 0; i < axis; i++)
        outer *= X->shape[i];
    for (int i = axis + 1; i < X->ndim; i++)
        inner *= X->shape[i];
    if (X->ndim == 1) {
        CHECK(gk_need_ndim(ctx, O, 1, 1, "out"));
        CHECK(gk_need_dim(ctx, O, 0, 1, "out", "a 1-D x reduces to shape [1]"));
    } else {
        CHECK(gk_need_ndim(ctx, O, X->ndim - 1, X->ndim - 1, "out"));
        for (int i = 0, j = 0; i < X->ndim; i++) {
            if (i == axis)
                continue;
            CHECK(gk_need_dim(ctx, O, j++, X->shape[i], "out", "x's shape without the axis"));
        }
    }
    CHECK(gk_need_disjoint(ctx, O, "out", X, "x", 0));

    gpuk_args args;
    args_init(&args, GPUK_OP_REDUCE, dt);
    int64_t xs[3] = { outer, X->shape[axis], inner }, os[2] = { outer, inner };
    gk_desc_dense(X, 3, xs, &args.in[0]);
    gk_desc_dense(O, 2, os, &args.out);
    args.n_in = 1;
    args.axis = axis;
    args.reduce_kind = kind;
    return gk_dispatch(ctx, &args, variant);
}

/* add, scale, relu, copy: same-shape dense tensors seen as flat vectors */
static gpuk_status elementwise(gpuk_context *ctx, gpuk_op op, double alpha, const gpuk_tensor *x,
                               const gpuk_tensor *y, gpuk_tensor *out, const char *variant)
{
    ENTER();
    ARG(X, x, "x");
    gk_tensor *Y = NULL;
    if (op == GPUK_OP_ADD && !(Y = gk_tensor_arg(ctx, y, "y", &st)))
        return st;
    ARG(O, out, "out");
    DTYPE(op, X, "x");
    CHECK(dense(ctx, X, dt, 1, GPUK_MAX_DIMS, "x"));
    CHECK(dense(ctx, O, dt, 1, GPUK_MAX_DIMS, "out"));
    CHECK(gk_need_same_shape(ctx, O, "out", X, "x"));
    CHECK(gk_need_disjoint(ctx, O, "out", X, "x", 1));
    if (Y) {
        CHECK(dense(ctx, Y, dt, 1, GPUK_MAX_DIMS, "y"));
        CHECK(gk_need_same_shape(ctx, Y, "y", X, "x"));
        CHECK(gk_need_disjoint(ctx, O, "out", Y, "y", 1));
    }
    gpuk_args args;
    args_init(&args, op, dt);
    flat(X, &args.in[0]);
    args.n_in = 1;
    if (Y) {
        flat(Y, &args.in[1]);
        args.n_in = 2;
    }
    flat(O, &args.out);
    set_scalars(&args, alpha, 0.0);
    return gk_dispatch(ctx, &args, variant);
}

gpuk_status gpuk_add(gpuk_context *ctx, const gpuk_tensor *x, const gpuk_tensor *y,
                     gpuk_tensor *out, const char *variant)
{
    return elementwise(ctx, GPUK_OP_ADD, 0.0f, x, y, out, variant);
}

gpuk_status gpuk_scale(gpuk_context *ctx, double alpha, const gpuk_tensor *x, gpuk_tensor *out,
                       const char *variant)
{
    return elementwise(ctx, GPUK_OP_SCALE, alpha, x, NULL, out, variant);
}

gpuk_status gpuk_relu(gpuk_context *ctx, const gpuk_tensor *x, gpuk_tensor *out,
                      const char *variant)
{
    return elementwise(ctx, GPUK_OP_RELU, 0.0f, x, NULL, out, variant);
}

gpuk_status gpuk_copy(gpuk_context *ctx, const gpuk_tensor *x, gpuk_tensor *out,
                      const char *variant)
{
    return elementwise(ctx, GPUK_OP_COPY, 0.0f, x, NULL, out, variant);
}

/* The dtypes a cast converts between: the float ones of ABI 2.4, all of
 * which a CAST row must take as its output (gpuk/backend.h). */
static int cast_dtype(gpuk_dtype dt)
{
    return dt == GPUK_F32 || dt == GPUK_F64 || dt == GPUK_F16 || dt == GPUK_BF16;
}

gpuk_status gpuk_cast(gpuk_context *ctx, const gpuk_tensor *x, gpuk_tensor *out,
                      const char *variant)
{
    ENTER();
    ARG(X, x, "x");
    ARG(O, out, "out");
    /* an integer on either side: named with both dtypes before the op's
     * dtype is looked up, so the message says which pair was asked for */
    if (!cast_dtype(X->dtype) || !cast_dtype(O->dtype))
        return gk_fail(ctx, GPUK_ERR_DTYPE, "%s: dtype is %s; cast converts between f32, f64, "
                       "f16 and bf16 (x is %s, out is %s)", cast_dtype(X->dtype) ? "out" : "x",
                       gpuk_dtype_name(cast_dtype(X->dtype) ? O->dtype : X->dtype),
                       gpuk_dtype_name(X->dtype), gpuk_dtype_name(O->dtype));
    DTYPE(GPUK_OP_CAST, X, "x");
    CHECK(dense(ctx, X, dt, 1, GPUK_MAX_DIMS, "x"));
    CHECK(dense(ctx, O, O->dtype, 1, GPUK_MAX_DIMS, "out"));
    CHECK(gk_need_same_shape(ctx, O, "out", X, "x"));
    /* in place only as exactly x, which is then of x's dtype */
    CHECK(gk_need_disjoint(ctx, O, "out", X, "x", 1));

    gpuk_args args;
    args_init(&args, GPUK_OP_CAST, dt);
    flat(X, &args.in[0]);
    flat(O, &args.out);
    args.n_in = 1;
    return gk_dispatch(ctx, &args, variant);
}

gpuk_status gpuk_bias_relu(gpuk_context *ctx, const gpuk_tensor *x, const gpuk_tensor *bias,
                           gpuk_tensor *out, const char *variant)
{
    ENTER();
    ARG(X, x, "x");
    ARG(BI, bias, "bias");
    ARG(O, out, "out");
    DTYPE(GPUK_OP_BIAS_RELU, X, "x");
    CHECK(dense(ctx, X, dt, 1, GPUK_MAX_DIMS, "x"));
    CHECK(dense(ctx, BI, dt, 1, 1, "bias"));
    CHECK(dense(ctx, O, dt, 1, GPUK_MAX_DIMS, "out"));
    CHECK(gk_need_dim(ctx, BI, 0, X->shape[X->ndim - 1], "bias",
                      "one bias per element of x's last dimension"));
    CHECK(gk_need_same_shape(ctx, O, "out", X, "x"));
    CHECK(gk_need_disjoint(ctx, O, "out", X, "x", 1));
    CHECK(gk_need_disjoint(ctx, O, "out", BI, "bias", 0));

    gpuk_args args;
    args_init(&args, GPUK_OP_BIAS_RELU, dt);
    rows_of(X, &args.in[0]);
    gk_desc(BI, &args.in[1]);
    rows_of(O, &args.out);
    args.n_in = 2;
    return gk_dispatch(ctx, &args, variant);
}

gpuk_status gpuk_softmax(gpuk_context *ctx, const gpuk_tensor *x, gpuk_tensor *out,
                         const char *variant)
{
    ENTER();
    ARG(X, x, "x");
    ARG(O, out, "out");
    DTYPE(GPUK_OP_SOFTMAX, X, "x");
    CHECK(dense(ctx, X, dt, 1, GPUK_MAX_DIMS, "x"));
    CHECK(dense(ctx, O, dt, 1, GPUK_MAX_DIMS, "out"));
    CHECK(gk_need_same_shape(ctx, O, "out", X, "x"));
    CHECK(gk_need_disjoint(ctx, O, "out", X, "x", 1));

    gpuk_args args;
    args_init(&args, GPUK_OP_SOFTMAX, dt);
    rows_of(X, &args.in[0]);
    rows_of(O, &args.out);
    args.n_in = 1;
    return gk_dispatch(ctx, &args, variant);
}

/* Every id must name a row of the table.  The ids live in backend memory:
 * read directly when the backend's memory is the host's, else copied back
 * (which waits for the ops issued before). */
static gpuk_status check_ids(gpuk_context *ctx, const gk_tensor *ids, int64_t rows)
{
    gpuk_tdesc d;
    gk_desc(ids, &d);
    size_t n = (size_t)ids->numel;
    int32_t *copy = NULL;
    const int32_t *v = d.data;
    if (!(ctx->be->flags & GPUK_BF_HOST_MEMORY)) {
        copy = malloc(n * sizeof *copy);
        if (!copy)
            return gk_fail(ctx, GPUK_ERR_NO_MEMORY, "ids: no host memory to check the ids");
        gpuk_status st = ctx->be->read(ctx->b, copy, d.data, n * sizeof *copy);
        if (st != GPUK_OK) {
            free(copy);
            return gk_backend_fail(ctx, st, "embedding: reading ids back to check them");
        }
        v = copy;
    }
    gpuk_status st = GPUK_OK;
    for (size_t i = 0; i < n; i++) {
        if (v[i] < 0 || v[i] >= rows) {
            st = gk_fail(ctx, GPUK_ERR_INDEX, "ids: element %zu is %d, outside [0, %lld) (the "
                         "table's rows)", i, (int)v[i], (long long)rows);
            break;
        }
    }
    free(copy);
    return st;
}

gpuk_status gpuk_embedding(gpuk_context *ctx, const gpuk_tensor *table, const gpuk_tensor *ids,
                           gpuk_tensor *out, const char *variant)
{
    ENTER();
    ARG(T, table, "table");
    ARG(I, ids, "ids");
    ARG(O, out, "out");
    DTYPE(GPUK_OP_EMBEDDING, T, "table");
    CHECK(dense(ctx, T, dt, 2, 2, "table"));
    CHECK(dense(ctx, I, GPUK_I32, 1, 3, "ids"));
    CHECK(dense(ctx, O, dt, I->ndim + 1, I->ndim + 1, "out"));
    for (int i = 0; i < I->ndim; i++)
        CHECK(gk_need_dim(ctx, O, i, I->shape[i], "out", "out's leading dimensions are ids' shape"));
    CHECK(gk_need_dim(ctx, O, I->ndim, T->shape[1], "out", "out's last dimension is the "
                      "table's row length"));
    CHECK(gk_need_disjoint(ctx, O, "out", T, "table", 0));
    CHECK(gk_need_disjoint(ctx, O, "out", I, "ids", 0));
    if (O->numel > 0)
        CHECK(check_ids(ctx, I, T->shape[0]));

    gpuk_args args;
    args_init(&args, GPUK_OP_EMBEDDING, dt);
    gk_desc(T, &args.in[0]);
    flat(I, &args.in[1]);
    int64_t os[2] = { I->numel, T->shape[1] };
    gk_desc_dense(O, 2, os, &args.out);
    args.n_in = 2;
    return gk_dispatch(ctx, &args, variant);
}

gpuk_status gpuk_meanpool(gpuk_context *ctx, const gpuk_tensor *x, gpuk_tensor *out,
                          const char *variant)
{
    ENTER();
    ARG(X, x, "x");
    ARG(O, out, "out");
    DTYPE(GPUK_OP_MEANPOOL, X, "x");
    CHECK(dense(ctx, X, dt, 2, GPUK_MAX_DIMS, "x"));
    CHECK(dense(ctx, O, dt, X->ndim - 1, X->ndim - 1, "out"));
    int pooled = X->ndim - 2;
    int64_t b = 1;
    for (int i = 0, j = 0; i < X->ndim; i++) {
        if (i == pooled)
            continue;
        CHECK(gk_need_dim(ctx, O, j++, X->shape[i], "out",
                          "x's shape without the second-to-last (token) dimension"));
        if (i < pooled)
            b *= X->shape[i];
    }
    CHECK(gk_need_disjoint(ctx, O, "out", X, "x", 0));

    gpuk_args args;
    args_init(&args, GPUK_OP_MEANPOOL, dt);
    int64_t xs[3] = { b, X->shape[pooled], X->shape[X->ndim - 1] }, os[2] = { b, xs[2] };
    gk_desc_dense(X, 3, xs, &args.in[0]);
    gk_desc_dense(O, 2, os, &args.out);
    args.n_in = 1;
    return gk_dispatch(ctx, &args, variant);
}

gpuk_status gpuk_spmv(gpuk_context *ctx, const gpuk_csr *a, const gpuk_tensor *x, gpuk_tensor *y,
                      const char *variant)
{
    ENTER();
    gk_csr *M = gk_csr_arg(ctx, a, "a", &st);
    if (!M)
        return st;
    ARG(X, x, "x");
    ARG(Y, y, "y");
    DTYPE(GPUK_OP_SPMV, X, "x");
    if (M->dtype != dt)
        return gk_fail(ctx, GPUK_ERR_DTYPE, "a: the matrix's values are %s, x is %s: they must "
                       "be the same", gpuk_dtype_name(M->dtype), gpuk_dtype_name(dt));
    CHECK(dense(ctx, X, dt, 1, 1, "x"));
    CHECK(dense(ctx, Y, dt, 1, 1, "y"));
    CHECK(gk_need_dim(ctx, X, 0, M->d.cols, "x", "one entry per column of a"));
    CHECK(gk_need_dim(ctx, Y, 0, M->d.rows, "y", "one entry per row of a"));
    CHECK(gk_need_disjoint(ctx, Y, "y", X, "x", 0));

    gpuk_args args;
    args_init(&args, GPUK_OP_SPMV, dt);
    args.csr = &M->d;
    gk_desc(X, &args.in[0]);
    gk_desc(Y, &args.out);
    args.n_in = 1;
    return gk_dispatch(ctx, &args, variant);
}

gpuk_status gpuk_dot(gpuk_context *ctx, const gpuk_tensor *x, const gpuk_tensor *y,
                     gpuk_tensor *out, const char *variant)
{
    ENTER();
    ARG(X, x, "x");
    ARG(Y, y, "y");
    ARG(O, out, "out");
    DTYPE(GPUK_OP_DOT, X, "x");
    CHECK(dense(ctx, X, dt, 1, 1, "x"));
    CHECK(dense(ctx, Y, dt, 1, 1, "y"));
    CHECK(dense(ctx, O, dt, 1, 1, "out"));
    CHECK(gk_need_dim(ctx, Y, 0, X->shape[0], "y", "x and y have the same length"));
    CHECK(gk_need_dim(ctx, O, 0, 1, "out", "the dot product is one value"));
    CHECK(gk_need_disjoint(ctx, O, "out", X, "x", 0));
    CHECK(gk_need_disjoint(ctx, O, "out", Y, "y", 0));

    gpuk_args args;
    args_init(&args, GPUK_OP_DOT, dt);
    gk_desc(X, &args.in[0]);
    gk_desc(Y, &args.in[1]);
    gk_desc(O, &args.out);
    args.n_in = 2;
    return gk_dispatch(ctx, &args, variant);
}

static gpuk_status check_trans(gpuk_context *ctx, gpuk_trans t, const char *name)
{
    if (t == GPUK_NO_TRANS || t == GPUK_TRANS)
        return GPUK_OK;
    return gk_fail(ctx, GPUK_ERR_INVALID, "%s is %d, must be GPUK_NO_TRANS or GPUK_TRANS", name,
                   (int)t);
}

gpuk_status gpuk_gemv(gpuk_context *ctx, gpuk_trans trans, double alpha, const gpuk_tensor *a,
                      const gpuk_tensor *x, double beta, gpuk_tensor *y, const char *variant)
{
    ENTER();
    CHECK(check_trans(ctx, trans, "trans"));
    ARG(A, a, "a");
    ARG(X, x, "x");
    ARG(Y, y, "y");
    DTYPE(GPUK_OP_GEMV, A, "a");
    CHECK(matrix(ctx, A, dt, 2, "a"));
    CHECK(dense(ctx, X, dt, 1, 1, "x"));
    CHECK(dense(ctx, Y, dt, 1, 1, "y"));
    int64_t in_len = trans ? A->shape[0] : A->shape[1];
    int64_t out_len = trans ? A->shape[1] : A->shape[0];
    CHECK(gk_need_dim(ctx, X, 0, in_len, "x", trans ? "rows of a (transposed)" : "columns of a"));
    CHECK(gk_need_dim(ctx, Y, 0, out_len, "y", trans ? "columns of a (transposed)" : "rows of a"));
    CHECK(gk_need_disjoint(ctx, Y, "y", A, "a", 0));
    CHECK(gk_need_disjoint(ctx, Y, "y", X, "x", 0));

    gpuk_args args;
    args_init(&args, GPUK_OP_GEMV, dt);
    gk_desc(A, &args.in[0]);
    gk_desc(X, &args.in[1]);
    gk_desc(Y, &args.out);
    args.n_in = 2;
    args.trans_a = trans;
    set_scalars(&args, alpha, beta);
    return gk_dispatch(ctx, &args, variant);
}

gpuk_status gpuk_gemm(gpuk_context *ctx, gpuk_trans trans_a, gpuk_trans trans_b, double alpha,
                      const gpuk_tensor *a, const gpuk_tensor *b, double beta, gpuk_tensor *c,
                      const char *variant)
{
    ENTER();
    CHECK(check_trans(ctx, trans_a, "trans_a"));
    CHECK(check_trans(ctx, trans_b, "trans_b"));
    ARG(A, a, "a");
    ARG(B, b, "b");
    ARG(C, c, "c");
    DTYPE(GPUK_OP_GEMM, A, "a");
    CHECK(matrix(ctx, A, dt, 2, "a"));
    CHECK(matrix(ctx, B, dt, 2, "b"));
    CHECK(matrix(ctx, C, product_out(dt, C), 2, "c"));
    int64_t m = trans_a ? A->shape[1] : A->shape[0];
    int64_t k = trans_a ? A->shape[0] : A->shape[1];
    int64_t kb = trans_b ? B->shape[1] : B->shape[0];
    int64_t n = trans_b ? B->shape[0] : B->shape[1];
    if (kb != k)
        return gk_fail(ctx, GPUK_ERR_SHAPE, "b: op(b) has %lld rows but op(a) has %lld columns "
                       "(k)", (long long)kb, (long long)k);
    CHECK(gk_need_dim(ctx, C, 0, m, "c", "rows of c = rows of op(a) (m)"));
    CHECK(gk_need_dim(ctx, C, 1, n, "c", "columns of c = columns of op(b) (n)"));
    CHECK(gk_need_injective(ctx, C, "c"));
    CHECK(gk_need_disjoint(ctx, C, "c", A, "a", 0));
    CHECK(gk_need_disjoint(ctx, C, "c", B, "b", 0));

    gpuk_args args;
    args_init(&args, GPUK_OP_GEMM, dt);
    gk_desc(A, &args.in[0]);
    gk_desc(B, &args.in[1]);
    gk_desc(C, &args.out);
    args.n_in = 2;
    args.trans_a = trans_a;
    args.trans_b = trans_b;
    set_scalars(&args, alpha, beta);
    return gk_dispatch(ctx, &args, variant);
}

/* All-pairs shortest paths (gpuk_apsp(3)): w in, d out (w itself in
 * place), pred an optional second output of i32, which a plugin before
 * ABI 2.4 has no member for.  The kernel runs Floyd-Warshall however it
 * likes and reports a negative cycle itself, since only it can read the
 * diagonal cheaply where it lives (doc/design.md, "All-pairs shortest
 * paths"). */
gpuk_status gpuk_apsp(gpuk_context *ctx, const gpuk_tensor *w, gpuk_tensor *d, gpuk_tensor *pred,
                      const char *variant)
{
    ENTER();
    ARG(W, w, "w");
    ARG(D, d, "d");
    gk_tensor *P = NULL;
    if (pred && !(P = gk_tensor_arg(ctx, pred, "pred", &st)))
        return st;
    DTYPE(GPUK_OP_APSP, W, "w");
    CHECK(dense(ctx, W, dt, 2, 2, "w"));
    CHECK(gk_need_dim(ctx, W, 1, W->shape[0], "w", "w is square: n x n, one row and one "
                      "column per vertex"));
    CHECK(dense(ctx, D, dt, 2, 2, "d"));
    CHECK(gk_need_same_shape(ctx, D, "d", W, "w"));
    CHECK(gk_need_disjoint(ctx, D, "d", W, "w", 1));
    if (P) {
        CHECK(gk_need_abi_minor(ctx, 4, "gpuk_apsp with pred"));
        CHECK(dense(ctx, P, GPUK_I32, 2, 2, "pred"));
        CHECK(gk_need_same_shape(ctx, P, "pred", W, "w"));
        CHECK(gk_need_disjoint(ctx, P, "pred", W, "w", 0));
        CHECK(gk_need_disjoint(ctx, P, "pred", D, "d", 0));
    }

    gpuk_args args;
    args_init(&args, GPUK_OP_APSP, dt);
    gk_desc(W, &args.in[0]);
    gk_desc(D, &args.out);
    args.n_in = 1;
    if (P) {
        gk_desc(P, &args.out2);
        args.has_out2 = 1;
    }
    return gk_dispatch(ctx, &args, variant);
}

gpuk_status gpuk_apsp_path(gpuk_context *ctx, const gpuk_tensor *pred, int64_t i, int64_t j,
                           int64_t *path, int64_t cap, int64_t *len)
{
    ENTER();
    ARG(P, pred, "pred");
    if (!len)
        return gk_fail(ctx, GPUK_ERR_NULL, "len is NULL");
    *len = 0;
    CHECK(dense(ctx, P, GPUK_I32, 2, 2, "pred"));
    int64_t n = P->shape[0];
    CHECK(gk_need_dim(ctx, P, 1, n, "pred", "pred is square: n x n"));
    if (i < 0 || i >= n)
        return gk_fail(ctx, GPUK_ERR_INDEX, "i is %lld, outside [0, %lld) (pred's rows)",
                       (long long)i, (long long)n);
    if (j < 0 || j >= n)
        return gk_fail(ctx, GPUK_ERR_INDEX, "j is %lld, outside [0, %lld) (pred's columns)",
                       (long long)j, (long long)n);
    if (cap < 0)
        return gk_fail(ctx, GPUK_ERR_INVALID, "cap is %lld, must be >= 0", (long long)cap);
    if (cap > 0 && !path)
        return gk_fail(ctx, GPUK_ERR_NULL, "path is NULL but cap is %lld", (long long)cap);

    /* row i of pred is the tree of paths from i: walk it back from j */
    int32_t *row = malloc((size_t)n * sizeof *row);
    if (!row)
        return gk_fail(ctx, GPUK_ERR_NO_MEMORY, "gpuk_apsp_path: no host memory for a row of "
                       "%lld vertices", (long long)n);
    gpuk_tdesc rd;
    int64_t rs[1] = { n };
    gk_desc_dense(P, 1, rs, &rd);
    rd.data = (int32_t *)rd.data + i * n;
    if ((st = gk_transfer(ctx, &rd, row, 0)) != GPUK_OK) {
        free(row);
        return gk_backend_fail(ctx, st, "gpuk_apsp_path: reading row i of pred");
    }
    /* a walk of more than n - 1 steps, or a predecessor out of range
     * (-1 included) before reaching i, means the row is no tree */
    int64_t need = 1;
    if (i != j && row[j] == -1) {
        need = 0;   /* j cannot be reached from i */
    } else if (i != j) {
        for (int64_t v = j; v != i; v = row[v]) {
            if (row[v] < 0 || row[v] >= n || need >= n) {
                free(row);
                return gk_fail(ctx, GPUK_ERR_INVALID, "pred: row %lld is no tree of paths from "
                               "%lld: %s at vertex %lld", (long long)i, (long long)i,
                               need >= n ? "a walk longer than n" : "a predecessor out of range",
                               (long long)v);
            }
            need++;
        }
    }
    *len = need;
    if (need > cap)
        st = gk_fail(ctx, GPUK_ERR_SIZE, "path: cap is %lld but the path from %lld to %lld has "
                     "%lld vertices", (long long)cap, (long long)i, (long long)j, (long long)need);
    else if (need > 0) {
        int64_t v = j;
        path[need - 1] = v;
        for (int64_t k = need - 2; k >= 0; k--)
            path[k] = v = row[v];
    }
    free(row);
    return st;
}

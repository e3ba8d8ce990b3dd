/*
 * t_badshape - the bad-input catalogue, part 3: the rules peculiar to each
 * op.  Shape agreement (each rule once), layouts (a strided view where the
 * op needs a dense tensor, a last-dimension stride other than 1, an output
 * view that maps two elements to one address), aliasing (an output
 * overlapping an input, partly or exactly, where forbidden and where in
 * place is allowed), enums (reduce kind, axis, trans) and embedding ids.
 *
 * Views are cut from one storage tensor S of 64 elements holding 0, 1,
 * 2, ... so overlapping views are easy to place.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpuk.h>

#include "t_rel.h"
#include "tap.h"

static gpuk_context *ctx;

#define E(call, want, arg) REL_EXPECT(ctx, (call), (want), (arg))
#define OK GPUK_OK
#define SHAPE GPUK_ERR_SHAPE
#define LAYOUT GPUK_ERR_LAYOUT
#define ALIAS GPUK_ERR_ALIAS
#define INVALID GPUK_ERR_INVALID

/* A view [r,c] with row stride ld (and column stride cs) at offset off of S. */
static gpuk_tensor *V2(gpuk_tensor *S, int64_t r, int64_t c, int64_t ld, int64_t cs, int64_t off)
{
    return rel_view(ctx, S, 2, REL_SHAPE(r, c), REL_SHAPE(ld, cs), off);
}
static gpuk_tensor *V1(gpuk_tensor *S, int64_t n, int64_t stride, int64_t off)
{
    return rel_view(ctx, S, 1, REL_SHAPE(n), REL_SHAPE(stride), off);
}
static gpuk_tensor *storage(void)
{
    return rel_tensor(ctx, GPUK_F32, 1, REL_SHAPE(64), 0.0f, 1.0f);
}

static void matmul(void)
{
    gpuk_tensor *a = TF(ctx, 3, 4), *b = TF(ctx, 4, 5), *c = TF(ctx, 3, 5), *bias = TF(ctx, 5);
    E(gpuk_matmul(ctx, a, TF(ctx, 5, 5), NULL, c, NULL), SHAPE, "b");
    E(gpuk_matmul(ctx, a, b, NULL, TF(ctx, 4, 5), NULL), SHAPE, "c");
    E(gpuk_matmul(ctx, a, b, NULL, TF(ctx, 3, 6), NULL), SHAPE, "c");
    E(gpuk_matmul(ctx, a, b, TF(ctx, 4), c, NULL), SHAPE, "bias");
    E(gpuk_matmul(ctx, a, b, TF(ctx, 1, 5), c, NULL), SHAPE, "bias");
    gpuk_tensor *S = storage();
    E(gpuk_matmul(ctx, a, b, V1(S, 5, 2, 0), c, NULL), LAYOUT, "bias");
    E(gpuk_matmul(ctx, V2(S, 3, 4, 8, 2, 0), b, NULL, c, NULL), LAYOUT, "a");
    E(gpuk_matmul(ctx, a, V2(S, 4, 5, 10, 2, 0), NULL, c, NULL), LAYOUT, "b");
    E(gpuk_matmul(ctx, a, b, NULL, V2(S, 3, 5, 10, 2, 0), NULL), LAYOUT, "c");
    /* row-strided operands (unit last stride) are fine */
    E(gpuk_matmul(ctx, V2(S, 3, 4, 7, 1, 1), V2(S, 4, 5, 9, 1, 2), bias, c, NULL), OK, NULL);
    /* outputs that map two elements to one address */
    gpuk_tensor *T = storage();
    E(gpuk_matmul(ctx, a, b, NULL, V2(T, 3, 5, 0, 1, 0), NULL), LAYOUT, "c");
    E(gpuk_matmul(ctx, a, b, NULL, V2(T, 3, 5, 2, 1, 0), NULL), LAYOUT, "c");
    /* aliasing */
    gpuk_tensor *sq = TF(ctx, 4, 4), *sq2 = TF(ctx, 4, 4);
    E(gpuk_matmul(ctx, sq, sq2, NULL, sq, NULL), ALIAS, "c");
    E(gpuk_matmul(ctx, sq, sq2, NULL, sq2, NULL), ALIAS, "c");
    E(gpuk_matmul(ctx, V2(T, 3, 4, 4, 1, 0), b, NULL, V2(T, 3, 5, 5, 1, 10), NULL), ALIAS, "c");
    E(gpuk_matmul(ctx, a, b, V1(T, 5, 1, 14), V2(T, 3, 5, 5, 1, 0), NULL), ALIAS, "c");
    E(gpuk_matmul(ctx, a, b, V1(T, 5, 1, 15), V2(T, 3, 5, 5, 1, 0), NULL), OK, NULL);
    /* overlap is judged on address ranges: interleaved views that share
     * no element still count as overlapping (documented) */
    E(gpuk_matmul(ctx, V2(T, 3, 4, 9, 1, 5), sq, NULL, V2(T, 3, 4, 9, 1, 0), NULL), ALIAS, "c");
    /* a and b may be the same tensor */
    E(gpuk_matmul(ctx, sq, sq, NULL, sq2, NULL), OK, NULL);
}

static void batched(void)
{
    gpuk_tensor *a = TF(ctx, 2, 3, 4), *b = TF(ctx, 2, 4, 5), *c = TF(ctx, 2, 3, 5);
    E(gpuk_batched_matmul(ctx, TF(ctx, 3, 3, 4), b, c, NULL), SHAPE, "a");
    E(gpuk_batched_matmul(ctx, a, TF(ctx, 3, 4, 5), c, NULL), SHAPE, "b");
    E(gpuk_batched_matmul(ctx, a, TF(ctx, 2, 5, 5), c, NULL), SHAPE, "b");
    E(gpuk_batched_matmul(ctx, a, b, TF(ctx, 2, 4, 5), NULL), SHAPE, "c");
    E(gpuk_batched_matmul(ctx, a, b, TF(ctx, 2, 3, 6), NULL), SHAPE, "c");
    E(gpuk_batched_matmul(ctx, TF(ctx, 1, 3, 4), TF(ctx, 1, 4, 5), c, NULL), OK, NULL);
    /* c's batch may not broadcast: batch 1 against a's 2 is a's fault */
    E(gpuk_batched_matmul(ctx, a, b, TF(ctx, 1, 3, 5), NULL), SHAPE, "a");
    gpuk_tensor *S = storage();
    /* an input broadcast through batch stride 0 is fine, an output not */
    E(gpuk_batched_matmul(ctx, rel_view(ctx, S, 3, REL_SHAPE(2, 3, 4), REL_SHAPE(0, 4, 1), 0), b,
                          c, NULL), OK, NULL);
    E(gpuk_batched_matmul(ctx, a, b, rel_view(ctx, S, 3, REL_SHAPE(2, 3, 5), REL_SHAPE(0, 5, 1), 0),
                          NULL), LAYOUT, "c");
    E(gpuk_batched_matmul(ctx, a, rel_view(ctx, S, 3, REL_SHAPE(2, 4, 5), REL_SHAPE(20, 5, 3), 0),
                          c, NULL), LAYOUT, "b");
    gpuk_tensor *sq = TF(ctx, 2, 3, 3);
    E(gpuk_batched_matmul(ctx, sq, TF(ctx, 2, 3, 3), sq, NULL), ALIAS, "c");
}

static void minplus_transpose(void)
{
    gpuk_tensor *a = TF(ctx, 3, 4), *b = TF(ctx, 4, 5), *r = TF(ctx, 3, 5);
    E(gpuk_minplus(ctx, a, TF(ctx, 3, 5), r, NULL), SHAPE, "b");
    E(gpuk_minplus(ctx, a, b, TF(ctx, 4, 5), NULL), SHAPE, "r");
    E(gpuk_minplus(ctx, a, b, TF(ctx, 3, 4), NULL), SHAPE, "r");
    gpuk_tensor *S = storage();
    E(gpuk_minplus(ctx, V2(S, 3, 4, 6, 1, 0), b, r, NULL), LAYOUT, "a");
    E(gpuk_minplus(ctx, a, b, V2(S, 3, 5, 6, 1, 0), NULL), LAYOUT, "r");
    gpuk_tensor *d = TF(ctx, 4, 4);
    E(gpuk_minplus(ctx, d, d, TF(ctx, 4, 4), NULL), OK, NULL);
    E(gpuk_minplus(ctx, d, d, d, NULL), ALIAS, "r");

    gpuk_tensor *x = TF(ctx, 3, 4);
    E(gpuk_transpose(ctx, x, TF(ctx, 3, 4), NULL), SHAPE, "y");
    E(gpuk_transpose(ctx, x, TF(ctx, 4, 4), NULL), SHAPE, "y");
    E(gpuk_transpose(ctx, V2(S, 3, 4, 5, 2, 0), TF(ctx, 4, 3), NULL), LAYOUT, "x");
    E(gpuk_transpose(ctx, V2(S, 3, 4, 5, 1, 0), V2(S, 4, 3, 4, 1, 20), NULL), OK, NULL);
    E(gpuk_transpose(ctx, x, V2(S, 4, 3, 0, 1, 0), NULL), LAYOUT, "y");
    gpuk_tensor *q = TF(ctx, 3, 3);
    E(gpuk_transpose(ctx, q, q, NULL), ALIAS, "y");
    E(gpuk_transpose(ctx, V2(S, 3, 4, 4, 1, 0), V2(S, 4, 3, 3, 1, 11), NULL), ALIAS, "y");
}

static void reduce(void)
{
    gpuk_tensor *x = TF(ctx, 3, 4), *o3 = TF(ctx, 3), *o4 = TF(ctx, 4);
    E(gpuk_reduce(ctx, (gpuk_reduce_kind)2, x, 1, o3, NULL), INVALID, "kind");
    E(gpuk_reduce(ctx, (gpuk_reduce_kind)-1, x, 1, o3, NULL), INVALID, "kind");
    E(gpuk_reduce(ctx, GPUK_REDUCE_SUM, x, -1, o3, NULL), INVALID, "axis");
    E(gpuk_reduce(ctx, GPUK_REDUCE_SUM, x, 2, o3, NULL), INVALID, "axis");
    E(gpuk_reduce(ctx, GPUK_REDUCE_MEAN, x, INT32_MIN, o3, NULL), INVALID, "axis");
    E(gpuk_reduce(ctx, GPUK_REDUCE_SUM, x, 1, o4, NULL), SHAPE, "out");
    E(gpuk_reduce(ctx, GPUK_REDUCE_SUM, x, 0, o3, NULL), SHAPE, "out");
    E(gpuk_reduce(ctx, GPUK_REDUCE_SUM, x, 0, o4, NULL), OK, NULL);
    E(gpuk_reduce(ctx, GPUK_REDUCE_SUM, x, 1, TF(ctx, 3, 1), NULL), SHAPE, "out");
    E(gpuk_reduce(ctx, GPUK_REDUCE_SUM, TF(ctx, 6), 0, TF(ctx, 1), NULL), OK, NULL);
    E(gpuk_reduce(ctx, GPUK_REDUCE_SUM, TF(ctx, 6), 0, TF(ctx, 2), NULL), SHAPE, "out");
    gpuk_tensor *S = storage();
    E(gpuk_reduce(ctx, GPUK_REDUCE_SUM, V2(S, 3, 4, 5, 1, 0), 1, o3, NULL), LAYOUT, "x");
    E(gpuk_reduce(ctx, GPUK_REDUCE_SUM, x, 1, V1(S, 3, 2, 0), NULL), LAYOUT, "out");
    E(gpuk_reduce(ctx, GPUK_REDUCE_SUM, V2(S, 3, 4, 4, 1, 0), 1, V1(S, 3, 1, 10), NULL), ALIAS, "out");
    E(gpuk_reduce(ctx, GPUK_REDUCE_SUM, V2(S, 3, 4, 4, 1, 0), 1, V1(S, 3, 1, 12), NULL), OK, NULL);
}

/* add, scale, relu, copy, softmax share the same-shape rules and may run
 * in place; bias_relu adds the bias rules. */
static gpuk_status unary(int which, gpuk_tensor *x, gpuk_tensor *out)
{
    switch (which) {
    case 0: return gpuk_scale(ctx, 0.5f, x, out, NULL);
    case 1: return gpuk_relu(ctx, x, out, NULL);
    case 2: return gpuk_copy(ctx, x, out, NULL);
    default: return gpuk_softmax(ctx, x, out, NULL);
    }
}

static void elementwise(void)
{
    gpuk_tensor *x = TF(ctx, 2, 3), *y = TF(ctx, 2, 3), *out = TF(ctx, 2, 3);
    E(gpuk_add(ctx, x, TF(ctx, 3, 2), out, NULL), SHAPE, "y");
    E(gpuk_add(ctx, x, TF(ctx, 6), out, NULL), SHAPE, "y");
    E(gpuk_add(ctx, x, y, TF(ctx, 2, 4), NULL), SHAPE, "out");
    E(gpuk_add(ctx, x, TF(ctx, 1, 3), out, NULL), SHAPE, "y");   /* no broadcasting */
    gpuk_tensor *S = storage();
    E(gpuk_add(ctx, V2(S, 2, 3, 4, 1, 0), y, out, NULL), LAYOUT, "x");
    E(gpuk_add(ctx, x, V2(S, 2, 3, 3, 2, 0), out, NULL), LAYOUT, "y");
    E(gpuk_add(ctx, x, y, V2(S, 2, 3, 4, 1, 0), NULL), LAYOUT, "out");
    /* in place: out exactly x or y */
    E(gpuk_add(ctx, x, y, x, NULL), OK, NULL);
    E(gpuk_add(ctx, x, y, y, NULL), OK, NULL);
    E(gpuk_add(ctx, x, x, x, NULL), OK, NULL);
    float got[6];
    gpuk_tensor_read(ctx, x, got, sizeof got);
    /* x = 1,1.5,..; after x += y: 2,3,..; y += x: 3,4.5,..; x += x: 4,6,.. */
    tap_ok(got[0] == 4.0f && got[5] == 14.0f, "add in place computes x+y, then y+x, then x+x "
           "(got %g .. %g)", got[0], got[5]);
    /* a second view with the same place and shape is 'exactly' x too */
    gpuk_tensor *s6 = V2(S, 2, 3, 3, 1, 0);
    E(gpuk_add(ctx, s6, y, V2(S, 2, 3, 3, 1, 0), NULL), OK, NULL);
    E(gpuk_add(ctx, V2(S, 2, 3, 3, 1, 0), y, V2(S, 2, 3, 3, 1, 1), NULL), ALIAS, "out");
    E(gpuk_add(ctx, x, V2(S, 2, 3, 3, 1, 2), V2(S, 2, 3, 3, 1, 0), NULL), ALIAS, "out");
    E(gpuk_add(ctx, V1(S, 6, 1, 0), y, V2(S, 2, 3, 3, 1, 0), NULL), SHAPE, "out");

    static const char *const names[] = { "scale", "relu", "copy", "softmax" };
    for (int w = 0; w < 4; w++) {
        char what[96];
        gpuk_tensor *u = TF(ctx, 2, 3), *T = storage();
        snprintf(what, sizeof what, "%s: out of another shape", names[w]);
        rel_expect(ctx, unary(w, u, TF(ctx, 3, 2)), SHAPE, "out", what);
        snprintf(what, sizeof what, "%s: strided x", names[w]);
        rel_expect(ctx, unary(w, V2(T, 2, 3, 5, 1, 0), TF(ctx, 2, 3)), LAYOUT, "x", what);
        snprintf(what, sizeof what, "%s: strided out", names[w]);
        rel_expect(ctx, unary(w, u, V2(T, 2, 3, 3, 2, 0)), LAYOUT, "out", what);
        snprintf(what, sizeof what, "%s: in place (out is x)", names[w]);
        rel_expect(ctx, unary(w, u, u), OK, NULL, what);
        snprintf(what, sizeof what, "%s: out overlaps x by all but one element", names[w]);
        rel_expect(ctx, unary(w, V1(T, 6, 1, 0), V1(T, 6, 1, 1)), ALIAS, "out", what);
    }

    gpuk_tensor *bias = TF(ctx, 3);
    E(gpuk_bias_relu(ctx, x, TF(ctx, 2), out, NULL), SHAPE, "bias");
    E(gpuk_bias_relu(ctx, x, TF(ctx, 1, 3), out, NULL), SHAPE, "bias");
    E(gpuk_bias_relu(ctx, x, bias, TF(ctx, 3, 2), NULL), SHAPE, "out");
    E(gpuk_bias_relu(ctx, x, V1(S, 3, 3, 0), out, NULL), LAYOUT, "bias");
    E(gpuk_bias_relu(ctx, x, bias, x, NULL), OK, NULL);
    gpuk_tensor *xb = TF(ctx, 3);
    E(gpuk_bias_relu(ctx, xb, bias, bias, NULL), ALIAS, "out");
    E(gpuk_bias_relu(ctx, V1(S, 3, 1, 0), bias, V1(S, 3, 1, 2), NULL), ALIAS, "out");
}

static void embedding_meanpool(void)
{
    gpuk_tensor *table = TF(ctx, 5, 3), *ids = TI(ctx, 4), *out = TF(ctx, 4, 3);
    E(gpuk_embedding(ctx, TF(ctx, 15), ids, out, NULL), SHAPE, "table");
    E(gpuk_embedding(ctx, table, TI(ctx, 1, 1, 1, 4), TF(ctx, 1, 1, 1, 4), NULL), SHAPE, "ids");
    E(gpuk_embedding(ctx, table, ids, TF(ctx, 4, 3, 1), NULL), SHAPE, "out");
    E(gpuk_embedding(ctx, table, ids, TF(ctx, 5, 3), NULL), SHAPE, "out");
    E(gpuk_embedding(ctx, table, ids, TF(ctx, 4, 2), NULL), SHAPE, "out");
    E(gpuk_embedding(ctx, table, TI(ctx, 2, 2), TF(ctx, 2, 2, 3), NULL), OK, NULL);
    E(gpuk_embedding(ctx, table, TI(ctx, 2, 2), TF(ctx, 2, 3, 3), NULL), SHAPE, "out");
    gpuk_tensor *S = storage();
    E(gpuk_embedding(ctx, V2(S, 5, 3, 4, 1, 0), ids, out, NULL), LAYOUT, "table");
    E(gpuk_embedding(ctx, table, ids, V2(S, 4, 3, 4, 1, 0), NULL), LAYOUT, "out");
    gpuk_tensor *Si = rel_tensor(ctx, GPUK_I32, 1, REL_SHAPE(16), 0, 0);
    E(gpuk_embedding(ctx, table, V1(Si, 4, 2, 0), out, NULL), LAYOUT, "ids");
    E(gpuk_embedding(ctx, V2(S, 5, 3, 3, 1, 0), ids, V2(S, 4, 3, 3, 1, 3), NULL), ALIAS, "out");

    int32_t bad[][4] = { { 0, 1, 5, 2 }, { 0, -1, 1, 2 }, { INT32_MIN, 0, 0, 0 },
                         { 0, 0, 0, INT32_MAX } };
    for (int i = 0; i < 4; i++) {
        gpuk_tensor *bi = TI(ctx, 4);
        gpuk_tensor_write(ctx, bi, bad[i], sizeof bad[i]);
        char what[96];
        snprintf(what, sizeof what, "embedding: ids {%d, %d, %d, %d} against 5 rows", bad[i][0],
                 bad[i][1], bad[i][2], bad[i][3]);
        rel_expect(ctx, gpuk_embedding(ctx, table, bi, out, NULL), GPUK_ERR_INDEX, "ids", what);
        if (i == 0) {
            /* an empty table has no row to name: every id is out of range */
            rel_expect(ctx, gpuk_embedding(ctx, TF(ctx, 0, 3), bi, out, NULL), GPUK_ERR_INDEX, "ids",
                       "embedding: any id against a table of 0 rows");
            /* nothing is gathered when rows have length 0: ids are not read */
            rel_expect(ctx, gpuk_embedding(ctx, TF(ctx, 5, 0), bi, TF(ctx, 4, 0), NULL), GPUK_OK,
                       NULL, "embedding: out-of-range ids with rows of length 0 (empty out)");
        }
    }
    float got[12];
    gpuk_tensor_read(ctx, out, got, sizeof got);
    tap_ok(got[0] == 1.0f && got[11] == 6.5f, "the rejected gathers left out as it was");

    gpuk_tensor *x = TF(ctx, 2, 3, 4), *o = TF(ctx, 2, 4);
    E(gpuk_meanpool(ctx, TF(ctx, 12), o, NULL), SHAPE, "x");
    E(gpuk_meanpool(ctx, x, TF(ctx, 2, 3), NULL), SHAPE, "out");
    E(gpuk_meanpool(ctx, x, TF(ctx, 3, 4), NULL), SHAPE, "out");
    E(gpuk_meanpool(ctx, x, TF(ctx, 8), NULL), SHAPE, "out");
    E(gpuk_meanpool(ctx, TF(ctx, 3, 4), TF(ctx, 4), NULL), OK, NULL);
    E(gpuk_meanpool(ctx, TF(ctx, 2, 2, 3, 4), TF(ctx, 2, 2, 4), NULL), OK, NULL);
    E(gpuk_meanpool(ctx, rel_view(ctx, S, 3, REL_SHAPE(2, 3, 4), REL_SHAPE(13, 4, 1), 0), o, NULL),
      LAYOUT, "x");
    E(gpuk_meanpool(ctx, V2(S, 3, 4, 4, 1, 0), V1(S, 4, 1, 8), NULL), ALIAS, "out");
}

static void sparse_blas(void)
{
    const int32_t rp[] = { 0, 2, 2, 3 }, ci[] = { 0, 2, 3 };
    const float v[] = { 1, 2, 3 };
    gpuk_csr *m = NULL;
    gpuk_csr_create(ctx, 3, 4, 3, rp, ci, v, &m);
    gpuk_tensor *x = TF(ctx, 4), *y = TF(ctx, 3), *S = storage();
    E(gpuk_spmv(ctx, m, TF(ctx, 3), y, NULL), SHAPE, "x");
    E(gpuk_spmv(ctx, m, x, TF(ctx, 4), NULL), SHAPE, "y");
    E(gpuk_spmv(ctx, m, x, TF(ctx, 3, 1), NULL), SHAPE, "y");
    E(gpuk_spmv(ctx, m, V1(S, 4, 2, 0), y, NULL), LAYOUT, "x");
    E(gpuk_spmv(ctx, m, x, V1(S, 3, 2, 0), NULL), LAYOUT, "y");
    E(gpuk_spmv(ctx, m, V1(S, 4, 1, 0), V1(S, 3, 1, 3), NULL), ALIAS, "y");
    E(gpuk_spmv(ctx, m, V1(S, 4, 1, 0), V1(S, 3, 1, 4), NULL), OK, NULL);

    gpuk_tensor *o = TF(ctx, 1);
    E(gpuk_dot(ctx, x, TF(ctx, 5), o, NULL), SHAPE, "y");
    E(gpuk_dot(ctx, x, x, TF(ctx, 2), NULL), SHAPE, "out");
    E(gpuk_dot(ctx, x, x, TF(ctx, 0), NULL), SHAPE, "out");
    E(gpuk_dot(ctx, V1(S, 4, 3, 0), x, o, NULL), LAYOUT, "x");
    E(gpuk_dot(ctx, x, x, o, NULL), OK, NULL);
    E(gpuk_dot(ctx, V1(S, 4, 1, 0), x, V1(S, 1, 1, 2), NULL), ALIAS, "out");
    E(gpuk_dot(ctx, x, V1(S, 4, 1, 0), V1(S, 1, 1, 3), NULL), ALIAS, "out");

    gpuk_tensor *a = TF(ctx, 3, 4), *x3 = TF(ctx, 3);
    E(gpuk_gemv(ctx, (gpuk_trans)2, 1, a, x, 0, y, NULL), INVALID, "trans");
    E(gpuk_gemv(ctx, (gpuk_trans)-1, 1, a, x, 0, y, NULL), INVALID, "trans");
    E(gpuk_gemv(ctx, GPUK_NO_TRANS, 1, a, x3, 0, y, NULL), SHAPE, "x");
    E(gpuk_gemv(ctx, GPUK_NO_TRANS, 1, a, x, 0, x, NULL), SHAPE, "y");
    E(gpuk_gemv(ctx, GPUK_TRANS, 1, a, x, 0, x, NULL), SHAPE, "x");
    E(gpuk_gemv(ctx, GPUK_TRANS, 1, a, x3, 0, y, NULL), SHAPE, "y");
    E(gpuk_gemv(ctx, GPUK_TRANS, 1, a, x3, 0, TF(ctx, 4), NULL), OK, NULL);
    E(gpuk_gemv(ctx, GPUK_NO_TRANS, 1, V2(S, 3, 4, 6, 1, 1), x, 0, y, NULL), OK, NULL);
    E(gpuk_gemv(ctx, GPUK_NO_TRANS, 1, V2(S, 3, 4, 8, 2, 0), x, 0, y, NULL), LAYOUT, "a");
    E(gpuk_gemv(ctx, GPUK_NO_TRANS, 1, a, V1(S, 4, 2, 0), 0, y, NULL), LAYOUT, "x");
    E(gpuk_gemv(ctx, GPUK_NO_TRANS, 1, a, x, 1, V1(S, 3, 0, 0), NULL), LAYOUT, "y");
    E(gpuk_gemv(ctx, GPUK_NO_TRANS, 1, V2(S, 3, 4, 4, 1, 0), x, 0, V1(S, 3, 1, 11), NULL), ALIAS, "y");
    E(gpuk_gemv(ctx, GPUK_NO_TRANS, 1, a, V1(S, 4, 1, 20), 0, V1(S, 3, 1, 22), NULL), ALIAS, "y");
    /* NaN scalars are values, not errors */
    E(gpuk_gemv(ctx, GPUK_NO_TRANS, NAN, a, x, INFINITY, y, NULL), OK, NULL);

    gpuk_tensor *b = TF(ctx, 4, 5), *c = TF(ctx, 3, 5);
    E(gpuk_gemm(ctx, (gpuk_trans)2, GPUK_NO_TRANS, 1, a, b, 0, c, NULL), INVALID, "trans_a");
    E(gpuk_gemm(ctx, GPUK_NO_TRANS, (gpuk_trans)7, 1, a, b, 0, c, NULL), INVALID, "trans_b");
    E(gpuk_gemm(ctx, GPUK_TRANS, GPUK_NO_TRANS, 1, a, b, 0, c, NULL), SHAPE, "b");
    E(gpuk_gemm(ctx, GPUK_NO_TRANS, GPUK_TRANS, 1, a, b, 0, c, NULL), SHAPE, "b");
    E(gpuk_gemm(ctx, GPUK_NO_TRANS, GPUK_TRANS, 1, a, TF(ctx, 5, 4), 0, c, NULL), OK, NULL);
    E(gpuk_gemm(ctx, GPUK_TRANS, GPUK_TRANS, 1, TF(ctx, 4, 3), TF(ctx, 5, 4), 0, c, NULL), OK, NULL);
    E(gpuk_gemm(ctx, GPUK_NO_TRANS, GPUK_NO_TRANS, 1, a, b, 0, TF(ctx, 5, 3), NULL), SHAPE, "c");
    E(gpuk_gemm(ctx, GPUK_NO_TRANS, GPUK_NO_TRANS, 1, a, b, 0, TF(ctx, 3, 4), NULL), SHAPE, "c");
    E(gpuk_gemm(ctx, GPUK_NO_TRANS, GPUK_NO_TRANS, 1, a, b, 0, V2(S, 3, 5, 0, 1, 0), NULL),
      LAYOUT, "c");
    E(gpuk_gemm(ctx, GPUK_NO_TRANS, GPUK_NO_TRANS, 1, a, V2(S, 4, 5, 10, 2, 0), 0, c, NULL),
      LAYOUT, "b");
    gpuk_tensor *sq = TF(ctx, 4, 4);
    E(gpuk_gemm(ctx, GPUK_NO_TRANS, GPUK_NO_TRANS, 1, sq, TF(ctx, 4, 4), 1, sq, NULL), ALIAS, "c");
    E(gpuk_gemm(ctx, GPUK_NO_TRANS, GPUK_NO_TRANS, 1, a, V2(S, 4, 5, 5, 1, 0),
                0, V2(S, 3, 5, 5, 1, 19), NULL), ALIAS, "c");
}

int main(void)
{
    if (gpuk_context_open(&ctx, "cpu") != GPUK_OK) {
        tap_ok(0, "opening a cpu context");
        return tap_done();
    }
    matmul();
    batched();
    minplus_transpose();
    reduce();
    elementwise();
    embedding_meanpool();
    sparse_blas();
    /* every tensor made above is still alive: closing frees them all */
    gpuk_context_close(ctx);
    return tap_done();
}

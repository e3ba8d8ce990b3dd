/*
 * tests/ops/matmul.c - what the tests and the fuzz harness know about the
 * dense products matmul, batched_matmul and gemm (gpuk_matmul(3)): their
 * calls, the op suite's cases, the references (every float dtype, in long
 * double), the bad-input specs and shape rules, the empty-tensor and NaN
 * cases, the fuzz shapes.  The layout of every family file is the same
 * (see tests/optest.h).
 */
#include "../opcall.h"

#ifdef OPTEST_CALLS
/* ---- the calls: all that tests/opcall.c takes from this file ---- */

/* in[0] a, in[1] b, in[2] bias (NULL: none), out c */
static gpuk_status opcall_MATMUL(gpuk_context *ctx, const opcall_args *a, const char *v)
{
    return gpuk_matmul(ctx, a->in[0], a->in[1], a->in[2], a->out, v);
}

/* in[0] a, in[1] b, out c */
static gpuk_status opcall_BATCHED_MATMUL(gpuk_context *ctx, const opcall_args *a, const char *v)
{
    return gpuk_batched_matmul(ctx, a->in[0], a->in[1], a->out, v);
}

/* in[0] a, in[1] b, out c; trans_a, trans_b, alpha, beta */
static gpuk_status opcall_GEMM(gpuk_context *ctx, const opcall_args *a, const char *v)
{
    return gpuk_gemm(ctx, (gpuk_trans)a->trans_a, (gpuk_trans)a->trans_b, a->alpha, a->in[0],
                     a->in[1], a->beta, a->out, v);
}

#else /* everything else, in the test library */
#include "family.h"

/* ---- the op suite's cases ---- */

/* f16 and bf16 inputs (issue 27) run every case twice: first with c (and
 * matmul's bias) in the inputs' dtype, then in f32 (gpuk/backend.h, ABI
 * 2.4).  Case i of a table of n in dtype dt: its row, and c's dtype; -1
 * past the last case. */
static int lowp_row(int i, int n, gpuk_dtype dt, gpuk_dtype *odt)
{
    int h16 = dt == GPUK_F16 || dt == GPUK_BF16;
    *odt = h16 && i >= n ? GPUK_F32 : dt;
    if (i >= (h16 ? 2 * n : n))
        return -1;
    return i % n;
}

/* The label's note of an f32 c for 16-bit inputs. */
static const char *lowp_note(gpuk_dtype dt, gpuk_dtype odt)
{
    return odt != dt ? " c f32" : "";
}

static int b_matmul(oc_case *c, int i, gpuk_dtype dt, uint64_t *g)
{
    static const int T[][5] = { /* m, k, n, bias, layout */
        { 1, 1, 1, 1, OC_DENSE }, { 7, 33, 5, 0, OC_OFF1 }, { 7, 33, 5, 1, OC_STRIDED },
        { 33, 7, 127, 1, OC_OFF1 }, { 127, 257, 33, 0, OC_STRIDED }, { 257, 127, 1, 1, OC_DENSE },
        { 1, 257, 7, 0, OC_STRIDED }, { 33, 0, 7, 1, OC_DENSE }, { 33, 0, 7, 0, OC_OFF1 },
        { 257, 33, 257, 1, OC_STRIDED }, { 1000, 65, 33, 1, OC_OFF1 },
        /* multiples of 4 on aligned rows: the vectorized paths */
        { 130, 68, 260, 1, OC_DENSE }, { 128, 128, 128, 0, OC_DENSE }, { 64, 36, 132, 1, OC_PAD4 },
        { 256, 64, 128, 0, OC_PAD4 }, { 16, 2048, 12, 1, OC_DENSE },
        /* whole 128 x 256 tiles beside edge ones, k a multiple of 32: the
         * copies spread over the k steps in warptile_wide (CUDA), with one
         * launch and with split k */
        { 260, 96, 520, 1, OC_DENSE }, { 260, 224, 520, 0, OC_DENSE },
        /* k past the 1024 of one dpbf16 k-block (CPU), odd: the partial
         * sums between blocks and a k-pair with no partner */
        { 13, 1029, 70, 1, OC_OFF1 } };
    gpuk_dtype odt;
    /* and in bf16, a 127x257x33 with a below 2^-56 (c in bf16, then f32),
     * where the CPU's dpbf16 rung hands the product to its simd rung
     * (matmul_lowp.c says why) */
    int tiny = dt == GPUK_BF16 && i >= 2 * NELEM(T) && i < 2 * NELEM(T) + 2;
    if (tiny)
        odt = i % 2 ? GPUK_F32 : dt, i = 4;
    else if ((i = lowp_row(i, NELEM(T), dt, &odt)) < 0)
        return 0;
    const int *t = T[i];
    int64_t m = t[0], k = t[1], n = t[2];
    c->m = m, c->k = k, c->n = n, c->n_in = t[3] ? 3 : 2;
    oc_arg_set(&c->in[0], dt, 2, SH(m, k), t[4],
               tiny ? oc_rnd_vec(g, dt, m * k, 0x1p-57, 0.0) : RND(m * k));
    oc_arg_set(&c->in[1], dt, 2, SH(k, n), t[4], RND(k * n));
    if (t[3])
        oc_arg_set(&c->in[2], odt, 1, SH(n), t[4], oc_rnd_vec(g, odt, n, 1.0, 0.0));
    oc_arg_set(&c->out, odt, 2, SH(m, n), t[4], NULL);
    LBL("%dx%dx%d%s %s%s%s", t[0], t[1], t[2], t[3] ? " bias" : "", oc_layout_name(t[4]),
        tiny ? " a below 2^-56" : "", lowp_note(dt, odt));
    return 1;
}

/* An operand of batched matmul: batch `bt` (0: a view of `batch` copies
 * with batch stride 0), matrix r x q. */
static void bm_operand(oc_arg *a, gpuk_dtype dt, int bt, int batch, int64_t r, int64_t q, int L,
                       uint64_t *g)
{
    int64_t nb = bt ? bt : batch;
    oc_arg_set(a, dt, 3, SH(nb, r, q), L,
               bt ? oc_rnd_vec(g, dt, nb * r * q, 1, 0) : oc_rnd_rep(g, dt, r * q, nb));
    if (!bt) {
        a->stride[0] = 0;
        oc_arg_span(a);
    }
}

static int b_batched(oc_case *c, int i, gpuk_dtype dt, uint64_t *g)
{
    static const int T[][7] = { /* batch, a's batch, b's batch (0: stride 0), m, k, n, layout */
        { 1, 1, 1, 1, 1, 1, OC_DENSE }, { 3, 3, 3, 7, 33, 5, OC_OFF1 },
        { 4, 1, 4, 33, 7, 127, OC_STRIDED }, { 5, 5, 1, 127, 33, 7, OC_STRIDED },
        { 2, 2, 2, 257, 17, 33, OC_DENSE }, { 3, 1, 3, 7, 0, 5, OC_OFF1 },
        { 4, 4, 1, 1, 257, 7, OC_OFF1 }, { 3, 0, 3, 33, 7, 5, OC_STRIDED },
        { 2, 2, 0, 7, 33, 127, OC_OFF1 }, { 2, 1, 2, 1000, 33, 65, OC_DENSE },
        { 2, 2, 2, 68, 36, 132, OC_DENSE }, { 3, 1, 3, 64, 64, 64, OC_PAD4 },
        { 2, 2, 0, 128, 32, 64, OC_PAD4 } };
    gpuk_dtype odt;
    if ((i = lowp_row(i, NELEM(T), dt, &odt)) < 0)
        return 0;
    const int *t = T[i];
    c->bc = t[0], c->ba = t[1] > 1 ? t[0] : 1, c->bb = t[2] > 1 ? t[0] : 1;
    c->m = t[3], c->k = t[4], c->n = t[5], c->n_in = 2;
    bm_operand(&c->in[0], dt, t[1], t[0], c->m, c->k, t[6], g);
    bm_operand(&c->in[1], dt, t[2], t[0], c->k, c->n, t[6], g);
    oc_arg_set(&c->out, odt, 3, SH(c->bc, c->m, c->n), t[6], NULL);
    LBL("batch %d (a %d%s, b %d%s) %dx%dx%d %s%s", t[0], t[1] ? t[1] : t[0],
        t[1] ? "" : " stride 0", t[2] ? t[2] : t[0], t[2] ? "" : " stride 0", t[3], t[4],
        t[5], oc_layout_name(t[6]), lowp_note(dt, odt));
    return 1;
}

/* alpha and beta in quarters, as for gemv (tests/ops/blas.c); alpha 0
 * with NaN in a and b, and beta 0 over a NaN c, check what is not read.
 * In f64 each is scaled by 1 + 2^-30, which no f32 holds: a kernel that
 * reads gpuk_args.alpha (the float) instead of alpha_f64 is off by 2^23
 * of f64's u, far outside the bound. */
static int b_gemm(oc_case *c, int i, gpuk_dtype dt, uint64_t *g)
{
    static const int T[][8] = { /* trans_a, trans_b, m, n, k, alpha*4, beta*4, layout */
        { 0, 0, 7, 5, 33, 4, 0, OC_STRIDED }, { 1, 0, 7, 5, 33, 2, -6, OC_OFF1 },
        { 0, 1, 33, 127, 7, -8, 1, OC_STRIDED }, { 1, 1, 33, 127, 7, 4, 0, OC_DENSE },
        { 0, 0, 1, 1, 1, 4, 4, OC_OFF1 }, { 1, 1, 127, 33, 257, 6, 0, OC_STRIDED },
        { 0, 1, 257, 1, 127, 4, 2, OC_OFF1 }, { 1, 0, 33, 7, 0, 4, -2, OC_DENSE },
        { 0, 0, 33, 7, 0, 4, 0, OC_DENSE }, { 1, 0, 1000, 65, 33, -4, 0, OC_OFF1 },
        { 0, 0, 33, 17, 7, 0, 6, OC_STRIDED }, { 0, 1, 7, 33, 17, 0, 0, OC_DENSE },
        /* whole and edge tiles of the 16-bit rungs, both transposes, k
         * odd and past one dpbf16 k-block (CPU) */
        { 1, 1, 70, 130, 1031, 2, 3, OC_OFF1 }, { 0, 1, 128, 64, 64, 4, 0, OC_PAD4 } };
    static const double nan1[] = { NAN };
    gpuk_dtype odt;
    if ((i = lowp_row(i, NELEM(T), dt, &odt)) < 0)
        return 0;
    const int *t = T[i];
    int64_t m = t[2], n = t[3], k = t[4];
    double sc = dt == GPUK_F64 ? 1.0 + 0x1p-30 : 1.0;
    c->ta = t[0], c->tb = t[1], c->m = m, c->n = n, c->k = k, c->n_in = 2;
    c->alpha = t[5] / 4.0 * sc, c->beta = t[6] / 4.0 * sc;
    oc_arg_set(&c->in[0], dt, 2, t[0] ? SH(k, m) : SH(m, k), t[7], RND(m * k));
    oc_arg_set(&c->in[1], dt, 2, t[1] ? SH(n, k) : SH(k, n), t[7], RND(k * n));
    oc_arg_set(&c->out, odt, 2, SH(m, n), t[7], t[6] ? oc_rnd_vec(g, odt, m * n, 1.0, 0.0) : NULL);
    if (t[5] == 0) { /* alpha 0: a and b are not read, so their NaN stays out */
        oc_sprinkle(g, dt, c->in[0].vals, m * k, 3, nan1, 1);
        oc_sprinkle(g, dt, c->in[1].vals, k * n, 2, nan1, 1);
    }
    LBL("%s%s %dx%dx%d alpha %.10g beta %.10g%s %s%s", t[0] ? "T" : "N", t[1] ? "T" : "N", t[2],
        t[4], t[3], c->alpha, c->beta, t[5] ? "" : " NaN inputs", oc_layout_name(t[7]),
        lowp_note(dt, odt));
    return 1;
}

/* ---- the references ---- */

/* Matmul: K products plus the bias as one more addend (whether the kernel
 * starts its accumulator from the bias or adds it last).  b is given
 * transposed (bt[j * k + p] = b[p][j]). */
static void ref_matmul_t(const ref_tol *t, int64_t m, int64_t k, int64_t n, const ref_real *a,
                         const ref_real *bt, const ref_real *bias, ref_real *ref, double *bound)
{
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            ref_acc s = ref_acc_start(bias ? bias[j] : 0.0L);
            for (int64_t p = 0; p < k; p++)
                ref_acc_prod(&s, a[i * k + p], bt[j * k + p]);
            ref[i * n + j] = ref_acc_value(&s);
            bound[i * n + j] = ref_sum_bound(t, k + (bias ? 1 : 0), s.abs, ref[i * n + j]);
        }
}

static void ref_matmul(const ref_tol *t, int64_t m, int64_t k, int64_t n, const ref_real *a,
                       const ref_real *b, const ref_real *bias, ref_real *ref, double *bound)
{
    ref_real *bt = ref_transposed(b, k, n);
    ref_matmul_t(t, m, k, n, a, bt, bias, ref, bound);
    free(bt);
}

static void ref_batched_matmul(const ref_tol *t, int64_t bc, int64_t ba, int64_t bb, int64_t m,
                               int64_t k, int64_t n, const ref_real *a, const ref_real *b,
                               ref_real *ref, double *bound)
{
    for (int64_t z = 0; z < bc; z++)
        ref_matmul(t, m, k, n, a + (ba == 1 ? 0 : z) * m * k, b + (bb == 1 ? 0 : z) * k * n,
                   NULL, ref + z * m * n, bound + z * m * n);
}

static void ref_gemm(const ref_tol *t, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k,
                     ref_real alpha, const ref_real *a, const ref_real *b, ref_real beta,
                     const ref_real *c0, ref_real *ref, double *bound)
{
    /* op(a) by rows and op(b) by columns, both contiguous in p */
    ref_real *ar = trans_a ? ref_transposed(a, k, m) : NULL;
    ref_real *bc = trans_b ? NULL : ref_transposed(b, k, n);
    const ref_real *A = trans_a ? ar : a, *B = trans_b ? b : bc;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            ref_acc s = ref_acc_start(0.0L);
            for (int64_t p = 0; p < k; p++)
                ref_acc_prod(&s, A[i * k + p], B[j * k + p]);
            ref_blas_entry(t, &s, k, alpha, beta, c0 ? c0 + i * n + j : NULL, ref + i * n + j,
                           bound + i * n + j);
        }
    free(ar);
    free(bc);
}

static void matmul_ref(const ref_args *a, const ref_tol *t, ref_real *ref, double *bound)
{
    const ref_operand *A = &a->in[0], *B = &a->in[1], *bias = &a->in[2];
    ref_real *va = ref_load(A->dtype, A->vals, ref_numel(A));
    ref_real *vb = ref_load(B->dtype, B->vals, ref_numel(B));
    ref_real *vbias = ref_load(bias->dtype, bias->vals, ref_numel(bias));
    ref_matmul(t, A->shape[0], A->shape[1], B->shape[1], va, vb, vbias, ref, bound);
    free(va);
    free(vb);
    free(vbias);
}

static void batched_ref(const ref_args *a, const ref_tol *t, ref_real *ref, double *bound)
{
    const ref_operand *A = &a->in[0], *B = &a->in[1];
    const int64_t *s0 = A->shape, *s1 = B->shape;
    ref_real *va = ref_load(A->dtype, A->vals, ref_numel(A));
    ref_real *vb = ref_load(B->dtype, B->vals, ref_numel(B));
    ref_batched_matmul(t, a->out.shape[0], s0[0], s1[0], s0[1], s0[2], s1[2], va, vb, ref, bound);
    free(va);
    free(vb);
}

/* k is a's second dimension, or its first when a is transposed; c is
 * read only where beta is not 0 */
static void gemm_ref(const ref_args *a, const ref_tol *t, ref_real *ref, double *bound)
{
    const ref_operand *A = &a->in[0], *B = &a->in[1];
    ref_real *va = ref_load(A->dtype, A->vals, ref_numel(A));
    ref_real *vb = ref_load(B->dtype, B->vals, ref_numel(B));
    ref_real *vc = a->beta != 0 ? ref_load(a->out.dtype, a->out.vals, ref_numel(&a->out)) : NULL;
    ref_gemm(t, a->trans_a, a->trans_b, a->out.shape[0], a->out.shape[1],
             a->trans_a ? A->shape[0] : A->shape[1], ref_scalar(t->dtype, a->alpha), va, vb,
             ref_scalar(t->dtype, a->beta), vc, ref, bound);
    free(va);
    free(vb);
    free(vc);
}

/* ---- t_badshape: the rules of each op ---- */

static void matmul_rules(gpuk_context *ctx)
{
    gpuk_tensor *a = TF(ctx, 3, 4), *b = TF(ctx, 4, 5), *c = TF(ctx, 3, 5), *bias = TF(ctx, 5);
    E(gpuk_matmul(ctx, a, TF(ctx, 5, 5), NULL, c, NULL), SHAPE, "b");
    E(gpuk_matmul(ctx, a, b, NULL, TF(ctx, 4, 5), NULL), SHAPE, "c");
    E(gpuk_matmul(ctx, a, b, NULL, TF(ctx, 3, 6), NULL), SHAPE, "c");
    E(gpuk_matmul(ctx, a, b, TF(ctx, 4), c, NULL), SHAPE, "bias");
    E(gpuk_matmul(ctx, a, b, TF(ctx, 1, 5), c, NULL), SHAPE, "bias");
    gpuk_tensor *S = STORAGE();
    E(gpuk_matmul(ctx, a, b, V1(S, 5, 2, 0), c, NULL), LAYOUT, "bias");
    E(gpuk_matmul(ctx, V2(S, 3, 4, 8, 2, 0), b, NULL, c, NULL), LAYOUT, "a");
    E(gpuk_matmul(ctx, a, V2(S, 4, 5, 10, 2, 0), NULL, c, NULL), LAYOUT, "b");
    E(gpuk_matmul(ctx, a, b, NULL, V2(S, 3, 5, 10, 2, 0), NULL), LAYOUT, "c");
    /* row-strided operands (unit last stride) are fine */
    E(gpuk_matmul(ctx, V2(S, 3, 4, 7, 1, 1), V2(S, 4, 5, 9, 1, 2), bias, c, NULL), OK, NULL);
    /* outputs that map two elements to one address */
    gpuk_tensor *T = STORAGE();
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

static void batched_rules(gpuk_context *ctx)
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
    gpuk_tensor *S = STORAGE();
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

static void gemm_rules(gpuk_context *ctx)
{
    gpuk_tensor *a = TF(ctx, 3, 4), *b = TF(ctx, 4, 5), *c = TF(ctx, 3, 5), *S = STORAGE();
    E(gpuk_gemm(ctx, (gpuk_trans)2, GPUK_NO_TRANS, 1, a, b, 0, c, NULL), INVALID, "trans_a");
    E(gpuk_gemm(ctx, GPUK_NO_TRANS, (gpuk_trans)7, 1, a, b, 0, c, NULL), INVALID, "trans_b");
    E(gpuk_gemm(ctx, GPUK_TRANS, GPUK_NO_TRANS, 1, a, b, 0, c, NULL), SHAPE, "b");
    E(gpuk_gemm(ctx, GPUK_NO_TRANS, GPUK_TRANS, 1, a, b, 0, c, NULL), SHAPE, "b");
    E(gpuk_gemm(ctx, GPUK_NO_TRANS, GPUK_TRANS, 1, a, TF(ctx, 5, 4), 0, c, NULL), OK, NULL);
    E(gpuk_gemm(ctx, GPUK_TRANS, GPUK_TRANS, 1, TF(ctx, 4, 3), TF(ctx, 5, 4), 0, c, NULL), OK,
      NULL);
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

/* ---- t_empty: empty outputs, empty sums, NaN and infinity ----
 *
 * Expected values come from the references above where they state the
 * same semantics, else are written here.  Finite elements are compared
 * within oe_tol's bound: they only need to be close. */

/* a b[4,5] for the NaN cases of all three */
static const ref_real nf_b[20] = { 1, 2, -1, 0.5, 1, 0.25, 1, 1, 2, -3,
                                   2, 1, -1, 0, 1, 1, 1, 1, 1, 1 };

static void matmul_empty(gpuk_context *ctx, gpuk_dtype dt)
{
    const ref_real N = NAN, P = INFINITY;
    const ref_tol u = oe_tol(dt);
    ref_real ref[OE_MAXN];
    double bd[OE_MAXN];
    oe_expect e;
    opcall_args k;

    k = oe_call(GPUK_OP_MATMUL, MK(NULL, 0, 4), MK(NULL, 4, 5), NULL, MK(NULL, 0, 5));
    RUN(k, "a[0,4] b[4,5] -> c[0,5]", NULL, NULL);
    k = oe_call(GPUK_OP_MATMUL, MK(NULL, 3, 4), MK(NULL, 4, 0), MK(NULL, 0), MK(NULL, 3, 0));
    RUN(k, "a[3,4] b[4,0] bias[0] -> c[3,0]", NULL, NULL);

    /* k = 0: a sum of nothing is 0, so c is the bias (or 0) */
    const ref_real bias0[5] = { 1, -2, 3.5, 0, -0.25 };
    k = oe_call(GPUK_OP_MATMUL, MK(NULL, 3, 0), MK(NULL, 0, 5), NULL, MK(NULL, 3, 5));
    oe_const(&e, 15, 0.0L);
    RUN(k, "k = 0, no bias: c = 0", NULL, &e);
    k.in[2] = MK(bias0, 5);
    for (int i = 0; i < 15; i++)
        e.v[i] = bias0[i % 5];
    RUN(k, "k = 0 with bias: every row is the bias", NULL, &e);

    /* a NaN spoils its row; inf * 0 is NaN; +inf meets a -inf bias */
    const ref_real a[12] = { 1, N, 2, -1, 0.5, 3, P, 2, 1, 2, 3, 4 };
    const ref_real bias[5] = { 0, 1, 2, 3, -P };
    k = oe_call(GPUK_OP_MATMUL, MK(a, 3, 4), MK(nf_b, 4, 5), MK(bias, 5), MK(NULL, 3, 5));
    ref_matmul(&u, 3, 4, 5, a, nf_b, bias, ref, bd);
    oe_from_ref(&e, 15, ref, bd);
    RUN(k, "NaN and inf in a, -inf in the bias, inf * 0", NULL, &e);
}

static void batched_empty(gpuk_context *ctx, gpuk_dtype dt)
{
    const ref_real N = NAN, P = INFINITY;
    const ref_tol u = oe_tol(dt);
    ref_real ref[OE_MAXN];
    double bd[OE_MAXN];
    oe_expect e;
    opcall_args k;

    k = oe_call(GPUK_OP_BATCHED_MATMUL, MK(NULL, 1, 3, 4), MK(NULL, 1, 4, 5), NULL,
                MK(NULL, 0, 3, 5));
    RUN(k, "batch 0", NULL, NULL);
    k = oe_call(GPUK_OP_BATCHED_MATMUL, MK(NULL, 2, 0, 4), MK(NULL, 2, 4, 5), NULL,
                MK(NULL, 2, 0, 5));
    RUN(k, "m = 0", NULL, NULL);

    k = oe_call(GPUK_OP_BATCHED_MATMUL, MK(NULL, 2, 3, 0), MK(NULL, 1, 0, 2), NULL,
                MK(NULL, 2, 3, 2));
    oe_const(&e, 12, 0.0L);
    RUN(k, "k = 0: c = 0", NULL, &e);

    const ref_real ba[12] = { N, 1, 2, 3, 4, 5, 1, 2, P, 0, 1, -P };
    k = oe_call(GPUK_OP_BATCHED_MATMUL, MK(ba, 2, 2, 3), MK(nf_b, 1, 3, 2), NULL,
                MK(NULL, 2, 2, 2));
    ref_batched_matmul(&u, 2, 2, 1, 2, 3, 2, ba, nf_b, ref, bd);
    oe_from_ref(&e, 8, ref, bd);
    RUN(k, "NaN and +-inf in a, b broadcast", NULL, &e);
}

/* With beta == 0, c is not read (gpuk.h): a NaN there must not show. */
static void gemm_empty(gpuk_context *ctx, gpuk_dtype dt)
{
    const ref_real N = NAN, P = INFINITY;
    const ref_tol u = oe_tol(dt);
    ref_real ref[OE_MAXN];
    double bd[OE_MAXN];
    oe_expect e;
    opcall_args k;

    k = oe_call(GPUK_OP_GEMM, MK(NULL, 0, 4), MK(NULL, 4, 5), NULL, MK(NULL, 0, 5));
    RUN(k, "c[0,5]", NULL, NULL);
    k = oe_call(GPUK_OP_GEMM, MK(NULL, 3, 4), MK(NULL, 4, 0), NULL, MK(NULL, 3, 0));
    k.trans_a = 0;
    RUN(k, "c[3,0]", NULL, NULL);

    ref_real c0[15], cnan[15];
    for (int i = 0; i < 15; i++) {
        c0[i] = (ref_real)i - 7;
        cnan[i] = N;
    }
    k = oe_call(GPUK_OP_GEMM, MK(NULL, 3, 0), MK(NULL, 0, 5), NULL, MK(NULL, 3, 5));
    k.beta = 0.5;
    oe_const(&e, 15, 0.0L);
    for (int i = 0; i < 15; i++)
        e.v[i] = 0.5L * c0[i];
    RUN(k, "k = 0, beta = 0.5: c = 0.5 c", c0, &e);
    k.beta = 0;
    oe_const(&e, 15, 0.0L);
    RUN(k, "k = 0, beta = 0 over a NaN c: c = 0", cnan, &e);

    const ref_real ga[12] = { 1, 2, 3, 4, N, 1, 1, 1, P, 1, -1, 0 };
    k = oe_call(GPUK_OP_GEMM, MK(ga, 3, 4), MK(nf_b, 4, 5), NULL, MK(NULL, 3, 5));
    k.alpha = 1;
    k.beta = 0;
    ref_gemm(&u, 0, 0, 3, 5, 4, 1, ga, nf_b, 0, cnan, ref, bd);
    oe_from_ref(&e, 15, ref, bd);
    RUN(k, "NaN and inf in a; beta = 0 ignores a NaN c", cnan, &e);
}

/* ---- the fuzz harness: valid calls from the input bytes ---- */

static int matmul_fuzz(fz *f, fz_call *c, unsigned sp)
{
    int64_t m = fz_dim(f), k = fz_dim(f), n = fz_dim(f);
    int r = fz_opnd(f, &c->in[0], c->dt, 2, SH(m, k), fz_lay_matrix(f), sp, 0);
    r |= fz_opnd(f, &c->in[1], c->dt, 2, SH(k, n), fz_lay_matrix(f), sp, 0);
    c->n_in = 2;
    if (fz_pick(f, 2)) {
        r |= fz_opnd(f, &c->in[2], c->dt, 1, &n, fz_lay_dense(f), sp, 0);
        c->n_in = 3;
    }
    r |= fz_opnd(f, &c->out, c->dt, 2, SH(m, n), fz_lay_matrix(f), 0, 0);
    c->name[0] = "a", c->name[1] = "b", c->name[2] = "bias", c->name[3] = "c";
    return r;
}

/* A batch of 1 broadcasts; so does a full batch with stride 0. */
static int batched_fuzz(fz *f, fz_call *c, unsigned sp)
{
    int64_t bc = fz_small(f), ba = fz_pick(f, 2) ? bc : 1, bb = fz_pick(f, 2) ? bc : 1;
    int64_t m = fz_dim(f), k = fz_dim(f), n = fz_dim(f);
    int la = ba == 1 && bc > 1 && fz_pick(f, 2) ? L_BCAST : fz_lay_matrix(f);
    int lb = bb == 1 && bc > 1 && fz_pick(f, 2) ? L_BCAST : fz_lay_matrix(f);
    int r = fz_opnd(f, &c->in[0], c->dt, 3, SH(la == L_BCAST ? bc : ba, m, k), la, sp, 0);
    r |= fz_opnd(f, &c->in[1], c->dt, 3, SH(lb == L_BCAST ? bc : bb, k, n), lb, sp, 0);
    r |= fz_opnd(f, &c->out, c->dt, 3, SH(bc, m, n), fz_lay_matrix(f), 0, 0);
    c->n_in = 2;
    c->name[0] = "a", c->name[1] = "b", c->name[3] = "c";
    return r;
}

/* Finite alpha and beta only: with an infinite alpha, whether a result is
 * inf or NaN hangs on whether a rounded sum came out 0 (inf * 0), which
 * differs between correct rungs; gpuk.h does not pin it down (see
 * fuzz/README).  The slot actions still pass NaN and inf scalars, without
 * an oracle.  With beta == 0 the output starts as NaN, which must not
 * leak in. */
static int gemm_fuzz(fz *f, fz_call *c, unsigned sp)
{
    c->ta = (int)fz_pick(f, 2), c->tb = (int)fz_pick(f, 2);
    int64_t m = fz_dim(f), n = fz_dim(f), k = fz_dim(f);
    int r = fz_opnd(f, &c->in[0], c->dt, 2, c->ta ? SH(k, m) : SH(m, k), fz_lay_matrix(f), sp, 0);
    r |= fz_opnd(f, &c->in[1], c->dt, 2, c->tb ? SH(n, k) : SH(k, n), fz_lay_matrix(f), sp, 0);
    r |= fz_opnd(f, &c->out, c->dt, 2, SH(m, n), fz_lay_matrix(f), 0, 0);
    c->n_in = 2;
    c->name[0] = "a", c->name[1] = "b", c->name[3] = "c";
    if (!r) {
        c->alpha = fz_val(f, 0);
        c->beta = fz_pick(f, 2) ? 0.0 : fz_val(f, 0);
        fz_opnd_fill(f, &c->out, c->beta == 0.0);
    }
    return r;
}

/* trans_a below the two values, or trans_b above */
static int gemm_fuzz_enum(fz *f, const fz_call *c, fz_enums *e)
{
    if (fz_pick(f, 2)) {
        e->ta = -1 - (int)fz_pick(f, 9);
        e->blame = "trans_a";
    } else {
        e->tb = 2 + (int)fz_pick(f, 9);
        e->blame = "trans_b";
    }
    return 1;
}

/* ---- the descriptors ---- */

/* f16 and bf16 inputs too (issue 27; the cases add an f32 c) */
#define H16 (GPUK_DTYPE_BIT(GPUK_F16) | GPUK_DTYPE_BIT(GPUK_BF16))
#define F GPUK_F32
const optest optest_MATMUL = {
    .op = GPUK_OP_MATMUL,
    .dtypes = OPTEST_FLOATS | H16,
    .cases = b_matmul,
    .products = 1,
    .ref = matmul_ref,
    .spec = { 4, { "a", "b", "bias", "c" }, { F, F, F, F }, { 2, 2, 1, 2 },
              { { 3, 4 }, { 4, 5 }, { 5 }, { 3, 5 } }, { -1, -1, -1, -1 }, 2, NULL },
    .badshape = matmul_rules,
    .empty = matmul_empty,
    .fuzz = matmul_fuzz,
};

const optest optest_BATCHED_MATMUL = {
    .op = GPUK_OP_BATCHED_MATMUL,
    .dtypes = OPTEST_FLOATS | H16,
    .cases = b_batched,
    .products = 1,
    .ref = batched_ref,
    .spec = { 3, { "a", "b", "c" }, { F, F, F }, { 3, 3, 3 },
              { { 2, 3, 4 }, { 2, 4, 5 }, { 2, 3, 5 } }, { -1, -1, -1 }, -1, NULL },
    .badshape = batched_rules,
    .empty = batched_empty,
    .fuzz = batched_fuzz,
};

const optest optest_GEMM = {
    .op = GPUK_OP_GEMM,
    .dtypes = OPTEST_FLOATS | H16,
    .cases = b_gemm,
    .products = 1,
    .ref = gemm_ref,
    .spec = { 3, { "a", "b", "c" }, { F, F, F }, { 2, 2, 2 },
              { { 3, 4 }, { 4, 5 }, { 3, 5 } }, { -1, -1, -1 }, -1, NULL },
    .badshape = gemm_rules,
    .empty = gemm_empty,
    .fuzz = gemm_fuzz,
    .fuzz_enum = gemm_fuzz_enum,
};
#undef F
#undef H16

#endif /* OPTEST_CALLS */

/*
 * tests/ops/spmv.c - what the tests and the fuzz harness know about the
 * sparse matrix-vector product spmv (gpuk_spmv(3)): its call, the op
 * suite's cases, the reference, the bad-input spec and shape rules, the
 * empty-matrix and NaN cases, the fuzz shapes.  Row i is a sum of its own
 * nonzeros: an empty row gives 0.  The matrix's values have the op's
 * dtype (gpuk_csr_create_dtype), x's.
 */
#include "../opcall.h"

#ifdef OPTEST_CALLS
/* ---- the call: all that tests/opcall.c takes from this file ---- */

/* csr a, in[0] x, out y */
static gpuk_status opcall_SPMV(gpuk_context *ctx, const opcall_args *a, const char *v)
{
    return gpuk_spmv(ctx, a->csr, a->in[0], a->out, v);
}

#else /* everything else, in the test library */
#include "family.h"

/* ---- the op suite's cases ---- */

/* CSR with sorted, distinct columns, each kept with probability
 * permille/1000.  Row kinds (t[3]): 1 every fourth row empty, 2 power law
 * (row r: about cols / (r + 1)), 3 the middle row dense among short ones,
 * 4 a run of empty rows in the middle and at the end, 5 the last fifth
 * empty.  The last five cases cut across the stream rung's windows of
 * 2048 nonzeros: rows spanning several, rows filling one exactly, nnz a
 * multiple of 2048 with trailing empty rows, empty rows at one position. */
static int spmv_empty(int kind, int64_t r, int64_t rows)
{
    return (kind == 1 && r % 4 == 1) || (kind == 5 && r >= rows - rows / 5) ||
           (kind == 4 && ((r >= rows / 3 && r < 2 * rows / 3) || r >= rows - rows / 8));
}

static int b_spmv(oc_case *c, int i, gpuk_dtype dt, uint64_t *g)
{
    static const int T[][4] = { /* rows, cols, permille, row kind */
        { 1, 1, 1000, 0 }, { 7, 33, 300, 0 }, { 33, 7, 500, 1 }, { 257, 127, 100, 0 },
        { 127, 1, 500, 0 }, { 1000, 1000, 10, 0 }, { 33, 33, 0, 0 }, { 7, 257, 200, 1 },
        { 2, 1000, 1000, 0 }, { 64, 2000, 500, 0 }, { 2048, 2048, 0, 2 }, { 1, 5000, 900, 0 },
        { 1, 9000, 1000, 0 }, { 301, 7000, 2, 3 }, { 5000, 40, 200, 4 }, { 640, 16, 1000, 5 },
        { 3, 2048, 1000, 0 } };
    static const char *const kind[] = { "", " empty rows", " power law", " one long row",
                                        " empty runs", " trailing empty" };
    if (i >= NELEM(T))
        return 0;
    const int *t = T[i];
    int64_t nz = 0;
    c->rows = t[0], c->cols = t[1], c->n_in = 1;
    c->rp = oc_alloc((size_t)(c->rows + 1) * sizeof *c->rp);
    c->ci = oc_alloc((size_t)(c->rows * c->cols) * sizeof *c->ci);
    c->rp[0] = 0;
    for (int64_t r = 0; r < c->rows; r++) {
        /* power law: row r keeps about cols / (r + 1) columns */
        uint64_t keep = t[3] == 2 ? 1000000 / (uint64_t)(r + 1)
                        : t[3] == 3 && r == c->rows / 2 ? 1000000 : (uint64_t)t[2] * 1000;
        for (int64_t q = 0; q < c->cols && !spmv_empty(t[3], r, c->rows); q++)
            if (oc_rng(g) % 1000000 < keep)
                c->ci[nz++] = (int32_t)q;
        c->rp[r + 1] = (int32_t)nz;
    }
    c->nnz = nz;
    c->cv = RND(nz);
    oc_arg_set(&c->in[0], dt, 1, SH(c->cols), i % 2 ? OC_OFF1 : OC_DENSE, RND(c->cols));
    oc_arg_set(&c->out, dt, 1, SH(c->rows), i % 2 ? OC_OFF1 : OC_DENSE, NULL);
    LBL("%dx%d nnz %lld%s %s", t[0], t[1], (long long)nz, kind[t[3]],
        oc_layout_name(i % 2 ? OC_OFF1 : OC_DENSE));
    return 1;
}

/* ---- the reference ---- */

/* Row i is a sum of nnz_i products. */
static void ref_spmv(const ref_tol *t, int64_t rows, const int32_t *row_ptr,
                     const int32_t *col_idx, const ref_real *vals, const ref_real *x,
                     ref_real *ref, double *bound)
{
    for (int64_t i = 0; i < rows; i++) {
        ref_acc s = ref_acc_start(0.0L);
        for (int32_t p = row_ptr[i]; p < row_ptr[i + 1]; p++)
            ref_acc_prod(&s, vals[p], x[col_idx[p]]);
        ref[i] = ref_acc_value(&s);
        bound[i] = ref_sum_bound(t, row_ptr[i + 1] - row_ptr[i], s.abs, ref[i]);
    }
}

static void spmv_ref(const ref_args *a, const ref_tol *t, ref_real *ref, double *bound)
{
    int64_t nnz = a->rows ? a->row_ptr[a->rows] : 0;
    ref_real *v = ref_load(a->dtype, a->values, nnz);
    ref_real *x = ref_load(a->in[0].dtype, a->in[0].vals, ref_numel(&a->in[0]));
    ref_spmv(t, a->rows, a->row_ptr, a->col_idx, v, x, ref, bound);
    free(v);
    free(x);
}

/* ---- t_badshape: the rules ---- */

/* x has the matrix's columns, y its rows, both contiguous and apart */
static void spmv_rules(gpuk_context *ctx)
{
    const int32_t rp[] = { 0, 2, 2, 3 }, ci[] = { 0, 2, 3 };
    const float v[] = { 1, 2, 3 };
    gpuk_csr *m = NULL;
    gpuk_csr_create(ctx, 3, 4, 3, rp, ci, v, &m);
    gpuk_tensor *x = TF(ctx, 4), *y = TF(ctx, 3), *S = STORAGE();
    E(gpuk_spmv(ctx, m, TF(ctx, 3), y, NULL), SHAPE, "x");
    E(gpuk_spmv(ctx, m, x, TF(ctx, 4), NULL), SHAPE, "y");
    E(gpuk_spmv(ctx, m, x, TF(ctx, 3, 1), NULL), SHAPE, "y");
    E(gpuk_spmv(ctx, m, V1(S, 4, 2, 0), y, NULL), LAYOUT, "x");
    E(gpuk_spmv(ctx, m, x, V1(S, 3, 2, 0), NULL), LAYOUT, "y");
    E(gpuk_spmv(ctx, m, V1(S, 4, 1, 0), V1(S, 3, 1, 3), NULL), ALIAS, "y");
    E(gpuk_spmv(ctx, m, V1(S, 4, 1, 0), V1(S, 3, 1, 4), NULL), OK, NULL);

    /* the matrix's dtype is x's (gpuk_csr_create_dtype); an f64 x is the
     * op's dtype where the backend computes spmv in f64 (then the f32
     * matrix disagrees), else refused itself */
    const double dv[] = { 1, 2, 3 };
    gpuk_csr *md = NULL;
    size_t n64 = 0;
    gpuk_variant_count_dtype(ctx, GPUK_OP_SPMV, F64, &n64);
    gpuk_csr_create_dtype(ctx, F64, 3, 4, 3, rp, ci, dv, &md);
    ED(gpuk_spmv(ctx, md, x, y, NULL), "a", F64, F32);
    ED(gpuk_spmv(ctx, m, TD(ctx, 4), TD(ctx, 3), NULL), n64 ? "a" : "x", F64, F32);
    ED(gpuk_spmv(ctx, m, x, TD(ctx, 3), NULL), "y", F64, F32);
    if (n64) {
        E(gpuk_spmv(ctx, md, TD(ctx, 4), TD(ctx, 3), NULL), OK, NULL);
        ED(gpuk_spmv(ctx, md, TD(ctx, 4), y, NULL), "y", F32, F64);
    }
    gpuk_csr_destroy(ctx, md);
}

/* ---- t_empty: empty outputs, empty rows, NaN and infinity ---- */

/* A CSR matrix of dtype dt with the values v (nnz of them), or NULL. */
static gpuk_csr *oe_csr(gpuk_context *ctx, gpuk_dtype dt, int64_t rows, int64_t cols,
                        int64_t nnz, const int32_t *rp, const int32_t *ci, const ref_real *v)
{
    gpuk_csr *m = NULL;
    void *vals = nnz ? oc_alloc((size_t)nnz * gpuk_dtype_size(dt)) : NULL;
    for (int64_t i = 0; i < nnz; i++)
        ref_put(dt, vals, i, v[i]);
    gpuk_status st = gpuk_csr_create_dtype(ctx, dt, rows, cols, nnz, rp, ci, vals, &m);
    if (st != GPUK_OK)
        tap_ok(0, "spmv: a %lldx%lld %s CSR matrix is made: %s", (long long)rows,
               (long long)cols, gpuk_dtype_name(dt), gpuk_context_error(ctx));
    free(vals);
    return m;
}

static void spmv_cases_empty(gpuk_context *ctx, gpuk_dtype dt)
{
    const ref_real N = NAN, P = INFINITY;
    const ref_tol u = oe_tol(dt);   /* finite elements only need to be close */
    ref_real ref[OE_MAXN];
    double bd[OE_MAXN];
    oe_expect e;
    opcall_args k;

    const int32_t rp0[] = { 0 };
    k = oe_call(GPUK_OP_SPMV, MK(NULL, 4), NULL, NULL, MK(NULL, 0));
    k.csr = oe_csr(ctx, dt, 0, 4, 0, rp0, NULL, NULL);
    RUN(k, "a with 0 rows", NULL, NULL);

    /* 3x4, no entries at all; then row 1 empty between two others */
    const int32_t rpz[] = { 0, 0, 0, 0 }, rp[] = { 0, 2, 2, 3 }, ci[] = { 0, 3, 1 };
    const ref_real cv[] = { 2, -1, 4 }, xv[] = { 1, 2, 3, 4 };
    gpuk_csr *mz = oe_csr(ctx, dt, 3, 4, 0, rpz, NULL, NULL);
    gpuk_csr *m = oe_csr(ctx, dt, 3, 4, 3, rp, ci, cv);
    gpuk_csr *mc = oe_csr(ctx, dt, 3, 0, 0, rpz, NULL, NULL);
    k = oe_call(GPUK_OP_SPMV, MK(xv, 4), NULL, NULL, MK(NULL, 3));
    k.csr = mz;
    oe_const(&e, 3, 0.0L);
    RUN(k, "nnz = 0: y = 0", NULL, &e);
    k.csr = m;
    e.v[0] = 2 * 1 - 1 * 4;
    e.v[1] = 0;
    e.v[2] = 4 * 2;
    RUN(k, "an empty row gives 0", NULL, &e);
    k = oe_call(GPUK_OP_SPMV, MK(NULL, 0), NULL, NULL, MK(NULL, 3));
    k.csr = mc;
    oe_const(&e, 3, 0.0L);
    RUN(k, "no columns: y = 0", NULL, &e);

    const int32_t nrp[] = { 0, 2, 3, 4 }, nci[] = { 0, 1, 2, 3 };
    const ref_real ncv[] = { P, 1, N, 2 }, nxv[] = { 1, 0, 2, P };
    gpuk_csr *mn = oe_csr(ctx, dt, 3, 4, 4, nrp, nci, ncv);
    k = oe_call(GPUK_OP_SPMV, MK(nxv, 4), NULL, NULL, MK(NULL, 3));
    k.csr = mn;
    ref_spmv(&u, 3, nrp, nci, ncv, nxv, ref, bd);
    oe_from_ref(&e, 3, ref, bd);
    RUN(k, "inf in a, NaN in a, inf in x", NULL, &e);
    /* row 0 of the matrix also meets x = 0 with a finite value: check inf * 0 */
    const ref_real xz[4] = { 0, 1, 1, 1 };
    k = oe_call(GPUK_OP_SPMV, MK(xz, 4), NULL, NULL, MK(NULL, 3));
    k.csr = mn;
    ref_spmv(&u, 3, nrp, nci, ncv, xz, ref, bd);
    oe_from_ref(&e, 3, ref, bd);
    RUN(k, "inf in a times 0 in x is NaN", NULL, &e);
}

/* ---- the fuzz harness: a valid call from the input bytes ---- */

/* A matrix of a density from the input (1 to 4 entries in 5), values
 * from the generator; the harness frees rp, ci, cv and the matrix. */
static int spmv_fuzz(fz *f, fz_call *c, unsigned sp)
{
    c->rows = fz_dim(f), c->cols = fz_dim(f);
    unsigned dens = 1 + fz_pick(f, 4);
    c->rp = malloc((size_t)(c->rows + 1) * 4);
    c->ci = malloc((size_t)(c->rows * c->cols + 1) * 4);
    c->cv = malloc((size_t)(c->rows * c->cols + 1) * gpuk_dtype_size(c->dt));
    if (!c->rp || !c->ci || !c->cv)
        return fz_fail(f, "setup: no host memory for a %lldx%lld CSR matrix", (long long)c->rows,
                       (long long)c->cols);
    int32_t nnz = 0;
    c->rp[0] = 0;
    for (int64_t i = 0; i < c->rows; i++) {
        for (int64_t j = 0; j < c->cols; j++)
            if (fz_rnext(f) % 5 < dens) {
                c->ci[nnz] = (int32_t)j;
                ref_put(c->dt, c->cv, nnz++, fz_value(f, c->dt, sp));
            }
        c->rp[i + 1] = nnz;
    }
    if (gpuk_csr_create_dtype(fz_ctx, c->dt, c->rows, c->cols, nnz, c->rp, c->ci, c->cv,
                              &c->csr) != GPUK_OK)
        return fz_fail(f, "a valid %lldx%lld CSR with %d entries was rejected: %s",
                       (long long)c->rows, (long long)c->cols, nnz, gpuk_context_error(fz_ctx));
    int r = fz_opnd(f, &c->in[0], c->dt, 1, &c->cols, fz_lay_dense(f), sp, 0);
    r |= fz_opnd(f, &c->out, c->dt, 1, &c->rows, fz_lay_dense(f), 0, 0);
    c->n_in = 1;
    c->name[0] = "x", c->name[3] = "y";
    return r;
}

/* ---- the descriptor ---- */

/* the CSR matrix "a" is not a tensor: t_badops and the fuzz harness give
 * it the handle checks of its own */
const optest optest_SPMV = {
    .op = GPUK_OP_SPMV,
    .dtypes = OPTEST_FLOATS,
    .cases = b_spmv,
    .ref = spmv_ref,
    .spec = { 2, { "x", "y" }, { GPUK_F32, GPUK_F32 }, { 1, 1 }, { { 4 }, { 3 } }, { -1, -1 },
              -1, "a" },
    .badshape = spmv_rules,
    .empty = spmv_cases_empty,
    .fuzz = spmv_fuzz,
};

#endif /* OPTEST_CALLS */

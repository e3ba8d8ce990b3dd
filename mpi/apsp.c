/*
 * apsp.c - gpuk_dist_apsp: all-pairs shortest paths by blocked
 * Floyd-Warshall on the block-cyclic grid (doc/distributed.md, "APSP").
 *
 * The matrix is n x n in b x b blocks, so block K holds the same vertices
 * as a block row and as a block column.  Step K = 0 .. ceil(n / b) - 1:
 *
 *   1. the rank holding diagonal block (K, K) closes it with gpuk_apsp
 *      (paths inside the block, through any earlier block already folded
 *      in by the steps before);
 *   2. it broadcasts the closed block along its grid row and its grid
 *      column: those are the ranks holding block row K and block column K;
 *   3. they fold it into their share of block row K (D_KJ = min(D_KJ,
 *      D_KK (x) D_KJ)) and of block column K (D_IK = min(D_IK, D_IK (x)
 *      D_KK)), with gpuk_minplus_update;
 *   4. block column K travels along the grid rows and block row K along
 *      the grid columns, as SUMMA's panels do (bcast.c);
 *   5. every rank folds panel_col (x) panel_row into its whole local matrix
 *      with gpuk_minplus_update: the paths through block K.
 *
 * Step 5 also passes over block row and column K: with D_KK closed (a zero
 * diagonal), folding them again adds D_KK's zero to them, which leaves
 * them as they are up to rounding.  Updating the whole local matrix keeps
 * the op's operands dense, where leaving those out would cut it in four.
 *
 * Every phase waits for the one before (no look-ahead yet), so the
 * broadcasts are not overlapped with the local work.  The NCCL, MPI
 * direct and MPI staged paths are those of SUMMA.
 *
 * Before the loop every element gets gpuk_apsp's "no edge": one
 * gpuk_minplus_update with k = 0 turns a NaN into +inf and lowers an i32
 * above GPUK_I32_INF to it.  After it, a negative diagonal element is a
 * negative cycle; the ranks agree on the lowest such vertex.
 */
#include "dist_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fw {
    gpuk_dist *d;
    gpuk_dist_matrix *m;
    const char *variant;
    gpuk_dtype dt;
    size_t es;
    int64_t n, b, nk, lr, lc;
    int staged;                 /* MPI through host buffers */
    gpuk_tensor *diag;          /* b x b: the closed diagonal block of the step */
    gpuk_tensor *row, *col;     /* b x lc, lr x b: block row and column K, dense */
    gpuk_tensor *old;           /* lr x b: block column K before its update */
    gpuk_tensor *scratch;       /* what copy.c transposes through */
    char *hdiag, *hrow, *hcol;  /* staged: the same on the host */
    gpuk_status st;             /* this rank's first local failure */
    int broken;                 /* a broadcast failed: the loop ends here */
    char msg[GKD_MSG];
} fw;

static gpuk_status failed(fw *F, gpuk_status st, const char *what)
{
    if (F->st == GPUK_OK) {
        F->st = st;
        snprintf(F->msg, sizeof F->msg, "%s: %s", what, gpuk_context_error(F->d->ctx));
    }
    return st;
}

static gpuk_status dense_view(fw *F, gpuk_tensor *base, int64_t rows, int64_t cols,
                              int64_t off, gpuk_tensor **out)
{
    int64_t shape[2] = { rows, cols };
    gpuk_status st = gpuk_tensor_view(F->d->ctx, base, 2, shape, NULL, off, out);
    return st == GPUK_OK ? st : failed(F, st, "gpuk_tensor_view");
}

static gpuk_status make(fw *F, int64_t rows, int64_t cols, gpuk_tensor **t)
{
    int64_t shape[2] = { rows, cols };
    gpuk_status st = gpuk_tensor_create(F->d->ctx, F->dt, 2, shape, t);
    return st == GPUK_OK ? st : failed(F, st, "gpuk_tensor_create of a panel buffer");
}

static gpuk_status host_buf(fw *F, int64_t n, char **out)
{
    *out = NULL;
    if (n <= 0)
        return GPUK_OK;
    gpuk_status st = gpuk_host_alloc(F->d->ctx, (size_t)n * F->es, (void **)out);
    return st == GPUK_OK ? st : failed(F, st, "gpuk_host_alloc of a staging buffer");
}

static gpuk_status setup(fw *F)
{
    int64_t b = F->b, most = F->lr > F->lc ? F->lr : F->lc;
    if (gkd_injected(F->d, "setup")) {
        F->st = GPUK_ERR_INTERNAL;
        snprintf(F->msg, sizeof F->msg, "failure injected by GPUK_DIST_FAIL at setup");
        return F->st;
    }
    most = most > b ? most : b;
    if (make(F, b, b, &F->diag) || make(F, b, F->lc, &F->row) || make(F, F->lr, b, &F->col) ||
        make(F, F->lr, b, &F->old) || make(F, most, b, &F->scratch))
        return F->st;
    if (F->staged && (host_buf(F, b * b, &F->hdiag) || host_buf(F, b * F->lc, &F->hrow) ||
                      host_buf(F, F->lr * b, &F->hcol)))
        return F->st;
    return GPUK_OK;
}

static void release(fw *F)
{
    gpuk_context *ctx = F->d->ctx;
    gpuk_tensor *t[] = { F->diag, F->row, F->col, F->old, F->scratch };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        gpuk_tensor_destroy(ctx, t[i]);
    gpuk_host_free(ctx, F->hdiag);
    gpuk_host_free(ctx, F->hrow);
    gpuk_host_free(ctx, F->hcol);
}

/* Staged: a dense prefix of count elements of t to or from the host. */
static gpuk_status stage(fw *F, gpuk_tensor *t, char *host, int64_t count, int to_host)
{
    gpuk_tensor *v = NULL;
    if (count == 0)
        return GPUK_OK;
    gpuk_status st = gpuk_tensor_view(F->d->ctx, t, 1, &count, NULL, 0, &v);
    if (st == GPUK_OK)
        st = to_host ? gpuk_tensor_read(F->d->ctx, v, host, (size_t)count * F->es)
                     : gpuk_tensor_write(F->d->ctx, v, host, (size_t)count * F->es);
    gpuk_tensor_destroy(F->d->ctx, v);
    return st == GPUK_OK ? st : failed(F, st, to_host ? "staging a panel to the host"
                                                      : "staging a panel from the host");
}

/* One phase's broadcasts, finished before returning: a (a_count elements
 * of tensor a, host copy ha) along the grid row from column a_root, b
 * along the grid column from row b_root; a count of 0 is no broadcast,
 * the same on every rank of that row or column.  A transport failure is
 * recorded as this rank's and ends the loop (bcast.c wrote d->err). */
static int phase(fw *F, gpuk_tensor *a, char *ha, int64_t a_count, int a_root, gpuk_tensor *b,
                 char *hb, int64_t b_count, int b_root)
{
    gpuk_dist *d = F->d;
    int a_mine = d->mycol == a_root, b_mine = d->myrow == b_root;
    gkd_step s;
    memset(&s, 0, sizeof s);
    s.dtype = F->dt;
    s.a_count = d->pcol > 1 ? a_count : 0, s.a_root = a_root;
    s.b_count = d->prow > 1 ? b_count : 0, s.b_root = b_root;
    if (s.a_count == 0 && s.b_count == 0)
        return 1;
    double t0 = gkd_now();
    if (F->staged) {
        if (s.a_count && a_mine)
            stage(F, a, ha, s.a_count, 1);
        if (s.b_count && b_mine)
            stage(F, b, hb, s.b_count, 1);
        s.a_buf = ha, s.b_buf = hb;
    } else {
        s.a_buf = gkd_data(d, a), s.b_buf = gkd_data(d, b);
        /* MPI on device memory reads it behind the stream's back; NCCL's
         * stream waits for everything issued on the context's */
        if (d->comm_kind == GPUK_DIST_COMM_NCCL)
            gkd_step_ready(d);
        else if (!d->host_memory && gpuk_sync(d->ctx) != GPUK_OK)
            failed(F, GPUK_ERR_DEVICE, "gpuk_sync before a broadcast");
    }
    d->stats.stage_s += gkd_now() - t0;
    gpuk_status st = gkd_step_post(d, &s, 0, -1);
    if (st == GPUK_OK)
        st = gkd_step_wait(d, &s);
    if (st != GPUK_OK) {
        if (F->st == GPUK_OK)
            F->st = st, snprintf(F->msg, sizeof F->msg, "%.500s", d->err);
        F->broken = 1;
        return 0;
    }
    t0 = gkd_now();
    if (F->staged) {
        if (s.a_count && !a_mine)
            stage(F, a, ha, s.a_count, 0);
        if (s.b_count && !b_mine)
            stage(F, b, hb, s.b_count, 0);
    }
    d->stats.stage_s += gkd_now() - t0;
    return 1;
}

static int64_t width(const fw *F, int64_t K)
{
    return F->n - K * F->b < F->b ? F->n - K * F->b : F->b;
}

/* r = min(r, a (x) b) over dense views at element offsets of their
 * storage: a rows x k, b k x cols, r rows x cols (min-plus takes dense
 * operands: r is whole rows of the local matrix, or a packed panel). */
static void fold(fw *F, gpuk_tensor *a, int64_t aoff, gpuk_tensor *b, int64_t boff,
                 gpuk_tensor *r, int64_t roff, int64_t rows, int64_t k, int64_t cols,
                 const char *what)
{
    gpuk_tensor *av = NULL, *bv = NULL, *rv = NULL;
    if (F->st != GPUK_OK || rows == 0 || cols == 0)
        return;
    if (dense_view(F, a, rows, k, aoff, &av) == GPUK_OK &&
        dense_view(F, b, k, cols, boff, &bv) == GPUK_OK &&
        dense_view(F, r, rows, cols, roff, &rv) == GPUK_OK) {
        gpuk_status st = gpuk_minplus_update(F->d->ctx, av, bv, rv, F->variant);
        if (st != GPUK_OK)
            failed(F, st, what);
    }
    gpuk_tensor_destroy(F->d->ctx, av);
    gpuk_tensor_destroy(F->d->ctx, bv);
    gpuk_tensor_destroy(F->d->ctx, rv);
}

static void copy(fw *F, gkd_rect src, gkd_rect dst, int64_t rows, int64_t cols, const char *what)
{
    if (F->st != GPUK_OK)
        return;
    gpuk_status st = gkd_copy2d(F->d, F->dt, src, dst, rows, cols, F->scratch);
    if (st != GPUK_OK)
        failed(F, st, what);
}

/* Step 1: close the diagonal block in place.  A negative cycle inside it
 * is not this step's to report: the check after the loop finds it. */
static void close_diag(fw *F, int64_t lro, int64_t lco, int64_t kw)
{
    gpuk_dist *d = F->d;
    gpuk_tensor *v = NULL;
    gkd_rect local = { F->m->local, lro * F->lc + lco, F->lc }, dense = { F->diag, 0, kw };
    copy(F, local, dense, kw, kw, "copying out the diagonal block");
    if (F->st == GPUK_OK && dense_view(F, F->diag, kw, kw, 0, &v) == GPUK_OK) {
        gpuk_status st = gpuk_apsp(d->ctx, v, v, NULL, NULL);
        if (st != GPUK_OK && st != GPUK_ERR_NEGATIVE_CYCLE)
            failed(F, st, "gpuk_apsp of the diagonal block");
    }
    gpuk_tensor_destroy(d->ctx, v);
    copy(F, dense, local, kw, kw, "copying back the diagonal block");
}

static void step(fw *F, int64_t K)
{
    gpuk_dist *d = F->d;
    int64_t kw = width(F, K), lr = F->lr, lc = F->lc;
    int rK = (int)(K % d->prow), cK = (int)(K % d->pcol);
    int in_row = d->myrow == rK, in_col = d->mycol == cK;
    int64_t lro = K / d->prow * F->b, lco = K / d->pcol * F->b;   /* block K in local indices */
    if (F->st == GPUK_OK && gkd_injected(d, "panel")) {
        F->st = GPUK_ERR_INTERNAL;
        snprintf(F->msg, sizeof F->msg, "step %lld: failure injected by GPUK_DIST_FAIL",
                 (long long)K);
    }
    double t0 = gkd_now();
    if (in_row && in_col)
        close_diag(F, lro, lco, kw);
    d->stats.local_s += gkd_now() - t0;
    /* 2: the closed block to the ranks of block row K and block column K */
    if (!phase(F, F->diag, F->hdiag, in_row ? kw * kw : 0, cK, F->diag, F->hdiag,
               in_col ? kw * kw : 0, rK))
        return;
    t0 = gkd_now();
    if (in_row && lc > 0) {   /* 3: block row K, its rows contiguous in the local matrix */
        gkd_rect local = { F->m->local, lro * lc, lc }, dense = { F->row, 0, lc };
        copy(F, local, dense, kw, lc, "copying out block row K");
        fold(F, F->diag, 0, F->row, 0, F->m->local, lro * lc, kw, kw, lc,
             "gpuk_minplus_update of block row K");
        copy(F, local, dense, kw, lc, "copying out block row K");
    }
    if (in_col && lr > 0) {   /* 3: block column K, packed dense */
        gkd_rect local = { F->m->local, lco, lc }, dense = { F->col, 0, kw };
        gkd_rect before = { F->old, 0, kw };
        copy(F, local, dense, lr, kw, "packing block column K");
        copy(F, dense, before, lr, kw, "copying block column K");
        fold(F, F->old, 0, F->diag, 0, F->col, 0, lr, kw, kw,
             "gpuk_minplus_update of block column K");
        copy(F, dense, local, lr, kw, "unpacking block column K");
    }
    d->stats.local_s += gkd_now() - t0;
    /* 4: block column K along the grid rows, block row K along the columns */
    if (!phase(F, F->col, F->hcol, lr * kw, cK, F->row, F->hrow, kw * lc, rK))
        return;
    /* 5: the paths through block K */
    t0 = gkd_now();
    fold(F, F->col, 0, F->row, 0, F->m->local, 0, lr, kw, lc, "gpuk_minplus_update");
    d->stats.local_s += gkd_now() - t0;
}

/* The lowest vertex whose diagonal element is negative among this rank's
 * diagonal blocks, or -1 (each block read as a strided view: no op runs,
 * so gpuk_last_variant still names the loop's last local op). */
static int64_t negative_diagonal(fw *F)
{
    gpuk_dist *d = F->d;
    char *h = malloc((size_t)(F->b * F->b) * F->es + 8);
    int64_t found = -1;
    if (!h) {
        F->st = GPUK_ERR_NO_MEMORY, snprintf(F->msg, sizeof F->msg, "out of host memory");
        return -1;
    }
    for (int64_t K = 0; K < F->nk && found < 0 && F->st == GPUK_OK; K++) {
        if ((int)(K % d->prow) != d->myrow || (int)(K % d->pcol) != d->mycol)
            continue;
        int64_t kw = width(F, K), lro = K / d->prow * F->b, lco = K / d->pcol * F->b;
        int64_t shape[2] = { kw, kw }, strides[2] = { F->lc, 1 };
        gpuk_tensor *v = NULL;
        gpuk_status st = gpuk_tensor_view(d->ctx, F->m->local, 2, shape, strides,
                                          lro * F->lc + lco, &v);
        if (st == GPUK_OK)
            st = gpuk_tensor_read(d->ctx, v, h, (size_t)(kw * kw) * F->es);
        gpuk_tensor_destroy(d->ctx, v);
        if (st != GPUK_OK)
            failed(F, st, "reading a diagonal block");
        for (int64_t i = 0; i < kw && F->st == GPUK_OK; i++) {
            const char *e = h + (size_t)(i * kw + i) * F->es;
            int neg = F->dt == GPUK_I32 ? *(const int32_t *)e < 0
                    : F->dt == GPUK_F64 ? *(const double *)e < 0 : *(const float *)e < 0;
            if (neg) {
                found = K * F->b + i;
                break;
            }
        }
    }
    free(h);
    return found;
}

gpuk_status gpuk_dist_apsp(gpuk_dist *d, gpuk_dist_matrix *m, const char *variant)
{
    fw F;
    gpuk_status st = GPUK_OK;
    if (!d)
        return GPUK_ERR_NULL;
    double t0 = gkd_now();
    memset(&d->stats, 0, sizeof d->stats);
    memset(&F, 0, sizeof F);
    F.d = d, F.m = m, F.variant = variant;

    /* this rank's arguments, then everyone's */
    char *msg = F.msg;
    size_t ml = sizeof F.msg;
    if (gkd_matrix_ok(d, m, "m", msg, ml, &st)) {
        if (m->rows != m->cols)
            st = GPUK_ERR_SHAPE, snprintf(msg, ml, "m is %lld x %lld: the matrix of a graph is "
                                          "square", (long long)m->rows, (long long)m->cols);
        else if (m->mb != m->nb)
            st = GPUK_ERR_LAYOUT, snprintf(msg, ml, "m's blocks are %lld x %lld: Floyd-Warshall "
                                           "takes square blocks (mb = nb), so that block K is "
                                           "the same vertices as a row and as a column",
                                           (long long)m->mb, (long long)m->nb);
        else if ((st = gkd_local_dtype(d, GPUK_OP_APSP, m->dtype, msg, ml)) == GPUK_OK)
            st = gkd_local_dtype(d, GPUK_OP_MINPLUS, m->dtype, msg, ml);
    }
    int ok = st == GPUK_OK;
    gkd_field f[] = {
        { "m (its creation number)", GPUK_ERR_INVALID, ok ? m->serial : 0, 0 },
    };
    if ((st = gkd_agree(d, GKD_FN_APSP, st, F.msg, f, 1)) != GPUK_OK)
        return st;

    F.dt = m->dtype, F.es = m->es;
    F.n = m->rows, F.b = m->mb, F.nk = (F.n + F.b - 1) / F.b;
    F.lr = m->lrows, F.lc = m->lcols;
    F.staged = d->comm_kind == GPUK_DIST_COMM_MPI && !d->direct;
    d->stats.flops = 2.0 * (double)F.lr * (double)F.lc * (double)F.n;

    if (d->prow * d->pcol == 1) {
        /* the whole matrix is this rank's: the single-context op itself */
        if (gkd_injected(d, "panel"))
            F.st = GPUK_ERR_INTERNAL, snprintf(F.msg, ml, "failure injected by GPUK_DIST_FAIL");
        else if ((st = gpuk_apsp(d->ctx, m->local, m->local, NULL, NULL)) != GPUK_OK &&
                 st != GPUK_ERR_NEGATIVE_CYCLE)
            failed(&F, st, "gpuk_apsp");
    } else {
        /* resources, agreed on before the first broadcast */
        setup(&F);
        if ((st = gkd_agree(d, GKD_FN_APSP, F.st, F.msg, NULL, 0)) != GPUK_OK) {
            release(&F);
            return st;
        }
        d->stats.panels = (int)F.nk;
        /* no edge: NaN -> +inf, i32 above GPUK_I32_INF -> it (k = 0) */
        if (F.lr > 0 && F.lc > 0) {
            int64_t ea[2] = { F.lr, 0 }, eb[2] = { 0, F.lc };
            gpuk_tensor *a0 = NULL, *b0 = NULL;
            if ((st = gpuk_tensor_view(d->ctx, F.col, 2, ea, NULL, 0, &a0)) == GPUK_OK &&
                (st = gpuk_tensor_view(d->ctx, F.row, 2, eb, NULL, 0, &b0)) == GPUK_OK)
                st = gpuk_minplus_update(d->ctx, a0, b0, m->local, variant);
            if (st != GPUK_OK)
                failed(&F, st, "making \"no edge\" infinite (gpuk_minplus_update, k = 0)");
            gpuk_tensor_destroy(d->ctx, a0);
            gpuk_tensor_destroy(d->ctx, b0);
        }
        /* a rank whose local work failed goes on with the broadcasts, so
         * that the others finish their loop (doc/distributed.md, "Failure
         * agreement") */
        for (int64_t K = 0; K < F.nk && !F.broken; K++)
            step(&F, K);
    }
    if ((st = gpuk_sync(d->ctx)) != GPUK_OK)
        failed(&F, st, "gpuk_sync after the last step");
    if ((st = gkd_step_drain(d)) != GPUK_OK && F.st == GPUK_OK)
        F.st = st, snprintf(F.msg, ml, "%.500s", d->err);
    int64_t v = F.st == GPUK_OK ? negative_diagonal(&F) : -1;
    release(&F);
    if ((st = gkd_agree(d, GKD_FN_APSP, F.st, F.msg, NULL, 0)) != GPUK_OK) {
        d->stats.total_s = gkd_now() - t0;
        return st;
    }
    /* a negative cycle: every rank names the lowest vertex any rank saw */
    int64_t mine = v < 0 ? INT64_MAX : v, low = INT64_MAX;
    int rc = MPI_Allreduce(&mine, &low, 1, MPI_INT64_T, MPI_MIN, d->comm);
    d->stats.total_s = gkd_now() - t0;
    if (rc != MPI_SUCCESS) {
        char ebuf[MPI_MAX_ERROR_STRING];
        return gkd_fail(d, GPUK_ERR_LIBRARY, "gpuk_dist_apsp: rank %d: MPI_Allreduce of the "
                        "negative-cycle check: %s", d->rank, gkd_mpi_error(rc, ebuf, sizeof ebuf));
    }
    if (low != INT64_MAX)
        return gkd_fail(d, GPUK_ERR_NEGATIVE_CYCLE, "gpuk_dist_apsp: vertex %lld lies on a cycle "
                        "of negative length (d[%lld,%lld] < 0 after the last step); the distances "
                        "of pairs whose paths touch it mean nothing", (long long)low,
                        (long long)low, (long long)low);
    return GPUK_OK;
}

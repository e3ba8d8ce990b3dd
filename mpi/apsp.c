/*
 * apsp.c - gpuk_dist_apsp: all-pairs shortest paths by blocked
 * Floyd-Warshall on the block-cyclic grid (doc/distributed.md, "APSP").
 *
 * The matrix is n x n in b x b blocks, so block K holds the same vertices
 * as a block row and as a block column.  Step K = 0 .. ceil(n / b) - 1:
 *
 *   prep(K)   the rank holding diagonal block (K, K) closes it with
 *             gpuk_apsp and broadcasts it along its grid row and column;
 *             those ranks fold it into their share of block row K (D_KJ =
 *             min(D_KJ, D_KK (x) D_KJ)) and of block column K (D_IK =
 *             min(D_IK, D_IK (x) D_KK)); then block column K travels along
 *             the grid rows and block row K along the grid columns, as
 *             SUMMA's panels do (bcast.c);
 *   rest(K)   every rank folds column K (x) row K into its local rows,
 *             with gpuk_minplus_update, in row pieces.
 *
 * Look-ahead (the overlapped schedule): step K + 1's panels depend only on
 * step K's update of block row and column K + 1.  So once step K's panels
 * are in, each rank first updates its share of block row and column K + 1
 * (ahead), runs prep(K + 1), whose broadcasts then travel while rest(K)
 * updates everything else.  A rank that receives the closed block K + 1
 * runs the first piece of rest(K) while it travels.  The serial schedule
 * runs prep(K), then rest(K), one after another: the order before
 * look-ahead, kept for comparison.
 *
 * rest(K) leaves out block row K, which prep(K) made final (folding it
 * again adds the closed D_KK, whose diagonal is 0), and with look-ahead
 * block row K + 1, which ahead() did.  Columns cannot be left out (the
 * local op takes whole rows), so on the ranks of block columns K and K + 1
 * rest(K) passes over them again, which changes nothing: every candidate
 * it offers there is one the element has already taken.
 *
 * i32 with negative weights takes a check before the loop and a pass
 * after it, so that it means what gpuk_apsp means (apsp_check.c).
 */
#include "dist_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One posted broadcast and what the staged path copies in after it. */
typedef struct xfer {
    gkd_step s;
    gpuk_tensor *at, *bt;   /* the part sent along the grid row (a), along the column (b) */
    char *ah, *bh;          /* their host copies (staged) */
    int posted;
} xfer;

typedef struct fw {
    gpuk_dist *d;
    gpuk_dist_matrix *m;
    const char *variant;
    gpuk_dtype dt;
    size_t es;
    int64_t n, b, nk, lr, lc;
    int staged;                 /* MPI through host buffers */
    int talk, work;             /* the schedule runs the broadcasts, the local ops */
    gpuk_tensor *diag[2];       /* b x b: the closed diagonal block of step K, slot K % 2 */
    gpuk_tensor *row[2], *col[2];   /* b x lc, lr x b: the panels of step K, slot K % 2 */
    gpuk_tensor *old;           /* lr x b: a block column before its update */
    gpuk_tensor *rsub;          /* b x b: row K's columns of block K + 1, dense */
    gpuk_tensor *scratch;       /* what copy.c transposes through */
    char *hdiag[2], *hrow[2], *hcol[2];   /* staged: the same on the host */
    xfer dx[2], px[2];          /* the diagonal's and the panels' broadcasts, by slot */
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
    gpuk_dist *d = F->d;
    int64_t b = F->b, most = F->lr > F->lc ? F->lr : F->lc;
    if (gkd_injected(d, "setup")) {
        F->st = GPUK_ERR_INTERNAL;
        snprintf(F->msg, sizeof F->msg, "failure injected by GPUK_DIST_FAIL at setup");
        return F->st;
    }
    most = most > b ? most : b;
    for (int i = 0; i < 2; i++)
        if (make(F, b, b, &F->diag[i]) || make(F, b, F->lc, &F->row[i]) ||
            make(F, F->lr, b, &F->col[i]))
            return F->st;
    if (make(F, F->lr, b, &F->old) || make(F, b, b, &F->rsub))
        return F->st;
    /* copy.c needs a scratch only for its transposes: off host memory without NCCL */
    int transposes = (!d->host_memory || d->force_staged) && d->comm_kind != GPUK_DIST_COMM_NCCL;
    if (transposes && make(F, most, b, &F->scratch))
        return F->st;
    for (int i = 0; i < 2 && F->staged; i++)
        if (host_buf(F, b * b, &F->hdiag[i]) || host_buf(F, b * F->lc, &F->hrow[i]) ||
            host_buf(F, F->lr * b, &F->hcol[i]))
            return F->st;
    return GPUK_OK;
}

static void release(fw *F)
{
    gpuk_context *ctx = F->d->ctx;
    for (int i = 0; i < 2; i++) {
        gpuk_tensor_destroy(ctx, F->diag[i]);
        gpuk_tensor_destroy(ctx, F->row[i]);
        gpuk_tensor_destroy(ctx, F->col[i]);
        gpuk_host_free(ctx, F->hdiag[i]);
        gpuk_host_free(ctx, F->hrow[i]);
        gpuk_host_free(ctx, F->hcol[i]);
    }
    gpuk_tensor_destroy(ctx, F->old);
    gpuk_tensor_destroy(ctx, F->rsub);
    gpuk_tensor_destroy(ctx, F->scratch);
}

static int64_t width(const fw *F, int64_t K)
{
    return F->n - K * F->b < F->b ? F->n - K * F->b : F->b;
}

/* Block K in this rank's local indices, and whether this rank holds some
 * of block row K (in_row) and of block column K (in_col). */
static int in_row(const fw *F, int64_t K) { return F->d->myrow == (int)(K % F->d->prow); }
static int in_col(const fw *F, int64_t K) { return F->d->mycol == (int)(K % F->d->pcol); }
static int64_t lro(const fw *F, int64_t K) { return K / F->d->prow * F->b; }
static int64_t lco(const fw *F, int64_t K) { return K / F->d->pcol * F->b; }

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

/* A transport failure (bcast.c wrote d->err) is this rank's, and ends the
 * loop: a broken broadcast cannot be caught up with. */
static int comm_ok(fw *F, gpuk_status st)
{
    if (st == GPUK_OK)
        return 1;
    if (F->st == GPUK_OK)
        F->st = st, snprintf(F->msg, sizeof F->msg, "%.500s", F->d->err);
    F->broken = 1;
    return 0;
}

/* Start a broadcast in event slot `slot`: a_count elements of at along the
 * grid row from column a_root, b_count of bt along the grid column from
 * row b_root; a count of 0 is no broadcast, the same on every rank of
 * that row or column.  The roots' data is whatever the context's stream
 * has been given to compute so far. */
static void post(fw *F, xfer *X, int slot, gpuk_tensor *at, char *ah, int64_t a_count, int a_root,
                 gpuk_tensor *bt, char *bh, int64_t b_count, int b_root)
{
    gpuk_dist *d = F->d;
    memset(X, 0, sizeof *X);
    X->s.dtype = F->dt;
    X->s.a_count = d->pcol > 1 ? a_count : 0, X->s.a_root = a_root;
    X->s.b_count = d->prow > 1 ? b_count : 0, X->s.b_root = b_root;
    X->at = at, X->bt = bt, X->ah = ah, X->bh = bh;
    if (!F->talk || F->broken || (X->s.a_count == 0 && X->s.b_count == 0))
        return;
    double t0 = gkd_now();
    if (F->staged) {
        if (X->s.a_count && d->mycol == a_root)
            stage(F, at, ah, X->s.a_count, 1);
        if (X->s.b_count && d->myrow == b_root)
            stage(F, bt, bh, X->s.b_count, 1);
        X->s.a_buf = ah, X->s.b_buf = bh;
    } else {
        X->s.a_buf = gkd_data(d, at), X->s.b_buf = gkd_data(d, bt);
        /* NCCL's stream waits for everything issued on the context's;
         * MPI on device memory reads it behind the stream's back */
        if (d->comm_kind == GPUK_DIST_COMM_NCCL) {
            if (!comm_ok(F, gkd_step_ready(d)))
                return;
        } else if (!d->host_memory && gpuk_sync(d->ctx) != GPUK_OK) {
            failed(F, GPUK_ERR_DEVICE, "gpuk_sync before a broadcast");
        }
    }
    d->stats.stage_s += gkd_now() - t0;
    if (!comm_ok(F, gkd_step_post(d, &X->s, slot, -1)))
        return;
    X->posted = 1;
    /* host memory: the helper thread moves it while this one computes */
    if (d->host_memory && !F->staged)
        gkd_step_handoff(d, &X->s);
}

/* Its end: MPI completes the requests (a root's too), NCCL makes the
 * context's stream wait; staged, the receivers copy it in. */
static void finish(fw *F, xfer *X)
{
    gpuk_dist *d = F->d;
    if (!X->posted)
        return;
    X->posted = 0;
    if (!comm_ok(F, gkd_step_wait(d, &X->s)))
        return;
    double t0 = gkd_now();
    if (F->staged) {
        if (X->s.a_count && d->mycol != X->s.a_root)
            stage(F, X->at, X->ah, X->s.a_count, 0);
        if (X->s.b_count && d->myrow != X->s.b_root)
            stage(F, X->bt, X->bh, X->s.b_count, 0);
    }
    d->stats.stage_s += gkd_now() - t0;
}

/* r = min(r, a (x) b) over dense views at element offsets of their
 * storage: a rows x k, b k x cols, r rows x cols (min-plus takes dense
 * operands: r is whole rows of the local matrix, or a packed panel). */
static void fold(fw *F, gpuk_tensor *a, int64_t aoff, gpuk_tensor *b, int64_t boff,
                 gpuk_tensor *r, int64_t roff, int64_t rows, int64_t k, int64_t cols,
                 const char *what)
{
    gpuk_tensor *av = NULL, *bv = NULL, *rv = NULL;
    if (F->st != GPUK_OK || !F->work || rows == 0 || cols == 0)
        return;
    double t0 = gkd_now();
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
    F->d->stats.local_s += gkd_now() - t0;
}

static void copy(fw *F, gkd_rect src, gkd_rect dst, int64_t rows, int64_t cols, const char *what)
{
    if (F->st != GPUK_OK || !F->work)
        return;
    gpuk_status st = gkd_copy2d(F->d, F->dt, src, dst, rows, cols, F->scratch);
    if (st != GPUK_OK && F->st == GPUK_OK) {
        F->st = st;
        snprintf(F->msg, sizeof F->msg, "%s: %s", what, gkd_copy2d_error(F->d));
    }
}

/* The local rectangles: block row J (whole local rows), block column J,
 * and a dense buffer of width w. */
static gkd_rect band(fw *F, int64_t J) { gkd_rect r = { F->m->local, lro(F, J) * F->lc, F->lc }; return r; }
static gkd_rect column(fw *F, int64_t J) { gkd_rect r = { F->m->local, lco(F, J), F->lc }; return r; }
static gkd_rect dense(gpuk_tensor *t, int64_t w) { gkd_rect r = { t, 0, w }; return r; }

/* The diagonal block J, closed in place (paths inside it through any
 * earlier block are already in).  A negative cycle inside it is not this
 * step's to report: the check after the loop finds it. */
static void close_diag(fw *F, int64_t J)
{
    gpuk_dist *d = F->d;
    gpuk_tensor *v = NULL, *dg = F->diag[J % 2];
    int64_t kw = width(F, J);
    gkd_rect local = { F->m->local, lro(F, J) * F->lc + lco(F, J), F->lc };
    if (!F->work)
        return;
    /* the last broadcast from this buffer (step J - 2) must be over */
    if (!comm_ok(F, gkd_slot_free(d, 2 + (int)(J % 2))))
        return;
    double t0 = gkd_now();
    copy(F, local, dense(dg, kw), kw, kw, "copying out the diagonal block");
    if (F->st == GPUK_OK && dense_view(F, dg, kw, kw, 0, &v) == GPUK_OK) {
        gpuk_status st = gpuk_apsp(d->ctx, v, v, NULL, NULL);
        if (st != GPUK_OK && st != GPUK_ERR_NEGATIVE_CYCLE)
            failed(F, st, "gpuk_apsp of the diagonal block");
    }
    gpuk_tensor_destroy(d->ctx, v);
    copy(F, dense(dg, kw), local, kw, kw, "copying back the diagonal block");
    d->stats.local_s += gkd_now() - t0;
}

/* Block row and column J with the closed diagonal block (doc/distributed.md,
 * "APSP", step 3); the panels of step J are left in slot J % 2. */
static void fold_diag(fw *F, int64_t J)
{
    int64_t kw = width(F, J), lr = F->lr, lc = F->lc;
    int s = (int)(J % 2);
    if (in_row(F, J) && lc > 0) {   /* its rows are contiguous in the local matrix */
        copy(F, band(F, J), dense(F->row[s], lc), kw, lc, "copying out block row J");
        fold(F, F->diag[s], 0, F->row[s], 0, F->m->local, lro(F, J) * lc, kw, kw, lc,
             "gpuk_minplus_update of block row J");
        copy(F, band(F, J), dense(F->row[s], lc), kw, lc, "copying out block row J");
    }
    if (in_col(F, J) && lr > 0) {   /* packed dense, and a copy of it as the operand */
        copy(F, column(F, J), dense(F->col[s], kw), lr, kw, "packing block column J");
        copy(F, dense(F->col[s], kw), dense(F->old, kw), lr, kw, "copying block column J");
        fold(F, F->old, 0, F->diag[s], 0, F->col[s], 0, lr, kw, kw,
             "gpuk_minplus_update of block column J");
        copy(F, dense(F->col[s], kw), column(F, J), lr, kw, "unpacking block column J");
    }
}

/* prep(J) up to the panels' broadcasts.  A rank that receives the closed
 * block but did not close it runs `meanwhile` (a piece of the previous
 * step's update) while it travels. */
typedef void (*work_fn)(fw *F, int64_t K, int piece);

static void prep(fw *F, int64_t J, work_fn meanwhile, int64_t K)
{
    gpuk_dist *d = F->d;
    int64_t kw = width(F, J);
    int r = in_row(F, J), c = in_col(F, J), s = (int)(J % 2);
    int rJ = (int)(J % d->prow), cJ = (int)(J % d->pcol);
    if (F->st == GPUK_OK && gkd_injected(d, "panel")) {
        F->st = GPUK_ERR_INTERNAL;
        snprintf(F->msg, sizeof F->msg, "step %lld: failure injected by GPUK_DIST_FAIL",
                 (long long)J);
    }
    if (r && c)
        close_diag(F, J);
    /* the closed block to the ranks of block row J and block column J */
    post(F, &F->dx[s], 2 + s, F->diag[s], F->hdiag[s], r ? kw * kw : 0, cJ, F->diag[s],
         F->hdiag[s], c ? kw * kw : 0, rJ);
    if (r && c) {
        /* the root need not wait for its own send: NCCL's stream keeps
         * the buffer until gkd_slot_free; MPI completes its requests
         * after the folds, before its next MPI call */
        fold_diag(F, J);
        if (d->comm_kind == GPUK_DIST_COMM_NCCL)
            F->dx[s].posted = 0;
        else
            finish(F, &F->dx[s]);
    } else {
        if (meanwhile && (r || c))
            meanwhile(F, K, 0);
        finish(F, &F->dx[s]);
        fold_diag(F, J);
    }
    /* 4: block column J along the grid rows, block row J along the columns */
    post(F, &F->px[s], s, F->col[s], F->hcol[s], F->lr * kw, cJ, F->row[s], F->hrow[s],
         kw * F->lc, rJ);
}

/* Look-ahead: step K's panels into block row and column K + 1, before
 * prep(K + 1) closes and sends them. */
static void ahead(fw *F, int64_t K)
{
    int64_t J = K + 1, kw = width(F, K), kj = width(F, J), lr = F->lr, lc = F->lc;
    int s = (int)(K % 2);
    double t0 = gkd_now();
    if (in_row(F, J) && lc > 0)   /* the column panel's rows of block J: contiguous */
        fold(F, F->col[s], lro(F, J) * kw, F->row[s], 0, F->m->local, lro(F, J) * lc, kj, kw, lc,
             "gpuk_minplus_update of block row K + 1 (look-ahead)");
    if (in_col(F, J) && lr > 0) {   /* the row panel's columns of block J: copied dense */
        gkd_rect rp = { F->row[s], lco(F, J), lc };
        copy(F, rp, dense(F->rsub, kj), kw, kj, "copying row K's columns of block K + 1");
        copy(F, column(F, J), dense(F->old, kj), lr, kj, "packing block column K + 1");
        fold(F, F->col[s], 0, F->rsub, 0, F->old, 0, lr, kw, kj,
             "gpuk_minplus_update of block column K + 1 (look-ahead)");
        copy(F, dense(F->old, kj), column(F, J), lr, kj, "unpacking block column K + 1");
    }
    F->d->stats.local_s += gkd_now() - t0;
}

/* The rows rest(K) updates: all local rows but block row K and, with
 * look-ahead, block row K + 1 (those this rank holds); at most 3 runs. */
typedef struct rows_left {
    int64_t lo[3], hi[3], total;
    int n;
} rows_left;

static rows_left rows_of_rest(const fw *F, int64_t K, int skip_next)
{
    int64_t cut[2][2];
    int nc = 0;
    rows_left R;
    memset(&R, 0, sizeof R);
    if (in_row(F, K))
        cut[nc][0] = lro(F, K), cut[nc][1] = lro(F, K) + width(F, K), nc++;
    if (skip_next && K + 1 < F->nk && in_row(F, K + 1))
        cut[nc][0] = lro(F, K + 1), cut[nc][1] = lro(F, K + 1) + width(F, K + 1), nc++;
    if (nc == 2 && cut[1][0] < cut[0][0]) {
        int64_t t0 = cut[0][0], t1 = cut[0][1];
        cut[0][0] = cut[1][0], cut[0][1] = cut[1][1], cut[1][0] = t0, cut[1][1] = t1;
    }
    int64_t at = 0;
    for (int i = 0; i <= nc; i++) {
        int64_t end = i < nc ? cut[i][0] : F->lr;
        if (end > at)
            R.lo[R.n] = at, R.hi[R.n] = end, R.total += end - at, R.n++;
        if (i < nc)
            at = cut[i][1];
    }
    return R;
}

/* Piece `piece` of rest(K): the rows from piece/pieces to (piece +
 * 1)/pieces of those left, folded run by run. */
static void rest_piece(fw *F, int64_t K, int piece, int skip_next)
{
    int pieces = F->d->apsp_pieces;
    rows_left R = rows_of_rest(F, K, skip_next);
    int64_t v0 = R.total * piece / pieces, v1 = R.total * (piece + 1) / pieces, seen = 0;
    int64_t kw = width(F, K), lc = F->lc;
    int s = (int)(K % 2);
    for (int i = 0; i < R.n; i++) {
        int64_t len = R.hi[i] - R.lo[i];
        int64_t a = v0 > seen ? v0 - seen : 0, z = v1 - seen < len ? v1 - seen : len;
        if (z > a)
            fold(F, F->col[s], (R.lo[i] + a) * kw, F->row[s], 0, F->m->local,
                 (R.lo[i] + a) * lc, z - a, kw, lc, "gpuk_minplus_update");
        seen += len;
    }
}

static void rest_ahead(fw *F, int64_t K, int piece) { rest_piece(F, K, piece, 1); }

static void loop(fw *F)
{
    gpuk_dist *d = F->d;
    int pieces = d->apsp_pieces;
    if (F->nk == 0)
        return;
    if (d->schedule == GPUK_DIST_SERIAL) {
        for (int64_t K = 0; K < F->nk && !F->broken; K++) {
            prep(F, K, NULL, -1);
            finish(F, &F->px[K % 2]);
            for (int p = 0; p < pieces; p++)
                rest_piece(F, K, p, 0);
        }
        return;
    }
    prep(F, 0, NULL, -1);
    for (int64_t K = 0; K < F->nk && !F->broken; K++) {
        finish(F, &F->px[K % 2]);
        int first = 0;
        if (K + 1 < F->nk) {
            ahead(F, K);
            /* receivers of the closed block K + 1 run piece 0 while it travels */
            int r = in_row(F, K + 1), c = in_col(F, K + 1);
            first = (r || c) && !(r && c) && F->talk;
            prep(F, K + 1, first ? rest_ahead : NULL, K);
        }
        for (int p = first; p < pieces; p++)
            rest_piece(F, K, p, 1);
    }
}

/* ------------------------------------------------------------ the call */

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
        { "the schedule (gpuk_dist_set_schedule)", GPUK_ERR_INVALID, d->schedule, 0 },
        { "m (its creation number)", GPUK_ERR_INVALID, ok ? m->serial : 0, 0 },
    };
    if ((st = gkd_agree(d, GKD_FN_APSP, st, F.msg, f, 2)) != GPUK_OK)
        return st;

    F.dt = m->dtype, F.es = m->es;
    F.n = m->rows, F.b = m->mb, F.nk = F.b > 0 ? (F.n + F.b - 1) / F.b : 0;
    F.lr = m->lrows, F.lc = m->lcols;
    F.staged = d->comm_kind == GPUK_DIST_COMM_MPI && !d->direct;
    F.talk = d->schedule != GPUK_DIST_COMPUTE_ONLY;
    F.work = d->schedule != GPUK_DIST_COMM_ONLY;
    d->stats.flops = 2.0 * (double)F.lr * (double)F.lc * (double)F.n;

    /* i32: a negative weight needs the check and the pass of apsp_check.c */
    int64_t limit = 0;
    int negative = 0;
    if (F.dt == GPUK_I32 && F.work) {
        int32_t least = GPUK_I32_INF, low = GPUK_I32_INF;
        st = gkd_apsp_least_i32(d, m, &least, F.msg, ml);
        if ((st = gkd_agree(d, GKD_FN_APSP, st, F.msg, NULL, 0)) != GPUK_OK)
            return st;
        MPI_Allreduce(&least, &low, 1, MPI_INT32_T, MPI_MIN, d->comm);
        if (low < 0) {
            negative = 1;
            st = gkd_apsp_limit_i32(d, m, low, &limit, F.msg, ml);
            if ((st = gkd_agree(d, GKD_FN_APSP, st, F.msg, NULL, 0)) != GPUK_OK)
                return st;
        }
    }

    /* resources, agreed on before the first broadcast */
    setup(&F);
    if ((st = gkd_agree(d, GKD_FN_APSP, F.st, F.msg, NULL, 0)) != GPUK_OK) {
        release(&F);
        return st;
    }
    d->stats.panels = (int)F.nk;
    /* no edge: NaN -> +inf, i32 above GPUK_I32_INF -> it (k = 0) */
    if (F.lr > 0 && F.lc > 0 && F.work) {
        int64_t ea[2] = { F.lr, 0 }, eb[2] = { 0, F.lc };
        gpuk_tensor *a0 = NULL, *b0 = NULL;
        if ((st = gpuk_tensor_view(d->ctx, F.col[0], 2, ea, NULL, 0, &a0)) == GPUK_OK &&
            (st = gpuk_tensor_view(d->ctx, F.row[0], 2, eb, NULL, 0, &b0)) == GPUK_OK)
            st = gpuk_minplus_update(d->ctx, a0, b0, m->local, variant);
        if (st != GPUK_OK)
            failed(&F, st, "making \"no edge\" infinite (gpuk_minplus_update, k = 0)");
        gpuk_tensor_destroy(d->ctx, a0);
        gpuk_tensor_destroy(d->ctx, b0);
    }
    /* a rank whose local work failed goes on with the broadcasts, so that
     * the others finish their loop (doc/distributed.md, "Failure
     * agreement") */
    loop(&F);
    if ((st = gpuk_sync(d->ctx)) != GPUK_OK)
        failed(&F, st, "gpuk_sync after the last step");
    if ((st = gkd_step_drain(d)) != GPUK_OK && F.st == GPUK_OK)
        F.st = st, snprintf(F.msg, ml, "%.500s", d->err);
    if (negative && F.st == GPUK_OK)
        F.st = gkd_apsp_no_path_i32(d, m, limit, F.msg, ml);
    /* the measuring schedules leave m undefined: nothing to check */
    int64_t v = -1;
    if (F.st == GPUK_OK && F.work && F.talk)
        F.st = gkd_apsp_negative_diagonal(d, m, &v, F.msg, ml);
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

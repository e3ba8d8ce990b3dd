/*
 * summa.c - gpuk_dist_matmul and gpuk_dist_minplus: SUMMA on a
 * block-cyclic grid (doc/distributed.md, "SUMMA").
 *
 * For each block K of the shared dimension k: the grid column that holds
 * block column K of a broadcasts it along the grid rows, the grid row that
 * holds block row K of b broadcasts it along the grid columns, and every
 * rank folds panel_a (x) panel_b into its local c.  A rank's local rows of
 * a are exactly its local rows of c (same m, mb and P), and its local
 * columns of b those of c, so the fold is one local op on whole local
 * matrices: gpuk_gemm with beta 0 then 1, or gpuk_minplus then
 * gpuk_minplus_update.  Min is exact and order-free, so the min-plus
 * result is bit for bit gpuk_minplus's over the whole k; the matmul is one
 * more order of the same k products, within the same gamma_k bound.
 *
 * The panels of b are block rows, contiguous in the row-major local
 * tensor.  The panels of a are block columns, which are not, and the local
 * ops want dense operands: so each rank first packs its local a one block
 * column after another (copy.c: O(n^2 / ranks), against the O(n^3 / ranks)
 * of the op), and sends and uses those.
 *
 * Double buffering: panels of step K land in slot K mod 2, and step K+1's
 * broadcast is posted before step K's op (GPUK_DIST_OVERLAP), so
 * communication overlaps computation; bcast.c says how each transport
 * keeps a slot from being refilled while an op still reads it.
 *
 * Panel groups (matmul over NCCL; doc/distributed.md, "Panel groups"):
 * cuBLAS's SGEMM on a panel's lr x kb x lc runs 8-11% under its rate on
 * one whole product, and 1.6-3 points of that come back by holding a
 * transposed and 3.4-4.9 more by a deeper k.  So there the rank packs
 * a^T (lka x lr: each block column of a is then a dense block row), a
 * step's panels land one after another in one buffer (the root's own
 * through NCCL's copy to it), and one gpuk_gemm (a^T transposed) takes
 * the whole group: the first step one panel, since nothing hides its
 * broadcast, each later one S->group.  A grid dimension of 1 needs no
 * buffer: the rank holds all of k in order there.
 */
#include "dist_internal.h"

#include <stdio.h>
#include <string.h>

typedef struct summa {
    gpuk_dist *d;
    gkd_fn fn;
    const char *variant;
    const gpuk_dist_matrix *a, *b;
    gpuk_dist_matrix *c;
    gpuk_dtype dt;                  /* of a, b and c */
    size_t es;                      /* its element size: every byte count below */
    int64_t lr, lc, lka, k, kb, nk;
    int staged;                     /* MPI through host buffers (a GPU, MPI not CUDA-aware) */
    int took;                       /* setup took d->bufs: release gives them back */
    gpuk_tensor *apack;             /* local a, block column after block column, each dense
                                       (with groups: a^T, lka x lr) */
    int nslots;                     /* panel buffers: 2, or d->depth for NCCL's overlap */
    int at;                         /* panel groups: apack is a^T, each step one gemm */
    int64_t group, nsteps;          /* panels a step takes after the first (1 without
                                       groups), and the steps */
    gpuk_tensor *abuf[3], *bbuf[3]; /* received panels: lr x kb, kb x lc */
    char *ahost[2], *bhost[2];      /* staged: received panels on the host */
    char *apack_host, *b_host;      /* staged: what this rank sends, on the host */
    char *apack_p, *b_p, *abuf_p[3], *bbuf_p[3];  /* device (or host) addresses */
    gpuk_status st;                 /* this rank's first local failure */
    char msg[GKD_MSG];
} summa;

static gpuk_status failed(summa *S, gpuk_status st, const char *what)
{
    if (S->st == GPUK_OK) {
        S->st = st;
        snprintf(S->msg, sizeof S->msg, "%s: %s", what, gpuk_context_error(S->d->ctx));
    }
    return st;
}

/* A dense rows x cols view at element offset off of base's storage. */
static gpuk_status view(summa *S, gpuk_tensor *base, int64_t rows, int64_t cols, int64_t off,
                        gpuk_tensor **out)
{
    int64_t shape[2] = { rows, cols };
    gpuk_status st = gpuk_tensor_view(S->d->ctx, base, 2, shape, NULL, off, out);
    return st == GPUK_OK ? st : failed(S, st, "gpuk_tensor_view of a panel");
}

/* The local fold: the first panel writes c, the others fold into it. */
static gpuk_status local_op(summa *S, gpuk_tensor *a, gpuk_tensor *b, gpuk_tensor *c, int first)
{
    gpuk_context *ctx = S->d->ctx;
    if (S->fn == GKD_FN_MATMUL)
        return gpuk_gemm(ctx, GPUK_NO_TRANS, GPUK_NO_TRANS, 1.0, a, b, first ? 0.0 : 1.0, c,
                         S->variant);
    return first ? gpuk_minplus(ctx, a, b, c, S->variant)
                 : gpuk_minplus_update(ctx, a, b, c, S->variant);
}

static const char *op_name(const summa *S, int first)
{
    return S->fn == GKD_FN_MATMUL ? "gpuk_gemm" : first ? "gpuk_minplus" : "gpuk_minplus_update";
}

/* Pack local a into apack, block column by block column, each dense
 * (copy.c: by rows on host memory, by transposes of words elsewhere, with
 * abuf[0] as the scratch). */
static gpuk_status pack_a(summa *S)
{
    for (int64_t lj = 0; lj < S->lka && S->lr > 0; lj += S->kb) {
        int64_t w = S->lka - lj < S->kb ? S->lka - lj : S->kb;
        gkd_rect src = { S->a->local, lj, S->lka }, dst = { S->apack, S->lr * lj, w };
        gpuk_status st = gkd_copy2d(S->d, S->dt, src, dst, S->lr, w, S->abuf[0]);
        if (st != GPUK_OK) {
            S->st = st;
            snprintf(S->msg, sizeof S->msg, "packing a's block columns: %s",
                     gkd_copy2d_error(S->d));
            return st;
        }
    }
    return GPUK_OK;
}

static gpuk_status host_buf(summa *S, int64_t n, char **out)
{
    *out = NULL;
    if (n <= 0)
        return GPUK_OK;
    gpuk_status st = gpuk_host_alloc(S->d->ctx, (size_t)n * S->es, (void **)out);
    return st == GPUK_OK ? st : failed(S, st, "gpuk_host_alloc of a staging buffer");
}

/* A buffer in d->bufs: the kept one, or a new rows x cols tensor. */
static gpuk_status make(summa *S, int64_t rows, int64_t cols, gpuk_tensor **t)
{
    if (*t)
        return GPUK_OK;
    int64_t shape[2] = { rows, cols };
    gpuk_status st = gpuk_tensor_create(S->d->ctx, S->dt, 2, shape, t);
    return st == GPUK_OK ? st : failed(S, st, "gpuk_tensor_create of a panel buffer");
}

void gkd_bufs_free(gpuk_dist *d)
{
    struct gkd_bufs *k = &d->bufs;
    gpuk_tensor_destroy(d->ctx, k->apack);
    for (int i = 0; i < 3; i++) {
        gpuk_tensor_destroy(d->ctx, k->abuf[i]);
        gpuk_tensor_destroy(d->ctx, k->bbuf[i]);
    }
    memset(k, 0, sizeof *k);
}

/* Allocating and freeing ~1 GB of buffers cost 8 ms of a 52 ms call on
 * four H100s (doc/distributed.md, "Panel groups"), so they outlive the call:
 * the next call whose shapes (the key) match takes them as they are,
 * another frees them first.  Slots are made as a schedule needs them. */
static void take_bufs(summa *S, int64_t rows)
{
    gpuk_dist *d = S->d;
    int64_t key[6] = { S->dt, S->at, S->lr, S->lka, S->lc, rows };
    if (memcmp(key, d->bufs.key, sizeof key)) {
        gkd_bufs_free(d);
        memcpy(d->bufs.key, key, sizeof key);
    }
    S->apack = d->bufs.apack;
    memcpy(S->abuf, d->bufs.abuf, sizeof S->abuf);
    memcpy(S->bbuf, d->bufs.bbuf, sizeof S->bbuf);
    S->took = 1;
}

/* What setup made goes back to d->bufs, to be kept or freed. */
static void give_bufs(summa *S)
{
    gpuk_dist *d = S->d;
    if (!S->took)
        return;
    S->took = 0;
    d->bufs.apack = S->apack;
    memcpy(d->bufs.abuf, S->abuf, sizeof S->abuf);
    memcpy(d->bufs.bbuf, S->bbuf, sizeof S->bbuf);
    if (!d->keep || S->st != GPUK_OK)
        gkd_bufs_free(d);
    S->apack = NULL;
    memset(S->abuf, 0, sizeof S->abuf);
    memset(S->bbuf, 0, sizeof S->bbuf);
}

/* Buffers, the packed a, and (staged) this rank's outgoing panels read
 * back to the host once, so that no step waits for a device read. */
static gpuk_status setup(summa *S)
{
    gpuk_dist *d = S->d;
    int P = d->prow, Q = d->pcol;
    gpuk_status st = GPUK_OK;
    /* a step's rows of a^T and of b with groups; a panel's otherwise */
    const int64_t rows = S->at ? (S->group < S->nk ? S->group : S->nk) * S->kb : S->kb;
    take_bufs(S, rows);
    if (gkd_injected(d, "setup")) {
        S->st = GPUK_ERR_INTERNAL;
        snprintf(S->msg, sizeof S->msg, "failure injected by GPUK_DIST_FAIL at setup");
        return S->st;
    }
    if (S->at) {
        if ((st = make(S, S->lka, S->lr, &S->apack)))
            return st;
        for (int i = 0; i < S->nslots; i++)
            if ((Q > 1 && (st = make(S, rows, S->lr, &S->abuf[i]))) ||
                (P > 1 && (st = make(S, rows, S->lc, &S->bbuf[i]))))
                return st;
        if (S->lr > 0 && S->lka > 0 &&
            (st = gpuk_transpose(d->ctx, S->a->local, S->apack, NULL)) != GPUK_OK)
            return failed(S, st, "gpuk_transpose of a");
    } else {
        if ((st = make(S, S->lr, S->lka, &S->apack)) ||
            (st = make(S, S->lr, rows, &S->abuf[0])))
            return st;
        for (int i = 1; i < S->nslots && Q > 1; i++)
            if ((st = make(S, S->lr, rows, &S->abuf[i])))
                return st;
        for (int i = 0; i < S->nslots && P > 1; i++)
            if ((st = make(S, rows, S->lc, &S->bbuf[i])))
                return st;
        if ((st = pack_a(S)))
            return st;
    }
    S->apack_p = gkd_data(S->d, S->apack);
    S->b_p = gkd_data(S->d, S->b->local);
    for (int i = 0; i < S->nslots; i++)
        S->abuf_p[i] = gkd_data(S->d, S->abuf[i]), S->bbuf_p[i] = gkd_data(S->d, S->bbuf[i]);
    if (S->staged) {
        for (int i = 0; i < 2; i++)
            if ((Q > 1 && (st = host_buf(S, S->lr * S->kb, &S->ahost[i]))) ||
                (P > 1 && (st = host_buf(S, S->kb * S->lc, &S->bhost[i]))))
                return st;
        if (Q > 1 && (st = host_buf(S, S->lr * S->lka, &S->apack_host)) == GPUK_OK &&
            S->apack_host &&
            (st = gpuk_tensor_read(d->ctx, S->apack, S->apack_host,
                                   (size_t)(S->lr * S->lka) * S->es)))
            return failed(S, st, "reading the packed a to the host");
        if (st)
            return st;
        int64_t nb = S->b->lrows * S->lc;
        if (P > 1 && (st = host_buf(S, nb, &S->b_host)) == GPUK_OK && S->b_host &&
            (st = gpuk_tensor_read(d->ctx, S->b->local, S->b_host, (size_t)nb * S->es)))
            return failed(S, st, "reading b to the host");
        return st;
    }
    /* MPI reads tensor memory directly once everything issued is done;
     * NCCL orders its stream after the packing instead */
    if (d->comm_kind == GPUK_DIST_COMM_NCCL)
        st = gkd_step_ready(d);
    else if ((st = gpuk_sync(d->ctx)) != GPUK_OK)
        return failed(S, st, "gpuk_sync after packing a");
    if (st != GPUK_OK && S->st == GPUK_OK)
        S->st = st, snprintf(S->msg, sizeof S->msg, "%.500s", d->err);
    return st;
}

static void release(summa *S)
{
    gpuk_context *ctx = S->d->ctx;
    give_bufs(S);
    for (int i = 0; i < 2; i++) {
        gpuk_host_free(ctx, S->ahost[i]);
        gpuk_host_free(ctx, S->bhost[i]);
    }
    gpuk_host_free(ctx, S->apack_host);
    gpuk_host_free(ctx, S->b_host);
}

static int64_t width(const summa *S, int64_t K)
{
    return S->k - K * S->kb < S->kb ? S->k - K * S->kb : S->kb;
}

/* Step g's panels, [*K0, *K1): one panel, or with groups the first step
 * one and each later one S->group (the last what is left). */
static void step_panels(const summa *S, int64_t g, int64_t *K0, int64_t *K1)
{
    if (S->group <= 1 || g == 0) {
        *K0 = g, *K1 = g + 1;
        return;
    }
    *K0 = 1 + (g - 1) * S->group;
    *K1 = *K0 + S->group < S->nk ? *K0 + S->group : S->nk;
}

/* Where panel K, of a step whose first panel is K0, comes from (roots) or
 * lands (the others; with groups, the roots too). */
static void fill(summa *S, gkd_step *s, int64_t K, int slot, int64_t K0)
{
    gpuk_dist *d = S->d;
    int64_t w = width(S, K);
    s->dtype = S->dt;
    s->a_root = (int)(K % d->pcol);
    s->b_root = (int)(K % d->prow);
    s->a_count = S->lr * w;
    s->b_count = w * S->lc;
    /* byte offsets of the panel in the packed a (block columns, or the
     * block rows of a^T: the same count) and in b; with groups, of its
     * place in the step's buffers */
    size_t aoff = (size_t)(S->lr * S->kb * (K / d->pcol)) * S->es;
    size_t boff = (size_t)(K / d->prow * S->kb * S->lc) * S->es;
    size_t apos = (size_t)((K - K0) * S->kb * S->lr) * S->es;
    size_t bpos = (size_t)((K - K0) * S->kb * S->lc) * S->es;
    s->a_buf = s->b_buf = s->a_copy = s->b_copy = NULL;
    if (d->pcol == 1)   /* nothing to send along a grid row of one */
        s->a_count = 0;
    else if (d->mycol == s->a_root) {
        s->a_buf = (S->staged ? S->apack_host : S->apack_p) + aoff;
        if (S->at)
            s->a_copy = S->abuf_p[slot] + apos;
    } else
        s->a_buf = S->staged ? S->ahost[slot] : S->abuf_p[slot] + apos;
    if (d->prow == 1)
        s->b_count = 0;
    else if (d->myrow == s->b_root) {
        s->b_buf = (S->staged ? S->b_host : S->b_p) + boff;
        if (S->at)
            s->b_copy = S->bbuf_p[slot] + bpos;
    } else
        s->b_buf = S->staged ? S->bhost[slot] : S->bbuf_p[slot] + bpos;
}

/* Post step g's broadcasts into slot, after the op issued in slot `after`
 * (NCCL; -1: none).  Only NCCL groups panels, so an MPI step stays one
 * panel and s keeps its requests. */
static gpuk_status post(summa *S, gkd_step *s, int64_t g, int slot, int after)
{
    int64_t K0, K1;
    step_panels(S, g, &K0, &K1);
    gpuk_status st = GPUK_OK;
    for (int64_t K = K0; K < K1 && st == GPUK_OK; K++) {
        fill(S, s, K, slot, K0);
        st = gkd_step_post(S->d, s, slot, K == K0 ? after : -1);
    }
    return st;
}

/* Staged: copy the panels this rank received from host to tensors. */
static void stage_in(summa *S, const gkd_step *s, int slot, int64_t w)
{
    gpuk_dist *d = S->d;
    double t0 = gkd_now();
    gpuk_tensor *v = NULL;
    if (d->pcol > 1 && d->mycol != s->a_root && s->a_count > 0 &&
        view(S, S->abuf[slot], S->lr, w, 0, &v) == GPUK_OK) {
        gpuk_status st = gpuk_tensor_write(d->ctx, v, S->ahost[slot], (size_t)s->a_count * S->es);
        if (st != GPUK_OK)
            failed(S, st, "gpuk_tensor_write of an a panel");
        gpuk_tensor_destroy(d->ctx, v);
    }
    if (d->prow > 1 && d->myrow != s->b_root && s->b_count > 0 &&
        view(S, S->bbuf[slot], w, S->lc, 0, &v) == GPUK_OK) {
        gpuk_status st = gpuk_tensor_write(d->ctx, v, S->bhost[slot], (size_t)s->b_count * S->es);
        if (st != GPUK_OK)
            failed(S, st, "gpuk_tensor_write of a b panel");
        gpuk_tensor_destroy(d->ctx, v);
    }
    d->stats.stage_s += gkd_now() - t0;
}

/* With groups: step g's one gemm, c (+)= (a^T)^T b over the step's rows
 * of a^T and b, where this rank holds all of k in order (a grid dimension
 * of 1) or in the step's buffers. */
static void compute_group(summa *S, int64_t g, int slot)
{
    gpuk_dist *d = S->d;
    int64_t K0, K1;
    step_panels(S, g, &K0, &K1);
    int64_t r0 = K0 * S->kb, w = (K1 * S->kb < S->k ? K1 * S->kb : S->k) - r0;
    gpuk_tensor *av = NULL, *bv = NULL;
    if (view(S, d->pcol == 1 ? S->apack : S->abuf[slot], w, S->lr,
             d->pcol == 1 ? r0 * S->lr : 0, &av) == GPUK_OK &&
        view(S, d->prow == 1 ? S->b->local : S->bbuf[slot], w, S->lc,
             d->prow == 1 ? r0 * S->lc : 0, &bv) == GPUK_OK) {
        gpuk_status st = gpuk_gemm(d->ctx, GPUK_TRANS, GPUK_NO_TRANS, 1.0, av, bv,
                                   K0 == 0 ? 0.0 : 1.0, S->c->local, S->variant);
        if (st != GPUK_OK) {
            char what[96];
            snprintf(what, sizeof what, "panels %lld-%lld (k from %lld): gpuk_gemm",
                     (long long)K0, (long long)K1 - 1, (long long)r0);
            failed(S, st, what);
        }
    }
    gpuk_tensor_destroy(d->ctx, av);
    gpuk_tensor_destroy(d->ctx, bv);
}

/* Step K's op, in GPUK_DIST_SLICES row slabs when the backend runs it
 * before returning and a broadcast is in flight: MPI moves that one only
 * when called (1 by default: doc/distributed.md, "Overlap").  With groups
 * K is the step (compute_group). */
static void compute(summa *S, int64_t K, int slot, gkd_step *inflight)
{
    gpuk_dist *d = S->d;
    if (S->st != GPUK_OK)
        return;   /* failed earlier: keep broadcasting, stop computing */
    if (gkd_injected(d, "panel")) {
        S->st = GPUK_ERR_INTERNAL;
        snprintf(S->msg, sizeof S->msg, "panel %lld: failure injected by GPUK_DIST_FAIL",
                 (long long)K);
        return;
    }
    if (S->lr == 0 || S->lc == 0)
        return;   /* no local c */
    double t0 = gkd_now();
    if (S->at) {
        compute_group(S, K, slot);
        d->stats.local_s += gkd_now() - t0;
        return;
    }
    int64_t w = width(S, K);
    gpuk_tensor *abase = d->mycol == (int)(K % d->pcol) ? S->apack : S->abuf[slot];
    gpuk_tensor *bbase = d->myrow == (int)(K % d->prow) ? S->b->local : S->bbuf[slot];
    int64_t aoff = abase == S->apack ? S->lr * S->kb * (K / d->pcol) : 0;
    int64_t boff = bbase == S->b->local ? K / d->prow * S->kb * S->lc : 0;
    int slabs = d->host_memory && inflight && inflight->nreq ? d->progress_slices : 1;
    if (slabs > S->lr)
        slabs = S->lr > 0 ? (int)S->lr : 1;
    gpuk_tensor *bv = NULL;
    if (view(S, bbase, w, S->lc, boff, &bv) != GPUK_OK)
        return;
    for (int i = 0; i < slabs; i++) {
        int64_t r0 = S->lr * i / slabs, r1 = S->lr * (i + 1) / slabs;
        gpuk_tensor *av = NULL, *cv = NULL;
        if (view(S, abase, r1 - r0, w, aoff + r0 * w, &av) == GPUK_OK &&
            view(S, S->c->local, r1 - r0, S->lc, r0 * S->lc, &cv) == GPUK_OK) {
            gpuk_status st = local_op(S, av, bv, cv, K == 0);
            if (st != GPUK_OK) {
                char what[96];
                snprintf(what, sizeof what, "panel %lld (k from %lld): %s", (long long)K,
                         (long long)(K * S->kb), op_name(S, K == 0));
                failed(S, st, what);
            }
        }
        gpuk_tensor_destroy(d->ctx, av);
        gpuk_tensor_destroy(d->ctx, cv);
        gkd_step_progress(d, inflight);
        if (S->st != GPUK_OK)
            break;
    }
    gpuk_tensor_destroy(d->ctx, bv);
    d->stats.local_s += gkd_now() - t0;
}

/* Record a transport failure (bcast.c wrote d->err) as this rank's. */
static int comm_ok(summa *S, gpuk_status st)
{
    if (st != GPUK_OK && S->st == GPUK_OK) {
        S->st = st;
        snprintf(S->msg, sizeof S->msg, "%.500s", S->d->err);
    }
    return st == GPUK_OK;
}

/* NCCL, overlapped: the broadcasts of step K + D - 1 are queued before the
 * op of step K, into the buffer that the op of step K - 1 read last, so
 * the panels travel D - 1 steps ahead of their op.  With D = 3 a
 * broadcast is released by the end of the broadcast before it, in the
 * middle of an op, rather than by the end of an op, the instant the next
 * op starts: an NCCL block needs a whole SM, and at that instant the next
 * op's blocks take every SM (doc/distributed.md, "Overlap on GPUs").
 * GPUK_DIST_DEPTH=2 is the double-buffered loop, for comparison. */
static void loop_nccl(summa *S)
{
    gpuk_dist *d = S->d;
    int D = S->nslots;
    gkd_step step[3];
    memset(step, 0, sizeof step);
    for (int64_t K = 0; K < D - 1 && K < S->nsteps; K++)
        if (!comm_ok(S, post(S, &step[K], K, (int)K, -1)))
            return;
    for (int64_t K = 0; K < S->nsteps; K++) {
        int slot = (int)(K % D);
        if (K + D - 1 < S->nsteps) {
            int ns = (int)((K + D - 1) % D);   /* the slot of step K - 1 */
            if (!comm_ok(S, post(S, &step[ns], K + D - 1, ns, K > 0 ? ns : -1)))
                return;
        }
        if (!comm_ok(S, gkd_step_wait(d, &step[slot])))
            return;
        compute(S, K, slot, NULL);
        if (!comm_ok(S, gkd_step_done(d, slot)))
            return;
    }
}

static void loop(summa *S)
{
    gpuk_dist *d = S->d;
    gpuk_dist_schedule sch = d->schedule;
    int talk = sch != GPUK_DIST_COMPUTE_ONLY, work = sch != GPUK_DIST_COMM_ONLY;
    if (sch == GPUK_DIST_OVERLAP && d->comm_kind == GPUK_DIST_COMM_NCCL) {
        loop_nccl(S);
        return;
    }
    /* CUDA-aware MPI writes device memory behind the stream's back: a
     * slot is refilled only after the context is idle */
    int sync_before_post = d->comm_kind == GPUK_DIST_COMM_MPI && d->direct && !d->host_memory;
    gkd_step step[2];
    memset(step, 0, sizeof step);
    if (talk && !comm_ok(S, post(S, &step[0], 0, 0, 0)))
        return;
    /* host memory with a helper thread (bcast.c): step K's panels were in
     * the helper's hands during step K - 1's op; wait for them, then hand
     * it step K + 1's before this op.  The wait comes first because until
     * it returns the helper may be in MPI, and this thread may not. */
    int helper = talk && sch == GPUK_DIST_OVERLAP && d->progress_thread && d->host_memory &&
                 !S->staged && d->comm_kind == GPUK_DIST_COMM_MPI;
    for (int64_t K = 0; K < S->nsteps; K++) {
        int slot = (int)(K & 1), next = slot ^ 1;
        gkd_step *ahead = NULL;
        if (helper) {
            if (!comm_ok(S, gkd_step_wait(d, &step[slot])))
                return;
            if (K + 1 < S->nsteps) {
                if (!comm_ok(S, post(S, &step[next], K + 1, next, next)))
                    return;
                if (!gkd_step_handoff(d, &step[next]))
                    ahead = &step[next];   /* no thread after all: progress between slabs */
            }
            compute(S, K, slot, ahead);
            continue;
        }
        if (talk && sch == GPUK_DIST_OVERLAP && K + 1 < S->nsteps) {
            if (sync_before_post)
                gpuk_sync(d->ctx);
            if (!comm_ok(S, post(S, &step[next], K + 1, next, next)))
                return;
            ahead = &step[next];
        }
        if (talk && !comm_ok(S, gkd_step_wait(d, &step[slot])))
            return;
        if (talk && S->staged)
            stage_in(S, &step[slot], slot, width(S, K));
        if (work)
            compute(S, K, slot, ahead);
        if (!comm_ok(S, gkd_step_done(d, slot)))
            return;
        /* serial, and the broadcasts alone: the next step's after this one's */
        if (talk && sch != GPUK_DIST_OVERLAP && K + 1 < S->nsteps) {
            if (sync_before_post)
                gpuk_sync(d->ctx);
            if (!comm_ok(S, post(S, &step[next], K + 1, next, slot)))
                return;
        }
    }
}

gpuk_status gkd_local_dtype(gpuk_dist *d, gpuk_op op, gpuk_dtype dt, char *msg, size_t len)
{
    char name[32];
    snprintf(name, sizeof name, "gpuk_%s", gpuk_op_name(op));
    size_t count = 0;
    gpuk_status st = gpuk_variant_count_dtype(d->ctx, op, dt, &count);
    if (st != GPUK_OK) {
        snprintf(msg, len, "asking the backend for %s rungs of %s: %s", gpuk_dtype_name(dt), name,
                 gpuk_context_error(d->ctx));
        return st;
    }
    if (count > 0)
        return GPUK_OK;
    char have[96] = "";
    size_t at = 0;
#define GKD_HAVE_(id, value, dname, bytes, dlcode, prec)                                     \
    if (gpuk_variant_count_dtype(d->ctx, op, GPUK_##id, &count) == GPUK_OK && count > 0 &&  \
        at < sizeof have)                                                                   \
        at += (size_t)snprintf(have + at, sizeof have - at, "%s%s", at ? ", " : "", dname);
    GPUK_DTYPE_MAP(GKD_HAVE_)
#undef GKD_HAVE_
    snprintf(msg, len, "the matrices are %s, but %s on this rank's backend (%s) computes in %s "
             "only: no %s rung to run", gpuk_dtype_name(dt), name, d->backend,
             at ? have : "no dtype", gpuk_dtype_name(dt));
    return GPUK_ERR_DTYPE;
}

static gpuk_status run(gpuk_dist *d, gkd_fn fn, const gpuk_dist_matrix *a,
                       const gpuk_dist_matrix *b, gpuk_dist_matrix *c, const char *variant)
{
    summa S;
    gpuk_status st = GPUK_OK;
    if (!d)
        return GPUK_ERR_NULL;
    double t0 = gkd_now();
    memset(&d->stats, 0, sizeof d->stats);
    memset(&S, 0, sizeof S);
    S.d = d, S.fn = fn, S.variant = variant, S.a = a, S.b = b, S.c = c;

    /* 1. this rank's arguments, then everyone's */
    char *m = S.msg;
    size_t ml = sizeof S.msg;
    if (gkd_matrix_ok(d, a, "a", m, ml, &st) && gkd_matrix_ok(d, b, "b", m, ml, &st) &&
        gkd_matrix_ok(d, c, "c", m, ml, &st)) {
        if (c == a || c == b)
            st = GPUK_ERR_ALIAS, snprintf(m, ml, "c is the same matrix as %s: SUMMA reads "
                                          "panels of a and b while it writes c", c == a ? "a" : "b");
        else if (b->rows != a->cols)
            st = GPUK_ERR_SHAPE, snprintf(m, ml, "b has %lld rows but a has %lld columns (k)",
                                          (long long)b->rows, (long long)a->cols);
        else if (c->rows != a->rows || c->cols != b->cols)
            st = GPUK_ERR_SHAPE, snprintf(m, ml, "c is %lld x %lld, a . b is %lld x %lld",
                                          (long long)c->rows, (long long)c->cols,
                                          (long long)a->rows, (long long)b->cols);
        else if (b->mb != a->nb)
            st = GPUK_ERR_LAYOUT, snprintf(m, ml, "b's row block (mb = %lld) differs from a's "
                                           "column block (nb = %lld): both cut k into panels",
                                           (long long)b->mb, (long long)a->nb);
        else if (c->mb != a->mb || c->nb != b->nb)
            st = GPUK_ERR_LAYOUT, snprintf(m, ml, "c's blocks are %lld x %lld, but a's rows and "
                                           "b's columns are cut in %lld x %lld", (long long)c->mb,
                                           (long long)c->nb, (long long)a->mb, (long long)b->nb);
        else if (b->dtype != a->dtype || c->dtype != a->dtype)
            st = GPUK_ERR_DTYPE, snprintf(m, ml, "%s: dtype is %s, must be %s (a's): a, b and c "
                                          "share one dtype", b->dtype != a->dtype ? "b" : "c",
                                          gpuk_dtype_name(b->dtype != a->dtype ? b->dtype
                                                                               : c->dtype),
                                          gpuk_dtype_name(a->dtype));
        else
            st = gkd_local_dtype(d, fn == GKD_FN_MATMUL ? GPUK_OP_GEMM : GPUK_OP_MINPLUS,
                                 a->dtype, m, ml);
    }
    int ok = st == GPUK_OK;
    gkd_field f[] = {
        { "the schedule (gpuk_dist_set_schedule)", GPUK_ERR_INVALID, d->schedule, 0 },
        { "a (its creation number)", GPUK_ERR_INVALID, ok ? a->serial : 0, 0 },
        { "b (its creation number)", GPUK_ERR_INVALID, ok ? b->serial : 0, 0 },
        { "c (its creation number)", GPUK_ERR_INVALID, ok ? c->serial : 0, 0 },
        { "a's rows (m)", GPUK_ERR_SHAPE, ok ? a->rows : 0, 0 },
        { "a's columns (k)", GPUK_ERR_SHAPE, ok ? a->cols : 0, 0 },
        { "b's columns (n)", GPUK_ERR_SHAPE, ok ? b->cols : 0, 0 },
        { "a's mb", GPUK_ERR_LAYOUT, ok ? a->mb : 0, 0 },
        { "a's nb (the panel width)", GPUK_ERR_LAYOUT, ok ? a->nb : 0, 0 },
        { "b's nb", GPUK_ERR_LAYOUT, ok ? b->nb : 0, 0 },
    };
    if ((st = gkd_agree(d, fn, st, S.msg, f, 10)) != GPUK_OK)
        return st;

    S.dt = a->dtype, S.es = a->es;
    S.lr = a->lrows, S.lc = b->lcols, S.lka = a->lcols;
    S.k = a->cols, S.kb = a->nb, S.nk = (S.k + S.kb - 1) / S.kb;
    S.staged = d->comm_kind == GPUK_DIST_COMM_MPI && !d->direct;
    S.nslots = d->comm_kind == GPUK_DIST_COMM_NCCL && d->schedule == GPUK_DIST_OVERLAP
                   ? d->depth : 2;
    /* panel groups: matmul over NCCL, about 4096 of k a step unless
     * GPUK_DIST_GROUP says (0: off) */
    S.at = fn == GKD_FN_MATMUL && d->comm_kind == GPUK_DIST_COMM_NCCL && d->group != 0;
    S.group = !S.at ? 1 : d->group > 0 ? d->group : 4096 / S.kb > 64 ? 64 : 4096 / S.kb;
    if (S.group < 1)
        S.group = 1;
    S.nsteps = S.group > 1 && S.nk > 0 ? 1 + (S.nk - 1 + S.group - 1) / S.group : S.nk;
    d->stats.flops = 2.0 * (double)S.lr * (double)S.lc * (double)S.k;

    if ((d->prow == 1 && d->pcol == 1) || S.nk == 0) {
        /* everything is local (a 1 x 1 grid), or k = 0: one op, no panels */
        if (gkd_injected(d, "panel"))
            S.st = GPUK_ERR_INTERNAL, snprintf(S.msg, sizeof S.msg, "failure injected by "
                                               "GPUK_DIST_FAIL");
        else if (d->schedule != GPUK_DIST_COMM_ONLY &&
                 (st = local_op(&S, a->local, b->local, c->local, 1)) != GPUK_OK)
            failed(&S, st, op_name(&S, 1));
    } else {
        /* 2. resources, agreed on before the first broadcast */
        setup(&S);
        if ((st = gkd_agree(d, fn, S.st, S.msg, NULL, 0)) != GPUK_OK) {
            release(&S);
            return st;
        }
        d->stats.panels = (int)S.nk;
        loop(&S);
    }

    /* 3. the end of the local work, then everyone's outcome */
    double t1 = gkd_now();
    if ((st = gpuk_sync(d->ctx)) != GPUK_OK)
        failed(&S, st, "gpuk_sync after the last panel");
    d->stats.local_s += gkd_now() - t1;
    if ((st = gkd_step_drain(d)) != GPUK_OK)
        comm_ok(&S, st);
    release(&S);
    st = gkd_agree(d, fn, S.st, S.msg, NULL, 0);
    d->stats.total_s = gkd_now() - t0;
    return st;
}

gpuk_status gpuk_dist_matmul(gpuk_dist *d, const gpuk_dist_matrix *a, const gpuk_dist_matrix *b,
                             gpuk_dist_matrix *c, const char *variant)
{
    return run(d, GKD_FN_MATMUL, a, b, c, variant);
}

gpuk_status gpuk_dist_minplus(gpuk_dist *d, const gpuk_dist_matrix *a, const gpuk_dist_matrix *b,
                              gpuk_dist_matrix *c, const char *variant)
{
    return run(d, GKD_FN_MINPLUS, a, b, c, variant);
}

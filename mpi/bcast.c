/*
 * bcast.c - the panel broadcasts of one SUMMA step, whatever carries them
 * (doc/distributed.md, "Communication").
 *
 * Step K sends block column K of a along each grid row (root: grid column
 * K mod Q) and block row K of b along each grid column (root: grid row
 * K mod P).  summa.c says where each panel starts and lands; this file
 * only moves it:
 *
 *   MPI    MPI_Ibcast on the addresses given: tensor memory when MPI can
 *          reach it (host memory, CUDA-aware MPI), page-locked host buffers
 *          otherwise.  Non-blocking, so the next step's broadcast is in
 *          flight while this step's op runs; MPI progresses it inside
 *          gkd_step_progress (between the row slabs of a CPU op, which
 *          runs before returning, with GPUK_DIST_SLICES > 1) and
 *          gkd_step_wait.  On host memory, where MPI allows a second
 *          thread, a helper thread waits on the next step's broadcasts
 *          while the op runs instead (below, "The helper thread").
 *   NCCL   ncclBroadcast on a stream of its own beside the context's, so
 *          the GPU overlaps them by itself: a broadcast waits (an event)
 *          for the op that last read its buffer, and an op waits for the
 *          broadcast that filled its panel.  The host never blocks.
 *
 * A grid dimension of 1 has nothing to broadcast along it (the count is
 * 0), and both sides of every broadcast compute the same count, so a
 * skipped broadcast is skipped on every rank of its communicator.
 */
#include "dist_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* n elements of the step's dtype, in pieces of gkd_piece elements (1 GiB:
 * MPI counts are int). */
static gpuk_status ibcast(gpuk_dist *d, gkd_step *s, void *buf, int64_t n, int root,
                          MPI_Comm comm, const char *what)
{
    char ebuf[MPI_MAX_ERROR_STRING];
    int64_t piece = gkd_piece(s->dtype);
    size_t es = gpuk_dtype_size(s->dtype);
    for (int64_t off = 0; off < n; off += piece) {
        if (s->nreq == GKD_MAXREQ)
            return gkd_fail(d, GPUK_ERR_OVERFLOW, "the %s panel of %lld %s elements needs more "
                            "than %d broadcasts of 1 GiB: use a smaller block", what, (long long)n,
                            gpuk_dtype_name(s->dtype), GKD_MAXREQ);
        int c = (int)(n - off < piece ? n - off : piece);
        int rc = MPI_Ibcast((char *)buf + (size_t)off * es, c, gkd_mpi_type(s->dtype), root, comm,
                            &s->req[s->nreq]);
        if (rc != MPI_SUCCESS)
            return gkd_fail(d, GPUK_ERR_LIBRARY, "MPI_Ibcast of the %s panel: %s", what,
                            gkd_mpi_error(rc, ebuf, sizeof ebuf));
        s->nreq++;
    }
    d->stats.bytes += (double)n * (double)es;
    return GPUK_OK;
}

#ifdef HAVE_NCCL
static gpuk_status nccl_failed(gpuk_dist *d, ncclResult_t e, const char *what)
{
    return gkd_fail(d, GPUK_ERR_LIBRARY, "%s: %s", what, ncclGetErrorString(e));
}

static gpuk_status cuda_failed(gpuk_dist *d, cudaError_t e, const char *what)
{
    return gkd_fail(d, GPUK_ERR_DEVICE, "%s: %s", what, cudaGetErrorString(e));
}
#endif

gpuk_status gkd_step_post(gpuk_dist *d, gkd_step *s, int slot, int after)
{
    s->nreq = 0;
    s->slot = slot;
    s->handed = 0;
#ifdef HAVE_NCCL
    if (d->comm_kind == GPUK_DIST_COMM_NCCL) {
        cudaError_t ce = cudaSuccess;
        ncclResult_t e = ncclSuccess;
        /* the buffer is free once the op that last read it is done */
        if (after >= 0)
            ce = cudaStreamWaitEvent(d->comm_stream, d->ev_comp[after], 0);
        if (ce != cudaSuccess)
            return cuda_failed(d, ce, "cudaStreamWaitEvent before a broadcast");
        /* one group: the two broadcasts cannot wait on each other */
        e = ncclGroupStart();
        /* on the root, NCCL also copies the panel to a_copy (b_copy) when given */
        if (e == ncclSuccess && s->a_count > 0 && d->nccl_row)
            e = ncclBroadcast(s->a_buf, s->a_copy ? s->a_copy : s->a_buf, (size_t)s->a_count,
                              gkd_nccl_type(s->dtype), s->a_root, d->nccl_row, d->comm_stream);
        if (e == ncclSuccess && s->b_count > 0 && d->nccl_col)
            e = ncclBroadcast(s->b_buf, s->b_copy ? s->b_copy : s->b_buf, (size_t)s->b_count,
                              gkd_nccl_type(s->dtype), s->b_root, d->nccl_col, d->comm_stream);
        ncclResult_t e2 = ncclGroupEnd();
        if (e != ncclSuccess || e2 != ncclSuccess)
            return nccl_failed(d, e != ncclSuccess ? e : e2, "ncclBroadcast of a panel");
        if ((ce = cudaEventRecord(d->ev_comm[slot], d->comm_stream)) != cudaSuccess)
            return cuda_failed(d, ce, "cudaEventRecord after a broadcast");
        d->stats.bytes += (double)(s->a_count + s->b_count) * (double)gpuk_dtype_size(s->dtype);
        return GPUK_OK;
    }
#endif
    (void)after;
    if (s->a_copy || s->b_copy)   /* summa.c groups panels on NCCL only */
        return gkd_fail(d, GPUK_ERR_INTERNAL, "a root's panel copy asked of MPI");
    gpuk_status st = GPUK_OK;
    if (s->a_count > 0 && d->pcol > 1)
        st = ibcast(d, s, s->a_buf, s->a_count, s->a_root, d->row_comm, "a");
    if (st == GPUK_OK && s->b_count > 0 && d->prow > 1)
        st = ibcast(d, s, s->b_buf, s->b_count, s->b_root, d->col_comm, "b");
    return st;
}

/* The helper thread.  MPI moves a host-memory broadcast only inside an MPI
 * call, and between ranks of one host that call does the copy itself
 * (shared memory).  So a rank whose op keeps all its threads busy leaves
 * the next panels where they are until its wait, and its other threads
 * idle through that wait.  The helper instead tests the next step's
 * broadcasts while the op runs, on a thread of its own.  It is the only
 * thread in MPI meanwhile, which is what MPI_THREAD_SERIALIZED allows.
 * On the H200's 16-core host (4 ranks x 4 threads, 4096 matmul), it cut
 * the blocked time from 14-19% to 5-10% and took 4% off the mean time
 * (doc/distributed.md, "Overlap"). */
typedef struct gkd_helper {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    gkd_step *job;          /* the step being waited on; NULL when idle */
    int quit;
} gkd_helper;

static void *helper_main(void *arg)
{
    gkd_helper *h = arg;
    pthread_mutex_lock(&h->mu);
    for (;;) {
        while (!h->job && !h->quit)
            pthread_cond_wait(&h->cv, &h->mu);
        if (!h->job)
            break;
        gkd_step *s = h->job;
        pthread_mutex_unlock(&h->mu);
        /* Test, then nap 50 us, rather than MPI_Waitall.  MPI_Waitall
         * spins, and a spinning helper takes a core from the op for the
         * whole wait: that lost more than it hid (3-25% slower).  A test
         * does whatever copying is ready, and the nap costs the op
         * nothing. */
        int rc, flag = 0;
        while ((rc = MPI_Testall(s->nreq, s->req, &flag, MPI_STATUSES_IGNORE)) == MPI_SUCCESS &&
               !flag) {
            struct timespec nap = { 0, 50000 };
            nanosleep(&nap, NULL);
        }
        pthread_mutex_lock(&h->mu);
        s->rc = rc;
        s->nreq = 0;
        h->job = NULL;
        pthread_cond_broadcast(&h->cv);
    }
    pthread_mutex_unlock(&h->mu);
    return NULL;
}

static gkd_helper *helper_start(gpuk_dist *d)
{
    gkd_helper *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    if (pthread_mutex_init(&h->mu, NULL) != 0) {
        free(h);
        return NULL;
    }
    if (pthread_cond_init(&h->cv, NULL) != 0) {
        pthread_mutex_destroy(&h->mu);
        free(h);
        return NULL;
    }
    if (pthread_create(&h->thread, NULL, helper_main, h) != 0) {
        pthread_cond_destroy(&h->cv);
        pthread_mutex_destroy(&h->mu);
        free(h);
        return NULL;
    }
    d->helper = h;
    return h;
}

int gkd_step_handoff(gpuk_dist *d, gkd_step *s)
{
    if (!d->progress_thread || d->comm_kind != GPUK_DIST_COMM_MPI || s->nreq == 0)
        return 0;
    gkd_helper *h = d->helper ? d->helper : helper_start(d);
    if (!h) {
        d->progress_thread = 0;   /* no thread: this one waits, as where MPI allows no other */
        return 0;
    }
    pthread_mutex_lock(&h->mu);
    s->handed = 1;
    s->rc = MPI_SUCCESS;
    h->job = s;
    pthread_cond_broadcast(&h->cv);
    pthread_mutex_unlock(&h->mu);
    return 1;
}

/* The wait on a handed step: the helper's end of it. */
static gpuk_status helper_join(gpuk_dist *d, gkd_step *s)
{
    gkd_helper *h = d->helper;
    double t0 = gkd_now();
    pthread_mutex_lock(&h->mu);
    while (h->job == s)
        pthread_cond_wait(&h->cv, &h->mu);
    int rc = s->rc;
    s->handed = 0;
    pthread_mutex_unlock(&h->mu);
    d->stats.wait_s += gkd_now() - t0;
    char ebuf[MPI_MAX_ERROR_STRING];
    if (rc != MPI_SUCCESS)
        return gkd_fail(d, GPUK_ERR_LIBRARY, "MPI_Testall on a panel broadcast (helper thread): %s",
                        gkd_mpi_error(rc, ebuf, sizeof ebuf));
    return GPUK_OK;
}

void gkd_helper_stop(gpuk_dist *d)
{
    gkd_helper *h = d->helper;
    if (!h)
        return;
    pthread_mutex_lock(&h->mu);
    h->quit = 1;
    pthread_cond_broadcast(&h->cv);
    pthread_mutex_unlock(&h->mu);
    pthread_join(h->thread, NULL);
    pthread_cond_destroy(&h->cv);
    pthread_mutex_destroy(&h->mu);
    free(h);
    d->helper = NULL;
}

gpuk_status gkd_step_wait(gpuk_dist *d, gkd_step *s)
{
#ifdef HAVE_NCCL
    if (d->comm_kind == GPUK_DIST_COMM_NCCL) {
        /* the op waits, on the GPU; the host goes on issuing */
        cudaError_t e = cudaStreamWaitEvent(d->compute_stream, d->ev_comm[s->slot], 0);
        return e == cudaSuccess ? GPUK_OK : cuda_failed(d, e, "cudaStreamWaitEvent before an op");
    }
#endif
    if (s->handed)
        return helper_join(d, s);
    if (s->nreq == 0)
        return GPUK_OK;
    char ebuf[MPI_MAX_ERROR_STRING];
    double t0 = gkd_now();
    int rc = MPI_Waitall(s->nreq, s->req, MPI_STATUSES_IGNORE);
    d->stats.wait_s += gkd_now() - t0;
    s->nreq = 0;
    if (rc != MPI_SUCCESS)
        return gkd_fail(d, GPUK_ERR_LIBRARY, "MPI_Waitall on a panel broadcast: %s",
                        gkd_mpi_error(rc, ebuf, sizeof ebuf));
    return GPUK_OK;
}

void gkd_step_progress(gpuk_dist *d, gkd_step *s)
{
    if (!s || d->comm_kind != GPUK_DIST_COMM_MPI || s->nreq == 0 || s->handed)
        return;
    int flag = 0;
    double t0 = gkd_now();
    MPI_Testall(s->nreq, s->req, &flag, MPI_STATUSES_IGNORE);  /* errors surface in the wait */
    d->stats.wait_s += gkd_now() - t0;
}

gpuk_status gkd_step_done(gpuk_dist *d, int slot)
{
#ifdef HAVE_NCCL
    if (d->comm_kind == GPUK_DIST_COMM_NCCL) {
        cudaError_t e = cudaEventRecord(d->ev_comp[slot], d->compute_stream);
        return e == cudaSuccess ? GPUK_OK : cuda_failed(d, e, "cudaEventRecord after an op");
    }
#endif
    (void)d;
    (void)slot;
    return GPUK_OK;
}

gpuk_status gkd_slot_free(gpuk_dist *d, int slot)
{
#ifdef HAVE_NCCL
    if (d->comm_kind == GPUK_DIST_COMM_NCCL) {
        cudaError_t e = cudaStreamWaitEvent(d->compute_stream, d->ev_comm[slot], 0);
        return e == cudaSuccess ? GPUK_OK : cuda_failed(d, e, "cudaStreamWaitEvent on a buffer");
    }
#endif
    (void)d;
    (void)slot;
    return GPUK_OK;
}

gpuk_status gkd_step_ready(gpuk_dist *d)
{
#ifdef HAVE_NCCL
    if (d->comm_kind == GPUK_DIST_COMM_NCCL) {
        cudaError_t e = cudaEventRecord(d->ev_ready, d->compute_stream);
        if (e == cudaSuccess)
            e = cudaStreamWaitEvent(d->comm_stream, d->ev_ready, 0);
        return e == cudaSuccess ? GPUK_OK : cuda_failed(d, e, "ordering the panels' sources");
    }
#endif
    (void)d;
    return GPUK_OK;
}

gpuk_status gkd_step_drain(gpuk_dist *d)
{
#ifdef HAVE_NCCL
    if (d->comm_kind == GPUK_DIST_COMM_NCCL) {
        double t0 = gkd_now();
        cudaError_t e = cudaStreamSynchronize(d->comm_stream);
        d->stats.wait_s += gkd_now() - t0;
        if (e != cudaSuccess)
            return cuda_failed(d, e, "cudaStreamSynchronize on the broadcasts' stream");
        ncclResult_t ae = ncclSuccess;
        if (d->nccl_row && ncclCommGetAsyncError(d->nccl_row, &ae) == ncclSuccess &&
            ae != ncclSuccess)
            return nccl_failed(d, ae, "NCCL (grid row)");
        if (d->nccl_col && ncclCommGetAsyncError(d->nccl_col, &ae) == ncclSuccess &&
            ae != ncclSuccess)
            return nccl_failed(d, ae, "NCCL (grid column)");
    }
#endif
    (void)d;
    return GPUK_OK;
}

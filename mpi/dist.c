/*
 * dist.c - joining the ranks: the process grid, each rank's context and
 * device, and what carries the panels (doc/distributed.md, "Grid",
 * "Communication").
 *
 * gpuk_dist_open agrees three times, each before the step that could hang
 * if a rank were missing: on the options (grid, comm request), on the
 * contexts (every rank opened one), and with NCCL on the preparations
 * before ncclCommInitRank, which waits for every rank of its communicator.
 */
#define _GNU_SOURCE   /* sched_getaffinity, CPU_COUNT */
#include "dist_internal.h"

#include <sched.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(HAVE_MPI_EXT_H)
#include <mpi-ext.h>   /* Open MPI: MPIX_CUDA_AWARE_SUPPORT, MPIX_Query_cuda_support */
#endif
#if defined(GPUK_MPI_CUDA) && !defined(HAVE_NCCL)
#include <cuda_runtime_api.h>
#endif

/* The message of the last failed open on this thread (there is no d yet). */
static __thread char open_err[GKD_MSG + 160];

void gpuk_dist_options_init(gpuk_dist_options *opts)
{
    if (!opts)
        return;
    memset(opts, 0, sizeof *opts);
    opts->size = sizeof *opts;
    opts->device = -1;
    opts->comm = GPUK_DIST_COMM_AUTO;
    opts->cuda_aware = -1;
}

const char *gpuk_dist_error(const gpuk_dist *d)
{
    return d ? d->err : open_err;
}

/* The most nearly square P x Q = n with P <= Q: 4 -> 2x2, 3 -> 1x3, 8 -> 2x4. */
static void square_grid(int n, int *p, int *q)
{
    int best = 1;
    for (int i = 1; (long)i * i <= n; i++)
        if (n % i == 0)
            best = i;
    *p = best;
    *q = n / best;
}

static int mpi_cuda_aware(void)
{
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    return MPIX_Query_cuda_support() == 1;
#else
    return 0;   /* no way to ask: assume not, and stage through the host */
#endif
}

/* How many CUDA devices this host has, or 0 (no runtime linked, no driver). */
static int cuda_devices(void)
{
#ifdef GPUK_MPI_CUDA
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess)
        return 0;
    return n;
#else
    return 0;
#endif
}

/* Options, then the environment, then the defaults; a bad value is this
 * rank's local failure (msg), agreed on with the others before use. */
/* The switches of gpuk_dist(3)'s ENVIRONMENT.  Unset or empty leaves *v
 * as it is; anything else must be an integer lo..hi (env_int) or one of
 * two words, no and yes, giving 0 and 1 (env_two).  0 with the message
 * written when it is not. */
static int env_int(const char *name, int lo, int hi, int *v, char *msg, size_t len)
{
    const char *e = getenv(name);
    if (!e || !*e)
        return 1;
    char *end = NULL;
    long x = strtol(e, &end, 10);
    if (*end || x < lo || x > hi) {
        snprintf(msg, len, "%s = \"%s\": expected %d %s %d", name, e, lo,
                 hi == lo + 1 ? "or" : "to", hi);
        return 0;
    }
    *v = (int)x;
    return 1;
}

static int env_two(const char *name, const char *no, const char *yes, int *v, char *msg,
                   size_t len)
{
    const char *e = getenv(name);
    if (!e || !*e)
        return 1;
    if (strcmp(e, no) && strcmp(e, yes)) {
        snprintf(msg, len, "%s = \"%s\": expected %s or %s", name, e, no, yes);
        return 0;
    }
    *v = !strcmp(e, yes);
    return 1;
}

static gpuk_status resolve(gpuk_dist *d, const gpuk_dist_options *o, char *msg, size_t len)
{
    const char *e;
    int p = o->prow, q = o->pcol;
    if ((p || q) && (p <= 0 || q <= 0)) {
        snprintf(msg, len, "opts->prow = %d, opts->pcol = %d: give both (> 0) or neither", p, q);
        return GPUK_ERR_INVALID;
    }
    if (!p && (e = getenv("GPUK_DIST_GRID")) && *e) {
        char x;
        if (sscanf(e, "%d%c%d", &p, &x, &q) != 3 || (x != 'x' && x != 'X') || p <= 0 || q <= 0) {
            snprintf(msg, len, "GPUK_DIST_GRID = \"%s\": expected PxQ, such as 2x4", e);
            return GPUK_ERR_ENV;
        }
    }
    if (!p)
        square_grid(d->size, &p, &q);
    if ((long)p * q != d->size) {
        snprintf(msg, len, "the grid %dx%d has %ld places for %d ranks", p, q, (long)p * q,
                 d->size);
        return GPUK_ERR_INVALID;
    }
    d->prow = p;
    d->pcol = q;
    d->myrow = d->rank / q;
    d->mycol = d->rank % q;

    d->comm_kind = o->comm;
    if ((int)o->comm < GPUK_DIST_COMM_AUTO || o->comm > GPUK_DIST_COMM_NCCL) {
        snprintf(msg, len, "opts->comm = %d: not a gpuk_dist_comm", (int)o->comm);
        return GPUK_ERR_INVALID;
    }
    if (o->comm == GPUK_DIST_COMM_AUTO && (e = getenv("GPUK_DIST_COMM")) && *e) {
        if (!strcmp(e, "auto"))
            d->comm_kind = GPUK_DIST_COMM_AUTO;
        else if (!strcmp(e, "mpi"))
            d->comm_kind = GPUK_DIST_COMM_MPI;
        else if (!strcmp(e, "nccl"))
            d->comm_kind = GPUK_DIST_COMM_NCCL;
        else {
            snprintf(msg, len, "GPUK_DIST_COMM = \"%s\": expected auto, mpi or nccl", e);
            return GPUK_ERR_ENV;
        }
    }
    d->cuda_aware = o->cuda_aware;
    if (d->cuda_aware < -1 || d->cuda_aware > 1) {
        snprintf(msg, len, "opts->cuda_aware = %d: use -1, 0 or 1", o->cuda_aware);
        return GPUK_ERR_INVALID;
    }
    if (d->cuda_aware == -1 &&
        !env_two("GPUK_DIST_CUDA_AWARE", "0", "1", &d->cuda_aware, msg, len))
        return GPUK_ERR_ENV;
    if (d->cuda_aware == -1)
        d->cuda_aware = mpi_cuda_aware();
    if (o->device < -1) {
        snprintf(msg, len, "opts->device = %d: use a device ordinal >= 0, or -1", o->device);
        return GPUK_ERR_INVALID;
    }
    if ((e = getenv("GPUK_DIST_FAIL")) && *e) {   /* RANK:WHERE, for the tests */
        int r = -1, n = 0;
        if (sscanf(e, "%d:%n", &r, &n) != 1 || n == 0 || !e[n]) {
            snprintf(msg, len, "GPUK_DIST_FAIL = \"%s\": expected RANK:WHERE", e);
            return GPUK_ERR_ENV;
        }
        if (r == d->rank)
            snprintf(d->fail_where, sizeof d->fail_where, "%s", e + n);
    }
    d->progress_slices = 1;   /* see doc/distributed.md, "Overlap": slabs cost more than they hid here */
    /* the GPU overlap (doc/distributed.md, "Overlap on GPUs"): on by
     * default, each part with a switch to measure what it is worth */
    d->depth = 3;
    d->keep = 1;
    d->group = -1;   /* summa.c picks: about 4096 of k a local product */
    d->comm_priority = 1;
    d->nccl_ctas = 0;   /* NCCL's own choice */
    d->apsp_pieces = 4;
    /* GPUK_DIST_STAGED: the GPU path, on any backend */
    if (!env_two("GPUK_DIST_STAGED", "0", "1", &d->force_staged, msg, len) ||
        !env_int("GPUK_DIST_SLICES", 1, 64, &d->progress_slices, msg, len) ||
        !env_int("GPUK_DIST_DEPTH", 2, 3, &d->depth, msg, len) ||
        !env_two("GPUK_DIST_KEEP", "0", "1", &d->keep, msg, len) ||
        !env_int("GPUK_DIST_GROUP", 0, 64, &d->group, msg, len) ||
        !env_two("GPUK_DIST_COMM_PRIORITY", "normal", "high", &d->comm_priority, msg, len) ||
        !env_int("GPUK_DIST_NCCL_CTAS", 1, 64, &d->nccl_ctas, msg, len) ||
        !env_int("GPUK_DIST_APSP_PIECES", 1, 64, &d->apsp_pieces, msg, len))
        return GPUK_ERR_ENV;
    /* a helper thread may call MPI while this one computes: only where MPI
     * was started with at least MPI_THREAD_SERIALIZED (bcast.c) */
    int provided = MPI_THREAD_SINGLE;
    MPI_Query_thread(&provided);
    int progress = 1;
    if (!env_two("GPUK_DIST_PROGRESS", "0", "1", &progress, msg, len))
        return GPUK_ERR_ENV;
    d->progress_thread = provided >= MPI_THREAD_SERIALIZED && progress;
    return GPUK_OK;
}

/* Each rank's context: the caller's, or one on the device of its local
 * rank.  A device picked here (not given) that the backend refuses is
 * retried as device 0: "auto" falling back to the CPU, whose only device
 * is 0, on a rank whose local rank is not 0. */
static gpuk_status open_context(gpuk_dist *d, const gpuk_dist_options *o, char *msg, size_t len)
{
    if (o->context) {
        d->ctx = o->context;
        d->own_ctx = 0;
        return GPUK_OK;
    }
    gpuk_options go;
    gpuk_options_init(&go);
    go.backend = o->backend;
    go.num_threads = o->num_threads;
    /* Ranks sharing a host share its cores: unless told, each CPU context
     * takes its share of the cores this rank may run on (all of them
     * without binding, one when the launcher binds a rank to a core),
     * not all of them each, which oversubscribes the host local_size
     * times over. */
    if (!go.num_threads && !getenv("GPUK_NUM_THREADS") && !getenv("OMP_NUM_THREADS")) {
        cpu_set_t set;
        int cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
        if (cpus > 0)
            go.num_threads = cpus / d->local_size > 0 ? cpus / d->local_size : 1;
    }
    int picked = 0;
    if (o->device >= 0) {
        go.device = o->device;
    } else if (!getenv("GPUK_DEVICE")) {
        int n = cuda_devices();
        go.device = n > 0 ? d->local_rank % n : d->local_rank;
        picked = go.device != 0;
    }
    gpuk_status st = gpuk_context_open_ex(&d->ctx, &go, NULL);
    if (st != GPUK_OK && picked) {
        go.device = 0;
        st = gpuk_context_open_ex(&d->ctx, &go, NULL);
    }
    if (st != GPUK_OK) {
        snprintf(msg, len, "cannot open a context (backend %s, device %d): %s: %s "
                 "(GPUK_VERBOSE=1 shows the load report)",
                 o->backend ? o->backend : "from GPUK_BACKEND or auto", go.device,
                 gpuk_status_name(st), gpuk_strerror(st));
        d->ctx = NULL;
        return st;
    }
    d->own_ctx = 1;
    return GPUK_OK;
}

/* Free what open made (the matrices too, at close). */
static void teardown(gpuk_dist *d)
{
    gkd_helper_stop(d);
    if (d->ctx)
        gkd_bufs_free(d);
    while (d->matrices) {
        gpuk_dist_matrix *m = d->matrices;
        d->matrices = m->next;
        if (d->ctx)
            gpuk_tensor_destroy(d->ctx, m->local);
        m->magic = 0;
        free(m);
    }
#ifdef HAVE_NCCL
    gkd_nccl_release(d);
#endif
    if (d->row_comm != MPI_COMM_NULL)
        MPI_Comm_free(&d->row_comm);
    if (d->col_comm != MPI_COMM_NULL)
        MPI_Comm_free(&d->col_comm);
    if (d->own_ctx && d->ctx)
        gpuk_context_close(d->ctx);
    if (d->comm != MPI_COMM_NULL)
        MPI_Comm_free(&d->comm);
    free(d->agree_buf);
    free(d);
}

/* End a failed open: the message moves to this thread's open_err. */
static gpuk_status open_failed(gpuk_dist *d, gpuk_status st)
{
    snprintf(open_err, sizeof open_err, "%s", d->err);
    teardown(d);
    return st;
}

gpuk_status gpuk_dist_open(gpuk_dist **out, MPI_Comm comm, const gpuk_dist_options *opts)
{
    char msg[GKD_MSG] = "";
    int inited = 0, rc;
    gpuk_dist_options o;
    gpuk_status st;

    if (!out) {
        snprintf(open_err, sizeof open_err, "gpuk_dist_open: d is NULL");
        return GPUK_ERR_NULL;
    }
    *out = NULL;
    MPI_Initialized(&inited);
    if (!inited || comm == MPI_COMM_NULL) {
        snprintf(open_err, sizeof open_err, "gpuk_dist_open: %s", !inited
                 ? "MPI is not initialized (call MPI_Init first)" : "comm is MPI_COMM_NULL");
        return GPUK_ERR_INVALID;
    }
    gpuk_dist_options_init(&o);
    if (opts) {   /* an older header's shorter struct keeps the defaults past its end */
        if (opts->size < offsetof(gpuk_dist_options, context) || opts->size > sizeof o) {
            snprintf(open_err, sizeof open_err, "gpuk_dist_open: opts->size is %zu: call "
                     "gpuk_dist_options_init first", opts->size);
            return GPUK_ERR_INVALID;
        }
        memcpy(&o, opts, opts->size);
    }

    gpuk_dist *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(open_err, sizeof open_err, "gpuk_dist_open: out of host memory");
        return GPUK_ERR_NO_MEMORY;
    }
    d->comm = d->row_comm = d->col_comm = MPI_COMM_NULL;
    if ((rc = MPI_Comm_dup(comm, &d->comm)) != MPI_SUCCESS) {
        char ebuf[MPI_MAX_ERROR_STRING];
        d->comm = MPI_COMM_NULL;
        gkd_fail(d, GPUK_ERR_LIBRARY, "gpuk_dist_open: MPI_Comm_dup: %s",
                 gkd_mpi_error(rc, ebuf, sizeof ebuf));
        return open_failed(d, GPUK_ERR_LIBRARY);
    }
    /* errors come back as codes: libgpuk never aborts, and MPI's default
     * handler would abort the job */
    MPI_Comm_set_errhandler(d->comm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(d->comm, &d->rank);
    MPI_Comm_size(d->comm, &d->size);
    d->agree_buf = malloc(sizeof(int64_t) * GKD_RECORD * (size_t)d->size);
    if (!d->agree_buf) {   /* a few bytes per rank: the others would wait for this one */
        gkd_fail(d, GPUK_ERR_NO_MEMORY, "gpuk_dist_open: rank %d: out of host memory", d->rank);
        return open_failed(d, GPUK_ERR_NO_MEMORY);
    }
    MPI_Comm shm;
    if (MPI_Comm_split_type(d->comm, MPI_COMM_TYPE_SHARED, d->rank, MPI_INFO_NULL, &shm) ==
        MPI_SUCCESS) {
        MPI_Comm_rank(shm, &d->local_rank);
        MPI_Comm_size(shm, &d->local_size);
        MPI_Comm_free(&shm);
    } else {
        d->local_rank = 0;
        d->local_size = 1;
    }

    /* 1. the options */
    st = resolve(d, &o, msg, sizeof msg);
    gkd_field f1[] = {
        { "the grid's rows (P)", GPUK_ERR_LAYOUT, d->prow, 0 },
        { "the grid's columns (Q)", GPUK_ERR_LAYOUT, d->pcol, 0 },
        { "the requested comm (opts->comm or GPUK_DIST_COMM)", GPUK_ERR_INVALID, d->comm_kind, 0 },
    };
    if ((st = gkd_agree(d, GKD_FN_OPEN, st, msg, f1, st ? 0 : 3)) != GPUK_OK)
        return open_failed(d, st);

    /* 2. the contexts */
    gpuk_info info;
    st = open_context(d, &o, msg, sizeof msg);
    if (st == GPUK_OK && (st = gpuk_context_info(d->ctx, &info)) != GPUK_OK)
        snprintf(msg, sizeof msg, "gpuk_context_info: %s", gpuk_context_error(d->ctx));
    if (st == GPUK_OK && gkd_injected(d, "open")) {
        st = GPUK_ERR_INTERNAL;
        snprintf(msg, sizeof msg, "failure injected by GPUK_DIST_FAIL at open");
    }
    if ((st = gkd_agree(d, GKD_FN_OPEN, st, msg, NULL, 0)) != GPUK_OK)
        return open_failed(d, st);
    d->backend = info.backend;
    d->device = info.device_ordinal;
    d->host_memory = info.dlpack_device == 1 || !strcmp(info.backend, "cpu");
    d->direct = (d->host_memory || d->cuda_aware) && !d->force_staged;
    /* every rank splits (a collective): only after every rank has a context */
    rc = MPI_Comm_split(d->comm, d->myrow, d->mycol, &d->row_comm);
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_split(d->comm, d->mycol, d->myrow, &d->col_comm);
    if (rc != MPI_SUCCESS) {
        char ebuf[MPI_MAX_ERROR_STRING];
        st = GPUK_ERR_LIBRARY;
        snprintf(msg, sizeof msg, "MPI_Comm_split into grid rows and columns: %s",
                 gkd_mpi_error(rc, ebuf, sizeof ebuf));
    }
    if ((st = gkd_agree(d, GKD_FN_OPEN, st, msg, NULL, 0)) != GPUK_OK)
        return open_failed(d, st);
    MPI_Comm_set_errhandler(d->row_comm, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(d->col_comm, MPI_ERRORS_RETURN);

    /* 3. NCCL when every rank is on a GPU and this build has it */
    int gpu_here = !d->host_memory && !strcmp(d->backend, "cuda");
#ifdef HAVE_NCCL
    int nccl_built = 1;
#else
    int nccl_built = 0;
#endif
    int mine[2] = { gpu_here, nccl_built }, all[2] = { 0, 0 };
    MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MIN, d->comm);
    int shared = -1;   /* a rank whose GPU an earlier rank also has: NCCL refuses that */
    if (all[0] && all[1])
        shared = gkd_shared_device(d);
    int use_nccl = all[0] && all[1] && shared < 0 && d->comm_kind != GPUK_DIST_COMM_MPI;
    st = GPUK_OK;
    if (d->comm_kind == GPUK_DIST_COMM_NCCL && !use_nccl) {
        st = GPUK_ERR_UNSUPPORTED;
        if (!all[1])
            snprintf(msg, sizeof msg, "this libgpuk_mpi was built without NCCL (--with-nccl)");
        else if (!all[0])
            snprintf(msg, sizeof msg, "not every rank runs on a CUDA device");
        else
            snprintf(msg, sizeof msg, "rank %d runs on the same GPU as a rank before it (NCCL "
                     "takes one rank per GPU)", shared);
        gkd_fail(d, st, "gpuk_dist_open: comm NCCL was asked for, but %s", msg);
        return open_failed(d, st);   /* every rank reached the same verdict */
    }
    d->comm_kind = use_nccl ? GPUK_DIST_COMM_NCCL : GPUK_DIST_COMM_MPI;
#ifdef HAVE_NCCL
    if (use_nccl) {
        st = gkd_nccl_prepare(d, info.stream, msg, sizeof msg);
        if ((st = gkd_agree(d, GKD_FN_OPEN, st, msg, NULL, 0)) != GPUK_OK)
            return open_failed(d, st);
        /* NVLink SHARP (NVLS) makes NCCL create NVLink multicast objects,
         * which the shared GPU hosts this library runs on must never get
         * (a multicast object outlives a crashed job and takes the fabric
         * with it).  Forced, not defaulted: a user's NCCL_NVLS_ENABLE=1
         * would bring them back.  Set before the first ncclCommInitRank,
         * which is when NCCL reads it. */
        setenv("NCCL_NVLS_ENABLE", "0", 1);
        st = GPUK_OK;
        if (d->pcol > 1)
            st = gkd_nccl_comm(d, d->row_comm, &d->nccl_row, msg, sizeof msg);
        if (st == GPUK_OK && d->prow > 1)
            st = gkd_nccl_comm(d, d->col_comm, &d->nccl_col, msg, sizeof msg);
        if ((st = gkd_agree(d, GKD_FN_OPEN, st, msg, NULL, 0)) != GPUK_OK)
            return open_failed(d, st);
        int v = 0;
        ncclGetVersion(&v);
        char ctas[32] = "NCCL's count of";
        if (d->nccl_ctas > 0)
            snprintf(ctas, sizeof ctas, "at most %d", d->nccl_ctas);
        char group[48] = "matmul's panels in groups of about 4096 of k";
        if (d->group == 0)
            snprintf(group, sizeof group, "one matmul panel an op (GPUK_DIST_GROUP=0)");
        else if (d->group > 0)
            snprintf(group, sizeof group, "matmul's panels in groups of %d", d->group);
        snprintf(d->comm_desc, sizeof d->comm_desc, "nccl %d.%d.%d (NCCL_NVLS_ENABLE=0), "
                 "%s-priority stream, %s blocks a broadcast, %d panel buffers, %s", v / 10000,
                 v / 100 % 100, v % 100, d->comm_priority ? "high" : "normal", ctas, d->depth,
                 group);
    }
#endif
    if (!use_nccl)
        snprintf(d->comm_desc, sizeof d->comm_desc, "mpi, %s",
                 !d->direct ? (d->force_staged ? "staged through host buffers (GPUK_DIST_STAGED=1)"
                                               : "staged through page-locked host buffers")
                 : !d->host_memory    ? "CUDA-aware (device memory, direct)"
                 : d->progress_thread ? "host memory (direct, progress thread)"
                                      : "host memory (direct)");
    d->schedule = GPUK_DIST_OVERLAP;
    d->err[0] = '\0';
    *out = d;
    return GPUK_OK;
}

gpuk_status gpuk_dist_close(gpuk_dist *d)
{
    if (!d)
        return GPUK_OK;
    /* every rank is here before communicators go away under a broadcast */
    int rc = MPI_Barrier(d->comm);
    teardown(d);
    return rc == MPI_SUCCESS ? GPUK_OK : GPUK_ERR_LIBRARY;
}

gpuk_status gpuk_dist_get_info(gpuk_dist *d, gpuk_dist_info *info)
{
    if (!d || !info)
        return d ? gkd_fail(d, GPUK_ERR_NULL, "gpuk_dist_get_info: info is NULL") : GPUK_ERR_NULL;
    memset(info, 0, sizeof *info);
    info->rank = d->rank;
    info->size = d->size;
    info->prow = d->prow;
    info->pcol = d->pcol;
    info->myrow = d->myrow;
    info->mycol = d->mycol;
    info->local_rank = d->local_rank;
    info->local_size = d->local_size;
    info->context = d->ctx;
    info->backend = d->backend;
    info->device = d->device;
    info->comm = d->comm_kind;
    info->direct = d->comm_kind == GPUK_DIST_COMM_MPI && d->direct;
    info->cuda_aware = d->cuda_aware;
    info->comm_desc = d->comm_desc;
    return GPUK_OK;
}

gpuk_status gpuk_dist_set_schedule(gpuk_dist *d, gpuk_dist_schedule schedule)
{
    if (!d)
        return GPUK_ERR_NULL;
    if ((int)schedule < GPUK_DIST_OVERLAP || schedule > GPUK_DIST_COMPUTE_ONLY)
        return gkd_fail(d, GPUK_ERR_INVALID, "gpuk_dist_set_schedule: schedule = %d is not a "
                        "gpuk_dist_schedule", (int)schedule);
    d->schedule = schedule;
    return GPUK_OK;
}

gpuk_status gpuk_dist_get_stats(gpuk_dist *d, gpuk_dist_stats *stats)
{
    if (!d || !stats)
        return d ? gkd_fail(d, GPUK_ERR_NULL, "gpuk_dist_get_stats: stats is NULL")
                 : GPUK_ERR_NULL;
    *stats = d->stats;
    return GPUK_OK;
}

/*
 * dist_internal.h - what the files of libgpuk_mpi share (doc/distributed.md).
 *
 *   agree.c   the agreement between ranks: one fixed-size record per rank,
 *             gathered by every rank, so all of them reach the same verdict
 *   dist.c    open and close: grid, local rank and device, context, how
 *             panels travel (MPI direct, MPI staged, NCCL)
 *   nccl.c    NCCL's stream, events and communicators
 *   matrix.c  block-cyclic matrices, index maps, scatter and gather
 *   copy.c    rectangles of local tensors copied in any dtype (packing)
 *   bcast.c   the panel broadcasts of one SUMMA step, whatever carries them
 *   summa.c   matmul and min-plus: the SUMMA loop
 *   apsp.c    all-pairs shortest paths: blocked Floyd-Warshall, with look-ahead
 *   apsp_check.c  around its loop: i32 with negative weights, negative cycles
 *
 * Only gpuk_dist_* leaves the library (mpi/local.mk); internal names are
 * gkd_*.
 */
#ifndef GPUK_DIST_INTERNAL_H
#define GPUK_DIST_INTERNAL_H

#include "config.h"

#include <gpuk/mpi.h>

#ifdef HAVE_NCCL
#include <cuda_runtime_api.h>
#include <nccl.h>
#endif

#define GKD_MSG 512

/* Event pairs of the broadcasts (bcast.c): SUMMA's panel buffers use the
 * first 2 or 3, Floyd-Warshall's panels 0 and 1 and its diagonal blocks 2
 * and 3. */
#define GKD_SLOTS 4

/* One rank's agreement record: the function, the rank's local status, and
 * up to GKD_FIELDS values every rank must hold alike (doc/distributed.md,
 * "Failure agreement").  Fixed size, so that ranks in different functions
 * still exchange the same number of bytes and find out. */
#define GKD_FIELDS 14
#define GKD_RECORD (2 + GKD_FIELDS)

typedef enum gkd_fn {
    GKD_FN_OPEN = 1,
    GKD_FN_CLOSE,
    GKD_FN_CREATE,
    GKD_FN_SCATTER,
    GKD_FN_GATHER,
    GKD_FN_MATMUL,
    GKD_FN_MINPLUS,
    GKD_FN_APSP
} gkd_fn;

/* A value to agree on: its name in messages ("a rows") and the status
 * when ranks differ (GPUK_ERR_SHAPE for sizes, GPUK_ERR_LAYOUT for blocks
 * and grids, GPUK_ERR_DTYPE for dtypes, GPUK_ERR_INVALID for roots and the
 * rest).  is_dtype: the value is a gpuk_dtype, which messages name. */
typedef struct gkd_field {
    const char *name;
    gpuk_status status;
    int64_t value;
    int is_dtype;
} gkd_field;

/* The dtypes a distributed matrix may have, and what carries each: one
 * list, X(ID, MPI datatype, NCCL datatype), from which every element size,
 * MPI count and NCCL call of the library is derived (doc/distributed.md,
 * "Dtypes").  The element size is the core's (gpuk_dtype_size).  A new
 * row needs its MPI and NCCL types and nothing else here. */
#define GKD_DTYPE_MAP(X)               \
    X(F32, MPI_FLOAT,   ncclFloat32)   \
    X(F64, MPI_DOUBLE,  ncclFloat64)   \
    X(I32, MPI_INT32_T, ncclInt32)

struct gpuk_dist {
    MPI_Comm comm;          /* a duplicate of the caller's: our traffic never meets theirs */
    MPI_Comm row_comm;      /* the ranks of this grid row, ranked by column */
    MPI_Comm col_comm;      /* the ranks of this grid column, ranked by row */
    int rank, size;
    int prow, pcol, myrow, mycol;
    int local_rank, local_size;
    gpuk_context *ctx;
    int own_ctx;            /* gpuk_dist_open opened ctx, so close closes it */
    const char *backend;    /* the context's, valid while it is open */
    int device;
    int host_memory;        /* tensors live in host memory (the CPU backend) */
    int cuda_aware;
    int direct;             /* MPI works on tensor memory: host memory or CUDA-aware MPI */
    int force_staged;       /* GPUK_DIST_STAGED=1: stage through host buffers anyway (tests) */
    gpuk_dist_comm comm_kind;
    char comm_desc[192];
    gpuk_dist_schedule schedule;
    int progress_slices;    /* a synchronous local op runs in this many row slabs, with MPI
                               progressed between them (bcast.c) */
    int progress_thread;    /* MPI allows a second thread (MPI_THREAD_SERIALIZED or more) and
                               GPUK_DIST_PROGRESS is not 0: a helper waits on host-memory
                               broadcasts while the op runs (bcast.c) */
    struct gkd_helper *helper;  /* that thread, started at its first use; NULL until then */
    int depth;              /* NCCL: panel buffers of the overlapped SUMMA loop, 2 or 3
                               (GPUK_DIST_DEPTH; doc/distributed.md, "Overlap on GPUs") */
    int keep;               /* 1: summa.c keeps its buffers for the next call (GPUK_DIST_KEEP) */
    struct gkd_bufs {       /* those buffers: tensors for a call whose key[] matches */
        int64_t key[6];
        gpuk_tensor *apack, *abuf[3], *bbuf[3];
    } bufs;
    int group;              /* NCCL matmul: panels one local product takes at once, 1-64;
                               0 = one a panel an op, as block columns (GPUK_DIST_GROUP;
                               summa.c, doc/distributed.md, "Panel groups") */
    int comm_priority;      /* NCCL: 1 = the broadcasts' stream has the device's greatest
                               priority, 0 = the default (GPUK_DIST_COMM_PRIORITY) */
    int nccl_ctas;          /* NCCL: at most this many blocks a broadcast (ncclConfig_t
                               maxCTAs), 0 = NCCL's choice (GPUK_DIST_NCCL_CTAS) */
    int apsp_pieces;        /* gpuk_dist_apsp: each step's big update in this many row pieces
                               (GPUK_DIST_APSP_PIECES) */
    int64_t next_serial;    /* matrices made so far: the same count on every rank */
    struct gpuk_dist_matrix *matrices;  /* alive, freed by close */
    gpuk_dist_stats stats;
    int64_t *agree_buf;     /* GKD_RECORD values per rank, for gkd_agree */
    char fail_where[32];    /* GPUK_DIST_FAIL for this rank: the step that fails, or "" */
    char err[GKD_MSG + 160];    /* "FN: rank R: " + a rank's message */
    char copy_err[160];         /* the CUDA runtime's word on the last failed gkd_copy2d */
#ifdef HAVE_NCCL
    ncclComm_t nccl_row, nccl_col;   /* NULL where that grid dimension is 1 */
    cudaStream_t comm_stream;        /* broadcasts run here, beside the context's stream */
    cudaStream_t compute_stream;     /* the context's stream */
    cudaEvent_t ev_comm[GKD_SLOTS], ev_comp[GKD_SLOTS], ev_ready;
#endif
};

#define GKD_MATRIX_MAGIC 0x676b646d61747278ull  /* "gkdmatrx" */

struct gpuk_dist_matrix {
    uint64_t magic;
    gpuk_dist *d;
    int64_t serial;         /* creation order, 1, 2, ...: names the matrix across ranks */
    gpuk_dtype dtype;       /* one of GKD_DTYPE_MAP */
    size_t es;              /* its element size in bytes */
    int64_t rows, cols, mb, nb;
    int64_t lrows, lcols;
    gpuk_tensor *local;
    struct gpuk_dist_matrix *next;
};

/* ---------------------------------------------------------------- agree.c */

/* Every rank calls with its local verdict (st, and msg when st is not OK)
 * and its values; every rank returns the same status and d->err the same
 * text: the lowest failing rank's message, else the first value some rank
 * holds differently from rank 0. */
gpuk_status gkd_agree(gpuk_dist *d, gkd_fn fn, gpuk_status st, const char *msg,
                      const gkd_field *fields, int nfields);
/* Set d->err ("FN: rank R: ...") for a failure only this rank knows about
 * (before the agreement that spreads it), and return st. */
gpuk_status gkd_fail(gpuk_dist *d, gpuk_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
const char *gkd_fn_name(gkd_fn fn);
/* GPUK_DIST_FAIL=RANK:WHERE asks this rank to fail at WHERE (tests). */
int gkd_injected(const gpuk_dist *d, const char *where);
/* MPI's text for an error code. */
const char *gkd_mpi_error(int code, char *buf, int len);
double gkd_now(void);

/* ---------------------------------------------------------------- matrix.c */

/* Elements of a dimension of n in blocks of nb that grid coordinate p of
 * np holds (ScaLAPACK's NUMROC). */
int64_t gkd_numroc(int64_t n, int64_t nb, int p, int np);
/* Validate a matrix handle of d: 0 and a message in msg when bad. */
int gkd_matrix_ok(const gpuk_dist *d, const gpuk_dist_matrix *m, const char *name, char *msg,
                  size_t len, gpuk_status *st);

/* The dtype list (GKD_DTYPE_MAP): 1 if dt is in it.  gkd_dtype_names
 * writes "f32, f64 or i32" into buf, for messages, and returns buf. */
int gkd_dtype_ok(gpuk_dtype dt);
char *gkd_dtype_names(char *buf, size_t len);
/* dt's MPI datatype, and how many elements one MPI call may move: MPI
 * counts are int, so big arrays go in pieces of 1 GiB (2^28 f32 or i32
 * elements, 2^27 f64). */
MPI_Datatype gkd_mpi_type(gpuk_dtype dt);
int64_t gkd_piece(gpuk_dtype dt);
#ifdef HAVE_NCCL
ncclDataType_t gkd_nccl_type(gpuk_dtype dt);
#endif

/* Point-to-point of n elements of dt, in pieces (gkd_piece). */
int gkd_send(const void *p, int64_t n, gpuk_dtype dt, int to, int tag, MPI_Comm comm);
int gkd_recv(void *p, int64_t n, gpuk_dtype dt, int from, int tag, MPI_Comm comm);

/* ---------------------------------------------------------------- summa.c */

/* The local op must compute in the matrices' dtype on this rank's
 * backend: said before any panel moves, with the dtypes the backend has
 * (msg), rather than by the first local op in the middle of a loop.
 * GPUK_ERR_DTYPE when it has no rung of op in dt. */
gpuk_status gkd_local_dtype(gpuk_dist *d, gpuk_op op, gpuk_dtype dt, char *msg, size_t len);

/* ---------------------------------------------------------------- copy.c */

/* A rectangle of a tensor's storage: its first element (elements from the
 * storage start) and the elements from one row to the next. */
typedef struct gkd_rect {
    gpuk_tensor *t;
    int64_t off, ld;
} gkd_rect;

/* dst = src, rows x cols elements of dt.  scratch: a tensor of at least
 * rows x cols elements, used off host memory without NCCL (two transposes
 * through it); it may be NULL on host memory.  With NCCL the copy is one
 * cudaMemcpy2DAsync on the context's stream.  A failure's message is
 * gkd_copy2d_error's. */
gpuk_status gkd_copy2d(gpuk_dist *d, gpuk_dtype dt, gkd_rect src, gkd_rect dst, int64_t rows,
                       int64_t cols, gpuk_tensor *scratch);
const char *gkd_copy2d_error(gpuk_dist *d);
/* The address of t's first element (device memory on a GPU), or NULL. */
char *gkd_data(gpuk_dist *d, const gpuk_tensor *t);

/* ---------------------------------------------------------------- bcast.c */

/* The broadcasts of one SUMMA step: the a panel along the grid row, the b
 * panel along the grid column.  See bcast.c. */
#define GKD_MAXREQ 8

typedef struct gkd_step {
    /* set by the caller: element counts and, per panel, where the data
     * starts on the root (root_*) and where the others receive (recv_*):
     * device or host addresses as the mode needs */
    gpuk_dtype dtype;                   /* of both panels */
    int64_t a_count, b_count;
    int a_root, b_root;                 /* in row_comm / col_comm */
    void *a_buf, *b_buf;                /* the root's source, or the receive buffer */
    void *a_copy, *b_copy;              /* NCCL only: where the root also writes its own
                                           panel (a panel group's buffer), or NULL */
    /* filled by gkd_step_post */
    MPI_Request req[GKD_MAXREQ];
    int nreq;
    int slot;                           /* NCCL: the event pair of this step */
    int handed;                         /* the helper thread completes req (gkd_step_handoff) */
    int rc;                             /* the helper's MPI_Testall result */
} gkd_step;

/* Start a step's broadcasts (non-blocking: MPI_Ibcast, or NCCL on the
 * comm stream).  slot is the double buffer the step receives into; with
 * NCCL the broadcasts first wait for the op issued in slot `after` (-1:
 * none), the last one to read the buffer. */
gpuk_status gkd_step_post(gpuk_dist *d, gkd_step *s, int slot, int after);
/* Wait for a step's broadcasts (MPI), or make the context's stream wait
 * for them (NCCL).  Adds the blocked time to d->stats.wait_s. */
gpuk_status gkd_step_wait(gpuk_dist *d, gkd_step *s);
/* Let MPI progress a posted step (between the row slabs of a synchronous
 * local op).  Nothing for a step handed to the helper. */
void gkd_step_progress(gpuk_dist *d, gkd_step *s);
/* Give a posted MPI step to the helper thread, which waits on it while
 * this thread runs an op; gkd_step_wait then only waits for the helper.
 * 1 when handed; 0 when there is no helper (d->progress_thread is 0, or
 * the thread could not start: it is then turned off), and the caller
 * waits as usual.  Until that wait, this thread makes no MPI call. */
int gkd_step_handoff(gpuk_dist *d, gkd_step *s);
/* Stop and join the helper thread, if it was started (close). */
void gkd_helper_stop(gpuk_dist *d);
/* NCCL: the local op of the step in slot has been issued on the context's
 * stream; the broadcast that next fills slot waits for it. */
gpuk_status gkd_step_done(gpuk_dist *d, int slot);
/* NCCL: the context's stream waits until the last broadcast posted in
 * slot (a root's send included) is over, before it writes that buffer
 * again.  Nothing on MPI, whose waits complete the requests. */
gpuk_status gkd_slot_free(gpuk_dist *d, int slot);
/* NCCL: the local data the roots send is ready on the context's stream. */
gpuk_status gkd_step_ready(gpuk_dist *d);
/* NCCL: wait for the comm stream (end of the loop). */
gpuk_status gkd_step_drain(gpuk_dist *d);

/* ---------------------------------------------------------------- summa.c */

/* Destroy the buffers matmul and min-plus kept (d->bufs). */
void gkd_bufs_free(gpuk_dist *d);

/* ---------------------------------------------------------------- nccl.c */

#ifdef HAVE_NCCL
/* One NCCL communicator over the MPI one `over` (its rank 0 makes the id). */
gpuk_status gkd_nccl_comm(gpuk_dist *d, MPI_Comm over, ncclComm_t *out, char *msg, size_t len);
/* The broadcasts' stream (its priority: d->comm_priority) and events;
 * stream is the context's. */
gpuk_status gkd_nccl_prepare(gpuk_dist *d, void *stream, char *msg, size_t len);
/* Free what the two above made (close, or a failed open). */
void gkd_nccl_release(gpuk_dist *d);
#endif
/* Collective: the lowest rank on the same GPU (host and PCI bus id) as a
 * rank before it, or -1; the same answer on every rank. */
int gkd_shared_device(gpuk_dist *d);

/* ---------------------------------------------------------------- apsp_check.c */

/* The least element of this rank's local part of an i32 m (GPUK_I32_INF
 * when it has none), from its column minima on the device. */
gpuk_status gkd_apsp_least_i32(gpuk_dist *d, const gpuk_dist_matrix *m, int32_t *least,
                               char *msg, size_t len);
/* Collective, for an i32 m with a negative weight (least, the same on
 * every rank): the limit at and above which an element after the loop is
 * "no path", or GPUK_ERR_INVALID (the same message on every rank) when
 * that cannot be told (apsp_check.c). */
gpuk_status gkd_apsp_limit_i32(gpuk_dist *d, const gpuk_dist_matrix *m, int32_t least,
                               int64_t *limit, char *msg, size_t len);
/* Every element of this rank's part at or above limit becomes GPUK_I32_INF. */
gpuk_status gkd_apsp_no_path_i32(gpuk_dist *d, const gpuk_dist_matrix *m, int64_t limit,
                                 char *msg, size_t len);
/* The lowest vertex whose diagonal element this rank holds and is
 * negative, or -1. */
gpuk_status gkd_apsp_negative_diagonal(gpuk_dist *d, const gpuk_dist_matrix *m, int64_t *vertex,
                                       char *msg, size_t len);

#endif

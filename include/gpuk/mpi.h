/*
 * gpuk/mpi.h - libgpuk_mpi: distributed matmul, min-plus and all-pairs
 * shortest paths over MPI.
 *
 * Every rank of an MPI communicator runs an ordinary libgpuk context (CPU
 * or CUDA backend, chosen as usual); a gpuk_dist ties those contexts into
 * a P x Q process grid.  Matrices are laid out 2-D block-cyclic on that
 * grid, and each rank's share is one ordinary gpuk tensor that the caller
 * may read and fill in place.  The design, the cost model and the
 * expected scaling are in doc/distributed.md; the manual is gpuk_dist(3).
 *
 * Collective calls (marked so below) must be made by every rank of the
 * communicator, in the same order.  Their arguments are compared between
 * the ranks before any data moves: ranks that disagree (on a size, a
 * block size, the root, the matrix) all return the same status and the
 * same message, which names the argument and the rank.  A rank whose
 * local step fails makes the call fail on every rank.  Nothing here
 * aborts or exits; messages are per rank, through gpuk_dist_error().
 *
 * Thread safety: a gpuk_dist and its matrices may be used by one thread
 * at a time (the thread that calls MPI; MPI_THREAD_SINGLE is enough).
 */
#ifndef GPUK_MPI_H
#define GPUK_MPI_H

#include <stddef.h>
#include <stdint.h>
#include <mpi.h>
#include <gpuk.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gpuk_dist gpuk_dist;
typedef struct gpuk_dist_matrix gpuk_dist_matrix;

/* What carries the panel broadcasts of matmul and min-plus.  Scatter,
 * gather and the agreement between ranks always use MPI. */
typedef enum gpuk_dist_comm {
    GPUK_DIST_COMM_AUTO = 0,  /* NCCL when built in and every rank is on a CUDA device, else MPI */
    GPUK_DIST_COMM_MPI = 1,   /* MPI, on the tensors' own memory when that is host memory or the
                                 MPI is CUDA-aware, else through page-locked host buffers */
    GPUK_DIST_COMM_NCCL = 2   /* NCCL between GPUs (every rank on a CUDA device) */
} gpuk_dist_comm;

/* Order of the panel broadcasts and the local ops (gpuk_dist_set_schedule).
 * The last two exist to measure overlap; they leave c (apsp: m) undefined. */
typedef enum gpuk_dist_schedule {
    GPUK_DIST_OVERLAP = 0,      /* the next panel's broadcast runs during this panel's op
                                   (apsp: with look-ahead) */
    GPUK_DIST_SERIAL = 1,       /* broadcast, wait, op, one panel after another (apsp: each
                                   step's phases one after another) */
    GPUK_DIST_COMM_ONLY = 2,    /* the broadcasts alone (c undefined) */
    GPUK_DIST_COMPUTE_ONLY = 3  /* the local ops alone, on whatever the panels hold (c undefined) */
} gpuk_dist_schedule;

/* Options of gpuk_dist_open; gpuk_dist_options_init sets every field to
 * "not given", which falls back to the environment, then the default. */
typedef struct gpuk_dist_options {
    size_t size;              /* sizeof(gpuk_dist_options): set by gpuk_dist_options_init */
    int prow, pcol;           /* process grid P x Q, P * Q = ranks; 0, 0: GPUK_DIST_GRID,
                                 then the most nearly square P <= Q */
    const char *backend;      /* each rank's context, as gpuk_options.backend */
    int device;               /* -1: GPUK_DEVICE, then the rank's local rank on its host
                                 modulo the devices there */
    int num_threads;          /* CPU threads per rank; 0: as gpuk_options.num_threads */
    gpuk_dist_comm comm;      /* AUTO: GPUK_DIST_COMM ("auto", "mpi", "nccl"), then auto */
    int cuda_aware;           /* -1: GPUK_DIST_CUDA_AWARE, then MPIX_Query_cuda_support where the
                                 MPI has it, else 0; 1: hand device memory to MPI; 0: stage */
    gpuk_context *context;    /* an open context to use (gpuk_dist_close leaves it open);
                                 NULL: open one with backend, device and num_threads */
} gpuk_dist_options;

void gpuk_dist_options_init(gpuk_dist_options *opts);

/* Collective.  Join the ranks of comm (duplicated: the caller's
 * communicator is not used for traffic) into a process grid, each with its
 * context.  MPI must be initialized.  On failure *d is NULL and
 * gpuk_dist_error(NULL) says why on this thread. */
gpuk_status gpuk_dist_open(gpuk_dist **d, MPI_Comm comm, const gpuk_dist_options *opts);

/* Collective.  Frees the matrices still alive, the communicators and NCCL
 * state, and closes the context if gpuk_dist_open opened it.  NULL is a
 * no-op. */
gpuk_status gpuk_dist_close(gpuk_dist *d);

/* The message of the last failed call on d ("" if none); with d NULL, of
 * the last failed gpuk_dist_open on this thread.  After a collective
 * failure every rank holds the same text. */
const char *gpuk_dist_error(const gpuk_dist *d);

typedef struct gpuk_dist_info {
    int rank, size;              /* in the communicator given to gpuk_dist_open */
    int prow, pcol;              /* the grid, P x Q */
    int myrow, mycol;            /* this rank's place: rank = myrow * pcol + mycol */
    int local_rank, local_size;  /* among the ranks on this host */
    gpuk_context *context;       /* this rank's context (valid until gpuk_dist_close) */
    const char *backend;         /* its backend, "cpu" or "cuda" */
    int device;                  /* its device ordinal */
    gpuk_dist_comm comm;         /* what the panel broadcasts use: MPI or NCCL */
    int direct;                  /* 1: MPI moves tensor memory itself (host memory, or device
                                    memory with a CUDA-aware MPI); 0: staged through the host */
    int cuda_aware;              /* the MPI said it is CUDA-aware (or the option said so) */
    const char *comm_desc;       /* one line, e.g. "mpi, host memory" or "nccl 2.21.5" */
} gpuk_dist_info;

gpuk_status gpuk_dist_get_info(gpuk_dist *d, gpuk_dist_info *info);

/* This rank's schedule for the next matmul and min-plus calls; every rank
 * must set the same (the ops check).  Default GPUK_DIST_OVERLAP. */
gpuk_status gpuk_dist_set_schedule(gpuk_dist *d, gpuk_dist_schedule schedule);

/* What this rank did in the last gpuk_dist_matmul or gpuk_dist_minplus. */
typedef struct gpuk_dist_stats {
    double total_s;      /* the whole call on this rank, agreements included */
    double wait_s;       /* blocked waiting for panel broadcasts (MPI); with NCCL the host
                            never waits on one, and this is the final wait for the streams */
    double stage_s;      /* copies of panels between host buffers and tensors (staged MPI) */
    double local_s;      /* issuing the local ops, and their run time where the backend runs
                            them before returning (CPU) */
    double flops;        /* this rank's share of the work: 2 m n k / ranks on average
                            (an add and a min count as two for min-plus) */
    double bytes;        /* panel bytes this rank sent or received */
    int panels;          /* steps of the loop (matmul, min-plus: 0 on a 1 x 1 grid, one local
                            op; apsp: ceil(n / b) on every grid) */
} gpuk_dist_stats;

gpuk_status gpuk_dist_get_stats(gpuk_dist *d, gpuk_dist_stats *stats);

/* ------------------------------------------------------------------ */
/* Distributed matrices: rows x cols elements of one dtype (f32, f64 or
 * i32), in blocks of mb x nb; block (I, J) lives on grid place (I mod P,
 * J mod Q).  A rank's blocks form one row-major tensor of that dtype, of
 * local_rows x local_cols: its block rows in increasing I, its block
 * columns in increasing J (ScaLAPACK's layout, row-major).  What each
 * dtype means here: doc/distributed.md, "Dtypes". */

typedef struct gpuk_dist_matrix_info {
    int64_t rows, cols;              /* the global matrix */
    int64_t mb, nb;                  /* the block */
    int64_t local_rows, local_cols;  /* this rank's tensor (either may be 0) */
    gpuk_tensor *local;              /* that tensor, owned by the matrix */
    /* after 0.2 (the dtypes): */
    gpuk_dtype dtype;                /* the elements', the local tensor's too */
} gpuk_dist_matrix_info;

/* Collective.  A rows x cols matrix of dtype (GPUK_F32, GPUK_F64 or
 * GPUK_I32; any other is GPUK_ERR_DTYPE, and ranks that pass different
 * dtypes all get GPUK_ERR_DTYPE naming both).  mb or nb 0 picks min(512,
 * ceil(n / max(P, Q))) for that dimension n (the same on every rank, and
 * equal for equal dimensions, so defaults always fit matmul's rules).  The
 * contents are undefined until written (scatter, or each rank filling its
 * local tensor). */
gpuk_status gpuk_dist_matrix_create_dtype(gpuk_dist *d, gpuk_dtype dtype, int64_t rows,
                                          int64_t cols, int64_t mb, int64_t nb,
                                          gpuk_dist_matrix **out);

/* Collective.  gpuk_dist_matrix_create_dtype with GPUK_F32. */
gpuk_status gpuk_dist_matrix_create(gpuk_dist *d, int64_t rows, int64_t cols, int64_t mb,
                                    int64_t nb, gpuk_dist_matrix **out);

/* Local (not collective).  NULL is a no-op. */
gpuk_status gpuk_dist_matrix_destroy(gpuk_dist *d, gpuk_dist_matrix *m);

/* gpuk_dist_matrix_info only grows at its end, as the structures of
 * gpuk.h do: the _size form fills no more than the caller's size, and in
 * C the plain name is a macro passing sizeof for you.  The function of the
 * plain name (for callers through an FFI) fills the layout of libgpuk 0.2,
 * which ends before dtype. */
gpuk_status (gpuk_dist_matrix_get_info)(gpuk_dist *d, const gpuk_dist_matrix *m,
                                        gpuk_dist_matrix_info *info);
gpuk_status gpuk_dist_matrix_get_info_size(gpuk_dist *d, const gpuk_dist_matrix *m,
                                           gpuk_dist_matrix_info *info, size_t size);
#define gpuk_dist_matrix_get_info(d, m, info) \
    gpuk_dist_matrix_get_info_size((d), (m), (info), sizeof *(info))

/* A new view (free it with gpuk_tensor_destroy) of global block (bi, bj),
 * which must be this rank's: GPUK_ERR_INDEX names its owner otherwise.
 * Edge blocks are smaller than mb x nb. */
gpuk_status gpuk_dist_matrix_block(gpuk_dist *d, const gpuk_dist_matrix *m, int64_t bi,
                                   int64_t bj, gpuk_tensor **view);

/* Global element (i, j) -> the rank that owns it and its place in that
 * rank's local tensor.  Any of the outputs may be NULL. */
gpuk_status gpuk_dist_global_to_local(gpuk_dist *d, const gpuk_dist_matrix *m, int64_t i,
                                      int64_t j, int *rank, int64_t *li, int64_t *lj);

/* Element (li, lj) of this rank's local tensor -> its global place. */
gpuk_status gpuk_dist_local_to_global(gpuk_dist *d, const gpuk_dist_matrix *m, int64_t li,
                                      int64_t lj, int64_t *i, int64_t *j);

/* Collective.  Root's dense row-major rows x cols array of the matrix's
 * dtype (exactly rows * cols * gpuk_dtype_size(dtype) bytes: anything
 * else is GPUK_ERR_SIZE) into the matrix; src and bytes are read on root
 * only. */
gpuk_status gpuk_dist_scatter(gpuk_dist *d, gpuk_dist_matrix *m, int root, const void *src,
                              size_t bytes);

/* Collective.  The matrix into root's dense row-major array, as scatter. */
gpuk_status gpuk_dist_gather(gpuk_dist *d, const gpuk_dist_matrix *m, int root, void *dst,
                             size_t bytes);

/* ------------------------------------------------------------------ */
/* Ops (collective).  a is m x k in blocks mb x kb, b is k x n in blocks
 * kb x nb, c is m x n in blocks mb x nb; c may be neither a nor b (a and b
 * may be one matrix).  a, b and c have one dtype (GPUK_ERR_DTYPE names
 * both otherwise), which the local op must compute in on every rank's
 * backend: a rank whose backend lacks it fails the call on every rank
 * with GPUK_ERR_DTYPE, naming the dtypes it has.  variant names a rung of
 * the local op on each rank's backend (NULL or "auto": its default);
 * ranks may name different rungs. */

/* c = a . b by SUMMA: gpuk_gemm with beta 0, then beta 1 for each further
 * panel; within gamma_k of the exact product in the dtype's unit roundoff
 * (doc/design.md, Tolerances).  f32 and f64. */
gpuk_status gpuk_dist_matmul(gpuk_dist *d, const gpuk_dist_matrix *a, const gpuk_dist_matrix *b,
                             gpuk_dist_matrix *c, const char *variant);

/* c = a (x) b, c[i,j] = min_k (a[i,k] + b[k,j]): gpuk_minplus, then
 * gpuk_minplus_update for each further panel; bit-exact against
 * gpuk_minplus of the whole matrices in one context, in every dtype
 * (f32, f64; i32 with its GPUK_I32_INF rules). */
gpuk_status gpuk_dist_minplus(gpuk_dist *d, const gpuk_dist_matrix *a, const gpuk_dist_matrix *b,
                              gpuk_dist_matrix *c, const char *variant);

/* All-pairs shortest paths, in place, by blocked Floyd-Warshall
 * (collective; doc/distributed.md, "APSP").  m is n x n in square blocks
 * (mb = nb; GPUK_ERR_LAYOUT otherwise) and holds the graph on entry:
 * m[i,j] the length of the edge from i to j, +inf (f32, f64; NaN too) or
 * GPUK_I32_INF (i32) where there is none.  On return m[i,j] is the length
 * of a shortest path from i to j, as gpuk_apsp(3) computes it: +inf or
 * GPUK_I32_INF when j cannot be reached, m[i,i] = 0 unless a cycle
 * through i is shorter.  The panels are folded with gpuk_minplus_update
 * (variant names its rung; NULL: auto) and the diagonal blocks closed
 * with gpuk_apsp; with the default schedule step K + 1's panels travel
 * while step K's update runs (look-ahead).  Floats may differ from
 * gpuk_apsp in rounding (sums of whole numbers below 2^24 in f32, 2^53 in
 * f64, are exact).  i32 gives gpuk_apsp's integers, GPUK_I32_INF "no
 * path" beside negative weights too: with weights >= 0 always; with a
 * negative weight while (n - 1)(M + 3 W) < GPUK_I32_INF (M the largest
 * weight, W the largest |negative weight|), else GPUK_ERR_INVALID on
 * every rank before any work.  A negative cycle is
 * GPUK_ERR_NEGATIVE_CYCLE on every rank, naming the lowest vertex whose
 * m[v,v] ended negative.  No predecessors. */
gpuk_status gpuk_dist_apsp(gpuk_dist *d, gpuk_dist_matrix *m, const char *variant);

#ifdef __cplusplus
}
#endif

#endif /* GPUK_MPI_H */

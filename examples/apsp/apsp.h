/*
 * apsp.h - what the main program of examples/apsp (apsp.c) asks of the way
 * it runs.  Two files answer, one per build (mpi/local.mk):
 *
 *   solve_dist.c  the MPI build: any number of ranks, one a GPU where
 *                 there are GPUs; gpuk_dist_apsp (or gpuk_dist_minplus
 *                 squarings) on a block-cyclic matrix
 *   solve_one.c   without MPI: one process, one context; gpuk_apsp with
 *                 its predecessors (or gpuk_minplus squarings)
 *
 * Every function marked "collective" is called by every rank in the same
 * order; rank 0 prints.  Vertices are 0-based here, 1-based for the user.
 */
#ifndef APSP_H
#define APSP_H

#include <stddef.h>
#include <stdint.h>
#include <gpuk.h>
#include "graph.h"

#define APSP_MAX_PAIRS 64

typedef struct apsp_opts {
    const char *file, *backend, *variant;
    int64_t rows, cols, geometric, block;
    int sources, maxw, threads, squaring, npairs;
    int64_t pair[APSP_MAX_PAIRS][2];   /* --pair I,J, 0-based */
    gpuk_dtype dtype;
    uint64_t seed;
} apsp_opts;

/* ---------------------------------------------------------------- the job */

extern int job_rank, job_size;
extern const char *const job_build;   /* "MPI (gpuk_dist_apsp)" or "one context (gpuk_apsp)" */

/* Start and end the job (MPI_Init_thread, MPI_Finalize in the MPI build). */
void job_start(int *argc, char ***argv);
void job_end(void);
/* Collective: 1 where every rank's mine is 1. */
int job_all(int mine);
/* Collective: rank 0's rc, err and (rc 0) graph on every rank; a
 * generated graph is already everywhere and is passed with shared = 1. */
int job_share(graph *g, int rc, char *err, size_t len, int shared);

/* ---------------------------------------------------------------- the solver */

typedef struct solver solver;

/* Collective.  An n-vertex distance matrix of o->dtype; NULL and a
 * message in err on failure (the same on every rank). */
solver *solver_open(const apsp_opts *o, int64_t n, char *err, size_t len);
void solver_close(solver *s);
/* How it runs, one line ("4 ranks on a 2x2 grid, blocks 1024, cuda, ..."). */
const char *solver_what(solver *s);
/* The last failure's message. */
const char *solver_error(solver *s);

/* Collective.  The graph's matrix: "no edge" everywhere, 0 on the
 * diagonal, the lightest arc u -> v at (u, v). */
gpuk_status solver_fill(solver *s, const graph *g);
/* Collective.  All-pairs shortest paths in place by Floyd-Warshall; with
 * paths, keeping predecessors where the way it runs can. */
gpuk_status solver_fw(solver *s, int paths);
/* Collective.  One squaring D = D (x) D; *changed: whether any element
 * moved (every rank gets the same answer). */
gpuk_status solver_square(solver *s, int *changed);
/* Collective.  Row i of the distances on rank 0, as doubles (INFINITY
 * where there is no path). */
gpuk_status solver_row(solver *s, int64_t i, double *row);
/* A path i -> j from the predecessors (rank 0): 1 and the path when they
 * were kept, 0 when not (the caller rebuilds it from row i). */
int solver_path(solver *s, int64_t i, int64_t j, int64_t *path, int64_t cap, int64_t *len);

#endif

/*
 * dtap.h - TAP from a test that runs on several MPI ranks.
 *
 * Every check is collective: all ranks call dtap_ok at the same points of
 * the same program (SPMD), each with its own verdict; rank 0 prints one
 * "ok" line when every rank passed, else "not ok" and, as diagnostics,
 * the ranks that failed with the reason each gave (dtap_why).  So the
 * output is one TAP stream, as automake's tap-driver.sh expects, however
 * many ranks run.  The plan comes last; a run with no check fails.
 */
#ifndef GPUK_DTAP_H
#define GPUK_DTAP_H

#include <stdint.h>
#include <mpi.h>

/* After MPI_Init.  The seed is GPUK_TEST_SEED on rank 0, else the clock
 * there, broadcast so that every rank draws the same numbers. */
void dtap_init(MPI_Comm comm);

/* This rank's reason, shown if the next check fails here (printf-style). */
void dtap_why(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Collective: record one check; returns 1 when it passed on every rank.
 * The description is rank 0's. */
int dtap_ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Collective: one skipped check, with rank 0's reason. */
void dtap_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A diagnostic from rank 0. */
void dtap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Collective: the plan; main's exit status (the same on every rank). */
int dtap_done(void);

uint64_t dtap_seed(void);
int dtap_rank(void);
int dtap_size(void);

#endif

/*
 * tap.h - a minimal TAP producer for libgpuk's tests (run by automake's
 * tap-driver.sh).  Plan at the end ("1..N"); a run that executed zero
 * checks fails, so a test that silently skips everything cannot pass.
 */
#ifndef GPUK_TAP_H
#define GPUK_TAP_H

#include <stdint.h>

/* Record one check; returns cond (nonzero when it passed).  The message is
 * printf-style. */
int tap_ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Report one check as skipped, with the reason. */
void tap_skip(const char *reason, ...) __attribute__((format(printf, 1, 2)));

/* Skip the whole file: prints "1..0 # SKIP reason" and returns the exit
 * status to return from main (0).  Use only before any check ran. */
int tap_skip_all(const char *reason, ...) __attribute__((format(printf, 1, 2)));

/* A diagnostic line ("# ..."). */
void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print the plan and return main's exit status: 0 when every check passed
 * and at least one (passed or skipped) ran; 1 otherwise. */
int tap_done(void);

/* Counters, for tests that want them. */
int tap_failed(void);
int tap_count(void);

/* The random seed of this run: GPUK_TEST_SEED if set, else drawn from the
 * clock; printed once as a diagnostic so a failure can be replayed. */
uint64_t tap_seed(void);

#endif

/*
 * opsuite.h - the table-driven op suite shared by t_ops_cpu and t_ops_cuda.
 *
 * opsuite_run(backend) opens a context on the backend and, for every op
 * from GPUK_OP_FIRST to GPUK_OP_LAST, every dtype its descriptor lists and
 * every variant the backend lists in that dtype (gpuk_variant_count_dtype
 * / gpuk_variant_get_dtype: a variant is tested the moment it is
 * registered), runs the op on odd and non-square shapes with random
 * inputs from tap_seed(), NaN-poisoned outputs, guard regions around every
 * tensor, unaligned and row-strided views, and compares with the
 * reference of ref.h (long double, more precise than f64): one TAP check
 * per (op, dtype, variant, shape).  On a
 * backend other than "cpu" the same inputs also run on a CPU context and
 * the two backends are compared with each other.  A rung listed with an
 * alias (a former name) also runs through the alias, which must reach the
 * same rung: the op log of a GPUK_VERBOSE=2 context must name it.
 *
 * Environment: GPUK_TEST_SEED replays a run; GPUK_TEST_QUICK=1 leaves out
 * the larger cases (for runs under compute-sanitizer), in every dtype
 * alike; GPUK_TEST_DTYPES="f64" (names, comma-separated) runs those dtypes
 * only, so a sanitizer run can take the kernels of one dtype.
 *
 * Returns 0 when the context opened, else 1 (after a failed check that
 * says why).  The caller ends with tap_done().
 */
#ifndef GPUK_TEST_OPSUITE_H
#define GPUK_TEST_OPSUITE_H

#include <stddef.h>
#include <stdint.h>

#include <gpuk.h>

#include "opcases.h"

int opsuite_run(const char *backend);

/* GPUK_TEST_DTYPES="f64,i32": the dtypes to run, by name, as a set of
 * GPUK_DTYPE_BIT; unset or empty: all.  A name gpuk.h does not know fails
 * a check.  opsuite_run and t_apsp read it. */
uint32_t opsuite_dtypes(void);

/* One case on ctx through variant v (NULL: the default), in guarded
 * storage: the dense output goes to got (c->out.numel elements of the
 * output's dtype).  Returns 1
 * when the op succeeded and every storage outside the output view came
 * back as written (inputs untouched, no write past the view); else 0,
 * with why.  Uses nothing but ctx, so threads with contexts of their own
 * may call it at once (t_threads). */
int opsuite_run_case(gpuk_context *ctx, const oc_case *c, const char *v, void *got, char *why,
                     size_t wl);

#endif

/*
 * family.h - what every family file under tests/ops/ includes: the
 * descriptor and the helpers of each of its parts (../optest.h), and the
 * short names its tables and checks are written with.  Only family files
 * include it: the one-letter macros would be a trap anywhere else.
 */
#ifndef GPUK_TEST_OPS_FAMILY_H
#define GPUK_TEST_OPS_FAMILY_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpuk.h>

#include "../../fuzz/fz.h"
#include "../opcases.h"
#include "../optest.h"
#include "../ref.h"
#include "../t_rel.h"
#include "../tap.h"

/* ---- the op suite's cases (a builder's case is `c`) ---- */

#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define SH(...) ((const int64_t[]){ __VA_ARGS__ })
#define LBL(...) snprintf(c->label, sizeof c->label, __VA_ARGS__)
/* n random values of the builder's dtype `dt` in [-1, 1] (oc_rnd_vec);
 * element i of an array of dt, read and written (ref.h) */
#define RND(n) oc_rnd_vec(g, dt, (n), 1.0, 0.0)
#define GET(v, i) ref_get(dt, (v), (i))
#define PUT(v, i, x) ref_put(dt, (v), (i), (x))

/* ---- t_badshape (the rules function's context is `ctx`) ----
 *
 * E is one case of the bad-input catalogue and one TAP check: the call
 * must return exactly want and, when it fails, the message must name arg.
 * The TAP line shows the call as written here. */

#define E(call, want, arg) rel_expect(ctx, (call), (want), (arg), #call)
/* ED: a call refused for mixing dtypes a and b, the message naming arg
 * and both */
#define ED(call, arg, a, b) rel_expect_dtypes(ctx, (call), (arg), (a), (b), #call)
#define F64 GPUK_F64
#define F32 GPUK_F32
#define OK GPUK_OK
#define SHAPE GPUK_ERR_SHAPE
#define LAYOUT GPUK_ERR_LAYOUT
#define ALIAS GPUK_ERR_ALIAS
#define INVALID GPUK_ERR_INVALID

/* Views are cut from storages of 64 elements holding 0, 1, 2, ..., so
 * overlapping ones are easy to place: V2 is [r,c] with row stride ld and
 * column stride cs at offset off of S, V1 is [n] with the stride given. */
#define STORAGE() rel_tensor(ctx, GPUK_F32, 1, REL_SHAPE(64), 0.0f, 1.0f)
#define V2(S, r, c, ld, cs, off) rel_view(ctx, (S), 2, REL_SHAPE(r, c), REL_SHAPE(ld, cs), (off))
#define V1(S, n, stride, off) rel_view(ctx, (S), 1, REL_SHAPE(n), REL_SHAPE(stride), (off))

/* ---- t_empty (the function's context is `ctx`) ---- */

/* The function's dtype is `dt`.  MK(vals, 3, 4): a new [3,4] tensor of dt
 * holding vals (a ref_real array; NULL: the sentinel); RUN: the call k on
 * every variant of its op in dt, against e. */
#define MK(vals, ...) oe_tensor(ctx, dt, REL_NDIM(__VA_ARGS__), REL_SHAPE(__VA_ARGS__), (vals))
#define RUN(k, label, init, e) oe_run(ctx, &(k), dt, (label), (init), (e))

#endif

/*
 * opcall.c - opcall() (see opcall.h): a table from gpuk_op to the op's
 * call, built from the catalogue of gpuk.h.
 *
 * Each op's call is written in its family file under tests/ops/, next to
 * everything else the tests know about the op (tests/optest.h).  It is
 * not a member of the op's descriptor because gpuk-bench compiles this
 * file by itself (bench/local.mk), without the test library the
 * descriptors need: so the calls come in here by inclusion, and with
 * OPTEST_CALLS defined a family file is its calls and nothing else (in
 * the test library it is compiled once more, as everything but its calls).
 *
 * The table names opcall_<ID> for every row of GPUK_OP_MAP: an op whose
 * family file lacks its call, or a family file missing from the list
 * below, is a compile error here.  A new family adds its line to the list
 * (and to OPTEST_FAMILIES in tests/local.mk).
 */
#include "opcall.h"

#include <string.h>

#define OPTEST_CALLS 1
#include "ops/matmul.c"
#include "ops/minplus.c"
#include "ops/transpose.c"
#include "ops/reduce.c"
#include "ops/elementwise.c"
#include "ops/rows.c"
#include "ops/spmv.c"
#include "ops/blas.c"
#include "ops/apsp.c"
#include "ops/cast.c"
#undef OPTEST_CALLS

typedef gpuk_status (*opcall_fn)(gpuk_context *ctx, const opcall_args *a, const char *v);

/* indexed by the op's value; the catalogue's values are FIRST..LAST with
 * no gap (the library checks that at compile time) */
static const opcall_fn calls[GPUK_OP_LAST + 1] = {
#define OPCALL_ROW_(id, value, name, exact, sum) [value] = opcall_##id,
    GPUK_OP_MAP(OPCALL_ROW_)
#undef OPCALL_ROW_
};

void opcall_init(opcall_args *args, gpuk_op op)
{
    memset(args, 0, sizeof *args);
    args->op = op;
    args->alpha = 1.0;
    args->beta = 0.0;
    args->kind = GPUK_REDUCE_SUM;
}

gpuk_status opcall(gpuk_context *ctx, const opcall_args *a, const char *v)
{
    /* a value no row of the catalogue has */
    if ((int)a->op < GPUK_OP_FIRST || (int)a->op > GPUK_OP_LAST)
        return GPUK_ERR_INVALID;
    return calls[a->op](ctx, a, v);
}

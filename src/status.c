/*
 * status.c - names and texts generated from the two lists of gpuk.h: the
 * status codes (GPUK_STATUS_MAP) and the op catalogue (GPUK_OP_MAP); dtype
 * names; the library version.  Nothing here is written twice: a new status
 * or op is one row of its list, and the checks below fail the build when
 * the rows and the declared range disagree.
 */
#include "gpuk_internal.h"

#include <stdio.h>
#include <string.h>

const char *gpuk_version(void)
{
    return PACKAGE_VERSION;
}

/* ---- status codes */

const char *gpuk_strerror(gpuk_status status)
{
    switch (status) {
#define GK_STATUS_TEXT(name, value, text) case GPUK_##name: return text;
    GPUK_STATUS_MAP(GK_STATUS_TEXT)
#undef GK_STATUS_TEXT
    }
    return "unknown status code";
}

const char *gpuk_status_name(gpuk_status status)
{
    switch (status) {
#define GK_STATUS_NAME(name, value, text) case GPUK_##name: return "GPUK_" #name;
    GPUK_STATUS_MAP(GK_STATUS_NAME)
#undef GK_STATUS_NAME
    }
    return NULL;
}

/* ---- the op catalogue.  The switches below repeat no case (a value used
 * twice does not compile); with the count, each value of FIRST..LAST is
 * a row exactly once. */

#define GK_OP_ONE(id, value, name, exact, sum) +1
enum { GK_OP_ROWS = 0 GPUK_OP_MAP(GK_OP_ONE) };
#undef GK_OP_ONE
_Static_assert(GK_OP_ROWS == GPUK_OP_LAST - GPUK_OP_FIRST + 1,
               "GPUK_OP_MAP must have one row for each value of GPUK_OP_FIRST..GPUK_OP_LAST");
#define GK_OP_RANGE(id, value, name, exact, sum)                                 \
    _Static_assert(value >= GPUK_OP_FIRST && value <= GPUK_OP_LAST,              \
                   "op " #id " lies outside GPUK_OP_FIRST..GPUK_OP_LAST");       \
    _Static_assert(exact == 0 || exact == 1, "op " #id ": exact must be 0 or 1");
GPUK_OP_MAP(GK_OP_RANGE)
#undef GK_OP_RANGE

const char *gpuk_op_name(gpuk_op op)
{
    switch (op) {
#define GK_OP_NAME(id, value, name, exact, sum) case GPUK_OP_##id: return name;
    GPUK_OP_MAP(GK_OP_NAME)
#undef GK_OP_NAME
    }
    return NULL;
}

int gpuk_op_exact(gpuk_op op)
{
    switch (op) {
#define GK_OP_EXACT(id, value, name, exact, sum) case GPUK_OP_##id: return exact;
    GPUK_OP_MAP(GK_OP_EXACT)
#undef GK_OP_EXACT
    }
    return -1;
}

gpuk_status gpuk_op_from_name(const char *name, gpuk_op *op)
{
    if (!name || !op)
        return GPUK_ERR_NULL;
#define GK_OP_MATCH(id, value, text, exact, sum) \
    if (strcmp(name, text) == 0) {               \
        *op = GPUK_OP_##id;                      \
        return GPUK_OK;                          \
    }
    GPUK_OP_MAP(GK_OP_MATCH)
#undef GK_OP_MATCH
    return GPUK_ERR_INVALID;
}

/* The terms of each output's sum (the K of gamma_K), by the catalogue's
 * sum column, over the canonical operands of gpuk/backend.h. */
static int64_t opa_cols(const gpuk_args *a)
{
    return a->trans_a ? a->in[0].shape[0] : a->in[0].shape[1];
}
#define GK_SUM_NONE(a) 1
#define GK_SUM_DIM0(a) (a)->in[0].shape[0]
#define GK_SUM_DIM1(a) (a)->in[0].shape[1]
#define GK_SUM_DIM2(a) (a)->in[0].shape[2]
#define GK_SUM_DIM1_BIAS(a) ((a)->in[0].shape[1] + (a)->has_bias)
#define GK_SUM_OPA_COLS_BETA(a) (opa_cols(a) + 1)
#define GK_SUM_ROW_NNZ(a) (a)->csr->max_row_nnz

int64_t gk_sum_length(const gpuk_args *a)
{
    switch (a->op) {
#define GK_OP_SUM(id, value, name, exact, sum) case GPUK_OP_##id: return GK_SUM_##sum(a);
    GPUK_OP_MAP(GK_OP_SUM)
#undef GK_OP_SUM
    }
    return 1;
}

/* ---- peak kinds */

const char *gpuk_peak_name(gpuk_peak kind)
{
    switch (kind) {
#define GK_PK_NAME(id, value, name, unit, text) case GPUK_PEAK_##id: return name;
    GPUK_PEAK_MAP(GK_PK_NAME)
#undef GK_PK_NAME
    }
    return NULL;
}

const char *gpuk_peak_unit(gpuk_peak kind)
{
    switch (kind) {
#define GK_PK_UNIT(id, value, name, unit, text) case GPUK_PEAK_##id: return unit;
    GPUK_PEAK_MAP(GK_PK_UNIT)
#undef GK_PK_UNIT
    }
    return NULL;
}

gpuk_status gpuk_peak_from_name(const char *name, gpuk_peak *kind)
{
    if (!name || !kind)
        return GPUK_ERR_NULL;
#define GK_PK_MATCH(id, value, text, unit, what) \
    if (strcmp(name, text) == 0) {               \
        *kind = GPUK_PEAK_##id;                  \
        return GPUK_OK;                          \
    }
    GPUK_PEAK_MAP(GK_PK_MATCH)
#undef GK_PK_MATCH
    return GPUK_ERR_INVALID;
}

/*
 * t_empty - the semantics gpuk.h promises for empty tensors and for NaN and
 * infinity, checked on every variant of every op of the backend (the
 * table is iterated, so a new rung is checked when it is registered).
 *
 *   - An op whose output has no elements succeeds and does nothing.
 *   - A sum over an empty dimension is 0 (matmul and batched matmul with
 *     k = 0 give the bias or 0; dot of length 0 is 0; an SpMV row without
 *     entries is 0; gemv/gemm with k = 0 give beta * y), a mean over one
 *     is NaN (reduce, meanpool), a min over one is +inf (min-plus).
 *   - NaN and infinities in inputs are not errors and propagate as IEEE
 *     arithmetic says; the moves (copy, transpose, embedding) keep a NaN's
 *     payload; relu is x < 0 ? 0 : x, so relu(NaN) is NaN; min-plus
 *     skips NaN sums (a NaN never compares less) and settles a tie of +0
 *     and -0 as -0; with beta == 0, gemv and gemm do not read their
 *     output, so a NaN there does not propagate.
 *
 * Each op's cases are written in its family file under tests/ops/ (its
 * descriptor's `empty`, see optest.h), with the helpers of optest.c:
 * outputs start as a finite sentinel, so an element a kernel forgets
 * fails even where the answer is NaN, and expected values come from the
 * op's float64 reference where it states the same semantics, else are
 * written there.  This program runs them for every op of the catalogue in
 * every dtype its descriptor lists (f32 and f64; i32 for min-plus), one
 * TAP check per (case, variant), or one skip where the backend has no
 * variant of the op in the dtype.  The backend is GPUK_TEST_BACKEND
 * (default cpu; tests/t_empty_cuda.sh runs it on cuda).
 */
#include <stdlib.h>
#include <string.h>

#include <gpuk.h>

#include "optest.h"
#include "tap.h"

int main(void)
{
    gpuk_context *ctx = NULL;
    const char *be = getenv("GPUK_TEST_BACKEND");
    gpuk_status st = gpuk_context_open(&ctx, be && *be ? be : "cpu");
    if (st != GPUK_OK && be && *be && strcmp(be, "cpu") != 0)
        return tap_skip_all("backend %s does not open here: %s", be, gpuk_strerror(st));
    if (st != GPUK_OK) {
        tap_ok(0, "opening a cpu context: %s", gpuk_strerror(st));
        return tap_done();
    }
    /* each op's tensors and matrices stay alive until the context closes;
     * every dtype the op's descriptor lists, in the order of gpuk.h's list */
    for (int op = GPUK_OP_FIRST; op <= GPUK_OP_LAST; op++) {
        const optest *t = optest_of((gpuk_op)op);
#define T_EMPTY_DT_(id, value, name, bytes, dlcode, prec)  \
        if (t->dtypes & GPUK_DTYPE_BIT(GPUK_##id))          \
            t->empty(ctx, GPUK_##id);
        GPUK_DTYPE_MAP(T_EMPTY_DT_)
#undef T_EMPTY_DT_
    }
    gpuk_context_close(ctx);
    return tap_done();
}

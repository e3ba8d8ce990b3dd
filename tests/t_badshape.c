/*
 * t_badshape - the bad-input catalogue, part 3: the rules peculiar to each
 * op.  Shape agreement (each rule once), layouts (a strided view where the
 * op needs a dense tensor, a last-dimension stride other than 1, an output
 * view that maps two elements to one address), aliasing (an output
 * overlapping an input, partly or exactly, where forbidden and where in
 * place is allowed), enums (reduce kind, axis, trans) and embedding ids.
 *
 * Each op's rules are written in its family file under tests/ops/ (its
 * descriptor's `badshape`, see optest.h), one REL_EXPECT per rule: a call
 * that must return exactly one status and, failing, name the argument.
 * This program runs them for every op of the catalogue, in its order, on
 * one cpu context.  Views are cut from storage tensors of 64 elements
 * holding 0, 1, 2, ... so overlapping views are easy to place.
 *
 * A rules function leaves every tensor it made alive: closing the context
 * frees them all, which is part of what is checked (valgrind, ASan).
 */
#include <gpuk.h>

#include "optest.h"
#include "tap.h"

int main(void)
{
    gpuk_context *ctx = NULL;
    if (gpuk_context_open(&ctx, "cpu") != GPUK_OK) {
        tap_ok(0, "opening a cpu context");
        return tap_done();
    }
    for (int op = GPUK_OP_FIRST; op <= GPUK_OP_LAST; op++) {
        const optest *t = optest_of((gpuk_op)op);
        tap_diag("%s", gpuk_op_name((gpuk_op)op));
        t->badshape(ctx);
    }
    gpuk_context_close(ctx);
    return tap_done();
}

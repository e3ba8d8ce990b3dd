/*
 * t_ops_cpu - every (op, variant) of the CPU backend's table against the
 * float64 reference (see opsuite.h).
 */
#include "opsuite.h"
#include "tap.h"

int main(void)
{
    opsuite_run("cpu");
    return tap_done();
}

/*
 * t_ops_cuda - every (op, variant) of the CUDA backend's table against the
 * float64 reference and against the CPU backend (see opsuite.h).
 *
 * Without a usable GPU (no driver, no device, no plugin, or a plugin that
 * cannot load because the CUDA runtime is absent) the whole file is a TAP
 * skip that names the reason.  Any other failure to open is a failed
 * check, and on a machine with a GPU a run of zero checks fails
 * (tap_done).
 */
#include <stdio.h>
#include <string.h>

#include <gpuk.h>

#include "opsuite.h"
#include "tap.h"

static int no_gpu_status(gpuk_status st)
{
    return st == GPUK_ERR_NO_DRIVER || st == GPUK_ERR_NO_DEVICE ||
           st == GPUK_ERR_BACKEND_NOT_FOUND || st == GPUK_ERR_BACKEND_LOAD;
}

/* The reason the open failed: the context has none to give (it is NULL),
 * so take the reason of the last rejected candidate with that status from
 * the load report (the loader's summary when no file was found), on one
 * line for TAP. */
static void why_not(const gpuk_load_report *rep, gpuk_status st, char *buf, size_t len)
{
    snprintf(buf, len, "%s", gpuk_strerror(st));
    for (size_t i = 0; rep && i < gpuk_load_report_count(rep); i++) {
        const gpuk_load_attempt *a = gpuk_load_report_get(rep, i);
        if (a && a->status == st && a->reason && a->reason[0]) {
            snprintf(buf, len, "%s: %s%s%s%s", gpuk_strerror(st), a->reason,
                     a->path && a->path[0] ? " (" : "", a->path ? a->path : "",
                     a->path && a->path[0] ? ")" : "");
        }
    }
    for (char *p = buf; *p; p++)
        if (*p == '\n' || *p == '#')
            *p = ' ';
}

int main(void)
{
    gpuk_options o;
    gpuk_context *ctx = NULL;
    gpuk_load_report *rep = NULL;
    char why[512];

    gpuk_options_init(&o);
    o.backend = "cuda";
    gpuk_status st = gpuk_context_open_ex(&ctx, &o, &rep);
    if (st != GPUK_OK) {
        why_not(rep, st, why, sizeof why);
        if (rep)
            gpuk_load_report_free(rep);
        if (no_gpu_status(st))
            return tap_skip_all("no usable CUDA backend (%s)", why);
        tap_ok(0, "open a cuda context: %s", why);
        return tap_done();
    }
    if (rep)
        gpuk_load_report_free(rep);
    gpuk_context_close(ctx);
    opsuite_run("cuda");
    return tap_done();
}

/*
 * gpuk-info - what libgpuk sees on this machine: the build configuration,
 * the load report (every candidate plugin and why it was taken or
 * rejected), the device, where "auto" takes its rungs (a wisdom file, the
 * backend's built-in rules), and every op with its ladder of variants.
 *
 * Exit status: 0 when every requested backend opened, 1 when one did not,
 * 2 on a usage error.
 */
#include "config.h"

#include <gpuk.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: gpuk-info [--backend NAME] [--all] [--quiet]\n"
            "  --backend NAME  cpu, cuda, auto, or a path to a backend .so\n"
            "                  (default: $GPUK_BACKEND, else auto)\n"
            "  --all           report on cpu and cuda, one after the other\n"
            "  --quiet         only the load report and the device, no variant list\n"
            "  --help, --version\n");
}

static void flags_str(uint32_t f, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s%s%s", (f & GPUK_VARIANT_DEFAULT) ? " default" : "",
             (f & GPUK_VARIANT_LIBRARY) ? " library" : "", (f & GPUK_VARIANT_TF32) ? " tf32" : "",
             (f & GPUK_VARIANT_PACKED16) ? " packed16" : "");
}

static int report(const char *backend, int quiet)
{
    gpuk_options o;
    gpuk_options_init(&o);
    o.backend = backend;
    gpuk_context *ctx = NULL;
    gpuk_load_report *rep = NULL;
    gpuk_status st = gpuk_context_open_ex(&ctx, &o, &rep);

    printf("backend request: %s\n", backend ? backend : "(GPUK_BACKEND, else auto)");
    printf("load report (* taken, - rejected):\n");
    const char *text = gpuk_load_report_text(rep);
    for (const char *line = text; *line;) {
        const char *nl = strchr(line, '\n');
        int len = nl ? (int)(nl - line) : (int)strlen(line);
        printf("  %.*s\n", len, line);
        line += len + (nl != NULL);
    }
    gpuk_load_report_free(rep);
    if (st != GPUK_OK) {
        printf("result: cannot open: %s\n\n", gpuk_strerror(st));
        /* stdout may be a pipe shared with stderr (2>&1): what was printed
         * goes first, so the error line does not land inside it */
        fflush(stdout);
        fprintf(stderr, "gpuk-info: backend %s cannot open: %s\n", backend ? backend : "(default)",
                gpuk_strerror(st));
        return 1;
    }

    gpuk_info info;
    gpuk_context_info(ctx, &info);
    printf("result: opened backend %s %s (ABI %u.%u)\n", info.backend, info.backend_version,
           info.abi_major, info.abi_minor);
    printf("  plugin   %s\n", info.backend_path);
    printf("  device   %s (ordinal %d)\n", info.device, info.device_ordinal);
    if (info.device_memory)
        printf("  memory   %.1f GiB\n", info.device_memory / (1024.0 * 1024 * 1024));
    if (info.multiprocessors)
        printf("  %s %d\n", strcmp(info.backend, "cpu") == 0 ? "cores   " : "SMs     ",
               info.multiprocessors);
    if (info.num_threads)
        printf("  threads  %d\n", info.num_threads);
    printf("  check    %s\n", info.check ? "on (GPUK_CHECK shadow mode)" : "off");
    printf("  auto     %s\n", gpuk_auto_source(ctx));

    if (!quiet) {
        printf("  ops and variants (ladder order; * = default; (alias) = a former name "
               "still accepted):\n");
        static const gpuk_dtype dtypes[] = {
#define DTYPE_ROW(id, value, name, bytes, dlcode, prec) GPUK_##id,
            GPUK_DTYPE_MAP(DTYPE_ROW)
#undef DTYPE_ROW
        };
        for (int op = GPUK_OP_FIRST; op <= GPUK_OP_LAST; op++) {
            for (size_t d = 0; d < sizeof dtypes / sizeof dtypes[0]; d++) {
                size_t n = 0;
                gpuk_variant_count_dtype(ctx, (gpuk_op)op, dtypes[d], &n);
                /* every op lists its f32 ladder, even an empty one */
                if (n == 0 && dtypes[d] != GPUK_F32)
                    continue;
                printf("    %s, %s (%zu)\n", gpuk_op_name((gpuk_op)op),
                       gpuk_dtype_name(dtypes[d]), n);
                for (size_t i = 0; i < n; i++) {
                    gpuk_variant_info v;
                    char fl[64], name[64];
                    if (gpuk_variant_get_dtype(ctx, (gpuk_op)op, dtypes[d], i, &v) != GPUK_OK)
                        continue;
                    flags_str(v.flags, fl, sizeof fl);
                    if (v.alias)
                        snprintf(name, sizeof name, "%s (%s)", v.name, v.alias);
                    else
                        snprintf(name, sizeof name, "%s", v.name);
                    printf("      %c %-18s %s%s%s%s\n",
                           (v.flags & GPUK_VARIANT_DEFAULT) ? '*' : ' ', name, v.summary,
                           fl[0] ? " [" : "", fl[0] ? fl + 1 : "", fl[0] ? "]" : "");
                }
            }
        }
    }
    printf("\n");
    gpuk_context_close(ctx);
    return 0;
}

int main(int argc, char **argv)
{
    const char *backend = NULL;
    int all = 0, quiet = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--version") == 0) {
            printf("gpuk-info (libgpuk) %s\n", gpuk_version());
            return 0;
        } else if (strcmp(argv[i], "--backend") == 0 && i + 1 < argc) {
            backend = argv[++i];
        } else if (strncmp(argv[i], "--backend=", 10) == 0) {
            backend = argv[i] + 10;
        } else if (strcmp(argv[i], "--all") == 0) {
            all = 1;
        } else if (strcmp(argv[i], "--quiet") == 0) {
            quiet = 1;
        } else {
            fprintf(stderr, "gpuk-info: unknown argument '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    printf("libgpuk %s (header %s)\n", gpuk_version(), GPUK_VERSION_STRING);
    printf("build: %s\n", GPUK_CONFIGURE_SUMMARY);
    const char *path = getenv("GPUK_BACKEND_PATH");
    printf("GPUK_BACKEND_PATH: %s\n\n", path && *path ? path : "(unset)");
    if (!all)
        return report(backend, quiet);
    int rc = 0;
    rc |= report("cpu", quiet);
    rc |= report("cuda", quiet);
    return rc;
}

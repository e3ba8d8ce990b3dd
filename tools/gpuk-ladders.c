/*
 * gpuk-ladders - the kernel tables of backend plugin files, read without a
 * device: one line per (op, dtype, rung), tab-separated,
 *
 *   BACKEND  OP  DTYPE  VARIANT  ALIAS  FLAGS  SUMMARY
 *
 * ops in the order of the catalogue (GPUK_OP_MAP), dtypes in the order of
 * GPUK_DTYPE_MAP, the rungs of each (op, dtype) in the table's (ladder)
 * order.  ALIAS is "-" when the row has none; FLAGS is a comma-separated
 * subset of default, library, tf32, packed16, or "-".  "default" marks the
 * row "auto" falls back to, as the loader decides it: the row flagged
 * GPUK_KF_DEFAULT, else the first (doc/design.md, Ladders).  SUMMARY is
 * the row's one-line summary, as gpuk-info prints it ("-" when empty), a
 * tab or newline in it printed as a space.
 *
 *   gpuk-ladders PLUGIN.so...
 *
 * gpuk-info lists the same rows, but only of a backend whose probe finds a
 * device; tools/gen-docs.sh needs the CUDA table on a machine without a
 * GPU, to write the ladders of README.md and gpuk(7) and to check them
 * (make check).  So this reads the table straight from the plugin's entry
 * point, never calling its probe or init.  It is a build tool, not
 * installed.  Exit status: 0, or 1 when a plugin cannot be read.
 */
#include <gpuk/backend.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    gpuk_op op;
    const char *name;
} ops[] = {
#define GL_OP_(id, value, name, exact, sum) { GPUK_OP_##id, name },
    GPUK_OP_MAP(GL_OP_)
#undef GL_OP_
};

static const struct {
    gpuk_dtype dtype;
    const char *name;
} dtypes[] = {
#define GL_DT_(id, value, name, bytes, dlcode, prec) { GPUK_##id, name },
    GPUK_DTYPE_MAP(GL_DT_)
#undef GL_DT_
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Row i of the table, in this header's layout: a row of an older minor may
 * be shorter (its later members read as absent), one of a newer minor
 * longer (ignored), as the loader reads them. */
static gpuk_kernel row(const gpuk_backend *be, size_t i)
{
    gpuk_kernel k;
    size_t n = be->kernel_size < sizeof k ? be->kernel_size : sizeof k;
    memset(&k, 0, sizeof k);
    memcpy(&k, (const char *)be->kernels + i * be->kernel_size, n);
    return k;
}

static void flags_str(uint32_t f, int is_default, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s%s%s", is_default ? ",default" : "",
             (f & GPUK_KF_LIBRARY) ? ",library" : "", (f & GPUK_KF_TF32) ? ",tf32" : "",
             (f & GPUK_KF_PACKED16) ? ",packed16" : "");
    if (buf[0])
        memmove(buf, buf + 1, strlen(buf));
    else
        snprintf(buf, len, "-");
}

static int list(const char *path)
{
    void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!dl) {
        fprintf(stderr, "gpuk-ladders: cannot load %s: %s\n", path, dlerror());
        return 1;
    }
    gpuk_backend_entry_fn entry;
    void *sym = dlsym(dl, GPUK_BACKEND_ENTRY);
    memcpy(&entry, &sym, sizeof entry);
    const gpuk_backend *be = sym ? entry() : NULL;
    if (!be || be->abi_major != GPUK_ABI_MAJOR || !be->name || !be->kernels ||
        be->kernel_size < offsetof(gpuk_kernel, alias)) {
        fprintf(stderr, "gpuk-ladders: %s: not a libgpuk %u.x plugin with a kernel table\n", path,
                GPUK_ABI_MAJOR);
        return 1;
    }
    for (size_t o = 0; o < COUNT(ops); o++) {
        for (size_t d = 0; d < COUNT(dtypes); d++) {
            uint32_t bit = GPUK_DTYPE_BIT(dtypes[d].dtype);
            long first = -1, flagged = -1;
            for (size_t i = 0; i < be->n_kernels; i++) {
                gpuk_kernel k = row(be, i);
                if (k.op != ops[o].op || !(k.dtypes & bit) || !k.variant)
                    continue;
                if (first < 0)
                    first = (long)i;
                if ((k.flags & GPUK_KF_DEFAULT) && flagged < 0)
                    flagged = (long)i;
            }
            long def = flagged >= 0 ? flagged : first;
            for (size_t i = 0; i < be->n_kernels; i++) {
                gpuk_kernel k = row(be, i);
                if (k.op != ops[o].op || !(k.dtypes & bit) || !k.variant)
                    continue;
                char fl[64], sum[512];
                flags_str(k.flags, (long)i == def, fl, sizeof fl);
                snprintf(sum, sizeof sum, "%s", k.summary && k.summary[0] ? k.summary : "-");
                for (char *c = sum; *c; c++)
                    if (*c == '\t' || *c == '\n')
                        *c = ' ';
                printf("%s\t%s\t%s\t%s\t%s\t%s\t%s\n", be->name, ops[o].name, dtypes[d].name,
                       k.variant, k.alias && k.alias[0] ? k.alias : "-", fl, sum);
            }
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0) {
        fprintf(argc < 2 ? stderr : stdout, "usage: gpuk-ladders PLUGIN.so...\n");
        return argc < 2 ? 2 : 0;
    }
    int bad = 0;
    for (int i = 1; i < argc; i++)
        bad |= list(argv[i]);
    return bad;
}

/*
 * loader.c - find, dlopen and check backend plugins; the load report.
 *
 * Search order for a backend named NAME: each folder of GPUK_BACKEND_PATH,
 * the plugin folder next to wherever libgpuk.so itself was loaded from (so
 * an installed tree moved to another prefix still finds its own plugins),
 * the configured plugin folder (GPUK_PLUGIN_DIR), then plain
 * "backend_NAME.so" for the system loader (LD_LIBRARY_PATH, ld.so.cache).
 * With GPUK_BACKEND_PATH_ONLY=1 the search stops after GPUK_BACKEND_PATH,
 * so a build tree's tests never load an installed copy (gpuk(7), Finding
 * plugins).  Every candidate and why it was taken or rejected goes into
 * the report.
 *
 * Plugins are opened RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE: an OpenMP
 * runtime pulled in by a plugin keeps worker threads whose code must stay
 * mapped even after the plugin is released.
 */
#define _GNU_SOURCE
#include "gpuk_internal.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef GPUK_PLUGIN_DIR
#define GPUK_PLUGIN_DIR "/usr/local/lib/libgpuk"
#endif

/* ------------------------------------------------------------ report */

static char *dupstr(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

gpuk_load_attempt *gk_report_add(gpuk_load_report *r, const char *backend, const char *path,
                                 gpuk_status st, const char *fmt, ...)
{
    if (!r)
        return NULL;
    if (r->n == r->cap) {
        size_t ncap = r->cap ? r->cap * 2 : 8;
        gpuk_load_attempt *nv = realloc(r->v, ncap * sizeof *nv);
        if (!nv)
            return NULL;   /* the report is best effort; the status still tells */
        r->v = nv;
        r->cap = ncap;
    }
    char reason[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    gpuk_load_attempt *a = &r->v[r->n];
    a->backend = dupstr(backend ? backend : "");
    a->path = dupstr(path ? path : "");
    a->reason = dupstr(reason);
    a->status = st;
    a->chosen = 0;
    if (!a->backend || !a->path || !a->reason) {
        free((char *)a->backend);
        free((char *)a->path);
        free((char *)a->reason);
        return NULL;
    }
    r->n++;
    free(r->text);
    r->text = NULL;
    return a;
}

void gk_report_clear(gpuk_load_report *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free((char *)r->v[i].backend);
        free((char *)r->v[i].path);
        free((char *)r->v[i].reason);
    }
    free(r->v);
    free(r->text);
    memset(r, 0, sizeof *r);
}

gpuk_load_report *gk_report_clone(const gpuk_load_report *r)
{
    gpuk_load_report *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    /* all or nothing: a copy missing an entry could miss the chosen one */
    for (size_t i = 0; i < r->n; i++) {
        const gpuk_load_attempt *a = &r->v[i];
        gpuk_load_attempt *copy = gk_report_add(c, a->backend, a->path, a->status, "%s",
                                                a->reason);
        if (!copy) {
            gpuk_load_report_free(c);
            return NULL;
        }
        copy->chosen = a->chosen;
    }
    return c;
}

size_t gpuk_load_report_count(const gpuk_load_report *report)
{
    return report ? report->n : 0;
}

const gpuk_load_attempt *gpuk_load_report_get(const gpuk_load_report *report, size_t i)
{
    if (!report || i >= report->n)
        return NULL;
    return &report->v[i];
}

const char *gpuk_load_report_text(const gpuk_load_report *report)
{
    if (!report)
        return "";
    gpuk_load_report *r = (gpuk_load_report *)report;  /* the text is a cache */
    if (r->text)
        return r->text;
    size_t len = 1;
    for (size_t i = 0; i < r->n; i++)
        len += strlen(r->v[i].backend) + strlen(r->v[i].path) + strlen(r->v[i].reason) + 32;
    r->text = malloc(len);
    if (!r->text)
        return "";
    size_t at = 0;
    r->text[0] = '\0';
    for (size_t i = 0; i < r->n; i++) {
        const gpuk_load_attempt *a = &r->v[i];
        at += (size_t)snprintf(r->text + at, len - at, "%s %s: %s%s%s\n",
                               a->chosen ? "*" : "-", a->backend, a->path,
                               a->path[0] ? ": " : "", a->reason);
    }
    return r->text;
}

void gpuk_load_report_free(gpuk_load_report *report)
{
    if (!report)
        return;
    gk_report_clear(report);
    free(report);
}

/* ------------------------------------------------------------ one file */

/* The members every ABI 2.x plugin must fill. */
static const char *missing_member(const gpuk_backend *be)
{
#define REQ(m) if (!be->m) return #m
    REQ(name); REQ(version); REQ(probe); REQ(init); REQ(fini); REQ(last_error); REQ(info);
    REQ(alloc); REQ(free); REQ(write); REQ(read); REQ(copy); REQ(sync);
    REQ(timer_start); REQ(timer_stop); REQ(kernels);
#undef REQ
    return NULL;
}

/* Rows are kernel_size bytes apart; a row of an older minor may stop
 * before the later members (they count as absent), one of a newer minor
 * may carry members this core does not know (ignored). */
#define GK_ROW_MIN offsetof(gpuk_kernel, alias)

static void read_row(const gpuk_backend *be, size_t i, gpuk_kernel *k)
{
    const char *at = (const char *)be->kernels + i * be->kernel_size;
    size_t n = be->kernel_size < sizeof *k ? be->kernel_size : sizeof *k;
    memset(k, 0, sizeof *k);
    memcpy(k, at, n);
}

static int same_name(const gpuk_kernel *a, const gpuk_kernel *b)
{
    return strcmp(a->variant, b->variant) == 0 ||
           (b->alias && strcmp(a->variant, b->alias) == 0) ||
           (a->alias && strcmp(a->alias, b->variant) == 0) ||
           (a->alias && b->alias && strcmp(a->alias, b->alias) == 0);
}

/* Copy the plugin's kernel table into core's layout.  Rows of an op, or
 * with only dtypes, that this core does not know are left out and listed
 * in *skipped (a newer plugin still loads); a malformed table is refused
 * (GPUK_ERR_BACKEND_ABI, why says which row), since dispatch would
 * misbehave later. */
static gpuk_status take_rows(const gpuk_backend *be, gk_plugin *p, char *skipped, size_t slen,
                             char *why, size_t len)
{
    size_t at = 0, nskip = 0;
    skipped[0] = '\0';
    if (be->kernel_size < GK_ROW_MIN) {
        snprintf(why, len, "kernel rows are %u bytes apart, ABI %u.0 rows need %zu",
                 be->kernel_size, GPUK_ABI_MAJOR, (size_t)GK_ROW_MIN);
        return GPUK_ERR_BACKEND_ABI;
    }
    p->rows = calloc(be->n_kernels ? be->n_kernels : 1, sizeof *p->rows);
    if (!p->rows) {
        snprintf(why, len, "out of host memory reading the kernel table");
        return GPUK_ERR_NO_MEMORY;
    }
    p->n_rows = 0;
    for (size_t i = 0; i < be->n_kernels; i++) {
        gpuk_kernel k;
        read_row(be, i, &k);
        if (!k.variant || !k.variant[0] || !k.fn) {
            snprintf(why, len, "kernel table row %zu (op %d) lacks a variant name or function",
                     i, (int)k.op);
            return GPUK_ERR_BACKEND_ABI;
        }
        if (k.dtypes == 0) {
            snprintf(why, len, "kernel table row %zu (op %d, %s) serves no dtype", i, (int)k.op,
                     k.variant);
            return GPUK_ERR_BACKEND_ABI;
        }
        uint32_t known = k.dtypes & gk_known_dtypes;
        if (!gpuk_op_name(k.op) || !known) {
            nskip++;
            if (at < slen)
                at += (size_t)snprintf(skipped + at, slen - at, "%srow %zu (op %d, %s%s)",
                                       at ? ", " : "", i, (int)k.op, k.variant,
                                       !known ? ", no known dtype" : "");
            continue;
        }
        k.dtypes = known;
        const char *nm = gpuk_op_name(k.op);
        if (strcmp(k.variant, "auto") == 0 || (k.alias && strcmp(k.alias, "auto") == 0)) {
            snprintf(why, len, "kernel table row %zu (%s) uses the reserved name 'auto'", i, nm);
            return GPUK_ERR_BACKEND_ABI;
        }
        for (size_t j = 0; j < p->n_rows; j++) {
            const gpuk_kernel *o = &p->rows[j];
            if (o->op != k.op || !(o->dtypes & k.dtypes))
                continue;
            char dts[64];
            gk_dtypes_str(o->dtypes & k.dtypes, dts, sizeof dts);
            if (same_name(o, &k)) {
                snprintf(why, len, "kernel table rows both define %s/%s for %s (row %zu)", nm,
                         k.variant, dts, i);
                return GPUK_ERR_BACKEND_ABI;
            }
            if ((o->flags & k.flags & GPUK_KF_DEFAULT)) {
                snprintf(why, len, "kernel table rows %s/%s and %s/%s are both the default for "
                         "%s", nm, o->variant, nm, k.variant, dts);
                return GPUK_ERR_BACKEND_ABI;
            }
        }
        p->rows[p->n_rows++] = k;
    }
    gk_plugin_index(p);
    return GPUK_OK;
}

/* dlopen maps a plugin's segments straight from the file; a segment that
 * claims bytes past the end of a truncated file faults (SIGBUS) on first
 * touch, inside the dynamic loader, where no status can be returned.  So
 * a file that looks like an ELF object must be for this machine and hold
 * every byte its program headers promise.  Anything else is left for
 * dlopen to refuse. */
static int elf_unloadable(const char *path, off_t size, char *why, size_t len)
{
    Elf64_Ehdr eh;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;   /* dlopen will say why it cannot read it */
    int bad = 0;
    ssize_t got = read(fd, &eh, sizeof eh);
    if (got < (ssize_t)EI_NIDENT || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
        eh.e_ident[EI_CLASS] != ELFCLASS64) {
        close(fd);
        return 0;   /* not a 64-bit ELF file: dlopen refuses it cleanly */
    }
    if (got < (ssize_t)sizeof eh) {
        snprintf(why, len, "truncated ELF file (%lld bytes, shorter than its header)",
                 (long long)size);
        close(fd);
        return 1;
    }
    /* glibc reports a plugin of another architecture as "No such file",
     * which misleads: say what it is */
#if defined(__x86_64__)
    const int host_machine = EM_X86_64;
#elif defined(__aarch64__)
    const int host_machine = EM_AARCH64;
#else
    const int host_machine = eh.e_machine;
#endif
    if (eh.e_machine != host_machine) {
        snprintf(why, len, "ELF file for another architecture (e_machine %u, this host %d)",
                 (unsigned)eh.e_machine, host_machine);
        close(fd);
        return 1;
    }
    uint64_t ph_end = eh.e_phoff + (uint64_t)eh.e_phnum * eh.e_phentsize;
    if (eh.e_phentsize != sizeof(Elf64_Phdr) || ph_end > (uint64_t)size) {
        snprintf(why, len, "truncated or corrupt ELF file: program headers end at byte %llu, "
                 "the file has %lld", (unsigned long long)ph_end, (long long)size);
        bad = 1;
    }
    for (int i = 0; !bad && i < eh.e_phnum; i++) {
        Elf64_Phdr ph;
        if (pread(fd, &ph, sizeof ph, (off_t)(eh.e_phoff + (uint64_t)i * sizeof ph)) !=
            (ssize_t)sizeof ph) {
            snprintf(why, len, "cannot read ELF program header %d", i);
            bad = 1;
        } else if (ph.p_type == PT_LOAD && ph.p_offset + ph.p_filesz > (uint64_t)size) {
            snprintf(why, len, "truncated ELF file: segment %d needs bytes up to %llu, the "
                     "file has %lld", i, (unsigned long long)(ph.p_offset + ph.p_filesz),
                     (long long)size);
            bad = 1;
        }
    }
    close(fd);
    return bad;
}

/* Try one candidate file: load, check ABI, probe.  On success *out is a
 * plugin ready for init. */
static gpuk_status try_file(const char *backend, const char *path, gpuk_load_report *rep,
                            gk_plugin **out, char *err, size_t errlen)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        snprintf(err, errlen, "%s: not found", path);
        gk_report_add(rep, backend, path, GPUK_ERR_BACKEND_NOT_FOUND, "not found");
        return GPUK_ERR_BACKEND_NOT_FOUND;
    }
    if (!S_ISREG(sb.st_mode)) {
        snprintf(err, errlen, "%s: not a regular file", path);
        gk_report_add(rep, backend, path, GPUK_ERR_BACKEND_LOAD, "not a regular file");
        return GPUK_ERR_BACKEND_LOAD;
    }
    char elf_why[256];
    if (elf_unloadable(path, sb.st_size, elf_why, sizeof elf_why)) {
        snprintf(err, errlen, "cannot load %s: %s", path, elf_why);
        gk_report_add(rep, backend, path, GPUK_ERR_BACKEND_LOAD, "rejected: %s", elf_why);
        return GPUK_ERR_BACKEND_LOAD;
    }
    dlerror();
    void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!dl) {
        const char *e = dlerror();
        snprintf(err, errlen, "cannot load %s: %s", path, e ? e : "unknown dlopen error");
        gk_report_add(rep, backend, path, GPUK_ERR_BACKEND_LOAD, "dlopen failed: %s",
                      e ? e : "unknown error");
        return GPUK_ERR_BACKEND_LOAD;
    }
    gpuk_backend_entry_fn entry;
    void *sym = dlsym(dl, GPUK_BACKEND_ENTRY);
    memcpy(&entry, &sym, sizeof entry);
    if (!sym) {
        snprintf(err, errlen, "%s has no entry symbol %s: not a libgpuk backend", path,
                 GPUK_BACKEND_ENTRY);
        gk_report_add(rep, backend, path, GPUK_ERR_BACKEND_SYMBOL, "entry symbol %s missing",
                      GPUK_BACKEND_ENTRY);
        dlclose(dl);
        return GPUK_ERR_BACKEND_SYMBOL;
    }
    const gpuk_backend *be = entry();
    gpuk_status st = GPUK_OK;
    char why[512] = "", skipped[512] = "";
    const char *miss;
    gk_plugin *p = calloc(1, sizeof *p);
    char *pathcopy = dupstr(path);
    if (!p || !pathcopy) {
        free(p);
        free(pathcopy);
        dlclose(dl);
        snprintf(err, errlen, "out of host memory loading %s", path);
        return GPUK_ERR_NO_MEMORY;
    }
    p->path = pathcopy;
    p->dl = dl;
    /* abi_major first: a plugin of another major version may lay out
     * everything after the first words differently. */
    if (!be) {
        st = GPUK_ERR_BACKEND_ABI;
        snprintf(why, sizeof why, "entry function returned NULL");
    } else if (be->abi_major != GPUK_ABI_MAJOR) {
        st = GPUK_ERR_BACKEND_ABI;
        snprintf(why, sizeof why, "plugin ABI %u.%u, libgpuk needs %u.x", be->abi_major,
                 be->abi_minor, GPUK_ABI_MAJOR);
    } else if (be->size < offsetof(gpuk_backend, csr_prepare)) {
        st = GPUK_ERR_BACKEND_ABI;
        snprintf(why, sizeof why, "plugin struct is %u bytes, smaller than ABI %u.0 requires",
                 be->size, GPUK_ABI_MAJOR);
    } else if ((miss = missing_member(be)) != NULL) {
        st = GPUK_ERR_BACKEND_ABI;
        snprintf(why, sizeof why, "required member '%s' is NULL", miss);
    } else {
        st = take_rows(be, p, skipped, sizeof skipped, why, sizeof why);
    }
    if (st != GPUK_OK) {
        snprintf(err, errlen, "%s rejected: %s", path, why);
        gk_report_add(rep, backend, path, st, "rejected: %s", why);
        gk_plugin_release(p);
        return st;
    }
    /* the minor version: members and rows past this core's are ignored,
     * members a plugin of an older minor lacks count as absent (GK_BE_HAS),
     * and what needs a later minor is refused (gk_need_abi_minor) */
    if (be->abi_minor != GPUK_ABI_MINOR)
        gk_report_add(rep, backend, path, GPUK_OK, "note: plugin ABI %u.%u, this libgpuk %u.%u: "
                      "%s%s", be->abi_major, be->abi_minor, GPUK_ABI_MAJOR, GPUK_ABI_MINOR,
                      be->abi_minor > GPUK_ABI_MINOR
                          ? "what the newer minor added is ignored"
                          : "members added since count as absent",
                      be->abi_minor < 2 ? "; no gpuk_minplus_update (2.2)" : "");
    if (skipped[0])
        gk_report_add(rep, backend, path, GPUK_OK, "note: skipped kernel rows this libgpuk "
                      "does not know: %s", skipped);
    gpuk_probe_result pr;
    memset(&pr, 0, sizeof pr);
    st = be->probe(&pr);
    pr.reason[sizeof pr.reason - 1] = '\0';
    if (st != GPUK_OK) {
        snprintf(err, errlen, "%s backend cannot run here: %s", be->name,
                 pr.reason[0] ? pr.reason : gpuk_strerror(st));
        gk_report_add(rep, backend, path, st, "rejected: %s",
                      pr.reason[0] ? pr.reason : gpuk_strerror(st));
        gk_plugin_release(p);
        return st;
    }
    p->be = be;
    snprintf(p->note, sizeof p->note, "%s", pr.reason);
    *out = p;
    return GPUK_OK;
}

/* Later stages of failure say more than earlier ones: a plugin found but
 * without a device beats "not found" elsewhere. */
static int stage(gpuk_status st)
{
    switch (st) {
    case GPUK_ERR_BACKEND_NOT_FOUND: return 0;
    case GPUK_ERR_BACKEND_LOAD: return 1;
    case GPUK_ERR_BACKEND_SYMBOL: return 2;
    case GPUK_ERR_BACKEND_ABI: return 3;
    default: return 4;
    }
}

static int valid_name(const char *s)
{
    if (!*s || strlen(s) > 64)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return 0;
    return 1;
}

/* Folder of the libgpuk.so this code runs from, plus "/libgpuk". */
static int relocated_dir(char *buf, size_t len)
{
    Dl_info info;
    if (!dladdr((void *)gpuk_version, &info) || !info.dli_fname)
        return 0;
    char real[PATH_MAX];
    if (!realpath(info.dli_fname, real))
        return 0;
    char *slash = strrchr(real, '/');
    if (!slash)
        return 0;
    *slash = '\0';
    return snprintf(buf, len, "%s/libgpuk", real) < (int)len;
}

static int same_dir(const char *a, const char *b)
{
    char ra[PATH_MAX], rb[PATH_MAX];
    if (!realpath(a, ra) || !realpath(b, rb))
        return strcmp(a, b) == 0;
    return strcmp(ra, rb) == 0;
}

static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) != 0 || stat(b, &sb) != 0)
        return 0;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* GPUK_BACKEND_PATH_ONLY: unset, empty or 0 searches on past
 * GPUK_BACKEND_PATH, 1 stops there; anything else is GPUK_ERR_ENV. */
static gpuk_status env_path_only(int *only, char *err, size_t errlen)
{
    const char *s = getenv("GPUK_BACKEND_PATH_ONLY");
    *only = 0;
    if (!s || !*s || strcmp(s, "0") == 0)
        return GPUK_OK;
    if (strcmp(s, "1") == 0) {
        *only = 1;
        return GPUK_OK;
    }
    snprintf(err, errlen, "GPUK_BACKEND_PATH_ONLY='%s' is not 0 or 1", s);
    return GPUK_ERR_ENV;
}

/* Find and load the plugin for a backend name.  On success *out is set. */
static gpuk_status find_named(const char *name, int only, gpuk_load_report *rep,
                              gk_plugin **out, char *err, size_t errlen)
{
    char file[96], path[PATH_MAX + 128], e[512];
    gpuk_status best = GPUK_ERR_BACKEND_NOT_FOUND, st;
    snprintf(file, sizeof file, "backend_%s.so", name);
    if (only)
        snprintf(err, errlen, "no plugin %s found in GPUK_BACKEND_PATH, the only folders "
                 "searched with GPUK_BACKEND_PATH_ONLY=1", file);
    else
        snprintf(err, errlen, "no plugin %s found (searched GPUK_BACKEND_PATH, %s, and the "
                 "system library path)", file, GPUK_PLUGIN_DIR);

    const char *env = getenv("GPUK_BACKEND_PATH");
    if (env && *env) {
        char *copy = dupstr(env), *save = NULL;
        if (!copy)
            return GPUK_ERR_NO_MEMORY;
        for (char *dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
            struct stat sb;
            if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
                gk_report_add(rep, name, dir, GPUK_ERR_BACKEND_NOT_FOUND,
                              "GPUK_BACKEND_PATH entry is not a directory");
                continue;
            }
            snprintf(path, sizeof path, "%s/%s", dir, file);
            st = try_file(name, path, rep, out, e, sizeof e);
            if (st == GPUK_OK) {
                free(copy);
                return GPUK_OK;
            }
            if (stage(st) >= stage(best)) {
                best = st;
                if (st != GPUK_ERR_BACKEND_NOT_FOUND)
                    snprintf(err, errlen, "%s", e);
            }
        }
        free(copy);
    }
    if (only) {
        gk_report_add(rep, name, "", best, "GPUK_BACKEND_PATH_ONLY=1: no folder searched "
                      "past GPUK_BACKEND_PATH%s", env && *env ? "" : " (which is unset)");
        return best;
    }

    /* the plugins installed beside the libgpuk.so that is running come
     * first: a stale install at the configured prefix must not shadow a
     * tree that was moved or staged with DESTDIR */
    char reloc[PATH_MAX];
    const char *dirs[2] = { GPUK_PLUGIN_DIR, NULL };
    if (relocated_dir(reloc, sizeof reloc) && !same_dir(reloc, GPUK_PLUGIN_DIR)) {
        dirs[0] = reloc;
        dirs[1] = GPUK_PLUGIN_DIR;
    }
    for (int i = 0; i < 2 && dirs[i]; i++) {
        snprintf(path, sizeof path, "%s/%s", dirs[i], file);
        st = try_file(name, path, rep, out, e, sizeof e);
        if (st == GPUK_OK)
            return GPUK_OK;
        if (stage(st) >= stage(best)) {
            best = st;
            if (st != GPUK_ERR_BACKEND_NOT_FOUND)
                snprintf(err, errlen, "%s", e);
        }
    }

    /* Last: the system loader's own search.  dlopen of a bare name either
     * finds it or not; we cannot stat first. */
    dlerror();
    void *probe = dlopen(file, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!probe) {
        const char *de = dlerror();
        /* "cannot open shared object file" means absent; anything else is a
         * real load error worth reporting */
        if (de && !strstr(de, "cannot open shared object file")) {
            gk_report_add(rep, name, file, GPUK_ERR_BACKEND_LOAD, "dlopen failed: %s", de);
            if (stage(GPUK_ERR_BACKEND_LOAD) >= stage(best)) {
                best = GPUK_ERR_BACKEND_LOAD;
                snprintf(err, errlen, "cannot load %s: %s", file, de);
            }
        } else {
            gk_report_add(rep, name, file, GPUK_ERR_BACKEND_NOT_FOUND,
                          "not found by the system loader");
        }
        return best;
    }
    Dl_info info;
    void *sym = dlsym(probe, GPUK_BACKEND_ENTRY);
    const char *where = (sym && dladdr(sym, &info) && info.dli_fname) ? info.dli_fname : file;
    snprintf(path, sizeof path, "%s", where);
    dlclose(probe);
    /* a plugin rejected above stays mapped (RTLD_NODELETE), so the system
     * loader hands back that same file: it has been reported already */
    for (size_t i = 0; i < rep->n; i++) {
        if (strcmp(rep->v[i].backend, name) == 0 && rep->v[i].path[0] &&
            same_file(rep->v[i].path, path)) {
            gk_report_add(rep, name, file, best, "the system loader found %s again", path);
            return best;
        }
    }
    st = try_file(name, path, rep, out, e, sizeof e);
    if (st == GPUK_OK)
        return GPUK_OK;
    if (stage(st) >= stage(best)) {
        best = st;
        snprintf(err, errlen, "%s", e);
    }
    return best;
}

static gpuk_status open_bctx(gk_plugin *p, const char *backend, const gpuk_init_args *init,
                             gpuk_load_report *rep, gpuk_bctx **bctx, char *err, size_t errlen)
{
    char msg[512] = "";
    gpuk_status st = p->be->init(init, bctx, msg, sizeof msg);
    msg[sizeof msg - 1] = '\0';
    if (st != GPUK_OK) {
        *bctx = NULL;
        snprintf(err, errlen, "%s backend failed to start: %s", p->be->name,
                 msg[0] ? msg : gpuk_strerror(st));
        gk_report_add(rep, backend, p->path, st, "rejected: init failed: %s",
                      msg[0] ? msg : gpuk_strerror(st));
        return st;
    }
    return GPUK_OK;
}

static gpuk_status load_one(const char *request, int only, const gpuk_init_args *init,
                            gpuk_load_report *rep, gk_plugin **plugin, gpuk_bctx **bctx,
                            char *err, size_t errlen)
{
    gk_plugin *p = NULL;
    gpuk_status st;
    if (strchr(request, '/')) {
        st = try_file(request, request, rep, &p, err, errlen);
    } else if (valid_name(request)) {
        st = find_named(request, only, rep, &p, err, errlen);
    } else {
        snprintf(err, errlen, "'%s' is not a backend: use cpu, cuda, auto, or a path to a "
                 "backend .so", request);
        gk_report_add(rep, request, "", GPUK_ERR_BACKEND_NOT_FOUND,
                      "not a backend name (lower-case letters, digits, '_') or a path");
        return GPUK_ERR_BACKEND_NOT_FOUND;
    }
    if (st != GPUK_OK)
        return st;
    st = open_bctx(p, request, init, rep, bctx, err, errlen);
    if (st != GPUK_OK) {
        gk_plugin_release(p);
        return st;
    }
    /* mark the entry just added, not "the last one": a report that could
     * not grow has no entry for it at all */
    gpuk_load_attempt *taken =
        gk_report_add(rep, request, p->path, GPUK_OK, "taken: %s %s (ABI %u.%u)%s%s",
                      p->be->name, p->be->version, p->be->abi_major, p->be->abi_minor,
                      p->note[0] ? "; " : "", p->note);
    if (!taken) {
        /* a context whose report cannot say which plugin it took is not
         * opened: success always comes with exactly one chosen entry */
        p->be->fini(*bctx);
        *bctx = NULL;
        gk_plugin_release(p);
        snprintf(err, errlen, "out of host memory recording the load report");
        return GPUK_ERR_NO_MEMORY;
    }
    taken->chosen = 1;
    *plugin = p;
    return GPUK_OK;
}

gpuk_status gk_load(const char *request, const gpuk_init_args *init, gpuk_load_report *rep,
                    gk_plugin **plugin, gpuk_bctx **bctx, char *err, size_t errlen)
{
    *plugin = NULL;
    *bctx = NULL;
    int only;
    gpuk_status st = env_path_only(&only, err, errlen);
    if (st != GPUK_OK)
        return st;   /* the report's last line, the verdict, says why */
    if (strcmp(request, "auto") != 0)
        return load_one(request, only, init, rep, plugin, bctx, err, errlen);

    /* auto: the GPU when it loads and sees a device, else the CPU, and the
     * report says why */
    char cuda_err[512];
    st = load_one("cuda", only, init, rep, plugin, bctx, cuda_err, sizeof cuda_err);
    if (st == GPUK_OK)
        return GPUK_OK;
    gk_report_add(rep, "auto", "", st, "cuda unavailable (%s); falling back to cpu", cuda_err);
    st = load_one("cpu", only, init, rep, plugin, bctx, err, errlen);
    if (st != GPUK_OK) {
        char cpu_err[512];
        snprintf(cpu_err, sizeof cpu_err, "%s", err);
        snprintf(err, errlen, "auto: no backend could run: cuda: %s; cpu: %s", cuda_err,
                 cpu_err);
    }
    return st;
}

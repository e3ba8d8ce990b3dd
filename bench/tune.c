/*
 * tune.c - gpuk-bench --tune FILE: the rows of the run as a wisdom file,
 * which "auto" then follows (GPUK_WISDOM=FILE or gpuk_options.wisdom; the
 * format is in gpuk(7), FILES, and src/wisdom.c reads it).
 *
 * For each opened backend, one section: the header (magic and format,
 * library version, backend name and plugin version, device name and its
 * core or SM count, threads), then per (op, dtype, shape class) measured,
 * the rung to run, with a comment line of the times it was chosen from,
 * and the end line: the entry count and the FNV-1a 64 hash of the
 * section's bytes before it.
 *
 * The rung of a class is the one whose time over the best of each case of
 * the class, multiplied over the cases, is least (one case: the fastest),
 * among the rungs that ran and passed the check in every case of the
 * class; a TF32 rung is never chosen, reduced precision being something
 * a caller asks for by name.  The shape class of each row is the library's
 * own (gpuk_last_shape_class), so the file and the lookups agree.
 *
 * The file is written beside its final name and renamed into place, then
 * each backend is opened once more with it to confirm it is followed.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

/* FNV-1a, 64 bits (the hash of a wisdom section). */
static uint64_t fnv1a64(const char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

/* A growing text buffer. */
typedef struct tbuf {
    char *s;
    size_t n, cap;
    int oom;
} tbuf;

static void put(tbuf *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(tbuf *t, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        size_t room = t->cap - t->n;
        va_start(ap, fmt);
        int w = t->oom ? 0 : vsnprintf(t->s ? t->s + t->n : NULL, t->s ? room : 0, fmt, ap);
        va_end(ap);
        if (t->oom || w < 0)
            return;
        if ((size_t)w < room) {
            t->n += (size_t)w;
            return;
        }
        size_t cap = (t->cap + (size_t)w + 1) * 2;
        char *ns = realloc(t->s, cap);
        if (!ns) {
            t->oom = 1;
            return;
        }
        t->s = ns;
        t->cap = cap;
    }
}

/* A rung of a class: its rows' times over each case's best, multiplied
 * as a sum of logarithms, and in how many of the class's cases it ran. */
typedef struct cand {
    const char *variant;
    uint32_t flags;
    double log_ratio;
    int cases;
} cand;

static int usable(const brow *r)
{
    return r->status == ROW_OK && !r->is_auto && !(r->flags & GPUK_VARIANT_TF32) &&
           r->shape_class >= 0 && r->ms_med > 0;
}

/* The best usable row of r's case (same backend, op, dtype, size). */
static const brow *case_best(const bench *b, const brow *r)
{
    const brow *best = NULL;
    for (size_t i = 0; i < b->n_rows; i++) {
        const brow *o = &b->rows[i];
        if (usable(o) && o->be == r->be && o->op == r->op && o->dtype == r->dtype &&
            o->size_idx == r->size_idx && (!best || o->ms_med < best->ms_med))
            best = o;
    }
    return best;
}

/* The entries of one backend: returns how many it wrote. */
static int backend_entries(const bench *b, int be, tbuf *t)
{
    int n = 0;
    for (size_t i = 0; i < b->n_rows; i++) {
        const brow *r = &b->rows[i];
        if (r->be != be || !usable(r))
            continue;
        /* each (op, dtype, class) once: at its first usable row */
        int first = 1;
        for (size_t j = 0; j < i && first; j++) {
            const brow *o = &b->rows[j];
            first = !(o->be == be && usable(o) && o->op == r->op && o->dtype == r->dtype &&
                      o->shape_class == r->shape_class);
        }
        if (!first)
            continue;
        /* the class's cases, and every rung's score over them */
        cand c[64];
        int nc = 0, ncases = 0;
        int seen_case[B_MAX_SIZES * 64];
        int nseen = 0;
        for (size_t j = i; j < b->n_rows; j++) {
            const brow *o = &b->rows[j];
            if (o->be != be || !usable(o) || o->op != r->op || o->dtype != r->dtype ||
                o->shape_class != r->shape_class)
                continue;
            int known = 0;
            for (int q = 0; q < nseen; q++)
                known |= seen_case[q] == o->size_idx;
            if (!known && nseen < (int)(sizeof seen_case / sizeof seen_case[0])) {
                seen_case[nseen++] = o->size_idx;
                ncases++;
            }
            const brow *best = case_best(b, o);
            int k = 0;
            while (k < nc && strcmp(c[k].variant, o->variant))
                k++;
            if (k == nc) {
                if (nc == 64)
                    continue;
                c[nc++] = (cand){o->variant, o->flags, 0, 0};
            }
            c[k].log_ratio += log(o->ms_med / best->ms_med);
            c[k].cases++;
        }
        const cand *pick = NULL;
        for (int k = 0; k < nc; k++)
            if (c[k].cases == ncases && (!pick || c[k].log_ratio < pick->log_ratio))
                pick = &c[k];
        if (!pick)
            continue;   /* no rung ran in every case of the class */
        /* a comment with what it was chosen from (the first case's times) */
        put(t, "# %s %s class %d (%s%s): %s", gpuk_op_name(r->op), gpuk_dtype_name(r->dtype),
            r->shape_class, r->shape, ncases > 1 ? " and more" : "", pick->variant);
        for (size_t j = i; j < b->n_rows; j++) {
            const brow *o = &b->rows[j];
            if (o->be == be && usable(o) && o->op == r->op && o->dtype == r->dtype &&
                o->size_idx == r->size_idx)
                put(t, "%s %s %.4g ms%s", o == &b->rows[i] ? ";" : ",", o->variant, o->ms_med,
                    o->flags & GPUK_VARIANT_DEFAULT ? " (default)" : "");
        }
        put(t, "\n%s %s %d %s\n", gpuk_op_name(r->op), gpuk_dtype_name(r->dtype), r->shape_class,
            pick->variant);
        n++;
    }
    return n;
}

/* Confirm that a context of this backend follows the file. */
static int confirm(const bbackend *be, const char *path, char *why, size_t len)
{
    gpuk_options o;
    gpuk_context *ctx = NULL;
    gpuk_options_init(&o);
    o.backend = be->info.backend_path;
    o.num_threads = be->info.num_threads > 0 ? be->info.num_threads : 0;
    o.device = be->info.device_ordinal;
    o.wisdom = path;
    gpuk_status st = gpuk_context_open_ex(&ctx, &o, NULL);
    if (st != GPUK_OK) {
        snprintf(why, len, "cannot open %s again: %s", be->name, gpuk_strerror(st));
        return -1;
    }
    const char *src = gpuk_auto_source(ctx);
    int ok = strncmp(src, "wisdom file ", 12) == 0;
    if (!ok)
        snprintf(why, len, "%s does not follow it: %s", be->name, src);
    gpuk_context_close(ctx);
    return ok ? 0 : -1;
}

int tune_write(bench *b, const char *path)
{
    tbuf t = {0};
    int counts[B_MAX_BACKENDS] = {0};
    for (int i = 0; i < b->n_be; i++) {
        const bbackend *be = &b->be[i];
        if (!be->ctx)
            continue;
        size_t start = t.n;
        put(&t, "gpuk-wisdom 1\nlibrary %s\nbackend %s %s\ndevice %d %s\nthreads %d\n",
            gpuk_version(), be->info.backend, be->info.backend_version,
            be->info.multiprocessors, be->info.device, be->info.num_threads);
        put(&t, "# gpuk-bench --tune, %s: the fastest rung of every op, dtype and shape class "
            "measured\n", b->date);
        counts[i] = backend_entries(b, i, &t);
        if (t.oom)
            break;
        put(&t, "end %d %016llx\n", counts[i],
            (unsigned long long)fnv1a64(t.s + start, t.n - start));
    }
    if (t.oom || !t.s) {
        fprintf(stderr, "gpuk-bench: --tune: %s\n",
                t.oom ? "out of memory for the wisdom" : "no backend opened");
        free(t.s);
        return -1;
    }
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    int bad = !f || fwrite(t.s, 1, t.n, f) != t.n;
    if (f && fclose(f) != 0)
        bad = 1;
    free(t.s);
    if (bad || rename(tmp, path) != 0) {
        perror(path);
        unlink(tmp);
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < b->n_be; i++) {
        char why[1200];
        if (!b->be[i].ctx)
            continue;
        if (confirm(&b->be[i], path, why, sizeof why)) {
            fprintf(stderr, "gpuk-bench: --tune: wrote %s, but %s\n", path, why);
            rc = -1;
        } else if (!b->conf.quiet) {
            fprintf(stderr, "gpuk-bench: --tune: %s: %d entries for %s on %s\n", path,
                    counts[i], b->be[i].name, b->be[i].info.device);
        }
    }
    if (!rc && !b->conf.quiet)
        fprintf(stderr, "gpuk-bench: --tune: \"auto\" follows it with GPUK_WISDOM=%s\n", path);
    return rc;
}

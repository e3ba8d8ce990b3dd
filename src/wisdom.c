/*
 * wisdom.c - reading a wisdom file: the rungs measured fastest on this
 * machine, per (op, dtype, shape class), which "auto" follows before the
 * backend's built-in rules (doc/design.md, "Choosing a rung").  gpuk-bench
 * --tune writes them; the format is in gpuk(7), FILES.
 *
 * Nothing in a wisdom file is trusted blindly.  The file is one or more
 * sections, each a header (magic and format, library version, backend
 * name and plugin version, device name and core/SM count, threads), its
 * entries, and an end line with the entry count and the FNV-1a 64 hash of
 * every byte before it in the section.  Any damage anywhere (a flipped
 * bit, a cut, a line out of place) rejects the whole file; so does a
 * section for this backend written by another library or plugin version,
 * on another device or thread count, or naming a rung the plugin does not
 * have (or a TF32 one: reduced precision is only ever asked for by name).
 * The caller (context.c) logs why and falls back to the built-in rules.
 */
#include "gpuk_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GK_WISDOM_MAGIC "gpuk-wisdom"
#define GK_WISDOM_FORMAT 1
#define GK_WISDOM_MAX_BYTES ((long)1 << 20)
#define GK_WISDOM_MAX_CLASS 127

typedef struct gk_wisdom_entry {
    gpuk_op op;
    gpuk_dtype dtype;
    int cls;
    const char *variant;   /* the plugin row's own name (an alias is resolved) */
} gk_wisdom_entry;

struct gk_wisdom {
    size_t n;
    gk_wisdom_entry *e;
};

uint64_t gk_fnv1a64(const void *data, size_t len)
{
    const unsigned char *p = data;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

/* One line of the buffer: [at, end) without its newline; *next is the
 * first byte of the following line.  0 when the line has no newline (the
 * file was cut). */
static int next_line(const char *buf, size_t len, size_t at, size_t *end, size_t *next)
{
    const char *nl = memchr(buf + at, '\n', len - at);
    if (!nl)
        return 0;
    *end = (size_t)(nl - buf);
    *next = *end + 1;
    return 1;
}

/* A section as found: where its bytes and lines are. */
typedef struct section {
    size_t start, hdr_end;    /* first byte; first byte after the header's 5 lines */
    size_t body_end;          /* first byte of the end line */
    char library[64], backend[64], version[64], device[128];
    long cores, threads;
    size_t entries;
} section;

/* "WORD rest" -> rest, when the line starts with the word and a space. */
static const char *after_word(const char *line, const char *word)
{
    size_t n = strlen(word);
    return strncmp(line, word, n) == 0 && line[n] == ' ' ? line + n + 1 : NULL;
}

/* A whole decimal number in [lo, hi]. */
static int parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    if (*s < '0' || *s > '9')
        return 0;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return 0;
    *out = v;
    return 1;
}

static void copy_field(char *dst, size_t len, const char *src, int *too_long)
{
    size_t n = strlen(src);
    if (n >= len) {
        *too_long = 1;
        n = len - 1;
    }
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* Read one section's header, find its end line, check the count and the
 * hash.  *at moves past the end line.  0 with why on any damage. */
static int read_section(const char *buf, size_t len, size_t *at, int nsec, section *s,
                        char *why, size_t wl)
{
    char line[512];
    size_t end, next, pos = *at;
    memset(s, 0, sizeof *s);
    s->start = pos;
    static const char *const head[] = {GK_WISDOM_MAGIC, "library", "backend", "device",
                                       "threads"};
    for (int i = 0; i < 5; i++) {
        if (!next_line(buf, len, pos, &end, &next)) {
            snprintf(why, wl, "truncated: section %d ends inside its header", nsec);
            return 0;
        }
        if (end - pos >= sizeof line) {
            snprintf(why, wl, "corrupt: section %d has an overlong header line", nsec);
            return 0;
        }
        memcpy(line, buf + pos, end - pos);
        line[end - pos] = '\0';
        pos = next;
        const char *v = after_word(line, head[i]);
        int too_long = 0, ok = v != NULL;
        if (i == 0 && !ok) {
            if (nsec == 1)
                snprintf(why, wl, "not a wisdom file (it does not start with '%s')",
                         GK_WISDOM_MAGIC);
            else
                snprintf(why, wl, "corrupt: junk after the end line of section %d", nsec - 1);
            return 0;
        }
        long fmt = 0;
        switch (i) {
        case 0:
            if (!parse_long(v, 0, 1000000, &fmt) || fmt != GK_WISDOM_FORMAT) {
                snprintf(why, wl, "format '%.40s' of section %d, this libgpuk reads format %d",
                         v, nsec, GK_WISDOM_FORMAT);
                return 0;
            }
            break;
        case 1:
            if (ok)
                copy_field(s->library, sizeof s->library, v, &too_long);
            break;
        case 2:
            if (ok) {
                const char *sp = strchr(v, ' ');
                ok = sp && sp > v && sp[1];
                if (ok) {
                    char name[64];
                    snprintf(name, sizeof name, "%.*s", (int)(sp - v), v);
                    too_long = (size_t)(sp - v) >= sizeof name;
                    copy_field(s->backend, sizeof s->backend, name, &too_long);
                    copy_field(s->version, sizeof s->version, sp + 1, &too_long);
                }
            }
            break;
        case 3:
            if (ok) {
                char num[24];
                const char *sp = strchr(v, ' ');
                ok = sp && sp > v && sp[1] && (size_t)(sp - v) < sizeof num;
                if (ok) {
                    snprintf(num, sizeof num, "%.*s", (int)(sp - v), v);
                    ok = parse_long(num, 0, 1L << 30, &s->cores);
                    copy_field(s->device, sizeof s->device, sp + 1, &too_long);
                }
            }
            break;
        case 4:
            ok = ok && parse_long(v, 0, 1L << 30, &s->threads);
            break;
        }
        if (!ok || too_long) {
            snprintf(why, wl, "corrupt: line %d of section %d is not a valid '%s' line", i + 1,
                     nsec, head[i]);
            return 0;
        }
    }
    s->hdr_end = pos;
    /* the body: entries and comments, up to the end line */
    for (;;) {
        if (pos == len || !next_line(buf, len, pos, &end, &next)) {
            snprintf(why, wl, "truncated: section %d has no end line", nsec);
            return 0;
        }
        if (end - pos >= 4 && memcmp(buf + pos, "end ", 4) == 0)
            break;
        if (buf[pos] != '#')
            s->entries++;
        pos = next;
    }
    s->body_end = pos;
    if (end - pos >= sizeof line) {
        snprintf(why, wl, "corrupt: the end line of section %d is overlong", nsec);
        return 0;
    }
    memcpy(line, buf + pos, end - pos);
    line[end - pos] = '\0';
    char count[24], hex[24];
    const char *v = line + 4, *sp = strchr(v, ' ');
    long n = -1;
    if (!sp || (size_t)(sp - v) >= sizeof count || strlen(sp + 1) != 16) {
        snprintf(why, wl, "corrupt: the end line of section %d is not 'end COUNT HASH'", nsec);
        return 0;
    }
    snprintf(count, sizeof count, "%.*s", (int)(sp - v), v);
    snprintf(hex, sizeof hex, "%s", sp + 1);
    for (const char *h = hex; *h; h++)
        if (!((*h >= '0' && *h <= '9') || (*h >= 'a' && *h <= 'f'))) {
            snprintf(why, wl, "corrupt: the hash of section %d is not 16 lower-case hex digits",
                     nsec);
            return 0;
        }
    if (!parse_long(count, 0, 1L << 30, &n)) {
        snprintf(why, wl, "corrupt: the end line of section %d has no entry count", nsec);
        return 0;
    }
    uint64_t want = strtoull(hex, NULL, 16);
    uint64_t got = gk_fnv1a64(buf + s->start, s->body_end - s->start);
    if (got != want) {
        snprintf(why, wl, "corrupt: section %d hashes to %016llx, its end line says %s "
                 "(a changed byte, or an edit by hand)", nsec, (unsigned long long)got, hex);
        return 0;
    }
    if ((size_t)n != s->entries) {
        snprintf(why, wl, "corrupt: section %d has %zu entries, its end line says %ld", nsec,
                 s->entries, n);
        return 0;
    }
    *at = next;
    return 1;
}

static const gpuk_kernel *find_row(const gpuk_context *ctx, gpuk_op op, gpuk_dtype dtype,
                                   const char *name)
{
    for (size_t i = 0; i < ctx->plugin->n_rows; i++) {
        const gpuk_kernel *k = &ctx->plugin->rows[i];
        if (k->op == op && (k->dtypes & GPUK_DTYPE_BIT(dtype)) &&
            (strcmp(k->variant, name) == 0 || (k->alias && strcmp(k->alias, name) == 0)))
            return k;
    }
    return NULL;
}

/* The entries of the chosen section, each checked against the plugin. */
static gk_wisdom *read_entries(const gpuk_context *ctx, const char *buf, const section *s,
                               int nsec, char *why, size_t wl)
{
    gk_wisdom *w = calloc(1, sizeof *w);
    if (!w || !(w->e = calloc(s->entries ? s->entries : 1, sizeof *w->e))) {
        free(w);
        snprintf(why, wl, "out of host memory reading it");
        return NULL;
    }
    size_t pos = s->hdr_end, end = 0, next = 0;
    int lineno = 6;
    /* read_section found a newline ending every line before the end line */
    while (pos < s->body_end && next_line(buf, s->body_end, pos, &end, &next)) {
        char line[256], op_s[64], dt_s[16], cls_s[16], var_s[64], extra[2];
        /* a comment may be of any length (gpuk-tune lists every rung's
         * time in one); an entry fits in line */
        if (buf[pos] == '#') {
            pos = next;
            lineno++;
            continue;
        }
        int bad = end - pos >= sizeof line;
        if (!bad) {
            memcpy(line, buf + pos, end - pos);
            line[end - pos] = '\0';
        }
        pos = next;
        gk_wisdom_entry *e = &w->e[w->n];
        long cls = -1;
        bad = bad || sscanf(line, "%63s %15s %15s %63s %1s", op_s, dt_s, cls_s, var_s, extra) != 4;
        bad = bad || gpuk_op_from_name(op_s, &e->op) != GPUK_OK ||
              gpuk_dtype_from_name(dt_s, &e->dtype) != GPUK_OK ||
              !parse_long(cls_s, 0, GK_WISDOM_MAX_CLASS, &cls);
        if (bad) {
            snprintf(why, wl, "corrupt: line %d of section %d is not 'OP DTYPE CLASS VARIANT' "
                     "with a known op, a known dtype and a class in 0..%d", lineno, nsec,
                     GK_WISDOM_MAX_CLASS);
            gk_wisdom_free(w);
            return NULL;
        }
        e->cls = (int)cls;
        const gpuk_kernel *k = find_row(ctx, e->op, e->dtype, var_s);
        if (!k) {
            snprintf(why, wl, "it names %s/%s for %s, which backend %s %s does not have (line "
                     "%d of section %d)", op_s, var_s, dt_s, ctx->be->name, ctx->be->version,
                     lineno, nsec);
            gk_wisdom_free(w);
            return NULL;
        }
        if (k->flags & GPUK_KF_TF32) {
            snprintf(why, wl, "it names %s/%s, a TF32 rung, which only a call that names it "
                     "runs (line %d of section %d)", op_s, var_s, lineno, nsec);
            gk_wisdom_free(w);
            return NULL;
        }
        for (size_t j = 0; j < w->n; j++)
            if (w->e[j].op == e->op && w->e[j].dtype == e->dtype && w->e[j].cls == e->cls) {
                snprintf(why, wl, "corrupt: %s %s class %ld has two entries (line %d of "
                         "section %d)", op_s, dt_s, cls, lineno, nsec);
                gk_wisdom_free(w);
                return NULL;
            }
        e->variant = k->variant;
        w->n++;
        lineno++;
    }
    return w;
}

/* Of the sections for this backend, the one that matches the context
 * best: the device too, else the first (to say what differs). */
static const section *pick(const gpuk_context *ctx, const section *v, int n)
{
    const section *first = NULL;
    for (int i = 0; i < n; i++) {
        if (strcmp(v[i].backend, ctx->be->name) != 0)
            continue;
        if (!first)
            first = &v[i];
        if (strcmp(v[i].device, ctx->dev.name) == 0 && v[i].cores == ctx->dev.multiprocessors &&
            v[i].threads == ctx->num_threads)
            return &v[i];
    }
    return first;
}

gk_wisdom *gk_wisdom_load(const gpuk_context *ctx, const char *path, char *why, size_t wl)
{
    why[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(why, wl, "cannot open it: %s", strerror(errno));
        return NULL;
    }
    char *buf = malloc((size_t)GK_WISDOM_MAX_BYTES + 1);
    if (!buf) {
        fclose(f);
        snprintf(why, wl, "out of host memory reading it");
        return NULL;
    }
    size_t len = fread(buf, 1, (size_t)GK_WISDOM_MAX_BYTES + 1, f);
    int err = ferror(f);
    fclose(f);
    gk_wisdom *w = NULL;
    enum { MAXSEC = 16 };
    section sec[MAXSEC];
    int nsec = 0;
    if (err) {
        snprintf(why, wl, "cannot read it");
        goto out;
    }
    if (len > (size_t)GK_WISDOM_MAX_BYTES) {
        snprintf(why, wl, "larger than %ld bytes: not a wisdom file", GK_WISDOM_MAX_BYTES);
        goto out;
    }
    if (len == 0) {
        snprintf(why, wl, "the file is empty");
        goto out;
    }
    if (memchr(buf, '\0', len)) {
        snprintf(why, wl, "corrupt: it holds a NUL byte, not text");
        goto out;
    }
    for (size_t at = 0; at < len;) {
        if (nsec == MAXSEC) {
            snprintf(why, wl, "more than %d sections", MAXSEC);
            goto out;
        }
        if (!read_section(buf, len, &at, nsec + 1, &sec[nsec], why, wl))
            goto out;
        nsec++;
    }
    const section *s = pick(ctx, sec, nsec);
    if (!s) {
        char have[256];
        size_t h = 0;
        have[0] = '\0';
        for (int i = 0; i < nsec && h < sizeof have; i++)
            h += (size_t)snprintf(have + h, sizeof have - h, "%s%s", i ? ", " : "",
                                  sec[i].backend);
        snprintf(why, wl, "it has no section for backend %s (it has: %s)", ctx->be->name, have);
        goto out;
    }
    if (strcmp(s->library, gpuk_version()) != 0) {
        snprintf(why, wl, "written by libgpuk %s, this is libgpuk %s", s->library,
                 gpuk_version());
        goto out;
    }
    if (strcmp(s->version, ctx->be->version) != 0) {
        snprintf(why, wl, "written for plugin %s %s, this is %s %s", s->backend, s->version,
                 ctx->be->name, ctx->be->version);
        goto out;
    }
    if (strcmp(s->device, ctx->dev.name) != 0 || s->cores != ctx->dev.multiprocessors) {
        snprintf(why, wl, "written on device '%s' with %ld %s, this is '%s' with %d",
                 s->device, s->cores, strcmp(s->backend, "cpu") == 0 ? "cores" : "SMs",
                 ctx->dev.name, ctx->dev.multiprocessors);
        goto out;
    }
    if (s->threads != ctx->num_threads) {
        snprintf(why, wl, "written with %ld threads, this context runs %d", s->threads,
                 ctx->num_threads);
        goto out;
    }
    w = read_entries(ctx, buf, s, (int)(s - sec) + 1, why, wl);
out:
    free(buf);
    return w;
}

void gk_wisdom_free(gk_wisdom *w)
{
    if (!w)
        return;
    free(w->e);
    free(w);
}

size_t gk_wisdom_count(const gk_wisdom *w)
{
    return w ? w->n : 0;
}

const char *gk_wisdom_lookup(const gk_wisdom *w, gpuk_op op, gpuk_dtype dtype, int cls)
{
    if (!w)
        return NULL;
    /* the exact class, else the nearest within 2, the smaller one first */
    static const int step[] = {0, -1, 1, -2, 2};
    for (size_t s = 0; s < sizeof step / sizeof step[0]; s++)
        for (size_t i = 0; i < w->n; i++)
            if (w->e[i].op == op && w->e[i].dtype == dtype && w->e[i].cls == cls + step[s])
                return w->e[i].variant;
    return NULL;
}

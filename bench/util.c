/*
 * util.c - small helpers of gpuk-bench: the host clock, the median,
 * number formatting, CSV/JSON quoting, comma lists, host facts, and an
 * aligned text table that also prints as markdown.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return 1e3 * (double)t.tv_sec + 1e-6 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts v in place. */
double median_of(double *v, int n)
{
    if (n <= 0)
        return NAN;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* sig significant digits, no exponent for everyday magnitudes; "" for NaN. */
void fmt_num(char *buf, size_t len, double v, int sig)
{
    if (isnan(v)) {
        buf[0] = '\0';
        return;
    }
    double a = fabs(v);
    if (a != 0 && (a >= 1e9 || a < 1e-4)) {
        snprintf(buf, len, "%.*g", sig, v);
        return;
    }
    int digits = 0;
    for (double t = a; t >= 1.0 && digits < 12; t /= 10)
        digits++;
    int dec = sig - digits;
    if (a > 0 && a < 1)
        for (double t = a; t < 0.1; t *= 10)
            dec++;
    else if (a == 0)
        dec = 0;
    snprintf(buf, len, "%.*f", dec < 0 ? 0 : dec, v);
}

void fmt_ms(char *buf, size_t len, double ms)
{
    fmt_num(buf, len, ms, 4);
}

void csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch == '\n')
            fputs("\\n", f);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

void json_number(FILE *f, double v)
{
    if (isnan(v) || isinf(v))
        fputs("null", f);
    else
        fprintf(f, "%.6g", v);
}

/* The 1-minute load average, NaN where /proc/loadavg is absent. */
double load_average(void)
{
    double v = NAN;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &v) != 1)
            v = NAN;
        fclose(f);
    }
    return v;
}

/* The CPU model, the online core count, the load and the date (UTC). */
void host_facts(bench *b)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(b->date, sizeof b->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    b->host_cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
    b->load_start = load_average();
    snprintf(b->cpu_model, sizeof b->cpu_model, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0)
            continue;
        char *p = strchr(line, ':');
        if (!p)
            continue;
        for (p++; isspace((unsigned char)*p); p++)
            ;
        p[strcspn(p, "\n")] = '\0';
        snprintf(b->cpu_model, sizeof b->cpu_model, "%s", p);
        break;
    }
    fclose(f);
}

/* argv[0] as the user typed it: a libtool wrapper in a build tree runs
 * DIR/.libs/gpuk-bench (or lt-gpuk-bench) for DIR/gpuk-bench. */
const char *program_path(const char *argv0, char *buf, size_t len)
{
    const char *libs = strstr(argv0, ".libs/");
    if (!libs)
        return argv0;
    const char *base = libs + 6;
    if (strncmp(base, "lt-", 3) == 0)
        base += 3;
    snprintf(buf, len, "%.*s%s", (int)(libs - argv0), argv0, base);
    return buf;
}

size_t list_count(const char *list)
{
    size_t n = 0;
    char buf[128];
    while (list_item(list, n, buf, sizeof buf))
        n++;
    return n;
}

int list_item(const char *list, size_t i, char *buf, size_t len)
{
    const char *p = list;
    if (!p)
        return 0;
    for (size_t at = 0; *p; at++) {
        size_t w = strcspn(p, ",");
        if (at == i) {
            if (w >= len)
                w = len - 1;
            memcpy(buf, p, w);
            buf[w] = '\0';
            return 1;
        }
        p += w;
        if (*p == ',')
            p++;
    }
    return 0;
}

int list_has(const char *list, const char *word)
{
    char buf[128];
    for (size_t i = 0; list_item(list, i, buf, sizeof buf); i++)
        if (strcmp(buf, word) == 0)
            return 1;
    return 0;
}

/* The ceilings: GPUK_PEAK_MAP's columns by position.  The short name is
 * the list's name up to its unit's suffix ("copy_gbs" -> "copy"), the name
 * the reports have always given a ceiling. */
static const struct {
    gpuk_peak kind;
    const char *name, *unit, *text;
} PEAK[PK_N] = {
#define B_PK_ROW(id, value, name, unit, text) {GPUK_PEAK_##id, name, unit, text},
    GPUK_PEAK_MAP(B_PK_ROW)
#undef B_PK_ROW
};

const char *peak_name(int pk)
{
    static char shortname[PK_N][48];
    if (pk < 0 || pk >= PK_N)
        return "?";
    if (!shortname[pk][0]) {
        const char *full = PEAK[pk].name, *cut = strrchr(full, '_');
        size_t n = cut ? (size_t)(cut - full) : strlen(full);
        snprintf(shortname[pk], sizeof shortname[pk], "%.*s", (int)n, full);
    }
    return shortname[pk];
}

const char *peak_unit(int pk)
{
    return pk >= 0 && pk < PK_N ? PEAK[pk].unit : "";
}

const char *peak_text(int pk)
{
    return pk >= 0 && pk < PK_N ? PEAK[pk].text : "";
}

gpuk_peak peak_kind(int pk)
{
    return PEAK[pk].kind;
}

int peak_is_compute(int pk)
{
    return pk >= 0 && pk < PK_N && strcmp(PEAK[pk].unit, "GB/s") != 0;
}

int dtype_from_name(const char *name, gpuk_dtype *out)
{
    return gpuk_dtype_from_name(name, out) == GPUK_OK;
}

/* ---- the text table ---- */

void tab_init(btab *t, int ncol, const char *const *head)
{
    memset(t, 0, sizeof *t);
    t->ncol = ncol;
    tab_add(t, head);
}

void tab_add(btab *t, const char *const *cells)
{
    if (t->nrow == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 32;
        char **nc = realloc(t->cell, cap * (size_t)t->ncol * sizeof *nc);
        if (!nc)
            return; /* the row is dropped; tab_print still prints the rest */
        t->cell = nc;
        t->cap = cap;
    }
    for (int j = 0; j < t->ncol; j++) {
        const char *s = cells[j] ? cells[j] : "";
        char *d = malloc(strlen(s) + 1);
        if (d)
            strcpy(d, s);
        t->cell[t->nrow * (size_t)t->ncol + (size_t)j] = d;
    }
    t->nrow++;
}

/* Width in characters, counting a UTF-8 sequence as one (and the
 * backslash markdown needs before a '|'). */
static size_t text_width(const char *s, int md)
{
    size_t w = 0;
    for (; s && *s; s++)
        w += (((unsigned char)*s & 0xC0) != 0x80) + (md && *s == '|');
    return w;
}

static void put_cell(FILE *f, const char *s, int md)
{
    for (; *s; s++) {
        if (md && *s == '|')
            fputc('\\', f);
        fputc(*s, f);
    }
}

void tab_print(const btab *t, FILE *f, int md)
{
    size_t width[16] = {0};
    int nc = t->ncol < 16 ? t->ncol : 16;
    for (size_t i = 0; i < t->nrow; i++)
        for (int j = 0; j < nc; j++) {
            size_t w = text_width(t->cell[i * (size_t)t->ncol + (size_t)j], md);
            if (w > width[j])
                width[j] = w;
        }
    char *line = NULL;
    size_t cap = 0;
    FILE *mf = open_memstream(&line, &cap);
    if (!mf)
        return;
    for (size_t i = 0; i < t->nrow; i++) {
        rewind(mf);
        for (int j = 0; j < nc; j++) {
            const char *s = t->cell[i * (size_t)t->ncol + (size_t)j];
            s = s ? s : "";
            size_t pad = width[j] - text_width(s, md);
            if (md)
                fputs(j ? " | " : "| ", mf);
            else if (j)
                fputs("  ", mf);
            if (t->right[j] && i > 0)
                fprintf(mf, "%*s", (int)pad, "");
            put_cell(mf, s, md);
            if (!(t->right[j] && i > 0))
                fprintf(mf, "%*s", (int)pad, "");
        }
        fputc('\0', mf);
        fflush(mf);
        size_t n = strlen(line);
        while (!md && n > 0 && line[n - 1] == ' ')
            n--; /* no trailing blanks after an empty last cell */
        fprintf(f, "%.*s%s", (int)n, line, md ? " |\n" : "\n");
        if (md && i == 0) {
            for (int j = 0; j < nc; j++) {
                fputs(j ? " | " : "| ", f);
                for (size_t q = 0; q < (width[j] ? width[j] : 1); q++)
                    fputc(q + 1 == width[j] && t->right[j] ? ':' : '-', f);
            }
            fputs(" |\n", f);
        }
    }
    fclose(mf);
    free(line);
}

void tab_free(btab *t)
{
    for (size_t i = 0; i < t->nrow * (size_t)t->ncol; i++)
        free(t->cell[i]);
    free(t->cell);
    memset(t, 0, sizeof *t);
}

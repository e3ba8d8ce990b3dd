/*
 * summary.c - CPU vs GPU: per op and size, the best CPU rung against the
 * best rung of the device backend, the device time with and without the
 * host<->device transfers of the inputs and the output, and the crossover
 * size from which the device wins counting transfers.
 *
 * "Best" skips TF32 rungs: they trade precision for speed, so they are
 * shown in the rung tables but do not stand for FP32 in this comparison.
 *
 * spmv on each of its matrices is a series of its own (headline row,
 * crossover), as different a workload as another op; so is an op in each
 * of its dtypes.  The auto rows are not rungs: they never stand as a
 * backend's best.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* One size of one op, both sides. */
typedef struct point {
    int size_idx;
    double work;
    const brow *host, *dev;   /* best rows; NULL when none ran */
    double dev_total;         /* device kernel + transfers from pageable memory */
    double dev_total_pinned;  /* device kernel + transfers from gpuk_host_alloc memory */
} point;

static int host_backend(const bench *b)
{
    for (int i = 0; i < b->n_be; i++)
        if (b->be[i].ctx && !strcmp(b->be[i].name, "cpu"))
            return i;
    return -1;
}

static int device_backend(const bench *b)
{
    for (int i = 0; i < b->n_be; i++)
        if (b->be[i].ctx && strcmp(b->be[i].name, "cpu") != 0)
            return i;
    return -1;
}

static const brow *best(const bench *b, int be, gpuk_op op, int size_idx)
{
    const brow *r = NULL;
    for (size_t i = 0; i < b->n_rows; i++) {
        const brow *o = &b->rows[i];
        if (o->be != be || o->op != op || o->size_idx != size_idx || o->status != ROW_OK ||
            (o->flags & GPUK_VARIANT_TF32) || o->is_auto)
            continue;
        if (!r || o->ms_med < r->ms_med)
            r = o;
    }
    return r;
}

static int by_work(const void *a, const void *b)
{
    double x = ((const point *)a)->work, y = ((const point *)b)->work;
    return (x > y) - (x < y);
}

/* A series: the sizes of one op on one matrix in one dtype. */
typedef struct series {
    int matrix;
    gpuk_dtype dtype;
} series;

/* The series op ran, in the order of their first rows: one for every op
 * but spmv (one per matrix) in each dtype. */
static int series_of(const bench *b, gpuk_op op, series *out)
{
    int n = 0;
    for (size_t i = 0; i < b->n_rows && n < MAT_N * 32; i++) {
        const brow *r = &b->rows[i];
        int seen = 0;
        for (int j = 0; j < n; j++)
            seen |= out[j].matrix == r->matrix && out[j].dtype == r->dtype;
        if (r->op == op && !seen)
            out[n++] = (series){r->matrix, r->dtype};
    }
    return n;
}

/* "spmv powerlaw", "minplus i32": the op, the matrix where it is not the
 * only one, the dtype where it is not f32. */
static void series_name(char *buf, size_t len, gpuk_op op, series sr)
{
    snprintf(buf, len, "%s%s%s%s%s", gpuk_op_name(op),
             op == GPUK_OP_SPMV && sr.matrix != MAT_RANDOM ? " " : "",
             op == GPUK_OP_SPMV && sr.matrix != MAT_RANDOM ? case_matrix_name(sr.matrix) : "",
             sr.dtype != GPUK_F32 ? " " : "", sr.dtype != GPUK_F32 ? gpuk_dtype_name(sr.dtype) : "");
}

/* The sizes of a series, ordered by work, with each side's best row. */
static int points(const bench *b, gpuk_op op, series sr, int h, int d, point *p, int max)
{
    int n = 0;
    for (size_t i = 0; i < b->n_rows && n < max; i++) {
        const brow *r = &b->rows[i];
        int seen = 0;
        for (int j = 0; j < n; j++)
            seen |= p[j].size_idx == r->size_idx;
        if (r->op != op || r->matrix != sr.matrix || r->dtype != sr.dtype || seen)
            continue;
        point *q = &p[n++];
        q->size_idx = r->size_idx;
        q->work = r->work;
        q->host = h >= 0 ? best(b, h, op, r->size_idx) : NULL;
        q->dev = d >= 0 ? best(b, d, op, r->size_idx) : NULL;
        q->dev_total = q->dev ? q->dev->ms_med + q->dev->xfer_in_ms + q->dev->xfer_out_ms : NAN;
        q->dev_total_pinned =
            q->dev ? q->dev->ms_med + q->dev->xfer_in_pin_ms + q->dev->xfer_out_pin_ms : NAN;
    }
    qsort(p, (size_t)n, sizeof *p, by_work);
    return n;
}

/* The smallest size from which the device is faster at every larger
 * measured size; with_xfer counts the transfers. */
static void crossover(const point *p, int n, int with_xfer, char *buf, size_t len)
{
    int last = -1, first = -1, from = -1;
    for (int i = 0; i < n; i++) {
        if (!p[i].host || !p[i].dev)
            continue;
        double dev = with_xfer ? p[i].dev_total : p[i].dev->ms_med;
        if (first < 0)
            first = i;
        last = i;
        if (dev < p[i].host->ms_med) {
            if (from < 0)
                from = i;
        } else {
            from = -1;
        }
    }
    if (last < 0)
        snprintf(buf, len, "n/a");
    else if (from < 0)
        snprintf(buf, len, "none up to %s", p[last].host->shape);
    else if (from == first)
        snprintf(buf, len, "%s or smaller", p[from].host->shape);
    else
        snprintf(buf, len, "%s", p[from].host->shape);
}

static void best_cell(char *buf, size_t len, const brow *r)
{
    if (!r) {
        buf[0] = '\0';
        return;
    }
    char ms[32];
    fmt_ms(ms, sizeof ms, r->ms_med);
    snprintf(buf, len, "%s %s", r->variant, ms);
}

static void pct_cell(char *buf, size_t len, const brow *r)
{
    if (r && !isnan(r->pct))
        snprintf(buf, len, "%.1f%% %s", r->pct, r->ceiling);
    else
        buf[0] = '\0';
}

static void speedup(char *buf, size_t len, double num, double den)
{
    char v[24];
    fmt_num(v, sizeof v, num / den, 3);
    if (isnan(num) || isnan(den) || !(den > 0))
        buf[0] = '\0';
    else
        snprintf(buf, len, "%s\xC3\x97", v);
}

/* Only the columns of the sides that ran: a CPU-only run still gets its
 * headline of best rungs. */
void summary_table(bench *b, FILE *f, int md)
{
    int h = host_backend(b), d = device_backend(b);
    const char *hn = h >= 0 ? b->be[h].name : "cpu";
    const char *dn = d >= 0 ? b->be[d].name : "gpu";
    char hb[64], hp[64], db[64], dp[64], tot[64], totp[80], x1[64];
    snprintf(hb, sizeof hb, "best %.40s (ms)", hn);
    snprintf(hp, sizeof hp, "%.40s %% ceiling", hn);
    snprintf(db, sizeof db, "best %.40s (ms)", dn);
    snprintf(dp, sizeof dp, "%.40s %% ceiling", dn);
    snprintf(tot, sizeof tot, "%.40s + transfers (ms)", dn);
    snprintf(totp, sizeof totp, "%.40s + host_alloc transfers (ms)", dn);
    snprintf(x1, sizeof x1, "%.40s speedup", dn);
    /* transfers twice: from ordinary (pageable) buffers, and from
     * gpuk_host_alloc memory, the DMA engine's own */
    const char *all_head[] = {"op", "shape", hb, hp, db, dp, "transfers in+out (ms)", tot,
                              "host_alloc in+out (ms)", totp, x1, "with transfers",
                              "with host_alloc transfers"};
    enum { NCOL = 13 };
    int use[NCOL], nc = 0;
    for (int i = 0; i < NCOL; i++)
        if (i < 2 || (i < 4 && h >= 0) || (i >= 4 && i < 10 && d >= 0) ||
            (i >= 10 && h >= 0 && d >= 0))
            use[nc++] = i;
    const char *head[NCOL];
    for (int i = 0; i < nc; i++)
        head[i] = all_head[use[i]];
    enum { MAXP = B_MAX_SIZES * 4 };

    for (int pass = 0; pass < 2; pass++) {
        btab t;
        tab_init(&t, nc, head);
        for (int i = 0; i < nc; i++)
            t.right[i] = use[i] >= 6;
        for (int op = GPUK_OP_FIRST; op <= GPUK_OP_LAST; op++) {
            series ser[MAT_N * 32];
            int nm = series_of(b, (gpuk_op)op, ser);
            for (int sr = 0; sr < nm; sr++) {
                point p[MAXP];
                int n = points(b, (gpuk_op)op, ser[sr], h, d, p, MAXP);
                /* pass 0, the headline: the largest size both sides ran, else
                 * the largest either ran; pass 1: every size */
                int lo = 0, hi = n;
                if (!pass) {
                    lo = n - 1;
                    while (lo >= 0 && !(p[lo].host && p[lo].dev))
                        lo--;
                    if (lo < 0)
                        for (lo = n - 1; lo >= 0 && !p[lo].host && !p[lo].dev;)
                            lo--;
                    hi = lo + 1;
                }
                for (int i = lo < 0 ? n : lo; i < hi; i++) {
                    const point *q = &p[i];
                    const brow *any = q->host ? q->host : q->dev;
                    if (!any)
                        continue;
                    char c[NCOL][96];
                    snprintf(c[0], 96, "%s", gpuk_op_name((gpuk_op)op));
                    if (ser[sr].dtype != GPUK_F32)
                        snprintf(c[0], 96, "%s %s", gpuk_op_name((gpuk_op)op),
                                 gpuk_dtype_name(ser[sr].dtype));
                    snprintf(c[1], 96, "%s", any->shape);
                    best_cell(c[2], 96, q->host);
                    pct_cell(c[3], 96, q->host);
                    best_cell(c[4], 96, q->dev);
                    pct_cell(c[5], 96, q->dev);
                    c[6][0] = c[7][0] = c[8][0] = c[9][0] = '\0';
                    if (q->dev) {
                        fmt_ms(c[6], 96, q->dev->xfer_in_ms + q->dev->xfer_out_ms);
                        fmt_ms(c[7], 96, q->dev_total);
                        if (!isnan(q->dev_total_pinned)) {
                            fmt_ms(c[8], 96, q->dev->xfer_in_pin_ms + q->dev->xfer_out_pin_ms);
                            fmt_ms(c[9], 96, q->dev_total_pinned);
                        }
                    }
                    speedup(c[10], 96, q->host ? q->host->ms_med : NAN,
                            q->dev ? q->dev->ms_med : NAN);
                    speedup(c[11], 96, q->host ? q->host->ms_med : NAN, q->dev_total);
                    speedup(c[12], 96, q->host ? q->host->ms_med : NAN, q->dev_total_pinned);
                    const char *cells[NCOL];
                    for (int j = 0; j < nc; j++)
                        cells[j] = c[use[j]];
                    tab_add(&t, cells);
                }
            }
        }
        if (pass == 0 && (h < 0 || d < 0))
            fprintf(f, md ? "\n## Headline: best %s rung, largest size of each op\n\n"
                          : "\n== headline: best %s rung, largest size of each op ==\n",
                    h >= 0 ? hn : dn);
        else if (pass == 0)
            fprintf(f, md ? "\n## Headline: best %s vs best %s, largest size of each op\n\n"
                          : "\n== headline: best %s vs best %s, largest size of each op ==\n",
                    hn, dn);
        else
            fprintf(f, md ? "\n## %s vs %s at every size\n\n" : "\n== %s vs %s at every size ==\n",
                    hn, dn);
        tab_print(&t, f, md);
        tab_free(&t);
        if (h < 0 || d < 0) {
            fprintf(f, "%s(one backend ran: no CPU-vs-GPU comparison)\n", md ? "\n" : "");
            return;
        }
    }

    static const char *const chead[] = {"op", "device faster (kernel only) from",
                                        "device faster counting transfers from"};
    btab t;
    tab_init(&t, 3, chead);
    for (int op = GPUK_OP_FIRST; op <= GPUK_OP_LAST; op++) {
        series ser[MAT_N * 32];
        int nm = series_of(b, (gpuk_op)op, ser);
        for (int sr = 0; sr < nm; sr++) {
            point p[MAXP];
            int n = points(b, (gpuk_op)op, ser[sr], h, d, p, MAXP);
            if (!n)
                continue;
            char name[64], k[96], x[96];
            series_name(name, sizeof name, (gpuk_op)op, ser[sr]);
            crossover(p, n, 0, k, sizeof k);
            crossover(p, n, 1, x, sizeof x);
            const char *cells[] = {name, k, x};
            tab_add(&t, cells);
        }
    }
    fprintf(f, md ? "\n## Crossover: %s vs %s\n\n" : "\n== crossover: %s vs %s ==\n", dn, hn);
    tab_print(&t, f, md);
    tab_free(&t);
}

static void jnum(FILE *f, const char *k, double v)
{
    fprintf(f, ", \"%s\": ", k);
    json_number(f, v);
}

/* spmv's entries say which matrix, as its rows do; every entry its dtype. */
static void json_matrix(FILE *f, gpuk_op op, series sr)
{
    if (op == GPUK_OP_SPMV)
        fprintf(f, "\"matrix\": \"%s\", ", case_matrix_name(sr.matrix));
    fprintf(f, "\"dtype\": \"%s\", ", gpuk_dtype_name(sr.dtype));
}

void summary_json(bench *b, FILE *f)
{
    int h = host_backend(b), d = device_backend(b);
    enum { MAXP = B_MAX_SIZES * 4 };
    fputs("  \"summary\": [", f);
    int first = 1;
    for (int op = GPUK_OP_FIRST; op <= GPUK_OP_LAST; op++) {
        series ser[MAT_N * 32];
        int nm = series_of(b, (gpuk_op)op, ser);
        for (int sr = 0; sr < nm; sr++) {
            point p[MAXP];
            int n = points(b, (gpuk_op)op, ser[sr], h, d, p, MAXP);
            for (int i = 0; i < n; i++) {
                const brow *any = p[i].host ? p[i].host : p[i].dev;
                if (!any)
                    continue;
                fprintf(f, "%s\n    {\"op\": \"%s\", ", first ? "" : ",",
                        gpuk_op_name((gpuk_op)op));
                first = 0;
                json_matrix(f, (gpuk_op)op, ser[sr]);
                fputs("\"shape\": ", f);
                json_string(f, any->shape);
                fputs(", \"host_backend\": ", f);
                json_string(f, h >= 0 ? b->be[h].name : "");
                fputs(", \"host_variant\": ", f);
                json_string(f, p[i].host ? p[i].host->variant : "");
                jnum(f, "host_ms", p[i].host ? p[i].host->ms_med : NAN);
                jnum(f, "host_pct_ceiling", p[i].host ? p[i].host->pct : NAN);
                fputs(",\n     \"device_backend\": ", f);
                json_string(f, d >= 0 ? b->be[d].name : "");
                fputs(", \"device_variant\": ", f);
                json_string(f, p[i].dev ? p[i].dev->variant : "");
                jnum(f, "device_ms", p[i].dev ? p[i].dev->ms_med : NAN);
                jnum(f, "device_pct_ceiling", p[i].dev ? p[i].dev->pct : NAN);
                jnum(f, "xfer_in_ms", p[i].dev ? p[i].dev->xfer_in_ms : NAN);
                jnum(f, "xfer_out_ms", p[i].dev ? p[i].dev->xfer_out_ms : NAN);
                jnum(f, "device_with_transfers_ms", p[i].dev_total);
                jnum(f, "xfer_in_host_alloc_ms", p[i].dev ? p[i].dev->xfer_in_pin_ms : NAN);
                jnum(f, "xfer_out_host_alloc_ms", p[i].dev ? p[i].dev->xfer_out_pin_ms : NAN);
                jnum(f, "device_with_host_alloc_transfers_ms", p[i].dev_total_pinned);
                fputs("}", f);
            }
        }
    }
    fputs("\n  ],\n  \"crossover\": [", f);
    first = 1;
    for (int op = GPUK_OP_FIRST; op <= GPUK_OP_LAST && h >= 0 && d >= 0; op++) {
        series ser[MAT_N * 32];
        int nm = series_of(b, (gpuk_op)op, ser);
        for (int sr = 0; sr < nm; sr++) {
            point p[MAXP];
            int n = points(b, (gpuk_op)op, ser[sr], h, d, p, MAXP);
            if (!n)
                continue;
            char k[96], x[96];
            crossover(p, n, 0, k, sizeof k);
            crossover(p, n, 1, x, sizeof x);
            fprintf(f, "%s\n    {\"op\": \"%s\", ", first ? "" : ",", gpuk_op_name((gpuk_op)op));
            first = 0;
            json_matrix(f, (gpuk_op)op, ser[sr]);
            fputs("\"kernel_only\": ", f);
            json_string(f, k);
            fputs(", \"with_transfers\": ", f);
            json_string(f, x);
            fputs("}", f);
        }
    }
    fputs("\n  ]\n", f);
}

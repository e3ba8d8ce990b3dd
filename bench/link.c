/*
 * link.c - the host<->device link alone, for each backend that has one
 * (a measured H2D ceiling): gpuk_tensor_write and gpuk_tensor_read of one
 * tensor at a few sizes, from ordinary (pageable) memory, which the
 * backend stages through its page-locked pool, and from gpuk_host_alloc
 * memory, which goes straight to the DMA engine.  Set against the raw
 * page-locked rate of the same run (the h2d and d2h ceilings), they show
 * what staging costs and what the pool recovers (doc/design.md, "Data in
 * and out").
 *
 * Host clock: write + gpuk_sync (a staged write returns before its last
 * DMA lands) and read, each the best of a few after one warm-up, which
 * absorbs the pool's page-locking and the buffers' first touch.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static const size_t quick_sizes[] = {(size_t)1 << 20, (size_t)16 << 20, (size_t)64 << 20};
static const size_t full_sizes[] = {(size_t)1 << 20, (size_t)16 << 20, (size_t)256 << 20,
                                    (size_t)1 << 30};

/* Best of reps of write + sync (to_device) or read, in GB/s. */
static double rate(gpuk_context *ctx, gpuk_tensor *t, void *host, size_t bytes, int to_device,
                   int reps, gpuk_status *st)
{
    double best = INFINITY;
    for (int r = 0; r <= reps && *st == GPUK_OK; r++) {
        double t0 = now_ms();
        if (to_device) {
            *st = gpuk_tensor_write(ctx, t, host, bytes);
            if (*st == GPUK_OK)
                *st = gpuk_sync(ctx);
        } else {
            *st = gpuk_tensor_read(ctx, t, host, bytes);
        }
        double ms = now_ms() - t0;
        if (r > 0 && ms < best)   /* r == 0 warms up */
            best = ms;
    }
    return *st == GPUK_OK ? (double)bytes / (best * 1e-3) / 1e9 : NAN;
}

static void one_size(bench *b, int bi, size_t bytes)
{
    bbackend *be = &b->be[bi];
    blink *l = &b->links[b->n_links++];
    memset(l, 0, sizeof *l);
    l->be = bi;
    l->bytes = bytes;
    l->h2d = l->h2d_pinned = l->d2h = l->d2h_pinned = NAN;
    int64_t n = (int64_t)(bytes / sizeof(float));
    gpuk_tensor *t = NULL;
    void *pinned = NULL;
    char *pageable = malloc(bytes);
    gpuk_status st = pageable ? gpuk_tensor_create(be->ctx, GPUK_F32, 1, &n, &t)
                              : GPUK_ERR_NO_MEMORY;
    int reps = b->conf.quick ? 3 : 5;
    if (st == GPUK_OK) {
        memset(pageable, 0x3c, bytes);   /* touched: no first-touch faults in the timing */
        l->h2d = rate(be->ctx, t, pageable, bytes, 1, reps, &st);
    }
    if (st == GPUK_OK)
        l->d2h = rate(be->ctx, t, pageable, bytes, 0, reps, &st);
    if (st != GPUK_OK)
        api_error(l->msg, sizeof l->msg, be->ctx, "pageable transfer", st);
    gpuk_status ps = st == GPUK_OK ? gpuk_host_alloc(be->ctx, bytes, &pinned) : st;
    if (ps == GPUK_OK) {
        memset(pinned, 0x3c, bytes);
        l->h2d_pinned = rate(be->ctx, t, pinned, bytes, 1, reps, &ps);
        if (ps == GPUK_OK)
            l->d2h_pinned = rate(be->ctx, t, pinned, bytes, 0, reps, &ps);
    }
    if (ps != GPUK_OK && st == GPUK_OK)
        api_error(l->msg, sizeof l->msg, be->ctx, "gpuk_host_alloc transfer", ps);
    gpuk_host_free(be->ctx, pinned);
    gpuk_tensor_destroy(be->ctx, t);
    free(pageable);
}

void link_measure(bench *b)
{
    const size_t *sizes = b->conf.quick ? quick_sizes : full_sizes;
    size_t ns = b->conf.quick ? sizeof quick_sizes / sizeof *quick_sizes
                              : sizeof full_sizes / sizeof *full_sizes;
    for (int i = 0; i < b->n_be; i++) {
        if (!b->be[i].ctx || isnan(b->be[i].peak[PK_H2D_GBS]))
            continue;
        if (!b->conf.quiet)
            fprintf(stderr, "gpuk-bench: timing the %s link (write and read, pageable and "
                    "page-locked)\n", b->be[i].name);
        for (size_t k = 0; k < ns && b->n_links < B_MAX_LINKS; k++)
            one_size(b, i, sizes[k]);
    }
}

static void gbs(char *buf, size_t len, double v, double peak)
{
    char num[32];
    fmt_num(num, sizeof num, v, 3);
    if (isnan(v))
        snprintf(buf, len, "n/a");
    else if (isnan(peak) || peak <= 0)
        snprintf(buf, len, "%s", num);
    else
        snprintf(buf, len, "%s (%.0f%%)", num, 100 * v / peak);
}

void link_table(const bench *b, FILE *f, int md)
{
    if (!b->n_links)
        return;
    static const char *const head[] = {"backend", "bytes", "h2d pageable GB/s",
                                       "h2d host_alloc GB/s", "d2h pageable GB/s",
                                       "d2h host_alloc GB/s"};
    btab t;
    tab_init(&t, 6, head);
    for (int i = 2; i < 6; i++)
        t.right[i] = 1;
    for (int i = 0; i < b->n_links; i++) {
        const blink *l = &b->links[i];
        const bbackend *be = &b->be[l->be];
        char size[32], c[4][48];
        if (l->bytes >= (size_t)1 << 30)
            snprintf(size, sizeof size, "%zu GiB", l->bytes >> 30);
        else
            snprintf(size, sizeof size, "%zu MiB", l->bytes >> 20);
        gbs(c[0], sizeof c[0], l->h2d, be->peak[PK_H2D_GBS]);
        gbs(c[1], sizeof c[1], l->h2d_pinned, be->peak[PK_H2D_GBS]);
        gbs(c[2], sizeof c[2], l->d2h, be->peak[PK_D2H_GBS]);
        gbs(c[3], sizeof c[3], l->d2h_pinned, be->peak[PK_D2H_GBS]);
        const char *cells[] = {be->name, size, c[0], c[1], c[2], c[3]};
        tab_add(&t, cells);
    }
    fprintf(f, md ? "\n## The link: write + sync and read, %% of the raw page-locked rate\n\n"
                  : "\n== the link: write + sync and read, %% of the raw page-locked rate ==\n");
    tab_print(&t, f, md);
    tab_free(&t);
    for (int i = 0; i < b->n_links; i++)
        if (b->links[i].msg[0])
            fprintf(f, "%s%s %zu bytes: %s\n", md ? "\n" : "", b->be[b->links[i].be].name,
                    b->links[i].bytes, b->links[i].msg);
}

void link_json(const bench *b, FILE *f)
{
    fputs("  \"link\": [", f);
    for (int i = 0; i < b->n_links; i++) {
        const blink *l = &b->links[i];
        fprintf(f, "%s\n    {\"backend\": ", i ? "," : "");
        json_string(f, b->be[l->be].name);
        fprintf(f, ", \"bytes\": %zu, \"h2d_gbs\": ", l->bytes);
        json_number(f, l->h2d);
        fputs(", \"h2d_host_alloc_gbs\": ", f);
        json_number(f, l->h2d_pinned);
        fputs(", \"d2h_gbs\": ", f);
        json_number(f, l->d2h);
        fputs(", \"d2h_host_alloc_gbs\": ", f);
        json_number(f, l->d2h_pinned);
        fputs(", \"message\": ", f);
        json_string(f, l->msg);
        fputs("}", f);
    }
    fputs("\n  ],\n", f);
}

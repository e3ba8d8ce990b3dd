/*
 * report.c - the derived figures of each row and the report itself, as an
 * aligned table, markdown, CSV or JSON.
 *
 * Percent of ceiling follows the roofline: an op whose arithmetic
 * intensity (flops per byte of minimum traffic) lies right of the
 * backend's ridge point (compute ceiling / copy bandwidth) is held to the
 * compute ceiling of its family, dtype and unit (case_compute_peak:
 * add+min for min-plus and apsp, FMA for the rest; f32, i32, f64; tensor
 * cores for TF32), otherwise to the measured copy or read bandwidth.  A
 * ceiling the backend has no micro-kernel for is unknown, and the row
 * shows none: no percentage is ever made up.
 *
 * The auto row of a case (the rung the library chose when none was named)
 * is set against the fastest rung of the same case that is not TF32: its
 * time over that one's, and a section of its own lists every case where
 * auto ran more than AUTO_SLACK slower.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static const char *const ENV_SHOWN[] = {"GPUK_BACKEND_PATH", "GPUK_NUM_THREADS",
                                        "OMP_NUM_THREADS", "GPUK_DEVICE", "GPUK_CHECK"};

static int same_group(const brow *a, const brow *b)
{
    return a->be == b->be && a->op == b->op && a->dtype == b->dtype &&
           a->size_idx == b->size_idx && a->matrix == b->matrix;
}

int report_is_rung(const brow *r)
{
    return !r->is_auto;
}

const brow *report_best_rung(const bench *b, const brow *r)
{
    const brow *best = NULL;
    for (size_t i = 0; i < b->n_rows; i++) {
        const brow *o = &b->rows[i];
        if (o != r && same_group(o, r) && o->status == ROW_OK && !o->is_auto &&
            !(o->flags & GPUK_VARIANT_TF32) && (!best || o->ms_med < best->ms_med))
            best = o;
    }
    return best;
}

static void derive_one(bench *b, brow *r)
{
    const bbackend *be = &b->be[r->be];
    r->gflops = r->gbps = r->pct = r->x_prev = r->x_naive = r->own_vs_lib = NAN;
    r->auto_vs_best = NAN;
    r->best[0] = '\0';
    r->intensity = r->bytes > 0 ? r->flops / r->bytes : NAN;
    r->ceiling = "";
    if (r->status != ROW_OK || !(r->ms_med > 0))
        return;
    if (r->flops > 0)
        r->gflops = r->flops / (r->ms_med * 1e6);
    r->gbps = r->bytes / (r->ms_med * 1e6);

    int cpk = case_compute_peak(r->op, r->dtype, r->flags), mpk = case_memory_peak(r->op);
    double peak = cpk >= 0 ? be->peak[cpk] : NAN, bw = be->peak[PK_COPY_GBS];
    /* a read-mostly op's ceiling is the larger of the two memory rates:
     * on a GPU reads alone outrun a copy's mix; on a CPU whose cores
     * limit their own load streams, a copy moves more bytes (reads plus
     * writes) than a sum does, and so the copy rate bounds it */
    if (mpk == PK_READ_GBS && !(be->peak[PK_READ_GBS] > bw))
        mpk = PK_COPY_GBS;
    int compute = case_compute_bound(r->op);
    if (r->flops <= 0)
        compute = 0;
    else if (!isnan(peak) && !isnan(bw))
        compute = r->intensity >= peak / bw;
    if (compute) {
        /* NaN when the backend measured no such ceiling */
        r->ceiling = cpk >= 0 ? peak_name(cpk) : "none";
        r->pct = 100 * r->gflops / peak;
    } else {
        r->ceiling = peak_name(mpk);
        r->pct = 100 * r->gbps / be->peak[mpk];
    }

    const brow *prev = NULL, *naive = NULL, *own = NULL, *best = report_best_rung(b, r);
    for (size_t i = 0; i < b->n_rows; i++) {
        const brow *o = &b->rows[i];
        if (o == r || !same_group(o, r) || o->status != ROW_OK || o->is_auto)
            continue;
        if (o->rung == 0)
            naive = o;
        if (o->rung < r->rung && (!prev || o->rung > prev->rung))
            prev = o;
        if (!(o->flags & (GPUK_VARIANT_LIBRARY | GPUK_VARIANT_TF32)) &&
            (!own || o->ms_med < own->ms_med))
            own = o;
    }
    if (r->is_auto) {
        /* against its case's rungs: × naive, and its time over the best */
        if (naive)
            r->x_naive = naive->ms_med / r->ms_med;
        if (best) {
            r->auto_vs_best = r->ms_med / best->ms_med;
            snprintf(r->best, sizeof r->best, "%s", best->variant);
        }
        return;
    }
    if (prev)
        r->x_prev = prev->ms_med / r->ms_med;
    if (naive)
        r->x_naive = naive->ms_med / r->ms_med;
    if (own && (r->flags & GPUK_VARIANT_LIBRARY))
        r->own_vs_lib = r->ms_med / own->ms_med;
}

void report_derive(bench *b)
{
    for (size_t i = 0; i < b->n_rows; i++)
        derive_one(b, &b->rows[i]);
}

int report_failures(const bench *b)
{
    int n = 0;
    for (size_t i = 0; i < b->n_rows; i++)
        n += b->rows[i].status == ROW_FAILED;
    return n;
}

static void flags_text(char *buf, size_t len, uint32_t fl)
{
    snprintf(buf, len, "%s%s%s%s", fl & GPUK_VARIANT_DEFAULT ? "default " : "",
             fl & GPUK_VARIANT_LIBRARY ? "library " : "", fl & GPUK_VARIANT_TF32 ? "tf32 " : "",
             fl & GPUK_VARIANT_PACKED16 ? "packed16 " : "");
    size_t n = strlen(buf);
    if (n)
        buf[n - 1] = '\0';
}

static void ratio(char *buf, size_t len, double v)
{
    char num[24];
    fmt_num(num, sizeof num, v, 3);
    if (isnan(v))
        buf[0] = '\0';
    else
        snprintf(buf, len, "%s\xC3\x97", num); /* U+00D7 multiplication sign */
}

/* ---- the ceilings, as shown in every report's header ----
 *
 * One row per kind of GPUK_PEAK_MAP, one column per backend, so a kind
 * added to the list is a row here with no change; then the ridge points
 * of each backend's compute ceilings. */

static void peaks_table(bench *b, FILE *f, int md)
{
    const char *head[3 + B_MAX_BACKENDS];
    int ncol = 0;
    head[ncol++] = "ceiling";
    head[ncol++] = "unit";
    for (int i = 0; i < b->n_be; i++)
        if (b->be[i].ctx)
            head[ncol++] = b->be[i].name;
    head[ncol++] = "what it measures";
    btab t;
    tab_init(&t, ncol, head);
    for (int i = 2; i < ncol - 1; i++)
        t.right[i] = 1;
    char cell[PK_N][B_MAX_BACKENDS][32];
    for (int k = 0; k < PK_N; k++) {
        const char *cells[3 + B_MAX_BACKENDS];
        int c = 0;
        cells[c++] = peak_name(k);
        cells[c++] = peak_unit(k);
        for (int i = 0; i < b->n_be; i++) {
            if (!b->be[i].ctx)
                continue;
            fmt_num(cell[k][i], sizeof cell[k][i], b->be[i].peak[k], 4);
            if (isnan(b->be[i].peak[k]))
                snprintf(cell[k][i], sizeof cell[k][i], "n/a");
            cells[c++] = cell[k][i];
        }
        cells[c++] = peak_text(k);
        tab_add(&t, cells);
    }
    tab_print(&t, f, md);
    tab_free(&t);
    for (int i = 0; i < b->n_be; i++) {
        const bbackend *be = &b->be[i];
        if (!be->ctx)
            continue;
        char line[512] = "", num[32];
        size_t at = 0;
        for (int k = 0; k < PK_N; k++) {
            if (!peak_is_compute(k) || isnan(be->peak[k]) || isnan(be->peak[PK_COPY_GBS]))
                continue;
            fmt_num(num, sizeof num, be->peak[k] / be->peak[PK_COPY_GBS], 3);
            at += (size_t)snprintf(line + at, sizeof line - at, "%s%s %s", at ? ", " : "",
                                   peak_name(k), num);
            if (at >= sizeof line)
                break;
        }
        if (line[0])
            fprintf(f, "%s%s ridge points (flop or op per byte of copy): %s\n", md ? "\n" : "",
                    be->name, line);
    }
    char readers[256] = "";   /* the ops held to the read ceiling, from case_memory_peak */
    for (int op = GPUK_OP_FIRST; op <= GPUK_OP_LAST; op++)
        if (case_memory_peak((gpuk_op)op) == PK_READ_GBS) {
            size_t at = strlen(readers);
            snprintf(readers + at, sizeof readers - at, "%s%s", at ? ", " : "",
                     gpuk_op_name((gpuk_op)op));
        }
    fprintf(f, "%sn/a: the backend has no micro-kernel for it (h2d, d2h: its memory is the "
            "host's), and a row held to it shows no percentage; h2d, d2h: one 256 MiB copy "
            "between page-locked host memory and the device; read: a sum over 256 MiB (GPU) "
            "or 64 MiB (CPU); the larger of read and copy is the ceiling of %s, which read "
            "more than they write; each compute row is held to the ceiling of its op's "
            "family (fma, or addmin for min-plus and apsp) in its dtype: fma_f64, addmin_i32, "
            "addmin_f64, ...; a packed16 rung to addmin_i16x2, a tf32 rung to mma_tf32, an f16 "
            "or bf16 rung on the matrix units (mma flag) to mma_f16 or mma_bf16, one that "
            "converts to f32 to fma\n",
            md ? "\n" : "", readers);
    for (int i = 0; i < b->n_be; i++)
        for (int k = 0; k < PK_N; k++)
            if (b->be[i].ctx && b->be[i].peak_note[k][0])
                fprintf(f, "%s%s %s ceiling: %s\n", md ? "\n" : "", b->be[i].name,
                        peak_name(k), b->be[i].peak_note[k]);
}

void report_peaks(bench *b, FILE *f)
{
    peaks_table(b, f, 0);
}

static void header(bench *b, FILE *f, int md)
{
    const char *li = md ? "- " : "";
    if (md)
        fprintf(f, "# gpuk-bench results\n\n");
    fprintf(f, "%sgpuk-bench %s, libgpuk %s, %s\n", li, GPUK_VERSION_STRING, gpuk_version(),
            b->date);
    fprintf(f, "%shost: %s, %d CPUs online, load average %.2f at the start, %.2f at the end\n",
            li, b->cpu_model, b->host_cpus, b->load_start, b->load_end);
    fprintf(f, "%scommand:%s", li, md ? " `" : " ");
    for (int i = 0; i < (int)(sizeof ENV_SHOWN / sizeof *ENV_SHOWN); i++) {
        const char *v = getenv(ENV_SHOWN[i]);
        if (v)
            fprintf(f, "%s=%s ", ENV_SHOWN[i], v);
    }
    char prog[4096];
    for (int i = 0; i < b->conf.argc; i++)
        fprintf(f, "%s%s", i ? " " : "",
                i ? b->conf.argv[i] : program_path(b->conf.argv[0], prog, sizeof prog));
    fprintf(f, "%s\n", md ? "`" : "");
    fprintf(f,
            "%stiming: %s sizes, median of %d repetitions after %d warm-up run%s (both cut to "
            "fit %g s a row), min-max beside it, per call: a repetition of a row whose call "
            "takes under %g ms runs calls back to back to fill that (calls_per_rep), so a GPU "
            "row is the kernel's time in a stream of calls, its launch latency overlapped; "
            "results %s\n",
            li, b->conf.quick ? "quick" : "full", b->conf.reps, b->conf.warmup,
            b->conf.warmup == 1 ? "" : "s", b->conf.max_seconds, BENCH_REP_MS,
            b->conf.check ? "checked against the first rung that ran" : "not checked");
    for (int i = 0; i < b->n_be; i++) {
        bbackend *be = &b->be[i];
        char mem[48] = "";
        if (be->ctx && be->info.device_memory)
            snprintf(mem, sizeof mem, ", %.1f GiB",
                     (double)be->info.device_memory / (1024.0 * 1024.0 * 1024.0));
        if (be->ctx) {
            fprintf(f, "%s%s: %s%s, plugin %s (%s)%s%s\n", li, be->name,
                    be->info.device ? be->info.device : "?", mem,
                    be->info.backend_version ? be->info.backend_version : "?",
                    be->info.backend_path ? be->info.backend_path : "?",
                    be->driver[0] ? "; " : "", be->driver);
            fprintf(f, "%s%s auto: %s\n", li, be->name, be->auto_source);
        } else
            fprintf(f, "%s%s: %s: %s\n", li, be->name, be->named ? "error" : "skipped", be->why);
    }
    fprintf(f, md ? "\n## Ceilings (measured by each backend's micro-kernels)\n\n" : "\nceilings:\n");
    peaks_table(b, f, md);
    link_table(b, f, md);
}

/* auto's time over the best rung's as the summary counts it: timed in
 * turns with that rung when the row was re-timed (main.c, pair_auto),
 * else from the two rows' medians. */
static double auto_ratio(const brow *r)
{
    return r->paired > 0 ? r->paired : r->auto_vs_best;
}

/* The auto row's note: who chose and how it fares against the best rung. */
static void auto_note(char *buf, size_t len, const brow *r)
{
    if (isnan(r->auto_vs_best))
        snprintf(buf, len, "chosen by %s", r->chosen_by[0] ? r->chosen_by : "?");
    else if (!strcmp(r->chosen, r->best) || r->auto_vs_best <= 1.0)
        snprintf(buf, len, "chosen by %s; %s (%s): %+.1f%%", r->chosen_by,
                 strcmp(r->chosen, r->best) ? "faster than the best rung" : "the best rung",
                 r->best, 100 * (r->auto_vs_best - 1));
    else
        snprintf(buf, len, "chosen by %s; %.1f%% over the best rung (%s)", r->chosen_by,
                 100 * (r->auto_vs_best - 1), r->best);
    if (r->paired > 0) {
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "; timed in turns with %s: %+.1f%%", r->paired_with,
                 100 * (r->paired - 1));
    }
    if (auto_ratio(r) > 1 + AUTO_SLACK) {
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, ": OVER 5%%");
    }
}

static void op_table(bench *b, FILE *f, int md, gpuk_op op)
{
    static const char *const head[] = {"backend", "variant", "shape", "ms median",
                                       "(min-max)", "GFLOP/s", "GB/s", "% ceiling",
                                       "\xC3\x97 prev", "\xC3\x97 naive", "lib: own/lib",
                                       "note"};
    btab t;
    int any = 0;
    tab_init(&t, 12, head);
    for (int i = 3; i < 11; i++)
        t.right[i] = 1;
    for (size_t i = 0; i < b->n_rows; i++) {
        brow *r = &b->rows[i];
        if (r->op != op)
            continue;
        any = 1;
        char med[32], mm[80], gf[32], gb[32], pct[48], xp[32], xn[32], ol[32], note[760];
        char lo[32], hi[32], var[112];
        fmt_ms(med, sizeof med, r->ms_med);
        fmt_ms(lo, sizeof lo, r->ms_min);
        fmt_ms(hi, sizeof hi, r->ms_max);
        if (r->status == ROW_OK)
            snprintf(mm, sizeof mm, "(%s-%s)", lo, hi);
        else
            mm[0] = '\0';
        fmt_num(gf, sizeof gf, r->gflops, 4);
        fmt_num(gb, sizeof gb, r->gbps, 4);
        if (!isnan(r->pct))
            snprintf(pct, sizeof pct, "%.1f%% %s", r->pct, r->ceiling);
        else
            snprintf(pct, sizeof pct, "%s", r->ceiling[0] ? r->ceiling : "");
        ratio(xp, sizeof xp, r->x_prev);
        ratio(xn, sizeof xn, r->x_naive);
        ratio(ol, sizeof ol, r->own_vs_lib);
        if (r->status == ROW_FAILED)
            snprintf(note, sizeof note, "FAILED: %s", r->msg);
        else if (r->status == ROW_SKIPPED)
            snprintf(note, sizeof note, "%s", r->msg);
        else if (r->is_auto)
            auto_note(note, sizeof note, r);
        else
            flags_text(note, sizeof note, r->flags & ~GPUK_VARIANT_DEFAULT);
        if (r->is_auto && r->chosen[0])
            snprintf(var, sizeof var, "auto (%s)", r->chosen);
        else
            snprintf(var, sizeof var, "%s", r->variant);
        if (r->status == ROW_OK && r->pct > 100.0) {
            size_t at = strlen(note);
            snprintf(note + at, sizeof note - at, "%sABOVE CEILING: a measurement error, not a "
                     "result", at ? "; " : "");
        }
        const char *cells[] = {b->be[r->be].name, var, r->shape, med, mm, gf, gb, pct,
                               xp, xn, ol, note};
        tab_add(&t, cells);
    }
    if (any) {
        fprintf(f, md ? "\n### %s\n\n" : "\n== %s ==\n", gpuk_op_name(op));
        tab_print(&t, f, md);
    }
    tab_free(&t);
}

/* A ceiling is the most the machine does: a row above it means the ceiling
 * was measured wrong (or does not apply, as DRAM bandwidth to data that
 * stays in a cache), or the row's time was.  Said once, loudly, so no one
 * quotes such a row as a result. */
static void above_ceiling(const bench *b, FILE *f, int md)
{
    int n = 0;
    for (size_t i = 0; i < b->n_rows; i++)
        n += b->rows[i].status == ROW_OK && b->rows[i].pct > 100.0;
    if (!n)
        return;
    fprintf(f, "%s%d row%s above 100%% of %s ceiling (marked ABOVE CEILING): a measurement "
            "error, not a result: either the ceiling is too low (a micro-kernel short of the "
            "hardware, or DRAM bandwidth set against data a cache holds) or the time is "
            "wrong.\n", md ? "\n**Warning.** " : "\nWARNING: ", n, n == 1 ? "" : "s",
            n == 1 ? "its" : "their");
}

/* auto against the best rung of each case, per backend: how many cases
 * within AUTO_SLACK, and every one beyond it. */
static void auto_section(const bench *b, FILE *f, int md)
{
    int any = 0;
    for (size_t i = 0; i < b->n_rows; i++)
        any |= b->rows[i].is_auto;
    if (!any)
        return;
    fprintf(f, md ? "\n## auto against the best rung of each case\n\n"
                  : "\n== auto against the best rung of each case ==\n");
    for (int k = 0; k < b->n_be; k++) {
        int n = 0, within = 0, unmeasured = 0, by_turns = 0;
        double worst = 0;
        const brow *w = NULL;
        for (size_t i = 0; i < b->n_rows; i++) {
            const brow *r = &b->rows[i];
            if (!r->is_auto || r->be != k)
                continue;
            if (isnan(r->auto_vs_best)) {
                unmeasured++;
                continue;
            }
            n++;
            within += auto_ratio(r) <= 1 + AUTO_SLACK;
            by_turns += r->auto_vs_best > 1 + AUTO_SLACK && auto_ratio(r) <= 1 + AUTO_SLACK;
            if (auto_ratio(r) > worst) {
                worst = auto_ratio(r);
                w = r;
            }
        }
        if (!n && !unmeasured)
            continue;
        fprintf(f, "%s%s: auto within %.0f%% of the best rung in %d of %d cases", md ? "- " : "",
                b->be[k].name, 100 * AUTO_SLACK, within, n);
        if (by_turns)
            fprintf(f, " (%d of them only when timed again in turns with that rung)", by_turns);
        if (w)
            fprintf(f, "; worst %+.1f%% (%s %s: auto ran %s, %s is the best)",
                    100 * (worst - 1), gpuk_op_name(w->op), w->shape, w->chosen, w->best);
        if (unmeasured)
            fprintf(f, "; %d not compared (skipped or failed)", unmeasured);
        fputc('\n', f);
        for (size_t i = 0; i < b->n_rows; i++) {
            const brow *r = &b->rows[i];
            if (!r->is_auto || r->be != k || !(r->auto_vs_best > 1 + AUTO_SLACK))
                continue;
            char turns[96] = "";
            if (r->paired > 0)
                snprintf(turns, sizeof turns, "; in turns with %s %+.1f%%", r->paired_with,
                         100 * (r->paired - 1));
            fprintf(f, "%s  %s: %s %s: auto (%s, %s) %+.1f%% against %s%s%s\n", md ? "  -" : "",
                    auto_ratio(r) > 1 + AUTO_SLACK ? "over" : "within when timed in turns",
                    gpuk_op_name(r->op), r->shape, r->chosen, r->chosen_by,
                    100 * (r->auto_vs_best - 1), r->best, turns,
                    strcmp(r->chosen, r->best) ? ""
                                               : " (the same rung: the spread of the timing "
                                                 "itself, not the choice)");
        }
    }
}

static void text_report(bench *b, FILE *f, int md)
{
    header(b, f, md);
    if (md)
        fprintf(f, "\n## Every rung\n\n"
                   "lib: own/lib is the library's time over our best hand-written rung's "
                   "(above 1: ours is faster).\n");
    for (int op = GPUK_OP_FIRST; op <= GPUK_OP_LAST; op++)
        op_table(b, f, md, (gpuk_op)op);
    above_ceiling(b, f, md);
    auto_section(b, f, md);
    summary_table(b, f, md);
}

static void csv_num(FILE *f, double v)
{
    if (!isnan(v) && !isinf(v))
        fprintf(f, "%.6g", v);
    fputc(',', f);
}

static void csv_report(bench *b, FILE *f)
{
    fputs("backend,op,variant,m,n,k,ms_median,ms_min,ms_max,gflops,gbps,pct_ceiling,"
          "batch,ceiling,intensity,x_prev,x_naive,own_vs_library,xfer_in_ms,xfer_out_ms,"
          "reps,flags,status,message,matrix,nnz,xfer_in_host_alloc_ms,xfer_out_host_alloc_ms,"
          "dtype,class,chosen,chosen_by,auto_vs_best,calls_per_rep,auto_vs_best_paired\n",
          f);
    for (size_t i = 0; i < b->n_rows; i++) {
        const brow *r = &b->rows[i];
        char fl[64];
        flags_text(fl, sizeof fl, r->flags);
        fprintf(f, "%s,%s,", b->be[r->be].name, gpuk_op_name(r->op));
        csv_field(f, r->variant);
        fprintf(f, ",%lld,%lld,%lld,", (long long)r->sh.m, (long long)r->sh.n,
                (long long)r->sh.k);
        const double num[] = {r->ms_med, r->ms_min, r->ms_max, r->gflops, r->gbps, r->pct};
        for (int k = 0; k < 6; k++)
            csv_num(f, num[k]);
        fprintf(f, "%lld,%s,", (long long)r->sh.batch, r->ceiling);
        const double more[] = {r->intensity, r->x_prev, r->x_naive, r->own_vs_lib,
                               r->xfer_in_ms, r->xfer_out_ms};
        for (int k = 0; k < 6; k++)
            csv_num(f, more[k]);
        fprintf(f, "%d,%s,%s,", r->reps, fl,
                r->status == ROW_OK ? "ok" : r->status == ROW_SKIPPED ? "skipped" : "failed");
        csv_field(f, r->msg);
        /* spmv only: which matrix, and its nonzeros */
        if (r->op == GPUK_OP_SPMV) {
            fprintf(f, ",%s,", case_matrix_name(r->matrix));
            if (r->nnz > 0)
                fprintf(f, "%lld", (long long)r->nnz);
        } else {
            fputs(",,", f);   /* no matrix, no nnz */
        }
        fputc(',', f);
        csv_num(f, r->xfer_in_pin_ms);
        csv_num(f, r->xfer_out_pin_ms);
        fprintf(f, "%s,", gpuk_dtype_name(r->dtype));
        if (r->shape_class >= 0)
            fprintf(f, "%d", r->shape_class);
        fprintf(f, ",%s,%s,", r->chosen, r->chosen_by);
        if (!isnan(r->auto_vs_best))
            fprintf(f, "%.6g", r->auto_vs_best);
        fputc(',', f);
        if (r->calls > 0)
            fprintf(f, "%d", r->calls);
        fputc(',', f);
        if (r->paired > 0)
            fprintf(f, "%.6g", r->paired);
        fputc('\n', f);
    }
}

static void json_kv(FILE *f, const char *k, double v, const char *sep)
{
    fprintf(f, "\"%s\": ", k);
    json_number(f, v);
    fputs(sep, f);
}

static void json_backend(FILE *f, const bbackend *be)
{
    fputs("    {\"name\": ", f);
    json_string(f, be->name);
    fprintf(f, ", \"opened\": %s", be->ctx ? "true" : "false");
    if (!be->ctx) {
        fputs(", \"reason\": ", f);
        json_string(f, be->why);
        fputs("}", f);
        return;
    }
    const gpuk_info *in = &be->info;
    fputs(",\n     \"device\": ", f);
    json_string(f, in->device);
    fputs(", \"driver\": ", f);
    json_string(f, be->driver);
    fputs(",\n     \"backend_version\": ", f);
    json_string(f, in->backend_version);
    fputs(", \"path\": ", f);
    json_string(f, in->backend_path);
    fputs(",\n     \"auto_source\": ", f);
    json_string(f, be->auto_source);
    fprintf(f, ",\n     \"threads\": %d, \"multiprocessors\": %d, \"device_memory\": %llu",
            in->num_threads, in->multiprocessors, (unsigned long long)in->device_memory);
    /* every kind of GPUK_PEAK_MAP by the library's name ("fma_f64_gflops"),
     * null when unknown */
    fputs(",\n     \"ceilings\": {", f);
    for (int k = 0; k < PK_N; k++)
        json_kv(f, gpuk_peak_name(peak_kind(k)), be->peak[k], k + 1 < PK_N ? ", " : "");
    fputs("}, \"ceiling_notes\": {", f);
    for (int k = 0; k < PK_N; k++) {
        fprintf(f, "%s\"%s\": ", k ? ", " : "", peak_name(k));
        json_string(f, be->peak_note[k]);
    }
    fputs("}}", f);
}

static void json_report(bench *b, FILE *f)
{
    fputs("{\n  \"program\": \"gpuk-bench\", \"version\": ", f);
    json_string(f, GPUK_VERSION_STRING);
    fputs(", \"library_version\": ", f);
    json_string(f, gpuk_version());
    fputs(",\n  \"date\": ", f);
    json_string(f, b->date);
    fputs(",\n  \"command\": [", f);
    char prog[4096];
    for (int i = 0; i < b->conf.argc; i++) {
        fputs(i ? ", " : "", f);
        json_string(f, i ? b->conf.argv[i] : program_path(b->conf.argv[0], prog, sizeof prog));
    }
    fputs("],\n  \"environment\": {", f);
    int n = 0;
    for (int i = 0; i < (int)(sizeof ENV_SHOWN / sizeof *ENV_SHOWN); i++) {
        const char *v = getenv(ENV_SHOWN[i]);
        if (!v)
            continue;
        fprintf(f, "%s\"%s\": ", n++ ? ", " : "", ENV_SHOWN[i]);
        json_string(f, v);
    }
    fputs("},\n  \"host\": {\"cpu_model\": ", f);
    json_string(f, b->cpu_model);
    fprintf(f, ", \"cpus\": %d, ", b->host_cpus);
    json_kv(f, "load_average_start", b->load_start, ", ");
    json_kv(f, "load_average_end", b->load_end, "},\n");
    fprintf(f,
            "  \"settings\": {\"quick\": %s, \"reps\": %d, \"warmup\": %d, \"max_seconds\": %g, "
            "\"seed\": %llu, \"check\": %s},\n",
            b->conf.quick ? "true" : "false", b->conf.reps, b->conf.warmup, b->conf.max_seconds,
            (unsigned long long)b->conf.seed, b->conf.check ? "true" : "false");
    fputs("  \"backends\": [\n", f);
    for (int i = 0; i < b->n_be; i++) {
        json_backend(f, &b->be[i]);
        fputs(i + 1 < b->n_be ? ",\n" : "\n", f);
    }
    fputs("  ],\n  \"rows\": [\n", f);
    for (size_t i = 0; i < b->n_rows; i++) {
        const brow *r = &b->rows[i];
        char fl[64];
        flags_text(fl, sizeof fl, r->flags);
        fputs("    {\"backend\": ", f);
        json_string(f, b->be[r->be].name);
        fputs(", \"op\": ", f);
        json_string(f, gpuk_op_name(r->op));
        fputs(", \"dtype\": ", f);
        json_string(f, gpuk_dtype_name(r->dtype));
        fputs(", \"variant\": ", f);
        json_string(f, r->variant);
        if (r->is_auto) {
            fputs(", \"chosen\": ", f);
            json_string(f, r->chosen);
            fputs(", \"chosen_by\": ", f);
            json_string(f, r->chosen_by);
            fputs(", \"best\": ", f);
            json_string(f, r->best);
            fputs(", ", f);
            json_kv(f, "auto_vs_best", r->auto_vs_best, ", ");
            json_kv(f, "auto_vs_best_paired", r->paired > 0 ? r->paired : NAN, "");
        }
        fprintf(f, ", \"class\": %d", r->shape_class);
        fprintf(f, ", \"rung\": %d, \"flags\": \"%s\", \"shape\": ", r->rung, fl);
        json_string(f, r->shape);
        fprintf(f, ", \"m\": %lld, \"n\": %lld, \"k\": %lld, \"batch\": %lld,",
                (long long)r->sh.m, (long long)r->sh.n, (long long)r->sh.k,
                (long long)r->sh.batch);
        if (r->op == GPUK_OP_SPMV) {
            fprintf(f, " \"matrix\": \"%s\", \"nnz\": ", case_matrix_name(r->matrix));
            if (r->nnz > 0)
                fprintf(f, "%lld,", (long long)r->nnz);
            else
                fputs("null,", f);
        }
        fputs("\n     ", f);
        fprintf(f, "\"status\": \"%s\", \"reps\": %d, \"calls_per_rep\": %d, ",
                r->status == ROW_OK ? "ok" : r->status == ROW_SKIPPED ? "skipped" : "failed",
                r->reps, r->calls);
        json_kv(f, "ms_median", r->ms_med, ", ");
        json_kv(f, "ms_min", r->ms_min, ", ");
        json_kv(f, "ms_max", r->ms_max, ",\n     ");
        json_kv(f, "flops", r->flops, ", ");
        json_kv(f, "bytes", r->bytes, ", ");
        json_kv(f, "gflops", r->gflops, ", ");
        json_kv(f, "gbps", r->gbps, ", ");
        json_kv(f, "intensity", r->intensity, ",\n     ");
        json_kv(f, "pct_ceiling", r->pct, ", ");
        fprintf(f, "\"ceiling\": \"%s\", ", r->ceiling);
        json_kv(f, "x_prev", r->x_prev, ", ");
        json_kv(f, "x_naive", r->x_naive, ", ");
        json_kv(f, "own_vs_library", r->own_vs_lib, ",\n     ");
        json_kv(f, "xfer_in_ms", r->xfer_in_ms, ", ");
        json_kv(f, "xfer_out_ms", r->xfer_out_ms, ", ");
        json_kv(f, "xfer_in_host_alloc_ms", r->xfer_in_pin_ms, ", ");
        json_kv(f, "xfer_out_host_alloc_ms", r->xfer_out_pin_ms, ", ");
        fputs("\"message\": ", f);
        json_string(f, r->msg);
        fputs(i + 1 < b->n_rows ? "},\n" : "}\n", f);
    }
    fputs("  ],\n", f);
    link_json(b, f);
    summary_json(b, f);
    fputs("}\n", f);
}

int report_write(bench *b, FILE *f, int fmt)
{
    switch (fmt) {
    case FMT_CSV: csv_report(b, f); break;
    case FMT_JSON: json_report(b, f); break;
    case FMT_MD: text_report(b, f, 1); break;
    default: text_report(b, f, 0); break;
    }
    return ferror(f) ? -1 : 0;
}

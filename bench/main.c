/*
 * main.c - gpuk-bench: options, the backends, and the run plan.
 *
 * For each op (gpuk_op order), each dtype of --dtype, each size, each
 * backend that opened and each rung of that backend's ladder (its own
 * table, in order), one row: time, throughput, percent of the backend's
 * measured ceiling, speedups; then one more, "auto", the rung the library
 * chooses when the caller names none, timed like the others and set
 * against the best of them.  The inputs of a size are made once and
 * shared by every backend, so the rungs are also checked against each
 * other.  --tune turns the rows into a wisdom file (tune.c).
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static const char USAGE[] =
    "Usage: gpuk-bench [OPTION]...\n"
    "Time every rung of every op on every backend of libgpuk, CPU next to GPU,\n"
    "as time, throughput and percent of the backend's measured ceiling.\n"
    "\n"
    "  -b, --backend=LIST     backends to run (default: cpu,cuda, each that opens)\n"
    "      --op=LIST          ops to run (default: all), e.g. matmul,minplus\n"
    "      --variant=LIST     only these rungs, e.g. naive,tiled,cublas (and the\n"
    "                         auto row only when the list names auto)\n"
    "      --dtype=LIST       the ops' element types, e.g. f32,i32 (default f32);\n"
    "                         an op runs in each of them that a backend has rows for\n"
    "  -s, --size=LIST        sizes N, MxN or MxNxK (default: per op)\n"
    "      --spmv-matrix=LIST spmv matrices: random (K columns a row), powerlaw\n"
    "                         (skewed row lengths, K unused); default both\n"
    "      --quick            small default sizes, fewer repetitions\n"
    "  -r, --reps=N           timed repetitions per row (default 10, quick 5)\n"
    "  -w, --warmup=N         untimed runs first (default 2, quick 1)\n"
    "      --max-seconds=S    time budget of one row (default 20, quick 3; 0: none)\n"
    "  -t, --threads=N        CPU backend threads (default: GPUK_NUM_THREADS, all)\n"
    "      --seed=N           seed of the random inputs (default 1)\n"
    "      --no-check         do not compare each rung's result with the first\n"
    "  -f, --format=FMT       table (default), csv, json or markdown\n"
    "  -o, --output=FILE      write the report to FILE instead of stdout\n"
    "      --save=PREFIX      also write PREFIX.csv, PREFIX.json and PREFIX.md\n"
    "      --plot=PREFIX      write PREFIX.gp and, through gnuplot, PNG charts\n"
    "      --tune=FILE        write FILE, a wisdom file: the fastest rung of every\n"
    "                         op, dtype and shape class measured, which \"auto\"\n"
    "                         follows with GPUK_WISDOM=FILE (no auto rows are timed)\n"
    "      --peaks            measure and print the ceilings only\n"
    "      --list             list the ops and rungs of each backend only\n"
    "      --cost             read cases from stdin, one a line as a report's columns\n"
    "                         give them (OP DTYPE M N K [BATCH [MATRIX]]), and print\n"
    "                         each one's flops, bytes and shape class as CSV\n"
    "  -q, --quiet            no progress on stderr\n"
    "  -h, --help             this help\n"
    "  -V, --version          versions of gpuk-bench and libgpuk\n"
    "\n"
    "Exit status: 0 when every row ran, 1 when a row or a named backend failed,\n"
    "2 for a usage error.  See gpuk-bench(1).\n";

static int usage_error(const char *fmt, const char *arg)
{
    fputs("gpuk-bench: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nTry 'gpuk-bench --help'.\n", stderr);
    return 2;
}

static int parse_int(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int parse_args(bench *b, int argc, char **argv)
{
    enum { O_OP = 256, O_VARIANT, O_QUICK, O_MAXS, O_SEED, O_NOCHECK, O_SAVE, O_PLOT,
           O_PEAKS, O_LIST, O_SPMV_MATRIX, O_DTYPE, O_TUNE, O_COST };
    static const struct option longs[] = {
        {"backend", required_argument, 0, 'b'}, {"op", required_argument, 0, O_OP},
        {"variant", required_argument, 0, O_VARIANT}, {"size", required_argument, 0, 's'},
        {"spmv-matrix", required_argument, 0, O_SPMV_MATRIX},
        {"quick", no_argument, 0, O_QUICK}, {"reps", required_argument, 0, 'r'},
        {"warmup", required_argument, 0, 'w'}, {"max-seconds", required_argument, 0, O_MAXS},
        {"threads", required_argument, 0, 't'}, {"seed", required_argument, 0, O_SEED},
        {"no-check", no_argument, 0, O_NOCHECK}, {"format", required_argument, 0, 'f'},
        {"output", required_argument, 0, 'o'}, {"save", required_argument, 0, O_SAVE},
        {"plot", required_argument, 0, O_PLOT}, {"peaks", no_argument, 0, O_PEAKS},
        {"list", no_argument, 0, O_LIST}, {"quiet", no_argument, 0, 'q'},
        {"cost", no_argument, 0, O_COST},
        {"dtype", required_argument, 0, O_DTYPE}, {"tune", required_argument, 0, O_TUNE},
        {"help", no_argument, 0, 'h'}, {"version", no_argument, 0, 'V'}, {0, 0, 0, 0}};
    bconf *c = &b->conf;
    long reps = -1, warmup = -1, v;
    double maxs = -1;
    c->check = 1;
    c->seed = 1;
    c->backends = "cpu,cuda";
    c->dtypes = "f32";
    c->spmv_matrices = (1u << MAT_RANDOM) | (1u << MAT_POWERLAW);
    c->fmt = FMT_TABLE;
    int o;
    while ((o = getopt_long(argc, argv, "b:s:r:w:t:f:o:qhV", longs, NULL)) != -1) {
        switch (o) {
        case 'b': c->backends = optarg; c->backends_named = 1; break;
        case O_OP: c->ops = optarg; break;
        case O_VARIANT: c->variants = optarg; break;
        case 's': c->sizes = optarg; break;
        case O_SPMV_MATRIX: {
            char w[64];
            c->spmv_matrices = 0;
            for (size_t i = 0; list_item(optarg, i, w, sizeof w); i++) {
                int m = case_matrix_from_name(w);
                if (m < 0)
                    return usage_error("--spmv-matrix is a list of random and powerlaw, not '%s'",
                                       w);
                c->spmv_matrices |= 1u << m;
            }
            if (!c->spmv_matrices)
                return usage_error("--spmv-matrix is a list of random and powerlaw, not '%s'",
                                   optarg);
            break;
        }
        case O_QUICK: c->quick = 1; break;
        case 'r':
            if (parse_int(optarg, 1, 100000, &reps))
                return usage_error("--reps wants a count from 1 to 100000, not '%s'", optarg);
            break;
        case 'w':
            if (parse_int(optarg, 0, 100000, &warmup))
                return usage_error("--warmup wants a count from 0 to 100000, not '%s'", optarg);
            break;
        case O_MAXS: {
            char *end;
            maxs = strtod(optarg, &end);
            if (!*optarg || *end || !(maxs >= 0))
                return usage_error("--max-seconds wants seconds >= 0, not '%s'", optarg);
            break;
        }
        case 't':
            if (parse_int(optarg, 1, 4096, &v))
                return usage_error("--threads wants a count from 1 to 4096, not '%s'", optarg);
            c->threads = (int)v;
            break;
        case O_SEED:
            if (parse_int(optarg, 0, 2147483647L, &v))
                return usage_error("--seed wants a number from 0 to 2147483647, not '%s'", optarg);
            c->seed = (uint64_t)v;
            break;
        case O_NOCHECK: c->check = 0; break;
        case 'f':
            if (!strcmp(optarg, "table")) c->fmt = FMT_TABLE;
            else if (!strcmp(optarg, "csv")) c->fmt = FMT_CSV;
            else if (!strcmp(optarg, "json")) c->fmt = FMT_JSON;
            else if (!strcmp(optarg, "markdown") || !strcmp(optarg, "md")) c->fmt = FMT_MD;
            else return usage_error("--format is table, csv, json or markdown, not '%s'", optarg);
            break;
        case 'o': c->output = optarg; break;
        case O_SAVE: c->save = optarg; break;
        case O_PLOT: c->plot = optarg; break;
        case O_DTYPE: {
            char w[64];
            gpuk_dtype dt;
            if (!list_count(optarg))
                return usage_error("--dtype is a list of element types such as f32,i32, not '%s'",
                                   optarg);
            for (size_t i = 0; list_item(optarg, i, w, sizeof w); i++)
                if (!dtype_from_name(w, &dt))
                    return usage_error("unknown dtype '%s' (f32, i32, ...)", w);
            c->dtypes = optarg;
            break;
        }
        case O_TUNE:
            if (!*optarg)
                return usage_error("--tune wants a file name, not '%s'", optarg);
            c->tune = optarg;
            break;
        case O_PEAKS: c->peaks_only = 1; break;
        case O_LIST: c->list_only = 1; break;
        case O_COST: c->cost_only = 1; break;
        case 'q': c->quiet = 1; break;
        case 'h': fputs(USAGE, stdout); return 1;
        case 'V':
            printf("gpuk-bench %s (libgpuk %s)\n", GPUK_VERSION_STRING, gpuk_version());
            return 1;
        default: /* getopt has said what is wrong */
            fputs("Try 'gpuk-bench --help'.\n", stderr);
            return 2;
        }
    }
    if (optind < argc)
        return usage_error("unexpected argument '%s'", argv[optind]);
    c->reps = reps > 0 ? (int)reps : c->quick ? 5 : 10;
    c->warmup = warmup >= 0 ? (int)warmup : c->quick ? 1 : 2;
    c->max_seconds = maxs >= 0 ? maxs : c->quick ? 3 : 20;
    /* the auto row: always, but for --tune (which needs the rungs only)
     * and for a --variant list that does not name it */
    c->run_auto = !c->tune && (!c->variants || list_has(c->variants, "auto"));
    if (c->tune && !c->check)
        return usage_error("%s", "--tune needs the results checked: drop --no-check");
    char w[64];
    for (size_t i = 0; list_item(c->ops, i, w, sizeof w); i++) {
        gpuk_op op;
        if (gpuk_op_from_name(w, &op) != GPUK_OK)
            return usage_error("unknown op '%s' (see --list)", w);
    }
    for (size_t i = 0; list_item(c->sizes, i, w, sizeof w); i++) {
        bsize s;
        if (case_parse_size(w, &s))
            return usage_error("bad size '%s': want N, MxN or MxNxK (positive)", w);
    }
    if (list_count(c->backends) > B_MAX_BACKENDS)
        return usage_error("at most 4 backends, not '%s'", c->backends);
    c->argc = argc;
    c->argv = argv;
    return 0;
}

/* Open one backend; on failure keep the load report's reason. */
static void open_backend(bench *b, bbackend *be)
{
    gpuk_options o;
    gpuk_load_report *rep = NULL;
    gpuk_options_init(&o);
    o.backend = be->name;
    if (b->conf.threads > 0)
        o.num_threads = b->conf.threads;
    gpuk_status st = gpuk_context_open_ex(&be->ctx, &o, &rep);
    size_t n = rep ? gpuk_load_report_count(rep) : 0;
    const gpuk_load_attempt *pick = NULL;
    for (size_t i = 0; i < n; i++) {
        const gpuk_load_attempt *a = gpuk_load_report_get(rep, i);
        if (!a)
            continue;
        if (st == GPUK_OK ? a->chosen : (a->status == st || !pick))
            pick = a;
    }
    if (st != GPUK_OK) {
        be->ctx = NULL;
        if (pick && pick->reason && *pick->reason)
            snprintf(be->why, sizeof be->why, "%s", pick->reason);
        else
            snprintf(be->why, sizeof be->why, "%s", gpuk_strerror(st));
    } else {
        if (pick && pick->reason)
            snprintf(be->driver, sizeof be->driver, "%s", pick->reason);
        if ((st = gpuk_context_info(be->ctx, &be->info)) != GPUK_OK) {
            api_error(be->why, sizeof be->why, be->ctx, "gpuk_context_info", st);
            gpuk_context_close(be->ctx);
            be->ctx = NULL;
        } else if (be->info.backend && *be->info.backend) {
            /* a plugin named by its path reports as what it is */
            snprintf(be->name, sizeof be->name, "%s", be->info.backend);
        }
        if (be->ctx)
            snprintf(be->auto_source, sizeof be->auto_source, "%s", gpuk_auto_source(be->ctx));
    }
    gpuk_load_report_free(rep);
}

/* A ceiling is a maximum: the best of three measurements, taken before
 * the rows and again after them, so a moment of other work on the
 * machine does not lower it.  Every kind of GPUK_PEAK_MAP is asked for;
 * one the backend has no micro-kernel for (GPUK_ERR_UNSUPPORTED: the link
 * where the memory is the host's, a unit the device lacks) stays unknown,
 * n/a in the report, and rows held to it show no percentage. */
static void measure_peaks(bench *b, bbackend *be, const char *when)
{
    if (!b->conf.quiet)
        fprintf(stderr, "gpuk-bench: measuring the %s ceilings (%d kinds)%s\n", be->name, PK_N,
                when);
    for (int k = 0; k < PK_N; k++) {
        gpuk_status st = GPUK_OK;
        for (int rep = 0; rep < 3 && st == GPUK_OK; rep++) {
            double v = NAN;
            st = gpuk_peak_measure(be->ctx, peak_kind(k), &v);
            if (st == GPUK_OK && v > 0 && !(v <= be->peak[k]))
                be->peak[k] = v;
        }
        if (st != GPUK_OK && st != GPUK_ERR_UNSUPPORTED && isnan(be->peak[k]))
            api_error(be->peak_note[k], sizeof be->peak_note[k], be->ctx, "gpuk_peak_measure", st);
    }
}

/* The rungs of (op, dtype) on a backend that --variant selects. */
static size_t rungs(bench *b, bbackend *be, gpuk_op op, gpuk_dtype dt, gpuk_variant_info *out,
                    size_t max)
{
    size_t n = 0, got = 0;
    if (!be->ctx || gpuk_variant_count_dtype(be->ctx, op, dt, &n) != GPUK_OK)
        return 0;
    for (size_t i = 0; i < n && got < max; i++) {
        gpuk_variant_info vi;
        if (gpuk_variant_get_dtype(be->ctx, op, dt, i, &vi) != GPUK_OK || !vi.name)
            continue;
        if (b->conf.variants && !list_has(b->conf.variants, vi.name))
            continue;
        out[got++] = vi;
    }
    return got;
}

/* Does the backend have rows of (op, dt) at all (the auto row needs them,
 * whatever --variant selects)? */
static int has_rows(bbackend *be, gpuk_op op, gpuk_dtype dt)
{
    size_t n = 0;
    return be->ctx && gpuk_variant_count_dtype(be->ctx, op, dt, &n) == GPUK_OK && n > 0;
}

/* The rung's position in its ladder of dtype dt (0 = naive), for × naive. */
static int rung_index(bbackend *be, gpuk_op op, gpuk_dtype dt, const char *name)
{
    size_t n = 0;
    gpuk_variant_count_dtype(be->ctx, op, dt, &n);
    for (size_t i = 0; i < n; i++) {
        gpuk_variant_info vi;
        if (gpuk_variant_get_dtype(be->ctx, op, dt, i, &vi) == GPUK_OK && !strcmp(vi.name, name))
            return (int)i;
    }
    return -1;
}

/* The dtypes of --dtype, in its order. */
static int dtypes_of(const bench *b, gpuk_dtype *out, int max)
{
    char w[64];
    int n = 0;
    for (size_t i = 0; n < max && list_item(b->conf.dtypes, i, w, sizeof w); i++) {
        gpuk_dtype dt;
        int seen = 0;
        if (!dtype_from_name(w, &dt))
            continue;
        for (int j = 0; j < n; j++)
            seen |= out[j] == dt;
        if (!seen)
            out[n++] = dt;
    }
    return n;
}

static int op_selected(const bench *b, gpuk_op op)
{
    return !b->conf.ops || list_has(b->conf.ops, gpuk_op_name(op));
}

static const char *sizes_of(const bench *b, gpuk_op op)
{
    return b->conf.sizes ? b->conf.sizes : case_default_sizes(op, b->conf.quick);
}

/* The matrices op runs on, in order: those of --spmv-matrix for spmv,
 * one (MAT_RANDOM, no matrix) for every other op. */
static int matrices_of(const bench *b, gpuk_op op, int *out)
{
    int n = 0;
    if (op != GPUK_OP_SPMV) {
        out[n++] = MAT_RANDOM;
        return n;
    }
    for (int m = 0; m < MAT_N; m++)
        if (b->conf.spmv_matrices & (1u << m))
            out[n++] = m;
    return n;
}

static void add_row(bench *b, const brow *r)
{
    if (b->n_rows == b->cap_rows) {
        size_t cap = b->cap_rows ? 2 * b->cap_rows : 256;
        brow *nr = realloc(b->rows, cap * sizeof *nr);
        if (!nr) {
            fputs("gpuk-bench: out of memory for the rows\n", stderr);
            return;
        }
        b->rows = nr;
        b->cap_rows = cap;
    }
    b->rows[b->n_rows++] = *r;
}

static void list_rungs(bench *b)
{
    gpuk_dtype dts[32];
    int nd = dtypes_of(b, dts, 32);
    for (int i = 0; i < b->n_be; i++) {
        bbackend *be = &b->be[i];
        if (!be->ctx)
            continue;
        printf("%s (%s):\n", be->name, be->info.device ? be->info.device : "");
        printf("  auto: %s\n", be->auto_source);
        for (int op = GPUK_OP_FIRST; op <= GPUK_OP_LAST; op++) {
            for (int di = 0; di < nd; di++) {
                gpuk_variant_info v[64];
                size_t n = rungs(b, be, (gpuk_op)op, dts[di], v, 64);
                for (size_t k = 0; k < n; k++)
                    printf("  %-15s %-3s %-14s %s%s%s- %s\n", gpuk_op_name((gpuk_op)op),
                           gpuk_dtype_name(dts[di]), v[k].name,
                           v[k].flags & GPUK_VARIANT_DEFAULT ? "[default] " : "",
                           v[k].flags & GPUK_VARIANT_LIBRARY ? "[library] " : "",
                           v[k].flags & GPUK_VARIANT_TF32 ? "[tf32] " : "",
                           v[k].summary ? v[k].summary : "");
            }
        }
    }
}

/* One row of a case on a backend: the rung v (NULL: the auto row). */
static void case_row(bench *b, int i, gpuk_op op, gpuk_dtype dt, int matrix, int si,
                     const gpuk_variant_info *v, int made, bcase *c, bdev *d, const char *label,
                     const bxfer *x, const char *setup_err, size_t *done, size_t total)
{
    bbackend *be = &b->be[i];
    brow r;
    memset(&r, 0, sizeof r);
    r.be = i;
    r.op = op;
    r.dtype = dt;
    r.is_auto = v == NULL;
    snprintf(r.variant, sizeof r.variant, "%s", v ? v->name : "auto");
    r.flags = v ? v->flags : 0;
    r.rung = v ? rung_index(be, op, dt, v->name) : -1;
    r.shape_class = -1;
    r.size_idx = si;
    r.matrix = op == GPUK_OP_SPMV ? matrix : MAT_RANDOM;
    r.ms_med = r.ms_min = r.ms_max = r.paired = NAN;
    r.xfer_in_ms = x->in_ms;
    r.xfer_out_ms = x->out_ms;
    r.xfer_in_pin_ms = x->in_pinned_ms;
    r.xfer_out_pin_ms = x->out_pinned_ms;
    snprintf(r.shape, sizeof r.shape, "%s", made ? c->label : label);
    if (made) {
        r.sh = c->sh;
        r.nnz = c->nnz;
        r.flops = c->flops;
        r.bytes = c->bytes;
        r.work = c->work;
    }
    ++*done;
    if (!b->conf.quiet)
        fprintf(stderr, "gpuk-bench: [%zu/%zu, %zu left] %s %s %s %s ... ", *done, total,
                total - *done, be->name, gpuk_op_name(op), r.shape, r.variant);
    if (setup_err[0]) {
        r.status = ROW_FAILED;
        snprintf(r.msg, sizeof r.msg, "%s", setup_err);
    } else {
        measure_row(b, be, c, d, &r);
    }
    if (!b->conf.quiet) {
        if (r.status == ROW_OK)
            fprintf(stderr, "%.4g ms%s%s%s%s%s\n", r.ms_med, r.is_auto ? " (" : "",
                    r.is_auto ? r.chosen : "", r.is_auto ? ", " : "",
                    r.is_auto ? r.chosen_by : "", r.is_auto ? ")" : "");
        else if (r.status == ROW_SKIPPED)
            fprintf(stderr, "skipped\n");
        else
            fprintf(stderr, "FAILED: %s\n", r.msg);
    }
    if (r.is_auto && r.chosen[0]) {
        /* the auto row counts as the rung it ran for the check's tolerance */
        for (size_t k = 0; k < b->n_rows; k++)
            if (b->rows[k].be == i && b->rows[k].op == op && b->rows[k].dtype == dt &&
                !strcmp(b->rows[k].variant, r.chosen))
                r.flags = b->rows[k].flags & ~GPUK_VARIANT_DEFAULT;
    }
    add_row(b, &r);
}

/* The auto row just added, when over AUTO_SLACK behind the best non-TF32
 * rung of its case: the two are timed again in turns, AUTO_PAIRS
 * repetitions each with the auto row's calls, each first in every other
 * pair, and the median of auto's time over the rung's goes to the row
 * (paired).  Timed minutes apart on a shared machine, one kernel can
 * differ from itself by more than AUTO_SLACK; in turns, drift reaches
 * both alike.  The row's own median stays as measured; the report shows
 * both. */
static void pair_auto(bench *b, int i, bcase *c, bdev *d)
{
    brow *a = &b->rows[b->n_rows - 1];
    a->paired = NAN;
    if (!a->is_auto || a->be != i || a->status != ROW_OK || a->calls < 1)
        return;
    const brow *best = report_best_rung(b, a);
    if (!best || !(a->ms_med > best->ms_med * (1 + AUTO_SLACK)))
        return;
    /* no more than the row's own budget again */
    double budget = b->conf.max_seconds * 1e3, per = (a->ms_med + best->ms_med) * a->calls;
    int pairs = AUTO_PAIRS;
    if (budget > 0 && per * pairs > budget)
        pairs = (int)(budget / per);
    double ratio[AUTO_PAIRS];
    int n = 0;
    for (int p = 0; p < pairs; p++) {
        /* ABBA: each goes first in half the pairs, so that a cost of
         * following the other rung (or of going first) reaches both */
        double ta, tb;
        if (p & 1) {
            tb = measure_calls(&b->be[i], c, d, best->variant, a->calls, NULL);
            ta = measure_calls(&b->be[i], c, d, a->variant, a->calls, NULL);
        } else {
            ta = measure_calls(&b->be[i], c, d, a->variant, a->calls, NULL);
            tb = measure_calls(&b->be[i], c, d, best->variant, a->calls, NULL);
        }
        if (ta > 0 && tb > 0)
            ratio[n++] = ta / tb;
    }
    if (n > 0) {
        a->paired = median_of(ratio, n);
        snprintf(a->paired_with, sizeof a->paired_with, "%s", best->variant);
    }
}

/* One size (and for spmv one matrix) of (op, dtype) on every backend; si
 * tells the rows of this case from the op's others. */
static void run_case(bench *b, gpuk_op op, gpuk_dtype dt, int matrix, int si,
                     const char *size_text, size_t *done, size_t total)
{
    bsize sz;
    bcase c;
    char err[400], label[64];
    int made = 0;
    if (case_parse_size(size_text, &sz) != 0)
        snprintf(err, sizeof err, "bad size '%s'", size_text);
    else
        made = case_make(op, dt, &sz, matrix, b->conf.seed, &c, err, sizeof err) == 0;
    case_label_text(op, dt, matrix, size_text, label, sizeof label);
    for (int i = 0; i < b->n_be; i++) {
        bbackend *be = &b->be[i];
        gpuk_variant_info v[64];
        size_t nv = rungs(b, be, op, dt, v, 64);
        int with_auto = b->conf.run_auto && has_rows(be, op, dt);
        if (!nv && !with_auto)
            continue;
        bdev d;
        memset(&d, 0, sizeof d);
        char setup_err[400] = "";
        bxfer x = {NAN, NAN, NAN, NAN};
        if (made) {
            const char *what = "";
            gpuk_status st = dev_create(be->ctx, &c, &d, &what);
            if (st == GPUK_OK)
                st = dev_upload(be->ctx, &c, &d, &what);
            if (st != GPUK_OK)
                api_error(setup_err, sizeof setup_err, be->ctx, what, st);
            else
                measure_transfers(b, be, &c, &d, &x, setup_err, sizeof setup_err);
            if (!setup_err[0])
                dev_rotate(be->ctx, &c, &d);
        } else {
            snprintf(setup_err, sizeof setup_err, "%s", err);
        }
        for (size_t k = 0; k < nv; k++)
            case_row(b, i, op, dt, matrix, si, &v[k], made, &c, &d, label, &x, setup_err, done,
                     total);
        if (with_auto) {
            case_row(b, i, op, dt, matrix, si, NULL, made, &c, &d, label, &x, setup_err, done,
                     total);
            if (made && !setup_err[0])
                pair_auto(b, i, &c, &d);
        }
        if (made)
            dev_destroy(be->ctx, &d);
    }
    if (made)
        case_free(&c);
}

static int write_file(bench *b, const char *path, int fmt)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return -1;
    }
    int bad = report_write(b, f, fmt);
    if (fclose(f) != 0 || bad) {
        fprintf(stderr, "gpuk-bench: could not write %s\n", path);
        return -1;
    }
    return 0;
}

/* --cost: the costs of cases named as a report names them, for the tools
 * that read reports (bench/auto-rules.py) and would otherwise keep their
 * own copy of the formulas, or of the power-law matrix's generator.  The
 * case is made as a run makes it (the same shape, the same matrix from
 * --seed) without its inputs, and costed by the library (gpuk_op_cost).
 * Exit status 1 when a line could not be costed (said on stderr). */
static int cost_cases(const bench *b)
{
    char line[512];
    int status = 0, lineno = 0;
    puts("op,dtype,m,n,k,batch,matrix,nnz,flops,bytes,class");
    while (fgets(line, sizeof line, stdin)) {
        char op_name[64], dt_name[32], mat_name[32] = "random";
        long long mnkb[4] = {1, 1, 1, 1};
        lineno++;
        int got = sscanf(line, "%63s %31s %lld %lld %lld %lld %31s", op_name, dt_name, &mnkb[0],
                         &mnkb[1], &mnkb[2], &mnkb[3], mat_name);
        if (got <= 0 || op_name[0] == '#')
            continue;
        gpuk_op op;
        gpuk_dtype dt;
        int matrix = case_matrix_from_name(mat_name);
        bcase c;
        char err[400];
        int64_t dims[4] = {mnkb[0], mnkb[1], mnkb[2], mnkb[3]};
        if (got < 5 || gpuk_op_from_name(op_name, &op) != GPUK_OK ||
            !dtype_from_name(dt_name, &dt) || matrix < 0 || mnkb[0] < 1 || mnkb[1] < 1 ||
            mnkb[2] < 1) {
            fprintf(stderr, "gpuk-bench --cost: line %d: want OP DTYPE M N K [BATCH [MATRIX]] "
                    "with a known op, dtype and matrix and sizes >= 1: %s", lineno, line);
            status = 1;
            continue;
        }
        if (case_make_shape(op, dt, dims, matrix, b->conf.seed, &c, err, sizeof err)) {
            fprintf(stderr, "gpuk-bench --cost: line %d: %s\n", lineno, err);
            status = 1;
            continue;
        }
        printf("%s,%s,%lld,%lld,%lld,%lld,%s,", gpuk_op_name(op), gpuk_dtype_name(dt),
               (long long)c.sh.m, (long long)c.sh.n, (long long)c.sh.k, (long long)c.sh.batch,
               op == GPUK_OP_SPMV ? case_matrix_name(c.matrix) : "");
        if (op == GPUK_OP_SPMV)
            printf("%lld", (long long)c.nnz);
        printf(",%.17g,%.17g,%d\n", c.flops, c.bytes, c.shape_class);
    }
    return status;
}

int main(int argc, char **argv)
{
    static bench b;
    int rc = parse_args(&b, argc, argv);
    if (rc)
        return rc == 1 ? 0 : rc;
    if (b.conf.cost_only)
        return cost_cases(&b);
    host_facts(&b);
    int status = 0;

    /* Backends: a named one that does not open is an error; by default a
     * missing one is one line of explanation. */
    int named = b.conf.backends_named;
    char name[256];
    for (size_t i = 0; list_item(b.conf.backends, i, name, sizeof name); i++) {
        bbackend *be = &b.be[b.n_be++];
        snprintf(be->name, sizeof be->name, "%s", name);
        be->named = named;
        for (int k = 0; k < PK_N; k++)
            be->peak[k] = NAN;
        open_backend(&b, be);
        if (!be->ctx) {
            fprintf(stderr, "%s: %s: %s\n", be->name, named ? "error" : "skipped", be->why);
            if (named)
                status = 1;
        }
    }
    int any = 0;
    for (int i = 0; i < b.n_be; i++)
        any |= b.be[i].ctx != NULL;
    if (!any) {
        fputs("gpuk-bench: no backend opened\n", stderr);
        return 1;
    }
    if (b.conf.list_only) {
        list_rungs(&b);
        goto done;
    }
    for (int i = 0; i < b.n_be; i++)
        if (b.be[i].ctx)
            measure_peaks(&b, &b.be[i], "");
    if (b.conf.peaks_only) {
        report_peaks(&b, stdout);
        goto done;
    }
    link_measure(&b);

    /* The plan: count the rows first, for the progress line. */
    size_t total = 0;
    char w[64];
    gpuk_dtype dts[32];
    int nd = dtypes_of(&b, dts, 32);
    for (int op = GPUK_OP_FIRST; op <= GPUK_OP_LAST; op++) {
        if (!op_selected(&b, (gpuk_op)op))
            continue;
        size_t nv = 0;
        for (int di = 0; di < nd; di++)
            for (int i = 0; i < b.n_be; i++) {
                gpuk_variant_info v[64];
                nv += rungs(&b, &b.be[i], (gpuk_op)op, dts[di], v, 64) +
                      (b.conf.run_auto && has_rows(&b.be[i], (gpuk_op)op, dts[di]));
            }
        const char *sizes = sizes_of(&b, (gpuk_op)op);
        int mats[MAT_N];
        total += nv * list_count(sizes) * (size_t)matrices_of(&b, (gpuk_op)op, mats);
        for (size_t i = 0; nv && list_item(sizes, i, w, sizeof w); i++) {
            bsize sz;
            if (!case_parse_size(w, &sz) && (size_t)sz.nd > strlen(case_dims((gpuk_op)op))) {
                fprintf(stderr, "gpuk-bench: size '%s' has %d numbers; %s takes %zu (%s)\n", w,
                        sz.nd, gpuk_op_name((gpuk_op)op), strlen(case_dims((gpuk_op)op)),
                        case_dims((gpuk_op)op));
                return 2;
            }
        }
    }
    if (b.conf.variants)
        for (size_t i = 0; list_item(b.conf.variants, i, w, sizeof w); i++) {
            int found = !strcmp(w, "auto");
            for (int op = GPUK_OP_FIRST; op <= GPUK_OP_LAST && !found; op++)
                for (int di = 0; di < nd && !found; di++)
                    for (int k = 0; k < b.n_be && !found; k++)
                        found = op_selected(&b, (gpuk_op)op) && b.be[k].ctx &&
                                rung_index(&b.be[k], (gpuk_op)op, dts[di], w) >= 0;
            if (!found)
                return usage_error("no selected op has a variant '%s' (see --list)", w);
        }
    if (total == 0)
        return usage_error("%s", "nothing to run: no backend has a selected op and variant");

    size_t done_rows = 0;
    for (int op = GPUK_OP_FIRST; op <= GPUK_OP_LAST; op++) {
        if (!op_selected(&b, (gpuk_op)op))
            continue;
        /* spmv: every size on one matrix, then on the next, so a size's
         * skip prediction comes from the same matrix's previous size; a
         * dtype's sizes after another's */
        const char *sizes = sizes_of(&b, (gpuk_op)op);
        int mats[MAT_N], nm = matrices_of(&b, (gpuk_op)op, mats);
        int ns = (int)list_count(sizes);
        for (int di = 0; di < nd; di++)
            for (int mi = 0; mi < nm; mi++)
                for (int si = 0; list_item(sizes, (size_t)si, w, sizeof w); si++)
                    run_case(&b, (gpuk_op)op, dts[di], mats[mi], (di * nm + mi) * ns + si, w,
                             &done_rows, total);
    }
    b.load_end = load_average();
    for (int i = 0; i < b.n_be; i++)
        if (b.be[i].ctx)
            measure_peaks(&b, &b.be[i], " again");
    report_derive(&b);

    if (b.conf.output) {
        if (write_file(&b, b.conf.output, b.conf.fmt))
            status = 1;
    } else if (report_write(&b, stdout, b.conf.fmt)) {
        status = 1;
    }
    if (b.conf.save) {
        static const char *const ext[] = {"csv", "json", "md"};
        static const int fmt[] = {FMT_CSV, FMT_JSON, FMT_MD};
        for (int i = 0; i < 3; i++) {
            char path[4096];
            snprintf(path, sizeof path, "%s.%s", b.conf.save, ext[i]);
            if (write_file(&b, path, fmt[i]))
                status = 1;
        }
    }
    if (b.conf.plot && plot_write(&b, b.conf.plot))
        status = 1;
    if (b.conf.tune && tune_write(&b, b.conf.tune))
        status = 1;
    int failed = report_failures(&b);
    if (failed) {
        fprintf(stderr, "gpuk-bench: %d row%s failed\n", failed, failed == 1 ? "" : "s");
        status = 1;
    }
done:
    for (int i = 0; i < b.n_be; i++)
        gpuk_context_close(b.be[i].ctx);
    free(b.rows);
    return status;
}

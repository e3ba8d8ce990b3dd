/*
 * gpuk-dist-bench - times gpuk_dist_matmul, gpuk_dist_minplus and (with
 * --op apsp) gpuk_dist_apsp on however many ranks it is started on, and
 * prints one row per (op, n):
 * rows of runs on different rank counts are combined by concatenation
 * (mpi/gpuk-dist-bench-combine.sh adds the efficiency against the 1-rank
 * row and draws the scaling plot).  doc/distributed.md, "Measuring".
 *
 *   mpiexec -n 4 gpuk-dist-bench -n 4096 --block 512 --threads 4 --baseline
 *
 * Each op runs under four schedules (gpuk_dist_set_schedule): overlapped
 * (the real one; apsp with look-ahead), serial (apsp without look-ahead),
 * broadcasts alone and local ops alone.  A time is the slowest rank's,
 * median of --reps runs after one warm-up (--no-warmup: none); apsp works
 * in place, so its matrix is copied again from a filled one before each
 * run, outside the time: ms is its time to solution.  Columns:
 *
 *   ms          overlapped time
 *   gops        2 n^3 / ms: GFLOP/s (matmul), Gop/s of add+min (min-plus;
 *               apsp: Floyd-Warshall's 2 n^3, whatever the steps add)
 *   gops_rank   gops / ranks
 *   blocked%    time a rank sat in MPI waits for panels, mean over ranks
 *               (with NCCL: its final wait for the broadcast stream)
 *   exposed%    (ms - compute_ms) / ms: communication the overlap did not hide
 *   serial_ms, comm_ms, compute_ms   the other three schedules
 *   overlap     (comm_ms + compute_ms - ms) / min(comm_ms, compute_ms):
 *               1 = the shorter of the two is completely hidden, 0 = none
 *   one_ms      --baseline: the same op on the whole matrices in rank 0's
 *               context alone (gpuk_gemm, gpuk_minplus, gpuk_apsp), else "-"
 *   vs_one      one_ms / ms (1.00: as fast as one context)
 *   dtype       the matrices' (--dtype): f32, f64 or i32; the work is 2 n^3
 *               in each, the bytes moved n^2 elements of its size
 *   rung        the local op's rung on rank 0 (gpuk_last_variant): "auto"
 *               picks one per dtype
 *   local_ms    --local (matmul, min-plus): the local ops of the SUMMA loop
 *               alone, on every rank at once, each on tensors of its
 *               panels' shapes (lr x kb times kb x lc into its lr x lc, as
 *               many as the loop has steps), no library around them: the
 *               slowest rank; "-" without --local.  Against compute_ms it
 *               shows what the layer adds to its local work, against
 *               one_ms / ranks what the panels' shape costs the kernel
 *               (doc/distributed.md, "Overlap on GPUs").  matmul over NCCL
 *               runs its panels in groups instead (doc/distributed.md,
 *               "Panel groups"): there local_ms is the loop before them
 *
 * gpuk-dist-bench-combine puts runs on 1, 2, 4 ... ranks together, with
 * the efficiency and the speed-up against the 1-rank row.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gpuk/mpi.h>

typedef struct opts {
    const char *ops, *sizes, *variant, *backend, *comm;
    gpuk_dtype dtype;
    int64_t block;
    int reps, threads, prow, pcol, baseline, header, breakdown, warmup, local;
} opts;

static int rank, size;

/* The ops: what --op names, and the local op the library runs (whose
 * rungs say whether the dtype can run).  --op both is the first two. */
typedef enum bop { MATMUL, MINPLUS, APSP, N_OPS } bop;
static const struct { const char *name; gpuk_op local; } OPS[N_OPS] = {
    { "matmul", GPUK_OP_GEMM },
    { "minplus", GPUK_OP_MINPLUS },
    { "apsp", GPUK_OP_APSP },
};

static void usage(FILE *f)
{
    fprintf(f, "usage: gpuk-dist-bench [--op matmul|minplus|both|apsp] [--dtype f32|f64|i32]\n"
               "         [-n N[,N...]] [--block B]\n"
               "         [--reps R] [--variant RUNG] [--backend cpu|cuda|auto] [--threads T]\n"
               "         [--grid PxQ] [--comm auto|mpi|nccl] [--baseline] [--no-breakdown]\n"
               "         [--no-header] [--no-warmup] [--local]\n"
               "Run it under mpiexec; one row per op and size (see gpuk-dist-bench's header).\n");
}

static int parse(int argc, char **argv, opts *o)
{
    o->ops = "both", o->sizes = "1024", o->variant = NULL, o->backend = NULL, o->comm = NULL;
    o->dtype = GPUK_F32;
    o->block = 0, o->reps = 3, o->threads = 0, o->prow = o->pcol = 0;
    o->baseline = 0, o->header = 1, o->breakdown = 1, o->warmup = 1, o->local = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int takes = 1;
        if (!strcmp(a, "--op") && v) o->ops = v;
        else if (!strcmp(a, "-n") && v) o->sizes = v;
        else if (!strcmp(a, "--block") && v) o->block = atoll(v);
        else if (!strcmp(a, "--reps") && v) o->reps = atoi(v);
        else if (!strcmp(a, "--variant") && v) o->variant = v;
        else if (!strcmp(a, "--backend") && v) o->backend = v;
        else if (!strcmp(a, "--threads") && v) o->threads = atoi(v);
        else if (!strcmp(a, "--comm") && v) o->comm = v;
        else if (!strcmp(a, "--dtype") && v) {
            if (gpuk_dtype_from_name(v, &o->dtype) != GPUK_OK)
                return fprintf(stderr, "gpuk-dist-bench: --dtype %s: not a dtype\n", v), -1;
        }
        else if (!strcmp(a, "--grid") && v) {
            if (sscanf(v, "%dx%d", &o->prow, &o->pcol) != 2 || o->prow < 1 || o->pcol < 1)
                return fprintf(stderr, "gpuk-dist-bench: --grid %s: expected PxQ\n", v), -1;
        } else {
            takes = 0;
            if (!strcmp(a, "--baseline")) o->baseline = 1;
            else if (!strcmp(a, "--no-breakdown")) o->breakdown = 0;
            else if (!strcmp(a, "--no-header")) o->header = 0;
            else if (!strcmp(a, "--no-warmup")) o->warmup = 0;
            else if (!strcmp(a, "--local")) o->local = 1;
            else if (!strcmp(a, "-h") || !strcmp(a, "--help")) return usage(stdout), 1;
            else return fprintf(stderr, "gpuk-dist-bench: unknown or incomplete option %s\n", a),
                        usage(stderr), -1;
        }
        i += takes;
    }
    if (strcmp(o->ops, "matmul") && strcmp(o->ops, "minplus") && strcmp(o->ops, "both") &&
        strcmp(o->ops, "apsp"))
        return fprintf(stderr, "gpuk-dist-bench: --op %s: matmul, minplus, both or apsp\n",
                       o->ops), -1;
    if (o->reps < 1 || o->block < 0)
        return fprintf(stderr, "gpuk-dist-bench: --reps is >= 1, --block >= 0\n"), -1;
    return 0;
}

/* A value of element (i, j) that every rank computes alike: in [-1, 1)
 * for matmul, whole numbers 1..100 for min-plus (no denormals, no NaN,
 * the same in every dtype). */
static double value(int64_t i, int64_t j, int which, int minplus)
{
    uint64_t z = (uint64_t)i * 0x9e3779b97f4a7c15ull ^ (uint64_t)j * 0xc2b2ae3d27d4eb4full ^
                 (uint64_t)which << 61;
    z = (z ^ (z >> 31)) * 0xbf58476d1ce4e5b9ull;
    z ^= z >> 29;
    return minplus ? (double)(1 + z % 100) : (double)(z >> 11) / 4503599627370496.0 - 1.0;
}

/* Element i of a host array of dtype dt, from a double. */
static void put(gpuk_dtype dt, void *p, int64_t i, double v)
{
    if (dt == GPUK_F64)
        ((double *)p)[i] = v;
    else if (dt == GPUK_I32)
        ((int32_t *)p)[i] = (int32_t)v;
    else
        ((float *)p)[i] = (float)v;
}

/* Each rank fills its own blocks: no root, no scatter. */
static gpuk_status fill(gpuk_dist *d, gpuk_dist_matrix *m, int which, int minplus)
{
    gpuk_dist_matrix_info mi;
    gpuk_dist_info di;
    gpuk_status st = gpuk_dist_matrix_get_info(d, m, &mi);
    if (st || (st = gpuk_dist_get_info(d, &di)) || mi.local_rows * mi.local_cols == 0)
        return st;
    size_t es = gpuk_dtype_size(mi.dtype);
    char *h = malloc((size_t)(mi.local_rows * mi.local_cols) * es);
    int64_t *gj = malloc((size_t)mi.local_cols * sizeof *gj);
    if (!h || !gj) {
        free(h), free(gj);
        return GPUK_ERR_NO_MEMORY;
    }
    for (int64_t lj = 0; lj < mi.local_cols; lj++)
        gpuk_dist_local_to_global(d, m, 0, lj, NULL, &gj[lj]);
    for (int64_t li = 0; li < mi.local_rows; li++) {
        int64_t gi;
        gpuk_dist_local_to_global(d, m, li, 0, &gi, NULL);
        for (int64_t lj = 0; lj < mi.local_cols; lj++)
            put(mi.dtype, h, li * mi.local_cols + lj, value(gi, gj[lj], which, minplus));
    }
    st = gpuk_tensor_write(di.context, mi.local, h, (size_t)(mi.local_rows * mi.local_cols) * es);
    free(h), free(gj);
    return st;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* m's local part = src's (same dtype and layout), on the device: the
 * storage moved as 4-byte words by gpuk_copy (every backend copies f32,
 * and a copy computes nothing, so every bit arrives as it left). */
static gpuk_status refill(gpuk_dist *d, gpuk_dist_matrix *m, const gpuk_dist_matrix *src)
{
    gpuk_dist_matrix_info mi, si;
    gpuk_dist_info di;
    gpuk_status st = gpuk_dist_matrix_get_info(d, m, &mi);
    if (st || (st = gpuk_dist_matrix_get_info(d, src, &si)) || (st = gpuk_dist_get_info(d, &di)))
        return st;
    int64_t words = mi.local_rows * mi.local_cols * (int64_t)(gpuk_dtype_size(mi.dtype) / 4);
    if (words == 0)
        return GPUK_OK;
    gpuk_tensor_info ti, ts;
    gpuk_tensor *x = NULL, *y = NULL;
    if ((st = gpuk_tensor_get_info(di.context, mi.local, &ti)) == GPUK_OK &&
        (st = gpuk_tensor_get_info(di.context, si.local, &ts)) == GPUK_OK &&
        (st = gpuk_tensor_wrap(di.context, GPUK_F32, 1, &words, NULL, ts.data, &x)) == GPUK_OK &&
        (st = gpuk_tensor_wrap(di.context, GPUK_F32, 1, &words, NULL, ti.data, &y)) == GPUK_OK)
        st = gpuk_copy(di.context, x, y, NULL);
    gpuk_tensor_destroy(di.context, x);
    gpuk_tensor_destroy(di.context, y);
    if (st == GPUK_OK)
        st = gpuk_sync(di.context);
    return st;
}

/* Median over reps of the slowest rank's time (s) under a schedule; the
 * mean blocked fraction of the runs goes to *blocked when asked.  apsp
 * (b: the filled matrix) starts each run from a copy of b. */
static double timed(gpuk_dist *d, bop op, gpuk_dist_matrix *a, gpuk_dist_matrix *b,
                    gpuk_dist_matrix *c, const opts *o, gpuk_dist_schedule s, double *blocked,
                    gpuk_status *st)
{
    double t[64], frac = 0;
    int reps = o->reps < 64 ? o->reps : 64;
    gpuk_dist_set_schedule(d, s);
    for (int r = 0; r < reps && *st == GPUK_OK; r++) {
        if (op == APSP && (*st = refill(d, a, b)) != GPUK_OK)   /* it works in place */
            break;
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        *st = op == APSP      ? gpuk_dist_apsp(d, a, o->variant)
            : op == MINPLUS ? gpuk_dist_minplus(d, a, b, c, o->variant)
                            : gpuk_dist_matmul(d, a, b, c, o->variant);
        double mine = MPI_Wtime() - t0;
        MPI_Allreduce(&mine, &t[r], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        gpuk_dist_stats ss;
        gpuk_dist_get_stats(d, &ss);
        frac += ss.total_s > 0 ? ss.wait_s / ss.total_s : 0;
    }
    gpuk_dist_set_schedule(d, GPUK_DIST_OVERLAP);
    if (blocked) {
        double sum = 0;
        frac /= reps;
        MPI_Allreduce(&frac, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        *blocked = sum / size;
    }
    qsort(t, (size_t)reps, sizeof t[0], cmp_double);
    return t[reps / 2];
}

/* The same op on the whole matrices in rank 0's context alone. */
static double one_context(gpuk_context *ctx, bop op, int64_t n, const opts *o)
{
    int64_t shape[2] = { n, n };
    gpuk_tensor *a = NULL, *b = NULL, *c = NULL;
    size_t es = gpuk_dtype_size(o->dtype);
    char *h = malloc((size_t)(n * n) * es);
    double best[64];
    int reps = o->reps < 64 ? o->reps : 64;
    gpuk_status st = h ? GPUK_OK : GPUK_ERR_NO_MEMORY;
    if (!st) st = gpuk_tensor_create(ctx, o->dtype, 2, shape, &a);
    if (!st) st = gpuk_tensor_create(ctx, o->dtype, 2, shape, &b);
    if (!st) st = gpuk_tensor_create(ctx, o->dtype, 2, shape, &c);
    for (int w = 0; w < 2 && !st; w++) {
        for (int64_t i = 0; i < n * n; i++)
            put(o->dtype, h, i, value(i / n, i % n, w, op != MATMUL));
        st = gpuk_tensor_write(ctx, w ? b : a, h, (size_t)(n * n) * es);
    }
    for (int r = -1; r < reps && !st; r++) {   /* r = -1: the warm-up */
        double t0 = MPI_Wtime();
        st = op == APSP      ? gpuk_apsp(ctx, a, c, NULL, NULL)
           : op == MINPLUS ? gpuk_minplus(ctx, a, b, c, o->variant)
                           : gpuk_gemm(ctx, GPUK_NO_TRANS, GPUK_NO_TRANS, 1.0, a, b, 0.0, c,
                                       o->variant);
        if (!st)
            st = gpuk_sync(ctx);
        if (r >= 0)
            best[r] = MPI_Wtime() - t0;
    }
    if (st)
        fprintf(stderr, "gpuk-dist-bench: one-context baseline: %s\n", gpuk_context_error(ctx));
    gpuk_tensor_destroy(ctx, a), gpuk_tensor_destroy(ctx, b), gpuk_tensor_destroy(ctx, c);
    free(h);
    if (st)
        return -1;
    qsort(best, (size_t)reps, sizeof best[0], cmp_double);
    return best[reps / 2];
}

/* --local: the SUMMA loop's local ops alone, on every rank at once: as
 * many as the loop has steps, each lr x w times w x lc folded into this
 * rank's lr x lc (the first writes it, as the loop does), on views of
 * the matrices' own storage (a's first lr * w elements, b's first w rows,
 * c), then gpuk_sync; median over reps of the slowest rank's time (s). */
static double local_ops(gpuk_dist *d, const gpuk_dist_info *di, bop op, gpuk_dist_matrix *a,
                        gpuk_dist_matrix *b, gpuk_dist_matrix *c, const opts *o,
                        gpuk_status *st)
{
    gpuk_dist_matrix_info ai, bi, ci;
    gpuk_context *ctx = di->context;
    double t[64];
    int reps = o->reps < 64 ? o->reps : 64;
    gpuk_dist_matrix_get_info(d, a, &ai);
    gpuk_dist_matrix_get_info(d, b, &bi);
    gpuk_dist_matrix_get_info(d, c, &ci);
    int64_t lr = ci.local_rows, lc = ci.local_cols, kb = ai.nb, k = ai.cols;
    /* a rank holding less than one panel of a or b (small n on many
     * ranks) has no storage to view: no measurement ("-") */
    int fits = lr * kb <= ai.local_rows * ai.local_cols && kb * lc <= bi.local_rows * bi.local_cols;
    int all_fit = 0;
    MPI_Allreduce(&fits, &all_fit, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all_fit)
        return -1;
    for (int r = -1; r < reps && *st == GPUK_OK; r++) {   /* r = -1: the warm-up */
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int64_t K = 0; K * kb < k && lr > 0 && lc > 0 && *st == GPUK_OK; K++) {
            int64_t w = k - K * kb < kb ? k - K * kb : kb;
            int64_t as[2] = { lr, w }, bs[2] = { w, lc };
            gpuk_tensor *av = NULL, *bv = NULL;
            if ((*st = gpuk_tensor_view(ctx, ai.local, 2, as, NULL, 0, &av)) == GPUK_OK &&
                (*st = gpuk_tensor_view(ctx, bi.local, 2, bs, NULL, 0, &bv)) == GPUK_OK)
                *st = op == MATMUL ? gpuk_gemm(ctx, GPUK_NO_TRANS, GPUK_NO_TRANS, 1.0, av, bv,
                                               K ? 1.0 : 0.0, ci.local, o->variant)
                    : K ? gpuk_minplus_update(ctx, av, bv, ci.local, o->variant)
                        : gpuk_minplus(ctx, av, bv, ci.local, o->variant);
            gpuk_tensor_destroy(ctx, av);
            gpuk_tensor_destroy(ctx, bv);
        }
        if (*st == GPUK_OK)
            *st = gpuk_sync(ctx);
        double mine = MPI_Wtime() - t0;
        int ok = *st == GPUK_OK, all = 0;
        MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (!all) {
            if (*st == GPUK_OK)
                *st = GPUK_ERR_INTERNAL;
            break;
        }
        if (r >= 0)
            MPI_Allreduce(&mine, &t[r], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    }
    if (*st != GPUK_OK) {
        if (rank == 0)
            fprintf(stderr, "gpuk-dist-bench: --local: %s\n", gpuk_context_error(ctx));
        return -1;
    }
    qsort(t, (size_t)reps, sizeof t[0], cmp_double);
    return t[reps / 2];
}

static int run(gpuk_dist *d, const gpuk_dist_info *di, bop op, int64_t n, const opts *o)
{
    gpuk_dist_matrix *a = NULL, *b = NULL, *c = NULL;
    /* apsp: b holds the graph, a is copied from it before each run; no c */
    gpuk_status st = gpuk_dist_matrix_create_dtype(d, o->dtype, n, n, o->block, o->block, &a);
    if (!st) st = gpuk_dist_matrix_create_dtype(d, o->dtype, n, n, o->block, o->block, &b);
    if (!st && op != APSP)
        st = gpuk_dist_matrix_create_dtype(d, o->dtype, n, n, o->block, o->block, &c);
    gpuk_status fa = st || op == APSP ? st : fill(d, a, 0, op != MATMUL);
    gpuk_status fb = st ? st : fill(d, b, op == APSP ? 0 : 1, op != MATMUL);
    if (!st && (fa || fb))
        st = fa ? fa : fb;
    double ms = 0, serial = 0, comm = 0, comp = 0, blocked = 0, one = -1, local = -1;
    if (!st && o->warmup)
        timed(d, op, a, b, c, o, GPUK_DIST_OVERLAP, NULL, &st);
    if (!st)
        ms = timed(d, op, a, b, c, o, GPUK_DIST_OVERLAP, &blocked, &st) * 1e3;
    const char *rung = gpuk_last_variant(di->context);   /* the overlapped run's local op */
    char rung_word[64];
    snprintf(rung_word, sizeof rung_word, "%s", rung ? rung : "-");
    int breakdown = o->breakdown;
    if (!st && breakdown) {
        serial = timed(d, op, a, b, c, o, GPUK_DIST_SERIAL, NULL, &st) * 1e3;
        if (!st) comm = timed(d, op, a, b, c, o, GPUK_DIST_COMM_ONLY, NULL, &st) * 1e3;
        if (!st) comp = timed(d, op, a, b, c, o, GPUK_DIST_COMPUTE_ONLY, NULL, &st) * 1e3;
    }
    if (!st && o->local && op != APSP && (local = local_ops(d, di, op, a, b, c, o, &st)) > 0)
        local *= 1e3;
    gpuk_dist_matrix_info mi;
    gpuk_dist_matrix_get_info(d, a, &mi);
    gpuk_dist_matrix_destroy(d, a), gpuk_dist_matrix_destroy(d, b), gpuk_dist_matrix_destroy(d, c);
    if (st) {
        if (rank == 0)
            fprintf(stderr, "gpuk-dist-bench: %s n=%lld: %s: %s\n", OPS[op].name, (long long)n,
                    gpuk_status_name(st), gpuk_dist_error(d));
        return 1;
    }
    if (o->baseline) {
        if (rank == 0)
            one = one_context(di->context, op, n, o) * 1e3;
        MPI_Bcast(&one, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    }
    if (rank != 0)
        return 0;
    double gops = 2.0 * (double)n * n * n / (ms * 1e-3) / 1e9;
    char ov[16] = "-", exposed[16] = "-", onebuf[32] = "-", vs[16] = "-", br[3][24];
    if (breakdown) {
        double lo = comm < comp ? comm : comp, x = (comm + comp - ms) / lo;
        if (size > 1 && lo > 1e-3)
            snprintf(ov, sizeof ov, "%.2f", x < 0 ? 0 : x > 1 ? 1 : x);
        snprintf(exposed, sizeof exposed, "%.1f", ms > comp ? 100 * (ms - comp) / ms : 0.0);
        snprintf(br[0], sizeof br[0], "%.4g", serial);
        snprintf(br[1], sizeof br[1], "%.4g", comm);
        snprintf(br[2], sizeof br[2], "%.4g", comp);
    } else {
        strcpy(br[0], "-"), strcpy(br[1], "-"), strcpy(br[2], "-");
    }
    if (one > 0) {
        snprintf(onebuf, sizeof onebuf, "%.4g", one);
        snprintf(vs, sizeof vs, "%.3f", one / ms);
    }
    char localbuf[32] = "-";
    if (local > 0)
        snprintf(localbuf, sizeof localbuf, "%.4g", local);
    char comm_word[32];   /* the comm path as one word */
    snprintf(comm_word, sizeof comm_word, "%s", di->comm == GPUK_DIST_COMM_NCCL ? "nccl"
             : !di->direct ? "mpi-staged" : strcmp(di->backend, "cpu") ? "mpi-cuda-aware"
                                                                   : "mpi-host");
    char grid[24];
    snprintf(grid, sizeof grid, "%dx%d", di->prow, di->pcol);
    printf("%-8s %6lld %5lld %5d %5s %-7s %3d %-14s %10.4g %9.4g %9.4g %8.1f %8s %9s %9s %9s "
           "%7s %9s %6s %5s %-12s %9s\n", OPS[op].name, (long long)n, (long long)mi.mb,
           size, grid, di->backend, o->threads, comm_word, ms, gops, gops / size, 100 * blocked,
           exposed, br[0], br[1], br[2], ov, onebuf, vs, gpuk_dtype_name(o->dtype), rung_word,
           localbuf);
    fflush(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    opts o;
    /* SERIALIZED lets libgpuk_mpi wait on broadcasts from a helper thread
     * while a CPU op runs (gpuk_dist(3), GPUK_DIST_PROGRESS) */
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int pr = parse(argc, argv, &o);
    if (pr) {
        MPI_Finalize();
        return pr < 0 ? 2 : 0;
    }
    if (o.comm)
        setenv("GPUK_DIST_COMM", o.comm, 1);
    gpuk_dist_options dopt;
    gpuk_dist_options_init(&dopt);
    dopt.prow = o.prow, dopt.pcol = o.pcol, dopt.backend = o.backend, dopt.num_threads = o.threads;
    gpuk_dist *d = NULL;
    gpuk_status st = gpuk_dist_open(&d, MPI_COMM_WORLD, &dopt);
    if (st) {
        if (rank == 0)
            fprintf(stderr, "gpuk-dist-bench: %s\n", gpuk_dist_error(NULL));
        MPI_Finalize();
        return 1;
    }
    gpuk_dist_info di;
    gpuk_dist_get_info(d, &di);
    /* whether the layer holds the dtype is the library's to say */
    gpuk_dist_matrix *probe = NULL;
    if ((st = gpuk_dist_matrix_create_dtype(d, o.dtype, 0, 0, 1, 1, &probe)) != GPUK_OK) {
        if (rank == 0)
            fprintf(stderr, "gpuk-dist-bench: --dtype %s: %s\n", gpuk_dtype_name(o.dtype),
                    gpuk_dist_error(d));
        gpuk_dist_close(d);
        MPI_Finalize();
        return 2;
    }
    gpuk_dist_matrix_destroy(d, probe);
    gpuk_info ci;
    gpuk_context_info(di.context, &ci);
    if (o.threads == 0)
        o.threads = ci.num_threads;
    if (rank == 0 && o.header) {
        printf("# gpuk-dist-bench %s: %d rank%s, grid %dx%d, %s on %s, %s; %s (%zu bytes an "
               "element)\n", GPUK_VERSION_STRING, size, size == 1 ? "" : "s", di.prow, di.pcol,
               di.backend, ci.device, di.comm_desc, gpuk_dtype_name(o.dtype),
               gpuk_dtype_size(o.dtype));
        printf("# %-6s %6s %5s %5s %5s %-7s %3s %-14s %10s %9s %9s %8s %8s %9s %9s %9s %7s %9s %6s "
               "%5s %-12s %9s\n", "op", "n", "block", "ranks", "grid", "backend", "thr", "comm",
               "ms", "gops", "gops_rank", "blocked%", "exposed%", "serial_ms", "comm_ms",
               "compute_ms", "overlap", "one_ms", "vs_one", "dtype", "rung", "local_ms");
        fflush(stdout);
    }
    int failed = 0, ran = 0;
    char *list = strdup(o.sizes), *save = NULL;
    for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int64_t n = atoll(t);
        if (n <= 0)
            continue;
        for (bop op = MATMUL; op < N_OPS; op++) {
            int both = !strcmp(o.ops, "both");
            if (both ? op == APSP : strcmp(o.ops, OPS[op].name) != 0)
                continue;
            /* --op both in a dtype one op lacks (i32 has no gemm): that op
             * is left out, with a line saying so, rather than failed */
            size_t rungs = 1;
            gpuk_variant_count_dtype(di.context, OPS[op].local, o.dtype, &rungs);
            int all = rungs > 0, mine = all;
            MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
            if (!all && both) {
                if (rank == 0)
                    printf("# %s n=%lld: left out: no %s rung of gpuk_%s on some rank's "
                           "backend\n", OPS[op].name, (long long)n, gpuk_dtype_name(o.dtype),
                           gpuk_op_name(OPS[op].local));
                continue;
            }
            failed |= run(d, &di, op, n, &o);
            ran++;
        }
    }
    free(list);
    if (!ran && !failed) {
        if (rank == 0)
            fprintf(stderr, "gpuk-dist-bench: nothing ran: neither op has a %s rung here\n",
                    gpuk_dtype_name(o.dtype));
        failed = 1;
    }
    gpuk_dist_close(d);
    MPI_Finalize();
    return failed;
}

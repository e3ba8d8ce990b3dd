/*
 * plot.c - charts through gnuplot: one self-contained script PREFIX.gp
 * (data inline as datablocks, so it can be edited and re-run), rendered
 * to PREFIX-roofline.png and PREFIX-ladder-OP.png when gnuplot is found.
 *
 * Roofline: every rung of every backend at its largest measured size, at
 * the op's arithmetic intensity, under each backend's measured roofs
 * (FMA solid, add+min dashed, the sloped part is the copy bandwidth).
 * The rungs of one op share an intensity, so a ladder climbs a vertical
 * line toward its roof.  Ladder: median time of each rung (log scale,
 * min-max as error bars), one line per size, backends side by side.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

static const char *const COLORS[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd"};
/* pngcairo's 15 distinct point types, one per op that does arithmetic
 * (gpuk_op order; copy, transpose and embedding have no flops to plot) */
static const int POINTS[] = {5, 7, 9, 0, 13, 4, 6, 8, 10, 0, 1, 0, 3, 14, 15, 2, 11};

/* Text safe inside gnuplot's single quotes. */
static void gp_text(FILE *f, const char *s)
{
    for (; s && *s; s++)
        fputc(*s == '\'' ? '`' : *s, f);
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* The largest measured size of each (backend, op, variant). */
static int is_largest(const bench *b, const brow *r)
{
    for (size_t i = 0; i < b->n_rows; i++) {
        const brow *o = &b->rows[i];
        if (o->status == ROW_OK && o->be == r->be && o->op == r->op &&
            !strcmp(o->variant, r->variant) && o->work > r->work)
            return 0;
    }
    return 1;
}

/* Does a measured compute ceiling k of backend i bound a row the
 * roofline shows (the ceiling of its op, dtype and unit)? */
static int roof_used(const bench *b, int i, int k)
{
    if (!peak_is_compute(k) || isnan(b->be[i].peak[k]))
        return 0;
    for (size_t j = 0; j < b->n_rows; j++) {
        const brow *r = &b->rows[j];
        if (r->be == i && r->status == ROW_OK && r->gflops > 0 && report_is_rung(r) &&
            case_compute_peak(r->op, r->dtype, r->flags) == k)
            return 1;
    }
    return 0;
}

static void roofline(bench *b, FILE *f, const char *prefix)
{
    double xmin = 1e9, xmax = 0, ymin = 1e12, ymax = 0;
    for (size_t i = 0; i < b->n_rows; i++) {
        const brow *r = &b->rows[i];
        if (r->status != ROW_OK || !(r->gflops > 0) || !report_is_rung(r))
            continue;
        xmin = fmin(xmin, r->intensity);
        xmax = fmax(xmax, r->intensity);
        ymin = fmin(ymin, r->gflops);
        ymax = fmax(ymax, r->gflops);
    }
    for (int i = 0; i < b->n_be; i++)
        for (int k = 0; k < PK_N; k++)
            if (roof_used(b, i, k))
                ymax = fmax(ymax, b->be[i].peak[k]);
    if (xmax <= 0)
        return;
    fprintf(f, "\n# ---- roofline\nreset\nset terminal pngcairo noenhanced size 1500,950 font 'DejaVu Sans,10'\n");
    fprintf(f, "set output '%s-roofline.png'\n", prefix);
    fprintf(f, "set logscale xy\nset grid\nset key outside right top\nset samples 600\n");
    fprintf(f, "set xrange [%g:%g]\nset yrange [%g:%g]\n", xmin / 2, xmax * 3, ymin / 3,
            ymax * 3);
    fprintf(f, "set xlabel 'arithmetic intensity: flop (min-plus: op) per byte of minimum "
               "traffic'\nset ylabel 'GFLOP/s (min-plus: Gop/s)'\n");
    fprintf(f, "set title \"libgpuk roofline: every rung at its largest size, %s\\n"
               "(copy, transpose and embedding do no arithmetic and are not shown)\"\n",
            b->date);
    fprintf(f, "roof(x, p, bw) = (x * bw < p) ? x * bw : p\n");
    /* One point per rung: colour = backend, shape = op; only the fastest
     * rung of each op is named, so the labels do not pile up where the
     * rungs of matmul, gemm and min-plus share an intensity. */
    int used[GPUK_OP_LAST + 1] = {0}, points[B_MAX_BACKENDS] = {0};
    for (int i = 0; i < b->n_be; i++) {
        if (!b->be[i].ctx)
            continue;
        fprintf(f, "$be%d << EOD\n", i);
        for (size_t j = 0; j < b->n_rows; j++) {
            const brow *r = &b->rows[j];
            if (r->be != i || r->status != ROW_OK || !(r->gflops > 0) || !is_largest(b, r) ||
                !report_is_rung(r))
                continue;
            int top = 1;
            for (size_t q = 0; q < b->n_rows && top; q++) {
                const brow *o = &b->rows[q];
                top = !(o != r && o->be == i && o->op == r->op && o->status == ROW_OK &&
                        o->gflops > r->gflops && is_largest(b, o) && report_is_rung(o));
            }
            used[r->op] = 1;
            points[i]++;
            fprintf(f, "%g %g %d \"%s%s%s\"\n", r->intensity, r->gflops, POINTS[r->op - 1],
                    top ? gpuk_op_name(r->op) : "", top ? " " : "", top ? r->variant : "");
        }
        fprintf(f, "EOD\n");
    }
    fprintf(f, "plot \\\n");
    int first = 1;
    for (int i = 0; i < b->n_be; i++) {
        const bbackend *be = &b->be[i];
        if (!be->ctx)
            continue;
        const char *col = COLORS[i % 4];
        double bw = be->peak[PK_COPY_GBS];
        for (int k = 0, dash = 1; k < PK_N && !isnan(bw); k++) {
            if (!roof_used(b, i, k))
                continue;
            fprintf(f, "%s  roof(x, %g, %g) w l lw 2 dt %d lc rgb '%s' t '%s %s roof %.4g %s, copy %.4g GB/s'",
                    first ? "" : ", \\\n", be->peak[k], bw, dash++, col, be->name,
                    peak_name(k), be->peak[k], peak_unit(k), bw);
            first = 0;
        }
        if (!points[i])
            continue;
        fprintf(f, "%s  NaN w p pt 7 ps 1.4 lc rgb '%s' t '", first ? "" : ", \\\n", col);
        gp_text(f, be->name);
        fputs(" rungs: ", f);
        gp_text(f, be->info.device);
        fprintf(f, "', \\\n  $be%d u 1:2:3 w p pt variable ps 1.4 lc rgb '%s' notitle", i, col);
        fprintf(f, ", \\\n  $be%d u 1:2:4 w labels left offset 1,0 font ',8' tc rgb '%s' notitle",
                i, col);
        first = 0;
    }
    for (int op = GPUK_OP_FIRST; op <= GPUK_OP_LAST; op++)
        if (used[op])
            fprintf(f, ", \\\n  NaN w p pt %d ps 1.4 lc rgb 'gray40' t '%s'", POINTS[op - 1],
                    gpuk_op_name((gpuk_op)op));
    fprintf(f, "\n");
}

static void ladder(bench *b, FILE *f, const char *prefix, gpuk_op op)
{
    int sizes[B_MAX_SIZES * 4], ns = 0;
    char label[B_MAX_SIZES * 4][64];
    for (size_t i = 0; i < b->n_rows; i++) {
        const brow *r = &b->rows[i];
        int seen = 0;
        for (int j = 0; j < ns; j++)
            seen |= sizes[j] == r->size_idx;
        if (r->op == op && !seen && ns < B_MAX_SIZES * 4) {
            snprintf(label[ns], sizeof label[ns], "%s", r->shape);
            sizes[ns++] = r->size_idx;
        }
    }
    if (!ns)
        return;
    const char *name = gpuk_op_name(op);
    fprintf(f, "\n# ---- ladder: %s\n$ladder_%s << EOD\n", name, name);
    int x = 0;
    for (int i = 0; i < b->n_be; i++) {
        int wrote = 0;
        /* the rungs by name, in ladder order as the rows first list them
         * (a rung of one name in several dtypes is one line) */
        const char *names[64];
        int nn = 0;
        for (size_t j = 0; j < b->n_rows && nn < 64; j++) {
            const brow *r = &b->rows[j];
            int seen = 0;
            for (int q = 0; q < nn; q++)
                seen |= !strcmp(names[q], r->variant);
            if (r->be == i && r->op == op && report_is_rung(r) && !seen)
                names[nn++] = r->variant;
        }
        for (int rung = 0; rung < nn; rung++) {
            const char *variant = names[rung];
            fprintf(f, "%d \"%s %s\"", x++, b->be[i].name, variant);
            for (int s = 0; s < ns; s++) {
                const brow *hit = NULL;
                for (size_t j = 0; j < b->n_rows && !hit; j++) {
                    const brow *r = &b->rows[j];
                    if (r->be == i && r->op == op && report_is_rung(r) &&
                        !strcmp(r->variant, variant) && r->size_idx == sizes[s] &&
                        r->status == ROW_OK)
                        hit = r;
                }
                if (hit && hit->ms_min > 0) /* a log axis has no 0 */
                    fprintf(f, " %g %g %g", hit->ms_med, hit->ms_min, hit->ms_max);
                else
                    fprintf(f, " NaN NaN NaN");
            }
            fprintf(f, "\n");
            wrote = 1;
        }
        if (wrote) {
            fprintf(f, "\n"); /* a blank line: no line joins two backends */
            x++;
        }
    }
    fprintf(f, "EOD\nreset\nset terminal pngcairo noenhanced size 1200,700 font 'DejaVu Sans,10'\n");
    fprintf(f, "set output '%s-ladder-%s.png'\n", prefix, name);
    fprintf(f, "set logscale y\nset grid ytics mytics\nset key outside right top title 'size'\n");
    fprintf(f, "set xtics rotate by -35 left nomirror\nset xrange [-0.7:%g]\n", x - 2 + 0.7);
    fprintf(f, "set ylabel 'ms per run (median; bars: min-max)'\n");
    fprintf(f, "set title 'libgpuk %s ladder: time per rung, %s'\nplot \\\n", name, b->date);
    for (int s = 0; s < ns; s++)
        fprintf(f, "  $ladder_%s u 1:%d:%d:%d:xtic(2) w yerrorlines lw 2 pt 7 t '%s'%s\n", name,
                3 + 3 * s, 4 + 3 * s, 5 + 3 * s, label[s], s + 1 < ns ? ", \\" : "");
}

static int find_gnuplot(char *buf, size_t len)
{
    const char *path = getenv("PATH");
    char dir[1000];
    for (size_t i = 0; path && *path; i++) {
        size_t w = strcspn(path, ":");
        snprintf(dir, sizeof dir, "%.*s", (int)w, path);
        snprintf(buf, len, "%s/gnuplot", dir);
        if (dir[0] == '/' && access(buf, X_OK) == 0)
            return 1;
        path += w + (path[w] == ':');
    }
    return 0;
}

int plot_write(bench *b, const char *prefix)
{
    char script[4096];
    snprintf(script, sizeof script, "%s.gp", prefix);
    FILE *f = fopen(script, "w");
    if (!f) {
        perror(script);
        return -1;
    }
    /* The PNG names in the script are relative to the script's folder,
     * so gnuplot runs there and the script can be moved with its data. */
    const char *base = base_name(prefix);
    fprintf(f, "# gpuk-bench charts, %s: run 'gnuplot %s.gp' in this folder\n", b->date, base);
    roofline(b, f, base);
    for (int op = GPUK_OP_FIRST; op <= GPUK_OP_LAST; op++)
        ladder(b, f, base, (gpuk_op)op);
    if (fclose(f) != 0) {
        fprintf(stderr, "gpuk-bench: could not write %s\n", script);
        return -1;
    }
    char gp[1024];
    if (!find_gnuplot(gp, sizeof gp)) {
        fprintf(stderr, "gpuk-bench: gnuplot not found in PATH: wrote %s; install gnuplot "
                        "(Debian: gnuplot-nox) and run 'gnuplot %s.gp' in its folder for the PNGs\n",
                script, base);
        return 0;
    }
    char dir[4096];
    snprintf(dir, sizeof dir, "%.*s", (int)(base - prefix), prefix);
    pid_t pid = fork();
    if (pid == 0) {
        if (dir[0] && chdir(dir) != 0)
            _exit(126);
        char arg[4200];
        snprintf(arg, sizeof arg, "%s.gp", base);
        execl(gp, "gnuplot", arg, (char *)NULL);
        _exit(127);
    }
    int ws = 0;
    if (pid < 0 || waitpid(pid, &ws, 0) < 0 || !WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
        fprintf(stderr, "gpuk-bench: %s %s.gp failed (exit %d); the script is kept\n", gp, base,
                WIFEXITED(ws) ? WEXITSTATUS(ws) : -1);
        return -1;
    }
    if (!b->conf.quiet)
        fprintf(stderr, "gpuk-bench: wrote %s and %s-roofline.png, %s-ladder-*.png\n", script,
                prefix, prefix);
    return 0;
}

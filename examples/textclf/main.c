/*
 * textclf - a text classifier run end to end on libgpuk's ops.
 *
 *   textclf --generate --model M --input I [--seed N] [dimensions]
 *       write a deterministic random model and batch of token ids
 *   textclf --model M --input I [--backend NAME] [options]
 *       classify the batch on one backend, print classes, probabilities
 *       and the time of each stage, and check against a float64 reference
 *   textclf --compare --model M --input I [options]
 *       run cpu and cuda in one process: classes identical, probabilities
 *       within the bound of the error analysis
 *
 * Exit status: 0 success; 1 an error or a mismatch; 2 bad usage; 77 for
 * --compare when the cuda backend cannot run here (automake's "skip").
 * The file formats are in FORMAT.md.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "net.h"

#define EXIT_SKIP 77

typedef struct opts {
    int generate, compare, check, repeat, warmup, show;
    const char *model, *input, *backend, *out;
    uint64_t seed;
    int64_t vocab, embed, hidden, classes, batch, tokens;
    const char *variant[GPUK_OP_LAST + 1];
} opts;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: textclf --generate --model FILE --input FILE [--seed N]\n"
            "               [--vocab V] [--embed E] [--hidden H] [--classes C]\n"
            "               [--batch B] [--tokens T]\n"
            "       textclf --model FILE --input FILE [--backend NAME] [--out FILE]\n"
            "               [--variant OP=NAME]... [--repeat N] [--warmup N] [--show N]\n"
            "               [--no-check]\n"
            "       textclf --compare --model FILE --input FILE [--variant OP=NAME]...\n"
            "               [--repeat N] [--warmup N]\n"
            "--backend defaults to $GPUK_BACKEND, else auto.  --show N prints the first N\n"
            "rows (0: all; default 16).  Exit: 0 ok, 1 error or mismatch, 2 usage,\n"
            "77 --compare without a usable GPU.  Formats: examples/textclf/FORMAT.md\n");
}

static int parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    char *end;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int parse_args(int argc, char **argv, opts *o)
{
    static const struct option lo[] = {
        { "generate", no_argument, 0, 'g' },  { "compare", no_argument, 0, 'c' },
        { "model", required_argument, 0, 'm' }, { "input", required_argument, 0, 'i' },
        { "backend", required_argument, 0, 'b' }, { "out", required_argument, 0, 'o' },
        { "variant", required_argument, 0, 'V' }, { "repeat", required_argument, 0, 'r' },
        { "warmup", required_argument, 0, 'w' }, { "show", required_argument, 0, 's' },
        { "no-check", no_argument, 0, 'n' },    { "seed", required_argument, 0, 'S' },
        { "vocab", required_argument, 0, 1 },   { "embed", required_argument, 0, 2 },
        { "hidden", required_argument, 0, 3 },  { "classes", required_argument, 0, 4 },
        { "batch", required_argument, 0, 5 },   { "tokens", required_argument, 0, 6 },
        { "help", no_argument, 0, 'h' },        { 0, 0, 0, 0 },
    };
    memset(o, 0, sizeof *o);
    o->check = 1;
    o->repeat = 10;
    o->warmup = 2;
    o->show = 16;
    o->seed = 2;
    o->vocab = 10000;
    o->embed = 128;
    o->hidden = 256;
    o->classes = 8;
    o->batch = 64;
    o->tokens = 128;
    int c;
    int64_t v;
    int64_t *dims[7] = { NULL, &o->vocab, &o->embed, &o->hidden, &o->classes, &o->batch,
                         &o->tokens };
    while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        switch (c) {
        case 'g': o->generate = 1; break;
        case 'c': o->compare = 1; break;
        case 'm': o->model = optarg; break;
        case 'i': o->input = optarg; break;
        case 'b': o->backend = optarg; break;
        case 'o': o->out = optarg; break;
        case 'n': o->check = 0; break;
        case 'h': usage(stdout); exit(0);
        case 'r':
        case 'w':
        case 's':
            if (parse_i64(optarg, c == 'r' ? 1 : 0, 1000000, &v) != 0) {
                fprintf(stderr, "textclf: bad count '%s'\n", optarg);
                return -1;
            }
            *(c == 'r' ? &o->repeat : c == 'w' ? &o->warmup : &o->show) = (int)v;
            break;
        case 'S':
            if (parse_i64(optarg, 0, INT64_MAX, &v) != 0) {
                fprintf(stderr, "textclf: bad seed '%s'\n", optarg);
                return -1;
            }
            o->seed = (uint64_t)v;
            break;
        case 'V': {
            const char *eq = strchr(optarg, '=');
            char name[32];
            gpuk_op op;
            if (!eq || eq == optarg || (size_t)(eq - optarg) >= sizeof name || !eq[1]) {
                fprintf(stderr, "textclf: --variant wants OP=NAME, got '%s'\n", optarg);
                return -1;
            }
            memcpy(name, optarg, (size_t)(eq - optarg));
            name[eq - optarg] = '\0';
            if (gpuk_op_from_name(name, &op) != GPUK_OK) {
                fprintf(stderr, "textclf: --variant: '%s' is not an op\n", name);
                return -1;
            }
            o->variant[op] = eq + 1;
            break;
        }
        case 1: case 2: case 3: case 4: case 5: case 6:
            if (parse_i64(optarg, 1, 2147483647, dims[c]) != 0) {
                fprintf(stderr, "textclf: bad dimension '%s'\n", optarg);
                return -1;
            }
            break;
        default:
            return -1;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "textclf: unexpected argument '%s'\n", argv[optind]);
        return -1;
    }
    if (!o->model || !o->input) {
        fprintf(stderr, "textclf: --model and --input are required\n");
        return -1;
    }
    if (o->generate && o->compare) {
        fprintf(stderr, "textclf: --generate and --compare exclude each other\n");
        return -1;
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* ------------------------------------------------------------ checks */

/* How a float32 result compares to the reference: returns the number of
 * failures and prints one summary line. */
static int check_ref(const char *label, const tc_ref *r, const float *p, int64_t B, int64_t C)
{
    int bad = 0, ties = 0, same = 0;
    double worst = 0.0, worst_diff = 0.0, worst_bound = 0.0;
    for (int64_t s = 0; s < B; s++) {
        for (int64_t c = 0; c < C; c++) {
            double d = fabs((double)p[s * C + c] - r->probs[s * C + c]);
            double b = r->bound[s * C + c];
            if (!(d <= b))   /* NaN fails too */
                bad++;
            if (!(d / b <= worst)) {
                worst = d / b;
                worst_diff = d;
                worst_bound = b;
            }
        }
        int32_t k = tc_argmax(p + s * C, C);
        if (k == r->cls[s])
            same++;
        else if (r->margin[s] <= 2.0 * r->zerr[s])
            ties++;   /* the two top logits are closer than rounding can tell */
        else
            bad++;
    }
    printf("check: %s vs float64 reference: classes %d/%lld identical%s, "
           "max |dp| %.3g where the bound is %.3g (%.2g of it): %s\n",
           label, same, (long long)B, ties ? " (rest: ties within rounding)" : "", worst_diff,
           worst_bound, worst, bad ? "FAIL" : "ok");
    return bad;
}

static void print_rows(const float *p, int64_t B, int64_t C, int show)
{
    int64_t rows = show == 0 || show > B ? B : show;
    int64_t cols = C > 10 ? 10 : C;
    printf("%5s %6s %9s  probabilities\n", "seq", "class", "p(class)");
    for (int64_t s = 0; s < rows; s++) {
        int32_t k = tc_argmax(p + s * C, C);
        printf("%5lld %6d %9.6f ", (long long)s, k, p[s * C + k]);
        for (int64_t c = 0; c < cols; c++)
            printf(" %.6f", p[s * C + c]);
        printf("%s\n", cols < C ? " ..." : "");
    }
    if (rows < B)
        printf("  ... %lld more rows (--show 0 prints all)\n", (long long)(B - rows));
}

/* ------------------------------------------------------------ running */

typedef struct run {
    tc_net net;
    float *probs;
    double stage_ms[TC_NSTAGES];   /* medians */
    double compute_ms, total_ms;   /* medians */
} run;

/* Open, load, warm up, time, and leave the last probabilities in r->probs.
 * Returns the status; r->net.err says what failed. */
static gpuk_status run_backend(run *r, const char *backend, const opts *o, const tc_model *m,
                               const tc_batch *b)
{
    gpuk_status st = tc_net_open(&r->net, backend);
    if (st != GPUK_OK)
        return st;
    memcpy(r->net.variant, o->variant, sizeof r->net.variant);
    if ((st = tc_net_load(&r->net, m, b->batch, b->tokens)) != GPUK_OK)
        return st;
    r->probs = malloc((size_t)(b->batch * m->classes) * sizeof *r->probs);
    double *samples = malloc((size_t)o->repeat * (TC_NSTAGES + 2) * sizeof *samples);
    if (!r->probs || !samples) {
        free(samples);
        snprintf(r->net.err, sizeof r->net.err, "out of memory");
        return GPUK_ERR_NO_MEMORY;
    }
    for (int i = 0; i < o->warmup; i++)
        if ((st = tc_net_forward(&r->net, b->ids, r->probs, NULL)) != GPUK_OK)
            goto out;
    /* per stage (a wait after each), then the whole forward as one
     * interval: the first says where time goes, the second what a batch
     * costs */
    for (int i = 0; i < o->repeat; i++) {
        double ms[TC_NSTAGES];
        if ((st = tc_net_forward(&r->net, b->ids, r->probs, ms)) != GPUK_OK)
            goto out;
        for (int s = 0; s < TC_NSTAGES; s++)
            samples[s * o->repeat + i] = ms[s];
    }
    for (int i = 0; i < o->repeat; i++) {
        double *cm = &samples[TC_NSTAGES * o->repeat + i];
        double *tm = &samples[(TC_NSTAGES + 1) * o->repeat + i];
        if ((st = tc_net_forward_timed(&r->net, b->ids, r->probs, cm, tm)) != GPUK_OK)
            goto out;
    }
    for (int s = 0; s < TC_NSTAGES; s++)
        r->stage_ms[s] = median(&samples[s * o->repeat], o->repeat);
    r->compute_ms = median(&samples[TC_NSTAGES * o->repeat], o->repeat);
    r->total_ms = median(&samples[(TC_NSTAGES + 1) * o->repeat], o->repeat);
out:
    free(samples);
    return st;
}

static void print_backend(const run *r)
{
    gpuk_info info;
    if (gpuk_context_info(r->net.ctx, &info) == GPUK_OK)
        printf("backend: %s %s on %s (plugin %s)\n", info.backend, info.backend_version,
               info.device, info.backend_path);
}

static void print_times(const run *r, int repeat)
{
    const char *be = r->net.backend;
    for (int s = 0; s < TC_NSTAGES; s++)
        printf("time: backend=%s stage=%s median_ms=%.4f\n", be, tc_stage_name[s],
               r->stage_ms[s]);
    printf("time: backend=%s stage=forward median_ms=%.4f (embedding..softmax, one interval)\n",
           be, r->compute_ms);
    printf("time: backend=%s stage=end_to_end median_ms=%.4f (upload..download, host clock; "
           "%d repeats)\n", be, r->total_ms, repeat);
}

static void run_free(run *r)
{
    tc_net_close(&r->net);
    free(r->probs);
    r->probs = NULL;
}

static int reference(const tc_model *m, const tc_batch *b, int tf32, tc_ref *ref)
{
    char err[512];
    if (tc_reference(m, b, tf32 ? ldexp(1.0, -11) : ldexp(1.0, -24), ref, err, sizeof err)) {
        fprintf(stderr, "textclf: %s\n", err);
        return -1;
    }
    return 0;
}

static int do_run(const opts *o, const tc_model *m, const tc_batch *b)
{
    run r;
    memset(&r, 0, sizeof r);
    int rc = 1;
    if (run_backend(&r, o->backend, o, m, b) != GPUK_OK) {
        fprintf(stderr, "textclf: %s\n", r.net.err);
        goto out;
    }
    print_backend(&r);
    print_rows(r.probs, b->batch, m->classes, o->show);
    print_times(&r, o->repeat);
    if (o->out) {
        char err[512];
        int32_t *cls = malloc((size_t)b->batch * sizeof *cls);
        if (!cls) {
            fprintf(stderr, "textclf: out of memory\n");
            goto out;
        }
        for (int64_t s = 0; s < b->batch; s++)
            cls[s] = tc_argmax(r.probs + s * m->classes, m->classes);
        int w = tc_probs_write(o->out, b->batch, m->classes, r.probs, cls, err, sizeof err);
        free(cls);
        if (w != 0) {
            fprintf(stderr, "textclf: %s\n", err);
            goto out;
        }
        printf("wrote %s\n", o->out);
    }
    rc = 0;
    if (o->check) {
        tc_ref ref;
        if (reference(m, b, tc_net_matmul_is_tf32(&r.net), &ref) != 0)
            rc = 1;
        else {
            rc = check_ref(r.net.backend, &ref, r.probs, b->batch, m->classes) ? 1 : 0;
            tc_ref_free(&ref);
        }
    }
out:
    run_free(&r);
    return rc;
}

static int do_compare(const opts *o, const tc_model *m, const tc_batch *b)
{
    run rc_cpu, rc_gpu;
    memset(&rc_cpu, 0, sizeof rc_cpu);
    memset(&rc_gpu, 0, sizeof rc_gpu);
    int rc = 1;
    gpuk_status st = run_backend(&rc_gpu, "cuda", o, m, b);
    if (st == GPUK_ERR_BACKEND_NOT_FOUND || st == GPUK_ERR_BACKEND_LOAD ||
        st == GPUK_ERR_NO_DRIVER || st == GPUK_ERR_NO_DEVICE) {
        printf("compare: cuda unavailable, nothing to compare: %s\n", rc_gpu.net.err);
        rc = EXIT_SKIP;
        goto out;
    }
    if (st != GPUK_OK) {
        fprintf(stderr, "textclf: cuda: %s\n", rc_gpu.net.err);
        goto out;
    }
    if (run_backend(&rc_cpu, "cpu", o, m, b) != GPUK_OK) {
        fprintf(stderr, "textclf: cpu: %s\n", rc_cpu.net.err);
        goto out;
    }
    print_backend(&rc_cpu);
    print_backend(&rc_gpu);
    tc_ref ref;
    int tf32 = tc_net_matmul_is_tf32(&rc_cpu.net) || tc_net_matmul_is_tf32(&rc_gpu.net);
    if (reference(m, b, tf32, &ref) != 0)
        goto out;
    int64_t B = b->batch, C = m->classes;
    int bad = 0, ties = 0, same = 0;
    double worst = 0.0, worst_diff = 0.0, worst_bound = 0.0;
    for (int64_t s = 0; s < B; s++) {
        int32_t k1 = tc_argmax(rc_cpu.probs + s * C, C), k2 = tc_argmax(rc_gpu.probs + s * C, C);
        if (k1 == k2)
            same++;
        else if (ref.margin[s] <= 2.0 * ref.zerr[s])
            ties++;
        else
            bad++;
        for (int64_t c = 0; c < C; c++) {
            /* each side within its bound of the reference */
            double d = fabs((double)rc_cpu.probs[s * C + c] - rc_gpu.probs[s * C + c]);
            double allowed = 2.0 * ref.bound[s * C + c];
            if (!(d <= allowed))
                bad++;
            if (!(d / allowed <= worst)) {
                worst = d / allowed;
                worst_diff = d;
                worst_bound = allowed;
            }
        }
    }
    printf("compare: classes %d/%lld identical%s\n", same, (long long)B,
           ties ? " (rest: ties within rounding)" : "");
    printf("compare: max |p_cpu - p_cuda| %.3g where %.3g is allowed (%.2g of it)\n", worst_diff,
           worst_bound, worst);
    bad += check_ref("cpu", &ref, rc_cpu.probs, B, C);
    bad += check_ref("cuda", &ref, rc_gpu.probs, B, C);
    tc_ref_free(&ref);
    print_times(&rc_cpu, o->repeat);
    print_times(&rc_gpu, o->repeat);
    printf("compare: %s\n", bad ? "FAIL" : "PASS");
    rc = bad ? 1 : 0;
out:
    run_free(&rc_cpu);
    run_free(&rc_gpu);
    return rc;
}

int main(int argc, char **argv)
{
    opts o;
    char err[512];
    if (parse_args(argc, argv, &o) != 0) {
        usage(stderr);
        return 2;
    }
    tc_model m;
    tc_batch b;
    if (o.generate) {
        if (tc_generate(o.seed, o.vocab, o.embed, o.hidden, o.classes, o.batch, o.tokens, &m, &b,
                        err, sizeof err) != 0 ||
            tc_model_write(o.model, &m, err, sizeof err) != 0 ||
            tc_batch_write(o.input, &b, err, sizeof err) != 0) {
            fprintf(stderr, "textclf: %s\n", err);
            tc_model_free(&m);
            tc_batch_free(&b);
            return 1;
        }
        printf("generated seed %llu: model %s (vocab %lld, embed %lld, hidden %lld, classes "
               "%lld), input %s (batch %lld x %lld tokens)\n",
               (unsigned long long)o.seed, o.model, (long long)o.vocab, (long long)o.embed,
               (long long)o.hidden, (long long)o.classes, o.input, (long long)o.batch,
               (long long)o.tokens);
        tc_model_free(&m);
        tc_batch_free(&b);
        return 0;
    }
    if (tc_model_read(o.model, &m, err, sizeof err) != 0) {
        fprintf(stderr, "textclf: %s\n", err);
        return 1;
    }
    if (tc_batch_read(o.input, &b, err, sizeof err) != 0) {
        fprintf(stderr, "textclf: %s\n", err);
        tc_model_free(&m);
        return 1;
    }
    printf("model: vocab %lld, embed %lld, hidden %lld, classes %lld; input: %lld sequences x "
           "%lld tokens\n", (long long)m.vocab, (long long)m.embed, (long long)m.hidden,
           (long long)m.classes, (long long)b.batch, (long long)b.tokens);
    int rc = o.compare ? do_compare(&o, &m, &b) : do_run(&o, &m, &b);
    tc_model_free(&m);
    tc_batch_free(&b);
    return rc;
}

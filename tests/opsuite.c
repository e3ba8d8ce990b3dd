/*
 * opsuite.c - the op suite (see opsuite.h).
 *
 * Every tensor lives in the middle of a larger 1-D storage tensor: the
 * rest of the storage (guards before and after, and the padding between
 * rows of a strided view) holds a sentinel, and the whole storage is read
 * back after the op.  An output's elements start as a NaN poison, so an
 * element the kernel forgets fails, a write outside the view changes a
 * sentinel, and a write into an input shows up as a changed input.
 *
 * The cases (shapes, layouts, inputs, reference) come from the op's
 * descriptor (opcases.c, tests/ops/), in each dtype it lists (f32 and
 * f64; i32 too for min-plus); each is generated once from the seed and
 * run through every variant of the op in the case's dtype (its lead
 * operand's), so a failure replays with GPUK_TEST_SEED alone.  A dtype
 * the backend has no variant of the op in is one TAP skip naming it
 * (f32, which every op has, is a failure instead).  An i32 output is
 * compared as integers, always exactly.
 */
#include "opsuite.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gpuk.h>

#include "opcall.h"
#include "opcases.h"
#include "optest.h"
#include "ref.h"
#include "tap.h"

/* Storage outside every view holds the sentinel; output elements start as
 * a quiet NaN poison (a plain number in i32).  Both per element size:
 * 0xBEEF and 0x7FC1 are a finite value and a NaN in f16 and bf16 alike. */
#define SENTINEL 0xDEADBEEFDEADBEEFull
#define POISON8 0x7FF8BAD0BAD0BAD0ull
#define POISON4 0x7FC0BAD0u
#define POISON2 0x7FC1u

typedef struct suite {
    const char *be;
    gpuk_context *ctx, *cpu;
    gpuk_context *log; /* the same backend with GPUK_VERBOSE=2: its op log names each rung */
    uint32_t cpu_flags; /* flags of the CPU's default variant of the current op and dtype */
    int cpu_has;        /* the CPU lists a variant of the current op in its dtype */
    unsigned long long seed;
    int quick;        /* GPUK_TEST_QUICK: only the smaller cases */
    uint32_t dtypes;  /* GPUK_TEST_DTYPES: the dtypes to run (GPUK_DTYPE_BIT each) */
} suite;

/* " f64" after the op in a check's name, nothing for f32 (the names f32
 * checks always had) */
static const char *dt_tag(gpuk_dtype dt, char *buf, size_t n)
{
    if (dt == GPUK_F32)
        buf[0] = '\0';
    else
        snprintf(buf, n, " %s", gpuk_dtype_name(dt));
    return buf;
}

/* Significant digits that tell two values of dt apart. */
static int digits(gpuk_dtype dt)
{
    return dt == GPUK_F64 ? 17 : 10;
}

/* One element's worth of a pattern (the low es bytes of w). */
static void put_pattern(unsigned char *p, size_t es, uint64_t w)
{
    memcpy(p, &w, es);
}

/* The storage as written: sentinel, with the values (or poison) in place. */
static unsigned char *arg_image(const oc_arg *t)
{
    size_t es = gpuk_dtype_size(t->dtype);
    uint64_t poison = es == 8 ? POISON8 : es == 4 ? POISON4 : POISON2;
    unsigned char *img = oc_alloc((size_t)t->storage * es);
    for (int64_t p = 0; p < t->storage; p++)
        put_pattern(img + p * es, es, SENTINEL);
    for (int64_t i = 0; i < t->numel; i++) {
        unsigned char *at = img + oc_arg_pos(t, i) * es;
        if (t->vals)
            memcpy(at, (const char *)t->vals + i * es, es);
        else
            put_pattern(at, es, poison);
    }
    return img;
}

/* The case's call: its operands (views) and scalars through the shared
 * opcall (opcall.h). */
static gpuk_status launch(gpuk_context *x, const oc_case *c, gpuk_tensor *const *in,
                          gpuk_tensor *out, const gpuk_csr *csr, const char *v)
{
    opcall_args a;
    opcall_init(&a, c->op);
    for (int i = 0; i < c->n_in; i++)
        a.in[i] = in[i];
    a.out = out;
    a.csr = csr;
    a.alpha = c->alpha, a.beta = c->beta;
    a.trans_a = c->ta, a.trans_b = c->tb, a.axis = c->axis, a.kind = c->kind;
    return opcall(x, &a, v);
}

int opsuite_run_case(gpuk_context *ctx, const oc_case *c, const char *v, void *got, char *why,
                     size_t wl)
{
    gpuk_tensor *base[4] = { 0 }, *view[4] = { 0 };
    unsigned char *img[4] = { 0 };
    const oc_arg *a[4];
    gpuk_csr *csr = NULL;
    gpuk_status st = GPUK_OK;
    const char *stage = "";
    int na = c->n_in + 1, outi = c->out.alias >= 0 ? c->out.alias : c->n_in, ok = 1;

    for (int i = 0; i < c->n_in; i++)
        a[i] = &c->in[i];
    a[c->n_in] = &c->out;
    for (int i = 0; i < na && st == GPUK_OK; i++) {
        if (a[i]->alias >= 0) {
            view[i] = view[a[i]->alias];
            continue;
        }
        size_t bytes = (size_t)a[i]->storage * gpuk_dtype_size(a[i]->dtype);
        img[i] = arg_image(a[i]);
        stage = "gpuk_tensor_create";
        st = gpuk_tensor_create(ctx, a[i]->dtype, 1, &a[i]->storage, &base[i]);
        if (st == GPUK_OK) {
            stage = "gpuk_tensor_write";
            st = gpuk_tensor_write(ctx, base[i], img[i], bytes);
        }
        if (st == GPUK_OK) {
            stage = "gpuk_tensor_view";
            st = gpuk_tensor_view(ctx, base[i], a[i]->ndim, a[i]->shape, a[i]->stride,
                                  a[i]->front, &view[i]);
        }
    }
    if (st == GPUK_OK && c->rp) { /* the case's CSR matrix, of its dtype */
        stage = "gpuk_csr_create_dtype";
        st = gpuk_csr_create_dtype(ctx, oc_dtype(c), c->rows, c->cols, c->nnz, c->rp, c->ci,
                                   c->cv, &csr);
    }
    if (st == GPUK_OK) {
        stage = gpuk_op_name(c->op);
        st = launch(ctx, c, view, view[c->n_in], csr, v);
    }
    if (st != GPUK_OK) {
        snprintf(why, wl, "%s returned %s (%d): %s", stage, gpuk_strerror(st), (int)st,
                 gpuk_context_error(ctx));
        ok = 0;
    }
    for (int i = 0; ok && i < na; i++) {
        if (!base[i])
            continue;
        size_t es = gpuk_dtype_size(a[i]->dtype);
        unsigned char *buf = oc_alloc((size_t)a[i]->storage * es);
        st = gpuk_tensor_read(ctx, base[i], buf, (size_t)a[i]->storage * es);
        if (st != GPUK_OK) {
            snprintf(why, wl, "gpuk_tensor_read returned %s: %s", gpuk_strerror(st),
                     gpuk_context_error(ctx));
            ok = 0;
        }
        for (int64_t e = 0; ok && i == outi && e < c->out.numel; e++) {
            int64_t p = oc_arg_pos(&c->out, e);
            memcpy((char *)got + e * es, buf + p * es, es);
            memcpy(buf + p * es, img[i] + p * es, es); /* so the rest must equal the image */
        }
        for (int64_t p = 0; ok && p < a[i]->storage; p++)
            if (memcmp(buf + p * es, img[i] + p * es, es) != 0) {
                uint64_t now = 0, was = 0;
                memcpy(&now, buf + p * es, es);
                memcpy(&was, img[i] + p * es, es);
                if (i == outi)
                    snprintf(why, wl, "wrote outside the output view: storage element %lld "
                             "(view starts at %lld) is 0x%0*llx, not the guard",
                             (long long)p, (long long)a[i]->front, (int)(2 * es),
                             (unsigned long long)now);
                else
                    snprintf(why, wl, "input %d changed: storage element %lld is 0x%0*llx, "
                             "was 0x%0*llx", i, (long long)p, (int)(2 * es),
                             (unsigned long long)now, (int)(2 * es), (unsigned long long)was);
                ok = 0;
            }
        free(buf);
    }
    gpuk_csr_destroy(ctx, csr);
    for (int i = 0; i < na; i++) {
        if (base[i]) {
            gpuk_tensor_destroy(ctx, view[i]);
            gpuk_tensor_destroy(ctx, base[i]);
        }
        free(img[i]);
    }
    return ok;
}

/* ---- checks ---- */

/* One TAP line for a comparison; want/bnd describe the first bad element. */
static void report(const suite *s, const char *name, const oc_case *c, const ref_cmp *r,
                   const void *got, ref_real want, double bnd, const char *wname)
{
    if (r->bad) {
        long long i = (long long)r->first_bad;
        int dg = digits(c->out.dtype);
        tap_ok(0, "%s: %lld of %lld elements wrong, first [%lld] got %.*Lg %s %.*Lg "
               "(bound %.3g); max err %.3g (seed %llu)", name, (long long)r->bad,
               (long long)r->n, i, dg, ref_get(c->out.dtype, got, i), wname, dg, want, bnd,
               r->max_err, s->seed);
    } else if (r->n == 0) {
        tap_ok(1, "%s: empty output, storage untouched (seed %llu)", name, s->seed);
    } else if (c->exact) {
        tap_ok(1, "%s: bit-exact, %lld elements (seed %llu)", name, (long long)r->n, s->seed);
    } else if (r->worst_ratio < 0) {
        tap_ok(1, "%s: %lld elements, NaN/inf where expected (seed %llu)", name,
               (long long)r->n, s->seed);
    } else if (r->max_err == 0.0) {
        tap_ok(1, "%s: max err 0 over %lld elements (seed %llu)", name, (long long)r->n,
               s->seed);
    } else {
        tap_ok(1, "%s: max err %.3g <= bound; worst err/bound %.3g, bound %.3g there "
               "(seed %llu)", name, r->max_err, r->worst_ratio, r->worst_bound, s->seed);
    }
}

/* The backend against the CPU backend's default variant, on the same
 * inputs: within the sum of both bounds, or bit for bit.  A dtype the
 * CPU has no variant in is a skip that says so. */
static void cross(const suite *s, oc_case *c, const char *name, const void *got, int tf)
{
    char why[512], cname[216];
    int ctf = (s->cpu_flags & GPUK_VARIANT_TF32) != 0;
    gpuk_dtype dt = c->out.dtype;
    size_t es = gpuk_dtype_size(dt);
    ref_cmp r;
    snprintf(cname, sizeof cname, "%s vs cpu", name);
    if (!s->cpu_has) {
        tap_skip("%s: the cpu backend has no %s variant of %s", cname,
                 gpuk_dtype_name(oc_dtype(c)), gpuk_op_name(c->op));
        return;
    }
    if (!c->cpu_tried) {
        c->cpu_tried = 1;
        c->cpu_out = oc_alloc((size_t)c->out.numel * es);
        if (!opsuite_run_case(s->cpu, c, NULL, c->cpu_out, why, sizeof why)) {
            tap_diag("cpu backend failed on %s %s: %s", gpuk_op_name(c->op), c->label, why);
            free(c->cpu_out);
            c->cpu_out = NULL;
        }
    }
    if (!c->cpu_out) {
        tap_ok(0, "%s: the cpu backend failed on this case (seed %llu)", cname, s->seed);
        return;
    }
    if (!c->ref[ctf])
        oc_ref(c, ctf);
    ref_compare_pair(dt, c->out.numel, got, c->cpu_out, c->bound[tf], c->bound[ctf], c->exact,
                     &r);
    int64_t i = r.first_bad < 0 ? 0 : r.first_bad;
    report(s, cname, c, &r, got, r.n ? ref_get(dt, c->cpu_out, i) : 0.0L,
           r.n ? c->bound[tf][i] + c->bound[ctf][i] : 0.0, "cpu");
}

static void check(const suite *s, oc_case *c, const char *vname, uint32_t flags)
{
    int tf = (flags & GPUK_VARIANT_TF32) != 0;
    void *got = oc_alloc((size_t)c->out.numel * gpuk_dtype_size(c->out.dtype));
    char why[512], name[200], tag[16];
    ref_cmp r;
    snprintf(name, sizeof name, "%s %s/%s%s %s", s->be, gpuk_op_name(c->op),
             vname ? vname : "(default)", dt_tag(oc_dtype(c), tag, sizeof tag), c->label);
    if (!opsuite_run_case(s->ctx, c, vname, got, why, sizeof why)) {
        tap_ok(0, "%s: %s (seed %llu)", name, why, s->seed);
    } else {
        if (!c->ref[tf])
            oc_ref(c, tf);
        ref_compare(c->out.dtype, c->out.numel, got, c->ref[tf], c->bound[tf], c->exact, &r);
        int64_t i = r.first_bad < 0 ? 0 : r.first_bad;
        report(s, name, c, &r, got, r.n ? c->ref[tf][i] : 0.0L, r.n ? c->bound[tf][i] : 0.0,
               "want");
        if (s->cpu)
            cross(s, c, name, got, tf);
    }
    free(got);
}


/* The flags of op's default variant in dtype on ctx (0 if it lists none). */
static uint32_t default_flags(gpuk_context *ctx, gpuk_op op, gpuk_dtype dt)
{
    size_t n = 0;
    gpuk_variant_info vi;
    if (gpuk_variant_count_dtype(ctx, op, dt, &n) != GPUK_OK)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (gpuk_variant_get_dtype(ctx, op, dt, i, &vi) == GPUK_OK &&
            (vi.flags & GPUK_VARIANT_DEFAULT))
            return vi.flags;
    return 0;
}

/* Element operations of a case, roughly: for the products, outputs times
 * the inner length; otherwise the elements moved.  GPUK_TEST_QUICK=1 (set
 * by the compute-sanitizer runs, where kernels run 10-100x slower) skips
 * the cases above QUICK_WORK. */
#define QUICK_WORK (1 << 20)

static int64_t case_work(const oc_case *c)
{
    int64_t w = c->out.numel;
    /* the products (their descriptors say so) by outputs x k; every other
     * op by the elements it moves: a rough figure that only picks what
     * QUICK leaves out */
    if (optest_of(c->op)->products)
        return w * (c->k > 0 ? c->k : 1);
    for (int i = 0; i < c->n_in; i++)
        w += c->in[i].numel;
    return w + c->nnz;
}

/* ---- aliases ----
 *
 * A rung renamed keeps its old name as an alias (min-plus: v0..v5), and
 * the alias must reach the very rung its name does, not merely one that
 * gives the same answer (every min-plus rung gives the same bits).  The
 * op log of a GPUK_VERBOSE=2 context says which rung ran ("gpuk: cpu
 * minplus/omp in[...] ..." on stderr), so the call through the alias runs
 * with stderr sent to a scratch file, and the log must name the rung. */

/* Run c on s->log through variant v with stderr captured into log. */
static int run_logged(suite *s, const oc_case *c, const char *v, void *got, char *why,
                      size_t wl, char *log, size_t ll)
{
    const char *td = getenv("TMPDIR");
    char path[256];
    snprintf(path, sizeof path, "%s/gpuk-oplog-XXXXXX", td && *td ? td : "/tmp");
    int fd = mkstemp(path), saved = -1, ran = 0;
    log[0] = '\0';
    if (fd < 0 || (saved = dup(2)) < 0) {
        snprintf(why, wl, "no scratch file for the op log: %s", strerror(errno));
        if (fd >= 0)
            close(fd);
        return 0;
    }
    unlink(path);
    fflush(stderr);
    dup2(fd, 2);
    if (!s->log) {
        gpuk_options o;
        gpuk_options_init(&o);
        o.backend = s->be;
        o.verbose = 2;
        if (gpuk_context_open_ex(&s->log, &o, NULL) != GPUK_OK)
            s->log = NULL;
    }
    if (s->log)
        ran = opsuite_run_case(s->log, c, v, got, why, wl);
    else
        snprintf(why, wl, "a GPUK_VERBOSE=2 context on %s did not open", s->be);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    ssize_t n = pread(fd, log, ll - 1, 0);
    log[n > 0 ? n : 0] = '\0';
    close(fd);
    return ran;
}

static void alias_runs_rung(suite *s, const oc_case *c, const gpuk_variant_info *vi)
{
    char why[512] = "", log[4096], want[160], name[200], tag[16];
    void *got = oc_alloc((size_t)c->out.numel * gpuk_dtype_size(c->out.dtype));
    snprintf(name, sizeof name, "%s %s/%s%s %s", s->be, gpuk_op_name(c->op), vi->alias,
             dt_tag(oc_dtype(c), tag, sizeof tag), c->label);
    snprintf(want, sizeof want, " %s/%s ", gpuk_op_name(c->op), vi->name);
    int ran = run_logged(s, c, vi->alias, got, why, sizeof why, log, sizeof log);
    const char *line = strstr(log, "gpuk: ");
    if (!ran)
        tap_ok(0, "%s: through the alias: %s", name, why);
    else if (!tap_ok(strstr(log, want) != NULL, "%s: the alias of %s runs %s (the op log names "
                     "it)", name, vi->name, vi->name))
        tap_diag("op log: %.*s", line ? (int)strcspn(line, "\n") : 0, line ? line : "");
    free(got);
}

/* The variants of one (op, dtype), listed when its first case comes. */
typedef struct vlist {
    int listed;              /* 1: listed (ok or not); 2: and usable */
    size_t n;
    gpuk_variant_info *vi;
    uint32_t cpu_flags;      /* the CPU's default variant's flags in this dtype */
    int cpu_has;             /* the CPU lists a variant in this dtype */
    int cases;               /* cases of this dtype run so far */
    int skipped;             /* cases of this dtype not run: no variant to run them on */
} vlist;

/* Does the backend of ctx list a variant of op in any dtype? */
static int has_op(gpuk_context *ctx, gpuk_op op)
{
    size_t n = 0;
#define OPSUITE_HAS_(id, value, name, bytes, dlcode, prec)                          \
    if (gpuk_variant_count_dtype(ctx, op, GPUK_##id, &n) == GPUK_OK && n > 0)      \
        return 1;
    GPUK_DTYPE_MAP(OPSUITE_HAS_)
#undef OPSUITE_HAS_
    return 0;
}

/* List the variants of (op, dt): one check for f32 (the line as it always
 * read), which every op a backend has at all has; another dtype without a
 * variant, or an op the backend lacks entirely (cast on cuda), is left to
 * the skip op_suite reports after its cases.  0 when there are none to
 * run. */
static int list_variants(const suite *s, gpuk_op op, gpuk_dtype dt, vlist *l)
{
    size_t nv = 0;
    gpuk_status st = gpuk_variant_count_dtype(s->ctx, op, dt, &nv);
    char what[16];
    l->listed = 1;
    dt_tag(dt, what, sizeof what);
    if (st == GPUK_OK && nv == 0 && (dt != GPUK_F32 || !has_op(s->ctx, op)))
        return 0;
    if (!tap_ok(st == GPUK_OK && nv > 0, "%s %s%s: %zu variants listed%s%s", s->be,
                gpuk_op_name(op), what, nv, st != GPUK_OK ? ": " : "",
                st != GPUK_OK ? gpuk_context_error(s->ctx) : ""))
        return 0;
    l->n = nv;
    l->vi = oc_alloc(nv * sizeof *l->vi);
    for (size_t v = 0; v < nv; v++) {
        st = gpuk_variant_get_dtype(s->ctx, op, dt, v, &l->vi[v]);
        if (st != GPUK_OK) {
            tap_ok(0, "%s %s%s: gpuk_variant_get_dtype(%zu) returned %s: %s", s->be,
                   gpuk_op_name(op), what, v, gpuk_strerror(st), gpuk_context_error(s->ctx));
            l->vi[v].name = NULL;
        }
    }
    if (s->cpu) {
        size_t ncpu = 0;
        l->cpu_has = gpuk_variant_count_dtype(s->cpu, op, dt, &ncpu) == GPUK_OK && ncpu > 0;
        l->cpu_flags = default_flags(s->cpu, op, dt);
    }
    l->listed = 2;
    return 1;
}

/* Every case of op in dt through every variant the backend lists in dt,
 * and the second case once more through the default variant (variant
 * NULL) and through every alias. */
static void dtype_suite(suite *s, gpuk_op op, gpuk_dtype dt)
{
    vlist l;
    oc_case c;
    char what[16];
    memset(&l, 0, sizeof l);
    for (int idx = 0; oc_build(op, dt, idx, s->seed, &c); idx++) {
        if (!l.listed)
            list_variants(s, op, dt, &l);
        if (l.listed != 2) {
            l.skipped++;
            oc_free(&c);
            continue;
        }
        if (s->quick && case_work(&c) > QUICK_WORK) {
            oc_free(&c);
            continue;
        }
        s->cpu_flags = l.cpu_flags;
        s->cpu_has = l.cpu_has;
        for (size_t v = 0; v < l.n; v++)
            if (l.vi[v].name)
                check(s, &c, l.vi[v].name, l.vi[v].flags);
        if (l.cases++ == 1) {
            check(s, &c, NULL, default_flags(s->ctx, op, dt));
            for (size_t v = 0; v < l.n; v++)
                if (l.vi[v].name && l.vi[v].alias) {
                    check(s, &c, l.vi[v].alias, l.vi[v].flags);
                    alias_runs_rung(s, &c, &l.vi[v]);
                }
        }
        oc_free(&c);
    }
    if (l.listed == 1 && (dt != GPUK_F32 || !has_op(s->ctx, op)))
        tap_skip("%s %s%s: the backend lists no %s variant of the op; its %d cases not run",
                 s->be, gpuk_op_name(op), dt_tag(dt, what, sizeof what), gpuk_dtype_name(dt),
                 l.skipped);
    free(l.vi);
}

/* The op in every dtype of gpuk.h's list its descriptor has cases in
 * (oc_build answers 0 at once for the others) and GPUK_TEST_DTYPES
 * names. */
static void op_suite(suite *s, gpuk_op op)
{
#define OPSUITE_DT_(id, value, name, bytes, dlcode, prec)        \
    if (s->dtypes & GPUK_DTYPE_BIT(GPUK_##id))                  \
        dtype_suite(s, op, GPUK_##id);
    GPUK_DTYPE_MAP(OPSUITE_DT_)
#undef OPSUITE_DT_
}

uint32_t opsuite_dtypes(void)
{
    const char *e = getenv("GPUK_TEST_DTYPES");
    uint32_t set = 0;
    char buf[128];
    if (!e || !*e)
        return ~0u;
    snprintf(buf, sizeof buf, "%s", e);
    for (char *save = NULL, *w = strtok_r(buf, ", ", &save); w; w = strtok_r(NULL, ", ", &save)) {
        gpuk_dtype dt;
        if (tap_ok(gpuk_dtype_from_name(w, &dt) == GPUK_OK, "GPUK_TEST_DTYPES: %s is a dtype", w))
            set |= GPUK_DTYPE_BIT(dt);
    }
    tap_diag("GPUK_TEST_DTYPES=%s: only those dtypes run", e);
    return set;
}

/* Open a context on backend; on failure a failed check with the reason
 * from the load report. */
static gpuk_context *open_ctx(const char *backend)
{
    gpuk_options o;
    gpuk_load_report *rep = NULL;
    gpuk_context *ctx = NULL;
    gpuk_options_init(&o);
    o.backend = backend;
    gpuk_status st = gpuk_context_open_ex(&ctx, &o, &rep);
    if (st != GPUK_OK) {
        tap_ok(0, "open a %s context: %s", backend, gpuk_strerror(st));
        for (size_t i = 0; rep && i < gpuk_load_report_count(rep); i++) {
            const gpuk_load_attempt *a = gpuk_load_report_get(rep, i);
            tap_diag("tried %s at '%s': %s", a->backend, a->path, a->reason);
        }
    }
    if (rep)
        gpuk_load_report_free(rep);
    return st == GPUK_OK ? ctx : NULL;
}

int opsuite_run(const char *backend)
{
    suite s = { 0 };
    s.be = backend;
    s.seed = tap_seed();
    s.quick = getenv("GPUK_TEST_QUICK") && atoi(getenv("GPUK_TEST_QUICK")) > 0;
    s.dtypes = opsuite_dtypes();
    if (s.quick)
        tap_diag("GPUK_TEST_QUICK: cases above %d element operations are left out", QUICK_WORK);
    s.ctx = open_ctx(backend);
    if (!s.ctx)
        return 1;
    if (strcmp(backend, "cpu") != 0) {
        s.cpu = open_ctx("cpu");
        if (!s.cpu)
            tap_diag("no cross-check against the cpu backend");
    }
    for (int op = GPUK_OP_FIRST; op <= GPUK_OP_LAST; op++)
        op_suite(&s, (gpuk_op)op);
    gpuk_context_close(s.log);
    gpuk_context_close(s.cpu);
    gpuk_context_close(s.ctx);
    return 0;
}

/*
 * t_faults_alloc.c - t_faults, part 2: every host allocation of a call
 * made to fail in turn (the interposer of allocfail.h).
 *
 * For each call below, N = 1, 2, ... : a child process warms up (the
 * whole call once, unarmed, so plugins, thread pools and caches are in
 * place), notes how many blocks libgpuk holds, sets the call up, fails
 * the Nth allocation libgpuk makes during it, checks the outcome, cleans
 * up, and reports; the loop ends at the first N the call never reaches.
 * The outcome must be the call's success or a clean GPUK_ERR_NO_MEMORY
 * with a message, the handles and the context must still work, and after
 * the cleanup libgpuk must hold exactly as many blocks as before: a path
 * that forgets a free on the way out of a failure leaks, and one that
 * frees twice or writes through a NULL dies, which the child's exit
 * status shows without taking this test down.
 *
 * Each load report of a successful open must mark exactly one entry as
 * chosen: the loader once marked the wrong entry when an allocation
 * failed on the way.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gpuk.h>

#include "allocfail.h"
#include "t_faults_alloc.h"
#include "t_rel.h"
#include "tap.h"

#define FA_MAX_N 2000   /* no call here comes near: a loop past it is a bug */
#define REPORT_PROMISE "the load report marks exactly one entry chosen after a success, none " \
                       "after a failure"

typedef struct fa_state {
    gpuk_context *ctx;
    gpuk_load_report *rep;
    const char *backend;
    gpuk_tensor *t[4];
    gpuk_csr *m;
    const char *text;
} fa_state;

typedef struct scenario {
    const char *name;
    int allocates;  /* the call must make at least one allocation */
    int (*setup)(fa_state *s);
    gpuk_status (*call)(fa_state *s);
    /* after the call, unarmed: 1 when the outcome is right, else 0 and why */
    int (*verify)(fa_state *s, gpuk_status st, char *why, size_t len);
    /* the same for the load report's chosen mark (NULL: no report) */
    int (*report)(fa_state *s, gpuk_status st, char *why, size_t len);
} scenario;

/* ---------------------------------------------------------- helpers */

/* A cpu context (check: GPUK_CHECK on); two threads, so the OpenMP pool
 * each child starts stays small however many cores the host has. */
static int open_ctx(fa_state *s, int check)
{
    gpuk_options o;
    gpuk_options_init(&o);
    o.backend = "cpu";
    o.check = check;
    o.num_threads = 2;
    return gpuk_context_open_ex(&s->ctx, &o, NULL) == GPUK_OK;
}

static gpuk_tensor *tensor(fa_state *s, int nd, const int64_t *shape, const float *v, size_t n)
{
    gpuk_tensor *t = NULL;
    if (gpuk_tensor_create(s->ctx, GPUK_F32, nd, shape, &t) != GPUK_OK)
        return NULL;
    if (v && gpuk_tensor_write(s->ctx, t, v, n * sizeof *v) != GPUK_OK)
        return NULL;
    return t;
}

/* Does t hold exactly want[0..n)? */
static int holds(fa_state *s, const gpuk_tensor *t, const float *want, size_t n)
{
    float got[16];
    return n <= 16 && gpuk_tensor_read(s->ctx, t, got, n * sizeof *got) == GPUK_OK &&
           memcmp(got, want, n * sizeof *got) == 0;
}

/* A failed call: GPUK_ERR_NO_MEMORY and a message that says so. */
static int clean_failure(fa_state *s, gpuk_status st, char *why, size_t len)
{
    const char *msg = s->ctx ? gpuk_context_error(s->ctx) : "(no context)";
    if (st == GPUK_ERR_NO_MEMORY && msg[0])
        return 1;
    snprintf(why, len, "status %s, message \"%s\"", gpuk_status_name(st) ? gpuk_status_name(st)
             : "(not a status)", msg);
    return 0;
}

static int fail_why(char *why, size_t len, const char *what)
{
    snprintf(why, len, "%s", what);
    return 0;
}

static void cleanup(fa_state *s)
{
    gpuk_load_report_free(s->rep);
    gpuk_context_close(s->ctx);
    memset(s, 0, sizeof *s);
}

/* ---------------------------------------------------------- context open */

/* How many entries of the report are marked chosen. */
static size_t chosen(const gpuk_load_report *rep)
{
    size_t n = 0;
    for (size_t i = 0; i < gpuk_load_report_count(rep); i++)
        n += gpuk_load_report_get(rep, i)->chosen != 0;
    return n;
}

static int setup_none(fa_state *s)
{
    (void)s;
    return 1;
}

static gpuk_status call_open(fa_state *s)
{
    gpuk_options o;
    gpuk_options_init(&o);
    o.backend = s->backend;
    return gpuk_context_open_ex(&s->ctx, &o, &s->rep);
}

static gpuk_status call_open_cpu(fa_state *s)
{
    s->backend = "cpu";
    return call_open(s);
}

static gpuk_status call_open_auto(fa_state *s)
{
    s->backend = "auto";
    return call_open(s);
}

static int verify_open(fa_state *s, gpuk_status st, char *why, size_t len)
{
    if (st == GPUK_OK)
        return s->ctx ? 1 : fail_why(why, len, "the open succeeded without a context");
    if (s->ctx)
        return fail_why(why, len, "a failed open left *ctx set");
    if (st != GPUK_ERR_NO_MEMORY) {
        snprintf(why, len, "status %s (want GPUK_ERR_NO_MEMORY); report:\n%s",
                 gpuk_status_name(st) ? gpuk_status_name(st) : "(not a status)",
                 gpuk_load_report_text(s->rep));
        return 0;
    }
    /* nothing of the failure lingers: the next open works */
    gpuk_context *c = NULL;
    st = gpuk_context_open(&c, s->backend);
    gpuk_context_close(c);
    return st == GPUK_OK ? 1 : fail_why(why, len, "the next open, unarmed, failed");
}

/* A successful open hands back a report with exactly one entry marked
 * chosen (the plugin taken); a failed one, if it hands one back, none. */
static int report_open(fa_state *s, gpuk_status st, char *why, size_t len)
{
    size_t n = chosen(s->rep);
    if (st == GPUK_OK && !s->rep)
        return fail_why(why, len, "the open succeeded but handed back no report");
    if (n != (st == GPUK_OK ? 1u : 0u)) {
        snprintf(why, len, "the open %s but %zu report entries are marked chosen",
                 st == GPUK_OK ? "succeeded" : "failed", n);
        return 0;
    }
    return 1;
}

/* ---------------------------------------------------------- load report text */

static int setup_report(fa_state *s)
{
    gpuk_options o;
    gpuk_options_init(&o);
    o.backend = "cpu";
    return gpuk_context_open_ex(&s->ctx, &o, &s->rep) == GPUK_OK;
}

static gpuk_status call_report_text(fa_state *s)
{
    s->text = gpuk_load_report_text(s->rep);
    return GPUK_OK;
}

/* A whole text: one line per entry, exactly one marked "* ". */
static int whole_text(const gpuk_load_report *rep, const char *text)
{
    size_t lines = 0, stars = 0;
    for (const char *p = text; *p; p++)
        if (*p == '\n') {
            lines++;
            stars += p[1] == '*';
        }
    stars += text[0] == '*';
    return lines == gpuk_load_report_count(rep) && stars == 1;
}

static int verify_report_text(fa_state *s, gpuk_status st, char *why, size_t len)
{
    (void)st;
    if (!s->text)
        return fail_why(why, len, "gpuk_load_report_text returned NULL");
    if (s->text[0] && !whole_text(s->rep, s->text)) {
        snprintf(why, len, "a partial text:\n%s", s->text);
        return 0;
    }
    /* "" after a failure is allowed, but must not stick */
    const char *again = gpuk_load_report_text(s->rep);
    return again[0] && whole_text(s->rep, again)
               ? 1 : fail_why(why, len, "the text asked again, unarmed, is not whole");
}

/* ---------------------------------------------------------- tensors, CSR */

static const float V6[6] = { 1, -2, 3.5f, 0.25f, -8, 6 };

static int setup_ctx(fa_state *s)
{
    return open_ctx(s, 0);
}

static gpuk_status call_create(fa_state *s)
{
    return gpuk_tensor_create(s->ctx, GPUK_F32, 2, REL_SHAPE(2, 3), &s->t[0]);
}

static int verify_create(fa_state *s, gpuk_status st, char *why, size_t len)
{
    if (st != GPUK_OK) {
        if (s->t[0])
            return fail_why(why, len, "a failed create left *out set");
        if (!clean_failure(s, st, why, len))
            return 0;
        if (gpuk_tensor_create(s->ctx, GPUK_F32, 2, REL_SHAPE(2, 3), &s->t[0]) != GPUK_OK)
            return fail_why(why, len, "the next create, unarmed, failed");
    }
    if (gpuk_tensor_write(s->ctx, s->t[0], V6, sizeof V6) != GPUK_OK || !holds(s, s->t[0], V6, 6))
        return fail_why(why, len, "the tensor does not hold what was written");
    return 1;
}

static int setup_base(fa_state *s)
{
    return open_ctx(s, 0) && (s->t[0] = tensor(s, 1, REL_SHAPE(6), V6, 6)) != NULL;
}

static gpuk_status call_view(fa_state *s)
{
    return gpuk_tensor_view(s->ctx, s->t[0], 2, REL_SHAPE(2, 2), REL_SHAPE(3, 1), 1, &s->t[1]);
}

static int verify_view(fa_state *s, gpuk_status st, char *why, size_t len)
{
    static const float want[4] = { -2, 3.5f, -8, 6 };
    if (st != GPUK_OK) {
        if (s->t[1])
            return fail_why(why, len, "a failed view left *out set");
        if (!clean_failure(s, st, why, len))
            return 0;
        if (call_view(s) != GPUK_OK)
            return fail_why(why, len, "the next view, unarmed, failed");
    }
    if (!holds(s, s->t[1], want, 4) || !holds(s, s->t[0], V6, 6))
        return fail_why(why, len, "the view or its base does not hold the base's values");
    return 1;
}

/* 3x4 with two entries in row 0 (so the duplicate check sorts a row),
 * none in row 1, one in row 2; times x = 1, 2, 3, 4. */
static const int32_t RP[4] = { 0, 2, 2, 3 }, CI[3] = { 3, 0, 2 };
static const float CV[3] = { 2, -1, 0.5f }, X4[4] = { 1, 2, 3, 4 }, Y3[3] = { 7, 0, 1.5f };

static int setup_spmv_io(fa_state *s)
{
    return open_ctx(s, 0) && (s->t[0] = tensor(s, 1, REL_SHAPE(4), X4, 4)) != NULL &&
           (s->t[1] = tensor(s, 1, REL_SHAPE(3), NULL, 0)) != NULL;
}

static gpuk_status call_csr(fa_state *s)
{
    return gpuk_csr_create(s->ctx, 3, 4, 3, RP, CI, CV, &s->m);
}

static int verify_csr(fa_state *s, gpuk_status st, char *why, size_t len)
{
    if (st != GPUK_OK) {
        if (s->m)
            return fail_why(why, len, "a failed gpuk_csr_create left *out set");
        if (!clean_failure(s, st, why, len))
            return 0;
        if (call_csr(s) != GPUK_OK)
            return fail_why(why, len, "the next gpuk_csr_create, unarmed, failed");
    }
    if (gpuk_spmv(s->ctx, s->m, s->t[0], s->t[1], NULL) != GPUK_OK || !holds(s, s->t[1], Y3, 3))
        return fail_why(why, len, "spmv with the matrix gives a wrong y");
    return 1;
}

/* ---------------------------------------------------------- ops under GPUK_CHECK */

/* a[2,3] b[3,2] + bias, small integers and halves: every rung exact */
static const float MA[6] = { 1, 2, 3, -1, 0, 4 }, MB[6] = { 1, 0, -2, 3, 0.5f, 2 };
static const float MBIAS[2] = { 1.5f, -0.5f }, MC[4] = { 0, 11.5f, 2.5f, 7.5f };

static int setup_matmul(fa_state *s)
{
    return open_ctx(s, 1) && (s->t[0] = tensor(s, 2, REL_SHAPE(2, 3), MA, 6)) &&
           (s->t[1] = tensor(s, 2, REL_SHAPE(3, 2), MB, 6)) &&
           (s->t[2] = tensor(s, 1, REL_SHAPE(2), MBIAS, 2)) &&
           (s->t[3] = tensor(s, 2, REL_SHAPE(2, 2), NULL, 0));
}

static gpuk_status call_matmul(fa_state *s)
{
    return gpuk_matmul(s->ctx, s->t[0], s->t[1], s->t[2], s->t[3], "naive");
}

static int verify_matmul(fa_state *s, gpuk_status st, char *why, size_t len)
{
    if (st != GPUK_OK) {
        if (!clean_failure(s, st, why, len))
            return 0;
        if (call_matmul(s) != GPUK_OK)
            return fail_why(why, len, "the matmul again, unarmed, failed");
    }
    float got[4];
    gpuk_tensor_read(s->ctx, s->t[3], got, sizeof got);
    for (int i = 0; i < 4; i++)
        if (got[i] != MC[i]) {
            snprintf(why, len, "c[%d] = %g, want %g", i, (double)got[i], (double)MC[i]);
            return 0;
        }
    return 1;
}

static int setup_spmv(fa_state *s)
{
    if (!open_ctx(s, 1))
        return 0;
    return (s->t[0] = tensor(s, 1, REL_SHAPE(4), X4, 4)) &&
           (s->t[1] = tensor(s, 1, REL_SHAPE(3), NULL, 0)) && call_csr(s) == GPUK_OK;
}

static gpuk_status call_spmv(fa_state *s)
{
    return gpuk_spmv(s->ctx, s->m, s->t[0], s->t[1], NULL);
}

static int verify_spmv(fa_state *s, gpuk_status st, char *why, size_t len)
{
    if (st != GPUK_OK) {
        if (!clean_failure(s, st, why, len))
            return 0;
        if (call_spmv(s) != GPUK_OK)
            return fail_why(why, len, "the spmv again, unarmed, failed");
    }
    return holds(s, s->t[1], Y3, 3) ? 1 : fail_why(why, len, "spmv gives a wrong y");
}

/* ---------------------------------------------------------- context close */

static gpuk_status call_close(fa_state *s)
{
    gpuk_context_close(s->ctx);
    s->ctx = NULL;
    return GPUK_OK;
}

static int verify_nothing(fa_state *s, gpuk_status st, char *why, size_t len)
{
    (void)s;
    return st == GPUK_OK ? 1 : fail_why(why, len, "the call failed");
}

static const scenario SCEN[] = {
    { "gpuk_context_open_ex(cpu) with a load report", 1, setup_none, call_open_cpu,
      verify_open, report_open },
    { "gpuk_context_open_ex(auto) with a load report", 1, setup_none, call_open_auto,
      verify_open, report_open },
    { "gpuk_load_report_text", 1, setup_report, call_report_text, verify_report_text, NULL },
    { "gpuk_tensor_create", 1, setup_ctx, call_create, verify_create, NULL },
    { "gpuk_tensor_view", 1, setup_base, call_view, verify_view, NULL },
    { "gpuk_csr_create", 1, setup_spmv_io, call_csr, verify_csr, NULL },
    { "gpuk_matmul under GPUK_CHECK", 1, setup_matmul, call_matmul, verify_matmul, NULL },
    { "gpuk_spmv under GPUK_CHECK", 1, setup_spmv, call_spmv, verify_spmv, NULL },
    { "gpuk_context_close (GPUK_CHECK, tensors and a CSR matrix alive)", 0, setup_spmv,
      call_close, verify_nothing, NULL },
};

/* ---------------------------------------------------------- one child per N */

typedef struct fa_result {
    int ready;      /* warm-up and setup worked */
    long seen;      /* allocations by libgpuk's code during the call */
    int right;      /* verify said yes */
    int report_ok;  /* the report check said yes (or there is none) */
    char report_why[256];
    long leaked;    /* live allocations after the cleanup, less those before */
    char why[512];
} fa_result;

static void child(const scenario *sc, long n, fa_result *r)
{
    fa_state s;
    memset(&s, 0, sizeof s);
    /* the warm-up runs exactly what is measured, verify included: the
     * first op of a process starts thread pools that outlive it */
    gpuk_status st = sc->setup(&s) ? sc->call(&s) : GPUK_ERR_INTERNAL;
    if (st != GPUK_OK || !sc->verify(&s, st, r->why, sizeof r->why)) {
        snprintf(r->why, sizeof r->why, "the warm-up failed: %s",
                 s.ctx ? gpuk_context_error(s.ctx) : "no context");
        return;
    }
    cleanup(&s);
    allocfail_scope();   /* the plugin is loaded now */
    long base = allocfail_live();
    if (!sc->setup(&s)) {
        snprintf(r->why, sizeof r->why, "the setup failed");
        return;
    }
    r->ready = 1;
    allocfail_arm(n);
    st = sc->call(&s);
    r->seen = allocfail_disarm();
    if (r->seen < n && st != GPUK_OK)
        snprintf(r->why, sizeof r->why, "no allocation failed, yet the call returned %s",
                 gpuk_strerror(st));
    else
        r->right = sc->verify(&s, st, r->why, sizeof r->why);
    r->report_ok = !sc->report || sc->report(&s, st, r->report_why, sizeof r->report_why);
    cleanup(&s);
    long after = allocfail_live();
    r->leaked = after - base;
    if (base < 0 || after < 0) {
        r->leaked = 1;
        r->right = 0;
        snprintf(r->why, sizeof r->why, "the interposer lost count of the blocks");
    }
}

/* Run child() in a process of its own; 0 when it died (*sig: the signal). */
static int in_child(const scenario *sc, long n, fa_result *r, int *sig)
{
    int fds[2];
    memset(r, 0, sizeof *r);
    *sig = 0;
    if (pipe(fds) != 0)
        return 0;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        child(sc, n, r);
        ssize_t w = write(fds[1], r, sizeof *r);
        _exit(w == (ssize_t)sizeof *r ? 0 : 3);
    }
    close(fds[1]);
    size_t got = 0;
    while (pid > 0 && got < sizeof *r) {
        ssize_t k = read(fds[0], (char *)r + got, sizeof *r - got);
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    close(fds[0]);
    int ws = 0;
    if (pid > 0)
        waitpid(pid, &ws, 0);
    if (pid <= 0 || got != sizeof *r || !WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
        *sig = pid > 0 && WIFSIGNALED(ws) ? WTERMSIG(ws) : 0;
        return 0;
    }
    return 1;
}

/* Append "n (the first line of what)" to a "; "-separated list of cases. */
static void note(char *list, size_t len, long n, const char *what)
{
    size_t at = strlen(list);
    if (at + 8 >= len)
        return;
    int w = what ? (int)strcspn(what, "\n") : 0;
    snprintf(list + at, len - at, "%s%ld%s%.*s%s", at ? "; " : "", n, w ? " (" : "", w,
             what ? what : "", w ? ")" : "");
}

static void one_scenario(const scenario *sc)
{
    long n, crashes = 0, wrong = 0, leaks = 0, unmarked = 0;
    char crashed[512] = "", wrongs[1024] = "", leaked[512] = "", marks[1024] = "", sigtext[32];
    fa_result r;
    int sig;
    for (n = 1; n <= FA_MAX_N; n++) {
        if (!in_child(sc, n, &r, &sig)) {
            crashes++;
            snprintf(sigtext, sizeof sigtext, "signal %d", sig);
            note(crashed, sizeof crashed, n, sig ? sigtext : "exit status");
            continue;
        }
        if (!r.ready) {
            tap_ok(0, "%s: set up in the child: %s", sc->name, r.why);
            return;
        }
        if (!r.right && ++wrong)
            note(wrongs, sizeof wrongs, n, r.why);
        if (!r.report_ok && ++unmarked)
            note(marks, sizeof marks, n, r.report_why);
        if (r.leaked != 0 && ++leaks) {
            snprintf(sigtext, sizeof sigtext, "%+ld", r.leaked);
            note(leaked, sizeof leaked, n, sigtext);
        }
        if (r.seen < n)
            break;   /* the call never reached the nth allocation: done */
    }
    long made = n - 1;
    if (sc->allocates)
        tap_ok(made > 0, "%s: the interposer sees its allocations (%ld)", sc->name, made);
    if (!tap_ok(crashes == 0 && n <= FA_MAX_N, "%s: each of its %ld allocations failed in turn, "
                "no crash", sc->name, made))
        tap_diag("  the child died with allocation n failed, n = %s%s", crashed,
                 n > FA_MAX_N ? "; the loop never ended" : "");
    if (!tap_ok(wrong == 0, "%s: every outcome is success or a clean GPUK_ERR_NO_MEMORY, and "
                "everything still works after it", sc->name))
        tap_diag("  wrong with allocation n failed, n = %s", wrongs);
    if (!tap_ok(leaks == 0, "%s: after each failure and the cleanup, no allocation is left",
                sc->name))
        tap_diag("  allocations left with allocation n failed, n = %s", leaked);
    if (sc->report && !tap_ok(unmarked == 0, "%s: %s", sc->name, REPORT_PROMISE))
        tap_diag("  wrong with allocation n failed, n = %s", marks);
}

void alloc_faults(void)
{
    char why[256];
    if (!allocfail_usable(why, sizeof why)) {
        tap_skip("allocation faults: %s", why);
        return;
    }
    for (size_t i = 0; i < sizeof SCEN / sizeof SCEN[0]; i++)
        one_scenario(&SCEN[i]);
}

/*
 * t_loader.c - finding and loading backends: the cpu plugin, auto's
 * fallback, every way a plugin can be rejected (each with its own status
 * and a message that says why), the environment variables, and GPUK_CHECK
 * catching a plugin that answers wrong.
 */
#include "tap.h"

#include <gpuk.h>
#include <gpuk/backend.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char plugin_dir[1024];

static const char *fake(const char *flavour)
{
    static char path[1200];
    snprintf(path, sizeof path, "%s/fake_%s.so", plugin_dir, flavour);
    return path;
}

/* Open with a request; return the status, put the message in msg. */
static gpuk_status try_open(const char *backend, gpuk_context **out, char *msg, size_t len)
{
    gpuk_load_report *rep = NULL;
    gpuk_options o;
    gpuk_options_init(&o);
    o.backend = backend;
    gpuk_context *ctx = NULL;
    gpuk_status st = gpuk_context_open_ex(&ctx, &o, &rep);
    snprintf(msg, len, "%s", gpuk_load_report_text(rep));
    gpuk_load_report_free(rep);
    if (out)
        *out = ctx;
    else
        gpuk_context_close(ctx);
    return st;
}

static int contains(const char *hay, const char *needle)
{
    return hay && strstr(hay, needle) != NULL;
}

static void rejected(const char *flavour, gpuk_status want, const char *words)
{
    char msg[4096];
    gpuk_context *ctx = NULL;
    gpuk_status st = try_open(fake(flavour), &ctx, msg, sizeof msg);
    tap_ok(st == want && ctx == NULL, "fake_%s is rejected with %s (got %s)", flavour,
           gpuk_strerror(want), gpuk_strerror(st));
    if (!tap_ok(contains(msg, words), "fake_%s: the load report says '%s'", flavour, words))
        tap_diag("report:\n%s", msg);
    gpuk_context_close(ctx);
}

static void test_cpu_and_auto(void)
{
    char msg[4096];
    gpuk_context *ctx = NULL;
    gpuk_status st = try_open("cpu", &ctx, msg, sizeof msg);
    tap_ok(st == GPUK_OK && ctx, "cpu backend opens (%s)", gpuk_strerror(st));
    if (ctx) {
        gpuk_info info;
        tap_ok(gpuk_context_info(ctx, &info) == GPUK_OK && strcmp(info.backend, "cpu") == 0,
               "context info names the cpu backend");
        tap_ok(contains(info.backend_path, "backend_cpu.so"), "plugin path is %s",
               info.backend_path);
        tap_ok(info.num_threads >= 1, "cpu backend reports %d threads", info.num_threads);
        const gpuk_load_report *r = gpuk_context_load_report(ctx);
        int chosen = 0;
        for (size_t i = 0; i < gpuk_load_report_count(r); i++)
            chosen += gpuk_load_report_get(r, i)->chosen;
        tap_ok(chosen == 1, "exactly one report entry is marked chosen");
        tap_ok(gpuk_load_report_get(r, gpuk_load_report_count(r)) == NULL,
               "report entries past the end are NULL");
        gpuk_context_close(ctx);
    }

    /* auto: cuda when it opens, else cpu, with the reason in the report */
    st = try_open("auto", &ctx, msg, sizeof msg);
    tap_ok(st == GPUK_OK && ctx, "auto opens a backend (%s)", gpuk_strerror(st));
    if (ctx) {
        gpuk_info info;
        gpuk_context_info(ctx, &info);
        if (strcmp(info.backend, "cpu") == 0)
            tap_ok(contains(msg, "cuda unavailable") && contains(msg, "falling back to cpu"),
                   "auto fell back to cpu and the report says why");
        else
            tap_ok(strcmp(info.backend, "cuda") == 0, "auto took cuda on a machine with a GPU");
        gpuk_context_close(ctx);
    }

    /* the environment decides when the API says nothing */
    setenv("GPUK_BACKEND", "cpu", 1);
    st = gpuk_context_open(&ctx, NULL);
    tap_ok(st == GPUK_OK, "GPUK_BACKEND=cpu with a NULL request opens cpu");
    gpuk_context_close(ctx);
    unsetenv("GPUK_BACKEND");
}

static void test_explicit_cuda(void)
{
    /* an explicitly named backend never falls back */
    char msg[4096];
    gpuk_context *ctx = NULL;
    gpuk_status st = try_open("cuda", &ctx, msg, sizeof msg);
    if (st == GPUK_OK) {
        gpuk_info info;
        gpuk_context_info(ctx, &info);
        tap_ok(strcmp(info.backend, "cuda") == 0, "cuda opens on this machine: %s", info.device);
        gpuk_context_close(ctx);
        return;
    }
    tap_ok(ctx == NULL, "cuda request that fails gives no context (no silent fallback)");
    tap_ok(st == GPUK_ERR_NO_DRIVER || st == GPUK_ERR_NO_DEVICE ||
               st == GPUK_ERR_BACKEND_NOT_FOUND || st == GPUK_ERR_BACKEND_LOAD,
           "cuda without a GPU: %s", gpuk_strerror(st));
    tap_ok(!contains(msg, "* cpu"), "the report of a cuda request never takes cpu");
    tap_diag("cuda unavailable here: %s", msg);
}

static void test_rejections(void)
{
    char msg[4096];
    gpuk_context *ctx;
    gpuk_status st;

    st = try_open("nosuch", &ctx, msg, sizeof msg);
    tap_ok(st == GPUK_ERR_BACKEND_NOT_FOUND && !ctx, "unknown backend name: %s",
           gpuk_strerror(st));
    tap_ok(contains(msg, "backend_nosuch.so"), "report names the file it looked for");

    setenv("GPUK_BACKEND", "Not A Backend!", 1);
    st = gpuk_context_open(&ctx, NULL);
    tap_ok(st == GPUK_ERR_BACKEND_NOT_FOUND && !ctx, "GPUK_BACKEND with a malformed name: %s",
           gpuk_strerror(st));
    unsetenv("GPUK_BACKEND");

    st = try_open("/nonexistent/dir/backend_x.so", &ctx, msg, sizeof msg);
    tap_ok(st == GPUK_ERR_BACKEND_NOT_FOUND && !ctx, "missing plugin path: %s",
           gpuk_strerror(st));
    tap_ok(contains(msg, "not found"), "report says not found");

    /* a file that is not a shared object at all */
    char junk[] = "/tmp/gpuk-junk-XXXXXX";
    int fd = mkstemp(junk);
    if (fd >= 0) {
        const char text[] = "this is not an ELF file\n";
        ssize_t w = write(fd, text, sizeof text - 1);
        close(fd);
        st = try_open(junk, &ctx, msg, sizeof msg);
        tap_ok(w > 0 && st == GPUK_ERR_BACKEND_LOAD && !ctx, "a text file as plugin: %s",
               gpuk_strerror(st));
        tap_ok(contains(msg, "dlopen failed"), "report carries the dlopen error");
        unlink(junk);
    } else {
        tap_skip("mkstemp failed: cannot make the non-ELF file");
        tap_skip("mkstemp failed");
    }

    st = try_open(plugin_dir, &ctx, msg, sizeof msg);
    tap_ok(st == GPUK_ERR_BACKEND_LOAD && !ctx, "a directory as plugin path: %s",
           gpuk_strerror(st));

    rejected("abi1", GPUK_ERR_BACKEND_ABI, "plugin ABI 1.0, libgpuk needs 2.x");
    rejected("noentry", GPUK_ERR_BACKEND_SYMBOL, "entry symbol gpuk_backend_entry missing");
    rejected("probefail", GPUK_ERR_NO_DEVICE, "no fake device present");
    rejected("initfail", GPUK_ERR_NO_DEVICE, "init failed");
    rejected("small", GPUK_ERR_BACKEND_ABI, "smaller than ABI");
    rejected("duprows", GPUK_ERR_BACKEND_ABI, "both define matmul/naive for f32");
    rejected("shortrows", GPUK_ERR_BACKEND_ABI, "kernel rows are 16 bytes apart");
    rejected("nodtype", GPUK_ERR_BACKEND_ABI, "(op 1, nothing) serves no dtype");
    rejected("twodefaults", GPUK_ERR_BACKEND_ABI, "matmul/naive and matmul/again are both the "
             "default for f32");

    st = try_open(fake("minor99"), &ctx, msg, sizeof msg);
    tap_ok(st == GPUK_OK && ctx, "a newer ABI minor is accepted (%s)", gpuk_strerror(st));
    if (ctx) {
        gpuk_info info;
        gpuk_context_info(ctx, &info);
        tap_ok(info.abi_major == GPUK_ABI_MAJOR && info.abi_minor == 99,
               "info reports ABI %u.%u", info.abi_major, info.abi_minor);
        char note[96];
        snprintf(note, sizeof note, "note: plugin ABI %d.99, this libgpuk %d.%d",
                 GPUK_ABI_MAJOR, GPUK_ABI_MAJOR, GPUK_ABI_MINOR);
        tap_ok(contains(msg, note), "the report notes the newer minor ('%s')", note);
        size_t n = 99;
        tap_ok(gpuk_variant_count(ctx, GPUK_OP_MINPLUS, &n) == GPUK_OK && n == 1,
               "fake backend lists its one minplus variant");
        gpuk_context_close(ctx);
    }
}

/* A plugin of a later minor: a larger struct, rows of a larger stride,
 * and rows of an op and of a dtype this core does not know.  It loads;
 * the unknown rows are skipped and named in the report; the rest works,
 * read at the plugin's row stride. */
static void test_future(void)
{
    char msg[4096];
    gpuk_context *ctx = NULL;
    gpuk_status st = try_open(fake("future"), &ctx, msg, sizeof msg);
    if (!tap_ok(st == GPUK_OK && ctx, "a plugin of a later minor with unknown rows loads (%s)",
                gpuk_strerror(st))) {
        tap_diag("report:\n%s", msg);
        return;
    }
    tap_ok(contains(msg, "skipped kernel rows") && contains(msg, "(op 99, tomorrow)") &&
               contains(msg, "(op 10, f128, no known dtype)"),
           "the report names the two rows it skipped");
    size_t n = 0;
    gpuk_variant_info vi;
    tap_ok(gpuk_variant_count(ctx, GPUK_OP_COPY, &n) == GPUK_OK && n == 1 &&
               gpuk_variant_get(ctx, GPUK_OP_COPY, 0, &vi) == GPUK_OK &&
               strcmp(vi.name, "naive") == 0 && strcmp(vi.summary, "memmove") == 0,
           "its known rows are read at its own row stride (copy: %zu f32 rung)", n);
    int64_t len = 5;
    float x[5] = { 1, 2, 3, 4, 5 }, y[5] = { 0 };
    gpuk_tensor *a = NULL, *b = NULL;
    gpuk_tensor_create(ctx, GPUK_F32, 1, &len, &a);
    gpuk_tensor_create(ctx, GPUK_F32, 1, &len, &b);
    gpuk_tensor_write(ctx, a, x, sizeof x);
    st = gpuk_copy(ctx, a, b, NULL);
    gpuk_tensor_read(ctx, b, y, sizeof y);
    tap_ok(st == GPUK_OK && memcmp(x, y, sizeof x) == 0, "and runs (%s: %s)", gpuk_strerror(st),
           gpuk_context_error(ctx));
    gpuk_context_close(ctx);
}

/* Rows keyed by (op, dtype, variant), and a rung's alias. */
static void test_dtype_rows(void)
{
    char msg[4096];
    gpuk_context *ctx = NULL;
    if (try_open(fake("ok"), &ctx, msg, sizeof msg) != GPUK_OK) {
        tap_ok(0, "fake_ok opens: %s", msg);
        return;
    }
    size_t nf = 0, ni = 0;
    gpuk_variant_info vi;
    gpuk_variant_count_dtype(ctx, GPUK_OP_COPY, GPUK_F32, &nf);
    gpuk_variant_count_dtype(ctx, GPUK_OP_COPY, GPUK_I32, &ni);
    tap_ok(nf == 1 && ni == 1, "copy has one f32 and one i32 rung (%zu, %zu)", nf, ni);
    tap_ok(gpuk_variant_get_dtype(ctx, GPUK_OP_COPY, GPUK_I32, 0, &vi) == GPUK_OK &&
               strcmp(vi.name, "i32only") == 0 && vi.dtypes == GPUK_DTYPE_BIT(GPUK_I32) &&
               vi.alias == NULL,
           "the i32 ladder lists the i32 row with its dtype set");
    tap_ok(gpuk_variant_get(ctx, GPUK_OP_COPY, 0, &vi) == GPUK_OK && vi.alias &&
               strcmp(vi.alias, "plain") == 0,
           "the f32 row reports its alias");
    tap_ok(gpuk_variant_count_dtype(ctx, GPUK_OP_COPY, (gpuk_dtype)77, &nf) == GPUK_ERR_DTYPE,
           "a dtype that does not exist: GPUK_ERR_DTYPE");

    int64_t len = 6;
    int32_t xi[6] = { 1, -2, 3, -4, 5, 7 }, yi[6] = { 0 };
    float xf[6] = { 1, 2, 3, 4, 5, 6 }, yf[6] = { 0 };
    gpuk_tensor *ai = NULL, *bi = NULL, *af = NULL, *bf = NULL;
    gpuk_tensor_create(ctx, GPUK_I32, 1, &len, &ai);
    gpuk_tensor_create(ctx, GPUK_I32, 1, &len, &bi);
    gpuk_tensor_create(ctx, GPUK_F32, 1, &len, &af);
    gpuk_tensor_create(ctx, GPUK_F32, 1, &len, &bf);
    gpuk_tensor_write(ctx, ai, xi, sizeof xi);
    gpuk_tensor_write(ctx, af, xf, sizeof xf);
    gpuk_status st = gpuk_copy(ctx, ai, bi, NULL);
    gpuk_tensor_read(ctx, bi, yi, sizeof yi);
    tap_ok(st == GPUK_OK && memcmp(xi, yi, sizeof xi) == 0,
           "an i32 copy runs the i32 row (%s: %s)", gpuk_strerror(st), gpuk_context_error(ctx));
    st = gpuk_copy(ctx, af, bf, "i32only");
    tap_ok(st == GPUK_ERR_VARIANT && contains(gpuk_context_error(ctx), "f32 variants: naive (plain)"),
           "the i32 rung's name is no f32 variant: %s", gpuk_context_error(ctx));
    st = gpuk_copy(ctx, af, bf, "plain");
    gpuk_tensor_read(ctx, bf, yf, sizeof yf);
    tap_ok(st == GPUK_OK && memcmp(xf, yf, sizeof xf) == 0, "a rung answers to its alias (%s)",
           gpuk_strerror(st));
    st = gpuk_copy(ctx, ai, bf, NULL);
    tap_ok(st == GPUK_ERR_DTYPE && contains(gpuk_context_error(ctx), "out:"),
           "operands of two dtypes: GPUK_ERR_DTYPE naming out: %s", gpuk_context_error(ctx));
    gpuk_context_close(ctx);

    /* the cpu backend computes copy in f32 only: an i32 copy names x */
    if (gpuk_context_open(&ctx, "cpu") == GPUK_OK) {
        gpuk_tensor_create(ctx, GPUK_I32, 1, &len, &ai);
        gpuk_tensor_create(ctx, GPUK_I32, 1, &len, &bi);
        st = gpuk_copy(ctx, ai, bi, NULL);
        tap_ok(st == GPUK_ERR_DTYPE && contains(gpuk_context_error(ctx), "x: dtype is i32") &&
                   contains(gpuk_context_error(ctx), "computes in f32"),
               "cpu: an i32 copy is GPUK_ERR_DTYPE naming x: %s", gpuk_context_error(ctx));
        gpuk_context_close(ctx);
    }
}

/* A plugin of an older minor (2.1): it loads, the report says what it
 * lacks, its rows work, and what needs the newer minor is refused. */
static void test_older_minor(void)
{
    char msg[4096];
    gpuk_context *ctx = NULL;
    gpuk_status st = try_open(fake("minor1"), &ctx, msg, sizeof msg);
    if (!tap_ok(st == GPUK_OK && ctx, "a plugin of ABI 2.1 loads (%s)", gpuk_strerror(st)))
        return;
    tap_ok(contains(msg, "note: plugin ABI 2.1") && contains(msg, "gpuk_minplus_update"),
           "the report notes the older minor and what it lacks");
    int64_t sh[2] = { 3, 3 };
    float v[9] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 }, r[9];
    gpuk_tensor *a = NULL, *o = NULL;
    gpuk_tensor_create(ctx, GPUK_F32, 2, sh, &a);
    gpuk_tensor_create(ctx, GPUK_F32, 2, sh, &o);
    gpuk_tensor_write(ctx, a, v, sizeof v);
    st = gpuk_minplus(ctx, a, a, o, NULL);
    gpuk_tensor_read(ctx, o, r, sizeof r);
    tap_ok(st == GPUK_OK && r[0] == 0 && r[8] == 8, "its min-plus runs (%s)",
           gpuk_strerror(st));
    st = gpuk_minplus_update(ctx, a, a, o, NULL);
    tap_ok(st == GPUK_ERR_UNSUPPORTED && contains(gpuk_context_error(ctx), "ABI 2.1"),
           "gpuk_minplus_update needs 2.2: %s", gpuk_context_error(ctx));
    gpuk_context_close(ctx);
}

static void test_env(void)
{
    gpuk_context *ctx = NULL;
    static const struct {
        const char *var, *value;
    } bad[] = {
        { "GPUK_DEVICE", "abc" },      { "GPUK_DEVICE", "-1" },
        { "GPUK_NUM_THREADS", "0" },   { "GPUK_NUM_THREADS", "many" },
        { "GPUK_CHECK", "2" },         { "GPUK_VERBOSE", "7" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        setenv(bad[i].var, bad[i].value, 1);
        gpuk_load_report *rep = NULL;
        gpuk_options o;
        gpuk_options_init(&o);
        o.backend = "cpu";
        gpuk_status st = gpuk_context_open_ex(&ctx, &o, &rep);
        tap_ok(st == GPUK_ERR_ENV && !ctx, "%s=%s is rejected: %s", bad[i].var, bad[i].value,
               gpuk_strerror(st));
        tap_ok(contains(gpuk_load_report_text(rep), bad[i].var), "the report names %s",
               bad[i].var);
        gpuk_load_report_free(rep);
        unsetenv(bad[i].var);
    }

    /* the API wins over the environment */
    setenv("GPUK_NUM_THREADS", "not-a-number", 1);
    gpuk_options o;
    gpuk_options_init(&o);
    o.backend = "cpu";
    o.num_threads = 1;
    gpuk_status st = gpuk_context_open_ex(&ctx, &o, NULL);
    gpuk_info info = { 0 };
    if (ctx)
        gpuk_context_info(ctx, &info);
    tap_ok(st == GPUK_OK && info.num_threads == 1, "opts.num_threads = 1 wins over a bad "
           "GPUK_NUM_THREADS (threads %d)", info.num_threads);
    gpuk_context_close(ctx);
    unsetenv("GPUK_NUM_THREADS");

    gpuk_options_init(&o);
    o.backend = "";
    tap_ok(gpuk_context_open_ex(&ctx, &o, NULL) == GPUK_ERR_INVALID, "an empty backend name is "
           "invalid");
    gpuk_options_init(&o);
    o.size = 3;
    tap_ok(gpuk_context_open_ex(&ctx, &o, NULL) == GPUK_ERR_INVALID, "opts.size not "
           "sizeof(gpuk_options) is invalid");
    gpuk_options_init(&o);
    o.device = -5;
    tap_ok(gpuk_context_open_ex(&ctx, &o, NULL) == GPUK_ERR_INVALID, "opts.device = -5 is "
           "invalid");
    tap_ok(gpuk_context_open(NULL, "cpu") == GPUK_ERR_NULL, "a NULL out pointer is GPUK_ERR_NULL");
}

static void test_fake_ops(void)
{
    char msg[4096];
    gpuk_context *ctx = NULL;
    if (try_open(fake("ok"), &ctx, msg, sizeof msg) != GPUK_OK) {
        tap_ok(0, "fake_ok opens: %s", msg);
        return;
    }
    int64_t n = 9;
    float x[9], y[9];
    for (int i = 0; i < 9; i++)
        x[i] = (float)i * 0.5f - 1.0f;
    gpuk_tensor *a = NULL, *b = NULL;
    gpuk_tensor_create(ctx, GPUK_F32, 1, &n, &a);
    gpuk_tensor_create(ctx, GPUK_F32, 1, &n, &b);
    gpuk_tensor_write(ctx, a, x, sizeof x);
    tap_ok(gpuk_copy(ctx, a, b, NULL) == GPUK_OK, "a copy runs through a third-party plugin");
    gpuk_tensor_read(ctx, b, y, sizeof y);
    tap_ok(memcmp(x, y, sizeof x) == 0, "and gives the input back");
    gpuk_status st = gpuk_relu(ctx, a, b, NULL);
    tap_ok(st == GPUK_ERR_UNSUPPORTED, "an op the plugin lacks: %s", gpuk_strerror(st));
    tap_ok(contains(gpuk_context_error(ctx), "implements no variant"), "message: %s",
           gpuk_context_error(ctx));
    double v;
    tap_ok(gpuk_peak_measure(ctx, GPUK_PEAK_COPY_GBS, &v) == GPUK_ERR_UNSUPPORTED,
           "a plugin without the optional peak member: unsupported");
    gpuk_context_close(ctx);
}

/* GPUK_CHECK: the fake_wrong plugin answers slightly wrong; shadow mode
 * must say so, naming op, variant and element. */
static void test_shadow(void)
{
    gpuk_options o;
    gpuk_options_init(&o);
    o.check = 1;
    for (int wrong = 0; wrong < 2; wrong++) {
        gpuk_context *ctx = NULL;
        o.backend = fake(wrong ? "wrong" : "ok");
        gpuk_status st = gpuk_context_open_ex(&ctx, &o, NULL);
        if (!tap_ok(st == GPUK_OK, "fake_%s opens with check on (%s)", wrong ? "wrong" : "ok",
                    gpuk_strerror(st)))
            continue;
        int64_t sa[2] = { 5, 7 }, sb[2] = { 7, 3 }, sc[2] = { 5, 3 }, n = 35;
        float av[35], bv[21];
        for (int i = 0; i < 35; i++)
            av[i] = (float)((i * 37) % 11) - 4.5f;
        for (int i = 0; i < 21; i++)
            bv[i] = (float)((i * 13) % 7) * 0.25f + 0.125f;
        gpuk_tensor *a, *b, *c, *a2;
        gpuk_tensor_create(ctx, GPUK_F32, 2, sa, &a);
        gpuk_tensor_create(ctx, GPUK_F32, 2, sb, &b);
        gpuk_tensor_create(ctx, GPUK_F32, 2, sc, &c);
        gpuk_tensor_create(ctx, GPUK_F32, 1, &n, &a2);
        gpuk_tensor_write(ctx, a, av, sizeof av);
        gpuk_tensor_write(ctx, b, bv, sizeof bv);
        gpuk_tensor *flat;
        gpuk_tensor_view(ctx, a, 1, &n, NULL, 0, &flat);
        st = gpuk_matmul(ctx, a, b, NULL, c, NULL);
        if (wrong) {
            tap_ok(st == GPUK_ERR_CHECK, "GPUK_CHECK catches a wrong matmul (%s)",
                   gpuk_strerror(st));
            tap_ok(contains(gpuk_context_error(ctx), "matmul/naive") &&
                       contains(gpuk_context_error(ctx), "out[4,2]"),
                   "the message names op, variant and element: %s", gpuk_context_error(ctx));
        } else {
            tap_ok(st == GPUK_OK, "GPUK_CHECK passes a right matmul (%s: %s)", gpuk_strerror(st),
                   gpuk_context_error(ctx));
        }
        st = gpuk_copy(ctx, flat, a2, NULL);
        if (wrong)
            tap_ok(st == GPUK_ERR_CHECK && contains(gpuk_context_error(ctx), "must match exactly"),
                   "GPUK_CHECK catches a copy one element off: %s", gpuk_context_error(ctx));
        else
            tap_ok(st == GPUK_OK, "GPUK_CHECK passes a right copy");
        gpuk_context_close(ctx);
    }
}

int main(void)
{
    const char *dir = getenv("GPUK_TEST_PLUGIN_DIR");
    if (!dir || !getenv("GPUK_BACKEND_PATH"))
        return tap_skip_all("run through make check: GPUK_TEST_PLUGIN_DIR and "
                            "GPUK_BACKEND_PATH are not set");
    snprintf(plugin_dir, sizeof plugin_dir, "%s", dir);
    unsetenv("GPUK_BACKEND");
    unsetenv("GPUK_VERBOSE");
    unsetenv("GPUK_CHECK");

    for (int s = 0; s <= GPUK_ERR_INTERNAL; s++)
        if (!gpuk_strerror((gpuk_status)s) || strcmp(gpuk_strerror((gpuk_status)s),
                                                      "unknown status code") == 0)
            tap_ok(0, "status %d has a text", s);
    tap_ok(strcmp(gpuk_strerror((gpuk_status)999), "unknown status code") == 0,
           "an unknown status has a text too");

    test_cpu_and_auto();
    test_explicit_cuda();
    test_rejections();
    test_future();
    test_older_minor();
    test_dtype_rows();
    test_env();
    test_fake_ops();
    test_shadow();
    return tap_done();
}

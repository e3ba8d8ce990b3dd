/*
 * t_wisdom.c - choosing a rung for "auto" (doc/design.md, "Choosing a
 * rung"): a wisdom file that is followed (the exact class, the nearest
 * within 2, an alias, one section among several), every way one is
 * ignored as a whole with a line in the verbose log (a flipped bit, a
 * cut, another library, plugin version, backend, device or thread count,
 * an unknown rung, a missing or empty file, damage that keeps the hash
 * right), the CPU backend's built-in rules per thread count, a plugin
 * older than ABI 2.3 keeping its DEFAULT rows, GPUK_WISDOM against
 * gpuk_options.wisdom, the 0.2 options layout, and what gpuk_last_variant
 * and the GPUK_VERBOSE=2 op log say.
 *
 * The wisdom files are written here, with a hash computed here, from the
 * format of gpuk(7): the reader in src/wisdom.c shares no code with it.
 */
#include "tap.h"

#include <errno.h>
#include <gpuk.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[512], plugin_dir[1024];

static int contains(const char *hay, const char *needle)
{
    return hay && strstr(hay, needle) != NULL;
}

static int same(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

/* ---- the file format, written independently of the library ---- */

static uint64_t fnv1a64(const char *p, size_t n)
{
    uint64_t h = 14695981039346656037ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)p[i];
        h *= 1099511628211ULL;
    }
    return h;
}

/* What identifies a context to a wisdom file. */
typedef struct ident {
    char library[64], backend[64], version[64], device[160];
    int cores, threads;
} ident;

/* One section: the header from id, the body lines as given, the end line
 * with count entries (the real count unless count >= 0) and the hash. */
static size_t section(char *buf, size_t len, const ident *id, const char *body, int count)
{
    size_t n = (size_t)snprintf(buf, len,
                                "gpuk-wisdom 1\nlibrary %s\nbackend %s %s\ndevice %d %s\n"
                                "threads %d\n%s",
                                id->library, id->backend, id->version, id->cores, id->device,
                                id->threads, body);
    int entries = 0;
    for (const char *l = body; *l;) {
        if (*l != '#')
            entries++;
        const char *nl = strchr(l, '\n');
        l = nl ? nl + 1 : l + strlen(l);
    }
    n += (size_t)snprintf(buf + n, len - n, "end %d %016llx\n", count >= 0 ? count : entries,
                          (unsigned long long)fnv1a64(buf, n));
    return n;
}

static const char *write_file(const char *name, const char *text, size_t len)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/gpuk-wisdom-%ld-%s", tmpdir, (long)getpid(), name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0)
        tap_diag("cannot write %s: %s", path, strerror(errno));
    return path;
}

/* ---- contexts, with stderr caught ---- */

typedef struct opened {
    gpuk_context *ctx;
    gpuk_status st;
    char log[8192];      /* what the open wrote to stderr (GPUK_VERBOSE=1) */
} opened;

/* Open backend with the given wisdom (NULL: the environment), threads (0:
 * the default) and verbose level, catching stderr. */
static void open_with(opened *o, const char *backend, const char *wisdom, int threads,
                      int verbose)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/gpuk-wisdom-log-XXXXXX", tmpdir);
    int fd = mkstemp(path), saved = dup(2);
    memset(o, 0, sizeof *o);
    if (fd < 0 || saved < 0) {
        tap_diag("no scratch file for the log: %s", strerror(errno));
        if (fd >= 0)
            close(fd);
        if (saved >= 0)
            close(saved);
        o->st = GPUK_ERR_INTERNAL;
        return;
    }
    unlink(path);
    fflush(stderr);
    dup2(fd, 2);
    gpuk_options opt;
    gpuk_options_init(&opt);
    opt.backend = backend;
    opt.wisdom = wisdom;
    opt.num_threads = threads;
    opt.verbose = verbose;
    o->st = gpuk_context_open_ex(&o->ctx, &opt, NULL);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    ssize_t n = pread(fd, o->log, sizeof o->log - 1, 0);
    o->log[n > 0 ? n : 0] = '\0';
    close(fd);
}

static gpuk_tensor *tensor2(gpuk_context *ctx, int64_t r, int64_t c, float fill)
{
    gpuk_tensor *t = NULL;
    int64_t shape[2] = {r, c};
    if (gpuk_tensor_create(ctx, GPUK_F32, 2, shape, &t) != GPUK_OK)
        return NULL;
    size_t n = (size_t)(r * c);
    float *v = malloc((n ? n : 1) * sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = fill + (float)(i % 7);
    if (n)
        gpuk_tensor_write(ctx, t, v, n * sizeof *v);
    free(v);
    return t;
}

/* Run matmul or min-plus [m,k] x [k,n] through variant v; the status. */
static gpuk_status run_op(gpuk_context *ctx, gpuk_op op, int64_t m, int64_t n, int64_t k,
                          const char *v)
{
    gpuk_tensor *a = tensor2(ctx, m, k, 1), *b = tensor2(ctx, k, n, 2), *c = tensor2(ctx, m, n, 0);
    gpuk_status st = GPUK_ERR_INTERNAL;
    if (a && b && c)
        st = op == GPUK_OP_MATMUL ? gpuk_matmul(ctx, a, b, NULL, c, v)
                                  : gpuk_minplus(ctx, a, b, c, v);
    gpuk_tensor_destroy(ctx, a);
    gpuk_tensor_destroy(ctx, b);
    gpuk_tensor_destroy(ctx, c);
    return st;
}

/* ---- the tests ---- */

static ident cpu_id;   /* the CPU context of this machine, at 2 threads */
#define THREADS 2

/* matmul 32x32x32: work 2^15, class 15 */
#define M_CLASS 15

static void learn_identity(void)
{
    opened o;
    open_with(&o, "cpu", "", THREADS, 0);
    gpuk_info info;
    if (!tap_ok(o.st == GPUK_OK && gpuk_context_info(o.ctx, &info) == GPUK_OK,
                "the cpu backend opens (%s)", gpuk_strerror(o.st)))
        return;
    snprintf(cpu_id.library, sizeof cpu_id.library, "%s", gpuk_version());
    snprintf(cpu_id.backend, sizeof cpu_id.backend, "%s", info.backend);
    snprintf(cpu_id.version, sizeof cpu_id.version, "%s", info.backend_version);
    snprintf(cpu_id.device, sizeof cpu_id.device, "%s", info.device);
    cpu_id.cores = info.multiprocessors;
    cpu_id.threads = info.num_threads;
    tap_ok(info.abi_minor >= 3, "the cpu plugin is ABI 2.%u (auto_variant is 2.3)",
           info.abi_minor);
    tap_ok(contains(gpuk_auto_source(o.ctx), "built-in rules of backend cpu"),
           "without wisdom, auto follows the cpu plugin's built-in rules: %s",
           gpuk_auto_source(o.ctx));
    tap_ok(gpuk_last_variant(o.ctx) == NULL && gpuk_last_variant_source(o.ctx) == NULL &&
               gpuk_last_shape_class(o.ctx) == -1,
           "before the first op: no last variant, source or class");
    gpuk_context_close(o.ctx);
    tap_ok(gpuk_last_variant(NULL) == NULL && gpuk_last_shape_class(NULL) == -1 &&
               same(gpuk_auto_source(NULL), "context is NULL"),
           "NULL context: NULL, -1, \"context is NULL\"");
}

/* The good file, and what following it does. */
static const char GOOD_BODY[] =
    "# matmul 32^3 on naive; min-plus by the nearest class\n"
    /* a comment longer than any entry may be, as gpuk-tune writes for a
     * ladder of a dozen rungs */
    "# matmul f32 class 24 (256x256x256): tiled; naive 0.04254 ms, coalesced 0.02632 ms, "
    "tiled 0.01354 ms, blocktile_1d 0.02875 ms, blocktile_2d 0.05949 ms, vec4 0.05526 ms, "
    "warptile 0.04365 ms, warptile_db 0.01824 ms, warptile_at 0.01718 ms, warptile_wide "
    "0.02334 ms, cublas 0.02037 ms (default)\n"
    "matmul f32 15 naive\n"
    "minplus f32 9 omp\n"
    "minplus f32 11 ilp\n"
    "minplus f32 20 transposed\n";

static void test_followed(void)
{
    char text[4096];
    size_t n = section(text, sizeof text, &cpu_id, GOOD_BODY, -1);
    const char *path = write_file("good", text, n);
    opened o;
    open_with(&o, "cpu", path, THREADS, 1);
    if (!tap_ok(o.st == GPUK_OK, "a context opens with a good wisdom file"))
        return;
    tap_ok(contains(o.log, "following 4 entries"), "the verbose log says it follows the file");
    if (!contains(o.log, "following"))
        tap_diag("log: %s", o.log);
    tap_ok(contains(gpuk_auto_source(o.ctx), "wisdom file") &&
               contains(gpuk_auto_source(o.ctx), path) &&
               contains(gpuk_auto_source(o.ctx), "4 entries"),
           "gpuk_auto_source names the file and its entries: %s", gpuk_auto_source(o.ctx));

    gpuk_status st = run_op(o.ctx, GPUK_OP_MATMUL, 32, 32, 32, NULL);
    tap_ok(st == GPUK_OK && same(gpuk_last_variant(o.ctx), "naive") &&
               same(gpuk_last_variant_source(o.ctx), "wisdom") &&
               gpuk_last_shape_class(o.ctx) == M_CLASS,
           "matmul 32^3, variant NULL: the wisdom's naive, class %d (ran %s, %s, class %d)",
           M_CLASS, gpuk_last_variant(o.ctx), gpuk_last_variant_source(o.ctx),
           gpuk_last_shape_class(o.ctx));
    st = run_op(o.ctx, GPUK_OP_MATMUL, 32, 32, 32, "auto");
    tap_ok(st == GPUK_OK && same(gpuk_last_variant(o.ctx), "naive"),
           "matmul 32^3, variant \"auto\": naive too");
    st = run_op(o.ctx, GPUK_OP_MATMUL, 32, 32, 32, "simd");
    tap_ok(st == GPUK_OK && same(gpuk_last_variant(o.ctx), "simd") &&
               same(gpuk_last_variant_source(o.ctx), "named"),
           "a named rung is run whatever the wisdom says (source \"named\")");
    /* 32x32x128: class 17, two from 15 */
    st = run_op(o.ctx, GPUK_OP_MATMUL, 32, 32, 128, NULL);
    tap_ok(st == GPUK_OK && same(gpuk_last_variant(o.ctx), "naive") &&
               gpuk_last_shape_class(o.ctx) == 17,
           "matmul of class 17 takes the entry of class 15 (within 2): %s",
           gpuk_last_variant(o.ctx));
    /* 64^3: class 18, three from 15 */
    st = run_op(o.ctx, GPUK_OP_MATMUL, 64, 64, 64, NULL);
    tap_ok(st == GPUK_OK && !same(gpuk_last_variant(o.ctx), "naive") &&
               !same(gpuk_last_variant_source(o.ctx), "wisdom") &&
               gpuk_last_shape_class(o.ctx) == 18,
           "matmul of class 18 is too far from 15: %s by %s", gpuk_last_variant(o.ctx),
           gpuk_last_variant_source(o.ctx));
    /* min-plus counts its output only: 32x32 (any k) is class 10, between
     * 9 (omp) and 11 (ilp): the smaller class wins the tie */
    st = run_op(o.ctx, GPUK_OP_MINPLUS, 32, 32, 500, NULL);
    tap_ok(st == GPUK_OK && same(gpuk_last_variant(o.ctx), "omp") &&
               gpuk_last_shape_class(o.ctx) == 10,
           "min-plus of class 10: the nearer smaller class 9 wins the tie (omp): %s, class %d",
           gpuk_last_variant(o.ctx), gpuk_last_shape_class(o.ctx));
    st = run_op(o.ctx, GPUK_OP_MINPLUS, 64, 32, 3, NULL);
    tap_ok(st == GPUK_OK && same(gpuk_last_variant(o.ctx), "ilp"),
           "min-plus of class 11: its own entry (ilp): %s", gpuk_last_variant(o.ctx));
    /* an output with no elements: the rung is still chosen, nothing runs */
    st = run_op(o.ctx, GPUK_OP_MATMUL, 0, 32, 32, NULL);
    tap_ok(st == GPUK_OK && gpuk_last_shape_class(o.ctx) == 5,
           "an empty output still resolves a rung (class %d of work 32: 5)",
           gpuk_last_shape_class(o.ctx));
    gpuk_context_close(o.ctx);

    /* the GPUK_VERBOSE=2 op log says what auto chose and why */
    open_with(&o, "cpu", path, THREADS, 2);
    if (o.st == GPUK_OK) {
        char logpath[1024];
        snprintf(logpath, sizeof logpath, "%s/gpuk-wisdom-oplog-XXXXXX", tmpdir);
        int fd = mkstemp(logpath), saved = dup(2);
        char log[4096] = "";
        if (fd >= 0 && saved >= 0) {
            unlink(logpath);
            fflush(stderr);
            dup2(fd, 2);
            run_op(o.ctx, GPUK_OP_MATMUL, 32, 32, 32, NULL);
            fflush(stderr);
            dup2(saved, 2);
            ssize_t k = pread(fd, log, sizeof log - 1, 0);
            log[k > 0 ? k : 0] = '\0';
        }
        if (fd >= 0)
            close(fd);
        if (saved >= 0)
            close(saved);
        if (!tap_ok(contains(log, " matmul/naive auto -> naive (wisdom, class 15)"),
                    "the op log says \"matmul/naive auto -> naive (wisdom, class 15)\""))
            tap_diag("op log: %s", log);
        gpuk_context_close(o.ctx);
    }

    /* GPUK_WISDOM when the options leave it NULL; "" turns it off */
    setenv("GPUK_WISDOM", path, 1);
    open_with(&o, "cpu", NULL, THREADS, 0);
    tap_ok(o.st == GPUK_OK && contains(gpuk_auto_source(o.ctx), path),
           "GPUK_WISDOM names the file when gpuk_options.wisdom is NULL");
    gpuk_context_close(o.ctx);
    open_with(&o, "cpu", "", THREADS, 0);
    tap_ok(o.st == GPUK_OK && !contains(gpuk_auto_source(o.ctx), "wisdom"),
           "gpuk_options.wisdom = \"\" follows no file, GPUK_WISDOM or not: %s",
           gpuk_auto_source(o.ctx));
    gpuk_context_close(o.ctx);
    /* a caller of the 0.2 layout (no wisdom member) gets the environment */
    gpuk_options old;
    gpuk_options_init_size(&old, offsetof(gpuk_options, wisdom));
    old.backend = "cpu";
    old.num_threads = THREADS;
    gpuk_context *ctx = NULL;
    st = gpuk_context_open_ex(&ctx, &old, NULL);
    tap_ok(st == GPUK_OK && contains(gpuk_auto_source(ctx), path),
           "the 0.2 options layout opens and follows GPUK_WISDOM (%s)", gpuk_strerror(st));
    gpuk_context_close(ctx);
    unsetenv("GPUK_WISDOM");

    /* one section among several: the one of this backend */
    ident other = cpu_id;
    snprintf(other.backend, sizeof other.backend, "cuda");
    snprintf(other.device, sizeof other.device, "Some GPU");
    other.threads = 0;
    n = section(text, sizeof text, &other, "matmul f32 15 cublas\n", -1);
    n += section(text + n, sizeof text - n, &cpu_id, "matmul f32 15 blocked\n", -1);
    path = write_file("two", text, n);
    open_with(&o, "cpu", path, THREADS, 0);
    st = o.st == GPUK_OK ? run_op(o.ctx, GPUK_OP_MATMUL, 32, 32, 32, NULL) : o.st;
    tap_ok(st == GPUK_OK && same(gpuk_last_variant(o.ctx), "blocked") &&
               same(gpuk_last_variant_source(o.ctx), "wisdom"),
           "of two sections, the cpu context follows the cpu one (blocked): %s",
           gpuk_last_variant(o.ctx));
    gpuk_context_close(o.ctx);
}

/* A file that must be ignored: the open succeeds, the verbose log and
 * gpuk_auto_source say why, and auto does not run the file's naive. */
static void ignored(const char *what, const char *path, const char *why)
{
    opened o;
    open_with(&o, "cpu", path, THREADS, 1);
    if (!tap_ok(o.st == GPUK_OK, "%s: the context still opens (%s)", what, gpuk_strerror(o.st)))
        return;
    char line[1200];
    snprintf(line, sizeof line, "wisdom file %s ignored: ", path);
    if (!tap_ok(contains(o.log, line) && contains(o.log, why),
                "%s: ignored, and the verbose log says '%s'", what, why))
        tap_diag("log: %s", o.log);
    tap_ok(contains(gpuk_auto_source(o.ctx), "ignored") && contains(gpuk_auto_source(o.ctx), why),
           "%s: gpuk_auto_source says so too", what);
    gpuk_status st = run_op(o.ctx, GPUK_OP_MATMUL, 32, 32, 32, NULL);
    tap_ok(st == GPUK_OK && !same(gpuk_last_variant(o.ctx), "naive") &&
               !same(gpuk_last_variant_source(o.ctx), "wisdom"),
           "%s: auto does not follow it (ran %s by %s)", what, gpuk_last_variant(o.ctx),
           gpuk_last_variant_source(o.ctx));
    gpuk_context_close(o.ctx);
}

static void test_ignored(void)
{
    char text[4096], bad[4096];
    const char *body = "matmul f32 15 naive\n";
    size_t n = section(text, sizeof text, &cpu_id, body, -1);

    /* one bit flipped in the entry's rung name */
    memcpy(bad, text, n);
    char *at = strstr(bad, "naive");
    *at ^= 0x01;
    ignored("a flipped bit", write_file("flipped", bad, n), "hashes to");
    /* a flipped bit in the hash itself */
    memcpy(bad, text, n);
    bad[n - 2] ^= 0x01;
    ignored("a flipped bit in the hash", write_file("flippedhash", bad, n), "corrupt");
    /* cut before the end line, and inside it */
    const char *end = strstr(text, "end ");
    ignored("truncated before the end line",
            write_file("cut", text, (size_t)(end - text)), "truncated");
    ignored("truncated inside the end line", write_file("cutend", text, n - 5), "truncated");
    ignored("truncated inside the header", write_file("cuthead", text, 30), "truncated");
    ignored("an empty file", write_file("empty", "", 0), "empty");
    ignored("not a wisdom file", write_file("junk", "hello world\n", 12), "not a wisdom file");

    /* each of these keeps its hash right: only the header is wrong */
    ident id = cpu_id;
    snprintf(id.library, sizeof id.library, "0.0.1");
    n = section(text, sizeof text, &id, body, -1);
    ignored("another library version", write_file("library", text, n),
            "written by libgpuk 0.0.1");
    id = cpu_id;
    snprintf(id.version, sizeof id.version, "9.9.9");
    n = section(text, sizeof text, &id, body, -1);
    ignored("another plugin version", write_file("plugin", text, n), "written for plugin cpu 9.9.9");
    id = cpu_id;
    snprintf(id.device, sizeof id.device, "Another CPU");
    n = section(text, sizeof text, &id, body, -1);
    ignored("another device", write_file("device", text, n), "written on device 'Another CPU'");
    id = cpu_id;
    id.cores = cpu_id.cores + 62;
    n = section(text, sizeof text, &id, body, -1);
    ignored("another core count", write_file("cores", text, n), "written on device");
    id = cpu_id;
    id.threads = THREADS + 5;
    n = section(text, sizeof text, &id, body, -1);
    ignored("another thread count", write_file("threads", text, n), "written with 7 threads");
    id = cpu_id;
    snprintf(id.backend, sizeof id.backend, "cuda");
    n = section(text, sizeof text, &id, body, -1);
    ignored("another backend only", write_file("backend", text, n), "no section for backend cpu");

    /* the entries: a rung the plugin does not have, and damage that keeps
     * the hash right */
    n = section(text, sizeof text, &cpu_id, "matmul f32 15 naive\nmatmul f32 20 warpdrive\n", -1);
    ignored("an unknown rung", write_file("variant", text, n), "does not have");
    n = section(text, sizeof text, &cpu_id, "minplus i32 9 omp\n", -1);
    ignored("a rung not of that dtype", write_file("dtype", text, n), "does not have");
    n = section(text, sizeof text, &cpu_id, "matmul f32 15 naive\nfrobnicate f32 15 naive\n", -1);
    ignored("an unknown op", write_file("op", text, n), "is not 'OP DTYPE CLASS VARIANT'");
    n = section(text, sizeof text, &cpu_id, "matmul f32 15 naive\nmatmul f32 15 simd\n", -1);
    ignored("two entries of one class", write_file("dup", text, n), "two entries");
    n = section(text, sizeof text, &cpu_id, body, 2);
    ignored("an entry count that disagrees", write_file("count", text, n),
            "its end line says 2");
    n = section(text, sizeof text, &cpu_id, body, -1);
    memcpy(bad, text, n);
    memcpy(bad, "gpuk-wisdom 2", 13);
    ignored("another format", write_file("format", bad, n), "format '2'");
    /* a good section, then junk */
    n = section(text, sizeof text, &cpu_id, body, -1);
    memcpy(text + n, "trailing\n", 10);
    ignored("junk after the end line", write_file("trailing", text, n + 9), "junk after");

    char missing[1024];
    snprintf(missing, sizeof missing, "%s/gpuk-wisdom-%ld-does-not-exist", tmpdir, (long)getpid());
    ignored("a missing file", missing, "cannot open it");
}

/* The CPU plugin's own rules: min-plus runs packed on 2 threads, and from
 * 6 threads on only between classes 19 and 23 (bench/auto-rules.py). */
static void test_builtin(void)
{
    static const struct {
        int threads;
        int64_t m, n;
        const char *want, *source;
    } cases[] = {
        {2, 16, 16, "packed", "built-in"},      /* class 8 */
        {2, 1024, 1024, "packed", "built-in"},  /* class 20 */
        {16, 16, 16, "regtile", "default"},
        {16, 1024, 1024, "packed", "built-in"},
        {16, 4096, 4096, "regtile", "default"}, /* class 24 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        opened o;
        open_with(&o, "cpu", "", cases[i].threads, 0);
        if (o.st != GPUK_OK) {
            tap_ok(0, "cpu at %d threads opens", cases[i].threads);
            continue;
        }
        /* k = 1: the class counts the output only, and this stays quick */
        gpuk_status st = run_op(o.ctx, GPUK_OP_MINPLUS, cases[i].m, cases[i].n, 1, NULL);
        tap_ok(st == GPUK_OK && same(gpuk_last_variant(o.ctx), cases[i].want) &&
                   same(gpuk_last_variant_source(o.ctx), cases[i].source),
               "cpu, %d threads, min-plus %lldx%lld: %s (%s); ran %s (%s)", cases[i].threads,
               (long long)cases[i].m, (long long)cases[i].n, cases[i].want, cases[i].source,
               gpuk_last_variant(o.ctx), gpuk_last_variant_source(o.ctx));
        gpuk_context_close(o.ctx);
    }
}

/* A plugin of ABI 2.1 has no built-in rules: auto takes its DEFAULT rows,
 * and a wisdom file (core's, not the plugin's) still applies, an alias
 * resolved to its rung. */
static void test_old_plugin(void)
{
    char fake[1200];
    snprintf(fake, sizeof fake, "%s/fake_minor1.so", plugin_dir);
    opened o;
    open_with(&o, fake, "", 0, 0);
    if (!tap_ok(o.st == GPUK_OK, "the ABI 2.1 fake plugin opens (%s)", gpuk_strerror(o.st)))
        return;
    gpuk_info info;
    gpuk_context_info(o.ctx, &info);
    tap_ok(contains(gpuk_auto_source(o.ctx), "DEFAULT rows") &&
               contains(gpuk_auto_source(o.ctx), "ABI 2.1"),
           "ABI 2.1: auto takes the DEFAULT rows: %s", gpuk_auto_source(o.ctx));
    gpuk_status st = run_op(o.ctx, GPUK_OP_MATMUL, 4, 4, 4, NULL);
    tap_ok(st == GPUK_OK && same(gpuk_last_variant(o.ctx), "naive") &&
               same(gpuk_last_variant_source(o.ctx), "default"),
           "ABI 2.1: auto runs the DEFAULT row (%s by %s)", gpuk_last_variant(o.ctx),
           gpuk_last_variant_source(o.ctx));
    ident id;
    snprintf(id.library, sizeof id.library, "%s", gpuk_version());
    snprintf(id.backend, sizeof id.backend, "%s", info.backend);
    snprintf(id.version, sizeof id.version, "%s", info.backend_version);
    snprintf(id.device, sizeof id.device, "%s", info.device);
    id.cores = info.multiprocessors;
    id.threads = info.num_threads;
    gpuk_context_close(o.ctx);

    char text[2048];
    size_t n = section(text, sizeof text, &id, "copy f32 6 plain\n", -1);
    const char *path = write_file("fake", text, n);
    open_with(&o, fake, path, 0, 0);
    if (o.st != GPUK_OK) {
        tap_ok(0, "the ABI 2.1 fake plugin opens with a wisdom file");
        return;
    }
    gpuk_tensor *x = NULL, *y = NULL;
    int64_t shape[1] = {64};
    float v[64] = {0};
    gpuk_tensor_create(o.ctx, GPUK_F32, 1, shape, &x);
    gpuk_tensor_create(o.ctx, GPUK_F32, 1, shape, &y);
    gpuk_tensor_write(o.ctx, x, v, sizeof v);
    st = gpuk_copy(o.ctx, x, y, NULL);
    tap_ok(st == GPUK_OK && same(gpuk_last_variant(o.ctx), "naive") &&
               same(gpuk_last_variant_source(o.ctx), "wisdom") &&
               gpuk_last_shape_class(o.ctx) == 6,
           "ABI 2.1 with wisdom naming the alias 'plain': its rung naive, by wisdom (%s by %s, "
           "class %d)", gpuk_last_variant(o.ctx), gpuk_last_variant_source(o.ctx),
           gpuk_last_shape_class(o.ctx));
    gpuk_tensor_destroy(o.ctx, x);
    gpuk_tensor_destroy(o.ctx, y);
    gpuk_context_close(o.ctx);
}

int main(void)
{
    const char *dir = getenv("GPUK_TEST_PLUGIN_DIR");
    if (!dir || !getenv("GPUK_BACKEND_PATH"))
        return tap_skip_all("run through make check: GPUK_TEST_PLUGIN_DIR and "
                            "GPUK_BACKEND_PATH are not set");
    snprintf(plugin_dir, sizeof plugin_dir, "%s", dir);
    const char *td = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s", td && *td ? td : "/tmp");
    unsetenv("GPUK_BACKEND");
    unsetenv("GPUK_VERBOSE");
    unsetenv("GPUK_CHECK");
    unsetenv("GPUK_WISDOM");
    unsetenv("GPUK_NUM_THREADS");

    learn_identity();
    test_followed();
    test_ignored();
    test_builtin();
    test_old_plugin();

    /* the scratch files */
    static const char *const names[] = {
        "good", "two", "flipped", "flippedhash", "cut", "cutend", "cuthead", "empty", "junk",
        "library", "plugin", "device", "cores", "threads", "backend", "variant", "dtype", "op",
        "dup", "count", "format", "trailing", "fake"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/gpuk-wisdom-%ld-%s", tmpdir, (long)getpid(), names[i]);
        unlink(path);
    }
    return tap_done();
}

/*
 * t_fuzz_corpus - the fuzz harness (fuzz/fuzz_api.c) as a regression test:
 * every file of fuzz/corpus is replayed through fz_run() (one TAP check
 * each), then GPUK_FUZZ_RANDOM (default 2000) inputs drawn from the test
 * seed, so each `make check` also fuzzes a little.  Built by the normal
 * compiler without libFuzzer; under --enable-sanitizers the replay runs
 * with AddressSanitizer and UBSan like the real fuzzer.
 *
 * A crash or failed check found by fuzzing goes into fuzz/corpus with a
 * name saying what it was, and stays here as a test.  While its fix is
 * pending in a file this work does not own, the name starts with "todo-"
 * and the check is a TAP TODO (printed last); once fixed, it XPASSes and
 * loses the prefix.  Meanwhile the random inputs skip comparing that
 * rung's values (GPUK_FUZZ_KNOWN, as fuzz/smoke.sh does).  GPUK_FUZZ_SAVE=DIR writes the random inputs that fail
 * into DIR, ready to be named and added.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../fuzz/fuzz_api.h"
#include "t_rel.h"
#include "tap.h"

/* The harness asks for 2^47-byte tensors on purpose. */
const char *__asan_default_options(void);
__attribute__((visibility("default"), used)) const char *__asan_default_options(void)
{
    return "allocator_may_return_null=1";
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* op/variant of every todo-OP-VARIANT-* input, comma-separated: the
 * rungs with a reported, unfixed bug (see fuzz/README). */
static char known[512];

static void note_known(const char *name)
{
    char op[64], variant[64], item[130];
    if (sscanf(name, "todo-%63[a-z_]-%63[a-z0-9_]-", op, variant) != 2)
        return;
    snprintf(item, sizeof item, "%s/%s", op, variant);
    if (strstr(known, item))
        return;
    size_t at = strlen(known);
    snprintf(known + at, sizeof known - at, "%s%s", at ? "," : "", item);
}

static void replay_corpus(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        tap_skip("no corpus folder %s", dir);
        return;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            names = realloc(names, cap * sizeof *names);
        }
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        char path[8192], why[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        FILE *f = fopen(path, "rb");
        uint8_t buf[4096];
        size_t len = f ? fread(buf, 1, sizeof buf, f) : 0;
        if (f)
            fclose(f);
        int bad = !f || fz_run(buf, len, why, sizeof why);
        if (strncmp(names[i], "todo-", 5) == 0) {
            note_known(names[i]);
            rel_todo(!bad, "known bug, fix pending (see fuzz/README)", "corpus/%s%s%s",
                     names[i], bad ? ": " : "", bad ? why : "");
        } else {
            tap_ok(!bad, "corpus/%s (%zu bytes)", names[i], len);
            if (bad)
                tap_diag("  %s", f ? why : "cannot read it");
        }
        free(names[i]);
    }
    free(names);
    tap_diag("%zu corpus inputs replayed", n);
}

static void save(const char *dir, uint64_t seed, int i, const uint8_t *buf, size_t len)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/random-%llu-%d", dir, (unsigned long long)seed, i);
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(buf, 1, len, f);
        fclose(f);
        tap_diag("  saved as %s", path);
    }
}

static void random_inputs(uint64_t seed, int count)
{
    const char *keep = getenv("GPUK_FUZZ_SAVE");
    int failed = 0;
    uint8_t buf[512];
    char why[1024];
    for (int i = 0; i < count; i++) {
        uint64_t s = seed + 0x9E3779B97F4A7C15ull * (uint64_t)(i + 1);
        size_t len = 8 + (size_t)(s >> 56) % 200;
        for (size_t j = 0; j < len; j++) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            buf[j] = (uint8_t)s;
        }
        if (fz_run(buf, len, why, sizeof why)) {
            if (failed++ < 5)
                tap_diag("  random input %d: %s", i, why);
            if (keep && *keep)
                save(keep, seed, i, buf, len);
        }
    }
    tap_ok(failed == 0, "%d random inputs from the seed: %d failed", count, failed);
}

int main(void)
{
    uint64_t seed = tap_seed();
    if (fz_init() != 0) {
        tap_ok(0, "opening the harness's cpu contexts (GPUK_BACKEND_PATH?)");
        return tap_done();
    }
    const char *src = getenv("GPUK_TEST_SRCDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/../fuzz/corpus", src && *src ? src : "tests");
    replay_corpus(dir);
    /* the random inputs look for new bugs: the values of rungs with a
     * todo input are not compared (their statuses and writes still are),
     * as fuzz/smoke.sh does */
    if (known[0] && !getenv("GPUK_FUZZ_KNOWN")) {
        setenv("GPUK_FUZZ_KNOWN", known, 1);
        tap_diag("random inputs do not compare the values of %s (todo inputs)", known);
    }
    const char *nr = getenv("GPUK_FUZZ_RANDOM");
    random_inputs(seed, nr && *nr ? atoi(nr) : 2000);
    fz_fini();
    return rel_done();
}

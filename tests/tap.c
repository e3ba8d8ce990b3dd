/* tap.c - see tap.h */
#include "tap.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int n_run, n_failed, n_executed;

static void vline(const char *prefix, const char *fmt, va_list ap)
{
    fputs(prefix, stdout);
    vprintf(fmt, ap);
    fputc('\n', stdout);
    fflush(stdout);
}

int tap_ok(int cond, const char *fmt, ...)
{
    va_list ap;
    char prefix[64];
    n_run++;
    n_executed++;
    if (!cond)
        n_failed++;
    snprintf(prefix, sizeof prefix, "%sok %d - ", cond ? "" : "not ", n_run);
    va_start(ap, fmt);
    vline(prefix, fmt, ap);
    va_end(ap);
    return cond;
}

void tap_skip(const char *reason, ...)
{
    va_list ap;
    char prefix[64];
    n_run++;
    snprintf(prefix, sizeof prefix, "ok %d # SKIP ", n_run);
    va_start(ap, reason);
    vline(prefix, reason, ap);
    va_end(ap);
}

int tap_skip_all(const char *reason, ...)
{
    va_list ap;
    va_start(ap, reason);
    vline("1..0 # SKIP ", reason, ap);
    va_end(ap);
    return 0;
}

void tap_diag(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vline("# ", fmt, ap);
    va_end(ap);
}

int tap_done(void)
{
    if (n_run == 0) {
        printf("not ok 1 - no checks ran (a suite that checks nothing fails)\n1..1\n");
        fflush(stdout);
        return 1;
    }
    printf("1..%d\n", n_run);
    if (n_failed)
        printf("# %d of %d checks failed\n", n_failed, n_run);
    fflush(stdout);
    return n_failed ? 1 : 0;
}

int tap_failed(void) { return n_failed; }
int tap_count(void) { return n_run; }

uint64_t tap_seed(void)
{
    static int have;
    static uint64_t seed;
    if (!have) {
        const char *s = getenv("GPUK_TEST_SEED");
        if (s && *s) {
            seed = strtoull(s, NULL, 0);
        } else {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            seed = ((uint64_t)ts.tv_sec * 1000003u) ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32);
        }
        have = 1;
        printf("# seed %llu (replay with GPUK_TEST_SEED=%llu)\n",
               (unsigned long long)seed, (unsigned long long)seed);
        fflush(stdout);
    }
    return seed;
}

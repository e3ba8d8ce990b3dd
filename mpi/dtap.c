/* dtap.c - see dtap.h */
#include "dtap.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define WHY 240

static MPI_Comm comm = MPI_COMM_NULL;
static int rank, size, n_run, n_failed;
static uint64_t seed;
static char why[WHY];

void dtap_init(MPI_Comm c)
{
    MPI_Comm_dup(c, &comm);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (rank == 0) {
        const char *s = getenv("GPUK_TEST_SEED");
        if (s && *s) {
            seed = strtoull(s, NULL, 0);
        } else {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            seed = ((uint64_t)ts.tv_sec * 1000003u) ^ (uint64_t)ts.tv_nsec ^
                   ((uint64_t)getpid() << 32);
        }
        printf("# %d rank%s; seed %llu (replay with GPUK_TEST_SEED=%llu)\n", size,
               size == 1 ? "" : "s", (unsigned long long)seed, (unsigned long long)seed);
        fflush(stdout);
    }
    MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, comm);
}

uint64_t dtap_seed(void) { return seed; }
int dtap_rank(void) { return rank; }
int dtap_size(void) { return size; }

void dtap_why(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
}

int dtap_ok(int cond, const char *fmt, ...)
{
    int mine = cond != 0, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm);
    n_run++;
    if (!all) {
        /* who failed, and why: every rank's verdict and reason to rank 0 */
        char *whys = rank == 0 ? calloc((size_t)size, WHY) : NULL;
        int *oks = rank == 0 ? calloc((size_t)size, sizeof *oks) : NULL;
        if (!mine && !why[0])
            snprintf(why, sizeof why, "(no reason given)");
        MPI_Gather(&mine, 1, MPI_INT, oks, 1, MPI_INT, 0, comm);
        MPI_Gather(why, WHY, MPI_CHAR, whys, WHY, MPI_CHAR, 0, comm);
        n_failed++;
        if (rank == 0) {
            va_list ap;
            printf("not ok %d - ", n_run);
            va_start(ap, fmt);
            vprintf(fmt, ap);
            va_end(ap);
            printf("\n");
            for (int r = 0; r < size && oks && whys; r++)
                if (!oks[r])
                    printf("# rank %d: %.*s\n", r, WHY, whys + (size_t)r * WHY);
            fflush(stdout);
        }
        free(whys);
        free(oks);
    } else if (rank == 0) {
        va_list ap;
        printf("ok %d - ", n_run);
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        printf("\n");
        fflush(stdout);
    }
    why[0] = '\0';
    return all;
}

void dtap_skip(const char *fmt, ...)
{
    MPI_Barrier(comm);
    n_run++;
    if (rank == 0) {
        va_list ap;
        printf("ok %d # SKIP ", n_run);
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        printf("\n");
        fflush(stdout);
    }
}

void dtap_diag(const char *fmt, ...)
{
    if (rank != 0)
        return;
    va_list ap;
    printf("# ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
}

int dtap_done(void)
{
    MPI_Barrier(comm);
    if (rank == 0) {
        if (n_run == 0)
            printf("not ok 1 - no checks ran (a suite that checks nothing fails)\n1..1\n");
        else
            printf("1..%d\n", n_run);
        if (n_failed)
            printf("# %d of %d checks failed\n", n_failed, n_run);
        fflush(stdout);
    }
    MPI_Comm_free(&comm);
    return n_run == 0 || n_failed ? 1 : 0;
}

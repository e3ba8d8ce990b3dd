/* Experiment: P processes x T OpenBLAS threads, each C += A B over k in
 * S slices (beta 1 after the first), optionally in column slabs; started
 * together; prints total GFLOP/s from the slowest process. */
#define _GNU_SOURCE
#include <cblas.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern void openblas_set_num_threads(int);
extern char *openblas_get_config(void);

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static void work(int m, int n, int k, int slices, int slabs, float *A, float *B, float *C)
{
    int kb = k / slices, nb = n / slabs;
    for (int s = 0; s < slices; s++)
        for (int j = 0; j < slabs; j++)
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, nb, kb, 1.0f,
                        A + (size_t)s * kb, k, B + (size_t)s * kb * n + (size_t)j * nb, n,
                        s ? 1.0f : 0.0f, C + (size_t)j * nb, n);
}

int main(int argc, char **argv)
{
    if (argc < 9) {
        fprintf(stderr, "usage: P T m n k slices slabs reps [bind]\n");
        return 2;
    }
    int P = atoi(argv[1]), T = atoi(argv[2]), m = atoi(argv[3]), n = atoi(argv[4]),
        k = atoi(argv[5]), S = atoi(argv[6]), J = atoi(argv[7]), R = atoi(argv[8]);
    int bind = argc > 9 ? atoi(argv[9]) : 0;
    int ready[2], go[2], res[2];
    if (pipe(ready) || pipe(go) || pipe(res))
        return 1;
    for (int p = 0; p < P; p++) {
        if (fork() == 0) {
            if (bind) {
                cpu_set_t set;
                CPU_ZERO(&set);
                for (int c = 0; c < T; c++)
                    CPU_SET(p * T + c, &set);
                sched_setaffinity(0, sizeof set, &set);
            }
            openblas_set_num_threads(T);
            float *A = malloc((size_t)m * k * 4), *B = malloc((size_t)k * n * 4),
                  *C = malloc((size_t)m * n * 4);
            for (size_t i = 0; i < (size_t)m * k; i++)
                A[i] = (float)((i * 7 + p) % 13) / 13.0f;
            for (size_t i = 0; i < (size_t)k * n; i++)
                B[i] = (float)((i * 5 + p) % 11) / 11.0f;
            work(m, n, k, S, J, A, B, C);
            char c = 1;
            if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
                _exit(1);
            double t0 = now();
            for (int r = 0; r < R; r++)
                work(m, n, k, S, J, A, B, C);
            double t = (now() - t0) / R;
            if (write(res[1], &t, sizeof t) != sizeof t)
                _exit(1);
            _exit(0);
        }
    }
    char c;
    for (int p = 0; p < P; p++)
        if (read(ready[0], &c, 1) != 1)
            return 1;
    char gos[256];
    memset(gos, 1, sizeof gos);
    if (write(go[1], gos, P) != P)
        return 1;
    double tmax = 0, tmin = 1e9;
    for (int p = 0; p < P; p++) {
        double t;
        if (read(res[0], &t, sizeof t) != sizeof t)
            return 1;
        tmax = t > tmax ? t : tmax;
        tmin = t < tmin ? t : tmin;
    }
    while (wait(NULL) > 0)
        ;
    double fl = 2.0 * m * n * (double)k * P;
    printf("P=%2d T=%2d %5dx%5dx%5d slices=%d slabs=%d bind=%d: %7.1f ms (fastest %7.1f)  %7.0f GFLOP/s  %5.1f /thread\n",
           P, T, m, n, k, S, J, bind, tmax * 1e3, tmin * 1e3, fl / tmax * 1e-9,
           fl / tmax * 1e-9 / (P * T));
    return 0;
}

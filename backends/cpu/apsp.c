/*
 * apsp.c - all-pairs shortest paths by Floyd-Warshall (gpuk_apsp(3)),
 * in f32, f64 and i32.
 *
 *   naive  the textbook triple loop on one thread, with predecessors: the
 *          GPUK_CHECK shadow's reference of the op
 *   omp    the same loops with the rows of each k step split over OpenMP
 *          threads: step k reads row k and column k, which step k leaves
 *          unchanged (d[k][k] is not negative without a negative cycle),
 *          so the rows of one step are independent
 *
 * What every rung computes (gpuk.h): d starts as w with "no edge" made
 * infinite (NaN -> +inf for floats; anything above GPUK_I32_INF -> INF
 * for i32) and d[i][i] = min(w[i][i], 0); then for each k, every pair
 * relaxes d[i][j] through k when d[i][k] + d[k][j] is strictly smaller.
 * For i32, INF is no path whatever the other term (INF + w with w < 0
 * stays "no path", unlike min-plus's algebra), and a finite sum is the
 * wrapped 32-bit sum.  pred[i][j] starts at i for an edge and -1 for none
 * or the diagonal; a relaxation through k takes pred[k][j].  A negative
 * diagonal at the end is a negative cycle (GPUK_ERR_NEGATIVE_CYCLE).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "cpu.h"

#define AP_INF32 ((int32_t)GPUK_I32_INF)

/* The three element types of the (min, +) ops, each with its infinity
 * and its relaxation step, so the loops below exist once (dtype.h). */

static inline float ap_inf_f32(void) { return INFINITY; }
static inline double ap_inf_f64(void) { return INFINITY; }
static inline int32_t ap_inf_i32(void) { return AP_INF32; }

/* "no edge" made infinite, on the way from w to d */
static inline float ap_clean_f32(float v) { return isnan(v) ? INFINITY : v; }
static inline double ap_clean_f64(double v) { return isnan(v) ? INFINITY : v; }
static inline int32_t ap_clean_i32(int32_t v) { return v > AP_INF32 ? AP_INF32 : v; }

/* The candidate d[i][k] + d[k][j], and whether it is a path at all: a
 * float sum of an infinity is itself infinite (or NaN, which never wins);
 * an i32 INF must be tested, since INF + w < INF for w < 0. */
static inline int ap_sum_f32(float x, float y, float *s)
{
    *s = x + y;
    return 1;
}
static inline int ap_sum_f64(double x, double y, double *s)
{
    *s = x + y;
    return 1;
}
static inline int ap_sum_i32(int32_t x, int32_t y, int32_t *s)
{
    if (x >= AP_INF32 || y >= AP_INF32)
        return 0;
    *s = (int32_t)((uint32_t)x + (uint32_t)y);
    return 1;
}

/* d = clean(w) (in place when d is w), the diagonal min(., 0), and pred's
 * start: i where an edge leaves i, else -1. */
#define AP_INIT(DT, T, sfx, ...)                                                       \
    static void ap_init_##sfx(int64_t n, const T *w, T *d, int32_t *pred)              \
    {                                                                                  \
        for (int64_t i = 0; i < n; i++)                                                \
            for (int64_t j = 0; j < n; j++) {                                          \
                T v = ap_clean_##sfx(w[i * n + j]);                                    \
                if (i == j && v > (T)0)                                                \
                    v = (T)0;                                                          \
                d[i * n + j] = v;                                                      \
                if (pred)                                                              \
                    pred[i * n + j] = i != j && v < ap_inf_##sfx() ? (int32_t)i : -1;  \
            }                                                                          \
    }
CPU_MINPLUS_DTYPES(AP_INIT)
#undef AP_INIT

/* One row i of step k: relax d[i][*] through k. */
#define AP_ROW(DT, T, sfx, ...)                                                           \
    static inline void ap_row_##sfx(int64_t n, int64_t i, int64_t k, T *d, int32_t *pred) \
    {                                                                                  \
        T dik = d[i * n + k];                                                          \
        const T *dk = d + k * n;                                                       \
        T *di = d + i * n;                                                             \
        for (int64_t j = 0; j < n; j++) {                                              \
            T s;                                                                       \
            if (ap_sum_##sfx(dik, dk[j], &s) && s < di[j]) {                           \
                di[j] = s;                                                             \
                if (pred)                                                              \
                    pred[i * n + j] = pred[k * n + j];                                 \
            }                                                                          \
        }                                                                              \
    }
CPU_MINPLUS_DTYPES(AP_ROW)
#undef AP_ROW

/* The first vertex with a negative diagonal, or -1. */
#define AP_CYCLE(DT, T, sfx, ...)                                                      \
    static int64_t ap_cycle_##sfx(int64_t n, const T *d)                               \
    {                                                                                  \
        for (int64_t i = 0; i < n; i++)                                                \
            if (d[i * n + i] < (T)0)                                                   \
                return i;                                                              \
        return -1;                                                                     \
    }
CPU_MINPLUS_DTYPES(AP_CYCLE)
#undef AP_CYCLE

static gpuk_status ap_cycle_fail(gpuk_bctx *b, const char *rung, int64_t v, double dvv)
{
    return cpu_fail(b, GPUK_ERR_NEGATIVE_CYCLE, "apsp/%s: vertex %lld lies on a cycle of "
                    "negative length (d[%lld,%lld] = %g after the last step)", rung,
                    (long long)v, (long long)v, (long long)v, dvv);
}

/* The whole algorithm in one dtype; threads > 1 splits each step's rows. */
#define AP_RUN(DT, T, sfx, ...)                                                        \
    static gpuk_status ap_run_##sfx(gpuk_bctx *b, const gpuk_args *args, int threads,  \
                                    const char *rung)                                  \
    {                                                                                  \
        int64_t n = args->in[0].shape[0];                                              \
        const T *w = args->in[0].data;                                                 \
        T *d = args->out.data;                                                         \
        int32_t *pred = args->has_out2 ? args->out2.data : NULL;                       \
        ap_init_##sfx(n, w, d, pred);                                                  \
        for (int64_t k = 0; k < n; k++) {                                              \
            _Pragma("omp parallel for num_threads(threads) schedule(static) if (threads > 1)") \
            for (int64_t i = 0; i < n; i++)                                            \
                if (i != k)                                                            \
                    ap_row_##sfx(n, i, k, d, pred);                                    \
        }                                                                              \
        int64_t v = ap_cycle_##sfx(n, d);                                              \
        return v < 0 ? GPUK_OK : ap_cycle_fail(b, rung, v, (double)d[v * n + v]);      \
    }
CPU_MINPLUS_DTYPES(AP_RUN)
#undef AP_RUN

/* Row k of step k is left as it is: relaxing it through k would add
 * d[k][k] = 0 (or, with a negative cycle through k, make the cycle's
 * effect depend on the order of rows; the result is meaningless then
 * anyway).  Skipping it is what lets the rows of a step run in any order. */
#define AP_RUNGS(DT, T, sfx, ...)                                                      \
    CPU_INSTANCE(apsp_naive, sfx)                                                      \
    {                                                                                  \
        return ap_run_##sfx(b, args, 1, "naive");                                      \
    }                                                                                  \
    CPU_INSTANCE(apsp_omp, sfx)                                                        \
    {                                                                                  \
        return ap_run_##sfx(b, args, b->nthreads, "omp");                              \
    }
CPU_MINPLUS_DTYPES(AP_RUNGS)
CPU_BY_DTYPE(apsp_naive, CPU_MINPLUS_DTYPES)
CPU_BY_DTYPE(apsp_omp, CPU_MINPLUS_DTYPES)

/*
 * apsp.c - all-pairs shortest paths by Floyd-Warshall (gpuk_apsp(3)),
 * in f32, f64 and i32.
 *
 *   naive    the textbook triple loop on one thread, with predecessors:
 *            the GPUK_CHECK shadow's reference of the op
 *   omp      the same loops with the rows of each k step split over
 *            OpenMP threads: step k reads row k and column k, which step
 *            k leaves unchanged (d[k][k] is not negative without a
 *            negative cycle), so the rows of one step are independent
 *   blocked  blocked Floyd-Warshall (below): the n^3 work is min-plus
 *            updates with a k of 256, run by the backend's fastest
 *            min-plus rung
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
#include <stdlib.h>
#include <string.h>

#include "cpu.h"

#define AP_INF32 ((int32_t)GPUK_I32_INF)

/* The three element types, each with its infinity and its relaxation
 * step, so the loops below exist once: AP_TYPES(X) is X(suffix, C type). */
#define AP_TYPES(X) X(f32, float) X(f64, double) X(i32, int32_t)

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
#define AP_INIT(sfx, T)                                                                \
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
AP_TYPES(AP_INIT)
#undef AP_INIT

/* One row i of step k: relax d[i][*] through k. */
#define AP_ROW(sfx, T)                                                                 \
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
AP_TYPES(AP_ROW)
#undef AP_ROW

/* The first vertex with a negative diagonal, or -1. */
#define AP_CYCLE(sfx, T)                                                               \
    static int64_t ap_cycle_##sfx(int64_t n, const T *d)                               \
    {                                                                                  \
        for (int64_t i = 0; i < n; i++)                                                \
            if (d[i * n + i] < (T)0)                                                   \
                return i;                                                              \
        return -1;                                                                     \
    }
AP_TYPES(AP_CYCLE)
#undef AP_CYCLE

static gpuk_status ap_cycle_fail(gpuk_bctx *b, const char *rung, int64_t v, double dvv)
{
    return cpu_fail(b, GPUK_ERR_NEGATIVE_CYCLE, "apsp/%s: vertex %lld lies on a cycle of "
                    "negative length (d[%lld,%lld] = %g after the last step)", rung,
                    (long long)v, (long long)v, (long long)v, dvv);
}

/* The whole algorithm in one dtype; threads > 1 splits each step's rows. */
#define AP_RUN(sfx, T)                                                                 \
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
AP_TYPES(AP_RUN)
#undef AP_RUN

/* Row k of step k is left as it is: relaxing it through k would add
 * d[k][k] = 0 (or, with a negative cycle through k, make the cycle's
 * effect depend on the order of rows; the result is meaningless then
 * anyway).  Skipping it is what lets the rows of a step run in any order. */
static gpuk_status ap_dispatch(gpuk_bctx *b, const gpuk_args *args, int threads, const char *rung)
{
    switch (args->dtype) {
    case GPUK_F32: return ap_run_f32(b, args, threads, rung);
    case GPUK_F64: return ap_run_f64(b, args, threads, rung);
    case GPUK_I32: return ap_run_i32(b, args, threads, rung);
    default: break;
    }
    return cpu_fail(b, GPUK_ERR_DTYPE, "apsp/%s: no path for dtype %d", rung, (int)args->dtype);
}

CPU_KERNEL(apsp_naive)
{
    return ap_dispatch(b, args, 1, "naive");
}

CPU_KERNEL(apsp_omp)
{
    return ap_dispatch(b, args, b->nthreads, "omp");
}

/*
 * blocked: Floyd-Warshall by blocks of AP_BS vertices, the way the field
 * does it.  For each diagonal block K (vertices [k0, k0 + kb)):
 *
 *   1. close the kb x kb block D = d[K][K] in place: Floyd-Warshall on it
 *      (ap_close, the naive rung's relaxation with vectors along j);
 *   2. R = D (x) d[K][:] and C = d[:][K] (x) D, two min-plus products into
 *      scratch: R is the block row relaxed through the vertices of K, C
 *      the block column.  No min is needed with the old values: D's
 *      diagonal is 0 (or negative), so the term through i itself gives
 *      back d[K][j] exactly (0 + x is x, INF + 0 is INF);
 *   3. every d[i][j] with i and j outside K takes min(d[i][j], C[i][:]
 *      (x) R[:][j]): a min-plus update, up to four rectangles (rows above
 *      and below K, columns left and right of it), whose operands are
 *      scratch, so nothing read is written;
 *   4. R and C are copied into the block row and column.
 *
 * Step 3 does the triple loop's 2 n^3 operations over all blocks; step 2
 * adds 4 kb^2 n a block (2 kb / n of that: 12.5% at n = 4096) and step 1
 * 2 kb^3 a block, and all but the closures run in a min-plus rung's
 * register tiles.
 * The products in exact arithmetic are the triple loop's values (D
 * closed is idempotent: D (x) D = D); in floats each result is the
 * rounded length of some path, as with every rung (gpuk_apsp(3)).
 *
 * Which min-plus.  Steps 2 and 3 call the backend's own min-plus kernel
 * through its table row (regtile, else the DEFAULT row of the dtype), so
 * they follow that rung as it changes.  Its algebra is Floyd-Warshall's
 * for floats (+inf absorbs, a NaN sum is skipped) and for i32 when no
 * weight is negative: then every value is >= 0, INF + x >= INF never wins
 * and no sum wraps (the largest is 2 INF < 2^31).  A negative i32 weight
 * (a scan of d after the start says) makes INF + w < INF a "path" in
 * min-plus; such a call, and a dtype with no min-plus row, takes ap_prod,
 * the exact relaxation (INF tested) in cache blocks instead.
 *
 * Predecessors need each relaxation's k, which min-plus does not return,
 * so a call with pred runs the omp rung's loops.
 */

#define AP_BS 256     /* the block: D is 256 KB in f32, held in L2 while it is closed */
#define AP_JC 512     /* ap_prod: columns of r per task (2-4 KB of a row, in L1) */
#define AP_IB 32      /* ap_prod: rows per task, sharing one kb x AP_JC piece of b */

/* Is x a path at all (worth relaxing through)?  +inf and INF are not. */
static inline int ap_live_f32(float x) { return x < INFINITY; }
static inline int ap_live_f64(double x) { return x < INFINITY; }
static inline int ap_live_i32(int32_t x) { return x < AP_INF32; }

/* x + y as a candidate, x live: the float sum (NaN never wins), or for
 * i32 INF when y is INF, else the wrapped sum. */
static inline float ap_cand_f32(float x, float y) { return x + y; }
static inline double ap_cand_f64(double x, double y) { return x + y; }
static inline int32_t ap_cand_i32(int32_t x, int32_t y)
{
    int32_t s = (int32_t)((uint32_t)x + (uint32_t)y);
    return y >= AP_INF32 ? AP_INF32 : s;
}

/* r[j] = min(r[j], x + y[j]) over a row, strict as the naive rung: one
 * body compiled three times (AVX-512, AVX2, plain), picked by the
 * context's ISA, so GPUK_CPU_ISA reaches it as it reaches min-plus. */
#define AP_RELAX(sfx, T, isa, attr)                                                    \
    attr static void ap_relax_##sfx##_##isa(int64_t len, T x, const T *restrict y,     \
                                            T *restrict r)                             \
    {                                                                                  \
        _Pragma("omp simd")                                                            \
        for (int64_t j = 0; j < len; j++) {                                            \
            T s = ap_cand_##sfx(x, y[j]);                                              \
            r[j] = s < r[j] ? s : r[j];                                                \
        }                                                                              \
    }
#if defined(__x86_64__) || defined(__i386__)
#define AP_X86 1
#define AP_RELAX_ALL(sfx, T)                                                           \
    AP_RELAX(sfx, T, avx512, __attribute__((target("avx512f"))))                       \
    AP_RELAX(sfx, T, avx2, __attribute__((target("avx2"))))                            \
    AP_RELAX(sfx, T, plain, )
#else
#define AP_RELAX_ALL(sfx, T) AP_RELAX(sfx, T, plain, )
#endif
AP_TYPES(AP_RELAX_ALL)
#undef AP_RELAX_ALL
#undef AP_RELAX

/* The relaxation of each dtype for the context's ISA. */
#ifdef AP_X86
#define AP_RELAX_OF(sfx, T)                                                            \
    typedef void (*ap_relax_##sfx##_fn)(int64_t, T, const T *, T *);                   \
    static ap_relax_##sfx##_fn ap_relax_of_##sfx(const gpuk_bctx *b)                   \
    {                                                                                  \
        return b->isa == CPU_ISA_AVX512 ? ap_relax_##sfx##_avx512                      \
             : b->isa == CPU_ISA_AVX2   ? ap_relax_##sfx##_avx2                        \
                                        : ap_relax_##sfx##_plain;                      \
    }
#else
#define AP_RELAX_OF(sfx, T)                                                            \
    typedef void (*ap_relax_##sfx##_fn)(int64_t, T, const T *, T *);                   \
    static ap_relax_##sfx##_fn ap_relax_of_##sfx(const gpuk_bctx *b)                   \
    {                                                                                  \
        (void)b;                                                                       \
        return ap_relax_##sfx##_plain;                                                 \
    }
#endif
AP_TYPES(AP_RELAX_OF)
#undef AP_RELAX_OF

/* Step 1: Floyd-Warshall on the m x m block at D (rows ld apart), in
 * place, exactly the naive rung's relaxations (row k skipped in step k). */
#define AP_CLOSE(sfx, T)                                                               \
    static void ap_close_##sfx(const gpuk_bctx *b, int64_t m, void *dv, int64_t ld)    \
    {                                                                                  \
        ap_relax_##sfx##_fn relax = ap_relax_of_##sfx(b);                              \
        T *D = dv;                                                                     \
        for (int64_t k = 0; k < m; k++)                                                \
            for (int64_t i = 0; i < m; i++) {                                          \
                T x = D[i * ld + k];                                                   \
                if (i != k && ap_live_##sfx(x))                                        \
                    relax(m, x, D + k * ld, D + i * ld);                               \
            }                                                                          \
    }
AP_TYPES(AP_CLOSE)
#undef AP_CLOSE

/* The exact product: r[m,n] = min(r if acc else INF, a[m,k] (x) b[k,n])
 * with Floyd-Warshall's relaxation (i32: INF is no path whatever the
 * other term).  Tasks of AP_IB rows by AP_JC columns, the columns
 * outermost, so a thread's consecutive tasks share the k x AP_JC piece of
 * b in its L2 while a row's piece of r stays in L1 for the whole k. */
#define AP_PROD(sfx, T)                                                                \
    static void ap_prod_##sfx(gpuk_bctx *b, int64_t m, int64_t n, int64_t k,          \
                              const void *av, int64_t lda, const void *bv, int64_t ldb, \
                              void *rv, int64_t ldr, int acc)                          \
    {                                                                                  \
        ap_relax_##sfx##_fn relax = ap_relax_of_##sfx(b);                              \
        const T *a = av, *bm = bv;                                                     \
        T *r = rv;                                                                     \
        int64_t nj = (n + AP_JC - 1) / AP_JC, ni = (m + AP_IB - 1) / AP_IB;            \
        _Pragma("omp parallel for num_threads(b->nthreads) schedule(static) collapse(2)") \
        for (int64_t tj = 0; tj < nj; tj++)                                            \
            for (int64_t ti = 0; ti < ni; ti++) {                                      \
                int64_t j0 = tj * AP_JC, len = n - j0 < AP_JC ? n - j0 : AP_JC;        \
                int64_t i1 = (ti + 1) * AP_IB < m ? (ti + 1) * AP_IB : m;              \
                for (int64_t i = ti * AP_IB; i < i1; i++) {                            \
                    T *ri = r + i * ldr + j0;                                          \
                    if (!acc)                                                          \
                        for (int64_t j = 0; j < len; j++)                              \
                            ri[j] = ap_inf_##sfx();                                    \
                    for (int64_t p = 0; p < k; p++) {                                  \
                        T x = a[i * lda + p];                                          \
                        if (ap_live_##sfx(x))                                          \
                            relax(len, x, bm + p * ldb + j0, ri);                      \
                    }                                                                  \
                }                                                                      \
            }                                                                          \
    }
AP_TYPES(AP_PROD)
#undef AP_PROD

/* Is any value of d[n,n] negative?  (i32: min-plus's algebra holds without.) */
static int ap_any_negative_i32(gpuk_bctx *b, int64_t n, const int32_t *d)
{
    int neg = 0;
#pragma omp parallel for num_threads(b->nthreads) schedule(static) reduction(| : neg)
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++)
            neg |= d[i * n + j] < 0;
    return neg;
}

/* One call's blocked run: the dtype and the min-plus row of steps 2 and 3. */
struct ap_blk {
    gpuk_bctx *b;
    gpuk_dtype dt;
    size_t es;                 /* bytes an element */
    const gpuk_kernel *mp;     /* NULL: ap_prod */
    int64_t bs;                /* the block */
};

/* The min-plus row of dt: regtile, else the DEFAULT one, else NULL. */
static const gpuk_kernel *ap_minplus_row(gpuk_dtype dt)
{
    const gpuk_kernel *def = NULL;
    for (size_t i = 0; i < cpu_backend.n_kernels; i++) {
        const gpuk_kernel *k = &cpu_kernels[i];
        if (k->op != GPUK_OP_MINPLUS || !(k->dtypes & GPUK_DTYPE_BIT(dt)))
            continue;
        if (strcmp(k->variant, "regtile") == 0)
            return k;
        if (k->flags & GPUK_KF_DEFAULT)
            def = k;
    }
    return def;
}

static void ap_desc(gpuk_tdesc *t, const void *p, gpuk_dtype dt, int64_t rows, int64_t cols,
                    int64_t ld)
{
    memset(t, 0, sizeof *t);
    t->data = (void *)p;
    t->dtype = dt;
    t->ndim = 2;
    t->shape[0] = rows, t->shape[1] = cols;
    t->stride[0] = ld, t->stride[1] = 1;
}

/* r[m,n] = min(r if acc else INF, a[m,k] (x) b[k,n]), by the min-plus row
 * (canonical operands with strides, as core would pass them) or ap_prod. */
static gpuk_status ap_mul(const struct ap_blk *B, int64_t m, int64_t n, int64_t k, const void *a,
                          int64_t lda, const void *bm, int64_t ldb, void *r, int64_t ldr, int acc)
{
    if (m == 0 || n == 0)
        return GPUK_OK;
    if (!B->mp) {
        switch (B->dt) {
        case GPUK_F32: ap_prod_f32(B->b, m, n, k, a, lda, bm, ldb, r, ldr, acc); break;
        case GPUK_F64: ap_prod_f64(B->b, m, n, k, a, lda, bm, ldb, r, ldr, acc); break;
        default: ap_prod_i32(B->b, m, n, k, a, lda, bm, ldb, r, ldr, acc); break;
        }
        return GPUK_OK;
    }
    gpuk_args x;
    memset(&x, 0, sizeof x);
    x.size = sizeof x;
    x.op = GPUK_OP_MINPLUS;
    x.dtype = B->dt;
    x.n_in = 2;
    ap_desc(&x.in[0], a, B->dt, m, k, lda);
    ap_desc(&x.in[1], bm, B->dt, k, n, ldb);
    ap_desc(&x.out, r, B->dt, m, n, ldr);
    x.accumulate = acc;
    return B->mp->fn(B->b, &x);
}

static void ap_close(const struct ap_blk *B, int64_t m, void *D, int64_t ld)
{
    switch (B->dt) {
    case GPUK_F32: ap_close_f32(B->b, m, D, ld); break;
    case GPUK_F64: ap_close_f64(B->b, m, D, ld); break;
    default: ap_close_i32(B->b, m, D, ld); break;
    }
}

#define AP_TRY(expr)                                                              \
    do {                                                                               \
        gpuk_status ap_st_ = (expr);                                                   \
        if (ap_st_ != GPUK_OK)                                                         \
            return ap_st_;                                                             \
    } while (0)

/* Steps 1-4 for every diagonal block of d[n,n]; R (bs x n) and C (n x bs)
 * are scratch. */
static gpuk_status ap_blocked_steps(const struct ap_blk *B, int64_t n, char *d, char *R, char *C)
{
    size_t es = B->es;
    int64_t bs = B->bs;
#define AP_AT(p, ld, i, j) ((p) + ((size_t)(i) * (size_t)(ld) + (size_t)(j)) * es)
    for (int64_t k0 = 0; k0 < n; k0 += bs) {
        int64_t kb = n - k0 < bs ? n - k0 : bs, k1 = k0 + kb;
        char *D = AP_AT(d, n, k0, k0);
        ap_close(B, kb, D, n);
        if (kb == n)
            break;
        AP_TRY(ap_mul(B, kb, n, kb, D, n, AP_AT(d, n, k0, 0), n, R, n, 0));
        AP_TRY(ap_mul(B, n, kb, kb, AP_AT(d, n, 0, k0), n, D, n, C, bs, 0));
        /* the rows above and below K, by the columns left and right of it */
        const int64_t rows[2][2] = { { 0, k0 }, { k1, n } }, cols[2][2] = { { 0, k0 }, { k1, n } };
        for (int ri = 0; ri < 2; ri++)
            for (int ci = 0; ci < 2; ci++) {
                int64_t i0 = rows[ri][0], j0 = cols[ci][0];
                AP_TRY(ap_mul(B, rows[ri][1] - i0, cols[ci][1] - j0, kb, AP_AT(C, bs, i0, 0),
                                   bs, AP_AT(R, n, 0, j0), n, AP_AT(d, n, i0, j0), n, 1));
            }
#pragma omp parallel for num_threads(B->b->nthreads) schedule(static)
        for (int64_t i = 0; i < n; i++) {
            if (i >= k0 && i < k1)
                memcpy(AP_AT(d, n, i, 0), AP_AT(R, n, i - k0, 0), (size_t)n * es);
            else
                memcpy(AP_AT(d, n, i, k0), AP_AT(C, bs, i, 0), (size_t)kb * es);
        }
    }
#undef AP_AT
    return GPUK_OK;
}

CPU_KERNEL(apsp_blocked)
{
    if (args->has_out2)
        return ap_dispatch(b, args, b->nthreads, "blocked");
    struct ap_blk B = { b, args->dtype, args->dtype == GPUK_F64 ? 8 : 4, NULL, AP_BS };
    int64_t n = args->in[0].shape[0];
    void *d = args->out.data;
    switch (B.dt) {
    case GPUK_F32: ap_init_f32(n, args->in[0].data, d, NULL); break;
    case GPUK_F64: ap_init_f64(n, args->in[0].data, d, NULL); break;
    case GPUK_I32: ap_init_i32(n, args->in[0].data, d, NULL); break;
    default: return cpu_fail(b, GPUK_ERR_DTYPE, "apsp/blocked: no path for dtype %d", (int)B.dt);
    }
    if (B.dt != GPUK_I32 || !ap_any_negative_i32(b, n, d))
        B.mp = ap_minplus_row(B.dt);
    int64_t rb = n < B.bs ? n : B.bs;
    char *R = cpu_scratch(b, (size_t)(rb * n) * B.es, "the block row of apsp/blocked");
    char *C = R ? cpu_scratch(b, (size_t)(n * rb) * B.es, "the block column of apsp/blocked")
                : NULL;
    gpuk_status st = C ? ap_blocked_steps(&B, n, d, R, C) : GPUK_ERR_NO_MEMORY;
    free(R);
    free(C);
    if (st != GPUK_OK)
        return st;
    int64_t v = -1;
    double dvv = 0;
    switch (B.dt) {
    case GPUK_F32: v = ap_cycle_f32(n, d); if (v >= 0) dvv = ((float *)d)[v * n + v]; break;
    case GPUK_F64: v = ap_cycle_f64(n, d); if (v >= 0) dvv = ((double *)d)[v * n + v]; break;
    default: v = ap_cycle_i32(n, d); if (v >= 0) dvv = ((int32_t *)d)[v * n + v]; break;
    }
    return v < 0 ? GPUK_OK : ap_cycle_fail(b, "blocked", v, dvv);
}

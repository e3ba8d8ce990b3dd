/*
 * minplus.c - r[i,j] = min_k (a[i,k] + b[k,j]), the "shortcut" product, as
 * a CPU ladder in f32, f64 and i32: naive, omp, transposed, ilp, simd_k,
 * regtile, packed, each one classic step of tuning a loop nest (threads,
 * unit-stride reads, independent chains, vectors, register tiles, cache
 * blocking).  The rungs were once numbered; v1..v5 remain as aliases of
 * transposed..packed (the comments below keep them), and v0 names naive,
 * the textbook loop, as on the CUDA backend (here it once named omp).
 *
 * One source for every type (dtype.h): each rung is written once over a
 * semiring given by three things per type, its infinity MP_INF, its sum
 * mp_add and its zero-sign pass; the minimum is the same comparison in
 * every type.  i32 runs naive, regtile and packed, the floats every rung
 * (simd_k's +inf padding of k has no i32 counterpart: a padded sum wraps).
 *
 * Floats (f32, f64): exact.  Every rung rounds each sum a + b once and
 * folds it with  acc = (s < acc) ? s : acc  (minps/minpd (s, acc)) from
 * acc = +inf.  A NaN sum never compares less, so it is skipped, as C's fmin
 * and IEEE minNum do, and acc never becomes NaN; min is exact, so nothing
 * depends on the order of k, the thread count or the rung but a tie of +0
 * and -0, which minplus_zero_signs settles afterwards as IEEE 754-2019
 * minimum does (-0 < +0).  An empty k gives +inf.
 *
 * i32 (gpuk.h): r[i,j] = min(INF, min_k (a[i,k] + b[k,j])), INF =
 * GPUK_I32_INF, each sum the 32-bit two's-complement sum.  The minimum
 * starts at INF, so a sum at or above it never moves it: that is the
 * saturation, and k = 0 leaves INF.  Integer add wraps the same way in C
 * (through uint32_t) as in vpaddd, min is exact, and there is neither NaN
 * nor a signed zero: no pass after the loop.
 *
 * Update (gpuk_minplus_update, args->accumulate): the old r[i,j] is one
 * more candidate.  Each rung starts the output's chain from it instead of
 * INF (MP_START: min(old, INF), so a float NaN becomes +inf there, as it
 * would stick in the chain, and skipping it is the rule; an i32 above INF
 * comes down to INF), or folds its finished minimum into that start value
 * (simd_k).  Either way the old value sits on the accumulator side of
 * every comparison, and a chain moves only to a strictly smaller value, so
 * an old -0 ends as -0 or below, never +0.  A -0 anywhere comes from a -0
 * candidate (a sum (-0) + (-0), or the old value), so the one zero that
 * can be wrong at the end is a +0 where some sum was -0: the zero-sign
 * pass turns exactly those into -0 and leaves a -0 alone.  k = 0 leaves r
 * as MP_START makes it.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "cpu.h"
#include "simd.h"

/* ---- the semiring of each type ---- */

#define MP_INF(S) MP_INF_##S
#define MP_INF_f32 INFINITY
#define MP_INF_f64 ((double)INFINITY)
#define MP_INF_i32 ((int32_t)GPUK_I32_INF)

/* A float sum rounds once; an i32 sum is the 32-bit two's-complement sum:
 * unsigned arithmetic wraps in C, and the conversion back keeps the bits
 * (GCC and Clang define it so). */
#define MP_ADD_FLOAT(DT, T, S, ...) \
    static inline T mp_add_##S(T x, T y) { return x + y; }
CPU_FLOAT_DTYPES(MP_ADD_FLOAT)
static inline int32_t mp_add_i32(int32_t x, int32_t y)
{
    return (int32_t)((uint32_t)x + (uint32_t)y);
}

/* The fold of every rung: a NaN s never wins, a tie keeps acc. */
#define MP_MIN(s, acc) ((s) < (acc) ? (s) : (acc))

/* Where an output's minimum starts: INF, or for an update min(old, INF). */
#define MP_START(S, old, upd) ((upd) ? MP_MIN(*(old), MP_INF(S)) : MP_INF(S))

/* Does this call fold the old r in (ABI 2.2; a core of 2.1 never says)? */
static inline int mp_accumulate(const gpuk_args *args)
{
    return GPUK_ARGS_HAS(args, accumulate) && args->accumulate;
}

/* Operands of one call, unpacked once. */
#define MP_OPS(DT, T, S, ...)                                                \
    struct mp_ops_##S {                                                      \
        int64_t m, n, k, lda, ldb, ldr;                                      \
        const T *a, *b;                                                      \
        T *r;                                                                \
        int upd; /* an update: r's old values are candidates too */          \
    };                                                                       \
    static inline struct mp_ops_##S mp_unpack_##S(const gpuk_args *args)     \
    {                                                                        \
        struct mp_ops_##S o;                                                 \
        o.m = args->in[0].shape[0];                                          \
        o.k = args->in[0].shape[1];                                          \
        o.n = args->in[1].shape[1];                                          \
        o.a = T_PTR(&args->in[0], T);                                        \
        o.b = T_PTR(&args->in[1], T);                                        \
        o.r = T_PTR(&args->out, T);                                          \
        o.lda = T_LD(&args->in[0]);                                          \
        o.ldb = T_LD(&args->in[1]);                                          \
        o.ldr = T_LD(&args->out);                                            \
        o.upd = mp_accumulate(args);                                         \
        return o;                                                            \
    }                                                                        \
    /* k = 0: every output is its start value (INF, or an update's old) */  \
    static void mp_fill_start_##S(const struct mp_ops_##S *o)                \
    {                                                                        \
        for (int64_t i = 0; i < o->m; i++)                                   \
            for (int64_t j = 0; j < o->n; j++)                               \
                o->r[i * o->ldr + j] = MP_START(S, &o->r[i * o->ldr + j], o->upd); \
    }
CPU_MINPLUS_DTYPES(MP_OPS)

/* The zero-sign pass of the floats.  A sum is -0 only as (-0) + (-0), so
 * unless both operands hold a -0 no +0 result can be wrong.  Otherwise
 * each +0 result becomes -0 iff some k pairs two -0: rare and O(k) per
 * zero output.  A -0 result is right as it is: only a -0 candidate (such
 * a sum, or an update's old value) makes one. */
#define MP_NEG_ZERO(x) ((x) == 0 && signbit(x))
#define MP_ZERO_SIGNS(DT, T, S, ...)                                              \
    static void minplus_zero_signs_##S(const gpuk_args *args)                     \
    {                                                                             \
        struct mp_ops_##S o = mp_unpack_##S(args);                                \
        int neg_a = 0, neg_b = 0;                                                 \
        for (int64_t i = 0; i < o.m && !neg_a; i++)                               \
            for (int64_t p = 0; p < o.k && !neg_a; p++)                           \
                neg_a = MP_NEG_ZERO(o.a[i * o.lda + p]);                          \
        for (int64_t p = 0; p < o.k && neg_a && !neg_b; p++)                      \
            for (int64_t j = 0; j < o.n && !neg_b; j++)                           \
                neg_b = MP_NEG_ZERO(o.b[p * o.ldb + j]);                          \
        if (!neg_a || !neg_b)                                                     \
            return;                                                               \
        for (int64_t i = 0; i < o.m; i++)                                         \
            for (int64_t j = 0; j < o.n; j++) {                                   \
                T *rij = &o.r[i * o.ldr + j];                                     \
                if (*rij != 0 || signbit(*rij))                                   \
                    continue;                                                     \
                for (int64_t p = 0; p < o.k; p++)                                 \
                    if (MP_NEG_ZERO(o.a[i * o.lda + p]) && MP_NEG_ZERO(o.b[p * o.ldb + j])) { \
                        *rij = -*rij;                                             \
                        break;                                                    \
                    }                                                             \
            }                                                                     \
    }
CPU_FLOAT_DTYPES(MP_ZERO_SIGNS)

/* An integer has one zero: nothing to settle. */
#define minplus_zero_signs_i32(args) ((void)(args))

/* naive (v0): the textbook triple loop on one thread, in plain C.  b is
 * read down a column, ldb elements apart: a cache miss per step once b
 * outgrows the cache.  The GPUK_CHECK shadow replays every min-plus of its
 * type on it. */
#define MP_NAIVE(DT, T, S, ...)                                               \
    CPU_INSTANCE(minplus_naive, S)                                            \
    {                                                                         \
        struct mp_ops_##S o = mp_unpack_##S(args);                            \
        (void)b;                                                              \
        for (int64_t i = 0; i < o.m; i++)                                     \
            for (int64_t j = 0; j < o.n; j++) {                               \
                T acc = MP_START(S, &o.r[i * o.ldr + j], o.upd);              \
                for (int64_t p = 0; p < o.k; p++)                             \
                    acc = MP_MIN(mp_add_##S(o.a[i * o.lda + p], o.b[p * o.ldb + j]), acc); \
                o.r[i * o.ldr + j] = acc;                                     \
            }                                                                 \
        minplus_zero_signs_##S(args);                                         \
        return GPUK_OK;                                                       \
    }
CPU_GENERIC(minplus_naive, CPU_MINPLUS_DTYPES, MP_NAIVE)

/* omp: the same loop with OpenMP over rows of r: each thread owns whole
 * rows, so the work splits evenly and no result depends on the split. */
#define MP_OMP(DT, T, S, ...)                                                 \
    CPU_INSTANCE(minplus_omp, S)                                              \
    {                                                                         \
        struct mp_ops_##S o = mp_unpack_##S(args);                            \
        _Pragma("omp parallel for num_threads(b->nthreads) schedule(static)") \
        for (int64_t i = 0; i < o.m; i++)                                     \
            for (int64_t j = 0; j < o.n; j++) {                               \
                T acc = MP_START(S, &o.r[i * o.ldr + j], o.upd);              \
                for (int64_t p = 0; p < o.k; p++)                             \
                    acc = MP_MIN(mp_add_##S(o.a[i * o.lda + p], o.b[p * o.ldb + j]), acc); \
                o.r[i * o.ldr + j] = acc;                                     \
            }                                                                 \
        minplus_zero_signs_##S(args);                                         \
        return GPUK_OK;                                                       \
    }
CPU_GENERIC(minplus_omp, CPU_FLOAT_DTYPES, MP_OMP)

/* The floats' operands with unit stride along k: bt[n][kp] = b^T (in
 * 32 x 32 blocks) and ap[m][kp] = a, rows padded from k to kp with +inf (a
 * + inf never wins, -inf + inf is NaN, skipped); OpenMP over rows. */
#define MP_COPIES(DT, T, S, ...)                                                         \
    static T *mp_transpose_b_##S(gpuk_bctx *b, const struct mp_ops_##S *o, int64_t kp)   \
    {                                                                                    \
        T *bt = cpu_scratch(b, (size_t)(o->n > 0 ? o->n : 1) * (size_t)(kp > 0 ? kp : 1) * \
                                   sizeof(T), "the transposed b of min-plus");           \
        if (!bt)                                                                         \
            return NULL;                                                                 \
        _Pragma("omp parallel for num_threads(b->nthreads) schedule(static)")            \
        for (int64_t j0 = 0; j0 < o->n; j0 += 32)                                        \
            for (int64_t p0 = 0; p0 < kp; p0 += 32)                                      \
                for (int64_t j = j0; j < j0 + 32 && j < o->n; j++)                       \
                    for (int64_t p = p0; p < p0 + 32 && p < kp; p++)                     \
                        bt[j * kp + p] = p < o->k ? o->b[p * o->ldb + j] : MP_INF(S);    \
        return bt;                                                                       \
    }                                                                                    \
    static T *mp_pad_a_##S(gpuk_bctx *b, const struct mp_ops_##S *o, int64_t kp)         \
    {                                                                                    \
        T *ap = cpu_scratch(b, (size_t)o->m * (size_t)kp * sizeof(T),                    \
                            "the padded a of min-plus");                                 \
        if (!ap)                                                                         \
            return NULL;                                                                 \
        _Pragma("omp parallel for num_threads(b->nthreads) schedule(static)")            \
        for (int64_t i = 0; i < o->m; i++)                                               \
            for (int64_t p = 0; p < kp; p++)                                             \
                ap[i * kp + p] = p < o->k ? o->a[i * o->lda + p] : MP_INF(S);            \
        return ap;                                                                       \
    }
CPU_FLOAT_DTYPES(MP_COPIES)

/* transposed (v1): transpose b first, so the inner loop reads rows of a
 * and b^T with unit stride: each cache line fetched is used whole. */
#define MP_TRANSPOSED(DT, T, S, ...)                                          \
    CPU_INSTANCE(minplus_transposed, S)                                       \
    {                                                                         \
        struct mp_ops_##S o = mp_unpack_##S(args);                            \
        T *bt = mp_transpose_b_##S(b, &o, o.k);                               \
        if (!bt)                                                              \
            return GPUK_ERR_NO_MEMORY;                                        \
        _Pragma("omp parallel for num_threads(b->nthreads) schedule(static)") \
        for (int64_t i = 0; i < o.m; i++)                                     \
            for (int64_t j = 0; j < o.n; j++) {                               \
                const T *ar = o.a + i * o.lda, *br = bt + j * o.k;            \
                T acc = MP_START(S, &o.r[i * o.ldr + j], o.upd);              \
                for (int64_t p = 0; p < o.k; p++)                             \
                    acc = MP_MIN(ar[p] + br[p], acc);                         \
                o.r[i * o.ldr + j] = acc;                                     \
            }                                                                 \
        free(bt);                                                             \
        minplus_zero_signs_##S(args);                                         \
        return GPUK_OK;                                                       \
    }
CPU_GENERIC(minplus_transposed, CPU_FLOAT_DTYPES, MP_TRANSPOSED)

/* ilp (v2): eight independent accumulators over interleaved k: in
 * transposed each min waits for the one before (a chain as long as k).
 * min is exact, so merging them changes nothing. */
#define MP_ILP 8
#define MP_ILP_BODY(DT, T, S, ...)                                            \
    CPU_INSTANCE(minplus_ilp, S)                                              \
    {                                                                         \
        struct mp_ops_##S o = mp_unpack_##S(args);                            \
        T *bt = mp_transpose_b_##S(b, &o, o.k);                               \
        if (!bt)                                                              \
            return GPUK_ERR_NO_MEMORY;                                        \
        _Pragma("omp parallel for num_threads(b->nthreads) schedule(static)") \
        for (int64_t i = 0; i < o.m; i++)                                     \
            for (int64_t j = 0; j < o.n; j++) {                               \
                const T *ar = o.a + i * o.lda, *br = bt + j * o.k;            \
                T acc[MP_ILP];                                                \
                /* the old value starts chain 0, kept by the merge on ties */ \
                acc[0] = MP_START(S, &o.r[i * o.ldr + j], o.upd);             \
                for (int q = 1; q < MP_ILP; q++)                              \
                    acc[q] = MP_INF(S);                                       \
                int64_t p = 0;                                                \
                for (; p + MP_ILP <= o.k; p += MP_ILP)                        \
                    _Pragma("GCC unroll 8") for (int q = 0; q < MP_ILP; q++)  \
                        acc[q] = MP_MIN(ar[p + q] + br[p + q], acc[q]);       \
                for (; p < o.k; p++)                                          \
                    acc[0] = MP_MIN(ar[p] + br[p], acc[0]);                   \
                T v = acc[0];                                                 \
                for (int q = 1; q < MP_ILP; q++)                              \
                    v = MP_MIN(acc[q], v);                                    \
                o.r[i * o.ldr + j] = v;                                       \
            }                                                                 \
        free(bt);                                                             \
        minplus_zero_signs_##S(args);                                         \
        return GPUK_OK;                                                       \
    }
CPU_GENERIC(minplus_ilp, CPU_FLOAT_DTYPES, MP_ILP_BODY)

/* One output of simd_k (v3): two vector accumulators walk the padded rows,
 * then the smallest lane (in any order: no lane is NaN). */
#define MP_DOT(T, S, I)                                                                   \
    __attribute__((target(CPU_V(S, I, TARGET)))) static T mp_dot_##S##_##I(const T *ar,   \
                                                                            const T *br,  \
                                                                            int64_t kp)   \
    {                                                                                     \
        enum { W_ = CPU_V(S, I, W) };                                                     \
        CPU_V(S, I, VEC) acc0 = CPU_V(S, I, SET1)(MP_INF(S)), acc1 = acc0;                \
        for (int64_t p = 0; p < kp; p += 2 * W_) {                                        \
            acc0 = CPU_V(S, I, MIN)(CPU_V(S, I, ADD)(CPU_V(S, I, LOADU)(ar + p),          \
                                                     CPU_V(S, I, LOADU)(br + p)), acc0);  \
            acc1 = CPU_V(S, I, MIN)(CPU_V(S, I, ADD)(CPU_V(S, I, LOADU)(ar + p + W_),     \
                                                     CPU_V(S, I, LOADU)(br + p + W_)), acc1); \
        }                                                                                 \
        T lanes[W_];                                                                      \
        CPU_V(S, I, STOREU)(lanes, CPU_V(S, I, MIN)(acc1, acc0));                         \
        T v = lanes[0];                                                                   \
        for (int l = 1; l < W_; l++)                                                      \
            v = MP_MIN(lanes[l], v);                                                      \
        return v;                                                                         \
    }

/* The portable step: eight lanes the compiler vectorises (SSE). */
#define MP_DOT_SCALAR(DT, T, S, ...)                                          \
    static T mp_dot_##S##_scalar(const T *ar, const T *br, int64_t kp)        \
    {                                                                         \
        T acc[8];                                                             \
        for (int q = 0; q < 8; q++)                                           \
            acc[q] = MP_INF(S);                                               \
        for (int64_t p = 0; p < kp; p += 8)                                   \
            for (int q = 0; q < 8; q++)                                       \
                acc[q] = MP_MIN(ar[p + q] + br[p + q], acc[q]);               \
        T v = acc[0];                                                         \
        for (int q = 1; q < 8; q++)                                           \
            v = MP_MIN(acc[q], v);                                            \
        return v;                                                             \
    }
CPU_FLOAT_DTYPES(MP_DOT_SCALAR)

#ifdef CPU_X86
CPU_FLOAT_VECS(MP_DOT)
#define MP_DOT_PICK(S, I) (dot = mp_dot_##S##_##I, step = 2 * CPU_V(S, I, W))
#else
#define MP_DOT_PICK(S, I) (void)0
#endif

/* simd_k (v3): SIMD vectors along k.  Rows of a and b^T padded with +inf
 * to a multiple of two vectors; each output runs a vector of ilp's
 * chains in one instruction, two vectors deep for latency. */
#define MP_SIMD_K(DT, T, S, ...)                                              \
    CPU_INSTANCE(minplus_simd_k, S)                                           \
    {                                                                         \
        struct mp_ops_##S o = mp_unpack_##S(args);                            \
        T (*dot)(const T *, const T *, int64_t) = mp_dot_##S##_scalar;        \
        int64_t step = 8;                                                     \
        if (b->isa == CPU_ISA_AVX512)                                         \
            MP_DOT_PICK(S, avx512);                                           \
        else if (b->isa == CPU_ISA_AVX2)                                      \
            MP_DOT_PICK(S, avx2);                                             \
        int64_t kp = (o.k + step - 1) / step * step;                          \
        T *bt = mp_transpose_b_##S(b, &o, kp);                                \
        T *ap = bt ? mp_pad_a_##S(b, &o, kp) : NULL;                          \
        if (!ap) {                                                            \
            free(bt);                                                         \
            return GPUK_ERR_NO_MEMORY;                                        \
        }                                                                     \
        _Pragma("omp parallel for num_threads(b->nthreads) schedule(static)") \
        for (int64_t i = 0; i < o.m; i++)                                     \
            for (int64_t j = 0; j < o.n; j++) {                               \
                T *rij = &o.r[i * o.ldr + j];                                 \
                T v = dot(ap + i * kp, bt + j * kp, kp);                      \
                /* an update folds the finished minimum into the old value, \
                 * which keeps a tie */                                       \
                *rij = o.upd ? MP_MIN(v, MP_START(S, rij, 1)) : v;            \
            }                                                                 \
        free(ap);                                                             \
        free(bt);                                                             \
        minplus_zero_signs_##S(args);                                         \
        return GPUK_OK;                                                       \
    }
CPU_GENERIC(minplus_simd_k, CPU_FLOAT_DTYPES, MP_SIMD_K)

/*
 * The register-blocked micro-kernels of regtile and packed: an MR x NR
 * tile of r in vector registers; each k-step loads NR/W vectors of a row
 * of b and broadcasts MR values of a column of a, so one load feeds MR (or
 * NR/W) add+min pairs instead of one.  Both operands come packed in panels
 * (padded: the tile is always whole): a MR-tall, a[i][p] at ap[p*MR + i],
 * b NR-wide, b[p][j] at bp[p*NR + j], so every address in the k loop is a
 * constant offset from two pointers (with strides known only at run time
 * the loop ran out of registers).  first: start from INF, else from the
 * tile's current r (an update, or the k-blocks of packed after the first)
 * through MP_START.  A partial tile (mr < MR or nr < NR) goes through a
 * buffer: the cells outside r start at INF, and only the cells inside are
 * written back.
 */
#define MP_TILE_IO(DT, T, S, ...)                                                           \
    typedef void (*mp_ukernel_##S)(int64_t kc, const T *ap, const T *bp, T *r, int64_t ldr,  \
                                   int mr, int nr, int first);                               \
    static void mp_tile_load_##S(T *t, int nrfull, int mrfull, const T *r, int64_t ldr,      \
                                 int mr, int nr, int first)                                  \
    {                                                                                        \
        for (int i = 0; i < mrfull; i++)                                                     \
            for (int j = 0; j < nrfull; j++)                                                 \
                t[i * nrfull + j] = (!first && i < mr && j < nr)                             \
                                        ? MP_START(S, &r[i * ldr + j], 1) : MP_INF(S);       \
    }                                                                                        \
    static void mp_tile_store_##S(const T *t, int nrfull, T *r, int64_t ldr, int mr, int nr) \
    {                                                                                        \
        for (int i = 0; i < mr; i++)                                                         \
            for (int j = 0; j < nr; j++)                                                     \
                r[i * ldr + j] = t[i * nrfull + j];                                          \
    }                                                                                        \
    /* the portable 4 x 8 tile for CPUs without AVX2 */                                      \
    static void mp_uk_##S##_scalar(int64_t kc, const T *ap, const T *bp, T *r, int64_t ldr,  \
                                   int mr, int nr, int first)                                \
    {                                                                                        \
        T t[4 * 8];                                                                          \
        mp_tile_load_##S(t, 8, 4, r, ldr, mr, nr, first);                                    \
        for (int64_t p = 0; p < kc; p++)                                                     \
            for (int i = 0; i < 4; i++) {                                                    \
                T av = ap[p * 4 + i];                                                        \
                for (int j = 0; j < 8; j++)                                                  \
                    t[i * 8 + j] = MP_MIN(mp_add_##S(av, bp[p * 8 + j]), t[i * 8 + j]);      \
            }                                                                                \
        mp_tile_store_##S(t, 8, r, ldr, mr, nr);                                             \
    }
CPU_MINPLUS_DTYPES(MP_TILE_IO)

/* The vector tile, one source for every (type, ISA): the vector add of
 * each type is its semiring's sum (vaddps/vaddpd round once; vpaddd
 * wraps), the vector min its fold (minps(s, acc) gives acc for a NaN s). */
#define MP_UKERNEL(T, S, I)                                                        \
    __attribute__((target(CPU_V(S, I, TARGET)))) static void mp_uk_##S##_##I(                \
        int64_t kc, const T *ap, const T *bp, T *r, int64_t ldr, int mr, int nr, int first)  \
    {                                                                                        \
        enum { MR_ = MP_MR_##I, NRV = MP_NRV_##I };                                          \
        enum { W_ = CPU_V(S, I, W), NR_ = W_ * (NRV) };                                      \
        CPU_V(S, I, VEC) acc[MR_][NRV];                                                      \
        const CPU_V(S, I, VEC) inf = CPU_V(S, I, SET1)(MP_INF(S));                           \
        int whole = mr == (MR_) && nr == NR_;                                                \
        T t[(MR_) * NR_];                                                                    \
        if (!whole)                                                                          \
            mp_tile_load_##S(t, NR_, MR_, r, ldr, mr, nr, first);                            \
        _Pragma("GCC unroll 16") for (int i = 0; i < (MR_); i++)                            \
            _Pragma("GCC unroll 4") for (int v = 0; v < (NRV); v++)                         \
                acc[i][v] = !whole ? CPU_V(S, I, LOADU)(t + i * NR_ + v * W_)                \
                            : first ? inf                                                    \
                                    : CPU_V(S, I, MIN)(CPU_V(S, I, LOADU)(r + i * ldr + v * W_), inf); \
        for (int64_t p = 0; p < kc; p++) {                                                   \
            CPU_V(S, I, VEC) bv[NRV];                                                        \
            _Pragma("GCC unroll 4") for (int v = 0; v < (NRV); v++)                         \
                bv[v] = CPU_V(S, I, LOADU)(bp + v * W_);                                     \
            _Pragma("GCC unroll 16") for (int i = 0; i < (MR_); i++) {                      \
                CPU_V(S, I, VEC) av = CPU_V(S, I, SET1)(ap[i]);                              \
                _Pragma("GCC unroll 4") for (int v = 0; v < (NRV); v++)                     \
                    acc[i][v] = CPU_V(S, I, MIN)(CPU_V(S, I, ADD)(av, bv[v]), acc[i][v]);   \
            }                                                                                \
            ap += (MR_);                                                                     \
            bp += NR_;                                                                       \
        }                                                                                    \
        _Pragma("GCC unroll 16") for (int i = 0; i < (MR_); i++)                            \
            _Pragma("GCC unroll 4") for (int v = 0; v < (NRV); v++)                         \
                CPU_V(S, I, STOREU)(whole ? r + i * ldr + v * W_ : t + i * NR_ + v * W_,     \
                                    acc[i][v]);                                              \
        if (!whole)                                                                          \
            mp_tile_store_##S(t, NR_, r, ldr, mr, nr);                                       \
    }

/* The tile of each ISA, rows x vectors of r, the same for every type:
 * AVX-512 6 x 4, 24 accumulators, 4 vectors of b and a broadcast in 29 of
 * the 32 zmm registers (6 x 64 floats or ints, 6 x 32 doubles): 10 loads
 * a k-step for 24 add+min pairs, where 12 x 2 took 14 and ran 5% (f32),
 * 6% (f64) and 16% (i32) slower on Zen 4 (1 thread, n = 1024, CPU time);
 * AVX2 6 x 2, 12 accumulators, 2 vectors of b and a broadcast in 15 of
 * the 16 ymm. */
#define MP_MR_avx512 6
#define MP_NRV_avx512 4
#define MP_MR_avx2 6
#define MP_NRV_avx2 2
#ifdef CPU_X86
CPU_MINPLUS_VECS(MP_UKERNEL)
#define MP_UK_PICK(S, I) \
    (*mr = MP_MR_##I, *nr = MP_NRV_##I * CPU_V(S, I, W), uk = mp_uk_##S##_##I)
#else
#define MP_UK_PICK(S, I) (void)0
#endif

#define MP_PICK(DT, T, S, ...)                                                \
    static mp_ukernel_##S mp_pick_##S(gpuk_bctx *b, int *mr, int *nr)         \
    {                                                                         \
        mp_ukernel_##S uk = mp_uk_##S##_scalar;                               \
        *mr = 4, *nr = 8;                                                     \
        if (b->isa == CPU_ISA_AVX512)                                         \
            MP_UK_PICK(S, avx512);                                            \
        else if (b->isa == CPU_ISA_AVX2)                                      \
            MP_UK_PICK(S, avx2);                                              \
        return uk;                                                            \
    }
CPU_MINPLUS_DTYPES(MP_PICK)

/* Products under this many add+min pairs run regtile on one thread, as
 * the packed engine does (at 64^3 the team cost regtile a third). */
#define MP_PAR_MIN ((int64_t)1 << 20)

/* regtile (v4): register blocking.  Vectors run along j (rows of b, no
 * transpose needed) and each micro-kernel call keeps an MR x NR tile of r
 * in registers for the whole k loop.  b is copied into NR-wide column
 * panels (panel-major: the k-steps of one panel are contiguous, so the
 * kernel streams it instead of jumping a row of b per step, a new page
 * each time) and a into MR-tall row panels, rows padded to a multiple of
 * MR, so every tile is whole; the padding holds INF and reaches only
 * outputs never stored.  OpenMP over tiles; each output's whole k runs in
 * one register, so no result depends on the split. */
#define MP_REGTILE(DT, T, S, ...)                                                            \
    CPU_INSTANCE(minplus_regtile, S)                                                         \
    {                                                                                        \
        struct mp_ops_##S o = mp_unpack_##S(args);                                           \
        if (o.k == 0) {                                                                      \
            mp_fill_start_##S(&o);                                                           \
            return GPUK_OK;                                                                  \
        }                                                                                    \
        int MR, NR;                                                                          \
        mp_ukernel_##S uk = mp_pick_##S(b, &MR, &NR);                                        \
        int64_t mt = (o.m + MR - 1) / MR, nt = (o.n + NR - 1) / NR, np = nt * NR;            \
        T *bpad = cpu_scratch(b, (size_t)o.k * (size_t)np * sizeof(T),                       \
                              "the padded b of min-plus");                                   \
        T *apad = bpad ? cpu_scratch(b, (size_t)(mt * MR) * (size_t)o.k * sizeof(T),         \
                                     "the padded a of min-plus")                             \
                       : NULL;                                                               \
        if (!apad) {                                                                         \
            free(bpad);                                                                      \
            return GPUK_ERR_NO_MEMORY;                                                       \
        }                                                                                    \
        int team = o.m * o.n * o.k < MP_PAR_MIN ? 1 : b->nthreads;                           \
        _Pragma("omp parallel num_threads(team)")                                            \
        {                                                                                    \
            _Pragma("omp for schedule(static)")                                              \
            for (int64_t tj = 0; tj < nt; tj++)                                              \
                for (int64_t p = 0; p < o.k; p++)                                            \
                    for (int64_t j = tj * NR; j < (tj + 1) * NR; j++)                        \
                        bpad[(tj * o.k + p) * NR + j - tj * NR] =                            \
                            j < o.n ? o.b[p * o.ldb + j] : MP_INF(S);                        \
            /* a row at a time: read along the row, write every MR-th */                 \
            _Pragma("omp for schedule(static)")                                              \
            for (int64_t i = 0; i < mt * MR; i++) {                                          \
                T *dst = apad + (i / MR) * o.k * MR + i % MR;                                \
                if (i < o.m)                                                                 \
                    for (int64_t p = 0; p < o.k; p++)                                        \
                        dst[p * MR] = o.a[i * o.lda + p];                                    \
                else                                                                         \
                    for (int64_t p = 0; p < o.k; p++)                                        \
                        dst[p * MR] = MP_INF(S);                                             \
            }                                                                                \
            _Pragma("omp for schedule(static) collapse(2)")                                  \
            for (int64_t ti = 0; ti < mt; ti++)                                              \
                for (int64_t tj = 0; tj < nt; tj++) {                                        \
                    int64_t i = ti * MR, j = tj * NR;                                        \
                    int mr = o.m - i < MR ? (int)(o.m - i) : MR;                             \
                    int nr = o.n - j < NR ? (int)(o.n - j) : NR;                             \
                    uk(o.k, apad + ti * o.k * MR, bpad + tj * o.k * NR, o.r + i * o.ldr + j, \
                       o.ldr, mr, nr, !o.upd);                                               \
                }                                                                            \
        }                                                                                    \
        free(apad);                                                                          \
        free(bpad);                                                                          \
        minplus_zero_signs_##S(args);                                                        \
        return GPUK_OK;                                                                      \
    }
CPU_GENERIC(minplus_regtile, CPU_MINPLUS_DTYPES, MP_REGTILE)

/* packed (v5): regtile with cache blocking and packing, through matmul's
 * simd driver (matmul_packed.c).  k is cut into blocks (of 512) so the
 * NR-wide panel of b a micro-kernel streams stays in cache across the
 * rows of a block of a, and that block, packed MR-tall, stays in L2
 * across the panels; a tile of r carries its partial min from one k-block
 * to the next.  f32 at n = 2048 on 2 Zen 5 cores, with blocks of 256:
 * regtile 82.6 ms, packed 88.0 (on 16 Xeon cores they tied): add+min
 * needs twice the instructions of an FMA per loaded value, so regtile's
 * L2-streamed panels are already fast enough there.  It is the blocked
 * form for a long k, where regtile's panels of b (k x NR elements) outgrow
 * L2: with the 6 x 4 tile on 2 Zen 4 cores it beats regtile from 256 on
 * in f32 (auto.c) and from 1024 on in i32 (1.1x at 1024, 1.7x at 4096),
 * i32's DEFAULT. */
#define MP_PACKED(DT, T, S, ...)                                                             \
    struct mp_tile_ctx_##S {                                                                 \
        mp_ukernel_##S uk;                                                                   \
        int upd; /* an update: even the first k-block starts from r */                      \
    };                                                                                       \
    static void minplus_tile_##S(const void *ctx, int64_t kc, const void *ap, const void *bp, \
                                 void *r, int64_t ldr, int mr, int nr, int first, int64_t j)  \
    {                                                                                        \
        const struct mp_tile_ctx_##S *t = ctx;                                               \
        t->uk(kc, ap, bp, r, ldr, mr, nr, first && !t->upd);                                 \
    }                                                                                        \
    CPU_INSTANCE(minplus_packed, S)                                                          \
    {                                                                                        \
        struct mp_ops_##S o = mp_unpack_##S(args);                                           \
        if (o.k == 0) {                                                                      \
            mp_fill_start_##S(&o);                                                           \
            return GPUK_OK;                                                                  \
        }                                                                                    \
        struct mp_tile_ctx_##S t;                                                            \
        int mr, nr;                                                                          \
        t.uk = mp_pick_##S(b, &mr, &nr);                                                     \
        t.upd = o.upd;                                                                       \
        struct cpu_packed pp = {o.m, o.n, o.k, sizeof(T), o.a, o.lda, 1, o.b, o.ldb, 1,      \
                                o.r, o.ldr, mr, nr, minplus_tile_##S, &t};                   \
        gpuk_status st = cpu_packed_run(b, &pp);                                             \
        if (st != GPUK_OK)                                                                   \
            return st;                                                                       \
        minplus_zero_signs_##S(args);                                                        \
        return GPUK_OK;                                                                      \
    }
CPU_GENERIC(minplus_packed, CPU_MINPLUS_DTYPES, MP_PACKED)

/*
 * minplus.c - r[i,j] = min_k (a[i,k] + b[k,j]), the "shortcut" product, as
 * a CPU ladder: naive, omp, transposed, ilp, simd_k, regtile, packed, each
 * one classic step of tuning a loop nest (threads, unit-stride reads,
 * independent chains, vectors, register tiles, cache blocking).  The rungs
 * were once numbered; v1..v5 remain as aliases of transposed..packed (the
 * comments below keep them), and v0 names naive, the textbook loop, as on
 * the CUDA backend (here it once named omp).
 *
 * Bit-exactness.  Every rung computes each sum a + b with one rounding and
 * folds it with   acc = (s < acc) ? s : acc   (x86 minps(s, acc)), with
 * acc starting at +inf.  A NaN sum never compares less, so it is skipped,
 * as C's fmin and IEEE minNum do, and acc never becomes NaN; min is exact,
 * so the result does not depend on the order of k, on the thread count or
 * on the rung.  The only order-dependent case is a tie between +0 and -0;
 * minplus_zero_signs() settles it afterwards as IEEE 754-2019 minimum
 * does (-0 < +0), in every rung, so ties are bit-exact too.  An empty k
 * gives +inf.
 *
 * Update (gpuk_minplus_update, args->accumulate): the old r[i,j] is one
 * more candidate.  Each rung starts the output's chain from it instead of
 * +inf (mp_start: a NaN becomes +inf there, as it would stick in the
 * chain, and skipping it is the rule), or folds its finished minimum into
 * that start value (mp_min(min, start)).  Either way the old value sits
 * on the accumulator side of every comparison, and a chain moves only to
 * a strictly smaller value, so an old -0 ends as -0 or below, never +0.
 * A -0 anywhere comes from a -0 candidate (a sum (-0) + (-0), or the old
 * value), so the one zero that can be wrong at the end is a +0 where some
 * sum was -0: minplus_zero_signs() turns exactly those into -0 and leaves
 * a -0 alone.  k = 0 leaves r as it was, a NaN turned +inf.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"

static inline float mp_min(float s, float acc)
{
    return s < acc ? s : acc;
}

static inline int is_neg_zero(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u == 0x80000000u;
}

/* Does this call fold the old r in (ABI 2.2; a core of 2.1 never says)? */
static inline int mp_accumulate(const gpuk_args *args)
{
    return GPUK_ARGS_HAS(args, accumulate) && args->accumulate;
}

/* Where an output's minimum starts: +inf, or for an update the old value
 * with NaN (and +inf) made +inf: mp_min(old, +inf). */
static inline float mp_start(const float *old, int acc)
{
    return acc ? mp_min(*old, INFINITY) : INFINITY;
}

/* A sum is -0 only as (-0) + (-0), so unless both operands hold a -0 no
 * +0 result can be wrong.  Otherwise each +0 result becomes -0 iff some k
 * pairs two -0: rare and O(k) per zero output.  A -0 result is right as it
 * is: only a -0 candidate (such a sum, or an update's old value) makes one. */
static void minplus_zero_signs(gpuk_bctx *b, const gpuk_args *args)
{
    const gpuk_tdesc *ta = &args->in[0], *tb = &args->in[1], *tr = &args->out;
    int64_t m = ta->shape[0], k = ta->shape[1], n = tb->shape[1];
    const float *a = T_F32(ta), *bm = T_F32(tb);
    float *r = T_F32(tr);
    int64_t lda = T_LD(ta), ldb = T_LD(tb), ldr = T_LD(tr);
    int neg_a = 0, neg_b = 0;
    for (int64_t i = 0; i < m && !neg_a; i++)
        for (int64_t p = 0; p < k; p++)
            if (is_neg_zero(a[i * lda + p])) {
                neg_a = 1;
                break;
            }
    for (int64_t p = 0; p < k && neg_a && !neg_b; p++)
        for (int64_t j = 0; j < n; j++)
            if (is_neg_zero(bm[p * ldb + j])) {
                neg_b = 1;
                break;
            }
    if (!neg_a || !neg_b)
        return;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            if (r[i * ldr + j] != 0.0f || is_neg_zero(r[i * ldr + j]))
                continue;
            for (int64_t p = 0; p < k; p++)
                if (is_neg_zero(a[i * lda + p]) && is_neg_zero(bm[p * ldb + j])) {
                    r[i * ldr + j] = -0.0f;
                    break;
                }
        }
}

/* naive: the textbook triple loop on one thread, in plain C.  b is read
 * down a column, ldb floats apart: a cache miss per step once b outgrows
 * the cache. */
CPU_KERNEL(minplus_naive)
{
    const gpuk_tdesc *ta = &args->in[0], *tb = &args->in[1], *tr = &args->out;
    int64_t m = ta->shape[0], k = ta->shape[1], n = tb->shape[1];
    const float *a = T_F32(ta), *bm = T_F32(tb);
    float *r = T_F32(tr);
    int64_t lda = T_LD(ta), ldb = T_LD(tb), ldr = T_LD(tr);
    int upd = mp_accumulate(args);
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            float acc = mp_start(&r[i * ldr + j], upd);
            for (int64_t p = 0; p < k; p++)
                acc = mp_min(a[i * lda + p] + bm[p * ldb + j], acc);
            r[i * ldr + j] = acc;
        }
    minplus_zero_signs(b, args);
    return GPUK_OK;
}

/* omp: the same loop with OpenMP over rows of r: each thread owns
 * whole rows, so the work splits evenly and no result depends on the
 * split. */
CPU_KERNEL(minplus_omp)
{
    const gpuk_tdesc *ta = &args->in[0], *tb = &args->in[1], *tr = &args->out;
    int64_t m = ta->shape[0], k = ta->shape[1], n = tb->shape[1];
    const float *a = T_F32(ta), *bm = T_F32(tb);
    float *r = T_F32(tr);
    int64_t lda = T_LD(ta), ldb = T_LD(tb), ldr = T_LD(tr);
    int upd = mp_accumulate(args);
#pragma omp parallel for num_threads(b->nthreads) schedule(static)
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            float acc = mp_start(&r[i * ldr + j], upd);
            for (int64_t p = 0; p < k; p++)
                acc = mp_min(a[i * lda + p] + bm[p * ldb + j], acc);
            r[i * ldr + j] = acc;
        }
    minplus_zero_signs(b, args);
    return GPUK_OK;
}

/* Operands of one call, unpacked once. */
struct mp_ops {
    int64_t m, n, k, lda, ldb, ldr;
    const float *a, *b;
    float *r;
    int upd;   /* an update: r's old values are candidates too */
};

static struct mp_ops mp_unpack(const gpuk_args *args)
{
    struct mp_ops o;
    o.m = args->in[0].shape[0];
    o.k = args->in[0].shape[1];
    o.n = args->in[1].shape[1];
    o.a = T_F32(&args->in[0]);
    o.b = T_F32(&args->in[1]);
    o.r = T_F32(&args->out);
    o.lda = T_LD(&args->in[0]);
    o.ldb = T_LD(&args->in[1]);
    o.ldr = T_LD(&args->out);
    o.upd = mp_accumulate(args);
    return o;
}

/* bt[n][kp] = b^T, rows padded from k to kp with +inf (a + inf never wins
 * the min, and -inf + inf is NaN, which is skipped), OpenMP over rows. */
static float *mp_transpose_b(gpuk_bctx *b, const struct mp_ops *o, int64_t kp)
{
    float *bt = cpu_scratch(b, (size_t)(o->n > 0 ? o->n : 1) * (size_t)(kp > 0 ? kp : 1) * sizeof(float),
                            "the transposed b of min-plus");
    if (!bt)
        return NULL;
#pragma omp parallel for num_threads(b->nthreads) schedule(static)
    for (int64_t j0 = 0; j0 < o->n; j0 += 32)
        for (int64_t p0 = 0; p0 < kp; p0 += 32)
            for (int64_t j = j0; j < j0 + 32 && j < o->n; j++)
                for (int64_t p = p0; p < p0 + 32 && p < kp; p++)
                    bt[j * kp + p] = p < o->k ? o->b[p * o->ldb + j] : INFINITY;
    return bt;
}

/* transposed (v1): transpose b first, so the inner loop reads a row of a
 * and a row of b^T, both with unit stride: every cache line fetched is
 * used whole instead of one float of it. */
CPU_KERNEL(minplus_transposed)
{
    struct mp_ops o = mp_unpack(args);
    float *bt = mp_transpose_b(b, &o, o.k);
    if (!bt)
        return GPUK_ERR_NO_MEMORY;
#pragma omp parallel for num_threads(b->nthreads) schedule(static)
    for (int64_t i = 0; i < o.m; i++)
        for (int64_t j = 0; j < o.n; j++) {
            const float *ar = o.a + i * o.lda, *br = bt + j * o.k;
            float acc = mp_start(&o.r[i * o.ldr + j], o.upd);
            for (int64_t p = 0; p < o.k; p++)
                acc = mp_min(ar[p] + br[p], acc);
            o.r[i * o.ldr + j] = acc;
        }
    free(bt);
    minplus_zero_signs(b, args);
    return GPUK_OK;
}

/* ilp (v2): eight independent accumulators over interleaved k.  In
 * transposed each min waits for the previous one (a chain as long as k);
 * eight chains keep the add and min units busy.  min is exact, so merging
 * them changes nothing. */
#define MP_ILP 8
CPU_KERNEL(minplus_ilp)
{
    struct mp_ops o = mp_unpack(args);
    float *bt = mp_transpose_b(b, &o, o.k);
    if (!bt)
        return GPUK_ERR_NO_MEMORY;
#pragma omp parallel for num_threads(b->nthreads) schedule(static)
    for (int64_t i = 0; i < o.m; i++)
        for (int64_t j = 0; j < o.n; j++) {
            const float *ar = o.a + i * o.lda, *br = bt + j * o.k;
            float acc[MP_ILP];
            /* the old value starts chain 0, which the merge below keeps on ties */
            acc[0] = mp_start(&o.r[i * o.ldr + j], o.upd);
            for (int q = 1; q < MP_ILP; q++)
                acc[q] = INFINITY;
            int64_t p = 0;
            for (; p + MP_ILP <= o.k; p += MP_ILP)
#pragma GCC unroll 8
                for (int q = 0; q < MP_ILP; q++)
                    acc[q] = mp_min(ar[p + q] + br[p + q], acc[q]);
            for (; p < o.k; p++)
                acc[0] = mp_min(ar[p] + br[p], acc[0]);
            float v = acc[0];
            for (int q = 1; q < MP_ILP; q++)
                v = mp_min(acc[q], v);
            o.r[i * o.ldr + j] = v;
        }
    free(bt);
    minplus_zero_signs(b, args);
    return GPUK_OK;
}

/* Copy rows of a into ap[m][kp], each padded from k to kp with +inf. */
static float *mp_pad_a(gpuk_bctx *b, const struct mp_ops *o, int64_t kp)
{
    float *ap = cpu_scratch(b, (size_t)o->m * (size_t)kp * sizeof(float), "the padded a of min-plus");
    if (!ap)
        return NULL;
#pragma omp parallel for num_threads(b->nthreads) schedule(static)
    for (int64_t i = 0; i < o->m; i++)
        for (int64_t p = 0; p < kp; p++)
            ap[i * kp + p] = p < o->k ? o->a[i * o->lda + p] : INFINITY;
    return ap;
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define MP_X86 1

/* Smallest lane of a vector (order does not matter: no lane is NaN). */
static inline float mp_hmin(const float *lanes, int w)
{
    float v = lanes[0];
    for (int l = 1; l < w; l++)
        v = mp_min(lanes[l], v);
    return v;
}

/* One output of simd_k (v3): two vector accumulators walk the padded rows. */
__attribute__((target("avx512f"))) static float mp_dot_avx512(const float *ar, const float *br,
                                                               int64_t kp)
{
    __m512 acc0 = _mm512_set1_ps(INFINITY), acc1 = acc0;
    for (int64_t p = 0; p < kp; p += 32) {
        acc0 = _mm512_min_ps(_mm512_add_ps(_mm512_loadu_ps(ar + p), _mm512_loadu_ps(br + p)), acc0);
        acc1 = _mm512_min_ps(_mm512_add_ps(_mm512_loadu_ps(ar + p + 16), _mm512_loadu_ps(br + p + 16)),
                             acc1);
    }
    float lanes[16];
    _mm512_storeu_ps(lanes, _mm512_min_ps(acc1, acc0));
    return mp_hmin(lanes, 16);
}

__attribute__((target("avx2"))) static float mp_dot_avx2(const float *ar, const float *br,
                                                         int64_t kp)
{
    __m256 acc0 = _mm256_set1_ps(INFINITY), acc1 = acc0;
    for (int64_t p = 0; p < kp; p += 16) {
        acc0 = _mm256_min_ps(_mm256_add_ps(_mm256_loadu_ps(ar + p), _mm256_loadu_ps(br + p)), acc0);
        acc1 = _mm256_min_ps(_mm256_add_ps(_mm256_loadu_ps(ar + p + 8), _mm256_loadu_ps(br + p + 8)),
                             acc1);
    }
    float lanes[8];
    _mm256_storeu_ps(lanes, _mm256_min_ps(acc1, acc0));
    return mp_hmin(lanes, 8);
}
#endif

/* Portable simd_k step: the compiler vectorises eight lanes (SSE). */
static float mp_dot_scalar(const float *ar, const float *br, int64_t kp)
{
    float acc[8];
    for (int q = 0; q < 8; q++)
        acc[q] = INFINITY;
    for (int64_t p = 0; p < kp; p += 8)
        for (int q = 0; q < 8; q++)
            acc[q] = mp_min(ar[p + q] + br[p + q], acc[q]);
    float v = acc[0];
    for (int q = 1; q < 8; q++)
        v = mp_min(acc[q], v);
    return v;
}

/* simd_k (v3): SIMD vectors along k.  Rows of a and b^T padded with +inf
 * to a multiple of two vectors; each output runs 16 (AVX-512) or 8 (AVX2)
 * lanes of ilp's chains in one instruction, two vectors deep for
 * latency. */
CPU_KERNEL(minplus_simd_k)
{
    struct mp_ops o = mp_unpack(args);
    float (*dot)(const float *, const float *, int64_t) = mp_dot_scalar;
    int64_t step = 8;
#ifdef MP_X86
    if (b->isa == CPU_ISA_AVX512)
        dot = mp_dot_avx512, step = 32;
    else if (b->isa == CPU_ISA_AVX2)
        dot = mp_dot_avx2, step = 16;
#endif
    int64_t kp = (o.k + step - 1) / step * step;
    float *bt = mp_transpose_b(b, &o, kp);
    float *ap = bt ? mp_pad_a(b, &o, kp) : NULL;
    if (!ap) {
        free(bt);
        return GPUK_ERR_NO_MEMORY;
    }
#pragma omp parallel for num_threads(b->nthreads) schedule(static)
    for (int64_t i = 0; i < o.m; i++)
        for (int64_t j = 0; j < o.n; j++) {
            float *rij = &o.r[i * o.ldr + j];
            float v = dot(ap + i * kp, bt + j * kp, kp);
            /* an update folds the finished minimum into the old value,
             * which keeps a tie */
            *rij = o.upd ? mp_min(v, mp_start(rij, 1)) : v;
        }
    free(ap);
    free(bt);
    minplus_zero_signs(b, args);
    return GPUK_OK;
}

/*
 * The register-blocked micro-kernels of regtile and packed: an MR x NR
 * tile of r in vector registers; each k-step loads NR/W vectors of a row of b and
 * broadcasts MR values of a column of a, so one load feeds MR (or NR/W)
 * add+min pairs instead of one.  a[i][p] is at a[i*a_rs + p*a_ps] and
 * b[p][0..NR) at bp + p*b_ps (both padded: the tile is always whole).
 * first: start from +inf, else from the tile's current r (an update, or
 * the k-blocks of packed after the first), a NaN there taken as +inf.
 */
typedef void (*mp_ukernel)(int64_t kc, const float *a, int64_t a_rs, int64_t a_ps,
                           const float *bp, int64_t b_ps, float *r, int64_t ldr, int mr, int nr,
                           int first);

/* Tile <-> r for partial tiles: valid part copied (mp_start), the rest +inf. */
static void mp_tile_load(float *t, int nrfull, int mrfull, const float *r, int64_t ldr, int mr,
                         int nr, int first)
{
    for (int i = 0; i < mrfull; i++)
        for (int j = 0; j < nrfull; j++)
            t[i * nrfull + j] = (!first && i < mr && j < nr) ? mp_start(&r[i * ldr + j], 1)
                                                              : INFINITY;
}

static void mp_tile_store(const float *t, int nrfull, float *r, int64_t ldr, int mr, int nr)
{
    for (int i = 0; i < mr; i++)
        for (int j = 0; j < nr; j++)
            r[i * ldr + j] = t[i * nrfull + j];
}

#define MP_UKERNEL(NAME, TARGET, VEC, W, MR_, NRV, LOADU, STOREU, SET1, ADD, MIN)                \
    __attribute__((target(TARGET))) static void NAME(                                            \
        int64_t kc, const float *a, int64_t a_rs, int64_t a_ps, const float *bp, int64_t b_ps,    \
        float *r, int64_t ldr, int mr, int nr, int first)                                        \
    {                                                                                            \
        enum { NR_ = (W) * (NRV) };                                                              \
        VEC acc[MR_][NRV];                                                                       \
        int whole = mr == (MR_) && nr == NR_;                                                    \
        float t[(MR_) * NR_];                                                                    \
        if (!whole)                                                                              \
            mp_tile_load(t, NR_, MR_, r, ldr, mr, nr, first);                                    \
        _Pragma("GCC unroll 16") for (int i = 0; i < (MR_); i++)                                \
            _Pragma("GCC unroll 4") for (int v = 0; v < (NRV); v++)                             \
                acc[i][v] = !whole ? LOADU(t + i * NR_ + v * (W))                                \
                            : first ? SET1(INFINITY)                                             \
                                    : MIN(LOADU(r + i * ldr + v * (W)), SET1(INFINITY));         \
        for (int64_t p = 0; p < kc; p++) {                                                       \
            VEC bv[NRV];                                                                         \
            _Pragma("GCC unroll 4") for (int v = 0; v < (NRV); v++)                             \
                bv[v] = LOADU(bp + p * b_ps + v * (W));                                          \
            _Pragma("GCC unroll 16") for (int i = 0; i < (MR_); i++) {                          \
                VEC av = SET1(a[i * a_rs + p * a_ps]);                                           \
                _Pragma("GCC unroll 4") for (int v = 0; v < (NRV); v++)                         \
                    acc[i][v] = MIN(ADD(av, bv[v]), acc[i][v]);                                  \
            }                                                                                    \
        }                                                                                        \
        _Pragma("GCC unroll 16") for (int i = 0; i < (MR_); i++)                                \
            _Pragma("GCC unroll 4") for (int v = 0; v < (NRV); v++)                             \
                STOREU(whole ? r + i * ldr + v * (W) : t + i * NR_ + v * (W), acc[i][v]);        \
        if (!whole)                                                                              \
            mp_tile_store(t, NR_, r, ldr, mr, nr);                                               \
    }

#ifdef MP_X86
MP_UKERNEL(minplus_avx512_12x32, "avx512f", __m512, 16, 12, 2, _mm512_loadu_ps, _mm512_storeu_ps,
           _mm512_set1_ps, _mm512_add_ps, _mm512_min_ps)
MP_UKERNEL(minplus_avx2_6x16, "avx2", __m256, 8, 6, 2, _mm256_loadu_ps, _mm256_storeu_ps,
           _mm256_set1_ps, _mm256_add_ps, _mm256_min_ps)
#endif

/* Portable 4 x 8 tile for CPUs without AVX2. */
static void minplus_scalar_4x8(int64_t kc, const float *a, int64_t a_rs, int64_t a_ps,
                               const float *bp, int64_t b_ps, float *r, int64_t ldr, int mr,
                               int nr, int first)
{
    float t[4 * 8];
    mp_tile_load(t, 8, 4, r, ldr, mr, nr, first);
    for (int64_t p = 0; p < kc; p++)
        for (int i = 0; i < 4; i++) {
            float av = a[i * a_rs + p * a_ps];
            for (int j = 0; j < 8; j++)
                t[i * 8 + j] = mp_min(av + bp[p * b_ps + j], t[i * 8 + j]);
        }
    mp_tile_store(t, 8, r, ldr, mr, nr);
}

static mp_ukernel mp_pick(gpuk_bctx *b, int *mr, int *nr)
{
#ifdef MP_X86
    if (b->isa == CPU_ISA_AVX512) {
        *mr = 12, *nr = 32;
        return minplus_avx512_12x32;
    }
    if (b->isa == CPU_ISA_AVX2) {
        *mr = 6, *nr = 16;
        return minplus_avx2_6x16;
    }
#endif
    *mr = 4, *nr = 8;
    return minplus_scalar_4x8;
}

/* k = 0: every output is its start value (+inf, or an update's old one). */
static void mp_fill_start(gpuk_bctx *b, const struct mp_ops *o)
{
    for (int64_t i = 0; i < o->m; i++)
        for (int64_t j = 0; j < o->n; j++)
            o->r[i * o->ldr + j] = mp_start(&o->r[i * o->ldr + j], o->upd);
}

/* regtile (v4): register blocking.  Vectors run along j (rows of b, no
 * transpose needed) and each micro-kernel call keeps an MR x NR tile of r in
 * registers for the whole k loop.  b is copied into NR-wide column panels
 * (panel-major: the k-steps of one panel are contiguous, so the kernel
 * streams it instead of jumping a row of b per step, a new page each time)
 * and a into rows padded to a multiple of MR, so every tile is whole;
 * OpenMP over tiles. */
CPU_KERNEL(minplus_regtile)
{
    struct mp_ops o = mp_unpack(args);
    if (o.k == 0) {
        mp_fill_start(b, &o);
        return GPUK_OK;
    }
    int MR, NR;
    mp_ukernel uk = mp_pick(b, &MR, &NR);
    int64_t mt = (o.m + MR - 1) / MR, nt = (o.n + NR - 1) / NR, np = nt * NR;
    float *bpad = cpu_scratch(b, (size_t)o.k * (size_t)np * sizeof(float), "the padded b of min-plus");
    float *apad = bpad ? cpu_scratch(b, (size_t)(mt * MR) * (size_t)o.k * sizeof(float),
                                     "the padded a of min-plus")
                       : NULL;
    if (!apad) {
        free(bpad);
        return GPUK_ERR_NO_MEMORY;
    }
#pragma omp parallel num_threads(b->nthreads)
    {
#pragma omp for schedule(static)
        for (int64_t tj = 0; tj < nt; tj++)
            for (int64_t p = 0; p < o.k; p++)
                for (int64_t j = tj * NR; j < (tj + 1) * NR; j++)
                    bpad[(tj * o.k + p) * NR + j - tj * NR] = j < o.n ? o.b[p * o.ldb + j] : INFINITY;
#pragma omp for schedule(static)
        for (int64_t i = 0; i < mt * MR; i++)
            for (int64_t p = 0; p < o.k; p++)
                apad[i * o.k + p] = i < o.m ? o.a[i * o.lda + p] : INFINITY;
#pragma omp for schedule(static) collapse(2)
        for (int64_t ti = 0; ti < mt; ti++)
            for (int64_t tj = 0; tj < nt; tj++) {
                int64_t i = ti * MR, j = tj * NR;
                int mr = o.m - i < MR ? (int)(o.m - i) : MR;
                int nr = o.n - j < NR ? (int)(o.n - j) : NR;
                uk(o.k, apad + i * o.k, o.k, 1, bpad + tj * o.k * NR, NR, o.r + i * o.ldr + j, o.ldr,
                   mr, nr, !o.upd);
            }
    }
    free(apad);
    free(bpad);
    minplus_zero_signs(b, args);
    return GPUK_OK;
}

/* packed (v5): regtile with cache blocking and packing, through matmul's
 * simd driver.  k is cut into blocks of 256 so the NR-wide panel of b a micro-kernel
 * streams (256 x NR floats, 32 KiB) stays in L1 across the rows of a
 * block of a, and that block, packed MR-tall, stays in L2 across the
 * panels; a tile of r carries its partial min from one k-block to the
 * next.  It does not pay here: at n = 2048 on 2 Zen 5 cores regtile took
 * 82.6 ms and packed 88.0 (on 16 Xeon cores they tied); add+min needs
 * twice the instructions of an FMA per loaded value, so regtile's
 * L2-streamed panels are already fast enough.  It is kept as the blocked
 * form for a very long k, where regtile's panels of b (k x NR floats)
 * outgrow L2 (not measured). */
struct mp_tile_ctx {
    mp_ukernel uk;
    int mr, nr;
    int upd;   /* an update: even the first k-block starts from r */
};

static void minplus_tile(const void *ctx, int64_t kc, const float *ap, const float *bp, float *r,
                         int64_t ldr, int mr, int nr, int first, int64_t j)
{
    const struct mp_tile_ctx *t = ctx;
    t->uk(kc, ap, 1, t->mr, bp, t->nr, r, ldr, mr, nr, first && !t->upd);
}

CPU_KERNEL(minplus_packed)
{
    struct mp_ops o = mp_unpack(args);
    if (o.k == 0) {
        mp_fill_start(b, &o);
        return GPUK_OK;
    }
    struct mp_tile_ctx t;
    t.uk = mp_pick(b, &t.mr, &t.nr);
    t.upd = o.upd;
    struct cpu_packed pp = {o.m, o.n, o.k, o.a, o.lda, 1, o.b, o.ldb, 1, o.r, o.ldr,
                            t.mr, t.nr, minplus_tile, &t};
    gpuk_status st = cpu_packed_run(b, &pp);
    if (st != GPUK_OK)
        return st;
    minplus_zero_signs(b, args);
    return GPUK_OK;
}

/*
 * inputs.c - the random inputs of gpuk-bench's cases, in every dtype: the
 * generator (reproducible from --seed on any machine), the elements of
 * each dtype read and written as doubles (f16 and bf16 by their bits),
 * the integer weights of i32 min-plus and apsp, and the two spmv
 * matrices.  cases.c draws a case's inputs through these in the order
 * that makes a case the same on every run and for --cost.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* xorshift64*: inputs reproducible from --seed on any machine. */
uint64_t input_next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1DULL;
}

/* Uniform in [-1, 1): mean zero, so long sums stay small and the loose
 * cross-rung check is not fooled by cancellation-free growth.  The values
 * are the multiples of 2^-(prec-1), prec the dtype's significand bits, so
 * every one is exact in the dtype (and its smallest, 2^-(prec-1), a
 * normal number in each); f32 draws the same values it always has. */
double input_value(uint64_t *s, int prec)
{
    return (double)(input_next(s) >> (64 - prec)) / (double)(1ULL << (prec - 1)) - 1.0;
}

/* ---- elements of every dtype ---- */

/* binary16 and bfloat16 from a double, rounded to nearest even; the bench
 * stores exact values, and NaN for the poison. */
static uint16_t to_f16(double v)
{
    uint16_t sign = signbit(v) ? 0x8000 : 0;
    double a = fabs(v);
    if (isnan(v))
        return 0x7E00;
    if (a >= 65520.0) /* rounds past the largest, 65504 */
        return sign | 0x7C00;
    if (a < 0x1p-14) /* subnormal: multiples of 2^-24 */
        return sign | (uint16_t)nearbyint(a * 0x1p24);
    int e;
    double m = frexp(a, &e); /* a = m 2^e, m in [0.5, 1) */
    uint32_t bits = (uint32_t)nearbyint(m * 2048.0); /* 11 significant bits, 1024..2048 */
    if (bits == 2048) {
        bits = 1024;
        e++;
    }
    return sign | (uint16_t)((uint32_t)(e + 14) << 10) | (uint16_t)(bits - 1024);
}

static double from_f16(uint16_t h)
{
    int e = h >> 10 & 0x1F, m = h & 0x3FF;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
    return h & 0x8000 ? -v : v;
}

static uint16_t to_bf16(double v)
{
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    if (isnan(f))
        return (uint16_t)(u >> 16 | 0x40);
    u += 0x7FFF + (u >> 16 & 1);
    return (uint16_t)(u >> 16);
}

static double from_bf16(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

double input_get(gpuk_dtype dtype, const void *p, size_t i)
{
    switch (dtype) {
    case GPUK_F32: return ((const float *)p)[i];
    case GPUK_I32: return ((const int32_t *)p)[i];
    case GPUK_F64: return ((const double *)p)[i];
    case GPUK_F16: return from_f16(((const uint16_t *)p)[i]);
    case GPUK_BF16: return from_bf16(((const uint16_t *)p)[i]);
    }
    return NAN;
}

void input_put(gpuk_dtype dtype, void *p, size_t i, double v)
{
    switch (dtype) {
    case GPUK_F32: ((float *)p)[i] = (float)v; break;
    case GPUK_I32: ((int32_t *)p)[i] = (int32_t)v; break;
    case GPUK_F64: ((double *)p)[i] = v; break;
    case GPUK_F16: ((uint16_t *)p)[i] = to_f16(v); break;
    case GPUK_BF16: ((uint16_t *)p)[i] = to_bf16(v); break;
    }
}

/* ---- i32 inputs (i32 min-plus and apsp).  Edge weights of a shortest-path
 * problem: uniform in [0, 2^13), and about one in 64 missing
 * (GPUK_I32_INF), so that the minimum sees infinities without being all
 * of them; no sum of two wraps (the largest, INF + INF, is 2^31 - 2).
 * Any other op in i32 gets the same finite values, without the
 * infinities. */
#define CASE_I32_MAX_WEIGHT (1 << 13)

void input_i32(gpuk_op op, int32_t *x, size_t n, uint64_t *rng)
{
    for (size_t j = 0; j < n; j++) {
        uint64_t r = input_next(rng);
        x[j] = (op == GPUK_OP_MINPLUS || op == GPUK_OP_APSP) && (r >> 58) == 0
                   ? GPUK_I32_INF
                   : (int32_t)((r >> 20) % CASE_I32_MAX_WEIGHT);
    }
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* The matrix's values, nnz of them in the case's dtype. */
static int draw_values(bcase *c, uint64_t *rng)
{
    c->values = malloc((size_t)(c->nnz ? c->nnz : 1) * gpuk_dtype_size(c->dtype));
    if (!c->values)
        return -1;
    int prec = gpuk_dtype_precision(c->dtype);
    for (int64_t i = 0; i < c->nnz; i++)
        input_put(c->dtype, c->values, (size_t)i, input_value(rng, prec));
    return 0;
}

/* A random CSR matrix, k distinct sorted columns in each row; with
 * shape_only, the row pointers alone (all a cost needs). */
int input_csr(bcase *c, uint64_t *rng, int shape_only)
{
    int64_t rows = c->sh.m, cols = c->sh.n, per = c->sh.k;
    c->nnz = rows * per;
    c->longest = rows ? per : 0;
    if (shape_only)
        return 0;
    c->row_ptr = malloc((size_t)(rows + 1) * sizeof(int32_t));
    c->col_idx = malloc((size_t)(c->nnz ? c->nnz : 1) * sizeof(int32_t));
    if (!c->row_ptr || !c->col_idx)
        return -1;
    for (int64_t i = 0; i <= rows; i++)
        c->row_ptr[i] = (int32_t)(i * per);
    for (int64_t i = 0; i < rows; i++) {
        int32_t *col = c->col_idx + i * per;
        for (int64_t j = 0; j < per; j++) {
            int dup;
            do { /* rejection: per <= cols is checked by case_make */
                col[j] = (int32_t)(input_next(rng) % (uint64_t)cols);
                dup = 0;
                for (int64_t q = 0; q < j; q++)
                    dup |= col[q] == col[j];
            } while (dup);
        }
        qsort(col, (size_t)per, sizeof *col, cmp_i32);
    }
    return draw_values(c, rng);
}

/* ---- the power-law matrix ----
 *
 * Row lengths Pareto(alpha 1.5, minimum 5), rounded down and capped at
 * 262144 and at the column count: mean about 14.5, a few rows of 10^5
 * nonzeros among millions of 5 to 20, the skew that unbalances one
 * thread (or warp) per row.  The same distribution as bench/perf's
 * gpuk-perf, which measured 60.75M nonzeros, mean 14.5, on 4M rows. */
#define PL_ALPHA 1.5
#define PL_CAP 262144
#define PL_SHORT 32  /* rows up to this long: membership by a scan of the row */

/* Uniform in (0, 1]: never 0, so u^(-1/alpha) is finite. */
static double rng_unit(uint64_t *s)
{
    return ((double)(input_next(s) >> 11) + 1.0) / 9007199254740992.0;
}

static int64_t powerlaw_len(uint64_t *rng, int64_t cols)
{
    double l = INPUT_PL_MIN * pow(rng_unit(rng), -1.0 / PL_ALPHA);
    int64_t cap = cols < PL_CAP ? cols : PL_CAP;
    return l >= (double)cap ? cap : (int64_t)l;
}

/* Sort a row of column indices: quicksort (median of three) down to
 * short runs, then insertion sort; recursion only into the smaller half. */
static void sort_cols(int32_t *a, int64_t n)
{
    while (n > 16) {
        int32_t x = a[0], y = a[n / 2], z = a[n - 1];
        int32_t p = x < y ? (y < z ? y : x < z ? z : x) : (x < z ? x : y < z ? z : y);
        int64_t i = 0, j = n - 1;
        for (;;) {
            while (a[i] < p)
                i++;
            while (a[j] > p)
                j--;
            if (i >= j)
                break;
            int32_t t = a[i];
            a[i++] = a[j];
            a[j--] = t;
        }
        /* a[0..j] <= p <= a[j+1..n-1] */
        if (j + 1 < n - j - 1) {
            sort_cols(a, j + 1);
            a += j + 1;
            n -= j + 1;
        } else {
            sort_cols(a + j + 1, n - j - 1);
            n = j + 1;
        }
    }
    for (int64_t i = 1; i < n; i++) {
        int32_t v = a[i];
        int64_t j = i;
        for (; j > 0 && a[j - 1] > v; j--)
            a[j] = a[j - 1];
        a[j] = v;
    }
}

/* len distinct columns of [0, cols), uniformly chosen, sorted, into col.
 * Floyd's algorithm: for j from cols - len to cols - 1 draw t in [0, j]
 * and take t, or j when t is taken already; one draw per column, however
 * close len comes to cols.  Everything taken before step j is below j,
 * so j goes at the end.  A short row keeps its columns sorted as it goes
 * (membership by a scan from the end); a long one marks them in bits,
 * a bitmap of cols bits left all zero on return, and is sorted after:
 * by a sweep of the bitmap when that is shorter than sorting the row. */
static void pick_cols(int32_t *col, int64_t len, int64_t cols, uint64_t *rng, uint64_t *bits)
{
    int64_t n = 0;
    if (len <= PL_SHORT) {
        for (int64_t j = cols - len; j < cols; j++) {
            int32_t t = (int32_t)(input_next(rng) % (uint64_t)(j + 1));
            int64_t at = n;
            while (at > 0 && col[at - 1] > t)
                at--;
            if (at > 0 && col[at - 1] == t) {
                col[n++] = (int32_t)j;
                continue;
            }
            memmove(col + at + 1, col + at, (size_t)(n - at) * sizeof *col);
            col[at] = t;
            n++;
        }
        return;
    }
    for (int64_t j = cols - len; j < cols; j++) {
        uint64_t t = input_next(rng) % (uint64_t)(j + 1);
        if (bits[t >> 6] >> (t & 63) & 1)
            t = (uint64_t)j;
        bits[t >> 6] |= 1ULL << (t & 63);
        col[n++] = (int32_t)t;
    }
    int64_t words = (cols + 63) / 64;
    if (words < 8 * len) {
        n = 0;
        for (int64_t w = 0; w < words; w++) {
            for (uint64_t v = bits[w]; v; v &= v - 1)
                col[n++] = (int32_t)(w * 64 + __builtin_ctzll(v));
            bits[w] = 0;
        }
    } else {
        sort_cols(col, len);
        for (int64_t i = 0; i < len; i++)
            bits[col[i] >> 6] = 0;
    }
}

/* The power-law CSR matrix: the row lengths first (so nnz is known
 * before the columns are allocated), then each row's columns, then the
 * values; with shape_only, the lengths alone (nnz and the longest row,
 * all a cost needs).  0 on success, -1 out of memory, -2 nnz past int32. */
int input_powerlaw(bcase *c, uint64_t *rng, int shape_only)
{
    int64_t rows = c->sh.m, cols = c->sh.n, nnz = 0;
    c->row_ptr = malloc((size_t)(rows + 1) * sizeof(int32_t));
    if (!c->row_ptr)
        return -1;
    c->row_ptr[0] = 0;
    c->longest = 0;
    for (int64_t i = 0; i < rows; i++) {
        int64_t len = powerlaw_len(rng, cols);
        nnz += len;
        c->longest = len > c->longest ? len : c->longest;
        if (nnz > INT32_MAX)
            return -2;
        c->row_ptr[i + 1] = (int32_t)nnz;
    }
    c->nnz = nnz;
    if (shape_only)
        return 0;
    c->col_idx = malloc((size_t)(nnz ? nnz : 1) * sizeof(int32_t));
    uint64_t *bits = calloc((size_t)(cols + 63) / 64, sizeof *bits);
    if (!c->col_idx || !bits) {
        free(bits);
        return -1;
    }
    for (int64_t i = 0; i < rows; i++)
        pick_cols(c->col_idx + c->row_ptr[i], c->row_ptr[i + 1] - c->row_ptr[i], cols, rng,
                  bits);
    free(bits);
    return draw_values(c, rng);
}

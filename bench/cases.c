/*
 * cases.c - what gpuk-bench runs for each op: the default sizes, how a
 * size becomes a shape, the work and traffic of one run (the only place
 * those formulas live), the random inputs and the scalars of the call.
 * The call itself is the tests' opcall (tests/opcall.h), the one switch
 * from an op to its API function.  The per-op switches below (cost,
 * layout) have no default case, so an op added to GPUK_OP_MAP without its
 * cost and tensors here is a -Wswitch warning; its row in OPS goes with
 * them (an op without one is reported as having no benchmark case).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "../tests/opcall.h"

/* Per-op facts.  dims: which of m, n, k the numbers of a size "AxBxC" set,
 * in order; a dimension the size leaves out takes def_* (0: the size's
 * first number).  Full sizes run past the 50-60 MB L2 of an H100/H200
 * for every bandwidth-bound op, so the large rows time DRAM, not cache;
 * quick sizes are small enough for the naive CPU rungs to finish. */
typedef struct opdef {
    gpuk_op op;
    const char *dims;
    int64_t def_m, def_n, def_k, batch;
    int compute;      /* nominally compute-bound: used when the ridge is unknown */
    int peak;         /* its compute ceiling */
    const char *quick;
    const char *full;
} opdef;

static const opdef OPS[] = {
    {GPUK_OP_MATMUL, "mnk", 0, 0, 0, 1, 1, PK_FMA, "64,256,512", "256,1024,2048,4096,8192"},
    {GPUK_OP_BATCHED_MATMUL, "mnk", 0, 0, 0, 16, 1, PK_FMA, "32,128,256", "64,256,512,1024,2048"},
    {GPUK_OP_MINPLUS, "mnk", 0, 0, 0, 1, 1, PK_ADDMIN, "64,256,512", "256,1024,2048,4096"},
    {GPUK_OP_TRANSPOSE, "mn", 0, 0, 1, 1, 0, PK_FMA, "256,1024,2048", "1024,4096,8192"},
    {GPUK_OP_REDUCE, "mn", 0, 0, 1, 1, 0, PK_FMA, "256,1024,2048", "1024,4096,8192"},
    {GPUK_OP_ADD, "n", 1, 0, 1, 1, 0, PK_FMA, "65536,1048576,4194304",
     "65536,1048576,16777216,67108864"},
    {GPUK_OP_SCALE, "n", 1, 0, 1, 1, 0, PK_FMA, "65536,1048576,4194304",
     "65536,1048576,16777216,67108864"},
    {GPUK_OP_RELU, "n", 1, 0, 1, 1, 0, PK_FMA, "65536,1048576,4194304",
     "65536,1048576,16777216,67108864"},
    {GPUK_OP_BIAS_RELU, "mn", 0, 0, 1, 1, 0, PK_FMA, "256,1024,2048", "1024,4096,8192"},
    {GPUK_OP_COPY, "n", 1, 0, 1, 1, 0, PK_FMA, "65536,1048576,4194304",
     "65536,1048576,16777216,67108864"},
    {GPUK_OP_SOFTMAX, "mn", 0, 0, 1, 1, 0, PK_FMA, "256,1024,2048", "1024,4096,8192"},
    {GPUK_OP_EMBEDDING, "mnk", 0, 256, 32768, 1, 0, PK_FMA, "1024,16384,65536",
     "16384,65536,262144"},
    {GPUK_OP_MEANPOOL, "mnk", 0, 256, 256, 1, 0, PK_FMA, "4,16,64", "64,256,1024"},
    {GPUK_OP_SPMV, "mnk", 0, 0, 16, 1, 0, PK_FMA, "16384,131072,524288",
     "262144,1048576,4194304"},
    {GPUK_OP_DOT, "n", 1, 0, 1, 1, 0, PK_FMA, "65536,1048576,4194304",
     "1048576,16777216,67108864"},
    {GPUK_OP_GEMV, "mn", 0, 0, 1, 1, 0, PK_FMA, "256,1024,2048", "1024,4096,8192"},
    {GPUK_OP_GEMM, "mnk", 0, 0, 0, 1, 1, PK_FMA, "64,256,512", "256,1024,2048,4096,8192"},
    {GPUK_OP_APSP, "n", 1, 0, 1, 1, 1, PK_ADDMIN, "64,256,512", "1024,2048,4096,8192"},
};

static const opdef *find(gpuk_op op)
{
    for (size_t i = 0; i < sizeof OPS / sizeof OPS[0]; i++)
        if (OPS[i].op == op)
            return &OPS[i];
    return NULL;
}

const char *case_default_sizes(gpuk_op op, int quick)
{
    const opdef *o = find(op);
    return o ? (quick ? o->quick : o->full) : "";
}

const char *case_dims(gpuk_op op)
{
    const opdef *o = find(op);
    return o ? o->dims : "";
}

int case_compute_bound(gpuk_op op)
{
    const opdef *o = find(op);
    return o ? o->compute : 0;
}

/* The ops whose writes are a small part of their traffic (a row or a
 * scalar out of a matrix in), or a third of it (add: two inputs, one
 * output): their memory ceiling is the read rate.  A copy's mix of one
 * read to one write is slower than reads alone on HBM, and add's mix
 * beat it on the H200 (4197 GB/s against 4170, bench/NOTES.md), so the
 * copy rate does not bound an op that reads more than it writes. */
int case_memory_peak(gpuk_op op)
{
    switch (op) {
    case GPUK_OP_ADD:
    case GPUK_OP_REDUCE:
    case GPUK_OP_DOT:
    case GPUK_OP_GEMV:
    case GPUK_OP_MEANPOOL:
    case GPUK_OP_SPMV:
        return PK_READ;
    default:
        return PK_COPY;
    }
}

int case_compute_peak(gpuk_op op, gpuk_dtype dtype, uint32_t flags)
{
    const opdef *o = find(op);
    int pk = o ? o->peak : PK_FMA;
    if (pk == PK_ADDMIN && dtype == GPUK_I32)
        pk = flags & GPUK_VARIANT_PACKED16 ? PK_ADDMIN_I16X2 : PK_ADDMIN_I32;
    return pk;
}

int case_parse_size(const char *text, bsize *out)
{
    const char *p = text;
    out->nd = 0;
    while (*p) {
        char *end;
        if (out->nd == 3 || *p < '0' || *p > '9')
            return -1;
        long long v = strtoll(p, &end, 10);
        if (end == p || v <= 0 || v > ((long long)1 << 40))
            return -1;
        out->d[out->nd++] = v;
        p = end;
        if (*p == 'x' || *p == 'X') {
            p++;
            if (!*p)
                return -1;
        } else if (*p) {
            return -1;
        }
    }
    return out->nd ? 0 : -1;
}

/* The work and minimum traffic of one run, f32 and i32 elements being 4
 * bytes.  flops counts a multiply and an add as two (an FMA is 2); for
 * min-plus an add and a min are the two ops of a step.  bytes counts each
 * input read once and each output written once: the least any kernel can
 * move, so GB/s is an effective bandwidth.  Softmax counts 5 ops an
 * element (max, subtract, exp, sum, divide); SpMV counts the matrix (its
 * actual nnz values and column indices), the row pointers, x and y once
 * each (the least any SpMV must move, so GB/s compares with the copy
 * ceiling as for the dense ops). */
static void cost(gpuk_op op, const bshape *s, double nnz, double *flops, double *bytes)
{
    const double m = (double)s->m, n = (double)s->n, k = (double)s->k;
    const double b = (double)s->batch;
    double f = 0, e = 0; /* flops, elements moved */
    switch (op) {
    case GPUK_OP_MATMUL:
    case GPUK_OP_MINPLUS:
    case GPUK_OP_GEMM:           f = 2 * m * n * k;      e = m * k + k * n + m * n; break;
    case GPUK_OP_BATCHED_MATMUL: f = 2 * b * m * n * k;  e = b * (m * k + k * n + m * n); break;
    case GPUK_OP_TRANSPOSE:      f = 0;                  e = 2 * m * n; break;
    case GPUK_OP_REDUCE:         f = m * n;              e = m * n + m; break;
    case GPUK_OP_ADD:            f = n;                  e = 3 * n; break;
    case GPUK_OP_SCALE:
    case GPUK_OP_RELU:           f = n;                  e = 2 * n; break;
    case GPUK_OP_COPY:           f = 0;                  e = 2 * n; break;
    case GPUK_OP_BIAS_RELU:      f = 2 * m * n;          e = 2 * m * n + n; break;
    case GPUK_OP_SOFTMAX:        f = 5 * m * n;          e = 2 * m * n; break;
    case GPUK_OP_EMBEDDING:      f = 0;                  e = m + 2 * m * n; break;
    case GPUK_OP_MEANPOOL:       f = m * k * n;          e = m * k * n + m * n; break;
    case GPUK_OP_SPMV:           f = 2 * nnz;            e = 2 * nnz + (m + 1) + n + m; break;
    case GPUK_OP_DOT:            f = 2 * n;              e = 2 * n + 1; break;
    case GPUK_OP_GEMV:           f = 2 * m * n;          e = m * n + n + m; break;
    case GPUK_OP_APSP:           f = 2 * n * n * n;      e = 2 * n * n; break;
    }
    *flops = f;
    *bytes = 4 * e;
}

/* xorshift64*: inputs reproducible from --seed on any machine. */
static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1DULL;
}

/* Uniform in [-1, 1): mean zero, so long sums stay small and the loose
 * cross-rung check is not fooled by cancellation-free growth. */
static float rng_float(uint64_t *s)
{
    return (float)((double)(rng_next(s) >> 40) / (double)(1ULL << 23) - 1.0);
}

/* ---- i32 inputs (i32 min-plus).  Edge weights of a shortest-path
 * problem: uniform in [0, 2^13), and about one in 64 missing
 * (GPUK_I32_INF), so that the minimum sees infinities without being all
 * of them; no sum of two wraps (the largest, INF + INF, is 2^31 - 2).
 * Any other op in i32 gets the same finite values, without the
 * infinities. */
#define CASE_I32_MAX_WEIGHT (1 << 13)

static void fill_i32(gpuk_op op, int32_t *x, size_t n, uint64_t *rng)
{
    for (size_t j = 0; j < n; j++) {
        uint64_t r = rng_next(rng);
        x[j] = (op == GPUK_OP_MINPLUS || op == GPUK_OP_APSP) && (r >> 58) == 0
                   ? GPUK_I32_INF
                   : (int32_t)((r >> 20) % CASE_I32_MAX_WEIGHT);
    }
}

static void spec(btspec *t, gpuk_dtype dt, int ndim, int64_t a, int64_t b, int64_t c)
{
    t->dtype = dt;
    t->ndim = ndim;
    t->shape[0] = a;
    t->shape[1] = b;
    t->shape[2] = c;
}

static size_t numel(const btspec *t)
{
    size_t n = 1;
    for (int i = 0; i < t->ndim; i++)
        n *= (size_t)t->shape[i];
    return n;
}

/* The tensors of each op: inputs in the order dev_run passes them, each
 * of the case's dtype but embedding's ids (i32 whatever the table's). */
static void layout(bcase *c)
{
    const gpuk_dtype dt = c->dtype;
    const bshape *s = &c->sh;
    int64_t m = s->m, n = s->n, k = s->k;
    c->n_in = 1;
    c->alpha = 1.0f;
    c->axis = 0;
    switch (c->op) {
    case GPUK_OP_MATMUL:
    case GPUK_OP_MINPLUS:
    case GPUK_OP_GEMM:
        c->n_in = 2;
        spec(&c->in[0], dt, 2, m, k, 0);
        spec(&c->in[1], dt, 2, k, n, 0);
        spec(&c->out, dt, 2, m, n, 0);
        break;
    case GPUK_OP_BATCHED_MATMUL:
        c->n_in = 2;
        spec(&c->in[0], dt, 3, s->batch, m, k);
        spec(&c->in[1], dt, 3, s->batch, k, n);
        spec(&c->out, dt, 3, s->batch, m, n);
        break;
    case GPUK_OP_TRANSPOSE:
        spec(&c->in[0], dt, 2, m, n, 0);
        spec(&c->out, dt, 2, n, m, 0);
        break;
    case GPUK_OP_REDUCE: /* x[m,n] summed along its last axis */
        c->axis = 1;
        spec(&c->in[0], dt, 2, m, n, 0);
        spec(&c->out, dt, 1, m, 0, 0);
        break;
    case GPUK_OP_ADD:
    case GPUK_OP_DOT:
        c->n_in = 2;
        spec(&c->in[0], dt, 1, n, 0, 0);
        spec(&c->in[1], dt, 1, n, 0, 0);
        spec(&c->out, dt, 1, c->op == GPUK_OP_DOT ? 1 : n, 0, 0);
        break;
    case GPUK_OP_SCALE:
    case GPUK_OP_RELU:
    case GPUK_OP_COPY:
        c->alpha = 0.5f;   /* scale's; the others take none */
        spec(&c->in[0], dt, 1, n, 0, 0);
        spec(&c->out, dt, 1, n, 0, 0);
        break;
    case GPUK_OP_BIAS_RELU:
        c->n_in = 2;
        spec(&c->in[0], dt, 2, m, n, 0);
        spec(&c->in[1], dt, 1, n, 0, 0);
        spec(&c->out, dt, 2, m, n, 0);
        break;
    case GPUK_OP_SOFTMAX:
        spec(&c->in[0], dt, 2, m, n, 0);
        spec(&c->out, dt, 2, m, n, 0);
        break;
    case GPUK_OP_EMBEDDING: /* table[k,n], ids[m] -> out[m,n] */
        c->n_in = 2;
        spec(&c->in[0], dt, 2, k, n, 0);
        spec(&c->in[1], GPUK_I32, 1, m, 0, 0);
        spec(&c->out, dt, 2, m, n, 0);
        break;
    case GPUK_OP_MEANPOOL: /* x[m,k,n] -> out[m,n] */
        spec(&c->in[0], dt, 3, m, k, n);
        spec(&c->out, dt, 2, m, n, 0);
        break;
    case GPUK_OP_SPMV: /* A[m,n] with k nonzeros a row, x[n] -> y[m] */
        spec(&c->in[0], dt, 1, n, 0, 0);
        spec(&c->out, dt, 1, m, 0, 0);
        break;
    case GPUK_OP_GEMV: /* a[m,n] x[n] -> y[m] */
        c->n_in = 2;
        spec(&c->in[0], dt, 2, m, n, 0);
        spec(&c->in[1], dt, 1, n, 0, 0);
        spec(&c->out, dt, 1, m, 0, 0);
        break;
    case GPUK_OP_APSP: /* w[n,n] -> d[n,n]: a graph of n vertices */
        spec(&c->in[0], dt, 2, n, n, 0);
        spec(&c->out, dt, 2, n, n, 0);
        break;
    }
    c->out_numel = numel(&c->out);
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* A random CSR matrix, k distinct sorted columns in each row. */
static int make_csr(bcase *c, uint64_t *rng)
{
    int64_t rows = c->sh.m, cols = c->sh.n, per = c->sh.k;
    c->nnz = rows * per;
    c->row_ptr = malloc((size_t)(rows + 1) * sizeof(int32_t));
    c->col_idx = malloc((size_t)c->nnz * sizeof(int32_t));
    c->values = malloc((size_t)c->nnz * sizeof(float));
    if (!c->row_ptr || !c->col_idx || !c->values)
        return -1;
    for (int64_t i = 0; i <= rows; i++)
        c->row_ptr[i] = (int32_t)(i * per);
    for (int64_t i = 0; i < rows; i++) {
        int32_t *col = c->col_idx + i * per;
        for (int64_t j = 0; j < per; j++) {
            int dup;
            do { /* rejection: per <= cols is checked by case_make */
                col[j] = (int32_t)(rng_next(rng) % (uint64_t)cols);
                dup = 0;
                for (int64_t q = 0; q < j; q++)
                    dup |= col[q] == col[j];
            } while (dup);
        }
        qsort(col, (size_t)per, sizeof *col, cmp_i32);
    }
    for (int64_t i = 0; i < c->nnz; i++)
        c->values[i] = rng_float(rng);
    return 0;
}

/* ---- the power-law matrix ----
 *
 * Row lengths Pareto(alpha 1.5, minimum 5), rounded down and capped at
 * 262144 and at the column count: mean about 14.5, a few rows of 10^5
 * nonzeros among millions of 5 to 20, the skew that unbalances one
 * thread (or warp) per row.  The same distribution as bench/perf's
 * gpuk-perf, which measured 60.75M nonzeros, mean 14.5, on 4M rows. */
#define PL_ALPHA 1.5
#define PL_MIN 5.0
#define PL_CAP 262144
#define PL_SHORT 32  /* rows up to this long: membership by a scan of the row */

/* Uniform in (0, 1]: never 0, so u^(-1/alpha) is finite. */
static double rng_unit(uint64_t *s)
{
    return ((double)(rng_next(s) >> 11) + 1.0) / 9007199254740992.0;
}

static int64_t powerlaw_len(uint64_t *rng, int64_t cols)
{
    double l = PL_MIN * pow(rng_unit(rng), -1.0 / PL_ALPHA);
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
            int32_t t = (int32_t)(rng_next(rng) % (uint64_t)(j + 1));
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
        uint64_t t = rng_next(rng) % (uint64_t)(j + 1);
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
 * values.  0 on success, -1 out of memory, -2 nnz past int32. */
static int make_powerlaw(bcase *c, uint64_t *rng)
{
    int64_t rows = c->sh.m, cols = c->sh.n, nnz = 0;
    c->row_ptr = malloc((size_t)(rows + 1) * sizeof(int32_t));
    if (!c->row_ptr)
        return -1;
    c->row_ptr[0] = 0;
    for (int64_t i = 0; i < rows; i++) {
        nnz += powerlaw_len(rng, cols);
        if (nnz > INT32_MAX)
            return -2;
        c->row_ptr[i + 1] = (int32_t)nnz;
    }
    c->nnz = nnz;
    c->col_idx = malloc((size_t)(nnz ? nnz : 1) * sizeof(int32_t));
    c->values = malloc((size_t)(nnz ? nnz : 1) * sizeof(float));
    uint64_t *bits = calloc((size_t)(cols + 63) / 64, sizeof *bits);
    if (!c->col_idx || !c->values || !bits) {
        free(bits);
        return -1;
    }
    for (int64_t i = 0; i < rows; i++)
        pick_cols(c->col_idx + c->row_ptr[i], c->row_ptr[i + 1] - c->row_ptr[i], cols, rng,
                  bits);
    free(bits);
    for (int64_t i = 0; i < nnz; i++)
        c->values[i] = rng_float(rng);
    return 0;
}

static const char *const MATRIX_NAME[MAT_N] = {"random", "powerlaw"};

const char *case_matrix_name(int matrix)
{
    return matrix >= 0 && matrix < MAT_N ? MATRIX_NAME[matrix] : "";
}

int case_matrix_from_name(const char *name)
{
    for (int i = 0; i < MAT_N; i++)
        if (!strcmp(name, MATRIX_NAME[i]))
            return i;
    return -1;
}

/* The random matrix keeps the plain shape as its label, as before there
 * were two; the power-law one drops k, which it does not use. */
static const char *label_suffix(gpuk_op op, int matrix)
{
    return op == GPUK_OP_SPMV && matrix == MAT_POWERLAW ? " powerlaw" : "";
}

void case_label_text(gpuk_op op, gpuk_dtype dtype, int matrix, const char *size_text, char *buf,
                     size_t len)
{
    snprintf(buf, len, "%s%s%s%s", size_text, label_suffix(op, matrix),
             dtype == GPUK_F32 ? "" : " ", dtype == GPUK_F32 ? "" : gpuk_dtype_name(dtype));
}

int case_make(gpuk_op op, gpuk_dtype dtype, const bsize *size, int matrix, uint64_t seed,
              bcase *c, char *err, size_t errlen)
{
    const opdef *o = find(op);
    memset(c, 0, sizeof *c);
    c->op = op;
    c->dtype = dtype;
    c->matrix = op == GPUK_OP_SPMV ? matrix : MAT_RANDOM;
    const int powerlaw = c->matrix == MAT_POWERLAW;
    if (!o) {
        snprintf(err, errlen, "no benchmark case for op %d", (int)op);
        return -1;
    }
    if ((size_t)size->nd > strlen(o->dims)) {
        snprintf(err, errlen, "%s takes at most %zu numbers in a size (%s)", gpuk_op_name(op),
                 strlen(o->dims), o->dims);
        return -1;
    }
    int64_t v[3] = {o->def_m, o->def_n, o->def_k};
    for (int i = 0; i < 3; i++)
        if (v[i] == 0)
            v[i] = size->d[0];
    for (int i = 0; i < size->nd; i++) {
        int at = o->dims[i] == 'm' ? 0 : o->dims[i] == 'n' ? 1 : 2;
        v[at] = size->d[i];
    }
    c->sh = (bshape){v[0], v[1], v[2], o->batch};
    if (op == GPUK_OP_SPMV && c->sh.n > INT32_MAX) {
        snprintf(err, errlen, "spmv: %lld columns do not fit in int32 column indices",
                 (long long)c->sh.n);
        return -1;
    }
    if (op == GPUK_OP_SPMV && !powerlaw && c->sh.k > c->sh.n) {
        snprintf(err, errlen, "spmv: %lld nonzeros a row do not fit in %lld columns",
                 (long long)c->sh.k, (long long)c->sh.n);
        return -1;
    }
    /* the power-law rows have at least 5 nonzeros (fewer only when there
     * are fewer columns): nnz is checked again as the rows are drawn */
    double least = powerlaw ? (c->sh.n < PL_MIN ? (double)c->sh.n : PL_MIN) : (double)c->sh.k;
    if (op == GPUK_OP_SPMV && (double)c->sh.m * least > 2147483647.0) {
        snprintf(err, errlen, "spmv: nnz must fit in int32");
        return -1;
    }
    char *p = c->label;
    size_t left = sizeof c->label;
    for (size_t i = 0; i < strlen(o->dims); i++) {
        if (powerlaw && o->dims[i] == 'k')
            continue;
        int64_t x = o->dims[i] == 'm' ? c->sh.m : o->dims[i] == 'n' ? c->sh.n : c->sh.k;
        int w = snprintf(p, left, "%s%lld", i ? "x" : "", (long long)x);
        p += w;
        left -= (size_t)w;
    }
    if (c->sh.batch > 1) {
        int w = snprintf(p, left, " b%lld", (long long)c->sh.batch);
        p += w;
        left -= (size_t)w;
    }
    snprintf(p, left, "%s%s%s", label_suffix(op, c->matrix), dtype == GPUK_F32 ? "" : " ",
             dtype == GPUK_F32 ? "" : gpuk_dtype_name(dtype));
    layout(c);

    uint64_t rng = seed * 0x9E3779B97F4A7C15ULL + (uint64_t)op + 1;
    for (int i = 0; i < c->n_in; i++) {
        size_t ne = numel(&c->in[i]);
        c->host_in[i] = malloc(ne * 4);
        if (!c->host_in[i])
            goto oom;
        if (op == GPUK_OP_EMBEDDING && i == 1) {
            int32_t *ids = c->host_in[i];
            for (size_t j = 0; j < ne; j++)
                ids[j] = (int32_t)(rng_next(&rng) % (uint64_t)c->sh.k);
        } else if (c->in[i].dtype == GPUK_I32) {
            fill_i32(op, c->host_in[i], ne, &rng);
        } else {
            /* a graph's weights are lengths: >= 0, or a negative cycle
             * would make the run an error */
            float *x = c->host_in[i];
            for (size_t j = 0; j < ne; j++)
                x[j] = op == GPUK_OP_APSP ? fabsf(rng_float(&rng)) : rng_float(&rng);
        }
    }
    if (op == GPUK_OP_SPMV) {
        int bad = powerlaw ? make_powerlaw(c, &rng) : make_csr(c, &rng);
        if (bad == -2) {
            snprintf(err, errlen, "spmv %s: nnz must fit in int32", c->label);
            case_free(c);
            return -1;
        }
        if (bad)
            goto oom;
        if (powerlaw) /* k: the mean row length, for the reports' m, n, k */
            c->sh.k = c->sh.m ? (c->nnz + c->sh.m / 2) / c->sh.m : 0;
    }
    /* the costs count the matrix as made: the power-law nnz is known now */
    cost(op, &c->sh, (double)c->nnz, &c->flops, &c->bytes);
    c->work = c->flops > 0 ? c->flops : c->bytes;
    c->ref = malloc(c->out_numel * gpuk_dtype_size(c->out.dtype));
    c->got = malloc(c->out_numel * gpuk_dtype_size(c->out.dtype));
    if (!c->ref || !c->got)
        goto oom;
    return 0;
oom:
    snprintf(err, errlen, "%s %s: out of host memory for the inputs", gpuk_op_name(op), c->label);
    case_free(c);
    return -1;
}

void case_free(bcase *c)
{
    for (int i = 0; i < 3; i++)
        free(c->host_in[i]);
    free(c->row_ptr);
    free(c->col_idx);
    free(c->values);
    free(c->ref);
    free(c->got);
    memset(c->host_in, 0, sizeof c->host_in);
    c->row_ptr = c->col_idx = NULL;
    c->values = c->ref = c->got = NULL;
}

/* ---- the case in a backend ---- */

gpuk_status dev_create(gpuk_context *ctx, const bcase *c, bdev *d, const char **what)
{
    gpuk_status st;
    memset(d, 0, sizeof *d);
    for (int i = 0; i < c->n_in; i++) {
        *what = "gpuk_tensor_create (input)";
        st = gpuk_tensor_create(ctx, c->in[i].dtype, c->in[i].ndim, c->in[i].shape, &d->in[i]);
        if (st != GPUK_OK)
            return st;
    }
    *what = "gpuk_tensor_create (output)";
    return gpuk_tensor_create(ctx, c->out.dtype, c->out.ndim, c->out.shape, &d->out);
}

/* Everything an op needs on the device: the inputs, and for SpMV the
 * matrix (made again each time, so its upload is timed too). */
gpuk_status dev_upload(gpuk_context *ctx, const bcase *c, bdev *d, const char **what)
{
    gpuk_status st;
    for (int i = 0; i < c->n_in; i++) {
        *what = "gpuk_tensor_write";
        st = gpuk_tensor_write(ctx, d->in[i], c->host_in[i], numel(&c->in[i]) * 4);
        if (st != GPUK_OK)
            return st;
    }
    if (c->op == GPUK_OP_SPMV) {
        gpuk_csr_destroy(ctx, d->csr);
        d->csr = NULL;
        *what = "gpuk_csr_create";
        st = gpuk_csr_create(ctx, c->sh.m, c->sh.n, c->nnz, c->row_ptr, c->col_idx, c->values,
                             &d->csr);
        if (st != GPUK_OK)
            return st;
    }
    *what = "gpuk_sync";
    return gpuk_sync(ctx);
}

/* NaN in every output element (i32: CASE_I32_POISON), so a rung that
 * leaves one unwritten fails the check instead of showing the previous
 * rung's answer. */
gpuk_status dev_poison(gpuk_context *ctx, const bcase *c, bdev *d)
{
    if (c->out.dtype == GPUK_I32) {
        int32_t *bad = c->got;
        for (size_t i = 0; i < c->out_numel; i++)
            bad[i] = CASE_I32_POISON;
    } else {
        float *nan = c->got;
        for (size_t i = 0; i < c->out_numel; i++)
            nan[i] = __builtin_nanf("");
    }
    return gpuk_tensor_write(ctx, d->out, c->got, c->out_numel * gpuk_dtype_size(c->out.dtype));
}

/* The op through the tests' opcall: the case's tensors in the order
 * layout() gives them, and its scalars (gemv and gemm: alpha 1, beta 0,
 * no transposes; matmul without a bias). */
gpuk_status dev_run(gpuk_context *ctx, const bcase *c, const bdev *d, const char *v)
{
    opcall_args a;
    opcall_init(&a, c->op);
    for (int i = 0; i < c->n_in; i++)
        a.in[i] = d->in[i];
    a.out = d->out;
    a.csr = d->csr;
    a.alpha = c->alpha;
    a.axis = c->axis;
    return opcall(ctx, &a, v);
}

gpuk_status dev_download(gpuk_context *ctx, const bcase *c, const bdev *d, void *dst)
{
    return gpuk_tensor_read(ctx, d->out, dst, c->out_numel * gpuk_dtype_size(c->out.dtype));
}

void dev_destroy(gpuk_context *ctx, bdev *d)
{
    for (int i = 0; i < 3; i++)
        gpuk_tensor_destroy(ctx, d->in[i]);
    gpuk_tensor_destroy(ctx, d->out);
    gpuk_csr_destroy(ctx, d->csr);
    memset(d, 0, sizeof *d);
}

/*
 * cases.c - what gpuk-bench runs for each op: the default sizes, how a
 * size becomes a shape and the op's canonical dimensions, the random
 * inputs in the case's dtype and the scalars of the call.  The work and
 * traffic of one run are the library's (gpuk_op_cost, src/catalog.c: the
 * one place those formulas live, which the Python package uses too).  The
 * call itself is the tests' opcall (tests/opcall.h), the one switch from
 * an op to its API function.  The per-op switch below (layout) has no
 * default case, so an op added to GPUK_OP_MAP without its tensors here is
 * a -Wswitch warning; its row in OPS goes with them (an op without one is
 * reported as having no benchmark case), and so is a dtype added to
 * GPUK_DTYPE_MAP without its ceilings and element access.
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
    int peak;         /* its compute family, as its f32 ceiling: FMA or add+min */
    const char *quick;
    const char *full;
} opdef;

static const opdef OPS[] = {
    {GPUK_OP_MATMUL, "mnk", 0, 0, 0, 1, 1, PK_FMA_GFLOPS, "64,256,512", "256,1024,2048,4096,8192"},
    {GPUK_OP_BATCHED_MATMUL, "mnk", 0, 0, 0, 16, 1, PK_FMA_GFLOPS, "32,128,256", "64,256,512,1024,2048"},
    {GPUK_OP_MINPLUS, "mnk", 0, 0, 0, 1, 1, PK_ADDMIN_GOPS, "64,256,512", "256,1024,2048,4096"},
    {GPUK_OP_TRANSPOSE, "mn", 0, 0, 1, 1, 0, PK_FMA_GFLOPS, "256,1024,2048", "1024,4096,8192"},
    {GPUK_OP_REDUCE, "mn", 0, 0, 1, 1, 0, PK_FMA_GFLOPS, "256,1024,2048", "1024,4096,8192"},
    {GPUK_OP_ADD, "n", 1, 0, 1, 1, 0, PK_FMA_GFLOPS, "65536,1048576,4194304",
     "65536,1048576,16777216,67108864"},
    {GPUK_OP_SCALE, "n", 1, 0, 1, 1, 0, PK_FMA_GFLOPS, "65536,1048576,4194304",
     "65536,1048576,16777216,67108864"},
    {GPUK_OP_RELU, "n", 1, 0, 1, 1, 0, PK_FMA_GFLOPS, "65536,1048576,4194304",
     "65536,1048576,16777216,67108864"},
    {GPUK_OP_BIAS_RELU, "mn", 0, 0, 1, 1, 0, PK_FMA_GFLOPS, "256,1024,2048", "1024,4096,8192"},
    {GPUK_OP_COPY, "n", 1, 0, 1, 1, 0, PK_FMA_GFLOPS, "65536,1048576,4194304",
     "65536,1048576,16777216,67108864"},
    {GPUK_OP_SOFTMAX, "mn", 0, 0, 1, 1, 0, PK_FMA_GFLOPS, "256,1024,2048", "1024,4096,8192"},
    {GPUK_OP_EMBEDDING, "mnk", 0, 256, 32768, 1, 0, PK_FMA_GFLOPS, "1024,16384,65536",
     "16384,65536,262144"},
    {GPUK_OP_MEANPOOL, "mnk", 0, 256, 256, 1, 0, PK_FMA_GFLOPS, "4,16,64", "64,256,1024"},
    {GPUK_OP_SPMV, "mnk", 0, 0, 16, 1, 0, PK_FMA_GFLOPS, "16384,131072,524288",
     "262144,1048576,4194304"},
    {GPUK_OP_DOT, "n", 1, 0, 1, 1, 0, PK_FMA_GFLOPS, "65536,1048576,4194304",
     "1048576,16777216,67108864"},
    {GPUK_OP_GEMV, "mn", 0, 0, 1, 1, 0, PK_FMA_GFLOPS, "256,1024,2048", "1024,4096,8192"},
    {GPUK_OP_GEMM, "mnk", 0, 0, 0, 1, 1, PK_FMA_GFLOPS, "64,256,512", "256,1024,2048,4096,8192"},
    {GPUK_OP_APSP, "n", 1, 0, 1, 1, 1, PK_ADDMIN_GOPS, "64,256,512", "1024,2048,4096,8192"},
    {GPUK_OP_CAST, "n", 1, 0, 1, 1, 0, PK_FMA_GFLOPS, "65536,1048576,4194304",
     "65536,1048576,16777216,67108864"},
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
        return PK_READ_GBS;
    default:
        return PK_COPY_GBS;
    }
}

/* A rung that runs on the matrix units (tensor cores: DMMA in f64) is
 * held to their rate, not to the FMA pipes'.  No flag of gpuk.h says so
 * yet; GPUK_VARIANT_MMA is the one proposed for it, and until it exists
 * such a rung is held to the FMA ceiling of its dtype (and may show above
 * 100% of it, which the report calls a measurement error). */
#ifdef GPUK_VARIANT_MMA
#define B_VARIANT_MMA GPUK_VARIANT_MMA
#else
#define B_VARIANT_MMA 0u
#endif

int case_compute_peak(gpuk_op op, gpuk_dtype dtype, uint32_t flags)
{
    const opdef *o = find(op);
    const int addmin = o && o->peak == PK_ADDMIN_GOPS;
    const int mma = (flags & B_VARIANT_MMA) != 0;
    if (flags & GPUK_VARIANT_TF32)
        return PK_MMA_TF32_GFLOPS;
    switch (dtype) {
    case GPUK_F32:
        return addmin ? PK_ADDMIN_GOPS : PK_FMA_GFLOPS;
    case GPUK_I32:
        if (!addmin)
            return -1;
        return flags & GPUK_VARIANT_PACKED16 ? PK_ADDMIN_I16X2_GOPS : PK_ADDMIN_I32_GOPS;
    case GPUK_F64:
        return addmin ? PK_ADDMIN_F64_GOPS : mma ? PK_MMA_F64_GFLOPS : PK_FMA_F64_GFLOPS;
    /* 16-bit inputs off the matrix units (the CPU's converting rungs)
     * multiply in f32 FMAs: that is their ceiling */
    case GPUK_F16:
        return addmin ? -1 : mma ? PK_MMA_F16_GFLOPS : PK_FMA_GFLOPS;
    case GPUK_BF16:
        return addmin ? -1 : mma ? PK_MMA_BF16_GFLOPS : PK_FMA_GFLOPS;
    }
    return -1;
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
    int64_t *d = c->dims;
    c->n_in = 1;
    c->alpha = 1.0f;
    c->axis = 0;
    memset(c->dims, 0, sizeof c->dims);
    switch (c->op) {
    case GPUK_OP_MATMUL:
    case GPUK_OP_MINPLUS:
    case GPUK_OP_GEMM: /* no bias, no update, beta 0 */
        d[0] = m, d[1] = k, d[2] = n;
        c->n_in = 2;
        spec(&c->in[0], dt, 2, m, k, 0);
        spec(&c->in[1], dt, 2, k, n, 0);
        spec(&c->out, dt, 2, m, n, 0);
        break;
    case GPUK_OP_BATCHED_MATMUL:
        d[0] = s->batch, d[1] = m, d[2] = k, d[3] = n;
        c->n_in = 2;
        spec(&c->in[0], dt, 3, s->batch, m, k);
        spec(&c->in[1], dt, 3, s->batch, k, n);
        spec(&c->out, dt, 3, s->batch, m, n);
        break;
    case GPUK_OP_TRANSPOSE:
        d[0] = m, d[1] = n;
        spec(&c->in[0], dt, 2, m, n, 0);
        spec(&c->out, dt, 2, n, m, 0);
        break;
    case GPUK_OP_REDUCE: /* x[m,n] summed along its last axis */
        d[0] = m, d[1] = n, d[2] = 1;
        c->axis = 1;
        spec(&c->in[0], dt, 2, m, n, 0);
        spec(&c->out, dt, 1, m, 0, 0);
        break;
    case GPUK_OP_ADD:
    case GPUK_OP_DOT:
        d[0] = n;
        c->n_in = 2;
        spec(&c->in[0], dt, 1, n, 0, 0);
        spec(&c->in[1], dt, 1, n, 0, 0);
        spec(&c->out, dt, 1, c->op == GPUK_OP_DOT ? 1 : n, 0, 0);
        break;
    case GPUK_OP_SCALE:
    case GPUK_OP_RELU:
    case GPUK_OP_COPY:
        d[0] = n;
        c->alpha = 0.5f;   /* scale's; the others take none */
        spec(&c->in[0], dt, 1, n, 0, 0);
        spec(&c->out, dt, 1, n, 0, 0);
        break;
    case GPUK_OP_BIAS_RELU:
        d[0] = m, d[1] = n;
        c->n_in = 2;
        spec(&c->in[0], dt, 2, m, n, 0);
        spec(&c->in[1], dt, 1, n, 0, 0);
        spec(&c->out, dt, 2, m, n, 0);
        break;
    case GPUK_OP_SOFTMAX:
        d[0] = m, d[1] = n;
        spec(&c->in[0], dt, 2, m, n, 0);
        spec(&c->out, dt, 2, m, n, 0);
        break;
    case GPUK_OP_EMBEDDING: /* table[k,n], ids[m] -> out[m,n] */
        d[0] = k, d[1] = n, d[2] = m;
        c->n_in = 2;
        spec(&c->in[0], dt, 2, k, n, 0);
        spec(&c->in[1], GPUK_I32, 1, m, 0, 0);
        spec(&c->out, dt, 2, m, n, 0);
        break;
    case GPUK_OP_MEANPOOL: /* x[m,k,n] -> out[m,n] */
        d[0] = m, d[1] = k, d[2] = n;
        spec(&c->in[0], dt, 3, m, k, n);
        spec(&c->out, dt, 2, m, n, 0);
        break;
    case GPUK_OP_SPMV: /* A[m,n] with k nonzeros a row, x[n] -> y[m]; nnz and
                          * the longest row once the matrix is drawn */
        d[0] = m, d[1] = n;
        spec(&c->in[0], dt, 1, n, 0, 0);
        spec(&c->out, dt, 1, m, 0, 0);
        break;
    case GPUK_OP_GEMV: /* a[m,n] x[n] -> y[m] */
        d[0] = m, d[1] = n;
        c->n_in = 2;
        spec(&c->in[0], dt, 2, m, n, 0);
        spec(&c->in[1], dt, 1, n, 0, 0);
        spec(&c->out, dt, 1, m, 0, 0);
        break;
    case GPUK_OP_CAST: /* x[n] of dtype -> out[n]: f32 to f16, every other dtype to f32 */
        d[0] = n;
        d[1] = dt == GPUK_F32 ? GPUK_F16 : GPUK_F32;
        spec(&c->in[0], dt, 1, n, 0, 0);
        spec(&c->out, (gpuk_dtype)d[1], 1, n, 0, 0);
        break;
    case GPUK_OP_APSP: /* w[n,n] -> d[n,n]: a graph of n vertices, no predecessors */
        d[0] = n;
        spec(&c->in[0], dt, 2, n, n, 0);
        spec(&c->out, dt, 2, n, n, 0);
        break;
    }
    c->out_numel = numel(&c->out);
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

/* The shape of a case from its m, n, k (and batch): the checks, the
 * label, the tensors and the canonical dimensions; no data yet. */
static int case_shape(const opdef *o, gpuk_dtype dtype, int matrix, const int64_t v[3],
                      int64_t batch, bcase *c, char *err, size_t errlen)
{
    const gpuk_op op = o->op;
    memset(c, 0, sizeof *c);
    c->op = op;
    c->dtype = dtype;
    c->matrix = op == GPUK_OP_SPMV ? matrix : MAT_RANDOM;
    const int powerlaw = c->matrix == MAT_POWERLAW;
    c->sh = (bshape){v[0], v[1], v[2], batch};
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
    double least = powerlaw ? (c->sh.n < INPUT_PL_MIN ? (double)c->sh.n : INPUT_PL_MIN) : (double)c->sh.k;
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
    return 0;
}

/* The work, traffic and class of the case, by the library's count, once
 * an spmv matrix is drawn (its nnz and longest row are known then). */
static int case_cost(bcase *c, char *err, size_t errlen)
{
    if (c->op == GPUK_OP_SPMV) {
        c->dims[2] = c->nnz;
        c->dims[3] = c->longest;
    }
    gpuk_status st = gpuk_op_cost(c->op, c->dtype, c->dims, &c->flops, &c->bytes,
                                  &c->shape_class);
    if (st != GPUK_OK) {
        snprintf(err, errlen, "%s %s: gpuk_op_cost: %s", gpuk_op_name(c->op), c->label,
                 gpuk_strerror(st));
        return -1;
    }
    c->work = c->flops > 0 ? c->flops : c->bytes;
    return 0;
}

static uint64_t case_seed(uint64_t seed, gpuk_op op)
{
    return seed * 0x9E3779B97F4A7C15ULL + (uint64_t)op + 1;
}

int case_make(gpuk_op op, gpuk_dtype dtype, const bsize *size, int matrix, uint64_t seed,
              bcase *c, char *err, size_t errlen)
{
    const opdef *o = find(op);
    if (!o) {
        memset(c, 0, sizeof *c);
        snprintf(err, errlen, "no benchmark case for op %d", (int)op);
        return -1;
    }
    if ((size_t)size->nd > strlen(o->dims)) {
        memset(c, 0, sizeof *c);
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
    if (case_shape(o, dtype, matrix, v, o->batch, c, err, errlen))
        return -1;
    const int powerlaw = c->matrix == MAT_POWERLAW;

    /* inputs in the case's dtype: the values of input_value, exact in it */
    uint64_t rng = case_seed(seed, op);
    const int prec = gpuk_dtype_precision(dtype);
    for (int i = 0; i < c->n_in; i++) {
        size_t ne = numel(&c->in[i]);
        c->host_in[i] = malloc(ne * gpuk_dtype_size(c->in[i].dtype));
        if (!c->host_in[i])
            goto oom;
        if (op == GPUK_OP_EMBEDDING && i == 1) {
            int32_t *ids = c->host_in[i];
            for (size_t j = 0; j < ne; j++)
                ids[j] = (int32_t)(input_next(&rng) % (uint64_t)c->sh.k);
        } else if (c->in[i].dtype == GPUK_I32) {
            input_i32(op, c->host_in[i], ne, &rng);
        } else {
            /* a graph's weights are lengths: >= 0, or a negative cycle
             * would make the run an error */
            for (size_t j = 0; j < ne; j++) {
                double x = input_value(&rng, prec);
                input_put(c->in[i].dtype, c->host_in[i], j, op == GPUK_OP_APSP ? fabs(x) : x);
            }
        }
    }
    if (op == GPUK_OP_SPMV) {
        int bad = powerlaw ? input_powerlaw(c, &rng, 0) : input_csr(c, &rng, 0);
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
    if (case_cost(c, err, errlen)) {
        case_free(c);
        return -1;
    }
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

int case_make_shape(gpuk_op op, gpuk_dtype dtype, const int64_t mnkb[4], int matrix,
                    uint64_t seed, bcase *c, char *err, size_t errlen)
{
    const opdef *o = find(op);
    if (!o) {
        memset(c, 0, sizeof *c);
        snprintf(err, errlen, "no benchmark case for op %s", gpuk_op_name(op));
        return -1;
    }
    if (case_shape(o, dtype, matrix, mnkb, mnkb[3] > 0 ? mnkb[3] : 1, c, err, errlen))
        return -1;
    if (op == GPUK_OP_SPMV) {
        /* the matrix comes after the inputs, from the same generator:
         * step past the draws of x (one each) to reach its rows */
        uint64_t rng = case_seed(seed, op);
        for (size_t j = numel(&c->in[0]); j > 0; j--)
            input_next(&rng);
        int bad = c->matrix == MAT_POWERLAW ? input_powerlaw(c, &rng, 1) : input_csr(c, &rng, 1);
        if (bad) {
            snprintf(err, errlen, "spmv %s: %s", c->label,
                     bad == -2 ? "nnz must fit in int32" : "out of host memory");
            case_free(c);
            return -1;
        }
        if (c->matrix == MAT_POWERLAW)
            c->sh.k = c->sh.m ? (c->nnz + c->sh.m / 2) / c->sh.m : 0;
    }
    int bad = case_cost(c, err, errlen);
    case_free(c);
    return bad;
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
        st = gpuk_tensor_write(ctx, d->in[i], c->host_in[i],
                               numel(&c->in[i]) * gpuk_dtype_size(c->in[i].dtype));
        if (st != GPUK_OK)
            return st;
    }
    if (c->op == GPUK_OP_SPMV) {
        gpuk_csr_destroy(ctx, d->csr);
        d->csr = NULL;
        *what = "gpuk_csr_create";
        st = gpuk_csr_create_dtype(ctx, c->dtype, c->sh.m, c->sh.n, c->nnz, c->row_ptr,
                                   c->col_idx, c->values, &d->csr);
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
        for (size_t i = 0; i < c->out_numel; i++)
            input_put(c->out.dtype, c->got, i, NAN);
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
    for (int i = 0; i < d->nrot; i++)
        dev_destroy(ctx, &d->rot[i]);
    free(d->rot);
    for (int i = 0; i < 3; i++)
        gpuk_tensor_destroy(ctx, d->in[i]);
    gpuk_tensor_destroy(ctx, d->out);
    gpuk_csr_destroy(ctx, d->csr);
    memset(d, 0, sizeof *d);
}

void dev_rotate(gpuk_context *ctx, const bcase *c, bdev *d)
{
    double per = c->bytes > 0 ? c->bytes : 1;
    int want = per >= BENCH_ROT_BYTES ? 0 : (int)ceil(BENCH_ROT_BYTES / per) - 1;
    if (want > BENCH_ROT_MAX - 1)
        want = BENCH_ROT_MAX - 1;
    if (want <= 0 || !(d->rot = calloc((size_t)want, sizeof *d->rot)))
        return;
    const char *what;
    for (d->nrot = 0; d->nrot < want; d->nrot++) {
        bdev *r = &d->rot[d->nrot];
        if (dev_create(ctx, c, r, &what) != GPUK_OK || dev_upload(ctx, c, r, &what) != GPUK_OK) {
            dev_destroy(ctx, r);   /* out of memory: cycle through fewer */
            break;
        }
    }
}

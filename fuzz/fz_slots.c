/*
 * fz_slots.c - the free-form actions of the fuzz harness: tensors made,
 * viewed, destroyed, written and read through a table of handle slots
 * (live, destroyed, foreign), ops called on whatever the slots hold, CSR
 * matrices with one structural fault, and the context-free calls.
 *
 * tensor_create, tensor_view, destroy, write/read and csr_create are
 * checked against a model of the rules in gpuk.h: the call must succeed
 * exactly when the model says the arguments are valid, and otherwise
 * fail with one of the statuses of the rules they break.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/opcall.h"
#include "../tests/optest.h"
#include "../tests/ref.h"
#include "fz.h"

#define BIT(s) (1u << (s))

static int expect_in(fz *f, const char *what, gpuk_status st, unsigned allowed)
{
    if (allowed == BIT(GPUK_OK) ? st == GPUK_OK : (st != GPUK_OK && (allowed & BIT(st))))
        return 0;
    return fz_fail(f, "%s: status %d (%s) where the model allows mask %#x; message: %s", what,
                   (int)st, gpuk_strerror(st), allowed, gpuk_context_error(fz_ctx));
}

/* The statuses the shape rules of create and view allow for these sizes
 * (0: none broken). */
static unsigned shape_rules(int nd, const int64_t *shape)
{
    if (nd < 1 || nd > 4)
        return BIT(GPUK_ERR_SHAPE);
    for (int i = 0; i < nd; i++)
        if (shape[i] < 0)
            return BIT(GPUK_ERR_SHAPE);
    __int128 span = 4;
    for (int i = 0; i < nd; i++)
        if (shape[i] > 0 && (span *= shape[i]) > INT64_MAX)
            return BIT(GPUK_ERR_OVERFLOW);
    return 0;
}

/* Bulk values for the free-form tensors: a cheap pattern from one random
 * word, with a special value or two (their contents matter only to the
 * ops on slots, which have no oracle). */
static void fill(fz *f, float *buf, size_t n)
{
    uint64_t r = fz_rnext(f);
    uint32_t h = (uint32_t)r;
    for (size_t i = 0; i < n; i++)
        buf[i] = (float)((int)(((uint32_t)i * 2654435761u + h) >> 24) - 128) * 0.125f;
    if (n && (r >> 60) == 0)
        buf[(r >> 32) % n] = fz_val(f, 64);
    if (n && (r >> 60) == 1)
        buf[(r >> 32) % n] = fz_val(f, 64);
}

int fz_create(fz *f)
{
    int s = (int)fz_pick(f, NSLOT);
    gpuk_dtype dt = (gpuk_dtype)(fz_pick(f, 8) == 0 ? fz_pick(f, 4) : 1 + fz_pick(f, 2));
    int nd = fz_pick(f, 8) == 0 ? (int)fz_pick(f, 6) : 1 + (int)fz_pick(f, 4);
    int64_t shape[6];
    int wild = fz_pick(f, 4) == 0;
    for (int i = 0; i < 6; i++)
        shape[i] = wild ? fz_wild(f) : fz_small(f);
    gpuk_context *x = fz_pick(f, 8) == 0 ? fz_other : fz_ctx;
    gpuk_tensor *t = NULL;
    gpuk_status st = gpuk_tensor_create(x, dt, nd, shape, &t);
    unsigned allowed;
    if (!gpuk_dtype_size(dt))
        allowed = BIT(GPUK_ERR_DTYPE);
    else if ((allowed = shape_rules(nd, shape)) == 0) {
        __int128 bytes = (__int128)gpuk_dtype_size(dt);
        for (int i = 0; i < nd; i++)
            bytes *= shape[i];
        /* 2^47 bytes and up cannot be had on any x86-64 */
        allowed = bytes >= (__int128)1 << 47 ? BIT(GPUK_ERR_NO_MEMORY) : BIT(GPUK_OK);
    }
    if (expect_in(f, "gpuk_tensor_create", st, allowed))
        return 1;
    if ((st == GPUK_OK) != (t != NULL))
        return fz_fail(f, "gpuk_tensor_create: status %d but *out %p", (int)st, (void *)t);
    if (t) {
        fz_track(f, x, t);
        gpuk_tensor_info info;
        gpuk_tensor_get_info(x, t, &info);
        float *buf = malloc(info.bytes ? info.bytes : 4);
        fill(f, buf, info.bytes / 4);
        gpuk_tensor_write(x, t, buf, info.bytes);
        free(buf);
        f->slot[s] = t;
        f->live[s] = x == fz_ctx ? 1 : 2;
        f->store[s] = info.numel;
    }
    return 0;
}

static int64_t view_int(fz *f, int wild)
{
    static const int64_t v[] = { 0, 1, 2, 3, 5, 1, 0, 4 };
    return wild ? fz_wild(f) : v[fz_pick(f, 8)];
}

int fz_view(fz *f)
{
    int b = (int)fz_pick(f, NSLOT), s = (int)fz_pick(f, NSLOT);
    int nd = fz_pick(f, 8) == 0 ? (int)fz_pick(f, 6) : 1 + (int)fz_pick(f, 4);
    int wild = fz_pick(f, 4) == 0, dense = fz_pick(f, 3) == 0;
    int64_t shape[6], strides[6], off = view_int(f, fz_pick(f, 6) == 0);
    for (int i = 0; i < 6; i++) {
        shape[i] = wild ? fz_wild(f) : fz_small(f);
        strides[i] = view_int(f, wild);
    }
    gpuk_tensor *t = NULL;
    gpuk_status st = gpuk_tensor_view(fz_ctx, f->slot[b], nd, shape, dense ? NULL : strides, off, &t);
    unsigned allowed;
    if (!f->slot[b])
        allowed = BIT(GPUK_ERR_NULL);
    else if (f->live[b] == 2)
        allowed = BIT(GPUK_ERR_CONTEXT);
    else if (f->live[b] == 0)
        allowed = BIT(GPUK_ERR_HANDLE);
    else if ((allowed = shape_rules(nd, shape)) == 0) {
        int64_t d = 1;
        for (int i = nd - 1; i >= 0 && dense; i--) {
            strides[i] = d;
            if (shape[i] > 0)
                d = (__int128)d * shape[i] > INT64_MAX ? INT64_MAX : d * shape[i];
        }
        __int128 last = off, numel = 1;
        for (int i = 0; i < nd; i++) {
            numel *= shape[i];
            if (shape[i] > 0)
                last += (__int128)(shape[i] - 1) * strides[i];
            if (strides[i] < 0)
                allowed |= BIT(GPUK_ERR_LAYOUT);
        }
        if (off < 0)
            allowed |= BIT(GPUK_ERR_LAYOUT);
        else if (!allowed && last > INT64_MAX)
            allowed |= BIT(GPUK_ERR_OVERFLOW);
        else if (!allowed && (numel > 0 ? last >= f->store[b] : off > f->store[b]))
            allowed |= BIT(GPUK_ERR_LAYOUT);
        if (!allowed)
            allowed = BIT(GPUK_OK);
    }
    if (expect_in(f, "gpuk_tensor_view", st, allowed))
        return 1;
    if (t) {
        fz_track(f, fz_ctx, t);
        f->store[s] = f->store[b];
        f->slot[s] = t;
        f->live[s] = 1;
    }
    return 0;
}

int fz_destroy(fz *f)
{
    int s = (int)fz_pick(f, NSLOT);
    gpuk_status st = gpuk_tensor_destroy(fz_ctx, f->slot[s]);
    unsigned allowed = !f->slot[s] || f->live[s] == 1 ? BIT(GPUK_OK)
                       : f->live[s] == 2 ? BIT(GPUK_ERR_CONTEXT) : BIT(GPUK_ERR_HANDLE);
    if (f->live[s] == 1)
        f->live[s] = 0;   /* the handle stays in the slot, now stale */
    return expect_in(f, "gpuk_tensor_destroy", st, allowed);
}

int fz_io(fz *f)
{
    int s = (int)fz_pick(f, NSLOT), write = (int)fz_pick(f, 2);
    size_t want = 0;
    gpuk_tensor_info info;
    if (f->live[s] == 1 && gpuk_tensor_get_info(fz_ctx, f->slot[s], &info) == GPUK_OK)
        want = info.bytes;
    static const long delta[] = { 0, 0, 0, 4, -4, 1 };
    long d = delta[fz_pick(f, 6)];
    /* a broadcast view can have 2^47 elements over a few floats of
     * storage: only a wrong size is asked of such a tensor, and no buffer
     * of its size is made */
    int huge = want > ((size_t)1 << 26);
    if (huge)
        d = 4;
    size_t bytes = (long)want + d < 0 ? 0 : (size_t)((long)want + d);
    size_t have = huge ? 64 : bytes + 8;
    float *buf = malloc(have);
    if (!buf)
        return 0;
    fill(f, buf, have / 4);
    gpuk_status st = write ? gpuk_tensor_write(fz_ctx, f->slot[s], buf, bytes)
                           : gpuk_tensor_read(fz_ctx, f->slot[s], buf, bytes);
    free(buf);
    unsigned allowed = !f->slot[s] ? BIT(GPUK_ERR_NULL)
                       : f->live[s] == 2 ? BIT(GPUK_ERR_CONTEXT)
                       : f->live[s] == 0 ? BIT(GPUK_ERR_HANDLE)
                       : bytes != want ? BIT(GPUK_ERR_SIZE) : BIT(GPUK_OK);
    return expect_in(f, write ? "gpuk_tensor_write" : "gpuk_tensor_read", st, allowed);
}

/* Any op on whatever the slots hold: it must not crash, a failure must be
 * explained, and a failed call must leave its output as it was (but for
 * apsp's negative cycle, a result of the computation). */
int fz_slots(fz *f)
{
    gpuk_op op = (gpuk_op)(GPUK_OP_FIRST + (int)fz_pick(f, GPUK_OP_LAST - GPUK_OP_FIRST + 1));
    gpuk_tensor *h[4];
    for (int i = 0; i < 4; i++)
        h[i] = fz_pick(f, 9) == 8 ? NULL : f->slot[fz_pick(f, NSLOT)];
    /* "v0" is on purpose: a former min-plus rung name (now omp on the cpu
     * backend, naive on cuda), and such aliases must keep working */
    static const char *const vs[] = { NULL, "auto", "naive", "simd", "openblas", "v0", "", "x" };
    const char *v = vs[fz_pick(f, 8)];
    int e1 = (int)fz_pick(f, 4) - 1, e2 = (int)fz_pick(f, 3);
    float alpha = fz_val(f, 8), beta = fz_pick(f, 2) ? 0.0f : fz_val(f, 8);
    gpuk_tensor_info oi;
    float *before = NULL, *after = NULL;
    if (h[3] && gpuk_tensor_get_info(fz_ctx, h[3], &oi) == GPUK_OK) {
        before = malloc(oi.bytes + 4);
        after = malloc(oi.bytes + 4);
        gpuk_tensor_read(fz_ctx, h[3], before, oi.bytes);
    }
    /* the call through the shared opcall (tests/opcall.h); the enum
     * scalars e1, e2 range over a value below and above the valid ones */
    opcall_args a;
    opcall_init(&a, op);
    for (int i = 0; i < 3; i++)
        a.in[i] = h[i];
    a.out = h[3];
    a.alpha = alpha, a.beta = beta;
    a.kind = e2, a.axis = e1, a.trans_a = e2, a.trans_b = e1 + 1;
    /* the input byte that picks the matrix is read only for an op that
     * takes one (spmv), as it always was: the corpus inputs must keep
     * decoding to the same calls */
    if (optest_of(op)->spec.csr)
        a.csr = f->cslot[fz_pick(f, 2)];
    gpuk_status st = opcall(fz_ctx, &a, v);
    int bad = 0;
    const char *msg = gpuk_context_error(fz_ctx);
    if (st != GPUK_OK && (!msg || !msg[0]))
        bad = fz_fail(f, "%s on slots: status %d with an empty message", gpuk_op_name(op), (int)st);
    /* GPUK_ERR_NEGATIVE_CYCLE is found after the algorithm, which ran in
     * the output: gpuk_apsp(3) says d and pred hold what it left */
    if (!bad && st != GPUK_OK && st != GPUK_ERR_NEGATIVE_CYCLE && before) {
        gpuk_tensor_read(fz_ctx, h[3], after, oi.bytes);
        if (memcmp(before, after, oi.bytes) != 0)
            bad = fz_fail(f, "%s on slots failed (%s) but changed its output", gpuk_op_name(op),
                          msg);
    }
    free(before);
    free(after);
    return bad;
}

/* A CSR matrix, valid or with exactly one fault; the valid ones then
 * multiply a vector against the reference. */
int fz_csr(fz *f)
{
    int64_t rows = fz_dim(f), cols = fz_dim(f);
    unsigned fault = fz_pick(f, 12);   /* 0..6 a fault, else none */
    int32_t *rp = malloc((size_t)(rows + 1) * 4), *ci = malloc((size_t)(rows * cols + 2) * 4);
    float *cv = malloc((size_t)(rows * cols + 2) * 4);
    int32_t nnz = 0;
    rp[0] = 0;
    for (int64_t i = 0; i < rows; i++) {
        for (int64_t j = 0; j < cols; j++)
            if (fz_rnext(f) % 3 == 0) {
                ci[nnz] = (int32_t)j;
                cv[nnz++] = fz_val(f, 4);
            }
        rp[i + 1] = nnz;
    }
    int64_t n_arg = nnz, rows_arg = rows, cols_arg = cols;
    gpuk_status want = GPUK_OK;
    switch (fault) {
    case 0: rp[0] = 1 + (int32_t)fz_pick(f, 3); want = GPUK_ERR_SPARSE; break;
    case 1:
        if (rows > 1 && rp[rows - 1] > 0) {
            rp[rows - 1] = rp[rows] + 1;   /* then row rows-1 runs backwards */
            want = GPUK_ERR_SPARSE;
        }
        break;
    case 2: n_arg = nnz + 1 + (int64_t)fz_pick(f, 3); want = GPUK_ERR_SPARSE; break;
    case 3:
        if (nnz > 0) {
            ci[fz_rnext(f) % (uint64_t)nnz] = fz_pick(f, 2) ? (int32_t)cols : -1;
            want = GPUK_ERR_SPARSE;
        }
        break;
    case 4: rows_arg = -1 - (int64_t)fz_pick(f, 5); want = GPUK_ERR_SHAPE; break;
    case 5: cols_arg = (int64_t)INT32_MAX + 1 + (int64_t)fz_pick(f, 5); want = GPUK_ERR_OVERFLOW; break;
    case 6:
        if (nnz > 0) {
            want = GPUK_ERR_NULL;
            if (fz_pick(f, 2))
                free(ci), ci = NULL;
            else
                free(cv), cv = NULL;
        }
        break;
    }
    gpuk_csr *m = NULL;
    gpuk_status st = gpuk_csr_create(fz_ctx, rows_arg, cols_arg, n_arg, rp, ci, cv, &m);
    int bad = 0;
    if (st != want)
        bad = fz_fail(f, "gpuk_csr_create %lldx%lld nnz %lld, fault %u: status %d (%s), want %d; "
                      "message: %s", (long long)rows_arg, (long long)cols_arg, (long long)n_arg,
                      fault, (int)st, gpuk_strerror(st), (int)want, gpuk_context_error(fz_ctx));
    if (!bad && m) {
        int s = (int)fz_pick(f, 2);
        gpuk_csr_destroy(fz_ctx, f->cslot[s]);
        f->cslot[s] = m;
        /* y = A x against the reference */
        opnd x, y;
        memset(&x, 0, sizeof x);
        memset(&y, 0, sizeof y);
        bad = fz_opnd(f, &x, GPUK_F32, 1, &cols, (int)fz_pick(f, 2), 4, 0);
        bad = bad || fz_opnd(f, &y, GPUK_F32, 1, &rows, (int)fz_pick(f, 2), 0, 0);
        if (!bad && (st = gpuk_spmv(fz_ctx, m, x.v, y.v, NULL)) != GPUK_OK)
            bad = fz_fail(f, "spmv on a valid matrix: %s", gpuk_context_error(fz_ctx));
        if (!bad) {
            float *got = malloc((size_t)(rows + 1) * 4);
            ref_real *ref = malloc((size_t)(rows + 1) * sizeof *ref);
            double *bd = malloc((size_t)(rows + 1) * sizeof *bd);
            bad = fz_opnd_check(f, &x, NULL, NULL, "x") || fz_opnd_check(f, &y, &y, got, "y");
            ref_cmp res;
            ref_args ra;
            memset(&ra, 0, sizeof ra);
            ra.op = GPUK_OP_SPMV;
            ra.in[0].ndim = ra.out.ndim = 1;
            ra.in[0].shape[0] = cols, ra.out.shape[0] = rows;
            ra.in[0].vals = x.vals;
            ra.in[0].dtype = ra.out.dtype = ra.dtype = GPUK_F32;
            ra.rows = rows, ra.row_ptr = rp, ra.col_idx = ci, ra.values = cv;
            ref_op(&ra, 0, ref, bd);
            ref_compare(GPUK_F32, rows, got, ref, bd, 0, &res);
            if (!bad && res.bad)
                bad = fz_fail(f, "spmv: y[%lld] = %.9g, reference %.9Lg", (long long)res.first_bad,
                              got[res.first_bad], ref[res.first_bad]);
            free(got);
            free(ref);
            free(bd);
        }
        fz_opnd_free(&x);
        fz_opnd_free(&y);
    }
    free(rp);
    free(ci);
    free(cv);
    return bad;
}

int fz_misc(fz *f)
{
    int op = (int)fz_pick(f, 22) - 2;
    size_t n = 0;
    gpuk_status st = gpuk_variant_count(fz_ctx, (gpuk_op)op, &n);
    int valid = op >= GPUK_OP_FIRST && op <= GPUK_OP_LAST;
    if (st != (valid ? GPUK_OK : GPUK_ERR_INVALID))
        return fz_fail(f, "gpuk_variant_count(op %d): status %d", op, (int)st);
    size_t idx = fz_pick(f, 8);
    gpuk_variant_info vi;
    st = gpuk_variant_get(fz_ctx, (gpuk_op)op, idx, &vi);
    if (st != (valid && idx < n ? GPUK_OK : GPUK_ERR_INVALID))
        return fz_fail(f, "gpuk_variant_get(op %d, %zu of %zu): status %d", op, idx, n, (int)st);
    if (st == GPUK_OK && (!vi.name || !vi.name[0] || !vi.summary))
        return fz_fail(f, "gpuk_variant_get(op %d, %zu): empty name or summary", op, idx);
    const char *t = gpuk_strerror((gpuk_status)(int)(fz_u8(f) - 100));
    if (!t || !t[0])
        return fz_fail(f, "gpuk_strerror returned an empty text");
    char name[17];
    size_t len = fz_pick(f, 17);
    for (size_t i = 0; i < len; i++)
        name[i] = (char)fz_u8(f);
    name[len] = '\0';
    gpuk_op got;
    st = gpuk_op_from_name(name, &got);
    if (st == GPUK_OK && strcmp(gpuk_op_name(got), name) != 0)
        return fz_fail(f, "gpuk_op_from_name(\"%s\") gave %d", name, (int)got);
    double val;
    /* kinds from 1000 up: far past the last, however many are appended */
    st = gpuk_peak_measure(fz_ctx, (gpuk_peak)(1000 + (int)fz_pick(f, 100)), &val);
    if (st != GPUK_ERR_INVALID)
        return fz_fail(f, "gpuk_peak_measure with a bad kind: status %d", (int)st);
    int s = (int)fz_pick(f, NSLOT);
    gpuk_tensor_info info;
    if (f->live[s] == 1 && gpuk_tensor_get_info(fz_ctx, f->slot[s], &info) == GPUK_OK) {
        int64_t numel = 1;
        for (int i = 0; i < info.ndim; i++)
            numel *= info.shape[i];
        if (numel != info.numel || info.bytes != (size_t)numel * gpuk_dtype_size(info.dtype))
            return fz_fail(f, "gpuk_tensor_get_info: numel %lld, bytes %zu for shape product %lld",
                           (long long)info.numel, info.bytes, (long long)numel);
    }
    return 0;
}

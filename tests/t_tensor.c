/*
 * t_tensor.c - tensors, views and handles: create/read/write round trips
 * (dense and strided), views that keep their storage alive, every handle
 * check (NULL, destroyed, another context), shape and size limits, empty
 * tensors, and CSR validation at creation.
 */
#include "tap.h"

#include <gpuk.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gpuk_context *ctx;

static int says(const char *word)
{
    return strstr(gpuk_context_error(ctx), word) != NULL;
}

#define EXPECT(call, want, word, ...)                                                   \
    do {                                                                                \
        gpuk_status st_ = (call);                                                       \
        tap_ok(st_ == (want) && says(word), __VA_ARGS__);                               \
        if (st_ != (want) || !says(word))                                               \
            tap_diag("got %s: %s (want %s, naming '%s')", gpuk_strerror(st_),           \
                     gpuk_context_error(ctx), gpuk_strerror(want), word);               \
    } while (0)

static void test_roundtrip(void)
{
    int64_t shape[3] = { 3, 4, 5 };
    gpuk_tensor *t = NULL;
    float in[60], out[60];
    for (int i = 0; i < 60; i++)
        in[i] = (float)i * 1.25f - 7.0f;
    tap_ok(gpuk_tensor_create(ctx, GPUK_F32, 3, shape, &t) == GPUK_OK && t, "create 3x4x5 f32");
    tap_ok(gpuk_tensor_write(ctx, t, in, sizeof in) == GPUK_OK, "write 240 bytes");
    memset(out, 0, sizeof out);
    tap_ok(gpuk_tensor_read(ctx, t, out, sizeof out) == GPUK_OK && !memcmp(in, out, sizeof in),
           "read gives back what was written");
    gpuk_tensor_info info;
    tap_ok(gpuk_tensor_get_info(ctx, t, &info) == GPUK_OK && info.ndim == 3 && info.numel == 60 &&
               info.bytes == 240 && info.contiguous && info.strides[0] == 20 &&
               info.strides[1] == 5 && info.strides[2] == 1 && info.dtype == GPUK_F32,
           "info: shape, strides, bytes, contiguous");

    /* a strided view: every other column of rows 1..2 of the middle slab */
    int64_t vs[2] = { 2, 3 }, vst[2] = { 5, 2 };
    gpuk_tensor *v = NULL;
    tap_ok(gpuk_tensor_view(ctx, t, 2, vs, vst, 20 + 5, &v) == GPUK_OK, "strided view");
    float vin[6], vout[6] = { 0 };
    tap_ok(gpuk_tensor_read(ctx, v, vout, sizeof vout) == GPUK_OK, "read the strided view");
    int good = 1;
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 3; c++)
            good &= vout[r * 3 + c] == in[25 + r * 5 + c * 2];
    tap_ok(good, "strided read picks the right elements");
    for (int i = 0; i < 6; i++)
        vin[i] = 100.0f + (float)i;
    tap_ok(gpuk_tensor_write(ctx, v, vin, sizeof vin) == GPUK_OK, "write the strided view");
    gpuk_tensor_read(ctx, t, out, sizeof out);
    good = 1;
    for (int i = 0; i < 60; i++) {
        int rel = i - 25, r = rel / 5, c = rel % 5;
        int inview = rel >= 0 && r < 2 && c % 2 == 0 && c / 2 < 3;
        good &= out[i] == (inview ? vin[r * 3 + c / 2] : in[i]);
    }
    tap_ok(good, "strided write touches exactly the view's elements");
    tap_ok(gpuk_tensor_get_info(ctx, v, &info) == GPUK_OK && !info.contiguous && info.offset == 25,
           "view info: not contiguous, offset 25");

    /* the storage outlives its base */
    tap_ok(gpuk_tensor_destroy(ctx, t) == GPUK_OK, "destroy the base while a view lives");
    tap_ok(gpuk_tensor_read(ctx, v, vout, sizeof vout) == GPUK_OK && vout[5] == vin[5],
           "the view still reads its data");
    EXPECT(gpuk_tensor_read(ctx, t, out, sizeof out), GPUK_ERR_HANDLE, "not live",
           "reading a destroyed tensor: GPUK_ERR_HANDLE");
    EXPECT(gpuk_tensor_destroy(ctx, t), GPUK_ERR_HANDLE, "not live",
           "destroying twice: GPUK_ERR_HANDLE");
    tap_ok(gpuk_tensor_destroy(ctx, v) == GPUK_OK, "destroy the view");
    tap_ok(gpuk_tensor_destroy(ctx, NULL) == GPUK_OK, "destroying NULL is a no-op");

    /* i32 and a transposed (inner stride != 1) view */
    int64_t s2[2] = { 2, 3 };
    int32_t iv[6] = { 1, -2, 3, -4, 5, -6 }, iout[6];
    gpuk_tensor *it, *tv;
    gpuk_tensor_create(ctx, GPUK_I32, 2, s2, &it);
    gpuk_tensor_write(ctx, it, iv, sizeof iv);
    int64_t ts[2] = { 3, 2 }, tst[2] = { 1, 3 };
    tap_ok(gpuk_tensor_view(ctx, it, 2, ts, tst, 0, &tv) == GPUK_OK, "a transposed view of i32");
    gpuk_tensor_read(ctx, tv, iout, sizeof iout);
    tap_ok(iout[0] == 1 && iout[1] == -4 && iout[2] == -2 && iout[5] == -6,
           "transposed read: element by element");
    gpuk_tensor_destroy(ctx, tv);
    gpuk_tensor_destroy(ctx, it);
}

static void test_errors(void)
{
    gpuk_tensor *t = NULL;
    int64_t good[2] = { 4, 4 }, neg[2] = { 4, -1 }, huge[4] = { 1LL << 31, 1LL << 31, 1LL << 31, 4 };
    EXPECT(gpuk_tensor_create(ctx, GPUK_F32, 2, neg, &t), GPUK_ERR_SHAPE, "shape[1]",
           "a negative dimension: GPUK_ERR_SHAPE naming shape[1]");
    EXPECT(gpuk_tensor_create(ctx, GPUK_F32, 0, good, &t), GPUK_ERR_SHAPE, "ndim",
           "ndim 0: GPUK_ERR_SHAPE");
    EXPECT(gpuk_tensor_create(ctx, GPUK_F32, 5, good, &t), GPUK_ERR_SHAPE, "ndim",
           "ndim 5: GPUK_ERR_SHAPE");
    EXPECT(gpuk_tensor_create(ctx, (gpuk_dtype)9, 2, good, &t), GPUK_ERR_DTYPE, "dtype",
           "an unknown dtype: GPUK_ERR_DTYPE");
    EXPECT(gpuk_tensor_create(ctx, GPUK_F32, 2, NULL, &t), GPUK_ERR_NULL, "shape",
           "a NULL shape: GPUK_ERR_NULL");
    EXPECT(gpuk_tensor_create(ctx, GPUK_F32, 2, good, NULL), GPUK_ERR_NULL, "out",
           "a NULL out: GPUK_ERR_NULL");
    EXPECT(gpuk_tensor_create(ctx, GPUK_F32, 4, huge, &t), GPUK_ERR_OVERFLOW, "overflows",
           "2^95 elements: GPUK_ERR_OVERFLOW");
    tap_ok(gpuk_tensor_create(NULL, GPUK_F32, 2, good, &t) == GPUK_ERR_NULL,
           "a NULL context: GPUK_ERR_NULL");

    gpuk_tensor_create(ctx, GPUK_F32, 2, good, &t);
    float buf[16] = { 0 };
    EXPECT(gpuk_tensor_write(ctx, t, buf, 60), GPUK_ERR_SIZE, "bytes is 60",
           "writing 60 bytes into 64: GPUK_ERR_SIZE");
    EXPECT(gpuk_tensor_read(ctx, t, NULL, 64), GPUK_ERR_NULL, "dst",
           "reading into NULL: GPUK_ERR_NULL");
    gpuk_tensor *v = NULL;
    int64_t vs[2] = { 4, 4 }, st_out[2] = { 4, 2 }, st_neg[2] = { -1, 1 };
    EXPECT(gpuk_tensor_view(ctx, t, 2, vs, st_out, 0, &v), GPUK_ERR_LAYOUT, "reach element",
           "a view past the storage: GPUK_ERR_LAYOUT");
    EXPECT(gpuk_tensor_view(ctx, t, 2, vs, NULL, 1, &v), GPUK_ERR_LAYOUT, "reach element",
           "a dense view shifted by one: GPUK_ERR_LAYOUT");
    EXPECT(gpuk_tensor_view(ctx, t, 2, vs, st_neg, 12, &v), GPUK_ERR_LAYOUT, "strides[0]",
           "a negative stride: GPUK_ERR_LAYOUT");
    EXPECT(gpuk_tensor_view(ctx, t, 2, vs, NULL, -1, &v), GPUK_ERR_LAYOUT, "offset",
           "a negative offset: GPUK_ERR_LAYOUT");
    int64_t big[2] = { 1LL << 62, 2 }, bigst[2] = { 1LL << 62, 1 };
    EXPECT(gpuk_tensor_view(ctx, t, 2, big, bigst, 0, &v), GPUK_ERR_OVERFLOW, "2^63",
           "a view whose last element overflows: GPUK_ERR_OVERFLOW");

    /* handles of another context, and things that are not handles */
    gpuk_context *other = NULL;
    gpuk_context_open(&other, "cpu");
    if (other) {
        gpuk_status st = gpuk_tensor_read(other, t, buf, 64);
        tap_ok(st == GPUK_ERR_CONTEXT &&
                   strstr(gpuk_context_error(other), "not made by this context"),
               "a tensor used with another context: GPUK_ERR_CONTEXT, in that context's message");
        gpuk_tensor *o = NULL;
        gpuk_tensor_create(other, GPUK_F32, 2, good, &o);
        gpuk_tensor *c = NULL;
        gpuk_tensor_create(ctx, GPUK_F32, 2, good, &c);
        EXPECT(gpuk_copy(ctx, o, c, NULL), GPUK_ERR_CONTEXT, "x:",
               "an op mixing contexts names the foreign argument");
        gpuk_tensor_destroy(ctx, c);
        gpuk_context_close(other);   /* frees o too */
    }
    float junk_storage[8];
    EXPECT(gpuk_tensor_read(ctx, (gpuk_tensor *)junk_storage, buf, 64), GPUK_ERR_CONTEXT,
           "not made by this context", "a stack address as a handle: rejected, not dereferenced");
    gpuk_tensor_destroy(ctx, t);
}

static void test_empty(void)
{
    int64_t s[2] = { 0, 5 };
    gpuk_tensor *e = NULL, *v = NULL;
    tap_ok(gpuk_tensor_create(ctx, GPUK_F32, 2, s, &e) == GPUK_OK, "a 0x5 tensor can be made");
    tap_ok(gpuk_tensor_write(ctx, e, NULL, 0) == GPUK_OK, "writing 0 bytes to it succeeds");
    tap_ok(gpuk_tensor_read(ctx, e, NULL, 0) == GPUK_OK, "reading 0 bytes succeeds");
    gpuk_tensor_info info;
    gpuk_tensor_get_info(ctx, e, &info);
    tap_ok(info.numel == 0 && info.bytes == 0, "it has no elements");
    int64_t vs[1] = { 0 };
    tap_ok(gpuk_tensor_view(ctx, e, 1, vs, NULL, 0, &v) == GPUK_OK, "an empty view of it");
    gpuk_tensor *out = NULL;
    gpuk_tensor_create(ctx, GPUK_F32, 2, s, &out);
    tap_ok(gpuk_relu(ctx, e, out, NULL) == GPUK_OK, "an op on empty tensors does nothing");
    gpuk_tensor_destroy(ctx, out);
    gpuk_tensor_destroy(ctx, v);
    gpuk_tensor_destroy(ctx, e);
}

static void test_csr(void)
{
    /* 3x4:  [1 0 2 0; 0 0 0 0; 0 3 0 4] */
    int32_t rp[4] = { 0, 2, 2, 4 }, ci[4] = { 0, 2, 1, 3 };
    float val[4] = { 1, 2, 3, 4 };
    gpuk_csr *m = NULL;
    tap_ok(gpuk_csr_create(ctx, 3, 4, 4, rp, ci, val, &m) == GPUK_OK && m, "a valid 3x4 CSR");
    int64_t n4 = 4, n3 = 3;
    gpuk_tensor *x, *y;
    gpuk_tensor_create(ctx, GPUK_F32, 1, &n4, &x);
    gpuk_tensor_create(ctx, GPUK_F32, 1, &n3, &y);
    float xv[4] = { 1, 10, 100, 1000 }, yv[3];
    gpuk_tensor_write(ctx, x, xv, sizeof xv);
    tap_ok(gpuk_spmv(ctx, m, x, y, NULL) == GPUK_OK, "spmv on it");
    gpuk_tensor_read(ctx, y, yv, sizeof yv);
    tap_ok(yv[0] == 201 && yv[1] == 0 && yv[2] == 4030, "y = [201, 0, 4030] (%g %g %g)", yv[0],
           yv[1], yv[2]);
    tap_ok(gpuk_csr_destroy(ctx, m) == GPUK_OK, "destroy it");
    EXPECT(gpuk_spmv(ctx, m, x, y, NULL), GPUK_ERR_HANDLE, "a:", "spmv on a destroyed CSR");

    int32_t dec[4] = { 0, 2, 1, 4 }, first[4] = { 1, 2, 2, 4 }, short_[4] = { 0, 2, 2, 3 };
    int32_t badcol[4] = { 0, 2, 4, 3 }, negcol[4] = { 0, -1, 1, 3 };
    EXPECT(gpuk_csr_create(ctx, 3, 4, 4, dec, ci, val, &m), GPUK_ERR_SPARSE, "row_ptr[2]",
           "decreasing row pointers: GPUK_ERR_SPARSE naming row_ptr[2]");
    EXPECT(gpuk_csr_create(ctx, 3, 4, 4, first, ci, val, &m), GPUK_ERR_SPARSE, "row_ptr[0]",
           "row_ptr[0] != 0: GPUK_ERR_SPARSE");
    EXPECT(gpuk_csr_create(ctx, 3, 4, 4, short_, ci, val, &m), GPUK_ERR_SPARSE, "nnz",
           "row_ptr[rows] != nnz: GPUK_ERR_SPARSE");
    EXPECT(gpuk_csr_create(ctx, 3, 4, 4, rp, badcol, val, &m), GPUK_ERR_SPARSE, "col_idx[2]",
           "a column index == cols: GPUK_ERR_SPARSE naming col_idx[2]");
    EXPECT(gpuk_csr_create(ctx, 3, 4, 4, rp, negcol, val, &m), GPUK_ERR_SPARSE, "col_idx[1]",
           "a negative column index: GPUK_ERR_SPARSE");
    EXPECT(gpuk_csr_create(ctx, 3, 4, 4, NULL, ci, val, &m), GPUK_ERR_NULL, "row_ptr",
           "NULL row_ptr: GPUK_ERR_NULL");
    EXPECT(gpuk_csr_create(ctx, 3, 4, 4, rp, NULL, val, &m), GPUK_ERR_NULL, "col_idx",
           "NULL col_idx with nnz > 0: GPUK_ERR_NULL");
    EXPECT(gpuk_csr_create(ctx, -3, 4, 4, rp, ci, val, &m), GPUK_ERR_SHAPE, "negative",
           "negative rows: GPUK_ERR_SHAPE");
    EXPECT(gpuk_csr_create(ctx, 3, 1LL << 33, 4, rp, ci, val, &m), GPUK_ERR_OVERFLOW, "32-bit",
           "cols beyond int32: GPUK_ERR_OVERFLOW");
    int32_t dup[4] = { 2, 2, 1, 3 }, unsorted[4] = { 2, 0, 3, 1 };
    EXPECT(gpuk_csr_create(ctx, 3, 4, 4, rp, dup, val, &m), GPUK_ERR_SPARSE, "col_idx[1]",
           "a column twice in one row: GPUK_ERR_SPARSE naming col_idx[1]");
    tap_ok(gpuk_csr_create(ctx, 3, 4, 4, rp, unsorted, val, &m) == GPUK_OK,
           "columns out of order within a row are accepted");
    gpuk_csr_destroy(ctx, m);
    int32_t empty_rp[4] = { 0, 0, 0, 0 };
    tap_ok(gpuk_csr_create(ctx, 3, 4, 0, empty_rp, NULL, NULL, &m) == GPUK_OK,
           "an all-zero CSR (nnz 0, NULL arrays) is valid");
    tap_ok(gpuk_spmv(ctx, m, x, y, NULL) == GPUK_OK, "spmv on it");
    gpuk_tensor_read(ctx, y, yv, sizeof yv);
    tap_ok(yv[0] == 0 && yv[1] == 0 && yv[2] == 0, "gives zeros");
    gpuk_csr_destroy(ctx, m);
    gpuk_tensor_destroy(ctx, x);
    gpuk_tensor_destroy(ctx, y);
}

int main(void)
{
    if (!getenv("GPUK_BACKEND_PATH"))
        return tap_skip_all("run through make check: GPUK_BACKEND_PATH is not set");
    gpuk_status st = gpuk_context_open(&ctx, "cpu");
    if (!tap_ok(st == GPUK_OK, "the cpu backend opens (%s)", gpuk_strerror(st)))
        return tap_done();
    test_roundtrip();
    test_errors();
    test_empty();
    test_csr();
    gpuk_context_close(ctx);
    return tap_done();
}

/*
 * t_badinput - the bad-input catalogue, part 1: every public function of
 * gpuk.h that is not an op (status and names, contexts and options, load
 * reports, variants, timers, peaks, tensors, views, host transfers, CSR
 * matrices).  Part 2, the ops, is t_badops; the semantics of empty tensors
 * and of NaN/inf are t_empty.
 *
 * Each REL_EXPECT is one case: the exact status, and a message that names
 * the argument at fault (gpuk(7) and gpuk-validation(7) list them).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpuk.h>

#include "t_rel.h"
#include "tap.h"

static gpuk_context *ctx, *other;

/* A handle token no context ever made (the top bits name no context). */
#define BOGUS_TENSOR ((gpuk_tensor *)(uintptr_t)0xFFFFFF0000000001ull)

static void names_and_codes(void)
{
    const char *v = gpuk_version();
    tap_ok(v && v[0], "gpuk_version() is a non-empty string");

    int distinct = 1, last = 0;
#define LAST_(name, value, text) last = value > last ? value : last;
    GPUK_STATUS_MAP(LAST_)
#undef LAST_
    for (int s = GPUK_OK; s <= last; s++) {
        const char *t = gpuk_strerror((gpuk_status)s);
        if (!t || !t[0] || strcmp(t, "unknown status code") == 0)
            distinct = 0;
    }
    tap_ok(distinct, "gpuk_strerror has a text for every status 0..%d", last);
    const int bad[] = { -1, last + 1, 1000000 };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *t = gpuk_strerror((gpuk_status)bad[i]);
        tap_ok(t && strcmp(t, "unknown status code") == 0, "gpuk_strerror(%d) is \"unknown "
               "status code\", not NULL", bad[i]);
    }

    tap_ok(gpuk_dtype_size((gpuk_dtype)0) == 0, "gpuk_dtype_size(0) == 0");
    tap_ok(gpuk_dtype_size((gpuk_dtype)31) == 0, "gpuk_dtype_size(31) == 0");
    tap_ok(strcmp(gpuk_dtype_name((gpuk_dtype)-7), "?") == 0, "gpuk_dtype_name(-7) is \"?\"");

    tap_ok(gpuk_op_name((gpuk_op)0) == NULL, "gpuk_op_name(0) is NULL");
    tap_ok(gpuk_op_name((gpuk_op)(GPUK_OP_LAST + 1)) == NULL, "gpuk_op_name(LAST + 1) is NULL");
    tap_ok(gpuk_op_name((gpuk_op)-3) == NULL, "gpuk_op_name(-3) is NULL");

    gpuk_op op = GPUK_OP_COPY;
    REL_EXPECT(NULL, gpuk_op_from_name(NULL, &op), GPUK_ERR_NULL, NULL);
    REL_EXPECT(NULL, gpuk_op_from_name("matmul", NULL), GPUK_ERR_NULL, NULL);
    REL_EXPECT(NULL, gpuk_op_from_name("MATMUL", &op), GPUK_ERR_INVALID, NULL);
    REL_EXPECT(NULL, gpuk_op_from_name("", &op), GPUK_ERR_INVALID, NULL);
    REL_EXPECT(NULL, gpuk_op_from_name("matmul ", &op), GPUK_ERR_INVALID, NULL);
    tap_ok(op == GPUK_OP_COPY, "a failed gpuk_op_from_name leaves *op alone");

    gpuk_options_init(NULL);
    tap_ok(1, "gpuk_options_init(NULL) returns (no crash)");
}

/* open_ex with one bad option: the status, no context, and the reason in
 * the report naming the option. */
static void bad_option(gpuk_options o, gpuk_status want, const char *field, const char *what)
{
    gpuk_context *c = (gpuk_context *)&o;   /* not NULL: must be cleared */
    gpuk_load_report *rep = NULL;
    gpuk_status st = gpuk_context_open_ex(&c, &o, &rep);
    const char *text = gpuk_load_report_text(rep);
    int ok = st == want && c == NULL && (!field || rel_names(text, field));
    tap_ok(ok, "gpuk_context_open_ex with %s -> %s, no context%s%s", what, gpuk_strerror(want),
           field ? ", report names " : "", field ? field : "");
    if (!ok)
        tap_diag("  got %d (%s), ctx %p, report: %s", (int)st, gpuk_strerror(st), (void *)c, text);
    gpuk_load_report_free(rep);
    if (st == GPUK_OK)
        gpuk_context_close(c);
}

static void contexts(void)
{
    gpuk_context *c = (gpuk_context *)&c;
    REL_EXPECT(NULL, gpuk_context_open(NULL, "cpu"), GPUK_ERR_NULL, NULL);
    REL_EXPECT(NULL, gpuk_context_open(&c, ""), GPUK_ERR_INVALID, NULL);
    tap_ok(c == NULL, "a failed gpuk_context_open sets *ctx to NULL");
    REL_EXPECT(NULL, gpuk_context_open(&c, "Cpu!"), GPUK_ERR_BACKEND_NOT_FOUND, NULL);

    gpuk_load_report *rep = (gpuk_load_report *)&rep;
    gpuk_options o;
    gpuk_options_init(&o);
    o.backend = "cpu";
    REL_EXPECT(NULL, gpuk_context_open_ex(NULL, &o, &rep), GPUK_ERR_NULL, NULL);
    tap_ok(rep == NULL, "gpuk_context_open_ex(NULL ctx) still sets *report to NULL");

    gpuk_options b = o;
    b.size = 0;
    bad_option(b, GPUK_ERR_INVALID, NULL, "opts->size = 0 (not initialised)");
    b.size = sizeof o + 8;
    bad_option(b, GPUK_ERR_INVALID, NULL, "opts->size too large");
    b = o;
    b.backend = "";
    bad_option(b, GPUK_ERR_INVALID, "opts->backend", "backend \"\"");
    b = o;
    b.device = -2;
    bad_option(b, GPUK_ERR_INVALID, "opts->device", "device -2");
    b = o;
    b.device = 5;
    bad_option(b, GPUK_ERR_NO_DEVICE, "device", "device 5 on the cpu backend");
    b = o;
    b.num_threads = -1;
    bad_option(b, GPUK_ERR_INVALID, "opts->num_threads", "num_threads -1");
    b = o;
    b.check = 2;
    bad_option(b, GPUK_ERR_INVALID, "opts->check", "check 2");
    b = o;
    b.verbose = 3;
    bad_option(b, GPUK_ERR_INVALID, "opts->verbose", "verbose 3");
    b = o;
    b.verbose = -2;
    bad_option(b, GPUK_ERR_INVALID, "opts->verbose", "verbose -2");

    gpuk_context_close(NULL);
    tap_ok(1, "gpuk_context_close(NULL) returns (no crash)");
    const char *e = gpuk_context_error(NULL);
    tap_ok(e && e[0], "gpuk_context_error(NULL) is a message, not NULL");
    tap_ok(gpuk_context_load_report(NULL) == NULL, "gpuk_context_load_report(NULL) is NULL");

    gpuk_info info;
    REL_EXPECT(NULL, gpuk_context_info(NULL, &info), GPUK_ERR_NULL, NULL);
    REL_EXPECT(ctx, gpuk_context_info(ctx, NULL), GPUK_ERR_NULL, "info");
    REL_EXPECT(NULL, gpuk_sync(NULL), GPUK_ERR_NULL, NULL);

    tap_ok(gpuk_load_report_count(NULL) == 0, "gpuk_load_report_count(NULL) == 0");
    tap_ok(gpuk_load_report_get(NULL, 0) == NULL, "gpuk_load_report_get(NULL, 0) is NULL");
    const gpuk_load_report *r = gpuk_context_load_report(ctx);
    size_t n = gpuk_load_report_count(r);
    tap_ok(n > 0 && gpuk_load_report_get(r, n) == NULL && gpuk_load_report_get(r, SIZE_MAX) == NULL,
           "gpuk_load_report_get past the end (count %zu, SIZE_MAX) is NULL", n);
    const char *t = gpuk_load_report_text(NULL);
    tap_ok(t && !t[0], "gpuk_load_report_text(NULL) is \"\"");
    gpuk_load_report_free(NULL);
    tap_ok(1, "gpuk_load_report_free(NULL) returns (no crash)");
}

static void variants_timers_peaks(void)
{
    size_t count = 0;
    gpuk_variant_info vi;
    REL_EXPECT(NULL, gpuk_variant_count(NULL, GPUK_OP_MATMUL, &count), GPUK_ERR_NULL, NULL);
    REL_EXPECT(ctx, gpuk_variant_count(ctx, GPUK_OP_MATMUL, NULL), GPUK_ERR_NULL, "count");
    REL_EXPECT(ctx, gpuk_variant_count(ctx, (gpuk_op)0, &count), GPUK_ERR_INVALID, "op");
    REL_EXPECT(ctx, gpuk_variant_count(ctx, (gpuk_op)(GPUK_OP_LAST + 1), &count),
               GPUK_ERR_INVALID, "op");
    REL_EXPECT(NULL, gpuk_variant_get(NULL, GPUK_OP_MATMUL, 0, &vi), GPUK_ERR_NULL, NULL);
    REL_EXPECT(ctx, gpuk_variant_get(ctx, GPUK_OP_MATMUL, 0, NULL), GPUK_ERR_NULL, "info");
    REL_EXPECT(ctx, gpuk_variant_get(ctx, (gpuk_op)-1, 0, &vi), GPUK_ERR_INVALID, "op");
    gpuk_variant_count(ctx, GPUK_OP_MATMUL, &count);
    REL_EXPECT(ctx, gpuk_variant_get(ctx, GPUK_OP_MATMUL, count, &vi), GPUK_ERR_INVALID, "index");
    REL_EXPECT(ctx, gpuk_variant_get(ctx, GPUK_OP_MATMUL, SIZE_MAX, &vi), GPUK_ERR_INVALID,
               "index");

    double ms = -1;
    REL_EXPECT(NULL, gpuk_timer_start(NULL), GPUK_ERR_NULL, NULL);
    REL_EXPECT(NULL, gpuk_timer_stop(NULL, &ms), GPUK_ERR_NULL, NULL);
    REL_EXPECT(ctx, gpuk_timer_stop(ctx, NULL), GPUK_ERR_NULL, "ms");
    REL_EXPECT(ctx, gpuk_timer_stop(ctx, &ms), GPUK_ERR_INVALID, "gpuk_timer_start");
    REL_EXPECT(ctx, gpuk_timer_start(ctx), GPUK_OK, NULL);
    REL_EXPECT(ctx, gpuk_timer_stop(ctx, &ms), GPUK_OK, NULL);

    double val;
    REL_EXPECT(NULL, gpuk_peak_measure(NULL, GPUK_PEAK_COPY_GBS, &val), GPUK_ERR_NULL, NULL);
    REL_EXPECT(ctx, gpuk_peak_measure(ctx, GPUK_PEAK_COPY_GBS, NULL), GPUK_ERR_NULL, "value");
    REL_EXPECT(ctx, gpuk_peak_measure(ctx, (gpuk_peak)0, &val), GPUK_ERR_INVALID, "kind");
    /* far past the last kind, so a kind appended to gpuk_peak does not turn
     * this into a valid call */
    REL_EXPECT(ctx, gpuk_peak_measure(ctx, (gpuk_peak)1000, &val), GPUK_ERR_INVALID, "kind");
    REL_EXPECT(ctx, gpuk_peak_measure(ctx, (gpuk_peak)-1, &val), GPUK_ERR_INVALID, "kind");
    /* the cpu backend has no 16-bit rung, so no ceiling for one; the
     * message names the kind it lacks */
    REL_EXPECT(ctx, gpuk_peak_measure(ctx, GPUK_PEAK_ADDMIN_I16X2_GOPS, &val),
               GPUK_ERR_UNSUPPORTED, "7");
}

static void tensor_create(void)
{
    gpuk_tensor *t = BOGUS_TENSOR;
    const int64_t s34[] = { 3, 4 };
    REL_EXPECT(NULL, gpuk_tensor_create(NULL, GPUK_F32, 2, s34, &t), GPUK_ERR_NULL, NULL);
    REL_EXPECT(ctx, gpuk_tensor_create(ctx, GPUK_F32, 2, s34, NULL), GPUK_ERR_NULL, "out");
    REL_EXPECT(ctx, gpuk_tensor_create(ctx, (gpuk_dtype)0, 2, s34, &t), GPUK_ERR_DTYPE, "dtype");
    tap_ok(t == NULL, "a failed gpuk_tensor_create sets *out to NULL");
    REL_EXPECT(ctx, gpuk_tensor_create(ctx, (gpuk_dtype)31, 2, s34, &t), GPUK_ERR_DTYPE, "dtype");
    REL_EXPECT(ctx, gpuk_tensor_create(ctx, GPUK_F32, 0, s34, &t), GPUK_ERR_SHAPE, "ndim");
    REL_EXPECT(ctx, gpuk_tensor_create(ctx, GPUK_F32, 5, REL_SHAPE(1, 1, 1, 1, 1), &t),
               GPUK_ERR_SHAPE, "ndim");
    REL_EXPECT(ctx, gpuk_tensor_create(ctx, GPUK_F32, -1, s34, &t), GPUK_ERR_SHAPE, "ndim");
    REL_EXPECT(ctx, gpuk_tensor_create(ctx, GPUK_F32, 2, NULL, &t), GPUK_ERR_NULL, "shape");
    REL_EXPECT(ctx, gpuk_tensor_create(ctx, GPUK_F32, 2, REL_SHAPE(3, -1), &t), GPUK_ERR_SHAPE,
               "shape");
    REL_EXPECT(ctx, gpuk_tensor_create(ctx, GPUK_I32, 1, REL_SHAPE(INT64_MIN), &t),
               GPUK_ERR_SHAPE, "shape");
    /* element count overflows int64 */
    REL_EXPECT(ctx, gpuk_tensor_create(ctx, GPUK_F32, 2, REL_SHAPE(1LL << 32, 1LL << 32), &t),
               GPUK_ERR_OVERFLOW, "shape");
    REL_EXPECT(ctx, gpuk_tensor_create(ctx, GPUK_F32, 2, REL_SHAPE(INT64_MAX, 2), &t),
               GPUK_ERR_OVERFLOW, "shape");
    /* the count fits, the byte size does not */
    REL_EXPECT(ctx, gpuk_tensor_create(ctx, GPUK_F32, 1, REL_SHAPE(1LL << 62), &t),
               GPUK_ERR_OVERFLOW, "shape");
    REL_EXPECT(ctx, gpuk_tensor_create(ctx, GPUK_I32, 3, REL_SHAPE(1LL << 30, 1LL << 30, 4), &t),
               GPUK_ERR_OVERFLOW, "shape");
    /* one dimension 0 does not excuse the others: their product still
     * has to fit, or every later size computation could overflow */
    REL_EXPECT(ctx, gpuk_tensor_create(ctx, GPUK_F32, 3, REL_SHAPE(0, 1LL << 40, 1LL << 40), &t),
               GPUK_ERR_OVERFLOW, "shape");
    REL_EXPECT(ctx, gpuk_tensor_create(ctx, GPUK_F32, 4, REL_SHAPE(1LL << 40, 1LL << 40, 0, 1),
                                       &t), GPUK_ERR_OVERFLOW, "shape");

    /* empty tensors are fine */
    const int64_t empties[][4] = { { 0 }, { 3, 0 }, { 0, 0, 0, 0 }, { 0, 1LL << 40 } };
    const int nd[] = { 1, 2, 4, 2 };
    for (int i = 0; i < 4; i++) {
        gpuk_tensor_info info;
        gpuk_status st = gpuk_tensor_create(ctx, GPUK_F32, nd[i], empties[i], &t);
        int ok = st == GPUK_OK && gpuk_tensor_get_info(ctx, t, &info) == GPUK_OK &&
                 info.numel == 0 && info.bytes == 0;
        tap_ok(ok, "an empty %d-D tensor (a dimension 0) is created, numel 0, bytes 0", nd[i]);
        gpuk_tensor_destroy(ctx, t);
    }
}

static void tensor_view(void)
{
    gpuk_tensor *base = TF(ctx, 3, 4), *v = BOGUS_TENSOR;
    gpuk_tensor *dead = TF(ctx, 2), *foreign = TF(other, 3, 4);
    gpuk_tensor_destroy(ctx, dead);
    const int64_t s[] = { 2, 2 }, st[] = { 4, 1 };

    REL_EXPECT(NULL, gpuk_tensor_view(NULL, base, 2, s, st, 0, &v), GPUK_ERR_NULL, NULL);
    REL_EXPECT(ctx, gpuk_tensor_view(ctx, base, 2, s, st, 0, NULL), GPUK_ERR_NULL, "out");
    REL_EXPECT(ctx, gpuk_tensor_view(ctx, NULL, 2, s, st, 0, &v), GPUK_ERR_NULL, "base");
    tap_ok(v == NULL, "a failed gpuk_tensor_view sets *out to NULL");
    REL_EXPECT(ctx, gpuk_tensor_view(ctx, dead, 2, s, st, 0, &v), GPUK_ERR_HANDLE, "base");
    REL_EXPECT(ctx, gpuk_tensor_view(ctx, foreign, 2, s, st, 0, &v), GPUK_ERR_CONTEXT, "base");
    REL_EXPECT(ctx, gpuk_tensor_view(ctx, BOGUS_TENSOR, 2, s, st, 0, &v), GPUK_ERR_CONTEXT, "base");
    REL_EXPECT(ctx, gpuk_tensor_view(ctx, base, 0, s, st, 0, &v), GPUK_ERR_SHAPE, "ndim");
    REL_EXPECT(ctx, gpuk_tensor_view(ctx, base, 5, REL_SHAPE(1, 1, 1, 1, 1), NULL, 0, &v),
               GPUK_ERR_SHAPE, "ndim");
    REL_EXPECT(ctx, gpuk_tensor_view(ctx, base, 2, NULL, st, 0, &v), GPUK_ERR_NULL, "shape");
    REL_EXPECT(ctx, gpuk_tensor_view(ctx, base, 2, REL_SHAPE(-3, 2), st, 0, &v), GPUK_ERR_SHAPE,
               "shape");
    REL_EXPECT(ctx, gpuk_tensor_view(ctx, base, 2, s, REL_SHAPE(4, -1), 0, &v), GPUK_ERR_LAYOUT,
               "strides");
    REL_EXPECT(ctx, gpuk_tensor_view(ctx, base, 2, s, st, -1, &v), GPUK_ERR_LAYOUT, "offset");
    /* reaches one element past the storage: [2,2] at offset 6, stride 4 -> 6+4+1 = 11 ok, 7 -> 12 */
    REL_EXPECT(ctx, gpuk_tensor_view(ctx, base, 2, s, st, 6, &v), GPUK_OK, NULL);
    gpuk_tensor_destroy(ctx, v);
    REL_EXPECT(ctx, gpuk_tensor_view(ctx, base, 2, s, st, 7, &v), GPUK_ERR_LAYOUT, "offset");
    REL_EXPECT(ctx, gpuk_tensor_view(ctx, base, 1, REL_SHAPE(13), NULL, 0, &v), GPUK_ERR_LAYOUT,
               "shape");
    REL_EXPECT(ctx, gpuk_tensor_view(ctx, base, 2, REL_SHAPE(3, 4), REL_SHAPE(5, 1), 0, &v),
               GPUK_ERR_LAYOUT, "strides");
    /* offset + reach overflows int64 */
    REL_EXPECT(ctx, gpuk_tensor_view(ctx, base, 1, REL_SHAPE(3), REL_SHAPE(INT64_MAX / 2), 0, &v),
               GPUK_ERR_LAYOUT, "strides");
    REL_EXPECT(ctx, gpuk_tensor_view(ctx, base, 1, REL_SHAPE(3), REL_SHAPE(INT64_MAX / 2 + 1), 0,
                                     &v), GPUK_ERR_OVERFLOW, "strides");
    /* an empty view's nonempty dimensions must not overflow either */
    REL_EXPECT(ctx, gpuk_tensor_view(ctx, base, 2, REL_SHAPE(3, 0), REL_SHAPE(INT64_MAX, 1), 0,
                                     &v), GPUK_ERR_OVERFLOW, "strides");
    REL_EXPECT(ctx, gpuk_tensor_view(ctx, base, 2, REL_SHAPE(2, 2), REL_SHAPE(1, INT64_MAX), 1,
                                     &v), GPUK_ERR_OVERFLOW, "strides");
    REL_EXPECT(ctx, gpuk_tensor_view(ctx, base, 1, REL_SHAPE(2), REL_SHAPE(1), INT64_MAX, &v),
               GPUK_ERR_OVERFLOW, "offset");
    REL_EXPECT(ctx, gpuk_tensor_view(ctx, base, 2, REL_SHAPE(1LL << 32, 1LL << 32), NULL, 0, &v),
               GPUK_ERR_OVERFLOW, "shape");
    /* empty views: inside the storage, or one past its end */
    REL_EXPECT(ctx, gpuk_tensor_view(ctx, base, 1, REL_SHAPE(0), NULL, 12, &v), GPUK_OK, NULL);
    gpuk_tensor_destroy(ctx, v);
    REL_EXPECT(ctx, gpuk_tensor_view(ctx, base, 1, REL_SHAPE(0), NULL, 13, &v), GPUK_ERR_LAYOUT,
               "offset");
    /* a broadcast (stride 0) view is a valid input view */
    REL_EXPECT(ctx, gpuk_tensor_view(ctx, base, 2, REL_SHAPE(5, 4), REL_SHAPE(0, 1), 0, &v),
               GPUK_OK, NULL);
    gpuk_tensor_destroy(ctx, v);

    /* a view keeps the storage alive after its base is destroyed */
    gpuk_tensor *b2 = TF(ctx, 6);
    v = rel_view(ctx, b2, 1, REL_SHAPE(3), REL_SHAPE(2), 1);
    gpuk_tensor_destroy(ctx, b2);
    float got[3] = { 0 };
    gpuk_status rs = gpuk_tensor_read(ctx, v, got, sizeof got);
    tap_ok(rs == GPUK_OK && got[0] == 1.5f && got[1] == 2.5f && got[2] == 3.5f,
           "a view outlives its destroyed base and reads the right elements");
    gpuk_tensor_destroy(ctx, v);
    gpuk_tensor_destroy(ctx, base);
    gpuk_tensor_destroy(other, foreign);
}

static void tensor_lifetime_io(void)
{
    gpuk_tensor *t = TF(ctx, 2, 3), *dead = TF(ctx, 4), *foreign = TF(other, 2);
    gpuk_tensor_destroy(ctx, dead);
    float buf[6];
    gpuk_tensor_info info;

    REL_EXPECT(NULL, gpuk_tensor_destroy(NULL, t), GPUK_ERR_NULL, NULL);
    REL_EXPECT(ctx, gpuk_tensor_destroy(ctx, NULL), GPUK_OK, NULL);
    REL_EXPECT(ctx, gpuk_tensor_destroy(ctx, dead), GPUK_ERR_HANDLE, "t");
    REL_EXPECT(ctx, gpuk_tensor_destroy(ctx, foreign), GPUK_ERR_CONTEXT, "t");
    REL_EXPECT(ctx, gpuk_tensor_destroy(ctx, BOGUS_TENSOR), GPUK_ERR_CONTEXT, "t");
    REL_EXPECT(ctx, gpuk_tensor_destroy(ctx, (gpuk_tensor *)(uintptr_t)1), GPUK_ERR_CONTEXT, "t");

    REL_EXPECT(NULL, gpuk_tensor_write(NULL, t, buf, sizeof buf), GPUK_ERR_NULL, NULL);
    REL_EXPECT(ctx, gpuk_tensor_write(ctx, NULL, buf, sizeof buf), GPUK_ERR_NULL, "t");
    REL_EXPECT(ctx, gpuk_tensor_write(ctx, dead, buf, 16), GPUK_ERR_HANDLE, "t");
    REL_EXPECT(ctx, gpuk_tensor_write(ctx, foreign, buf, 8), GPUK_ERR_CONTEXT, "t");
    REL_EXPECT(ctx, gpuk_tensor_write(ctx, t, NULL, sizeof buf), GPUK_ERR_NULL, "src");
    REL_EXPECT(ctx, gpuk_tensor_write(ctx, t, buf, sizeof buf - 4), GPUK_ERR_SIZE, "bytes");
    REL_EXPECT(ctx, gpuk_tensor_write(ctx, t, buf, sizeof buf + 4), GPUK_ERR_SIZE, "bytes");
    REL_EXPECT(ctx, gpuk_tensor_write(ctx, t, buf, SIZE_MAX), GPUK_ERR_SIZE, "bytes");

    REL_EXPECT(NULL, gpuk_tensor_read(NULL, t, buf, sizeof buf), GPUK_ERR_NULL, NULL);
    REL_EXPECT(ctx, gpuk_tensor_read(ctx, NULL, buf, sizeof buf), GPUK_ERR_NULL, "t");
    REL_EXPECT(ctx, gpuk_tensor_read(ctx, dead, buf, 16), GPUK_ERR_HANDLE, "t");
    REL_EXPECT(ctx, gpuk_tensor_read(ctx, foreign, buf, 8), GPUK_ERR_CONTEXT, "t");
    REL_EXPECT(ctx, gpuk_tensor_read(ctx, t, NULL, sizeof buf), GPUK_ERR_NULL, "dst");
    REL_EXPECT(ctx, gpuk_tensor_read(ctx, t, buf, 0), GPUK_ERR_SIZE, "bytes");
    REL_EXPECT(ctx, gpuk_tensor_read(ctx, t, buf, sizeof buf * 2), GPUK_ERR_SIZE, "bytes");

    gpuk_tensor *e = TF(ctx, 0, 5);
    REL_EXPECT(ctx, gpuk_tensor_write(ctx, e, NULL, 0), GPUK_OK, NULL);
    REL_EXPECT(ctx, gpuk_tensor_read(ctx, e, NULL, 0), GPUK_OK, NULL);
    REL_EXPECT(ctx, gpuk_tensor_write(ctx, e, buf, 4), GPUK_ERR_SIZE, "bytes");

    REL_EXPECT(NULL, gpuk_tensor_get_info(NULL, t, &info), GPUK_ERR_NULL, NULL);
    REL_EXPECT(ctx, gpuk_tensor_get_info(ctx, NULL, &info), GPUK_ERR_NULL, "t");
    REL_EXPECT(ctx, gpuk_tensor_get_info(ctx, t, NULL), GPUK_ERR_NULL, "info");
    REL_EXPECT(ctx, gpuk_tensor_get_info(ctx, dead, &info), GPUK_ERR_HANDLE, "t");
    REL_EXPECT(ctx, gpuk_tensor_get_info(ctx, foreign, &info), GPUK_ERR_CONTEXT, "t");

    /* a failed call leaves the tensor as it was */
    float want[6] = { 1, 1.5f, 2, 2.5f, 3, 3.5f };
    tap_ok(gpuk_tensor_read(ctx, t, buf, sizeof buf) == GPUK_OK && memcmp(buf, want, sizeof buf) == 0,
           "the failed writes above changed nothing");

    gpuk_tensor_destroy(ctx, e);
    gpuk_tensor_destroy(ctx, t);
    gpuk_tensor_destroy(other, foreign);
}

static void csr(void)
{
    /* 3x4: row 0 {0:1, 2:2}, row 1 {}, row 2 {3:3} */
    const int32_t rp[] = { 0, 2, 2, 3 }, ci[] = { 0, 2, 3 };
    const float val[] = { 1, 2, 3 };
    gpuk_csr *m = (gpuk_csr *)BOGUS_TENSOR;

    REL_EXPECT(NULL, gpuk_csr_create(NULL, 3, 4, 3, rp, ci, val, &m), GPUK_ERR_NULL, NULL);
    REL_EXPECT(ctx, gpuk_csr_create(ctx, 3, 4, 3, rp, ci, val, NULL), GPUK_ERR_NULL, "out");
    REL_EXPECT(ctx, gpuk_csr_create(ctx, 3, 4, 3, NULL, ci, val, &m), GPUK_ERR_NULL, "row_ptr");
    tap_ok(m == NULL, "a failed gpuk_csr_create sets *out to NULL");
    REL_EXPECT(ctx, gpuk_csr_create(ctx, 3, 4, 3, rp, NULL, val, &m), GPUK_ERR_NULL, "col_idx");
    REL_EXPECT(ctx, gpuk_csr_create(ctx, 3, 4, 3, rp, ci, NULL, &m), GPUK_ERR_NULL, "values");
    REL_EXPECT(ctx, gpuk_csr_create(ctx, -1, 4, 3, rp, ci, val, &m), GPUK_ERR_SHAPE, "rows");
    REL_EXPECT(ctx, gpuk_csr_create(ctx, 3, -4, 3, rp, ci, val, &m), GPUK_ERR_SHAPE, "cols");
    REL_EXPECT(ctx, gpuk_csr_create(ctx, 3, 4, -3, rp, ci, val, &m), GPUK_ERR_SHAPE, "nnz");
    REL_EXPECT(ctx, gpuk_csr_create(ctx, INT32_MAX, 4, 3, rp, ci, val, &m), GPUK_ERR_OVERFLOW,
               "rows");
    REL_EXPECT(ctx, gpuk_csr_create(ctx, 3, INT64_MAX, 3, rp, ci, val, &m), GPUK_ERR_OVERFLOW,
               "cols");
    REL_EXPECT(ctx, gpuk_csr_create(ctx, 3, 4, 1LL << 31, rp, ci, val, &m), GPUK_ERR_OVERFLOW,
               "nnz");
    const int32_t rp0[] = { 1, 2, 2, 3 }, rpdec[] = { 0, 2, 1, 3 }, rpbig[] = { 0, 2, 2, 4 };
    const int32_t rpneg[] = { 0, -1, 2, 3 }, rpjump[] = { 0, 100, 2, 3 };
    REL_EXPECT(ctx, gpuk_csr_create(ctx, 3, 4, 3, rp0, ci, val, &m), GPUK_ERR_SPARSE, "row_ptr");
    REL_EXPECT(ctx, gpuk_csr_create(ctx, 3, 4, 3, rpdec, ci, val, &m), GPUK_ERR_SPARSE, "row_ptr");
    REL_EXPECT(ctx, gpuk_csr_create(ctx, 3, 4, 3, rpneg, ci, val, &m), GPUK_ERR_SPARSE, "row_ptr");
    REL_EXPECT(ctx, gpuk_csr_create(ctx, 3, 4, 3, rpjump, ci, val, &m), GPUK_ERR_SPARSE, "row_ptr");
    REL_EXPECT(ctx, gpuk_csr_create(ctx, 3, 4, 3, rpbig, ci, val, &m), GPUK_ERR_SPARSE, "nnz");
    REL_EXPECT(ctx, gpuk_csr_create(ctx, 3, 4, 2, rp, ci, val, &m), GPUK_ERR_SPARSE, "nnz");
    const int32_t cineg[] = { 0, -1, 3 }, cibig[] = { 0, 2, 4 }, cimin[] = { INT32_MIN, 0, 0 };
    REL_EXPECT(ctx, gpuk_csr_create(ctx, 3, 4, 3, rp, cineg, val, &m), GPUK_ERR_SPARSE, "col_idx");
    REL_EXPECT(ctx, gpuk_csr_create(ctx, 3, 4, 3, rp, cibig, val, &m), GPUK_ERR_SPARSE, "col_idx");
    REL_EXPECT(ctx, gpuk_csr_create(ctx, 3, 4, 3, rp, cimin, val, &m), GPUK_ERR_SPARSE, "col_idx");
    /* nnz > 0 but no rows: row_ptr[0] must be 0 = nnz */
    REL_EXPECT(ctx, gpuk_csr_create(ctx, 0, 4, 3, rp, ci, val, &m), GPUK_ERR_SPARSE, "nnz");
    /* any column index is out of range when there are no columns */
    REL_EXPECT(ctx, gpuk_csr_create(ctx, 3, 0, 3, rp, ci, val, &m), GPUK_ERR_SPARSE, "col_idx");

    /* valid corner cases: no rows, no columns, no entries (NULL arrays then) */
    const int32_t zero1[] = { 0 }, zero3[] = { 0, 0, 0 };
    REL_EXPECT(ctx, gpuk_csr_create(ctx, 0, 0, 0, zero1, NULL, NULL, &m), GPUK_OK, NULL);
    gpuk_csr_destroy(ctx, m);
    REL_EXPECT(ctx, gpuk_csr_create(ctx, 2, 0, 0, zero3, NULL, NULL, &m), GPUK_OK, NULL);
    gpuk_csr_destroy(ctx, m);
    REL_EXPECT(ctx, gpuk_csr_create(ctx, 2, 5, 0, zero3, NULL, NULL, &m), GPUK_OK, NULL);
    gpuk_csr_destroy(ctx, m);

    gpuk_csr *good = NULL, *foreign = NULL;
    gpuk_csr_create(ctx, 3, 4, 3, rp, ci, val, &good);
    gpuk_csr_create(other, 3, 4, 3, rp, ci, val, &foreign);
    REL_EXPECT(NULL, gpuk_csr_destroy(NULL, good), GPUK_ERR_NULL, NULL);
    REL_EXPECT(ctx, gpuk_csr_destroy(ctx, NULL), GPUK_OK, NULL);
    REL_EXPECT(ctx, gpuk_csr_destroy(ctx, foreign), GPUK_ERR_CONTEXT, "m");
    REL_EXPECT(ctx, gpuk_csr_destroy(ctx, good), GPUK_OK, NULL);
    REL_EXPECT(ctx, gpuk_csr_destroy(ctx, good), GPUK_ERR_HANDLE, "m");
    REL_EXPECT(ctx, gpuk_csr_destroy(ctx, (gpuk_csr *)BOGUS_TENSOR), GPUK_ERR_CONTEXT, "m");
    gpuk_csr_destroy(other, foreign);
}

int main(void)
{
    if (gpuk_context_open(&ctx, "cpu") != GPUK_OK || gpuk_context_open(&other, "cpu") != GPUK_OK) {
        tap_ok(0, "opening two cpu contexts: %s", ctx ? gpuk_context_error(ctx) : "failed");
        return tap_done();
    }
    names_and_codes();
    contexts();
    variants_timers_peaks();
    tensor_create();
    tensor_view();
    tensor_lifetime_io();
    csr();
    gpuk_context_close(other);
    gpuk_context_close(ctx);
    return tap_done();
}

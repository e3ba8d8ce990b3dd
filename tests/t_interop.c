/*
 * t_interop.c - the caller's memory: gpuk_host_alloc, gpuk_tensor_wrap and
 * DLPack both ways, on the cpu backend always and on cuda when a GPU is
 * usable (device pointers, page-locked memory, the staging pool with sizes
 * that are not multiples of its slots, GPUK_PINNED=0).
 *
 * Zero copy is checked by address: a wrapped tensor's data is the
 * caller's pointer, and an op's result shows in the caller's buffer
 * without a read.  Each DLPack deleter counts its calls, so "called once,
 * and only when the last view is gone" is a check, not a hope; valgrind
 * (make check-valgrind) sees the memory that is freed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpuk.h>

#include "config.h"
#include "t_rel.h"
#include "tap.h"

#ifdef HAVE_DLPACK_DLPACK_H
#include <dlpack/dlpack.h>

/* A C producer: a DLManagedTensor over its own buffer, with a deleter that
 * counts and frees. */
typedef struct producer {
    DLManagedTensor m;
    int64_t shape[5], strides[5];
    void *buf;
    int *deleted;
} producer;

static void producer_delete(DLManagedTensor *m)
{
    producer *p = m->manager_ctx;
    (*p->deleted)++;
    free(p->buf);
    free(p);
}

/* elems values i - 3.5 of DLPack type (code, bits): float 32 or 64 (in
 * f64 plus 2^-40, which no f32 holds), or zeros of any other type. */
static DLManagedTensor *produce_type(int ndim, const int64_t *shape, const int64_t *strides,
                                     size_t elems, int *deleted, uint8_t code, uint8_t bits)
{
    producer *p = calloc(1, sizeof *p);
    p->buf = calloc(elems ? elems : 1, bits / 8 ? bits / 8 : 1);
    for (size_t i = 0; i < elems && code == kDLFloat; i++) {
        if (bits == 32)
            ((float *)p->buf)[i] = (float)i - 3.5f;
        else if (bits == 64)
            ((double *)p->buf)[i] = (double)i - 3.5 + 0x1p-40;
    }
    p->deleted = deleted;
    memcpy(p->shape, shape, (size_t)ndim * sizeof *shape);
    if (strides)
        memcpy(p->strides, strides, (size_t)ndim * sizeof *strides);
    DLTensor *t = &p->m.dl_tensor;
    t->data = p->buf;
    t->device.device_type = kDLCPU;
    t->ndim = ndim;
    t->dtype.code = code;
    t->dtype.bits = bits;
    t->dtype.lanes = 1;
    t->shape = p->shape;
    t->strides = strides ? p->strides : NULL;
    p->m.manager_ctx = p;
    p->m.deleter = producer_delete;
    return &p->m;
}

static DLManagedTensor *produce(int ndim, const int64_t *shape, const int64_t *strides,
                                size_t elems, int *deleted)
{
    return produce_type(ndim, shape, strides, elems, deleted, kDLFloat, 32);
}
#endif

static void test_host_alloc(gpuk_context *ctx)
{
    void *p = NULL, *q = NULL;
    gpuk_status st = gpuk_host_alloc(ctx, (size_t)3 << 20, &p);
    tap_ok(st == GPUK_OK && p && ((uintptr_t)p & 63) == 0, "gpuk_host_alloc: 3 MiB, 64-byte "
           "aligned (%s)", gpuk_strerror(st));
    if (p) {
        int64_t n = (int64_t)((3 << 20) / 4);
        float *f = p;
        for (int64_t i = 0; i < n; i++)
            f[i] = (float)(i % 977);
        gpuk_tensor *t = rel_tensor(ctx, GPUK_F32, 1, &n, 0, 0);
        st = gpuk_tensor_write(ctx, t, p, (size_t)n * 4);
        memset(p, 0, (size_t)n * 4);
        if (st == GPUK_OK)
            st = gpuk_tensor_read(ctx, t, p, (size_t)n * 4);
        int same = 1;
        for (int64_t i = 0; i < n && same; i++)
            same = f[i] == (float)(i % 977);
        tap_ok(st == GPUK_OK && same, "write from and read into gpuk_host_alloc memory");
        gpuk_tensor_destroy(ctx, t);
    }
    REL_EXPECT(ctx, gpuk_host_free(ctx, p), GPUK_OK, NULL);
    REL_EXPECT(ctx, gpuk_host_free(ctx, p), GPUK_ERR_INVALID, "p");
    int local;
    REL_EXPECT(ctx, gpuk_host_free(ctx, &local), GPUK_ERR_INVALID, "p");
    REL_EXPECT(ctx, gpuk_host_free(ctx, NULL), GPUK_OK, NULL);
    REL_EXPECT(ctx, gpuk_host_alloc(ctx, 0, &q), GPUK_ERR_INVALID, "bytes");
    REL_EXPECT(ctx, gpuk_host_alloc(ctx, 64, NULL), GPUK_ERR_NULL, "p");
    /* left for gpuk_context_close to free (valgrind sees it if not) */
    tap_ok(gpuk_host_alloc(ctx, 4096, &q) == GPUK_OK, "a block left allocated at close");
}

static void test_wrap_host(gpuk_context *ctx)
{
    float buf[3][5];
    for (int i = 0; i < 15; i++)
        buf[i / 5][i % 5] = (float)i - 7.0f;
    int64_t shape[2] = { 3, 5 };
    gpuk_tensor *t = NULL, *c = NULL, *y = NULL;
    gpuk_status st = gpuk_tensor_wrap(ctx, GPUK_F32, 2, shape, NULL, buf, &t);
    gpuk_tensor_info info;
    gpuk_tensor_get_info(ctx, t, &info);
    tap_ok(st == GPUK_OK && info.data == (void *)buf && info.borrowed && info.contiguous,
           "wrap: the tensor's data is the caller's buffer, borrowed (%s)", gpuk_strerror(st));
    st = gpuk_relu(ctx, t, t, NULL);
    int ok = st == GPUK_OK;
    for (int i = 0; i < 15 && ok; i++)
        ok = buf[i / 5][i % 5] == fmaxf((float)i - 7.0f, 0.0f);
    tap_ok(ok, "relu in place on a wrapped buffer shows in the buffer, no read (%s)",
           gpuk_strerror(st));
    /* a strided view: columns 1..2 of every row, stride 5 */
    int64_t cs[2] = { 3, 2 }, cst[2] = { 5, 1 }, ys[2] = { 2, 3 };
    st = gpuk_tensor_wrap(ctx, GPUK_F32, 2, cs, cst, &buf[0][1], &c);
    y = rel_tensor(ctx, GPUK_F32, 2, ys, 0, 0);
    if (st == GPUK_OK)
        st = gpuk_transpose(ctx, c, y, NULL);
    float yv[6] = { 0 };
    gpuk_tensor_read(ctx, y, yv, sizeof yv);
    ok = st == GPUK_OK;
    for (int r = 0; r < 3 && ok; r++)
        for (int k = 0; k < 2 && ok; k++)
            ok = yv[k * 3 + r] == buf[r][1 + k];
    tap_ok(ok, "a strided wrap (stride 5) transposes right (%s)", gpuk_strerror(st));
    gpuk_tensor *v = NULL;
    int64_t vs = 5;
    st = gpuk_tensor_view(ctx, t, 1, &vs, NULL, 10, &v);
    gpuk_tensor_destroy(ctx, t);
    float row[5];
    if (st == GPUK_OK)
        st = gpuk_tensor_read(ctx, v, row, sizeof row);
    tap_ok(st == GPUK_OK && row[0] == buf[2][0] && row[4] == buf[2][4],
           "a view of a wrapped tensor outlives its base and reads row 2");
    gpuk_tensor_destroy(ctx, v);
    gpuk_tensor_destroy(ctx, c);
    gpuk_tensor_destroy(ctx, y);
    buf[1][1] = 42.0f;   /* still the caller's: nothing freed it (valgrind would say) */
    tap_ok(buf[1][1] == 42.0f, "destroying wrapped tensors frees nothing of the caller's");

    gpuk_tensor *bad = NULL;
    int64_t neg[2] = { 5, -1 }, z = 0;
    REL_EXPECT(ctx, gpuk_tensor_wrap(ctx, GPUK_F32, 2, shape, NULL, NULL, &bad), GPUK_ERR_NULL,
               "data");
    REL_EXPECT(ctx, gpuk_tensor_wrap(ctx, GPUK_F32, 2, shape, NULL, (char *)buf + 2, &bad),
               GPUK_ERR_LAYOUT, "data");
    REL_EXPECT(ctx, gpuk_tensor_wrap(ctx, GPUK_F32, 2, shape, neg, buf, &bad), GPUK_ERR_LAYOUT,
               "strides");
    REL_EXPECT(ctx, gpuk_tensor_wrap(ctx, GPUK_F32, 5, shape, NULL, buf, &bad), GPUK_ERR_SHAPE,
               "ndim");
    REL_EXPECT(ctx, gpuk_tensor_wrap(ctx, (gpuk_dtype)9, 2, shape, NULL, buf, &bad),
               GPUK_ERR_DTYPE, "dtype");
    REL_EXPECT(ctx, gpuk_tensor_wrap(ctx, GPUK_F32, 2, shape, NULL, buf, NULL), GPUK_ERR_NULL,
               "out");
    REL_EXPECT(ctx, gpuk_tensor_wrap(ctx, GPUK_F32, 1, &z, NULL, NULL, &bad), GPUK_OK, NULL);
    gpuk_tensor_destroy(ctx, bad);

    /* overlap is judged by address across wraps too: two wraps of one
     * buffer are not two storages as far as aliasing goes */
    float m[64];
    for (int i = 0; i < 64; i++)
        m[i] = (float)i;
    int64_t sq[2] = { 4, 4 };
    gpuk_tensor *p = NULL, *q = NULL, *r = NULL;
    gpuk_tensor_wrap(ctx, GPUK_F32, 2, sq, NULL, m, &p);
    gpuk_tensor_wrap(ctx, GPUK_F32, 2, sq, NULL, m + 8, &q);     /* rows 2..5 of the same buffer */
    gpuk_tensor_wrap(ctx, GPUK_F32, 2, sq, NULL, m + 32, &r);    /* apart */
    REL_EXPECT(ctx, gpuk_matmul(ctx, p, r, NULL, q, NULL), GPUK_ERR_ALIAS, "c");
    REL_EXPECT(ctx, gpuk_matmul(ctx, r, r, NULL, p, NULL), GPUK_OK, NULL);
    gpuk_tensor *same = NULL;
    gpuk_tensor_wrap(ctx, GPUK_F32, 2, sq, NULL, m, &same);      /* p again, another handle */
    REL_EXPECT(ctx, gpuk_relu(ctx, p, same, NULL), GPUK_OK, NULL);
    REL_EXPECT(ctx, gpuk_relu(ctx, q, same, NULL), GPUK_ERR_ALIAS, "out");
    gpuk_tensor_destroy(ctx, p);
    gpuk_tensor_destroy(ctx, q);
    gpuk_tensor_destroy(ctx, r);
    gpuk_tensor_destroy(ctx, same);
}

#ifdef HAVE_DLPACK_DLPACK_H
static void test_dlpack_cpu(gpuk_context *ctx)
{
    int deleted = 0;
    int64_t shape[2] = { 4, 6 };
    DLManagedTensor *dl = produce(2, shape, NULL, 24, &deleted);
    float *data = dl->dl_tensor.data;
    gpuk_tensor *t = NULL, *v = NULL;
    gpuk_status st = gpuk_tensor_from_dlpack(ctx, dl, &t);
    gpuk_tensor_info info;
    gpuk_tensor_get_info(ctx, t, &info);
    tap_ok(st == GPUK_OK && info.data == (void *)data && info.ndim == 2 && info.shape[1] == 6,
           "from_dlpack borrows the producer's buffer (%s)", gpuk_strerror(st));
    st = gpuk_scale(ctx, 2.0f, t, t, NULL);
    tap_ok(st == GPUK_OK && data[0] == -7.0f && data[23] == 39.0f,
           "an op in place shows in the producer's buffer");
    int64_t vs = 6;
    gpuk_tensor_view(ctx, t, 1, &vs, NULL, 6, &v);
    gpuk_tensor_destroy(ctx, t);
    tap_ok(deleted == 0, "the deleter waits while a view is alive");
    gpuk_tensor_destroy(ctx, v);
    tap_ok(deleted == 1, "and runs once when the last view goes (%d)", deleted);

    /* strides given, byte_offset used: a [2,3] window at row 1, column 2 */
    deleted = 0;
    int64_t st2[2] = { 6, 1 }, sh2[2] = { 2, 3 };
    dl = produce(2, sh2, st2, 24, &deleted);
    dl->dl_tensor.byte_offset = (6 + 2) * 4;
    st = gpuk_tensor_from_dlpack(ctx, dl, &t);
    float w[6] = { 0 };
    if (st == GPUK_OK)
        st = gpuk_tensor_read(ctx, t, w, sizeof w);
    tap_ok(st == GPUK_OK && w[0] == 8 - 3.5f && w[3] == 14 - 3.5f,
           "strides and byte_offset select the window (%s)", gpuk_strerror(st));
    gpuk_tensor_destroy(ctx, t);

    /* every bad field: a status, the field named, and the deleter called */
    struct {
        const char *field;
        gpuk_status want;
    } bad[] = { { "device_type", GPUK_ERR_INVALID }, { "lanes", GPUK_ERR_DTYPE },
                { "dtype", GPUK_ERR_DTYPE },         { "ndim", GPUK_ERR_SHAPE },
                { "strides", GPUK_ERR_LAYOUT },      { "byte_offset", GPUK_ERR_LAYOUT },
                { "deleter", GPUK_ERR_INVALID },     { "shape", GPUK_ERR_NULL } };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        deleted = 0;
        int64_t s3[2] = { 2, 3 }, t3[2] = { 3, 1 };
        dl = produce(2, s3, t3, 6, &deleted);
        DLTensor *d = &dl->dl_tensor;
        producer *keep = NULL;
        switch (i) {
        case 0: d->device.device_type = kDLCUDA; break;
        case 1: d->dtype.lanes = 4; break;
        case 2: d->dtype.bits = 24; break;
        case 3: d->ndim = 5; break;
        case 4: d->strides[1] = -1; break;
        case 5: d->byte_offset = 2; break;
        case 6: keep = dl->manager_ctx; dl->deleter = NULL; break;
        case 7: d->shape = NULL; break;
        }
        char what[96];
        snprintf(what, sizeof what, "from_dlpack with a bad %s", bad[i].field);
        rel_expect(ctx, gpuk_tensor_from_dlpack(ctx, dl, &t), bad[i].want, bad[i].field, what);
        if (keep) {
            tap_ok(deleted == 0, "  no deleter to call: the caller still owns it");
            free(keep->buf);
            free(keep);
        } else {
            tap_ok(deleted == 1, "  the producer's deleter ran once (%d)", deleted);
        }
    }
    REL_EXPECT(ctx, gpuk_tensor_from_dlpack(ctx, NULL, &t), GPUK_ERR_NULL, "dl");
}

/* f64 both ways (kDLFloat, 64 bits): it comes in as an f64 tensor over
 * the producer's buffer, values whole; an f64 tensor goes out as kDLFloat
 * 64.  Types libgpuk has no dtype for are GPUK_ERR_DTYPE. */
static void test_dlpack_f64(gpuk_context *ctx)
{
    int deleted = 0;
    int64_t shape[2] = { 3, 5 };
    DLManagedTensor *dl = produce_type(2, shape, NULL, 15, &deleted, kDLFloat, 64);
    double *data = dl->dl_tensor.data;
    gpuk_tensor *t = NULL;
    gpuk_status st = gpuk_tensor_from_dlpack(ctx, dl, &t);
    gpuk_tensor_info info;
    memset(&info, 0, sizeof info);
    gpuk_tensor_get_info(ctx, t, &info);
    tap_ok(st == GPUK_OK && info.dtype == GPUK_F64 && info.data == (void *)data &&
               info.bytes == 15 * sizeof(double),
           "from_dlpack: kDLFloat 64 is an f64 tensor over the producer's buffer (%s)",
           gpuk_strerror(st));
    double back[15] = { 0 };
    if (st == GPUK_OK)
        st = gpuk_tensor_read(ctx, t, back, sizeof back);
    tap_ok(st == GPUK_OK && back[0] == -3.5 + 0x1p-40 && back[14] == 10.5 + 0x1p-40,
           "its values read back whole, 2^-40 and all (%.17g)", back[0]);
    /* an op in place: where the backend has f64 scale, it shows in the
     * producer's buffer, in double; else the op's dtype is refused */
    size_t n64 = 0;
    gpuk_variant_count_dtype(ctx, GPUK_OP_SCALE, GPUK_F64, &n64);
    st = gpuk_scale(ctx, 1.0 / 3, t, t, NULL);
    if (n64)
        tap_ok(st == GPUK_OK && data[0] == (-3.5 + 0x1p-40) * (1.0 / 3),
               "scale by 1/3 in place shows in the producer's f64 buffer, in double (%s)",
               gpuk_strerror(st));
    else
        rel_expect_dtypes(ctx, st, "x", GPUK_F64, GPUK_F32,
                          "scale of the f64 DLPack tensor (no f64 scale rows)");
    gpuk_tensor_destroy(ctx, t);
    tap_ok(deleted == 1, "the f64 producer's deleter ran once (%d)", deleted);

    /* out: an f64 tensor as kDLFloat 64, its bytes the tensor's */
    int64_t n = 6;
    gpuk_tensor *f = rel_tensor(ctx, GPUK_F64, 1, &n, 0.25f, 1.0f);
    DLManagedTensor *m = NULL;
    st = gpuk_tensor_to_dlpack(ctx, f, &m);
    const DLTensor *d = m ? &m->dl_tensor : NULL;
    const double *e = d ? (const double *)((const char *)d->data + d->byte_offset) : NULL;
    tap_ok(st == GPUK_OK && d && d->dtype.code == kDLFloat && d->dtype.bits == 64 &&
               d->dtype.lanes == 1 && d->ndim == 1 && d->shape[0] == 6 && e[0] == 0.25 &&
               e[5] == 5.25,
           "to_dlpack: an f64 tensor goes out as kDLFloat 64 with its values (%s)",
           gpuk_strerror(st));
    if (m)
        m->deleter(m);
    gpuk_tensor_destroy(ctx, f);

    /* bf16 (kDLBfloat 16) has a dtype; complex, 64-bit integers and 16-bit
     * integers have none */
    deleted = 0;
    dl = produce_type(1, &n, NULL, 6, &deleted, kDLBfloat, 16);
    st = gpuk_tensor_from_dlpack(ctx, dl, &t);
    gpuk_tensor_get_info(ctx, t, &info);
    tap_ok(st == GPUK_OK && info.dtype == GPUK_BF16 && info.bytes == 12,
           "from_dlpack: kDLBfloat 16 is a bf16 tensor (%s)", gpuk_strerror(st));
    gpuk_tensor_destroy(ctx, t);
    static const struct {
        uint8_t code, bits;
        const char *what;
    } none[] = { { kDLComplex, 64, "complex64" }, { kDLComplex, 128, "complex128" },
                 { kDLInt, 64, "int64" }, { kDLInt, 16, "int16" }, { kDLUInt, 32, "uint32" },
                 { kDLFloat, 8, "8-bit float" } };
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        deleted = 0;
        char what[96];
        dl = produce_type(1, &n, NULL, 6, &deleted, none[i].code, none[i].bits);
        snprintf(what, sizeof what, "from_dlpack of %s (code %u, %u bits)", none[i].what,
                 (unsigned)none[i].code, (unsigned)none[i].bits);
        rel_expect(ctx, gpuk_tensor_from_dlpack(ctx, dl, &t), GPUK_ERR_DTYPE, "dtype", what);
        tap_ok(deleted == 1, "  the producer's deleter ran once (%d)", deleted);
    }
}

/* Export, then close the context before the consumer lets go. */
static void test_dlpack_export(void)
{
    gpuk_context *ctx = NULL;
    if (gpuk_context_open(&ctx, "cpu") != GPUK_OK) {
        tap_ok(0, "cpu opens");
        return;
    }
    int64_t shape[2] = { 5, 4 }, vsh[2] = { 2, 2 }, vst[2] = { 4, 1 };
    gpuk_tensor *t = rel_tensor(ctx, GPUK_F32, 2, shape, 1.0f, 1.0f), *v = NULL;
    gpuk_tensor_view(ctx, t, 2, vsh, vst, 9, &v);
    DLManagedTensor *m = NULL;
    gpuk_status st = gpuk_tensor_to_dlpack(ctx, v, &m);
    gpuk_tensor_info info;
    gpuk_tensor_get_info(ctx, v, &info);
    const DLTensor *d = m ? &m->dl_tensor : NULL;
    tap_ok(st == GPUK_OK && d && (char *)d->data + d->byte_offset == (char *)info.data &&
               d->device.device_type == kDLCPU && d->ndim == 2 && d->shape[0] == 2 &&
               d->strides[0] == 4 && d->strides[1] == 1 && d->dtype.code == kDLFloat &&
               d->dtype.bits == 32 && d->dtype.lanes == 1,
           "to_dlpack describes the view: address, shape, strides, dtype, device");
    gpuk_context_close(ctx);
    if (d) {
        const float *e = (const float *)((const char *)d->data + d->byte_offset);
        tap_ok(e[0] == 10.0f && e[1] == 11.0f && e[4] == 14.0f && e[5] == 15.0f,
               "the export stays readable after gpuk_context_close");
        m->deleter(m);
        tap_ok(1, "the consumer's deleter frees it afterwards (valgrind checks)");
    }
    REL_EXPECT(NULL, gpuk_tensor_to_dlpack(NULL, t, &m), GPUK_ERR_NULL, NULL);
}
#endif

static void test_options(void)
{
    gpuk_options o;
    gpuk_context *ctx = NULL;
    gpuk_options_init(&o);
    o.backend = "cpu";
    o.stream = (void *)&o;   /* no streams on the cpu backend: ignored, never touched */
    tap_ok(gpuk_context_open_ex(&ctx, &o, NULL) == GPUK_OK, "cpu ignores opts.stream");
    gpuk_context_close(ctx);
    gpuk_options_init(&o);
    o.backend = "cpu";
    o.pinned_bytes = -2;
    tap_ok(gpuk_context_open_ex(&ctx, &o, NULL) == GPUK_ERR_INVALID, "opts.pinned_bytes = -2 "
           "is GPUK_ERR_INVALID");
    static const struct {
        const char *v;
        gpuk_status want;
    } env[] = { { "0", GPUK_OK }, { "1", GPUK_OK }, { "256M", GPUK_OK }, { "2g", GPUK_OK },
                { "abc", GPUK_ERR_ENV }, { "-1", GPUK_ERR_ENV }, { "12Q", GPUK_ERR_ENV } };
    for (size_t i = 0; i < sizeof env / sizeof env[0]; i++) {
        setenv("GPUK_PINNED", env[i].v, 1);
        gpuk_status st = gpuk_context_open(&ctx, "cpu");
        tap_ok(st == env[i].want, "GPUK_PINNED=%s: %s (got %s)", env[i].v,
               gpuk_strerror(env[i].want), gpuk_strerror(st));
        gpuk_context_close(ctx);
        ctx = NULL;
    }
    unsetenv("GPUK_PINNED");
    /* structures the library fills take the caller's size: nothing is
     * written past it, and a larger gpuk_options than the library knows
     * is refused */
    if (gpuk_context_open(&ctx, "cpu") == GPUK_OK) {
        unsigned char raw[sizeof(gpuk_info) + 16];
        memset(raw, 0xA5, sizeof raw);
        size_t part = offsetof(gpuk_info, stream);
        int untouched = 1;
        gpuk_status st = gpuk_context_info_size(ctx, (gpuk_info *)(void *)raw, part);
        for (size_t i = part; i < sizeof raw; i++)
            untouched &= raw[i] == 0xA5;
        tap_ok(st == GPUK_OK && untouched, "gpuk_context_info_size writes no byte past its size");
        gpuk_info in;
        gpuk_context_info(ctx, &in);
        tap_ok(in.stream == NULL && in.dlpack_device == 1, "cpu: no stream, DLPack device "
               "kDLCPU (%p, %d)", in.stream, in.dlpack_device);
        gpuk_tensor_info ti;
        unsigned char traw[sizeof(gpuk_tensor_info) + 8];
        int64_t four = 4;
        gpuk_tensor *t = rel_tensor(ctx, GPUK_F32, 1, &four, 0, 1);
        memset(traw, 0x5A, sizeof traw);
        part = offsetof(gpuk_tensor_info, data);
        gpuk_tensor_get_info_size(ctx, t, (gpuk_tensor_info *)(void *)traw, part);
        untouched = 1;
        for (size_t i = part; i < sizeof traw; i++)
            untouched &= traw[i] == 0x5A;
        memcpy(&ti, traw, part);
        tap_ok(untouched && ti.numel == 4, "gpuk_tensor_get_info_size likewise (0.1 layout)");
        gpuk_context_close(ctx);
        ctx = NULL;
    }
    struct {
        gpuk_options o;
        char later[32];
    } big;
    gpuk_options_init_size(&big.o, sizeof big);
    big.o.backend = "cpu";
    tap_ok(big.o.size == sizeof big && gpuk_context_open_ex(&ctx, &big.o, NULL) ==
               GPUK_ERR_INVALID, "a gpuk_options larger than the library knows is refused");

    /* the 0.1 layout of gpuk_options (no stream, no pinned_bytes) still opens */
    gpuk_options_init_size(&o, offsetof(gpuk_options, stream));
    o.backend = "cpu";
    o.pinned_bytes = -7;   /* past the 0.1 size: would be GPUK_ERR_INVALID if read */
    tap_ok(gpuk_context_open_ex(&ctx, &o, NULL) == GPUK_OK, "the shorter 0.1 gpuk_options opens");
    gpuk_context_close(ctx);
}

int main(void)
{
    if (!getenv("GPUK_BACKEND_PATH"))
        return tap_skip_all("run through make check: GPUK_BACKEND_PATH is not set");
    gpuk_context *ctx = NULL;
    if (gpuk_context_open(&ctx, "cpu") != GPUK_OK)
        return tap_skip_all("the cpu backend does not open");
    test_host_alloc(ctx);
    test_wrap_host(ctx);
#ifdef HAVE_DLPACK_DLPACK_H
    test_dlpack_cpu(ctx);
    test_dlpack_f64(ctx);
    /* a borrowed tensor left alive: close runs the producer's deleter */
    int deleted = 0;
    int64_t n = 7;
    gpuk_tensor *t = NULL;
    gpuk_tensor_from_dlpack(ctx, produce(1, &n, NULL, 7, &deleted), &t);
    gpuk_context_close(ctx);
    tap_ok(deleted == 1, "gpuk_context_close runs the deleter of a DLPack tensor left alive");
    test_dlpack_export();
#else
    gpuk_context_close(ctx);
    tap_skip("built without dlpack/dlpack.h: DLPack tests skipped");
#endif
    test_options();
    return tap_done();
}

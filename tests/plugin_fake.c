/*
 * plugin_fake.c - a test-only backend, built several times with different
 * -D flags to exercise every failure path of the loader and of GPUK_CHECK:
 *
 *   FAKE_ABI_MAJOR=n    report another ABI major (must be rejected first)
 *   FAKE_ABI_MINOR=n    report a newer minor (must be accepted)
 *   FAKE_FUTURE         a plugin of a later minor: larger struct and rows, a
 *                       row of an op and one of a dtype this core does not
 *                       know (skipped with a report line; the rest works)
 *   FAKE_SHORT_ROWS     kernel rows too short for ABI 2.0 (rejected)
 *   FAKE_NO_DTYPE       a row that serves no dtype (rejected)
 *   FAKE_TWO_DEFAULTS   two default rows of one (op, dtype) (rejected)
 *   FAKE_NO_ENTRY       export no entry symbol
 *   FAKE_PROBE_FAIL     probe says there is no device
 *   FAKE_INIT_FAIL      init fails (a device ordinal it does not have)
 *   FAKE_SMALL          a struct smaller than ABI 1.0 needs
 *   FAKE_DUP_ROWS       a kernel table with one (op, variant) twice
 *   FAKE_WRONG          kernels that answer slightly wrong (for GPUK_CHECK)
 *
 * It keeps its memory on the host and implements two ops: copy (f32, and
 * an i32-only rung, so dispatch by dtype is seen) and matmul (naive),
 * enough for the tests that load it.  Every kernel first checks that core
 * set gpuk_args.size.
 */
#include <gpuk/backend.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FAKE_ABI_MAJOR
#define FAKE_ABI_MAJOR GPUK_ABI_MAJOR
#endif
#ifndef FAKE_ABI_MINOR
#ifdef FAKE_FUTURE
#define FAKE_ABI_MINOR 99
#else
#define FAKE_ABI_MINOR GPUK_ABI_MINOR
#endif
#endif

struct gpuk_bctx {
    char err[128];
};

static gpuk_status probe(gpuk_probe_result *out)
{
#ifdef FAKE_PROBE_FAIL
    snprintf(out->reason, sizeof out->reason, "fake backend: no fake device present");
    out->status = GPUK_ERR_NO_DEVICE;
    return GPUK_ERR_NO_DEVICE;
#else
    out->status = GPUK_OK;
    out->device_count = 1;
    snprintf(out->devices[0].name, sizeof out->devices[0].name, "fake device");
    return GPUK_OK;
#endif
}

static gpuk_status init(const gpuk_init_args *args, gpuk_bctx **out, char *msg, size_t len)
{
#ifdef FAKE_INIT_FAIL
    snprintf(msg, len, "fake backend: device %d does not exist", args->device);
    return GPUK_ERR_NO_DEVICE;
#else
    *out = calloc(1, sizeof **out);
    return *out ? GPUK_OK : GPUK_ERR_NO_MEMORY;
#endif
}

static void fini(gpuk_bctx *b) { free(b); }
static const char *last_error(gpuk_bctx *b) { return b->err; }

static void info(gpuk_bctx *b, gpuk_device_desc *dev, int *threads)
{
    memset(dev, 0, sizeof *dev);
    snprintf(dev->name, sizeof dev->name, "fake device");
    *threads = 1;
}

static gpuk_status mem_alloc(gpuk_bctx *b, size_t bytes, void **out)
{
    *out = malloc(bytes);
    return *out ? GPUK_OK : GPUK_ERR_NO_MEMORY;
}
static void mem_free(gpuk_bctx *b, void *p) { free(p); }
static gpuk_status mem_copy(gpuk_bctx *b, void *dst, const void *src, size_t n)
{
    memmove(dst, src, n);
    return GPUK_OK;
}
static gpuk_status mem_read(gpuk_bctx *b, void *dst, const void *src, size_t n)
{
    return mem_copy(b, dst, src, n);
}
static gpuk_status sync_(gpuk_bctx *b) { return GPUK_OK; }
static gpuk_status timer_start(gpuk_bctx *b) { return GPUK_OK; }
static gpuk_status timer_stop(gpuk_bctx *b, double *ms)
{
    *ms = 0;
    return GPUK_OK;
}

/* core must say how large gpuk_args is, and fill the dtype */
static gpuk_status args_ok(gpuk_bctx *b, const gpuk_args *a, gpuk_dtype want)
{
    if (!GPUK_ARGS_HAS(a, has_bias) || a->dtype != want) {
        snprintf(b->err, sizeof b->err, "gpuk_args.size %zu or dtype %d is wrong", a->size,
                 (int)a->dtype);
        return GPUK_ERR_INTERNAL;
    }
    return GPUK_OK;
}

static gpuk_status copy_k(gpuk_bctx *b, const gpuk_args *a)
{
    gpuk_status st = args_ok(b, a, GPUK_F32);
    if (st != GPUK_OK)
        return st;
    int64_t n = a->out.shape[0];
    memmove(a->out.data, a->in[0].data, (size_t)n * sizeof(float));
#ifdef FAKE_WRONG
    /* one element off by a tiny amount: an exact op must notice */
    float *o = a->out.data;
    o[n / 2] = o[n / 2] * (1.0f + 1.0f / 1024) + 1e-6f;
#endif
    return GPUK_OK;
}

static gpuk_status copy_i32_k(gpuk_bctx *b, const gpuk_args *a)
{
    gpuk_status st = args_ok(b, a, GPUK_I32);
    if (st == GPUK_OK)
        memmove(a->out.data, a->in[0].data, (size_t)a->out.shape[0] * sizeof(int32_t));
    return st;
}

/* min-plus, naive, for the plugin of an older minor (no update member) */
static gpuk_status minplus_k(gpuk_bctx *b, const gpuk_args *a)
{
    gpuk_status st = args_ok(b, a, GPUK_F32);
    if (st != GPUK_OK)
        return st;
    const gpuk_tdesc *A = &a->in[0], *B = &a->in[1], *R = &a->out;
    for (int64_t i = 0; i < R->shape[0]; i++)
        for (int64_t j = 0; j < R->shape[1]; j++) {
            float m = __builtin_inff();
            for (int64_t p = 0; p < A->shape[1]; p++) {
                float s = ((const float *)A->data)[i * A->stride[0] + p] +
                          ((const float *)B->data)[p * B->stride[0] + j];
                m = s < m ? s : m;
            }
            ((float *)R->data)[i * R->stride[0] + j] = m;
        }
    return GPUK_OK;
}

static gpuk_status matmul_k(gpuk_bctx *b, const gpuk_args *a)
{
    gpuk_status st = args_ok(b, a, GPUK_F32);
    if (st != GPUK_OK)
        return st;
    const gpuk_tdesc *A = &a->in[0], *B = &a->in[1], *C = &a->out;
    int64_t m = A->shape[0], k = A->shape[1], n = B->shape[1];
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            float acc = a->has_bias ? ((const float *)a->in[2].data)[j] : 0.0f;
            for (int64_t p = 0; p < k; p++)
                acc += ((const float *)A->data)[i * A->stride[0] + p] *
                       ((const float *)B->data)[p * B->stride[0] + j];
            ((float *)C->data)[i * C->stride[0] + j] = acc;
        }
#ifdef FAKE_WRONG
    /* 1% off in one element: far beyond any rounding bound */
    float *c = C->data;
    c[(m - 1) * C->stride[0] + (n - 1)] *= 1.01f;
#endif
    return GPUK_OK;
}

/* A later minor may append members to a row: the future plugin's rows
 * carry one more, and the table says how far apart its rows are. */
typedef struct fake_row {
    gpuk_kernel k;
#ifdef FAKE_FUTURE
    const char *added_later;
#endif
} fake_row;
#ifdef FAKE_FUTURE
#define LATER , "a member this core does not know"
#else
#define LATER
#endif

static const fake_row kernels[] = {
    { { GPUK_OP_COPY, GPUK_DT_F32, "naive", GPUK_KF_DEFAULT, copy_k, "memmove", "plain" } LATER },
    { { GPUK_OP_COPY, GPUK_DT_I32, "i32only", GPUK_KF_DEFAULT, copy_i32_k, "memmove of i32",
        NULL } LATER },
    { { GPUK_OP_MATMUL, GPUK_DT_F32, "naive", GPUK_KF_DEFAULT, matmul_k, "triple loop", NULL }
      LATER },
    { { GPUK_OP_MINPLUS, GPUK_DT_F32, "naive", GPUK_KF_DEFAULT, minplus_k, "triple loop",
        NULL } LATER },
#ifdef FAKE_DUP_ROWS
    { { GPUK_OP_MATMUL, GPUK_DT_F32, "naive", 0, matmul_k, "the same row again", NULL } LATER },
#endif
#ifdef FAKE_FUTURE
    { { (gpuk_op)99, GPUK_DT_F32, "tomorrow", GPUK_KF_DEFAULT, copy_k, "an op of a later core",
        NULL } LATER },
    { { GPUK_OP_COPY, 1u << 30, "f128", 0, copy_k, "a dtype of a later core", NULL } LATER },
#endif
#ifdef FAKE_NO_DTYPE
    { { GPUK_OP_MATMUL, 0, "nothing", 0, matmul_k, "serves no dtype", NULL } LATER },
#endif
#ifdef FAKE_TWO_DEFAULTS
    { { GPUK_OP_MATMUL, GPUK_DT_F32, "again", GPUK_KF_DEFAULT, matmul_k, "a second default",
        NULL } LATER },
#endif
};

/* The future plugin's struct is larger too: a member appended later. */
typedef struct fake_backend {
    gpuk_backend be;
#ifdef FAKE_FUTURE
    void (*added_later)(void);
#endif
} fake_backend;

static const fake_backend fake = { {
    .abi_major = FAKE_ABI_MAJOR,
    .abi_minor = FAKE_ABI_MINOR,
#ifdef FAKE_SMALL
    .size = 40,
#else
    .size = sizeof(fake_backend),
#endif
    .flags = GPUK_BF_HOST_MEMORY,
    .name = "fake",
    .version = "test",
    .description = "test-only backend for the loader and GPUK_CHECK tests",
    .probe = probe,
    .init = init,
    .fini = fini,
    .last_error = last_error,
    .info = info,
    .alloc = mem_alloc,
    .free = mem_free,
    .write = mem_copy,
    .read = mem_read,
    .copy = mem_copy,
    .sync = sync_,
    .timer_start = timer_start,
    .timer_stop = timer_stop,
    .kernels = &kernels[0].k,
    .n_kernels = sizeof kernels / sizeof kernels[0],
#ifdef FAKE_SHORT_ROWS
    .kernel_size = 16,
#else
    .kernel_size = sizeof(fake_row),
#endif
    },
#ifdef FAKE_FUTURE
    /* named, so the member a later minor appends is visibly NULL here */
    .added_later = NULL,
#endif
};

#ifdef FAKE_NO_ENTRY
GPUK_PLUGIN_EXPORT const gpuk_backend *gpuk_backend_entry_misspelled(void);
GPUK_PLUGIN_EXPORT const gpuk_backend *gpuk_backend_entry_misspelled(void)
#else
GPUK_PLUGIN_EXPORT const gpuk_backend *gpuk_backend_entry(void);
GPUK_PLUGIN_EXPORT const gpuk_backend *gpuk_backend_entry(void)
#endif
{
    return &fake.be;
}

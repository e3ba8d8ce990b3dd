/*
 * fuzz_api.c - libFuzzer harness for libgpuk's public API on the CPU
 * backend: the input decoder, the operands, and the entry points.
 *
 * The input is a little program: each step reads one byte that picks an
 * action, then the bytes the action needs (zeros once the input runs
 * out).  Actions (fz_ops.c, fz_slots.c):
 *
 *   VALID   a valid call of a random op in f32 or, where the backend has
 *           rows of it, f64 (shapes with 0 and odd sizes, row-padded
 *           views, offsets, broadcast batches, in-place outputs, any
 *           variant of the table, NaN/inf/-0/subnormals in the inputs);
 *           checked: status OK, every input and every storage element
 *           outside the output view bit-for-bit unchanged, the output
 *           equal to the reference (tests/ref.h) within its dtype's bound.
 *   MUTATE  the same with exactly one fault (an argument NULL, destroyed,
 *           never issued, of another context, of any other dtype; the
 *           context NULL; an unknown variant; a bad enum; an embedding id
 *           out of range): the exact status, a message naming the
 *           argument, and no storage element changed.
 *   CREATE, VIEW, DESTROY, IO, SLOTS
 *           free-form calls on a table of handles (destroyed and foreign
 *           ones included; huge, negative and zero sizes; views with any
 *           strides and offsets): create and view are checked against a
 *           model of their rules; ops on slots must not crash and must
 *           explain a failure.
 *   CSR     a CSR matrix, valid or with one structural fault, against the
 *           model; then SpMV against the reference.
 *   MISC    variant listing, status texts, op names from input bytes.
 *
 * fz_run() returns 0, or 1 with why[] filled; LLVMFuzzerTestOneInput
 * aborts on 1 so libFuzzer keeps the input as a crash.  tests/t_fuzz_corpus
 * replays fuzz/corpus through fz_run() in `make check`.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/ref.h"
#include "fuzz_api.h"
#include "fz.h"

gpuk_context *fz_ctx, *fz_other;

unsigned fz_u8(fz *f)
{
    return f->in.at < f->in.n ? f->in.p[f->in.at++] : 0;
}

unsigned fz_pick(fz *f, unsigned n)
{
    return n ? fz_u8(f) % n : 0;
}

int fz_fail(fz *f, const char *fmt, ...)
{
    if (f->failed++)
        return 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->why, f->whylen, fmt, ap);
    va_end(ap);
    return 1;
}

void fz_track(fz *f, gpuk_context *c, gpuk_tensor *t)
{
    if (t && f->n_made < NTRACK) {
        f->made[f->n_made] = t;
        f->made_in[f->n_made++] = c;
    }
}

/* xorshift64*: values are most of the harness's own time, so the cheap
 * generator (the seed is mixed once, in fz_run) */
uint64_t fz_rnext(fz *f)
{
    uint64_t x = f->rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    f->rng = x;
    return x * 0x2545F4914F6CDD1Dull;
}

/* A value in [-16, 16) on a grid of 1/8, or (special_rate in 64) one of
 * the IEEE specials.  No huge finite values: a float product overflowing
 * where the double reference does not would be a false alarm. */
float fz_val(fz *f, unsigned special_rate)
{
    uint64_t r = fz_rnext(f);
    if (special_rate && (r >> 58) < special_rate) {
        static const float sp[] = { NAN, INFINITY, -INFINITY, -0.0f, 0.0f, 1e-45f, -3e-39f,
                                    1e-30f };
        return sp[(r >> 8) % 8];
    }
    return (float)((int)((r >> 16) & 255) - 128) * 0.125f;
}

double fz_value(fz *f, gpuk_dtype dt, unsigned special_rate)
{
    if (dt != GPUK_F64)
        return fz_val(f, special_rate);
    uint64_t r = fz_rnext(f);
    if (special_rate && (r >> 58) < special_rate) {
        static const double sp[] = { NAN, INFINITY, -INFINITY, -0.0, 0.0, 5e-324, -3e-310,
                                     1e-300 };
        return sp[(r >> 8) % 8];
    }
    /* [-16, 16) on a grid of 2^-35: products of 80 bits, which round */
    return (double)((int64_t)((r >> 16) & 0xFFFFFFFFFFull) - (1LL << 39)) * 0x1p-35;
}

int64_t fz_dim(fz *f)
{
    static const int64_t d[] = { 1, 2, 3, 4, 5, 7, 8, 9, 13, 16, 17, 31, 33, 0, 1, 3 };
    return d[fz_pick(f, 16)];
}

int64_t fz_small(fz *f)
{
    static const int64_t d[] = { 1, 2, 3, 5, 7, 0, 4, 9 };
    return d[fz_pick(f, 8)];
}

/* Never a size between a few MiB and 2^45 elements: whether those
 * allocations succeed depends on the machine (and a success trips
 * libFuzzer's malloc limit); 2^45 floats (2^47 bytes) exceed any x86-64
 * address space, so they fail everywhere. */
int64_t fz_wild(fz *f)
{
    static const int64_t d[] = { 0, 1, 2, 3, 5, 7, 8, 17, 33, -1, 1LL << 45, 1LL << 62,
                                 INT64_MAX, INT64_MIN, (1LL << 46) + 1, 3 };
    return d[fz_pick(f, 16)];
}

int fz_names(const char *msg, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = msg; (p = strstr(p, word)) != NULL; p++) {
        int before = p > msg && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
        int after = isalnum((unsigned char)p[n]) || p[n] == '_';
        if (!before && !after)
            return 1;
    }
    return 0;
}

/* ------------------------------------------------------------ operands */

int64_t fz_pos(const opnd *o, int64_t lin)
{
    int64_t p = o->off;
    for (int i = o->nd - 1; i >= 0; i--) {
        int64_t s = o->shape[i] ? lin % o->shape[i] : 0;
        lin = o->shape[i] ? lin / o->shape[i] : 0;
        p += s * o->stride[i];
    }
    return p;
}

/* The sentinel through n bytes of storage. */
static void sentinel(unsigned char *img, size_t n)
{
    const uint32_t w = SENT_BITS;
    for (size_t b = 0; b < n; b++)
        img[b] = ((const unsigned char *)&w)[b % 4];
}

int fz_opnd(fz *f, opnd *o, gpuk_dtype dt, int nd, const int64_t *shape, int layout,
            unsigned special, int32_t id_hi)
{
    memset(o, 0, sizeof *o);
    o->dt = dt;
    o->es = gpuk_dtype_size(dt);
    o->nd = nd;
    memcpy(o->shape, shape, (size_t)nd * sizeof *shape);
    o->numel = 1;
    for (int i = 0; i < nd; i++)
        o->numel *= shape[i];
    /* row-padded: a gap after each row and, above that, after each matrix */
    int64_t s = 1;
    for (int i = nd - 1; i >= 0; i--) {
        o->stride[i] = s;
        s *= shape[i] + (layout == L_PADDED && i == nd - 1 ? 1 + (int64_t)fz_pick(f, 3) : 0);
        if (layout == L_PADDED && i < nd - 1)
            s += (int64_t)fz_pick(f, 2);
    }
    if (layout == L_BCAST)
        o->stride[0] = 0;
    o->off = layout == L_OFF1 ? 1 : (int64_t)fz_pick(f, 3);
    int64_t last = o->off;
    for (int i = 0; i < nd; i++)
        last += shape[i] > 0 ? (shape[i] - 1) * o->stride[i] : 0;
    o->n_store = last + 1 + (int64_t)fz_pick(f, 3);
    o->img = malloc((size_t)o->n_store * o->es);
    o->vals = malloc((size_t)(o->numel ? o->numel : 1) * o->es);
    sentinel(o->img, (size_t)o->n_store * o->es);
    for (int64_t i = 0; i < o->numel; i++) {
        if (dt == GPUK_I32) {
            int32_t id = (int32_t)(fz_rnext(f) % (uint64_t)(id_hi > 0 ? id_hi : 1));
            memcpy((char *)o->vals + 4 * i, &id, 4);
        } else {
            ref_put(dt, o->vals, i, fz_value(f, dt, special));
        }
    }
    /* a stride-0 batch shows batch 0 everywhere */
    int64_t per = shape[0] ? o->numel / shape[0] : 0;
    if (layout == L_BCAST && per)
        for (int64_t i = per; i < o->numel; i++)
            memcpy((char *)o->vals + i * o->es, (char *)o->vals + (i % per) * o->es, o->es);
    /* the view's elements in row-major order, walking the multi-index */
    int64_t idx[4] = { 0, 0, 0, 0 }, p = o->off;
    for (int64_t i = 0; i < o->numel; i++) {
        memcpy(o->img + p * o->es, (char *)o->vals + i * o->es, o->es);
        for (int d = nd - 1; d >= 0; d--) {
            p += o->stride[d];
            if (++idx[d] < shape[d])
                break;
            p -= idx[d] * o->stride[d];
            idx[d] = 0;
        }
    }
    if (gpuk_tensor_create(fz_ctx, dt, 1, &o->n_store, &o->st) != GPUK_OK ||
        gpuk_tensor_write(fz_ctx, o->st, o->img, (size_t)o->n_store * o->es) != GPUK_OK)
        return fz_fail(f, "setup: a storage of %lld elements: %s", (long long)o->n_store,
                       gpuk_context_error(fz_ctx));
    fz_track(f, fz_ctx, o->st);
    gpuk_status st = gpuk_tensor_view(fz_ctx, o->st, nd, o->shape, o->stride, o->off, &o->v);
    if (st != GPUK_OK)
        return fz_fail(f, "a valid %d-D view (offset %lld) was rejected: %s", nd,
                       (long long)o->off, gpuk_context_error(fz_ctx));
    fz_track(f, fz_ctx, o->v);
    return 0;
}

void fz_opnd_free(opnd *o)
{
    gpuk_tensor_destroy(fz_ctx, o->v);
    gpuk_tensor_destroy(fz_ctx, o->st);
    o->v = o->st = NULL;
    free(o->img);
    free(o->vals);
    o->img = NULL;
    o->vals = NULL;
}

void fz_opnd_set(opnd *o, int64_t i, const void *elem)
{
    memcpy((char *)o->vals + i * o->es, elem, o->es);
    memcpy(o->img + fz_pos(o, i) * o->es, elem, o->es);
    gpuk_tensor_write(fz_ctx, o->st, o->img, (size_t)o->n_store * o->es);
}

/* An element's bytes in hex, most significant first, for the messages. */
static const char *hex(const unsigned char *e, size_t es, char *buf)
{
    for (size_t b = 0; b < es; b++)
        snprintf(buf + 2 * b, 3, "%02x", e[es - 1 - b]);
    return buf;
}

int fz_opnd_check(fz *f, const opnd *o, const opnd *out, void *got, const char *name)
{
    size_t es = o->es;
    unsigned char *now = malloc((size_t)o->n_store * es);
    char *mask = calloc((size_t)o->n_store, 1);
    int bad = 0;
    if (gpuk_tensor_read(fz_ctx, o->st, now, (size_t)o->n_store * es) != GPUK_OK)
        bad = fz_fail(f, "reading back %s: %s", name, gpuk_context_error(fz_ctx));
    if (!bad && out && out->st == o->st)
        for (int64_t i = 0; i < out->numel; i++) {
            int64_t p = fz_pos(out, i);
            mask[p] = 1;
            if (got)
                memcpy((char *)got + i * es, now + p * es, es);
        }
    for (int64_t p = 0; p < o->n_store && !bad; p++)
        if (!mask[p] && memcmp(now + p * es, o->img + p * es, es) != 0) {
            char was[20], is[20];
            bad = fz_fail(f, "%s: storage element %lld changed from %s to %s (a write outside "
                          "the output view, or into an input)", name, (long long)p,
                          hex(o->img + p * es, es, was), hex(now + p * es, es, is));
        }
    free(mask);
    free(now);
    return bad;
}

/* ------------------------------------------------------------ entry points */

int fz_init(void)
{
    if (fz_ctx)
        return 0;
    gpuk_options o;
    gpuk_options_init(&o);
    o.backend = "cpu";
    o.num_threads = 1;   /* deterministic, and no OpenMP pool per input */
    if (gpuk_context_open_ex(&fz_ctx, &o, NULL) != GPUK_OK ||
        gpuk_context_open_ex(&fz_other, &o, NULL) != GPUK_OK) {
        gpuk_context_close(fz_ctx);
        fz_ctx = NULL;
        return 1;
    }
    return 0;
}

void fz_fini(void)
{
    gpuk_context_close(fz_other);
    gpuk_context_close(fz_ctx);
    fz_other = fz_ctx = NULL;
}

int fz_run(const uint8_t *data, size_t size, char *why, size_t whylen)
{
    fz f;
    memset(&f, 0, sizeof f);
    f.in.p = data;
    f.in.n = size;
    f.why = why;
    f.whylen = whylen;
    why[0] = '\0';
    if (fz_init() != 0) {
        snprintf(why, whylen, "cannot open the cpu contexts (is GPUK_BACKEND_PATH set?)");
        return 1;
    }
    /* the values come from the first four bytes, so the rest of the input
     * steers calls and not numbers */
    uint64_t seed = 0;
    for (int i = 0; i < 4; i++)
        seed = seed << 8 | fz_u8(&f);
    seed = (seed + 0x9E3779B97F4A7C15ull) * 0xBF58476D1CE4E5B9ull;
    f.rng = (seed ^ (seed >> 31)) | 1;   /* xorshift needs a nonzero state */
    for (int steps = 0; f.in.at < f.in.n && steps < 48 && !f.failed; steps++) {
        switch (fz_u8(&f) % 16) {
        case 0: case 1: case 2: case 3: case 4: fz_op(&f, 0); break;
        case 5: case 6: case 7: fz_op(&f, 1); break;
        case 8: fz_create(&f); break;
        case 9: fz_view(&f); break;
        case 10: fz_destroy(&f); break;
        case 11: fz_io(&f); break;
        case 12: case 13: fz_slots(&f); break;
        case 14: fz_csr(&f); break;
        default: fz_misc(&f); break;
        }
    }
    for (int i = 0; i < f.n_made; i++)
        gpuk_tensor_destroy(f.made_in[i], f.made[i]);
    for (int i = 0; i < 2; i++)
        gpuk_csr_destroy(fz_ctx, f.cslot[i]);
    return f.failed ? 1 : 0;
}

#ifdef FZ_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char why[1024];
    if (fz_run(data, size, why, sizeof why)) {
        fprintf(stderr, "fuzz_api: check failed: %s\n", why);
        abort();
    }
    return 0;
}
#endif

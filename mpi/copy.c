/*
 * copy.c - moving a rectangle of elements between local tensors, in any
 * dtype (doc/distributed.md, "Dtypes").
 *
 * SUMMA packs a's block columns, which are strided in the row-major local
 * tensor, into dense panels; Floyd-Warshall also copies its diagonal
 * block and its block column out and back.  The local ops want dense
 * operands, and the core has no strided copy in every dtype, so:
 *
 *   host memory  one memcpy per row, on the calling thread: no OpenMP
 *                region, whose idle threads would spin against the BLAS
 *                threads of the next op (doc/distributed.md, "Cost model
 *                and expected scaling")
 *   elsewhere    two gpuk_transpose calls through a dense scratch:
 *                transpose reads and writes views with any row stride.
 *                It runs on 4-byte words (the storage wrapped as f32,
 *                which every backend transposes), so an i32 is one word
 *                and an f64 two that stay side by side; nothing is
 *                computed, so every bit arrives as it left.
 *
 *   NCCL         the CUDA runtime is linked, and the context's stream
 *                known: one cudaMemcpy2DAsync on that stream, which moves
 *                each byte once where the two transposes move it twice
 *                and need a scratch.
 *
 * GPUK_DIST_STAGED=1 takes the second path on host memory too: it is the
 * GPU's path, and that is how the CPU tests run it.
 */
#include "dist_internal.h"

#include <stdio.h>
#include <string.h>

char *gkd_data(gpuk_dist *d, const gpuk_tensor *t)
{
    gpuk_tensor_info ti;
    if (!t || gpuk_tensor_get_info(d->ctx, t, &ti) != GPUK_OK)
        return NULL;
    return (char *)ti.data;
}

/* The storage of t as a 1-D tensor of words: t itself when its dtype is
 * the word (*own 0), else a wrap of its memory (*own 1: destroy it). */
static gpuk_status as_words(gpuk_dist *d, gpuk_tensor *t, gpuk_dtype word, gpuk_tensor **out,
                            int *own)
{
    gpuk_tensor_info ti;
    *out = t, *own = 0;
    gpuk_status st = gpuk_tensor_get_info(d->ctx, t, &ti);
    if (st != GPUK_OK || ti.dtype == word)
        return st;
    int64_t n = (int64_t)(ti.bytes / gpuk_dtype_size(word));
    st = gpuk_tensor_wrap(d->ctx, word, 1, &n, NULL, ti.data, out);
    *own = st == GPUK_OK;
    return st;
}

/* Host memory: row by row. */
static void copy_host(size_t es, const char *src, int64_t sld, char *dst, int64_t dld,
                      int64_t rows, int64_t cols)
{
    for (int64_t i = 0; i < rows; i++)
        memcpy(dst + (size_t)(i * dld) * es, src + (size_t)(i * sld) * es, (size_t)cols * es);
}

gpuk_status gkd_copy2d(gpuk_dist *d, gpuk_dtype dt, gkd_rect src, gkd_rect dst, int64_t rows,
                       int64_t cols, gpuk_tensor *scratch)
{
    size_t es = gpuk_dtype_size(dt);
    d->copy_err[0] = '\0';
    if (rows == 0 || cols == 0)
        return GPUK_OK;
    if (d->host_memory && !d->force_staged) {
        const char *from = gkd_data(d, src.t);
        char *to = gkd_data(d, dst.t);
        if (!from || !to)
            return GPUK_ERR_INTERNAL;   /* a non-empty tensor without memory: not ours */
        copy_host(es, from + (size_t)src.off * es, src.ld, to + (size_t)dst.off * es, dst.ld,
                  rows, cols);
        return GPUK_OK;
    }
#ifdef HAVE_NCCL
    if (d->comm_kind == GPUK_DIST_COMM_NCCL && d->compute_stream) {
        char *from = gkd_data(d, src.t), *to = gkd_data(d, dst.t);
        if (!from || !to)
            return GPUK_ERR_INTERNAL;
        cudaError_t e = cudaMemcpy2DAsync(to + (size_t)dst.off * es, (size_t)dst.ld * es,
                                          from + (size_t)src.off * es, (size_t)src.ld * es,
                                          (size_t)cols * es, (size_t)rows,
                                          cudaMemcpyDeviceToDevice, d->compute_stream);
        if (e == cudaSuccess)
            return GPUK_OK;
        snprintf(d->copy_err, sizeof d->copy_err, "cudaMemcpy2DAsync: %s",
                 cudaGetErrorString(e));
        return GPUK_ERR_DEVICE;
    }
#endif
    gpuk_dtype word = es % 4 == 0 ? GPUK_F32 : dt;
    int64_t wpe = (int64_t)(es / gpuk_dtype_size(word));   /* words an element */
    gpuk_tensor *sw = NULL, *dw = NULL, *tw = NULL, *sv = NULL, *dv = NULL, *tv = NULL;
    int own[3] = { 0, 0, 0 };
    gpuk_status st = as_words(d, src.t, word, &sw, &own[0]);
    if (st == GPUK_OK)
        st = as_words(d, dst.t, word, &dw, &own[1]);
    if (st == GPUK_OK)
        st = as_words(d, scratch, word, &tw, &own[2]);
    int64_t w = cols * wpe;
    int64_t shape[2] = { rows, w }, tshape[2] = { w, rows };
    int64_t sstr[2] = { src.ld * wpe, 1 }, dstr[2] = { dst.ld * wpe, 1 };
    if (st == GPUK_OK)
        st = gpuk_tensor_view(d->ctx, sw, 2, shape, sstr, src.off * wpe, &sv);
    if (st == GPUK_OK)
        st = gpuk_tensor_view(d->ctx, dw, 2, shape, dstr, dst.off * wpe, &dv);
    if (st == GPUK_OK)
        st = gpuk_tensor_view(d->ctx, tw, 2, tshape, NULL, 0, &tv);
    if (st == GPUK_OK)
        st = gpuk_transpose(d->ctx, sv, tv, NULL);
    if (st == GPUK_OK)
        st = gpuk_transpose(d->ctx, tv, dv, NULL);
    gpuk_tensor_destroy(d->ctx, sv);
    gpuk_tensor_destroy(d->ctx, dv);
    gpuk_tensor_destroy(d->ctx, tv);
    if (own[0])
        gpuk_tensor_destroy(d->ctx, sw);
    if (own[1])
        gpuk_tensor_destroy(d->ctx, dw);
    if (own[2])
        gpuk_tensor_destroy(d->ctx, tw);
    return st;
}

const char *gkd_copy2d_error(gpuk_dist *d)
{
    return d->copy_err[0] ? d->copy_err : gpuk_context_error(d->ctx);
}

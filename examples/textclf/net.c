/*
 * net.c - the text classifier's forward pass on libgpuk's ops.
 *
 * Shapes, for a batch of B sequences of T tokens, vocabulary V, embedding
 * width E, hidden width H and C classes:
 *   ids [B,T] -> emb [B,T,E] -> (view [B*T,E]) . w1 [E,H] -> hid [B*T,H]
 *   -> relu(hid + b1) in place -> (view [B,T,H]) mean over T -> [B,H]
 *   -> . w2 [H,C] + b2 -> logits [B,C] -> softmax -> probs [B,C]
 * The two views cost nothing: they reinterpret a dense tensor, so the
 * token axis is folded into the rows of one large matmul instead of B
 * small ones.
 */
#define _POSIX_C_SOURCE 200809L
#include "net.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *const tc_stage_name[TC_NSTAGES] = {
    "upload", "embedding", "linear1", "bias_relu", "meanpool", "linear2", "softmax", "download",
};

static gpuk_status fail(tc_net *net, gpuk_status st, const char *what)
{
    snprintf(net->err, sizeof net->err, "%s: %s: %s", what, gpuk_strerror(st),
             net->ctx ? gpuk_context_error(net->ctx) : "");
    return st;
}

gpuk_status tc_net_open(tc_net *net, const char *backend)
{
    memset(net, 0, sizeof *net);
    gpuk_options o;
    gpuk_options_init(&o);
    o.backend = backend;
    gpuk_load_report *rep = NULL;
    gpuk_status st = gpuk_context_open_ex(&net->ctx, &o, &rep);
    if (st != GPUK_OK) {
        /* no context holds a message: the report says why, its last line
         * being the overall verdict */
        size_t n = gpuk_load_report_count(rep);
        const gpuk_load_attempt *a = n ? gpuk_load_report_get(rep, n - 1) : NULL;
        const char *env = getenv("GPUK_BACKEND");
        snprintf(net->err, sizeof net->err, "cannot open backend %s: %s%s%s",
                 backend ? backend : env && *env ? env : "auto", gpuk_strerror(st),
                 a ? ": " : "", a ? a->reason : "");
        gpuk_load_report_free(rep);
        return st;
    }
    gpuk_load_report_free(rep);
    gpuk_info info;
    if ((st = gpuk_context_info(net->ctx, &info)) != GPUK_OK)
        return fail(net, st, "gpuk_context_info");
    net->backend = info.backend;
    return GPUK_OK;
}

static gpuk_status make(tc_net *net, gpuk_dtype dt, int ndim, int64_t d0, int64_t d1,
                        int64_t d2, gpuk_tensor **t, const char *name)
{
    int64_t shape[3] = { d0, d1, d2 };
    gpuk_status st = gpuk_tensor_create(net->ctx, dt, ndim, shape, t);
    return st == GPUK_OK ? st : fail(net, st, name);
}

static gpuk_status view(tc_net *net, gpuk_tensor *base, int ndim, int64_t d0, int64_t d1,
                        int64_t d2, gpuk_tensor **t, const char *name)
{
    int64_t shape[3] = { d0, d1, d2 };
    gpuk_status st = gpuk_tensor_view(net->ctx, base, ndim, shape, NULL, 0, t);
    return st == GPUK_OK ? st : fail(net, st, name);
}

static gpuk_status upload(tc_net *net, gpuk_tensor *t, const float *src, int64_t n,
                          const char *name)
{
    gpuk_status st = gpuk_tensor_write(net->ctx, t, src, (size_t)n * sizeof(float));
    return st == GPUK_OK ? st : fail(net, st, name);
}

gpuk_status tc_net_load(tc_net *net, const tc_model *m, int64_t batch, int64_t tokens)
{
    gpuk_status st;
    net->V = m->vocab;
    net->E = m->embed;
    net->H = m->hidden;
    net->C = m->classes;
    net->B = batch;
    net->T = tokens;
    if ((st = make(net, GPUK_F32, 2, net->V, net->E, 0, &net->table, "create embedding")) ||
        (st = make(net, GPUK_F32, 2, net->E, net->H, 0, &net->w1, "create w1")) ||
        (st = make(net, GPUK_F32, 1, net->H, 0, 0, &net->b1, "create b1")) ||
        (st = make(net, GPUK_F32, 2, net->H, net->C, 0, &net->w2, "create w2")) ||
        (st = make(net, GPUK_F32, 1, net->C, 0, 0, &net->b2, "create b2")) ||
        (st = make(net, GPUK_I32, 2, net->B, net->T, 0, &net->ids, "create ids")) ||
        (st = make(net, GPUK_F32, 3, net->B, net->T, net->E, &net->emb, "create emb")) ||
        (st = view(net, net->emb, 2, net->B * net->T, net->E, 0, &net->emb2d, "view emb")) ||
        (st = make(net, GPUK_F32, 2, net->B * net->T, net->H, 0, &net->hid, "create hid")) ||
        (st = view(net, net->hid, 3, net->B, net->T, net->H, &net->hid3d, "view hid")) ||
        (st = make(net, GPUK_F32, 2, net->B, net->H, 0, &net->pooled, "create pooled")) ||
        (st = make(net, GPUK_F32, 2, net->B, net->C, 0, &net->logits, "create logits")) ||
        (st = make(net, GPUK_F32, 2, net->B, net->C, 0, &net->probs, "create probs")))
        return st;
    if ((st = upload(net, net->table, m->embedding, net->V * net->E, "write embedding")) ||
        (st = upload(net, net->w1, m->w1, net->E * net->H, "write w1")) ||
        (st = upload(net, net->b1, m->b1, net->H, "write b1")) ||
        (st = upload(net, net->w2, m->w2, net->H * net->C, "write w2")) ||
        (st = upload(net, net->b2, m->b2, net->C, "write b2")))
        return st;
    return GPUK_OK;
}

/* Issue one stage; ids and probs are the host buffers of the transfers. */
static gpuk_status stage(tc_net *net, int s, const int32_t *ids, float *probs)
{
    gpuk_context *c = net->ctx;
    const char *const *v = net->variant;
    gpuk_status st = GPUK_ERR_INTERNAL;
    switch (s) {
    case TC_UPLOAD:
        st = gpuk_tensor_write(c, net->ids, ids, (size_t)(net->B * net->T) * sizeof *ids);
        break;
    case TC_EMBEDDING:
        st = gpuk_embedding(c, net->table, net->ids, net->emb, v[GPUK_OP_EMBEDDING]);
        break;
    case TC_LINEAR1:
        st = gpuk_matmul(c, net->emb2d, net->w1, NULL, net->hid, v[GPUK_OP_MATMUL]);
        break;
    case TC_BIAS_RELU:
        st = gpuk_bias_relu(c, net->hid, net->b1, net->hid, v[GPUK_OP_BIAS_RELU]);
        break;
    case TC_MEANPOOL:
        st = gpuk_meanpool(c, net->hid3d, net->pooled, v[GPUK_OP_MEANPOOL]);
        break;
    case TC_LINEAR2:
        st = gpuk_matmul(c, net->pooled, net->w2, net->b2, net->logits, v[GPUK_OP_MATMUL]);
        break;
    case TC_SOFTMAX:
        st = gpuk_softmax(c, net->logits, net->probs, v[GPUK_OP_SOFTMAX]);
        break;
    case TC_DOWNLOAD:
        st = gpuk_tensor_read(c, net->probs, probs, (size_t)(net->B * net->C) * sizeof *probs);
        break;
    }
    return st == GPUK_OK ? st : fail(net, st, tc_stage_name[s]);
}

gpuk_status tc_net_forward(tc_net *net, const int32_t *ids, float *probs, double *ms)
{
    gpuk_status st;
    for (int s = 0; s < TC_NSTAGES; s++) {
        if (ms && (st = gpuk_timer_start(net->ctx)) != GPUK_OK)
            return fail(net, st, "gpuk_timer_start");
        if ((st = stage(net, s, ids, probs)) != GPUK_OK)
            return st;
        if (ms && (st = gpuk_timer_stop(net->ctx, &ms[s])) != GPUK_OK)
            return fail(net, st, tc_stage_name[s]);
    }
    return GPUK_OK;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

gpuk_status tc_net_forward_timed(tc_net *net, const int32_t *ids, float *probs,
                                 double *compute_ms, double *total_ms)
{
    gpuk_status st;
    double t0 = now_ms();
    if ((st = stage(net, TC_UPLOAD, ids, probs)) != GPUK_OK)
        return st;
    if ((st = gpuk_timer_start(net->ctx)) != GPUK_OK)
        return fail(net, st, "gpuk_timer_start");
    for (int s = TC_EMBEDDING; s <= TC_SOFTMAX; s++)
        if ((st = stage(net, s, ids, probs)) != GPUK_OK)
            return st;
    if ((st = gpuk_timer_stop(net->ctx, compute_ms)) != GPUK_OK)
        return fail(net, st, "gpuk_timer_stop");
    if ((st = stage(net, TC_DOWNLOAD, ids, probs)) != GPUK_OK)
        return st;
    *total_ms = now_ms() - t0;
    return GPUK_OK;
}

int tc_net_matmul_is_tf32(tc_net *net)
{
    const char *want = net->variant[GPUK_OP_MATMUL];
    size_t n = 0;
    if (gpuk_variant_count(net->ctx, GPUK_OP_MATMUL, &n) != GPUK_OK)
        return 0;
    for (size_t i = 0; i < n; i++) {
        gpuk_variant_info vi;
        if (gpuk_variant_get(net->ctx, GPUK_OP_MATMUL, i, &vi) != GPUK_OK)
            continue;
        int chosen = want && strcmp(want, "auto") != 0 ? strcmp(vi.name, want) == 0
                                                       : (vi.flags & GPUK_VARIANT_DEFAULT) != 0;
        if (chosen)
            return (vi.flags & GPUK_VARIANT_TF32) != 0;
    }
    return 0;
}

void tc_net_close(tc_net *net)
{
    gpuk_context_close(net->ctx);   /* frees every tensor and view */
    net->ctx = NULL;
}

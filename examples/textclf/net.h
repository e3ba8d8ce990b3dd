/*
 * net.h - the text classifier on libgpuk: token ids -> embedding ->
 * linear + ReLU -> mean pool over tokens -> linear -> softmax.
 */
#ifndef TEXTCLF_NET_H
#define TEXTCLF_NET_H

#include <gpuk.h>

#include "model.h"

/* The stages of one batch, each timed on the backend's clock. */
enum {
    TC_UPLOAD,      /* token ids host -> backend */
    TC_EMBEDDING,   /* gpuk_embedding */
    TC_LINEAR1,     /* gpuk_matmul, no bias */
    TC_BIAS_RELU,   /* gpuk_bias_relu, in place */
    TC_MEANPOOL,    /* gpuk_meanpool */
    TC_LINEAR2,     /* gpuk_matmul with bias */
    TC_SOFTMAX,     /* gpuk_softmax */
    TC_DOWNLOAD,    /* probabilities backend -> host */
    TC_NSTAGES
};

extern const char *const tc_stage_name[TC_NSTAGES];

typedef struct tc_net {
    gpuk_context *ctx;
    const char *backend;      /* as opened: "cpu", "cuda", ... */
    int64_t V, E, H, C, B, T;
    gpuk_tensor *table, *w1, *b1, *w2, *b2;
    gpuk_tensor *ids, *emb, *emb2d, *hid, *hid3d, *pooled, *logits, *probs;
    const char *variant[GPUK_OP_LAST + 1];   /* NULL: the default rung */
    char err[1024];
} tc_net;

/* Open a context on `backend` (NULL: GPUK_BACKEND, else auto).  On
 * failure net->err holds the load report's verdict. */
gpuk_status tc_net_open(tc_net *net, const char *backend);

/* Allocate every tensor for model m and batches of b's shape, and upload
 * the weights. */
gpuk_status tc_net_load(tc_net *net, const tc_model *m, int64_t batch, int64_t tokens);

/* One batch.  ms (TC_NSTAGES entries) may be NULL; when given, every stage
 * is timed separately (which waits after each). */
gpuk_status tc_net_forward(tc_net *net, const int32_t *ids, float *probs, double *ms);

/* One batch with a single interval around the compute stages (embedding
 * to softmax), so no wait separates them: *compute_ms.  *total_ms is the
 * host's wall clock from upload to download. */
gpuk_status tc_net_forward_timed(tc_net *net, const int32_t *ids, float *probs,
                                 double *compute_ms, double *total_ms);

/* Whether the variant chosen for matmul rounds to TF32 (so the reference
 * bound must use u = 2^-11). */
int tc_net_matmul_is_tf32(tc_net *net);

void tc_net_close(tc_net *net);

#endif

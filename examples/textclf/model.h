/*
 * model.h - the text classifier's files (FORMAT.md), a deterministic
 * random model, and a float64 reference of the forward pass with an
 * error bound for float32 results.
 */
#ifndef TEXTCLF_MODEL_H
#define TEXTCLF_MODEL_H

#include <stddef.h>
#include <stdint.h>

#define TC_VERSION 1

/* Weights: embedding[vocab][embed], w1[embed][hidden], b1[hidden],
 * w2[hidden][classes], b2[classes]; row-major.  y = x . w + b, so w is
 * stored input-major (the transpose of a PyTorch nn.Linear weight). */
typedef struct tc_model {
    int64_t vocab, embed, hidden, classes;
    float *embedding, *w1, *b1, *w2, *b2;
} tc_model;

/* Token ids[batch][tokens]; every sequence has exactly `tokens` ids. */
typedef struct tc_batch {
    int64_t batch, tokens;
    int32_t *ids;
} tc_batch;

/* Each returns 0, or -1 with a message in err. */
int tc_model_read(const char *path, tc_model *m, char *err, size_t errlen);
int tc_model_write(const char *path, const tc_model *m, char *err, size_t errlen);
int tc_batch_read(const char *path, tc_batch *b, char *err, size_t errlen);
int tc_batch_write(const char *path, const tc_batch *b, char *err, size_t errlen);
/* Probabilities[batch][classes] and the predicted class of each row. */
int tc_probs_write(const char *path, int64_t batch, int64_t classes, const float *probs,
                   const int32_t *cls, char *err, size_t errlen);

void tc_model_free(tc_model *m);
void tc_batch_free(tc_batch *b);

/* A model and a batch drawn from `seed`: the same seed and dimensions give
 * the same bytes on every machine. */
int tc_generate(uint64_t seed, int64_t vocab, int64_t embed, int64_t hidden, int64_t classes,
                int64_t batch, int64_t tokens, tc_model *m, tc_batch *b, char *err,
                size_t errlen);

/* The float64 forward pass.  bound[i] is how far a float32 computation of
 * probs[i] may lie from it: the rounding of each stage (sums of K terms
 * within gamma_K times the sum of their magnitudes, u = u_matmul for the
 * two products: 2^-24 in FP32, 2^-11 for TF32) carried through ReLU
 * (1-Lipschitz), the mean, and softmax (logits off by at most d change a
 * probability by at most a factor e^(2d)).  margin[b] is the gap between
 * the two largest logits of row b, and zerr[b] the bound on any logit's
 * error: a class may legitimately differ only when margin <= 2 zerr. */
typedef struct tc_ref {
    double *probs;   /* [batch][classes] */
    double *bound;   /* [batch][classes] */
    double *margin;  /* [batch] */
    double *zerr;    /* [batch] */
    int32_t *cls;    /* [batch] */
} tc_ref;

/* Returns 0, or -1 with a message (an id outside [0, vocab), say). */
int tc_reference(const tc_model *m, const tc_batch *b, double u_matmul, tc_ref *r, char *err,
                 size_t errlen);
void tc_ref_free(tc_ref *r);

/* Index of the largest of n values (the first, on a tie). */
int32_t tc_argmax(const float *v, int64_t n);

#endif

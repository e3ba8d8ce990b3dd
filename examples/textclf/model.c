/*
 * model.c - reading and writing the text classifier's files, generating a
 * random model, and the float64 reference forward pass with its bound.
 * The file layout is specified in FORMAT.md.
 */
#include "model.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MODEL_MAGIC "GKTM"
#define BATCH_MAGIC "GKTB"
#define PROBS_MAGIC "GKTP"
#define MODEL_HEADER 32
#define SMALL_HEADER 24
/* Dimensions are stored as u32 and ids are i32, so each fits in int32. */
#define DIM_MAX 2147483647LL
/* Refuse files over 16 GiB of payload rather than trusting a header. */
#define ELEMS_MAX (1LL << 32)

/* ------------------------------------------------------------ bytes */

/* The files are little-endian whatever the host is, so every value goes
 * through these rather than through a cast of the buffer. */
static uint32_t get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_u32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

static void get_f32s(const unsigned char *p, float *dst, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        uint32_t u = get_u32(p + 4 * i);
        memcpy(&dst[i], &u, 4);
    }
}

static void put_f32s(unsigned char *p, const float *src, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &src[i], 4);
        put_u32(p + 4 * i, u);
    }
}

static void get_i32s(const unsigned char *p, int32_t *dst, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        dst[i] = (int32_t)get_u32(p + 4 * i);
}

static void put_i32s(unsigned char *p, const int32_t *src, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        put_u32(p + 4 * i, (uint32_t)src[i]);
}

/* ------------------------------------------------------------ files */

static unsigned char *slurp(const char *path, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    unsigned char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 1 << 16;
            unsigned char *nb = realloc(buf, ncap);
            if (!nb) {
                snprintf(err, errlen, "%s: out of memory after %zu bytes", path, n);
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        snprintf(err, errlen, "%s: read error", path);
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    *len = n;
    return buf;
}

static int spill(const char *path, const unsigned char *buf, size_t len, char *err,
                 size_t errlen)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    size_t put = fwrite(buf, 1, len, f);
    if (fclose(f) != 0 || put != len) {
        snprintf(err, errlen, "%s: write error", path);
        return -1;
    }
    return 0;
}

/* Check magic, version and header size; return the header size or -1. */
static int64_t check_header(const char *path, const unsigned char *buf, size_t len,
                            const char *magic, int64_t min_header, char *err, size_t errlen)
{
    if (len < (size_t)min_header) {
        snprintf(err, errlen, "%s: %zu bytes, shorter than the %lld-byte header", path, len,
                 (long long)min_header);
        return -1;
    }
    if (memcmp(buf, magic, 4) != 0) {
        snprintf(err, errlen, "%s: magic is not \"%s\" (not a textclf %s file)", path, magic,
                 magic[3] == 'M' ? "model" : magic[3] == 'B' ? "batch" : "probabilities");
        return -1;
    }
    uint32_t version = get_u32(buf + 4), header = get_u32(buf + 8);
    if (version != TC_VERSION) {
        snprintf(err, errlen, "%s: format version %u, this program reads version %d", path,
                 version, TC_VERSION);
        return -1;
    }
    if (header < min_header || header > len) {
        snprintf(err, errlen, "%s: header size %u is outside [%lld, file size %zu]", path,
                 header, (long long)min_header, len);
        return -1;
    }
    return header;
}

static int check_dim(const char *path, const char *name, uint32_t v, char *err, size_t errlen)
{
    if (v == 0 || v > DIM_MAX) {
        snprintf(err, errlen, "%s: %s = %u, must be in [1, %lld]", path, name, v, DIM_MAX);
        return -1;
    }
    return 0;
}

static int model_count(const tc_model *m, int64_t *count)
{
    /* each term is below 2^62 since every dim is below 2^31 */
    int64_t n = m->vocab * m->embed;
    int64_t terms[4] = { m->embed * m->hidden, m->hidden, m->hidden * m->classes, m->classes };
    for (int i = 0; i < 4; i++) {
        if (n > ELEMS_MAX || terms[i] > ELEMS_MAX)
            return -1;
        n += terms[i];
    }
    if (n > ELEMS_MAX)
        return -1;
    *count = n;
    return 0;
}

int tc_model_read(const char *path, tc_model *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    size_t len;
    unsigned char *buf = slurp(path, &len, err, errlen);
    if (!buf)
        return -1;
    int64_t header = check_header(path, buf, len, MODEL_MAGIC, MODEL_HEADER, err, errlen);
    if (header < 0)
        goto fail;
    const char *names[4] = { "vocab", "embed", "hidden", "classes" };
    int64_t *dims[4] = { &m->vocab, &m->embed, &m->hidden, &m->classes };
    for (int i = 0; i < 4; i++) {
        uint32_t v = get_u32(buf + 12 + 4 * i);
        if (check_dim(path, names[i], v, err, errlen) != 0)
            goto fail;
        *dims[i] = v;
    }
    int64_t count;
    if (model_count(m, &count) != 0) {
        snprintf(err, errlen, "%s: the dimensions ask for more than 2^32 weights", path);
        goto fail;
    }
    if ((uint64_t)len != (uint64_t)header + 4 * (uint64_t)count) {
        snprintf(err, errlen, "%s: %zu bytes, but header %lld + 4 x %lld weights = %llu", path,
                 len, (long long)header, (long long)count,
                 (unsigned long long)(header + 4 * count));
        goto fail;
    }
    float *w = malloc((size_t)count * sizeof *w);
    if (!w) {
        snprintf(err, errlen, "%s: out of memory for %lld weights", path, (long long)count);
        goto fail;
    }
    get_f32s(buf + header, w, count);
    m->embedding = w;
    m->w1 = m->embedding + m->vocab * m->embed;
    m->b1 = m->w1 + m->embed * m->hidden;
    m->w2 = m->b1 + m->hidden;
    m->b2 = m->w2 + m->hidden * m->classes;
    free(buf);
    return 0;
fail:
    free(buf);
    memset(m, 0, sizeof *m);
    return -1;
}

int tc_model_write(const char *path, const tc_model *m, char *err, size_t errlen)
{
    int64_t count;
    if (model_count(m, &count) != 0) {
        snprintf(err, errlen, "%s: model too large for the format", path);
        return -1;
    }
    size_t len = MODEL_HEADER + 4 * (size_t)count;
    unsigned char *buf = calloc(1, len);
    if (!buf) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    memcpy(buf, MODEL_MAGIC, 4);
    put_u32(buf + 4, TC_VERSION);
    put_u32(buf + 8, MODEL_HEADER);
    put_u32(buf + 12, (uint32_t)m->vocab);
    put_u32(buf + 16, (uint32_t)m->embed);
    put_u32(buf + 20, (uint32_t)m->hidden);
    put_u32(buf + 24, (uint32_t)m->classes);
    /* bytes 28..31 reserved, zero */
    unsigned char *p = buf + MODEL_HEADER;
    const float *arr[5] = { m->embedding, m->w1, m->b1, m->w2, m->b2 };
    int64_t n[5] = { m->vocab * m->embed, m->embed * m->hidden, m->hidden,
                     m->hidden * m->classes, m->classes };
    for (int i = 0; i < 5; i++) {
        put_f32s(p, arr[i], n[i]);
        p += 4 * n[i];
    }
    int rc = spill(path, buf, len, err, errlen);
    free(buf);
    return rc;
}

int tc_batch_read(const char *path, tc_batch *b, char *err, size_t errlen)
{
    memset(b, 0, sizeof *b);
    size_t len;
    unsigned char *buf = slurp(path, &len, err, errlen);
    if (!buf)
        return -1;
    int64_t header = check_header(path, buf, len, BATCH_MAGIC, SMALL_HEADER, err, errlen);
    if (header < 0)
        goto fail;
    uint32_t nb = get_u32(buf + 12), nt = get_u32(buf + 16);
    if (check_dim(path, "batch", nb, err, errlen) || check_dim(path, "tokens", nt, err, errlen))
        goto fail;
    int64_t count = (int64_t)nb * nt;
    if (count > ELEMS_MAX || (uint64_t)len != (uint64_t)header + 4 * (uint64_t)count) {
        snprintf(err, errlen, "%s: %zu bytes, but header %lld + 4 x %u x %u ids = %llu", path,
                 len, (long long)header, nb, nt,
                 (unsigned long long)header + 4ULL * (unsigned long long)count);
        goto fail;
    }
    b->ids = malloc((size_t)count * sizeof *b->ids);
    if (!b->ids) {
        snprintf(err, errlen, "%s: out of memory", path);
        goto fail;
    }
    get_i32s(buf + header, b->ids, count);
    b->batch = nb;
    b->tokens = nt;
    /* The ids are not range-checked here: gpuk_embedding checks them
     * against the model's vocabulary and says which one is bad. */
    free(buf);
    return 0;
fail:
    free(buf);
    return -1;
}

int tc_batch_write(const char *path, const tc_batch *b, char *err, size_t errlen)
{
    int64_t count = b->batch * b->tokens;
    size_t len = SMALL_HEADER + 4 * (size_t)count;
    unsigned char *buf = calloc(1, len);
    if (!buf) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    memcpy(buf, BATCH_MAGIC, 4);
    put_u32(buf + 4, TC_VERSION);
    put_u32(buf + 8, SMALL_HEADER);
    put_u32(buf + 12, (uint32_t)b->batch);
    put_u32(buf + 16, (uint32_t)b->tokens);
    put_i32s(buf + SMALL_HEADER, b->ids, count);
    int rc = spill(path, buf, len, err, errlen);
    free(buf);
    return rc;
}

int tc_probs_write(const char *path, int64_t batch, int64_t classes, const float *probs,
                   const int32_t *cls, char *err, size_t errlen)
{
    size_t len = SMALL_HEADER + 4 * (size_t)(batch * classes + batch);
    unsigned char *buf = calloc(1, len);
    if (!buf) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    memcpy(buf, PROBS_MAGIC, 4);
    put_u32(buf + 4, TC_VERSION);
    put_u32(buf + 8, SMALL_HEADER);
    put_u32(buf + 12, (uint32_t)batch);
    put_u32(buf + 16, (uint32_t)classes);
    put_f32s(buf + SMALL_HEADER, probs, batch * classes);
    put_i32s(buf + SMALL_HEADER + 4 * batch * classes, cls, batch);
    int rc = spill(path, buf, len, err, errlen);
    free(buf);
    return rc;
}

void tc_model_free(tc_model *m)
{
    free(m->embedding);   /* one allocation holds all five arrays */
    memset(m, 0, sizeof *m);
}

void tc_batch_free(tc_batch *b)
{
    free(b->ids);
    memset(b, 0, sizeof *b);
}

/* ------------------------------------------------------------ generate */

/* splitmix64: a full-period 64-bit generator with a one-line state, so the
 * stream depends on the seed alone, never on the platform's rand(). */
static uint64_t next_u64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Uniform in [-scale, scale): 24 random bits are exact in a float, and
 * the one product rounds the same under any IEEE 754 arithmetic. */
static float uniform(uint64_t *s, float scale)
{
    float unit = (float)(next_u64(s) >> 40) * (1.0f / 16777216.0f);   /* [0, 1) */
    return (2.0f * unit - 1.0f) * scale;
}

int tc_generate(uint64_t seed, int64_t vocab, int64_t embed, int64_t hidden, int64_t classes,
                int64_t batch, int64_t tokens, tc_model *m, tc_batch *b, char *err,
                size_t errlen)
{
    memset(m, 0, sizeof *m);
    memset(b, 0, sizeof *b);
    int64_t dims[6] = { vocab, embed, hidden, classes, batch, tokens };
    for (int i = 0; i < 6; i++)
        if (dims[i] < 1 || dims[i] > DIM_MAX) {
            snprintf(err, errlen, "every dimension must be in [1, %lld]", DIM_MAX);
            return -1;
        }
    m->vocab = vocab;
    m->embed = embed;
    m->hidden = hidden;
    m->classes = classes;
    int64_t count;
    if (model_count(m, &count) != 0 || batch * tokens > ELEMS_MAX) {
        snprintf(err, errlen, "dimensions too large for the format");
        return -1;
    }
    float *w = malloc((size_t)count * sizeof *w);
    int32_t *ids = malloc((size_t)(batch * tokens) * sizeof *ids);
    if (!w || !ids) {
        free(w);
        free(ids);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    m->embedding = w;
    m->w1 = m->embedding + vocab * embed;
    m->b1 = m->w1 + embed * hidden;
    m->w2 = m->b1 + hidden;
    m->b2 = m->w2 + hidden * classes;

    /* Random weights alone would make every sequence look alike after
     * averaging 100 tokens, and every row would predict the same class.
     * So the words fall into C topics (word v has topic v mod C), each
     * word's vector is half its topic's centre and half its own noise, and
     * each sequence draws 3 of 4 tokens from one topic: the pooled vectors
     * then differ between sequences, and so do the predicted classes. */
    uint64_t s = seed;
    float *centre = malloc((size_t)(classes * embed) * sizeof *centre);
    if (!centre) {
        tc_model_free(m);
        free(ids);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int64_t i = 0; i < classes * embed; i++)
        centre[i] = uniform(&s, 1.0f);
    for (int64_t v = 0; v < vocab; v++)
        for (int64_t e = 0; e < embed; e++)
            m->embedding[v * embed + e] = 0.5f * centre[(v % classes) * embed + e] +
                                          uniform(&s, 0.5f);
    free(centre);
    /* the layers scaled like a usual initialisation (1/sqrt(fan-in)), so
     * activations stay of order 1 */
    float s1 = 1.0f / sqrtf((float)embed), s2 = 1.0f / sqrtf((float)hidden);
    for (int64_t i = 0; i < embed * hidden; i++)
        m->w1[i] = uniform(&s, s1);
    for (int64_t i = 0; i < hidden; i++)
        m->b1[i] = uniform(&s, 0.1f);
    for (int64_t i = 0; i < hidden * classes; i++)
        m->w2[i] = uniform(&s, 4.0f * s2);
    for (int64_t i = 0; i < classes; i++)
        m->b2[i] = uniform(&s, 0.1f);
    for (int64_t q = 0; q < batch; q++) {
        uint64_t topic = next_u64(&s) % (uint64_t)classes;
        /* words of this topic: topic, topic + C, ... below vocab */
        uint64_t in_topic = (int64_t)topic < vocab ? ((uint64_t)vocab - topic + classes - 1) /
                                                         (uint64_t)classes : 0;
        for (int64_t t = 0; t < tokens; t++) {
            uint64_t pick = next_u64(&s), r = next_u64(&s);
            ids[q * tokens + t] = (int32_t)(pick % 4 != 0 && in_topic
                                                ? topic + (uint64_t)classes * (r % in_topic)
                                                : r % (uint64_t)vocab);
        }
    }
    b->batch = batch;
    b->tokens = tokens;
    b->ids = ids;
    return 0;
}

/* ------------------------------------------------------------ reference */

static double gamma_of(int64_t k, double u)
{
    double ku = (double)k * u;
    return ku < 1.0 ? ku / (1.0 - ku) : INFINITY;
}

int32_t tc_argmax(const float *v, int64_t n)
{
    int32_t best = 0;
    for (int64_t i = 1; i < n; i++)
        if (v[i] > v[best])
            best = (int32_t)i;
    return best;
}

int tc_reference(const tc_model *m, const tc_batch *b, double u_mm, tc_ref *r, char *err,
                 size_t errlen)
{
    const int64_t E = m->embed, H = m->hidden, C = m->classes, T = b->tokens;
    const double u = ldexp(1.0, -24);           /* FP32 unit roundoff */
    const double g_e = gamma_of(E, u_mm), g_h = gamma_of(H, u_mm), g_t = gamma_of(T, u);
    memset(r, 0, sizeof *r);
    r->probs = malloc((size_t)(b->batch * C) * sizeof(double));
    r->bound = malloc((size_t)(b->batch * C) * sizeof(double));
    r->margin = malloc((size_t)b->batch * sizeof(double));
    r->zerr = malloc((size_t)b->batch * sizeof(double));
    r->cls = malloc((size_t)b->batch * sizeof(int32_t));
    double *sum = malloc((size_t)H * sizeof(double));   /* pooled sum of h */
    double *esum = malloc((size_t)H * sizeof(double));  /* pooled error of h */
    double *hpre = malloc((size_t)H * sizeof(double));
    double *habs = malloc((size_t)H * sizeof(double));
    double *z = malloc((size_t)C * sizeof(double));
    double *ez = malloc((size_t)C * sizeof(double));
    double *p = malloc((size_t)H * sizeof(double));
    double *ep = malloc((size_t)H * sizeof(double));
    int rc = -1;
    if (!r->probs || !r->bound || !r->margin || !r->zerr || !r->cls || !sum || !esum || !hpre ||
        !habs || !z || !ez || !p || !ep) {
        snprintf(err, errlen, "reference: out of memory");
        goto out;
    }
    for (int64_t s = 0; s < b->batch; s++) {
        for (int64_t j = 0; j < H; j++)
            sum[j] = esum[j] = 0.0;
        for (int64_t t = 0; t < T; t++) {
            int32_t id = b->ids[s * T + t];
            if (id < 0 || id >= m->vocab) {
                snprintf(err, errlen, "reference: id %d at [%lld][%lld] is outside [0, %lld)",
                         id, (long long)s, (long long)t, (long long)m->vocab);
                goto out;
            }
            const float *x = m->embedding + (int64_t)id * E;
            for (int64_t j = 0; j < H; j++)
                hpre[j] = habs[j] = 0.0;
            for (int64_t k = 0; k < E; k++) {
                const float *w = m->w1 + k * H;
                for (int64_t j = 0; j < H; j++) {
                    double prod = (double)x[k] * w[j];
                    hpre[j] += prod;
                    habs[j] += fabs(prod);
                }
            }
            for (int64_t j = 0; j < H; j++) {
                double pre = hpre[j] + m->b1[j];
                /* the product's sum, then one rounded bias add; ReLU
                 * passes the error through without growing it */
                double e = 2.0 * (g_e * habs[j] + u * fabs(pre));
                sum[j] += pre > 0.0 ? pre : 0.0;
                esum[j] += e;
            }
        }
        for (int64_t j = 0; j < H; j++) {
            p[j] = sum[j] / (double)T;
            /* mean of the inputs' errors, the T-term sum, the division */
            ep[j] = 2.0 * (esum[j] / (double)T + g_t * p[j] + u * p[j]);
        }
        double zmax = -INFINITY, dz = 0.0;
        for (int64_t c = 0; c < C; c++) {
            double acc = m->b2[c], mag = 0.0, prop = 0.0;
            for (int64_t j = 0; j < H; j++) {
                double w = m->w2[j * C + c];
                acc += p[j] * w;
                mag += fabs(p[j] * w);
                prop += fabs(w) * ep[j];
            }
            z[c] = acc;
            ez[c] = 2.0 * (prop + g_h * mag + u * fabs(acc));
            if (acc > zmax)
                zmax = acc;
            if (ez[c] > dz)
                dz = ez[c];
        }
        double total = 0.0;
        for (int64_t c = 0; c < C; c++)
            total += exp(z[c] - zmax);
        int32_t best = 0;
        double second = -INFINITY;
        for (int64_t c = 0; c < C; c++) {
            double pc = exp(z[c] - zmax) / total;
            r->probs[s * C + c] = pc;
            /* logits within dz move a probability by a factor within
             * e^(+-2 dz); softmax itself adds a few roundings per class
             * (exp, a C-term sum, a division); the last term covers
             * float32's subnormal spacing near 0 */
            r->bound[s * C + c] = pc * (expm1(2.0 * dz) + 2.0 * (double)(C + 8) * u) + 0x1p-125;
            if (c > 0 && z[c] > z[best])
                best = (int32_t)c;
        }
        for (int64_t c = 0; c < C; c++)
            if (c != best && z[c] > second)
                second = z[c];
        r->cls[s] = best;
        r->margin[s] = C > 1 ? z[best] - second : INFINITY;
        r->zerr[s] = dz;
    }
    rc = 0;
out:
    free(sum);
    free(esum);
    free(hpre);
    free(habs);
    free(z);
    free(ez);
    free(p);
    free(ep);
    if (rc != 0)
        tc_ref_free(r);
    return rc;
}

void tc_ref_free(tc_ref *r)
{
    free(r->probs);
    free(r->bound);
    free(r->margin);
    free(r->zerr);
    free(r->cls);
    memset(r, 0, sizeof *r);
}

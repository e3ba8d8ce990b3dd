/*
 * graph.c - see graph.h.
 */
#include "graph.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest graph whose n x n distance matrix this example will build. */
#define MAX_VERTICES ((int64_t)1 << 20)

static uint64_t mix(uint64_t *s)   /* splitmix64 */
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int reserve(graph *g, int64_t cap)
{
    g->u = realloc(g->u, (size_t)cap * sizeof *g->u);
    g->v = realloc(g->v, (size_t)cap * sizeof *g->v);
    g->w = realloc(g->w, (size_t)cap * sizeof *g->w);
    return g->u && g->v && g->w ? 0 : -1;
}

static void arc(graph *g, int64_t u, int64_t v, float w)
{
    g->u[g->m] = (int32_t)u;
    g->v[g->m] = (int32_t)v;
    g->w[g->m] = w;
    g->m++;
}

void graph_free(graph *g)
{
    free(g->u), free(g->v), free(g->w);
    memset(g, 0, sizeof *g);
}

int graph_grid(graph *g, int64_t rows, int64_t cols, int maxw, uint64_t seed)
{
    memset(g, 0, sizeof *g);
    if (rows < 1 || cols < 1 || rows * cols > MAX_VERTICES || maxw < 1)
        return -1;
    g->n = rows * cols;
    g->integral = 1;
    if (reserve(g, 4 * g->n) != 0)
        return -1;
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++) {
            int64_t x = r * cols + c;
            /* a street to the east and one to the south, both ways */
            if (c + 1 < cols) {
                float w = (float)(1 + mix(&seed) % (uint64_t)maxw);
                arc(g, x, x + 1, w), arc(g, x + 1, x, w);
            }
            if (r + 1 < rows) {
                float w = (float)(1 + mix(&seed) % (uint64_t)maxw);
                arc(g, x, x + cols, w), arc(g, x + cols, x, w);
            }
        }
    return 0;
}

int graph_geometric(graph *g, int64_t n, uint64_t seed)
{
    memset(g, 0, sizeof *g);
    if (n < 1 || n > MAX_VERTICES)
        return -1;
    g->n = n;
    g->integral = 1;
    double *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
    double r = n > 1 ? sqrt(2.5 * log((double)n) / (M_PI * (double)n)) : 1.0;
    /* points bucketed in cells of side >= r: neighbours are in the 3 x 3 cells around */
    int64_t cells = (int64_t)(1.0 / r);
    cells = cells < 1 ? 1 : cells > 4096 ? 4096 : cells;
    int64_t *head = malloc((size_t)(cells * cells) * sizeof *head);
    int64_t *next = malloc((size_t)n * sizeof *next), cap = 16 * n + 16;
    if (!x || !y || !head || !next || reserve(g, cap) != 0) {
        free(x), free(y), free(head), free(next);
        return -1;
    }
    for (int64_t i = 0; i < cells * cells; i++)
        head[i] = -1;
    for (int64_t i = 0; i < n; i++) {
        x[i] = (double)(mix(&seed) >> 11) / 9007199254740992.0;
        y[i] = (double)(mix(&seed) >> 11) / 9007199254740992.0;
        int64_t cx = (int64_t)(x[i] * cells), cy = (int64_t)(y[i] * cells);
        int64_t c = (cy < cells ? cy : cells - 1) * cells + (cx < cells ? cx : cells - 1);
        next[i] = head[c];
        head[c] = i;
    }
    int bad = 0;
    for (int64_t i = 0; i < n && !bad; i++) {
        int64_t cx = (int64_t)(x[i] * cells), cy = (int64_t)(y[i] * cells);
        for (int64_t dy = -1; dy <= 1; dy++)
            for (int64_t dx = -1; dx <= 1; dx++) {
                int64_t ax = cx + dx, ay = cy + dy;
                if (ax < 0 || ay < 0 || ax >= cells || ay >= cells)
                    continue;
                for (int64_t j = head[ay * cells + ax]; j >= 0; j = next[j]) {
                    double dd = hypot(x[i] - x[j], y[i] - y[j]);
                    if (j <= i || dd >= r)
                        continue;   /* each pair once, from its smaller end */
                    if (g->m + 2 > cap && reserve(g, cap *= 2) != 0) {
                        bad = 1;
                        break;
                    }
                    float w = (float)(floor(1000.0 * dd + 0.5) + 1.0);
                    arc(g, i, j, w), arc(g, j, i, w);
                }
            }
    }
    free(x), free(y), free(head), free(next);
    return bad ? -1 : 0;
}

/* One whitespace-separated token of s, from *p; NULL at the end of the line. */
static char *token(char **p)
{
    char *s = *p;
    while (*s && isspace((unsigned char)*s))
        s++;
    if (!*s)
        return NULL;
    char *t = s;
    while (*s && !isspace((unsigned char)*s))
        s++;
    if (*s)
        *s++ = '\0';
    *p = s;
    return t;
}

static int whole(const char *t, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = t ? strtoll(t, &end, 10) : 0;
    if (!t || *end || errno)
        return -1;
    *out = v;
    return 0;
}

int graph_read_dimacs(graph *g, const char *path, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    char line[4096];
    int64_t lineno = 0, pline = 0, declared = 0;
    int rc = 0;
    g->integral = 1;
#define BAD(...) do { int k_ = snprintf(err, errlen, "%s:%lld: ", path, (long long)lineno);  \
                      snprintf(err + (k_ > 0 && (size_t)k_ < errlen ? k_ : 0),                 \
                               errlen - (k_ > 0 && (size_t)k_ < errlen ? (size_t)k_ : 0),     \
                               __VA_ARGS__); rc = -1; goto done; } while (0)
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (!strchr(line, '\n') && !feof(f))
            BAD("line longer than %zu characters", sizeof line - 2);
        char *p = line, *kind = token(&p);
        if (!kind || !strcmp(kind, "c"))
            continue;   /* blank or comment */
        if (!strcmp(kind, "p")) {
            char *type = token(&p), *tn = token(&p), *tm = token(&p), *extra = token(&p);
            int64_t n, m;
            if (pline)
                BAD("a second problem line (the first is line %lld)", (long long)pline);
            if (!type || strcmp(type, "sp"))
                BAD("problem type \"%s\" is not sp (expected \"p sp N M\")", type ? type : "");
            if (whole(tn, &n) || whole(tm, &m) || extra)
                BAD("expected \"p sp N M\" with whole numbers N and M");
            if (n < 1 || n > MAX_VERTICES || m < 0)
                BAD("N = %lld, M = %lld: need 1 <= N <= %lld and M >= 0", (long long)n,
                    (long long)m, (long long)MAX_VERTICES);
            g->n = n;
            declared = m;
            pline = lineno;
            if (reserve(g, m > 0 ? m : 1) != 0)
                BAD("out of memory for %lld arcs", (long long)m);
        } else if (!strcmp(kind, "a")) {
            char *tu = token(&p), *tv = token(&p), *tw = token(&p), *extra = token(&p), *end;
            int64_t u, v;
            if (!pline)
                BAD("an arc before the problem line \"p sp N M\"");
            if (whole(tu, &u) || whole(tv, &v) || !tw || extra)
                BAD("expected \"a U V W\" with whole vertex numbers U and V");
            errno = 0;
            double w = strtod(tw, &end);
            if (*end || errno || !isfinite(w) || w < 0)
                BAD("weight \"%s\" is not a finite number >= 0", tw);
            if (u < 1 || u > g->n || v < 1 || v > g->n)
                BAD("arc %lld -> %lld: vertices are numbered 1 to %lld", (long long)u,
                    (long long)v, (long long)g->n);
            if (g->m == declared)
                BAD("more arcs than the %lld the problem line (line %lld) declares",
                    (long long)declared, (long long)pline);
            if (w != floor(w))
                g->integral = 0;
            arc(g, u - 1, v - 1, (float)w);
        } else {
            BAD("unknown line type \"%s\" (expected c, p or a)", kind);
        }
    }
    if (ferror(f))
        BAD("read error: %s", strerror(errno));
    if (!pline) {
        snprintf(err, errlen, "%s: no problem line \"p sp N M\"", path);
        rc = -1;
    } else if (g->m != declared) {
        lineno = pline;
        BAD("the problem line declares %lld arcs, the file has %lld", (long long)declared,
            (long long)g->m);
    }
#undef BAD
done:
    fclose(f);
    if (rc)
        graph_free(g);
    return rc;
}

/* ---------------------------------------------------------------- Dijkstra */

typedef struct heap {
    int64_t *v;
    double *key;
    int64_t n;
} heap;

static void push(heap *h, int64_t v, double key)   /* lazy deletion: duplicates allowed */
{
    int64_t i = h->n++;
    while (i > 0 && h->key[(i - 1) / 2] > key) {
        h->v[i] = h->v[(i - 1) / 2], h->key[i] = h->key[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->v[i] = v, h->key[i] = key;
}

static int64_t pop(heap *h, double *key)
{
    int64_t top = h->v[0];
    *key = h->key[0];
    int64_t lv = h->v[--h->n], i = 0;
    double lk = h->key[h->n];
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && h->key[c + 1] < h->key[c])
            c++;
        if (h->key[c] >= lk)
            break;
        h->v[i] = h->v[c], h->key[i] = h->key[c];
        i = c;
    }
    h->v[i] = lv, h->key[i] = lk;
    return top;
}

/* The arcs by tail (by_head 0) or by head: a counting sort of the arc
 * list; the arcs of vertex x are order[first[x] .. first[x + 1]).  0, or
 * -1 out of memory (both NULL). */
static int index_arcs(const graph *g, int by_head, int64_t **first_out, int64_t **order_out)
{
    const int32_t *key = by_head ? g->v : g->u;
    int64_t *first = calloc((size_t)g->n + 1, sizeof *first), *order = malloc((size_t)g->m * 8 + 8);
    int64_t *fill = malloc((size_t)g->n * sizeof *fill + 8);
    *first_out = *order_out = NULL;
    if (!first || !order || !fill) {
        free(first), free(order), free(fill);
        return -1;
    }
    for (int64_t e = 0; e < g->m; e++)
        first[key[e] + 1]++;
    for (int64_t i = 0; i < g->n; i++)
        first[i + 1] += first[i];
    memcpy(fill, first, (size_t)g->n * sizeof *fill);
    for (int64_t e = 0; e < g->m; e++)
        order[fill[key[e]]++] = e;
    free(fill);
    *first_out = first, *order_out = order;
    return 0;
}

void graph_dijkstra(const graph *g, int64_t s, double *dist)
{
    int64_t *first = NULL, *order = NULL;
    heap h = { malloc((size_t)(g->m + 1) * 8), malloc((size_t)(g->m + 1) * 8), 0 };
    for (int64_t i = 0; i < g->n; i++)
        dist[i] = INFINITY;
    if (index_arcs(g, 0, &first, &order) || !h.v || !h.key) {
        free(first), free(order), free(h.v), free(h.key);
        return;   /* leaves every distance infinite: the check then fails loudly */
    }
    dist[s] = 0;
    push(&h, s, 0);
    while (h.n > 0) {
        double du;
        int64_t u = pop(&h, &du);
        if (du > dist[u])
            continue;   /* a stale entry */
        for (int64_t k = first[u]; k < first[u + 1]; k++) {
            int64_t e = order[k];
            double nd = du + g->w[e];
            if (nd < dist[g->v[e]]) {
                dist[g->v[e]] = nd;
                push(&h, g->v[e], nd);
            }
        }
    }
    free(first), free(order), free(h.v), free(h.key);
}

/* ---------------------------------------------------------------- paths */

int graph_path_from_row(const graph *g, int64_t s, int64_t t, const double *dist, double tol,
                        int64_t *path, int64_t cap, int64_t *len)
{
    int64_t *first = NULL, *order = NULL;
    *len = 0;
    if (!isfinite(dist[t]))
        return 0;
    /* next[x]: the vertex after x on a tight path to t; breadth first from t */
    int64_t *next = malloc((size_t)g->n * sizeof *next), *queue = malloc((size_t)g->n * 8);
    if (!next || !queue || index_arcs(g, 1, &first, &order)) {
        free(next), free(queue), free(first), free(order);
        return -2;
    }
    for (int64_t x = 0; x < g->n; x++)
        next[x] = -2;   /* not reached */
    int64_t head = 0, tail = 0;
    next[t] = -1, queue[tail++] = t;
    while (head < tail && next[s] == -2) {
        int64_t v = queue[head++];
        for (int64_t k = first[v]; k < first[v + 1]; k++) {
            int64_t e = order[k], u = g->u[e];
            double want = dist[v], got = dist[u] + g->w[e];
            if (next[u] == -2 && isfinite(dist[u]) && fabs(got - want) <= tol * fabs(want))
                next[u] = v, queue[tail++] = u;
        }
    }
    int rc = 0;
    if (next[s] != -2) {
        for (int64_t x = s; x != -1; x = next[x]) {
            if (*len == cap) {
                rc = -1;
                break;
            }
            path[(*len)++] = x;
        }
    }
    free(next), free(queue), free(first), free(order);
    return rc;
}

double graph_path_length(const graph *g, const int64_t *path, int64_t len)
{
    int64_t *first = NULL, *order = NULL;
    if (len < 2)
        return 0;
    if (index_arcs(g, 0, &first, &order))
        return NAN;
    double sum = 0;
    for (int64_t i = 0; i + 1 < len && !isinf(sum); i++) {
        double w = INFINITY;
        for (int64_t k = first[path[i]]; k < first[path[i] + 1]; k++)
            if (g->v[order[k]] == path[i + 1] && g->w[order[k]] < w)
                w = g->w[order[k]];
        sum += w;
    }
    free(first), free(order);
    return sum;
}

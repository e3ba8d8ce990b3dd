/*
 * graph.h - the graphs of examples/apsp: generated (a road-like grid, a
 * random geometric graph) or read from a DIMACS shortest-path file;
 * Dijkstra's algorithm, which checks the result; and paths rebuilt from a
 * row of distances.
 */
#ifndef APSP_GRAPH_H
#define APSP_GRAPH_H

#include <stddef.h>
#include <stdint.h>

/* Directed arcs u -> v of weight w >= 0, vertices 0 .. n-1 (0-based). */
typedef struct graph {
    int64_t n, m;
    int32_t *u, *v;
    float *w;
    int integral;   /* every weight is a whole number */
} graph;

/* rows x cols grid, each vertex joined to its 4 neighbours both ways with
 * a random whole weight in 1..maxw (the same seed, the same graph). */
int graph_grid(graph *g, int64_t rows, int64_t cols, int maxw, uint64_t seed);

/* n points uniform in the unit square, joined both ways when closer than
 * sqrt(2.5 ln n / (pi n)) (connected with high probability), weight
 * round(1000 * distance) + 1. */
int graph_geometric(graph *g, int64_t n, uint64_t seed);

/* DIMACS .gr: "c" comments, one "p sp N M", then M lines "a U V W" with
 * 1-based U, V and W >= 0.  On a bad file returns nonzero with
 * "PATH:LINE: what is wrong" in err. */
int graph_read_dimacs(graph *g, const char *path, char *err, size_t errlen);

void graph_free(graph *g);

/* Shortest distances from s to every vertex (INFINITY where unreachable),
 * in double precision: the reference for one row of the result. */
void graph_dijkstra(const graph *g, int64_t s, double *dist);

/* A shortest path from s to t rebuilt from row s of the distance matrix
 * (dist[v] = d(s, v), INFINITY where unreachable) and the arcs, where no
 * predecessors were kept: breadth first back from t along the arcs u -> v
 * that are tight, dist[u] + w = dist[v] within tol |dist[v]| (0 for whole
 * weights), which reaches s whenever t is reachable from it.  path[0] = s
 * ... path[*len - 1] = t, the fewest arcs among tight paths; *len = 0 when
 * t is unreachable.  0; -1 when cap is too small; -2 out of memory. */
int graph_path_from_row(const graph *g, int64_t s, int64_t t, const double *dist, double tol,
                        int64_t *path, int64_t cap, int64_t *len);

/* The length of a path, each step along the lightest arc between its two
 * vertices; INFINITY when a step has no arc (0 for fewer than 2 vertices). */
double graph_path_length(const graph *g, const int64_t *path, int64_t len);

#endif

/*
 * graph.h - the graphs of examples/apsp: generated (a road-like grid, a
 * random geometric graph) or read from a DIMACS shortest-path file, and
 * Dijkstra's algorithm, which checks the distributed result.
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

#endif

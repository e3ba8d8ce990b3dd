/*
 * t_dist_fail.c - every error path of libgpuk_mpi, on 1 to 4 ranks: ranks
 * that disagree (a size, a block, the grid, the root, the matrix, the
 * schedule, the function), arguments that are wrong on every rank or on
 * one, and a local failure on one rank (a rung its backend lacks, and the
 * GPUK_DIST_FAIL injection points, in SUMMA and in apsp).  Each must come
 * back on every rank with the same status and the same message, which
 * names the argument and the rank, without a hang; afterwards the same
 * gpuk_dist still works.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gpuk/mpi.h>
#include "dtap.h"

static int rank, size, last;

/* The status on this rank, the same message on every rank, and the words
 * the message must hold (NULL: none). */
static void expect(const char *what, gpuk_dist *d, gpuk_status st, gpuk_status want,
                   const char *w1, const char *w2)
{
    char msg[512], first[512];
    snprintf(msg, sizeof msg, "%s", gpuk_dist_error(d));
    memcpy(first, msg, sizeof first);
    MPI_Bcast(first, (int)sizeof first, MPI_CHAR, 0, MPI_COMM_WORLD);
    int ok = 1;
    if (st != want)
        ok = 0, dtap_why("%s, expected %s: %s", gpuk_status_name(st), gpuk_status_name(want), msg);
    else if ((w1 && !strstr(msg, w1)) || (w2 && !strstr(msg, w2)))
        ok = 0, dtap_why("message lacks \"%s\" or \"%s\": %s", w1 ? w1 : "", w2 ? w2 : "", msg);
    else if (strcmp(msg, first) != 0)
        ok = 0, dtap_why("message differs from rank 0's: %s", msg);
    dtap_ok(ok, "%s: %s on every rank%s%s%s%s", what, gpuk_status_name(want),
            w1 ? ", naming \"" : "", w1 ? w1 : "", w1 ? "\"" : "", w2 ? " and the rank" : "");
    if (rank == 0 && ok)
        dtap_diag("  %s", first);
}

static char rank_of(int r, char *buf)   /* "rank R" for messages */
{
    sprintf(buf, "rank %d", r);
    return 0;
}

static gpuk_status open_with(gpuk_dist **d, int p, int q, gpuk_dist_comm comm)
{
    gpuk_dist_options o;
    gpuk_dist_options_init(&o);
    o.prow = p, o.pcol = q, o.comm = comm;
    return gpuk_dist_open(d, MPI_COMM_WORLD, &o);
}

/* A correct min-plus after the failures: all-ones (x) all-ones is all twos. */
static void still_works(gpuk_dist *d, const char *after)
{
    gpuk_dist_matrix *a = NULL, *c = NULL;
    float one[12 * 12], out[12 * 12];
    for (int i = 0; i < 144; i++)
        one[i] = 1.0f;
    gpuk_status st = gpuk_dist_matrix_create(d, 12, 12, 5, 5, &a);
    if (!st) st = gpuk_dist_matrix_create(d, 12, 12, 5, 5, &c);
    if (!st) st = gpuk_dist_scatter(d, a, 0, one, sizeof one);
    if (!st) st = gpuk_dist_minplus(d, a, a, c, NULL);
    if (!st) st = gpuk_dist_gather(d, c, 0, out, sizeof out);
    int ok = st == GPUK_OK;
    for (int i = 0; ok && rank == 0 && i < 144; i++)
        ok = out[i] == 2.0f;
    if (!ok)
        dtap_why("%s: %s", gpuk_status_name(st), gpuk_dist_error(d));
    dtap_ok(ok, "after %s, the same gpuk_dist still computes", after);
    gpuk_dist_matrix_destroy(d, a);
    gpuk_dist_matrix_destroy(d, c);
}

static void injected(const char *where)
{
    char env[64], who[32];
    rank_of(last, who);
    snprintf(env, sizeof env, "%d:%s", last, where);
    setenv("GPUK_DIST_FAIL", env, 1);
    gpuk_dist *d = NULL;
    gpuk_status st = gpuk_dist_open(&d, MPI_COMM_WORLD, NULL);
    unsetenv("GPUK_DIST_FAIL");
    char what[96];
    snprintf(what, sizeof what, "GPUK_DIST_FAIL=%s", env);
    if (!strcmp(where, "open")) {
        expect(what, NULL, st, GPUK_ERR_INTERNAL, "GPUK_DIST_FAIL", who);
        return;
    }
    if (st != GPUK_OK) {
        dtap_ok(0, "%s: open failed: %s", what, gpuk_dist_error(NULL));
        return;
    }
    gpuk_dist_matrix *a = NULL, *c = NULL;
    float x[20 * 20] = { 0 };
    st = gpuk_dist_matrix_create(d, 20, 20, 3, 3, &a);
    if (!strcmp(where, "create")) {
        expect(what, d, st, GPUK_ERR_INTERNAL, "GPUK_DIST_FAIL", who);
    } else {
        if (!st) st = gpuk_dist_matrix_create(d, 20, 20, 3, 3, &c);
        if (!st && strcmp(where, "scatter")) st = gpuk_dist_scatter(d, a, 0, x, sizeof x);
        if (!strcmp(where, "scatter"))
            st = gpuk_dist_scatter(d, a, 0, x, sizeof x);
        else if (!strcmp(where, "gather"))
            st = gpuk_dist_gather(d, a, 0, x, sizeof x);
        else if (!st)
            st = gpuk_dist_matmul(d, a, a, c, NULL);
        expect(what, d, st, GPUK_ERR_INTERNAL, "GPUK_DIST_FAIL", who);
        if (!strcmp(where, "panel") || !strcmp(where, "setup")) {
            char also[128];
            snprintf(also, sizeof also, "%s, in gpuk_dist_apsp", what);
            expect(also, d, gpuk_dist_apsp(d, c, NULL), GPUK_ERR_INTERNAL, "GPUK_DIST_FAIL", who);
        }
    }
    gpuk_dist_matrix_destroy(d, a);
    gpuk_dist_matrix_destroy(d, c);
    gpuk_dist_close(d);
}

int main(int argc, char **argv)
{
    char who[32];
    /* SERIALIZED lets libgpuk_mpi wait on broadcasts from a helper thread
     * while a CPU op runs (gpuk_dist(3), GPUK_DIST_PROGRESS) */
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    last = size - 1;
    rank_of(last, who);
    dtap_init(MPI_COMM_WORLD);
    int multi = size > 1;
    gpuk_dist *d = NULL;
    gpuk_status st;

    /* ---------------------------------------------------------------- open */
    st = open_with(&d, size + 1, 1, GPUK_DIST_COMM_AUTO);
    expect("open on a grid with more places than ranks", NULL, st, GPUK_ERR_INVALID, "places",
           "rank 0");
    dtap_ok(d == NULL, "a failed open leaves *d NULL");
    /* a bad value of each kind of switch: the open fails naming it */
    static const char *BAD[][2] = {
        { "GPUK_DIST_GRID", "2by2" },   { "GPUK_DIST_PROGRESS", "yes" },
        { "GPUK_DIST_NCCL_CTAS", "0" }, { "GPUK_DIST_GROUP", "65" },
        { "GPUK_DIST_SLICES", "3x" },   { "GPUK_DIST_COMM_PRIORITY", "low" },
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        char what[64];
        snprintf(what, sizeof what, "%s=%s", BAD[i][0], BAD[i][1]);
        setenv(BAD[i][0], BAD[i][1], 1);
        st = open_with(&d, 0, 0, GPUK_DIST_COMM_AUTO);
        unsetenv(BAD[i][0]);
        expect(what, NULL, st, GPUK_ERR_ENV, BAD[i][0], "rank 0");
    }
    if (multi) {
        st = rank == 0 ? open_with(&d, 1, size, GPUK_DIST_COMM_AUTO)
                       : open_with(&d, size, 1, GPUK_DIST_COMM_AUTO);
        expect("open where rank 0 asks for another grid", NULL, st, GPUK_ERR_LAYOUT, "grid",
               "rank 1");
    } else {
        dtap_skip("grid disagreement needs two ranks");
    }
    injected("open");

    if ((st = gpuk_dist_open(&d, MPI_COMM_WORLD, NULL)) != GPUK_OK) {
        dtap_ok(0, "open: %s", gpuk_dist_error(NULL));
        int rc = dtap_done();
        MPI_Finalize();
        return rc;
    }
    gpuk_dist_info di;
    gpuk_dist_get_info(d, &di);
    if (di.comm != GPUK_DIST_COMM_NCCL) {
        gpuk_dist *n = NULL;
        st = open_with(&n, 0, 0, GPUK_DIST_COMM_NCCL);
        expect("open asking for NCCL where it cannot run", NULL, st, GPUK_ERR_UNSUPPORTED,
               "NCCL", NULL);
    } else {
        dtap_skip("every rank runs NCCL here");
    }

    /* ---------------------------------------------------------------- create */
    gpuk_dist_matrix *m = NULL;
    if (multi) {
        st = gpuk_dist_matrix_create(d, rank == last ? 31 : 30, 20, 4, 4, &m);
        expect("create where one rank passes other rows", d, st, GPUK_ERR_SHAPE, "rows", who);
        st = gpuk_dist_matrix_create(d, 30, 20, rank == last ? 8 : 4, 4, &m);
        expect("create where one rank passes another mb", d, st, GPUK_ERR_LAYOUT, "mb", who);
    } else {
        dtap_skip("size disagreement needs two ranks");
        dtap_skip("block disagreement needs two ranks");
    }
    st = gpuk_dist_matrix_create(d, 30, -2, 4, 4, &m);
    expect("create with cols = -2 everywhere", d, st, GPUK_ERR_SHAPE, "cols", "rank 0");
    st = gpuk_dist_matrix_create(d, 30, 20, 4, -1, &m);
    expect("create with nb = -1 everywhere", d, st, GPUK_ERR_LAYOUT, "nb", "rank 0");
    st = gpuk_dist_matrix_create(d, 30, 20, 4, 4, rank == last ? NULL : &m);
    expect("create with out NULL on one rank", d, st, GPUK_ERR_NULL, "out is NULL", who);
    dtap_ok(m == NULL || rank == last, "no matrix is made when the create fails");

    /* dtypes: one the layer does not hold, and ranks that disagree */
    st = gpuk_dist_matrix_create_dtype(d, GPUK_F16, 30, 20, 4, 4, &m);
    expect("create in f16 everywhere", d, st, GPUK_ERR_DTYPE, "dtype is f16 (4): a distributed "
           "matrix is f32, f64 or i32", "rank 0");
    st = gpuk_dist_matrix_create_dtype(d, (gpuk_dtype)99, 30, 20, 4, 4, &m);
    expect("create in dtype 99 everywhere", d, st, GPUK_ERR_DTYPE, "dtype is ? (99)", "rank 0");
    if (multi) {
        st = gpuk_dist_matrix_create_dtype(d, rank == last ? GPUK_F64 : GPUK_F32, 30, 20, 4, 4,
                                           &m);
        char both[64];
        snprintf(both, sizeof both, "rank %d passes dtype = f64, rank 0 passes f32", last);
        expect("create where one rank passes another dtype", d, st, GPUK_ERR_DTYPE, both, who);
        st = gpuk_dist_matrix_create_dtype(d, rank == last ? GPUK_F16 : GPUK_I32, 30, 20, 4, 4,
                                           &m);
        expect("create where one rank passes a dtype the layer does not hold", d, st,
               GPUK_ERR_DTYPE, "dtype is f16", who);
    } else {
        dtap_skip("dtype disagreement needs two ranks");
        dtap_skip("a dtype on one rank needs two ranks");
    }
    dtap_ok(m == NULL || rank == last, "no matrix is made when a dtype is refused");

    /* ---------------------------------------------------------------- scatter, gather */
    gpuk_dist_matrix *a = NULL, *b = NULL, *c = NULL, *a2 = NULL, *bad = NULL;
    float *host = calloc(40 * 40, sizeof(float));
    if (gpuk_dist_matrix_create(d, 40, 30, 7, 6, &a) || gpuk_dist_matrix_create(d, 30, 40, 6, 7, &b) ||
        gpuk_dist_matrix_create(d, 40, 40, 7, 7, &c) || gpuk_dist_matrix_create(d, 40, 30, 7, 6, &a2) ||
        gpuk_dist_matrix_create(d, 31, 40, 6, 7, &bad)) {
        dtap_ok(0, "creating the test matrices: %s", gpuk_dist_error(d));
        int rc = dtap_done();
        MPI_Finalize();
        return rc;
    }
    size_t abytes = 40 * 30 * sizeof(float);
    if (multi) {
        st = gpuk_dist_scatter(d, a, rank == last ? last : 0, host, abytes);
        expect("scatter where one rank names another root", d, st, GPUK_ERR_INVALID, "root", who);
        st = gpuk_dist_gather(d, rank == last ? a2 : a, 0, host, abytes);
        expect("gather where one rank passes another matrix of the same size", d, st,
               GPUK_ERR_INVALID, "creation number", who);
        st = rank == 0 ? gpuk_dist_gather(d, a, 0, host, abytes)
                       : gpuk_dist_scatter(d, a, 0, host, abytes);
        expect("rank 0 gathers while the others scatter", d, st, GPUK_ERR_INVALID,
               "gpuk_dist_scatter", "gpuk_dist_gather");
    } else {
        for (int i = 0; i < 3; i++)
            dtap_skip("disagreement needs two ranks");
    }
    st = gpuk_dist_scatter(d, a, size + 6, host, abytes);
    expect("scatter from a root that is not a rank", d, st, GPUK_ERR_INVALID, "root", "rank 0");
    st = gpuk_dist_scatter(d, a, last, rank == last ? NULL : host, abytes);
    expect("scatter with src NULL on the root", d, st, GPUK_ERR_NULL, "src", who);
    st = gpuk_dist_gather(d, a, last, host, abytes - 4);
    expect("gather with the wrong byte count on the root", d, st, GPUK_ERR_SIZE, "bytes", who);
    st = gpuk_dist_scatter(d, a, 0, host, abytes);
    dtap_ok(st == GPUK_OK, "a correct scatter after those");
    gpuk_dist_matrix *a64 = NULL, *b64 = NULL, *ai = NULL;
    if (gpuk_dist_matrix_create_dtype(d, GPUK_F64, 40, 30, 7, 6, &a64) ||
        gpuk_dist_matrix_create_dtype(d, GPUK_F64, 30, 40, 6, 7, &b64) ||
        gpuk_dist_matrix_create_dtype(d, GPUK_I32, 40, 30, 7, 6, &ai)) {
        dtap_ok(0, "creating the f64 and i32 test matrices: %s", gpuk_dist_error(d));
        int rc = dtap_done();
        MPI_Finalize();
        return rc;
    }
    double *host64 = calloc(40 * 30, sizeof(double));
    st = gpuk_dist_scatter(d, a64, last, host, abytes);
    expect("scatter of f32 bytes into an f64 matrix", d, st, GPUK_ERR_SIZE,
           "f64 matrix holds 9600 (8 bytes an element)", who);
    st = gpuk_dist_gather(d, ai, 0, host64, 40 * 30 * sizeof(double));
    expect("gather of an i32 matrix into f64 bytes", d, st, GPUK_ERR_SIZE,
           "i32 matrix holds 4800 (4 bytes an element)", "rank 0");
    st = gpuk_dist_scatter(d, a64, 0, host64, 40 * 30 * sizeof(double));
    if (st == GPUK_OK)
        st = gpuk_dist_scatter(d, ai, 0, host, abytes);
    if (st == GPUK_OK)
        st = gpuk_dist_gather(d, a64, last, host64, 40 * 30 * sizeof(double));
    dtap_ok(st == GPUK_OK, "f64 and i32 scatter and gather with their own byte counts");

    /* ---------------------------------------------------------------- ops */
    st = gpuk_dist_matmul(d, a, bad, c, NULL);
    expect("matmul with b's rows not a's columns", d, st, GPUK_ERR_SHAPE, "b has 31 rows",
           "rank 0");
    st = gpuk_dist_minplus(d, a, b, a, NULL);
    expect("min-plus with c the same matrix as a", d, st, GPUK_ERR_ALIAS, "same matrix", "rank 0");
    st = gpuk_dist_matmul(d, a, b, rank == last ? NULL : c, NULL);
    expect("matmul with c NULL on one rank", d, st, GPUK_ERR_NULL, "c is NULL", who);
    if (multi) {
        st = gpuk_dist_minplus(d, rank == last ? a2 : a, b, c, NULL);
        expect("min-plus where one rank passes another a", d, st, GPUK_ERR_INVALID,
               "a (its creation number)", who);
        gpuk_dist_set_schedule(d, rank == last ? GPUK_DIST_SERIAL : GPUK_DIST_OVERLAP);
        st = gpuk_dist_matmul(d, a, b, c, NULL);
        gpuk_dist_set_schedule(d, GPUK_DIST_OVERLAP);
        expect("matmul where one rank set another schedule", d, st, GPUK_ERR_INVALID, "schedule",
               who);
    } else {
        dtap_skip("matrix disagreement needs two ranks");
        dtap_skip("schedule disagreement needs two ranks");
    }
    /* dtypes: operands that differ, and a dtype the local op lacks */
    st = gpuk_dist_matmul(d, a, b64, c, NULL);
    expect("matmul of f32 a and f64 b", d, st, GPUK_ERR_DTYPE, "b: dtype is f64, must be f32",
           "rank 0");
    st = gpuk_dist_minplus(d, a64, b64, c, NULL);
    expect("min-plus of f64 a and b into f32 c", d, st, GPUK_ERR_DTYPE,
           "c: dtype is f32, must be f64", "rank 0");
    st = gpuk_dist_minplus(d, ai, b, c, NULL);
    expect("min-plus of i32 a and f32 b", d, st, GPUK_ERR_DTYPE, "b: dtype is f32, must be i32",
           "rank 0");
    {
        gpuk_dist_matrix *bi = NULL, *ci = NULL;
        size_t count = 1;
        gpuk_variant_count_dtype(di.context, GPUK_OP_GEMM, GPUK_I32, &count);
        int lacks = count == 0, all_lack = 0;
        MPI_Allreduce(&lacks, &all_lack, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (all_lack && !gpuk_dist_matrix_create_dtype(d, GPUK_I32, 30, 40, 6, 7, &bi) &&
            !gpuk_dist_matrix_create_dtype(d, GPUK_I32, 40, 40, 7, 7, &ci)) {
            st = gpuk_dist_matmul(d, ai, bi, ci, NULL);
            expect("matmul in i32, which gpuk_gemm lacks", d, st, GPUK_ERR_DTYPE,
                   "the matrices are i32, but gpuk_gemm on this rank's backend", "rank 0");
        } else {
            dtap_skip("this backend has an i32 gemm: no dtype left to refuse");
        }
        gpuk_dist_matrix_destroy(d, bi);
        gpuk_dist_matrix_destroy(d, ci);
    }
    gpuk_dist_matrix_destroy(d, a64);
    gpuk_dist_matrix_destroy(d, b64);
    gpuk_dist_matrix_destroy(d, ai);
    free(host64);

    /* apsp: a square matrix in square blocks, the same on every rank */
    st = gpuk_dist_apsp(d, a, NULL);
    expect("apsp of a 40 x 30 matrix", d, st, GPUK_ERR_SHAPE, "square", "rank 0");
    st = gpuk_dist_apsp(d, rank == last ? NULL : c, NULL);
    expect("apsp with m NULL on one rank", d, st, GPUK_ERR_NULL, "m is NULL", who);
    {
        gpuk_dist_matrix *rect = NULL, *c2 = NULL;
        if (gpuk_dist_matrix_create(d, 40, 40, 7, 5, &rect) == GPUK_OK) {
            st = gpuk_dist_apsp(d, rect, NULL);
            expect("apsp in 7 x 5 blocks", d, st, GPUK_ERR_LAYOUT, "square blocks", "rank 0");
        }
        if (multi && gpuk_dist_matrix_create(d, 40, 40, 7, 7, &c2) == GPUK_OK) {
            st = gpuk_dist_apsp(d, rank == last ? c2 : c, NULL);
            expect("apsp where one rank passes another matrix", d, st, GPUK_ERR_INVALID,
                   "creation number", who);
        } else {
            dtap_skip("matrix disagreement needs two ranks");
        }
        gpuk_dist_matrix_destroy(d, rect);
        gpuk_dist_matrix_destroy(d, c2);
    }

    gpuk_dist_matrix *kb = NULL;
    if (gpuk_dist_matrix_create(d, 30, 40, 5, 7, &kb) == GPUK_OK) {
        st = gpuk_dist_matmul(d, a, kb, c, NULL);
        expect("matmul with b's row block not a's column block", d, st, GPUK_ERR_LAYOUT,
               "row block", "rank 0");
        gpuk_dist_matrix_destroy(d, kb);
    }

    /* a local failure on one rank: a rung its backend does not have */
    st = gpuk_dist_matmul(d, a, b, c, rank == last ? "no_such_rung" : NULL);
    expect("matmul with a rung one rank's backend lacks", d, st, GPUK_ERR_VARIANT, "gpuk_gemm",
           who);
    st = gpuk_dist_minplus(d, a, b, c, rank == last ? "no_such_rung" : NULL);
    expect("min-plus with a rung one rank's backend lacks", d, st, GPUK_ERR_VARIANT,
           "gpuk_minplus", who);
    still_works(d, "the failed calls");

    /* ---------------------------------------------------------------- local calls */
    int64_t li;
    int r;
    st = gpuk_dist_global_to_local(d, a, 40, 0, &r, &li, NULL);
    dtap_ok(st == GPUK_ERR_INDEX && strstr(gpuk_dist_error(d), "outside"),
            "global_to_local outside the matrix: GPUK_ERR_INDEX");
    st = gpuk_dist_local_to_global(d, a, -1, 0, NULL, NULL);
    dtap_ok(st == GPUK_ERR_INDEX, "local_to_global at -1: GPUK_ERR_INDEX");
    gpuk_tensor *v = NULL;
    st = gpuk_dist_matrix_block(d, a, 99, 0, &v);
    dtap_ok(st == GPUK_ERR_INDEX && v == NULL, "block view past the last block: GPUK_ERR_INDEX");
    st = gpuk_dist_matrix_get_info(d, NULL, NULL);
    dtap_ok(st == GPUK_ERR_NULL && strstr(gpuk_dist_error(d), "m is NULL"),
            "info of a NULL matrix: GPUK_ERR_NULL naming m");
    st = gpuk_dist_set_schedule(d, (gpuk_dist_schedule)9);
    dtap_ok(st == GPUK_ERR_INVALID, "schedule 9: GPUK_ERR_INVALID");
    gpuk_dist *other = NULL;
    if (gpuk_dist_open(&other, MPI_COMM_WORLD, NULL) == GPUK_OK) {
        st = gpuk_dist_matmul(other, a, b, c, NULL);
        expect("matmul with another gpuk_dist's matrices", other, st, GPUK_ERR_CONTEXT,
               "another gpuk_dist", "rank 0");
        gpuk_dist_close(other);
    }

    /* ---------------------------------------------------------------- injected */
    injected("create");
    injected("scatter");
    injected("gather");
    injected("panel");
    if (multi)
        injected("setup");
    else
        dtap_skip("a 1 x 1 grid has no setup step to fail");
    still_works(d, "the injected failures");

    free(host);
    gpuk_dist_close(d);
    int rc = dtap_done();
    MPI_Finalize();
    return rc;
}

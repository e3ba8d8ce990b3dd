/*
 * matrix.c - block-cyclic matrices, their index maps, scatter and gather
 * (doc/distributed.md, "Layout").
 *
 * A rank's blocks are one row-major tensor: the local matrix of ScaLAPACK,
 * row-major.  So a SUMMA panel of b (a block row) is a contiguous slice of
 * the local tensor, the whole local matrix is one op's operand, and a user
 * fills it with one gpuk_tensor_write.
 */
#include "dist_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- dtypes */

/* MPI counts are int: an array goes in pieces of this many bytes. */
#define PIECE_BYTES ((int64_t)1 << 30)

int gkd_dtype_ok(gpuk_dtype dt)
{
#define GKD_OK_(id, mpi, nccl) if (dt == GPUK_##id) return 1;
    GKD_DTYPE_MAP(GKD_OK_)
#undef GKD_OK_
    return 0;
}

char *gkd_dtype_names(char *buf, size_t len)
{
    const gpuk_dtype all[] = {
#define GKD_ID_(id, mpi, nccl) GPUK_##id,
        GKD_DTYPE_MAP(GKD_ID_)
#undef GKD_ID_
    };
    size_t n = sizeof all / sizeof all[0], at = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%s",
                               i == 0 ? "" : i + 1 == n ? " or " : ", ", gpuk_dtype_name(all[i]));
    return buf;
}

MPI_Datatype gkd_mpi_type(gpuk_dtype dt)
{
#define GKD_MPI_(id, mpi, nccl) if (dt == GPUK_##id) return mpi;
    GKD_DTYPE_MAP(GKD_MPI_)
#undef GKD_MPI_
    return MPI_BYTE;   /* not reached: matrices are made of listed dtypes only */
}

#ifdef HAVE_NCCL
ncclDataType_t gkd_nccl_type(gpuk_dtype dt)
{
#define GKD_NCCL_(id, mpi, nccl) if (dt == GPUK_##id) return nccl;
    GKD_DTYPE_MAP(GKD_NCCL_)
#undef GKD_NCCL_
    return ncclUint8;
}
#endif

int64_t gkd_piece(gpuk_dtype dt)
{
    size_t es = gpuk_dtype_size(dt);
    return PIECE_BYTES / (int64_t)(es ? es : 1);
}

int64_t gkd_numroc(int64_t n, int64_t nb, int p, int np)
{
    int64_t full = n / nb;                      /* whole blocks */
    int64_t loc = full / np * nb;               /* every place's share of them */
    int64_t extra = full % np;
    if (p < extra)
        loc += nb;
    else if (p == extra)
        loc += n % nb;                          /* the short last block */
    return loc;
}

/* global index -> (place, local index) and back, along one dimension */
static int owner_of(int64_t g, int64_t nb, int np) { return (int)(g / nb % np); }
static int64_t g2l(int64_t g, int64_t nb, int np) { return g / nb / np * nb + g % nb; }
static int64_t l2g(int64_t l, int64_t nb, int p, int np) { return (l / nb * np + p) * nb + l % nb; }

/* min(512, ceil(n / max(P, Q))): a function of n and the grid only, so two
 * matrices sharing a dimension get the same default block along it. */
static int64_t default_block(const gpuk_dist *d, int64_t n)
{
    int64_t most = d->prow > d->pcol ? d->prow : d->pcol;
    int64_t b = (n + most - 1) / most;
    return b < 1 ? 1 : b > 512 ? 512 : b;
}

int gkd_matrix_ok(const gpuk_dist *d, const gpuk_dist_matrix *m, const char *name, char *msg,
                  size_t len, gpuk_status *st)
{
    if (!m) {
        snprintf(msg, len, "%s is NULL", name);
        *st = GPUK_ERR_NULL;
    } else if (m->magic != GKD_MATRIX_MAGIC) {
        snprintf(msg, len, "%s is not a live gpuk_dist_matrix (destroyed, or never made)", name);
        *st = GPUK_ERR_HANDLE;
    } else if (m->d != d) {
        snprintf(msg, len, "%s belongs to another gpuk_dist", name);
        *st = GPUK_ERR_CONTEXT;
    } else {
        return 1;
    }
    return 0;
}

int gkd_send(const void *p, int64_t n, gpuk_dtype dt, int to, int tag, MPI_Comm comm)
{
    int64_t piece = gkd_piece(dt);
    size_t es = gpuk_dtype_size(dt);
    for (int64_t off = 0; off < n; off += piece) {
        int c = (int)(n - off < piece ? n - off : piece);
        int rc = MPI_Send((const char *)p + (size_t)off * es, c, gkd_mpi_type(dt), to, tag, comm);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

int gkd_recv(void *p, int64_t n, gpuk_dtype dt, int from, int tag, MPI_Comm comm)
{
    int64_t piece = gkd_piece(dt);
    size_t es = gpuk_dtype_size(dt);
    for (int64_t off = 0; off < n; off += piece) {
        int c = (int)(n - off < piece ? n - off : piece);
        int rc = MPI_Recv((char *)p + (size_t)off * es, c, gkd_mpi_type(dt), from, tag, comm,
                          MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

gpuk_status gpuk_dist_matrix_create_dtype(gpuk_dist *d, gpuk_dtype dtype, int64_t rows,
                                          int64_t cols, int64_t mb, int64_t nb,
                                          gpuk_dist_matrix **out)
{
    char msg[GKD_MSG] = "", names[64];
    gpuk_status st = GPUK_OK;
    if (!d)
        return GPUK_ERR_NULL;
    if (out)
        *out = NULL;
    if (!out)
        st = GPUK_ERR_NULL, snprintf(msg, sizeof msg, "out is NULL");
    else if (!gkd_dtype_ok(dtype))
        st = GPUK_ERR_DTYPE, snprintf(msg, sizeof msg, "dtype is %s (%d): a distributed matrix "
                                      "is %s", gpuk_dtype_name(dtype), (int)dtype,
                                      gkd_dtype_names(names, sizeof names));
    else if (rows < 0 || cols < 0)
        st = GPUK_ERR_SHAPE, snprintf(msg, sizeof msg, "%s = %lld: a size is >= 0",
                                      rows < 0 ? "rows" : "cols",
                                      (long long)(rows < 0 ? rows : cols));
    else if (mb < 0 || nb < 0)
        st = GPUK_ERR_LAYOUT, snprintf(msg, sizeof msg, "%s = %lld: a block size is > 0, or 0 "
                                       "for the default", mb < 0 ? "mb" : "nb",
                                       (long long)(mb < 0 ? mb : nb));
    if (!mb)
        mb = default_block(d, rows);
    if (!nb)
        nb = default_block(d, cols);
    gkd_field f[] = {
        { "dtype", GPUK_ERR_DTYPE, dtype, 1 },
        { "rows", GPUK_ERR_SHAPE, rows, 0 },
        { "cols", GPUK_ERR_SHAPE, cols, 0 },
        { "mb (the block's rows)", GPUK_ERR_LAYOUT, mb, 0 },
        { "nb (the block's columns)", GPUK_ERR_LAYOUT, nb, 0 },
    };
    if ((st = gkd_agree(d, GKD_FN_CREATE, st, msg, f, 5)) != GPUK_OK)
        return st;

    gpuk_dist_matrix *m = calloc(1, sizeof *m);
    if (!m) {
        st = GPUK_ERR_NO_MEMORY;
        snprintf(msg, sizeof msg, "out of host memory");
    } else {
        m->d = d;
        m->dtype = dtype, m->es = gpuk_dtype_size(dtype);
        m->rows = rows, m->cols = cols, m->mb = mb, m->nb = nb;
        m->lrows = gkd_numroc(rows, mb, d->myrow, d->prow);
        m->lcols = gkd_numroc(cols, nb, d->mycol, d->pcol);
        int64_t shape[2] = { m->lrows, m->lcols };
        st = gpuk_tensor_create(d->ctx, dtype, 2, shape, &m->local);
        if (st != GPUK_OK)
            snprintf(msg, sizeof msg, "its local %lld x %lld %s tensor: %s", (long long)m->lrows,
                     (long long)m->lcols, gpuk_dtype_name(dtype), gpuk_context_error(d->ctx));
        else if (gkd_injected(d, "create"))
            st = GPUK_ERR_INTERNAL, snprintf(msg, sizeof msg, "failure injected by "
                                             "GPUK_DIST_FAIL at create");
    }
    if ((st = gkd_agree(d, GKD_FN_CREATE, st, msg, NULL, 0)) != GPUK_OK) {
        if (m)
            gpuk_tensor_destroy(d->ctx, m->local);
        free(m);
        return st;
    }
    m->magic = GKD_MATRIX_MAGIC;
    m->serial = ++d->next_serial;
    m->next = d->matrices;
    d->matrices = m;
    *out = m;
    return GPUK_OK;
}

gpuk_status gpuk_dist_matrix_create(gpuk_dist *d, int64_t rows, int64_t cols, int64_t mb,
                                    int64_t nb, gpuk_dist_matrix **out)
{
    return gpuk_dist_matrix_create_dtype(d, GPUK_F32, rows, cols, mb, nb, out);
}

gpuk_status gpuk_dist_matrix_destroy(gpuk_dist *d, gpuk_dist_matrix *m)
{
    char msg[GKD_MSG];
    gpuk_status st;
    if (!d)
        return GPUK_ERR_NULL;
    if (!m)
        return GPUK_OK;
    if (!gkd_matrix_ok(d, m, "m", msg, sizeof msg, &st))
        return gkd_fail(d, st, "gpuk_dist_matrix_destroy: rank %d: %s", d->rank, msg);
    for (gpuk_dist_matrix **p = &d->matrices; *p; p = &(*p)->next)
        if (*p == m) {
            *p = m->next;
            break;
        }
    st = gpuk_tensor_destroy(d->ctx, m->local);
    m->magic = 0;
    free(m);
    return st;
}

/* The checks every local call starts with: a live matrix of d. */
#define LOCAL_MATRIX(fn, m)                                                          \
    do {                                                                             \
        char msg_[GKD_MSG];                                                          \
        gpuk_status st_;                                                             \
        if (!d)                                                                      \
            return GPUK_ERR_NULL;                                                    \
        if (!gkd_matrix_ok(d, m, "m", msg_, sizeof msg_, &st_))                      \
            return gkd_fail(d, st_, "%s: rank %d: %s", fn, d->rank, msg_);           \
    } while (0)

gpuk_status gpuk_dist_matrix_get_info_size(gpuk_dist *d, const gpuk_dist_matrix *m,
                                           gpuk_dist_matrix_info *info, size_t size)
{
    LOCAL_MATRIX("gpuk_dist_matrix_get_info", m);
    if (!info)
        return gkd_fail(d, GPUK_ERR_NULL, "gpuk_dist_matrix_get_info: info is NULL");
    gpuk_dist_matrix_info in;
    memset(&in, 0, sizeof in);
    in.rows = m->rows, in.cols = m->cols, in.mb = m->mb, in.nb = m->nb;
    in.local_rows = m->lrows, in.local_cols = m->lcols;
    in.local = m->local;
    in.dtype = m->dtype;
    memcpy(info, &in, size < sizeof in ? size : sizeof in);
    return GPUK_OK;
}

/* The layout of libgpuk 0.2: everything before dtype (gpuk/mpi.h). */
gpuk_status (gpuk_dist_matrix_get_info)(gpuk_dist *d, const gpuk_dist_matrix *m,
                                        gpuk_dist_matrix_info *info)
{
    return gpuk_dist_matrix_get_info_size(d, m, info, offsetof(gpuk_dist_matrix_info, dtype));
}

gpuk_status gpuk_dist_matrix_block(gpuk_dist *d, const gpuk_dist_matrix *m, int64_t bi,
                                   int64_t bj, gpuk_tensor **view)
{
    LOCAL_MATRIX("gpuk_dist_matrix_block", m);
    if (!view)
        return gkd_fail(d, GPUK_ERR_NULL, "gpuk_dist_matrix_block: view is NULL");
    *view = NULL;
    int64_t nbr = (m->rows + m->mb - 1) / m->mb, nbc = (m->cols + m->nb - 1) / m->nb;
    if (bi < 0 || bi >= nbr || bj < 0 || bj >= nbc)
        return gkd_fail(d, GPUK_ERR_INDEX, "gpuk_dist_matrix_block: block (%lld, %lld) is "
                        "outside the %lld x %lld blocks of m", (long long)bi, (long long)bj,
                        (long long)nbr, (long long)nbc);
    int pr = (int)(bi % d->prow), pc = (int)(bj % d->pcol);
    if (pr != d->myrow || pc != d->mycol)
        return gkd_fail(d, GPUK_ERR_INDEX, "gpuk_dist_matrix_block: block (%lld, %lld) lives "
                        "on rank %d, not on rank %d", (long long)bi, (long long)bj,
                        pr * d->pcol + pc, d->rank);
    int64_t h = m->rows - bi * m->mb < m->mb ? m->rows - bi * m->mb : m->mb;
    int64_t w = m->cols - bj * m->nb < m->nb ? m->cols - bj * m->nb : m->nb;
    int64_t shape[2] = { h, w }, strides[2] = { m->lcols, 1 };
    int64_t off = bi / d->prow * m->mb * m->lcols + bj / d->pcol * m->nb;
    gpuk_status st = gpuk_tensor_view(d->ctx, m->local, 2, shape, strides, off, view);
    if (st != GPUK_OK)
        return gkd_fail(d, st, "gpuk_dist_matrix_block: rank %d: %s", d->rank,
                        gpuk_context_error(d->ctx));
    return GPUK_OK;
}

gpuk_status gpuk_dist_global_to_local(gpuk_dist *d, const gpuk_dist_matrix *m, int64_t i,
                                      int64_t j, int *rank, int64_t *li, int64_t *lj)
{
    LOCAL_MATRIX("gpuk_dist_global_to_local", m);
    if (i < 0 || i >= m->rows || j < 0 || j >= m->cols)
        return gkd_fail(d, GPUK_ERR_INDEX, "gpuk_dist_global_to_local: (%lld, %lld) is outside "
                        "the %lld x %lld matrix", (long long)i, (long long)j,
                        (long long)m->rows, (long long)m->cols);
    if (rank)
        *rank = owner_of(i, m->mb, d->prow) * d->pcol + owner_of(j, m->nb, d->pcol);
    if (li)
        *li = g2l(i, m->mb, d->prow);
    if (lj)
        *lj = g2l(j, m->nb, d->pcol);
    return GPUK_OK;
}

gpuk_status gpuk_dist_local_to_global(gpuk_dist *d, const gpuk_dist_matrix *m, int64_t li,
                                      int64_t lj, int64_t *i, int64_t *j)
{
    LOCAL_MATRIX("gpuk_dist_local_to_global", m);
    if (li < 0 || li >= m->lrows || lj < 0 || lj >= m->lcols)
        return gkd_fail(d, GPUK_ERR_INDEX, "gpuk_dist_local_to_global: (%lld, %lld) is outside "
                        "rank %d's local %lld x %lld", (long long)li, (long long)lj, d->rank,
                        (long long)m->lrows, (long long)m->lcols);
    if (i)
        *i = l2g(li, m->mb, d->myrow, d->prow);
    if (j)
        *j = l2g(lj, m->nb, d->mycol, d->pcol);
    return GPUK_OK;
}

/* ---------------------------------------------------------------- scatter, gather */

/* Copy rank (pr, pc)'s local matrix between the global array and a dense
 * lr x lc buffer: along a row, each local block column is one run of up to
 * nb contiguous elements on both sides.  Bytes, whatever the dtype: the
 * layout is the same for every element size. */
static void pack(const gpuk_dist *d, const gpuk_dist_matrix *m, int pr, int pc, char *g,
                 char *loc, int to_local)
{
    int64_t lr = gkd_numroc(m->rows, m->mb, pr, d->prow);
    int64_t lc = gkd_numroc(m->cols, m->nb, pc, d->pcol);
    size_t es = m->es;
    for (int64_t li = 0; li < lr; li++) {
        char *grow = g + (size_t)(l2g(li, m->mb, pr, d->prow) * m->cols) * es;
        char *lrow = loc + (size_t)(li * lc) * es;
        for (int64_t lj = 0; lj < lc; lj += m->nb) {
            int64_t w = lc - lj < m->nb ? lc - lj : m->nb;
            char *gp = grow + (size_t)l2g(lj, m->nb, pc, d->pcol) * es;
            if (to_local)
                memcpy(lrow + (size_t)lj * es, gp, (size_t)w * es);
            else
                memcpy(gp, lrow + (size_t)lj * es, (size_t)w * es);
        }
    }
}

/* scatter (to_local 1) and gather (0): one pass over the ranks at the root,
 * each rank's part packed into one page-locked buffer and sent with
 * point-to-point messages; ranks whose tensors MPI can reach (host memory,
 * CUDA-aware MPI) receive and send in place. */
static gpuk_status move(gpuk_dist *d, gkd_fn fn, gpuk_dist_matrix *m, int root, char *host,
                        size_t bytes, int to_local)
{
    char msg[GKD_MSG] = "", ebuf[MPI_MAX_ERROR_STRING];
    gpuk_status st = GPUK_OK;
    const char *hname = to_local ? "src" : "dst";
    if (!d)
        return GPUK_ERR_NULL;
    if (!gkd_matrix_ok(d, m, "m", msg, sizeof msg, &st)) {
    } else if (root < 0 || root >= d->size) {
        st = GPUK_ERR_INVALID;
        snprintf(msg, sizeof msg, "root = %d is not a rank (0 to %d)", root, d->size - 1);
    } else if (d->rank == root && !host && m->rows * m->cols > 0) {
        st = GPUK_ERR_NULL;
        snprintf(msg, sizeof msg, "%s is NULL on the root", hname);
    } else if (d->rank == root && bytes != (size_t)(m->rows * m->cols) * m->es) {
        st = GPUK_ERR_SIZE;
        snprintf(msg, sizeof msg, "bytes is %zu, the %lld x %lld %s matrix holds %zu (%zu bytes "
                 "an element)", bytes, (long long)m->rows, (long long)m->cols,
                 gpuk_dtype_name(m->dtype), (size_t)(m->rows * m->cols) * m->es, m->es);
    }
    int ok = st == GPUK_OK;
    gkd_field f[] = {
        { "root", GPUK_ERR_INVALID, root, 0 },
        { "m (its creation number)", GPUK_ERR_INVALID, ok ? m->serial : 0, 0 },
        { "m's dtype", GPUK_ERR_DTYPE, ok ? m->dtype : 0, 1 },
        { "m's rows", GPUK_ERR_SHAPE, ok ? m->rows : 0, 0 },
        { "m's cols", GPUK_ERR_SHAPE, ok ? m->cols : 0, 0 },
        { "m's mb", GPUK_ERR_LAYOUT, ok ? m->mb : 0, 0 },
        { "m's nb", GPUK_ERR_LAYOUT, ok ? m->nb : 0, 0 },
    };
    if ((st = gkd_agree(d, fn, st, msg, f, 7)) != GPUK_OK)
        return st;

    /* buffers: the root's, for any rank's part; a receiver's, unless in place */
    gpuk_tensor_info ti;
    char *buf = NULL, *mine = NULL;
    size_t es = m->es;
    gpuk_dtype dt = m->dtype;
    int64_t n = m->lrows * m->lcols, most = 0;
    if (d->rank == root)
        for (int r = 0; r < d->size; r++) {
            int64_t c = gkd_numroc(m->rows, m->mb, r / d->pcol, d->prow) *
                        gkd_numroc(m->cols, m->nb, r % d->pcol, d->pcol);
            most = c > most ? c : most;
        }
    else if (!d->direct)
        most = n;
    if ((st = gpuk_tensor_get_info(d->ctx, m->local, &ti)) == GPUK_OK)
        st = gpuk_sync(d->ctx);   /* nothing may still use the tensor we overwrite or read */
    if (st == GPUK_OK && most > 0)
        st = gpuk_host_alloc(d->ctx, (size_t)most * es, (void **)&buf);
    if (st != GPUK_OK)
        snprintf(msg, sizeof msg, "preparing %s: %s", gkd_fn_name(fn), gpuk_context_error(d->ctx));
    else if (gkd_injected(d, to_local ? "scatter" : "gather"))
        st = GPUK_ERR_INTERNAL, snprintf(msg, sizeof msg, "failure injected by GPUK_DIST_FAIL");
    if ((st = gkd_agree(d, fn, st, msg, NULL, 0)) != GPUK_OK) {
        gpuk_host_free(d->ctx, buf);
        return st;
    }
    mine = d->direct ? (char *)ti.data : buf;   /* where this rank's part is in host order */

    int rc = MPI_SUCCESS, tag = to_local ? 17 : 18;
    if (d->rank == root) {
        for (int r = 0; r < d->size && st == GPUK_OK && rc == MPI_SUCCESS; r++) {
            int pr = r / d->pcol, pc = r % d->pcol;
            int64_t c = gkd_numroc(m->rows, m->mb, pr, d->prow) *
                        gkd_numroc(m->cols, m->nb, pc, d->pcol);
            if (c == 0)
                continue;
            char *part = r == root && d->host_memory ? (char *)ti.data : buf;
            if (!to_local) {
                if (r != root)
                    rc = gkd_recv(part, c, dt, r, tag, d->comm);
                else if (part == buf)
                    st = gpuk_tensor_read(d->ctx, m->local, buf, (size_t)c * es);
            }
            if (rc == MPI_SUCCESS && st == GPUK_OK)
                pack(d, m, pr, pc, host, part, to_local);
            if (to_local) {
                if (r != root)
                    rc = gkd_send(part, c, dt, r, tag, d->comm);
                else if (part == buf)
                    st = gpuk_tensor_write(d->ctx, m->local, buf, (size_t)c * es);
            }
        }
    } else if (n > 0) {
        if (to_local) {
            rc = gkd_recv(mine, n, dt, root, tag, d->comm);
            if (rc == MPI_SUCCESS && !d->direct)
                st = gpuk_tensor_write(d->ctx, m->local, buf, (size_t)n * es);
        } else {
            if (!d->direct)
                st = gpuk_tensor_read(d->ctx, m->local, buf, (size_t)n * es);
            if (st == GPUK_OK)
                rc = gkd_send(mine, n, dt, root, tag, d->comm);
        }
    }
    if (st != GPUK_OK)
        snprintf(msg, sizeof msg, "%s of its local part: %s", to_local ? "writing" : "reading",
                 gpuk_context_error(d->ctx));
    else if (rc != MPI_SUCCESS)
        st = GPUK_ERR_LIBRARY, snprintf(msg, sizeof msg, "MPI point-to-point: %s",
                                        gkd_mpi_error(rc, ebuf, sizeof ebuf));
    gpuk_host_free(d->ctx, buf);
    return gkd_agree(d, fn, st, msg, NULL, 0);
}

gpuk_status gpuk_dist_scatter(gpuk_dist *d, gpuk_dist_matrix *m, int root, const void *src,
                              size_t bytes)
{
    return move(d, GKD_FN_SCATTER, m, root, (char *)src, bytes, 1);
}

gpuk_status gpuk_dist_gather(gpuk_dist *d, const gpuk_dist_matrix *m, int root, void *dst,
                             size_t bytes)
{
    return move(d, GKD_FN_GATHER, (gpuk_dist_matrix *)m, root, dst, bytes, 0);
}

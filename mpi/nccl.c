/*
 * nccl.c - NCCL's side of gpuk_dist_open and gpuk_dist_close: the
 * broadcasts' stream and events, one NCCL communicator per grid row and
 * column, and the check that no two ranks share a GPU, which NCCL refuses
 * (doc/distributed.md, "Communication", "Overlap on GPUs").  dist.c calls
 * them between its agreements, so a rank that fails here fails the open
 * on every rank rather than leaving one in ncclCommInitRank.
 */
#include "dist_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_NCCL
/* One NCCL communicator over an MPI one (size > 1): the unique id from
 * its rank 0, sent over MPI with that rank's status so that nobody waits
 * in ncclCommInitRank for a root that could not make an id. */
gpuk_status gkd_nccl_comm(gpuk_dist *d, MPI_Comm over, ncclComm_t *out, char *msg, size_t len)
{
    struct { int status; ncclUniqueId id; } hello;
    int r = 0, n = 0;
    MPI_Comm_rank(over, &r);
    MPI_Comm_size(over, &n);
    memset(&hello, 0, sizeof hello);
    if (r == 0) {
        ncclResult_t e = ncclGetUniqueId(&hello.id);
        hello.status = e == ncclSuccess ? 0 : (int)e;
    }
    if (MPI_Bcast(&hello, (int)sizeof hello, MPI_BYTE, 0, over) != MPI_SUCCESS) {
        snprintf(msg, len, "MPI_Bcast of the NCCL unique id failed");
        return GPUK_ERR_LIBRARY;
    }
    if (hello.status) {
        snprintf(msg, len, "ncclGetUniqueId on the communicator's rank 0: %s",
                 ncclGetErrorString((ncclResult_t)hello.status));
        return GPUK_ERR_LIBRARY;
    }
    ncclResult_t e;
    if (d->nccl_ctas > 0) {
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 17, 0)
        /* fewer blocks a broadcast: fewer SMs taken from the local ops while
         * a broadcast waits for its peers (doc/distributed.md, "Overlap on
         * GPUs") */
        ncclConfig_t cfg = NCCL_CONFIG_INITIALIZER;
        cfg.minCTAs = 1;
        cfg.maxCTAs = d->nccl_ctas;
        e = ncclCommInitRankConfig(out, n, hello.id, r, &cfg);
#else
        snprintf(msg, len, "GPUK_DIST_NCCL_CTAS needs NCCL 2.17 or newer (built with %d.%d)",
                 NCCL_MAJOR, NCCL_MINOR);
        return GPUK_ERR_UNSUPPORTED;
#endif
    } else {
        e = ncclCommInitRank(out, n, hello.id, r);
    }
    if (e != ncclSuccess) {
        *out = NULL;
        snprintf(msg, len, "ncclCommInitRank (%d of %d): %s", r, n, ncclGetErrorString(e));
        return GPUK_ERR_LIBRARY;
    }
    return GPUK_OK;
}

/* Streams and events first (local, agreed on), then the communicators.
 * The broadcasts' stream gets the device's greatest priority unless
 * GPUK_DIST_COMM_PRIORITY=normal: a block of an NCCL kernel needs a whole
 * SM, and with equal priorities the work distributor hands every SM that
 * frees up to the next block of the compute kernel already running, so a
 * broadcast would start only at that kernel's last wave
 * (doc/distributed.md, "Overlap on GPUs"). */
gpuk_status gkd_nccl_prepare(gpuk_dist *d, void *stream, char *msg, size_t len)
{
    int least = 0, greatest = 0;
    cudaError_t e = cudaSetDevice(d->device);
    if (e == cudaSuccess)
        e = cudaDeviceGetStreamPriorityRange(&least, &greatest);
    if (e == cudaSuccess)
        e = cudaStreamCreateWithPriority(&d->comm_stream, cudaStreamNonBlocking,
                                         d->comm_priority ? greatest : least);
    for (int i = 0; i < GKD_SLOTS && e == cudaSuccess; i++) {
        e = cudaEventCreateWithFlags(&d->ev_comm[i], cudaEventDisableTiming);
        if (e == cudaSuccess)
            e = cudaEventCreateWithFlags(&d->ev_comp[i], cudaEventDisableTiming);
    }
    if (e == cudaSuccess)
        e = cudaEventCreateWithFlags(&d->ev_ready, cudaEventDisableTiming);
    if (e != cudaSuccess) {
        snprintf(msg, len, "preparing NCCL's stream and events on device %d: %s", d->device,
                 cudaGetErrorString(e));
        return GPUK_ERR_DEVICE;
    }
    d->compute_stream = (cudaStream_t)stream;
    return GPUK_OK;
}

void gkd_nccl_release(gpuk_dist *d)
{
    if (d->comm_stream)
        cudaStreamSynchronize(d->comm_stream);
    if (d->nccl_row)
        ncclCommDestroy(d->nccl_row);
    if (d->nccl_col)
        ncclCommDestroy(d->nccl_col);
    for (int i = 0; i < GKD_SLOTS; i++) {
        if (d->ev_comm[i])
            cudaEventDestroy(d->ev_comm[i]);
        if (d->ev_comp[i])
            cudaEventDestroy(d->ev_comp[i]);
    }
    if (d->ev_ready)
        cudaEventDestroy(d->ev_ready);
    if (d->comm_stream)
        cudaStreamDestroy(d->comm_stream);
    d->nccl_row = d->nccl_col = NULL;
    d->comm_stream = NULL;
}
#endif

/* The lowest rank that shares its GPU (same host name and PCI bus id)
 * with a lower rank, or -1; the same answer on every rank. */
int gkd_shared_device(gpuk_dist *d)
{
#ifdef HAVE_NCCL
    char id[128] = "", bus[32] = "";
    gethostname(id, 64);
    id[64] = '\0';
    if (cudaDeviceGetPCIBusId(bus, (int)sizeof bus, d->device) != cudaSuccess)
        snprintf(bus, sizeof bus, "device %d", d->device);
    snprintf(id + strlen(id), sizeof id - strlen(id), "/%s", bus);
    char *ids = calloc((size_t)d->size, sizeof id);
    int found = -1, ok = ids != NULL, all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, d->comm);
    if (!all_ok) {   /* cannot tell: take the safe answer everywhere */
        free(ids);
        return 0;
    }
    MPI_Allgather(id, (int)sizeof id, MPI_CHAR, ids, (int)sizeof id, MPI_CHAR, d->comm);
    for (int r = 1; r < d->size && found < 0; r++)
        for (int q = 0; q < r; q++)
            if (!strncmp(ids + (size_t)r * sizeof id, ids + (size_t)q * sizeof id, sizeof id)) {
                found = r;
                break;
            }
    free(ids);
    return found;
#else
    (void)d;
    return -1;
#endif
}


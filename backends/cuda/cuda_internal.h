/*
 * cuda_internal.h - what the .cu files of backend_cuda.so share: the
 * per-context state, status mapping for CUDA / cuBLAS / cuSPARSE returns,
 * launch helpers that respect the grid limits, block-wide reductions, and
 * the kernel entry points listed in table.cu; the element-type traits and
 * the per-dtype entry macros are in elem.cuh, included at the end.
 *
 * Every symbol here is hidden (-fvisibility=hidden); the plugin exports
 * only gpuk_backend_entry.  Internal names start with gkc_.
 */
#ifndef GPUK_CUDA_INTERNAL_H
#define GPUK_CUDA_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <atomic>
#include <math.h>
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cublas_v2.h>
#include <cusparse.h>
#include <gpuk/backend.h>

/* Scratch buffers owned by a context, reused across ops (single stream, so
 * reuse is ordered; growing one frees the old buffer, and cudaFree waits for
 * the device).  Each op family uses fixed slots. */
enum gkc_slot {
    GKC_SLOT_A = 0,      /* packed or transposed left operand (cublas, minplus transposed) */
    GKC_SLOT_B = 1,      /* packed right operand (cublas) */
    GKC_SLOT_WORK = 2,   /* reduce partials, split-k parts, cuSPARSE workspace, peak output */
    GKC_SLOT_COUNT = 3,  /* zeroed counters (gkc_counters) */
    GKC_NSLOTS = 4
};

/* The page-locked staging pool of a context (transfer.cu), made on the
 * first large read or write of pageable memory. */
#define GKC_STAGE_SLOTS 16
#define GKC_COPY_THREADS 8
struct gkc_copier;   /* transfer.cu: the threads a chunk's host copy is split over */
struct gkc_stage {
    int64_t want;                     /* bytes the context may pin; 0: none */
    int state;                        /* 0: not tried yet, 1: ready, -1: off or failed */
    size_t slot;                      /* bytes a slot */
    int n;                            /* slots */
    char *buf;                        /* n * slot bytes, one cudaHostAlloc */
    cudaEvent_t ev[GKC_STAGE_SLOTS];  /* the last DMA into or out of each slot */
    gkc_copier *copier;               /* NULL: copies on the calling thread */
};

struct gpuk_bctx {
    int device;
    int verbose;
    cudaStream_t stream;        /* every op of the context runs on it (the caller's, or own_stream) */
    cudaStream_t own_stream;    /* the stream the context made, destroyed at fini */
    gkc_stage stage;
    cudaEvent_t t0, t1;         /* timer_start / timer_stop */
    int timing;
    cublasHandle_t blas;        /* created on first use, bound to stream */
    cusparseHandle_t sparse;    /* likewise */
    void *scratch[GKC_NSLOTS];
    size_t scratch_bytes[GKC_NSLOTS];
    gpuk_device_desc dev;
    char err[512];
};

/* ---------------------------------------------------------------- status */

/* Record a message in b->err and return st. */
gpuk_status gkc_fail(gpuk_bctx *b, gpuk_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Map a CUDA runtime error: out of memory -> GPUK_ERR_DEVICE_MEMORY (the
 * non-sticky error is cleared so the context stays usable), else
 * GPUK_ERR_DEVICE.  `what` names the call or op. */
gpuk_status gkc_cuda_error(gpuk_bctx *b, cudaError_t e, const char *what);
gpuk_status gkc_blas_error(gpuk_bctx *b, cublasStatus_t s, const char *what);
gpuk_status gkc_sparse_error(gpuk_bctx *b, cusparseStatus_t s, const char *what);
/* After a launch: cudaGetLastError, mapped to GPUK_ERR_DEVICE naming op and variant. */
gpuk_status gkc_launched(gpuk_bctx *b, const char *op, const char *variant);

#define GKC_CUDA(b, call, what)                                              \
    do {                                                                     \
        cudaError_t gkc_e_ = (call);                                         \
        if (gkc_e_ != cudaSuccess)                                           \
            return gkc_cuda_error((b), gkc_e_, (what));                      \
    } while (0)
#define GKC_BLAS(b, call, what)                                              \
    do {                                                                     \
        cublasStatus_t gkc_s_ = (call);                                      \
        if (gkc_s_ != CUBLAS_STATUS_SUCCESS)                                 \
            return gkc_blas_error((b), gkc_s_, (what));                      \
    } while (0)
#define GKC_SPARSE(b, call, what)                                            \
    do {                                                                     \
        cusparseStatus_t gkc_s_ = (call);                                    \
        if (gkc_s_ != CUSPARSE_STATUS_SUCCESS)                               \
            return gkc_sparse_error((b), gkc_s_, (what));                    \
    } while (0)
#define GKC_TRY(expr)                                                        \
    do {                                                                     \
        gpuk_status gkc_st_ = (expr);                                        \
        if (gkc_st_ != GPUK_OK)                                              \
            return gkc_st_;                                                  \
    } while (0)
/* Check the launch just made (cudaGetLastError after every launch). */
#define GKC_LAUNCHED(b, op, variant) GKC_TRY(gkc_launched((b), (op), (variant)))

/* ---------------------------------------------------------------- context helpers */

/* Make b's device current for this thread (a context may move between threads). */
gpuk_status gkc_enter(gpuk_bctx *b);
/* A scratch buffer of at least `bytes` in slot; grown (never shrunk) on demand. */
gpuk_status gkc_scratch(gpuk_bctx *b, int slot, size_t bytes, void **out);
/* n unsigned counters on the device, all zero when the stream reaches
 * the next kernel.  A kernel that counts blocks with them (the last block
 * of a group to finish does the group's final step) sets them back to 0
 * before it ends, so they are zeroed only when the buffer is made. */
gpuk_status gkc_counters(gpuk_bctx *b, int64_t n, unsigned **out);
/* Lazily created library handles, bound to b->stream. */
gpuk_status gkc_blas(gpuk_bctx *b, cublasHandle_t *out);
gpuk_status gkc_sparse(gpuk_bctx *b, cusparseHandle_t *out);

/* ---------------------------------------------------------------- launch helpers */

#define GKC_MAX_GRID_YZ 65535

/* The arithmetic helpers below serve launch code and kernels alike. */
#ifdef __CUDACC__
#define GKC_HD __host__ __device__
#else
#define GKC_HD
#endif

/* ceil(a / b) for a >= 0, b > 0: the tiles of width b that cover a items (0 for a = 0). */
static inline GKC_HD int64_t gkc_cdiv(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* Where p sits within its 16-byte line (0..15); float4 loads and stores
 * need 0, and operands at equal offsets can be brought there together. */
static inline GKC_HD unsigned gkc_offset16(const void *p)
{
    return (unsigned)((uintptr_t)p & 15u);
}

static inline GKC_HD bool gkc_aligned16(const void *p)
{
    return gkc_offset16(p) == 0;
}

/* Blocks to cover n items with `per_block` items each: at least 1, at most cap. */
static inline unsigned gkc_blocks(int64_t n, int64_t per_block, int64_t cap)
{
    int64_t g = gkc_cdiv(n, per_block);
    if (g < 1)
        g = 1;
    if (g > cap)
        g = cap;
    return (unsigned)g;
}

/* The device's SMs (an H200's 132 when the context could not tell). */
static inline int64_t gkc_sms(const gpuk_bctx *b)
{
    return b->dev.multiprocessors > 0 ? b->dev.multiprocessors : 132;
}

/* A cap for grid-stride kernels: enough blocks to fill every SM several times. */
static inline int64_t gkc_grid_cap(const gpuk_bctx *b)
{
    return gkc_sms(b) * 32;
}

/* One fact a device about one kernel, a count of 0 or more (how many of
 * its blocks fit; 0 where it cannot start), asked of the runtime once:
 * each query costs microseconds a call, as much as a small kernel's
 * launch.  A static gkc_facts per kernel; a fact is kept as its value + 1,
 * so the zeroed static reads "not asked yet".  Devices are kept up to
 * ordinal 63, as a context may open any ordinal below the device count
 * (GPUK_MAX_DEVICES bounds only what a probe lists); one past that is
 * asked every call. */
struct gkc_facts {
    static constexpr int DEVICES = 64;
    std::atomic<int> v[DEVICES];
    /* 1 and *val where dev's fact was kept, else 0 (*val untouched) */
    int known(int dev, int *val) const
    {
        int f = dev >= 0 && dev < DEVICES ? v[dev].load(std::memory_order_relaxed) : 0;
        if (f != 0)
            *val = f - 1;
        return f != 0;
    }
    void keep(int dev, int val)
    {
        if (dev >= 0 && dev < DEVICES)
            v[dev].store(val + 1, std::memory_order_relaxed);
    }
};

#ifdef __CUDACC__
/* Launch a 3-D grid of gx x gy x gz blocks in pieces that respect the y and
 * z limits (65535): launch(grid, y0, z0) is called once per piece, and the
 * kernel adds y0 / z0 to blockIdx.y / blockIdx.z.  Every launch is checked. */
template <class Launch>
static gpuk_status gkc_launch_grid(gpuk_bctx *b, const char *op, const char *variant,
                                   int64_t gx, int64_t gy, int64_t gz, Launch launch)
{
    if (gx < 1 || gy < 1 || gz < 1)
        return GPUK_OK;     /* nothing to do: no kernel with zero blocks */
    if (gx > INT32_MAX)
        return gkc_fail(b, GPUK_ERR_UNSUPPORTED, "%s/%s: %lld column blocks exceed the grid limit",
                        op, variant, (long long)gx);
    for (int64_t z0 = 0; z0 < gz; z0 += GKC_MAX_GRID_YZ) {
        for (int64_t y0 = 0; y0 < gy; y0 += GKC_MAX_GRID_YZ) {
            int64_t ny = gy - y0 < GKC_MAX_GRID_YZ ? gy - y0 : GKC_MAX_GRID_YZ;
            int64_t nz = gz - z0 < GKC_MAX_GRID_YZ ? gz - z0 : GKC_MAX_GRID_YZ;
            launch(dim3((unsigned)gx, (unsigned)ny, (unsigned)nz), y0, z0);
            GKC_LAUNCHED(b, op, variant);
        }
    }
    return GPUK_OK;
}

/* Programmatic dependent launch (sm_90): the kernels of the memory-bound
 * ops, microseconds long, are launched with gkc_launch_pdl so that the
 * GPU may start a kernel's blocks while the kernel before it in the
 * stream drains, instead of after it ends: about 1.7 us a call on the
 * H200 (bench/NOTES.md, "Programmatic dependent launch").  Such a kernel
 * must call gkc_pdl_enter() before its first access to global memory: it
 * waits there until every earlier kernel of the stream has finished and
 * its writes are visible, then lets the next kernel start launching.  A
 * kernel that never calls it must not be launched this way.  Like <<< >>>,
 * a failed launch is left for cudaGetLastError (GKC_LAUNCHED). */
template <class... P, class... A>
static void gkc_launch_pdl(cudaStream_t s, void (*kernel)(P...), dim3 grid, dim3 block,
                                  size_t smem, A... args)
{
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t c = {};
    c.gridDim = grid;
    c.blockDim = block;
    c.dynamicSmemBytes = smem;
    c.stream = s;
    c.attrs = &attr;
    c.numAttrs = 1;
    (void)cudaLaunchKernelEx(&c, kernel, ((P)args)...);
}

/* ---------------------------------------------------------------- device helpers */

/* The first statement of a kernel launched by gkc_launch_pdl: wait for
 * the stream's earlier kernels (griddepcontrol.wait), then allow the next
 * one to launch.  Waiting first keeps at most two kernels in flight. */
__device__ __forceinline__ void gkc_pdl_enter()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;\n" ::: "memory");
    asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
#endif
}

/* The float types of the kernels written once for f32 and f64 (issue 26):
 * gkc_fmax and gkc_exp pick the single- or double-precision function, so
 * a kernel body names neither fmaxf nor fmax.  expf, not __expf, for f32
 * (the intrinsic loses bits); exp in double for f64. */
__device__ __forceinline__ float gkc_fmax(float a, float b) { return fmaxf(a, b); }
__device__ __forceinline__ double gkc_fmax(double a, double b) { return fmax(a, b); }
__device__ __forceinline__ float gkc_exp(float v) { return expf(v); }
__device__ __forceinline__ double gkc_exp(double v) { return exp(v); }

/* Sum over the warp; every lane gets the result (butterfly). */
template <class T>
__device__ __forceinline__ T gkc_warp_sum(T v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

/* Max over the warp; every lane gets it.  fmax drops NaN, so callers that
 * must propagate NaN do it through the values that follow. */
template <class T>
__device__ __forceinline__ T gkc_warp_max(T v)
{
    for (int o = 16; o > 0; o >>= 1)
        v = gkc_fmax(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

/* A thread's share of a row of n4 16-byte vectors read by a block of NT
 * threads, V vectors a thread a pass: pass(c0) reads c0, c0 + NT, ... and
 * returns their sum (its type is the sum's).  V < 4 means the row fits
 * one pass (the caller sees to it), and then there is no loop: on the
 * H200 the same kernel with the loop ran 14% slower at 4096^2
 * (bench/NOTES.md, "Session 6: rows without a loop"); longer rows take
 * passes of V * NT vectors. */
template <int V, int NT, class Pass>
__device__ __forceinline__ auto gkc_row_passes(int64_t n4, Pass pass) -> decltype(pass(n4))
{
    if constexpr (V < 4) {
        return pass((int64_t)threadIdx.x);
    } else {
        decltype(pass(n4)) s = 0;
        for (int64_t c0 = threadIdx.x; c0 < n4; c0 += (int64_t)V * NT)
            s += pass(c0);
        return s;
    }
}

/* Block-wide sum / max, broadcast to every thread.  blockDim.x is a
 * multiple of 32; sh holds 32 values.  The leading barrier makes it safe
 * to call twice in a row with the same sh. */
template <class T>
__device__ __forceinline__ T gkc_block_sum(T v, T *sh)
{
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    v = gkc_warp_sum(v);
    __syncthreads();
    if (lane == 0)
        sh[warp] = v;
    __syncthreads();
    return gkc_warp_sum(lane < nwarps ? sh[lane] : T(0));
}

template <class T>
__device__ __forceinline__ T gkc_block_max(T v, T *sh)
{
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    v = gkc_warp_max(v);
    __syncthreads();
    if (lane == 0)
        sh[warp] = v;
    __syncthreads();
    return gkc_warp_max(lane < nwarps ? sh[lane] : T(-INFINITY));
}
/* cp.async (sm_80+): a global -> shared copy that bypasses registers and
 * completes asynchronously; `bytes` below the copy size fills the rest of
 * the destination with zeros (bytes == 0 reads nothing, so src need only
 * be some valid address).  16-byte copies need 16-byte aligned src and dst
 * and go through L2 only (.cg); 4-byte copies use .ca. */
__device__ __forceinline__ void gkc_cp_async16(void *dst, const void *src, int bytes)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(src), "r"(bytes)
                 : "memory");
}
__device__ __forceinline__ void gkc_cp_async4(void *dst, const void *src, int bytes)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(s), "l"(src), "r"(bytes)
                 : "memory");
}
__device__ __forceinline__ void gkc_cp_async_commit()
{
    asm volatile("cp.async.commit_group;\n" ::: "memory");
}
/* Wait until at most N of this thread's committed groups are still in flight. */
template <int N>
__device__ __forceinline__ void gkc_cp_async_wait()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

/* Component i (a compile-time constant after unrolling) of a float4. */
__device__ __forceinline__ float gkc_f4(const float4 &v, int i)
{
    return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}
#endif /* __CUDACC__ */

/* The operands of MATMUL, BATCHED_MATMUL and (without bias) MINPLUS as the
 * hand-written rungs take them: unit stride along rows, any row stride, and
 * for a batch, any stride between batches.  MATMUL is the batch of one with
 * zero batch strides, so one kernel per rung serves both ops: the batch
 * index comes from blockIdx.z (see gkc_mm_at).  T is the element type the
 * kernel computes in (float, double, int32; the packed 16-bit pairs of
 * min-plus dpx_i16x2 travel as unsigned): the pointers are typed, never
 * reinterpreted, and every stride counts elements of T. */
template <class T>
struct gkc_mm_t {
    using elem = T;
    const T *a, *b, *bias;            /* bias: MATMUL only, else NULL */
    T *c;
    int64_t m, n, k, lda, ldb, ldc;
    int64_t batch, sa, sb, sc;        /* batch count; strides between batches (0: broadcast) */
    const char *op;                   /* the op's name for messages */
};
using gkc_mm = gkc_mm_t<float>;

template <class T = float>
static inline gkc_mm_t<T> gkc_mm_from(const gpuk_args *args)
{
    /* BATCHED_MATMUL's operands are [B, rows, cols]: the matrix dimensions start at 1 */
    int d = args->op == GPUK_OP_BATCHED_MATMUL;
    const gpuk_tdesc *A = &args->in[0], *B = &args->in[1], *C = &args->out;
    gkc_mm_t<T> p;
    p.a = (const T *)A->data;
    p.b = (const T *)B->data;
    p.bias = !d && args->has_bias ? (const T *)args->in[2].data : NULL;
    p.c = (T *)C->data;
    p.m = A->shape[d];
    p.k = A->shape[d + 1];
    p.n = B->shape[d + 1];
    p.lda = A->stride[d];
    p.ldb = B->stride[d];
    p.ldc = C->stride[d];
    p.batch = d ? C->shape[0] : 1;
    /* a single batch never moves, whatever its stride says (and then the
     * stride cannot spoil gkc_mm_vec); a broadcast operand has stride 0 */
    p.sa = p.batch > 1 ? A->stride[0] : 0;
    p.sb = p.batch > 1 ? B->stride[0] : 0;
    p.sc = p.batch > 1 ? C->stride[0] : 0;
    p.op = d ? "batched_matmul" : args->op == GPUK_OP_MINPLUS ? "minplus" : "matmul";
    return p;
}

/* 16-byte loads of a and b are legal: every row of every batch starts on a
 * 16-byte boundary (strides in whole 16-byte units of T). */
template <class T>
static inline int gkc_mm_vec(const gkc_mm_t<T> *p)
{
    constexpr int64_t v = 16 / sizeof(T);
    return gkc_aligned16(p->a) && gkc_aligned16(p->b) && p->lda % v == 0 && p->ldb % v == 0 &&
           p->sa % v == 0 && p->sb % v == 0;
}

#ifdef __CUDACC__
/* p moved to batch z: a, b and c of that batch (a broadcast operand stays
 * put).  Offsets are int64: a batch stride times z may pass 2^31. */
template <class T>
__device__ __forceinline__ gkc_mm_t<T> gkc_mm_at(gkc_mm_t<T> p, int64_t z)
{
    p.a += z * p.sa;
    p.b += z * p.sb;
    p.c += z * p.sc;
    return p;
}
#endif

/* ---------------------------------------------------------------- shared pieces */

/* dst[c, r] = src[r, c] for src[rows, cols] (row strides lds, ldd), on b's
 * stream with the padded shared-memory kernel (transpose.cu); T is float
 * or double. */
template <class T>
gpuk_status gkc_transpose_into(gpuk_bctx *b, const T *src, int64_t rows, int64_t cols,
                               int64_t lds, T *dst, int64_t ldd, const char *op,
                               const char *variant);
/* ---------------------------------------------------------------- kernels (table.cu) */

/* A kernel's entry point.  Only its own file and table.cu name it (table.cu
 * declares it next to its row: doc/design.md, "Adding a variant"). */
#define GKC_KERNEL(name) gpuk_status name(gpuk_bctx *b, const gpuk_args *args)

extern const gpuk_kernel gkc_kernels[];
extern const size_t gkc_n_kernels;

/* Per-matrix state built by gkc_csr_prepare (cusparse.cu), kept in
 * csr->prepared (NULL for a matrix with no nonzeros); freed by
 * gkc_csr_release. */
struct gkc_csr_state {
    cusparseConstSpMatDescr_t mat;   /* the cuSPARSE rung's descriptor, made by its first call */
    cudaDataType mat_type;           /* the values' type it was made with */
    int32_t *win_start;              /* the stream rung's partition: device, nwin + 1 entries */
};

/* spmv_stream.cu: the number of nonzero windows of a matrix, and its
 * partition (the first row of each window) written into start[nwin + 1]
 * on b's stream. */
int64_t gkc_stream_windows(int64_t nnz);
gpuk_status gkc_stream_partition(gpuk_bctx *b, const gpuk_csr_desc *csr, int32_t *start);

/* Optional members of the backend struct. */
gpuk_status gkc_csr_prepare(gpuk_bctx *b, gpuk_csr_desc *csr);
void gkc_csr_release(gpuk_bctx *b, gpuk_csr_desc *csr);
gpuk_status gkc_peak(gpuk_bctx *b, gpuk_peak kind, double *value);

/* transfer.cu: write and read (staged through page-locked slots when the
 * host side is pageable and large), the caller's memory and stream (ABI
 * 2.1), the link's ceiling, and freeing the pool at fini. */
gpuk_status gkc_write(gpuk_bctx *b, void *dst, const void *src, size_t bytes);
gpuk_status gkc_read(gpuk_bctx *b, void *dst, const void *src, size_t bytes);
gpuk_status gkc_host_alloc(gpuk_bctx *b, size_t bytes, void **out);
void gkc_host_free(gpuk_bctx *b, void *p);
gpuk_status gkc_check_pointer(gpuk_bctx *b, const void *p, size_t bytes);
gpuk_status gkc_use_stream(gpuk_bctx *b, void *stream);
gpuk_status gkc_peak_transfer(gpuk_bctx *b, bool to_device, double *value);
void gkc_stage_release(gpuk_bctx *b);

/* The element types: entry macros per dtype, vector and compute-type
 * traits (elem.cuh). */
#include "elem.cuh"

#endif /* GPUK_CUDA_INTERNAL_H */

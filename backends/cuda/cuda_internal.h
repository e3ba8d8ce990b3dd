/*
 * cuda_internal.h - what the .cu files of backend_cuda.so share: the
 * per-context state, status mapping for CUDA / cuBLAS / cuSPARSE returns,
 * launch helpers that respect the grid limits, block-wide reductions, and
 * the kernel entry points listed in table.cu.
 *
 * Every symbol here is hidden (-fvisibility=hidden); the plugin exports
 * only gpuk_backend_entry.  Internal names start with gkc_.
 */
#ifndef GPUK_CUDA_INTERNAL_H
#define GPUK_CUDA_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
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

/* ---------------------------------------------------------------- cudaB: one kernel, two dtypes
 * (issue 26) The memory-bound families (elementwise, rows, reduce,
 * transpose, blas, spmv) write each kernel once as a template over its
 * element type T, float or double, and register one row per rung that
 * serves both dtypes (doc/design.md, "Adding a dtype").  Elementwise,
 * rows, reduce and transpose take f16 and bf16 too (issue 27), through
 * GKC_KERNEL_FLOATS or GKC_KERNEL_MOVES and the 16-bit traits at the end
 * of this file. */

/* A row that serves f32 and f64: its entry point `name` runs fn<float> or
 * fn<double>, the template of its family's file, by the op's dtype (core
 * passes only a dtype of the row's set). */
#define GKC_KERNEL_F32_F64(name, fn)                                         \
    GKC_KERNEL(name)                                                         \
    {                                                                        \
        return args->dtype == GPUK_F64 ? fn<double>(b, args) : fn<float>(b, args); \
    }

/* A row that serves f32, f64, f16 and bf16 (issue 27): fn<__half> and
 * fn<__nv_bfloat16> are the same template computing in f32 (gkc_num
 * below); the float and double instantiations are the ones above. */
#define GKC_KERNEL_FLOATS(name, fn)                                          \
    GKC_KERNEL(name)                                                         \
    {                                                                        \
        switch (args->dtype) {                                               \
        case GPUK_F64: return fn<double>(b, args);                           \
        case GPUK_F16: return fn<__half>(b, args);                           \
        case GPUK_BF16: return fn<__nv_bfloat16>(b, args);                   \
        default: return fn<float>(b, args);                                  \
        }                                                                    \
    }

/* A move (copy, transpose, embedding) in the four dtypes: f16 and bf16
 * are both fn<uint16_t>, their bits moved and never converted, so a NaN's
 * payload and a subnormal come out as they went in. */
#define GKC_KERNEL_MOVES(name, fn)                                           \
    GKC_KERNEL(name)                                                         \
    {                                                                        \
        switch (args->dtype) {                                               \
        case GPUK_F64: return fn<double>(b, args);                           \
        case GPUK_F16:                                                       \
        case GPUK_BF16: return fn<uint16_t>(b, args);                        \
        default: return fn<float>(b, args);                                  \
        }                                                                    \
    }

/* A scalar of gpuk_args in T: the float member for f32, the double one for
 * f64 (args->alpha and args->alpha_f64, say), so an f64 kernel sees the
 * caller's value unrounded. */
template <class T>
static inline T gkc_scalar(float f, double d)
{
    if constexpr (sizeof(T) == sizeof(double))
        return (T)d;
    else
        return (T)f;
}

/* Elements of T before p's first 16-byte boundary (0 when p is on one);
 * p must be aligned to its element. */
template <class T>
static inline int64_t gkc_head16(const void *p)
{
    return (int64_t)((16 - gkc_offset16(p)) % 16) / (int64_t)sizeof(T);
}

/* dst = a dense copy of src[nb][rows][cols] (batch stride sb, row stride
 * ld) on b's stream, for a library that wants rows apart by at least their
 * length (blas.cu; T float or double). */
template <class T>
gpuk_status gkc_pack_dense(gpuk_bctx *b, const T *src, int64_t nb, int64_t rows, int64_t cols,
                           int64_t sb, int64_t ld, T *dst, const char *op, const char *variant);

#ifdef __CUDACC__
/* 16 bytes of T: the widest load and store of one thread (LDG.128), a
 * float4 or a double2, N elements.  Kernels count their work in these
 * vectors, so a thread keeps the same bytes in flight in both dtypes. */
template <class T> struct gkc_vec;
template <> struct gkc_vec<float> {
    typedef float4 type;
    static constexpr int N = 4;
};
template <> struct gkc_vec<double> {
    typedef double2 type;
    static constexpr int N = 2;
};

/* Element i (a constant after unrolling) of a vector, and a vector of e. */
__device__ __forceinline__ float gkc_vget(const float4 &v, int i) { return gkc_f4(v, i); }
__device__ __forceinline__ double gkc_vget(const double2 &v, int i) { return i == 0 ? v.x : v.y; }
template <class T>
__device__ __forceinline__ typename gkc_vec<T>::type gkc_vfill(T e)
{
    if constexpr (gkc_vec<T>::N == 4)
        return make_float4(e, e, e, e);
    else
        return make_double2(e, e);
}

/* f applied lane by lane: c.i = f(a.i, b.i). */
template <class F>
__device__ __forceinline__ float4 gkc_vmap(const float4 &a, const float4 &b, F f)
{
    float4 c;
    c.x = f(a.x, b.x);
    c.y = f(a.y, b.y);
    c.z = f(a.z, b.z);
    c.w = f(a.w, b.w);
    return c;
}
template <class F>
__device__ __forceinline__ double2 gkc_vmap(const double2 &a, const double2 &b, F f)
{
    double2 c;
    c.x = f(a.x, b.x);
    c.y = f(a.y, b.y);
    return c;
}

/* The sum of a vector's elements, in pairs. */
__device__ __forceinline__ float gkc_vsum(const float4 &a) { return (a.x + a.y) + (a.z + a.w); }
__device__ __forceinline__ double gkc_vsum(const double2 &a) { return a.x + a.y; }

/* sum a.i b.i, left to right. */
__device__ __forceinline__ float gkc_vdot(const float4 &a, const float4 &b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}
__device__ __forceinline__ double gkc_vdot(const double2 &a, const double2 &b)
{
    return a.x * b.x + a.y * b.y;
}
#endif /* __CUDACC__ */

/* ---------------------------------------------------------------- cudaA: element types */

/* The matmul and min-plus families (matmul.cu, sgemm_*.cu, dgemm_mma.cu,
 * minplus*.cu) write each kernel once over T, which for min-plus is also
 * int32 (and dpx_i16x2's packed pairs, unsigned): gkc_vec and gkc_vget
 * above, extended to those; and four consecutive elements moved in one
 * 16-byte access (a 4-byte T) or two (a double). */
#ifdef __CUDACC__
template <> struct gkc_vec<int> {
    typedef int4 type;
    static constexpr int N = 4;
};
template <> struct gkc_vec<unsigned> {
    typedef uint4 type;
    static constexpr int N = 4;
};
__device__ __forceinline__ int gkc_vget(const int4 &v, int i)
{
    return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}
__device__ __forceinline__ unsigned gkc_vget(const uint4 &v, int i)
{
    return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}

/* x[0..3] = p[0..3], p 16-byte aligned. */
template <class T>
__device__ __forceinline__ void gkc_ld4(T *x, const T *p)
{
    typedef typename gkc_vec<T>::type V;
    V lo = *(const V *)p;
    if constexpr (gkc_vec<T>::N == 2) {
        V hi = *(const V *)(p + 2);
        x[0] = lo.x, x[1] = lo.y, x[2] = hi.x, x[3] = hi.y;
    } else {
        x[0] = lo.x, x[1] = lo.y, x[2] = lo.z, x[3] = lo.w;
    }
}

/* p[0..3] = x[0..3], p 16-byte aligned. */
template <class T>
__device__ __forceinline__ void gkc_st4(T *p, const T *x)
{
    typedef typename gkc_vec<T>::type V;
    if constexpr (gkc_vec<T>::N == 2) {
        *(V *)p = V{x[0], x[1]};
        *(V *)(p + 2) = V{x[2], x[3]};
    } else {
        *(V *)p = V{x[0], x[1], x[2], x[3]};
    }
}

/* d += a b on one 16 x 8 x 16 fragment of the FP64 tensor cores (mma.sync
 * m16n8k16, one DMMA.16x8x16 on sm_90; every lane of the warp takes part).
 * The fragments, g = lane / 4, t = lane % 4 (PTX ISA, mma .f64):
 *   a[v] = A[g + 8 (v & 1)][t + 4 (v >> 1)]   (A 16 x 16), v < 8;
 *   b[v] = B[t + 4 v][g]                      (B 16 x 8), v < 4;
 *   d[v] = C[g + 8 (v >> 1)][2 t + (v & 1)]   (C 16 x 8), v < 4.
 * dgemm_mma.cu computes with it and peak.cu measures it. */
__device__ __forceinline__ void gkc_dmma16(double (&d)[4], const double (&a)[8],
                                           const double (&b)[4])
{
    asm("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, "
        "{%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15}, {%0, %1, %2, %3};\n"
        : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
        : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]),
          "d"(a[7]), "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]));
}

/* ---------------------------------------------------------------- cuda16: 16-bit storage
 * (issue 27) f16 and bf16 are storage types (gpuk(7), "Element types"): a
 * memory-bound kernel written over T loads an element through
 * gkc_ld (exact, to gkc_c<T>: float for both), computes in that type, and
 * stores through gkc_st<T> (one rounding to nearest even, an overflow to
 * an infinity: cvt.rn), as the CPU's rows do.  For float and double,
 * gkc_c<T> is T and both are the identity, so those instantiations
 * compile as they did before.  uint16_t is the bits of either, for the
 * moves (GKC_KERNEL_MOVES): its "compute type" is itself. */
template <class T>
struct gkc_num {
    typedef T C;
    static __device__ __forceinline__ T ld(T v) { return v; }
    static __device__ __forceinline__ T st(T v) { return v; }
    static __device__ __forceinline__ unsigned short bits(T v) { return v; }
    static __device__ __forceinline__ T of_bits(unsigned short u) { return u; }
};
template <>
struct gkc_num<__half> {
    typedef float C;
    static __device__ __forceinline__ float ld(__half v) { return __half2float(v); }
    static __device__ __forceinline__ __half st(float v) { return __float2half_rn(v); }
    static __device__ __forceinline__ unsigned short bits(__half v) { return __half_as_ushort(v); }
    static __device__ __forceinline__ __half of_bits(unsigned short u) { return __ushort_as_half(u); }
    /* two elements in one 32-bit word, the lower one first */
    static __device__ __forceinline__ unsigned st2(float lo, float hi)
    {
        __half2 h = __floats2half2_rn(lo, hi);
        return (unsigned)__half_as_ushort(__low2half(h)) |
               (unsigned)__half_as_ushort(__high2half(h)) << 16;
    }
};
template <>
struct gkc_num<__nv_bfloat16> {
    typedef float C;
    static __device__ __forceinline__ float ld(__nv_bfloat16 v) { return __bfloat162float(v); }
    static __device__ __forceinline__ __nv_bfloat16 st(float v) { return __float2bfloat16_rn(v); }
    static __device__ __forceinline__ unsigned short bits(__nv_bfloat16 v)
    {
        return __bfloat16_as_ushort(v);
    }
    static __device__ __forceinline__ __nv_bfloat16 of_bits(unsigned short u)
    {
        return __ushort_as_bfloat16(u);
    }
    static __device__ __forceinline__ unsigned st2(float lo, float hi)
    {
        __nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);
        return (unsigned)__bfloat16_as_ushort(__low2bfloat16(h)) |
               (unsigned)__bfloat16_as_ushort(__high2bfloat16(h)) << 16;
    }
};
template <class T>
using gkc_c = typename gkc_num<T>::C;
template <class T>
__device__ __forceinline__ gkc_c<T> gkc_ld(T v)
{
    return gkc_num<T>::ld(v);
}
template <class T>
__device__ __forceinline__ T gkc_st(gkc_c<T> v)
{
    return gkc_num<T>::st(v);
}

/* 16 bytes of a 16-bit T: 8 elements in a uint4, element i in the low
 * (i even) or high half of word i / 2.  A type of its own, so that
 * gkc_vget and gkc_vmap on it widen to gkc_c<T> and round back, where
 * the uint4 of min-plus is 4 unsigned lanes. */
template <class T>
struct __align__(16) gkc_v8 {
    uint4 u;
};
template <> struct gkc_vec<__half> {
    typedef gkc_v8<__half> type;
    static constexpr int N = 8;
};
template <> struct gkc_vec<__nv_bfloat16> {
    typedef gkc_v8<__nv_bfloat16> type;
    static constexpr int N = 8;
};
template <> struct gkc_vec<uint16_t> {
    typedef gkc_v8<uint16_t> type;
    static constexpr int N = 8;
};

/* Element i (a constant after unrolling) of v, widened. */
template <class T>
__device__ __forceinline__ gkc_c<T> gkc_vget(const gkc_v8<T> &v, int i)
{
    unsigned w = gkc_vget(v.u, i >> 1);
    return gkc_ld(gkc_num<T>::of_bits((unsigned short)(i & 1 ? w >> 16 : w & 0xffffu)));
}

/* Two results rounded into one word: the paired conversion (one
 * cvt.rn.f16x2.f32 / .bf16x2) for the 16-bit floats, the bits for uint16_t. */
template <class T>
__device__ __forceinline__ unsigned gkc_st2(gkc_c<T> lo, gkc_c<T> hi)
{
    if constexpr (sizeof(gkc_c<T>) == 2)
        return (unsigned)gkc_num<T>::bits(lo) | (unsigned)gkc_num<T>::bits(hi) << 16;
    else
        return gkc_num<T>::st2(lo, hi);
}

/* A vector of 8 computed values r[0..7], each rounded once. */
template <class T>
__device__ __forceinline__ gkc_v8<T> gkc_vpack(const gkc_c<T> (&r)[8])
{
    gkc_v8<T> v;
    v.u = make_uint4(gkc_st2<T>(r[0], r[1]), gkc_st2<T>(r[2], r[3]), gkc_st2<T>(r[4], r[5]),
                     gkc_st2<T>(r[6], r[7]));
    return v;
}

/* f lane by lane in the compute type, rounded once: c.i = st(f(a.i, b.i)).
 * a and b by value: a vector read from memory as both (a unary op's
 * last vector) is then one 16-byte load, not four 4-byte ones. */
template <class T, class F>
__device__ __forceinline__ gkc_v8<T> gkc_vmap(gkc_v8<T> a, gkc_v8<T> b, F f)
{
    gkc_c<T> r[8];
#pragma unroll
    for (int i = 0; i < 8; i++)
        r[i] = f(gkc_vget(a, i), gkc_vget(b, i));
    return gkc_vpack<T>(r);
}

/* The sum of the 8 elements in f32, in pairs as gkc_vsum above. */
template <class T>
__device__ __forceinline__ gkc_c<T> gkc_vsum(const gkc_v8<T> &a)
{
    return ((gkc_vget(a, 0) + gkc_vget(a, 1)) + (gkc_vget(a, 2) + gkc_vget(a, 3))) +
           ((gkc_vget(a, 4) + gkc_vget(a, 5)) + (gkc_vget(a, 6) + gkc_vget(a, 7)));
}

/* A vector of 8 copies of e (already of the storage type).  Not
 * templates, so that a call gkc_vfill(e) of a kernel over T finds them
 * before the float4 / double2 template above. */
__device__ __forceinline__ gkc_v8<uint16_t> gkc_vfill_bits(unsigned short e)
{
    unsigned w = (unsigned)e * 0x10001u;
    gkc_v8<uint16_t> v;
    v.u = make_uint4(w, w, w, w);
    return v;
}
__device__ __forceinline__ gkc_v8<uint16_t> gkc_vfill(uint16_t e)
{
    return gkc_vfill_bits(e);
}
__device__ __forceinline__ gkc_v8<__half> gkc_vfill(__half e)
{
    return {gkc_vfill_bits(__half_as_ushort(e)).u};
}
__device__ __forceinline__ gkc_v8<__nv_bfloat16> gkc_vfill(__nv_bfloat16 e)
{
    return {gkc_vfill_bits(__bfloat16_as_ushort(e)).u};
}

/* A streaming 16-byte load (__ldcs: evict first), of any gkc_vec type. */
template <class V>
__device__ __forceinline__ V gkc_ldcs(const V *p)
{
    return __ldcs(p);
}
template <class T>
__device__ __forceinline__ gkc_v8<T> gkc_ldcs(const gkc_v8<T> *p)
{
    return {__ldcs(&p->u)};
}
#endif /* __CUDACC__ */

#endif /* GPUK_CUDA_INTERNAL_H */

/*
 * gpuk/backend.h - the plugin ABI of libgpuk.
 *
 * A backend is a shared object that exports exactly one symbol,
 * GPUK_BACKEND_ENTRY ("gpuk_backend_entry"), a function returning a
 * pointer to one const struct gpuk_backend.  The loader reads abi_major
 * first and rejects a plugin of another major version before it touches
 * any other field.
 *
 * Growing without breaking (doc/design.md, "The plugin ABI"):
 *   - the backend struct, each kernel row and gpuk_args carry their own
 *     size; a later minor version only appends members, and a reader
 *     treats a member past the size it was given as absent (NULL / 0);
 *   - a plugin of a newer minor loads in an older core: rows of ops or
 *     dtypes the core does not know are skipped with a line in the load
 *     report, not fatal;
 *   - a plugin of an older minor loads in a newer core: the members it
 *     lacks count as absent, and what needs them returns
 *     GPUK_ERR_UNSUPPORTED.
 *
 * Core validates every argument before a backend sees it, and hands
 * kernels operands in the canonical shapes listed at gpuk_args below.
 * Kernels assume valid input and stay short.  They never abort: every
 * failure is a gpuk_status, with text for last_error().
 *
 * Members marked (optional) may be NULL.
 */
#ifndef GPUK_BACKEND_H
#define GPUK_BACKEND_H

#include <stddef.h>
#include <stdint.h>
#include <gpuk.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 2.0: kernel rows keyed by (op, dtype, variant) with an alias; row and
 * argument sizes; a newer plugin's unknown rows are skipped, not fatal.
 * 2.1: the caller's memory and stream: host_alloc/host_free, check_pointer,
 * use_stream; gpuk_init_args.pinned_bytes; the H2D/D2H peaks.
 * 2.2: gpuk_args.accumulate: MINPLUS folds the old output into its
 * minimum (gpuk_minplus_update).  Core never sets it for a plugin of an
 * older minor, which would not read it.
 * 2.3: auto_variant: the backend's built-in choice of rung for "auto" by
 * the shape of the call (doc/design.md, "Choosing a rung").  A plugin of
 * an older minor lacks it, and "auto" takes its DEFAULT rows.
 * 2.4: the dtypes f64, f16 and bf16 (GPUK_DTYPE_MAP); gpuk_args.alpha_f64
 * and beta_f64, the scalars unrounded; gpuk_csr_desc.values in the CSR
 * matrix's dtype (the op's); the op APSP with its second output
 * gpuk_args.out2; matrix products of 16-bit floats into f32; the op CAST.  A core of 2.3 knows no f64 and skips such
 * rows, so a kernel of an f64 row always finds the two members. */
#define GPUK_ABI_MAJOR 2
#define GPUK_ABI_MINOR 4

#define GPUK_BACKEND_ENTRY "gpuk_backend_entry"

/* Visibility: plugins build with -fvisibility=hidden and mark the entry
 * function with GPUK_PLUGIN_EXPORT. */
#if defined(__GNUC__)
#define GPUK_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define GPUK_PLUGIN_EXPORT
#endif

/* The backend's per-context state, private to the plugin. */
typedef struct gpuk_bctx gpuk_bctx;

/* A validated tensor operand as a kernel sees it. */
typedef struct gpuk_tdesc {
    void *data;                       /* backend address of element [0,...,0] */
    gpuk_dtype dtype;
    int ndim;
    int64_t shape[GPUK_MAX_DIMS];
    int64_t stride[GPUK_MAX_DIMS];    /* elements; >= 0 */
} gpuk_tdesc;

/* A validated CSR matrix in backend memory. */
typedef struct gpuk_csr_desc {
    int64_t rows, cols, nnz;
    const int32_t *row_ptr;           /* rows + 1 entries */
    const int32_t *col_idx;           /* nnz entries, each in [0, cols) */
    const void *values;               /* nnz entries, in the op's dtype (args->dtype); f32
                                         before 2.4 */
    int64_t max_row_nnz;              /* longest row (computed on the host at creation) */
    void *prepared;                   /* set by csr_prepare (optional), else NULL */
} gpuk_csr_desc;

/*
 * Arguments of one op, in canonical form.  Core reshapes the public call's
 * tensors into these shapes (collapsing or prepending dimensions) so each
 * kernel handles one layout.  Every output has at least one element; a
 * reduction length (k, len, t, nnz of a row, n of dot) may be 0.
 *
 *   op              operands                                     scalars
 *   MATMUL          in0 a[m,k], in1 b[k,n], in2 bias[n], out c[m,n] has_bias
 *   BATCHED_MATMUL  in0 a[B,m,k], in1 b[B,k,n], out c[B,m,n]        -
 *                   (a broadcast batch has stride[0] == 0)
 *   MINPLUS         in0 a[m,k], in1 b[k,n], out r[m,n]              accumulate
 *   TRANSPOSE       in0 x[m,n], out y[n,m]                          -
 *   REDUCE          in0 x[outer,len,inner], out [outer,inner]       reduce_kind
 *   ADD             in0 x[n], in1 y[n], out[n]                      -
 *   SCALE           in0 x[n], out[n]                                alpha (alpha_f64)
 *   RELU, COPY      in0 x[n], out[n]                                -
 *   CAST            in0 x[n] (dtype), out[n] (out.dtype: any of      -
 *                   f32, f64, f16, bf16, dtype's own included)
 *   BIAS_RELU       in0 x[rows,n], in1 bias[n], out[rows,n]         -
 *   SOFTMAX         in0 x[rows,n], out[rows,n]                      -
 *   EMBEDDING       in0 table[V,d], in1 ids[T] (i32), out[T,d]      -
 *                   (every id already checked to lie in [0, V))
 *   MEANPOOL        in0 x[b,t,d], out[b,d]                          -
 *   SPMV            csr[rows,cols], in0 x[cols], out y[rows]        -
 *   DOT             in0 x[n], in1 y[n], out[1]                      -
 *   GEMV            in0 a[m,n], in1 x, out y                        trans_a, alpha, beta
 *                                                                   (alpha_f64, beta_f64)
 *                   (x[n], y[m]; or x[m], y[n] when trans_a)
 *   APSP            in0 w[n,n], out d[n,n], out2 pred[n,n] (i32,     has_out2
 *                   2.4; only when has_out2); out may be exactly w
 *   GEMM            in0 a (stored [m,k], or [k,m] if trans_a),      trans_a, trans_b,
 *                   in1 b (stored [k,n], or [n,k] if trans_b),      alpha, beta
 *                   out c[m,n]                                      (alpha_f64, beta_f64)
 *
 * Layout: the matrix operands of MATMUL, BATCHED_MATMUL, TRANSPOSE, GEMV
 * and GEMM (a, b, c, x, y of the table, not bias or vectors) have unit
 * stride in their last dimension and any other strides; every other
 * operand is dense row-major.  Data pointers need not be 16-byte aligned:
 * a vectorized kernel checks alignment and keeps a scalar path.
 * Outputs do not overlap inputs, except in place: ADD's output may be
 * exactly x or y; SCALE, RELU, COPY, CAST (of one dtype), SOFTMAX and
 * BIAS_RELU's exactly x
 * (never bias); APSP's exactly w.  With beta == 0, GEMV and
 * GEMM must not read their output; with alpha == 0, not their inputs.
 * MINPLUS reads its output only with accumulate (2.2).
 *
 * dtype is the type the op computes in, one the kernel's row serves: the
 * element type of every operand of the table above except the ones whose
 * type is fixed (EMBEDDING's ids, i32), and (2.4) the output and bias of
 * MATMUL, BATCHED_MATMUL and GEMM with f16 or bf16 inputs, which may be
 * f32 instead (out.dtype says; the products accumulate in f32 either
 * way).  CAST, like every op, takes its dtype from its lead operand, x:
 * a row of CAST in dtype d converts from d, to whichever of the four
 * float dtypes out.dtype names (a row must serve all four; core sends no
 * other), rounding to nearest even once, as gpuk_cast() says.
 *
 * size: a plugin built against a later minor reads a member appended
 * after the ones listed here only when GPUK_ARGS_HAS(args, member).
 */
typedef struct gpuk_args {
    size_t size;       /* sizeof(gpuk_args) as core was built */
    gpuk_op op;
    gpuk_dtype dtype;
    int n_in;
    gpuk_tdesc in[3];
    gpuk_tdesc out;
    const gpuk_csr_desc *csr;
    float alpha, beta;
    int axis;          /* the public call's axis (REDUCE); informative only */
    int reduce_kind;   /* gpuk_reduce_kind */
    int trans_a, trans_b;
    int has_bias;
    /* 2.2: MINPLUS reads its output: r = min(r, a (x) b), the old r one
     * more candidate of the minimum (a NaN there skipped like a NaN sum,
     * a +0/-0 tie with it -0, k = 0 leaves every other value as it was).
     * Read it only when GPUK_ARGS_HAS(args, accumulate). */
    int accumulate;
    /* 2.4: alpha and beta as the caller gave them (double); alpha and beta
     * above hold them rounded to float.  An f64 kernel reads these, any
     * other the floats.  A core that knows f64 always sets them. */
    double alpha_f64, beta_f64;
    /* 2.4: a second output (APSP's predecessors), present when has_out2;
     * like out, dense unless the op's line above says otherwise. */
    gpuk_tdesc out2;
    int has_out2;
} gpuk_args;

#define GPUK_ARGS_HAS(a, member) \
    ((a)->size >= offsetof(gpuk_args, member) + sizeof((a)->member))

typedef gpuk_status (*gpuk_kernel_fn)(gpuk_bctx *b, const gpuk_args *args);

/* Kernel flags: the same bits as GPUK_VARIANT_* of gpuk.h. */
#define GPUK_KF_DEFAULT GPUK_VARIANT_DEFAULT
#define GPUK_KF_LIBRARY GPUK_VARIANT_LIBRARY
#define GPUK_KF_TF32    GPUK_VARIANT_TF32
#define GPUK_KF_PACKED16 GPUK_VARIANT_PACKED16
#define GPUK_KF_MMA GPUK_VARIANT_MMA

/* The dtype set of a kernel row: GPUK_DTYPE_BIT of each dtype it serves. */
#define GPUK_DT_F32 GPUK_DTYPE_BIT(GPUK_F32)
#define GPUK_DT_I32 GPUK_DTYPE_BIT(GPUK_I32)
#define GPUK_DT_F64 GPUK_DTYPE_BIT(GPUK_F64)
#define GPUK_DT_F16 GPUK_DTYPE_BIT(GPUK_F16)
#define GPUK_DT_BF16 GPUK_DTYPE_BIT(GPUK_BF16)

/* One row of a backend's kernel table: the function that computes op in
 * the dtypes of its set, under a variant name.  Rows of an op are listed
 * in ladder order: the naive rung first, library variants last.  A name
 * (or alias) may appear twice for one op only with disjoint dtype sets,
 * and at most one row of each (op, dtype) carries GPUK_KF_DEFAULT. */
typedef struct gpuk_kernel {
    gpuk_op op;
    uint32_t dtypes;       /* GPUK_DT_* bits; the op's dtype is args->dtype */
    const char *variant;   /* lower-case name: "naive", "tiled", ... */
    uint32_t flags;        /* GPUK_KF_* */
    gpuk_kernel_fn fn;
    const char *summary;   /* one line: what this rung changes and why it is faster */
    const char *alias;     /* (optional) a former name still accepted, e.g. "v3" */
} gpuk_kernel;

#define GPUK_MAX_DEVICES 16

typedef struct gpuk_device_desc {
    char name[128];
    uint64_t memory_bytes;  /* 0 when unknown */
    int multiprocessors;    /* SMs, or CPU cores */
    int cc_major, cc_minor; /* compute capability; 0 for a CPU */
    int clock_mhz;          /* 0 when unknown */
} gpuk_device_desc;

typedef struct gpuk_probe_result {
    gpuk_status status;     /* GPUK_OK when init can succeed; else NO_DRIVER, NO_DEVICE, ... */
    char reason[256];       /* why not usable; or a one-line summary (driver version) */
    int device_count;
    gpuk_device_desc devices[GPUK_MAX_DEVICES];
} gpuk_probe_result;

typedef struct gpuk_init_args {
    size_t size;            /* sizeof(gpuk_init_args) as core was built */
    int device;             /* device ordinal (>= 0) */
    int num_threads;        /* > 0: use exactly this many; 0: the backend decides */
    int verbose;
    /* 2.1: bytes of page-locked staging the backend may keep for reads
     * and writes of ordinary (pageable) host memory; 0: none, copy
     * directly.  Read it only when size covers it. */
    int64_t pinned_bytes;
} gpuk_init_args;

/* Backend-wide flags. */
#define GPUK_BF_HOST_MEMORY 0x1u  /* data pointers are host addresses core may read */

typedef struct gpuk_backend {
    /* --- ABI: read first, never moved --- */
    uint32_t abi_major;     /* GPUK_ABI_MAJOR the plugin was built with */
    uint32_t abi_minor;
    uint32_t size;          /* sizeof(struct gpuk_backend) the plugin was built with */
    uint32_t flags;         /* GPUK_BF_* */

    const char *name;       /* "cpu", "cuda" */
    const char *version;    /* the plugin's version */
    const char *description;

    /* Can this backend run here?  Fills *out (status, reason, devices). */
    gpuk_status (*probe)(gpuk_probe_result *out);

    /* Per-context state.  On failure writes a message into msg. */
    gpuk_status (*init)(const gpuk_init_args *args, gpuk_bctx **out, char *msg, size_t msglen);
    void (*fini)(gpuk_bctx *b);

    /* Text describing the last non-OK status returned on b ("" if none). */
    const char *(*last_error)(gpuk_bctx *b);

    /* The device the context runs on, and the CPU thread count (0 if n/a). */
    void (*info)(gpuk_bctx *b, gpuk_device_desc *dev, int *num_threads);

    /* Memory.  alloc never gets 0 bytes; out of memory is
     * GPUK_ERR_DEVICE_MEMORY (or GPUK_ERR_NO_MEMORY on the host) and
     * leaves the context usable.  write is ordered after pending ops;
     * read waits for them.  Pointers may be interior (storage + offset). */
    gpuk_status (*alloc)(gpuk_bctx *b, size_t bytes, void **out);
    void (*free)(gpuk_bctx *b, void *p);
    gpuk_status (*write)(gpuk_bctx *b, void *dst, const void *host_src, size_t bytes);
    gpuk_status (*read)(gpuk_bctx *b, void *host_dst, const void *src, size_t bytes);
    gpuk_status (*copy)(gpuk_bctx *b, void *dst, const void *src, size_t bytes);
    gpuk_status (*sync)(gpuk_bctx *b);

    /* Elapsed time of the work issued between start and stop, in ms
     * (device events on a GPU); stop waits for that work. */
    gpuk_status (*timer_start)(gpuk_bctx *b);
    gpuk_status (*timer_stop)(gpuk_bctx *b, double *ms);

    /* The kernel table: n_kernels rows, kernel_size bytes apart
     * (sizeof(gpuk_kernel) as the plugin was built), so rows may grow too. */
    const gpuk_kernel *kernels;
    size_t n_kernels;
    uint32_t kernel_size;

    /* (optional) Build per-matrix state (a cuSPARSE descriptor, say) in
     * csr->prepared when a CSR matrix is created; released at destroy. */
    gpuk_status (*csr_prepare)(gpuk_bctx *b, gpuk_csr_desc *csr);
    void (*csr_release)(gpuk_bctx *b, gpuk_csr_desc *csr);

    /* (optional) Measure a ceiling with the backend's own micro-kernel;
     * GPUK_ERR_UNSUPPORTED for a kind it has none for. */
    gpuk_status (*peak)(gpuk_bctx *b, gpuk_peak kind, double *value);

    /* ---- 2.1: the caller's memory and stream.  A plugin of 2.0 lacks
     * these; the public functions that need them then return
     * GPUK_ERR_UNSUPPORTED. ---- */

    /* (optional) Host memory the device reaches at full speed: page-locked
     * on a GPU (write and read from it go straight to the DMA engine), or
     * aligned ordinary memory where the backend's memory is the host's. */
    gpuk_status (*host_alloc)(gpuk_bctx *b, size_t bytes, void **out);
    void (*host_free)(gpuk_bctx *b, void *p);

    /* (optional) May kernels of this context use the bytes [p, p + bytes)
     * of memory it did not allocate?  GPUK_OK, or GPUK_ERR_INVALID with
     * last_error saying what p is instead (host memory, another device's,
     * not allocated or freed, a range past its allocation).  A plugin
     * without it cannot take the caller's memory (gpuk_tensor_wrap and
     * DLPack imports are GPUK_ERR_UNSUPPORTED). */
    gpuk_status (*check_pointer)(gpuk_bctx *b, const void *p, size_t bytes);

    /* (optional) Order every op, write and read of the context on the
     * caller's stream (CUDA: a cudaStream_t of the context's device),
     * which the backend never destroys; called once, right after init.
     * A backend with no streams accepts and ignores it. */
    gpuk_status (*use_stream)(gpuk_bctx *b, void *stream);

    /* (optional) The DLPack device type of this backend's memory (the
     * DLDeviceType values: 1 kDLCPU, 2 kDLCUDA); 0: none, no DLPack. */
    uint32_t dlpack_device;

    /* (optional) The native stream the context's work is ordered on (CUDA:
     * the caller's cudaStream_t, or the context's own), for gpuk_info. */
    void *(*native_stream)(gpuk_bctx *b);

    /* ---- 2.3: choosing a rung.  A plugin of 2.2 or older lacks it, and
     * "auto" runs the row flagged GPUK_KF_DEFAULT. ---- */

    /* (optional) The rung "auto" (or a NULL variant) runs for these
     * canonical operands: the name of one of the backend's rows of
     * (args->op, args->dtype), or NULL for the DEFAULT row.  shape_class
     * is floor(log2(work)), work = the output's elements x the op's sum
     * length (the catalogue's sum column of gpuk.h; 1 for an exact op),
     * computed by core, as the wisdom files of GPUK_WISDOM key it; the
     * function may look at anything else in args too (a reduction's inner
     * extent, a CSR matrix's longest row), but not at the data, and must
     * be cheap: core asks before every "auto" call that no wisdom entry
     * settles.  A name that is no row of (op, dtype), or one flagged
     * GPUK_KF_TF32, is not taken: the DEFAULT row runs, and the verbose
     * log (GPUK_VERBOSE=1) says so. */
    const char *(*auto_variant)(gpuk_bctx *b, const gpuk_args *args, int shape_class);
} gpuk_backend;

typedef const gpuk_backend *(*gpuk_backend_entry_fn)(void);

/* ---- small helpers for kernels ---- */

static inline int64_t gpuk_tdesc_numel(const gpuk_tdesc *t)
{
    int64_t n = 1;
    for (int i = 0; i < t->ndim; i++)
        n *= t->shape[i];
    return n;
}

#ifdef __cplusplus
}
#endif

#endif /* GPUK_BACKEND_H */

/*
 * gpuk.h - the public API of libgpuk.
 *
 * One backend-neutral tensor and op API; the work is done by a backend
 * plugin (backend_cpu.so, backend_cuda.so) loaded at run time.  Every
 * function returns a gpuk_status; a non-OK status comes with a message,
 * naming the bad argument, that gpuk_context_error() returns.  The library
 * never aborts or exits.
 *
 * Thread safety: a context and everything created from it may be used by
 * one thread at a time.  Distinct contexts are independent and may be used
 * from different threads concurrently.  Functions that take no context
 * (gpuk_strerror, gpuk_op_name, ...) are safe everywhere.
 *
 * Handles: gpuk_tensor and gpuk_csr pointers are opaque tokens, not
 * addresses, and each is checked on every call before anything is
 * dereferenced.  A token carries the serial number of the context that
 * made it: a handle of another context, or any value that no context of
 * this process made, is GPUK_ERR_CONTEXT; a handle of this context that
 * is not live (destroyed, or a number it never issued), or a tensor passed
 * where a CSR matrix is expected, is GPUK_ERR_HANDLE.
 */
#ifndef GPUK_H
#define GPUK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GPUK_VERSION_MAJOR 0
#define GPUK_VERSION_MINOR 2
#define GPUK_VERSION_PATCH 0
#define GPUK_VERSION_STRING "0.2.0"

/* Version of the library actually loaded (may differ from the header). */
const char *gpuk_version(void);

/* ------------------------------------------------------------------ */
/* Status codes: one list, X(NAME, value, message), from which the enum,
 * gpuk_strerror() and gpuk_status_name() are generated.  The message is a
 * fixed summary; the context's message (gpuk_context_error) says what went
 * wrong in the call and names the argument.  Overlap (GPUK_ERR_ALIAS) is
 * judged by address range, as the notes on ops below say.  Values are
 * stable: a new code is only ever appended.  A user may expand the list
 * too (to map codes to exceptions, say). */

#define GPUK_STATUS_MAP(X)                                                                            \
    X(OK,                     0, "success")                                                           \
    X(ERR_NULL,               1, "a required pointer argument is NULL")                               \
    X(ERR_INVALID,            2, "an argument has a value outside its domain")                        \
    X(ERR_DTYPE,              3, "a tensor has the wrong element type")                               \
    X(ERR_SHAPE,              4, "tensor shapes disagree or are out of range")                        \
    X(ERR_LAYOUT,             5, "tensor strides not supported here, or a view outside its storage")  \
    X(ERR_OVERFLOW,           6, "an element count or byte size overflows")                           \
    X(ERR_ALIAS,              7, "an output overlaps an input")                                       \
    X(ERR_HANDLE,             8, "not a live handle of this context (destroyed or never issued)")     \
    X(ERR_CONTEXT,            9, "the handle was not made by this context")                           \
    X(ERR_SPARSE,            10, "invalid CSR structure")                                             \
    X(ERR_INDEX,             11, "an index value is out of range")                                    \
    X(ERR_SIZE,              12, "a host buffer size differs from the tensor's")                      \
    X(ERR_VARIANT,           13, "no such variant of this op on this backend")                        \
    X(ERR_UNSUPPORTED,       14, "not implemented by this backend")                                   \
    X(ERR_NO_MEMORY,         15, "out of host memory")                                                \
    X(ERR_DEVICE_MEMORY,     16, "out of device memory")                                              \
    X(ERR_BACKEND_NOT_FOUND, 17, "backend plugin not found")                                          \
    X(ERR_BACKEND_LOAD,      18, "backend plugin could not be loaded")                                \
    X(ERR_BACKEND_SYMBOL,    19, "backend plugin lacks the entry symbol")                             \
    X(ERR_BACKEND_ABI,       20, "backend plugin built for another ABI")                              \
    X(ERR_NO_DRIVER,         21, "the backend's driver is missing or too old")                        \
    X(ERR_NO_DEVICE,         22, "no usable device")                                                  \
    X(ERR_DEVICE,            23, "the device reported an error")                                      \
    X(ERR_LIBRARY,           24, "a vendor library call failed")                                      \
    X(ERR_CHECK,             25, "shadow check (GPUK_CHECK) found a mismatch")                        \
    X(ERR_ENV,               26, "an environment variable has an invalid value")                      \
    X(ERR_INTERNAL,          27, "internal error in libgpuk")                                        \
    X(ERR_NEGATIVE_CYCLE,    28, "the graph has a cycle of negative length")

typedef enum gpuk_status {
#define GPUK_STATUS_ENUM_(name, value, text) GPUK_##name = value,
    GPUK_STATUS_MAP(GPUK_STATUS_ENUM_)
#undef GPUK_STATUS_ENUM_
} gpuk_status;

/* A fixed description of a status code (the list's message); never NULL:
 * "unknown status code" for a value not in the list. */
const char *gpuk_strerror(gpuk_status status);
/* The code's name as written in C, "GPUK_ERR_SHAPE"; NULL for a value not
 * in the list. */
const char *gpuk_status_name(gpuk_status status);

/* ------------------------------------------------------------------ */
/* Element types, ops, variants                                         */

/* Element types: X(ID, value, name, bytes, dlcode, prec), from which the
 * enum, names, sizes, precisions, the DLPack type (code dlcode, 8 * bytes
 * bits, one lane) and every dtype list of the library are generated.
 * Values stay below 32 (a dtype set is a 32-bit mask, GPUK_DTYPE_BIT); a
 * new one is appended.  dlcode is DLPack's DLDataTypeCode: 0 kDLInt,
 * 2 kDLFloat, 4 kDLBfloat.  prec is the significand's bits, the implicit
 * one included (a float's unit roundoff is 2^-prec); 0 for an integer.
 *   f32   IEEE 754 binary32; the type every op has
 *   i32   two's-complement 32-bit integer (min-plus; embedding's ids)
 *   f64   IEEE 754 binary64
 *   f16   IEEE 754 binary16
 *   bf16  bfloat16: binary32's sign and exponent, 7 fraction bits
 * Which ops compute in which dtype is the backend's kernel table
 * (gpuk_variant_count_dtype; gpuk-info lists it). */
#define GPUK_DTYPE_MAP(X)             \
    X(F32,  1, "f32",  4, 2, 24)      \
    X(I32,  2, "i32",  4, 0,  0)      \
    X(F64,  3, "f64",  8, 2, 53)      \
    X(F16,  4, "f16",  2, 2, 11)      \
    X(BF16, 5, "bf16", 2, 4,  8)

typedef enum gpuk_dtype {
#define GPUK_DTYPE_ENUM_(id, value, name, bytes, dlcode, prec) GPUK_##id = value,
    GPUK_DTYPE_MAP(GPUK_DTYPE_ENUM_)
#undef GPUK_DTYPE_ENUM_
} gpuk_dtype;

/* The bit of a dtype in a dtype set (gpuk_variant_info.dtypes). */
#define GPUK_DTYPE_BIT(dtype) (1u << (unsigned)(dtype))

/* Bytes per element, or 0 for an unknown dtype. */
size_t gpuk_dtype_size(gpuk_dtype dtype);
/* "f32", "i32", "f64", ... or "?" */
const char *gpuk_dtype_name(gpuk_dtype dtype);
/* Inverse of gpuk_dtype_name: GPUK_ERR_INVALID for an unknown name. */
gpuk_status gpuk_dtype_from_name(const char *name, gpuk_dtype *dtype);
/* The list's prec: significand bits of a float dtype (24 for f32, 53 for
 * f64, 11 for f16, 8 for bf16), 0 for an integer or unknown dtype. */
int gpuk_dtype_precision(gpuk_dtype dtype);

#define GPUK_MAX_DIMS 4

/* The op catalogue: one row per op family, X(ID, value, name, exact, sum),
 * from which the gpuk_op enum, the names and every per-op rule of the core
 * are generated (doc/design.md, "Adding an op").  Columns:
 *   value  the stable enum value; a new op is appended
 *   name   what gpuk_op_name() returns and variant listings print
 *   exact  1: every output element takes at most one rounding (a copy, a
 *          gather, one add or multiply, a max, or the min of such), so
 *          every rung of every backend gives the same bits; 0: a sum whose
 *          rounding depends on its order, checked against an error bound
 *   sum    which dimension of the canonical operands (gpuk/backend.h) sums:
 *          the K in the bound gamma_K = K u / (1 - K u) of gpuk(7):
 *          NONE; DIM0 / DIM1 / DIM2 (that dimension of the first input);
 *          DIM1_BIAS (DIM1, plus one term for a bias); OPA_COLS_BETA (the
 *          columns of op(a), plus one term for beta c); ROW_NNZ (the
 *          longest row of the CSR matrix) */
#define GPUK_OP_MAP(X)                                          \
    X(MATMUL,          1, "matmul",         0, DIM1_BIAS)       \
    X(BATCHED_MATMUL,  2, "batched_matmul", 0, DIM2)            \
    X(MINPLUS,         3, "minplus",        1, NONE)            \
    X(TRANSPOSE,       4, "transpose",      1, NONE)            \
    X(REDUCE,          5, "reduce",         0, DIM1)            \
    X(ADD,             6, "add",            1, NONE)            \
    X(SCALE,           7, "scale",          1, NONE)            \
    X(RELU,            8, "relu",           1, NONE)            \
    X(BIAS_RELU,       9, "bias_relu",      1, NONE)            \
    X(COPY,           10, "copy",           1, NONE)            \
    X(SOFTMAX,        11, "softmax",        0, DIM1)            \
    X(EMBEDDING,      12, "embedding",      1, NONE)            \
    X(MEANPOOL,       13, "meanpool",       0, DIM1)            \
    X(SPMV,           14, "spmv",           0, ROW_NNZ)         \
    X(DOT,            15, "dot",            0, DIM0)            \
    X(GEMV,           16, "gemv",           0, OPA_COLS_BETA)   \
    X(GEMM,           17, "gemm",           0, OPA_COLS_BETA)   \
    X(APSP,           18, "apsp",           0, DIM0)            \
    X(CAST,           19, "cast",           1, NONE)

/* Each backend implements each op as a ladder of variants, listed by
 * gpuk_variant_count() / gpuk_variant_get(). */
typedef enum gpuk_op {
#define GPUK_OP_ENUM_(id, value, name, exact, sum) GPUK_OP_##id = value,
    GPUK_OP_MAP(GPUK_OP_ENUM_)
#undef GPUK_OP_ENUM_
} gpuk_op;

/* The first and last value of the catalogue (the library checks at
 * compile time that its rows are exactly FIRST..LAST). */
#define GPUK_OP_FIRST GPUK_OP_MATMUL
#define GPUK_OP_LAST  GPUK_OP_CAST

/* "matmul", "batched_matmul", "minplus", ... or NULL for an unknown op. */
const char *gpuk_op_name(gpuk_op op);
/* The catalogue's exact column: 1 for a bit-exact op, 0 for a rounded
 * sum, -1 for an unknown op. */
int gpuk_op_exact(gpuk_op op);
/* Inverse of gpuk_op_name: GPUK_ERR_INVALID for an unknown name. */
gpuk_status gpuk_op_from_name(const char *name, gpuk_op *op);

/* Variant flags (the same bits as a backend's kernel table). */
#define GPUK_VARIANT_DEFAULT 0x1u  /* the backend's recommended rung: what "auto" runs
                                      when neither wisdom nor its built-in rules choose */
#define GPUK_VARIANT_LIBRARY 0x2u  /* a vendor library (cuBLAS, cuSPARSE, OpenBLAS) */
#define GPUK_VARIANT_TF32    0x4u  /* reduced precision (TF32 inputs, u = 2^-11) */
#define GPUK_VARIANT_PACKED16 0x8u /* computes in 16-bit lanes, two an instruction, when
                                      the values allow (same results; its ceiling is
                                      GPUK_PEAK_ADDMIN_I16X2_GOPS) */
#define GPUK_VARIANT_MMA     0x10u /* runs on the matrix units (tensor cores: DMMA, HGMMA...;
                                      the CPU's bf16 dot, vdpbf16ps): its ceiling is the
                                      GPUK_PEAK_MMA_* kind of its dtype */

typedef struct gpuk_variant_info {
    const char *name;     /* e.g. "tiled"; valid while the context is open */
    const char *summary;  /* one line: what this rung changes and why it pays */
    uint32_t flags;       /* GPUK_VARIANT_* */
    uint32_t dtypes;      /* GPUK_DTYPE_BIT of every dtype this rung computes in */
    const char *alias;    /* a former name the rung still answers to, or NULL */
} gpuk_variant_info;

/* ------------------------------------------------------------------ */
/* Context                                                              */

typedef struct gpuk_context gpuk_context;
typedef struct gpuk_load_report gpuk_load_report;

/* Options of gpuk_context_open_ex.  Fields left at their gpuk_options_init
 * value fall back to the environment, then to the default. */
typedef struct gpuk_options {
    size_t size;          /* sizeof(gpuk_options): set by gpuk_options_init */
    const char *backend;  /* "cpu", "cuda", "auto", a path to a .so; NULL: GPUK_BACKEND, then "auto" */
    int device;           /* device ordinal; -1: GPUK_DEVICE, then 0 */
    int num_threads;      /* CPU threads; 0: GPUK_NUM_THREADS, OMP_NUM_THREADS, then all cores */
    int check;            /* shadow mode; -1: GPUK_CHECK, then off */
    int verbose;          /* log level; -1: GPUK_VERBOSE, then 0 */
    /* 0.2: */
    void *stream;         /* CUDA: the caller's cudaStream_t, on which every op, write and
                             read of the context is ordered; NULL: the context's own.
                             Ignored by backends without streams (cpu) */
    int64_t pinned_bytes; /* page-locked staging for reads and writes of ordinary host
                             memory; -1: GPUK_PINNED, then 128 MiB; 0: off */
    /* after 0.2 (with plugin ABI 2.3): */
    const char *wisdom;   /* a wisdom file that "auto" follows (written by gpuk-bench
                             --tune); NULL: GPUK_WISDOM, then none; "": none */
} gpuk_options;

/* Structures the library fills (options, info, tensor info, variant
 * info) only ever grow at their end, so each filling function has a form
 * that takes the caller's size and fills no more than that.  In C the
 * plain names below are macros passing sizeof for you; the functions of
 * those names (for callers through an FFI) fill the layout of libgpuk 0.2. */
void (gpuk_options_init)(gpuk_options *opts);
void gpuk_options_init_size(gpuk_options *opts, size_t size);
#define gpuk_options_init(opts) gpuk_options_init_size((opts), sizeof *(opts))

/* Open a context on a backend ("cpu", "cuda", "auto", a path to a plugin
 * .so, or NULL to follow GPUK_BACKEND).  On failure *ctx is NULL. */
gpuk_status gpuk_context_open(gpuk_context **ctx, const char *backend);

/* As gpuk_context_open, with options.  If report is not NULL, *report
 * receives the load report (every candidate plugin and why it was taken or
 * rejected) whether or not the open succeeded; free it with
 * gpuk_load_report_free. */
gpuk_status gpuk_context_open_ex(gpuk_context **ctx, const gpuk_options *opts,
                                 gpuk_load_report **report);

/* Close a context: waits for pending work and frees every tensor and CSR
 * matrix still alive in it.  NULL is a no-op. */
void gpuk_context_close(gpuk_context *ctx);

/* The message of the last failed call on this context ("" if none).
 * Valid until the next call on the context. */
const char *gpuk_context_error(const gpuk_context *ctx);

/* The load report of the context (owned by the context). */
const gpuk_load_report *gpuk_context_load_report(const gpuk_context *ctx);

/* Choosing a rung.  An op called with variant NULL or "auto" runs, in
 * this order: the rung the context's wisdom file names for the op, its
 * dtype and the call's shape class (the exact class, else the nearest
 * one within 2); the rung the backend's built-in rules name (plugin ABI
 * 2.3); the row flagged GPUK_VARIANT_DEFAULT.  The shape class is
 * floor(log2(work)), work = the output's elements x the op's sum length
 * (the K of the catalogue's sum column; 1 for an exact op, so min-plus
 * and transpose count their output only), with 0 counted as 1.  Shapes
 * of equal work share a class (4096^3 and 8192x8192 by k = 1024 both
 * have class 36).  A wisdom file that is unreadable, corrupt, truncated,
 * of another library or plugin version, of another device or thread
 * count, or that names a rung the plugin lacks, is ignored as a whole,
 * with a line in the verbose log (GPUK_VERBOSE=1); see gpuk(7).
 *
 * What the last op on the context ran: the rung's name (never "auto" or
 * an alias), how it was chosen ("named" by the call, "wisdom",
 * "built-in", "default"), and its shape class.  An op counts once it
 * passed its checks, even with an empty output (its rung was chosen;
 * nothing ran).  NULL, NULL and -1 before the first such op, or for a
 * NULL ctx.  The strings stay valid while the context is open. */
const char *gpuk_last_variant(const gpuk_context *ctx);
const char *gpuk_last_variant_source(const gpuk_context *ctx);
int gpuk_last_shape_class(const gpuk_context *ctx);
/* Where "auto" takes its rungs on this context, one line of text: the
 * wisdom file followed and its entry count, or why one was ignored, and
 * whether the backend has built-in rules.  Valid while the context is
 * open; "context is NULL" for NULL. */
const char *gpuk_auto_source(const gpuk_context *ctx);

typedef struct gpuk_info {
    const char *backend;          /* "cpu", "cuda", ... */
    const char *backend_version;  /* the plugin's own version */
    const char *backend_path;     /* file the plugin was loaded from */
    const char *device;           /* e.g. "NVIDIA H100 80GB HBM3" or the CPU model */
    int device_ordinal;
    int num_threads;              /* CPU backend: threads used; else 0 */
    uint64_t device_memory;       /* bytes; 0 when unknown */
    int multiprocessors;          /* SMs (CUDA) or cores (CPU) */
    int check;                    /* shadow mode on? */
    unsigned abi_major, abi_minor;/* the plugin's ABI */
    void *stream;                 /* CUDA: the cudaStream_t the context's work is ordered on
                                     (the caller's, or its own); NULL without streams */
    int dlpack_device;            /* the DLPack device type of its memory (1 CPU, 2 CUDA);
                                     0: none */
} gpuk_info;

/* Strings stay valid while the context is open. */
gpuk_status (gpuk_context_info)(gpuk_context *ctx, gpuk_info *info);
gpuk_status gpuk_context_info_size(gpuk_context *ctx, gpuk_info *info, size_t size);
#define gpuk_context_info(ctx, info) gpuk_context_info_size((ctx), (info), sizeof *(info))

/* Wait until every op issued on the context has finished; returns the
 * first asynchronous error, if any. */
gpuk_status gpuk_sync(gpuk_context *ctx);

/* Load reports. */
typedef struct gpuk_load_attempt {
    const char *backend;  /* backend name tried ("cpu", "cuda", or the path given) */
    const char *path;     /* candidate file, or "" when no file was found */
    gpuk_status status;   /* GPUK_OK for the plugin taken */
    const char *reason;   /* why it was taken or rejected */
    int chosen;           /* nonzero for the plugin the context uses */
} gpuk_load_attempt;

size_t gpuk_load_report_count(const gpuk_load_report *report);
const gpuk_load_attempt *gpuk_load_report_get(const gpuk_load_report *report, size_t i);
/* The whole report as text, one line per candidate. */
const char *gpuk_load_report_text(const gpuk_load_report *report);
void gpuk_load_report_free(gpuk_load_report *report);

/* Variants of an op on the context's backend that compute in dtype, in
 * ladder order (first: the naive rung).  A rung is named by its name or
 * its alias; the backend's kernel rows are keyed by (op, dtype, variant). */
gpuk_status gpuk_variant_count_dtype(gpuk_context *ctx, gpuk_op op, gpuk_dtype dtype,
                                     size_t *count);
gpuk_status (gpuk_variant_get_dtype)(gpuk_context *ctx, gpuk_op op, gpuk_dtype dtype,
                                     size_t index, gpuk_variant_info *info);
gpuk_status gpuk_variant_get_dtype_size(gpuk_context *ctx, gpuk_op op, gpuk_dtype dtype,
                                        size_t index, gpuk_variant_info *info, size_t size);
#define gpuk_variant_get_dtype(ctx, op, dtype, index, info) \
    gpuk_variant_get_dtype_size((ctx), (op), (dtype), (index), (info), sizeof *(info))
/* The same for f32, the one dtype every op has. */
gpuk_status gpuk_variant_count(gpuk_context *ctx, gpuk_op op, size_t *count);
gpuk_status (gpuk_variant_get)(gpuk_context *ctx, gpuk_op op, size_t index,
                               gpuk_variant_info *info);
#define gpuk_variant_get(ctx, op, index, info) \
    gpuk_variant_get_dtype_size((ctx), (op), GPUK_F32, (index), (info), sizeof *(info))

/* Timing on the backend's clock (CUDA events on the GPU, a monotonic clock
 * on the CPU).  gpuk_timer_stop waits for the work issued since start and
 * returns the elapsed milliseconds. */
gpuk_status gpuk_timer_start(gpuk_context *ctx);
gpuk_status gpuk_timer_stop(gpuk_context *ctx, double *ms);

/* Ceilings measured by the backend's own micro-kernels: one list,
 * X(ID, value, name, unit, meaning), from which the enum, gpuk_peak_name()
 * and gpuk_peak_unit() are generated.  A rate counts 2 operations per
 * fused step (an FMA, an add+min; a matrix instruction m n k FMAs).
 * Values are stable; a new kind is appended. */
#define GPUK_PEAK_MAP(X)                                                                           \
    X(COPY_GBS,           1, "copy_gbs",          "GB/s",    "device copy bandwidth, bytes read + written") \
    X(FMA_GFLOPS,         2, "fma_gflops",        "GFLOP/s", "f32 fused multiply-add rate")        \
    X(ADDMIN_GOPS,        3, "addmin_gops",       "Gop/s",   "f32 add+min rate")                   \
    X(H2D_GBS,            4, "h2d_gbs",           "GB/s",    "host to device copy from page-locked memory") \
    X(D2H_GBS,            5, "d2h_gbs",           "GB/s",    "device to host copy into page-locked memory") \
    X(ADDMIN_I32_GOPS,    6, "addmin_i32_gops",   "Gop/s",   "i32 add+min rate")                   \
    X(ADDMIN_I16X2_GOPS,  7, "addmin_i16x2_gops", "Gop/s",   "add+min on two 16-bit lanes an instruction (a PACKED16 rung)") \
    X(READ_GBS,           8, "read_gbs",          "GB/s",    "device read bandwidth (a sum over a buffer larger than any cache)") \
    X(FMA_F64_GFLOPS,     9, "fma_f64_gflops",    "GFLOP/s", "f64 fused multiply-add rate (DFMA; the CPU's f64 vector FMA)") \
    X(MMA_F64_GFLOPS,    10, "mma_f64_gflops",    "GFLOP/s", "f64 matrix-unit rate (DMMA tensor cores)") \
    X(ADDMIN_F64_GOPS,   11, "addmin_f64_gops",   "Gop/s",   "f64 add+min rate")                   \
    X(MMA_BF16_GFLOPS,   12, "mma_bf16_gflops",   "GFLOP/s", "bf16 matrix rate, f32 accumulation (tensor cores; the CPU's bf16 dot)") \
    X(MMA_F16_GFLOPS,    13, "mma_f16_gflops",    "GFLOP/s", "f16 matrix rate, f32 accumulation (tensor cores)") \
    X(MMA_TF32_GFLOPS,   14, "mma_tf32_gflops",   "GFLOP/s", "tf32 matrix rate, f32 accumulation (tensor cores)")

typedef enum gpuk_peak {
#define GPUK_PEAK_ENUM_(id, value, name, unit, text) GPUK_PEAK_##id = value,
    GPUK_PEAK_MAP(GPUK_PEAK_ENUM_)
#undef GPUK_PEAK_ENUM_
} gpuk_peak;

/* "copy_gbs", "fma_gflops", ... (the list's name), NULL for an unknown
 * kind; gpuk_peak_unit: "GB/s", "GFLOP/s" or "Gop/s", NULL likewise. */
const char *gpuk_peak_name(gpuk_peak kind);
const char *gpuk_peak_unit(gpuk_peak kind);
/* Inverse of gpuk_peak_name: GPUK_ERR_INVALID for an unknown name. */
gpuk_status gpuk_peak_from_name(const char *name, gpuk_peak *kind);

/* GPUK_ERR_UNSUPPORTED if the backend has no micro-kernel for it. */
gpuk_status gpuk_peak_measure(gpuk_context *ctx, gpuk_peak kind, double *value);

/* ------------------------------------------------------------------ */
/* Tensors                                                              */

typedef struct gpuk_tensor gpuk_tensor;

typedef struct gpuk_tensor_info {
    gpuk_dtype dtype;
    int ndim;
    int64_t shape[GPUK_MAX_DIMS];
    int64_t strides[GPUK_MAX_DIMS];  /* in elements */
    int64_t offset;                  /* first element, in elements from the storage start */
    int64_t numel;
    size_t bytes;                    /* numel * element size: what read/write move */
    int contiguous;                  /* dense row-major? */
    void *data;                      /* backend address of the first element (device
                                        memory on a GPU); NULL for an empty tensor */
    int borrowed;                    /* memory the caller owns (gpuk_tensor_wrap, DLPack)? */
} gpuk_tensor_info;

/* A new dense row-major tensor of ndim (1..4) dimensions.  A dimension of
 * 0 makes an empty tensor; a negative one is GPUK_ERR_SHAPE.  The contents
 * are undefined until written. */
gpuk_status gpuk_tensor_create(gpuk_context *ctx, gpuk_dtype dtype, int ndim,
                               const int64_t *shape, gpuk_tensor **out);

/* A view of base's storage: ndim, shape, strides (elements, >= 0) and an
 * offset (elements from the start of the storage).  Every element it can
 * reach must lie inside the storage.  The storage lives until the base and
 * all its views are destroyed.  strides NULL means dense row-major. */
gpuk_status gpuk_tensor_view(gpuk_context *ctx, const gpuk_tensor *base, int ndim,
                             const int64_t *shape, const int64_t *strides,
                             int64_t offset, gpuk_tensor **out);

/* NULL is a no-op. */
gpuk_status gpuk_tensor_destroy(gpuk_context *ctx, gpuk_tensor *t);

/* Copy between host memory (dense row-major, exactly info.bytes bytes)
 * and the tensor.  Write is ordered with the ops of the context; read
 * waits for them. */
gpuk_status gpuk_tensor_write(gpuk_context *ctx, gpuk_tensor *t, const void *src,
                              size_t bytes);
gpuk_status gpuk_tensor_read(gpuk_context *ctx, const gpuk_tensor *t, void *dst,
                             size_t bytes);

gpuk_status (gpuk_tensor_get_info)(gpuk_context *ctx, const gpuk_tensor *t,
                                   gpuk_tensor_info *info);
gpuk_status gpuk_tensor_get_info_size(gpuk_context *ctx, const gpuk_tensor *t,
                                      gpuk_tensor_info *info, size_t size);
#define gpuk_tensor_get_info(ctx, t, info) \
    gpuk_tensor_get_info_size((ctx), (t), (info), sizeof *(info))

/* ------------------------------------------------------------------ */
/* The caller's memory                                                  */

/* Host memory the device reaches at full speed: page-locked on CUDA
 * (gpuk_tensor_write/read from it go straight to the DMA engine), 64-byte
 * aligned ordinary memory on the CPU backend.  Free it with gpuk_host_free
 * on the same context, before the context is closed (closing frees what
 * is left).  GPUK_ERR_UNSUPPORTED on a plugin older than ABI 2.1. */
gpuk_status gpuk_host_alloc(gpuk_context *ctx, size_t bytes, void **p);
/* NULL is a no-op; a pointer gpuk_host_alloc did not return on this
 * context is GPUK_ERR_INVALID. */
gpuk_status gpuk_host_free(gpuk_context *ctx, void *p);

/* A tensor over memory the caller owns, without copying it: a host
 * pointer on the CPU backend, a device pointer of the context's device on
 * CUDA (checked with the driver: a host pointer, another device's memory,
 * or memory not allocated or freed is GPUK_ERR_INVALID naming data).  The
 * layout is as gpuk_tensor_view's: strides in elements, >= 0, NULL for
 * dense row-major; data must be aligned to the element size.  Every op
 * takes it like its own tensors, views of it included; destroying it never
 * frees the memory, which must stay valid until then. */
gpuk_status gpuk_tensor_wrap(gpuk_context *ctx, gpuk_dtype dtype, int ndim, const int64_t *shape,
                             const int64_t *strides, void *data, gpuk_tensor **out);

/* DLPack (dlpack/dlpack.h), both ways, without copying.
 * from_dlpack borrows a DLManagedTensor of the context's device (kDLCPU
 * memory on the CPU backend, kDLCUDA memory of the context's device on
 * CUDA), f32 or i32, lanes 1, strides >= 0 (NULL: dense); the producer's
 * deleter is called when the tensor and every view of it are destroyed
 * (or the context is closed), and also when the call fails after taking
 * it: ownership passes with the call, unless it returns GPUK_ERR_NULL for
 * ctx, dl or out themselves.
 * to_dlpack exports a tensor (a view included) for a consumer, who calls
 * (*out)->deleter(*out) when done; until then the storage, and the backend
 * state that owns it, stay alive, even past gpuk_context_close.
 * Built without dlpack/dlpack.h both return GPUK_ERR_UNSUPPORTED. */
struct DLManagedTensor;
gpuk_status gpuk_tensor_from_dlpack(gpuk_context *ctx, struct DLManagedTensor *dl,
                                    gpuk_tensor **out);
gpuk_status gpuk_tensor_to_dlpack(gpuk_context *ctx, const gpuk_tensor *t,
                                  struct DLManagedTensor **out);

/* ------------------------------------------------------------------ */
/* Sparse matrices (CSR: values of a float dtype, i32 indices)         */

typedef struct gpuk_csr gpuk_csr;

/* Copy a CSR matrix from host arrays to the backend.  Validated here:
 * row_ptr[0] == 0, row_ptr non-decreasing, row_ptr[rows] == nnz, every
 * column index in [0, cols), no column twice in one row (columns within a
 * row may be in any order).  Counts must fit in int32. */
gpuk_status gpuk_csr_create(gpuk_context *ctx, int64_t rows, int64_t cols, int64_t nnz,
                            const int32_t *row_ptr, const int32_t *col_idx,
                            const float *values, gpuk_csr **out);
/* The same with values of any dtype (nnz elements of dtype at values):
 * gpuk_spmv computes in the matrix's dtype, which x and y must share.
 * gpuk_csr_create is this with GPUK_F32. */
gpuk_status gpuk_csr_create_dtype(gpuk_context *ctx, gpuk_dtype dtype, int64_t rows,
                                  int64_t cols, int64_t nnz, const int32_t *row_ptr,
                                  const int32_t *col_idx, const void *values, gpuk_csr **out);
/* NULL is a no-op. */
gpuk_status gpuk_csr_destroy(gpuk_context *ctx, gpuk_csr *m);

/* ------------------------------------------------------------------ */
/* Ops.  All are f32 unless stated.  `variant` names a rung of the op's
 * ladder on the context's backend; NULL or "auto" lets the library choose
 * by the call's shape (see "Choosing a rung" above).
 *
 * Layout: the matrix operands of matmul, batched_matmul, transpose, gemv
 * and gemm may be strided views with unit stride in the last dimension;
 * every other tensor argument must be contiguous.
 *
 * Overlap is judged by address range: an output whose first-to-last byte
 * range meets an input's is GPUK_ERR_ALIAS, even when the two are
 * interleaved views that share no element.  The one exception is in-place
 * work: add (out may be x or y), scale, relu, copy, softmax and bias_relu
 * (out may be x) accept an output that is exactly the same view as that
 * input; bias_relu's out may not be bias.
 *
 * Empty tensors: an op whose output has no elements does nothing.  A sum
 * over an empty dimension is 0 (matmul/gemm with k = 0 give the bias or
 * beta*C), a mean over one is NaN, a min over one (min-plus) is +inf
 * (GPUK_I32_INF in i32).
 *
 * NaN and infinity in inputs are not errors: they propagate as IEEE
 * arithmetic says. */

/* c[m,n] = a[m,k] . b[k,n] (+ bias[n] on every row if bias is not NULL). */
gpuk_status gpuk_matmul(gpuk_context *ctx, const gpuk_tensor *a, const gpuk_tensor *b,
                        const gpuk_tensor *bias, gpuk_tensor *c, const char *variant);

/* c[i] = a[i or 0] . b[i or 0] for 3-D a[ba,m,k], b[bb,k,n], c[bc,m,n];
 * a batch dimension of 1 broadcasts (ba, bb in {1, bc}).  Any strides
 * with unit last stride. */
gpuk_status gpuk_batched_matmul(gpuk_context *ctx, const gpuk_tensor *a,
                                const gpuk_tensor *b, gpuk_tensor *c, const char *variant);

/* "Infinity" of i32 min-plus: the value of a missing edge, and the
 * largest value an i32 min-plus writes.  2^30 - 1, so that INF + INF
 * (2^31 - 2) still fits in an int32. */
#define GPUK_I32_INF 0x3FFFFFFF

/* r[i,j] = min_k (a[i,k] + b[k,j]) for a[m,k], b[k,n], r[m,n]; a and b may
 * be the same tensor (the shortcut problem r = d (x) d).  f32 or i32 (the
 * dtype of a; b and r the same).  Bit-exact on every backend and variant.
 *
 * f32: a NaN sum is skipped (as fmin does; all NaN gives +inf), and of +0
 * and -0 the minimum is -0.
 *
 * i32: r[i,j] = min(GPUK_I32_INF, min_k (a[i,k] + b[k,j])), each sum the
 * 32-bit two's-complement sum (it wraps; no rung saturates an add).  The
 * minimum starts at GPUK_I32_INF, so a sum at or above it gives
 * GPUK_I32_INF: that is the saturation, and k = 0 gives GPUK_I32_INF.
 * Inputs are meant to lie in [-2^30, GPUK_I32_INF], where no sum wraps.
 * GPUK_I32_INF is an infinity for non-negative weights only: INF + w with
 * w < 0 is the finite INF + w, not INF.  Outside the range a sum wraps,
 * the same on every backend and variant (still bit-exact), but the
 * result means nothing as a path length.  Results lie in [-2^31, INF]. */
gpuk_status gpuk_minplus(gpuk_context *ctx, const gpuk_tensor *a, const gpuk_tensor *b,
                         gpuk_tensor *r, const char *variant);

/* r[i,j] = min(r[i,j], min_k (a[i,k] + b[k,j])): min-plus that folds its
 * product into r (panels of a larger k, one after another).  The old
 * value is one more candidate of the same minimum, under the same rules:
 * a NaN in r is skipped like a NaN sum (so r is never NaN afterwards), and
 * a +0/-0 tie, the old value included, gives -0.  So the result is
 * exactly fmin(r, p) with -0 below +0, p being what gpuk_minplus would
 * write, and bit-exact on every backend and variant; with k = 0 (p all
 * +inf) r keeps every value but NaN, which becomes +inf.  i32: r =
 * min(r, p), p as gpuk_minplus writes it, so r never ends above
 * GPUK_I32_INF (k = 0 lowers every larger value to it).  The same
 * arguments and checks as gpuk_minplus; a backend plugin built for ABI
 * 2.1 or older cannot do it (GPUK_ERR_UNSUPPORTED). */
gpuk_status gpuk_minplus_update(gpuk_context *ctx, const gpuk_tensor *a, const gpuk_tensor *b,
                                gpuk_tensor *r, const char *variant);

/* y[n,m] = x[m,n]^T. */
gpuk_status gpuk_transpose(gpuk_context *ctx, const gpuk_tensor *x, gpuk_tensor *y,
                           const char *variant);

typedef enum gpuk_reduce_kind {
    GPUK_REDUCE_SUM = 0,
    GPUK_REDUCE_MEAN = 1
} gpuk_reduce_kind;

/* out = sum or mean of x along axis (0 <= axis < ndim).  out has x's shape
 * with that dimension removed; a 1-D x reduces to shape [1]. */
gpuk_status gpuk_reduce(gpuk_context *ctx, gpuk_reduce_kind kind, const gpuk_tensor *x,
                        int axis, gpuk_tensor *out, const char *variant);

/* Elementwise over same-shape tensors (no broadcasting). */
gpuk_status gpuk_add(gpuk_context *ctx, const gpuk_tensor *x, const gpuk_tensor *y,
                     gpuk_tensor *out, const char *variant);
gpuk_status gpuk_scale(gpuk_context *ctx, double alpha, const gpuk_tensor *x,
                       gpuk_tensor *out, const char *variant);
gpuk_status gpuk_relu(gpuk_context *ctx, const gpuk_tensor *x, gpuk_tensor *out,
                      const char *variant);
/* out[..., j] = max(x[..., j] + bias[j], 0); bias is 1-D, the length of
 * x's last dimension. */
gpuk_status gpuk_bias_relu(gpuk_context *ctx, const gpuk_tensor *x, const gpuk_tensor *bias,
                           gpuk_tensor *out, const char *variant);
gpuk_status gpuk_copy(gpuk_context *ctx, const gpuk_tensor *x, gpuk_tensor *out,
                      const char *variant);

/* out = x converted to out's dtype, element by element: between the float
 * dtypes f32, f64, f16 and bf16, in any pair (the same dtype is a copy).
 * Same shapes, both contiguous (no broadcasting); out may be exactly x
 * (then of x's dtype).  A value out's dtype holds is kept exactly (-0,
 * subnormals, infinities); any other is rounded once to nearest, ties to
 * even (f64 to f16 or bf16 directly, never through f32's rounding), and a
 * finite value past the largest finite one of out's dtype by half an ulp
 * or more becomes an infinity of its sign (65520 and up in f16); NaN stays
 * NaN (quiet, its sign and what of its payload fits kept).  A tiny value
 * becomes a subnormal or a zero of its sign.  An i32 tensor on either side
 * is GPUK_ERR_DTYPE, naming both dtypes. */
gpuk_status gpuk_cast(gpuk_context *ctx, const gpuk_tensor *x, gpuk_tensor *out,
                      const char *variant);

/* Numerically stable softmax along the last dimension. */
gpuk_status gpuk_softmax(gpuk_context *ctx, const gpuk_tensor *x, gpuk_tensor *out,
                         const char *variant);

/* out[..., :] = table[ids[...], :] for table[V,d] (f32) and ids (i32, 1-3
 * dimensions); out has ids' shape plus d.  Every id must lie in [0, V):
 * the ids are checked before the gather (on a GPU this reads them back,
 * which waits for the ops issued before). */
gpuk_status gpuk_embedding(gpuk_context *ctx, const gpuk_tensor *table,
                           const gpuk_tensor *ids, gpuk_tensor *out, const char *variant);

/* Mean over the second-to-last dimension (average pooling over tokens):
 * x[t,d] -> out[d], x[b,t,d] -> out[b,d], x[a,b,t,d] -> out[a,b,d]. */
gpuk_status gpuk_meanpool(gpuk_context *ctx, const gpuk_tensor *x, gpuk_tensor *out,
                          const char *variant);

/* y[rows] = A x[cols]. */
gpuk_status gpuk_spmv(gpuk_context *ctx, const gpuk_csr *a, const gpuk_tensor *x,
                      gpuk_tensor *y, const char *variant);

/* BLAS-shaped ops on row-major tensors. */
typedef enum gpuk_trans {
    GPUK_NO_TRANS = 0,
    GPUK_TRANS = 1
} gpuk_trans;

/* out[0] = x . y for 1-D x[n], y[n]; out has shape [1]. */
gpuk_status gpuk_dot(gpuk_context *ctx, const gpuk_tensor *x, const gpuk_tensor *y,
                     gpuk_tensor *out, const char *variant);

/* y = alpha op(a) x + beta y; a[m,n], op(a) = a or a^T.  As in BLAS, with
 * beta == 0 y is not read and with alpha == 0 a and x are not read (NaN
 * there does not propagate).  With a NaN or infinite alpha or beta the
 * result is not defined. */
gpuk_status gpuk_gemv(gpuk_context *ctx, gpuk_trans trans, double alpha,
                      const gpuk_tensor *a, const gpuk_tensor *x, double beta,
                      gpuk_tensor *y, const char *variant);

/* c[m,n] = alpha op(a) op(b) + beta c.  As in BLAS, with beta == 0 c is not
 * read and with alpha == 0 a and b are not read; a NaN or infinite alpha
 * or beta gives an undefined result. */
gpuk_status gpuk_gemm(gpuk_context *ctx, gpuk_trans trans_a, gpuk_trans trans_b,
                      double alpha, const gpuk_tensor *a, const gpuk_tensor *b,
                      double beta, gpuk_tensor *c, const char *variant);

/* All-pairs shortest paths by Floyd-Warshall (gpuk_apsp(3)).  w[n,n]
 * holds the graph: w[i,j] is the length of the edge from i to j, and
 * "no edge" is +inf (f32, f64; a NaN counts as no edge too) or
 * GPUK_I32_INF (i32).  d[n,n] (w's dtype; it may be w itself, in place)
 * receives d[i,j], the length of a shortest path from i to j: +inf or
 * GPUK_I32_INF when j cannot be reached, and d[i,i] = 0 (the empty path)
 * unless a shorter cycle through i exists.  pred, when not NULL, is an
 * i32 [n,n] that receives the predecessors (scipy's return_predecessors):
 * pred[i,j] is the vertex before j on the path found, -1 where j == i or
 * j cannot be reached.  Float results take one rounding per relaxation,
 * so rungs may differ by rounding (gpuk(7)); i32 results are exact while
 * every path sum stays in [-2^30, GPUK_I32_INF] (sums at or above INF
 * saturate to it, as in gpuk_minplus).  A negative cycle is
 * GPUK_ERR_NEGATIVE_CYCLE, naming a vertex on it; d and pred then hold
 * what the algorithm left, meaningless for pairs whose paths touch it. */
gpuk_status gpuk_apsp(gpuk_context *ctx, const gpuk_tensor *w, gpuk_tensor *d,
                      gpuk_tensor *pred, const char *variant);

/* Walk the path from i to j in a predecessor matrix that gpuk_apsp wrote:
 * path[0] = i, ..., path[*len - 1] = j, *len vertices (1 for i == j, 0
 * when j cannot be reached from i).  Reads row i of pred (n values; on a
 * GPU this waits for the ops issued before).  GPUK_ERR_SIZE when cap is
 * too small (*len then says how many are needed); GPUK_ERR_INDEX for i or
 * j outside [0, n); GPUK_ERR_INVALID when the row is not a tree of paths
 * from i (a walk longer than n, or a vertex out of range). */
gpuk_status gpuk_apsp_path(gpuk_context *ctx, const gpuk_tensor *pred, int64_t i, int64_t j,
                           int64_t *path, int64_t cap, int64_t *len);

/* ---- The catalogue's derived facts (src/catalog.c, gpuk_catalog(3)) ----
 * For tools and bindings that would otherwise keep copies of a formula or
 * a layout: gpuk-bench, the Python package.  Both functions take no
 * context and are safe everywhere. */

#define GPUK_COST_DIMS 4

/* The work and least traffic of one call of op computing in dtype, and
 * the shape class "auto" would key it by (gpuk_last_shape_class).  dims
 * are the op's canonical dimensions (gpuk/backend.h), those an op does
 * not use are ignored:
 *   matmul (m, k, n, bias 0/1)    batched_matmul (batch, m, k, n)
 *   minplus (m, k, n, update 0/1) transpose (m, n)
 *   reduce (outer, len, inner)    add, scale, relu, copy, dot (n)
 *   bias_relu, softmax (rows, n)  embedding (V, d, number of ids)
 *   meanpool (b, t, d)            spmv (rows, cols, nnz, longest row)
 *   gemv (m, n, trans 0/1, beta != 0 as 0/1)   gemm (m, k, n, beta != 0 as 0/1)
 *   apsp (n, predecessors 0/1)    cast (n, out's dtype; 0: dtype, x's)
 * *flops counts the arithmetic (an FMA or an add+min is 2, softmax 5 an
 * element, a copy, gather or cast 0; apsp n^3 relaxations of 2); *bytes every
 * operand read once and every output written once (read too by a minplus
 * update and by gemv/gemm with beta; of an embedding's table, the rows it
 * gathers), elements of dtype but embedding's ids, apsp's predecessors
 * and a CSR matrix's indices (4 bytes), and a cast's output (of its own
 * dtype).  Any of the three outputs may be NULL.  GPUK_ERR_INVALID for
 * an unknown op, GPUK_ERR_DTYPE for an unknown dtype, GPUK_ERR_SHAPE for a
 * negative dimension (or an spmv row longer than cols or nnz),
 * GPUK_ERR_OVERFLOW for an operand past 2^63 elements. */
gpuk_status gpuk_op_cost(gpuk_op op, gpuk_dtype dtype, const int64_t dims[GPUK_COST_DIMS],
                         double *flops, double *bytes, int *shape_class);

/* Where a member lies in a structure of this library, for an FFI that
 * declares the structure itself (ctypes, say): type "gpuk_options",
 * "gpuk_info", "gpuk_tensor_info", "gpuk_variant_info" or
 * "gpuk_load_attempt", member a name of its members, or NULL for the
 * structure's size (offset 0).  GPUK_ERR_INVALID for a type or member this
 * library does not have (a member newer than it, say). */
gpuk_status gpuk_struct_layout(const char *type, const char *member, size_t *offset,
                               size_t *size);
/* ---- end of the catalogue's derived facts ---- */

#ifdef __cplusplus
}
#endif

#endif /* GPUK_H */

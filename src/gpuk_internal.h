/*
 * gpuk_internal.h - what the files of libgpuk's core share.  Nothing here
 * is exported: internal functions are named gk_* (only gpuk_* leaves the
 * library, see src/local.mk).
 */
#ifndef GPUK_INTERNAL_H
#define GPUK_INTERNAL_H

#include "config.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <gpuk.h>
#include <gpuk/backend.h>

/* Handles are 64-bit tokens typed as pointers (see gpuk.h): the upper 24
 * bits name the context, the lower 40 count objects in it.  Nothing is
 * ever dereferenced before the context's table says the token is live. */
_Static_assert(sizeof(void *) == 8, "libgpuk's handle tokens need 64-bit pointers");
#define GK_CTX_BITS 24
#define GK_OBJ_BITS 40

enum gk_kind { GK_KIND_TENSOR = 1, GK_KIND_CSR = 2 };

/* --- handle table: token -> object, open addressing --- */
typedef struct gk_slot {
    uint64_t key;   /* 0: empty; GK_TOMB: deleted */
    void *obj;
} gk_slot;

typedef struct gk_handles {
    gk_slot *slots;
    size_t cap;     /* power of two, or 0 */
    size_t used;    /* live + tombstones */
    size_t live;
} gk_handles;

int gk_handles_put(gk_handles *h, uint64_t key, void *obj);   /* 0 ok, -1 no memory */
void *gk_handles_get(const gk_handles *h, uint64_t key);
void *gk_handles_del(gk_handles *h, uint64_t key);
/* Calls fn on every live object (fn may not modify the table). */
void gk_handles_each(const gk_handles *h, void (*fn)(uint64_t key, void *obj, void *arg),
                     void *arg);
void gk_handles_free(gk_handles *h);

/* --- objects --- */

/* The backend state memory is freed through.  The context holds one
 * reference and every storage one more, so a storage exported through
 * DLPack (whose consumer may free it on any thread, after
 * gpuk_context_close) keeps the plugin and its state alive; the last
 * reference calls fini. */
typedef struct gk_owner {
    atomic_int refs;
    struct gk_plugin *plugin;
    gpuk_bctx *b;
} gk_owner;
void gk_owner_unref(gk_owner *o);

/* Memory a tensor views: the backend's own (freed through owner), or the
 * caller's (borrowed: gpuk_tensor_wrap, DLPack), which is never freed;
 * release(release_arg) runs at the last reference instead (the DLPack
 * producer's deleter).  refs counts tensors viewing it and DLPack exports,
 * which may drop theirs on another thread. */
typedef struct gk_storage {
    void *data;       /* backend memory; NULL for 0 bytes */
    size_t bytes;
    atomic_int refs;
    gk_owner *owner;
    int borrowed;
    void (*release)(void *arg);
    void *release_arg;
} gk_storage;
void gk_storage_unref(gk_storage *st);
/* Give every gpuk_host_alloc block still out back to the backend (close). */
struct gpuk_context;
void gk_host_free_all(struct gpuk_context *ctx);

typedef struct gk_tensor {
    int kind;         /* GK_KIND_TENSOR */
    uint64_t token;
    gk_storage *st;
    gpuk_dtype dtype;
    int ndim;
    int64_t shape[GPUK_MAX_DIMS];
    int64_t stride[GPUK_MAX_DIMS];
    int64_t offset;   /* elements from st->data */
    int64_t numel;
} gk_tensor;

typedef struct gk_csr {
    int kind;         /* GK_KIND_CSR */
    uint64_t token;
    gpuk_csr_desc d;
    gpuk_dtype dtype;                   /* of the values */
    void *row_ptr, *col_idx, *values;   /* backend allocations */
} gk_csr;

/* Free an object whose handle is already out of the table. */
void gk_tensor_release(gpuk_context *ctx, gk_tensor *t);
void gk_csr_release(gpuk_context *ctx, gk_csr *m);

/* A kernel operand from a tensor (tensor.c), or from a contiguous tensor
 * seen with another shape of the same element count. */
void gk_desc(const gk_tensor *t, gpuk_tdesc *d);
void gk_desc_dense(const gk_tensor *t, int ndim, const int64_t *shape, gpuk_tdesc *d);
/* Copy a dense host buffer to or from a (strided) operand. */
gpuk_status gk_transfer(gpuk_context *ctx, const gpuk_tdesc *d, void *host, int to_device);
/* A tensor over the caller's memory (tensor.c): the checks of
 * gpuk_tensor_wrap, naming fields as `what` says ("data", "dl->..."),
 * then release(arg) at the last reference, when release is not NULL. */
gpuk_status gk_tensor_borrow(gpuk_context *ctx, gpuk_dtype dtype, int ndim, const int64_t *shape,
                             const int64_t *strides, void *data, const char *what,
                             void (*release)(void *arg), void *arg, gpuk_tensor **out);

/* --- plugins and load reports --- */
typedef struct gk_plugin gk_plugin;
struct gk_plugin {
    char *path;
    void *dl;
    const gpuk_backend *be;
    gpuk_kernel *rows;   /* the plugin's kernel table in this core's layout, */
    size_t n_rows;       /* less the rows of ops or dtypes it does not know */
    /* Made from rows once at load, since every call asks (dispatch.c):
     * per op value, the dtypes its rows serve, and per (op, dtype) the
     * row that "auto" falls back to (the DEFAULT one, else the first);
     * -1 where there is none. */
    uint32_t op_dtypes[GPUK_OP_LAST + 1];
    int32_t fallback[GPUK_OP_LAST + 1][32];
    char note[256];      /* the probe's one-line summary (driver version, ...) */
};
/* Fill p->op_dtypes and p->fallback from p->rows (dispatch.c). */
void gk_plugin_index(gk_plugin *p);

struct gpuk_load_report {
    gpuk_load_attempt *v;
    size_t n, cap;
    char *text;       /* built on demand */
};

/* Append an entry; returns it, or NULL when host memory ran out (the
 * report is best effort: the status returned to the caller still tells). */
gpuk_load_attempt *gk_report_add(gpuk_load_report *r, const char *backend, const char *path,
                                 gpuk_status st, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
gpuk_load_report *gk_report_clone(const gpuk_load_report *r);
void gk_report_clear(gpuk_load_report *r);

/* The optional members of a plugin exist only if its struct is large
 * enough to hold them (plugins of an older minor version are smaller). */
#define GK_BE_HAS(be, member) \
    ((be)->size >= offsetof(gpuk_backend, member) + sizeof((be)->member) && (be)->member != 0)

/* Load a backend by request ("cpu", "cuda", "auto", a path) and open its
 * per-context state.  Every candidate goes into rep; on failure err holds
 * the reason. */
gpuk_status gk_load(const char *request, const gpuk_init_args *init, gpuk_load_report *rep,
                    gk_plugin **plugin, gpuk_bctx **bctx, char *err, size_t errlen);
/* dlclose and free a plugin (memory.c, below the tensors that may drop the
 * last reference to it) */
void gk_plugin_release(gk_plugin *p);

/* --- the context --- */
struct gpuk_context {
    uint32_t serial;
    uint64_t next_obj;
    gk_plugin *plugin;      /* plugin, be and b are owner's, repeated for short access */
    const gpuk_backend *be;
    gpuk_bctx *b;
    gk_owner *owner;
    gk_handles hostmem;     /* gpuk_host_alloc pointers -> their byte counts */
    gpuk_load_report *report;
    gk_handles handles;
    int device, num_threads, check, verbose;
    int timing;             /* gpuk_timer_start called, stop not yet */
    gpuk_device_desc dev;
    gpuk_context *shadow;   /* GPUK_CHECK: a CPU context the ops are replayed on */
    /* choosing a rung for "auto" (doc/design.md, "Choosing a rung") */
    struct gk_wisdom *wisdom;     /* the wisdom file followed, or NULL */
    char auto_source[1024];       /* gpuk_auto_source() */
    const char *last_variant;     /* the last op's row name (plugin memory), or NULL */
    const char *last_source;      /* "named", "wisdom", "built-in", "default" */
    int last_class;               /* its shape class; -1 before the first op */
    char err[1024];
};

/* --- the bottom floor (errors.c): every file may call these --- */
/* Record a failure on ctx and return st. */
gpuk_status gk_fail(gpuk_context *ctx, gpuk_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Turn a backend's non-OK status into the context's message, prefixed. */
gpuk_status gk_backend_fail(gpuk_context *ctx, gpuk_status st, const char *what);
/* A fresh handle token of ctx, or 0 when it has issued all of them. */
uint64_t gk_new_token(gpuk_context *ctx);

/* --- generated from the lists of gpuk.h (status.c) --- */
/* The K of an op's error bound (the catalogue's sum column). */
int64_t gk_sum_length(const gpuk_args *a);
/* Every dtype this core knows, as a GPUK_DTYPE_BIT set; and a set as text. */
extern const uint32_t gk_known_dtypes;
void gk_dtypes_str(uint32_t set, char *buf, size_t len);
/* DLPack's type code of a dtype (-1: none), and the dtype of a code and
 * bit count (0: none), from GPUK_DTYPE_MAP's dlcode column. */
int gk_dtype_dlcode(gpuk_dtype dt);
gpuk_dtype gk_dtype_from_dl(int code, int bits);
/* dtype.c: is dt a float type; the unit roundoff an op of dt computes
 * with (f16 and bf16 compute in f32); the exponent of dt's smallest
 * subnormal; element i of a buffer of dt as a double, and stored from
 * one (rounded to nearest even, saturating integers); |x| of n elements
 * of a float dtype, in place. */
int gk_dtype_is_float(gpuk_dtype dt);
double gk_compute_roundoff(gpuk_dtype dt);
int gk_dtype_min_exp(gpuk_dtype dt);
double gk_load_f(const void *p, gpuk_dtype dt, size_t i);
void gk_store_f(void *p, gpuk_dtype dt, size_t i, double v);
void gk_abs_inplace(void *p, gpuk_dtype dt, size_t n);

/* --- handle lookup and argument checks (validate.c) --- */
gk_tensor *gk_tensor_arg(gpuk_context *ctx, const gpuk_tensor *h, const char *name, gpuk_status *st);
gk_csr *gk_csr_arg(gpuk_context *ctx, const gpuk_csr *h, const char *name, gpuk_status *st);

gpuk_status gk_need_dtype(gpuk_context *ctx, const gk_tensor *t, gpuk_dtype dt, const char *name);
gpuk_status gk_need_ndim(gpuk_context *ctx, const gk_tensor *t, int lo, int hi, const char *name);
gpuk_status gk_need_contiguous(gpuk_context *ctx, const gk_tensor *t, const char *name);
gpuk_status gk_need_unit_last(gpuk_context *ctx, const gk_tensor *t, const char *name);
gpuk_status gk_need_dim(gpuk_context *ctx, const gk_tensor *t, int dim, int64_t want,
                        const char *name, const char *why);
gpuk_status gk_need_injective(gpuk_context *ctx, const gk_tensor *t, const char *name);
/* out must not overlap in at all (exact_ok: unless it is exactly the same
 * view).  Overlap means the two views' first-to-last byte ranges meet, so
 * interleaved views that share no element are refused too (doc/design.md,
 * "Validation"). */
gpuk_status gk_need_disjoint(gpuk_context *ctx, const gk_tensor *out, const char *out_name,
                             const gk_tensor *in, const char *in_name, int exact_ok);
gpuk_status gk_need_same_shape(gpuk_context *ctx, const gk_tensor *a, const char *an,
                               const gk_tensor *b, const char *bn);

int gk_is_contiguous(const gk_tensor *t);
void gk_shape_str(const gk_tensor *t, char *buf, size_t len);
size_t gk_elsize(gpuk_dtype dt);

/* --- dispatch (dispatch.c) --- */
/* The dtypes the context's backend computes op in (a GPUK_DTYPE_BIT set). */
uint32_t gk_op_dtypes(const gpuk_context *ctx, gpuk_op op);
/* The op's dtype is lead's: one the backend has a row of op for, else
 * GPUK_ERR_DTYPE naming lead (GPUK_ERR_UNSUPPORTED if it has no row of op
 * at all). */
gpuk_status gk_op_dtype(gpuk_context *ctx, gpuk_op op, const gk_tensor *lead, const char *name,
                        gpuk_dtype *out);
/* A call that sets a gpuk_args member appended in ABI 2.<minor> (one an
 * older plugin would not read): GPUK_ERR_UNSUPPORTED, naming what and the
 * plugin's ABI, unless the context's plugin is at least that minor. */
gpuk_status gk_need_abi_minor(gpuk_context *ctx, uint32_t minor, const char *what);
/* Find the variant, skip empty outputs, run, log, shadow-check. */
gpuk_status gk_dispatch(gpuk_context *ctx, gpuk_args *args, const char *variant);
/* The row of (op, dtype) named variant (or its alias); NULL or "auto":
 * the DEFAULT row (else the first); what "auto" runs is gk_dispatch's
 * choice, which starts from this row. */
const gpuk_kernel *gk_find_kernel(gpuk_context *ctx, gpuk_op op, gpuk_dtype dtype,
                                  const char *variant, gpuk_status *st);
/* The i-th row of (op, dtype) in ladder order, or NULL. */
const gpuk_kernel *gk_nth_kernel(const gpuk_context *ctx, gpuk_op op, gpuk_dtype dtype,
                                 size_t i);
/* The shape class of a call: floor(log2(work)), work = the output's
 * elements x gk_sum_length (each at least 1). */
int gk_shape_class(const gpuk_args *a);

/* --- wisdom files (wisdom.c) --- */
typedef struct gk_wisdom gk_wisdom;
/* Read the wisdom file at path for ctx's plugin, device and threads.  NULL
 * when it cannot be followed, with why (a file that is missing, damaged,
 * of another library, plugin version, device or thread count, or naming a
 * rung the plugin lacks or a TF32 one). */
gk_wisdom *gk_wisdom_load(const gpuk_context *ctx, const char *path, char *why, size_t wl);
void gk_wisdom_free(gk_wisdom *w);
size_t gk_wisdom_count(const gk_wisdom *w);
/* The row name for (op, dtype) at class cls, else at the nearest class
 * within 2 (the smaller first), else NULL. */
const char *gk_wisdom_lookup(const gk_wisdom *w, gpuk_op op, gpuk_dtype dtype, int cls);
/* FNV-1a, 64 bits: the hash of a wisdom section. */
uint64_t gk_fnv1a64(const void *data, size_t len);

/* --- GPUK_CHECK shadow mode (shadow.c) --- */
typedef struct gk_shadow gk_shadow;
/* Before the kernel runs: copy its inputs to the host.  NULL + status on failure. */
gk_shadow *gk_shadow_begin(gpuk_context *ctx, const gpuk_args *args, gpuk_status *st);
/* After it ran: recompute on the CPU shadow and compare; frees sh. */
gpuk_status gk_shadow_end(gpuk_context *ctx, gk_shadow *sh, const gpuk_args *args,
                          const gpuk_kernel *k);

/* --- environment helpers (context.c) --- */
gpuk_status gk_env_int(const char *name, int lo, int hi, int *out, int *present, char *err,
                       size_t errlen);

#endif

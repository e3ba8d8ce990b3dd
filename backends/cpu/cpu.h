/*
 * cpu.h - internal declarations shared by the files of backend_cpu.so.
 *
 * Every kernel has the gpuk_kernel_fn signature and is listed once, in
 * table.c.  Kernels get operands already validated by core, in the
 * canonical shapes of gpuk/backend.h, and never fail except for scratch
 * memory (GPUK_ERR_NO_MEMORY, with a message via cpu_fail).
 */
#ifndef GPUK_CPU_H
#define GPUK_CPU_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <gpuk/backend.h>

#include "dtype.h" /* kernels written once for every type */

#ifdef _OPENMP
#include <omp.h>
/* This thread's number in its team, and the team's size (usable in the
 * kernel macros of dtype.h, where #ifdef cannot be). */
#define CPU_THREAD_NUM() omp_get_thread_num()
#define CPU_NUM_THREADS() omp_get_num_threads()
#else
#define CPU_THREAD_NUM() 0
#define CPU_NUM_THREADS() 1
#endif

/* The instruction set the SIMD rungs use, picked once per context. */
enum cpu_isa {
    CPU_ISA_SCALAR = 0,   /* portable C: what the vector kernels fall back to */
    CPU_ISA_AVX2 = 1,     /* AVX2 + FMA (+ F16C), 8 floats per vector */
    CPU_ISA_AVX512 = 2    /* AVX-512F, 16 floats per vector */
};

struct gpuk_bctx {
    int nthreads;             /* every OpenMP region runs with exactly this many */
    enum cpu_isa isa;
    struct timespec t0;       /* timer_start */
    int timer_running;
    char err[256];            /* last_error() */
};

/* Record a failure for last_error() and return its status. */
gpuk_status cpu_fail(gpuk_bctx *b, gpuk_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* 64-byte aligned scratch memory; NULL (and a message in b) on failure. */
void *cpu_scratch(gpuk_bctx *b, size_t bytes, const char *what);

/* The widest ISA this processor runs. */
enum cpu_isa cpu_detect_isa(void);
/* The ISA a context uses: the widest, or less when GPUK_CPU_ISA (scalar,
 * avx2, avx512) asks for less, so the narrower paths can be tested
 * anywhere; a request for more keeps the widest (a line on stderr when
 * verbose >= 1).  Another value is GPUK_ERR_ENV with a message in msg. */
gpuk_status cpu_choose_isa(enum cpu_isa *isa, int verbose, char *msg, size_t msglen);
const char *cpu_isa_name(enum cpu_isa isa);

/* Tensor access: the leading dimension (stride of the first index) of a
 * 2-D operand, whose last stride core guarantees is 1; element pointers
 * are T_PTR(t, T) (dtype.h). */
#define T_LD(t) ((t)->stride[0])

/* The number of elements of an operand. */
#define T_NUMEL(t) gpuk_tdesc_numel(t)

/* ---- shared building blocks, one declaration per type of the list ---- */

/*
 * matmul.c, matmul_packed.c: c[m,n] (ldc) = a[m,k] (lda) . b[k,n] (ldb)
 * (+ bias[n] if bias != NULL), one matmul rung per function
 * (cpu_gemm_<rung>_<type>); batched matmul runs them per batch entry.
 *
 * cpu_gemm_packed_<type>: the packed engine behind matmul's simd rung,
 * general enough for gemm: element (i,p) of a is a[i*a_rs + p*a_cs], (p,j)
 * of b is b[p*b_rs + j*b_cs]; c = alpha a.b + beta c (+ bias[j]); beta == 0
 * does not read c.
 *
 * cpu_reduce_rows_<type> (reduce.c): out[o,i] = sum (or mean) over l of
 * x[o,l,i], vectorised and threaded (the simd rung of reduce, also
 * meanpool's and the read ceiling's), for f16 and bf16 too (summed in f32).
 *
 * cpu_copy_<type> (elementwise.c): dst[0..n) = src[0..n), vectorised,
 * threaded, streaming stores for large n (copy's simd rung and the copy
 * ceiling).
 */
#define CPU_SHARED_DECLS(DT, T, S, ...)                                                     \
    typedef gpuk_status (*cpu_gemm_fn_##S)(gpuk_bctx *b, int64_t m, int64_t n, int64_t k,    \
                                           const T *a, int64_t lda, const T *bm, int64_t ldb, \
                                           const T *bias, T *c, int64_t ldc);                \
    gpuk_status cpu_gemm_naive_##S(gpuk_bctx *b, int64_t m, int64_t n, int64_t k, const T *a, \
                                   int64_t lda, const T *bm, int64_t ldb, const T *bias,     \
                                   T *c, int64_t ldc);                                       \
    gpuk_status cpu_gemm_blocked_##S(gpuk_bctx *b, int64_t m, int64_t n, int64_t k,          \
                                     const T *a, int64_t lda, const T *bm, int64_t ldb,      \
                                     const T *bias, T *c, int64_t ldc);                      \
    gpuk_status cpu_gemm_simd_##S(gpuk_bctx *b, int64_t m, int64_t n, int64_t k, const T *a, \
                                  int64_t lda, const T *bm, int64_t ldb, const T *bias,      \
                                  T *c, int64_t ldc);                                        \
    gpuk_status cpu_gemm_openblas_##S(gpuk_bctx *b, int64_t m, int64_t n, int64_t k,         \
                                      const T *a, int64_t lda, const T *bm, int64_t ldb,     \
                                      const T *bias, T *c, int64_t ldc);                     \
    gpuk_status cpu_gemm_packed_##S(gpuk_bctx *b, int64_t m, int64_t n, int64_t k,           \
                                    const T *a, int64_t a_rs, int64_t a_cs, const T *bm,     \
                                    int64_t b_rs, int64_t b_cs, T alpha, T beta,             \
                                    const T *bias, T *c, int64_t ldc);                       \
    void cpu_copy_##S(gpuk_bctx *b, T *dst, const T *src, int64_t n);
CPU_FLOAT_DTYPES(CPU_SHARED_DECLS)
#define CPU_REAL_DECLS(DT, T, S, ...)                                                       \
    void cpu_reduce_rows_##S(gpuk_bctx *b, const T *x, int64_t outer, int64_t len,          \
                             int64_t inner, T *out, int mean);
CPU_REAL_DTYPES(CPU_REAL_DECLS)

#ifdef HAVE_OPENBLAS
/* Around every OpenBLAS call: enter gives it the context's thread count
 * and returns what leave must restore.  OpenBLAS's OpenMP build sizes its
 * team by the calling thread's omp_get_max_threads(), which
 * openblas_set_num_threads sets; without leave, the backend's count would
 * stay the caller's own OpenMP default after the call. */
int cpu_openblas_enter(gpuk_bctx *b);
void cpu_openblas_leave(int saved);
/* Does a size fit the int of a cblas argument? */
static inline int cpu_fits_int(int64_t v)
{
    return v >= 0 && v <= INT32_MAX;
}
#endif

/* The packed, blocked, threaded driver of matmul's simd rung
 * (matmul_packed.c), shared with min-plus packed, for elements of any
 * size: C[m,n] is cut into one block per thread; each thread packs
 * KC x NC blocks of b into NR-wide panels and MC x KC blocks of a into
 * MR-tall panels and calls `tile` on every MR x NR tile of C with the
 * packed panels: first is nonzero on the first k-block, j is the tile's
 * first column. */
typedef void (*cpu_tile_fn)(const void *ctx, int64_t kc, const void *ap, const void *bp,
                            void *c, int64_t ldc, int mr, int nr, int first, int64_t j);
struct cpu_packed {
    int64_t m, n, k;
    size_t esize;         /* bytes of an element */
    const void *a;
    int64_t a_rs, a_cs;   /* element (i,p) of a: a[i*a_rs + p*a_cs] */
    const void *b;
    int64_t b_rs, b_cs;   /* element (p,j) of b: b[p*b_rs + j*b_cs] */
    void *c;
    int64_t ldc;
    int mr, nr;           /* the tile the micro-kernel computes */
    cpu_tile_fn tile;
    const void *ctx;
};
gpuk_status cpu_packed_run(gpuk_bctx *b, const struct cpu_packed *pp);

/* blas.c: the BLAS convention for alpha == 0, shared by every gemv and
 * gemm rung: when the call's alpha is 0, writes out[rows, cols] = beta out
 * (0 when beta is 0, never reading it) and returns 1; else returns 0. */
int cpu_alpha_zero(const gpuk_args *args, int64_t rows, int64_t cols);

/* ---- peak.c ---- */
gpuk_status cpu_peak(gpuk_bctx *b, gpuk_peak kind, double *value);

/* ---- kernels ----
 * A kernel is defined with CPU_KERNEL, which gives it its prototype too:
 * besides its own file, only table.c names it (doc/design.md, "Adding a
 * variant": one function, one table row). */
#define CPU_KERNEL(name)                                     \
    gpuk_status name(gpuk_bctx *b, const gpuk_args *args);   \
    gpuk_status name(gpuk_bctx *b, const gpuk_args *args)

extern const gpuk_kernel cpu_kernels[];
extern const gpuk_backend cpu_backend;

/* the plugin's members (backend.c), gathered into cpu_backend (table.c) */
gpuk_status cpu_probe(gpuk_probe_result *out);
gpuk_status cpu_init(const gpuk_init_args *args, gpuk_bctx **out, char *msg, size_t msglen);
void cpu_fini(gpuk_bctx *b);
const char *cpu_last_error(gpuk_bctx *b);
void cpu_info(gpuk_bctx *b, gpuk_device_desc *dev, int *num_threads);
gpuk_status cpu_alloc(gpuk_bctx *b, size_t bytes, void **out);
void cpu_free(gpuk_bctx *b, void *p);
gpuk_status cpu_check_pointer(gpuk_bctx *b, const void *p, size_t bytes);
gpuk_status cpu_use_stream(gpuk_bctx *b, void *stream);
gpuk_status cpu_write(gpuk_bctx *b, void *dst, const void *src, size_t bytes);
gpuk_status cpu_read(gpuk_bctx *b, void *dst, const void *src, size_t bytes);
gpuk_status cpu_copy(gpuk_bctx *b, void *dst, const void *src, size_t bytes);
gpuk_status cpu_sync(gpuk_bctx *b);
gpuk_status cpu_timer_start(gpuk_bctx *b);
gpuk_status cpu_timer_stop(gpuk_bctx *b, double *ms);

#endif /* GPUK_CPU_H */

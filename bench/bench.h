/*
 * bench.h - internals of gpuk-bench, the CPU-vs-GPU benchmark.
 *
 * gpuk-bench uses only the public API (gpuk.h), so it runs against an
 * installed libgpuk exactly as against the build tree.  The ops come from
 * the gpuk_op enum and the variants from each backend's own table
 * (gpuk_variant_count / gpuk_variant_get): nothing here lists a variant.
 *
 *   cases.c    per-op sizes, shapes and canonical dimensions (the work and
 *              traffic are the library's, gpuk_op_cost), the ceilings of each
 *              op and dtype; the call itself is the tests' opcall (tests/opcall.c)
 *   inputs.c   the random inputs in every dtype, the spmv matrices
 *   measure.c  one row: warm-up, timed repetitions, check; transfers
 *   link.c     the link alone: write and read rates from pageable and from
 *              gpuk_host_alloc memory against the raw page-locked rate
 *   report.c   derived figures (% of ceiling, speedups, auto against the best
 *              rung) and table/csv/json/md
 *   tune.c     --tune: the fastest rung per (op, dtype, shape class) as a
 *              wisdom file that "auto" follows (GPUK_WISDOM)
 *   summary.c  CPU vs GPU per op and size, and the crossover size
 *   plot.c     gnuplot script and PNGs (roofline, one ladder per op)
 *   util.c     clock, statistics, text helpers, host facts
 *   main.c     options, backends, the run plan
 */
#ifndef GPUK_BENCH_H
#define GPUK_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <gpuk.h>

#define B_MAX_BACKENDS 4
#define B_MAX_SIZES 16
/* A timed repetition of a row whose call takes less lasts at least this
 * long: the calls run back to back (measure.c). */
#define BENCH_REP_MS 2.0
#define BENCH_MAX_CALLS 200
/* auto counts as the best rung when within this fraction of its time */
#define AUTO_SLACK 0.05
/* An auto row over AUTO_SLACK behind its case's best rung is timed again,
 * alternating with that rung, this many times each (main.c, pair_auto);
 * even, so that each goes first equally often. */
#define AUTO_PAIRS 12

/* The shape of one case.  What m, n and k mean depends on the op (the
 * man page has the table); unused ones are 1.  batch > 1 only for
 * batched_matmul. */
typedef struct bshape {
    int64_t m, n, k, batch;
} bshape;

/* One size as the user writes it: "N", "MxN" or "MxNxK". */
typedef struct bsize {
    int nd;
    int64_t d[3];
} bsize;

/* The matrices of spmv: k distinct random columns in every row, or row
 * lengths drawn from a power law (the size's k unused).  Every other op
 * has one case per size, as MAT_RANDOM. */
enum { MAT_RANDOM, MAT_POWERLAW, MAT_N };

/* A tensor the case needs: dtype and dense shape. */
typedef struct btspec {
    gpuk_dtype dtype;
    int ndim;
    int64_t shape[3];
} btspec;

/* One op at one size, on the host: inputs shared by every backend, so
 * every rung of every backend is checked against the same answer. */
typedef struct bcase {
    gpuk_op op;
    gpuk_dtype dtype;      /* the op's dtype: its inputs' and output's (not embedding's ids) */
    int matrix;            /* MAT_*: which spmv matrix */
    bshape sh;
    char label[64];        /* the shape as printed: "512x512x512", "4096x4096 powerlaw" */
    int64_t dims[GPUK_COST_DIMS];  /* the op's canonical dimensions (gpuk_op_cost) */
    double flops, bytes;   /* work and minimum traffic of one run (gpuk_op_cost) */
    int shape_class;       /* the class gpuk_op_cost gives it */
    double work;           /* what run time scales with (skip prediction) */
    int n_in;
    btspec in[3];
    void *host_in[3];
    btspec out;
    size_t out_numel;
    float alpha;           /* scale's factor; gemv and gemm take 1 (and beta 0) */
    int axis;              /* reduce's axis */
    /* SpMV: the matrix on the host (CSR), its values of the case's dtype */
    int64_t nnz, longest;
    int32_t *row_ptr, *col_idx;
    void *values;
    /* checks: the first output that ran, and a buffer to read into
     * (out_numel elements of dtype) */
    void *ref;
    char ref_from[320];
    void *got;
} bcase;

/* The case's tensors in one backend. */
typedef struct bdev {
    gpuk_tensor *in[3];
    gpuk_tensor *out;
    gpuk_csr *csr;
    /* copies of the whole case (inputs and output, the same values) that
     * the calls of a repetition take in turn with this one, so that a
     * case smaller than the caches is read from memory, as its ceiling
     * assumes (dev_rotate); NULL and 0 for a case larger than that */
    struct bdev *rot;
    int nrot;
} bdev;

/* The bytes a case's calls cycle through, at least: past any GPU's L2
 * (50 MB on an H100, 60 on an H200) and any CPU's last-level cache
 * within reach, so a small case's copies do not all stay cached; and at
 * most BENCH_ROT_MAX copies, which bounds the memory a tiny case takes. */
#define BENCH_ROT_BYTES (256.0 * 1024 * 1024)
#define BENCH_ROT_MAX 32

/* The measured ceilings, one per kind of GPUK_PEAK_MAP (gpuk.h), in its
 * order: PK_COPY_GBS, PK_FMA_GFLOPS, ...  A kind the backend has no
 * micro-kernel for stays NaN, unknown. */
#define B_PK_ENUM(id, value, name, unit, text) PK_##id,
enum { GPUK_PEAK_MAP(B_PK_ENUM) PK_N };
#undef B_PK_ENUM

typedef struct bbackend {
    char name[256];           /* as given; after opening, the backend's own name */
    int named;                /* listed by --backend (failure to open is an error) */
    gpuk_context *ctx;        /* NULL when it did not open */
    char why[512];            /* why it did not open */
    gpuk_info info;
    char driver[256];         /* the load report's line for the plugin taken */
    char auto_source[1024];   /* where "auto" takes its rungs (gpuk_auto_source) */
    double peak[PK_N];        /* measured ceilings; NaN when unknown */
    char peak_note[PK_N][256];/* "unsupported by this backend" or an error */
} bbackend;

enum { ROW_OK, ROW_FAILED, ROW_SKIPPED };

typedef struct brow {
    int be;                   /* index of the backend */
    gpuk_op op;
    gpuk_dtype dtype;
    char variant[48];         /* the rung; "auto" for the row that lets the library choose */
    int is_auto;
    char chosen[48];          /* auto: the rung it ran (gpuk_last_variant) */
    char chosen_by[16];       /* auto: "wisdom", "built-in" or "default" */
    int shape_class;          /* the call's shape class (gpuk_last_shape_class); -1 unknown */
    uint32_t flags;           /* GPUK_VARIANT_* */
    int rung;                 /* position in the backend's ladder, 0 = naive */
    int size_idx;             /* which size of the op's list (and which spmv matrix) */
    int matrix;               /* MAT_*: MAT_RANDOM for every op but spmv */
    bshape sh;
    int64_t nnz;              /* spmv: nonzeros of the matrix; else 0 */
    char shape[64];
    double flops, bytes, work;
    int status;
    char msg[720];
    int reps;
    int calls;                /* calls back to back in each timed repetition */
    double ms_med, ms_min, ms_max;    /* NaN unless measured; per call */
    double xfer_in_ms, xfer_out_ms;   /* host clock, per backend/op/size, pageable buffers */
    double xfer_in_pin_ms, xfer_out_pin_ms;   /* the same from gpuk_host_alloc memory */
    /* auto over AUTO_SLACK behind the best rung: the median of its time over
     * the best rung's, the two timed again in alternation (NaN: not) */
    double paired;
    char paired_with[48];
    /* derived (report_derive) */
    double gflops, gbps, intensity, pct;
    const char *ceiling;              /* the kind held to: "fma", "addmin_f64", "copy", ... */
    double x_prev, x_naive, own_vs_lib;
    double auto_vs_best;              /* auto: its time over the best non-TF32 rung's */
    char best[48];                    /* auto: that rung */
} brow;

enum { FMT_TABLE, FMT_CSV, FMT_JSON, FMT_MD };

typedef struct bconf {
    int quick, quiet, check, peaks_only, list_only, cost_only, backends_named;
    int reps, warmup, threads;
    double max_seconds;
    uint64_t seed;
    int fmt;
    const char *output, *save, *plot;
    const char *backends, *ops, *variants, *sizes;
    const char *dtypes;       /* --dtype: the ops' dtypes to run (default f32) */
    const char *tune;         /* --tune: the wisdom file to write */
    int run_auto;             /* time an "auto" row after each case's rungs */
    unsigned spmv_matrices;   /* bit MAT_* set: spmv runs on that matrix */
    int argc;
    char **argv;
} bconf;

/* The transfers of one case (NaN: not measured). */
typedef struct bxfer {
    double in_ms, out_ms;                 /* from and into the case's pageable buffers */
    double in_pinned_ms, out_pinned_ms;   /* from and into gpuk_host_alloc copies */
} bxfer;

/* One size of the link section: GB/s each way, pageable and page-locked. */
#define B_MAX_LINKS 16
typedef struct blink {
    int be;
    size_t bytes;
    double h2d, h2d_pinned, d2h, d2h_pinned;   /* GB/s; NaN when not measured */
    char msg[256];                             /* why not, when a figure is missing */
} blink;

typedef struct bench {
    bconf conf;
    bbackend be[B_MAX_BACKENDS];
    int n_be;
    brow *rows;
    size_t n_rows, cap_rows;
    char date[40];
    char cpu_model[160];
    int host_cpus;
    double load_start, load_end;  /* 1-minute load average: others' work skews times */
    blink links[B_MAX_LINKS];
    int n_links;
} bench;

/* ---- cases.c ---- */
/* The default sizes of an op ("quick" or full), as a comma list. */
const char *case_default_sizes(gpuk_op op, int quick);
/* Which dimensions a size "AxBxC" sets for op, for the messages. */
const char *case_dims(gpuk_op op);
/* Parse one size; 0 on success. */
int case_parse_size(const char *text, bsize *out);
/* The name of a MAT_* ("random", "powerlaw"), and back (-1: none). */
const char *case_matrix_name(int matrix);
int case_matrix_from_name(const char *name);
/* Only the shape, the costs and (spmv) the matrix's rows, no inputs: for
 * --cost, which reads cases as a report's columns give them. */
int case_make_shape(gpuk_op op, gpuk_dtype dtype, const int64_t mnkb[4], int matrix,
                    uint64_t seed, bcase *c, char *err, size_t errlen);
/* The label of a size that could not be made into a case: the text as
 * given, with the matrix's and the dtype's suffixes as case_make would
 * add them. */
void case_label_text(gpuk_op op, gpuk_dtype dtype, int matrix, const char *size_text, char *buf,
                     size_t len);
/* What dev_poison writes into an i32 output: no result of the bench's
 * i32 inputs (which are non-negative) can be negative. */
#define CASE_I32_POISON INT32_MIN
/* Build a case on the host: shape, costs, random inputs; matrix (MAT_*)
 * matters for spmv only.  0 on success, else a message in err. */
int case_make(gpuk_op op, gpuk_dtype dtype, const bsize *size, int matrix, uint64_t seed,
              bcase *c, char *err, size_t errlen);
void case_free(bcase *c);
/* Is the op nominally compute-bound, and which compute ceiling applies.
 * (Whether every rung gives the same bits is the catalogue's
 * gpuk_op_exact().) */
int case_compute_bound(gpuk_op op);
/* The compute ceiling of a rung of op in dtype with flags: the op's
 * family (FMA or add+min) in that dtype and on that unit (PK_FMA_GFLOPS,
 * PK_ADDMIN_I32_GOPS, PK_FMA_F64_GFLOPS, PK_MMA_TF32_GFLOPS, ...), or -1
 * when the list has no kind for it. */
int case_compute_peak(gpuk_op op, gpuk_dtype dtype, uint32_t flags);
/* PK_READ_GBS for an op that reads far more than it writes, else PK_COPY_GBS */
int case_memory_peak(gpuk_op op);


/* ---- inputs.c ---- */
/* An element of dtype as a double, and a double (exact in dtype, or
 * rounded to nearest) stored as one: the bench's inputs and checks in
 * every dtype of GPUK_DTYPE_MAP. */
double input_get(gpuk_dtype dtype, const void *p, size_t i);
void input_put(gpuk_dtype dtype, void *p, size_t i, double v);
/* xorshift64*, the one generator of every input: a case is the same on
 * every machine for one --seed. */
uint64_t input_next(uint64_t *s);
/* Uniform in [-1, 1) as multiples of 2^-(prec-1): exact in a dtype of
 * prec significand bits. */
double input_value(uint64_t *s, int prec);
/* i32 inputs: edge weights in [0, 2^13), about one in 64 missing
 * (GPUK_I32_INF) for min-plus and apsp. */
void input_i32(gpuk_op op, int32_t *x, size_t n, uint64_t *rng);
/* The spmv matrices of a case (its sh, dtype): MAT_RANDOM, k columns a
 * row, and MAT_POWERLAW, Pareto row lengths at least INPUT_PL_MIN.  They
 * set nnz, longest and the CSR arrays; with shape_only, no more than nnz,
 * longest and (power law) the row pointers.  0, -1 out of memory, -2 nnz
 * past int32. */
#define INPUT_PL_MIN 5.0
int input_csr(bcase *c, uint64_t *rng, int shape_only);
int input_powerlaw(bcase *c, uint64_t *rng, int shape_only);

gpuk_status dev_create(gpuk_context *ctx, const bcase *c, bdev *d, const char **what);
gpuk_status dev_upload(gpuk_context *ctx, const bcase *c, bdev *d, const char **what);
gpuk_status dev_poison(gpuk_context *ctx, const bcase *c, bdev *d);
gpuk_status dev_run(gpuk_context *ctx, const bcase *c, const bdev *d, const char *variant);
gpuk_status dev_download(gpuk_context *ctx, const bcase *c, const bdev *d, void *dst);
void dev_destroy(gpuk_context *ctx, bdev *d);
/* Give d the copies its case needs to cycle through BENCH_ROT_BYTES (as
 * many as memory allows; none for a large case). */
void dev_rotate(gpuk_context *ctx, const bcase *c, bdev *d);

/* ---- measure.c ---- */
/* Time host-to-device (inputs) and device-to-host (output) transfers,
 * from pageable and from gpuk_host_alloc memory. */
int measure_transfers(bench *b, bbackend *be, bcase *c, bdev *d, bxfer *x, char *err,
                      size_t errlen);
/* Run one row: skip if predicted too slow, else warm up, time, check. */
void measure_row(bench *b, bbackend *be, bcase *c, bdev *d, brow *r);
/* One timed repetition of `calls` calls of variant back to back: ms a
 * call, or NaN when a call failed, which then also fails r (may be NULL). */
double measure_calls(bbackend *be, const bcase *c, const bdev *d, const char *variant, int calls,
                     brow *r);
/* "what: status text: context message" */
void api_error(char *buf, size_t len, gpuk_context *ctx, const char *what, gpuk_status st);

/* ---- link.c ---- */
/* The link section of every backend with a measured H2D ceiling. */
void link_measure(bench *b);
void link_table(const bench *b, FILE *f, int md);
void link_json(const bench *b, FILE *f);

/* ---- report.c ---- */
void report_derive(bench *b);
/* The rows a ladder shows: every rung, not the auto row. */
int report_is_rung(const brow *r);
/* The fastest measured non-TF32 rung of r's case (r itself aside), or NULL:
 * what an auto row is held against. */
const brow *report_best_rung(const bench *b, const brow *r);
int report_write(bench *b, FILE *f, int fmt);
void report_peaks(bench *b, FILE *f);
int report_failures(const bench *b);

/* ---- summary.c ---- */
void summary_table(bench *b, FILE *f, int md);
void summary_json(bench *b, FILE *f);

/* ---- tune.c ---- */
/* Write the wisdom of every opened backend to path from the rows, and
 * check that each backend follows it; 0, or -1 with a message. */
int tune_write(bench *b, const char *path);

/* ---- plot.c ---- */
int plot_write(bench *b, const char *prefix);

/* ---- util.c ---- */
double now_ms(void);
double median_of(double *v, int n);
void fmt_num(char *buf, size_t len, double v, int sig);
void fmt_ms(char *buf, size_t len, double ms);
void csv_field(FILE *f, const char *s);
void json_string(FILE *f, const char *s);
void json_number(FILE *f, double v);
void host_facts(bench *b);
double load_average(void);
int list_has(const char *list, const char *word);
const char *program_path(const char *argv0, char *buf, size_t len);
size_t list_count(const char *list);
/* the i-th comma-separated word of list into buf; 0 if there is none */
int list_item(const char *list, size_t i, char *buf, size_t len);
/* A ceiling's short name ("copy", "fma_f64": the list's name without its
 * unit), its unit ("GB/s"), what it measures, and the library's kind. */
const char *peak_name(int pk);
const char *peak_unit(int pk);
const char *peak_text(int pk);
gpuk_peak peak_kind(int pk);
/* Is it a rate of arithmetic (not bytes)? */
int peak_is_compute(int pk);
/* A dtype by name ("f32"); 0 when there is none. */
int dtype_from_name(const char *name, gpuk_dtype *out);

/* An aligned text table, printed as plain columns or as markdown. */
typedef struct btab {
    int ncol;
    size_t nrow, cap;
    char **cell;        /* nrow * ncol strings */
    int right[16];      /* right-align this column */
} btab;
void tab_init(btab *t, int ncol, const char *const *head);
void tab_add(btab *t, const char *const *cells);
void tab_print(const btab *t, FILE *f, int md);
void tab_free(btab *t);

#endif /* GPUK_BENCH_H */

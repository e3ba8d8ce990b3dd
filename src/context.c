/*
 * context.c - opening and closing contexts, options and environment,
 * messages, and the context-level calls (info, sync, timers, peaks,
 * variant listing, where "auto" takes its rungs and what the last op ran).
 */
#include "gpuk_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static atomic_uint context_serial;

/* Parse an integer environment variable.  Absent or empty: *present = 0. */
gpuk_status gk_env_int(const char *name, int lo, int hi, int *out, int *present, char *err,
                       size_t errlen)
{
    const char *s = getenv(name);
    *present = 0;
    if (!s || !*s)
        return GPUK_OK;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || end == s || v < lo || v > hi) {
        snprintf(err, errlen, "%s='%s' is not an integer in [%d, %d]", name, s, lo, hi);
        return GPUK_ERR_ENV;
    }
    *out = (int)v;
    *present = 1;
    return GPUK_OK;
}

/* The oldest layout open_ex accepts (0.1: it ends at verbose), and the
 * layout the functions of the plain names fill (0.2: it ends at
 * pinned_bytes): later members are filled only for a caller that says
 * its size. */
#define GK_OPTIONS_MIN offsetof(gpuk_options, stream)
#define GK_OPTIONS_0_2 offsetof(gpuk_options, wisdom)

void gpuk_options_init_size(gpuk_options *opts, size_t size)
{
    if (!opts || size < sizeof opts->size)
        return;
    gpuk_options o;
    memset(&o, 0, sizeof o);
    o.backend = NULL;
    o.device = -1;
    o.num_threads = 0;
    o.check = -1;
    o.verbose = -1;
    o.stream = NULL;
    o.pinned_bytes = -1;
    o.wisdom = NULL;
    /* a caller with a larger struct (a newer header) keeps its size, so
     * gpuk_context_open_ex can refuse what it cannot read */
    memset(opts, 0, size);
    memcpy(opts, &o, size < sizeof o ? size : sizeof o);
    opts->size = size;
}

void (gpuk_options_init)(gpuk_options *opts)
{
    gpuk_options_init_size(opts, GK_OPTIONS_0_2);
}

/* The staging pool when neither the API nor GPUK_PINNED says: 2 x 64 MiB. */
#define GK_PINNED_DEFAULT ((int64_t)128 << 20)

/* GPUK_PINNED: 0 (off), 1 (on, the default size), or a size in bytes with
 * an optional K, M or G suffix ("256M"). */
static gpuk_status env_pinned(int64_t *out, char *err, size_t errlen)
{
    const char *s = getenv("GPUK_PINNED");
    *out = GK_PINNED_DEFAULT;
    if (!s || !*s)
        return GPUK_OK;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    int shift = *end == 'K' || *end == 'k' ? 10 : *end == 'M' || *end == 'm' ? 20
              : *end == 'G' || *end == 'g' ? 30 : 0;
    if (shift)
        end++;
    if (errno || end == s || *end || v < 0 || v > ((long long)1 << 40) >> shift) {
        snprintf(err, errlen, "GPUK_PINNED='%s' is not 0, 1 or a byte size such as 256M", s);
        return GPUK_ERR_ENV;
    }
    *out = v == 1 && !shift ? GK_PINNED_DEFAULT : (int64_t)v << shift;
    return GPUK_OK;
}

/* The API wins over the environment; the environment over the defaults. */
static gpuk_status resolve(const gpuk_options *o, gpuk_options *r, char *err, size_t errlen)
{
    int v, present;
    gpuk_status st;
    gpuk_options_init(r);

    r->backend = o->backend;
    if (!r->backend) {
        const char *e = getenv("GPUK_BACKEND");
        r->backend = (e && *e) ? e : "auto";
    }
    if (!r->backend[0]) {
        snprintf(err, errlen, "opts->backend is an empty string: use cpu, cuda, auto or a path");
        return GPUK_ERR_INVALID;
    }

    if (o->device >= 0) {
        r->device = o->device;
    } else if (o->device != -1) {
        snprintf(err, errlen, "opts->device = %d: use a device ordinal >= 0, or -1 for "
                 "GPUK_DEVICE", o->device);
        return GPUK_ERR_INVALID;
    } else {
        if ((st = gk_env_int("GPUK_DEVICE", 0, 1023, &v, &present, err, errlen)) != GPUK_OK)
            return st;
        r->device = present ? v : 0;
    }

    if (o->num_threads > 0) {
        r->num_threads = o->num_threads;
    } else if (o->num_threads < 0) {
        snprintf(err, errlen, "opts->num_threads = %d: use a count > 0, or 0 for the "
                 "environment", o->num_threads);
        return GPUK_ERR_INVALID;
    } else {
        if ((st = gk_env_int("GPUK_NUM_THREADS", 1, 4096, &v, &present, err, errlen)) != GPUK_OK)
            return st;
        r->num_threads = present ? v : 0;
    }

    if (o->check == 0 || o->check == 1) {
        r->check = o->check;
    } else if (o->check != -1) {
        snprintf(err, errlen, "opts->check = %d: use 0, 1, or -1 for GPUK_CHECK", o->check);
        return GPUK_ERR_INVALID;
    } else {
        if ((st = gk_env_int("GPUK_CHECK", 0, 1, &v, &present, err, errlen)) != GPUK_OK)
            return st;
        r->check = present ? v : 0;
    }

    r->stream = o->stream;
    if (o->pinned_bytes >= 0) {
        r->pinned_bytes = o->pinned_bytes;
    } else if (o->pinned_bytes != -1) {
        snprintf(err, errlen, "opts->pinned_bytes = %lld: use a size >= 0 (0: off), or -1 for "
                 "GPUK_PINNED", (long long)o->pinned_bytes);
        return GPUK_ERR_INVALID;
    } else if ((st = env_pinned(&r->pinned_bytes, err, errlen)) != GPUK_OK) {
        return st;
    }

    /* the wisdom file: NULL follows GPUK_WISDOM, "" (or an empty
     * GPUK_WISDOM) means none */
    r->wisdom = o->wisdom;
    if (!r->wisdom) {
        const char *e = getenv("GPUK_WISDOM");
        r->wisdom = e ? e : "";
    }

    if (o->verbose >= 0 && o->verbose <= 2) {
        r->verbose = o->verbose;
    } else if (o->verbose != -1) {
        snprintf(err, errlen, "opts->verbose = %d: use 0, 1, 2, or -1 for GPUK_VERBOSE",
                 o->verbose);
        return GPUK_ERR_INVALID;
    } else {
        if ((st = gk_env_int("GPUK_VERBOSE", 0, 2, &v, &present, err, errlen)) != GPUK_OK)
            return st;
        r->verbose = present ? v : 0;
    }
    return GPUK_OK;
}

/* Where "auto" takes its rungs: the wisdom file (when one is named and
 * can be followed), then the plugin's built-in rules (ABI 2.3) or its
 * DEFAULT rows.  A file that cannot be followed is never fatal: it is
 * ignored, with one line in the verbose log and in gpuk_auto_source. */
static void auto_init(gpuk_context *ctx, const char *path)
{
    const gpuk_backend *be = ctx->be;
    char rules[256], why[640] = "";
    ctx->last_class = -1;
    if (be->abi_minor >= 3 && GK_BE_HAS(be, auto_variant))
        snprintf(rules, sizeof rules, "the built-in rules of backend %s %s", be->name,
                 be->version);
    else
        snprintf(rules, sizeof rules, "the DEFAULT rows (backend %s %s, plugin ABI %u.%u, has "
                 "no built-in rules)", be->name, be->version, be->abi_major, be->abi_minor);
    if (!path[0]) {
        snprintf(ctx->auto_source, sizeof ctx->auto_source, "%s", rules);
    } else if ((ctx->wisdom = gk_wisdom_load(ctx, path, why, sizeof why)) != NULL) {
        snprintf(ctx->auto_source, sizeof ctx->auto_source, "wisdom file %s (%zu entries), "
                 "then %s", path, gk_wisdom_count(ctx->wisdom), rules);
    } else {
        snprintf(ctx->auto_source, sizeof ctx->auto_source, "%s (wisdom file %s ignored: %s)",
                 rules, path, why);
    }
    if (ctx->verbose < 1)
        return;
    if (ctx->wisdom)
        fprintf(stderr, "gpuk: wisdom file %s: following %zu entries for %s on %s, then %s\n",
                path, gk_wisdom_count(ctx->wisdom), be->name, ctx->dev.name, rules);
    else if (path[0])
        fprintf(stderr, "gpuk: wisdom file %s ignored: %s; auto follows %s\n", path, why,
                rules);
    else
        fprintf(stderr, "gpuk: auto follows %s\n", rules);
}

gpuk_status gpuk_context_open(gpuk_context **ctx, const char *backend)
{
    gpuk_options o;
    gpuk_options_init(&o);
    o.backend = backend;
    return gpuk_context_open_ex(ctx, &o, NULL);
}

gpuk_status gpuk_context_open_ex(gpuk_context **out, const gpuk_options *opts,
                                 gpuk_load_report **report_out)
{
    gpuk_options given, r;
    char err[1024] = "";
    gpuk_status st;

    if (report_out)
        *report_out = NULL;
    if (!out)
        return GPUK_ERR_NULL;
    *out = NULL;
    /* a caller built against the 0.1 or 0.2 header passes a shorter struct
     * (no stream and pinned_bytes, or no wisdom: their defaults apply); any
     * other size is a future header's, a size no header had, or a struct
     * gpuk_options_init never saw (gpuk_context(3)) */
    gpuk_options_init(&given);
    if (opts) {
        if (opts->size != GK_OPTIONS_MIN && opts->size != GK_OPTIONS_0_2 &&
            opts->size != sizeof(gpuk_options))
            return GPUK_ERR_INVALID;
        memcpy(&given, opts, opts->size);
        given.size = sizeof given;
    }
    opts = &given;

    gpuk_load_report *rep = calloc(1, sizeof *rep);
    gpuk_context *ctx = calloc(1, sizeof *ctx);
    if (!rep || !ctx) {
        free(rep);
        free(ctx);
        return GPUK_ERR_NO_MEMORY;
    }
    st = resolve(opts, &r, err, sizeof err);
    if (st != GPUK_OK) {
        gk_report_add(rep, opts->backend ? opts->backend : "", "", st, "%s", err);
        goto fail;
    }

    gpuk_init_args init = { sizeof(gpuk_init_args), r.device, r.num_threads, r.verbose,
                            r.pinned_bytes };
    st = gk_load(r.backend, &init, rep, &ctx->plugin, &ctx->b, err, sizeof err);
    if (r.verbose >= 1)
        fprintf(stderr, "gpuk: loading backend '%s':\n%s", r.backend,
                gpuk_load_report_text(rep));
    if (st != GPUK_OK)
        goto fail;
    if (!(ctx->owner = calloc(1, sizeof *ctx->owner))) {
        st = GPUK_ERR_NO_MEMORY;
        snprintf(err, sizeof err, "out of host memory opening the context");
        goto fail;
    }
    atomic_init(&ctx->owner->refs, 1);
    ctx->owner->plugin = ctx->plugin;
    ctx->owner->b = ctx->b;
    if (r.stream) {
        const gpuk_backend *be = ctx->plugin->be;
        if (!GK_BE_HAS(be, use_stream)) {
            st = GPUK_ERR_UNSUPPORTED;
            snprintf(err, sizeof err, "opts->stream: backend %s (plugin ABI %u.%u) cannot take "
                     "the caller's stream", be->name, be->abi_major, be->abi_minor);
        } else if ((st = be->use_stream(ctx->b, r.stream)) != GPUK_OK) {
            snprintf(err, sizeof err, "opts->stream: %s", be->last_error(ctx->b));
        }
        if (st != GPUK_OK) {
            gk_report_add(rep, r.backend, ctx->plugin->path, st, "%s", err);
            goto fail;
        }
    }

    ctx->be = ctx->plugin->be;
    ctx->report = rep;
    ctx->serial = (atomic_fetch_add(&context_serial, 1) % ((1u << GK_CTX_BITS) - 1)) + 1;
    ctx->next_obj = 1;
    ctx->device = r.device;
    ctx->check = r.check;
    ctx->verbose = r.verbose;
    ctx->be->info(ctx->b, &ctx->dev, &ctx->num_threads);
    ctx->dev.name[sizeof ctx->dev.name - 1] = '\0';

    /* GPUK_CHECK replays every op on the CPU backend's first (naive) rung,
     * in a context of its own, even when the main one is a CPU context */
    if (ctx->check) {
        /* every option the shadow needs is set here, from what this
         * context resolved: the environment was read once above, and only
         * for what the program left unset (gpuk(7), ENVIRONMENT), so the
         * shadow must not read GPUK_DEVICE or GPUK_PINNED again */
        gpuk_options so;
        gpuk_options_init(&so);
        so.backend = "cpu";
        so.device = 0;          /* the host: one device whatever the main ordinal */
        so.check = 0;
        so.verbose = 0;
        so.num_threads = r.num_threads;
        so.pinned_bytes = 0;    /* host memory needs no staging */
        so.wisdom = "";   /* the shadow runs the naive rung by name */
        st = gpuk_context_open_ex(&ctx->shadow, &so, NULL);
        if (st != GPUK_OK) {
            snprintf(err, sizeof err, "GPUK_CHECK needs the cpu backend as its shadow, which "
                     "did not open: %s", gpuk_strerror(st));
            gk_report_add(rep, "check", "", st, "%s", err);
            goto fail;
        }
        if (!(ctx->shadow->be->flags & GPUK_BF_HOST_MEMORY)) {
            st = GPUK_ERR_BACKEND_ABI;
            snprintf(err, sizeof err, "GPUK_CHECK: the cpu backend found (%s) does not use host "
                     "memory, so it cannot serve as the shadow", ctx->shadow->plugin->path);
            goto fail;
        }
    }
    if (report_out && !(*report_out = gk_report_clone(rep))) {
        st = GPUK_ERR_NO_MEMORY;
        snprintf(err, sizeof err, "out of host memory copying the load report");
        goto fail;
    }
    auto_init(ctx, r.wisdom);
    *out = ctx;
    return GPUK_OK;

fail:
    if (r.verbose >= 1)
        fprintf(stderr, "gpuk: cannot open a context: %s\n", err);
    /* a plugin taken before a later step failed is not the context's */
    for (size_t i = 0; i < rep->n; i++)
        rep->v[i].chosen = 0;
    gpuk_context_close(ctx->shadow);
    if (ctx->owner) {
        gk_owner_unref(ctx->owner);
    } else {
        if (ctx->b)
            ctx->plugin->be->fini(ctx->b);
        gk_plugin_release(ctx->plugin);
    }
    free(ctx);
    if (report_out) {
        *report_out = rep;
        /* make the reason readable even by callers that only print the
         * report: the last line is the overall verdict */
        gk_report_add(rep, r.backend ? r.backend : "", "", st, "%s", err);
    } else {
        gpuk_load_report_free(rep);
    }
    return st;
}

static void free_object(uint64_t key, void *obj, void *arg)
{
    (void)key;
    if (*(int *)obj == GK_KIND_TENSOR)
        gk_tensor_release(arg, obj);
    else
        gk_csr_release(arg, obj);
}

void gpuk_context_close(gpuk_context *ctx)
{
    if (!ctx)
        return;
    ctx->be->sync(ctx->b);   /* errors of pending work have nobody to go to now */
    gk_handles_each(&ctx->handles, free_object, ctx);
    gk_handles_free(&ctx->handles);
    gk_host_free_all(ctx);
    gpuk_context_close(ctx->shadow);
    gk_wisdom_free(ctx->wisdom);
    /* fini now, or when the last DLPack export of the context is freed */
    gk_owner_unref(ctx->owner);
    gpuk_load_report_free(ctx->report);
    free(ctx);
}

const char *gpuk_context_error(const gpuk_context *ctx)
{
    return ctx ? ctx->err : "context is NULL";
}

const gpuk_load_report *gpuk_context_load_report(const gpuk_context *ctx)
{
    return ctx ? ctx->report : NULL;
}

const char *gpuk_last_variant(const gpuk_context *ctx)
{
    return ctx ? ctx->last_variant : NULL;
}

const char *gpuk_last_variant_source(const gpuk_context *ctx)
{
    return ctx && ctx->last_variant ? ctx->last_source : NULL;
}

int gpuk_last_shape_class(const gpuk_context *ctx)
{
    return ctx && ctx->last_variant ? ctx->last_class : -1;
}

const char *gpuk_auto_source(const gpuk_context *ctx)
{
    return ctx ? ctx->auto_source : "context is NULL";
}

gpuk_status gpuk_context_info_size(gpuk_context *ctx, gpuk_info *info, size_t size)
{
    if (!ctx)
        return GPUK_ERR_NULL;
    if (!info)
        return gk_fail(ctx, GPUK_ERR_NULL, "gpuk_context_info: info is NULL");
    gpuk_info in;
    memset(&in, 0, sizeof in);
    in.backend = ctx->be->name;
    in.backend_version = ctx->be->version;
    in.backend_path = ctx->plugin->path;
    in.device = ctx->dev.name;
    in.device_ordinal = ctx->device;
    in.num_threads = ctx->num_threads;
    in.device_memory = ctx->dev.memory_bytes;
    in.multiprocessors = ctx->dev.multiprocessors;
    in.check = ctx->check;
    in.abi_major = ctx->be->abi_major;
    in.abi_minor = ctx->be->abi_minor;
    in.stream = GK_BE_HAS(ctx->be, native_stream) ? ctx->be->native_stream(ctx->b) : NULL;
    in.dlpack_device = GK_BE_HAS(ctx->be, dlpack_device) ? (int)ctx->be->dlpack_device : 0;
    memcpy(info, &in, size < sizeof in ? size : sizeof in);
    return GPUK_OK;
}

gpuk_status (gpuk_context_info)(gpuk_context *ctx, gpuk_info *info)
{
    return gpuk_context_info_size(ctx, info, sizeof *info);
}

gpuk_status gpuk_sync(gpuk_context *ctx)
{
    if (!ctx)
        return GPUK_ERR_NULL;
    gpuk_status st = ctx->be->sync(ctx->b);
    return st == GPUK_OK ? GPUK_OK : gk_backend_fail(ctx, st, "sync");
}

gpuk_status gpuk_timer_start(gpuk_context *ctx)
{
    if (!ctx)
        return GPUK_ERR_NULL;
    gpuk_status st = ctx->be->timer_start(ctx->b);
    if (st != GPUK_OK)
        return gk_backend_fail(ctx, st, "timer_start");
    ctx->timing = 1;
    return GPUK_OK;
}

gpuk_status gpuk_timer_stop(gpuk_context *ctx, double *ms)
{
    if (!ctx)
        return GPUK_ERR_NULL;
    if (!ms)
        return gk_fail(ctx, GPUK_ERR_NULL, "gpuk_timer_stop: ms is NULL");
    if (!ctx->timing)
        return gk_fail(ctx, GPUK_ERR_INVALID, "gpuk_timer_stop: no gpuk_timer_start is pending");
    ctx->timing = 0;
    gpuk_status st = ctx->be->timer_stop(ctx->b, ms);
    return st == GPUK_OK ? GPUK_OK : gk_backend_fail(ctx, st, "timer_stop");
}

gpuk_status gpuk_peak_measure(gpuk_context *ctx, gpuk_peak kind, double *value)
{
    if (!ctx)
        return GPUK_ERR_NULL;
    if (!value)
        return gk_fail(ctx, GPUK_ERR_NULL, "gpuk_peak_measure: value is NULL");
    if (!gpuk_peak_name(kind))
        return gk_fail(ctx, GPUK_ERR_INVALID, "gpuk_peak_measure: kind %d is not a gpuk_peak",
                       (int)kind);
    if (!GK_BE_HAS(ctx->be, peak))
        return gk_fail(ctx, GPUK_ERR_UNSUPPORTED, "backend %s has no peak micro-kernels",
                       ctx->be->name);
    gpuk_status st = ctx->be->peak(ctx->b, kind, value);
    return st == GPUK_OK ? GPUK_OK : gk_backend_fail(ctx, st, "peak");
}

static gpuk_status check_op(gpuk_context *ctx, gpuk_op op, gpuk_dtype dtype, const char *fn)
{
    if (!gpuk_op_name(op))
        return gk_fail(ctx, GPUK_ERR_INVALID, "%s: op %d is not a gpuk_op", fn, (int)op);
    if (!gk_elsize(dtype))
        return gk_fail(ctx, GPUK_ERR_DTYPE, "%s: dtype %d is not a gpuk_dtype", fn, (int)dtype);
    return GPUK_OK;
}

gpuk_status gpuk_variant_count_dtype(gpuk_context *ctx, gpuk_op op, gpuk_dtype dtype,
                                     size_t *count)
{
    if (!ctx)
        return GPUK_ERR_NULL;
    if (!count)
        return gk_fail(ctx, GPUK_ERR_NULL, "gpuk_variant_count: count is NULL");
    gpuk_status st = check_op(ctx, op, dtype, "gpuk_variant_count");
    if (st != GPUK_OK)
        return st;
    size_t n = 0;
    while (gk_nth_kernel(ctx, op, dtype, n))
        n++;
    *count = n;
    return GPUK_OK;
}

gpuk_status gpuk_variant_get_dtype_size(gpuk_context *ctx, gpuk_op op, gpuk_dtype dtype,
                                        size_t index, gpuk_variant_info *info, size_t size)
{
    if (!ctx)
        return GPUK_ERR_NULL;
    if (!info)
        return gk_fail(ctx, GPUK_ERR_NULL, "gpuk_variant_get: info is NULL");
    gpuk_status st = check_op(ctx, op, dtype, "gpuk_variant_get");
    if (st != GPUK_OK)
        return st;
    const gpuk_kernel *k = gk_nth_kernel(ctx, op, dtype, index);
    if (!k) {
        size_t n = 0;
        while (gk_nth_kernel(ctx, op, dtype, n))
            n++;
        return gk_fail(ctx, GPUK_ERR_INVALID, "gpuk_variant_get: index %zu, but %s has %zu %s "
                       "variants on %s", index, gpuk_op_name(op), n, gpuk_dtype_name(dtype),
                       ctx->be->name);
    }
    gpuk_variant_info vi;
    memset(&vi, 0, sizeof vi);
    vi.name = k->variant;
    vi.summary = k->summary ? k->summary : "";
    vi.flags = k->flags;
    vi.dtypes = k->dtypes;
    vi.alias = k->alias;
    memcpy(info, &vi, size < sizeof vi ? size : sizeof vi);
    return GPUK_OK;
}

gpuk_status (gpuk_variant_get_dtype)(gpuk_context *ctx, gpuk_op op, gpuk_dtype dtype,
                                     size_t index, gpuk_variant_info *info)
{
    return gpuk_variant_get_dtype_size(ctx, op, dtype, index, info, sizeof *info);
}

gpuk_status gpuk_variant_count(gpuk_context *ctx, gpuk_op op, size_t *count)
{
    return gpuk_variant_count_dtype(ctx, op, GPUK_F32, count);
}

gpuk_status (gpuk_variant_get)(gpuk_context *ctx, gpuk_op op, size_t index,
                               gpuk_variant_info *info)
{
    return gpuk_variant_get_dtype_size(ctx, op, GPUK_F32, index, info, sizeof *info);
}

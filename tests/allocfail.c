/*
 * allocfail.c - the allocation interposer of t_faults (see allocfail.h).
 *
 * Everything here may run inside any allocation of the process, on any
 * thread, before main and during dlopen: no allocation, no lock, no stdio
 * on the hot path; the counters are atomics.
 */
#define _GNU_SOURCE
#include "allocfail.h"

#include <errno.h>
#include <link.h>
#include <malloc.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpuk.h>

/* Sanitizers bring their own malloc, which must stay the only one. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define AF_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define AF_SANITIZER 1
#endif
#endif

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define AF_ON_VALGRIND() RUNNING_ON_VALGRIND
#endif
#endif
#ifndef AF_ON_VALGRIND
#define AF_ON_VALGRIND() 0
#endif

#ifdef AF_SANITIZER

int allocfail_usable(char *why, size_t len)
{
    snprintf(why, len, "built with a sanitizer, whose malloc is the process's own: the "
             "allocation interposer is compiled out");
    return 0;
}
void allocfail_scope(void) {}
void allocfail_arm(long n) { (void)n; }
long allocfail_disarm(void) { return 0; }
long allocfail_live(void) { return 0; }

#else

void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t n);
void __libc_free(void *p);
void *__libc_memalign(size_t align, size_t n);

static atomic_long af_countdown;   /* > 0: armed; the allocation taking it to 0 fails */
static atomic_long af_seen;        /* allocations by libgpuk's code while armed */
static atomic_long af_total;       /* allocations served, every caller */

#define AF_MAX_RANGES 32
static struct { uintptr_t lo, hi; } af_range[AF_MAX_RANGES];
static atomic_int af_nrange;

static int in_scope(const void *caller)
{
    uintptr_t a = (uintptr_t)caller;
    int n = atomic_load_explicit(&af_nrange, memory_order_acquire);
    for (int i = 0; i < n; i++)
        if (a >= af_range[i].lo && a < af_range[i].hi)
            return 1;
    return 0;
}

/* Should the allocation asked for from caller fail? */
static int af_fail(const void *caller)
{
    if (atomic_load_explicit(&af_countdown, memory_order_relaxed) <= 0 || !in_scope(caller))
        return 0;
    atomic_fetch_add(&af_seen, 1);
    return atomic_fetch_sub(&af_countdown, 1) == 1;
}

/* The blocks libgpuk's code allocated and nobody has freed yet: a set of
 * addresses, open addressing with tombstones, lock-free (a free may come
 * from any thread).  Only its blocks count: the dynamic loader keeps
 * bookkeeping of its own for as long as a plugin stays mapped (a second
 * name for it, say), which is not a leak of libgpuk's. */
#define AF_SET (1u << 16)
#define AF_TOMB ((uintptr_t)1)
static _Atomic uintptr_t af_set[AF_SET];
static atomic_long af_live, af_lost;

static size_t slot_of(uintptr_t p)
{
    return (size_t)((p >> 4) * 0x9E3779B97F4A7C15ull >> 48) & (AF_SET - 1);
}

static void set_add(void *ptr)
{
    uintptr_t p = (uintptr_t)ptr;
    for (size_t i = slot_of(p), k = 0; k < AF_SET; k++, i = (i + 1) & (AF_SET - 1)) {
        uintptr_t cur = atomic_load_explicit(&af_set[i], memory_order_relaxed);
        if ((cur == 0 || cur == AF_TOMB) &&
            atomic_compare_exchange_strong(&af_set[i], &cur, p)) {
            atomic_fetch_add(&af_live, 1);
            return;
        }
    }
    atomic_fetch_add(&af_lost, 1);   /* full: allocfail_live says so */
}

static void set_del(void *ptr)
{
    uintptr_t p = (uintptr_t)ptr;
    if (!p || atomic_load_explicit(&af_live, memory_order_relaxed) == 0)
        return;
    for (size_t i = slot_of(p), k = 0; k < AF_SET; k++, i = (i + 1) & (AF_SET - 1)) {
        uintptr_t cur = atomic_load_explicit(&af_set[i], memory_order_relaxed);
        if (cur == 0)
            return;
        if (cur == p && atomic_compare_exchange_strong(&af_set[i], &cur, AF_TOMB)) {
            atomic_fetch_sub(&af_live, 1);
            return;
        }
    }
}

/* A block served to caller: counted, and remembered when it is libgpuk's. */
static void *af_count(void *p, const void *caller)
{
    if (p) {
        atomic_fetch_add_explicit(&af_total, 1, memory_order_relaxed);
        if (in_scope(caller))
            set_add(p);
    }
    return p;
}

void *malloc(size_t n)
{
    if (af_fail(__builtin_return_address(0))) {
        errno = ENOMEM;
        return NULL;
    }
    return af_count(__libc_malloc(n), __builtin_return_address(0));
}

void *calloc(size_t n, size_t size)
{
    if (af_fail(__builtin_return_address(0))) {
        errno = ENOMEM;
        return NULL;
    }
    return af_count(__libc_calloc(n, size), __builtin_return_address(0));
}

void *realloc(void *p, size_t n)
{
    if (af_fail(__builtin_return_address(0))) {
        errno = ENOMEM;   /* p stays allocated, as after a real failure */
        return NULL;
    }
    void *q = __libc_realloc(p, n);
    if (p && (q || n == 0))   /* moved, or freed (glibc: realloc(p, 0) frees p) */
        set_del(p);
    return q ? af_count(q, __builtin_return_address(0)) : NULL;
}

void free(void *p)
{
    set_del(p);
    __libc_free(p);
}

static int power_of_two(size_t a)
{
    return a && (a & (a - 1)) == 0;
}

int posix_memalign(void **out, size_t align, size_t n)
{
    if (!power_of_two(align) || align % sizeof(void *) != 0)
        return EINVAL;
    if (af_fail(__builtin_return_address(0)))
        return ENOMEM;
    void *p = af_count(__libc_memalign(align, n), __builtin_return_address(0));
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}

void *aligned_alloc(size_t align, size_t n)
{
    if (af_fail(__builtin_return_address(0))) {
        errno = ENOMEM;
        return NULL;
    }
    return af_count(__libc_memalign(align, n), __builtin_return_address(0));
}

void *memalign(size_t align, size_t n)
{
    if (af_fail(__builtin_return_address(0))) {
        errno = ENOMEM;
        return NULL;
    }
    return af_count(__libc_memalign(align, n), __builtin_return_address(0));
}

/* Is this process run by valgrind?  Its client request, where valgrind.h
 * was there to build it in; else the preload valgrind always sets. */
static int on_valgrind(void)
{
    const char *pre = getenv("LD_PRELOAD");
    return AF_ON_VALGRIND() || (pre && strstr(pre, "vgpreload"));
}

int allocfail_usable(char *why, size_t len)
{
    if (on_valgrind()) {
        snprintf(why, len, "running under valgrind: its malloc and this interposer cannot both "
                 "keep the heap (tests/valgrind.sh gives it the executable's malloc too, "
                 "--soname-synonyms=somalloc=NONE)");
        return 0;
    }
    /* libgpuk's own calls must land here: an open with an empty backend
     * name allocates the context and the report before it refuses */
    long before = atomic_load(&af_total);
    gpuk_options o;
    gpuk_context *c = NULL;
    gpuk_load_report *rep = NULL;
    gpuk_options_init(&o);
    o.backend = "";
    gpuk_context_open_ex(&c, &o, &rep);
    gpuk_load_report_free(rep);
    gpuk_context_close(c);
    if (atomic_load(&af_total) == before) {
        snprintf(why, len, "libgpuk's allocations do not reach the interposer (is the "
                 "executable linked with -export-dynamic?)");
        return 0;
    }
    return 1;
}

/* The executable segments of libgpuk.so and of the backend plugins. */
static int scope_one(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    (void)arg;
    const char *name = info->dlpi_name ? info->dlpi_name : "";
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    if (strncmp(base, "libgpuk.so", 10) != 0 && strncmp(base, "backend_", 8) != 0)
        return 0;
    int n = atomic_load(&af_nrange);
    for (int i = 0; i < info->dlpi_phnum && n < AF_MAX_RANGES; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
            continue;
        af_range[n].lo = info->dlpi_addr + ph->p_vaddr;
        af_range[n].hi = af_range[n].lo + ph->p_memsz;
        n++;
    }
    atomic_store_explicit(&af_nrange, n, memory_order_release);
    return 0;
}

void allocfail_scope(void)
{
    atomic_store(&af_nrange, 0);
    dl_iterate_phdr(scope_one, NULL);
}

void allocfail_arm(long n)
{
    atomic_store(&af_seen, 0);
    atomic_store(&af_countdown, n);
}

long allocfail_disarm(void)
{
    atomic_store(&af_countdown, 0);
    return atomic_load(&af_seen);
}

long allocfail_live(void)
{
    /* a block the set had no room for could be a leak nobody sees */
    return atomic_load(&af_lost) ? -1 : atomic_load(&af_live);
}

#endif /* AF_SANITIZER */

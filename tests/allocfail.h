/*
 * allocfail.h - make the Nth host allocation of libgpuk fail (t_faults).
 *
 * allocfail.c defines malloc, calloc, realloc, free, posix_memalign,
 * aligned_alloc and memalign in the t_faults executable.  The executable
 * comes first in the dynamic linker's lookup order, so every call from
 * libgpuk.so, from a backend plugin, and from the C library itself lands
 * there (glibc supports this replacement: "Replacing malloc" in its
 * manual); they forward to glibc's own allocator (__libc_malloc, ...).
 *
 * Armed with allocfail_arm(n), the nth allocation made by libgpuk's own
 * code after that point returns NULL (ENOMEM); later ones succeed.  "Its
 * own code" is a call whose return address lies in libgpuk.so or in a
 * loaded backend_*.so (allocfail_scope records their code): allocations
 * inside glibc's dynamic loader, libgomp or OpenBLAS are not libgpuk's to
 * handle (libgomp aborts on a failed allocation by design), so they are
 * never failed.  The blocks libgpuk's code allocates are remembered until
 * someone frees them, and allocfail_live() counts those still held, so a
 * failure path that forgets a free shows; the dynamic loader's own
 * bookkeeping (kept while a plugin stays mapped) does not count.
 *
 * AddressSanitizer and ThreadSanitizer replace malloc themselves, and
 * valgrind's memcheck replaces it in the executable too (tests/valgrind.sh
 * asks it to, so that t_faults's heap stays checked): there the interposer
 * cannot work, and allocfail_usable() says why.
 */
#ifndef GPUK_TEST_ALLOCFAIL_H
#define GPUK_TEST_ALLOCFAIL_H

#include <stddef.h>

/* 1 when the interposer is in place and counting; else 0, with why. */
int allocfail_usable(char *why, size_t len);

/* Record the code of libgpuk.so and of every backend_*.so loaded now:
 * only their allocations are failed and counted.  Call it once a plugin
 * is loaded. */
void allocfail_scope(void);

/* Fail the nth allocation by libgpuk's code from now on (n >= 1). */
void allocfail_arm(long n);

/* Stop failing; returns how many allocations by libgpuk's code were seen
 * since allocfail_arm (the failure was reached when that is >= n). */
long allocfail_disarm(void);

/* Blocks allocated by libgpuk's code since allocfail_scope and not yet
 * freed; -1 once the interposer lost count (its table was full). */
long allocfail_live(void);

#endif

/*
 * fuzz_api.h - the entry points of the API fuzz harness (fuzz_api.c), for
 * libFuzzer and for tests/t_fuzz_corpus, which replays fuzz/corpus.
 */
#ifndef GPUK_FUZZ_API_H
#define GPUK_FUZZ_API_H

#include <stddef.h>
#include <stdint.h>

/* Open the contexts the harness uses (once per process); 0 on success. */
int fz_init(void);

/* Run one input.  0: every check held; 1: why[] says what broke. */
int fz_run(const uint8_t *data, size_t size, char *why, size_t whylen);

/* Close the contexts. */
void fz_fini(void);

#endif

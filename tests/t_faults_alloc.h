/*
 * t_faults_alloc.h - the allocation-failure part of t_faults
 * (t_faults_alloc.c), run from its main.
 */
#ifndef GPUK_TEST_FAULTS_ALLOC_H
#define GPUK_TEST_FAULTS_ALLOC_H

/* Every host allocation of each call failed in turn, each in a child
 * process; a few TAP checks per call, or one skip where the interposer
 * cannot work (sanitizers, valgrind). */
void alloc_faults(void);

#endif

/*
 * dtest.h - host arrays of any dtype of a distributed matrix, for the
 * tests of libgpuk_mpi (t_dist.c, t_dist_apsp.c): element i read and
 * written as a double, which holds every f32, f64 and i32 value exactly.
 */
#ifndef GPUK_DTEST_H
#define GPUK_DTEST_H

#include <stdint.h>
#include <stdlib.h>
#include <gpuk.h>

/* The dtypes a distributed matrix may have (gpuk_dist(3)). */
static const gpuk_dtype DTEST_DTYPES[] = { GPUK_F32, GPUK_F64, GPUK_I32 };
#define DTEST_N_DTYPES (sizeof DTEST_DTYPES / sizeof DTEST_DTYPES[0])

static inline double dtest_get(gpuk_dtype dt, const void *p, int64_t i)
{
    if (dt == GPUK_F64)
        return ((const double *)p)[i];
    if (dt == GPUK_I32)
        return ((const int32_t *)p)[i];
    return ((const float *)p)[i];
}

static inline void dtest_set(gpuk_dtype dt, void *p, int64_t i, double v)
{
    if (dt == GPUK_F64)
        ((double *)p)[i] = v;
    else if (dt == GPUK_I32)
        ((int32_t *)p)[i] = (int32_t)v;
    else
        ((float *)p)[i] = (float)v;
}

/* n elements (and 8 bytes more, so that n = 0 is a real allocation) */
static inline void *dtest_alloc(gpuk_dtype dt, int64_t n)
{
    return malloc((size_t)n * gpuk_dtype_size(dt) + 8);
}

#endif

/*
 * cast.c - gpuk_cast on the CPU (tests/ops/cast.c, gpuk_cast(3)): x of
 * the op's dtype (args->dtype) converted element by element to out's
 * dtype, any pair of f32, f64, f16 and bf16 (gpuk/backend.h).  Every
 * conversion rounds at most once, to nearest even, with NaN kept quiet and
 * a value past the largest finite one becoming an infinity: the scalar
 * conversions of half.h (f64 to a 16-bit type in one rounding, never
 * through f32's), C's widenings, which are exact, and f64 to f32 below.
 * One rounding per element makes every rung write the same bits.
 *
 *   naive  one element at a time through the scalar conversions
 *   simd   OpenMP over spans; f32 and the 16-bit types through the vector
 *          row converters of half.c (F16C, AVX-512), staged in an L1
 *          buffer when neither side is f32
 */
#include "config.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "cpu.h"
#include "half.h"

/* f64 to f32, rounding to nearest even.  C leaves a conversion past
 * float's range undefined, so that part is spelled out as the hardware
 * rounds it: up to half an ulp past FLT_MAX (2^103) goes to FLT_MAX, from
 * there on to an infinity. */
static inline float cast_f64_f32(double v)
{
    const double edge = (double)FLT_MAX + 0x1p103;
    if (isnan(v) || fabs(v) <= FLT_MAX)
        return (float)v;
    float big = fabs(v) >= edge ? INFINITY : FLT_MAX;
    return v > 0 ? big : -big;
}

/* Bytes of an element of the four dtypes (the plugin shares only
 * gpuk/backend.h with core, not core's functions). */
static inline size_t cast_esize(gpuk_dtype dt)
{
    return dt == GPUK_F64 ? 8 : dt == GPUK_F32 ? 4 : 2;
}

/* Element i of src (dtype sd) as element i of dst (dtype dd). */
static inline void cast1(gpuk_dtype sd, const void *src, gpuk_dtype dd, void *dst, int64_t i)
{
    if (sd == GPUK_F64) {
        double v = ((const double *)src)[i];
        if (dd == GPUK_F64)
            ((double *)dst)[i] = v;
        else if (dd == GPUK_F32)
            ((float *)dst)[i] = cast_f64_f32(v);
        else
            ((uint16_t *)dst)[i] = dd == GPUK_F16 ? cpu_f64_to_f16(v) : cpu_f64_to_bf16(v);
        return;
    }
    /* f32, f16 and bf16 widen to f32 exactly; a 16-bit source of the
     * same dtype comes back with its bits (a NaN's payload included) */
    float f = sd == GPUK_F32 ? ((const float *)src)[i]
                             : cpu_half_to_f32(sd, ((const uint16_t *)src)[i]);
    if (sd == dd && sd != GPUK_F32)
        ((uint16_t *)dst)[i] = ((const uint16_t *)src)[i];
    else if (dd == GPUK_F64)
        ((double *)dst)[i] = f;
    else if (dd == GPUK_F32)
        ((float *)dst)[i] = f;
    else
        ((uint16_t *)dst)[i] = cpu_f32_to_half(dd, f);
}

/* naive: the scalar conversion of each element; in place (one dtype) is
 * a copy onto itself. */
CPU_KERNEL(cast_naive)
{
    gpuk_dtype sd = args->dtype, dd = args->out.dtype;
    int64_t n = T_NUMEL(&args->out);
    const void *x = args->in[0].data;
    void *o = args->out.data;
    for (int64_t i = 0; i < n; i++)
        cast1(sd, x, dd, o, i);
    return GPUK_OK;
}

/* Elements per span of the simd rung: an f32 staging buffer of 4 KiB. */
#define CAST_SPAN 1024
/* Fewer elements than this run on one thread. */
#define CAST_PAR_MIN 65536

/* n elements from src (sd) to dst (dd), with the vector converters where
 * a side is f32 or 16-bit; f64 goes through its scalar conversions (an
 * f64 to 16-bit conversion must not round through f32 first). */
static void cast_span(enum cpu_isa isa, gpuk_dtype sd, const char *src, gpuk_dtype dd, char *dst,
                      int64_t n)
{
    float buf[CAST_SPAN] __attribute__((aligned(64)));
    if (sd == dd) {
        memmove(dst, src, (size_t)n * cast_esize(sd));
    } else if (sd == GPUK_F64 || (dd == GPUK_F64 && sd == GPUK_F32)) {
        for (int64_t i = 0; i < n; i++)
            cast1(sd, src, dd, dst, i);
    } else if (dd == GPUK_F64) { /* a 16-bit source: widened by the vector path, then to f64 */
        cpu_row_to_f32(isa, sd, src, buf, n);
        for (int64_t i = 0; i < n; i++)
            ((double *)dst)[i] = buf[i];
    } else if (sd == GPUK_F32) {
        cpu_row_from_f32(isa, dd, (const float *)src, dst, n);
    } else if (dd == GPUK_F32) {
        cpu_row_to_f32(isa, sd, src, (float *)dst, n);
    } else { /* f16 <-> bf16: exact to f32, one rounding back */
        cpu_row_to_f32(isa, sd, src, buf, n);
        cpu_row_from_f32(isa, dd, buf, dst, n);
    }
}

/* simd: OpenMP over spans of CAST_SPAN elements, each through
 * cast_span. */
CPU_KERNEL(cast_simd)
{
    gpuk_dtype sd = args->dtype, dd = args->out.dtype;
    int64_t n = T_NUMEL(&args->out);
    size_t se = cast_esize(sd), de = cast_esize(dd);
    const char *x = args->in[0].data;
    char *o = args->out.data;
    if (sd == dd && (const void *)x == (void *)o)
        return GPUK_OK;
    int64_t spans = (n + CAST_SPAN - 1) / CAST_SPAN;
    int nt = n < CAST_PAR_MIN ? 1 : b->nthreads;
#pragma omp parallel for num_threads(nt) schedule(static)
    for (int64_t s = 0; s < spans; s++) {
        int64_t i = s * CAST_SPAN, w = n - i < CAST_SPAN ? n - i : CAST_SPAN;
        cast_span(b->isa, sd, x + (size_t)i * se, dd, o + (size_t)i * de, w);
    }
    return GPUK_OK;
}

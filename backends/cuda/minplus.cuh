/*
 * minplus.cuh - the (min, +) semirings of the min-plus family: each
 * min-plus rung (minplus.cu, minplus_pipe.cu) is written once over a
 * semiring S and instantiated for every dtype and instruction form it
 * serves, so f32, f64 and i32 share one naive kernel, one tile, one
 * pipeline.  A semiring is a struct of static members:
 *
 *   T              the element type, in memory and in registers;
 *   inf()          the start of every minimum (what k = 0 gives) and the
 *                  padding of a tile's cells past k: no step goes below a
 *                  value it starts from, and a padded cell never wins;
 *   least(x, y)    the minimum of two values (an update's start);
 *   step(v, x, y)  v with the candidate x + y folded in: min(v, x + y).
 *
 * The rules every form keeps (doc/design.md, "Tolerances"; gpuk.h):
 *   - f32, f64 (sr_float): one rounded add, then the hardware minimum
 *     (FMNMX for float; DSETP.MIN and two SEL for double), which skips a
 *     NaN operand and takes -0 below +0 in either order (PTX min: +0.0 >
 *     -0.0).  So a NaN sum never wins, ties need no fixing, and every
 *     order of k gives the same bits.  No fast-math and no fused
 *     multiply-add anywhere: a min and a plain add only.  sr_f64_lt trades
 *     the tie rule for speed, and its rung restores it (below).
 *   - i32: the wrapped 32-bit sum (gpuk.h) and a signed minimum, from a
 *     start of GPUK_I32_INF.  ptxas fuses an integer add followed by a min
 *     into VIADDMNMX wherever it sees the pair, so sr_wrap (naive) gets the
 *     fused instruction for free; sr_unfused (pipelined) writes its add as
 *     the PTX video add vadd.s32.s32.s32 (wrapping, no .sat), which ptxas
 *     lowers after its fusion pass to IMAD.IADD or IADD3, one instruction
 *     apart from the VIMNMX: the integer image of f32's FADD + FMNMX;
 *     sr_dpx asks for the fused add-min by name (__viaddmin_s32).
 *   - sr_pairs: two 16-bit lanes a register for dpx_i16x2
 *     (__viaddmin_s16x2, VIADDMNMX.S16x2); why it gives the i32 bits is in
 *     minplus_pipe.cu.
 * Integer min is exact and order-free: every i32 form gives the CPU's bits.
 */
#ifndef GPUK_CUDA_MINPLUS_CUH
#define GPUK_CUDA_MINPLUS_CUH

#include "cuda_internal.h"

/* f32 and f64: a NaN start (only an update's old value can be one) is
 * made +inf by least(old, inf), since left as it is it would survive a k
 * of all-NaN sums or k = 0, where the rule (and the CPU) says +inf. */
template <class T_>
struct sr_float {
    using T = T_;
    static __device__ __forceinline__ T inf() { return (T)INFINITY; }
    static __device__ __forceinline__ T least(T x, T y)
    {
        if constexpr (sizeof(T) == 4)
            return fminf(x, y);
        else
            return fmin(x, y);
    }
    static __device__ __forceinline__ T step(T v, T x, T y) { return least(v, x + y); }
};
using sr_f32 = sr_float<float>;
using sr_f64 = sr_float<double>;

/* f64 where speed matters (pipelined): the candidate replaces v only when
 * strictly below it, DADD + DSETP + two FSEL a step.  sm_90 has no DMNMX:
 * fmin on doubles is a DSETP.MIN, two SEL, a LOP3 that quiets a NaN pair,
 * and the register moves their 32-bit halves then need, 8 to 9
 * instructions a step (cuobjdump -sass).  A NaN sum compares false and is
 * skipped, as the rule says; but a tie keeps v, so where the smallest
 * candidates are +0 and -0 the first one seen wins, and the caller must
 * settle such ties afterwards (minplus_pipe.cu, the zero-sign pass). */
struct sr_f64_lt : sr_f64 {
    static __device__ __forceinline__ double step(double v, double x, double y)
    {
        double s = x + y;
        return s < v ? s : v;
    }
};

/* i32: GPUK_I32_INF the start; min the minimum of every form. */
struct sr_i32 {
    using T = int;
    static __device__ __forceinline__ int inf() { return GPUK_I32_INF; }
    static __device__ __forceinline__ int least(int x, int y) { return min(x, y); }
};

/* The wrapped sum in C++ (unsigned arithmetic wraps; signed would be
 * undefined): ptxas fuses it with the min (VIADDMNMX). */
struct sr_wrap : sr_i32 {
    static __device__ __forceinline__ int step(int v, int x, int y)
    {
        return min(v, (int)((unsigned)x + (unsigned)y));
    }
};

/* The same sum as the PTX video add, which ptxas does not fuse. */
struct sr_unfused : sr_i32 {
    static __device__ __forceinline__ int step(int v, int x, int y)
    {
        int s;
        asm("vadd.s32.s32.s32 %0, %1, %2;" : "=r"(s) : "r"(x), "r"(y));
        return min(v, s);
    }
};

/* Hopper's fused add-min, one VIADDMNMX a step; it wraps too (add.s32
 * then min.s32 in PTX). */
struct sr_dpx : sr_i32 {
    static __device__ __forceinline__ int step(int v, int x, int y)
    {
        return __viaddmin_s32(x, y, v);
    }
};

/* dpx_i16x2's domain: two 16-bit values a word, both lanes at once.
 * MP16_H is the 16-bit infinity H = 2^14 - 1 (phi(GPUK_I32_INF) there). */
constexpr unsigned MP16_H = (1u << 14) - 1;
struct sr_pairs {
    using T = unsigned;
    static __device__ __forceinline__ unsigned inf() { return MP16_H | (MP16_H << 16); }
    static __device__ __forceinline__ unsigned step(unsigned v, unsigned x, unsigned y)
    {
        return __viaddmin_s16x2(x, y, v);
    }
};

/* Is this call an update (ABI 2.2; a core of 2.1 never says)? */
static inline bool mp_accumulate(const gpuk_args *args)
{
    return GPUK_ARGS_HAS(args, accumulate) && args->accumulate;
}

/* Where the minimum of output *o starts: inf, or for an update
 * least(old, inf), read once before the k loop.  Only an output inside r
 * may be read. */
template <class S>
__device__ __forceinline__ typename S::T mp_start(const typename S::T *o, bool upd)
{
    return upd ? S::least(*o, S::inf()) : S::inf();
}

#endif /* GPUK_CUDA_MINPLUS_CUH */

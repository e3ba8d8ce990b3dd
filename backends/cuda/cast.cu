/*
 * cast.cu - gpuk_cast on the GPU (gpuk_cast(3), tests/ops/cast.c): x of
 * the op's dtype (args->dtype) converted element by element to out's
 * dtype, any pair of f32, f64, f16 and bf16 (gpuk/backend.h).  The CPU's
 * cast (backends/cpu/cast.c) is the reference, and every element here
 * gets its bits:
 *   - one rounding, to nearest even, an overflow to an infinity: the
 *     hardware's cvt.rn, f64 to f16 and bf16 included (cvt.rn.f16.f64,
 *     cvt.rn.bf16.f64 on sm_90: never through f32's rounding);
 *   - the widenings are exact;
 *   - a NaN keeps its sign and the top of its payload and comes out
 *     quiet where the CPU's makes it quiet: written out below from the
 *     bits, as half.h and x86's cvtss2sd / cvtsd2ss do, because PTX
 *     leaves a converted NaN's payload to the hardware (the op suite
 *     compares only that a NaN is one, but a cast is a move of values,
 *     and the two backends should agree on every bit they write).
 *
 * One kernel body over (source, destination) dtype, two rungs as the
 * other memory-bound ops:
 *   coalesced  a grid-stride loop, one element per thread per step;
 *   float4     a thread converts K = 16 / (the destination's element
 *              bytes) consecutive elements at a time: its loads of them
 *              (four, two or one 16-byte, or one 8- or 4-byte when
 *              widening), then one 16-byte store, so that a warp's
 *              stores are contiguous (the sectors a thread's next load
 *              reads come from L1), with 64 bytes of loads in flight a
 *              thread.  A scalar head
 *              brings both pointers to a 16-byte boundary together, when
 *              one exists, and a scalar tail finishes; else the scalar
 *              path.
 */
#include "cuda_internal.h"

namespace {

/* The storage of each dtype: the 16-bit ones as their bits. */
template <int DT> struct ct;
template <> struct ct<GPUK_F32> { typedef float T; };
template <> struct ct<GPUK_F64> { typedef double T; };
template <> struct ct<GPUK_F16> { typedef uint16_t T; };
template <> struct ct<GPUK_BF16> { typedef uint16_t T; };

/* A 16-bit NaN from an f32 NaN's bits (half.h: the sign, the top of the
 * payload, made quiet). */
__device__ __forceinline__ uint16_t nan_f16(unsigned u)
{
    return (uint16_t)(((u >> 16) & 0x8000u) | 0x7e00u | ((u >> 13) & 0x3ffu));
}
__device__ __forceinline__ uint16_t nan_bf16(unsigned u)
{
    return (uint16_t)((u >> 16) | 0x40u);
}

/* A source element as f32, exactly: f16's NaN moves its payload up
 * unchanged (half.h's cpu_f16_to_f32), bf16 is the top half of an f32. */
template <int SD>
__device__ __forceinline__ float widen(typename ct<SD>::T v)
{
    if constexpr (SD == GPUK_F32) {
        return v;
    } else if constexpr (SD == GPUK_BF16) {
        return __uint_as_float((unsigned)v << 16);
    } else {
        if ((v & 0x7fffu) > 0x7c00u)
            return __uint_as_float(((unsigned)(v & 0x8000u) << 16) | 0x7f800000u |
                                   ((unsigned)(v & 0x3ffu) << 13));
        return __half2float(__ushort_as_half(v));
    }
}

/* f32 to f64, exact; a NaN made quiet, its payload moved up (cvtss2sd). */
__device__ __forceinline__ double f32_to_f64(float f)
{
    unsigned u = __float_as_uint(f);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return __longlong_as_double((long long)(((unsigned long long)(u & 0x80000000u) << 32) |
                                                0x7ff8000000000000ull |
                                                ((unsigned long long)(u & 0x7fffffu) << 29)));
    return (double)f;
}

/* The f32 NaN an f64 NaN becomes (cvtsd2ss: quiet, the payload's top). */
__device__ __forceinline__ unsigned nan_f32_bits(double v)
{
    unsigned long long u = (unsigned long long)__double_as_longlong(v);
    return (unsigned)((u >> 32) & 0x80000000u) | 0x7fc00000u | (unsigned)((u >> 29) & 0x7fffffu);
}

/* One element of SD as DD. */
template <int SD, int DD>
__device__ __forceinline__ typename ct<DD>::T cast1(typename ct<SD>::T v)
{
    if constexpr (SD == DD) {
        return v;   /* the same dtype: its bits */
    } else if constexpr (SD == GPUK_F64) {
        if (isnan(v)) {
            unsigned u = nan_f32_bits(v);
            if constexpr (DD == GPUK_F32)
                return __uint_as_float(u);
            else if constexpr (DD == GPUK_F16)
                return nan_f16(u);
            else
                return nan_bf16(u);
        }
        if constexpr (DD == GPUK_F32)
            return __double2float_rn(v);
        else if constexpr (DD == GPUK_F16)
            return __half_as_ushort(__double2half(v));
        else
            return __bfloat16_as_ushort(__double2bfloat16(v));
    } else {
        float f = widen<SD>(v);
        if constexpr (DD == GPUK_F64) {
            return f32_to_f64(f);
        } else if constexpr (DD == GPUK_F32) {
            return f;
        } else if constexpr (DD == GPUK_F16) {
            return isnan(f) ? nan_f16(__float_as_uint(f)) : __half_as_ushort(__float2half_rn(f));
        } else {
            return isnan(f) ? nan_bf16(__float_as_uint(f))
                            : __bfloat16_as_ushort(__float2bfloat16_rn(f));
        }
    }
}

constexpr int NT = 256;

template <int SD, int DD>
__device__ __forceinline__ void cast_at(const void *x, void *o, int64_t i)
{
    ((typename ct<DD>::T *)o)[i] = cast1<SD, DD>(((const typename ct<SD>::T *)x)[i]);
}

/* 1. coalesced: consecutive threads on consecutive elements. */
template <int SD, int DD>
__global__ void cast_coalesced(const void *x, void *o, int64_t n)
{
    gkc_pdl_enter();
    int64_t step = (int64_t)gridDim.x * NT;
    for (int64_t i = (int64_t)blockIdx.x * NT + threadIdx.x; i < n; i += step)
        cast_at<SD, DD>(x, o, i);
}

/* The elements a thread of the float4 rung converts at a time: K, one
 * 16-byte store of the destination, so that a warp's stores cover 512
 * contiguous bytes.  Their source is LB bytes: LS 16-byte loads when
 * narrowing (a warp's loads then stride, but the sectors of a thread's
 * next load come from L1), one 8- or 4-byte load when widening.  Sixteen
 * bytes of the narrower side a thread, for both directions, measured 62-70%
 * of copy for f16 to f32 on the H100, 99% for f32 to f16 (bench/NOTES.md,
 * "The GPU's 16-bit rows"): a store of 16 bytes from each of 32 threads 32
 * bytes apart writes half sectors, which L1 does not merge.  U chunks a
 * step apart are loaded before any is converted, so that a thread has 64
 * bytes of loads in flight, as elementwise.cu's vector rung. */
template <int SD, int DD>
struct cast_chunk {
    static constexpr int SS = sizeof(typename ct<SD>::T), DS = sizeof(typename ct<DD>::T);
    static constexpr int K = 16 / DS, LB = K * SS;
    static constexpr int LS = LB >= 16 ? LB / 16 : 1;
    static constexpr int U = LB >= 64 ? 1 : 64 / LB;
};

/* The load unit of a chunk of LB bytes. */
template <int LB> struct cast_unit { typedef uint4 T; };
template <> struct cast_unit<8> { typedef uint2 T; };
template <> struct cast_unit<4> { typedef unsigned T; };

/* One chunk: K elements of SD as its LS loads, converted, as one 16-byte
 * vector of DD. */
template <int SD, int DD>
struct cast_block {
    typedef cast_chunk<SD, DD> CK;
    typedef typename cast_unit<(CK::LB < 16 ? CK::LB : 16)>::T L;
    union {
        L q[CK::LS];
        typename ct<SD>::T e[CK::K];
    } in;
    __device__ __forceinline__ void load(const void *xs, int64_t c)
    {
#pragma unroll
        for (int l = 0; l < CK::LS; l++)
            in.q[l] = ((const L *)xs)[c * CK::LS + l];
    }
    __device__ __forceinline__ void store(uint4 *os, int64_t c) const
    {
        union {
            uint4 q;
            typename ct<DD>::T e[CK::K];
        } out;
#pragma unroll
        for (int k = 0; k < CK::K; k++)
            out.e[k] = cast1<SD, DD>(in.e[k]);
        os[c] = out.q;
    }
};

/* 2. float4: after head elements, chunks of K, U of them a step apart
 * loaded before the first is converted and stored (one 16-byte store
 * each); threads 0..head-1 do the head, threads 16.. the tail (fewer than
 * K).  A head is under 16 / (the source's bytes), up to 7, and may exceed
 * K when widening (K = 4 for f16 to f32): the tail's threads start past
 * any head. */
template <int SD, int DD>
__global__ void cast_vec(const void *x, void *o, int64_t n, int head)
{
    typedef typename ct<SD>::T S;
    typedef typename ct<DD>::T D;
    typedef cast_chunk<SD, DD> CK;
    gkc_pdl_enter();
    int64_t tid = (int64_t)blockIdx.x * NT + threadIdx.x;
    int64_t step = (int64_t)gridDim.x * NT;
    int64_t nk = (n - head) / CK::K;
    const void *xs = (const S *)x + head;
    uint4 *os = (uint4 *)((D *)o + head);
    int64_t c = tid;
    for (; c + (CK::U - 1) * step < nk; c += CK::U * step) {
        cast_block<SD, DD> a[CK::U];
#pragma unroll
        for (int u = 0; u < CK::U; u++)
            a[u].load(xs, c + u * step);
#pragma unroll
        for (int u = 0; u < CK::U; u++)
            a[u].store(os, c + u * step);
    }
    for (; c < nk; c += step) {   /* fewer than U chunks left */
        cast_block<SD, DD> a;
        a.load(xs, c);
        a.store(os, c);
    }
    int64_t tail0 = head + nk * CK::K;
    if (tid < head)
        cast_at<SD, DD>(x, o, tid);
    else if (tid >= 16 && tid - 16 < n - tail0)
        cast_at<SD, DD>(x, o, tail0 + tid - 16);
}

/* The head that brings x and o to 16-byte boundaries together: elements
 * before o's (x's, when x's elements are the narrower) boundary, when the
 * wider side's head is then a whole number of its own 16-byte vectors
 * away; -1 when none does (misaligned against each other, or not on
 * their own elements). */
template <int SD, int DD>
int cast_head(const void *x, const void *o)
{
    typedef cast_chunk<SD, DD> CK;
    if (gkc_offset16(x) % CK::SS || gkc_offset16(o) % CK::DS)
        return -1;
    int hs = (int)gkc_head16<typename ct<SD>::T>(x), hd = (int)gkc_head16<typename ct<DD>::T>(o);
    if (CK::SS <= CK::DS)   /* hs counts in the finer unit: hd must match it modulo 16 / DS */
        return hs % (16 / CK::DS) == hd ? hs : -1;
    return hd % (16 / CK::SS) == hs ? hd : -1;
}

template <int SD, int DD>
gpuk_status run_cast(gpuk_bctx *b, const gpuk_args *args, bool vec)
{
    const void *x = args->in[0].data;
    void *o = args->out.data;
    int64_t n = gpuk_tdesc_numel(&args->out);
    if (SD == DD && x == o)
        return GPUK_OK;   /* in place in one dtype: nothing moves */
    GKC_TRY(gkc_enter(b));
    int head = vec ? cast_head<SD, DD>(x, o) : -1;
    if (head >= 0) {
        typedef cast_chunk<SD, DD> CK;
        if (head > n)
            head = (int)n;
        /* short arrays spread over a block an SM, as elementwise.cu's */
        int64_t chunks = (n - head) / CK::K + 16 + CK::K;
        unsigned g = gkc_blocks(chunks, NT, gkc_grid_cap(b));
        if (g < gkc_sms(b))
            g = gkc_blocks(chunks, 32, gkc_sms(b));
        gkc_launch_pdl(b->stream, cast_vec<SD, DD>, g, NT, 0, x, o, n, head);
        GKC_LAUNCHED(b, "cast", "float4");
        return GPUK_OK;
    }
    gkc_launch_pdl(b->stream, cast_coalesced<SD, DD>, gkc_blocks(n, NT, gkc_grid_cap(b)), NT, 0, x,
                   o, n);
    GKC_LAUNCHED(b, "cast", vec ? "float4 (scalar path)" : "coalesced");
    return GPUK_OK;
}

/* From SD to out's dtype (core sends one of the four). */
template <int SD>
gpuk_status cast_from(gpuk_bctx *b, const gpuk_args *args, bool vec)
{
    switch (args->out.dtype) {
    case GPUK_F64: return run_cast<SD, GPUK_F64>(b, args, vec);
    case GPUK_F16: return run_cast<SD, GPUK_F16>(b, args, vec);
    case GPUK_BF16: return run_cast<SD, GPUK_BF16>(b, args, vec);
    case GPUK_F32: return run_cast<SD, GPUK_F32>(b, args, vec);
    default:
        return gkc_fail(b, GPUK_ERR_DTYPE, "cast: out is of dtype %d; a cast writes f32, f64, "
                        "f16 or bf16", (int)args->out.dtype);
    }
}

gpuk_status cast(gpuk_bctx *b, const gpuk_args *args, bool vec)
{
    switch (args->dtype) {
    case GPUK_F64: return cast_from<GPUK_F64>(b, args, vec);
    case GPUK_F16: return cast_from<GPUK_F16>(b, args, vec);
    case GPUK_BF16: return cast_from<GPUK_BF16>(b, args, vec);
    case GPUK_F32: return cast_from<GPUK_F32>(b, args, vec);
    default:
        return gkc_fail(b, GPUK_ERR_DTYPE, "cast: x is of dtype %d; a cast reads f32, f64, "
                        "f16 or bf16", (int)args->dtype);
    }
}

}  // namespace

GKC_KERNEL(gkc_cast_coalesced)
{
    return cast(b, args, false);
}

GKC_KERNEL(gkc_cast_float4)
{
    return cast(b, args, true);
}

/*
 * elem.cuh - the element-type axis of the CUDA kernels (doc/design.md,
 * "Adding a dtype"): the entry macros that run one template per dtype
 * (GKC_KERNEL_F32_F64, GKC_KERNEL_FLOATS, GKC_KERNEL_MOVES), the 16-byte
 * vector traits gkc_vec<T> of every element type, and the 16-bit storage
 * types' compute-type traits gkc_num<T>.  Part of cuda_internal.h, which
 * includes it at its end (it uses the helpers declared there); include
 * cuda_internal.h, not this file.
 */
#ifndef GPUK_CUDA_ELEM_CUH
#define GPUK_CUDA_ELEM_CUH
#ifndef GPUK_CUDA_INTERNAL_H
#error "elem.cuh is part of cuda_internal.h: include that instead"
#endif

/* ---------------------------------------------------------------- cudaB: one kernel, two dtypes
 * (issue 26) The memory-bound families (elementwise, rows, reduce,
 * transpose, blas, spmv) write each kernel once as a template over its
 * element type T, float or double, and register one row per rung that
 * serves both dtypes (doc/design.md, "Adding a dtype").  Elementwise,
 * rows, reduce and transpose take f16 and bf16 too (issue 27), through
 * GKC_KERNEL_FLOATS or GKC_KERNEL_MOVES and the 16-bit traits at the end
 * of this file. */

/* A row that serves f32 and f64: its entry point `name` runs fn<float> or
 * fn<double>, the template of its family's file, by the op's dtype (core
 * passes only a dtype of the row's set). */
#define GKC_KERNEL_F32_F64(name, fn)                                         \
    GKC_KERNEL(name)                                                         \
    {                                                                        \
        return args->dtype == GPUK_F64 ? fn<double>(b, args) : fn<float>(b, args); \
    }

/* A row that serves f32, f64, f16 and bf16 (issue 27): fn<__half> and
 * fn<__nv_bfloat16> are the same template computing in f32 (gkc_num
 * below); the float and double instantiations are the ones above. */
#define GKC_KERNEL_FLOATS(name, fn)                                          \
    GKC_KERNEL(name)                                                         \
    {                                                                        \
        switch (args->dtype) {                                               \
        case GPUK_F64: return fn<double>(b, args);                           \
        case GPUK_F16: return fn<__half>(b, args);                           \
        case GPUK_BF16: return fn<__nv_bfloat16>(b, args);                   \
        default: return fn<float>(b, args);                                  \
        }                                                                    \
    }

/* A move (copy, transpose, embedding) in the four dtypes: f16 and bf16
 * are both fn<uint16_t>, their bits moved and never converted, so a NaN's
 * payload and a subnormal come out as they went in. */
#define GKC_KERNEL_MOVES(name, fn)                                           \
    GKC_KERNEL(name)                                                         \
    {                                                                        \
        switch (args->dtype) {                                               \
        case GPUK_F64: return fn<double>(b, args);                           \
        case GPUK_F16:                                                       \
        case GPUK_BF16: return fn<uint16_t>(b, args);                        \
        default: return fn<float>(b, args);                                  \
        }                                                                    \
    }

/* A scalar of gpuk_args in T: the float member for f32, the double one for
 * f64 (args->alpha and args->alpha_f64, say), so an f64 kernel sees the
 * caller's value unrounded. */
template <class T>
static inline T gkc_scalar(float f, double d)
{
    if constexpr (sizeof(T) == sizeof(double))
        return (T)d;
    else
        return (T)f;
}

/* Elements of T before p's first 16-byte boundary (0 when p is on one);
 * p must be aligned to its element. */
template <class T>
static inline int64_t gkc_head16(const void *p)
{
    return (int64_t)((16 - gkc_offset16(p)) % 16) / (int64_t)sizeof(T);
}

/* dst = a dense copy of src[nb][rows][cols] (batch stride sb, row stride
 * ld) on b's stream, for a library that wants rows apart by at least their
 * length (blas.cu; T float or double). */
template <class T>
gpuk_status gkc_pack_dense(gpuk_bctx *b, const T *src, int64_t nb, int64_t rows, int64_t cols,
                           int64_t sb, int64_t ld, T *dst, const char *op, const char *variant);

#ifdef __CUDACC__
/* 16 bytes of T: the widest load and store of one thread (LDG.128), a
 * float4 or a double2, N elements.  Kernels count their work in these
 * vectors, so a thread keeps the same bytes in flight in both dtypes. */
template <class T> struct gkc_vec;
template <> struct gkc_vec<float> {
    typedef float4 type;
    static constexpr int N = 4;
};
template <> struct gkc_vec<double> {
    typedef double2 type;
    static constexpr int N = 2;
};

/* Element i (a constant after unrolling) of a vector, and a vector of e. */
__device__ __forceinline__ float gkc_vget(const float4 &v, int i) { return gkc_f4(v, i); }
__device__ __forceinline__ double gkc_vget(const double2 &v, int i) { return i == 0 ? v.x : v.y; }
template <class T>
__device__ __forceinline__ typename gkc_vec<T>::type gkc_vfill(T e)
{
    if constexpr (gkc_vec<T>::N == 4)
        return make_float4(e, e, e, e);
    else
        return make_double2(e, e);
}

/* f applied lane by lane: c.i = f(a.i, b.i). */
template <class F>
__device__ __forceinline__ float4 gkc_vmap(const float4 &a, const float4 &b, F f)
{
    float4 c;
    c.x = f(a.x, b.x);
    c.y = f(a.y, b.y);
    c.z = f(a.z, b.z);
    c.w = f(a.w, b.w);
    return c;
}
template <class F>
__device__ __forceinline__ double2 gkc_vmap(const double2 &a, const double2 &b, F f)
{
    double2 c;
    c.x = f(a.x, b.x);
    c.y = f(a.y, b.y);
    return c;
}

/* The sum of a vector's elements, in pairs. */
__device__ __forceinline__ float gkc_vsum(const float4 &a) { return (a.x + a.y) + (a.z + a.w); }
__device__ __forceinline__ double gkc_vsum(const double2 &a) { return a.x + a.y; }

/* sum a.i b.i, left to right. */
__device__ __forceinline__ float gkc_vdot(const float4 &a, const float4 &b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}
__device__ __forceinline__ double gkc_vdot(const double2 &a, const double2 &b)
{
    return a.x * b.x + a.y * b.y;
}
#endif /* __CUDACC__ */

/* ---------------------------------------------------------------- cudaA: element types */

/* The matmul and min-plus families (matmul.cu, sgemm_*.cu, dgemm_mma.cu,
 * minplus*.cu) write each kernel once over T, which for min-plus is also
 * int32 (and dpx_i16x2's packed pairs, unsigned): gkc_vec and gkc_vget
 * above, extended to those; and four consecutive elements moved in one
 * 16-byte access (a 4-byte T) or two (a double). */
#ifdef __CUDACC__
template <> struct gkc_vec<int> {
    typedef int4 type;
    static constexpr int N = 4;
};
template <> struct gkc_vec<unsigned> {
    typedef uint4 type;
    static constexpr int N = 4;
};
__device__ __forceinline__ int gkc_vget(const int4 &v, int i)
{
    return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}
__device__ __forceinline__ unsigned gkc_vget(const uint4 &v, int i)
{
    return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
}

/* x[0..3] = p[0..3], p 16-byte aligned. */
template <class T>
__device__ __forceinline__ void gkc_ld4(T *x, const T *p)
{
    typedef typename gkc_vec<T>::type V;
    V lo = *(const V *)p;
    if constexpr (gkc_vec<T>::N == 2) {
        V hi = *(const V *)(p + 2);
        x[0] = lo.x, x[1] = lo.y, x[2] = hi.x, x[3] = hi.y;
    } else {
        x[0] = lo.x, x[1] = lo.y, x[2] = lo.z, x[3] = lo.w;
    }
}

/* p[0..3] = x[0..3], p 16-byte aligned. */
template <class T>
__device__ __forceinline__ void gkc_st4(T *p, const T *x)
{
    typedef typename gkc_vec<T>::type V;
    if constexpr (gkc_vec<T>::N == 2) {
        *(V *)p = V{x[0], x[1]};
        *(V *)(p + 2) = V{x[2], x[3]};
    } else {
        *(V *)p = V{x[0], x[1], x[2], x[3]};
    }
}

/* d += a b on one 16 x 8 x 16 fragment of the FP64 tensor cores (mma.sync
 * m16n8k16, one DMMA.16x8x16 on sm_90; every lane of the warp takes part).
 * The fragments, g = lane / 4, t = lane % 4 (PTX ISA, mma .f64):
 *   a[v] = A[g + 8 (v & 1)][t + 4 (v >> 1)]   (A 16 x 16), v < 8;
 *   b[v] = B[t + 4 v][g]                      (B 16 x 8), v < 4;
 *   d[v] = C[g + 8 (v >> 1)][2 t + (v & 1)]   (C 16 x 8), v < 4.
 * dgemm_mma.cu computes with it and peak.cu measures it. */
__device__ __forceinline__ void gkc_dmma16(double (&d)[4], const double (&a)[8],
                                           const double (&b)[4])
{
    asm("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, "
        "{%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15}, {%0, %1, %2, %3};\n"
        : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
        : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]),
          "d"(a[7]), "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]));
}

/* ---------------------------------------------------------------- cuda16: 16-bit storage
 * (issue 27) f16 and bf16 are storage types (gpuk(7), "Element types"): a
 * memory-bound kernel written over T loads an element through
 * gkc_ld (exact, to gkc_c<T>: float for both), computes in that type, and
 * stores through gkc_st<T> (one rounding to nearest even, an overflow to
 * an infinity: cvt.rn), as the CPU's rows do.  For float and double,
 * gkc_c<T> is T and both are the identity, so those instantiations
 * compile as they did before.  uint16_t is the bits of either, for the
 * moves (GKC_KERNEL_MOVES): its "compute type" is itself. */
template <class T>
struct gkc_num {
    typedef T C;
    static __device__ __forceinline__ T ld(T v) { return v; }
    static __device__ __forceinline__ T st(T v) { return v; }
    static __device__ __forceinline__ unsigned short bits(T v) { return v; }
    static __device__ __forceinline__ T of_bits(unsigned short u) { return u; }
};
template <>
struct gkc_num<__half> {
    typedef float C;
    static __device__ __forceinline__ float ld(__half v) { return __half2float(v); }
    static __device__ __forceinline__ __half st(float v) { return __float2half_rn(v); }
    static __device__ __forceinline__ unsigned short bits(__half v) { return __half_as_ushort(v); }
    static __device__ __forceinline__ __half of_bits(unsigned short u) { return __ushort_as_half(u); }
    /* two elements in one 32-bit word, the lower one first */
    static __device__ __forceinline__ unsigned st2(float lo, float hi)
    {
        __half2 h = __floats2half2_rn(lo, hi);
        return (unsigned)__half_as_ushort(__low2half(h)) |
               (unsigned)__half_as_ushort(__high2half(h)) << 16;
    }
};
template <>
struct gkc_num<__nv_bfloat16> {
    typedef float C;
    static __device__ __forceinline__ float ld(__nv_bfloat16 v) { return __bfloat162float(v); }
    static __device__ __forceinline__ __nv_bfloat16 st(float v) { return __float2bfloat16_rn(v); }
    static __device__ __forceinline__ unsigned short bits(__nv_bfloat16 v)
    {
        return __bfloat16_as_ushort(v);
    }
    static __device__ __forceinline__ __nv_bfloat16 of_bits(unsigned short u)
    {
        return __ushort_as_bfloat16(u);
    }
    static __device__ __forceinline__ unsigned st2(float lo, float hi)
    {
        __nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);
        return (unsigned)__bfloat16_as_ushort(__low2bfloat16(h)) |
               (unsigned)__bfloat16_as_ushort(__high2bfloat16(h)) << 16;
    }
};
template <class T>
using gkc_c = typename gkc_num<T>::C;
template <class T>
__device__ __forceinline__ gkc_c<T> gkc_ld(T v)
{
    return gkc_num<T>::ld(v);
}
template <class T>
__device__ __forceinline__ T gkc_st(gkc_c<T> v)
{
    return gkc_num<T>::st(v);
}

/* 16 bytes of a 16-bit T: 8 elements in a uint4, element i in the low
 * (i even) or high half of word i / 2.  A type of its own, so that
 * gkc_vget and gkc_vmap on it widen to gkc_c<T> and round back, where
 * the uint4 of min-plus is 4 unsigned lanes. */
template <class T>
struct __align__(16) gkc_v8 {
    uint4 u;
};
template <> struct gkc_vec<__half> {
    typedef gkc_v8<__half> type;
    static constexpr int N = 8;
};
template <> struct gkc_vec<__nv_bfloat16> {
    typedef gkc_v8<__nv_bfloat16> type;
    static constexpr int N = 8;
};
template <> struct gkc_vec<uint16_t> {
    typedef gkc_v8<uint16_t> type;
    static constexpr int N = 8;
};

/* Element i (a constant after unrolling) of v, widened. */
template <class T>
__device__ __forceinline__ gkc_c<T> gkc_vget(const gkc_v8<T> &v, int i)
{
    unsigned w = gkc_vget(v.u, i >> 1);
    return gkc_ld(gkc_num<T>::of_bits((unsigned short)(i & 1 ? w >> 16 : w & 0xffffu)));
}

/* Two results rounded into one word: the paired conversion (one
 * cvt.rn.f16x2.f32 / .bf16x2) for the 16-bit floats, the bits for uint16_t. */
template <class T>
__device__ __forceinline__ unsigned gkc_st2(gkc_c<T> lo, gkc_c<T> hi)
{
    if constexpr (sizeof(gkc_c<T>) == 2)
        return (unsigned)gkc_num<T>::bits(lo) | (unsigned)gkc_num<T>::bits(hi) << 16;
    else
        return gkc_num<T>::st2(lo, hi);
}

/* A vector of 8 computed values r[0..7], each rounded once. */
template <class T>
__device__ __forceinline__ gkc_v8<T> gkc_vpack(const gkc_c<T> (&r)[8])
{
    gkc_v8<T> v;
    v.u = make_uint4(gkc_st2<T>(r[0], r[1]), gkc_st2<T>(r[2], r[3]), gkc_st2<T>(r[4], r[5]),
                     gkc_st2<T>(r[6], r[7]));
    return v;
}

/* f lane by lane in the compute type, rounded once: c.i = st(f(a.i, b.i)).
 * a and b by value: a vector read from memory as both (a unary op's
 * last vector) is then one 16-byte load, not four 4-byte ones. */
template <class T, class F>
__device__ __forceinline__ gkc_v8<T> gkc_vmap(gkc_v8<T> a, gkc_v8<T> b, F f)
{
    gkc_c<T> r[8];
#pragma unroll
    for (int i = 0; i < 8; i++)
        r[i] = f(gkc_vget(a, i), gkc_vget(b, i));
    return gkc_vpack<T>(r);
}

/* The sum of the 8 elements in f32, in pairs as gkc_vsum above. */
template <class T>
__device__ __forceinline__ gkc_c<T> gkc_vsum(const gkc_v8<T> &a)
{
    return ((gkc_vget(a, 0) + gkc_vget(a, 1)) + (gkc_vget(a, 2) + gkc_vget(a, 3))) +
           ((gkc_vget(a, 4) + gkc_vget(a, 5)) + (gkc_vget(a, 6) + gkc_vget(a, 7)));
}

/* A vector of 8 copies of e (already of the storage type).  Not
 * templates, so that a call gkc_vfill(e) of a kernel over T finds them
 * before the float4 / double2 template above. */
__device__ __forceinline__ gkc_v8<uint16_t> gkc_vfill_bits(unsigned short e)
{
    unsigned w = (unsigned)e * 0x10001u;
    gkc_v8<uint16_t> v;
    v.u = make_uint4(w, w, w, w);
    return v;
}
__device__ __forceinline__ gkc_v8<uint16_t> gkc_vfill(uint16_t e)
{
    return gkc_vfill_bits(e);
}
__device__ __forceinline__ gkc_v8<__half> gkc_vfill(__half e)
{
    return {gkc_vfill_bits(__half_as_ushort(e)).u};
}
__device__ __forceinline__ gkc_v8<__nv_bfloat16> gkc_vfill(__nv_bfloat16 e)
{
    return {gkc_vfill_bits(__bfloat16_as_ushort(e)).u};
}

/* A streaming 16-byte load (__ldcs: evict first), of any gkc_vec type. */
template <class V>
__device__ __forceinline__ V gkc_ldcs(const V *p)
{
    return __ldcs(p);
}
template <class T>
__device__ __forceinline__ gkc_v8<T> gkc_ldcs(const gkc_v8<T> *p)
{
    return {__ldcs(&p->u)};
}
#endif /* __CUDACC__ */

#endif /* GPUK_CUDA_ELEM_CUH */

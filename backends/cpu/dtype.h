/*
 * dtype.h - how the CPU backend writes a kernel once and gets it in every
 * element type (issue 26; doc/design.md, "Adding a dtype").
 *
 * The lists.  Each names the element types of a group of kernels, one
 * X(DT, T, S, ...) a type: DT the gpuk_dtype, T the C type of an element,
 * S the suffix of the names generated for it; anything after S is passed
 * through to X unchanged.
 *
 *   CPU_FLOAT_DTYPES   f32 and f64: every op
 *   CPU_MINPLUS_DTYPES those and i32: the (min, +) ops, min-plus (the rungs
 *                      that take integers) and apsp
 *   CPU_HALF_DTYPES    f16 and bf16, T the 16-bit storage word (uint16_t):
 *                      storage types only (half.h), computed in f32
 *   CPU_REAL_DTYPES    the float list and the 16-bit one: the rungs whose
 *                      one body serves all four.  A pure move (copy,
 *                      transpose, embedding) moves T as it is; an op that
 *                      computes works in CPU_CT(S), the compute type (f32
 *                      for the 16-bit types), reading an element with
 *                      CPU_LD(S, e) and writing one with CPU_ST(S, v): one
 *                      rounding to the 16-bit type per result.  A vector
 *                      body does the same through simd.h's 16-bit traits.
 *                      Families whose f32 code runs on staged rows
 *                      (cpu_row_to_f32, cpu_row_from_f32) list their
 *                      16-bit rows apart.
 *
 * Writing a kernel once.  A family writes the body of a rung as a macro
 * taking (DT, T, S, ...) and opening with CPU_INSTANCE(name, S), which
 * declares the instance name_S.  CPU_GENERIC(name, LIST, BODY) expands
 * BODY once per type of LIST and defines the kernel `name` of the table
 * row, which runs the instance of args->dtype; the row's dtype set is
 * CPU_SET(LIST), so the table cannot list a type the source lacks.
 * Scalars and library calls that differ by type are looked up by suffix:
 * CPU_ALPHA(S, args), CPU_EXP(S), CPU_CBLAS(S, gemm).  Vector code is
 * written once against the traits of simd.h, CPU_V(S, I, ADD) and the
 * like, as a macro taking (T, S, I); CPU_FLOAT_VECS(BODY) instantiates it
 * for every (type, ISA) of the float list, CPU_MINPLUS_VECS for the
 * min-plus list.  The register micro-kernels are such macros too, their
 * tiles looked up per ISA (matmul_packed.c, minplus.c).
 *
 * Adding a float type (the same steps for an integer one in its list):
 *   1. its line in CPU_FLOAT_DTYPES below (CPU_HALF_DTYPES for a storage
 *      type computed in f32), and its CPU_CT, CPU_CS, CPU_LD, CPU_ST,
 *      CPU_ALPHA, CPU_BETA, CPU_EXP and CPU_CBLAS lines (those that apply);
 *   2. its vector traits in simd.h, a block per ISA (a storage type's
 *      loads and stores convert: half.h's vector forms for f16 and bf16);
 *   3. the code that is specific to a type by nature, not by its width: a
 *      vector exponential (rows.c: exp_<type>_<isa>) and the register
 *      transposes of its element size (transpose.c: tr_block_<type>_<isa>,
 *      tr_row_stream_<type>);
 *   4. in table.c, the names of the dtype sets (its assertions fail until
 *      they say the new list) and DEFAULT flags where the new type's
 *      fastest rung differs.
 * The table's dtype sets, the dispatch to each instance, every generic
 * body and every vector instance follow from the lists.
 */
#ifndef GPUK_CPU_DTYPE_H
#define GPUK_CPU_DTYPE_H

#include <math.h>
#include <stdint.h>

#define CPU_FLOAT_DTYPES(X, ...)           \
    X(GPUK_F32, float, f32, __VA_ARGS__)   \
    X(GPUK_F64, double, f64, __VA_ARGS__)

#define CPU_MINPLUS_DTYPES(X, ...)         \
    CPU_FLOAT_DTYPES(X, __VA_ARGS__)       \
    X(GPUK_I32, int32_t, i32, __VA_ARGS__)

#define CPU_HALF_DTYPES(X, ...)            \
    X(GPUK_F16, uint16_t, f16, __VA_ARGS__) \
    X(GPUK_BF16, uint16_t, bf16, __VA_ARGS__)

#define CPU_REAL_DTYPES(X, ...)            \
    CPU_FLOAT_DTYPES(X, __VA_ARGS__)       \
    CPU_HALF_DTYPES(X, __VA_ARGS__)

/* The kernel-table dtype set of a list. */
#define CPU_SET_BIT_(DT, T, S, ...) | GPUK_DTYPE_BIT(DT)
#define CPU_SET(LIST) (0u LIST(CPU_SET_BIT_, ~))

/* Element pointer of an operand in type T. */
#define T_PTR(t, T) ((T *)(t)->data)

/* The instance of rung `name` for the type of suffix S. */
#define CPU_INSTANCE(name, S) \
    static gpuk_status name##_##S(gpuk_bctx *b, const gpuk_args *args)

#define CPU_CASE_(DT, T, S, name) \
    case DT:                      \
        return name##_##S(b, args);

/* The row's kernel: the instance of args->dtype.  Core sends only the
 * dtypes of the row's set, so the last line is never reached by a call
 * core has checked. */
#define CPU_BY_DTYPE(name, LIST)                                                        \
    CPU_KERNEL(name)                                                                    \
    {                                                                                   \
        switch (args->dtype) {                                                          \
            LIST(CPU_CASE_, name)                                                       \
        default:                                                                        \
            break;                                                                      \
        }                                                                               \
        return cpu_fail(b, GPUK_ERR_DTYPE, "cpu: %s has no kernel for dtype %d", #name, \
                        (int)args->dtype);                                              \
    }

/* A rung written once: its instances and its kernel. */
#define CPU_GENERIC(name, LIST, BODY) \
    LIST(BODY, ~)                     \
    CPU_BY_DTYPE(name, LIST)

/* ---- scalars by type ---- */

/* The caller's scalars: f64 reads them unrounded (gpuk_args of ABI 2.4). */
#define CPU_ALPHA(S, args) CPU_ALPHA_##S(args)
#define CPU_BETA(S, args) CPU_BETA_##S(args)
#define CPU_ALPHA_f32(args) ((args)->alpha)
#define CPU_BETA_f32(args) ((args)->beta)
#define CPU_ALPHA_f64(args) ((args)->alpha_f64)
#define CPU_BETA_f64(args) ((args)->beta_f64)
#define CPU_ALPHA_f16(args) ((args)->alpha)
#define CPU_ALPHA_bf16(args) ((args)->alpha)

/* The compute type of an element and its conversions (the 16-bit ones are
 * half.h's, which a file using them includes). */
#define CPU_CT(S) CPU_CT_##S
#define CPU_CS(S) CPU_CS_##S /* its suffix */
#define CPU_CS_f32 f32
#define CPU_CS_f64 f64
#define CPU_CS_f16 f32
#define CPU_CS_bf16 f32
#define CPU_CT_f32 float
#define CPU_CT_f64 double
#define CPU_CT_f16 float
#define CPU_CT_bf16 float
#define CPU_LD(S, e) CPU_LD_##S(e)
#define CPU_LD_f32(e) (e)
#define CPU_LD_f64(e) (e)
#define CPU_LD_f16(e) cpu_f16_to_f32(e)
#define CPU_LD_bf16(e) cpu_bf16_to_f32(e)
#define CPU_ST(S, v) CPU_ST_##S(v)
#define CPU_ST_f32(v) (v)
#define CPU_ST_f64(v) (v)
#define CPU_ST_f16(v) cpu_f32_to_f16(v)
#define CPU_ST_bf16(v) cpu_f32_to_bf16(v)
/* The C library's exponential in the compute type's precision. */
#define CPU_EXP(S) CPU_EXP_##S
#define CPU_EXP_f32 expf
#define CPU_EXP_f64 exp
#define CPU_EXP_f16 expf
#define CPU_EXP_bf16 expf

/* The BLAS routine of the type: CPU_CBLAS(S, gemm) is cblas_sgemm or
 * cblas_dgemm (OpenBLAS's cblas.h declares them). */
#define CPU_CBLAS(S, fn) CPU_CBLAS_##S(fn)
#define CPU_CBLAS_f32(fn) cblas_s##fn
#define CPU_CBLAS_f64(fn) cblas_d##fn

#endif /* GPUK_CPU_DTYPE_H */

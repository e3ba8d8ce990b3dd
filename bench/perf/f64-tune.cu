/*
 * f64-tune.cu - candidate kernels for the f64 rungs matmul/dmma and
 * minplus/pipelined, timed against the library's own kernels and cuBLAS
 * DGEMM in one program, so one short call on the GPU machine compares them
 * all (bench/NOTES.md, "f64 tuning": the floors, the variants and what
 * each was predicted to give).  Not built by make.
 *
 * Build and run from the repository root (CUDA 13, sm_90; no build tree
 * needed: the library's kernels come in as source):
 *   nvcc -O3 -std=c++17 -arch=sm_90 -Iinclude -Ibackends/cuda \
 *        -o f64tune bench/perf/f64-tune.cu -lcublas && ./f64tune
 * Arguments (default: all of them):  ceil  mm [N...]  mp [N...]
 *   ceil  micro-kernels that take the f64 ceilings apart: the library's
 *         add+min chains (uniform operands) beside the same step on
 *         per-lane registers, at full occupancy and at the 8 and 16 warps
 *         an SM the rungs run with; DMMA back to back likewise;
 *   mm    matmul f64 at N^3 (default 4096 8192): cuBLAS, the library's
 *         dmma, and the candidates; each checked against cuBLAS within
 *         2 gamma_k sum|a||b| and at 64 points against a long double dot;
 *   mp    min-plus f64 at N^3 (default 4096 8192): the library's pipelined
 *         rung and the candidates, each bit for bit against the rung, on
 *         random data with NaN, inf and +-0 sprinkled in, and on a small
 *         case full of +-0 ties (the zero-sign pass).
 * Each time is the median of 5 runs after one warm-up (CUDA events, one
 * launch sequence a run).  Rows marked "diag" are diagnostics, not
 * candidates: they leave out part of the work (the global copies), so
 * their output is not a product and is not checked.  Exit status 1 when a
 * check fails.
 */
#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>

/* The library's rungs, as source: matmul_dmma and the min-plus tile with
 * its zero-sign pass are the baselines, run exactly as the library builds
 * them. */
#include "dgemm_mma.cu"
#include "minplus_pipe.cu"

/* The five backend helpers those files call (backend.cu has the library's;
 * these do the same for the one context this program makes). */
gpuk_status gkc_fail(gpuk_bctx *b, gpuk_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->err, sizeof b->err, fmt, ap);
    va_end(ap);
    return st;
}
gpuk_status gkc_cuda_error(gpuk_bctx *b, cudaError_t e, const char *what)
{
    return gkc_fail(b, GPUK_ERR_DEVICE, "%s: %s", what, cudaGetErrorString(e));
}
gpuk_status gkc_launched(gpuk_bctx *b, const char *op, const char *variant)
{
    cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? GPUK_OK
                            : gkc_fail(b, GPUK_ERR_DEVICE, "%s/%s: %s", op, variant,
                                       cudaGetErrorString(e));
}
gpuk_status gkc_enter(gpuk_bctx *b)
{
    GKC_CUDA(b, cudaSetDevice(b->device), "cudaSetDevice");
    return GPUK_OK;
}
gpuk_status gkc_scratch(gpuk_bctx *b, int slot, size_t bytes, void **out)
{
    if (b->scratch_bytes[slot] < bytes) {
        if (b->scratch[slot])
            cudaFree(b->scratch[slot]);
        b->scratch[slot] = NULL;
        GKC_CUDA(b, cudaMalloc(&b->scratch[slot], bytes), "scratch");
        b->scratch_bytes[slot] = bytes;
    }
    *out = b->scratch[slot];
    return GPUK_OK;
}

namespace tune {

#define CK(call)                                                                           \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        if (e_ != cudaSuccess) {                                                           \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                  \
                    cudaGetErrorString(e_));                                               \
            exit(2);                                                                       \
        }                                                                                  \
    } while (0)

int g_sms = 132;
double g_clock_ghz = 1.98;
int g_fail = 0;
double g_addmin_ceiling = 0;   /* Gop/s: the library's chains at full occupancy */

/* ------------------------------------------------------------------ timing and table */

/* Median of 5 runs of f() after one warm-up, in ms. */
template <class F>
double time_ms(F f)
{
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    f();
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    float t[5];
    for (int i = 0; i < 5; i++) {
        CK(cudaEventRecord(e0));
        f();
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        CK(cudaGetLastError());
        CK(cudaEventElapsedTime(&t[i], e0, e1));
    }
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    std::sort(t, t + 5);
    return t[2];
}

template <class K>
int regs_of(K *kernel)
{
    cudaFuncAttributes a;
    CK(cudaFuncGetAttributes(&a, (const void *)kernel));
    return a.numRegs;
}

void header(const char *what, const char *unit, const char *rel)
{
    printf("\n%-26s %-16s %9s %9s %8s %5s  %s\n", what, "shape", "ms", unit, rel, "regs",
           "check");
}

void row(const char *variant, const char *shape, double ms, double rate, double rel, int regs,
         const char *check)
{
    printf("%-26s %-16s %9.4f %9.2f %7.1f%% %5d  %s\n", variant, shape, ms, rate, rel, regs,
           check);
    fflush(stdout);
}

/* ------------------------------------------------------------------ the library's entries */

gpuk_bctx g_bctx;   /* the one context: device 0, the default stream */

/* The arguments core would pass for a dense row-major f64 op c[m, n] =
 * a[m, k] (x) b[k, n]. */
gpuk_args dense_args(gpuk_op op, const double *a, const double *b, double *c, int64_t m,
                     int64_t n, int64_t k)
{
    gpuk_args args;
    memset(&args, 0, sizeof args);
    args.size = sizeof args;
    args.op = op;
    args.dtype = GPUK_F64;
    args.n_in = 2;
    gpuk_tdesc *d[3] = {&args.in[0], &args.in[1], &args.out};
    const void *data[3] = {a, b, c};
    int64_t rows[3] = {m, k, m}, cols[3] = {k, n, n};
    for (int i = 0; i < 3; i++) {
        d[i]->data = (void *)data[i];
        d[i]->dtype = GPUK_F64;
        d[i]->ndim = 2;
        d[i]->shape[0] = rows[i];
        d[i]->shape[1] = cols[i];
        d[i]->stride[0] = cols[i];
        d[i]->stride[1] = 1;
    }
    args.alpha_f64 = args.alpha = 1.0f;
    return args;
}

void lib_call(gpuk_kernel_fn fn, const gpuk_args *args)
{
    if (fn(&g_bctx, args) != GPUK_OK) {
        fprintf(stderr, "library call failed: %s\n", g_bctx.err);
        exit(2);
    }
}

/* ------------------------------------------------------------------ random data */

uint64_t g_rng = 0x9E3779B97F4A7C15ull;
double urand()   /* [0, 1) */
{
    g_rng ^= g_rng << 13, g_rng ^= g_rng >> 7, g_rng ^= g_rng << 17;
    return (double)(g_rng >> 11) * 0x1p-53;
}

/* ------------------------------------------------------------------ the f64 step */

/* Three instruction forms of the rung's step v = s < v ? s : v (s = x + y;
 * a NaN s compares false and is skipped): the halves of the chosen double
 * moved by FSEL and FSEL (what ptxas makes of sr_f64_lt, the library's),
 * by SEL and SEL (selp.b32), or by SEL and FSEL: the same bits, perhaps
 * other pipes (the FP64 pipe already takes the DADD and the DSETP). */
struct st_fsel {
    static constexpr const char *name = "fsel";
    static __device__ __forceinline__ double step(double v, double x, double y)
    {
        return sr_f64_lt::step(v, x, y);
    }
};
struct st_sel {
    static constexpr const char *name = "sel";
    static __device__ __forceinline__ double step(double v, double x, double y)
    {
        double s = x + y;
        asm("{\n.reg .pred p;\n.reg .b32 sl, sh, vl, vh;\n"
            "setp.lt.f64 p, %1, %0;\n"
            "mov.b64 {sl, sh}, %1;\nmov.b64 {vl, vh}, %0;\n"
            "selp.b32 vl, sl, vl, p;\nselp.b32 vh, sh, vh, p;\n"
            "mov.b64 %0, {vl, vh};\n}"
            : "+d"(v)
            : "d"(s));
        return v;
    }
};
struct st_mix {
    static constexpr const char *name = "sel+fsel";
    static __device__ __forceinline__ double step(double v, double x, double y)
    {
        double s = x + y;
        asm("{\n.reg .pred p;\n.reg .b32 sl, sh, vl, vh;\n"
            "setp.lt.f64 p, %1, %0;\n"
            "mov.b64 {sl, sh}, %1;\nmov.b64 {vl, vh}, %0;\n"
            "selp.b32 vl, sl, vl, p;\nselp.f32 vh, sh, vh, p;\n"
            "mov.b64 %0, {vl, vh};\n}"
            : "+d"(v)
            : "d"(s));
        return v;
    }
};

/* ------------------------------------------------------------------ ceilings */

constexpr int CH = 16, CH_STEPS = 4096;

/* The library's ADDMIN_F64 chains (peak.cu): x = step(z, x, y) with y and z
 * kernel arguments, so ptxas keeps them in uniform registers: the DSETP and
 * the FSELs read one per-lane register pair and one uniform. */
__global__ void __launch_bounds__(256) addmin_uniform(double *out, double y, double z)
{
    double x[CH];
#pragma unroll
    for (int i = 0; i < CH; i++)
        x[i] = 1.0 + 1.0e-3 * (double)(i + (int)threadIdx.x);
    for (int it = 0; it < CH_STEPS; it += 4) {
#pragma unroll
        for (int u = 0; u < 4; u++)
#pragma unroll
            for (int i = 0; i < CH; i++)
                x[i] = sr_f64_lt::step(z, x[i], y);
    }
    double s = 0;
#pragma unroll
    for (int i = 0; i < CH; i++)
        s += x[i];
    out[(int64_t)blockIdx.x * blockDim.x + threadIdx.x] = s;
}

/* The rung's step on per-lane registers: v[i] = step(v[i], v[i + 1], b[i]),
 * chain i taking its x from its neighbour's last value, so every sum is
 * new and no instruction but the step's four is needed; all 16 of a round
 * are independent.  Every operand is a per-lane register pair, as in the
 * rung (the uniform chains above read half as many). */
template <class ST>
__global__ void __launch_bounds__(256) addmin_regs(double *out, double d)
{
    double v[CH], b[CH];
#pragma unroll
    for (int i = 0; i < CH; i++) {
        v[i] = 4.0 + d * (double)(i + (int)threadIdx.x);
        b[i] = 0.5 + 0.25 * (double)i + d * (double)threadIdx.x;
    }
    for (int it = 0; it < CH_STEPS; it += 4) {
#pragma unroll
        for (int u = 0; u < 4; u++)
#pragma unroll
            for (int i = 0; i < CH; i++)
                v[i] = ST::step(v[i], v[(i + 1) % CH], b[i]);
    }
    double s = 0;
#pragma unroll
    for (int i = 0; i < CH; i++)
        s += v[i];
    out[(int64_t)blockIdx.x * blockDim.x + threadIdx.x] = s;
}

/* The other chains of peak.cu before and after per-lane operands: f32
 * add+min (FADD and FMNMX read y and z from uniform registers) and f64 FMA
 * (DFMA R, R, UR, R), and the f32 FMA chains, whose operands were per
 * lane already (FFMA R, R, R, R): peak_chains (uniform) beside
 * peak_chains_lanes (per lane), the same code as peak.cu's. */
template <class T, bool MINPLUS>
__device__ __forceinline__ T pk_step(T c, T a, T b)
{
    if constexpr (MINPLUS)
        return sizeof(T) == 4 ? sr_f32::step(c, a, b) : sr_f64_lt::step(c, a, b);
    else
        return a * b + c;
}
template <class T, bool MINPLUS>
__global__ void __launch_bounds__(256) pk_uniform(T *out, T y, T z)
{
    T x[CH];
#pragma unroll
    for (int i = 0; i < CH; i++)
        x[i] = (T)1.0f + (T)1.0e-3f * (T)(i + (int)threadIdx.x);
    for (int it = 0; it < CH_STEPS; it += 4)
#pragma unroll
        for (int u = 0; u < 4; u++)
#pragma unroll
            for (int i = 0; i < CH; i++)
                x[i] = pk_step<T, MINPLUS>(z, x[i], y);
    T s = 0;
#pragma unroll
    for (int i = 0; i < CH; i++)
        s += x[i];
    out[(int64_t)blockIdx.x * blockDim.x + threadIdx.x] = s;
}
template <class T, bool MINPLUS>
__global__ void __launch_bounds__(256) pk_lanes(T *out, T d)
{
    T x[CH], w[CH];
#pragma unroll
    for (int i = 0; i < CH; i++) {
        x[i] = (T)4.0f + d * (T)(i + (int)threadIdx.x);
        w[i] = MINPLUS ? (T)0.5f + (T)0.25f * (T)i + d * (T)threadIdx.x
                       : d * (T)(1 + (i + (int)threadIdx.x) % 7);
    }
    for (int it = 0; it < CH_STEPS; it += 4)
#pragma unroll
        for (int u = 0; u < 4; u++)
#pragma unroll
            for (int i = 0; i < CH; i++)
                x[i] = pk_step<T, MINPLUS>(x[i], x[(i + 1) % CH], w[i]);
    T s = 0;
#pragma unroll
    for (int i = 0; i < CH; i++)
        s += x[i];
    out[(int64_t)blockIdx.x * blockDim.x + threadIdx.x] = s;
}

/* DMMA back to back as the library's MMA_F64 ceiling: ACC independent
 * accumulators a warp on fixed fragments. */
template <int ACC>
__global__ void __launch_bounds__(256) dmma_chains(double *out, double seed)
{
    int lane = threadIdx.x & 31;
    double a[8], bv[4], c[ACC][4];
#pragma unroll
    for (int v = 0; v < 8; v++)
        a[v] = seed * (double)(lane + v + 1);
#pragma unroll
    for (int v = 0; v < 4; v++)
        bv[v] = seed * (double)(lane - v);
#pragma unroll
    for (int q = 0; q < ACC; q++)
#pragma unroll
        for (int v = 0; v < 4; v++)
            c[q][v] = seed * (double)(q - v);
    for (int it = 0; it < 1024 * 4 / ACC; it++)
#pragma unroll
        for (int q = 0; q < ACC; q++)
            gkc_dmma16(c[q], a, bv);
    double s = 0.0;
#pragma unroll
    for (int q = 0; q < ACC; q++)
        s += (c[q][0] + c[q][1]) + (c[q][2] + c[q][3]);
    out[(int64_t)blockIdx.x * blockDim.x + threadIdx.x] = s;
}

/* Launch 256-thread blocks so that `per_sm` of them fit an SM (0: as many
 * as the registers allow): dynamic shared memory is the lever. */
template <class K, class... A>
void launch_occ(K *kernel, int per_sm, int waves, A... args)
{
    size_t smem = 0;
    if (per_sm > 0) {
        smem = (size_t)(220 * 1024 / per_sm);
        CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    }
    int blocks = g_sms * (per_sm > 0 ? per_sm : 8) * waves;
    kernel<<<blocks, 256, smem>>>(args...);
}

void run_ceilings()
{
    double *out;
    int maxblocks = g_sms * 8 * 2;
    CK(cudaMalloc(&out, (size_t)maxblocks * 256 * sizeof(double)));
    double addmin_theory = g_sms * 4.0 * 32 / 4 * 2 * g_clock_ghz;   /* Gop/s */
    double mma_theory = g_sms * 256.0 * g_clock_ghz;                   /* GFLOP/s */
    header("ceiling", "Tops", "theory");
    struct occ {
        int per_sm;
        const char *name;
    } occs[] = {{0, "full"}, {2, "16 warps/SM"}, {1, "8 warps/SM"}};
    for (auto o : occs) {
        int blocks = g_sms * (o.per_sm > 0 ? o.per_sm : 8) * 2;
        double ops = (double)blocks * 256 * CH_STEPS * CH * 2;
        char name[64];
        double ms = time_ms([&] { launch_occ(addmin_uniform, o.per_sm, 2, out, 0.5, 3.0); });
        if (o.per_sm == 0)
            g_addmin_ceiling = ops / ms * 1e-6;
        snprintf(name, sizeof name, "addmin uniform %s", o.name);
        row(name, "chains x16", ms, ops / ms * 1e-9, 100.0 * ops / ms * 1e-6 / addmin_theory,
            regs_of(addmin_uniform), "-");
        auto regs = [&](auto st) {
            using ST = decltype(st);
            double t = time_ms([&] { launch_occ(addmin_regs<ST>, o.per_sm, 2, out, 1.0e-3); });
            snprintf(name, sizeof name, "addmin regs %s %s", ST::name, o.name);
            row(name, "chains x16", t, ops / t * 1e-9, 100.0 * ops / t * 1e-6 / addmin_theory,
                regs_of(addmin_regs<ST>), "-");
        };
        regs(st_fsel{});
        regs(st_sel{});
        regs(st_mix{});
    }
    {   /* the other chains, full occupancy: uniform operands, then per lane */
        int blocks = g_sms * 8 * 2;
        double ops = (double)blocks * 256 * CH_STEPS * CH * 2;
        double f32_theory = g_sms * 128.0 * 2 * g_clock_ghz;   /* FFMA, FADD + FMNMX: Gop/s */
        double f64_theory = g_sms * 64.0 * 2 * g_clock_ghz;    /* DFMA */
        header("other chains (peak.cu)", "Tops", "theory");
        auto one = [&](const char *name, auto kernel, double theory, auto... a) {
            double t = time_ms([&] { launch_occ(kernel, 0, 2, a...); });
            row(name, "chains x16", t, ops / t * 1e-9, 100.0 * ops / t * 1e-6 / theory,
                regs_of(kernel), "-");
        };
        one("fma f32 (per lane, kept)", pk_uniform<float, false>, f32_theory, (float *)out,
            0.999f, 1.0e-3f);
        one("addmin f32 uniform (old)", pk_uniform<float, true>, f32_theory, (float *)out, 0.5f,
            3.0f);
        one("addmin f32 regs (new)", pk_lanes<float, true>, f32_theory, (float *)out, 1.0e-3f);
        one("fma f64 uniform (old)", pk_uniform<double, false>, f64_theory, out, 0.999, 1.0e-3);
        one("fma f64 regs (new)", pk_lanes<double, false>, f64_theory, out, 1.0e-5);
        one("addmin f64 regs (new)", pk_lanes<double, true>, addmin_theory, out, 1.0e-3);
    }
    header("ceiling", "TFLOP/s", "theory");
    for (auto o : occs) {
        int blocks = g_sms * (o.per_sm > 0 ? o.per_sm : 8) * 2;
        double flops = (double)blocks * 8 * 1024 * 4 * (16.0 * 8 * 16 * 2);
        char name[64];
        double ms = time_ms([&] { launch_occ(dmma_chains<4>, o.per_sm, 2, out, 1.0e-3); });
        snprintf(name, sizeof name, "dmma acc4 %s", o.name);
        row(name, "chains", ms, flops / ms * 1e-9, 100.0 * flops / ms * 1e-9 / mma_theory * 1e3,
            regs_of(dmma_chains<4>), "-");
        ms = time_ms([&] { launch_occ(dmma_chains<16>, o.per_sm, 2, out, 1.0e-3); });
        snprintf(name, sizeof name, "dmma acc16 %s", o.name);
        row(name, "chains", ms, flops / ms * 1e-9, 100.0 * flops / ms * 1e-9 / mma_theory * 1e3,
            regs_of(dmma_chains<16>), "-");
    }
    CK(cudaFree(out));
}

}  // namespace tune

#include "f64-tune-mm.cuh"
#include "f64-tune-mp.cuh"

int main(int argc, char **argv)
{
    using namespace tune;
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    g_sms = prop.multiProcessorCount;
    g_bctx.dev.multiprocessors = g_sms;
    g_bctx.dev.cc_major = prop.major;
    g_bctx.dev.cc_minor = prop.minor;
    int khz = 0;
    CK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
    g_clock_ghz = khz * 1e-6;
    printf("%s, %d SMs, %.2f GHz (the ceilings' theory: 128 DMMA FMA and 64 FP64 lanes an SM a "
           "clock)\n", prop.name, g_sms, g_clock_ghz);
    bool all = argc < 2;
    std::vector<int64_t> mm_n, mp_n;
    bool ceil = all, mm = all, mp = all;
    for (int i = 1; i < argc; i++) {
        std::vector<int64_t> *sizes = NULL;
        if (!strcmp(argv[i], "ceil"))
            ceil = true;
        else if (!strcmp(argv[i], "mm"))
            mm = true, sizes = &mm_n;
        else if (!strcmp(argv[i], "mp"))
            mp = true, sizes = &mp_n;
        else {
            fprintf(stderr, "usage: %s [ceil] [mm N...] [mp N...]\n", argv[0]);
            return 2;
        }
        while (sizes && i + 1 < argc && atoll(argv[i + 1]) > 0)
            sizes->push_back(atoll(argv[++i]));
    }
    if (mm_n.empty())
        mm_n = {4096, 8192};
    if (mp_n.empty())
        mp_n = {4096, 8192};
    if (ceil)
        run_ceilings();
    if (mm) {
        if (!getenv("F64TUNE_NO_EDGES"))   /* set for a profiler: the big launches only */
            run_tma_edges();
        for (int64_t n : mm_n)
            run_matmul(n);
    }
    if (mp) {
        run_minplus_rules();
        for (int64_t n : mp_n)
            run_minplus(n);
    }
    printf("\n%s\n", g_fail ? "SOME CHECKS FAILED" : "all checks passed");
    return g_fail ? 1 : 0;
}

/*
 * peak.cu - the ceilings gpuk-bench reports percentages against, measured
 * with this backend's own micro-kernels (the optional `peak` member):
 *   COPY    device copy bandwidth, GB/s of bytes read + written: a float4
 *           grid-stride copy of 256 MiB, far above any L2, and cudaMemcpy's
 *           device-to-device copy of the same, whichever is faster;
 *   FMA     FP32 FFMA rate: 16 independent FFMA chains per thread with
 *           register operands, a full SM of warps, the instruction stream
 *           nothing but FFMA (the hardware's own rate at the clock the
 *           power cap allows), and the inner loop of a register-tiled
 *           SGEMM (an 8x8 tile fed by float4 shared loads), whichever is
 *           faster;
 *   ADDMIN  the same two on min-plus steps, c = fminf(c, a + b): one FADD
 *           and one FMNMX per element, counted as 2 ops;
 *   ADDMIN_I32    16 chains of x = min(x + y, z) on int32 (__viaddmin_s32:
 *           one VIADDMNMX on sm_90, an add and a min elsewhere), 2 ops a
 *           step: the ceiling of i32 min-plus;
 *   ADDMIN_I16X2  the same on two 16-bit lanes (__viaddmin_s16x2), 4 ops an
 *           instruction: the ceiling of a GPUK_KF_PACKED16 rung;
 *   FMA_F64 FP64 DFMA rate: FMA's chains and 8x8 tile in double;
 *   ADDMIN_F64  ADDMIN's chains and tile in double, with the step of the
 *           f64 pipelined rung (minplus.cuh, sr_f64_lt: DADD, DSETP, two
 *           FSEL; sm_90 has no DMNMX), 2 ops a step;
 *   (the chains of ADDMIN, FMA_F64 and ADDMIN_F64 take every operand from
 *   a per-lane register, as a rung's step does: peak_chains_lanes says why;
 *   FMA_F64 also times its uniform-operand chains, peak_tile_rate says why)
 *   MMA_F64 FP64 tensor-core rate: back-to-back mma.sync m16n8k16 (the
 *           DMMA.16x8x16 of matmul's dmma rung, gkc_dmma16), 4 independent
 *           accumulators a warp, as many warps as fit, 2 x 16 x 8 x 16
 *           flops an instruction;
 *   READ    read bandwidth, GB/s of bytes read: a sum of 256 MiB in
 *           contiguous chunks a block, with float4 loads, with unrolled
 *           4-byte loads, with one 4-byte load in flight a thread
 *           (reduce's smem_tree), and with all of a thread's float4 in
 *           flight at once (reduce's row_float4), whichever is fastest.
 * Each timing covers launches back to back for some 2 ms, so one
 * launch's latency from an idle device (some 5 us) is not charged to a
 * 66 us read: the bench times a short op's calls the same way
 * (bench/measure.c).  The copy and read micro-kernels are launched as the
 * memory-bound ops' kernels are (gkc_launch_pdl: the next launch overlaps
 * the last one's drain), so a ceiling and a row pay the same cost a call.
 * A ceiling a rung exceeds is a wrong ceiling (doc/design.md, "Ceilings"):
 * each is the best way this backend knows to reach the hardware's rate,
 * the median of 5 timed runs after a warm-up, on the context's stream with
 * events of its own (the user's timer is left alone).
 */
#include "cuda_internal.h"
#include "tc_common.cuh"
#include "minplus.cuh"

namespace {

constexpr int NT = 256, ROWS = 64, ITERS = 1024;

__global__ void peak_copy(const float4 *src, float4 *dst, int64_t n4)
{
    gkc_pdl_enter();
    int64_t step = (int64_t)gridDim.x * NT;
    for (int64_t i = (int64_t)blockIdx.x * NT + threadIdx.x; i < n4; i += step)
        dst[i] = src[i];
}

/* READ: a block sums one contiguous chunk of READ_CHUNK float4 (64 KiB,
 * as reduce's rungs read a row), its threads' loads coalesced, four in
 * flight a thread before any add; one float written a thread.  (A
 * grid-stride sweep over the whole buffer read 1.3% slower on the H200.) */
constexpr int READ_CHUNK = 4096;
__device__ __forceinline__ float sum4(float4 v) { return (v.x + v.y) + (v.z + v.w); }
__global__ void __launch_bounds__(NT) peak_read(const float4 *src, float *out)
{
    gkc_pdl_enter();
    const float4 *c = src + (int64_t)blockIdx.x * READ_CHUNK;
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
#pragma unroll
    for (int i = threadIdx.x; i < READ_CHUNK; i += 4 * NT) {
        float4 a = c[i], b = c[i + NT], d = c[i + 2 * NT], e = c[i + 3 * NT];
        s0 += sum4(a);
        s1 += sum4(b);
        s2 += sum4(d);
        s3 += sum4(e);
    }
    out[(int64_t)blockIdx.x * NT + threadIdx.x] = (s0 + s1) + (s2 + s3);
}

/* The same chunks with 4-byte loads, 32 a thread from 8192 floats, as
 * reduce's smem_tree reads a row: on the H200 these outran the float4
 * ones (more requests in flight for the same bytes), so the ceiling is
 * the faster of the two. */
constexpr int READ_CHUNK1 = 8192;
__global__ void __launch_bounds__(NT) peak_read_scalar(const float *src, float *out)
{
    gkc_pdl_enter();
    const float *c = src + (int64_t)blockIdx.x * READ_CHUNK1;
    float s = 0.0f;
#pragma unroll 8
    for (int i = threadIdx.x; i < READ_CHUNK1; i += NT)
        s += c[i];
    out[(int64_t)blockIdx.x * NT + threadIdx.x] = s;
}

/* Rows of READ_CHUNK1 floats, one a block, as reduce's smem_tree reads
 * them: each thread's loads one after another in a plain loop (the row
 * length is an argument, so nothing is unrolled), then a tree through
 * shared memory.  On the H200 smem_tree read 268 MB from DRAM in 62-64 us
 * (ncu: 0.3% L2 hits, so not a cache effect) where the two kernels above
 * took 66: fewer loads in flight, issued in row order, read HBM faster
 * (bench/NOTES.md, "The read ceiling"). */
__global__ void __launch_bounds__(NT) peak_read_rows(const float *src, float *out, int len)
{
    gkc_pdl_enter();
    __shared__ float sh[NT];
    const float *x = src + (int64_t)blockIdx.x * len;
    float s = 0.0f;
    for (int l = threadIdx.x; l < len; l += NT)
        s += x[l];
    sh[threadIdx.x] = s;
    for (int stride = NT / 2; stride > 0; stride /= 2) {
        __syncthreads();
        if (threadIdx.x < stride)
            sh[threadIdx.x] += sh[threadIdx.x + stride];
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = sh[0];
}

/* The same rows as reduce's row_float4 reads them: a block of 512, each
 * thread's four float4 issued before any add, so a row arrives in one
 * round trip.  On the H200 this read 8192^2 at 4448 GB/s where the three
 * above reached 4405 (bench/NOTES.md, "Rows in one round trip"); the
 * ceiling is the best of the four. */
constexpr int RNT = 512;
__global__ void __launch_bounds__(RNT) peak_read_rows4(const float4 *src, float *out)
{
    gkc_pdl_enter();
    __shared__ float sh[32];
    const float4 *x = src + (int64_t)blockIdx.x * (READ_CHUNK1 / 4);
    float4 v[4];
#pragma unroll
    for (int u = 0; u < 4; u++)
        v[u] = x[threadIdx.x + u * RNT];
    float s = (sum4(v[0]) + sum4(v[1])) + (sum4(v[2]) + sum4(v[3]));
    s = gkc_block_sum(s, sh);
    if (threadIdx.x == 0)
        out[blockIdx.x] = s;
}

/* One step of T's micro-kernels: c + a b (FFMA, DFMA), or the add+min of
 * the min-plus rungs of T (minplus.cuh): fminf for f32, the strict
 * less-than of f64 pipelined for f64. */
template <class T, bool MINPLUS>
__device__ __forceinline__ T peak_step(T c, T a, T b)
{
    if constexpr (MINPLUS)
        return sizeof(T) == 4 ? sr_f32::step(c, a, b) : sr_f64_lt::step(c, a, b);
    else if constexpr (sizeof(T) == 4)
        return fmaf(a, b, c);
    else
        return fma(a, b, c);
}

/* The shared rows cycle through 64 entries so the compiler cannot keep the
 * operands in registers across iterations: every step really loads. */
template <class T, bool MINPLUS>
__global__ void __launch_bounds__(NT) peak_tile(T *out, T seed)
{
    __shared__ __align__(16) T sa[ROWS][8];
    __shared__ __align__(16) T sb[ROWS][8];
    for (int i = threadIdx.x; i < ROWS * 8; i += NT) {
        sa[i / 8][i % 8] = seed * (T)(i % 13 + 1);
        sb[i / 8][i % 8] = seed * (T)(i % 7 + 2);
    }
    __syncthreads();
    T c[8][8];
#pragma unroll
    for (int r = 0; r < 8; r++)
#pragma unroll
        for (int q = 0; q < 8; q++)
            c[r][q] = MINPLUS ? (T)1.0e30f : (T)0;
    for (int it = 0; it < ITERS; it++) {
        int s = it & (ROWS - 1);   /* same row for the warp: a broadcast */
        T a[8], bv[8];
        gkc_ld4(a, &sa[s][0]);
        gkc_ld4(a + 4, &sa[s][4]);
        gkc_ld4(bv, &sb[s][0]);
        gkc_ld4(bv + 4, &sb[s][4]);
#pragma unroll
        for (int r = 0; r < 8; r++)
#pragma unroll
            for (int q = 0; q < 8; q++)
                c[r][q] = peak_step<T, MINPLUS>(c[r][q], a[r], bv[q]);
    }
    T sum = 0;
#pragma unroll
    for (int r = 0; r < 8; r++)
#pragma unroll
        for (int q = 0; q < 8; q++)
            sum += c[r][q];
    out[(int64_t)blockIdx.x * NT + threadIdx.x] = sum;
}

/* 16 independent chains a thread, x = x*y + z or min(x + y, z), CHAIN_STEPS
 * steps each: the dependent latency (4 cycles) is covered 16 times over,
 * so the pipes, not the chains, set the pace.  y and z come from the
 * arguments, so nothing folds at compile time. */
constexpr int CHAINS = 16, CHAIN_STEPS = 4096;
template <class T, bool MINPLUS>
__global__ void __launch_bounds__(NT) peak_chains(T *out, T y, T z)
{
    T x[CHAINS];
#pragma unroll
    for (int i = 0; i < CHAINS; i++)
        x[i] = (T)1.0f + (T)1.0e-3f * (T)(i + (int)threadIdx.x);
    for (int it = 0; it < CHAIN_STEPS; it += 4) {
#pragma unroll
        for (int u = 0; u < 4; u++)
#pragma unroll
            for (int i = 0; i < CHAINS; i++)
                x[i] = MINPLUS ? peak_step<T, true>(z, x[i], y) : peak_step<T, false>(z, x[i], y);
    }
    T sum = 0;
#pragma unroll
    for (int i = 0; i < CHAINS; i++)
        sum += x[i];
    out[(int64_t)blockIdx.x * NT + threadIdx.x] = sum;
}

/* The same 16 chains with every operand in a per-lane register, as a
 * rung's step has them: x[i] = step(x[i], x[i + 1], w[i]), chain i taking
 * its other operand from its neighbour's last value and w from a register
 * of its own, so no instruction but the step's is needed and all 16 of a
 * round are independent.  peak_chains' y and z come from the arguments,
 * and ptxas reads them from uniform registers (DADD R, R, UR; DSETP and
 * FSEL R, UR; FADD and FMNMX R, UR; DFMA R, R, UR, R: cuobjdump -sass):
 * half the register reads of a rung's step.  On the H100 the f64 add+min
 * step read 15.8 Tops so and 10.8 with per-lane operands, the rung 9.6
 * (bench/NOTES.md, "f64 ceilings with per-lane operands"), so a ceiling
 * from uniform operands is one no rung can approach.  The f32 FMA chains
 * keep peak_chains: ptxas gives them per-lane y and z already (FFMA R, R,
 * R, R), as it does the integer chains.  FMA: x[i] += x[i + 1] w[i] with
 * w about 1e-4, so 4096 rounds grow x by less than e. */
template <class T, bool MINPLUS>
__global__ void __launch_bounds__(NT) peak_chains_lanes(T *out, T d)
{
    T x[CHAINS], w[CHAINS];
#pragma unroll
    for (int i = 0; i < CHAINS; i++) {
        x[i] = (T)4.0f + d * (T)(i + (int)threadIdx.x);
        w[i] = MINPLUS ? (T)0.5f + (T)0.25f * (T)i + d * (T)threadIdx.x
                       : d * (T)(1 + (i + (int)threadIdx.x) % 7);
    }
    for (int it = 0; it < CHAIN_STEPS; it += 4) {
#pragma unroll
        for (int u = 0; u < 4; u++)
#pragma unroll
            for (int i = 0; i < CHAINS; i++)
                x[i] = MINPLUS ? peak_step<T, true>(x[i], x[(i + 1) % CHAINS], w[i])
                               : peak_step<T, false>(x[i], x[(i + 1) % CHAINS], w[i]);
    }
    T sum = 0;
#pragma unroll
    for (int i = 0; i < CHAINS; i++)
        sum += x[i];
    out[(int64_t)blockIdx.x * NT + threadIdx.x] = sum;
}

/* The integer chains: x = min(x + y, z) in one DPX instruction a step,
 * y = 1 and z above any value reached, from the arguments. */
template <bool PAIRS>
__global__ void __launch_bounds__(NT) peak_chains_int(int *out, int y, int z)
{
    unsigned x[CHAINS];
#pragma unroll
    for (int i = 0; i < CHAINS; i++)
        x[i] = (unsigned)(i + (int)threadIdx.x) & 0xff;
    for (int it = 0; it < CHAIN_STEPS; it += 4) {
#pragma unroll
        for (int u = 0; u < 4; u++)
#pragma unroll
            for (int i = 0; i < CHAINS; i++)
                x[i] = PAIRS ? __viaddmin_s16x2(x[i], (unsigned)y, (unsigned)z)
                             : (unsigned)__viaddmin_s32((int)x[i], y, z);
    }
    unsigned sum = 0;
#pragma unroll
    for (int i = 0; i < CHAINS; i++)
        sum += x[i];
    out[(int64_t)blockIdx.x * NT + threadIdx.x] = (int)sum;
}

/* Median of 5 timed runs of launch() after one warm-up, in ms a launch.
 * A run is as many launches back to back as fill PEAK_RUN_MS (at least
 * PEAK_CALLS, at most PEAK_MAX_CALLS), sized from a first run of
 * PEAK_CALLS: the bench times a short op's calls the same way
 * (bench/measure.c, BENCH_REP_MS), and a ceiling timed with fewer calls
 * carries more of the first launch's start-up than the rows it bounds. */
constexpr int PEAK_CALLS = 4, PEAK_MAX_CALLS = 200;
constexpr float PEAK_RUN_MS = 2.0f;
template <class Launch>
gpuk_status time_median(gpuk_bctx *b, const char *what, Launch launch, double *ms)
{
    cudaEvent_t e0 = NULL, e1 = NULL;
    float t[6];
    int calls = PEAK_CALLS;
    gpuk_status st = GPUK_OK;
    cudaError_t e = cudaEventCreate(&e0);
    if (e == cudaSuccess)
        e = cudaEventCreate(&e1);
    if (e == cudaSuccess) {
        launch();
        st = gkc_launched(b, "peak", what);
    }
    for (int i = 0; e == cudaSuccess && st == GPUK_OK && i < 6; i++) {
        e = cudaEventRecord(e0, b->stream);
        for (int c = 0; c < calls; c++)
            launch();
        st = gkc_launched(b, "peak", what);
        if (e == cudaSuccess && st == GPUK_OK)
            e = cudaEventRecord(e1, b->stream);
        if (e == cudaSuccess && st == GPUK_OK)
            e = cudaEventSynchronize(e1);
        if (e == cudaSuccess && st == GPUK_OK)
            e = cudaEventElapsedTime(&t[i], e0, e1);
        if (e == cudaSuccess && st == GPUK_OK) {
            t[i] /= (float)calls;
            if (i == 0 && t[0] > 0.0f && t[0] * calls < PEAK_RUN_MS) {
                float want = PEAK_RUN_MS / t[0];
                calls = want > PEAK_MAX_CALLS ? PEAK_MAX_CALLS : (int)want;
            }
        }
    }
    if (e0)
        cudaEventDestroy(e0);
    if (e1)
        cudaEventDestroy(e1);
    if (st != GPUK_OK)
        return st;
    if (e != cudaSuccess)
        return gkc_cuda_error(b, e, what);
    float *r = t + 1;                   /* the sizing run is not counted */
    for (int i = 1; i < 5; i++)         /* insertion sort of 5 */
        for (int j = i; j > 0 && r[j] < r[j - 1]; j--) {
            float x = r[j];
            r[j] = r[j - 1];
            r[j - 1] = x;
        }
    *ms = r[2];
    return GPUK_OK;
}

gpuk_status peak_copy_gbs(gpuk_bctx *b, double *value)
{
    const size_t bytes = (size_t)256 << 20;
    void *src = NULL, *dst = NULL;
    cudaError_t e = cudaMalloc(&src, bytes);
    if (e == cudaSuccess)
        e = cudaMalloc(&dst, bytes);
    gpuk_status st = GPUK_OK;
    if (e == cudaSuccess)
        e = cudaMemsetAsync(src, 0x3f, bytes, b->stream);
    if (e == cudaSuccess) {
        int64_t n4 = (int64_t)(bytes / 16);
        unsigned g = gkc_blocks(n4, NT, gkc_grid_cap(b));
        cudaStream_t s = b->stream;
        double ms = 0.0;
        st = time_median(b, "copy", [&] {
            gkc_launch_pdl(s, peak_copy, g, NT, 0, (const float4 *)src, (float4 *)dst, n4);
        }, &ms);
        if (st == GPUK_OK)
            *value = 2.0 * (double)bytes / (ms * 1.0e6);
        /* the copy engine's own device-to-device copy: the driver's best */
        double mms = 0.0;
        if (st == GPUK_OK)
            st = time_median(b, "copy (cudaMemcpy)", [&] {
                cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s);
            }, &mms);
        if (st == GPUK_OK && 2.0 * (double)bytes / (mms * 1.0e6) > *value)
            *value = 2.0 * (double)bytes / (mms * 1.0e6);
    }
    if (src)
        cudaFree(src);
    if (dst)
        cudaFree(dst);
    if (e != cudaSuccess)
        return gkc_cuda_error(b, e, "peak/copy");
    return st;
}

gpuk_status peak_read_gbs(gpuk_bctx *b, double *value)
{
    const size_t bytes = (size_t)256 << 20;
    void *src = NULL;
    cudaError_t e = cudaMalloc(&src, bytes);
    gpuk_status st = GPUK_OK;
    if (e == cudaSuccess)
        e = cudaMemsetAsync(src, 0x3f, bytes, b->stream);   /* as the copy's: not zeros */
    if (e == cudaSuccess) {
        unsigned g = (unsigned)(bytes / 16 / READ_CHUNK);   /* 256 MiB: 4096 chunks */
        void *out = NULL;
        st = gkc_scratch(b, GKC_SLOT_WORK, (size_t)g * NT * sizeof(float), &out);
        cudaStream_t s = b->stream;
        double ms = 0.0;
        if (st == GPUK_OK)
            st = time_median(b, "read", [&] {
                gkc_launch_pdl(s, peak_read, g, NT, 0, (const float4 *)src, (float *)out);
            }, &ms);
        if (st == GPUK_OK)
            *value = (double)bytes / (ms * 1.0e6);
        unsigned g1 = (unsigned)(bytes / 4 / READ_CHUNK1);
        if (st == GPUK_OK)
            st = gkc_scratch(b, GKC_SLOT_WORK, (size_t)g1 * NT * sizeof(float), &out);
        if (st == GPUK_OK)
            st = time_median(b, "read (4-byte loads)", [&] {
                gkc_launch_pdl(s, peak_read_scalar, g1, NT, 0, (const float *)src, (float *)out);
            }, &ms);
        if (st == GPUK_OK && (double)bytes / (ms * 1.0e6) > *value)
            *value = (double)bytes / (ms * 1.0e6);
        if (st == GPUK_OK)
            st = time_median(b, "read (rows, one load in flight)", [&] {
                gkc_launch_pdl(s, peak_read_rows, g1, NT, 0, (const float *)src, (float *)out,
                               READ_CHUNK1);
            }, &ms);
        if (st == GPUK_OK && (double)bytes / (ms * 1.0e6) > *value)
            *value = (double)bytes / (ms * 1.0e6);
        if (st == GPUK_OK)
            st = time_median(b, "read (rows, all loads in flight)", [&] {
                gkc_launch_pdl(s, peak_read_rows4, g1, RNT, 0, (const float4 *)src, (float *)out);
            }, &ms);
        if (st == GPUK_OK && (double)bytes / (ms * 1.0e6) > *value)
            *value = (double)bytes / (ms * 1.0e6);
    }
    if (src)
        cudaFree(src);
    if (e != cudaSuccess)
        return gkc_cuda_error(b, e, "peak/read");
    return st;
}

template <class T, bool MINPLUS>
gpuk_status peak_tile_rate(gpuk_bctx *b, double *value)
{
    constexpr bool F64 = sizeof(T) == 8;
    int64_t blocks = gkc_sms(b) * 8;
    void *out = NULL;
    GKC_TRY(gkc_scratch(b, GKC_SLOT_WORK, (size_t)(blocks * NT) * sizeof(T), &out));
    cudaStream_t s = b->stream;
    double ms = 0.0;
    const char *tile = MINPLUS ? (F64 ? "addmin f64" : "addmin") : (F64 ? "fma f64" : "fma");
    GKC_TRY(time_median(b, tile, [&] {
        peak_tile<T, MINPLUS><<<(unsigned)blocks, NT, 0, s>>>((T *)out, (T)1.0e-3f);
    }, &ms));
    double ops = (double)blocks * NT * ITERS * 64 * 2;
    *value = ops / (ms * 1.0e6);   /* Gop/s */
    /* the chains: 8 blocks of 256 an SM asked, as many as the registers
     * let fit; per-lane operands except for the f32 FMA (peak_chains_lanes) */
    const char *chains = MINPLUS ? (F64 ? "addmin f64 chains" : "addmin chains")
                                 : (F64 ? "fma f64 chains" : "fma chains");
    constexpr bool LANES = MINPLUS || F64;
    GKC_TRY(time_median(b, chains, [&] {
        if constexpr (LANES)
            peak_chains_lanes<T, MINPLUS><<<(unsigned)blocks, NT, 0, s>>>(
                (T *)out, MINPLUS ? (T)1.0e-3f : (T)1.0e-5f);
        else
            peak_chains<T, MINPLUS><<<(unsigned)blocks, NT, 0, s>>>(
                (T *)out, MINPLUS ? (T)0.5f : (T)0.999f, MINPLUS ? (T)3.0f : (T)1.0e-3f);
    }, &ms));
    double chain_ops = (double)blocks * NT * CHAIN_STEPS * CHAINS * 2;
    if (chain_ops / (ms * 1.0e6) > *value)
        *value = chain_ops / (ms * 1.0e6);
    /* f64 FMA keeps the uniform-operand chains too: per-lane DFMA chains
     * (three fresh 64-bit sources a step) read 23.5 TFLOP/s on the H100,
     * the uniform ones 33.2, the data sheet's DFMA rate; a GEMM step
     * a[i] b[j] + c reuses a[i] from the operand cache, so it reads as few
     * fresh registers as the uniform form and the data-sheet rate stays
     * the ceiling (bench/NOTES.md, "f64 ceilings with per-lane operands") */
    if constexpr (F64 && !MINPLUS) {
        GKC_TRY(time_median(b, "fma f64 chains, uniform operands", [&] {
            peak_chains<T, false><<<(unsigned)blocks, NT, 0, s>>>((T *)out, (T)0.999f,
                                                                 (T)1.0e-3f);
        }, &ms));
        if (chain_ops / (ms * 1.0e6) > *value)
            *value = chain_ops / (ms * 1.0e6);
    }
    return GPUK_OK;
}

/* MMA_F64: each warp runs DMMA_ACC independent accumulator chains of
 * gkc_dmma16 on fragments of its own (finite, small: the sums stay far
 * from overflow), DMMA_STEPS steps each; enough chains and warps that the
 * tensor core, not a chain's latency, sets the pace.  The seed comes from
 * the arguments, so nothing folds at compile time. */
constexpr int DMMA_ACC = 4, DMMA_STEPS = 1024;
__global__ void __launch_bounds__(NT) peak_dmma(double *out, double seed)
{
    int lane = threadIdx.x & 31;
    double a[8], bv[4], c[DMMA_ACC][4];
#pragma unroll
    for (int v = 0; v < 8; v++)
        a[v] = seed * (double)(lane + v + 1);
#pragma unroll
    for (int v = 0; v < 4; v++)
        bv[v] = seed * (double)(lane - v);
#pragma unroll
    for (int q = 0; q < DMMA_ACC; q++)
#pragma unroll
        for (int v = 0; v < 4; v++)
            c[q][v] = seed * (double)(q - v);
    for (int it = 0; it < DMMA_STEPS; it++)
#pragma unroll
        for (int q = 0; q < DMMA_ACC; q++)
            gkc_dmma16(c[q], a, bv);
    double sum = 0.0;
#pragma unroll
    for (int q = 0; q < DMMA_ACC; q++)
        sum += (c[q][0] + c[q][1]) + (c[q][2] + c[q][3]);
    out[(int64_t)blockIdx.x * NT + threadIdx.x] = sum;
}

gpuk_status peak_dmma_rate(gpuk_bctx *b, double *value)
{
    int64_t blocks = gkc_sms(b) * 8;
    void *out = NULL;
    GKC_TRY(gkc_scratch(b, GKC_SLOT_WORK, (size_t)(blocks * NT) * sizeof(double), &out));
    cudaStream_t s = b->stream;
    double ms = 0.0;
    GKC_TRY(time_median(b, "mma f64", [&] {
        peak_dmma<<<(unsigned)blocks, NT, 0, s>>>((double *)out, 1.0e-3);
    }, &ms));
    /* a DMMA.16x8x16 is 16 * 8 * 16 FMAs of the warp, 2 flops each */
    double flops = (double)blocks * (NT / 32) * DMMA_STEPS * DMMA_ACC * (16.0 * 8 * 16 * 2);
    *value = flops / (ms * 1.0e6);   /* GFLOP/s */
    return GPUK_OK;
}

template <bool PAIRS>
gpuk_status peak_int_rate(gpuk_bctx *b, double *value)
{
    int64_t blocks = gkc_sms(b) * 8;
    void *out = NULL;
    GKC_TRY(gkc_scratch(b, GKC_SLOT_WORK, (size_t)(blocks * NT) * sizeof(int), &out));
    cudaStream_t s = b->stream;
    double ms = 0.0;
    /* i16x2: 1 in each lane, and 0x7f00 in each lane as the bound */
    int y = PAIRS ? 0x00010001 : 1, z = PAIRS ? 0x7f007f00 : 0x3fffffff;
    GKC_TRY(time_median(b, PAIRS ? "addmin i16x2 chains" : "addmin i32 chains", [&] {
        peak_chains_int<PAIRS><<<(unsigned)blocks, NT, 0, s>>>((int *)out, y, z);
    }, &ms));
    double ops = (double)blocks * NT * CHAIN_STEPS * CHAINS * (PAIRS ? 4 : 2);
    *value = ops / (ms * 1.0e6);   /* Gop/s */
    return GPUK_OK;
}

}  // namespace

gpuk_status gkc_peak(gpuk_bctx *b, gpuk_peak kind, double *value)
{
    *value = 0.0;
    GKC_TRY(gkc_enter(b));
    switch (kind) {
    case GPUK_PEAK_COPY_GBS:
        return peak_copy_gbs(b, value);
    case GPUK_PEAK_FMA_GFLOPS:
        return peak_tile_rate<float, false>(b, value);
    case GPUK_PEAK_ADDMIN_GOPS:
        return peak_tile_rate<float, true>(b, value);
    case GPUK_PEAK_H2D_GBS:
        return gkc_peak_transfer(b, true, value);
    case GPUK_PEAK_D2H_GBS:
        return gkc_peak_transfer(b, false, value);
    case GPUK_PEAK_ADDMIN_I32_GOPS:
        return peak_int_rate<false>(b, value);
    case GPUK_PEAK_ADDMIN_I16X2_GOPS:
        return peak_int_rate<true>(b, value);
    case GPUK_PEAK_READ_GBS:
        return peak_read_gbs(b, value);
    case GPUK_PEAK_FMA_F64_GFLOPS:
        return peak_tile_rate<double, false>(b, value);
    case GPUK_PEAK_ADDMIN_F64_GOPS:
        return peak_tile_rate<double, true>(b, value);
    case GPUK_PEAK_MMA_F64_GFLOPS:
        return peak_dmma_rate(b, value);
    case GPUK_PEAK_MMA_BF16_GFLOPS:
    case GPUK_PEAK_MMA_F16_GFLOPS:
    case GPUK_PEAK_MMA_TF32_GFLOPS:
        return gkc_peak_tc(b, kind, value);   /* back-to-back wgmma (peak_tc.cu) */
    default:
        break;   /* a kind this backend has no micro-kernel for */
    }
    return gkc_fail(b, GPUK_ERR_UNSUPPORTED, "peak: unknown ceiling %d", (int)kind);
}

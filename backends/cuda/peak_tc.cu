/*
 * peak_tc.cu - the tensor-core ceilings (issue 27): GPUK_PEAK_MMA_BF16,
 * MMA_F16 and MMA_TF32_GFLOPS, measured with this backend's own
 * micro-kernel, so that no matmul row can report more than 100% of one
 * (doc/design.md, "Ceilings"; peak.cu calls gkc_peak_tc for these kinds).
 *
 * The micro-kernel: wgmma at its largest shape, m64n256k16 (k8 for tf32),
 * back to back on one accumulator, both operands in shared memory
 * (K-major, 128-byte swizzle, as the matmul rungs read them) and filled
 * with values of random mantissa in [0.5, 1), not zeros, so the tensor
 * cores toggle as they do on real data.  A warpgroup issues batches of 32
 * and keeps one batch in flight behind the next (wait_group 1); a block of
 * 2 or of 3 warpgroups per SM (shared memory keeps it to one block an
 * SM), one block per SM, every SM busy.  Each ceiling is the faster of the
 * two block sizes, the median of 5 timed launches (some 2-4 ms each)
 * after a warm-up, on the context's stream.  Built for sm_90a alone: on
 * another GPU the kinds are GPUK_ERR_UNSUPPORTED, with a message.
 */
#include "tc_hopper.cuh"

namespace {

enum tc_kind { TC_BF16, TC_F16, TC_TF32 };

constexpr int BATCH = 32, ROUNDS = 512;
constexpr int A_BYTES = 64 * 128, B_BYTES = 256 * 128;
/* more than half an SM's shared memory: one block an SM */
constexpr size_t SMEM = 120 * 1024;

/* A 32-bit word of random bits for element pair (or f32) i. */
__device__ __forceinline__ uint32_t mix(uint32_t i)
{
    i ^= i >> 16;
    i *= 0x7feb352du;
    i ^= i >> 15;
    i *= 0x846ca68bu;
    i ^= i >> 16;
    return i;
}

/* Two f16, two bf16 or one f32 in [0.5, 1), random mantissas. */
template <int KIND>
__device__ __forceinline__ uint32_t word(uint32_t i)
{
    uint32_t h = mix(i);
    if (KIND == TC_F16)
        return 0x38003800u | (h & 0x03ff03ffu);
    if (KIND == TC_BF16)
        return 0x3f003f00u | (h & 0x007f007fu);
    return 0x3f000000u | (h & 0x007fffffu);
}

template <int KIND, int NWG>
__global__ void __launch_bounds__(NWG * 128, 1) peak_wgmma(float *out)
{
    extern __shared__ unsigned char smem_raw[];
    unsigned char *sm = tc_align1024(smem_raw);
    for (int i = threadIdx.x; i < (A_BYTES + B_BYTES) / 4; i += NWG * 128)
        ((uint32_t *)sm)[i] = word<KIND>((uint32_t)(blockIdx.x * 65536 + i));
    /* ordinary stores, read next by the tensor cores (async proxy) */
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    __syncthreads();
    float acc[128];
    uint64_t da = tc_desc(sm, 16, 1024), db = tc_desc(sm + A_BYTES, 16, 1024);
    for (int r = 0; r < ROUNDS; r++) {
        tc_wgmma_fence();
#pragma unroll
        for (int i = 0; i < BATCH; i++) {
            /* the 4 k steps of the 128-byte rows in turn: +32 bytes, 2 units */
            uint64_t step = (uint64_t)(2 * (i & 3));
            int keep = r > 0 || i > 0;
            if (KIND == TC_TF32)
                tc_wgmma_tf32_ss(acc, da + step, db + step, keep);
            else if (KIND == TC_BF16)
                tc_wgmma_n256<__nv_bfloat16, 0, 0>(acc, da + step, db + step, keep);
            else
                tc_wgmma_n256<__half, 0, 0>(acc, da + step, db + step, keep);
        }
        tc_wgmma_commit();
        tc_wgmma_wait<1>();
    }
    tc_wgmma_wait<0>();
    tc_fence_acc(acc);
    float s = 0.0f;
#pragma unroll
    for (int i = 0; i < 128; i++)
        s += acc[i];
    out[(int64_t)blockIdx.x * NWG * 128 + threadIdx.x] = s;
}

/* Median of 5 timed launches after one, in ms. */
template <class Launch>
gpuk_status median_ms(gpuk_bctx *b, const char *what, Launch launch, double *ms)
{
    cudaEvent_t e0 = NULL, e1 = NULL;
    float t[5] = {0};
    cudaError_t e = cudaEventCreate(&e0);
    if (e == cudaSuccess)
        e = cudaEventCreate(&e1);
    gpuk_status st = GPUK_OK;
    if (e == cudaSuccess) {
        launch();
        st = gkc_launched(b, "peak", what);
    }
    for (int i = 0; e == cudaSuccess && st == GPUK_OK && i < 5; i++) {
        e = cudaEventRecord(e0, b->stream);
        if (e == cudaSuccess) {
            launch();
            st = gkc_launched(b, "peak", what);
        }
        if (e == cudaSuccess && st == GPUK_OK)
            e = cudaEventRecord(e1, b->stream);
        if (e == cudaSuccess && st == GPUK_OK)
            e = cudaEventSynchronize(e1);
        if (e == cudaSuccess && st == GPUK_OK)
            e = cudaEventElapsedTime(&t[i], e0, e1);
    }
    if (e0)
        cudaEventDestroy(e0);
    if (e1)
        cudaEventDestroy(e1);
    if (st != GPUK_OK)
        return st;
    if (e != cudaSuccess)
        return gkc_cuda_error(b, e, what);
    for (int i = 1; i < 5; i++)
        for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
            float x = t[j];
            t[j] = t[j - 1];
            t[j - 1] = x;
        }
    *ms = t[2];
    return GPUK_OK;
}

/* GFLOP/s of one block size. */
template <int KIND, int NWG>
gpuk_status rate(gpuk_bctx *b, double *gflops)
{
    int64_t blocks = gkc_sms(b);
    void *out = NULL;
    GKC_TRY(gkc_scratch(b, GKC_SLOT_WORK, (size_t)(blocks * NWG * 128) * sizeof(float), &out));
    auto kern = peak_wgmma<KIND, NWG>;
    GKC_CUDA(b, cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)SMEM),
             "peak: cudaFuncSetAttribute");
    cudaStream_t s = b->stream;
    double ms = 0.0;
    GKC_TRY(median_ms(b, KIND == TC_TF32 ? "mma tf32" : KIND == TC_BF16 ? "mma bf16" : "mma f16",
                      [&] { kern<<<(unsigned)blocks, NWG * 128, SMEM, s>>>((float *)out); }, &ms));
    double k = KIND == TC_TF32 ? 8.0 : 16.0;
    double flops = (double)blocks * NWG * ROUNDS * BATCH * 2.0 * 64.0 * 256.0 * k;
    *gflops = flops / (ms * 1.0e6);
    return GPUK_OK;
}

template <int KIND>
gpuk_status best(gpuk_bctx *b, double *value)
{
    double two = 0.0, three = 0.0;
    gpuk_status st = rate<KIND, 2>(b, &two);
    if (st == GPUK_OK)
        st = rate<KIND, 3>(b, &three);
    if (st != GPUK_OK)
        return st;
    *value = two > three ? two : three;
    return GPUK_OK;
}

}  // namespace

gpuk_status gkc_peak_tc(gpuk_bctx *b, gpuk_peak kind, double *value)
{
    *value = 0.0;
    GKC_TRY(gkc_enter(b));
    if (!gkc_tc_hopper(b))
        return gkc_fail(b, GPUK_ERR_UNSUPPORTED,
                        "peak: the tensor-core micro-kernel is wgmma (sm_90a), which needs "
                        "compute capability 9.0; this device is %d.%d",
                        b->dev.cc_major, b->dev.cc_minor);
    switch (kind) {
    case GPUK_PEAK_MMA_BF16_GFLOPS:
        return best<TC_BF16>(b, value);
    case GPUK_PEAK_MMA_F16_GFLOPS:
        return best<TC_F16>(b, value);
    case GPUK_PEAK_MMA_TF32_GFLOPS:
        return best<TC_TF32>(b, value);
    default:
        break;
    }
    return gkc_fail(b, GPUK_ERR_UNSUPPORTED, "peak: no tensor-core micro-kernel for ceiling %d",
                    (int)kind);
}

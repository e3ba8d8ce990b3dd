/*
 * tc_common.cu - the host side the tensor-core matmul rungs share
 * (tc_common.cuh): the operands of a call, the calls with no products,
 * the 16-byte test of the copy engines, and the TMA tensor maps of the
 * wgmma rungs.
 */
#include <atomic>
#include <string.h>
#include <cudaTypedefs.h>
#include "tc_common.cuh"

namespace {

constexpr int NT = 256;

/* c = bias[j] on every row (MATMUL), beta c (GEMM, c read only when beta
 * != 0), or 0: the result of a product with k = 0, or with alpha = 0. */
template <class T>
__global__ void tc_fill(gkc_tc p)
{
    int64_t mn = p.m * p.n, total = p.batch * mn, step = (int64_t)gridDim.x * NT;
    for (int64_t e = (int64_t)blockIdx.x * NT + threadIdx.x; e < total; e += step) {
        int64_t z = e / mn, rem = e - z * mn, i = rem / p.n, j = rem - i * p.n;
        void *cz = tc_c_at(p, z);
        int64_t o = i * p.ldc + j;
        float v = 0.0f;
        if (p.bias)
            v = tc_out_load<T>(p, p.bias, j);
        else if (p.beta != 0.0f)
            v = p.beta * tc_out_load<T>(p, cz, o);
        if (p.out16)
            ((T *)cz)[o] = tc_round<T>(v);
        else
            ((float *)cz)[o] = v;
    }
}

/* cols rounded up to 8 elements: a stride for a matrix of one row */
int64_t one_row_stride(int64_t cols)
{
    return cols > 8 ? (cols + 7) / 8 * 8 : 8;
}

/* cuTensorMapEncodeTiled, found once through the runtime (the plugin does
 * not link the driver library: backend.cu).  NULL when the driver has none. */
PFN_cuTensorMapEncodeTiled_v12000 encode_fn()
{
    static std::atomic<int> state{0};   /* 0: not looked up, 1: found, -1: absent */
    static std::atomic<PFN_cuTensorMapEncodeTiled_v12000> fn{nullptr};
    if (state.load(std::memory_order_acquire) == 0) {
        void *f = nullptr;
        cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
        cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000,
                                                         cudaEnableDefault, &q);
        if (e == cudaSuccess && q == cudaDriverEntryPointSuccess && f) {
            fn.store((PFN_cuTensorMapEncodeTiled_v12000)f, std::memory_order_relaxed);
            state.store(1, std::memory_order_release);
        } else {
            (void)cudaGetLastError();
            state.store(-1, std::memory_order_release);
        }
    }
    return state.load(std::memory_order_acquire) == 1 ? fn.load(std::memory_order_relaxed)
                                                      : nullptr;
}

}  // namespace

gkc_tc gkc_tc_from(const gpuk_args *args)
{
    const gpuk_tdesc *A = &args->in[0], *B = &args->in[1], *C = &args->out;
    int d = args->op == GPUK_OP_BATCHED_MATMUL;   /* batched operands are [B, rows, cols] */
    gkc_tc p;
    memset(&p, 0, sizeof p);
    p.a = A->data;
    p.b = B->data;
    p.c = C->data;
    p.bias = args->op == GPUK_OP_MATMUL && args->has_bias ? args->in[2].data : NULL;
    p.m = C->shape[d];
    p.n = C->shape[d + 1];
    if (args->op == GPUK_OP_GEMM) {
        p.ta = args->trans_a != 0;
        p.tb = args->trans_b != 0;
        p.alpha = args->alpha;
        p.beta = args->beta;
    } else {
        p.alpha = 1.0f;
        p.beta = 0.0f;
    }
    p.k = p.ta ? A->shape[d] : A->shape[d + 1];
    p.lda = A->shape[d] > 1 ? A->stride[d] : one_row_stride(A->shape[d + 1]);
    p.ldb = B->shape[d] > 1 ? B->stride[d] : one_row_stride(B->shape[d + 1]);
    p.ldc = C->stride[d];
    p.batch = d ? C->shape[0] : 1;
    p.sa = p.batch > 1 ? A->stride[0] : 0;
    p.sb = p.batch > 1 ? B->stride[0] : 0;
    p.sc = p.batch > 1 ? C->stride[0] : 0;
    p.bf16 = args->dtype == GPUK_BF16;
    p.out16 = args->dtype != GPUK_F32 && C->dtype == args->dtype;
    p.op = args->op == GPUK_OP_GEMM ? "gemm" : d ? "batched_matmul" : "matmul";
    return p;
}

gpuk_status gkc_tc_begin(gpuk_bctx *b, const gpuk_args *args, const char *variant, gkc_tc *p,
                         int *done)
{
    *done = 0;
    GKC_TRY(gkc_enter(b));
    *p = gkc_tc_from(args);
    if (p->k > 0 && p->alpha != 0.0f)
        return GPUK_OK;
    *done = 1;
    unsigned g = gkc_blocks(p->batch * p->m * p->n, NT, gkc_grid_cap(b));
    if (p->bf16)
        tc_fill<__nv_bfloat16><<<g, NT, 0, b->stream>>>(*p);
    else
        tc_fill<__half><<<g, NT, 0, b->stream>>>(*p);
    GKC_LAUNCHED(b, p->op, variant);
    return GPUK_OK;
}

int gkc_tc_rows16(const gkc_tc *p, int esize)
{
    return gkc_aligned16(p->a) && gkc_aligned16(p->b) && (p->lda * esize) % 16 == 0 &&
           (p->ldb * esize) % 16 == 0 && (p->sa * esize) % 16 == 0 && (p->sb * esize) % 16 == 0;
}

gpuk_status gkc_tc_tensor_map(gpuk_bctx *b, CUtensorMap *map, const void *base, int esize, int bf16,
                              int64_t rows, int64_t cols, int64_t ld, int64_t batch, int64_t sbatch,
                              int box_cols, int box_rows, int *ok)
{
    (void)b;
    *ok = 0;
    const int64_t lim = (int64_t)1 << 31;
    if (!gkc_aligned16(base) || (ld * esize) % 16 != 0 || ld <= 0 || (sbatch * esize) % 16 != 0 ||
        rows >= lim || cols >= lim || batch >= lim || rows < 1 || cols < 1)
        return GPUK_OK;
    PFN_cuTensorMapEncodeTiled_v12000 encode = encode_fn();
    if (!encode)
        return GPUK_OK;
    /* an operand every batch shares is a batch of one: its batch
     * coordinate is always 0, and its batch stride, never used, any legal
     * value */
    int64_t nb = sbatch ? batch : 1;
    int64_t whole = (rows * ld * esize + 15) / 16 * 16;
    cuuint64_t dim[3] = {(cuuint64_t)cols, (cuuint64_t)rows, (cuuint64_t)nb};
    cuuint64_t stride[2] = {(cuuint64_t)(ld * esize),
                            (cuuint64_t)(sbatch ? sbatch * esize : whole)};
    cuuint32_t box[3] = {(cuuint32_t)box_cols, (cuuint32_t)box_rows, 1};
    cuuint32_t estride[3] = {1, 1, 1};
    CUtensorMapDataType ty = esize == 4 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32
                             : bf16     ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                                        : CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    CUresult r = encode(map, ty, 3, (void *)base, dim, stride, box, estride,
                        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                        CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    *ok = r == CUDA_SUCCESS;
    return GPUK_OK;
}

gpuk_status gkc_tc_maps16(gpuk_bctx *b, const gkc_tc &p, int box_a, int box_b, CUtensorMap *ma,
                          CUtensorMap *mb, int *ok)
{
    /* stored shapes: a is [m][k] or (ta) [k][m]; b is [k][n] or (tb) [n][k] */
    GKC_TRY(gkc_tc_tensor_map(b, ma, p.a, 2, p.bf16, p.ta ? p.k : p.m, p.ta ? p.m : p.k, p.lda,
                              p.batch, p.sa, 64, p.ta ? 64 : box_a, ok));
    if (*ok)
        GKC_TRY(gkc_tc_tensor_map(b, mb, p.b, 2, p.bf16, p.tb ? p.n : p.k, p.tb ? p.k : p.n,
                                  p.ldb, p.batch, p.sb, 64, p.tb ? box_b : 64, ok));
    return GPUK_OK;
}

gpuk_status gkc_tc_map_c(gpuk_bctx *b, const gkc_tc &p, int box_rows, CUtensorMap *mc, int *ok)
{
    int esize = p.out16 ? 2 : 4;
    *ok = 0;
    if ((p.n * esize) % 16 != 0)
        return GPUK_OK;   /* a store's last chunk would pass column n (tc_common.cuh) */
    /* a c of one row: its stride is never used (gkc_tc_from) */
    int64_t ld = p.m > 1 ? p.ldc : one_row_stride(p.n);
    return gkc_tc_tensor_map(b, mc, p.c, esize, p.bf16, p.m, p.n, ld, p.batch, p.sc, 128 / esize,
                             box_rows, ok);
}

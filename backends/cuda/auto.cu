/*
 * auto.cu - the CUDA backend's built-in rules for "auto" (plugin ABI 2.3,
 * gpuk_backend.auto_variant): which rung a call runs when the caller names
 * none and no wisdom file settles it (doc/design.md, "Choosing a rung").
 *
 * The rules are the output of bench/auto-rules.py over the H200's ladders
 * (bench/results/nvidia-h200.csv, 132 SMs), and nothing else: each names
 * the rung that was within 3% of the fastest at every measured size of
 * its class range, where the DEFAULT row of table.cu was not.  What they
 * say: small problems do not fill 132 SMs with the big tiles of the
 * DEFAULT rungs, so smaller tiles win there (min-plus at 256^2: tiled is
 * 4x faster than pipelined; at 1024^2 regtile_4x4 1.5x; matmul at 256^3:
 * tiled 1.5x faster than cuBLAS); the hand-written SpMV rungs beat
 * cuSPARSE (adaptive 1.4x on the smallest matrix, stream 1.02-1.22x from
 * 4M nonzeros on, the power-law matrices included); a warp per output (warp_shuffle) is the
 * fastest reduction along contiguous rows of 1024 to 8192 outputs.
 * Two rules of that first set went when the run of 2026-11-24 (back-to-back
 * timing; bench/results/README.md lists it "In git history") found the DEFAULT rung
 * ahead: cuBLAS over warptile_wide at 1024^3 (by 8%), and one_pass, now
 * sized to the row, over block_row on 1024-long rows (by 13%).  The run
 * of the session that added the hand-written dot and gemv rungs and
 * programmatic dependent launch (run "c" of that day, in git history)
 * gave three more: last_block over cuBLAS's dot (1.06-2.5x), float4 over
 * cuBLAS's gemv (1.3-1.8x), and a block a row as the reduction along
 * contiguous rows (smem_tree, 3-7% ahead of warp_shuffle; since then
 * row_float4, below).  It also named coalesced
 * for copies of 64K floats, a launch-bound 4 us call where both rungs sit
 * within the timing's own spread: not taken.
 *
 * Classes outside the measured range take the rule of the nearest
 * measured class; a boundary lies halfway between two measured classes.
 * The rules were measured on one device and are used on every one: on
 * another GPU, gpuk-tune measures its own (GPUK_WISDOM).
 *
 * A rule is keyed by (op, dtype, class range): each dtype has its own
 * ladder and its own measurements, so a rule of one dtype never answers
 * for another (an f32 rule naming a rung the f64 ladder lacks, or one
 * measured on another instruction mix, would be wrong there).  An (op,
 * dtype) with no rule runs its DEFAULT row: so f64 until its ladders are
 * measured, and every op of another family until its owner adds rows
 * here.
 */
#include <gpuk/backend.h>

#include <stddef.h>

typedef struct gkc_rule {
    gpuk_op op;
    gpuk_dtype dtype;
    int lo, hi;              /* the shape classes it covers, inclusive */
    const char *variant;
} gkc_rule;

#define ANY_HI 127

static const gkc_rule rules[] = {
    /* f32: bench/auto-rules.py, "cuda on nvidia-h200" */
    {GPUK_OP_MATMUL, GPUK_F32, 0, 27, "tiled"},          /* 256^3: cublas 1.47x slower */
    {GPUK_OP_BATCHED_MATMUL, GPUK_F32, 0, 25, "tiled"},  /* 64^3 b16: cublas 1.75x */
    {GPUK_OP_MINPLUS, GPUK_F32, 0, 18, "tiled"},         /* 256^2: pipelined 3.96x */
    {GPUK_OP_MINPLUS, GPUK_F32, 19, 21, "regtile_4x4"},  /* 1024^2: pipelined 1.50x */
    {GPUK_OP_SPMV, GPUK_F32, 0, 25, "adaptive"},         /* 262144 rows x 16: cusparse 1.40x */
    {GPUK_OP_SPMV, GPUK_F32, 26, ANY_HI, "stream"},   /* 4M x 16, power-law: cusparse 1.02-1.22x */
    {GPUK_OP_DOT, GPUK_F32, 0, ANY_HI, "last_block"}, /* 1M, 16M, 64M: cublas 2.5x, 1.15x, 1.06x */
    {GPUK_OP_GEMV, GPUK_F32, 0, ANY_HI, "float4"},    /* 1024^2 - 8192^2: cublas 1.8x, 1.3x, 1.4x */

    /* i32 min-plus, from the H200 run of 2026-11-24
     * (that day's first full run, in git history; weights in [0, 2^13), 1
     * in 64 missing): at 256^2 the one-thread-an-output naive rung beats
     * the tiled ones, whose 128x128 tiles leave most SMs idle (dpx 1.10x
     * slower); at 1024^2 dpx, the default, is best (dpx_i16x2's pre-pass
     * and half-size tiles cost 22%); from 2048^2 on, dpx_i16x2 (1.54x at
     * 2048, 1.85x at 4096).  On values outside its 16-bit range dpx_i16x2
     * runs dpx after a pre-pass of m k + k n reads, about 1-2% of the call
     * at these sizes. */
    {GPUK_OP_MINPLUS, GPUK_I32, 0, 18, "naive"},
    {GPUK_OP_MINPLUS, GPUK_I32, 22, ANY_HI, "dpx_i16x2"},

    /* f16 and bf16 matrix products: bench/auto-rules.py --dtype f16 (and
     * bf16) over the H100's 16-bit run (bench/results/nvidia-h100-2026-11-27-16bit.csv,
     * 132 SMs), the same rules for both.  At 256^3 one or two 128 x 256
     * tiles cannot fill the GPU and a call is latency: wgmma_tma (one
     * warpgroup, no cluster to form) is 1.3-1.9x faster than cuBLAS; a
     * batch of 16 64^3 or 256^3 products runs best on wgmma_streamk
     * (cuBLAS 1.35-2.3x slower).  From 1024^3 (512^3 b16) cuBLAS, the
     * DEFAULT, is within 3% of the best everywhere measured.  The script
     * also named coalesced for f16 scale of 64K elements, a 4 us call
     * where float4 timed in turns with it was 0.5% faster: not taken. */
    {GPUK_OP_MATMUL, GPUK_F16, 0, 27, "wgmma_tma"},            /* 256^3: cublas 1.90x */
    {GPUK_OP_MATMUL, GPUK_BF16, 0, 27, "wgmma_tma"},           /* 256^3: cublas 1.75x */
    {GPUK_OP_GEMM, GPUK_F16, 0, 27, "wgmma_tma"},              /* 256^3: cublas 1.29x */
    {GPUK_OP_GEMM, GPUK_BF16, 0, 27, "wgmma_tma"},             /* 256^3: cublas 1.74x */
    {GPUK_OP_BATCHED_MATMUL, GPUK_F16, 0, 29, "wgmma_streamk"},   /* 64^3 b16: cublas 2.28x */
    {GPUK_OP_BATCHED_MATMUL, GPUK_BF16, 0, 29, "wgmma_streamk"},  /* 64^3 b16: cublas 1.96x */

    /* f64: bench/auto-rules.py --dtype f64 over the H100's first full
     * f64 run (bench/results/nvidia-h100-2026-11-27-f64.csv), where auto
     * ran the DEFAULT rows and was within 5% of the best rung in 61 of 73
     * cases.  The same small-size shapes as f32: a batch of 64^3 products
     * and min-plus up to 1024^2 do not fill the GPU with cuBLAS's or
     * pipelined's tiles; dot and gemv are cuBLAS calls a hand-written rung
     * beats at every size; spmv is adaptive's on uniform rows, stream's on
     * power-law ones; Floyd-Warshall's blocks of 512 halve the passes over
     * d from 2048 vertices on and cost 0.7% at 1024.  Matrix products from
     * 256^3 on stay with cuBLAS's DGEMM, the DEFAULT.  The script also named
     * coalesced for scale and relu of 64K elements, 4 us calls within the
     * timing's spread: not taken. */
    {GPUK_OP_BATCHED_MATMUL, GPUK_F64, 0, 25, "tiled"},   /* 64^3 b16: cublas 1.70x */
    {GPUK_OP_MINPLUS, GPUK_F64, 0, 18, "tiled"},          /* 256^2: pipelined 8.2x */
    {GPUK_OP_MINPLUS, GPUK_F64, 19, 21, "regtile_4x4"},   /* 1024^2: pipelined 1.17x */
    {GPUK_OP_SPMV, GPUK_F64, 0, 29, "adaptive"},          /* 262144 rows x 16: cusparse 1.34x */
    {GPUK_OP_SPMV, GPUK_F64, 30, ANY_HI, "stream"},       /* power-law: cusparse 1.01-1.08x */
    {GPUK_OP_DOT, GPUK_F64, 0, ANY_HI, "last_block"},     /* 1M: cublas 1.41x */
    {GPUK_OP_GEMV, GPUK_F64, 0, ANY_HI, "float4"},        /* 1024^2: cublas 2.10x */
    {GPUK_OP_APSP, GPUK_F64, 0, ANY_HI, "blocked_512"},   /* 2048-8192: blocked_256 1.12-1.25x */
};

/* Contiguous rows, 1024 outputs or more: row_float4 gives each output a
 * block of 512 with all its loads in flight, and on rows of 4096 and 8192
 * floats beat smem_tree by 2-5% and lanes_inner by 6-19% in every run of
 * session 5 (bench/results/nvidia-h200-2026-11-24e.md and after); rows it
 * cannot read as float4 go to smem_tree inside it.  On rows of 1024 half
 * its threads have nothing to load, and warp_shuffle (a warp an output)
 * was faster in two runs of three (by 5% and, timed in turns, 20%), so
 * rows under GKC_REDUCE_ROW_FLOAT4_LEN keep warp_shuffle.  Fewer outputs
 * leave SMs idle (one output would be one block on the whole GPU), and a
 * non-last axis is lanes_inner's own case: both stay with it. */
#define GKC_REDUCE_ROW_FLOAT4_LEN 2048
#define GKC_REDUCE_ROWS_MIN_OUTPUTS 1024
/* f16 and bf16 take the same rule, their rows twice as long for the same
 * bytes: at 8192 x 8192 row_float4 read 97% of the read ceiling on the
 * H100, smem_tree 86%, warp_shuffle 78% and lanes_inner, their DEFAULT,
 * 38% (2026-11-27, bench/NOTES.md, "The GPU's 16-bit rows").  Only that
 * size was measured: the length bound is f32's in bytes.  f64 rows of 1024
 * to 8192 (8 to 64 KB) read fastest with row_float4 too, lanes_inner 1.6-
 * 3.4% behind (the H100's f64 run). */
#define GKC_REDUCE_ROW_FLOAT4_BYTES (4 * GKC_REDUCE_ROW_FLOAT4_LEN)

/* The bytes of an element of a float dtype, 0 for any other: the sizes
 * and precisions of GPUK_DTYPE_MAP, the dtypes' one list. */
static int64_t float_bytes(gpuk_dtype dt)
{
#define GKC_FLOAT_BYTES_(id, value, name, bytes, dlcode, prec) \
    if (dt == GPUK_##id && (prec) > 0)                        \
        return bytes;
    GPUK_DTYPE_MAP(GKC_FLOAT_BYTES_)
#undef GKC_FLOAT_BYTES_
    return 0;
}

extern "C" const char *gkc_auto_variant(gpuk_bctx *b, const gpuk_args *args, int shape_class);

extern "C" const char *gkc_auto_variant(gpuk_bctx *b, const gpuk_args *args, int shape_class)
{
    (void)b;
    const int64_t esize = float_bytes(args->dtype);
    if (args->op == GPUK_OP_REDUCE && esize > 0) {
        /* canonical x[outer, len, inner] */
        const gpuk_tdesc *x = &args->in[0];
        if (x->shape[2] != 1 || x->shape[0] < GKC_REDUCE_ROWS_MIN_OUTPUTS)
            return NULL;
        return x->shape[1] * esize >= GKC_REDUCE_ROW_FLOAT4_BYTES ? "row_float4" : "warp_shuffle";
    }
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (rules[i].op == args->op && rules[i].dtype == args->dtype &&
            shape_class >= rules[i].lo && shape_class <= rules[i].hi)
            return rules[i].variant;
    return NULL;
}

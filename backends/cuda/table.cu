/*
 * table.cu - the one kernel table of backend_cuda.so.  Core, tests, bench
 * and gpuk-info iterate it; adding a variant is one function and one row.
 * Rows of an op are in ladder order (naive first, libraries last); the
 * DEFAULT row is the fastest rung we have for that op.
 */
#include "cuda_internal.h"

#define DEF GPUK_KF_DEFAULT
#define LIB GPUK_KF_LIBRARY
#define TF32 GPUK_KF_TF32

const gpuk_kernel gkc_kernels[] = {
    {GPUK_OP_MATMUL, "naive", 0, gkc_matmul_naive,
     "one thread per output, consecutive threads on consecutive rows: every A load of a warp is a separate transaction"},
    {GPUK_OP_MATMUL, "coalesced", 0, gkc_matmul_coalesced,
     "consecutive threads on consecutive columns: B loads coalesce into one transaction, A is a broadcast"},
    {GPUK_OP_MATMUL, "tiled", 0, gkc_matmul_tiled,
     "16x16 shared-memory tiles: each loaded element is reused 16 times from shared memory"},
    {GPUK_OP_MATMUL, "blocktile_1d", 0, gkc_matmul_blocktile_1d,
     "64x64 block tile, 8 outputs (a column) per thread: one shared B value feeds 8 FMAs from registers"},
    {GPUK_OP_MATMUL, "blocktile_2d", 0, gkc_matmul_blocktile_2d,
     "128x128 block tile, 8x8 outputs per thread: 16 shared loads feed 64 FMAs"},
    {GPUK_OP_MATMUL, "vec4", 0, gkc_matmul_vec4,
     "float4 global and shared loads, A transposed in shared memory: 4 shared load instructions per 64 FMAs"},
    {GPUK_OP_MATMUL, "warptile", 0, gkc_matmul_warptile,
     "32x64 warp tiles, each lane's 8x8 split in four 4x4 pieces: conflict-free float4 shared reads"},
    {GPUK_OP_MATMUL, "warptile_db", 0, gkc_matmul_warptile_db,
     "warptile fed by a 3-stage cp.async pipeline, k slices of 16, one barrier a slice; split-k on small outputs"},
    {GPUK_OP_MATMUL, "warptile_at", 0, gkc_matmul_warptile_at,
     "warptile_db with A transposed by 4-byte copies: 16 live fragment registers instead of 40, fewer dispatch stalls"},
    {GPUK_OP_MATMUL, "warptile_wide", 0, gkc_matmul_warptile_wide,
     "warptile_at on a 128x256 tile, 8x16 per lane, one 8-warp block per SM, k slices of 32: 128 FMAs per 6 shared loads"},
    {GPUK_OP_MATMUL, "cublas", DEF | LIB, gkc_matmul_cublas,
     "cuBLAS SGEMM, FP32 pedantic math (no TF32)"},
    {GPUK_OP_MATMUL, "cublas_tf32", LIB | TF32, gkc_matmul_cublas_tf32,
     "cuBLAS SGEMM on TF32 tensor cores: 10-bit mantissa inputs, FP32 accumulation"},

    {GPUK_OP_BATCHED_MATMUL, "tiled", 0, gkc_batched_tiled,
     "16x16 shared tiles per batch: each input cell read once per tile pass, one global write per output"},
    {GPUK_OP_BATCHED_MATMUL, "cublas", DEF | LIB, gkc_batched_cublas,
     "cuBLAS strided-batched SGEMM, FP32 pedantic; a broadcast batch has stride 0"},

    {GPUK_OP_MINPLUS, "v0", 0, gkc_minplus_v0,
     "one thread per output, consecutive threads on consecutive rows: strided, uncoalesced loads of a"},
    {GPUK_OP_MINPLUS, "v1", 0, gkc_minplus_v1,
     "a transposed into a scratch buffer first, so a warp's loads of it are consecutive"},
    {GPUK_OP_MINPLUS, "v2", 0, gkc_minplus_v2,
     "16x16 shared-memory tiles: each global load serves 16 threads"},
    {GPUK_OP_MINPLUS, "v3", 0, gkc_minplus_v3,
     "4x4 outputs per thread: each shared-memory load feeds 4 add+min steps from registers"},
    {GPUK_OP_MINPLUS, "v4", 0, gkc_minplus_v4,
     "8x8 outputs per thread from float4 shared loads and float4 tile loads: 16 add+min per loaded float"},
    {GPUK_OP_MINPLUS, "v5", DEF, gkc_minplus_v5,
     "v4's 8x8 tile fed by a 3-stage cp.async pipeline, k slices of 16: copies fly while the add+min loop runs"},

    {GPUK_OP_TRANSPOSE, "naive", 0, gkc_transpose_naive,
     "one thread per element: coalesced reads, writes strided by the row length"},
    {GPUK_OP_TRANSPOSE, "smem", 0, gkc_transpose_smem,
     "32x32 shared tile: reads and writes both coalesced, but the column reads of the tile hit one bank"},
    {GPUK_OP_TRANSPOSE, "smem_padded", 0, gkc_transpose_smem_padded,
     "tile padded to [32][33]: a column of the tile spans all 32 banks, no conflicts"},
    {GPUK_OP_TRANSPOSE, "tile64", DEF, gkc_transpose_tile64,
     "64x64 padded tile, 16 elements per thread, all 16 loads issued before the first shared store: 16 loads in flight, not 1-2"},

    {GPUK_OP_REDUCE, "smem_tree", 0, gkc_reduce_smem_tree,
     "one block per output: strided partial sums, then a shared-memory tree with a barrier per level"},
    {GPUK_OP_REDUCE, "warp_shuffle", 0, gkc_reduce_warp_shuffle,
     "one warp per output, reduced with register shuffles: no shared memory, no barriers"},
    {GPUK_OP_REDUCE, "grid_stride", 0, gkc_reduce_grid_stride,
     "several blocks per long output (grid-stride), block partials combined by a second pass: fills the GPU for any shape"},
    {GPUK_OP_REDUCE, "lanes_inner", DEF, gkc_reduce_lanes_inner,
     "along a non-last axis, lanes walk the inner dimension: a 128-byte line (float4: 512) per warp load; contiguous rows go to grid_stride"},

    {GPUK_OP_ADD, "coalesced", 0, gkc_add_coalesced, "grid-stride loop, one float per thread per step"},
    {GPUK_OP_ADD, "float4", DEF, gkc_add_float4, "16-byte loads and stores; scalar head and tail; scalar path when misaligned"},
    {GPUK_OP_SCALE, "coalesced", 0, gkc_scale_coalesced, "grid-stride loop, one float per thread per step"},
    {GPUK_OP_SCALE, "float4", DEF, gkc_scale_float4, "16-byte loads and stores; scalar head and tail; scalar path when misaligned"},
    {GPUK_OP_RELU, "coalesced", 0, gkc_relu_coalesced, "grid-stride loop, one float per thread per step"},
    {GPUK_OP_RELU, "float4", DEF, gkc_relu_float4, "16-byte loads and stores; scalar head and tail; scalar path when misaligned"},
    {GPUK_OP_BIAS_RELU, "coalesced", 0, gkc_bias_relu_coalesced, "grid-stride loop, one float per thread per step"},
    {GPUK_OP_BIAS_RELU, "float4", DEF, gkc_bias_relu_float4, "16-byte loads of x, bias and out when rows are 16-byte aligned; else the scalar path"},
    {GPUK_OP_COPY, "coalesced", 0, gkc_copy_coalesced, "grid-stride loop, one float per thread per step"},
    {GPUK_OP_COPY, "float4", DEF, gkc_copy_float4, "16-byte loads and stores; scalar head and tail; scalar path when misaligned"},

    {GPUK_OP_SOFTMAX, "block_row", 0, gkc_softmax_block_row,
     "one block per row: block max, block sum of exp(x - max), normalize (numerically stable)"},
    {GPUK_OP_SOFTMAX, "online", 0, gkc_softmax_online,
     "one sweep keeps a running max and rescaled sum (online softmax), a second writes: two reads, not three"},
    {GPUK_OP_SOFTMAX, "one_pass", DEF, gkc_softmax_one_pass,
     "the row held in registers (float4 when aligned, rows up to 8192): one read and one write per element"},
    {GPUK_OP_EMBEDDING, "block_row", DEF, gkc_embedding_block_row,
     "one block per token: the table row is copied with coalesced loads"},
    {GPUK_OP_MEANPOOL, "block_row", DEF, gkc_meanpool_block_row,
     "one block per batch row: threads own columns and sum down the tokens, coalesced"},

    {GPUK_OP_SPMV, "scalar", 0, gkc_spmv_scalar,
     "one thread per row: simple, but a warp's loads of values and indices are scattered"},
    {GPUK_OP_SPMV, "vector", 0, gkc_spmv_vector,
     "one warp per row: the row's values and indices are read coalesced, reduced with shuffles"},
    {GPUK_OP_SPMV, "adaptive", 0, gkc_spmv_adaptive,
     "2-32 lanes per row from the mean row length; long rows to a whole warp, very long ones to a block each"},
    {GPUK_OP_SPMV, "stream", 0, gkc_spmv_stream,
     "fixed windows of 2048 nonzeros a block: 16-byte loads, 8 gathers in flight a thread, rows summed from shared memory; rows crossing windows added in a fix-up pass"},
    {GPUK_OP_SPMV, "cusparse", DEF | LIB, gkc_spmv_cusparse,
     "cusparseSpMV on a CSR descriptor built once per matrix"},

    {GPUK_OP_DOT, "cublas", DEF | LIB, gkc_dot_cublas, "cublasSdot, result written on the device"},
    {GPUK_OP_GEMV, "cublas", DEF | LIB, gkc_gemv_cublas, "cublasSgemv on the row-major matrix read as its column-major transpose"},
    {GPUK_OP_GEMM, "cublas", DEF | LIB, gkc_gemm_cublas, "cublasSgemm (FP32 pedantic) computing C^T = op(B)^T op(A)^T"},
};

const size_t gkc_n_kernels = sizeof gkc_kernels / sizeof gkc_kernels[0];

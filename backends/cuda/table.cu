/*
 * table.cu - the one kernel table of backend_cuda.so.  Core, tests, bench
 * and gpuk-info iterate it; adding a variant is one function and one row
 * (doc/design.md, "Adding a variant").  Rows of an op are in ladder order
 * (naive first, libraries last); the DEFAULT row is the fastest rung we
 * have for that op.  The hand-written matmul rungs serve BATCHED_MATMUL
 * too: one function per rung reads the batch from blockIdx.z.
 */
#include "cuda_internal.h"

#define DEF GPUK_KF_DEFAULT
#define LIB GPUK_KF_LIBRARY
#define TF32 GPUK_KF_TF32
#define MMA GPUK_KF_MMA
#define F32 GPUK_DT_F32
#define I32 GPUK_DT_I32
#define F64 GPUK_DT_F64
/* the memory-bound families: one templated function a rung serves both */
#define F32_F64 (GPUK_DT_F32 | GPUK_DT_F64)
#define H16 (GPUK_DT_F16 | GPUK_DT_BF16)
/* the moves (transpose, copy, embedding) and cast: one row, four dtypes
 * (f16 and bf16 move as their bits: GKC_KERNEL_MOVES) */
#define FLOATS (F32_F64 | H16)

/* The entry points, each defined in its op family's .cu file. */
GKC_KERNEL(gkc_matmul_naive); GKC_KERNEL(gkc_matmul_coalesced); GKC_KERNEL(gkc_matmul_tiled);
GKC_KERNEL(gkc_matmul_blocktile_1d); GKC_KERNEL(gkc_matmul_blocktile_2d);
GKC_KERNEL(gkc_matmul_vec4); GKC_KERNEL(gkc_matmul_warptile);
GKC_KERNEL(gkc_matmul_warptile_db); GKC_KERNEL(gkc_matmul_warptile_at);
GKC_KERNEL(gkc_matmul_warptile_wide); GKC_KERNEL(gkc_matmul_dmma); GKC_KERNEL(gkc_matmul_dmma_tma);
GKC_KERNEL(gkc_matmul_cublas);
GKC_KERNEL(gkc_matmul_cublas_tf32); GKC_KERNEL(gkc_batched_cublas);
GKC_KERNEL(gkc_minplus_naive); GKC_KERNEL(gkc_minplus_transposed);
GKC_KERNEL(gkc_minplus_tiled); GKC_KERNEL(gkc_minplus_regtile_4x4);
GKC_KERNEL(gkc_minplus_regtile_8x8); GKC_KERNEL(gkc_minplus_pipelined);
GKC_KERNEL(gkc_minplus_i32_pipelined);
GKC_KERNEL(gkc_minplus_i32_dpx); GKC_KERNEL(gkc_minplus_i32_dpx_i16x2);
GKC_KERNEL(gkc_transpose_naive); GKC_KERNEL(gkc_transpose_smem);
GKC_KERNEL(gkc_transpose_smem_padded); GKC_KERNEL(gkc_transpose_tile64);
GKC_KERNEL(gkc_reduce_smem_tree); GKC_KERNEL(gkc_reduce_warp_shuffle);
GKC_KERNEL(gkc_reduce_grid_stride); GKC_KERNEL(gkc_reduce_lanes_inner);
GKC_KERNEL(gkc_add_coalesced); GKC_KERNEL(gkc_add_float4); GKC_KERNEL(gkc_scale_coalesced);
GKC_KERNEL(gkc_scale_float4); GKC_KERNEL(gkc_relu_coalesced); GKC_KERNEL(gkc_relu_float4);
GKC_KERNEL(gkc_bias_relu_coalesced); GKC_KERNEL(gkc_bias_relu_float4);
GKC_KERNEL(gkc_copy_coalesced); GKC_KERNEL(gkc_copy_float4); GKC_KERNEL(gkc_softmax_block_row);
GKC_KERNEL(gkc_cast_coalesced); GKC_KERNEL(gkc_cast_float4);
GKC_KERNEL(gkc_softmax_online); GKC_KERNEL(gkc_softmax_one_pass);
GKC_KERNEL(gkc_embedding_block_row); GKC_KERNEL(gkc_embedding_float4);
GKC_KERNEL(gkc_meanpool_block_row);
GKC_KERNEL(gkc_spmv_scalar); GKC_KERNEL(gkc_spmv_vector); GKC_KERNEL(gkc_spmv_adaptive);
GKC_KERNEL(gkc_spmv_stream); GKC_KERNEL(gkc_spmv_cusparse); GKC_KERNEL(gkc_dot_cublas);
GKC_KERNEL(gkc_gemv_cublas); GKC_KERNEL(gkc_gemm_cublas); GKC_KERNEL(gkc_dot_last_block); GKC_KERNEL(gkc_reduce_row_float4);
GKC_KERNEL(gkc_gemv_float4); GKC_KERNEL(gkc_apsp_naive);
/* the tensor-core rungs (tc_common.cuh) */
GKC_KERNEL(gkc_hgemm_wmma); GKC_KERNEL(gkc_hgemm_mma_ldmatrix); GKC_KERNEL(gkc_hgemm_mma_async);
GKC_KERNEL(gkc_hgemm_wgmma_tma); GKC_KERNEL(gkc_hgemm_wgmma_ws);
GKC_KERNEL(gkc_hgemm_wgmma_persistent); GKC_KERNEL(gkc_hgemm_wgmma_cluster);
GKC_KERNEL(gkc_hgemm_wgmma_tma_store); GKC_KERNEL(gkc_hgemm_wgmma_pdl);
GKC_KERNEL(gkc_hgemm_wgmma_streamk);
GKC_KERNEL(gkc_hgemm_cublas); GKC_KERNEL(gkc_matmul_wgmma_tf32);
GKC_KERNEL(gkc_matmul_wgmma_tf32_pipe);
GKC_KERNEL(gkc_apsp_blocked_256); GKC_KERNEL(gkc_apsp_blocked_512);

const gpuk_kernel gkc_kernels[] = {
    {GPUK_OP_MATMUL, F32, "naive", 0, gkc_matmul_naive,
     "one thread per output, consecutive threads on consecutive rows: every A load of a warp is a separate transaction", NULL},
    {GPUK_OP_MATMUL, F32, "coalesced", 0, gkc_matmul_coalesced,
     "consecutive threads on consecutive columns: B loads coalesce into one transaction, A is a broadcast", NULL},
    {GPUK_OP_MATMUL, F32, "tiled", 0, gkc_matmul_tiled,
     "16x16 shared-memory tiles: each loaded element is reused 16 times from shared memory", NULL},
    {GPUK_OP_MATMUL, F32, "blocktile_1d", 0, gkc_matmul_blocktile_1d,
     "64x64 block tile, 8 outputs (a column) per thread: one shared B value feeds 8 FMAs from registers", NULL},
    {GPUK_OP_MATMUL, F32, "blocktile_2d", 0, gkc_matmul_blocktile_2d,
     "128x128 block tile, 8x8 outputs per thread: 16 shared loads feed 64 FMAs", NULL},
    {GPUK_OP_MATMUL, F32, "vec4", 0, gkc_matmul_vec4,
     "float4 global and shared loads, A transposed in shared memory: 4 shared load instructions per 64 FMAs", NULL},
    {GPUK_OP_MATMUL, F32, "warptile", 0, gkc_matmul_warptile,
     "32x64 warp tiles, each lane's 8x8 split in four 4x4 pieces: conflict-free float4 shared reads", NULL},
    {GPUK_OP_MATMUL, F32, "warptile_db", 0, gkc_matmul_warptile_db,
     "warptile fed by a 3-stage cp.async pipeline, k slices of 16, one barrier a slice; split-k on small outputs", NULL},
    {GPUK_OP_MATMUL, F32, "warptile_at", 0, gkc_matmul_warptile_at,
     "warptile_db with A transposed by 4-byte copies: 16 live fragment registers instead of 40, fewer dispatch stalls", NULL},
    {GPUK_OP_MATMUL, F32, "warptile_wide", 0, gkc_matmul_warptile_wide,
     "warptile_at on a 128x256 tile, 8x16 per lane, one 8-warp block per SM, k slices of 32: 128 FMAs per 6 shared loads, in a column snake", NULL},
    {GPUK_OP_MATMUL, F32, "wgmma_tf32", TF32 | MMA, gkc_matmul_wgmma_tf32,
     "wgmma_persistent on TF32 computing c^T = b^T a^T (tf32 wgmma reads only K-major tiles), b^T from registers rounded to nearest (sm_90a with 16-byte aligned rows, else cublas_tf32)", NULL},
    {GPUK_OP_MATMUL, F32, "wgmma_tf32_pipe", TF32 | MMA, gkc_matmul_wgmma_tf32_pipe,
     "wgmma_tf32 with two sets of b^T fragments: the next slice's load while this slice's batch runs, one batch of each consumer always in flight", NULL},
    {GPUK_OP_MATMUL, F32, "cublas", DEF | LIB, gkc_matmul_cublas,
     "cuBLAS SGEMM, FP32 pedantic math (no TF32)", NULL},
    {GPUK_OP_MATMUL, F32, "cublas_tf32", LIB | TF32, gkc_matmul_cublas_tf32,
     "cuBLAS SGEMM on TF32 tensor cores: 10-bit mantissa inputs, FP32 accumulation", NULL},
    /* f64: the SIMT rungs in double (DFMA), where their 16-byte accesses
     * move two values, not four */
    {GPUK_OP_MATMUL, F64, "naive", 0, gkc_matmul_naive,
     "one thread per output, consecutive threads on consecutive rows: every A load of a warp is a separate transaction", NULL},
    {GPUK_OP_MATMUL, F64, "coalesced", 0, gkc_matmul_coalesced,
     "consecutive threads on consecutive columns: B loads coalesce, A is a broadcast", NULL},
    {GPUK_OP_MATMUL, F64, "tiled", 0, gkc_matmul_tiled,
     "16x16 shared-memory tiles: each loaded element is reused 16 times from shared memory", NULL},
    {GPUK_OP_MATMUL, F64, "blocktile_1d", 0, gkc_matmul_blocktile_1d,
     "64x64 block tile, 8 outputs (a column) per thread: one shared B value feeds 8 DFMAs from registers", NULL},
    {GPUK_OP_MATMUL, F64, "blocktile_2d", 0, gkc_matmul_blocktile_2d,
     "128x128 block tile, 8x8 outputs per thread: 16 shared loads feed 64 DFMAs", NULL},
    {GPUK_OP_MATMUL, F64, "vec4", 0, gkc_matmul_vec4,
     "16-byte global and shared loads (double2), A transposed in shared memory: 8 shared load instructions per 64 DFMAs", NULL},
    {GPUK_OP_MATMUL, F64, "warptile", 0, gkc_matmul_warptile,
     "32x64 warp tiles, each lane's 8x8 split in four 4x4 pieces: conflict-free 16-byte shared reads", NULL},
    {GPUK_OP_MATMUL, F64, "dmma", MMA, gkc_matmul_dmma,
     "FP64 tensor cores: mma.sync m16n8k16 (DMMA.16x8x16, 2048 FMAs an instruction), 128x128 tile, 32x64 warp tiles, 3-stage cp.async pipeline of k slices of 32", NULL},
    {GPUK_OP_MATMUL, F64, "dmma_tma", MMA, gkc_matmul_dmma_tma,
     "dmma fed by the copy engine: TMA boxes with the 128-byte swizzle into 6 stages of k slices of 16, one mbarrier a stage for the data and one for its release, no thread copies or block barriers in the k loop, tiles walked 8 row-tiles at a time (sm_90 with 16-byte aligned rows, else dmma)", NULL},
    {GPUK_OP_MATMUL, F64, "cublas", DEF | LIB | MMA, gkc_matmul_cublas,
     "cuBLAS DGEMM (CUBLAS_COMPUTE_64F: FP64 throughout, DMMA tensor cores on sm_90)", NULL},

    {GPUK_OP_BATCHED_MATMUL, F32, "naive", 0, gkc_matmul_naive,
     "matmul's naive with the batch in blockIdx.z", NULL},
    {GPUK_OP_BATCHED_MATMUL, F32, "coalesced", 0, gkc_matmul_coalesced,
     "matmul's coalesced with the batch in blockIdx.z", NULL},
    {GPUK_OP_BATCHED_MATMUL, F32, "tiled", 0, gkc_matmul_tiled,
     "matmul's tiled with the batch in blockIdx.z", NULL},
    {GPUK_OP_BATCHED_MATMUL, F32, "blocktile_1d", 0, gkc_matmul_blocktile_1d,
     "matmul's blocktile_1d with the batch in blockIdx.z", NULL},
    {GPUK_OP_BATCHED_MATMUL, F32, "blocktile_2d", 0, gkc_matmul_blocktile_2d,
     "matmul's blocktile_2d with the batch in blockIdx.z", NULL},
    {GPUK_OP_BATCHED_MATMUL, F32, "vec4", 0, gkc_matmul_vec4,
     "matmul's vec4 with the batch in blockIdx.z", NULL},
    {GPUK_OP_BATCHED_MATMUL, F32, "warptile", 0, gkc_matmul_warptile,
     "matmul's warptile with the batch in blockIdx.z", NULL},
    {GPUK_OP_BATCHED_MATMUL, F32, "warptile_db", 0, gkc_matmul_warptile_db,
     "matmul's warptile_db with the batch in blockIdx.z", NULL},
    {GPUK_OP_BATCHED_MATMUL, F32, "warptile_at", 0, gkc_matmul_warptile_at,
     "matmul's warptile_at with the batch in blockIdx.z", NULL},
    {GPUK_OP_BATCHED_MATMUL, F32, "warptile_wide", 0, gkc_matmul_warptile_wide,
     "matmul's warptile_wide with the batch in blockIdx.z", NULL},
    {GPUK_OP_BATCHED_MATMUL, F32, "cublas", DEF | LIB, gkc_batched_cublas,
     "cuBLAS strided-batched SGEMM, FP32 pedantic; a broadcast batch has stride 0", NULL},
    /* f64 */
    {GPUK_OP_BATCHED_MATMUL, F64, "naive", 0, gkc_matmul_naive,
     "matmul's naive with the batch in blockIdx.z", NULL},
    {GPUK_OP_BATCHED_MATMUL, F64, "coalesced", 0, gkc_matmul_coalesced,
     "matmul's coalesced with the batch in blockIdx.z", NULL},
    {GPUK_OP_BATCHED_MATMUL, F64, "tiled", 0, gkc_matmul_tiled,
     "matmul's tiled with the batch in blockIdx.z", NULL},
    {GPUK_OP_BATCHED_MATMUL, F64, "blocktile_1d", 0, gkc_matmul_blocktile_1d,
     "matmul's blocktile_1d with the batch in blockIdx.z", NULL},
    {GPUK_OP_BATCHED_MATMUL, F64, "blocktile_2d", 0, gkc_matmul_blocktile_2d,
     "matmul's blocktile_2d with the batch in blockIdx.z", NULL},
    {GPUK_OP_BATCHED_MATMUL, F64, "vec4", 0, gkc_matmul_vec4,
     "matmul's vec4 with the batch in blockIdx.z", NULL},
    {GPUK_OP_BATCHED_MATMUL, F64, "warptile", 0, gkc_matmul_warptile,
     "matmul's warptile with the batch in blockIdx.z", NULL},
    {GPUK_OP_BATCHED_MATMUL, F64, "dmma", MMA, gkc_matmul_dmma,
     "matmul's dmma with the batch in blockIdx.z", NULL},
    {GPUK_OP_BATCHED_MATMUL, F64, "dmma_tma", MMA, gkc_matmul_dmma_tma,
     "matmul's dmma_tma with the batch in blockIdx.z and the tensor maps' third dimension (a broadcast operand: a batch of one)", NULL},
    {GPUK_OP_BATCHED_MATMUL, F64, "cublas", DEF | LIB | MMA, gkc_batched_cublas,
     "cuBLAS strided-batched DGEMM, FP64; a broadcast batch has stride 0", NULL},

    {GPUK_OP_MINPLUS, F32, "naive", 0, gkc_minplus_naive,
     "one thread per output, consecutive threads on consecutive rows: strided, uncoalesced loads of a", "v0"},
    {GPUK_OP_MINPLUS, F32, "transposed", 0, gkc_minplus_transposed,
     "a transposed into a scratch buffer first, so a warp's loads of it are consecutive", "v1"},
    {GPUK_OP_MINPLUS, F32, "tiled", 0, gkc_minplus_tiled,
     "16x16 shared-memory tiles: each global load serves 16 threads", "v2"},
    {GPUK_OP_MINPLUS, F32, "regtile_4x4", 0, gkc_minplus_regtile_4x4,
     "4x4 outputs per thread: each shared-memory load feeds 4 add+min steps from registers", "v3"},
    {GPUK_OP_MINPLUS, F32, "regtile_8x8", 0, gkc_minplus_regtile_8x8,
     "8x8 outputs per thread from float4 shared loads and float4 tile loads: 16 add+min per loaded float", "v4"},
    {GPUK_OP_MINPLUS, F32, "pipelined", DEF, gkc_minplus_pipelined,
     "regtile_8x8's tile fed by a 3-stage cp.async pipeline, k slices of 16: copies fly while the add+min loop runs", "v5"},
    /* f64: the same kernels on doubles (minplus.cu, minplus_pipe.cu) */
    {GPUK_OP_MINPLUS, F64, "naive", 0, gkc_minplus_naive,
     "one thread per output, consecutive threads on consecutive rows: strided, uncoalesced loads of a", NULL},
    {GPUK_OP_MINPLUS, F64, "transposed", 0, gkc_minplus_transposed,
     "a transposed into a scratch buffer first, so a warp's loads of it are consecutive", NULL},
    {GPUK_OP_MINPLUS, F64, "tiled", 0, gkc_minplus_tiled,
     "16x16 shared-memory tiles: each global load serves 16 threads", NULL},
    {GPUK_OP_MINPLUS, F64, "regtile_4x4", 0, gkc_minplus_regtile_4x4,
     "4x4 outputs per thread: each shared-memory load feeds 4 add+min steps from registers", NULL},
    {GPUK_OP_MINPLUS, F64, "regtile_8x8", 0, gkc_minplus_regtile_8x8,
     "8x8 outputs per thread from 16-byte shared and tile loads: 8 add+min per loaded double", NULL},
    {GPUK_OP_MINPLUS, F64, "pipelined", DEF, gkc_minplus_pipelined,
     "regtile_8x8's tile on a 3-stage cp.async pipeline, one block an SM; a step is DADD, DSETP, 2 FSEL (strict less-than, +0/-0 ties settled by a pass after) instead of fmin's 8-9 instructions", NULL},
    /* i32 (minplus.cu, minplus_pipe.cu) */
    {GPUK_OP_MINPLUS, I32, "naive", 0, gkc_minplus_naive,
     "one thread per output, consecutive threads on consecutive rows: strided, uncoalesced loads of a", NULL},
    {GPUK_OP_MINPLUS, I32, "pipelined", 0, gkc_minplus_i32_pipelined,
     "f32 pipelined's 8x8 tile and cp.async pipeline on int32: IADD3 + VIMNMX, two instructions a step as FADD + FMNMX", NULL},
    {GPUK_OP_MINPLUS, I32, "dpx", DEF, gkc_minplus_i32_dpx,
     "pipelined with Hopper's fused add-min (__viaddmin_s32, VIADDMNMX): one instruction a step instead of two", NULL},
    {GPUK_OP_MINPLUS, I32, "dpx_i16x2", GPUK_KF_PACKED16, gkc_minplus_i32_dpx_i16x2,
     "when every value is in [0, 2^13) or GPUK_I32_INF (a pre-pass checks): 16-bit pairs, VIADDMNMX.S16x2, two steps an instruction; else dpx", NULL},

    {GPUK_OP_TRANSPOSE, FLOATS, "naive", 0, gkc_transpose_naive,
     "one thread per element: coalesced reads, writes strided by the row length", NULL},
    {GPUK_OP_TRANSPOSE, FLOATS, "smem", 0, gkc_transpose_smem,
     "32x32 shared tile: reads and writes both coalesced, but the column reads of the tile hit one bank", NULL},
    {GPUK_OP_TRANSPOSE, FLOATS, "smem_padded", 0, gkc_transpose_smem_padded,
     "tile padded to [32][33]: a column of the tile spans all 32 banks, no conflicts", NULL},
    {GPUK_OP_TRANSPOSE, FLOATS, "tile64", DEF, gkc_transpose_tile64,
     "64x64 padded tile, 32x16 threads of 8 elements, all 8 loads issued before the first shared store: 8 loads in flight, not 1-2", NULL},

    {GPUK_OP_REDUCE, F32_F64, "smem_tree", 0, gkc_reduce_smem_tree,
     "one block per output: strided partial sums, then a shared-memory tree with a barrier per level", NULL},
    {GPUK_OP_REDUCE, F32_F64, "warp_shuffle", 0, gkc_reduce_warp_shuffle,
     "one warp per output, reduced with register shuffles: no shared memory, no barriers", NULL},
    {GPUK_OP_REDUCE, F32_F64, "grid_stride", 0, gkc_reduce_grid_stride,
     "several blocks per long output (grid-stride), block partials combined by a second pass: fills the GPU for any shape", NULL},
    {GPUK_OP_REDUCE, F32_F64, "lanes_inner", DEF, gkc_reduce_lanes_inner,
     "along a non-last axis, lanes walk the inner dimension: 32 consecutive elements (16-byte vectors: 512 bytes) per warp load; contiguous rows go to grid_stride", NULL},
    {GPUK_OP_REDUCE, F32_F64, "row_float4", 0, gkc_reduce_row_float4,
     "contiguous aligned rows: a block of 512 a row, all of a thread's 16-byte loads issued before its adds; else smem_tree", NULL},
    /* f16, bf16: the same kernels, each element widened to f32 as it is
     * read, sums in f32, one rounding at the end (reduce.cu) */
    {GPUK_OP_REDUCE, H16, "smem_tree", 0, gkc_reduce_smem_tree,
     "one block per output: strided partial sums in f32, then a shared-memory tree; rounded once", NULL},
    {GPUK_OP_REDUCE, H16, "warp_shuffle", 0, gkc_reduce_warp_shuffle,
     "one warp per output, f32 sums reduced with register shuffles; rounded once", NULL},
    {GPUK_OP_REDUCE, H16, "grid_stride", 0, gkc_reduce_grid_stride,
     "several blocks per long output, f32 block partials combined by a second pass; rounded once", NULL},
    {GPUK_OP_REDUCE, H16, "lanes_inner", DEF, gkc_reduce_lanes_inner,
     "along a non-last axis, lanes walk the inner dimension, 8 elements a 16-byte load into 8 f32 sums; contiguous rows go to grid_stride", NULL},
    {GPUK_OP_REDUCE, H16, "row_float4", 0, gkc_reduce_row_float4,
     "contiguous aligned rows: a block of 512 a row, 16-byte loads of 8 elements all issued before the f32 adds; else smem_tree", NULL},

    {GPUK_OP_ADD, F32_F64, "coalesced", 0, gkc_add_coalesced, "grid-stride loop, one element per thread per step", NULL},
    {GPUK_OP_ADD, F32_F64, "float4", DEF, gkc_add_float4, "16-byte loads and stores; scalar head and tail; scalar path when misaligned", NULL},
    {GPUK_OP_SCALE, F32_F64, "coalesced", 0, gkc_scale_coalesced, "grid-stride loop, one element per thread per step", NULL},
    {GPUK_OP_SCALE, F32_F64, "float4", DEF, gkc_scale_float4, "16-byte loads and stores; scalar head and tail; scalar path when misaligned", NULL},
    {GPUK_OP_RELU, F32_F64, "coalesced", 0, gkc_relu_coalesced, "grid-stride loop, one element per thread per step", NULL},
    {GPUK_OP_RELU, F32_F64, "float4", DEF, gkc_relu_float4, "16-byte loads and stores; scalar head and tail; scalar path when misaligned", NULL},
    {GPUK_OP_BIAS_RELU, F32_F64, "coalesced", 0, gkc_bias_relu_coalesced, "grid-stride loop, one element per thread per step", NULL},
    {GPUK_OP_BIAS_RELU, F32_F64, "float4", DEF, gkc_bias_relu_float4, "16-byte loads of x, bias and out when rows are 16-byte aligned; else the scalar path", NULL},
    {GPUK_OP_COPY, FLOATS, "coalesced", 0, gkc_copy_coalesced, "grid-stride loop, one element per thread per step", NULL},
    {GPUK_OP_COPY, FLOATS, "float4", DEF, gkc_copy_float4, "16-byte loads and stores; scalar head and tail; scalar path when misaligned", NULL},
    /* f16, bf16: the f32 op between a widening load and one rounding
     * store (elementwise.cu), so each result is round(f32 op), the CPU's */
    {GPUK_OP_ADD, H16, "coalesced", 0, gkc_add_coalesced, "grid-stride loop, one element per thread per step, added in f32 and rounded once", NULL},
    {GPUK_OP_ADD, H16, "float4", DEF, gkc_add_float4, "16-byte loads and stores of 8 elements, f32 adds, paired conversions back; scalar head and tail; scalar path when misaligned", NULL},
    {GPUK_OP_SCALE, H16, "coalesced", 0, gkc_scale_coalesced, "grid-stride loop, one element per thread per step, scaled in f32 and rounded once", NULL},
    {GPUK_OP_SCALE, H16, "float4", DEF, gkc_scale_float4, "16-byte loads and stores of 8 elements, f32 products, paired conversions back; scalar head and tail; scalar path when misaligned", NULL},
    {GPUK_OP_RELU, H16, "coalesced", 0, gkc_relu_coalesced, "grid-stride loop, one element per thread per step", NULL},
    {GPUK_OP_RELU, H16, "float4", DEF, gkc_relu_float4, "16-byte loads and stores of 8 elements; scalar head and tail; scalar path when misaligned", NULL},
    {GPUK_OP_BIAS_RELU, H16, "coalesced", 0, gkc_bias_relu_coalesced, "grid-stride loop, one element per thread per step, relu(x + bias) in f32 and rounded once", NULL},
    {GPUK_OP_BIAS_RELU, H16, "float4", DEF, gkc_bias_relu_float4, "16-byte loads of x, bias and out (8 elements) when rows are 16-byte aligned, relu(x + bias) in f32; else the scalar path", NULL},
    /* cast.cu: from the row's dtype to out's, any of the four, the CPU's bits */
    {GPUK_OP_CAST, FLOATS, "coalesced", 0, gkc_cast_coalesced,
     "grid-stride loop, one element per thread per step; one rounding to nearest even (f64 to 16 bits directly), NaN kept as the CPU's cast keeps it", NULL},
    {GPUK_OP_CAST, FLOATS, "float4", DEF, gkc_cast_float4,
     "16 bytes of the narrower side a thread, every load and store 16 bytes; scalar head and tail; scalar path when the two sides cannot align together", NULL},

    {GPUK_OP_SOFTMAX, F32_F64, "block_row", 0, gkc_softmax_block_row,
     "one block per row: block max, block sum of exp(x - max), normalize (numerically stable)", NULL},
    {GPUK_OP_SOFTMAX, F32_F64, "online", 0, gkc_softmax_online,
     "one sweep keeps a running max and rescaled sum (online softmax), a second writes: two reads, not three", NULL},
    {GPUK_OP_SOFTMAX, F32_F64, "one_pass", DEF, gkc_softmax_one_pass,
     "the row held in registers (16-byte loads when aligned, rows up to 8192): one read and one write per element", NULL},
    /* f16, bf16: the row widened to f32 as it is read, max, exp and sum
     * in f32, each output rounded once (rows.cu) */
    {GPUK_OP_SOFTMAX, H16, "block_row", 0, gkc_softmax_block_row,
     "one block per row, in f32: block max, block sum of exp(x - max), normalize; rounded once", NULL},
    {GPUK_OP_SOFTMAX, H16, "online", 0, gkc_softmax_online,
     "online softmax in f32: a sweep for the running max and rescaled sum, a second that writes", NULL},
    {GPUK_OP_SOFTMAX, H16, "one_pass", DEF, gkc_softmax_one_pass,
     "the row held in f32 registers (16-byte loads of 8 elements when aligned, rows up to 8192): one read and one write per element", NULL},
    {GPUK_OP_EMBEDDING, FLOATS, "block_row", 0, gkc_embedding_block_row,
     "one block per token: the table row is copied with coalesced loads", NULL},
    /* float4 the DEFAULT: ahead of block_row in 20 of 21 cases on the
     * H100 (16384, 65536 and 262144 tokens of 256, every dtype; 1.02-1.61x,
     * and 2.8% behind once), bench/NOTES.md, "The GPU's 16-bit rows" */
    {GPUK_OP_EMBEDDING, FLOATS, "float4", DEF, gkc_embedding_float4,
     "a warp per token, 16-byte loads up to four a lane in flight, the next token's id loaded before this row: one round trip a token, not two", NULL},
    {GPUK_OP_MEANPOOL, F32_F64, "block_row", DEF, gkc_meanpool_block_row,
     "one block per batch row: threads own columns and sum down the tokens, coalesced", NULL},
    {GPUK_OP_MEANPOOL, H16, "block_row", DEF, gkc_meanpool_block_row,
     "one block per batch row: threads own columns and sum down the tokens in f32, coalesced; rounded once", NULL},

    {GPUK_OP_SPMV, F32_F64, "scalar", 0, gkc_spmv_scalar,
     "one thread per row: simple, but a warp's loads of values and indices are scattered", NULL},
    {GPUK_OP_SPMV, F32_F64, "vector", 0, gkc_spmv_vector,
     "one warp per row: the row's values and indices are read coalesced, reduced with shuffles", NULL},
    {GPUK_OP_SPMV, F32_F64, "adaptive", 0, gkc_spmv_adaptive,
     "2-32 lanes per row from the mean row length; long rows to a whole warp, very long ones to a block each", NULL},
    {GPUK_OP_SPMV, F32_F64, "stream", 0, gkc_spmv_stream,
     "fixed windows of 2048 nonzeros a block: 16-byte loads, 8 gathers in flight a thread, rows summed from shared memory; rows crossing windows added in a fix-up pass", NULL},
    {GPUK_OP_SPMV, F32_F64, "cusparse", DEF | LIB, gkc_spmv_cusparse,
     "cusparseSpMV on a CSR descriptor built once per matrix", NULL},

    {GPUK_OP_DOT, F32_F64, "last_block", 0, gkc_dot_last_block,
     "16-byte loads, block sums in one kernel, the last block to finish adding them in block order", NULL},
    {GPUK_OP_DOT, F32_F64, "cublas", DEF | LIB, gkc_dot_cublas, "cublasSdot / cublasDdot, result written on the device", NULL},
    {GPUK_OP_GEMV, F32_F64, "float4", 0, gkc_gemv_float4,
     "rows over 8 KB: a block of 512 per row of A, all its 16-byte loads in flight; shorter: a warp per row, four 16-byte loads in flight a lane (A^T x: a thread per 16 bytes of columns, rows in slices)", NULL},
    {GPUK_OP_GEMV, F32_F64, "cublas", DEF | LIB, gkc_gemv_cublas, "cublasSgemv / cublasDgemv on the row-major matrix read as its column-major transpose", NULL},
    {GPUK_OP_GEMM, F32, "cublas", DEF | LIB, gkc_gemm_cublas, "cublasSgemm (FP32 pedantic) computing C^T = op(B)^T op(A)^T", NULL},
    {GPUK_OP_GEMM, F64, "cublas", DEF | LIB | MMA, gkc_gemm_cublas, "cuBLAS DGEMM computing C^T = op(B)^T op(A)^T, alpha and beta in double", NULL},

    /* f16 and bf16 matrix products on the tensor cores (issue 27): one
     * ladder for MATMUL, BATCHED_MATMUL and GEMM (H16: both dtypes), f32
     * accumulation, c in f32 or the inputs' dtype (tc_common.cuh).  The
     * wgmma rungs need compute capability 9.0 and 16-byte aligned rows;
     * elsewhere they run mma_async, which without such rows runs
     * mma_ldmatrix.  Then the TF32 rung of f32 matmul. */
#define TC_LADDER(op) \
    {op, H16, "wmma", MMA, gkc_hgemm_wmma, \
     "16x16x16 wmma fragments, f32 accumulation: 64x64 tiles of 4 warps, element loads into shared memory", NULL}, \
    {op, H16, "mma_ldmatrix", MMA, gkc_hgemm_mma_ldmatrix, \
     "mma.sync m16n8k16 fed by ldmatrix, 64x32 warp tiles in 128x128 blocks: 4 mma per fragment load, no round trip for the epilogue", NULL}, \
    {op, H16, "mma_async", MMA, gkc_hgemm_mma_async, \
     "mma_ldmatrix through a 3-stage cp.async pipeline, XOR-swizzled shared tiles (no padding, no bank conflicts): copies fly while slices compute (16-byte aligned rows, else mma_ldmatrix)", NULL}, \
    {op, H16, "wgmma_tma", MMA, gkc_hgemm_wgmma_tma, \
     "Hopper wgmma from shared memory fed by TMA boxes on mbarriers, one warpgroup a 128x128 tile: no fragment loads, no copy instructions (sm_90a, else mma_async)", NULL}, \
    {op, H16, "wgmma_ws", MMA, gkc_hgemm_wgmma_ws, \
     "a TMA producer warpgroup and two wgmma consumers on 128x256 tiles, full/empty mbarriers, setmaxnreg: nothing waits for the tensor cores (sm_90a, else mma_async)", NULL}, \
    {op, H16, "wgmma_persistent", MMA, gkc_hgemm_wgmma_persistent, \
     "wgmma_ws with one block an SM looping over tiles in L2-friendly bands: the next tile loads while the last one is written (sm_90a, else mma_async)", NULL}, \
    {op, H16, "wgmma_cluster", MMA, gkc_hgemm_wgmma_cluster, \
     "wgmma_persistent in 2-block clusters on vertical tile pairs, each block's half of B multicast to both: a third less L2 traffic (sm_90a, else mma_async)", NULL}, \
    {op, H16, "wgmma_tma_store", MMA, gkc_hgemm_wgmma_tma_store, \
     "wgmma_cluster writing c through shared memory and TMA stores: whole lines, and the consumers back on the tensor cores while the copy engine writes (16-byte aligned c rows and beta 0, else wgmma_cluster's epilogue)", NULL}, \
    {op, H16, "wgmma_pdl", MMA, gkc_hgemm_wgmma_pdl, \
     "wgmma_tma_store as a programmatic dependent launch: the launch and the blocks' setup overlap the end of the kernel before it", NULL}, \
    {op, H16, "wgmma_streamk", MMA, gkc_hgemm_wgmma_streamk, \
     "wgmma_pdl with stream-K on a last wave that leaves a quarter of the clusters idle: its tiles' k slices shared out equally among all clusters, partial sums added through L2 by the cluster with each tile's last slices", NULL}, \
    {op, H16, "cublas", DEF | LIB | MMA, gkc_hgemm_cublas, \
     "cublasGemmEx (strided batched for a batch), 16-bit inputs, f32 compute, c in f32 or 16-bit", NULL}
    TC_LADDER(GPUK_OP_MATMUL),
    TC_LADDER(GPUK_OP_BATCHED_MATMUL),
    TC_LADDER(GPUK_OP_GEMM),
#undef TC_LADDER

    /* apsp.cu */
    {GPUK_OP_APSP, F32 | F64 | I32, "naive", 0, gkc_apsp_naive,
     "one launch per Floyd-Warshall step, one thread per pair, with predecessors", NULL},
    {GPUK_OP_APSP, F32 | F64 | I32, "blocked_256", DEF, gkc_apsp_blocked_256,
     "blocked Floyd-Warshall, blocks of 256 (each closed in one cooperative launch, as is a whole "
     "graph of up to 1024): the n^3 as min-plus updates of k = 256 on pipelined / dpx (i32 with a "
     "negative weight: an INF-testing tile); with pred, naive's steps", NULL},
    {GPUK_OP_APSP, F32 | F64 | I32, "blocked_512", 0, gkc_apsp_blocked_512,
     "blocked_256 with blocks of 512: half the passes over d, twice the work outside the main "
     "update", NULL},
};

const size_t gkc_n_kernels = sizeof gkc_kernels / sizeof gkc_kernels[0];

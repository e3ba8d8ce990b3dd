#!/bin/sh
# t_ops_cpu_avx2.sh - t_ops_cpu's f16 and bf16 cases with the CPU kernels
# narrowed to AVX2 (GPUK_CPU_ISA, gpuk(7)): the AVX2 conversions, the f32
# engine's 6 x 2 tiles under the 16-bit products, and the rungs that need
# more (dpbf16: AVX512_BF16) running the one below them.
GPUK_CPU_ISA=avx2
GPUK_TEST_DTYPES=f16,bf16
export GPUK_CPU_ISA GPUK_TEST_DTYPES
exec "${GPUK_TEST_BUILDDIR:-.}/tests/t_ops_cpu"

#!/bin/sh
# t_ops_cpu_scalar.sh - t_ops_cpu's f16 and bf16 cases with the CPU
# kernels narrowed to portable C (GPUK_CPU_ISA=scalar, gpuk(7)): the
# scalar conversions and tiles, as on a CPU without AVX2.
GPUK_CPU_ISA=scalar
GPUK_TEST_DTYPES=f16,bf16
export GPUK_CPU_ISA GPUK_TEST_DTYPES
exec "${GPUK_TEST_BUILDDIR:-.}/tests/t_ops_cpu"

#!/bin/sh
# t_empty_cuda.sh - t_empty (empty tensors, NaN and infinity on every
# variant) on the CUDA backend; the whole file is skipped where no CUDA
# backend opens (t_empty prints the reason).
GPUK_TEST_BACKEND=cuda
export GPUK_TEST_BACKEND
exec "${GPUK_TEST_BUILDDIR:-.}/tests/t_empty"

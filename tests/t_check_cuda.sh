#!/bin/sh
# t_check_cuda.sh - t_check (the op suite's smaller cases under GPUK_CHECK,
# every op, dtype and rung) on the CUDA backend; the whole file is skipped
# where no CUDA backend opens (t_check prints the reason).
GPUK_TEST_BACKEND=cuda
export GPUK_TEST_BACKEND
exec "${GPUK_TEST_BUILDDIR:-.}/tests/t_check"

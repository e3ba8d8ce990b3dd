# tests: TAP programs run by `make check` (see AM_TESTS_ENVIRONMENT in Makefile.am)

# What the tests and the fuzz harness know about each op: one file per op
# family (the man pages' families), each holding its ops' descriptors and
# calls (tests/optest.h).  A new family is a file here and its #include in
# tests/opcall.c; a new op in a family touches that family's file alone.
OPTEST_FAMILIES = \
	tests/ops/matmul.c \
	tests/ops/minplus.c \
	tests/ops/transpose.c \
	tests/ops/reduce.c \
	tests/ops/elementwise.c \
	tests/ops/rows.c \
	tests/ops/spmv.c \
	tests/ops/blas.c \
	tests/ops/apsp.c \
	tests/ops/cast.c

# shared test code: the TAP producer, the reference (ref.h), the one op
# call (also built into gpuk-bench, which compiles tests/opcall.c alone),
# the registry of op descriptors and the family files, the op suite, and
# the fuzz harness's core (the family files build its calls; libFuzzer's
# entry point is fuzz/build.sh's own build)
check_LTLIBRARIES += tests/libgktest.la
tests_libgktest_la_SOURCES = \
	tests/tap.c tests/tap.h \
	tests/ref.c tests/ref.h \
	tests/opcall.c tests/opcall.h \
	tests/opcases.c tests/opcases.h \
	tests/optest.c tests/optest.h \
	tests/ops/family.h $(OPTEST_FAMILIES) \
	tests/opsuite.c tests/opsuite.h \
	fuzz/fuzz_api.c fuzz/fuzz_api.h fuzz/fz.h fuzz/fz_ops.c fuzz/fz_slots.c
tests_libgktest_la_CFLAGS = $(AM_CFLAGS)
TEST_LIBS = tests/libgktest.la src/libgpuk.la $(LIBM)

# the reference itself: elements of every dtype, tolerances per dtype, more
# precise than f64, and every f64 case's bound against f64 and f32 results
check_PROGRAMS += tests/t_ref
TESTS += tests/t_ref
tests_t_ref_LDADD = $(TEST_LIBS)

# gpuk_apsp's predecessors, path walk and negative cycles, on cpu and cuda
check_PROGRAMS += tests/t_apsp
TESTS += tests/t_apsp
tests_t_apsp_LDADD = $(TEST_LIBS)

# every (op, dtype, variant) of a backend's table against the reference
check_PROGRAMS += tests/t_ops_cpu tests/t_ops_cuda
TESTS += tests/t_ops_cpu tests/t_ops_cuda

# the same rungs on the smaller cases under GPUK_CHECK (the shadow's bounds
# in every dtype); t_check_cuda.sh runs it on cuda
check_PROGRAMS += tests/t_check
TESTS += tests/t_check tests/t_check_cuda.sh
tests_t_check_LDADD = $(TEST_LIBS)
EXTRA_DIST += tests/t_check_cuda.sh
tests_t_ops_cpu_LDADD = $(TEST_LIBS)

# the 16-bit cases again with the CPU kernels narrowed to AVX2 and to
# portable C (GPUK_CPU_ISA): the conversions' other paths and the rungs'
# fallbacks (dpbf16 without AVX512_BF16)
TESTS += tests/t_ops_cpu_avx2.sh tests/t_ops_cpu_scalar.sh
EXTRA_DIST += tests/t_ops_cpu_avx2.sh tests/t_ops_cpu_scalar.sh
tests_t_ops_cuda_LDADD = $(TEST_LIBS)

# test-only plugins: one source, built with different flags (see plugin_fake.c)
FAKE_LDFLAGS = -module -avoid-version -shared -no-undefined -rpath /nowhere
FAKE_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
check_LTLIBRARIES += tests/fake_ok.la tests/fake_abi1.la tests/fake_minor99.la \
	tests/fake_noentry.la tests/fake_probefail.la tests/fake_initfail.la \
	tests/fake_small.la tests/fake_duprows.la tests/fake_wrong.la tests/fake_future.la \
	tests/fake_shortrows.la tests/fake_nodtype.la tests/fake_twodefaults.la \
	tests/fake_minor1.la
tests_fake_ok_la_SOURCES = tests/plugin_fake.c
tests_fake_ok_la_CFLAGS = $(FAKE_CFLAGS)
tests_fake_ok_la_LDFLAGS = $(FAKE_LDFLAGS)
tests_fake_abi1_la_SOURCES = tests/plugin_fake.c
tests_fake_abi1_la_CFLAGS = $(FAKE_CFLAGS) -DFAKE_ABI_MAJOR=1 -DFAKE_ABI_MINOR=0
tests_fake_abi1_la_LDFLAGS = $(FAKE_LDFLAGS)
tests_fake_minor99_la_SOURCES = tests/plugin_fake.c
tests_fake_minor99_la_CFLAGS = $(FAKE_CFLAGS) -DFAKE_ABI_MINOR=99
tests_fake_minor99_la_LDFLAGS = $(FAKE_LDFLAGS)
tests_fake_noentry_la_SOURCES = tests/plugin_fake.c
tests_fake_noentry_la_CFLAGS = $(FAKE_CFLAGS) -DFAKE_NO_ENTRY
tests_fake_noentry_la_LDFLAGS = $(FAKE_LDFLAGS)
tests_fake_probefail_la_SOURCES = tests/plugin_fake.c
tests_fake_probefail_la_CFLAGS = $(FAKE_CFLAGS) -DFAKE_PROBE_FAIL
tests_fake_probefail_la_LDFLAGS = $(FAKE_LDFLAGS)
tests_fake_initfail_la_SOURCES = tests/plugin_fake.c
tests_fake_initfail_la_CFLAGS = $(FAKE_CFLAGS) -DFAKE_INIT_FAIL
tests_fake_initfail_la_LDFLAGS = $(FAKE_LDFLAGS)
tests_fake_small_la_SOURCES = tests/plugin_fake.c
tests_fake_small_la_CFLAGS = $(FAKE_CFLAGS) -DFAKE_SMALL
tests_fake_small_la_LDFLAGS = $(FAKE_LDFLAGS)
tests_fake_duprows_la_SOURCES = tests/plugin_fake.c
tests_fake_duprows_la_CFLAGS = $(FAKE_CFLAGS) -DFAKE_DUP_ROWS
tests_fake_duprows_la_LDFLAGS = $(FAKE_LDFLAGS)
tests_fake_wrong_la_SOURCES = tests/plugin_fake.c
tests_fake_wrong_la_CFLAGS = $(FAKE_CFLAGS) -DFAKE_WRONG
tests_fake_wrong_la_LDFLAGS = $(FAKE_LDFLAGS)
tests_fake_minor1_la_SOURCES = tests/plugin_fake.c
tests_fake_minor1_la_CFLAGS = $(FAKE_CFLAGS) -DFAKE_ABI_MINOR=1
tests_fake_minor1_la_LDFLAGS = $(FAKE_LDFLAGS)
tests_fake_future_la_SOURCES = tests/plugin_fake.c
tests_fake_future_la_CFLAGS = $(FAKE_CFLAGS) -DFAKE_FUTURE
tests_fake_future_la_LDFLAGS = $(FAKE_LDFLAGS)
tests_fake_shortrows_la_SOURCES = tests/plugin_fake.c
tests_fake_shortrows_la_CFLAGS = $(FAKE_CFLAGS) -DFAKE_SHORT_ROWS
tests_fake_shortrows_la_LDFLAGS = $(FAKE_LDFLAGS)
tests_fake_nodtype_la_SOURCES = tests/plugin_fake.c
tests_fake_nodtype_la_CFLAGS = $(FAKE_CFLAGS) -DFAKE_NO_DTYPE
tests_fake_nodtype_la_LDFLAGS = $(FAKE_LDFLAGS)
tests_fake_twodefaults_la_SOURCES = tests/plugin_fake.c
tests_fake_twodefaults_la_CFLAGS = $(FAKE_CFLAGS) -DFAKE_TWO_DEFAULTS
tests_fake_twodefaults_la_LDFLAGS = $(FAKE_LDFLAGS)

# the loader, contexts and environment; tensors, views, handles, CSR
check_PROGRAMS += tests/t_loader tests/t_tensor
TESTS += tests/t_loader tests/t_tensor
tests_t_loader_LDADD = $(TEST_LIBS)
tests_t_tensor_LDADD = $(TEST_LIBS)

# choosing a rung for "auto": wisdom files, built-in rules, gpuk_last_variant
check_PROGRAMS += tests/t_wisdom
TESTS += tests/t_wisdom
tests_t_wisdom_LDADD = $(TEST_LIBS)

# the caller's memory: host allocations, wrapped pointers, DLPack, staging
check_PROGRAMS += tests/t_interop tests/t_interop_cuda
TESTS += tests/t_interop tests/t_interop_cuda
tests_t_interop_LDADD = $(TEST_LIBS)
tests_t_interop_cuda_LDADD = $(TEST_LIBS)
# DLPack with NumPy both ways, through ctypes (skipped without NumPy)
TESTS += tests/t_dlpack_numpy.sh
EXTRA_DIST += tests/t_dlpack_numpy.sh tests/t_dlpack_numpy.py
# the shell tests' TAP helpers (ok, skip, diag, tap_done), sourced by every .sh test
EXTRA_DIST += tests/tap-lib.sh

# reliability: bad-input catalogue, faults, threads, fuzzing (see that file)
include tests/reliability.mk

# the CPU backend's f16 and bf16 conversions (backends/cpu/half.h), every
# encoding and the rounding corners, on every vector path of this processor
check_PROGRAMS += tests/t_half
TESTS += tests/t_half
tests_t_half_SOURCES = tests/t_half.c backends/cpu/half.c
tests_t_half_CFLAGS = $(AM_CFLAGS)
tests_t_half_LDADD = tests/libgktest.la $(LIBM)

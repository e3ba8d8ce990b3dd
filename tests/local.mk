# tests: TAP programs run by `make check` (see AM_TESTS_ENVIRONMENT in Makefile.am)

# shared test code: the TAP producer, the float64 reference, the op suite
check_LTLIBRARIES += tests/libgktest.la
tests_libgktest_la_SOURCES = \
	tests/tap.c tests/tap.h \
	tests/ref.c tests/ref.h \
	tests/opsuite.c tests/opsuite.h
tests_libgktest_la_CFLAGS = $(AM_CFLAGS)
TEST_LIBS = tests/libgktest.la src/libgpuk.la $(LIBM)

# every (op, variant) of a backend's table against the float64 reference
check_PROGRAMS += tests/t_ops_cpu tests/t_ops_cuda
TESTS += tests/t_ops_cpu tests/t_ops_cuda
tests_t_ops_cpu_LDADD = $(TEST_LIBS)
tests_t_ops_cuda_LDADD = $(TEST_LIBS)

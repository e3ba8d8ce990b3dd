# mpi: libgpuk_mpi, the distributed ops (include/gpuk/mpi.h, gpuk_dist(3),
# doc/distributed.md), its tests, gpuk-dist-bench, and the example
# examples/apsp.  The library, its tests and the benchmark are built only
# when configure found MPI (the sources are in the distribution either
# way); examples/apsp is built either way.  Included last by Makefile.am, so the test
# settings below extend the ones made there.

# libtool -version-info of libgpuk_mpi.so, apart from libgpuk's
MPI_LT_VERSION = 0:0:0
MPI_ALL_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CFLAGS)

# Multi-rank tests: the test mpi/PROG-N.mpi runs the program mpi/PROG on N
# ranks through mpi/mpirun-test.sh, which adds --oversubscribe (and, as
# root, --allow-run-as-root) for Open MPI and takes MPIEXEC and
# MPIEXEC_FLAGS from make:  make check MPIEXEC=mpiexec MPIEXEC_FLAGS=...
# Only rank 0 prints TAP (mpi/dtap.c).
TEST_EXTENSIONS += .mpi
MPI_LOG_DRIVER = $(LOG_DRIVER)
MPI_LOG_COMPILER = $(SHELL) $(top_srcdir)/mpi/mpirun-test.sh
AM_TESTS_ENVIRONMENT += MPIEXEC='$(MPIEXEC)'; MPIEXEC_FLAGS='$(MPIEXEC_FLAGS)'; \
	export MPIEXEC MPIEXEC_FLAGS;
MPI_RANK_TESTS = \
	mpi/t_dist-1.mpi mpi/t_dist-2.mpi mpi/t_dist-3.mpi mpi/t_dist-4.mpi \
	mpi/t_dist_fail-1.mpi mpi/t_dist_fail-2.mpi mpi/t_dist_fail-3.mpi mpi/t_dist_fail-4.mpi \
	mpi/t_dist-staged-2.mpi mpi/t_dist-staged-4.mpi mpi/t_dist-slabs-3.mpi \
	mpi/t_dist_apsp-1.mpi mpi/t_dist_apsp-2.mpi mpi/t_dist_apsp-3.mpi mpi/t_dist_apsp-4.mpi \
	mpi/t_dist_apsp-staged-4.mpi

# examples/apsp: all-pairs shortest paths (Floyd-Warshall, or squaring for
# comparison), built with or without MPI: the part that differs is
# solve_dist.c or solve_one.c, chosen below (examples/apsp/apsp.h)
noinst_PROGRAMS += examples/apsp/apsp
examples_apsp_apsp_SOURCES = examples/apsp/apsp.c examples/apsp/apsp.h \
	examples/apsp/graph.c examples/apsp/graph.h
TESTS += examples/apsp/test-apsp.sh

if HAVE_MPI
lib_LTLIBRARIES += mpi/libgpuk_mpi.la
mpi_libgpuk_mpi_la_SOURCES = \
	mpi/dist_internal.h \
	mpi/agree.c \
	mpi/dist.c \
	mpi/nccl.c \
	mpi/matrix.c \
	mpi/copy.c \
	mpi/bcast.c \
	mpi/summa.c \
	mpi/apsp.c \
	mpi/apsp_check.c
mpi_libgpuk_mpi_la_CPPFLAGS = $(MPI_ALL_CPPFLAGS) $(MPI_CUDA_CPPFLAGS)
# Only gpuk_dist_* is exported; internal functions are named gkd_*.
mpi_libgpuk_mpi_la_LDFLAGS = -version-info $(MPI_LT_VERSION) -no-undefined \
	-export-symbols-regex '^gpuk_dist_'
mpi_libgpuk_mpi_la_LIBADD = src/libgpuk.la $(MPI_LIBS) $(MPI_CUDA_LIBS)
gpukinclude_HEADERS += include/gpuk/mpi.h
pkgconfig_DATA += gpuk-mpi.pc
MPI_PROG_LIBS = mpi/libgpuk_mpi.la src/libgpuk.la $(MPI_LIBS) $(LIBM)

# the tests' TAP producer (rank 0 prints, after every rank's verdict)
check_PROGRAMS += mpi/t_dist mpi/t_dist_fail mpi/t_dist_apsp
mpi_t_dist_SOURCES = mpi/t_dist.c mpi/dtap.c mpi/dtap.h mpi/dtest.h
mpi_t_dist_CPPFLAGS = $(MPI_ALL_CPPFLAGS)
mpi_t_dist_LDADD = $(MPI_PROG_LIBS)
mpi_t_dist_fail_SOURCES = mpi/t_dist_fail.c mpi/dtap.c mpi/dtap.h
mpi_t_dist_fail_CPPFLAGS = $(MPI_ALL_CPPFLAGS)
mpi_t_dist_fail_LDADD = $(MPI_PROG_LIBS)
mpi_t_dist_apsp_SOURCES = mpi/t_dist_apsp.c mpi/dtap.c mpi/dtap.h mpi/dtest.h
mpi_t_dist_apsp_CPPFLAGS = $(MPI_ALL_CPPFLAGS)
mpi_t_dist_apsp_LDADD = $(MPI_PROG_LIBS)
TESTS += $(MPI_RANK_TESTS)

# the benchmark: one row per op and size per run; rows of runs on different
# rank counts are combined by mpi/gpuk-dist-bench-combine.sh
bin_PROGRAMS += mpi/gpuk-dist-bench
mpi_gpuk_dist_bench_SOURCES = mpi/gpuk-dist-bench.c
mpi_gpuk_dist_bench_CPPFLAGS = $(MPI_ALL_CPPFLAGS)
mpi_gpuk_dist_bench_LDADD = $(MPI_PROG_LIBS)
bin_SCRIPTS += mpi/gpuk-dist-bench-combine
CLEANFILES += mpi/gpuk-dist-bench-combine
mpi/gpuk-dist-bench-combine: $(top_srcdir)/mpi/gpuk-dist-bench-combine.sh
	$(AM_V_GEN)cp $(top_srcdir)/mpi/gpuk-dist-bench-combine.sh $@ && chmod +x $@
TESTS += mpi/test-dist-bench.sh

# examples/apsp with MPI: gpuk_dist_apsp on every rank (solve_dist.c)
examples_apsp_apsp_SOURCES += examples/apsp/solve_dist.c
examples_apsp_apsp_CPPFLAGS = $(MPI_ALL_CPPFLAGS)
examples_apsp_apsp_LDADD = $(MPI_PROG_LIBS)
$(MPI_RANK_TESTS):
	$(AM_V_GEN)echo '# run by mpi/mpirun-test.sh: program and rank count come from the name' > $@
CLEANFILES += $(MPI_RANK_TESTS)
else
EXTRA_DIST += include/gpuk/mpi.h
# examples/apsp without MPI: one context, gpuk_apsp (solve_one.c)
examples_apsp_apsp_SOURCES += examples/apsp/solve_one.c
examples_apsp_apsp_CPPFLAGS = $(AM_CPPFLAGS)
examples_apsp_apsp_LDADD = src/libgpuk.la $(LIBM)
endif

EXTRA_DIST += mpi/mpirun-test.sh mpi/launcher.sh mpi/gpuk-dist-bench-combine.sh mpi/test-dist-bench.sh \
	examples/apsp/test-apsp.sh gpuk-mpi.pc.in doc/distributed.md

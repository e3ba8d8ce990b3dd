# backend_cpu.so: the CPU backend (naive rungs, cache-blocked, OpenMP+SIMD, OpenBLAS)
pkglib_LTLIBRARIES += backends/cpu/backend_cpu.la
backends_cpu_backend_cpu_la_SOURCES = \
	backends/cpu/cpu.h \
	backends/cpu/dtype.h \
	backends/cpu/simd.h \
	backends/cpu/half.h \
	backends/cpu/half.c \
	backends/cpu/backend.c \
	backends/cpu/table.c \
	backends/cpu/matmul.c \
	backends/cpu/matmul_packed.c \
	backends/cpu/matmul_lowp.c \
	backends/cpu/minplus.c \
	backends/cpu/transpose.c \
	backends/cpu/reduce.c \
	backends/cpu/elementwise.c \
	backends/cpu/rows.c \
	backends/cpu/spmv.c \
	backends/cpu/blas.c \
	backends/cpu/apsp.c \
	backends/cpu/cast.c \
	backends/cpu/peak.c \
	backends/cpu/auto.c
backends_cpu_backend_cpu_la_CFLAGS = $(PLUGIN_CFLAGS) $(OPENMP_CFLAGS) $(OPENBLAS_CFLAGS)
backends_cpu_backend_cpu_la_LDFLAGS = $(PLUGIN_LDFLAGS) $(OPENMP_CFLAGS)
backends_cpu_backend_cpu_la_LIBADD = $(OPENBLAS_LIBS) $(LIBM)

# backend_cuda.so: the CUDA backend (built only when configure finds nvcc).
# The .cu files are listed in _SOURCES so they are always distributed;
# the .cu.lo rule of Makefile.am compiles them.
if HAVE_CUDA
pkglib_LTLIBRARIES += backends/cuda/backend_cuda.la
endif
backends_cuda_backend_cuda_la_SOURCES = \
	backends/cuda/cuda_internal.h \
	backends/cuda/tile_pipe.cuh \
	backends/cuda/backend.cu \
	backends/cuda/table.cu \
	backends/cuda/matmul.cu \
	backends/cuda/sgemm_regtile.cu \
	backends/cuda/sgemm_async.cu \
	backends/cuda/dgemm_mma.cu \
	backends/cuda/minplus.cuh \
	backends/cuda/minplus.cu \
	backends/cuda/minplus_pipe.cu \
	backends/cuda/transpose.cu \
	backends/cuda/reduce.cu \
	backends/cuda/elementwise.cu \
	backends/cuda/rows.cu \
	backends/cuda/spmv.cu \
	backends/cuda/spmv_stream.cu \
	backends/cuda/blas.cu \
	backends/cuda/cublas.cu \
	backends/cuda/cusparse.cu \
	backends/cuda/apsp.cu \
	backends/cuda/peak.cu \
	backends/cuda/transfer.cu \
	backends/cuda/auto.cu
# a C++ file the linker mode is chosen by (nvcc objects need libstdc++)
nodist_EXTRA_backends_cuda_backend_cuda_la_SOURCES = backends/cuda/link_cxx.cxx
backends_cuda_backend_cuda_la_LDFLAGS = $(PLUGIN_LDFLAGS) $(PTHREAD_LIBS)
backends_cuda_backend_cuda_la_LIBADD = $(CUDA_LIBS)
# no automatic dependency tracking for .cu: rebuild all objects when a header changes
$(backends_cuda_backend_cuda_la_OBJECTS): $(top_srcdir)/backends/cuda/cuda_internal.h \
	$(top_srcdir)/backends/cuda/tile_pipe.cuh $(top_srcdir)/backends/cuda/minplus.cuh \
	$(top_srcdir)/include/gpuk/backend.h

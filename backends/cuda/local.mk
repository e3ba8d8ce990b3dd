# backend_cuda.so: the CUDA backend (built only when configure finds nvcc).
# The .cu files are listed in _SOURCES so they are always distributed;
# the .cu.lo rule of Makefile.am compiles them.
if HAVE_CUDA
pkglib_LTLIBRARIES += backends/cuda/backend_cuda.la
endif
backends_cuda_backend_cuda_la_SOURCES = \
	backends/cuda/cuda_internal.h \
	backends/cuda/elem.cuh \
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
	backends/cuda/cast.cu \
	backends/cuda/rows.cu \
	backends/cuda/spmv.cu \
	backends/cuda/spmv_stream.cu \
	backends/cuda/blas.cu \
	backends/cuda/cublas.cu \
	backends/cuda/cusparse.cu \
	backends/cuda/apsp.cu \
	backends/cuda/apsp_close.cuh \
	backends/cuda/peak.cu \
	backends/cuda/transfer.cu \
	backends/cuda/auto.cu \
	backends/cuda/tc_common.cuh \
	backends/cuda/tc_hopper.cuh \
	backends/cuda/tc_common.cu \
	backends/cuda/hgemm_wmma.cu \
	backends/cuda/hgemm_mma.cu \
	backends/cuda/hgemm_wgmma.cu \
	backends/cuda/hgemm_ws.cu \
	backends/cuda/tgemm_wgmma.cu \
	backends/cuda/cublas_lowp.cu \
	backends/cuda/peak_tc.cu
# a C++ file the linker mode is chosen by (nvcc objects need libstdc++)
nodist_EXTRA_backends_cuda_backend_cuda_la_SOURCES = backends/cuda/link_cxx.cxx
backends_cuda_backend_cuda_la_LDFLAGS = $(PLUGIN_LDFLAGS) $(PTHREAD_LIBS)
backends_cuda_backend_cuda_la_LIBADD = $(CUDA_LIBS)
# no automatic dependency tracking for .cu: rebuild all objects when a header changes
$(backends_cuda_backend_cuda_la_OBJECTS): $(top_srcdir)/backends/cuda/cuda_internal.h \
	$(top_srcdir)/backends/cuda/elem.cuh $(top_srcdir)/backends/cuda/tile_pipe.cuh \
	$(top_srcdir)/backends/cuda/minplus.cuh $(top_srcdir)/backends/cuda/apsp_close.cuh \
	$(top_srcdir)/include/gpuk/backend.h

# The tensor-core matmul rungs (issue 27).  wgmma and setmaxnreg exist
# only in sm_90a code, which runs on compute capability 9.0 alone: the
# files that use them are built for sm_90a and nothing else, whatever
# --with-cuda-arch lists, and each of their rungs asks the device first
# (gkc_tc_hopper) and takes a portable rung elsewhere.  The other files
# of the ladder follow the configured architectures.
GKC_SM90A_OBJECTS = backends/cuda/hgemm_wgmma.lo backends/cuda/hgemm_ws.lo \
	backends/cuda/tgemm_wgmma.lo backends/cuda/peak_tc.lo
GKC_TC_OBJECTS = backends/cuda/tc_common.lo backends/cuda/hgemm_wmma.lo \
	backends/cuda/hgemm_mma.lo backends/cuda/cublas_lowp.lo $(GKC_SM90A_OBJECTS)
$(GKC_TC_OBJECTS): $(top_srcdir)/backends/cuda/tc_common.cuh
$(GKC_SM90A_OBJECTS): $(top_srcdir)/backends/cuda/tc_hopper.cuh
GKC_SM90A_FLAGS = -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a -Xcompiler=-fPIC \
	-Xcompiler=-fvisibility=hidden -Xcompiler=-Wall $(NVCCFLAGS)
$(GKC_SM90A_OBJECTS): %.lo: %.cu
	$(AM_V_CC)$(LIBTOOL) $(AM_V_lt) --tag=CC --mode=compile $(NVCC) \
	  $(DEFS) $(DEFAULT_INCLUDES) $(AM_CPPFLAGS) $(CUDA_CPPFLAGS) $(GKC_SM90A_FLAGS) \
	  -prefer-non-pic -c -o $@ $<

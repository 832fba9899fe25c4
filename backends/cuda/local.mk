# The cuda plugin (only this links the CUDA runtime, statically), built by
# nvcc from the shared GPU sources in backends/gpu/ (whose local.mk, included
# here, has the compile rules of every port).
include $(srcdir)/backends/gpu/local.mk

if PS_BUILD_CUDA
pkglib_LTLIBRARIES += backends/cuda/pstencil_cuda.la
backends_cuda_pstencil_cuda_la_SOURCES =
backends_cuda_pstencil_cuda_la_LIBADD = $(addprefix backends/cuda/,$(PS_GPU_OBJS)) \
	-lcudart_static -lrt -lpthread -ldl -lstdc++
backends_cuda_pstencil_cuda_la_DEPENDENCIES = $(addprefix backends/cuda/,$(PS_GPU_OBJS))
backends_cuda_pstencil_cuda_la_LDFLAGS = -module -avoid-version -shared -L$(CUDA_LIBDIR) \
	-export-symbols-regex '^ps_backend_plugin_entry$$'
endif

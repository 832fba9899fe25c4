# The cuda plugin (only this links the CUDA runtime, statically). Also the
# sources shared with the hip plugin (backends/gpu/).
#
# libtool does not drive nvcc: each .cu is compiled to a PIC object by an
# explicit rule and wrapped as a libtool object (.lo) by
# backends/gpu/ps-libtool-object.sh; the module is then linked by libtool
# with the C compiler (-lstdc++ for nvcc's host code).
PS_GPU_SRCS = backends/gpu/ps_gpu_port.h backends/gpu/ps_gpu_kernels.h \
	backends/gpu/ps_gpu_backend.inc
PS_GPU_DEPS = $(addprefix $(top_srcdir)/,$(PS_GPU_SRCS)) \
	$(addprefix $(top_srcdir)/,$(PS_KERNEL_FILES)) $(top_srcdir)/core/ps_plugin.h \
	$(top_srcdir)/core/ps_backend.h $(top_srcdir)/core/ps_field.h \
	$(top_srcdir)/core/ps_stencil.h $(top_srcdir)/core/ps_status.h $(top_builddir)/config.h
PS_GPU_CPPFLAGS = -DHAVE_CONFIG_H -I$(top_builddir) -I$(top_srcdir)/core \
	-I$(top_srcdir)/kernels -I$(top_srcdir)/backends/gpu
PS_LIBTOOL_OBJECT = $(SHELL) $(top_srcdir)/backends/gpu/ps-libtool-object.sh
EXTRA_DIST += $(PS_GPU_SRCS) backends/gpu/ps-libtool-object.sh \
	backends/cuda/ps_cuda.cu backends/cuda/ps_cuda_fast.cu

# Exact mode (design.md 2): no FMA contraction, IEEE division and sqrt, no
# flush to zero. Fast mode: contraction and approximate division.
PS_NVCC_BASE = -std=c++20 -O3 -ccbin $(NVCC_CCBIN) -Xcompiler -fPIC $(PS_GPU_CPPFLAGS) $(PS_NVCC_NVTX)
if PS_ENABLE_NVTX
PS_NVCC_NVTX = -DPS_WITH_NVTX=1
endif
PS_NVCC_EXACT = --fmad=false -prec-div=true -prec-sqrt=true -ftz=false
PS_NVCC_FAST = --fmad=true -prec-div=false -prec-sqrt=false -ftz=false

if PS_BUILD_CUDA
pkglib_LTLIBRARIES += backends/cuda/pstencil_cuda.la
backends_cuda_pstencil_cuda_la_SOURCES =
backends_cuda_pstencil_cuda_la_LIBADD = backends/cuda/ps_cuda.lo backends/cuda/ps_cuda_fast.lo \
	-lcudart_static -lrt -lpthread -ldl -lstdc++
backends_cuda_pstencil_cuda_la_DEPENDENCIES = backends/cuda/ps_cuda.lo backends/cuda/ps_cuda_fast.lo
backends_cuda_pstencil_cuda_la_LDFLAGS = -module -avoid-version -shared -L$(CUDA_LIBDIR) \
	-export-symbols-regex '^ps_backend_plugin_entry$$'

backends/cuda/ps_cuda.lo: $(top_srcdir)/backends/cuda/ps_cuda.cu $(PS_GPU_DEPS)
	@$(MKDIR_P) backends/cuda/.libs
	$(AM_V_GEN)$(NVCC) $(PS_NVCC_BASE) $(NVCC_GENCODE) $(PS_NVCC_EXACT) $(NVCCFLAGS) \
	  -c $(top_srcdir)/backends/cuda/ps_cuda.cu -o backends/cuda/.libs/ps_cuda.o && \
	$(PS_LIBTOOL_OBJECT) backends/cuda ps_cuda

backends/cuda/ps_cuda_fast.lo: $(top_srcdir)/backends/cuda/ps_cuda_fast.cu $(PS_GPU_DEPS)
	@$(MKDIR_P) backends/cuda/.libs
	$(AM_V_GEN)$(NVCC) $(PS_NVCC_BASE) $(NVCC_GENCODE) $(PS_NVCC_FAST) $(NVCCFLAGS) \
	  -c $(top_srcdir)/backends/cuda/ps_cuda_fast.cu -o backends/cuda/.libs/ps_cuda_fast.o && \
	$(PS_LIBTOOL_OBJECT) backends/cuda ps_cuda_fast

# PTX of both kernels with the very flags of the objects, for tests/gpu_ptx.sh.
PS_CUDA_PTX = backends/cuda/ps_cuda_exact.ptx backends/cuda/ps_cuda_fast.ptx
backends/cuda/ps_cuda_exact.ptx: $(top_srcdir)/backends/cuda/ps_cuda.cu $(PS_GPU_DEPS)
	@$(MKDIR_P) backends/cuda
	$(AM_V_GEN)$(NVCC) $(PS_NVCC_BASE) -arch=$(NVCC_PTX_ARCH) $(PS_NVCC_EXACT) $(NVCCFLAGS) \
	  -ptx $(top_srcdir)/backends/cuda/ps_cuda.cu -o $@
backends/cuda/ps_cuda_fast.ptx: $(top_srcdir)/backends/cuda/ps_cuda_fast.cu $(PS_GPU_DEPS)
	@$(MKDIR_P) backends/cuda
	$(AM_V_GEN)$(NVCC) $(PS_NVCC_BASE) -arch=$(NVCC_PTX_ARCH) $(PS_NVCC_FAST) $(NVCCFLAGS) \
	  -ptx $(top_srcdir)/backends/cuda/ps_cuda_fast.cu -o $@
endif
CLEANFILES += backends/cuda/*.lo backends/cuda/*.o backends/cuda/.libs/*.o backends/cuda/*.ptx

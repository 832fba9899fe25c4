# backends/gpu/: the one source of the cuda, hip and gpumock plugins, and the
# rules that compile it once per port (included by backends/cuda/local.mk).
#
# Every .cpp here is a translation unit compiled three times, with
# -DPS_GPU_PORT_CUDA by nvcc into backends/cuda/, -DPS_GPU_PORT_HIP by hipcc
# into backends/hip/ and -DPS_GPU_PORT_MOCK by the host C++ compiler into
# backends/gpu/mock/ (tests only), with the project's warnings. The host
# units (PS_GPU_HOST, fast/ps_gpu_fast.cpp the table of the tuned kernels
# among them, built into DIR/fast/) are plain host code; ps_gpu_launch.cpp holds the
# kernels and is compiled twice per port, with the exact-mode flags
# (-DPS_GPU_EXACT) and with the fast-mode flags (-DPS_GPU_FAST).
#
# libtool does not drive nvcc or hipcc: each unit is compiled to a PIC object
# in DIR/.libs/ by these rules and wrapped as a libtool object (DIR/NAME.lo)
# by ps-libtool-object.sh; the modules are then linked by libtool with the C
# compiler (-lstdc++ for the C++ host code).
PS_GPU_HOST = ps_gpu_device ps_gpu_context ps_gpu_memory ps_gpu_step ps_gpu_timing \
	ps_gpu_plugin fast/ps_gpu_fast
PS_GPU_HDRS = backends/gpu/ps_gpu_port.h backends/gpu/ps_gpu_port_cuda.h \
	backends/gpu/ps_gpu_port_hip.h backends/gpu/ps_gpu_mock.h \
	backends/gpu/ps_gpu_context.h backends/gpu/ps_gpu_kernels.h
PS_GPU_SRCS = $(PS_GPU_HDRS) backends/gpu/ps_gpu_device.cpp \
	backends/gpu/ps_gpu_context.cpp backends/gpu/ps_gpu_memory.cpp \
	backends/gpu/ps_gpu_step.cpp backends/gpu/ps_gpu_timing.cpp \
	backends/gpu/ps_gpu_plugin.cpp backends/gpu/ps_gpu_launch.cpp \
	backends/gpu/fast/ps_gpu_fast.cpp backends/gpu/fast/ps_gpu_fast.h
# the objects of one port's plugin, in its directory
PS_GPU_OBJS = $(addsuffix .lo,$(PS_GPU_HOST) ps_gpu_launch_exact ps_gpu_launch_fast)
PS_GPU_DEPS = $(addprefix $(top_srcdir)/,$(PS_GPU_HDRS)) \
	$(addprefix $(top_srcdir)/,$(PS_KERNEL_HOST_FILES)) $(top_srcdir)/core/ps_plugin.h \
	$(top_srcdir)/core/ps_backend.h $(top_srcdir)/core/ps_field.h \
	$(top_srcdir)/core/ps_stencil.h $(top_srcdir)/core/ps_status.h \
	$(top_srcdir)/core/ps_knobs.h $(top_srcdir)/core/ps_knobs_env.h \
	$(top_srcdir)/core/ps_plugin_land.h $(top_builddir)/config.h
# the host units' too: the fast-path table's header (the kernels do not read it)
PS_GPU_HOST_DEPS = $(PS_GPU_DEPS) $(top_srcdir)/backends/gpu/fast/ps_gpu_fast.h
PS_GPU_CPPFLAGS = -DHAVE_CONFIG_H -I$(top_builddir) -I$(top_srcdir)/core \
	-I$(top_srcdir)/kernels -I$(top_srcdir)/backends/gpu
PS_LIBTOOL_OBJECT = $(SHELL) $(top_srcdir)/backends/gpu/ps-libtool-object.sh
EXTRA_DIST += $(PS_GPU_SRCS) backends/gpu/local.mk backends/gpu/ps-libtool-object.sh

# In every rule the user's NVCCFLAGS / HIPCCFLAGS come FIRST, so the
# numerical-mode flags after them win (nvcc and clang take the last value
# of a repeated option): a user's --fmad=true cannot make exact mode fuse.

# ---- cuda (nvcc) -----------------------------------------------------------
# Exact mode (docs/numerical-contract.md): no FMA contraction, IEEE division
# and sqrt, no flush to zero. Fast mode: contraction and approximate division.
PS_NVCC_BASE = -std=c++20 -O3 -ccbin $(NVCC_CCBIN) -Xcompiler -fPIC,-Wall,-Wextra \
	-Xcompiler -ffp-contract=off $(PS_GPU_CPPFLAGS) -DPS_GPU_PORT_CUDA $(PS_NVCC_NVTX)
if PS_ENABLE_NVTX
PS_NVCC_NVTX = -DPS_WITH_NVTX=1
endif
PS_NVCC_EXACT = -DPS_GPU_EXACT --fmad=false -prec-div=true -prec-sqrt=true -ftz=false
PS_NVCC_FAST = -DPS_GPU_FAST --fmad=true -prec-div=false -prec-sqrt=false -ftz=false
PS_CUDA_HOST_OBJS = $(addprefix backends/cuda/,$(addsuffix .lo,$(PS_GPU_HOST)))
if PS_BUILD_CUDA
# host units: nvcc compiles a .cpp as host C++ (with the CUDA headers)
$(PS_CUDA_HOST_OBJS): backends/cuda/%.lo: $(top_srcdir)/backends/gpu/%.cpp $(PS_GPU_HOST_DEPS)
	@$(MKDIR_P) $(@D)/.libs
	$(AM_V_GEN)$(NVCC) $(NVCCFLAGS) $(PS_NVCC_BASE) -c $< -o $(@D)/.libs/$(*F).o && \
	$(PS_LIBTOOL_OBJECT) $(@D) $(*F)
backends/cuda/ps_gpu_launch_exact.lo: $(top_srcdir)/backends/gpu/ps_gpu_launch.cpp $(PS_GPU_DEPS)
	@$(MKDIR_P) backends/cuda/.libs
	$(AM_V_GEN)$(NVCC) $(NVCCFLAGS) $(PS_NVCC_BASE) $(NVCC_GENCODE) $(PS_NVCC_EXACT) \
	  -x cu -c $(top_srcdir)/backends/gpu/ps_gpu_launch.cpp \
	  -o backends/cuda/.libs/ps_gpu_launch_exact.o && \
	$(PS_LIBTOOL_OBJECT) backends/cuda ps_gpu_launch_exact
backends/cuda/ps_gpu_launch_fast.lo: $(top_srcdir)/backends/gpu/ps_gpu_launch.cpp $(PS_GPU_DEPS)
	@$(MKDIR_P) backends/cuda/.libs
	$(AM_V_GEN)$(NVCC) $(NVCCFLAGS) $(PS_NVCC_BASE) $(NVCC_GENCODE) $(PS_NVCC_FAST) \
	  -x cu -c $(top_srcdir)/backends/gpu/ps_gpu_launch.cpp \
	  -o backends/cuda/.libs/ps_gpu_launch_fast.o && \
	$(PS_LIBTOOL_OBJECT) backends/cuda ps_gpu_launch_fast
# PTX of both kernel units with the very flags of the objects (tests/gpu/ptx.sh)
PS_CUDA_PTX = backends/cuda/ps_cuda_exact.ptx backends/cuda/ps_cuda_fast.ptx
backends/cuda/ps_cuda_exact.ptx: $(top_srcdir)/backends/gpu/ps_gpu_launch.cpp $(PS_GPU_DEPS)
	@$(MKDIR_P) backends/cuda
	$(AM_V_GEN)$(NVCC) $(NVCCFLAGS) $(PS_NVCC_BASE) -arch=$(NVCC_PTX_ARCH) $(PS_NVCC_EXACT) \
	  -x cu -ptx $(top_srcdir)/backends/gpu/ps_gpu_launch.cpp -o $@
backends/cuda/ps_cuda_fast.ptx: $(top_srcdir)/backends/gpu/ps_gpu_launch.cpp $(PS_GPU_DEPS)
	@$(MKDIR_P) backends/cuda
	$(AM_V_GEN)$(NVCC) $(NVCCFLAGS) $(PS_NVCC_BASE) -arch=$(NVCC_PTX_ARCH) $(PS_NVCC_FAST) \
	  -x cu -ptx $(top_srcdir)/backends/gpu/ps_gpu_launch.cpp -o $@
endif
CLEANFILES += backends/cuda/*.lo backends/cuda/*.o backends/cuda/.libs/*.o backends/cuda/*.ptx \
	backends/cuda/fast/*.lo backends/cuda/fast/*.o backends/cuda/fast/.libs/*.o

# ---- hip (hipcc) -----------------------------------------------------------
# Exact mode: no contraction (clang's HIP default is fast), no fast math.
# Fast mode: contraction and reciprocals, but never -ffast-math (it implies
# finite-math-only, which would delete the NaN tests that keep land masked).
PS_HIPCC_BASE = -std=c++20 -O3 -fPIC -Wall -Wextra $(PS_GPU_CPPFLAGS) -DPS_GPU_PORT_HIP
PS_HIPCC_EXACT = -DPS_GPU_EXACT -ffp-contract=off -fno-fast-math
PS_HIPCC_FAST = -DPS_GPU_FAST -ffp-contract=fast -freciprocal-math
PS_HIP_HOST_OBJS = $(addprefix backends/hip/,$(addsuffix .lo,$(PS_GPU_HOST)))
if PS_BUILD_HIP
# host units: HIP, host side only (no device code to build)
$(PS_HIP_HOST_OBJS): backends/hip/%.lo: $(top_srcdir)/backends/gpu/%.cpp $(PS_GPU_HOST_DEPS)
	@$(MKDIR_P) $(@D)/.libs
	$(AM_V_GEN)$(HIPCC) $(HIPCCFLAGS) $(PS_HIPCC_BASE) $(HIP_OFFLOAD) -ffp-contract=off \
	  --cuda-host-only -x hip -c $< -o $(@D)/.libs/$(*F).o && \
	$(PS_LIBTOOL_OBJECT) $(@D) $(*F)
backends/hip/ps_gpu_launch_exact.lo: $(top_srcdir)/backends/gpu/ps_gpu_launch.cpp $(PS_GPU_DEPS)
	@$(MKDIR_P) backends/hip/.libs
	$(AM_V_GEN)$(HIPCC) $(HIPCCFLAGS) $(PS_HIPCC_BASE) $(HIP_OFFLOAD) $(PS_HIPCC_EXACT) \
	  -x hip -c $(top_srcdir)/backends/gpu/ps_gpu_launch.cpp \
	  -o backends/hip/.libs/ps_gpu_launch_exact.o && \
	$(PS_LIBTOOL_OBJECT) backends/hip ps_gpu_launch_exact
backends/hip/ps_gpu_launch_fast.lo: $(top_srcdir)/backends/gpu/ps_gpu_launch.cpp $(PS_GPU_DEPS)
	@$(MKDIR_P) backends/hip/.libs
	$(AM_V_GEN)$(HIPCC) $(HIPCCFLAGS) $(PS_HIPCC_BASE) $(HIP_OFFLOAD) $(PS_HIPCC_FAST) \
	  -x hip -c $(top_srcdir)/backends/gpu/ps_gpu_launch.cpp \
	  -o backends/hip/.libs/ps_gpu_launch_fast.o && \
	$(PS_LIBTOOL_OBJECT) backends/hip ps_gpu_launch_fast
# device LLVM IR of both kernel units for EVERY target (tests/gpu/hip_ir.sh)
PS_HIP_IR = $(foreach t,$(HIP_TARGETS),backends/hip/ps_hip_exact-$(t).ll \
	backends/hip/ps_hip_fast-$(t).ll)
backends/hip/ps_hip_exact-%.ll: $(top_srcdir)/backends/gpu/ps_gpu_launch.cpp $(PS_GPU_DEPS)
	@$(MKDIR_P) backends/hip
	$(AM_V_GEN)$(HIPCC) $(HIPCCFLAGS) $(PS_HIPCC_BASE) --offload-arch=$* $(PS_HIPCC_EXACT) \
	  --cuda-device-only -S -emit-llvm -x hip $(top_srcdir)/backends/gpu/ps_gpu_launch.cpp -o $@
backends/hip/ps_hip_fast-%.ll: $(top_srcdir)/backends/gpu/ps_gpu_launch.cpp $(PS_GPU_DEPS)
	@$(MKDIR_P) backends/hip
	$(AM_V_GEN)$(HIPCC) $(HIPCCFLAGS) $(PS_HIPCC_BASE) --offload-arch=$* $(PS_HIPCC_FAST) \
	  --cuda-device-only -S -emit-llvm -x hip $(top_srcdir)/backends/gpu/ps_gpu_launch.cpp -o $@
endif
CLEANFILES += backends/hip/*.lo backends/hip/*.o backends/hip/.libs/*.o backends/hip/*.ll \
	backends/hip/fast/*.lo backends/hip/fast/*.o backends/hip/fast/.libs/*.o

# ---- gpumock (the host C++ compiler; tests only) ----------------------------
# The same units over the host-memory runtime of ps_gpu_mock.h; both kernel
# units keep the exact flags (the host compiler has no fast GPU arithmetic).
PS_MOCK_CXX = $(CC) -x c++
PS_MOCK_FLAGS = -std=c++20 -O2 -fPIC -ffp-contract=off -fno-fast-math -Wall -Wextra \
	$(PS_GPU_CPPFLAGS) -DPS_GPU_PORT_MOCK
PS_MOCK_HOST_OBJS = $(addprefix backends/gpu/mock/,$(addsuffix .lo,$(PS_GPU_HOST)))
$(PS_MOCK_HOST_OBJS): backends/gpu/mock/%.lo: $(top_srcdir)/backends/gpu/%.cpp $(PS_GPU_HOST_DEPS)
	@$(MKDIR_P) $(@D)/.libs
	$(AM_V_GEN)$(PS_MOCK_CXX) $(PS_MOCK_FLAGS) -c $< -o $(@D)/.libs/$(*F).o && \
	$(PS_LIBTOOL_OBJECT) $(@D) $(*F)
backends/gpu/mock/ps_gpu_launch_exact.lo: $(top_srcdir)/backends/gpu/ps_gpu_launch.cpp $(PS_GPU_DEPS)
	@$(MKDIR_P) backends/gpu/mock/.libs
	$(AM_V_GEN)$(PS_MOCK_CXX) $(PS_MOCK_FLAGS) -DPS_GPU_EXACT \
	  -c $(top_srcdir)/backends/gpu/ps_gpu_launch.cpp \
	  -o backends/gpu/mock/.libs/ps_gpu_launch_exact.o && \
	$(PS_LIBTOOL_OBJECT) backends/gpu/mock ps_gpu_launch_exact
backends/gpu/mock/ps_gpu_launch_fast.lo: $(top_srcdir)/backends/gpu/ps_gpu_launch.cpp $(PS_GPU_DEPS)
	@$(MKDIR_P) backends/gpu/mock/.libs
	$(AM_V_GEN)$(PS_MOCK_CXX) $(PS_MOCK_FLAGS) -DPS_GPU_FAST \
	  -c $(top_srcdir)/backends/gpu/ps_gpu_launch.cpp \
	  -o backends/gpu/mock/.libs/ps_gpu_launch_fast.o && \
	$(PS_LIBTOOL_OBJECT) backends/gpu/mock ps_gpu_launch_fast
CLEANFILES += backends/gpu/mock/*.lo backends/gpu/mock/*.o backends/gpu/mock/.libs/*.o \
	backends/gpu/mock/fast/*.lo backends/gpu/mock/fast/*.o backends/gpu/mock/fast/.libs/*.o

# ---- gpumock under AddressSanitizer (tests/gpu/mock.sh runs it once) -------
# The same units with -fsanitize=address, linked straight into
# backends/gpu/asan/pstencil_gpumock.so (a test-only plugin on no default
# path: the test points PSTENCIL_PLUGIN_PATH at it and preloads the runtime).
PS_MOCK_ASAN_FLAGS = $(PS_MOCK_FLAGS) -O1 -g -fsanitize=address -fno-omit-frame-pointer
PS_MOCK_ASAN_OBJS = $(addprefix backends/gpu/asan/,$(addsuffix .o,$(PS_GPU_HOST) \
	ps_gpu_launch_exact ps_gpu_launch_fast))
$(addprefix backends/gpu/asan/,$(addsuffix .o,$(PS_GPU_HOST))): backends/gpu/asan/%.o: \
		$(top_srcdir)/backends/gpu/%.cpp $(PS_GPU_HOST_DEPS)
	@$(MKDIR_P) $(@D)
	$(AM_V_GEN)$(PS_MOCK_CXX) $(PS_MOCK_ASAN_FLAGS) -c $< -o $@
backends/gpu/asan/ps_gpu_launch_%.o: $(top_srcdir)/backends/gpu/ps_gpu_launch.cpp $(PS_GPU_DEPS)
	@$(MKDIR_P) backends/gpu/asan
	$(AM_V_GEN)$(PS_MOCK_CXX) $(PS_MOCK_ASAN_FLAGS) \
	  -DPS_GPU_`echo $* | tr a-z A-Z` -c $< -o $@
backends/gpu/asan/pstencil_gpumock.so: $(PS_MOCK_ASAN_OBJS)
	$(AM_V_GEN)$(CC) -shared -fsanitize=address -o $@ $(PS_MOCK_ASAN_OBJS) -lstdc++ -lm
CLEANFILES += backends/gpu/asan/*.o backends/gpu/asan/*.so backends/gpu/asan/fast/*.o

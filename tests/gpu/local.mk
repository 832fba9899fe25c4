# gpu: the cuda and hip plugins. None needs a GPU to pass or skip; on a
# machine with one, tests/gpu/run-on-gpu.sh (docs/gpu.md) is the prepared run.

check_PROGRAMS += tests/gpu/test_gpu_loader tests/gpu/test_gpu_backend
tests_gpu_test_gpu_loader_SOURCES = tests/gpu/test_gpu_loader.c
tests_gpu_test_gpu_loader_LDADD = core/libpstencil.la -lm
tests_gpu_test_gpu_backend_SOURCES = tests/gpu/test_gpu_backend.c
tests_gpu_test_gpu_backend_LDADD = core/libpstencil.la -lm
# Both plugins load anywhere; without a device probe and create fail with
# the reason (no driver, no device); only the entry point is exported.
TESTS += tests/gpu/test_gpu_loader
# cuda/hip bitwise against the reference on a GPU (skips without a device).
TESTS += tests/gpu/test_gpu_backend
# The exact kernel's PTX has no fma and uses div.rn; the fast kernel's does
# contract (so the check can fail).
TESTS += tests/gpu/ptx.sh
# The same for the hip kernels' device LLVM IR, every target.
TESTS += tests/gpu/hip_ir.sh
# bench/gpu_bench prints its RESULT line and checks bitwise on the mock.
TESTS += tests/gpu/bench.sh
# validate --backend cuda|hip where such a GPU exists (skips otherwise).
TESTS += tests/gpu/validate.sh
# run-on-gpu.sh's direct build (gcc + nvcc, no netCDF) compiles, links and
# runs here (skips without nvcc; a build of its own: check-full only, and the
# CI job gpu-direct).
FULL_TESTS += tests/gpu/direct_build.sh
# NVCCFLAGS/HIPCCFLAGS cannot override the exact-mode flags; HIP on NVIDIA is
# refused at compile time.
TESTS += tests/gpu/flags.sh
EXTRA_DIST += .ci/jobs/gpu-direct.sh tests/gpu/flags.sh tests/gpu/ptx.sh tests/gpu/hip_ir.sh tests/gpu/validate.sh tests/gpu/bench.sh \
	tests/gpu/direct_build.sh tests/gpu/run-on-gpu.sh tests/gpu/README.md

# the generated PTX / IR are built before the tests that read them
if PS_BUILD_CUDA
tests/gpu/ptx.log: $(PS_CUDA_PTX)
endif
if PS_BUILD_HIP
tests/gpu/hip_ir.log: $(PS_HIP_IR)
endif

# The tuned kernel's thread body emulated on the CPU (no GPU needed), built by
# nvcc with the exact-mode flags; the host compiler gets -ffp-contract=off too.
EXTRA_DIST += tests/gpu/test_gpu_emulate.cu
if PS_BUILD_CUDA
TESTS += tests/gpu/test_gpu_emulate
CLEANFILES += tests/gpu/test_gpu_emulate$(EXEEXT)
tests/gpu/test_gpu_emulate$(EXEEXT): $(top_srcdir)/tests/gpu/test_gpu_emulate.cu $(PS_GPU_DEPS)
	@$(MKDIR_P) tests/gpu
	$(AM_V_GEN)$(NVCC) $(NVCCFLAGS) $(PS_NVCC_BASE) -arch=$(NVCC_PTX_ARCH) $(PS_NVCC_EXACT) \
	  $(top_srcdir)/tests/gpu/test_gpu_emulate.cu -o $@ \
	  -L$(CUDA_LIBDIR) -lcudart_static -lrt -lpthread -ldl
endif

# "gpumock": the GPU plugin's sources compiled for the host-memory runtime of
# backends/gpu/ps_gpu_mock.h by the host C++ compiler (rules in
# backends/gpu/local.mk), a test-only plugin next to the cuda plugin (on the
# test plugin path), run through test_gpu_backend: every stencil's generic
# kernel and diffusion7's tuned one through the same launch mapping as the
# device, graph capture/replay, staged and region copies, profiling, errors.
# Needs no GPU and no GPU compiler.
EXTRA_DIST += tests/gpu/mock.sh
check_LTLIBRARIES += backends/cuda/pstencil_gpumock.la
backends_cuda_pstencil_gpumock_la_SOURCES =
backends_cuda_pstencil_gpumock_la_LIBADD = $(addprefix backends/gpu/mock/,$(PS_GPU_OBJS)) -lstdc++
backends_cuda_pstencil_gpumock_la_DEPENDENCIES = $(addprefix backends/gpu/mock/,$(PS_GPU_OBJS))
backends_cuda_pstencil_gpumock_la_LDFLAGS = -module -avoid-version -shared -rpath $(abs_builddir) \
	-export-symbols-regex '^ps_backend_plugin_entry$$'
# The GPU plugin's host code and kernels over the host-memory mock, every
# stencil, bitwise, and once under AddressSanitizer.
TESTS += tests/gpu/mock.sh
SAMPLED_TESTS += tests/gpu/mock.sh
# ... and once under AddressSanitizer (rules in backends/gpu/local.mk)
tests/gpu/mock.log: backends/gpu/asan/pstencil_gpumock.so
# The generic kernels' fused steps (gpu_fuse) on the mock: the launches a run
# makes, and every test_gpu_backend case bitwise with 2 and 4 steps fused.
TESTS += tests/gpu/generic_fused.sh
EXTRA_DIST += tests/gpu/generic_fused.sh

# The generic kernels' land-sum form and the masked one (gpu_zero_land=0)
# on the mock (and on a CUDA/HIP device where there is one), bitwise on the
# inputs that tell them apart, with and without graphs.
TESTS += tests/gpu/landsum.sh
EXTRA_DIST += tests/gpu/landsum.sh

# The mock's barriers: each block's threads as fibers when a kernel is
# launched with PS_GPU_KERNEL_LAUNCH_SYNC; a kernel missing its
# __syncthreads() must give a wrong result (built by the host C++ compiler).
EXTRA_DIST += tests/gpu/test_gpu_mock_sync.cpp
TESTS += tests/gpu/test_gpu_mock_sync
CLEANFILES += tests/gpu/test_gpu_mock_sync$(EXEEXT)
tests/gpu/test_gpu_mock_sync$(EXEEXT): $(top_srcdir)/tests/gpu/test_gpu_mock_sync.cpp $(PS_GPU_DEPS)
	@$(MKDIR_P) tests/gpu
	$(AM_V_GEN)$(PS_MOCK_CXX) $(PS_MOCK_FLAGS) $(top_srcdir)/tests/gpu/test_gpu_mock_sync.cpp \
	  -o $@ -lstdc++

# The fast-path table alone (host C++, no device): diffusion7's entry in both
# precisions and modes with every tuned variant, no
# entry for another stencil (built by the host C++ compiler with the mock port).
EXTRA_DIST += tests/gpu/test_gpu_fast.cpp
TESTS += tests/gpu/test_gpu_fast
CLEANFILES += tests/gpu/test_gpu_fast$(EXEEXT)
tests/gpu/test_gpu_fast$(EXEEXT): $(top_srcdir)/tests/gpu/test_gpu_fast.cpp \
		$(top_srcdir)/backends/gpu/fast/ps_gpu_fast.cpp $(PS_GPU_HOST_DEPS)
	@$(MKDIR_P) tests/gpu
	$(AM_V_GEN)$(PS_MOCK_CXX) $(PS_MOCK_FLAGS) $(top_srcdir)/tests/gpu/test_gpu_fast.cpp \
	  $(top_srcdir)/backends/gpu/fast/ps_gpu_fast.cpp -o $@ -lstdc++

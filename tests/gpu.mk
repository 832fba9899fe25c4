# GPU tests (cuda and hip plugins). None needs a GPU to pass or skip:
#  - gpu_ptx.sh: the exact kernel's PTX has no fma and uses div.rn; the fast
#    kernel's PTX does contract/approximate (so the check can fail);
#  - gpu_hip_ir.sh: the same for the hip kernels' device LLVM IR;
#  - test_gpu_loader: both plugins load; without a device probe and create
#    fail with the reason (no CUDA driver/device, no ROCm/HIP device);
#  - test_gpu_backend: bitwise comparison with the reference on a GPU
#    (skips, exit 77, without a device);
#  - gpu_validate.sh: `pstencil validate --backend cuda|hip` (skips without a
#    device or while the validate subcommand does not exist);
#  - gpu_direct_build.sh: tests/gpu/run-on-gpu.sh's direct build (gcc + nvcc,
#    no netCDF) compiles, links and runs here (skips without nvcc);
#  - gpu_flags.sh: NVCCFLAGS/HIPCCFLAGS cannot override the exact-mode flags;
#    HIP on NVIDIA is refused at compile time.
check_PROGRAMS += tests/test_gpu_loader tests/test_gpu_backend
tests_test_gpu_loader_SOURCES = tests/test_gpu_loader.c
tests_test_gpu_loader_LDADD = core/libpstencil.la -lm
tests_test_gpu_backend_SOURCES = tests/test_gpu_backend.c
tests_test_gpu_backend_LDADD = core/libpstencil.la -lm
TESTS += tests/test_gpu_loader tests/test_gpu_backend tests/gpu_ptx.sh tests/gpu_hip_ir.sh \
	tests/gpu_bench.sh tests/gpu_validate.sh tests/gpu_direct_build.sh tests/gpu_flags.sh
EXTRA_DIST += .ci/jobs/gpu-direct.sh tests/gpu_flags.sh tests/gpu_ptx.sh tests/gpu_hip_ir.sh tests/gpu_validate.sh tests/gpu_bench.sh \
	tests/gpu_direct_build.sh tests/gpu/run-on-gpu.sh tests/gpu/README.md

# the generated PTX / IR are built before the tests that read them
if PS_BUILD_CUDA
tests/gpu_ptx.log: $(PS_CUDA_PTX)
endif
if PS_BUILD_HIP
tests/gpu_hip_ir.log: $(PS_HIP_IR)
endif

# The tuned kernel's thread body emulated on the CPU (no GPU needed), built by
# nvcc with the exact-mode flags; the host compiler gets -ffp-contract=off too.
EXTRA_DIST += tests/gpu/test_gpu_emulate.cu
if PS_BUILD_CUDA
TESTS += tests/test_gpu_emulate
CLEANFILES += tests/test_gpu_emulate$(EXEEXT)
tests/test_gpu_emulate$(EXEEXT): $(top_srcdir)/tests/gpu/test_gpu_emulate.cu $(PS_GPU_DEPS)
	@$(MKDIR_P) tests
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
EXTRA_DIST += tests/gpu_mock.sh
check_LTLIBRARIES += backends/cuda/pstencil_gpumock.la
backends_cuda_pstencil_gpumock_la_SOURCES =
backends_cuda_pstencil_gpumock_la_LIBADD = $(addprefix backends/gpu/mock/,$(PS_GPU_OBJS)) -lstdc++
backends_cuda_pstencil_gpumock_la_DEPENDENCIES = $(addprefix backends/gpu/mock/,$(PS_GPU_OBJS))
backends_cuda_pstencil_gpumock_la_LDFLAGS = -module -avoid-version -shared -rpath $(abs_builddir) \
	-export-symbols-regex '^ps_backend_plugin_entry$$'
TESTS += tests/gpu_mock.sh
# ... and once under AddressSanitizer (rules in backends/gpu/local.mk)
tests/gpu_mock.log: backends/gpu/asan/pstencil_gpumock.so

# The mock's barriers: each block's threads as fibers when a kernel is
# launched with PS_GPU_KERNEL_LAUNCH_SYNC; a kernel missing its
# __syncthreads() must give a wrong result (built by the host C++ compiler).
EXTRA_DIST += tests/gpu/test_gpu_mock_sync.cpp
TESTS += tests/test_gpu_mock_sync
CLEANFILES += tests/test_gpu_mock_sync$(EXEEXT)
tests/test_gpu_mock_sync$(EXEEXT): $(top_srcdir)/tests/gpu/test_gpu_mock_sync.cpp $(PS_GPU_DEPS)
	@$(MKDIR_P) tests
	$(AM_V_GEN)$(PS_MOCK_CXX) $(PS_MOCK_FLAGS) $(top_srcdir)/tests/gpu/test_gpu_mock_sync.cpp \
	  -o $@ -lstdc++

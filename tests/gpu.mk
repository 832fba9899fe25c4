# GPU tests (cuda and hip plugins). None needs a GPU to pass or skip:
#  - gpu_ptx.sh: the exact kernel's PTX has no fma and uses div.rn; the fast
#    kernel's PTX does contract/approximate (so the check can fail);
#  - gpu_hip_ir.sh: the same for the hip kernels' device LLVM IR;
#  - test_gpu_loader: both plugins load; without a device probe and create
#    fail with the reason (no CUDA driver/device, no ROCm/HIP device);
#  - test_gpu_backend: bitwise comparison with the reference on a GPU
#    (skips, exit 77, without a device);
#  - gpu_validate.sh: `pstencil validate --backend cuda|hip` (skips without a
#    device or while the validate subcommand does not exist).
check_PROGRAMS += tests/test_gpu_loader tests/test_gpu_backend
tests_test_gpu_loader_SOURCES = tests/test_gpu_loader.c
tests_test_gpu_loader_LDADD = core/libpstencil.la -lm
tests_test_gpu_backend_SOURCES = tests/test_gpu_backend.c
tests_test_gpu_backend_LDADD = core/libpstencil.la -lm
TESTS += tests/test_gpu_loader tests/test_gpu_backend tests/gpu_ptx.sh tests/gpu_hip_ir.sh \
	tests/gpu_bench.sh \
	tests/gpu_validate.sh
EXTRA_DIST += tests/gpu_ptx.sh tests/gpu_hip_ir.sh tests/gpu_validate.sh tests/gpu_bench.sh \
	tests/gpu/run-on-gpu.sh tests/gpu/README.md

# the generated PTX / IR are built before the tests that read them
if PS_BUILD_CUDA
tests/gpu_ptx.log: $(PS_CUDA_PTX)
endif
if PS_BUILD_HIP
tests/gpu_hip_ir.log: $(PS_HIP_IR)
endif

# The kernel's thread body emulated on the CPU (no GPU needed), built by nvcc
# with the exact-mode flags; the host compiler gets -ffp-contract=off too.
EXTRA_DIST += tests/gpu/test_gpu_emulate.cu
if PS_BUILD_CUDA
TESTS += tests/test_gpu_emulate
CLEANFILES += tests/test_gpu_emulate$(EXEEXT)
tests/test_gpu_emulate$(EXEEXT): $(top_srcdir)/tests/gpu/test_gpu_emulate.cu $(PS_GPU_DEPS)
	@$(MKDIR_P) tests
	$(AM_V_GEN)$(NVCC) $(PS_NVCC_BASE) -Xcompiler -ffp-contract=off -arch=$(NVCC_PTX_ARCH) \
	  $(PS_NVCC_EXACT) $(NVCCFLAGS) $(top_srcdir)/tests/gpu/test_gpu_emulate.cu -o $@ \
	  -L$(CUDA_LIBDIR) -lcudart_static -lrt -lpthread -ldl
endif

# The hip plugin (only this links libamdhip64). Same sources as the cuda
# plugin (backends/gpu/, rules and variables in backends/cuda/local.mk);
# hipcc builds the objects, wrapped as libtool objects the same way.
EXTRA_DIST += backends/hip/ps_hip.hip backends/hip/ps_hip_fast.hip

# Exact mode: no contraction (clang's HIP default is fast), no fast math.
# Fast mode: contraction and reciprocals, but never -ffast-math (it implies
# finite-math-only, which would delete the NaN tests that keep land masked).
PS_HIPCC_BASE = -std=c++20 -O3 -fPIC $(PS_GPU_CPPFLAGS) -DPS_GPU_HIP=1
PS_HIPCC_EXACT = -ffp-contract=off -fno-fast-math
PS_HIPCC_FAST = -ffp-contract=fast -freciprocal-math

if PS_BUILD_HIP
pkglib_LTLIBRARIES += backends/hip/pstencil_hip.la
backends_hip_pstencil_hip_la_SOURCES =
backends_hip_pstencil_hip_la_LIBADD = backends/hip/ps_hip.lo backends/hip/ps_hip_fast.lo \
	-lamdhip64 -lstdc++
backends_hip_pstencil_hip_la_DEPENDENCIES = backends/hip/ps_hip.lo backends/hip/ps_hip_fast.lo
backends_hip_pstencil_hip_la_LDFLAGS = -module -avoid-version -shared $(HIP_LDFLAGS) \
	-export-symbols-regex '^ps_backend_plugin_entry$$'

backends/hip/ps_hip.lo: $(top_srcdir)/backends/hip/ps_hip.hip $(PS_GPU_DEPS)
	@$(MKDIR_P) backends/hip/.libs
	$(AM_V_GEN)$(HIPCC) $(PS_HIPCC_BASE) $(HIP_OFFLOAD) $(PS_HIPCC_EXACT) $(HIPCCFLAGS) \
	  -c $(top_srcdir)/backends/hip/ps_hip.hip -o backends/hip/.libs/ps_hip.o && \
	$(PS_LIBTOOL_OBJECT) backends/hip ps_hip

backends/hip/ps_hip_fast.lo: $(top_srcdir)/backends/hip/ps_hip_fast.hip $(PS_GPU_DEPS)
	@$(MKDIR_P) backends/hip/.libs
	$(AM_V_GEN)$(HIPCC) $(PS_HIPCC_BASE) $(HIP_OFFLOAD) $(PS_HIPCC_FAST) $(HIPCCFLAGS) \
	  -c $(top_srcdir)/backends/hip/ps_hip_fast.hip -o backends/hip/.libs/ps_hip_fast.o && \
	$(PS_LIBTOOL_OBJECT) backends/hip ps_hip_fast

# Device LLVM IR of both kernels (one target) for tests/gpu_hip_ir.sh.
PS_HIP_IR = backends/hip/ps_hip_exact.ll backends/hip/ps_hip_fast.ll
backends/hip/ps_hip_exact.ll: $(top_srcdir)/backends/hip/ps_hip.hip $(PS_GPU_DEPS)
	@$(MKDIR_P) backends/hip
	$(AM_V_GEN)$(HIPCC) $(PS_HIPCC_BASE) --offload-arch=$(HIP_IR_TARGET) $(PS_HIPCC_EXACT) \
	  $(HIPCCFLAGS) --cuda-device-only -S -emit-llvm $(top_srcdir)/backends/hip/ps_hip.hip -o $@
backends/hip/ps_hip_fast.ll: $(top_srcdir)/backends/hip/ps_hip_fast.hip $(PS_GPU_DEPS)
	@$(MKDIR_P) backends/hip
	$(AM_V_GEN)$(HIPCC) $(PS_HIPCC_BASE) --offload-arch=$(HIP_IR_TARGET) $(PS_HIPCC_FAST) \
	  $(HIPCCFLAGS) --cuda-device-only -S -emit-llvm $(top_srcdir)/backends/hip/ps_hip_fast.hip -o $@
endif
CLEANFILES += backends/hip/*.lo backends/hip/*.o backends/hip/.libs/*.o backends/hip/*.ll

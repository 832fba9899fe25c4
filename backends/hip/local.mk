# The hip plugin (only this links libamdhip64), built by hipcc from the shared
# GPU sources in backends/gpu/ (compile rules in backends/gpu/local.mk).
if PS_BUILD_HIP
pkglib_LTLIBRARIES += backends/hip/pstencil_hip.la
backends_hip_pstencil_hip_la_SOURCES =
backends_hip_pstencil_hip_la_LIBADD = $(addprefix backends/hip/,$(PS_GPU_OBJS)) \
	-lamdhip64 -lstdc++
backends_hip_pstencil_hip_la_DEPENDENCIES = $(addprefix backends/hip/,$(PS_GPU_OBJS))
backends_hip_pstencil_hip_la_LDFLAGS = -module -avoid-version -shared $(HIP_LDFLAGS) \
	-export-symbols-regex '^ps_backend_plugin_entry$$'
endif

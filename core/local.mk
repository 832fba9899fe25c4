# core/: the engine, libpstencil: types, status, the stencil registry, the
# loader, the driver, region copies, the timer, the comparison engine, and the
# backends built in (backends/reference, backends/openmp: their local.mk add
# to it). It links nothing above it: no netCDF, no PLplot (docs/architecture.md).
lib_LTLIBRARIES += core/libpstencil.la
core_libpstencil_la_SOURCES = \
	core/ps_status.c core/ps_field.c core/ps_registry.c core/ps_loader.c \
	core/ps_region.c core/ps_driver.c core/ps_timer.c core/ps_compare.c core/ps_oracle.c \
	core/ps_decomp.c core/ps_decomp_pool.c core/ps_decomp_pool.h core/ps_ooc.c core/ps_version.c core/ps_outfile.c core/ps_file.c core/ps_json.c core/ps_builtin.h \
	core/ps_tunecache.c core/ps_tunecache.h core/ps_tune.c core/ps_knobs.c \
	core/ps_plugin_decl.c core/ps_exactsum.c core/ps_reduce.c core/ps_currents.c
core_libpstencil_la_LIBADD = $(PS_BUILTIN_LIBS) -ldl -lm -lpthread
core_libpstencil_la_LDFLAGS = -version-info 0:0:0 $(OPENMP_CFLAGS)
pkginclude_HEADERS += core/pstencil.h core/ps_status.h core/ps_field.h core/ps_stencil.h \
	core/ps_backend.h core/ps_region.h core/ps_driver.h core/ps_timer.h core/ps_compare.h \
	core/ps_oracle.h core/ps_plugin.h core/ps_plugin_land.h core/ps_decomp.h core/ps_ooc.h core/ps_version.h core/ps_outfile.h \
	core/ps_json.h core/ps_file.h core/ps_knobs.h core/ps_knobs_env.h core/ps_exactsum.h core/ps_reduce.h \
	core/ps_currents.h core/ps_tune.h
PS_BUILTIN_LIBS =

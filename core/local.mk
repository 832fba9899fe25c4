# libpstencil: core types, registry, loader, driver, and the built-in backends.
lib_LTLIBRARIES += core/libpstencil.la
core_libpstencil_la_SOURCES = \
	core/ps_status.c core/ps_field.c core/ps_registry.c core/ps_loader.c \
	core/ps_region.c core/ps_driver.c core/ps_timer.c core/ps_builtin.h \
	core/ps_validate.c
core_libpstencil_la_CFLAGS = $(AM_CFLAGS) $(NETCDF_CFLAGS) $(PLPLOT_CFLAGS)
core_libpstencil_la_LIBADD = $(PS_BUILTIN_LIBS) $(NETCDF_LIBS) $(PLPLOT_LIBS) -ldl -lm
core_libpstencil_la_LDFLAGS = -version-info 0:0:0 $(OPENMP_CFLAGS)
pkginclude_HEADERS += core/pstencil.h core/ps_status.h core/ps_field.h core/ps_stencil.h \
	core/ps_backend.h core/ps_region.h core/ps_driver.h core/ps_timer.h \
	core/ps_validate.h core/ps_plugin.h
PS_BUILTIN_LIBS =
core_libpstencil_la_SOURCES += core/ps_compare.c
pkginclude_HEADERS += core/ps_compare.h

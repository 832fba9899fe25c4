# The openmp backend, built into libpstencil as a convenience library so it
# gets its own optimisation flags.
if PS_BUILD_OPENMP
noinst_LTLIBRARIES += backends/openmp/libps_openmp.la
backends_openmp_libps_openmp_la_SOURCES = backends/openmp/ps_openmp.c
backends_openmp_libps_openmp_la_CFLAGS = $(AM_CFLAGS) -O3 $(OPENMP_CFLAGS)
PS_BUILTIN_LIBS += backends/openmp/libps_openmp.la
endif
EXTRA_DIST += backends/openmp/ps_openmp.c

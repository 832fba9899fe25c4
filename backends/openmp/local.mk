# The openmp backend, built into libpstencil as a convenience library so it
# gets its own optimisation flags (-O3, and explicit vectoriser flags because
# the user's CFLAGS (-O2 by default) come last; the AVX2 row kernels are selected at
# run time, so no -march is needed; -ffp-contract=off comes from AM_CFLAGS).
if PS_BUILD_OPENMP
noinst_LTLIBRARIES += backends/openmp/libps_openmp.la
backends_openmp_libps_openmp_la_SOURCES = backends/openmp/ps_openmp.c \
	backends/openmp/ps_openmp_rows.h backends/openmp/ps_openmp_generic.h
# -fno-trapping-math lets gcc if-convert the kernel's NaN selects (it assumes no FP
# trap handler is watching; values and rounding are unchanged).
backends_openmp_libps_openmp_la_CFLAGS = $(AM_CFLAGS) -O3 -ftree-vectorize -fvect-cost-model=dynamic \
	-fno-trapping-math $(OPENMP_CFLAGS)
PS_BUILTIN_LIBS += backends/openmp/libps_openmp.la
# The generic skeleton (every listed stencil), compiled once per instruction
# set by these two rules; the backend picks the variant at run time.
noinst_LTLIBRARIES += backends/openmp/libps_omp_gen_base.la
backends_openmp_libps_omp_gen_base_la_SOURCES = backends/openmp/ps_openmp_generic.c
backends_openmp_libps_omp_gen_base_la_CPPFLAGS = $(AM_CPPFLAGS) -DPS_OMP_ISA=base
backends_openmp_libps_omp_gen_base_la_CFLAGS = $(AM_CFLAGS) -O3 -fno-trapping-math $(OPENMP_CFLAGS)
PS_BUILTIN_LIBS += backends/openmp/libps_omp_gen_base.la
if PS_OMP_AVX2
noinst_LTLIBRARIES += backends/openmp/libps_omp_gen_avx2.la
backends_openmp_libps_omp_gen_avx2_la_SOURCES = backends/openmp/ps_openmp_generic.c
backends_openmp_libps_omp_gen_avx2_la_CPPFLAGS = $(AM_CPPFLAGS) -DPS_OMP_ISA=avx2
backends_openmp_libps_omp_gen_avx2_la_CFLAGS = $(AM_CFLAGS) -O3 -fno-trapping-math -mavx2 \
	$(OPENMP_CFLAGS)
PS_BUILTIN_LIBS += backends/openmp/libps_omp_gen_avx2.la
endif
endif
EXTRA_DIST += backends/openmp/ps_openmp.c backends/openmp/ps_openmp_rows.h

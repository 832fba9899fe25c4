# The openmp backend, built into libpstencil as convenience libraries so it
# gets its own optimisation flags (-O3, and explicit vectoriser flags because
# the user's CFLAGS (-O2 by default) come last; -ffp-contract=off comes from
# AM_CFLAGS). -fno-trapping-math lets gcc if-convert the kernels' NaN selects
# (it assumes no FP trap handler is watching; values and rounding are unchanged).
#
# The kernels are compiled once per instruction set by the rules below (the
# same source, other flags and PS_OMP_ISA): ps_openmp_generic.c (every listed
# stencil) for base, avx2, avx2+fma, avx512 and avx512+fma (the fma variants
# for fast mode only). The backend picks a variant at run time, so no -march
# is needed.
# (PS_OMP_OPT_CFLAGS: those of -O3 -ftree-vectorize -fvect-cost-model=dynamic
# -fno-trapping-math the compiler takes, probed by configure)
PS_OMP_FLAGS = $(AM_CFLAGS) $(PS_OMP_OPT_CFLAGS) $(OPENMP_CFLAGS)
PS_OMP_SRCS = backends/openmp/ps_openmp.c backends/openmp/ps_openmp_internal.h \
	backends/openmp/ps_openmp_zeroland.c backends/openmp/ps_openmp_tune.c \
	backends/openmp/ps_openmp_tunecache.c backends/openmp/ps_openmp_inplace.c
PS_OMP_KERNEL_SRCS = backends/openmp/ps_openmp_generic.c backends/openmp/ps_openmp_generic.h
if PS_BUILD_OPENMP
noinst_LTLIBRARIES += backends/openmp/libps_openmp.la backends/openmp/libps_omp_gen_base.la
backends_openmp_libps_openmp_la_SOURCES = $(PS_OMP_SRCS)
backends_openmp_libps_openmp_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/backends/openmp
backends_openmp_libps_openmp_la_CFLAGS = $(PS_OMP_FLAGS)
backends_openmp_libps_omp_gen_base_la_SOURCES = backends/openmp/ps_openmp_generic.c
backends_openmp_libps_omp_gen_base_la_CPPFLAGS = $(AM_CPPFLAGS) -DPS_OMP_ISA=base
backends_openmp_libps_omp_gen_base_la_CFLAGS = $(PS_OMP_FLAGS)
PS_BUILTIN_LIBS += backends/openmp/libps_openmp.la backends/openmp/libps_omp_gen_base.la
if PS_OMP_AVX2
noinst_LTLIBRARIES += backends/openmp/libps_omp_gen_avx2.la backends/openmp/libps_omp_gen_fma.la
backends_openmp_libps_omp_gen_avx2_la_SOURCES = backends/openmp/ps_openmp_generic.c
backends_openmp_libps_omp_gen_avx2_la_CPPFLAGS = $(AM_CPPFLAGS) -DPS_OMP_ISA=avx2
backends_openmp_libps_omp_gen_avx2_la_CFLAGS = $(PS_OMP_FLAGS) -mavx2
# fast mode only: contraction (never reciprocals, NaN or sign assumptions)
backends_openmp_libps_omp_gen_fma_la_SOURCES = backends/openmp/ps_openmp_generic.c
backends_openmp_libps_omp_gen_fma_la_CPPFLAGS = $(AM_CPPFLAGS) -DPS_OMP_ISA=fma
backends_openmp_libps_omp_gen_fma_la_CFLAGS = $(PS_OMP_FLAGS) -mavx2 -mfma -ffp-contract=fast
PS_BUILTIN_LIBS += backends/openmp/libps_omp_gen_avx2.la backends/openmp/libps_omp_gen_fma.la
endif
endif
if PS_OMP_AVX512
noinst_LTLIBRARIES += backends/openmp/libps_omp_gen_avx512.la \
	backends/openmp/libps_omp_gen_fma512.la
# the generic rows on 512-bit vectors (a row's vector is 16 floats or 8 doubles)
backends_openmp_libps_omp_gen_avx512_la_SOURCES = backends/openmp/ps_openmp_generic.c
backends_openmp_libps_omp_gen_avx512_la_CPPFLAGS = $(AM_CPPFLAGS) -DPS_OMP_ISA=avx512
backends_openmp_libps_omp_gen_avx512_la_CFLAGS = $(PS_OMP_FLAGS) -mavx512f -mavx512vl \
	-mprefer-vector-width=512
# fast mode only: contraction, as the fma variant
backends_openmp_libps_omp_gen_fma512_la_SOURCES = backends/openmp/ps_openmp_generic.c
backends_openmp_libps_omp_gen_fma512_la_CPPFLAGS = $(AM_CPPFLAGS) -DPS_OMP_ISA=fma512
backends_openmp_libps_omp_gen_fma512_la_CFLAGS = $(PS_OMP_FLAGS) -mavx512f -mavx512vl -mfma \
	-mprefer-vector-width=512 -ffp-contract=fast
PS_BUILTIN_LIBS += backends/openmp/libps_omp_gen_avx512.la \
	backends/openmp/libps_omp_gen_fma512.la
endif
EXTRA_DIST += $(PS_OMP_SRCS) $(PS_OMP_KERNEL_SRCS)

# backends tests/rules (owned by one area; see Makefile.am)
#
# Validation of every backend that can run here (a backend without a device
# skips with 77 and the reason), openmp specifics, the loader's answers for
# broken plugins, and proof that validation catches a broken kernel.

# --- test-only plugins (libtool modules named pstencil_<name>.so) -------------
PS_TEST_PLUGIN_LDFLAGS = -module -avoid-version -shared -rpath /nowhere
check_LTLIBRARIES += tests/pstencil_goodplugin.la \
	tests/pstencil_brokenorder.la tests/pstencil_badabi.la tests/pstencil_undefsym.la \
	tests/pstencil_noentry.la tests/pstencil_novendor.la
tests_pstencil_goodplugin_la_SOURCES = tests/loader_plugin.c
tests_pstencil_goodplugin_la_CPPFLAGS = $(AM_CPPFLAGS) -DPLUGIN_NAME='"goodplugin"'
tests_pstencil_goodplugin_la_LDFLAGS = $(PS_TEST_PLUGIN_LDFLAGS)
tests_pstencil_brokenorder_la_SOURCES = tests/loader_plugin.c
tests_pstencil_brokenorder_la_CPPFLAGS = $(AM_CPPFLAGS) -DPLUGIN_NAME='"brokenorder"' -DPLUGIN_BROKEN
tests_pstencil_brokenorder_la_LDFLAGS = $(PS_TEST_PLUGIN_LDFLAGS)
tests_pstencil_badabi_la_SOURCES = tests/loader_plugin.c
tests_pstencil_badabi_la_CPPFLAGS = $(AM_CPPFLAGS) -DPLUGIN_NAME='"badabi"' -DPLUGIN_ABI=999
tests_pstencil_badabi_la_LDFLAGS = $(PS_TEST_PLUGIN_LDFLAGS)
tests_pstencil_undefsym_la_SOURCES = tests/loader_plugin.c
tests_pstencil_undefsym_la_CPPFLAGS = $(AM_CPPFLAGS) -DPLUGIN_NAME='"undefsym"' -DPLUGIN_UNDEF
tests_pstencil_undefsym_la_LDFLAGS = $(PS_TEST_PLUGIN_LDFLAGS)
tests_pstencil_noentry_la_SOURCES = tests/loader_plugin.c
tests_pstencil_noentry_la_CPPFLAGS = $(AM_CPPFLAGS) -DPLUGIN_NAME='"noentry"' -DPLUGIN_NOENTRY
tests_pstencil_noentry_la_LDFLAGS = $(PS_TEST_PLUGIN_LDFLAGS)
tests_pstencil_novendor_la_SOURCES = tests/loader_plugin.c
tests_pstencil_novendor_la_CPPFLAGS = $(AM_CPPFLAGS) -DPLUGIN_NAME='"novendor"' -DPLUGIN_VENDOR
tests_pstencil_novendor_la_LDFLAGS = $(PS_TEST_PLUGIN_LDFLAGS)
# plugins that declare their auto priority in the file (tests/loader_auto.sh):
# one below the built-ins and one above that cannot load (undefined symbol),
# one above that works; each is copied in as pstencil_opencl.so
check_LTLIBRARIES += tests/pstencil_declow.la tests/pstencil_dechigh.la \
	tests/pstencil_decgood.la
tests_pstencil_declow_la_SOURCES = tests/loader_plugin.c
tests_pstencil_declow_la_CPPFLAGS = $(AM_CPPFLAGS) -DPLUGIN_NAME='"opencl"' -DPLUGIN_UNDEF \
	-DPLUGIN_DECLARE=-5
tests_pstencil_declow_la_LDFLAGS = $(PS_TEST_PLUGIN_LDFLAGS)
tests_pstencil_dechigh_la_SOURCES = tests/loader_plugin.c
tests_pstencil_dechigh_la_CPPFLAGS = $(AM_CPPFLAGS) -DPLUGIN_NAME='"opencl"' -DPLUGIN_UNDEF \
	-DPLUGIN_DECLARE=1000
tests_pstencil_dechigh_la_LDFLAGS = $(PS_TEST_PLUGIN_LDFLAGS)
tests_pstencil_decgood_la_SOURCES = tests/loader_plugin.c
tests_pstencil_decgood_la_CPPFLAGS = $(AM_CPPFLAGS) -DPLUGIN_NAME='"opencl"' -DPLUGIN_DECLARE=1000
tests_pstencil_decgood_la_LDFLAGS = $(PS_TEST_PLUGIN_LDFLAGS)
TESTS += tests/loader_auto.sh
EXTRA_DIST += tests/loader_auto.sh
# files on the plugin path dlopen must not see (FIFO, truncated, empty, text,
# directory): refused before dlopen, the search goes on (needs decgood)
TESTS += tests/loader_badfiles.sh
EXTRA_DIST += tests/loader_badfiles.sh
# The stand-in "vendor runtime" is a plain shared library built outside libtool
# and linked with -L/-l, so libtool records no RUNPATH to it: at run time it is
# out of reach, as libcudart is on a machine without CUDA.
tests_pstencil_novendor_la_LIBADD = -L$(top_builddir)/tests/fakevendor -lps_fakevendor
tests_pstencil_novendor_la_DEPENDENCIES = tests/fakevendor/libps_fakevendor.so
tests/fakevendor/libps_fakevendor.so: $(srcdir)/tests/loader_fakevendor.c
	$(AM_V_CC)$(MKDIR_P) tests/fakevendor && $(CC) $(AM_CFLAGS) $(CFLAGS) -fPIC -shared -o $@ $(srcdir)/tests/loader_fakevendor.c
CLEANFILES += tests/fakevendor/libps_fakevendor.so

# --- C tests --------------------------------------------------------------------
check_PROGRAMS += tests/test_loader tests/test_openmp tests/test_validate_compare
tests_test_loader_SOURCES = tests/test_loader.c
tests_test_loader_LDADD = core/libpstencil.la -lm
tests_test_openmp_SOURCES = tests/test_openmp.c
tests_test_openmp_LDADD = validate/libpstencil-validate.la core/libpstencil.la -lm
tests_test_validate_compare_SOURCES = tests/test_validate_compare.c
tests_test_validate_compare_LDADD = validate/libpstencil-validate.la core/libpstencil.la -lm
TESTS += tests/test_loader tests/test_openmp tests/test_validate_compare
# a grid decomposed into boxes with halos equals one box, on every backend here
check_PROGRAMS += tests/test_decompose
tests_test_decompose_SOURCES = tests/test_decompose.c tests/ps_test.h
tests_test_decompose_LDADD = core/libpstencil.la -lm
TESTS += tests/test_decompose
# the decomposition engine (core/ps_decomp.h) against one box
check_PROGRAMS += tests/test_decomp_engine
tests_test_decomp_engine_SOURCES = tests/test_decomp_engine.c tests/ps_test.h
tests_test_decomp_engine_LDADD = core/libpstencil.la -lm
TESTS += tests/test_decomp_engine
if PS_BUILD_OPENMP
# the openmp backend's row kernels of every instruction set, every row length
# and alignment, bitwise against the scalar update, rows against guard pages
check_PROGRAMS += tests/test_openmp_rows
tests_test_openmp_rows_SOURCES = tests/test_openmp_rows.c
tests_test_openmp_rows_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/backends/openmp
tests_test_openmp_rows_LDADD = backends/openmp/libps_omp_base.la
if PS_OMP_AVX2
tests_test_openmp_rows_LDADD += backends/openmp/libps_omp_avx2.la
endif
if PS_OMP_AVX512
tests_test_openmp_rows_LDADD += backends/openmp/libps_omp_avx512.la
endif
tests_test_openmp_rows_LDADD += -lm
TESTS += tests/test_openmp_rows
endif
# a benchmark for development (built, never run by make check)
check_PROGRAMS += tests/test_openmp_bench
tests_test_openmp_bench_SOURCES = tests/test_openmp_bench.c
tests_test_openmp_bench_LDADD = validate/libpstencil-validate.la core/libpstencil.la -lm

# --- shell tests ------------------------------------------------------------------
PS_BACKEND_SH_TESTS = tests/validate_reference.sh tests/validate_openmp.sh \
	tests/validate_openmp_variants.sh tests/validate_opencl.sh tests/validate_cuda.sh \
	tests/validate_hip.sh tests/validate_catches_broken.sh tests/validate_plugin.sh \
	tests/validate_cli.sh tests/test_openmp_env.sh tests/loader_cli.sh tests/loader_check.sh
TESTS += $(PS_BACKEND_SH_TESTS)
EXTRA_DIST += $(PS_BACKEND_SH_TESTS) tests/validate_backend.sh tests/loader_fakevendor.c


# decomposition and out-of-core cases of `pstencil validate --decomp`, one
# test per backend (77 where it cannot run)
PS_DECOMP_SH_TESTS = tests/validate_decomp_reference.sh tests/validate_decomp_openmp.sh \
	tests/validate_decomp_opencl.sh
TESTS += $(PS_DECOMP_SH_TESTS)
EXTRA_DIST += $(PS_DECOMP_SH_TESTS) tests/validate_decomp.sh

# the out-of-core plan (core/ps_ooc.h)
check_PROGRAMS += tests/test_ooc_plan
tests_test_ooc_plan_SOURCES = tests/test_ooc_plan.c tests/ps_test.h
tests_test_ooc_plan_LDADD = core/libpstencil.la -lm
TESTS += tests/test_ooc_plan

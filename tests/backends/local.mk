# backends: every backend against the reference (bitwise in exact mode), the
# loader's answers for broken plugins, the openmp and opencl specifics, the
# tuning knobs and cache. A backend without its device skips (77) with the
# reason. backends/check/validate.sh (the example backend's own test) lives
# with its backend.

# --- test-only plugins (libtool modules named pstencil_<name>.so) -------------
PS_TEST_PLUGIN_LDFLAGS = -module -avoid-version -shared -rpath /nowhere
check_LTLIBRARIES += tests/backends/pstencil_goodplugin.la \
	tests/backends/pstencil_brokenorder.la tests/backends/pstencil_badabi.la tests/backends/pstencil_undefsym.la \
	tests/backends/pstencil_noentry.la tests/backends/pstencil_novendor.la
tests_backends_pstencil_goodplugin_la_SOURCES = tests/backends/loader_plugin.c
tests_backends_pstencil_goodplugin_la_CPPFLAGS = $(AM_CPPFLAGS) -DPLUGIN_NAME='"goodplugin"'
tests_backends_pstencil_goodplugin_la_LDFLAGS = $(PS_TEST_PLUGIN_LDFLAGS)
tests_backends_pstencil_brokenorder_la_SOURCES = tests/backends/loader_plugin.c
tests_backends_pstencil_brokenorder_la_CPPFLAGS = $(AM_CPPFLAGS) -DPLUGIN_NAME='"brokenorder"' -DPLUGIN_BROKEN
tests_backends_pstencil_brokenorder_la_LDFLAGS = $(PS_TEST_PLUGIN_LDFLAGS)
tests_backends_pstencil_badabi_la_SOURCES = tests/backends/loader_plugin.c
tests_backends_pstencil_badabi_la_CPPFLAGS = $(AM_CPPFLAGS) -DPLUGIN_NAME='"badabi"' -DPLUGIN_ABI=999
tests_backends_pstencil_badabi_la_LDFLAGS = $(PS_TEST_PLUGIN_LDFLAGS)
tests_backends_pstencil_undefsym_la_SOURCES = tests/backends/loader_plugin.c
tests_backends_pstencil_undefsym_la_CPPFLAGS = $(AM_CPPFLAGS) -DPLUGIN_NAME='"undefsym"' -DPLUGIN_UNDEF
tests_backends_pstencil_undefsym_la_LDFLAGS = $(PS_TEST_PLUGIN_LDFLAGS)
tests_backends_pstencil_noentry_la_SOURCES = tests/backends/loader_plugin.c
tests_backends_pstencil_noentry_la_CPPFLAGS = $(AM_CPPFLAGS) -DPLUGIN_NAME='"noentry"' -DPLUGIN_NOENTRY
tests_backends_pstencil_noentry_la_LDFLAGS = $(PS_TEST_PLUGIN_LDFLAGS)
tests_backends_pstencil_novendor_la_SOURCES = tests/backends/loader_plugin.c
tests_backends_pstencil_novendor_la_CPPFLAGS = $(AM_CPPFLAGS) -DPLUGIN_NAME='"novendor"' -DPLUGIN_VENDOR
tests_backends_pstencil_novendor_la_LDFLAGS = $(PS_TEST_PLUGIN_LDFLAGS)
# plugins that declare their auto priority in the file (tests/backends/loader_auto.sh):
# one below the built-ins and one above that cannot load (undefined symbol),
# one above that works; each is copied in as pstencil_opencl.so
check_LTLIBRARIES += tests/backends/pstencil_declow.la tests/backends/pstencil_dechigh.la \
	tests/backends/pstencil_decgood.la
tests_backends_pstencil_declow_la_SOURCES = tests/backends/loader_plugin.c
tests_backends_pstencil_declow_la_CPPFLAGS = $(AM_CPPFLAGS) -DPLUGIN_NAME='"opencl"' -DPLUGIN_UNDEF \
	-DPLUGIN_DECLARE=-5
tests_backends_pstencil_declow_la_LDFLAGS = $(PS_TEST_PLUGIN_LDFLAGS)
tests_backends_pstencil_dechigh_la_SOURCES = tests/backends/loader_plugin.c
tests_backends_pstencil_dechigh_la_CPPFLAGS = $(AM_CPPFLAGS) -DPLUGIN_NAME='"opencl"' -DPLUGIN_UNDEF \
	-DPLUGIN_DECLARE=1000
tests_backends_pstencil_dechigh_la_LDFLAGS = $(PS_TEST_PLUGIN_LDFLAGS)
tests_backends_pstencil_decgood_la_SOURCES = tests/backends/loader_plugin.c
tests_backends_pstencil_decgood_la_CPPFLAGS = $(AM_CPPFLAGS) -DPLUGIN_NAME='"opencl"' -DPLUGIN_DECLARE=1000
tests_backends_pstencil_decgood_la_LDFLAGS = $(PS_TEST_PLUGIN_LDFLAGS)
# The stand-in "vendor runtime" is a plain shared library built outside libtool
# and linked with -L/-l, so libtool records no RUNPATH to it: at run time it is
# out of reach, as libcudart is on a machine without CUDA.
tests_backends_pstencil_novendor_la_LIBADD = -L$(top_builddir)/tests/backends/fakevendor -lps_fakevendor
tests_backends_pstencil_novendor_la_DEPENDENCIES = tests/backends/fakevendor/libps_fakevendor.so
tests/backends/fakevendor/libps_fakevendor.so: $(srcdir)/tests/backends/loader_fakevendor.c
	$(AM_V_CC)$(MKDIR_P) tests/backends/fakevendor && $(CC) $(AM_CFLAGS) $(CFLAGS) -fPIC -shared -o $@ $(srcdir)/tests/backends/loader_fakevendor.c
CLEANFILES += tests/backends/fakevendor/libps_fakevendor.so


# --- the loader -------------------------------------------------------------------
# Loader unit tests: every kind of plugin that cannot load comes back as a
# status naming the reason; auto passes over what cannot run.
check_PROGRAMS += tests/backends/test_loader
tests_backends_test_loader_SOURCES = tests/backends/test_loader.c
tests_backends_test_loader_LDADD = core/libpstencil.la -lm
TESTS += tests/backends/test_loader
# auto tries backends by priority, loading a plugin only when its turn comes;
# a priority declared in the plugin file is honoured.
TESTS += tests/backends/loader_auto.sh
# Files on the plugin path dlopen must not see (FIFO, truncated, empty, text,
# directory) are refused before dlopen and the search goes on.
TESTS += tests/backends/loader_badfiles.sh
# The uninstalled program loads its own build tree's plugins, never an
# install's, never a relative path.
TESTS += tests/backends/loader_buildtree.sh
# pstencil backends lists every backend of the list with a reason for each
# that cannot run; broken plugins are named.
TESTS += tests/backends/loader_cli.sh
# The check backend (one folder, one line of the backend list) is listed,
# chosen by auto by its ops table, and validated.
TESTS += tests/backends/loader_check.sh
# A plugin found through PSTENCIL_PLUGIN_PATH runs end to end, bitwise.
TESTS += tests/backends/validate_plugin.sh

# --- validation -------------------------------------------------------------------
# Validation's verdicts on the comparison engine: bitwise, ulps, NaN masks,
# poisoned cells, the fast-mode bound per stencil, deterministic cases.
check_PROGRAMS += tests/backends/test_validate_compare
tests_backends_test_validate_compare_SOURCES = tests/backends/test_validate_compare.c
tests_backends_test_validate_compare_LDADD = validate/libpstencil-validate.la core/libpstencil.la -lm
TESTS += tests/backends/test_validate_compare
# Validation catches a broken kernel (a plugin that updates in the wrong order).
TESTS += tests/backends/validate_catches_broken.sh
# pstencil validate: usage errors exit 2 naming the problem; a backend that
# cannot run is listed as skipped.
TESTS += tests/backends/validate_cli.sh
# The reference backend validates against itself through the suite's cases.
TESTS += tests/backends/validate_reference.sh
# The openmp backend, every stencil and case, bitwise against the oracle.
TESTS += tests/backends/validate_openmp.sh
SAMPLED_TESTS += tests/backends/validate_openmp.sh
# The openmp backend's other code paths (ISA tables, tiles, fused steps,
# streamed rows, zero land) bitwise the same.
TESTS += tests/backends/validate_openmp_variants.sh
SAMPLED_TESTS += tests/backends/validate_openmp_variants.sh
# The opencl backend, every stencil and case, bitwise (PoCL on the CPU).
TESTS += tests/backends/validate_opencl.sh
SAMPLED_TESTS += tests/backends/validate_opencl.sh
# The cuda backend, every stencil and case, bitwise (skips without a GPU).
TESTS += tests/backends/validate_cuda.sh
# The hip backend, every stencil and case, bitwise (skips without a GPU).
TESTS += tests/backends/validate_hip.sh
# --kernel generic|fast|auto on run, validate and bench: the same bits; the
# openmp generic path's fused sweeps bitwise; bench --stencils' rows.
TESTS += tests/backends/kernel_choice.sh

# A host field stepped in place (adopt; the driver's in_place) is bitwise the
# copies' on every backend that can: downloads into it, regions, payloads.
check_PROGRAMS += tests/backends/test_adopt
tests_backends_test_adopt_SOURCES = tests/backends/test_adopt.c
tests_backends_test_adopt_LDADD = core/libpstencil.la -lm
TESTS += tests/backends/test_adopt

# --- openmp -----------------------------------------------------------------------
# openmp specifics bitwise against the reference: halo-style region uploads,
# odd and even step counts, threads, tiles.
check_PROGRAMS += tests/backends/test_openmp
tests_backends_test_openmp_SOURCES = tests/backends/test_openmp.c
tests_backends_test_openmp_LDADD = validate/libpstencil-validate.la core/libpstencil.la -lm
TESTS += tests/backends/test_openmp
# The openmp backend honours OMP_NUM_THREADS; its device reports the team.
TESTS += tests/backends/test_openmp_env.sh
# A benchmark for development (built by make check, never run by it).
check_PROGRAMS += tests/backends/test_openmp_bench
tests_backends_test_openmp_bench_SOURCES = tests/backends/test_openmp_bench.c
tests_backends_test_openmp_bench_LDADD = validate/libpstencil-validate.la core/libpstencil.la -lm

# --- opencl -----------------------------------------------------------------------
# The opencl plugin through the loader, every stencil (generic kernels and the
# fast path, whole grids and boxes), bitwise against the reference.
check_PROGRAMS += tests/backends/test_opencl
tests_backends_test_opencl_SOURCES = tests/backends/test_opencl.c
tests_backends_test_opencl_LDADD = core/libpstencil.la -lm
TESTS += tests/backends/test_opencl
# The fast-path table alone (no device): the names it lists, the kernels it
# names present in the program, the shapes it has them in.
if PS_BUILD_OPENCL
check_PROGRAMS += tests/backends/test_opencl_fast
tests_backends_test_opencl_fast_SOURCES = tests/backends/test_opencl_fast.c \
	backends/opencl/fast/ps_opencl_fast.c
nodist_tests_backends_test_opencl_fast_SOURCES = backends/opencl/ps_opencl_source.c
tests_backends_test_opencl_fast_CPPFLAGS = $(AM_CPPFLAGS) -I$(srcdir)/backends/opencl
tests_backends_test_opencl_fast_CFLAGS = $(AM_CFLAGS) $(OPENCL_CFLAGS)
tests_backends_test_opencl_fast_LDADD = core/libpstencil.la -lm
TESTS += tests/backends/test_opencl_fast
endif
# The opencl variants (each kernel shape, forced work-group shapes, the float
# quotient in double) bitwise the same.
TESTS += tests/backends/opencl_variants.sh
SAMPLED_TESTS += tests/backends/opencl_variants.sh
# The OpenCL generic kernels' fused wavefront (opencl_wave given): built only
# then, and every stencil bitwise the reference with 2, 3 and 5 fused steps.
TESTS += tests/backends/opencl_generic_wave.sh
SAMPLED_TESTS += tests/backends/opencl_generic_wave.sh
EXTRA_DIST += tests/backends/opencl_generic_wave.sh
# The generic kernels' land-sum form (LAND_SUM stencils) and the masked one
# (opencl_zero_land=0), bitwise: odd NaN payloads, region uploads, overflow
# and inf in the ocean, boxes, every stencil, float32 and float64.
check_PROGRAMS += tests/backends/test_landsum_backend
tests_backends_test_landsum_backend_SOURCES = tests/backends/test_landsum_backend.c
tests_backends_test_landsum_backend_LDADD = core/libpstencil.la -lm
TESTS += tests/backends/landsum_opencl.sh
EXTRA_DIST += tests/backends/landsum_opencl.sh
# With the ICD loader but no vendor driver, opencl says so and auto moves on.
TESTS += tests/backends/opencl_no_platform.sh
# opencl on the course grid next to the reference: bitwise, every step timed.
check_PROGRAMS += tests/backends/test_opencl_speed
tests_backends_test_opencl_speed_SOURCES = tests/backends/test_opencl_speed.c
tests_backends_test_opencl_speed_LDADD = core/libpstencil.la -lm
TESTS += tests/backends/test_opencl_speed

# --- knobs and tuning ---------------------------------------------------------
# The tuning cache's reader never trusts the file; its writer replaces one
# key atomically and refuses a target that is not a regular file.
check_PROGRAMS += tests/backends/test_tunecache
tests_backends_test_tunecache_SOURCES = tests/backends/test_tunecache.c
tests_backends_test_tunecache_LDADD = core/libpstencil.la -lm
TESTS += tests/backends/test_tunecache
# pstencil tune fills the cache and run on openmp uses it, bitwise the same.
TESTS += tests/backends/tune.sh
# One precedence for every knob (option > cache > environment > rule), each
# knob's source, errors naming the knob, bitwise the same result.
check_PROGRAMS += tests/backends/test_knobs
tests_backends_test_knobs_SOURCES = tests/backends/test_knobs.c
tests_backends_test_knobs_LDADD = core/libpstencil.la -lm
TESTS += tests/backends/test_knobs
# pstencil backends --knobs lists exactly the fields of ps_knobs.
TESTS += tests/backends/knobs_cli.sh
# run --explain prints every knob with its value and what decided it.
TESTS += tests/backends/explain.sh

EXTRA_DIST += tests/backends/loader_auto.sh tests/backends/loader_badfiles.sh \
	tests/backends/loader_buildtree.sh tests/backends/loader_cli.sh tests/backends/loader_check.sh \
	tests/backends/validate_plugin.sh tests/backends/validate_backend.sh \
	tests/backends/validate_catches_broken.sh tests/backends/validate_cli.sh \
	tests/backends/validate_reference.sh tests/backends/validate_openmp.sh \
	tests/backends/validate_openmp_variants.sh tests/backends/validate_opencl.sh \
	tests/backends/validate_cuda.sh tests/backends/validate_hip.sh \
	tests/backends/test_openmp_env.sh tests/backends/opencl_variants.sh \
	tests/backends/opencl_no_platform.sh tests/backends/tune.sh tests/backends/knobs_cli.sh \
	tests/backends/explain.sh tests/backends/loader_fakevendor.c tests/backends/kernel_choice.sh

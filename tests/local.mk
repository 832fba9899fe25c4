# The test suite, by area: each folder of tests/ holds one area's tests and
# a local.mk registering them, one test per TESTS line with a one-line comment
# above it saying what it proves (tests/project/test_index.sh checks that;
# tools/list-tests.sh prints the index). tests/README.md says what each area
# covers and how to run one test.
#
# Tests run from the build tree through tests/ps-test-env.sh, which points
# PSTENCIL_PLUGIN_PATH at the plugins just built. A test whose hardware or
# tool is absent exits 77 (skip).
#
# Two depths: `make check` is the quick suite (every backend, stencil and
# command touched; long sweeps sampled); `make check-full` runs the same tests
# with PS_CHECK_FULL=1 (every sweep exhaustive, tests/lib.sh: ps_full) plus
# FULL_TESTS, the tests that exist only for depth. SAMPLED_TESTS names the
# tests whose sweeps the quick suite samples; `make check-depth` runs just
# those in full and FULL_TESTS: what check-full adds to check (the CI job
# .ci/jobs/full.sh).
LOG_COMPILER = $(SHELL) $(top_builddir)/tests/ps-test-env.sh
TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = $(SHELL) $(top_builddir)/tests/ps-test-env.sh $(SHELL)
AM_TESTS_ENVIRONMENT = top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)'; \
	PS_CHECK_FULL='$(PS_CHECK_FULL)'; export top_srcdir top_builddir PS_CHECK_FULL;
PS_CHECK_FULL =
EXTRA_DIST += tests/ps-test-env.sh.in tests/lib.sh tests/stencil-list.sh tests/ps_test.h tests/README.md \
	tools/list-tests.sh

check-full:
	$(MAKE) $(AM_MAKEFLAGS) check TESTS='$(TESTS) $(FULL_TESTS)' PS_CHECK_FULL=1
PS_DEPTH_SKIP =
check-depth:
	$(MAKE) $(AM_MAKEFLAGS) check TESTS='$(filter-out $(PS_DEPTH_SKIP),$(SAMPLED_TESTS) $(FULL_TESTS))' \
	  PS_CHECK_FULL=1
.PHONY: check-full check-depth

# make -j runs the tests in this order: the areas with the longest tests
# first, so that none of them is left running alone at the end
include $(srcdir)/tests/gpu/local.mk
include $(srcdir)/tests/backends/local.mk
include $(srcdir)/tests/decomposition/local.mk
include $(srcdir)/tests/plot/local.mk
include $(srcdir)/tests/project/local.mk
include $(srcdir)/tests/stencils/local.mk
include $(srcdir)/tests/io/local.mk
include $(srcdir)/tests/cli/local.mk
include $(srcdir)/tests/job/local.mk
include $(srcdir)/tests/python/local.mk
include $(srcdir)/tests/bench/local.mk
include $(srcdir)/tests/mpi/local.mk
include $(srcdir)/tests/fuzz/local.mk

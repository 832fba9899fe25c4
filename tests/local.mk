# Tests run from the build tree through tests/ps-test-env.sh, which points
# PSTENCIL_PLUGIN_PATH at the plugins just built. A test whose hardware or
# tool is absent exits 77 (skip).
LOG_COMPILER = $(SHELL) $(top_builddir)/tests/ps-test-env.sh
TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = $(SHELL) $(top_builddir)/tests/ps-test-env.sh $(SHELL)
AM_TESTS_ENVIRONMENT = top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)'; \
	export top_srcdir top_builddir;

check_PROGRAMS += tests/test_cell_update tests/test_reference
tests_test_cell_update_SOURCES = tests/test_cell_update.c
tests_test_cell_update_LDADD = core/libpstencil.la -lm
tests_test_reference_SOURCES = tests/test_reference.c
tests_test_reference_LDADD = core/libpstencil.la -lm
TESTS += tests/test_cell_update tests/test_reference
EXTRA_DIST += tests/ps-test-env.sh.in tests/lib.sh

# The layers hold in the sources and the built libraries (docs/architecture.md);
# a DESTDIR install gives usable headers, libraries and pkg-config files.
TESTS += tests/layers.sh tests/install.sh
EXTRA_DIST += tests/layers.sh tests/install.sh

# The uninstalled program loads its own build tree's plugins without
# PSTENCIL_PLUGIN_PATH, never an install's, never a relative path.
TESTS += tests/loader_buildtree.sh
EXTRA_DIST += tests/loader_buildtree.sh

# An install into a scratch prefix runs without LD_LIBRARY_PATH or ldconfig,
# with its own plugins; the installed example builds through pkg-config.
TESTS += tests/install_prefix.sh
EXTRA_DIST += tests/install_prefix.sh

# No undocumented public symbol: make doc (Doxygen) warns about none.
TESTS += tests/doxygen.sh
EXTRA_DIST += tests/doxygen.sh

# The docs stay reference docs: docs/performance.md at most 300 lines, no
# absolute path of a working copy in any file, no measurement round cited in
# a comment of backends/, core/ or kernels/.
TESTS += tests/docs_rules.sh
EXTRA_DIST += tests/docs_rules.sh

# A stencil's name appears only in kernels/, tests/, docs/ and the backends'
# one fast-path table each: front ends read stencils from the registry.
TESTS += tests/stencil_names.sh
EXTRA_DIST += tests/stencil_names.sh

# docs/adding-a-stencil.md followed literally in a copy of the tree: its
# worked example's blocks applied, its checks run (about 2 CPU-minutes).
TESTS += tests/adding_stencil.sh
EXTRA_DIST += tests/adding_stencil.sh

# The man page is made from the program's --help: every option and exit code
# in it, the user docs it names installed (issue 28 point 6).
TESTS += tests/man_page.sh
EXTRA_DIST += tests/man_page.sh

# configure says nothing about the core/ folder (issue 28 point 7).
TESTS += tests/configure_rm.sh
EXTRA_DIST += tests/configure_rm.sh

# The one JSON writer (core/ps_json.h): escaping and layout in C, and every
# JSON pstencil writes parsed by Python's json module.
check_PROGRAMS += tests/test_json
tests_test_json_SOURCES = tests/test_json.c
tests_test_json_LDADD = core/libpstencil.la -lm
TESTS += tests/test_json tests/json_valid.sh
EXTRA_DIST += tests/json_valid.sh

# The tuning cache (core/ps_tunecache.h): its reader never trusts the file,
# its writer replaces one key atomically; pstencil tune fills it and run on
# the openmp backend uses it, bitwise the same result.
check_PROGRAMS += tests/test_tunecache
tests_test_tunecache_SOURCES = tests/test_tunecache.c
tests_test_tunecache_LDADD = core/libpstencil.la -lm
TESTS += tests/test_tunecache tests/cli_tune.sh
EXTRA_DIST += tests/cli_tune.sh

# The tuning knobs (core/ps_knobs.h): one precedence (option, tuning cache,
# environment, rule) with each knob's source, errors naming the knob, bitwise
# the same result; backends --knobs lists exactly the fields of ps_knobs; no
# product file reads a PSTENCIL_* variable outside the knobs' reader but the
# listed user-facing variables and test hooks.
check_PROGRAMS += tests/test_knobs
tests_test_knobs_SOURCES = tests/test_knobs.c
tests_test_knobs_LDADD = core/libpstencil.la -lm
TESTS += tests/test_knobs tests/cli_backends_knobs.sh tests/knobs_getenv.sh tests/cli_explain.sh
EXTRA_DIST += tests/cli_backends_knobs.sh tests/knobs_getenv.sh tests/cli_explain.sh

# project: the build, the install, the layers, the docs and the rules every
# file of the repository keeps.

# The layers (docs/architecture.md) hold in the sources and the built
# libraries: includes, calls and NEEDED vendor runtimes.
TESTS += tests/project/layers.sh
# A DESTDIR install gives usable headers, libraries and pkg-config files.
TESTS += tests/project/install.sh
# An install moved to a scratch prefix runs without LD_LIBRARY_PATH, with its
# own plugins; the installed example builds through pkg-config.
TESTS += tests/project/install_prefix.sh
# The tests that run make install go last, one after another: libtool
# relinks the libraries for their installed paths, and while it does the
# build tree's soname links point at the half-written relinked file, which a
# test loading the libraries at that moment reads as "file too short".
ps_install_logs = tests/project/install.log tests/project/install_prefix.log \
	tests/python/install.log
tests/project/install.log: $(filter-out $(ps_install_logs),$(TEST_LOGS))
tests/project/install_prefix.log: tests/project/install.log
tests/python/install.log: tests/project/install_prefix.log
# No undocumented public symbol: make doc (Doxygen) warns about none.
TESTS += tests/project/doxygen.sh
# Reference docs: performance.md at most 300 lines, no working-copy path in
# any file, no measurement round cited in a code comment.
TESTS += tests/project/docs_rules.sh
# A stencil's name appears only in kernels/, tests/, docs/ and each backend's
# one fast-path table: front ends read stencils from the registry.
TESTS += tests/project/stencil_names.sh
# The man page is made from --help: every option and exit code in it, the
# user docs it names installed.
TESTS += tests/project/man_page.sh
# configure says nothing about the core/ folder.
TESTS += tests/project/configure_rm.sh
# Every header a GPU unit includes is a prerequisite of the rules that
# compile it (they have no automatic dependency tracking).
TESTS += tests/project/gpu_deps.sh
# The one JSON writer (core/ps_json.h) escapes and lays out correctly.
check_PROGRAMS += tests/project/test_json
tests_project_test_json_SOURCES = tests/project/test_json.c
tests_project_test_json_LDADD = core/libpstencil.la -lm
TESTS += tests/project/test_json
# Every JSON file pstencil writes parses with Python's json module.
TESTS += tests/project/json_valid.sh
# No product file reads a PSTENCIL_* variable outside the knobs' reader but
# the listed user-facing variables and test hooks.
TESTS += tests/project/knobs_getenv.sh
# Every registered test has its one-line statement in its area's local.mk,
# and every test file of tests/ is registered.
TESTS += tests/project/test_index.sh

EXTRA_DIST += tests/project/layers.sh tests/project/install.sh tests/project/install_prefix.sh \
	tests/project/doxygen.sh tests/project/docs_rules.sh tests/project/stencil_names.sh \
	tests/project/man_page.sh tests/project/configure_rm.sh tests/project/json_valid.sh \
	tests/project/knobs_getenv.sh tests/project/test_index.sh tests/project/gpu_deps.sh

# The check backend: the generic skeleton on the host as a plugin, built by
# `make check` for the tests and never installed (kind CHECK in
# backends/ps_backends.h). -rpath makes libtool build a shared module for a
# check_ library; the module exports only the entry point.
check_LTLIBRARIES += backends/check/pstencil_check.la
backends_check_pstencil_check_la_SOURCES = backends/check/ps_check.c
backends_check_pstencil_check_la_LDFLAGS = -module -avoid-version -shared -rpath /nowhere \
	-export-symbols-regex '^ps_backend_plugin_entry$$'
# The check backend validated against the reference, bitwise (77 where it
# cannot run).
TESTS += backends/check/validate.sh
SAMPLED_TESTS += backends/check/validate.sh
EXTRA_DIST += backends/check/validate.sh

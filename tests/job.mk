# The job layer through its C API (no program): fields in the caller's memory,
# records, cancel, outputs, option rules.
check_PROGRAMS += tests/test_job
tests_test_job_SOURCES = tests/test_job.c tests/ps_test.h
tests_test_job_LDADD = job/libpstencil-job.la io/libpstencil-io.la core/libpstencil.la -lm
TESTS += tests/test_job

# the installed example (docs/examples/job.c), built here against the build tree
check_PROGRAMS += tests/example_job
tests_example_job_SOURCES = docs/examples/job.c
tests_example_job_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/tests/incl
tests_example_job_LDADD = job/libpstencil-job.la io/libpstencil-io.la core/libpstencil.la -lm
TESTS += tests/example_job.sh
EXTRA_DIST += tests/example_job.sh
# <pstencil/pstencil_job.h> as an installed program includes it
nodist_tests_example_job_SOURCES = tests/incl/pstencil/pstencil_job.h
BUILT_SOURCES += tests/incl/pstencil/pstencil_job.h
CLEANFILES += tests/incl/pstencil/pstencil_job.h
tests/incl/pstencil/pstencil_job.h:
	$(AM_V_GEN)$(MKDIR_P) tests/incl/pstencil && \
	echo '#include "$(abs_top_srcdir)/job/pstencil_job.h"' > $@

# job: the run pipeline as a library (job/pstencil_job.h), driven without the
# program.

# The job layer through its C API: fields in the caller's memory, records,
# cancel, outputs, option rules.
check_PROGRAMS += tests/job/test_job
tests_job_test_job_SOURCES = tests/job/test_job.c tests/ps_test.h
tests_job_test_job_LDADD = job/libpstencil-job.la io/libpstencil-io.la core/libpstencil.la -lm
TESTS += tests/job/test_job

# A run's peak RSS grows by at most its budget of bytes a cell (openmp, and
# opencl on a CPU device), its fixed part bounded.
TESTS += tests/job/peak_rss.sh
EXTRA_DIST += tests/job/peak_rss.sh

# The installed example (docs/examples/job.c) builds against the headers as
# installed and runs hdiff on a field in its own memory.
check_PROGRAMS += tests/job/example_job
tests_job_example_job_SOURCES = docs/examples/job.c
tests_job_example_job_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_builddir)/tests/incl
tests_job_example_job_LDADD = job/libpstencil-job.la io/libpstencil-io.la core/libpstencil.la -lm
TESTS += tests/job/example_job.sh
EXTRA_DIST += tests/job/example_job.sh
# <pstencil/pstencil_job.h> as an installed program includes it
nodist_tests_job_example_job_SOURCES = tests/incl/pstencil/pstencil_job.h
BUILT_SOURCES += tests/incl/pstencil/pstencil_job.h
CLEANFILES += tests/incl/pstencil/pstencil_job.h
tests/incl/pstencil/pstencil_job.h:
	$(AM_V_GEN)$(MKDIR_P) tests/incl/pstencil && \
	echo '#include "$(abs_top_srcdir)/job/pstencil_job.h"' > $@

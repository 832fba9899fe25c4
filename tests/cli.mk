# The pstencil program: entry points, run, bad input.
TESTS += tests/cli_basics.sh tests/cli_run.sh tests/cli_run_python.sh tests/cli_bad_input.sh \
	tests/cli_hdiff.sh tests/cli_stencils.sh tests/cli_reliability.sh tests/cli_split.sh \
	tests/cli_restart.sh
TESTS += tests/cli_options.sh
EXTRA_DIST += tests/cli_options.sh
TESTS += tests/cli_ooc.sh
EXTRA_DIST += tests/cli_ooc.sh
EXTRA_DIST += tests/cli_basics.sh tests/cli_run.sh tests/cli_run_python.sh tests/cli_bad_input.sh \
	tests/cli_hdiff.sh tests/cli_stencils.sh tests/cli_reliability.sh tests/cli_split.sh \
	tests/cli_restart.sh tests/data/cf_cmems.cdl tests/data/cf_nco.cdl tests/data/cf_cdo.cdl \
	tests/data/cf_nemo.cdl tests/data/cf_descending.cdl tests/data/cf_indices.cdl
# Stencils: the reference against an independent oracle (literal loops, no
# kernels/), and hdiff's heat conservation in a closed basin.
check_PROGRAMS += tests/test_oracle
tests_test_oracle_SOURCES = tests/test_oracle.c tests/ps_oracle.c tests/ps_oracle.h
tests_test_oracle_LDADD = core/libpstencil.la -lm
TESTS += tests/test_oracle
check_PROGRAMS += tests/test_hdiff_conserve
tests_test_hdiff_conserve_SOURCES = tests/test_hdiff_conserve.c tests/ps_oracle.c tests/ps_oracle.h
tests_test_hdiff_conserve_LDADD = core/libpstencil.la -lm
TESTS += tests/test_hdiff_conserve
# boxes of a split stepped at once on host threads, threads divided between them
TESTS += tests/cli_split_concurrent.sh
EXTRA_DIST += tests/cli_split_concurrent.sh
# outputs are regular files only: FIFOs, devices, sockets, directories and
# links to them refused with or without --force; dangling links decided up front
TESTS += tests/cli_outputs_nonregular.sh
EXTRA_DIST += tests/cli_outputs_nonregular.sh
# the thread count's bound (1..4096) for OMP_NUM_THREADS too, every command
TESTS += tests/cli_threads_env.sh
EXTRA_DIST += tests/cli_threads_env.sh
# An interrupted run keeps its finished records and can be continued.
TESTS += tests/cli_interrupt.sh
EXTRA_DIST += tests/cli_interrupt.sh

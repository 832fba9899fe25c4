# The pstencil program: entry points, run, bad input.
TESTS += tests/cli_basics.sh tests/cli_run.sh tests/cli_run_python.sh tests/cli_bad_input.sh
EXTRA_DIST += tests/cli_basics.sh tests/cli_run.sh tests/cli_run_python.sh tests/cli_bad_input.sh

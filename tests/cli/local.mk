# cli: the pstencil program as a user drives it: entry points, run, options,
# bad input, outputs, signals, restarts.

# --version, --help of every subcommand, unknown commands and options.
TESTS += tests/cli/basics.sh
# run on the built-in ocean: a CF file ncdump, CDO and xarray open; the
# report; --output-every; reference and openmp bitwise equal.
TESTS += tests/cli/run.sh
# run FILE --precision double -n 1 equals the course's pure-Python formula
# bitwise on a generated grid with land.
TESTS += tests/cli/run_python.sh
# Every bad input of run: a message naming the problem, exit 2, no output.
TESTS += tests/cli/bad_input.sh
# Every output checked before the run, written privately and published
# without clobbering; full disks, signals and races leave nothing behind.
TESTS += tests/cli/reliability.sh
# run --continue goes on from an output's last record, bitwise one run.
TESTS += tests/cli/restart.sh
# The currents of tracer: the built-in ocean's gyre, a generated file's, --velocity in
# other units; refusals; split, out of core and --continue bitwise.
TESTS += tests/cli/velocity.sh
# Several prognostic fields (--tracers thetao,so): each bitwise its own run, in
# boxes, out of core and continued; refusals.
TESTS += tests/cli/tracers.sh
# Option parsing in every subcommand: --opt=VALUE, flags, prefixes, strays.
TESTS += tests/cli/options.sh
# Outputs are regular files only: FIFOs, devices, sockets, directories and
# links to them refused with or without --force.
TESTS += tests/cli/outputs_nonregular.sh
# The thread count's bound (1..4096) for --threads and OMP_NUM_THREADS.
TESTS += tests/cli/threads_env.sh
# An interrupted run keeps its finished records and can be continued.
TESTS += tests/cli/interrupt.sh
# The report names where the time went (choosing the backend, preparing,
# opening the output...); auto's line is short for machines without a GPU.
TESTS += tests/cli/report.sh

EXTRA_DIST += tests/cli/velocity.sh tests/cli/tracers.sh tests/cli/basics.sh tests/cli/run.sh tests/cli/run_python.sh \
	tests/cli/bad_input.sh tests/cli/reliability.sh tests/cli/restart.sh tests/cli/options.sh \
	tests/cli/outputs_nonregular.sh tests/cli/threads_env.sh tests/cli/interrupt.sh \
	tests/cli/report.sh

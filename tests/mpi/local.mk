# mpi: runs under mpirun (./configure --enable-mpi; the CI job mpi). Each test
# skips (77) when configure had no MPI.

# mpirun -np P run (P = 1..8, every layout) bitwise equal to one process.
TESTS += tests/mpi/run.sh
# openmp and opencl per rank, bitwise the same.
TESTS += tests/mpi/backends.sh
# A failing rank stops every rank with the reason; the earlier output intact.
TESTS += tests/mpi/fail.sh
# --output-every writes the same snapshots as one process.
TESTS += tests/mpi/snapshots.sh
# An interrupted MPI run keeps its finished records, collectively.
TESTS += tests/mpi/interrupt.sh
# The parallel output is written intact every time (repeated writes).
TESTS += tests/mpi/io_repeat.sh
# Every option of run works under MPI, bitwise, or is refused with a reason.
TESTS += tests/mpi/options.sh
# The reductions of every record over 1, 2 and 3 ranks are bitwise one process's.
TESTS += tests/mpi/reductions.sh
# tracer's currents (read whole by every rank, masked by the global land): bitwise one process.
TESTS += tests/mpi/tracer.sh

EXTRA_DIST += tests/mpi/lib.sh tests/mpi/run.sh tests/mpi/backends.sh tests/mpi/fail.sh \
	tests/mpi/snapshots.sh tests/mpi/interrupt.sh tests/mpi/io_repeat.sh tests/mpi/options.sh \
	tests/mpi/reductions.sh tests/mpi/tracer.sh

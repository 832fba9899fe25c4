# MPI (./configure --enable-mpi): mpirun -np P pstencil run bitwise equal to
# one process, per-rank backends, agreed failures, snapshots. Each test skips
# (77) when configure had no MPI.
TESTS += tests/mpi_run.sh tests/mpi_backends.sh tests/mpi_fail.sh tests/mpi_snapshots.sh \
	tests/mpi_interrupt.sh tests/mpi_io_repeat.sh tests/mpi_options.sh
EXTRA_DIST += tests/mpi_lib.sh tests/mpi_run.sh tests/mpi_backends.sh tests/mpi_fail.sh \
	tests/mpi_snapshots.sh tests/mpi_interrupt.sh tests/mpi_io_repeat.sh tests/mpi_options.sh

#!/bin/bash
# CI job: the MPI build (./configure --enable-mpi: Open MPI, netCDF with
# parallel I/O) out of tree, and its tests (tests/mpi.mk) under mpirun.
# Ends with "N passed, N failed, N skipped" from the build's test-suite.log.
set -u
command -v mpicc >/dev/null 2>&1 || { echo "mpicc not installed (tools/install-deps.sh installs openmpi-bin libopenmpi-dev libnetcdf-mpi-dev)"; exit 77; }
TESTS_MPI="tests/mpi/run.sh tests/mpi/backends.sh tests/mpi/fail.sh tests/mpi/snapshots.sh tests/mpi/interrupt.sh tests/mpi/io_repeat.sh tests/mpi/options.sh tests/mpi/tracer.sh tests/project/layers.sh"
cd "$(dirname "$0")/../.."
. .ci/suite-counts.sh && . .ci/job-tree.sh && ps_job_tree mpi || exit 1
# the GPU plugins are built and tested by the main job; MPI runs use openmp and opencl
"$PS_JOB_CONFIGURE" --enable-mpi --enable-test-hooks --disable-cuda --disable-hip \
  > configure.log 2>&1 &&
  tail -40 configure.log | grep -i 'mpi\|netcdf' ;
make -j2 > make.log 2>&1 || { tail -60 make.log; echo "0 passed, 1 failed, 0 skipped"; exit 1; }
make -j2 check TESTS="$TESTS_MPI"
rc=$?
if [ ! -f test-suite.log ]; then
  echo "0 passed, 1 failed, 0 skipped"
  exit 1
fi
ps_suite_counts test-suite.log 400
[ $rc -ne 0 ] && [ "$fail" -eq 0 ] && fail=1
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]

#!/bin/bash
# CI job: the README's build with clang instead of gcc, out of tree in
# build-clang/: `CC=clang ./configure && make && make check` (the tests a compiler
# can change: bitwise validation, kernels, engine, I/O; the main job runs all). configure
# probes every compiler flag it uses (m4/ps_cflags.m4, m4/ps_openmp.m4), so
# nothing gcc-only reaches clang; clang's OpenMP comes from libomp-dev.
set -u
cd "$(dirname "$0")/../.."
command -v clang >/dev/null || { echo "no clang"; exit 77; }
. .ci/suite-counts.sh && . .ci/job-tree.sh && ps_job_tree clang || exit 1
start=$(date +%s)
CC=clang "$PS_JOB_CONFIGURE" --disable-hip --disable-cuda > configure.log 2>&1 || { tail -40 configure.log; echo "configure failed"; exit 1; }
make -j2 > make.log 2>&1 || { tail -60 make.log; echo "build failed"; exit 1; }
built=$(date +%s)
CLANG_TESTS="tests/stencils/test_reference tests/backends/test_openmp tests/stencils/test_cell_update tests/stencils/test_oracle
  tests/decomposition/test_decompose tests/decomposition/test_decomp_engine tests/decomposition/test_ooc_plan tests/io/test_io_read tests/io/test_io_write
  tests/project/test_json tests/backends/validate_reference.sh tests/backends/validate_openmp.sh tests/backends/validate_openmp_variants.sh
  tests/backends/validate_opencl.sh tests/cli/run.sh tests/decomposition/cli_split.sh"
# the tests that exercise what the compiler decides: every backend bitwise
# against the reference, the kernels, the engine, the reader and writer, a run
make -j2 check TESTS="$(echo $CLANG_TESTS)" > check.log 2>&1
rc=$?
# wall time, and the CPU time of everything run (children's user and system
# time: on a shared machine the wall time says more about the neighbours)
echo "build $((built - start)) s, make check $(($(date +%s) - built)) s;" \
  "cpu (user, system): $(times | tail -1)"
ps_suite_counts test-suite.log 300
[ $rc -ne 0 ] && [ "$fail" -eq 0 ] && { tail -60 check.log; fail=1; }
echo "${pass} passed, ${fail} failed, ${skip} skipped"
exit $rc

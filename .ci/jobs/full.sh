#!/bin/bash
# The depth that `make check-full` adds to the README's `make check`: the
# sampled sweeps run in full and the tests that exist only for depth
# (make check-depth), in the main build tree after the main job. The GPU
# direct build is left to the gpu-direct job, which runs it.
set -u
cd "$(dirname "$0")/../.."
[ -x cli/pstencil ] || { echo "the main build is missing (run after the README's test command)"; exit 1; }
. .ci/suite-counts.sh
start=$(date +%s)
make -j2 check-depth PS_DEPTH_SKIP=tests/gpu/direct_build.sh TEST_SUITE_LOG=depth-suite.log \
  > depth.log 2>&1
rc=$?
echo "make check-depth $(($(date +%s) - start)) s; cpu (user, system): $(times | tail -1)"
ps_suite_counts depth-suite.log 300
[ $rc -ne 0 ] && [ "$fail" -eq 0 ] && { tail -60 depth.log; fail=1; }
echo "${pass} passed, ${fail} failed, ${skip} skipped"
exit $rc

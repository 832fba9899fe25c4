#!/bin/sh
# The opencl generic kernels on the inputs that tell the land-sum form from
# the masked one (tests/backends/test_landsum_backend.c), bitwise against the
# reference: the land-sum form (PSTENCIL_OPENCL_ZERO_LAND=1; on CPU devices
# the rule keeps it off) on the row kernel (the CPU default) and on the ij
# and ijk kernels, and the masked form (=0, and the rule); then validate
# --backend opencl with the land-sum form on (tests/backends/validate_opencl.sh
# runs the rule's form).
. "$top_srcdir/tests/lib.sh"
T=$top_builddir/tests/backends/test_landsum_backend
"$T" opencl >"$TMP/log" 2>&1; rc=$?
[ $rc -eq 77 ] && { cat "$TMP/log"; skip "no OpenCL device"; }
[ $rc -eq 0 ] || { cat "$TMP/log"; fail "the rule's form"; }
for v in "PSTENCIL_OPENCL_ZERO_LAND=1" "PSTENCIL_OPENCL_ZERO_LAND=1 PSTENCIL_OPENCL_KERNEL=ij" \
  "PSTENCIL_OPENCL_ZERO_LAND=1 PSTENCIL_OPENCL_KERNEL=ijk" "PSTENCIL_OPENCL_ZERO_LAND=0"; do
  # shellcheck disable=SC2086
  env $v "$T" opencl >"$TMP/log" 2>&1 || { cat "$TMP/log"; fail "$v"; }
  grep -q '^ok: smooth2 float32 box' "$TMP/log" || { cat "$TMP/log"; fail "$v: smooth2 did not run"; }
done
expect_exit 0 env PSTENCIL_OPENCL_ZERO_LAND=1 "$top_builddir/cli/pstencil" validate \
  --backend opencl --quick --kernel generic
echo "PASS: opencl land-sum and masked forms bitwise"

#!/bin/sh
# The opencl generic kernels on the inputs that tell the land-sum form from
# the masked one (tests/backends/test_landsum_backend.c), bitwise against the
# reference, with the land-sum form on (the default) and off
# (PSTENCIL_OPENCL_ZERO_LAND=0), on the row kernel (the CPU default) and on
# the ij and ijk kernels; then validate --backend opencl with it off (the
# default run is tests/backends/validate_opencl.sh).
. "$top_srcdir/tests/lib.sh"
T=$top_builddir/tests/backends/test_landsum_backend
"$T" opencl >"$TMP/log" 2>&1; rc=$?
[ $rc -eq 77 ] && { cat "$TMP/log"; skip "no OpenCL device"; }
[ $rc -eq 0 ] || { cat "$TMP/log"; fail "land-sum form (default)"; }
grep -q '^ok: smooth2 float32 box' "$TMP/log" || { cat "$TMP/log"; fail "smooth2 did not run"; }
for v in "PSTENCIL_OPENCL_ZERO_LAND=0" "PSTENCIL_OPENCL_KERNEL=ij" "PSTENCIL_OPENCL_KERNEL=ijk"; do
  env $v "$T" opencl >"$TMP/log" 2>&1 || { cat "$TMP/log"; fail "$v"; }
done
expect_exit 0 env PSTENCIL_OPENCL_ZERO_LAND=0 "$top_builddir/cli/pstencil" validate \
  --backend opencl --quick --kernel generic
grep -q 'FAIL' "$TMP/out" && { cat "$TMP/out"; fail "validate with the land-sum form off"; }
echo "PASS: opencl land-sum and masked forms bitwise"

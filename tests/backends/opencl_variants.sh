#!/bin/sh
# The exact-mode suite (every stencil, generic kernels and fast path) again on
# the other code paths: each kernel shape (PSTENCIL_OPENCL_KERNEL=ij|ijk|row)
# with a forced, odd work-group shape, the row kernel with NaN land
# (PSTENCIL_OPENCL_ZERO_LAND=0; the land-sum form is its default in exact
# mode), its steps fused as a wavefront (PSTENCIL_OPENCL_WAVE: off, 2 steps
# on 1-row tiles, 5 on 3-row, 16), and the float quotient computed in double
# (the path for devices without correctly rounded float division),
# each bitwise equal to the reference; and a program that does not compile
# (the error carries the build log).
. "$top_srcdir/tests/lib.sh"
prog="$top_builddir/tests/backends/test_opencl"
[ -x "$prog" ] || skip "tests/backends/test_opencl not built"
"$prog" >"$TMP/log" 2>&1; rc=$?
[ $rc -eq 77 ] && { cat "$TMP/log"; skip "no OpenCL device"; }
[ $rc -eq 0 ] || { cat "$TMP/log"; fail "test_opencl failed"; }
# One variant per line: the variables, test_opencl's arguments, what it is.
# The quick suite runs a sample (ps_sample); make check-full runs every line.
cat > "$TMP/variants" <<'EOF_V'
PSTENCIL_OPENCL_KERNEL=ijk|--block 16,4,2|3-D kernel, local size 16,4,2
PSTENCIL_OPENCL_KERNEL=ij|--block 3,5|(i,j) kernel, local size 3,5
PSTENCIL_OPENCL_KERNEL=row|--block 5,3|row kernel, local size 5,3
PSTENCIL_OPENCL_KERNEL=row PSTENCIL_OPENCL_ZERO_LAND=0||row kernel with NaN land (land-sum off)
PSTENCIL_OPENCL_WAVE=0||wavefront off
PSTENCIL_OPENCL_WAVE=2,1||wavefront, 2 steps on 1-row tiles
PSTENCIL_OPENCL_WAVE=5,3||wavefront, 5 steps on 3-row tiles
PSTENCIL_OPENCL_WAVE=16||wavefront, 16 steps
EOF_V
NL='
'
IFS=$NL
for v in $(ps_sample 3 $(cat "$TMP/variants")); do
  IFS=' '
  vars=${v%%|*}; rest=${v#*|}; args=${rest%%|*}; what=${rest#*|}
  # shellcheck disable=SC2086
  env $vars "$prog" $args || fail "$what"
done
IFS=' '
PSTENCIL_OPENCL_WAVE=x "$prog" >"$TMP/bad" 2>&1 && fail "PSTENCIL_OPENCL_WAVE=x accepted"
grep -q "PSTENCIL_OPENCL_WAVE='x'" "$TMP/bad" || { cat "$TMP/bad"; fail "bad PSTENCIL_OPENCL_WAVE not named"; }
PSTENCIL_OPENCL_BUILD_OPTIONS=-DPS_REAL=no_such_type "$prog" --build-fails \
  || fail "a program that does not compile"
if grep -q "fp64 yes" "$TMP/log"; then
  PSTENCIL_OPENCL_DIVIDE=double "$prog" >"$TMP/div" 2>&1 || { cat "$TMP/div"; fail "float quotient in double"; }
  cat "$TMP/div"
  grep -q "exact float32 divides in double" "$TMP/div" || fail "PSTENCIL_OPENCL_DIVIDE=double not in effect"
else
  echo "no fp64 device: the divide-in-double path is not checked"
fi

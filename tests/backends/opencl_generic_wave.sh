#!/bin/sh
# The OpenCL generic kernels' fused steps: the masked wavefront
# (ps_gen_NAME_wave, opt-in through opencl_wave) and the land-sum one
# (ps_glv_NAME_wave, by the rule on CPU devices). With the knob given, a
# generic run of a stencil that is not land-sum (hdiff) builds the masked
# wavefront (its rows per work-item, opencl_wave_tj, are then decided and
# shown by --explain; without the knob they are not); a land-sum stencil
# (smooth2) fuses by the rule, its kernel path says so, and the bits are the
# unfused run's. Every stencil (radius 1 and 2), float32 and float64, exact
# mode, is bitwise the reference with 2 steps on 1-row tiles, 3 on 2-row
# tiles and 5 on 3-row tiles (validate --quick: steps 1, 2, 7, so full
# launches and single-step remainders), each wavefront in turn.
. "$top_srcdir/tests/lib.sh"
P=$top_builddir/backends/opencl/.libs
[ -f "$P/pstencil_opencl.so" ] || skip "the opencl plugin is not built"
export PSTENCIL_PLUGIN_PATH="$P"
"$PSTENCIL" backends 2>&1 | grep -q "^opencl .* ok" || skip "no OpenCL device"
expect_exit 0 "$PSTENCIL" run --backend opencl --kernel generic --stencil hdiff -n 3 \
  --knob opencl_wave=3 --explain -o "$TMP/a.nc"
grep -Eq "^ +opencl_wave_tj=[0-9]+ \(rule\)" "$TMP/out" &&
  grep -q "kernel path : generic ps_gmv_hdiff_row (explicit vectors), 3 steps a launch (generic wavefront)" \
    "$TMP/out" || { cat "$TMP/out"; fail "opencl_wave=3: the generic wavefront was not built"; }
expect_exit 0 "$PSTENCIL" run --backend opencl --kernel generic --stencil hdiff -n 3 \
  --explain -o "$TMP/b.nc"
if grep -q "opencl_wave_tj=" "$TMP/out"; then
  cat "$TMP/out"; fail "the generic wavefront was built without opencl_wave"
fi
expect_exit 0 "$PSTENCIL" compare -q "$TMP/a.nc" "$TMP/b.nc"
expect_exit 0 "$PSTENCIL" run --backend opencl --kernel generic --stencil smooth2 -n 9 \
  -o "$TMP/c.nc"
grep -q "kernel path : .*ps_glv_smooth2_row, [0-9]* steps a launch (land-sum wavefront)" \
  "$TMP/out" || { cat "$TMP/out"; fail "smooth2: the rule did not fuse the land-sum form"; }
expect_exit 0 "$PSTENCIL" run --backend opencl --kernel generic --stencil smooth2 -n 9 \
  --knob opencl_wave=1 -o "$TMP/d.nc"
expect_exit 0 "$PSTENCIL" compare -q "$TMP/c.nc" "$TMP/d.nc"
for w in $(ps_sample 2 2,1 3,2 5,3); do
  expect_exit 0 env PSTENCIL_OPENCL_WAVE=$w "$PSTENCIL" validate --backend opencl \
    --kernel generic --quick --mode exact
  grep -q "0 failed" "$TMP/out" || { cat "$TMP/out"; fail "PSTENCIL_OPENCL_WAVE=$w"; }
done

#!/bin/sh
# The opencl generic kernels on the inputs that tell the land-sum form from
# the masked one (tests/backends/test_landsum_backend.c), bitwise against the
# reference: the land-sum form (PSTENCIL_OPENCL_ZERO_LAND=1, and the rule's:
# on CPU devices on where the row on explicit vectors builds) on the row
# kernel (the CPU default: the vector row) and on the ij and ijk kernels, and
# the masked form (=0); then validate --backend opencl with the land-sum form
# on (tests/backends/validate_opencl.sh runs the rule's form), and the vector
# row's wavefront at 2, 3 and 5 steps a launch. Then the kernel
# path that run reports: the masked and land-sum rows on vectors for every
# land-sum stencil in both precisions and with the float quotient in double,
# the masked ones alone for hdiff, and, where the vector program does not build
# (a build option that fails only it), the scalar masked rows by the rule and
# the scalar land-sum row when asked, with the build's error named; and
# diffusion7 with --kernel fast: refused in the row shape, which its fast
# path lacks (auto runs the generic rows and says so), its kernel in the ij
# shape; every result the same bits.
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
# the land-sum wavefront (the rule's on CPU devices) with other step counts
# and tile heights: a NaN made inside a fused launch hands it to the masked kernel
for w in 2,1 3,2 5,3; do
  env PSTENCIL_OPENCL_WAVE=$w "$T" opencl >"$TMP/log" 2>&1 || { cat "$TMP/log"; fail "wave $w"; }
done
expect_exit 0 env PSTENCIL_OPENCL_ZERO_LAND=1 "$top_builddir/cli/pstencil" validate \
  --backend opencl --quick --kernel generic
P=$top_builddir/cli/pstencil
# path ARGS...: the kernel path and checksum of a 3-step run (each on its line)
path() {
  "$P" run --backend opencl --kernel generic -n 3 -o "$TMP/o.nc" --force "$@" >"$TMP/run" 2>&1 ||
    { cat "$TMP/run"; fail "run $*"; }
  sed -n -e 's/^ *kernel path *: //p' -e 's/^ *checksum *: \([^ ]*\).*/\1/p' "$TMP/run"
}
for s in diffusion7 smooth2; do
  for a in "" "-p float64" "--knob opencl_divide=double"; do
    # shellcheck disable=SC2086
    path -s "$s" $a > "$TMP/vec"
    grep -q "generic ps_gmv_${s}_row (explicit vectors), land-sum form ps_glv_${s}_row" \
      "$TMP/vec" ||
      { cat "$TMP/vec"; fail "$s $a: not the vector row"; }
    # shellcheck disable=SC2086
    path -s "$s" $a --knob opencl_zero_land=0 > "$TMP/masked"
    grep -q "land-sum" "$TMP/masked" && { cat "$TMP/masked"; fail "$s $a: land-sum form when off"; }
    [ "$(tail -1 "$TMP/vec")" = "$(tail -1 "$TMP/masked")" ] ||
      fail "$s $a: the vector row's checksum $(tail -1 "$TMP/vec") is not the masked rows' $(tail -1 "$TMP/masked")"
  done
done
# diffusion7's fast path has no row-shape kernel: --kernel fast there is
# refused (exit 2, the shapes it has named, an existing output kept), auto
# runs the generic rows and says why; in the ij shape the fast path runs
echo keep > "$TMP/kept.nc"
expect_exit 2 "$P" run --backend opencl --kernel fast -n 3 -o "$TMP/kept.nc" --force
expect_err "fast path of stencil 'diffusion7' has no kernel in the row shape .*it has: ij, ijk"
[ "$(cat "$TMP/kept.nc")" = keep ] || fail "a refused --kernel fast touched the existing output"
"$P" run --backend opencl -n 3 -o "$TMP/o.nc" --force >"$TMP/f" 2>&1 ||
  { cat "$TMP/f"; fail "run --kernel auto"; }
grep -q "kernel path : generic ps_gmv_diffusion7_row (explicit vectors; no fast-path kernel in the row shape)" \
  "$TMP/f" || { cat "$TMP/f"; fail "auto in the row shape: not the generic rows, or not said"; }
"$P" run --backend opencl --kernel fast --knob opencl_kernel=ij -n 3 -o "$TMP/o.nc" --force \
  >"$TMP/f" 2>&1 || { cat "$TMP/f"; fail "run --kernel fast, ij shape"; }
grep -q "kernel path : fast path ps_fast_diffusion7_ij" "$TMP/f" ||
  { cat "$TMP/f"; fail "--kernel fast in the ij shape: not the fast path"; }
path -s hdiff > "$TMP/h"
grep -q "land-sum" "$TMP/h" && { cat "$TMP/h"; fail "hdiff (not land-sum) in the land-sum form"; }
grep -q "generic ps_gmv_hdiff_row (explicit vectors)" "$TMP/h" ||
  { cat "$TMP/h"; fail "hdiff: not the masked rows on vectors"; }
# a macro the vector program redefines, as an error: its build alone fails
bad="opencl_build_options=-Werror -DPS_VEC_VW=17"
path --knob "$bad" > "$TMP/rule"
grep -q "land-sum" "$TMP/rule" && { cat "$TMP/rule"; fail "the rule took the scalar land-sum row on a CPU"; }
path --knob "$bad" --knob opencl_zero_land=1 > "$TMP/scalar"
grep -q "generic ps_gen_diffusion7_row, land-sum form ps_gls_diffusion7_row (scalar rows: vector build: .*PS_VEC_VW" \
  "$TMP/scalar" ||
  { cat "$TMP/scalar"; fail "the scalar row's kernel path does not name the build's error"; }
path > "$TMP/vec"
[ "$(tail -1 "$TMP/rule")" = "$(tail -1 "$TMP/vec")" ] &&
  [ "$(tail -1 "$TMP/scalar")" = "$(tail -1 "$TMP/vec")" ] ||
  fail "checksums differ: $(tail -1 "$TMP/vec") vector, $(tail -1 "$TMP/rule") masked (rule),"\
" $(tail -1 "$TMP/scalar") scalar land-sum"
echo "PASS: opencl land-sum and masked forms bitwise"

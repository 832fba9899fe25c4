#!/bin/sh
# The cuda plugin's kernels, as PTX built with the plugin's own flags
# (backends/gpu/local.mk): the exact kernels must be bitwise-reproducible
# (docs/numerical-contract.md), the fast kernels must differ (so this check
# can fail). Both units must hold a generic kernel for every stencil of
# kernels/ps_stencils.h in both precisions and diffusion7's tuned kernel.
#  exact: no fma; every f32/f64 add/sub/mul carries .rn (ptxas may contract
#         a mul and an add without a rounding modifier into an FMA, never
#         ones with .rn); the quotient is div.rn.f32 / div.rn.f64; nothing
#         approximate (div.approx, div.full, rcp.approx).
#  fast:  fma, contractible mul/add (no .rn) or approximate division.
. "$top_srcdir/tests/lib.sh"
dir=$top_builddir/backends/cuda
exact=$dir/ps_cuda_exact.ptx
fast=$dir/ps_cuda_fast.ptx
[ -f "$exact" ] && [ -f "$fast" ] || skip "no PTX in $dir (the cuda plugin is not built)"

ops() { grep -oE '\b(add|sub|mul|div|fma|rcp|mad)(\.[a-z0-9]+)*\.f(32|64)\b' "$1" | sort | uniq -c; }
echo "exact kernel PTX:"; ops "$exact"
echo "fast kernel PTX:"; ops "$fast"

grep -q '\.entry.*ps_exact.*d7_step' "$exact" || fail "no exact d7_step kernel entry in $exact"
grep -q '\.entry.*ps_fast.*d7_step' "$fast" || fail "no fast d7_step kernel entry in $fast"
for k in d7lb_step; do
  grep -q "\.entry.*ps_exact.*$k" "$exact" || fail "no exact $k kernel entry in $exact"
done
stencils=$(sh "$top_srcdir/tests/stencil-list.sh" "$top_srcdir") || fail "no stencil list in kernels/ps_stencils.h"
for s in $stencils; do
  for p in f32 f64; do
    grep -qE "\.entry .*ps_exact[0-9]*gen_${s}_$p" "$exact" || fail "no exact generic kernel for $s ($p)"
    grep -qE "\.entry .*ps_fast[0-9]*gen_${s}_$p" "$fast" || fail "no fast generic kernel for $s ($p)"
  done
done
# programmatic dependent launch (PSTENCIL_GPU_PDL=1): in PTX for sm_90 and
# later every kernel waits for the previous grid (griddepcontrol.wait, from
# cudaGridDependencySynchronize) before its first global or generic load or
# store, or a kernel launched early would read a field still being written
for f in "$exact" "$fast"; do
  sm=$(sed -n 's/^\.target sm_\([0-9]*\).*/\1/p' "$f" | head -1)
  [ "${sm:-0}" -ge 90 ] || { echo "$f: sm_${sm:-?} PTX, no PDL wait to check"; continue; }
  early=$(awk '/\.entry/ { name = $NF; waited = 0; n++ }
               /griddepcontrol\.wait/ { waited = 1 }
               /^[ \t]+(ld|st)\.(global|[usbf][0-9])/ { if (name != "" && !waited) { print name; name = "" } }
               END { if (!n) print "(no entries)" }' "$f")
  [ -z "$early" ] || fail "kernels touch memory before griddepcontrol.wait in $f: $early"
  echo "PDL: every kernel of $(basename "$f") (sm_$sm) waits before its first memory access"
done

if grep -nE '\b(fma|mad)(\.[a-z]+)*\.f(32|64)\b' "$exact"; then
  fail "the exact kernel contains fused multiply-add instructions"
fi
if grep -nE '\b(add|sub|mul)\.f(32|64)\b' "$exact"; then
  fail "the exact kernel has add/sub/mul without .rn (ptxas may fuse them into FMA)"
fi
if grep -nE '\b(div\.(approx|full)|rcp\.approx)(\.[a-z]+)*\.f(32|64)\b' "$exact"; then
  fail "the exact kernel divides approximately"
fi
grep -q 'div\.rn\.f32' "$exact" || fail "no div.rn.f32 (IEEE float division) in the exact kernel"
grep -q 'div\.rn\.f64' "$exact" || fail "no div.rn.f64 (IEEE double division) in the exact kernel"

if ! grep -qE '\b(fma(\.[a-z]+)*|add|sub|mul|div\.approx|div\.full|rcp\.approx(\.[a-z]+)*)\.f32\b' "$fast"; then
  fail "the fast kernel is as strict as the exact one (no fma, no contractible op, exact division)"
fi
echo "PASS: exact PTX ("$(echo $stencils)", diffusion7 tuned and its variants) has no fma, only .rn arithmetic and div.rn; fast PTX is relaxed"
exit 0

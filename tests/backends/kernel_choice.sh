#!/bin/sh
# --kernel generic|fast|auto on run, validate and bench. openmp has no fast
# path: auto and generic give the same bits through its fused generic sweeps
# (the kernel path line says so) for every stencil, and --kernel fast is a
# usage error (exit 2) that writes nothing, as is an unknown kernel; the
# generic sweeps stay bitwise the reference for odd step counts, thread
# counts, fused-step knobs and a radius-2 stencil. Where a backend has a fast
# path (the GPU mock's tuned diffusion7 kernel; opencl's ij shape), generic,
# fast and auto give the same bits, validate --kernel fast runs only the fast
# column, and bench --stencils prints a fast row beside the generic one.
. "$top_srcdir/tests/lib.sh"
cd "$TMP" || exit 1
"$PSTENCIL" backends 2>/dev/null | grep -q '^ *openmp' || skip "no openmp backend"

# openmp: auto is the generic path, its steps fused
for k in generic auto; do
  expect_exit 0 "$PSTENCIL" run --backend openmp --threads 2 --kernel "$k" -n 13 -o "$k.nc"
  sed -n 's/^ *checksum *: \(0x[0-9a-f]*\).*/\1/p' "$TMP/out" > "sum.$k"
  [ -s "sum.$k" ] || { cat "$TMP/out"; fail "--kernel $k: no checksum line"; }
  sed -n 's/^ *kernel path *: //p' "$TMP/out" > "path.$k"
  grep -q '^generic path .*steps fused' "path.$k" ||
    fail "--kernel $k: kernel path '$(cat "path.$k")' (expected fused generic sweeps)"
done
cmp -s sum.generic sum.auto || fail "generic $(cat sum.generic) and auto $(cat sum.auto) differ"
expect_exit 2 "$PSTENCIL" run --backend openmp --kernel fast -n 2 -o bad0.nc
expect_err "error: --kernel fast: backend 'openmp' has no fast path for stencil 'diffusion7' \(it has one for: none\)"
[ -e bad0.nc ] && fail "a refused --kernel fast wrote its output"

# a backend with a fast path (the GPU mock, where it is built): the same bits
# through generic, fast and auto
if "$PSTENCIL" run --backend gpumock -n 1 -o probe.nc >/dev/null 2>&1; then
  for k in generic fast auto; do
    expect_exit 0 "$PSTENCIL" run --backend gpumock --kernel "$k" -n 13 -o "m$k.nc"
    sed -n 's/^ *checksum *: \(0x[0-9a-f]*\).*/\1/p' "$TMP/out" > "msum.$k"
    [ -s "msum.$k" ] || { cat "$TMP/out"; fail "gpumock --kernel $k: no checksum line"; }
  done
  cmp -s msum.generic msum.fast || fail "gpumock: generic and fast differ"
  cmp -s msum.fast msum.auto || fail "gpumock: auto is not the fast path's"
  cmp -s msum.generic sum.generic || fail "gpumock's generic path and openmp's differ"
  # --kernel fast: only the fast path's columns (no 'generic' column)
  expect_exit 0 "$PSTENCIL" validate --backend gpumock --kernel fast --quick --precision float \
    --mode exact --steps 2 --case ocean-cropped --stencil diffusion7 --verbose
  grep -q 'generic' "$TMP/out" && { cat "$TMP/out"; fail "validate --kernel fast ran a generic column"; }
  grep -q ' 0 failed' "$TMP/out" || { cat "$TMP/out"; fail "validate --kernel fast failed"; }
  expect_exit 0 "$PSTENCIL" validate --backend gpumock --kernel generic --quick --precision float \
    --mode exact --steps 2 --case ocean-cropped --stencil diffusion7 --verbose
  grep -q 'generic' "$TMP/out" || { cat "$TMP/out"; fail "validate --kernel generic: no generic column"; }
fi
# every stencil takes the fused generic sweeps on openmp when asked
for s in hdiff smooth2; do
  expect_exit 0 "$PSTENCIL" run --backend openmp --threads 2 -s "$s" --kernel generic -n 5 \
    -o "$s.nc"
  grep -q 'kernel path *: generic path .*steps* fused' "$TMP/out" ||
    { cat "$TMP/out"; fail "$s: not the fused generic path"; }
done

# bad choices: exit 2, the reason, no output
expect_exit 2 "$PSTENCIL" run --backend openmp -s hdiff --kernel fast -n 2 -o bad1.nc
expect_err "error: --kernel fast: backend 'openmp' has no fast path for stencil 'hdiff'"
[ -e bad1.nc ] && fail "a refused --kernel fast wrote its output"
expect_exit 2 "$PSTENCIL" run --backend openmp --kernel fastest -n 2 -o bad2.nc
expect_err "error: --kernel: unknown kernel 'fastest' \(use generic, fast or auto\)"
[ -e bad2.nc ] && fail "a refused --kernel wrote its output"
expect_exit 2 "$PSTENCIL" validate --kernel slow
expect_err "error: --kernel: unknown kernel 'slow'"

# the fused generic sweeps, bitwise the reference: odd step counts against the
# fused-step counts, 1 and 3 threads, every stencil (smooth2: radius 2)
for knob in openmp_tblock=3 openmp_tblock=16; do
  PSTENCIL_OPENMP_TBLOCK=${knob#*=} expect_exit 0 "$PSTENCIL" validate --backend openmp \
    --kernel generic --quick --precision float --mode exact --steps 1,7,17 --threads 1,3 \
    --case ocean-cropped,ocean-0.5,tiny-3x3x3
  grep -q ' 0 failed' "$TMP/out" || { cat "$TMP/out"; fail "validate --kernel generic ($knob)"; }
done

# bench --stencils: on openmp a generic row for every stencil, no fast row,
# diffusion7's generic path the base (1.00x) and the others a positive ratio
expect_exit 0 "$PSTENCIL" bench --stencils --backend openmp --threads 2 --repeat 1 --steps 2 \
  --scales 0.25
"$PSTENCIL" stencils | sed -n 's/^\([A-Za-z0-9_]*\)\( (default)\)\{0,1\}: .*/\1/p' > names
while read -r s; do
  grep -Eq "^  openmp +$s +generic +[0-9.]+ +[0-9.]+ " "$TMP/out" ||
    { cat "$TMP/out"; fail "bench --stencils: no generic row for $s"; }
done < names
grep -Eq '^  openmp +[a-z0-9_]+ +fast' "$TMP/out" && { cat "$TMP/out"; fail "bench --stencils: a fast row on openmp"; }
grep -Eq '^  openmp +diffusion7 +generic .* 1\.00x ' "$TMP/out" ||
  { cat "$TMP/out"; fail "bench --stencils: diffusion7's generic path is not openmp's base"; }
grep -Eq '^  openmp +hdiff +generic .* [0-9]+\.[0-9][0-9]x ' "$TMP/out" &&
  ! grep -Eq '^  openmp +hdiff +generic .* 0\.00x ' "$TMP/out" ||
  { cat "$TMP/out"; fail "bench --stencils: no ratio for hdiff against the base"; }
# where the backend has a fast path (opencl's ij shape): a fast row for
# diffusion7 equal to its generic one, and the base; none for hdiff
if "$PSTENCIL" backends 2>/dev/null | grep -q '^opencl .*ok'; then
  PSTENCIL_OPENCL_KERNEL=ij expect_exit 0 "$PSTENCIL" bench --stencils --backend opencl \
    --repeat 1 --steps 2 --scales 0.25
  grep -Eq '^  opencl +diffusion7 +fast .*\(= generic\)' "$TMP/out" ||
    { cat "$TMP/out"; fail "bench --stencils: no fast row for diffusion7 equal to generic"; }
  grep -Eq '^  opencl +hdiff +fast' "$TMP/out" && fail "bench --stencils: a fast row for hdiff"
  grep -Eq '^  opencl +diffusion7 +fast .* 1\.00x ' "$TMP/out" ||
    { cat "$TMP/out"; fail "bench --stencils: diffusion7's fast path is not opencl's base"; }
fi
exit 0

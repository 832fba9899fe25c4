#!/bin/sh
# --kernel generic|fast|auto on run, validate and bench, and the openmp
# generic path: diffusion7 through the generic path and through its fast
# path gives the same bits; the generic path fuses steps for every stencil
# (its kernel path line says so) and stays bitwise the reference for odd
# step counts, thread counts, fused-step knobs and a radius-2 stencil;
# --kernel fast where a backend has no fast path, or an unknown kernel, is a
# usage error (exit 2) that writes nothing; bench --stencils prints a
# generic row per stencil and a fast row where the backend has one.
. "$top_srcdir/tests/lib.sh"
cd "$TMP" || exit 1
"$PSTENCIL" backends 2>/dev/null | grep -q '^ *openmp' || skip "no openmp backend"

# the same bits through both paths, and the generic path fuses its steps
for k in generic fast auto; do
  expect_exit 0 "$PSTENCIL" run --backend openmp --threads 2 --kernel "$k" -n 13 -o "$k.nc"
  sed -n 's/^ *checksum *: \(0x[0-9a-f]*\).*/\1/p' "$TMP/out" > "sum.$k"
  [ -s "sum.$k" ] || { cat "$TMP/out"; fail "--kernel $k: no checksum line"; }
  sed -n 's/^ *kernel path *: //p' "$TMP/out" > "path.$k"
done
cmp -s sum.generic sum.fast || fail "generic $(cat sum.generic) and fast $(cat sum.fast) differ"
cmp -s sum.fast sum.auto || fail "auto $(cat sum.auto) is not the fast path's $(cat sum.fast)"
grep -q '^generic path .*steps fused' path.generic ||
  fail "--kernel generic: kernel path '$(cat path.generic)' (expected fused generic sweeps)"
grep -q '^generic' path.fast && fail "--kernel fast ran the generic path"
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
# --kernel fast: only the fast path's columns (no 'generic' column)
expect_exit 0 "$PSTENCIL" validate --backend openmp --kernel fast --quick --precision float \
  --mode exact --steps 2 --threads 2 --case ocean-cropped --stencil diffusion7 --verbose
grep -q 'generic' "$TMP/out" && { cat "$TMP/out"; fail "validate --kernel fast ran a generic column"; }
expect_exit 0 "$PSTENCIL" validate --backend openmp --kernel generic --quick --precision float \
  --mode exact --steps 2 --threads 2 --case ocean-cropped --stencil diffusion7 --verbose
grep -q 'generic' "$TMP/out" || { cat "$TMP/out"; fail "validate --kernel generic: no generic column"; }

# bench --stencils: a generic row for every stencil, a fast row for diffusion7,
# the fast path equal to the generic one
expect_exit 0 "$PSTENCIL" bench --stencils --backend openmp --threads 2 --repeat 1 --steps 2 \
  --scales 0.25
"$PSTENCIL" stencils | sed -n 's/^\([A-Za-z0-9_]*\)\( (default)\)\{0,1\}: .*/\1/p' > names
while read -r s; do
  grep -Eq "^  openmp +$s +generic +[0-9.]+ +[0-9.]+ " "$TMP/out" ||
    { cat "$TMP/out"; fail "bench --stencils: no generic row for $s"; }
done < names
grep -Eq '^  openmp +diffusion7 +fast .*\(= generic\)' "$TMP/out" ||
  { cat "$TMP/out"; fail "bench --stencils: no fast row for diffusion7 equal to generic"; }
grep -Eq '^  openmp +hdiff +fast' "$TMP/out" && fail "bench --stencils: a fast row for hdiff"
# x base: the fast path of the default stencil is the base (1.00x), the others
# a positive ratio against it
grep -Eq '^  openmp +diffusion7 +fast .* 1\.00x ' "$TMP/out" ||
  { cat "$TMP/out"; fail "bench --stencils: diffusion7's fast path is not its backend's base"; }
grep -Eq '^  openmp +hdiff +generic .* [0-9]+\.[0-9][0-9]x ' "$TMP/out" &&
  ! grep -Eq '^  openmp +hdiff +generic .* 0\.00x ' "$TMP/out" ||
  { cat "$TMP/out"; fail "bench --stencils: no ratio for hdiff against the base"; }
exit 0

#!/bin/sh
# pstencil validate: usage errors exit 2 naming the problem; help and the
# case list exit 0; a backend that cannot run is listed as skipped.
. "$top_srcdir/tests/lib.sh"
expect_exit 2 "$PSTENCIL" validate --bogus
expect_err "unknown option '--bogus'"
expect_exit 2 "$PSTENCIL" validate --precision quad
expect_err "unknown precision 'quad'"
expect_exit 2 "$PSTENCIL" validate --mode sloppy
expect_err "unknown mode 'sloppy'"
expect_exit 2 "$PSTENCIL" validate --steps 1,x
expect_err "steps: 'x' is not a whole number"
expect_exit 2 "$PSTENCIL" validate --threads 0
expect_err "threads: 0 is out of range"
expect_exit 2 "$PSTENCIL" validate --case nosuch
expect_err "unknown case 'nosuch' \(cases: ocean-cropped"
expect_exit 2 "$PSTENCIL" validate --backend nosuch
expect_err "unknown backend 'nosuch'"
expect_exit 2 "$PSTENCIL" validate --stencil nosuch
expect_err "unknown stencil 'nosuch' \(stencils: diffusion7"
expect_exit 2 "$PSTENCIL" validate --steps
expect_err "steps needs a value"
expect_exit 0 "$PSTENCIL" validate --help
grep -q -- '--quick' "$TMP/out" || fail "help lacks --quick"
expect_exit 0 "$PSTENCIL" validate --list-cases
for c in ocean-cropped ocean-full ocean-0 ocean-0.05 ocean-0.5 ocean-0.95 ocean-1 single-cell \
         checkerboard tiny-3x3x3 thin-k odd-5x7x13 odd-17x129x257 odd-50x222x241 extremes \
         nan-planes regions; do
  grep -Eq "^$c " "$TMP/out" || fail "case $c missing from --list-cases"
done
# one small case, explicit steps and threads, the cuda backend skipped with a reason
expect_exit 0 env PSTENCIL_PLUGIN_PATH="$TMP/none" "$PSTENCIL" validate --backend openmp,cuda \
  --case tiny-3x3x4,checkerboard --steps 3,1 --threads 2 --precision double --mode exact
grep -Eq '^  cuda +skipped: .*cuda' "$TMP/out" || { cat "$TMP/out"; fail "cuda not listed as skipped"; }
grep -Eq '^checkerboard +bitwise' "$TMP/out" || { cat "$TMP/out"; fail "table row missing"; }
# every registered stencil has a table and a summary line; a stencil openmp
# has a fast path for is validated on the fast path and the generic skeleton
for s in diffusion7 hdiff smooth2; do
  grep -Eq "^stencil $s " "$TMP/out" || { cat "$TMP/out"; fail "no table for stencil $s"; }
  grep -Eq "^  $s +openmp +passed [1-9][0-9]* comparisons" "$TMP/out" \
    || { cat "$TMP/out"; fail "no summary line for $s on openmp"; }
done
grep -Eq '^case .* openmp f64 exact generic' "$TMP/out" || { cat "$TMP/out"; fail "no generic column"; }
# 2 cases x 2 step counts: diffusion7 on two paths (8), hdiff (4), smooth2 (4)
grep -Eq '^validate: 16 comparisons, 0 failed' "$TMP/out" || { cat "$TMP/out"; fail "expected 16 comparisons"; }
# --stencil restricts to one
expect_exit 0 "$PSTENCIL" validate --backend openmp --stencil hdiff --case tiny-3x3x4 --steps 1 \
  --threads 1 --precision float --mode exact
grep -Eq '^stencil hdiff ' "$TMP/out" || { cat "$TMP/out"; fail "no hdiff table"; }
if grep -Eq '^stencil (diffusion7|smooth2) ' "$TMP/out"; then cat "$TMP/out"; fail "--stencil hdiff ran others"; fi
grep -Eq '^validate: 1 comparisons, 0 failed' "$TMP/out" || { cat "$TMP/out"; fail "expected 1 comparison"; }
exit 0

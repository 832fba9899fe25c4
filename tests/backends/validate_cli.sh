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
# the registered stencils, from the registry: "NAME[ (default)]: ..." headers
# and each one's "fast paths  : backend, backend" line
expect_exit 0 "$PSTENCIL" stencils
cp "$TMP/out" "$TMP/stencils"
names=$(sed -n 's/^\([A-Za-z0-9_][A-Za-z0-9_]*\)\( (default)\)\{0,1\}: .*/\1/p' "$TMP/stencils")
[ -n "$names" ] || { cat "$TMP/stencils"; fail "pstencil stencils lists no stencil"; }
count=$(sed -n '1s/^pstencil [^:]*: \([0-9][0-9]*\) stencils.*/\1/p' "$TMP/stencils")
[ "$(echo $names | wc -w)" -eq "${count:-0}" ] ||
  { cat "$TMP/stencils"; fail "parsed '$names' from pstencil stencils, which counts ${count:-none}"; }
first=$(echo $names | cut -d' ' -f1)
last=$(echo $names | awk '{ print $NF }')
# has_fast NAME BACKEND: the registry lists a fast path of BACKEND for NAME
has_fast() {
  awk -v s="$1" -v b="$2" '
    $0 ~ "^" s "( \\(default\\))?: " { on = 1; next }
    /^[A-Za-z0-9_]+( \(default\))?: / { on = 0 }
    on && $1 == "fast" && $2 == "paths" {
      sub(/^[^:]*: */, ""); n = split($0, f, /, */)
      for (i = 1; i <= n; i++) if (f[i] == b) found = 1
    }
    END { exit !found }' "$TMP/stencils"
}
expect_exit 2 "$PSTENCIL" validate --stencil nosuch
expect_err "unknown stencil 'nosuch' \(stencils: $first"
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
# has a fast path for is validated on the fast path and the generic skeleton:
# 2 cases x 2 step counts per path
want=0
for s in $names; do
  grep -Eq "^stencil $s " "$TMP/out" || { cat "$TMP/out"; fail "no table for stencil $s"; }
  paths=1
  has_fast "$s" openmp && paths=2
  n=$((4 * paths))
  grep -Eq "^  $s +openmp +passed $n comparisons" "$TMP/out" \
    || { cat "$TMP/out"; fail "no summary line for $s on openmp with $n comparisons"; }
  want=$((want + n))
done
# a generic column where openmp has a fast path for a stencil, none where it has none
anyfast=0
for s in $names; do has_fast "$s" openmp && anyfast=1; done
if [ $anyfast = 1 ]; then
  grep -Eq '^case .* openmp f64 exact generic' "$TMP/out" || { cat "$TMP/out"; fail "no generic column"; }
else
  grep -Eq '^case .* openmp f64 exact generic' "$TMP/out" && { cat "$TMP/out"; fail "a generic column without a fast path"; }
fi
grep -Eq "^validate: $want comparisons, 0 failed" "$TMP/out" ||
  { cat "$TMP/out"; fail "expected $want comparisons"; }
# --stencil restricts to one
expect_exit 0 "$PSTENCIL" validate --backend openmp --stencil "$last" --case tiny-3x3x4 --steps 1 \
  --threads 1 --precision float --mode exact
grep -Eq "^stencil $last " "$TMP/out" || { cat "$TMP/out"; fail "no $last table"; }
for s in $names; do
  [ "$s" = "$last" ] && continue
  if grep -Eq "^stencil $s " "$TMP/out"; then cat "$TMP/out"; fail "--stencil $last ran $s"; fi
done
one=1
has_fast "$last" openmp && one=2
grep -Eq "^validate: $one comparisons, 0 failed" "$TMP/out" ||
  { cat "$TMP/out"; fail "expected $one comparison(s)"; }
exit 0

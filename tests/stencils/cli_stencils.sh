#!/bin/sh
# pstencil stencils and run's stencil options: every registered stencil is
# described (radius, neighbours, scalars, arrays, options, coordinates, test
# flag, fast paths) and matches what `run --help` lists; a backend that
# cannot load is said so; an unknown stencil, another stencil's option, or
# "auto" where it is not allowed are usage errors (exit 2, nothing written);
# -D stays diffusion7's --coeff, and smooth2 (radius 2) runs from the CLI.
. "$top_srcdir/tests/lib.sh"
cd "$TMP" || exit 1
mkdir o

expect_exit 0 "$PSTENCIL" stencils
cp "$TMP/out" all.txt
# the stencils, in registry order: the lines "NAME: description" / "NAME (default): ..."
sed -n 's/^\([A-Za-z0-9_]*\)\( (default)\)\{0,1\}: .*/\1/p' all.txt > names
[ "$(wc -l < names)" -ge 2 ] || { cat all.txt; fail "fewer than two stencils listed"; }
grep -q "^$(head -1 names) (default): " all.txt || fail "the first stencil is not marked default"
for field in "kernel file :" "radius      :" "neighbours  :" "scalars     :" "arrays      :" \
             "options     :" "coordinates :" "test stencil:" "fast paths  :"; do
  [ "$(grep -c "^  $field" all.txt)" -eq "$(wc -l < names)" ] ||
    fail "not every stencil has a '$field' line"
done
# each stencil alone, and its options as run --help lists them
expect_exit 0 "$PSTENCIL" run --help
cp "$TMP/out" runhelp.txt
while read -r s; do
  expect_exit 0 "$PSTENCIL" stencils "$s"
  grep -q "^$s\( (default)\)\{0,1\}: " "$TMP/out" || fail "stencils $s does not describe $s"
  [ "$(grep -c '^[A-Za-z0-9_]*\( (default)\)\{0,1\}: ' "$TMP/out")" -eq 1 ] || fail "stencils $s shows others"
  grep -q "^  $s" runhelp.txt || fail "run --help does not list stencil $s"
  sed -n 's/^    --\([A-Za-z0-9_]*\) .*/\1/p' "$TMP/out" > opts_$s
  while read -r o; do
    grep -q "^      --$o " runhelp.txt || fail "run --help does not list $s's option --$o"
  done < opts_$s
  [ -f "$top_srcdir/kernels/$s.h" ] || fail "stencil $s: no kernels/$s.h"
done < names
# facts the kernel files state
grep -A12 '^hdiff: ' all.txt > hdiff.txt
grep -q "radius      : 1" hdiff.txt || fail "hdiff radius"
grep -q "coordinates : needed" hdiff.txt || fail "hdiff needs coordinates"
grep -q "c_north\[j\]" hdiff.txt || fail "hdiff's arrays with their axes"
grep -q -- "--dt .*default auto" hdiff.txt || fail "hdiff's --dt defaults to auto"
grep -A12 '^smooth2: ' all.txt > smooth2.txt
grep -q "radius      : 2" smooth2.txt || fail "smooth2 radius 2"
grep -q "test stencil: yes" smooth2.txt || fail "smooth2 is a test stencil"
grep -q "weight\[i\]" smooth2.txt || fail "smooth2's array varies along i"
# fast paths: each backend named there is one that 'pstencil backends' lists as loadable
# (its plugin opened; it may still have no device here)
"$PSTENCIL" backends > backends.txt
sed -n 's/^  fast paths  : \([^;]*\).*/\1/p' all.txt | tr ', ' '\n\n' | grep -v '^$' | grep -v '^none$' |
  sort -u | while read -r b; do
    { grep -E "^$b " backends.txt | grep -vq "cannot run"; } || fail "fast path on '$b', which is not loadable here"
  done || exit 1
# a built plugin that cannot load is listed as such (plugins hidden on purpose)
mkdir empty
PSTENCIL_PLUGIN_PATH="$TMP/empty" "$PSTENCIL" backends > hidden.txt
PSTENCIL_PLUGIN_PATH="$TMP/empty" "$PSTENCIL" stencils > hidden_st.txt || fail "stencils without plugins"
for b in $(sed -n 's/^\([a-z0-9_]*\)  *built (plugin)  *cannot run.*/\1/p' hidden.txt); do
  grep -q "cannot load.*$b" hidden_st.txt || fail "plugin $b cannot load but stencils does not say so"
  grep -q "^  $b: " hidden_st.txt || fail "no reason given for $b"
done
expect_exit 2 "$PSTENCIL" stencils nosuch
expect_err "unknown stencil 'nosuch'"
expect_exit 2 "$PSTENCIL" stencils --bogus
"$PSTENCIL" --help | grep -q "^  stencils " || fail "pstencil --help does not list stencils"

# run: an unknown stencil lists them all
expect_exit 2 "$PSTENCIL" run --stencil nosuch -o o/x.nc
expect_err "unknown stencil 'nosuch'"
while read -r s; do expect_err "$s"; done < names
# another stencil's option names its stencil; auto only where allowed
expect_exit 2 "$PSTENCIL" run --kh 5 -o o/x.nc
expect_err "[-]-kh is an option of stencil hdiff, tracer, not of diffusion7"
expect_exit 2 "$PSTENCIL" run --stencil hdiff --coeff 0.2 -o o/x.nc
expect_err "[-]-coeff is an option of stencil diffusion7, not of hdiff"
expect_exit 2 "$PSTENCIL" run --stencil hdiff -D 0.2 -o o/x.nc
expect_err "[-]-coeff is an option of stencil diffusion7"
expect_exit 2 "$PSTENCIL" run --stencil smooth2 --kv 1 -o o/x.nc
expect_err "[-]-kv is an option of stencil hdiff, tracer, not of smooth2"
expect_exit 2 "$PSTENCIL" run --stencil hdiff --kh auto -o o/x.nc
expect_err "'auto' is not a value of hdiff's option --kh"
expect_exit 2 "$PSTENCIL" run --dt auto -o o/x.nc
expect_err "[-]-dt auto: stencil diffusion7 has no time step"
expect_exit 2 "$PSTENCIL" run --stencil hdiff --kh abc -o o/x.nc
expect_err "[-]-kh: 'abc' is not a number"
expect_exit 2 "$PSTENCIL" run --stencil smooth2 --w 2 -o o/x.nc
expect_err "[-]-w 2 is out of range: smooth2's option --w takes 0..1"
[ -z "$(ls -A o)" ] || fail "a refused stencil option left files behind: $(ls -A o)"

# -D is --coeff; the default stencil is diffusion7; smooth2 runs
expect_exit 0 "$PSTENCIL" run -n 2 -D 0.2 -o a.nc --backend reference --no-progress --profile a.json
grep -q "of diffusion7 (coeff = 0.2)" "$TMP/out" || { cat "$TMP/out"; fail "-D 0.2 not reported"; }
grep -q '"stencil": "diffusion7"' a.json || fail "profile does not name the stencil"
grep -q '"coeff": 0.2' a.json || fail "profile does not give the option"
expect_exit 0 "$PSTENCIL" run -n 2 --coeff 0.2 --stencil diffusion7 -o b.nc --backend reference --no-progress
expect_exit 0 "$PSTENCIL" compare a.nc b.nc -q
expect_exit 0 "$PSTENCIL" run -n 2 --stencil smooth2 --w 0.3 -o s.nc --backend reference --no-progress
grep -q "of smooth2 (w = 0.3)" "$TMP/out" || fail "smooth2 not reported"
expect_exit 1 "$PSTENCIL" compare a.nc s.nc -q
exit 0

#!/bin/sh
# Several prognostic fields (--tracers thetao,so): tracer steps temperature
# and salinity with the same currents, each written as a variable of its own
# with its reductions and each bitwise the run of that field alone; in one
# box, --split boxes, out of core and continued; the order of the list does
# not matter; the refusals (a name twice, a missing variable, another land,
# --var against the list, a continued run's list contradicted) exit 2 with
# no output.
. "$top_srcdir/tests/lib.sh"
for t in ncap2 ncdump; do
  command -v $t >/dev/null 2>&1 || skip "$t (NCO, netCDF) is not installed"
done
cd "$TMP" || fail "no temporary directory"
sum() { sed -n 's/^  checksum    : \(0x[0-9a-f]*\).*/\1/p' "$TMP/out"; }
# field $1's final checksum from the "fields" line of a run of several
fsum() { sed -n "s/^  fields      :.*[ ,] *$1 \(0x[0-9a-f]*\).*/\1/p" "$TMP/out"; }
# the values of variable $2 of file $1, every digit
vals() { ncdump -v "$2" -p 9,17 "$1" | sed -n '/^data:/,$p'; }
S="--stencil tracer -b reference -p double"

expect_exit 0 "$PSTENCIL" gen --scale 0.1 -o small.nc
ncdump -h small.nc | grep -q 'so:standard_name = "sea_water_salinity"' || fail "gen: no so"

# each field alone
expect_exit 0 "$PSTENCIL" run small.nc $S -n 4 --output-every 2 -o t.nc
want_t=$(sum)
expect_exit 0 "$PSTENCIL" run small.nc $S -n 4 --output-every 2 --var so -o s.nc
want_s=$(sum)
[ "$want_t" != "$want_s" ] || fail "thetao and so gave the same checksum"

# both at once: each bitwise its own run, records and reductions included
expect_exit 0 "$PSTENCIL" run small.nc $S -n 4 --output-every 2 --tracers thetao,so -o two.nc
[ "$(fsum thetao)" = "$want_t" ] || { cat out >&2; fail "two fields: thetao $(fsum thetao), alone $want_t"; }
[ "$(fsum so)" = "$want_s" ] || fail "two fields: so $(fsum so), alone $want_s"
grep -q "^  so          : mean" out || { cat out >&2; fail "no reductions of so"; }
ncdump -h two.nc > h.txt
grep -q "double so(time, depth, latitude, longitude)" h.txt || { cat h.txt >&2; fail "no so variable"; }
grep -q "double thetao(time, depth, latitude, longitude)" h.txt || fail "no thetao variable"
grep -q 'so:standard_name = "sea_water_salinity"' h.txt || fail "so lost its standard name"
grep -q ':pstencil_tracers = "thetao,so"' h.txt || fail "no pstencil_tracers"
for v in thetao so; do
  ref=t.nc
  [ $v = so ] && ref=s.nc
  [ "$(vals "$ref" $v)" = "$(vals two.nc $v)" ] || fail "$v records differ from its own run"
  for r in content volume mean min max; do
    [ "$(vals "$ref" ${v}_$r)" = "$(vals two.nc ${v}_$r)" ] || fail "${v}_$r differs"
  done
done
echo "thetao and so together: each bitwise its own run ($want_t, $want_s)"
# summary takes every field of the output, each with its reductions
expect_exit 0 "$PSTENCIL" summary two.nc --no-levels
grep -q "^Temperature Summary Statistics:" out || { cat out >&2; fail "summary: no thetao"; }
grep -q "^so Summary Statistics:" out || fail "summary: no so"
grep -q "^Variable: so " out || fail "summary: so not named"
expect_exit 0 "$PSTENCIL" summary two.nc --no-levels --var so
grep -q "^Variable: thetao" out && fail "summary --var so: thetao too"
expect_exit 2 "$PSTENCIL" summary two.nc --var so,
expect_err "an empty variable name"

# the order of the list: the first is the field read; the same bits
expect_exit 0 "$PSTENCIL" run small.nc $S -n 4 --output-every 2 --tracers so,thetao -o rev.nc
[ "$(sum)" = "$want_s" ] && [ "$(fsum thetao)" = "$want_t" ] || fail "so,thetao: other bits"
# --split boxes and out of core (two fields: twice the coefficient arrays, and the
# slabs of each field in half the rest of the budget)
expect_exit 0 "$PSTENCIL" run small.nc $S -n 4 --output-every 2 --tracers thetao,so \
  --split 2x2x1 -o split.nc
[ "$(fsum thetao)" = "$want_t" ] && [ "$(fsum so)" = "$want_s" ] || fail "--split: other bits"
expect_exit 2 "$PSTENCIL" run small.nc $S -n 4 --tracers thetao,so --max-device-memory 2000K \
  -o ooc.nc
expect_err "coefficient arrays take 2537056 bytes in every context"
expect_exit 0 "$PSTENCIL" run small.nc $S -n 4 --output-every 2 --tracers thetao,so \
  --max-device-memory 2718K -o ooc.nc
grep -q "^  out of core : [0-9]* slabs" out || { cat out >&2; fail "not out of core"; }
[ "$(fsum thetao)" = "$want_t" ] && [ "$(fsum so)" = "$want_s" ] || fail "out of core: other bits"
echo "split boxes and out of core: bitwise"

# --continue: the same list, bitwise one run
expect_exit 0 "$PSTENCIL" run small.nc $S -n 2 --tracers thetao,so -o p1.nc
expect_exit 2 "$PSTENCIL" run --continue p1.nc -n 2 --tracers thetao -o p2.nc
expect_err "[-]-tracers thetao contradicts p1.nc, which stepped thetao,so"
[ ! -e p2.nc ] || fail "contradicted --continue: output left"
expect_exit 0 "$PSTENCIL" run --continue p1.nc -n 2 -o p2.nc
[ "$(fsum thetao)" = "$want_t" ] && [ "$(fsum so)" = "$want_s" ] || fail "--continue: other bits"
echo "--continue: bitwise one run"

# the built-in ocean has both; any stencil steps several fields
expect_exit 0 "$PSTENCIL" run --stencil tracer -b reference -n 1 --tracers thetao,so -o b.nc
grep -q "^  fields      : thetao 0x[0-9a-f]*, so 0x" out || { cat out >&2; fail "built-in"; }
expect_exit 0 "$PSTENCIL" run small.nc --stencil diffusion7 -b openmp -n 3 --tracers thetao,so \
  -o d7.nc
grep -q "^  fields      : thetao" out || fail "diffusion7: not two fields"

# refusals: exit 2, the problem named, no output
expect_exit 2 "$PSTENCIL" run small.nc $S -n 1 --tracers thetao,thetao -o x.nc
expect_err "variable thetao is given twice"
expect_exit 2 "$PSTENCIL" run small.nc $S -n 1 --tracers thetao,nosuch -o x.nc
expect_err "small.nc.*nosuch"
expect_exit 2 "$PSTENCIL" run small.nc $S -n 1 --tracers thetao, -o x.nc
expect_err "an empty variable name"
expect_exit 2 "$PSTENCIL" run small.nc $S -n 1 --var so --tracers thetao,so -o x.nc
expect_err "[-]-var so contradicts --tracers thetao,so"
expect_exit 2 "$PSTENCIL" run --stencil tracer -b reference -n 1 --tracers thetao,salt -o x.nc
expect_err "built-in ocean.*salt"
# salinity with an ocean cell missing where the temperature has ocean
ncap2 -O -s 'so(:,0,:,:)=so@_FillValue' small.nc holes.nc || fail "ncap2 holes"
expect_exit 2 "$PSTENCIL" run holes.nc $S -n 1 --tracers thetao,so -o x.nc
expect_err "so is land \(NaN\) at level 0, row [0-9]+, column [0-9]+, where thetao is ocean"
[ ! -e x.nc ] || fail "refusals: output left"
echo "refusals: named, exit 2, no output"
exit 0

#!/bin/sh
# The currents of a stencil that takes them (auxiliary inputs u, v, w): the
# built-in ocean's gyre, a generated file's uo/vo (bitwise the built-in
# ocean's run), --velocity FILE in cm s-1 converted to m s-1, and the
# refusals (no currents, another grid, a missing value at an ocean cell)
# with exit 2 and no output; one box, --split boxes and out of core bitwise
# equal in float64 over several records; --continue bitwise one run, taking
# the currents from where the run continued took them.
. "$top_srcdir/tests/lib.sh"
for t in ncks ncap2 ncatted ncdump; do
  command -v $t >/dev/null 2>&1 || skip "$t (NCO, netCDF) is not installed"
done
cd "$TMP" || fail "no temporary directory"
sum() { sed -n 's/^  checksum    : \(0x[0-9a-f]*\).*/\1/p' "$TMP/out"; }
S="--stencil tracer -b reference"

# the built-in ocean runs with its gyre; a generated file with its uo/vo, bitwise
expect_exit 0 "$PSTENCIL" run $S -n 2 -o builtin.nc
grep -q "^  input u     : the built-in ocean's gyre" out || { cat out >&2; fail "built-in: no gyre"; }
want=$(sum)
expect_exit 0 "$PSTENCIL" gen -o g.nc
ncdump -h g.nc | grep -q 'uo:standard_name = "eastward_sea_water_velocity"' || fail "gen: no uo"
ncdump -h g.nc | grep -q 'vo:units = "m s-1"' || fail "gen: vo units"
expect_exit 0 "$PSTENCIL" run g.nc $S -n 2 -o fromgen.nc
grep -q "^  input v     : g.nc, variable vo, record 0" out || { cat out >&2; fail "gen: vo not read"; }
[ "$(sum)" = "$want" ] || fail "gen file $(sum), built-in ocean $want"
# other commands still take the temperature
expect_exit 0 "$PSTENCIL" summary g.nc
grep -q "Variable: thetao" out || fail "summary did not pick thetao"
rm -f g.nc fromgen.nc builtin.nc
echo "built-in ocean and its generated file: $want"

expect_exit 0 "$PSTENCIL" gen --scale 0.1 -o small.nc
ncks -O -x -v uo,vo small.nc nocur.nc || fail "ncks nocur"
ncks -O -v uo,vo small.nc vel.nc || fail "ncks vel"

# no currents: named, --velocity suggested, no output
expect_exit 2 "$PSTENCIL" run nocur.nc $S -n 2 -o x.nc
expect_err "needs the eastward current.*eastward_sea_water_velocity or sea_water_x_velocity.*--velocity"
[ ! -e x.nc ] || fail "no currents: output left"

# --velocity in cm s-1: converted (not bitwise: x*100 then *0.01)
expect_exit 0 "$PSTENCIL" run small.nc $S -p double -n 4 -o ref.nc
ncap2 -O -s 'uo=uo*100;vo=vo*100' vel.nc velcm.nc || fail "ncap2"
ncatted -O -a units,uo,o,c,"cm s-1" -a units,vo,o,c,"cm s-1" velcm.nc || fail "ncatted"
expect_exit 0 "$PSTENCIL" run nocur.nc $S -p double -n 4 --velocity velcm.nc -o cm.nc
grep -q "input u     : velcm.nc, variable uo, record 0, converted from cm s-1 to m s-1" out ||
  { cat out >&2; fail "cm s-1: no conversion said"; }
expect_exit 0 "$PSTENCIL" compare ref.nc cm.nc --rel 1e-5
# the same values said to be m s-1 are 100 times faster: another result
ncatted -O -a units,uo,o,c,"m s-1" -a units,vo,o,c,"m s-1" velcm.nc fast.nc || fail "ncatted"
expect_exit 0 "$PSTENCIL" run nocur.nc $S -p double -n 4 --velocity fast.nc -o fast_out.nc
expect_exit 1 "$PSTENCIL" compare ref.nc fast_out.nc --rel 1e-5
# the field's time index picks the currents' record; the profile says where they came from
expect_exit 0 "$PSTENCIL" run nocur.nc $S -n 1 --time-index 3 --velocity vel.nc -o t3.nc \
  --profile t3.json
grep -q "input v     : vel.nc, variable vo, record 3$" out || { cat out >&2; fail "record 3"; }
grep -q '"u": "vel.nc, variable uo, record 3"' t3.json || { cat t3.json >&2; fail "profile inputs"; }
echo "--velocity in cm s-1 converted"

# another grid: other sizes, or the same sizes at other latitudes
expect_exit 0 "$PSTENCIL" gen --scale 0.12 -o other.nc
expect_exit 2 "$PSTENCIL" run nocur.nc $S -n 2 --velocity other.nc -o x.nc
expect_err "other.nc: 'uo' is not on the grid of nocur.nc.*latitude axis"
[ ! -e x.nc ] || fail "grid mismatch: output left"
ncap2 -O -s 'latitude=latitude+0.01f' vel.nc shifted.nc || fail "ncap2 shifted"
expect_exit 2 "$PSTENCIL" run nocur.nc $S -n 2 --velocity shifted.nc -o x.nc
expect_err "shifted.nc: 'uo' is not on the grid of nocur.nc.*latitude 0 is"
[ ! -e x.nc ] || fail "coordinate mismatch: output left"

# a missing value at an ocean cell (the surface of record 0 made missing)
ncap2 -O -s 'uo(0,0,:,:)=-999.0f;uo@missing_value=-999.0f' vel.nc holes.nc || fail "ncap2 holes"
expect_exit 2 "$PSTENCIL" run nocur.nc $S -n 2 --velocity holes.nc -o x.nc
expect_err "u \(.*holes.nc, variable uo, record 0\) is missing at ocean cell \(level 0, row [0-9]+, column [0-9]+\)"
[ ! -e x.nc ] || fail "missing velocity: output left"
# records that are neither one nor the field's; --velocity for a stencil without currents
ncks -O -d time,0,1 vel.nc vel2.nc || fail "ncks vel2"
expect_exit 2 "$PSTENCIL" run nocur.nc $S -n 2 --velocity vel2.nc -o x.nc
expect_err "vel2.nc: 'uo' has 2 time records and the field 5"
expect_exit 2 "$PSTENCIL" run small.nc --stencil hdiff -n 2 --velocity vel.nc -o x.nc
expect_err "[-]-velocity: stencil hdiff takes no currents"
[ ! -e x.nc ] || fail "refusals: output left"
echo "refusals: no currents, other grid, missing value"

# one box, --split boxes and out of core: bitwise, float64, every record
C="small.nc $S -p double -n 6 --output-every 2"
expect_exit 0 "$PSTENCIL" run $C -o one.nc
one=$(sum)
expect_exit 0 "$PSTENCIL" run $C --split 2x2x1 -o split.nc
[ "$(sum)" = "$one" ] || fail "--split 2x2x1: $(sum), one box $one"
expect_exit 0 "$PSTENCIL" compare one.nc split.nc
# every context holds tracer's six rates a cell over the whole grid (1268528
# bytes here): they come off the budget, and 120 KiB is left for the slabs
expect_exit 2 "$PSTENCIL" run $C --max-device-memory 1200K -o ooc.nc
expect_err "coefficient arrays take 1268528 bytes in every context"
expect_exit 0 "$PSTENCIL" run $C --max-device-memory 1359K -o ooc.nc
grep -q "^  out of core : [2-9][0-9]* slabs\|^  out of core : [0-9][0-9]* slabs" out ||
  { cat out >&2; fail "not out of core"; }
[ "$(sum)" = "$one" ] || fail "out of core: $(sum), in core $one"
expect_exit 0 "$PSTENCIL" compare one.nc ooc.nc
echo "one box, split and out of core: $one"

# --continue: the currents from the same place (here a --velocity file), bitwise
expect_exit 0 "$PSTENCIL" run nocur.nc $S -p double -n 6 --velocity vel.nc -o full.nc
full=$(sum)
expect_exit 0 "$PSTENCIL" run nocur.nc $S -p double -n 3 --velocity vel.nc -o part1.nc
ncdump -h part1.nc | grep -q 'pstencil_input_u = "file 0 vel.nc"' || fail "no input record"
expect_exit 2 "$PSTENCIL" run --continue part1.nc -n 3 --velocity holes.nc -o part2.nc
expect_err "[-]-velocity holes.nc contradicts part1.nc, which took u from vel.nc"
expect_exit 0 "$PSTENCIL" run --continue part1.nc -n 3 -o part2.nc
grep -q "input u     : vel.nc, variable uo, record 0" out || { cat out >&2; fail "continue: source"; }
[ "$(sum)" = "$full" ] || fail "--continue: $(sum), one run $full"
# and the gyre of the built-in ocean
expect_exit 0 "$PSTENCIL" run $S -n 2 -o b2.nc
b2=$(sum)
expect_exit 0 "$PSTENCIL" run $S -n 1 -o b1.nc
expect_exit 0 "$PSTENCIL" run --continue b1.nc -n 1 -o b1b.nc
[ "$(sum)" = "$b2" ] || fail "--continue on the gyre: $(sum), one run $b2"
echo "--continue bitwise one run"
exit 0

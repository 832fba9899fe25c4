#!/bin/sh
# pstencil gen: deterministic (two runs are byte-identical), the course's
# file shape and conventions, readable by ncdump (and cdo, xarray if present),
# salinity so beside thetao (same land, every record; thetao still the
# variable found by default), --scale, refusing to overwrite without --force,
# default output path.
. "$top_srcdir/tests/lib.sh"
command -v ncdump >/dev/null 2>&1 || skip "ncdump not installed"
cd "$TMP" || fail "cd"

expect_exit 0 "$PSTENCIL" gen --help
grep -q -- "--scale" "$TMP/out" || fail "gen --help does not describe --scale"

expect_exit 0 "$PSTENCIL" gen -o a.nc --scale 0.2
expect_exit 0 "$PSTENCIL" gen -o b.nc --scale 0.2
cmp a.nc b.nc || fail "two gen runs differ"
expect_exit 0 "$PSTENCIL" gen -o c.nc --scale 0.2 --seed 7
cmp -s a.nc c.nc && fail "--seed does not change the ocean"

ncdump -h a.nc > hdr || fail "ncdump -h cannot read the generated file"
grep -q "depth = 50 ;" hdr || fail "not 50 depth levels"
grep -q "latitude = 44 ;" hdr || fail "latitude not round(222*0.2) = 44"
grep -q "longitude = 48 ;" hdr || fail "longitude not round(241*0.2) = 48"
grep -q "time = UNLIMITED ; // (5 currently)" hdr || fail "not 5 time records"
grep -q "float thetao(time, depth, latitude, longitude)" hdr || fail "no thetao(time, depth, latitude, longitude) float"
grep -q 'thetao:standard_name = "sea_water_potential_temperature"' hdr || fail "no standard_name"
grep -q 'thetao:units = "degrees_C"' hdr || fail "no units"
grep -q "float so(time, depth, latitude, longitude)" hdr || fail "no so(time, depth, latitude, longitude) float"
grep -q 'so:standard_name = "sea_water_salinity"' hdr || fail "so: no standard_name"
grep -q 'so:units = "1e-3"' hdr || fail "so: units not 1e-3"
grep -q 'so:long_name = "Sea water salinity"' hdr || fail "so: no long_name"
expect_exit 0 "$PSTENCIL" summary a.nc --no-levels
grep -q "^Variable: thetao " "$TMP/out" || fail "summary does not find thetao by default"
expect_exit 0 "$PSTENCIL" summary a.nc --var so --no-levels
grep -q "^Variable: so (float32, units 1e-3)" "$TMP/out" || fail "summary --var so"
ncdump -v depth a.nc | tr -d ' \n' | grep -q 'depth=0.494025,1.541375,2.645669,' || fail "depth levels"
ncdump -v depth a.nc | tr -d ' \n' | grep -q '5274.784,5727.917;' || fail "last depth levels"

# the full-size file: the course's shape
expect_exit 0 "$PSTENCIL" gen
[ -f output/pstencil_ocean.nc ] || fail "default output output/pstencil_ocean.nc missing"
expect_exit 0 "$PSTENCIL" summary output/pstencil_ocean.nc --no-levels
grep -q "The dimensions of the data is: (5, 50, 222, 241)" "$TMP/out" || fail "full-size shape"
grep -q "latitude .* 46.83 46.92 47 \.\.\. 65.17 65.25" "$TMP/out" || fail "latitude range"
grep -q "longitude .* -13.83 -13.75 -13.67 \.\.\. 6.083 6.167" "$TMP/out" || fail "longitude range"

# refusals
expect_exit 2 "$PSTENCIL" gen -o a.nc --scale 0.2
expect_err "exists; use --force"
expect_exit 0 "$PSTENCIL" gen -o a.nc --scale 0.2 --force
expect_exit 2 "$PSTENCIL" gen -o nodir/x.nc --scale 0.2
expect_err "nodir"
[ -e nodir/x.nc ] && fail "output left behind"
expect_exit 2 "$PSTENCIL" gen --scale -1
expect_err "scale"
expect_exit 2 "$PSTENCIL" gen -o huge.nc --scale 1000
expect_err "the field \([0-9x]+, float32\) needs [0-9]+ bytes, more than the [0-9]+ bytes this process can use \(limited by "
[ -e huge.nc ] && fail "output left behind by a grid too large for memory"
expect_exit 2 "$PSTENCIL" gen -o small.nc --scale 0.005
expect_err "need at least 3x3"
expect_exit 2 "$PSTENCIL" gen --seed abc
expect_err "seed"
ls -a | grep -q '\.tmp\.' && fail "temporary file left behind"

if command -v cdo >/dev/null 2>&1; then
  cdo -s sinfon a.nc > cdo.out 2>&1 || { cat cdo.out; fail "cdo sinfon cannot read the generated file"; }
  grep -Eiq 'unsupported|warning|error' cdo.out && { cat cdo.out; fail "cdo sinfon complains"; }
  grep -q "2024-01-01 00:00:00" cdo.out || { cat cdo.out; fail "cdo does not see 2024-01-01 as the first time"; }
fi
if /usr/bin/python3 -c 'import xarray, netCDF4' 2>/dev/null; then
  /usr/bin/python3 - <<'PY' || fail "xarray cannot open the generated file"
import xarray as xr, numpy as np
ds = xr.open_dataset("a.nc")
t = ds["thetao"]
assert t.dims == ("time", "depth", "latitude", "longitude"), t.dims
assert t.dtype == np.float32
assert 0.2 < float(np.isnan(t.values).mean()) < 0.9
s = ds["so"]
assert s.dims == t.dims and s.dtype == np.float32, (s.dims, s.dtype)
assert (np.isnan(s.values) == np.isnan(t.values)).all(), "so's land is not thetao's"
assert 30 < float(s.min()) and float(s.max()) < 37, (float(s.min()), float(s.max()))
PY
fi
exit 0

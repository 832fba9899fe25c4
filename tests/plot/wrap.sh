#!/bin/sh
# plot slice on a 0..360 longitude grid: a --lon window that crosses 0
# degrees takes the columns from both ends of the grid in longitude order
# (the map gets lighter west to east for a field that rises eastward across
# 0), a file cut across 0 (..., 355, 0, 5, ...) is unwrapped instead of
# refused, a window across 180 degrees works too, and bad windows are refused
# with nothing written.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/plot/lib.sh"
command -v ncgen >/dev/null 2>&1 || skip "ncgen is not installed"
cd "$TMP" || fail "cd"
# grid.cdl: lon 2.5..357.5 (72), lat 30..50; thetao rises eastward across 0
# (10 + L/10, L the longitude in -180..180). cut.cdl: lon 342.5..357.5, 2.5..17.5.
"$PY" - <<'PYEOF' || fail "making the CDL files"
def cdl(name, lons):
    lats = [30, 35, 40, 45, 50]
    vals = []
    for k in range(3):
        for la in lats:
            for lo in lons:
                L = lo if lo < 180 else lo - 360
                vals.append("%.3f" % (10 + L / 10.0 - k))
    vals[0] = "_"  # one land cell
    open(name + ".cdl", "w").write("""netcdf %s {
dimensions: time = UNLIMITED ; depth = 3 ; lat = %d ; lon = %d ;
variables:
  double time(time) ; time:units = "days since 2000-01-01" ;
  float depth(depth) ; depth:units = "m" ; depth:positive = "down" ;
  float lat(lat) ; lat:units = "degrees_north" ;
  float lon(lon) ; lon:units = "degrees_east" ;
  float thetao(time, depth, lat, lon) ; thetao:units = "degC" ; thetao:_FillValue = 1.e+20f ;
data:
  time = 0 ; depth = 0.5, 10, 100 ;
  lat = %s ;
  lon = %s ;
  thetao = %s ;
}
""" % (name, len(lats), len(lons), ", ".join(map(str, lats)), ", ".join(map(str, lons)), ", ".join(vals)))
cdl("grid", [2.5 + 5 * i for i in range(72)])
cdl("cut", [342.5, 347.5, 352.5, 357.5, 2.5, 7.5, 12.5, 17.5])
PYEOF
ncgen -o grid.nc grid.cdl || fail "ncgen grid.cdl"
ncgen -o cut.nc cut.cdl || fail "ncgen cut.cdl"

"$PSTENCIL" plot slice grid.nc -o probe.png >"$TMP/out" 2>"$TMP/err"
grep -q "without PLplot" "$TMP/err" && skip "built without PLplot"

expect_exit 0 "$PSTENCIL" plot slice grid.nc --lon -20:20 -o across0.png
grep -q "window: 8 longitudes from -17.5 to 17.5, 5 latitudes" "$TMP/out" || { cat "$TMP/out"; fail "--lon -20:20 window"; }
"$PY" "$top_srcdir/tests/plot/png.py" gradient across0.png || fail "across0.png"
expect_exit 0 "$PSTENCIL" plot slice grid.nc --lon 340:380 --lat 34:46 -o across0b.png
grep -q "window: 8 longitudes from 342.5 to 377.5, 3 latitudes" "$TMP/out" || { cat "$TMP/out"; fail "--lon 340:380 window"; }
expect_exit 0 "$PSTENCIL" plot slice cut.nc -o cut.png
"$PY" "$top_srcdir/tests/plot/png.py" gradient cut.png || fail "cut.png"
expect_exit 0 "$PSTENCIL" plot slice grid.nc --lon 170:190 -o across180.png
grep -q "window: 4 longitudes from 172.5 to 187.5" "$TMP/out" || { cat "$TMP/out"; fail "--lon 170:190 window"; }

expect_exit 2 "$PSTENCIL" plot slice grid.nc --lon 20:-20 -o bad1.png
expect_err "is not below"
expect_exit 2 "$PSTENCIL" plot slice grid.nc --lon 0:400 -o bad2.png
expect_err "more than 360"
expect_exit 2 "$PSTENCIL" plot slice grid.nc --lon 0.5:2 -o bad3.png
expect_err "holds no cell"
expect_exit 2 "$PSTENCIL" plot slice grid.nc --lat 10 -o bad4.png
expect_err "not FROM:TO"
for f in bad1 bad2 bad3 bad4; do [ -e $f.png ] && fail "$f.png written for a bad window"; done
exit 0

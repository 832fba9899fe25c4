#!/bin/sh
# Pictures at any page size: slices of a tall region (10 x 20 degrees at 50N)
# and a wide one (120 x 20 degrees at the equator) and a difference map of
# values near 1e-4 (where PLplot would add an exponent label) are drawn at
# 600x1200, 1000x700 and 1600x500; in each PNG (tests/plot/png.py) the map's
# width/height matches the geographic aspect (lon span x cos(mid-latitude) /
# lat span), nothing touches the page's border (no clipped text), titles and
# axis labels lie above and below the map, and the colour bar is as tall as
# the map (no exponent label squeezed above it).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/plot/lib.sh"
command -v ncgen >/dev/null 2>&1 || skip "ncgen is not installed"
cd "$TMP" || fail "cd"
"$PY" - <<'PYEOF' || fail "making the CDL files"
def cdl(name, lons, lats, delta=0.0):
    vals = []
    for k in range(3):
        for j, la in enumerate(lats):
            for i, lo in enumerate(lons):
                if i == 0 or j == 0 or i == len(lons) - 1 or j == len(lats) - 1:
                    vals.append("_")
                else:
                    vals.append("%.7f" % (10 + 0.05 * la + 0.01 * lo - k + delta * ((i * 7 + j * 3) % 5)))
    open(name + ".cdl", "w").write("""netcdf %s {
dimensions: time = UNLIMITED ; depth = 3 ; lat = %d ; lon = %d ;
variables:
  double time(time) ; time:units = "days since 2000-01-01" ;
  float depth(depth) ; depth:units = "m" ; depth:positive = "down" ;
  float lat(lat) ; lat:units = "degrees_north" ;
  float lon(lon) ; lon:units = "degrees_east" ;
  double thetao(time, depth, lat, lon) ; thetao:units = "degC" ;
data:
  time = 0 ; depth = 0.5, 10, 100 ;
  lat = %s ;
  lon = %s ;
  thetao = %s ;
}
""" % (name, len(lats), len(lons), ", ".join(map(str, lats)), ", ".join(map(str, lons)), ", ".join(vals)))
cdl("tall", [0.5 + i for i in range(10)], [40.5 + j for j in range(20)])
cdl("wide", [-59 + 2 * i for i in range(60)], [-9 + 2 * j for j in range(10)])
cdl("wide2", [-59 + 2 * i for i in range(60)], [-9 + 2 * j for j in range(10)], delta=3e-5)
PYEOF
for f in tall wide wide2; do ncgen -o $f.nc $f.cdl || fail "ncgen $f.cdl"; done
"$PSTENCIL" plot slice tall.nc -o probe.png >"$TMP/out" 2>"$TMP/err"
grep -q "without PLplot" "$TMP/err" && skip "built without PLplot"
# geographic aspects: 10 * cos(50 deg) / 20 and 120 * cos(0) / 20
tall=$("$PY" -c "import math; print(10 * math.cos(math.radians(50)) / 20)")
for size in 600x1200 1000x700 1600x500; do
  w=${size%x*} h=${size#*x}
  expect_exit 0 "$PSTENCIL" plot slice tall.nc --width "$w" --height "$h" -o "tall_$size.png"
  "$PY" "$top_srcdir/tests/plot/png.py" layout "tall_$size.png" "$w" "$h" "$tall" || fail "tall_$size.png"
  expect_exit 0 "$PSTENCIL" plot slice wide.nc --width "$w" --height "$h" -o "wide_$size.png"
  "$PY" "$top_srcdir/tests/plot/png.py" layout "wide_$size.png" "$w" "$h" 6 || fail "wide_$size.png"
  expect_exit 0 "$PSTENCIL" plot diff wide.nc wide2.nc --width "$w" --height "$h" -o "diff_$size.png"
  "$PY" "$top_srcdir/tests/plot/png.py" layout "diff_$size.png" "$w" "$h" 6 bar || fail "diff_$size.png"
done
exit 0

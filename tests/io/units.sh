#!/bin/sh
# Units through UDUNITS-2 (issue 28 point 1): Ferret's "DEG C", "METERS"
# and "PPT" (parts per thousand, which UDUNITS-2 reads as parts per
# trillion) are read and written as "degC", "m" and "1e-3"; a depth in feet
# is converted to metres (--depth 3 picks 3.048 m); a sea temperature in
# kelvin with no units attribute is refused with the fix (run and summary,
# exit 2, nothing written), and with units "K" it runs and keeps them; time
# units UDUNITS-2 reads ("fortnights since") are accepted and a length
# ("meters since") refused as not a time. Input: tests/data/levitus.cdl.
. "$top_srcdir/tests/lib.sh"
command -v ncgen >/dev/null 2>&1 || skip "ncgen is not installed"
command -v ncdump >/dev/null 2>&1 || skip "ncdump is not installed"
cd "$TMP" || fail "cd"
CDL=$top_srcdir/tests/data/levitus.cdl
ncgen -o lev.nc "$CDL" || fail "ncgen levitus"
att() { ncdump -h "$1" | sed -n "s/^[[:space:]]*$2:$3 = \"\(.*\)\" ;\$/\1/p"; }

expect_exit 0 "$PSTENCIL" run lev.nc -o t.nc --steps 2 -q
expect_exit 0 "$PSTENCIL" run lev.nc --var SALT -o s.nc --steps 2 -q
[ "$(att t.nc TEMP units)" = degC ] || fail "TEMP units '$(att t.nc TEMP units)', not degC"
[ "$(att t.nc ZAXLEVITR units)" = m ] || fail "depth units '$(att t.nc ZAXLEVITR units)', not m"
[ "$(att s.nc SALT units)" = 1e-3 ] || fail "SALT units '$(att s.nc SALT units)', not 1e-3"
expect_exit 0 "$PSTENCIL" summary lev.nc
grep -q "units degC" "$TMP/out" || { cat "$TMP/out"; fail "summary does not say degC"; }

# depth in feet: converted to metres
sed 's/ZAXLEVITR:units = "METERS"/ZAXLEVITR:units = "ft"/' \
  "$CDL" > ft.cdl
ncgen -o ft.nc ft.cdl || fail "ncgen ft"
"$PSTENCIL" plot slice ft.nc -o probe.png >"$TMP/out" 2>"$TMP/err"
if ! grep -q "without PLplot" "$TMP/err"; then
  expect_exit 0 "$PSTENCIL" plot slice ft.nc --depth 3 -o ft.png
  grep -q "at 3.048 m (level 1)" "$TMP/out" || { cat "$TMP/out"; fail "feet not converted to metres"; }
fi
expect_exit 0 "$PSTENCIL" run ft.nc --stencil hdiff -o ftr.nc --steps 1 -q

# kelvin: no units attribute refused, units K kept
awk '/^ TEMP =/ { t = 1 } t && /^ SALT =/ { t = 0 }
     t { n = split($0, a, ","); s = "";
         for (i = 1; i <= n; i++) { v = a[i]; sub(/;/, "", v); gsub(/ /, "", v); sub(/^TEMP=/, "", v);
           if (v ~ /^[0-9.]+$/) v = v + 273.15; s = s (i > 1 ? ", " : "") v }
         if ($0 ~ /^ TEMP =/) s = " TEMP = " s; if ($0 ~ /;/) s = s " ;"; print s; next }
     { print }' "$CDL" > k.cdl
sed '/TEMP:units = "DEG C"/d' k.cdl > knounits.cdl
sed 's/TEMP:units = "DEG C"/TEMP:units = "K"/' k.cdl > kunits.cdl
ncgen -o knounits.nc knounits.cdl || fail "ncgen knounits"
ncgen -o kunits.nc kunits.cdl || fail "ncgen kunits"
expect_exit 2 "$PSTENCIL" run knounits.nc -o kn.nc --steps 2 -q
expect_err "pstencil: error: knounits\.nc: 'TEMP' has no units attribute and holds 291\.15 .*look like kelvin; give 'TEMP' its units \(ncatted -a units,TEMP,c,c,K knounits\.nc\)"
[ -e kn.nc ] && fail "an output was written for a unitless kelvin field"
expect_exit 2 "$PSTENCIL" summary knounits.nc
expect_err "look like kelvin"
expect_exit 0 "$PSTENCIL" run kunits.nc -o ku.nc --steps 2 -q
[ "$(att ku.nc TEMP units)" = K ] || fail "kelvin units not kept"

# time units
mkt() {
  cat > "$1.cdl" <<CDL
netcdf $1 {
dimensions: time = UNLIMITED ; depth = 3 ; lat = 3 ; lon = 4 ;
variables:
  double time(time) ; time:units = "$2" ; time:standard_name = "time" ;
  float depth(depth) ; depth:units = "m" ; depth:positive = "down" ;
  double lat(lat) ; lat:units = "degrees_north" ;
  double lon(lon) ; lon:units = "degrees_east" ;
  float thetao(time, depth, lat, lon) ; thetao:units = "degC" ;
data:
  time = 1 ; depth = 1, 10, 100 ; lat = 50, 51, 52 ; lon = 0, 1, 2, 3 ;
  thetao = $(seq -s, 1 36 | sed 's/,/, /g') ;
}
CDL
  ncgen -o "$1.nc" "$1.cdl" || fail "ncgen $1"
}
mkt fort "fortnights since 2000-01-01"
expect_exit 0 "$PSTENCIL" run fort.nc -o fo.nc --steps 1 --dt 1209600 -q
[ "$(ncdump -v time fo.nc | sed -n 's/^ time = \(.*\) ;/\1/p')" = "1, 2" ] || fail "fortnights not advanced: $(ncdump -v time fo.nc | tail -2)"
mkt len "meters since 2000-01-01"
expect_exit 2 "$PSTENCIL" run len.nc -o le.nc --steps 1 -q
expect_err "time units 'meters since 2000-01-01': 'meters' is not a unit of time"
exit 0

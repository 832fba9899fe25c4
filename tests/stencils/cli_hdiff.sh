#!/bin/sh
# pstencil run --stencil hdiff: on the built-in ocean with --dt auto (the note
# gives dt = 90% of the stable limit); the output's time advances by dt
# per step; an unstable --dt is refused (exit 2, the largest stable value in
# the message, no output); and on CF files shaped like other producers'
# (tests/data/cf_*.cdl: CMEMS packed short, NCO 3-D with depth in cm stored
# bottom first, CDO heights and 0..360 longitudes, NEMO 2-D nav_lat/nav_lon,
# descending latitude), which hold the same grid and temperatures and so must
# give the same result; files without usable coordinates are refused by name.
. "$top_srcdir/tests/lib.sh"
command -v ncgen >/dev/null 2>&1 || skip "ncgen not available"
command -v ncdump >/dev/null 2>&1 || skip "ncdump not available"
cd "$TMP" || exit 1
D="$top_srcdir/tests/data"
for f in cf_cmems cf_nco cf_cdo cf_nemo cf_descending cf_indices; do
  ncgen -o $f.nc "$D/$f.cdl" || fail "ncgen $f"
done
mkdir o

# values of a double variable at full precision, one per line
values() {
  ncdump -p 9,17 -v "$2" "$1" |
    awk -v v=" $2 = " 'index($0, v) == 1 { on = 1; $0 = substr($0, length(v) + 1) }
                       on { last = index($0, ";"); gsub(/[;,]/, " "); print; if (last) exit }' |
    tr -s ' ' '\n' | grep -v '^$'
}

# seconds since the first record of FILE (the built-in ocean's time is in hours)
elapsed() { values "$1" time | awk 'NR == 1 { t0 = $1 } { printf "%.6g ", ($1 - t0) * 3600 }'; }

# 1. the built-in ocean, --dt auto: the note, the report, time advances by step * dt
expect_exit 0 "$PSTENCIL" run --stencil hdiff --kh 1000 --kv 1e-5 --dt auto -n 3 --output-every 1 \
  -o ocean.nc --backend reference --no-progress
expect_err "dt auto = [0-9.e+]+ s \(90% of the largest stable step [0-9.e+]+ s"
grep -q "3 steps of hdiff (kh = 1000 m2/s, kv = 1e-05 m2/s, dt = auto)" "$TMP/out" || {
  cat "$TMP/out"; fail "the report does not name hdiff and its options"; }
dt=$(sed -n 's/.*dt auto = \([0-9.e+-]*\) s.*/\1/p' "$TMP/err")
lim=$(sed -n 's/.*largest stable step \([0-9.e+-]*\) s.*/\1/p' "$TMP/err")
awk -v d="$dt" -v l="$lim" 'BEGIN { r = d / (0.9 * l); exit !(r > 0.99999 && r < 1.00001) }' ||
  fail "dt auto $dt is not 90% of the stable limit $lim"
mdt=$(ncdump -p 9,17 -h ocean.nc | sed -n 's/.*step:seconds_per_step = \([0-9.e+-]*\) ;.*/\1/p')
[ -n "$mdt" ] || fail "ocean.nc has no step:seconds_per_step"
awk -v d="$dt" -v m="$mdt" 'BEGIN { r = d / m; exit !(r > 0.99999 && r < 1.00001) }' ||
  fail "step:seconds_per_step $mdt differs from the note's $dt"
elapsed ocean.nc | tr ' ' '\n' | grep -v '^$' > mt || fail "no time"
values ocean.nc step > st || fail "no step"
[ "$(wc -l < mt)" -eq 4 ] || fail "expected 4 snapshots, got $(cat mt)"
paste st mt | awk -v d="$mdt" '{ want = $1 * d; if ((want - $2) > 1e-5 * want || ($2 - want) > 1e-5 * want) bad = 1 }
  END { exit bad }' || fail "time does not advance by dt per step: $(paste st mt)"

# 2. a given stable dt is the step; the same unit-less diffusion7 --dt still works
expect_exit 0 "$PSTENCIL" run --stencil hdiff --dt 600 -n 2 -o given.nc --backend reference --no-progress
[ "$(elapsed given.nc)" = "0 1200 " ] || fail "hdiff --dt 600: time advances by $(elapsed given.nc) s"
expect_exit 0 "$PSTENCIL" run --dt 60 -n 2 -o d7.nc --backend reference --no-progress
[ "$(elapsed d7.nc)" = "0 120 " ] || fail "diffusion7 --dt 60: time advances by $(elapsed d7.nc) s"

# 3. an unstable dt: refused before anything is written, naming the largest stable step
expect_exit 2 "$PSTENCIL" run --stencil hdiff --dt 1e7 -o o/x.nc --backend reference
expect_err "pstencil: error: .*unstable.*largest stable step is $lim s"
[ -z "$(ls -A o)" ] || fail "an unstable --dt left files behind: $(ls -A o)"
expect_exit 2 "$PSTENCIL" run --stencil hdiff --dt -5 -o o/x.nc
expect_err "dt"
[ -z "$(ls -A o)" ] || fail "a negative --dt left files behind"

# 4. the CF files: same grid and temperatures, same result
for f in cf_cmems cf_nco cf_cdo cf_nemo cf_descending; do
  expect_exit 0 "$PSTENCIL" run $f.nc --stencil hdiff --kh 1000 --kv 1e-5 --dt auto -n 6 \
    -o out_$f.nc --backend reference --no-progress
  expect_err "dt auto"
done
# hdiff did change the field
expect_exit 1 "$PSTENCIL" compare cf_cmems.nc out_cf_cmems.nc -q
for f in cf_nco cf_cdo cf_nemo; do
  expect_exit 0 "$PSTENCIL" compare out_cf_cmems.nc out_$f.nc
  grep -q "verdict *: identical" "$TMP/out" || { cat "$TMP/out"; fail "$f: not bitwise the CMEMS-shaped result"; }
done
if command -v ncpdq >/dev/null 2>&1; then
  # north first: the same result with j reversed (the sum visits j-1, j+1 in the other order)
  ncpdq -O -a -latitude out_cf_descending.nc flipped.nc || fail "ncpdq"
  expect_exit 0 "$PSTENCIL" compare out_cf_cmems.nc flipped.nc --ulps 4
else
  echo "ncpdq not available: descending latitude only run, not compared"
fi

# 5. files whose coordinates hdiff cannot use: refused by name, no output
bad() {
  want=$1; shift
  expect_exit 2 "$@"
  expect_err "pstencil: error: "
  expect_err "$want"
  [ -z "$(ls -A o)" ] || { ls -la o; fail "'$*' left files behind"; }
}
bad "depth dimension 'depth' has no coordinate variable" "$PSTENCIL" run cf_indices.nc --stencil hdiff -o o/o.nc
expect_exit 0 "$PSTENCIL" run cf_indices.nc -n 1 -o d7_indices.nc --no-progress   # diffusion7 needs none
variant() { # NAME SED-SCRIPT: cf_cmems with an edit
  sed -e "$2" "$D/cf_cmems.cdl" > $1.cdl && ncgen -o $1.nc $1.cdl || fail "ncgen $1"
}
variant dbar 's/depth:units = "m"/depth:units = "dbar"/'
bad "depth coordinate 'depth' has units 'dbar'" "$PSTENCIL" run dbar.nc --stencil hdiff -o o/o.nc
variant nounits '/depth:units = "m"/d'
bad "depth coordinate 'depth' has no units" "$PSTENCIL" run nounits.nc --stencil hdiff -o o/o.nc
variant projected 's/latitude:units = "degrees_north"/latitude:units = "m"/; s/latitude:standard_name = "latitude"/latitude:standard_name = "projection_y_coordinate"/'
bad "latitude coordinate 'latitude' has units 'm'" "$PSTENCIL" run projected.nc --stencil hdiff -o o/o.nc
variant rotated 's/latitude:standard_name = "latitude"/latitude:standard_name = "grid_latitude"/'
bad "rotated-pole" "$PSTENCIL" run rotated.nc --stencil hdiff -o o/o.nc
variant irregular 's/^ longitude = -0.75, -0.5,/ longitude = -0.75, -0.45,/'
bad "uniformly spaced longitudes" "$PSTENCIL" run irregular.nc --stencil hdiff -o o/o.nc
sed -e '/^ nav_lat =/{n;s/60.0, 60.0,/60.0, 60.1,/}' "$D/cf_nemo.cdl" > curvi.cdl && ncgen -o curvi.nc curvi.cdl || fail "ncgen curvi"
bad "latitude 'nav_lat' varies along x.*curvilinear" "$PSTENCIL" run curvi.nc --stencil hdiff -o o/o.nc
# negative depths without a positive attribute: heights, the same grid
sed -e '/depth:positive = "down"/d' -e 's/^ depth = 0.5, 1.5, 4.0, 10.0, 25.0 ;/ depth = -0.5, -1.5, -4.0, -10.0, -25.0 ;/' \
    "$D/cf_cmems.cdl" > neg.cdl && ncgen -o neg.nc neg.cdl || fail "ncgen neg"
grep -q -- '-1.5' neg.cdl || fail "the negative-depth edit did not apply"
expect_exit 0 "$PSTENCIL" run neg.nc --stencil hdiff -n 6 -o out_neg.nc --backend reference --no-progress
expect_exit 0 "$PSTENCIL" compare out_cf_cmems.nc out_neg.nc
grep -q "verdict *: identical" "$TMP/out" || { cat "$TMP/out"; fail "negative depths: not bitwise the same"; }
# km: the same depths, so nearly the same result (0.0005 km is not exact in binary)
sed -e 's/depth:units = "m"/depth:units = "km"/' \
    -e 's/^ depth = 0.5, 1.5, 4.0, 10.0, 25.0 ;/ depth = 0.0005, 0.0015, 0.004, 0.01, 0.025 ;/' \
    "$D/cf_cmems.cdl" > km.cdl && ncgen -o km.nc km.cdl || fail "ncgen km"
grep -q '0.0015' km.cdl || fail "the km edit did not apply"
expect_exit 0 "$PSTENCIL" run km.nc --stencil hdiff -n 6 -o out_km.nc --backend reference --no-progress
expect_exit 0 "$PSTENCIL" compare out_cf_cmems.nc out_km.nc --ulps 4
exit 0

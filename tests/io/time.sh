#!/bin/sh
# The output's CF time axis (docs/file-conventions.md): record n at the input
# record's time + steps * dt in the input's units and calendar (checked with
# cdo showdate for a 360_day and a noleap input), the step count as step(time)
# (a variable of its own, not in the coordinates), the default dt of 1 s, a continued run
# that ncrcat joins into a monotonic time, history newest line first, bounds
# and NEMO's nav_lat/nav_lon carried over.
. "$top_srcdir/tests/lib.sh"
for t in ncgen ncdump cdo ncrcat; do
  command -v $t >/dev/null 2>&1 || skip "$t not installed"
done
cd "$TMP" || fail "cd"
ncgen -o t360.nc "$top_srcdir/tests/data/time_360.cdl" || fail "ncgen time_360"
ncgen -o tnl.nc "$top_srcdir/tests/data/time_noleap.cdl" || fail "ncgen time_noleap"
ncgen -o nemo.nc "$top_srcdir/tests/data/cf_nemo.cdl" || fail "ncgen cf_nemo"

dates() { cdo -s showdate "$1" | tr -s ' \n' ' ' | sed 's/^ //; s/ $//'; }
# values FILE VAR: one value a line
values() {
  ncdump -p 15,17 -v "$2" "$1" |
    awk -v v="$2" '$0 ~ "^ " v " =" { on = 1; sub("^ " v " =", "") }
      on { line = line $0; if ($0 ~ /;/) on = 0 } END { print line }' |
    tr -d ';' | tr ',' '\n' | tr -d ' ' | grep -v '^$'
}

# 1. 360_day, days: day 29 + 1 day is 2000-02-01 (30-day months)
expect_exit 0 "$PSTENCIL" run t360.nc -o a.nc --steps 2 --dt 86400 --output-every 1 -q
[ "$(dates a.nc)" = "2000-01-30 2000-02-01 2000-02-02" ] || fail "360_day dates: $(dates a.nc)"
ncdump -h a.nc > a.hdr
grep -q 'time:units = "days since 2000-01-01 00:00:00"' a.hdr || fail "time units not copied"
grep -q 'time:calendar = "360_day"' a.hdr || fail "calendar not copied"
grep -q 'model_time' a.hdr && fail "model_time is still written"
grep -q 'double step(time)' a.hdr || fail "no step(time)"
grep -q 'thetao:coordinates = .*step' a.hdr && fail "step in thetao:coordinates (CDO cannot assign it)"
[ "$(values a.nc step | tr '\n' ' ')" = "0 1 2 " ] || fail "step: $(values a.nc step)"
for v in depth lat lon; do
  grep -q "$v:bounds = \"${v}_bnds\"" a.hdr || fail "$v:bounds missing"
  grep -q "float ${v}_bnds($v, bnds)" a.hdr || fail "${v}_bnds not carried over"
done
[ "$(values a.nc lat_bnds | tr '\n' ' ')" = "49.5 50.5 50.5 51.5 51.5 52.5 " ] ||
  fail "lat_bnds values: $(values a.nc lat_bnds)"

# history: the newest line first, the input's after it
ncdump -h a.nc | sed -n '/:history = /,/;$/p' > hist
head -1 hist | grep -q 'pstencil run' || fail "history does not start with the run: $(cat hist)"
grep -n 'made by hand' hist | grep -qv '^1:' || fail "input history lost or first: $(cat hist)"

# 2. the continuation: start from a.nc's last record; ncrcat gives a monotonic time
expect_exit 0 "$PSTENCIL" run a.nc --time-index 2 -o b.nc --steps 2 --dt 86400 -q
[ "$(dates b.nc)" = "2000-02-02 2000-02-04" ] || fail "continuation dates: $(dates b.nc)"
[ "$(values b.nc step | tr '\n' ' ')" = "2 4 " ] || fail "continuation step: $(values b.nc step)"
ncrcat -O a.nc b.nc ab.nc || fail "ncrcat"
values ab.nc time | awk 'NR > 1 && $1 < prev { bad = 1 } { prev = $1 } END { exit bad }' ||
  fail "ncrcat time not monotonic: $(values ab.nc time | tr '\n' ' ')"
values ab.nc step | awk 'NR > 1 && $1 < prev { bad = 1 } { prev = $1 } END { exit bad }' ||
  fail "ncrcat step not monotonic"

# 3. noleap, hours, from record 1 (2004-02-28): one day later is 2004-03-01;
#    the bottom-first depth is flipped, and its bounds with it
expect_exit 0 "$PSTENCIL" run tnl.nc --time-index 1 -o n.nc --steps 4 --dt 21600 -q
[ "$(dates n.nc)" = "2004-02-28 2004-03-01" ] || fail "noleap dates: $(dates n.nc)"
ncdump -h n.nc | grep -q 'time:calendar = "noleap"' || fail "noleap calendar not copied"
[ "$(values n.nc time | tr '\n' ' ')" = "1392 1416 " ] || fail "noleap time: $(values n.nc time)"
[ "$(values n.nc depth_bnds | tr '\n' ' ')" = "0 5 5 50 50 150 " ] ||
  fail "depth_bnds not flipped with depth: $(values n.nc depth_bnds)"

# 4. no --dt for the dimensionless diffusion7: one second per step
expect_exit 0 "$PSTENCIL" run t360.nc -o d.nc --steps 3 -q
values d.nc time | awk 'NR == 1 { t0 = $1 } NR == 2 { d = ($1 - t0) * 86400 }
  END { exit !(t0 == 29 && d > 2.999 && d < 3.001) }' ||
  fail "default dt is not 1 s: $(values d.nc time | tr '\n' ' ')"
ncdump -h d.nc | grep -q 'step:seconds_per_step = 1' || fail "no seconds_per_step = 1"

# 5. NEMO: nav_lat/nav_lon carried over and named in coordinates, with step
expect_exit 0 "$PSTENCIL" run nemo.nc -o e.nc --steps 2 -q
ncdump -h e.nc > e.hdr
grep -q 'float nav_lat(y, x)' e.hdr || fail "nav_lat not carried over"
grep -q 'float nav_lon(y, x)' e.hdr || fail "nav_lon not carried over"
grep -q 'votemper:coordinates = "nav_lat nav_lon"' e.hdr || fail "votemper:coordinates: $(grep coordinates e.hdr)"
grep -q 'time:units = "seconds since 1900-01-01 00:00:00"' e.hdr || fail "NEMO time units"
[ "$(dates e.nc)" = "$(dates nemo.nc)" ] || fail "NEMO dates $(dates e.nc) vs $(dates nemo.nc)"

# 6. the built-in ocean starts on its first date, 2024-01-01
expect_exit 0 "$PSTENCIL" run -o o.nc --steps 2 --dt 43200 -q
[ "$(dates o.nc)" = "2024-01-01 2024-01-02" ] || fail "built-in ocean dates: $(dates o.nc)"
exit 0

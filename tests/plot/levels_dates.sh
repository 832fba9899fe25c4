#!/bin/sh
# Levels and dates of model output in the pictures: by default plot slice
# and plot animate show the shallowest level the run changed (the surface is
# a boundary the models never change), not level 0; every command numbers
# levels from 0 with the depth shown (summary too); the animation's slider
# reads dates decoded in the file's calendar (360_day, noleap, standard).
. "$top_srcdir/tests/lib.sh"
command -v ncgen >/dev/null 2>&1 || skip "ncgen is not installed"
cd "$TMP" || fail "cd"
ncgen -o t360.nc "$top_srcdir/tests/data/time_360.cdl" || fail "ncgen time_360"
ncgen -o tnl.nc "$top_srcdir/tests/data/time_noleap.cdl" || fail "ncgen time_noleap"
ncgen -o small.nc "$top_srcdir/tests/data/plot_small.cdl" || fail "ncgen plot_small"
# labels PAGE: the slider labels of an animation page, space-separated
labels() { sed -n 's/.*var labels=\[\([^]]*\)\].*/\1/p' "$1" | head -1 | tr -d '"' | tr ',' ' '; }

# 360_day, days: 29, 30, 31 days since 2000-01-01 (30-day months).
expect_exit 0 "$PSTENCIL" run t360.nc -o a.nc --steps 2 --dt 86400 --output-every 1 -q
expect_exit 0 "$PSTENCIL" plot animate a.nc -o a.html --plotly cdn
[ "$(labels a.html)" = "2000-01-30 2000-02-01 2000-02-02" ] || fail "360_day slider labels: '$(labels a.html)'"
# (this input is linear in every direction, so the model changes nothing: the surface)
grep -q "thetao at 1 m (level 0)" "$TMP/out" || { cat "$TMP/out"; fail "animate of an unchanged file does not show the surface"; }

# summary numbers levels from 0, like plot --level.
expect_exit 0 "$PSTENCIL" summary a.nc
first=$(awk '/^Per depth level/ { getline; getline; print $1; exit }' "$TMP/out")
[ "$first" = 0 ] || { cat "$TMP/out"; fail "summary's first level is '$first', not 0"; }

# noleap, hours: 2004-02-28 + 1 day is 2004-03-01.
expect_exit 0 "$PSTENCIL" run tnl.nc -o n.nc --time-index 1 --steps 1 --dt 86400 -q
expect_exit 0 "$PSTENCIL" plot animate n.nc -o n.html --plotly cdn
[ "$(labels n.html)" = "2004-02-28 2004-03-01" ] || fail "noleap slider labels: '$(labels n.html)'"

# standard, hours since 1950-01-01, with the default dt of 1 s per step.
expect_exit 0 "$PSTENCIL" run small.nc -o s.nc --steps 90 -q
expect_exit 0 "$PSTENCIL" plot animate s.nc -o s.html --plotly cdn
[ "$(labels s.html)" = "2019-12-15 2019-12-15 00:01:30" ] || fail "standard slider labels: '$(labels s.html)'"
grep -q "thetao at 1.541 m (level 1)" "$TMP/out" || { cat "$TMP/out"; fail "animate of a run output does not show level 1 with its depth"; }
expect_exit 0 "$PSTENCIL" plot animate s.nc -o s0.html --plotly cdn --level 0
grep -q "(level 0)" "$TMP/out" || { cat "$TMP/out"; fail "--level 0 not honoured"; }
expect_exit 0 "$PSTENCIL" plot slice s.nc -o s.svg
grep -q "(level 1), time index 1" "$TMP/out" || { cat "$TMP/out"; fail "slice of a run output does not show level 1 of the last record"; }
# An input whose records differ at the surface: the surface.
expect_exit 0 "$PSTENCIL" plot slice small.nc -o small.svg
grep -q "(level 0), time index 2" "$TMP/out" || { cat "$TMP/out"; fail "slice of an input does not show the surface"; }
# B - A: the shallowest level where they differ (two runs of 10 and 90 steps).
expect_exit 0 "$PSTENCIL" run small.nc -o s10.nc --steps 10 -q
expect_exit 0 "$PSTENCIL" plot diff s10.nc s.nc --time 1 -o d.svg
grep -q "(level 1)" "$TMP/out" || { cat "$TMP/out"; fail "diff input/output is not at level 1"; }

# Records at the same time: the labels (the page's frame names) stay distinct.
sed 's/^ time = 613200, 613224, 613248 ;/ time = 613200, 613200, 613224 ;/' \
  "$top_srcdir/tests/data/plot_small.cdl" >same.cdl
ncgen -o same.nc same.cdl || fail "ncgen same.cdl"
expect_exit 0 "$PSTENCIL" plot animate same.nc -o same.html --plotly cdn
[ "$(labels same.html)" = "2019-12-15 2019-12-15 #1 2019-12-16" ] || fail "repeated times: '$(labels same.html)'"
exit 0

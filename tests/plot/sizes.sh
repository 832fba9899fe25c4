#!/bin/sh
# Pictures at any page size and aspect (issue 28 point 5): plot slice and
# plot diff of a run of the built-in ocean at 200x150, 300x1200, 1000x700,
# 2000x500 and 3000x1000, measured (tests/plot/png.py): nothing on the
# page's border, a readable title, separate colour-bar labels ("page"), and
# the titles wrapped rather than cut: at 300 px wide or less the difference
# map's title and subtitle take at least 3 separate lines above the map,
# elsewhere at least 2, none running into the next ("titles"). The pages
# (animate, cube) at the same sizes: tests/plot/html_layout.sh.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/plot/lib.sh"
[ -n "$PY" ] || skip "python3 is not installed"
cd "$TMP" || fail "cd"
expect_exit 0 "$PSTENCIL" gen -o ocean.nc --scale 0.3
"$PSTENCIL" plot slice ocean.nc -o probe.png >"$TMP/out" 2>"$TMP/err"
grep -q "without PLplot" "$TMP/err" && skip "built without PLplot"
expect_exit 0 "$PSTENCIL" run ocean.nc -o run.nc --steps 20 -q
# the quick suite: the smallest page and the two extreme aspects; make
# check-full every size
sizes="200x150 300x1200 2000x500"
ps_full && sizes="200x150 300x1200 1000x700 2000x500 3000x1000"
for size in $sizes; do
  w=${size%x*} h=${size#*x}
  n=2
  [ "$w" -le 300 ] && n=3
  expect_exit 0 "$PSTENCIL" plot slice run.nc --width "$w" --height "$h" -o "slice_$size.png"
  "$PY" "$top_srcdir/tests/plot/png.py" page "slice_$size.png" "$w" "$h" || fail "slice_$size.png"
  "$PY" "$top_srcdir/tests/plot/png.py" titles "slice_$size.png" "$w" "$h" 2 || fail "slice_$size.png"
  expect_exit 0 "$PSTENCIL" plot diff ocean.nc run.nc --width "$w" --height "$h" -o "diff_$size.png"
  "$PY" "$top_srcdir/tests/plot/png.py" page "diff_$size.png" "$w" "$h" || fail "diff_$size.png"
  "$PY" "$top_srcdir/tests/plot/png.py" titles "diff_$size.png" "$w" "$h" $n || fail "diff_$size.png"
done
exit 0

#!/bin/sh
# Pictures at any page size (issue 28 point 5): plot slice and plot diff of
# the built-in ocean and a run of it at 200x150, 300x1200, 1000x700 and
# 3000x1000 are measured (tests/plot/png.py page): nothing drawn on the
# page's border (titles are shrunk, then cut with "...", to fit the width),
# the title at least 6 pixels tall (characters never below 8 px), and the
# colour bar's labels separate (one per 2.5 character heights of the bar,
# ticks inside the bar).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/plot/lib.sh"
[ -n "$PY" ] || skip "python3 is not installed"
cd "$TMP" || fail "cd"
expect_exit 0 "$PSTENCIL" gen -o ocean.nc --scale 0.3
"$PSTENCIL" plot slice ocean.nc -o probe.png >"$TMP/out" 2>"$TMP/err"
grep -q "without PLplot" "$TMP/err" && skip "built without PLplot"
expect_exit 0 "$PSTENCIL" run ocean.nc -o run.nc --steps 20 -q
for size in 200x150 300x1200 1000x700 3000x1000; do
  w=${size%x*} h=${size#*x}
  expect_exit 0 "$PSTENCIL" plot slice run.nc --width "$w" --height "$h" -o "slice_$size.png"
  "$PY" "$top_srcdir/tests/plot/png.py" page "slice_$size.png" "$w" "$h" || fail "slice_$size.png"
  expect_exit 0 "$PSTENCIL" plot diff ocean.nc run.nc --width "$w" --height "$h" -o "diff_$size.png"
  "$PY" "$top_srcdir/tests/plot/png.py" page "diff_$size.png" "$w" "$h" || fail "diff_$size.png"
done
exit 0

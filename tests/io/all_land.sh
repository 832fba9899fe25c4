#!/bin/sh
# Issue 23 point 5: one check of the field every command computes on or
# draws. A record with no ocean cell (every value land or missing) or with an
# infinite ocean cell is refused by run, bench --input and plot slice, diff,
# animate and cube alike (exit 2, the same message naming the input file, the
# variable and the time index, nothing written): no blank page with exit 0,
# no benchmark of a file run refuses. summary describes such a file (exit 0)
# and compare compares it.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/io/input_lib.sh"

land=$(for i in $(seq 72); do printf '_, '; done | sed 's/, $//')
mk land data="$land"
PAT="land\.nc: no ocean cells: every value of 'thetao' at time index 0 is land or missing"
run_refuses land.nc
plots_refuse land.nc
expect_exit 0 "$PSTENCIL" summary land.nc
grep -q "No ocean cells" "$TMP/out" || { cat "$TMP/out"; fail "summary does not say there is no ocean"; }
expect_exit 0 "$PSTENCIL" compare land.nc land.nc
expect_exit 1 "$PSTENCIL" compare ok.nc land.nc

# one infinite ocean cell
mk inf data="Infinity, $(seq -s, 2 72 | sed 's/,/, /g')"
PAT="inf\.nc: 1 ocean cell of 'thetao' at time index 0 is infinite \(first at level 0, row 0, column 0: inf\)"
run_refuses inf.nc
plots_refuse inf.nc
expect_exit 0 "$PSTENCIL" summary inf.nc

# the first record has ocean, the second none: the pages show every record
half="$(seq -s, 1 36 | sed "s/,/, /g"), $(for i in $(seq 36); do printf "_, "; done | sed "s/, $//")"
mk half data="$half"
PAT="half\.nc: no ocean cells: every value of 'thetao' at time index 1 is land or missing"
refused "$PSTENCIL" plot animate half.nc -o o/a.html --plotly cdn
refused "$PSTENCIL" plot cube half.nc -o o/c.html --plotly cdn
refused "$PSTENCIL" run half.nc --time-index 1 -o o/run.nc -n 2 -q
if [ -n "$PLPLOT" ]; then
  refused "$PSTENCIL" plot slice half.nc --time 1 -o o/s.png
  expect_exit 0 "$PSTENCIL" plot slice half.nc --time 0 -o o/s.png
fi
exit 0

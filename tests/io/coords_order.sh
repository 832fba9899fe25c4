#!/bin/sh
# Issue 23 point 9: one coordinate check for every command. A depth, latitude
# or longitude that is not strictly monotonic (repeated, constant or
# back-tracking values) is refused by summary, run (every stencil), compare,
# plot slice/diff/animate/cube and bench --input alike: exit 2, one message
# naming the input file and the variable, nothing written. Descending
# latitudes and longitudes wrapping across 360 degrees are accepted.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/io/input_lib.sh"

mk duplat lat="50, 50, 52"
PAT="duplat\.nc: latitude coordinate 'lat' is not strictly monotonic: 50 at index 0, 50 at index 1 \(a repeated value\)"
all_refuse duplat.nc

mk constlat lat="50, 50, 50"
PAT="constlat\.nc: latitude coordinate 'lat' is not strictly monotonic: 50 at index 0, 50 at index 1"
all_refuse constlat.nc

mk backlat lat="50, 52, 51"
PAT="backlat\.nc: latitude coordinate 'lat' is not strictly monotonic: 52 at index 1, 51 at index 2"
all_refuse backlat.nc

mk backlon lon="0, 2, 1, 3"
PAT="backlon\.nc: longitude coordinate 'lon' is not strictly monotonic: 2 at index 1, 1 at index 2"
all_refuse backlon.nc

mk backdepth depth="1, 100, 10"
PAT="backdepth\.nc: depth coordinate 'depth' is not strictly monotonic"
all_refuse backdepth.nc

# accepted: latitudes stored north to south, longitudes across 0 E
mk south lat="52, 51, 50" lon="358, 359, 0, 1"
for s in diffusion7 hdiff smooth2; do
  expect_exit 0 "$PSTENCIL" run south.nc -s $s -o o/south.nc -n 2 -q
  rm -f o/south.nc
done
expect_exit 0 "$PSTENCIL" summary south.nc
expect_exit 0 "$PSTENCIL" plot animate south.nc -o o/south.html --plotly cdn
if [ -n "$PLPLOT" ]; then
  expect_exit 0 "$PSTENCIL" plot slice south.nc -o o/south.png
fi
exit 0

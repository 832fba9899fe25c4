#!/bin/sh
# Issue 23 point 6: every coordinate (time, depth, latitude, longitude) is
# checked before any work, for every stencil and every command: a non-finite
# value or a latitude outside [-90, 90] is refused (exit 2, the input file,
# the variable and the index named, nothing written), not found at write time
# after the whole run.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/io/input_lib.sh"

# the intact file runs with every stencil
for s in diffusion7 hdiff smooth2; do
  expect_exit 0 "$PSTENCIL" run ok.nc -s $s -o o/ok.nc -n 2 -q
  rm -f o/ok.nc
done

mk inflon lon="0, 1, 2, Infinity"
PAT="inflon\.nc: longitude coordinate 'lon' has a non-finite value \(inf\) at index 3"
all_refuse inflon.nc

mk nanlat lat="50, NaN, 52"
PAT="nanlat\.nc: latitude coordinate 'lat' has a non-finite value \(nan\) at index 1"
all_refuse nanlat.nc

mk infdepth depth="1, 10, -Infinity"
PAT="infdepth\.nc: depth coordinate 'depth' has a non-finite value \(-inf\) at index 2"
all_refuse infdepth.nc

mk nantime time="0, NaN"
PAT="nantime\.nc: time coordinate 'time' has a non-finite value \(nan\) at index 1"
all_refuse nantime.nc

mk pole lat="80, 90, 95"
PAT="pole\.nc: latitude coordinate 'lat' has 95 at index 2, outside \[-90, 90\]"
all_refuse pole.nc
exit 0

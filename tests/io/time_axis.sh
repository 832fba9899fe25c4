#!/bin/sh
# Issue 23 point 7: the output's time axis continues the input's and is
# never invented nor non-increasing. A time coordinate with no units, units
# that are not "<unit> since <date>", a reference that is no date, a NaN
# time, or a time too large to place (1e300 hours, 9.2e18 s) is refused by
# run and bench --input before any work (exit 2, the input file and the
# variable named, nothing written); a time at which one step is below what a
# double resolves is refused before the run; the pictures, which only label
# the records, still draw such files.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/io/input_lib.sh"
command -v ncdump >/dev/null 2>&1 || skip "ncdump is not installed"

refuses_time() { # FILE: run (every stencil) and bench refuse, the pages draw it
  run_refuses "$1"
  expect_exit 0 "$PSTENCIL" plot animate "$1" -o o/a.html --plotly cdn
  rm -f o/a.html
}

mk unknown tunits="blinks since 2000-01-01"
PAT="unknown\.nc: time coordinate 'time' at index 0: time units 'blinks since 2000-01-01': unknown unit 'blinks'"
refuses_time unknown.nc

mk nodate tunits="days since tuesday"
PAT="nodate\.nc: time coordinate 'time' at index 0: time reference 'tuesday' is not a date"
refuses_time nodate.nc

mk nounits tunits=none
PAT="nounits\.nc: time coordinate 'time' has no units"
refuses_time nounits.nc

mk huge tunits="hours since 2000-01-01" time="1e300, 2e300"
PAT="huge\.nc: time coordinate 'time' at index 0: time value 1e\+300 hours since 2000-01-01 is out of range"
refuses_time huge.nc

mk secs tunits="seconds since 1970-01-01" time="9.2e18, 9.3e18"
PAT="secs\.nc: time coordinate 'time' at index 0: time value 9.2e\+18 seconds since 1970-01-01 is out of range"
refuses_time secs.nc

# a NaN time is a bad coordinate: refused by every command
mk nan time="NaN, 1"
PAT="nan\.nc: time coordinate 'time' has a non-finite value \(nan\) at index 0"
run_refuses nan.nc
refused "$PSTENCIL" plot animate nan.nc -o o/a.html --plotly cdn

# 2.7e13 hours: one step of 1 s is below a double's resolution there
mk far tunits="hours since 2000-01-01" time="2.7e13, 2.8e13"
PAT="far\.nc: time coordinate 'time' at index 0 is 27000000000000 hours since 2000-01-01; the output's time axis would not increase"
for s in diffusion7 smooth2; do
  refused "$PSTENCIL" run far.nc -s $s -o o/run.nc -n 3 --output-every 1 -q
done
# ... a step of an hour is resolved: the axis increases record by record
expect_exit 0 "$PSTENCIL" run far.nc -o o/far.nc -n 3 --dt 3600 --output-every 1 -q
ncdump -v time o/far.nc | sed -n '/^ time = /,/;/p' | tr -d ' time=;\n' | tr ',' '\n' |
  awk 'NR > 1 && !($1 > prev) { bad = 1 } { prev = $1; n++ } END { exit bad || n != 4 }' ||
  fail "far.nc's output time axis: $(ncdump -v time o/far.nc | tail -3)"
rm -f o/far.nc
exit 0

#!/bin/sh
# The job example (docs/examples/job.c) runs hdiff on a field in its own memory
# with its coordinates, no input file: a record every 50 of 200 steps, the warm
# patch spreading (its warmest value falling record after record), each
# record's volume mean from the job's reductions, and with an output path the
# same 5 records, on the example's coordinates and with those means, in a CF
# file that pstencil reads back.
. "$top_srcdir/tests/lib.sh"
EX=$top_builddir/tests/job/example_job
[ -x "$EX" ] || fail "tests/job/example_job is not built"
cd "$TMP" || fail "no temporary directory"
PSTENCIL_BACKEND=reference "$EX" out.nc > out.txt 2>&1 || { cat out.txt; fail "the example failed"; }
cat out.txt
[ "$(grep -c '^record at step' out.txt)" -eq 5 ] || fail "not 5 records"
awk '/^record at step/ { v = $(NF - 1) + 0; if (n++ && !(v < last)) bad = 1; last = v }
     END { exit bad || n != 5 }' out.txt || fail "the warmest value did not fall record after record"
grep -q '^backend reference' out.txt || fail "the example did not report its backend"
expect_exit 0 "$PSTENCIL" summary out.nc
grep -q "5 time" "$TMP/out" || grep -q "time *: *5" "$TMP/out" || grep -q "x 5\b" "$TMP/out" ||
  [ "$(ncdump -h out.nc 2>/dev/null | sed -n 's/.*UNLIMITED ; \/\/ (\([0-9]*\) currently).*/\1/p')" = 5 ] ||
  { cat "$TMP/out"; fail "out.nc does not hold the 5 records"; }
if command -v ncdump >/dev/null 2>&1; then
  # the caller's coordinates are the output's axes
  ncdump -v latitude out.nc | grep -q 'latitude:units = "degrees_north"' ||
    fail "out.nc has no latitude axis in degrees_north"
  ncdump -v latitude out.nc | grep -q '^ latitude = 30, 30.5, 31,' ||
    fail "out.nc's latitudes are not the example's (30, 30.5, ...)"
  # the volume means the callback printed are the file's series
  want=$(ncdump -v thetao_mean -p 17,17 out.nc | tr -d '\n' |
         sed 's/.*thetao_mean = \([^;]*\);.*/\1/' | tr ',' '\n' | awk '{ printf "%.9f\n", $1 }')
  got=$(sed -n 's/^record at step .*: volume mean \([-0-9.]*\) degC.*/\1/p' out.txt)
  [ -n "$got" ] && [ "$got" = "$want" ] ||
    fail "the callback's volume means ($got) are not out.nc's thetao_mean ($want)"
fi
echo "the job example ran from memory and wrote 5 records with its coordinates"

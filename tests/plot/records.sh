#!/bin/sh
# The pictures show a run's result (issue 28 point 4): plot slice draws the
# last record by default; --time takes negative indices (from the end) and
# `last`, and refuses others naming the range; plot diff of an input and a
# run's output compares the record the run started from with the final
# state; --depth is a depth in metres whatever the file's sign (a height
# axis, positive = "up", picks the level 10 m down, labelled as a depth).
. "$top_srcdir/tests/lib.sh"
command -v ncgen >/dev/null 2>&1 || skip "ncgen is not installed"
cd "$TMP" || fail "cd"
ncgen -o lev.nc "$top_srcdir/tests/data/levitus.cdl" || fail "ncgen levitus"
ncgen -o cdo.nc "$top_srcdir/tests/data/cf_cdo.cdl" || fail "ncgen cf_cdo"
"$PSTENCIL" plot slice lev.nc -o probe.png >"$TMP/out" 2>"$TMP/err"
grep -q "without PLplot" "$TMP/err" && skip "built without PLplot"

expect_exit 0 "$PSTENCIL" run lev.nc -o t.nc --steps 20 --output-every 10 -q
n=$(ncdump -h t.nc | sed -n 's/.*time = UNLIMITED ; \/\/ (\([0-9]*\) currently).*/\1/p')
[ "$n" -ge 3 ] || fail "expected 3 records in t.nc, found '$n'"
last=$((n - 1))

expect_exit 0 "$PSTENCIL" plot slice t.nc -o s.png
grep -q "time index $last;" "$TMP/out" || { cat "$TMP/out"; fail "slice default is not the last record"; }
for t in last -1; do
  expect_exit 0 "$PSTENCIL" plot slice t.nc --time "$t" -o s.png -f
  grep -q "time index $last;" "$TMP/out" || { cat "$TMP/out"; fail "--time $t is not the last record"; }
done
expect_exit 0 "$PSTENCIL" plot slice t.nc --time -$n -o s.png -f
grep -q "time index 0;" "$TMP/out" || { cat "$TMP/out"; fail "--time -$n is not the first record"; }
rm -f bad.png
expect_exit 2 "$PSTENCIL" plot slice t.nc --time -$((n + 1)) -o bad.png
expect_err "pstencil: error: --time -$((n + 1)) is out of range: t.nc has $n time records \(0\.\.$last, or -$n\.\.-1 counted from the end, or last\)"
[ -e bad.png ] && fail "an image was written for a bad --time"
expect_exit 2 "$PSTENCIL" plot slice t.nc --time first -o bad.png
[ -e bad.png ] && fail "an image was written for --time first"

# input against its run's output: the final state, where the run changed it
expect_exit 0 "$PSTENCIL" plot diff lev.nc t.nc -o d.png
grep -q "time index $last of B, 0 of A" "$TMP/out" || { cat "$TMP/out"; fail "diff does not compare with the final state"; }
grep -q "max |B - A| = 0 " "$TMP/out" && { cat "$TMP/out"; fail "diff of an input and its run's output is 0"; }
# a file with itself: the same record, zero
expect_exit 0 "$PSTENCIL" plot diff t.nc t.nc -o z.png
grep -q "max |B - A| = 0 " "$TMP/out" || { cat "$TMP/out"; fail "a file minus itself is not 0"; }

# heights: --depth 10 is 10 m down (level 3, -10 m), not the surface
expect_exit 0 "$PSTENCIL" plot slice cdo.nc --depth 10 -o h.png
grep -q "at 10 m (level 3)" "$TMP/out" || { cat "$TMP/out"; fail "--depth 10 on heights is not level 3"; }
expect_exit 0 "$PSTENCIL" plot slice cdo.nc --depth 0 -o h0.png
grep -q "at 0.5 m (level 0)" "$TMP/out" || { cat "$TMP/out"; fail "the surface of heights is not labelled as a depth"; }
# a depth axis in METERS (any case) is a length
expect_exit 0 "$PSTENCIL" plot slice lev.nc --depth 12 -o l.png
grep -q "at 10 m (level 1)" "$TMP/out" || { cat "$TMP/out"; fail "--depth 12 on METERS is not level 1"; }
exit 0

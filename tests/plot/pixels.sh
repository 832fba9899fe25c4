#!/bin/sh
# Images drawn from synthetic data are PNGs of the requested size whose
# pixels show land grey and a colour bar; a zero difference has no colour;
# a mask mismatch is magenta.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/plot/lib.sh"
"$top_builddir/tests/plot/test_plot" --out "$TMP/pics" >"$TMP/log" 2>&1 || { cat "$TMP/log"; fail "test_plot --out"; }
[ -f "$TMP/pics/slice.png" ] || skip "built without PLplot: no images"
png_check "$TMP/pics/slice.png" 900 640 map || exit 1
png_check "$TMP/pics/diff_self.png" 800 600 zero || exit 1
png_check "$TMP/pics/diff.png" 800 600 mark || exit 1
for f in before after diff; do
  png_check "$TMP/pics/run/ocean_$f.png" 1000 700 map || exit 1
done
exit 0

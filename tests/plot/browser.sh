#!/bin/sh
# The interactive pages load in headless Chromium with no JavaScript error,
# finish drawing, and a screenshot of each is not blank.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/plot/lib.sh"
[ -n "$CHROMIUM" ] || skip "chromium is not installed"
"$top_builddir/tests/plot/test_plot" --out "$TMP/pics" >"$TMP/log" 2>&1 || { cat "$TMP/log"; fail "test_plot --out"; }
browser_check "$TMP/pics/animate.html" "$TMP/animate.png"
[ $? -eq 77 ] && skip "no plotly.js to embed: the pages need the network"
browser_check "$TMP/pics/cube.html" "$TMP/cube.png"
# A page that fails must be caught: break the data and expect the check to fail.
sed 's/Plotly.newPlot(/Plotly.newPlotX(/' "$TMP/pics/animate.html" >"$TMP/broken.html"
if (browser_check "$TMP/broken.html" "$TMP/broken.png") >"$TMP/broken.log" 2>&1; then
  fail "a page with a JavaScript error passed the browser check"
fi
grep -q "JavaScript error" "$TMP/broken.log" || { cat "$TMP/broken.log"; fail "the broken page's error was not reported"; }
exit 0

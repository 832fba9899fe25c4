#!/bin/sh
# Interactive pages under 5 MB: by default plot animate and plot cube embed a
# minified plotly.js (made at build time from an unminified one) or, when only
# a large one exists, write it once beside the pages; --plotly directory
# writes it beside the pages (plotly's include_plotlyjs='directory'), keeps an
# identical copy, refuses a different file without --force. In Chromium
# (when installed) both kinds of page draw with no JavaScript error.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/plot/lib.sh"
command -v ncgen >/dev/null 2>&1 || skip "ncgen is not installed"
cd "$TMP" || fail "cd"
ncgen -o small.nc "$top_srcdir/tests/data/plot_small.cdl" || fail "ncgen plot_small"
size() { wc -c <"$1" | tr -d ' '; }

expect_exit 0 "$PSTENCIL" plot animate small.nc -o page.html
grep -q '<script src="https://cdn' page.html && skip "configure found no plotly.js: the pages use the CDN"
[ "$(size page.html)" -lt 5000000 ] || fail "page.html is $(size page.html) bytes (over 5 MB)"
if grep -q '<script src="plotly' page.html; then
  js=$(sed -n 's/.*<script src="\(plotly[^"]*\)".*/\1/p' page.html | head -1)
  [ -s "$js" ] || fail "page.html references $js, which was not written beside it"
else
  grep -q "plotly.js v[0-9]" page.html || fail "page.html embeds no plotly.js"
fi
expect_exit 0 "$PSTENCIL" plot cube small.nc -o cube.html
[ "$(size cube.html)" -lt 5000000 ] || fail "cube.html is $(size cube.html) bytes (over 5 MB)"

# --plotly directory: one copy beside the pages, each page small.
mkdir d || fail "mkdir"
expect_exit 0 "$PSTENCIL" plot animate small.nc --plotly directory -o d/a.html
js=$(sed -n 's/.*<script src="\(plotly[^"]*\)".*/\1/p' d/a.html | head -1)
[ -n "$js" ] && [ -s "d/$js" ] || fail "--plotly directory wrote no plotly.js beside d/a.html"
[ "$(size d/a.html)" -lt 200000 ] || fail "d/a.html is $(size d/a.html) bytes with plotly.js beside it"
before=$(ls -i "d/$js")
expect_exit 0 "$PSTENCIL" plot cube small.nc --plotly directory -o d/b.html
[ "$(ls -i "d/$js")" = "$before" ] || fail "an identical d/$js was rewritten"
grep -q "<script src=\"$js\"" d/b.html || fail "d/b.html does not reference $js"
echo "not plotly" >"d/$js"
expect_exit 2 "$PSTENCIL" plot animate small.nc --plotly directory -o d/c.html
expect_err "exists and is not"
[ -e d/c.html ] && fail "a page was written although its plotly.js could not be"
expect_exit 0 "$PSTENCIL" plot animate small.nc --plotly directory -o d/c.html --force
[ "$(size "d/$js")" -gt 1000000 ] || fail "--force did not replace d/$js"
expect_exit 0 "$PSTENCIL" plot animate small.nc --plotly embed -o e.html
grep -q "plotly.js v[0-9]" e.html || fail "--plotly embed embeds no plotly.js"

if [ -n "$CHROMIUM" ]; then
  browser_check "$TMP/page.html" "$TMP/page.png" || fail "default page"
  browser_check "$TMP/d/c.html" "$TMP/c.png" || fail "page with plotly.js beside it"
fi
echo "page.html: $(size page.html) bytes, cube.html: $(size cube.html) bytes, d/a.html: $(size d/a.html) bytes + $js"
exit 0

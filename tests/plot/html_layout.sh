#!/bin/sh
# The interactive pages at any window size (issue 28 point 5): plot animate
# and plot cube load in headless Chromium at 200x150, 300x1200, 500x700,
# 1000x700, 2000x500 and 3000x1000 with no JavaScript error (tests/plot/lib.sh,
# browser_check), and in the drawn page (its DOM): Play/Pause and the slider
# sit below the longitude axis title (placed in pixels, not in fractions of
# the plot), the slider starts right of the buttons, and longitudes are
# labelled as the PNG pictures label them (-180..180 with E/W: a file on
# 0..360 does not read "380"), latitudes with N/S (animate: in its SVG;
# cube: its WebGL scene's ticks come from the same geoTicks, checked in the
# page's script).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/plot/lib.sh"
[ -n "$CHROMIUM" ] || skip "chromium is not installed"
[ -n "$PY" ] || skip "python3 is not installed"
cd "$TMP" || fail "cd"
expect_exit 0 "$PSTENCIL" gen -o ocean.nc --scale 0.2
expect_exit 0 "$PSTENCIL" run ocean.nc -o run.nc --steps 5 -q
expect_exit 0 "$PSTENCIL" plot animate run.nc -o a.html
grep -q '<script src="https://cdn' a.html && skip "configure found no plotly.js: the pages need the network"
expect_exit 0 "$PSTENCIL" plot cube run.nc -o c.html
grep -q "xaxis:Object.assign({title:{text:'Longitude'}},geoTicks(lon,false" c.html ||
  fail "the cube's longitude axis is not labelled by geoTicks"
flags="--headless --no-sandbox --disable-gpu --enable-unsafe-swiftshader --no-first-run --hide-scrollbars --user-data-dir=$TMP/chromium-profile"
# the quick suite: the smallest window and the two extreme aspects; make
# check-full every size
sizes="200,150 300,1200 2000,500"
ps_full && sizes="200,150 300,1200 500,700 1000,700 2000,500 3000,1000"
for size in $sizes; do
  for page in a c; do
    timeout 120 "$CHROMIUM" $flags --virtual-time-budget=8000 --window-size=$size --dump-dom \
      "file://$TMP/$page.html" >"dom_$page.html" 2>>chromium.log || fail "chromium on $page.html at $size"
    grep -q 'data-ps-ready="1"' "dom_$page.html" || fail "$page.html at $size did not finish drawing"
    "$PY" - "dom_$page.html" "$page" "$size" <<'PYEOF' || fail "$page.html at $size"
import re, sys
dom, page, size = open(sys.argv[1], encoding="utf-8").read(), sys.argv[2], sys.argv[3]
def die(msg):
    print("FAIL: %s at %s: %s" % (page, size, msg)); sys.exit(1)
sl = re.search(r'class="slider-group" transform="translate\(([-0-9.]+),([-0-9.]+)\)', dom)
bt = [(float(x), float(y)) for x, y in re.findall(r'class="updatemenu-button" transform="translate\(([-0-9.]+),([-0-9.]+)\)', dom)]
bw = [float(w) for w in re.findall(r'class="updatemenu-item-rect"[^>]* width="([0-9.]+)"', dom)]
if not sl or len(bt) != 2 or len(bw) < 2:
    die("no slider or no Play/Pause buttons")
sx, sy = float(sl.group(1)), float(sl.group(2))
if bt[1][0] + bw[1] > sx + 1:
    die("the Pause button (right edge %.0f) runs into the slider (x %.0f)" % (bt[1][0] + bw[1], sx))
if page == "a":
    xt = re.search(r'<text class="xtitle"[^>]* y="([-0-9.]+)"', dom)
    if not xt:
        die("no longitude axis title")
    if min(sy, bt[0][1]) < float(xt.group(1)) + 4:
        die("the controls (y %.0f) are not below the axis title (y %s)" % (min(sy, bt[0][1]), xt.group(1)))
    ticks = re.findall(r'class="xtick"><text[^>]*data-unformatted="([^"]*)"', dom)
    xs = [float(x) for x in re.findall(r'class="xtick"><text[^>]*transform="translate\(([-0-9.]+),', dom)]
    gaps = [b - a for a, b in zip(xs, xs[1:])]
    need = 7.0 * max(len(t) for t in ticks) if ticks else 0
    if gaps and min(gaps) < need:
        die("longitude labels %.0f px apart, %.0f needed: they overlap (%s)" % (min(gaps), need, ticks))
    lat = re.findall(r'class="ytick"><text[^>]*data-unformatted="([^"]*)"', dom)
else:
    # the 3-D scene draws its axis labels in WebGL: the page's script must
    # give them as geoTicks makes them
    print("%s at %s: slider x %.0f, buttons end at %.0f" % (page, size, sx, bt[1][0] + bw[1]))
    sys.exit(0)
geo_lon = re.compile(r'^(0|180|[0-9.]+)\u00b0[EW]?$')
if not ticks or any(not geo_lon.match(t) or float(t.rstrip("\u00b0EW")) > 180 for t in ticks):
    die("longitude labels are not -180..180 with E/W: %s" % ticks)
if not lat or any(not re.match(r'^[0-9.]+\u00b0[NS]?$', t) for t in lat):
    die("latitude labels lack N/S: %s" % lat)
print("%s at %s: controls at y %.0f, slider x %.0f; longitudes %s" % (page, size, sy, sx, " ".join(ticks)))
PYEOF
  done
done
exit 0

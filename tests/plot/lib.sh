# Helpers for the picture tests (sourced after tests/lib.sh).
# PY: a Python 3 (standard library only is needed).
PY=${PS_TEST_PYTHON:-/usr/bin/python3}
[ -x "$PY" ] || PY=$(command -v python3 || true)
[ -n "$PY" ] || skip "no python3 to decode PNG files"

# png_check FILE.png W H MODE: decode the PNG (zlib + filters, in pure
# Python) and check it. MODE:
#   map   - exact land grey present; a colour bar (a column right of 70% of
#           the width with >= 40 distinct colours from top to bottom)
#   zero  - as map, and no colour left of the colour bar (a difference of
#           zero: only the centre colour, land grey, black/grey text)
#   mark  - as map, and magenta (mask mismatch) present
#   shot  - a browser screenshot: >= 64 distinct colours
png_check() {
  "$PY" - "$@" <<'PYEOF'
import sys, zlib, struct
path, W, H, mode = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
data = open(path, 'rb').read()
def fail(msg):
    print("FAIL: %s: %s" % (path, msg)); sys.exit(1)
if data[:8] != b'\x89PNG\r\n\x1a\n': fail("not a PNG")
pos, idat, ihdr = 8, b'', None
while pos < len(data):
    n, typ = struct.unpack('>I4s', data[pos:pos+8]); body = data[pos+8:pos+8+n]
    if typ == b'IHDR': ihdr = struct.unpack('>IIBBBBB', body)
    elif typ == b'IDAT': idat += body
    pos += 12 + n
w, h, depth, ctype = ihdr[0], ihdr[1], ihdr[2], ihdr[3]
if (W or H) and (w, h) != (W, H): fail("size %dx%d, expected %dx%d" % (w, h, W, H))
if depth != 8 or ctype not in (2, 6): fail("unexpected PNG type depth=%d colour=%d" % (depth, ctype))
bpp = 3 if ctype == 2 else 4
raw = zlib.decompress(idat); stride = w * bpp
rows, prev, p = [], bytearray(stride), 0
for y in range(h):
    f = raw[p]; line = bytearray(raw[p+1:p+1+stride]); p += 1 + stride
    for x in range(stride):
        a = line[x-bpp] if x >= bpp else 0; b = prev[x]; c = prev[x-bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2*c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line); prev = line
px = lambda x, y: tuple(rows[y][x*bpp:x*bpp+3])
if mode == 'shot':
    cols = set()
    for y in range(0, h, 2):
        for x in range(0, w, 2): cols.add(px(x, y))
    if len(cols) < 64: fail("only %d distinct colours: blank page?" % len(cols))
    print("%s: %dx%d, %d distinct colours" % (path, w, h, len(cols))); sys.exit(0)
grey = sum(1 for y in range(h) for x in range(w) if px(x, y) == (150, 150, 150))
if grey < 200: fail("land grey (150,150,150) not drawn (%d pixels)" % grey)
bar_x, best = None, 0
for x in range(int(w * 0.7), w):
    n = len(set(px(x, y) for y in range(h)))
    if n > best: best, bar_x = n, x
if best < 40: fail("no colour bar: at most %d distinct colours in a column right of 70%%" % best)
chroma = lambda c: max(c) - min(c)
if mode == 'zero':
    # left of the colour bar (and its tick labels) only achromatic pixels
    left = bar_x - int(w * 0.04)
    bad = [(x, y) for y in range(h) for x in range(left) if chroma(px(x, y)) > 12]
    if bad: fail("%d coloured pixels in a zero difference, e.g. %s = %s" % (len(bad), bad[0], px(*bad[0])))
if mode == 'mark':
    m = sum(1 for y in range(h) for x in range(w) if px(x, y) == (255, 0, 255))
    if m < 4: fail("no magenta mask-mismatch cells")
if mode == 'map':
    left = bar_x - int(w * 0.04)
    n = len(set(px(x, y) for y in range(0, h, 3) for x in range(0, left, 3) if chroma(px(x, y)) > 30))
    if n < 30: fail("the map shows only %d colours" % n)
print("%s: %dx%d ok (%s): %d land pixels, colour bar at x=%d with %d colours" % (path, w, h, mode, grey, bar_x, best))
PYEOF
}

# browser_check PAGE.html SHOT.png: load the page in headless Chromium; the
# page must finish drawing (data-ps-ready) with no JavaScript error, and a
# screenshot of it must not be blank.
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)}
browser_check() {
  page=$1 shot=$2
  if grep -q '<script src="https://cdn' "$page"; then
    echo "$page: uses the plotly CDN (configure found no plotly.js): not loaded offline" >&2
    return 77
  fi
  flags="--headless --no-sandbox --disable-gpu --enable-unsafe-swiftshader --no-first-run --hide-scrollbars --user-data-dir=$TMP/chromium-profile"
  timeout 120 "$CHROMIUM" $flags --virtual-time-budget=8000 --dump-dom "file://$page" \
    >"$TMP/dom.html" 2>"$TMP/chromium.log" || { tail -20 "$TMP/chromium.log" >&2; fail "chromium failed on $page"; }
  title=$(grep -o '<title>[^<]*</title>' "$TMP/dom.html" | head -1)
  case $title in *"JavaScript error"*) fail "$page: $title" ;; esac
  grep -q 'id="ps-error"[^>]*style="display: block' "$TMP/dom.html" && fail "$page: error banner shown"
  grep -q 'data-ps-ready="1"' "$TMP/dom.html" || { echo "$title" >&2; fail "$page: plotly did not finish drawing"; }
  grep -q 'class="main-svg"' "$TMP/dom.html" || fail "$page: no plotly figure in the DOM"
  grep -E 'Uncaught|CONSOLE.*(Error|error)' "$TMP/chromium.log" >&2 && fail "$page: JavaScript errors in the console"
  timeout 120 "$CHROMIUM" $flags --virtual-time-budget=8000 --window-size=1000,800 \
    --screenshot="$shot" "file://$page" >/dev/null 2>>"$TMP/chromium.log" || fail "chromium screenshot of $page failed"
  png_check "$shot" 1000 800 shot || exit 1
  echo "$page: loaded with no JavaScript error ($title)"
}

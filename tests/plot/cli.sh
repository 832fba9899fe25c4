#!/bin/sh
# pstencil plot end to end on small CF files made with ncgen: default
# outputs, the course's option names, levels by depth, errors, the
# difference of a file with itself, and the pages in a browser.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/plot/lib.sh"
command -v ncgen >/dev/null 2>&1 || skip "ncgen is not installed"
ncgen -o "$TMP/small.nc" "$top_srcdir/tests/data/plot_small.cdl" || fail "ncgen plot_small.cdl"
ncgen -o "$TMP/other.nc" "$top_srcdir/tests/data/plot_other.cdl" || fail "ncgen plot_other.cdl"
cd "$TMP" || exit 99

# Usage errors need no reader.
expect_exit 2 "$PSTENCIL" plot
expect_exit 0 "$PSTENCIL" plot slice --help
grep -q -- "--target_depth" "$TMP/out" || fail "slice --help does not list --target_depth"
expect_exit 2 "$PSTENCIL" plot bogus small.nc
expect_err "unknown subcommand"
expect_exit 2 "$PSTENCIL" plot animate small.nc --plotly web
expect_err "not 'embed', 'directory' or 'cdn'"
expect_exit 2 "$PSTENCIL" plot slice small.nc --cmap jet
expect_err "unknown colour map 'jet'"
expect_exit 2 "$PSTENCIL" plot slice small.nc --depth 1 --level 2
expect_err "not both"

"$PSTENCIL" plot animate small.nc -o probe.html >"$TMP/out" 2>"$TMP/err"
if grep -q "not implemented" "$TMP/err"; then
  skip "the NetCDF reader is not built yet (io/ps_nc_read.c)"
fi

# The interactive slice with the course's names: default output, frame time.
expect_exit 0 "$PSTENCIL" plot animate --target_depth 0 --animation_speed 120 --data-file small.nc
[ -s output/small_2d_interactive.html ] || fail "no output/small_2d_interactive.html"
grep -q "frameMs=120" output/small_2d_interactive.html || fail "--animation_speed not applied"
grep -q '"1950-01-01' output/small_2d_interactive.html && fail "time labels not converted"
grep -q '"2019-12-15"' output/small_2d_interactive.html || fail "no date label for time 613200 hours since 1950-01-01"
grep -q "3 frames" "$TMP/out" || { cat "$TMP/out"; fail "animate did not write 3 frames"; }
expect_exit 0 "$PSTENCIL" plot animate small.nc --depth 3 --plotly cdn -o cdn.html
grep -q "level 2" cdn.html || fail "--depth 3 did not pick level 2 (2.65 m)"
grep -q '<script src="https://cdn.plot.ly/plotly-' cdn.html || fail "--plotly cdn did not reference the CDN"
expect_exit 0 "$PSTENCIL" plot animate small.nc --max-cells 100 -o small_dec.html
expect_err "decimated: every"

# The cube with the course's names.
expect_exit 0 "$PSTENCIL" plot cube --num_depths 3 --num_time_steps 2 --data-file small.nc
[ -s output/small_3d_interactive.html ] || fail "no output/small_3d_interactive.html"
grep -q "2 frames of thetao, 3 levels" "$TMP/out" || { cat "$TMP/out"; fail "cube output"; }
expect_exit 0 "$PSTENCIL" plot cube small.nc --depths 9 -o cube9.html
expect_err "has 4 levels"

# Errors: nothing written.
expect_exit 2 "$PSTENCIL" plot animate missing.nc -o missing.html
[ -e missing.html ] && fail "an output was written for a missing input"
expect_exit 2 "$PSTENCIL" plot animate small.nc --level 4 -o bad.html
expect_err "out of range"
[ -e bad.html ] && fail "an output was written for a bad level"

if [ -n "$CHROMIUM" ]; then
  browser_check "$TMP/output/small_2d_interactive.html" "$TMP/animate.png" || echo "browser check skipped" >&2
  : # the cube page is checked in plot_browser.sh (synthetic data)
fi

"$PSTENCIL" plot slice small.nc -o probe.png >"$TMP/out" 2>"$TMP/err"
if grep -q "without PLplot" "$TMP/err"; then
  echo "built without PLplot: image commands say so" >&2
  exit 0
fi
# The static slice: default name, title, requested size, other formats.
expect_exit 0 "$PSTENCIL" plot slice --data-file small.nc
[ -s output/small_static.png ] || fail "no output/small_static.png"
grep -q "thetao at 0.494 m (level 0), time index 2" "$TMP/out" || { cat "$TMP/out"; fail "slice title (the last record)"; }
png_check output/small_static.png 1000 700 map || exit 1
expect_exit 0 "$PSTENCIL" plot slice small.nc --target_depth 3 --time 2 --width 640 --height 480 --cmap thermal -o deep.png
grep -q "at 2.646 m (level 2), time index 2" "$TMP/out" || { cat "$TMP/out"; fail "nearest level"; }
png_check deep.png 640 480 map || exit 1
expect_exit 0 "$PSTENCIL" plot slice small.nc -o slice.svg
head -c 200 slice.svg | grep -q "<svg\|<?xml" || fail "slice.svg is not SVG"
expect_exit 0 "$PSTENCIL" plot slice small.nc --vmin 10 --vmax 20 -o fixed.pdf
head -c 5 fixed.pdf | grep -q "%PDF" || fail "fixed.pdf is not PDF"
expect_exit 2 "$PSTENCIL" plot slice small.nc --time 3 -o late.png
expect_err "out of range"
[ -e late.png ] && fail "an image was written for a bad time index"
expect_exit 2 "$PSTENCIL" plot slice small.nc -o slice.gif
expect_err "unknown image type"

# A file minus itself is zero everywhere.
expect_exit 0 "$PSTENCIL" plot diff small.nc small.nc -o self.png
grep -q "max |B - A| = 0 degrees_C; 0 of [0-9]* ocean cells differ; 0 land/sea mismatches" "$TMP/out" ||
  { cat "$TMP/out"; fail "diff of a file with itself is not zero"; }
png_check self.png 1000 700 zero || exit 1
expect_exit 0 "$PSTENCIL" plot diff small.nc small.nc --time 1 --level 3
[ -s output/small_minus_small_diff.png ] || fail "no default diff output"
# B with one cell warmer by 0.5 and one land cell made ocean (time 0, surface).
"$PY" - "$top_srcdir/tests/data/plot_small.cdl" changed.cdl <<'PYEOF' || fail "making changed.cdl"
import re, sys
s = open(sys.argv[1]).read()
head, data = s.split(" thetao =", 1)
tok = re.compile(r"(?<=[ ,\n])(_|-?[0-9][0-9.]*)(?=[,; ])")
m_land = next(m for m in tok.finditer(data) if m.group(1) == "_")
m_sea = next(m for m in tok.finditer(data) if m.group(1) != "_")
edits = sorted([(m_land.start(), m_land.end(), "10.5"),
                (m_sea.start(), m_sea.end(), "%.3f" % (float(m_sea.group(1)) + 0.5))], reverse=True)
for a, b, t in edits:
    data = data[:a] + t + data[b:]
open(sys.argv[2], "w").write(head + " thetao =" + data)
PYEOF
ncgen -o changed.nc changed.cdl || fail "ncgen changed.cdl"
expect_exit 0 "$PSTENCIL" plot diff small.nc changed.nc --time 0 --width 800 --height 600 -o changed.png
grep -q "max |B - A| = 0.5[0-9]* degrees_C at .*; 1 of [0-9]* ocean cells differ; 1 land/sea mismatches" "$TMP/out" ||
  { cat "$TMP/out"; fail "diff did not find the changed cell and the mask mismatch"; }
png_check changed.png 800 600 mark || exit 1
expect_exit 0 "$PSTENCIL" plot diff small.nc changed.nc --time 1 -o t1.png
grep -q "max |B - A| = 0 degrees_C" "$TMP/out" || { cat "$TMP/out"; fail "time 1 was not compared"; }
expect_exit 2 "$PSTENCIL" plot diff small.nc other.nc -o shapes.png
expect_err "grids differ"
[ -e shapes.png ] && fail "an image was written for mismatched shapes"
# No ocean to draw: a record that is all land/missing, or a chosen level with
# no ocean cell, is refused (exit 2, a reason, no image) rather than drawn blank.
if command -v ncap2 >/dev/null 2>&1; then
  ncap2 -O -s 'thetao(:,:,:,:)=1.e20f' small.nc allnan.nc || fail "ncap2 allnan"
  ncap2 -O -s 'thetao(:,3,:,:)=1.e20f' small.nc deepland.nc || fail "ncap2 deepland"
  expect_exit 2 "$PSTENCIL" plot slice allnan.nc -o allnan.png
  expect_err "no ocean cells"
  [ -e allnan.png ] && fail "an image was written for an all-land record"
  expect_exit 2 "$PSTENCIL" plot animate allnan.nc -o allnan.html
  expect_err "no ocean cells"
  [ -e allnan.html ] && fail "a page was written for an all-land file"
  expect_exit 2 "$PSTENCIL" plot slice deepland.nc --level 3 -o nolevel.png
  expect_err "level 3 of 'thetao' has no ocean cells"
  expect_err "go down to 2"
  [ -e nolevel.png ] && fail "an image was written for a level with no ocean"
  expect_exit 0 "$PSTENCIL" plot slice deepland.nc --level 2 -o deep2.png
fi
exit 0

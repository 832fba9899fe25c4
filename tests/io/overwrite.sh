#!/bin/sh
# One overwrite policy (docs/user-guide.md): every command that writes refuses
# an existing output without --force and leaves it untouched; the one
# exception is run's default output, which is replaced, so README's main
# command (`pstencil run`) runs twice in a row.
. "$top_srcdir/tests/lib.sh"
command -v ncgen >/dev/null 2>&1 || skip "ncgen is not installed"
cd "$TMP" || fail "cd"

# README's main command, twice: the default output is replaced
expect_exit 0 "$PSTENCIL" run
f=$(ls output/predicted_temperatures_*.nc) || fail "no default output"
: > stamp
sleep 1
expect_exit 0 "$PSTENCIL" run
[ "$f" -nt stamp ] || fail "the second run did not replace $f"
[ "$(ls output | wc -l)" -eq 1 ] || fail "the second run left other files: $(ls output)"

# run -o: refused without --force, the file untouched
echo keep > mine.nc
expect_exit 2 "$PSTENCIL" run -o mine.nc --steps 1 -q
expect_err "mine.nc exists; use --force"
[ "$(cat mine.nc)" = keep ] || fail "run -o clobbered an existing file without --force"
expect_exit 0 "$PSTENCIL" run -o mine.nc --steps 1 -q --force
[ "$(cat mine.nc)" != keep ] || fail "run -o --force did not write"

# gen: the same
echo keep > g.nc
expect_exit 2 "$PSTENCIL" gen -o g.nc --scale 0.1
expect_err "g.nc exists; use --force"
[ "$(cat g.nc)" = keep ] || fail "gen clobbered an existing file without --force"
expect_exit 0 "$PSTENCIL" gen -o g.nc --scale 0.1 --force
[ "$(cat g.nc)" != keep ] || fail "gen --force did not write"

# plot slice: the same, for -o and the default output (when images are built)
ncgen -o small.nc "$top_srcdir/tests/data/plot_small.cdl" || fail "ncgen plot_small.cdl"
"$PSTENCIL" plot slice small.nc -o probe.png >out 2>err
if [ -f probe.png ]; then
  echo keep > existing.png
  expect_exit 2 "$PSTENCIL" plot slice small.nc -o existing.png
  expect_err "existing.png exists; use --force"
  [ "$(cat existing.png)" = keep ] || fail "plot slice clobbered an existing file without --force"
  expect_exit 0 "$PSTENCIL" plot slice small.nc -o existing.png --force
  head -c 4 existing.png | grep -q PNG || fail "plot slice --force did not write a PNG"
  expect_exit 0 "$PSTENCIL" plot slice small.nc
  expect_exit 2 "$PSTENCIL" plot slice small.nc
  expect_err "output/small_static.png exists; use --force"
  expect_exit 0 "$PSTENCIL" plot slice small.nc -f
else
  echo "plot slice cannot write images here: $(cat err)" >&2
fi
# plot animate (HTML): the same
echo keep > page.html
expect_exit 2 "$PSTENCIL" plot animate small.nc -o page.html
expect_err "page.html exists; use --force"
[ "$(cat page.html)" = keep ] || fail "plot animate clobbered an existing file without --force"
expect_exit 0 "$PSTENCIL" plot animate small.nc -o page.html --force
[ "$(cat page.html)" != keep ] || fail "plot animate --force did not write"
exit 0

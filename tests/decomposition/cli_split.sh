#!/bin/sh
# pstencil run --split: the grid decomposed into boxes (one context each, halo
# exchange every halo/radius steps) gives the one-box result bitwise, for
# every stencil, on every backend that runs here, uneven splits and a box
# count factorised by the program included; bad --split/--halo/--devices are
# refused before any output exists.
. "$top_srcdir/tests/lib.sh"
cd "$TMP" || fail "no temporary directory"
sum() { sed -n 's/^  checksum    : \(0x[0-9a-f]*\).*/\1/p' "$TMP/out"; }
# the quick suite runs two of the four splits per backend and stencil, in
# turn, so each split runs on several of them; make check-full runs all
c=0
NL='
'
for b in reference openmp opencl check; do
  "$PSTENCIL" backends 2>/dev/null | grep -Eq "^$b .*ok: " || { echo "$b: not available here"; continue; }
  for s in diffusion7 hdiff smooth2; do
    expect_exit 0 "$PSTENCIL" run --backend "$b" --stencil "$s" --steps 7 -o one.nc --force
    want=$(sum)
    [ -n "$want" ] || fail "$b $s: no checksum"
    IFS=$NL
    specs=$(ps_rotate 2 $c "2x1x1" "1x3x2 --halo 4" "3" "5x1x1 --halo 2")
    c=$((c + 1))
    for spec in $specs; do
      IFS=' '
      # shellcheck disable=SC2086
      expect_exit 0 "$PSTENCIL" run --backend "$b" --stencil "$s" --steps 7 --split $spec \
        -o split.nc --force
      [ "$(sum)" = "$want" ] || fail "$b $s --split $spec: $(sum), one box $want"
    done
    IFS=' '
    echo "$b $s: splits equal one box ($want)"
  done
done
# bad input: exit 2, the problem named, no output file
for bad in "--split 0x1x1" "--split 2x" "--split 51x1x1" "--split abc" "--split 2 --halo 0" \
           "--split 2 --devices 7" "--devices x"; do
  # shellcheck disable=SC2086
  expect_exit 2 "$PSTENCIL" run --backend reference --steps 2 $bad -o bad.nc
  [ -e bad.nc ] && fail "$bad left an output"
  case $bad in
    *halo*) expect_err "halo" ;;
    *devices*) expect_err "devices" ;;
    *) expect_err "split" ;;
  esac
done
expect_exit 2 "$PSTENCIL" run --backend reference --stencil smooth2 --steps 2 --split 2 --halo 1 -o bad.nc
expect_err "radius 2"
[ -e bad.nc ] && fail "a halo below the radius left an output"
exit 0

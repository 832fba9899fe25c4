#!/bin/sh
# pstencil run --split on a backend whose contexts may run at once
# (PS_BACKEND_CONCURRENT): the boxes are stepped on several host threads with
# the threads divided between them (2 on 2 boxes, 3 on 2 boxes: 2 + 1, 2 on 3
# boxes), the report says so, and the result is bitwise the one-box result;
# a device error on one box of concurrent boxes (the check plugin's fault
# hook) stops the run with every context freed and no output.
. "$top_srcdir/tests/lib.sh"
cd "$TMP" || fail "no temporary directory"
sum() { sed -n 's/^  checksum    : \(0x[0-9a-f]*\).*/\1/p' "$TMP/out"; }
has() { "$PSTENCIL" backends 2>/dev/null | grep -Eq "^$1 .*ok: "; }
ran=0
if has openmp; then
  expect_exit 0 "$PSTENCIL" run --backend openmp --threads 2 --steps 9 -o one.nc --force
  want=$(sum)
  [ -n "$want" ] || fail "openmp: no checksum"
  grep -q "concurrent" "$TMP/out" && fail "one box reported as concurrent"
  for spec in "2 2x1x1 2 1" "3 2x1x1 2 2" "2 3x1x1 2 1" "3 1x1x3 3 1" "2 2x1x1 --halo 1 2 1"; do
    # shellcheck disable=SC2086
    set -- $spec
    t=$1 split=$2
    shift 2
    halo=
    [ "$1" = --halo ] && { halo="--halo $2"; shift 2; }
    # shellcheck disable=SC2086
    expect_exit 0 "$PSTENCIL" run --backend openmp --threads "$t" --steps 9 --split "$split" \
      $halo -o split.nc --force
    [ "$(sum)" = "$want" ] || fail "--threads $t --split $split $halo: $(sum), one box $want"
    grep -Eq "^  concurrent  : boxes stepped at once on $1 host threads, up to $2 CPU threads? per box" \
      "$TMP/out" || fail "--threads $t --split $split: not stepped on $1 host threads at once: \
$(grep concurrent "$TMP/out")"
    echo "openmp --threads $t --split $split $halo: $1 boxes at once, bitwise ($want)"
  done
  ran=1
fi
if has check; then
  PSTENCIL_CHECK_FLAGS=threads,concurrent
  export PSTENCIL_CHECK_FLAGS
  expect_exit 0 "$PSTENCIL" run --backend check --threads 2 --steps 6 --split 2x1x1 --halo 2 \
    -o ok.nc --force
  grep -q "concurrent  : boxes stepped at once on 2 host threads" "$TMP/out" ||
    fail "check with PSTENCIL_CHECK_FLAGS=threads,concurrent: boxes not at once"
  PSTENCIL_CHECK_FAIL_STEP=2
  export PSTENCIL_CHECK_FAIL_STEP
  for how in "--threads 2 --split 2x1x1 --halo 2" "--threads 3 --split 1x2x2 --halo 1"; do
    # shellcheck disable=SC2086
    expect_exit 2 "$PSTENCIL" run --backend check --steps 6 $how -o fault.nc
    expect_err "injected device error"
    expect_err "check: 0 contexts live at unload"
    [ -e fault.nc ] && fail "$how: a failed run left an output"
    ls -A | grep -q 'fault' && fail "$how: a temporary file was left"
    echo "fault on one of concurrent boxes ($how): exit 2, every context freed, no output"
  done
  unset PSTENCIL_CHECK_FAIL_STEP PSTENCIL_CHECK_FLAGS
  ran=1
fi
[ "$ran" -eq 1 ] || skip "neither openmp nor the check plugin is available"
exit 0

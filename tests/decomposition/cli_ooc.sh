#!/bin/sh
# pstencil run --max-device-memory: a budget below the grid's footprint streams
# out-of-core slabs through one context at a time, bitwise the in-core result
# (halo 1 and 3, several slabs; snapshots too) on every backend that runs here; a budget no
# slab fits is refused naming the smallest one that works (and that one
# runs); bad sizes, devices and splits are refused; a device error on one box
# mid-run (the check plugin's fault hook) frees every context and leaves no
# output.
. "$top_srcdir/tests/lib.sh"
cd "$TMP" || fail "no temporary directory"
sum() { sed -n 's/^  checksum    : \(0x[0-9a-f]*\).*/\1/p' "$TMP/out"; }
slabs() { sed -n 's/^  out of core : \([0-9]*\) slabs.*/\1/p' "$TMP/out"; }
has() { "$PSTENCIL" backends 2>/dev/null | grep -Eq "^$1 .*ok: "; }
ran=0
for b in reference openmp opencl; do
  has "$b" || { echo "$b: not available here"; continue; }
  expect_exit 0 "$PSTENCIL" run --backend "$b" --steps 4 -o one.nc --force
  want=$(sum)
  [ -n "$want" ] || fail "$b: no checksum"
  for h in 1 3; do
    expect_exit 0 "$PSTENCIL" run --backend "$b" --steps 4 --halo $h --max-device-memory 6M \
      -o ooc.nc --force
    n=$(slabs)
    [ -n "$n" ] && [ "$n" -ge 2 ] || fail "$b halo $h: not out of core ($(grep memory "$TMP/out"))"
    [ "$(sum)" = "$want" ] || fail "$b halo $h, $n slabs: $(sum), in core $want"
    echo "$b halo $h: $n slabs, equal to in core ($want)"
  done
  ran=1
done
[ "$ran" -eq 1 ] || skip "no backend runs here"
# a stencil with coefficient arrays over the slab axis (hdiff: latitude, and slabs go
# along j here) must not reuse a slab context across origins: still equal to in core
hb=reference; has openmp && hb=openmp
expect_exit 0 "$PSTENCIL" run --backend $hb --stencil hdiff --steps 6 -o one.nc --force
want=$(sum)
expect_exit 0 "$PSTENCIL" run --backend $hb --stencil hdiff --steps 6 --max-device-memory 3M \
  -o ooc.nc --force
[ "$(slabs)" -ge 3 ] || fail "hdiff: not out of core in 3 slabs or more"
[ "$(sum)" = "$want" ] || fail "hdiff out of core: $(sum), in core $want"
# snapshots: every record of an out-of-core run equals the in-core one
expect_exit 0 "$PSTENCIL" run --backend reference --steps 4 --output-every 2 -o in.nc --force
expect_exit 0 "$PSTENCIL" run --backend reference --steps 4 --output-every 2 --max-device-memory 8M \
  -o oc.nc --force
[ "$(slabs)" -ge 2 ] || fail "snapshot run not out of core"
expect_exit 0 "$PSTENCIL" compare in.nc oc.nc
# the report: host peak and device bytes held
expect_exit 0 "$PSTENCIL" run --backend reference --steps 1 --max-device-memory none -o one.nc --force
grep -Eq "^  memory      : host peak [0-9.]+ MiB \(RSS\), device [0-9.]+ MiB held" "$TMP/out" ||
  fail "no memory line: $(cat "$TMP/out")"
[ -z "$(slabs)" ] || fail "--max-device-memory none went out of core"
# too small: exit 2, the smallest budget that works named, no output; it runs
expect_exit 2 "$PSTENCIL" run --backend reference --steps 2 --max-device-memory 100K -o bad.nc
expect_err "smallest budget that works is [0-9]+ bytes"
[ -e bad.nc ] && fail "a budget too small left an output"
min=$(sed -n 's/.*smallest budget that works is \([0-9]*\) bytes.*/\1/p' "$TMP/err")
expect_exit 2 "$PSTENCIL" run --backend reference --steps 2 --max-device-memory $((min - 1)) -o bad.nc
expect_exit 0 "$PSTENCIL" run --backend reference --steps 2 --max-device-memory "$min" -o min.nc
[ "$(slabs)" -ge 2 ] || fail "the smallest budget did not run out of core"
# bad input: exit 2, the problem named, no output file
for bad in "--max-device-memory 5Q" "--max-device-memory abc" "--max-device-memory -1M" \
           "--max-device-memory 0" "--device 9" "--split 2 --devices 0,9" "--split 2x2" \
           "--split 1x1x999" "--split 2x1x1 --max-device-memory 8M"; do
  # shellcheck disable=SC2086
  expect_exit 2 "$PSTENCIL" run --backend reference --steps 2 $bad -o bad.nc
  [ -e bad.nc ] && fail "$bad left an output"
  case $bad in
    *--split\ 2x1x1*) expect_err "not streamed" ;;
    *memory*) expect_err "max-device-memory" ;;
    *devices*) expect_err "devices" ;;
    *device*) expect_err "device 9" ;;
    *) expect_err "split" ;;
  esac
done
# a device error on one box mid-run: every context freed, no output
if has check; then
  PSTENCIL_CHECK_FAIL_STEP=2
  export PSTENCIL_CHECK_FAIL_STEP
  for how in "--split 2x1x1 --halo 2" "--split 1x2x2 --halo 1" "--max-device-memory 6M --halo 2"; do
    # shellcheck disable=SC2086
    expect_exit 2 "$PSTENCIL" run --backend check --steps 6 $how \
      -o fault.nc
    expect_err "injected device error"
    expect_err "check: 0 contexts live at unload"
    [ -e fault.nc ] && fail "$how: a failed run left an output"
    ls -A | grep -q 'fault' && fail "$how: a temporary file was left"
    echo "fault on one box ($how): exit 2, every context freed, no output"
  done
  unset PSTENCIL_CHECK_FAIL_STEP
else
  echo "check plugin not available: fault hook not tested"
fi
exit 0

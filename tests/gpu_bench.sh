#!/bin/sh
# bench/gpu_bench (what tests/gpu/run-on-gpu.sh measures with): a RESULT line
# with the numbers the script's table reads, validation against the
# reference, bad options refused, and a GPU backend without a device
# refused with exit 3 and the reason.
. "$top_srcdir/tests/lib.sh"
BENCH=$top_builddir/bench/gpu_bench
[ -x "$BENCH" ] || skip "bench/gpu_bench not built"

expect_exit 0 "$BENCH" --backend reference --grid 6x9x11 --steps 3 --warmup 1 --validate 2
grep -q '^RESULT backend=reference status=ok grid=6x9x11 cells=594 precision=float32 mode=exact steps=3 ms_per_step=[0-9.]* ' "$TMP/out" ||
  { cat "$TMP/out"; fail "no well-formed RESULT line"; }
grep -q 'validated=yes' "$TMP/out" || fail "validation did not run or failed"
expect_exit 0 "$BENCH" --backend reference --grid 4x5x6 --precision float64 --steps 2 --warmup 0
grep -q 'precision=float64' "$TMP/out" || fail "float64 not reported"

expect_exit 2 "$BENCH" --grid 4x5
expect_err "bad --grid '4x5'"
expect_exit 2 "$BENCH" --frobnicate
expect_err "unknown option '--frobnicate'"
expect_exit 2 "$BENCH" --steps 0
expect_err "steps must be"

for b in cuda hip; do
  if "$top_builddir/tests/test_gpu_backend" --probe "$b" >/dev/null 2>&1; then
    expect_exit 0 "$BENCH" --backend "$b" --grid 8x30x40 --steps 40 --warmup 2 --copy --validate 5
    grep -q 'validated=yes' "$TMP/out" || fail "$b: not bitwise equal to the reference"
  else
    "$BENCH" --backend "$b" --steps 2 >"$TMP/out" 2>&1
    rc=$?
    case $rc in
      3) grep -q "RESULT backend=$b status=unavailable" "$TMP/out" || fail "$b: no 'unavailable' RESULT"
         grep -Eq "cannot run: .*(not built|no .*(device|driver))" "$TMP/out" ||
           { cat "$TMP/out"; fail "$b: the reason is missing"; } ;;
      *) cat "$TMP/out"; fail "$b without a device: exit $rc, expected 3" ;;
    esac
  fi
done

# a backend that loads but has no device (opencl with no OpenCL driver): exit
# 3 with the reason, and the opened backend is closed (finding 8: the
# sanitizer CI job's LeakSanitizer fails this on a leak)
if grep -q '^#define PS_BUILD_OPENCL 1' "$top_builddir/config.h"; then
  mkdir "$TMP/no-vendors"
  OCL_ICD_VENDORS="$TMP/no-vendors" "$BENCH" --backend opencl --steps 2 >"$TMP/out" 2>&1
  rc=$?
  [ $rc -eq 3 ] || { cat "$TMP/out"; fail "opencl without a driver: exit $rc, expected 3"; }
  grep -q "RESULT backend=opencl status=unavailable" "$TMP/out" || fail "opencl: no 'unavailable' RESULT"
fi
exit 0

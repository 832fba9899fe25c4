#!/bin/sh
# bench/gpu_bench (what tests/gpu/run-on-gpu.sh measures with): a RESULT line
# with the numbers the script's table reads, validation against the
# reference, several --cases on one field (each timed by median of
# --repeat batches after --warmup-ms, each validated), bad options refused,
# and a GPU backend without a device refused with exit 3 and the reason.
. "$top_srcdir/tests/lib.sh"
BENCH=$top_builddir/bench/gpu_bench
[ -x "$BENCH" ] || skip "bench/gpu_bench not built"

expect_exit 0 "$BENCH" --backend reference --grid 6x9x11 --steps 3 --warmup 1 --validate 2
grep -q '^RESULT backend=reference case=- stencil=diffusion7 kernel=default status=ok grid=6x9x11 cells=594 precision=float32 mode=exact block=0,0,0 steps=3 repeat=1 ms_per_step=[0-9.]* ms_min=[0-9.]* ms_max=' "$TMP/out" ||
  { cat "$TMP/out"; fail "no well-formed RESULT line"; }
grep -q 'validated=yes' "$TMP/out" || fail "validation did not run or failed"
expect_exit 0 "$BENCH" --backend reference --grid 4x5x6 --precision float64 --steps 2 --warmup 0
grep -q 'precision=float64' "$TMP/out" || fail "float64 not reported"

# cases on the mock GPU: graphs on/off, a block, the generic kernel (and 4
# steps per launch), fast mode
if [ -f "$top_builddir/backends/cuda/.libs/pstencil_gpumock.so" ]; then
  expect_exit 0 "$BENCH" --backend gpumock --grid 5x12x19 --steps 34 --warmup 1 --warmup-ms 1 \
    --repeat 3 --copy --validate 35 \
    --cases "tuned nographs:graph=0 b16x4:block=16x4 generic:generic=1 gfuse4:generic=1,fuse=4 fast:mode=fast"
  [ "$(grep -c '^RESULT .* status=ok .* repeat=3 .*validated=yes$' "$TMP/out")" -eq 5 ] ||
    { cat "$TMP/out"; fail "not five bitwise validated cases"; }
  # fast mode is judged by the numerical contract's bound, not bitwise
  grep -q '^RESULT backend=gpumock case=fast .* status=ok .*validated=bound$' "$TMP/out" ||
    { cat "$TMP/out"; fail "fast mode not validated within its bound"; }
  grep -q '^validate: fast mode within its bound after 35 steps: max |fast - reference| .* (bound [0-9.e+-]*), NaN mask identical$' "$TMP/out" ||
    fail "no fast-mode verdict line"
  grep -q '^case gfuse4: diffusion7, .*, generic kernel, steps per launch 4$' "$TMP/out" || fail "fuse case"
  grep -q '^RESULT backend=gpumock case=b16x4 .* block=16,4,0 ' "$TMP/out" || fail "block case"
  grep -q '^RESULT backend=gpumock case=fast .* mode=fast ' "$TMP/out" || fail "fast case"
  grep -q '^RESULT backend=gpumock case=tuned .* frac_of_copy=[0-9.]*[1-9]' "$TMP/out" ||
    fail "the first case has no copy bound"
  # every stencil of the registry, each validated against its own reference
  cases=""
  names=$("$top_builddir/cli/pstencil" stencils | sed -n 's/^\([a-z][a-z0-9_]*\)\( (default)\)\{0,1\}: .*/\1/p')
  case " $(echo $names) " in *" hdiff "*" tracer "*) ;; *) fail "no stencil list from pstencil stencils: $names" ;; esac
  for s in $names; do
    cases="$cases $s:stencil=$s,generic=1 $s-fast:stencil=$s,mode=fast"
  done
  expect_exit 0 "$BENCH" --backend gpumock --grid 5x12x19 --steps 4 --warmup 0 --repeat 1 \
    --validate 3 --cases "$cases"
  for s in hdiff tracer; do
    grep -q "^RESULT backend=gpumock case=$s stencil=$s .* status=ok .*validated=yes$" "$TMP/out" ||
      { cat "$TMP/out"; fail "stencil $s not run or not bitwise"; }
    grep -q "^RESULT backend=gpumock case=$s-fast stencil=$s .* status=ok .*validated=bound$" "$TMP/out" ||
      { cat "$TMP/out"; fail "stencil $s in fast mode not within its bound"; }
  done
  expect_exit 2 "$BENCH" --backend gpumock --cases "x:stencil=nosuch"
  expect_err "stencil 'nosuch' is not in this build's list"
  expect_exit 2 "$BENCH" --backend gpumock --cases "x:colour=red"
  expect_err "bad case 'x:colour=red'"
  expect_exit 2 "$BENCH" --backend gpumock --cases "x:fuse=3"
  expect_err "gpu_fuse='3'"
fi

expect_exit 2 "$BENCH" --grid 4x5
expect_err "bad --grid '4x5'"
expect_exit 2 "$BENCH" --frobnicate
expect_err "unknown option '--frobnicate'"
expect_exit 2 "$BENCH" --steps 0
expect_err "steps and --repeat must be"
expect_exit 2 "$BENCH" --repeat 0
expect_err "steps and --repeat must be"

for b in cuda hip; do
  if "$top_builddir/tests/gpu/test_gpu_backend" --probe "$b" >/dev/null 2>&1; then
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

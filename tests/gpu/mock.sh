#!/bin/sh
# The GPU plugin's host code and kernels, run over the host-memory mock
# runtime (backends/gpu/ps_gpu_mock.h) through the same launch mapping as a
# device: every test_gpu_backend case (every listed stencil in float32 and
# float64, whole grid and sub-boxes at an origin != 0, diffusion7 tuned and
# generic, bitwise vs the reference; graph replay, staged region copies,
# profiling, errors), then with graphs off; with deferred (asynchronous)
# streams, where a missing wait reads garbage (PSTENCIL_MOCK_DEFERRED=1);
# with graph capture failing at each of its three steps (the fallback to
# launches gives the same bits); each variant of diffusion7's tuned kernel
# (PSTENCIL_GPU_KERNEL); once under AddressSanitizer (deferred, the plugin
# built with -fsanitize=address), and the generic kernels with 4 fused steps
# there too; the no-device path and the memory check.
. "$top_srcdir/tests/lib.sh"
T=$top_builddir/tests/gpu/test_gpu_backend
expect_exit 0 "$T" --backend gpumock
cp "$TMP/out" "$TMP/run1"
grep -q "^ok: gpumock 50x222x241 float32 block 0,0,0, 102 steps bitwise equal" "$TMP/run1" ||
  { cat "$TMP/run1"; fail "the graph-sized multi-piece run did not pass"; }
[ "$(grep -c "^ok: gpumock region download/upload" "$TMP/run1")" -eq 4 ] || fail "a region case did not pass"
grep -q "(profiled) bitwise equal" "$TMP/run1" || fail "profiled case did not pass"
[ "$(grep -c "^ok: gpumock copy kernel" "$TMP/run1")" -eq 2 ] || fail "a copy-bound case did not pass"
# every stencil of the list ran (new stencils are picked up from the list)
stencils=$(sh "$top_srcdir/tests/stencil-list.sh" "$top_srcdir") || fail "no stencil list in kernels/ps_stencils.h"
for s in $stencils; do
  for p in float32 float64; do
    for box in "box 14x19x29 at (0,0,0)" "box 8x11x15 at (3,4,7)" "box 14x11x22 at (0,4,7)"; do
      n=$(grep -cF "ok: gpumock $s $p $box in 14x19x29, " "$TMP/run1")
      [ "$n" -ge 2 ] || fail "$s $p $box: $n passing cases, expected at least 2"
    done
    grep -q "^ok: gpumock $s fast $p" "$TMP/run1" || fail "$s $p: no fast-mode case"
  done
done
# diffusion7 through its tuned kernel and through the generic one
grep -q "^ok: gpumock diffusion7 float32 box 8x11x15 at (3,4,7) .*, tuned, " "$TMP/run1" ||
  fail "diffusion7's tuned kernel did not run on a sub-box"
grep -q "^ok: gpumock diffusion7 float64 box 8x11x15 at (3,4,7) .*, generic, " "$TMP/run1" ||
  fail "diffusion7's generic kernel did not run"
echo "$(grep -c '^ok: ' "$TMP/run1") cases passed ($(echo $stencils))"
# graphs off gives the same bits
expect_exit 0 env PSTENCIL_MOCK_DEFERRED=1 "$T" --backend gpumock
[ "$(grep -c '^ok: ' "$TMP/out")" -eq "$(grep -c '^ok: ' "$TMP/run1")" ] ||
  fail "deferred mode ran $(grep -c '^ok: ' "$TMP/out") cases, not $(grep -c '^ok: ' "$TMP/run1")"
# graphs off and each variant of the tuned kernel: the quick suite runs a
# sample (ps_sample), make check-full all of them
for v in $(ps_sample 3 graphs-off d7lb); do
  case $v in
    graphs-off) expect_exit 0 env PSTENCIL_GPU_GRAPH_STEPS=0 "$T" --backend gpumock ;;
    *) expect_exit 0 env PSTENCIL_GPU_KERNEL=$v "$T" --backend gpumock ;;
  esac
  [ "$(grep -c '^ok: ' "$TMP/out")" -eq "$(grep -c '^ok: ' "$TMP/run1")" ] || fail "$v: fewer cases passed"
done
# graph capture refused (begin, end, instantiate): launches instead, same bits
# (and with d7lb under programmatic dependent launch)
for f in begin end instantiate; do
  for v in "" d7lb; do
    expect_exit 0 env PSTENCIL_MOCK_FAIL=$f PSTENCIL_GPU_KERNEL=$v PSTENCIL_GPU_PDL=${v:+1} \
      "$top_builddir/bench/gpu_bench" --backend gpumock --grid 6x17x23 --steps 70 --warmup 0 \
      --validate 70
    grep -q "mock: injected failure: $f" "$TMP/err" || { cat "$TMP/err"; fail "$f: no capture failure injected"; }
    grep -q 'validated=yes' "$TMP/out" || { cat "$TMP/out"; fail "$f ${v:-d7}: the fallback did not validate"; }
  done
done
# AddressSanitizer: the plugin's host code and kernels, deferred streams
A=$top_builddir/backends/gpu/asan
[ -f "$A/pstencil_gpumock.so" ] || fail "no $A/pstencil_gpumock.so"
rt=$(ldd "$A/pstencil_gpumock.so" | sed -n 's/.*=> \(.*asan[^ ]*\) .*/\1/p' | head -1)
[ -n "$rt" ] || fail "the ASan plugin does not link an ASan runtime"
expect_exit 0 env LD_PRELOAD="$rt" ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 \
  PSTENCIL_PLUGIN_PATH="$A" PSTENCIL_MOCK_DEFERRED=1 "$T" --backend gpumock
grep -q "^ok: gpumock diffusion7 float32 box 8x11x15 at (3,4,7) .*, tuned, " "$TMP/out" ||
  { cat "$TMP/out"; fail "the ASan run did not run the tuned kernel"; }
echo "ASan + deferred: $(grep -c '^ok: ' "$TMP/out") cases passed"
# ... and the generic fused kernels' shared-memory indexing under ASan (4
# steps a launch, large cases skipped; make check-full only: the quick suite
# runs them without ASan in generic_fused.sh)
if ps_full; then
  expect_exit 0 env LD_PRELOAD="$rt" ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 \
    PSTENCIL_PLUGIN_PATH="$A" PSTENCIL_MOCK_DEFERRED=1 PSTENCIL_GPU_FUSE=4 \
    PSTENCIL_TEST_MAX_CELLS=1000000 "$T" --backend gpumock
  echo "ASan + deferred, gpu_fuse=4: $(grep -c '^ok: ' "$TMP/out") cases passed"
fi
# no device: probe fails with the runtime's reason
expect_exit 1 env PSTENCIL_MOCK_DEVICES=0 "$T" --probe gpumock
grep -Eq "gpumock: no CUDA device: cudaGetDeviceCount|gpumock: no .*device" "$TMP/out" ||
  { cat "$TMP/out"; fail "no-device reason missing"; }
# too little device memory: a clear PS_ENOMEM naming the sizes
expect_exit 3 env PSTENCIL_MOCK_MEM_MB=1 "$top_builddir/bench/gpu_bench" --backend gpumock \
  --grid 50x222x241 --steps 1 --warmup 0
grep -q "needs 20.4 MiB of device memory (2 fields of 10.2 MiB and 4 bytes of parameters) but device 0 (mock GPU (host memory)) has 1.0 MiB free" "$TMP/out" ||
  { cat "$TMP/out"; fail "memory check message"; }
exit 0

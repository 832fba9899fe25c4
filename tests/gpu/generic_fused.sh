#!/bin/sh
# The generic GPU kernels' fused steps (knob gpu_fuse, docs/gpu.md) on the
# mock: 9 steps of every listed stencil make floor(9/F) temporally blocked
# launches (the mock's trace says "barriers") and 9 mod F single steps, 9
# single steps with gpu_fuse=1 or when profiling, each result bitwise the
# unfused run's; and every test_gpu_backend case (every stencil in float32
# and float64, sub-boxes at an origin != 0, 1, 2 and 37 steps, generic and
# tuned) bitwise against the reference with 2 and 4 fused steps.
. "$top_srcdir/tests/lib.sh"
P=$top_builddir/backends/cuda/.libs
[ -f "$P/pstencil_gpumock.so" ] || skip "the gpumock plugin is not built"
export PSTENCIL_PLUGIN_PATH="$P"
stencils=$(sh "$top_srcdir/tests/stencil-list.sh" "$top_srcdir") || fail "no stencil list in kernels/ps_stencils.h"
# launches: the trace's lines of one kind in $TMP/err, less the land-sum
# form's one-thread epoch launches (gpu_zero_land: before each gls_ step)
launches() { grep "^mock: kernel grid .* $1\$" "$TMP/err" | grep -vc '^mock: kernel grid 1x1x1 block 1x1x1 '; }
for s in $stencils; do
  for f in 1 2 4 p; do
    if [ "$f" = p ]; then
      knob=gpu_fuse=4 extra="--profile $TMP/$s.json" want_f=0 want_1=9
    else
      knob=gpu_fuse=$f extra= want_f=$((f > 1 ? 9 / f : 0)) want_1=$((f > 1 ? 9 % f : 9))
    fi
    # shellcheck disable=SC2086
    expect_exit 0 env PSTENCIL_MOCK_TRACE=1 "$PSTENCIL" run --backend gpumock --kernel generic \
      --stencil "$s" -n 9 --knob "$knob" --knob gpu_graph_steps=0 $extra -o "$TMP/$s.$f.nc"
    [ "$(launches barriers)" -eq "$want_f" ] && [ "$(launches plain)" -eq "$want_1" ] ||
      { grep "^mock:" "$TMP/err"; fail "$s gpu_fuse $f: $(launches barriers) fused and" \
        "$(launches plain) single launches, expected $want_f and $want_1"; }
    [ "$f" = 1 ] ||
      expect_exit 0 "$PSTENCIL" compare -q "$TMP/$s.1.nc" "$TMP/$s.$f.nc"
  done
done
T=$top_builddir/tests/gpu/test_gpu_backend
for f in 2 4; do
  expect_exit 0 env PSTENCIL_GPU_FUSE=$f PSTENCIL_TEST_MAX_CELLS=1000000 "$T" --backend gpumock
  grep -q "^ok: gpumock hdiff float64 box 8x11x15 at (3,4,7) .*, generic, " "$TMP/out" ||
    fail "gpu_fuse $f: hdiff's generic kernel on a sub-box did not pass"
done
echo "fused launches as expected for: $(echo $stencils)"

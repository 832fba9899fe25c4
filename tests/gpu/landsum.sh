#!/bin/sh
# The GPU plugin's generic kernels in the land-sum form (gls_NAME) and masked
# (PSTENCIL_GPU_ZERO_LAND=0) on the host-memory mock, bitwise against the
# reference on the inputs that tell them apart
# (tests/backends/test_landsum_backend.c: odd NaN payloads on land, region
# uploads, overflow and inf in the ocean, boxes, every stencil, both
# precisions): launched one by one, replayed from 2-step graphs (the report
# of a NaN write must name the launch inside a graph), and on deferred
# streams. On a machine with a CUDA or HIP device the same on it.
. "$top_srcdir/tests/lib.sh"
T=$top_builddir/tests/backends/test_landsum_backend
[ -x "$T" ] || skip "tests/backends/test_landsum_backend not built"
for v in "" PSTENCIL_GPU_ZERO_LAND=0 PSTENCIL_GPU_GRAPH_STEPS=2 PSTENCIL_MOCK_DEFERRED=1 \
  "PSTENCIL_GPU_ZERO_LAND=0 PSTENCIL_GPU_GRAPH_STEPS=2"; do
  # shellcheck disable=SC2086
  env $v "$T" gpumock >"$TMP/log" 2>&1 || { cat "$TMP/log"; fail "gpumock $v"; }
  grep -q '^ok: smooth2 float64 box' "$TMP/log" || { cat "$TMP/log"; fail "gpumock $v: smooth2 did not run"; }
done
for b in cuda hip; do
  for v in "" PSTENCIL_GPU_ZERO_LAND=0; do
    # shellcheck disable=SC2086
    env $v "$T" $b >"$TMP/log" 2>&1; rc=$?
    [ $rc -eq 77 ] && { echo "$b: $(tail -1 "$TMP/log")"; break; }
    [ $rc -eq 0 ] || { cat "$TMP/log"; fail "$b $v"; }
    echo "$b $v: $(tail -1 "$TMP/log")"
  done
done
echo "PASS: the GPU generic kernels' land-sum and masked forms bitwise"

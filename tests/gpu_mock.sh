#!/bin/sh
# The shared GPU host code and kernel body, run over the host-memory mock
# runtime (backends/gpu/ps_gpu_mock.h): every test_gpu_backend case
# (bitwise vs the reference, graph replay, staged region copies,
# profiling, errors), then the no-device path and the memory check.
. "$top_srcdir/tests/lib.sh"
T=$top_builddir/tests/test_gpu_backend
expect_exit 0 "$T" --backend gpumock
grep -q "^ok: gpumock 50x222x241 float32 block 0,0,0, 102 steps bitwise equal" "$TMP/out" ||
  { cat "$TMP/out"; fail "the graph-sized multi-piece run did not pass"; }
[ "$(grep -c "^ok: gpumock region download/upload" "$TMP/out")" -eq 4 ] || fail "a region case did not pass"
grep -q "(profiled) bitwise equal" "$TMP/out" || fail "profiled case did not pass"
# graphs off gives the same bits
expect_exit 0 env PSTENCIL_GPU_GRAPH_STEPS=0 "$T" --backend gpumock
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

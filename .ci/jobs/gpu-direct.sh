#!/bin/bash
# CI job: the direct GPU build of tests/gpu/run-on-gpu.sh (gcc + nvcc, no
# autotools, no netCDF: what the GPU machine gets) with the device stages
# skipped (--no-gpu), then the device stages themselves on the host-memory
# mock (PSTENCIL_GPU_BENCH_BACKEND=gpumock, tiny sizes), so neither the build
# nor the stages and table of the one GPU run can rot unnoticed.
# Skips (77) without nvcc. Builds in build-gpu-direct/ (not the main build).
set -u
cd "$(dirname "$0")/../.."
PATH=$PATH:/usr/local/cuda/bin
command -v nvcc >/dev/null 2>&1 || { echo "nvcc not found: the direct GPU build needs it"; exit 77; }
B=$PWD/build-gpu-direct
rm -rf "$B"
mkdir -p "$B"
pass=0; fail=0
check() { # check NAME CMD...: one counted test
  local name=$1
  shift
  if "$@"; then pass=$((pass + 1)); echo "PASS: $name"; else fail=$((fail + 1)); echo "FAIL: $name"; fi
}
nogpu() {
  PSTENCIL_GPU_BUILD=$B/build PSTENCIL_GPU_BUILD_S=1800 PSTENCIL_GPU_BUDGET_S=1500 \
    JOBS=${JOBS:-2} bash tests/gpu/run-on-gpu.sh --no-gpu "$B/out-nogpu" > "$B/nogpu.log" 2>&1 ||
    { cat "$B/nogpu.log"; return 1; }
  cat "$B/nogpu.log"
  [ "$(ls "$B/out-nogpu" | wc -l)" -le 6 ] || { echo "more than 6 result files"; return 1; }
  grep -q '^build: ok' "$B/out-nogpu/table.txt" && tail -1 "$B/nogpu.log" | grep -q 'Goals'
}
mock() {
  local n
  PSTENCIL_GPU_BUILD=$B/build-mock PSTENCIL_GPU_BUILD_S=1800 PSTENCIL_GPU_BUDGET_S=3600 \
    PSTENCIL_GPU_VALIDATE_S=1500 PSTENCIL_GPU_BENCH_BACKEND=gpumock PSTENCIL_GPU_SMALL=1 JOBS=${JOBS:-2} \
    bash tests/gpu/run-on-gpu.sh "$B/out-mock" > "$B/mock.log" 2>&1 || { cat "$B/mock.log"; return 1; }
  cat "$B/mock.log"
  grep -q '^validation .*: PASS' "$B/out-mock/table.txt" &&
    [ "$(grep -c ' yes$' "$B/out-mock/table.txt")" -ge 10 ] &&
    # every stencil of the list, exact bitwise and fast within its bound
    n=$(sh tests/stencil-list.sh . | wc -l) &&
    [ "$(grep -c '^stencils .* yes$' "$B/out-mock/table.txt")" -eq "$n" ] &&
    [ "$(grep -c '^stencils .* bound$' "$B/out-mock/table.txt")" -eq "$n" ]
}
check "run-on-gpu.sh --no-gpu: direct build and static checks" nogpu
check "run-on-gpu.sh on the gpumock backend: every device stage and the table" mock
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]

#!/bin/sh
# The direct build of tests/gpu/run-on-gpu.sh (what a GPU machine without
# autotools or netCDF-C gets): gcc and nvcc, no make, no io/. Built here with
# --build-only in a temporary folder, so it cannot break unnoticed on
# machines without a GPU: every unit compiles without a warning, the engine
# library links with -z defs and without netCDF or PLplot, the cuda plugin
# exports only its entry point, and the programs built on the direct engine
# run (the reference through gpu_bench with validation, the cuda plugin's
# probe answering with a device or the reason there is none).
# Skips (77) without nvcc.
. "$top_srcdir/tests/lib.sh"
PATH=$PATH:/usr/local/cuda/bin
command -v nvcc >/dev/null 2>&1 || skip "nvcc not found: the direct build needs it"
command -v bash >/dev/null 2>&1 || skip "bash not found: run-on-gpu.sh needs it"
B=$TMP/build
O=$TMP/results
PSTENCIL_GPU_DIRECT=1 PSTENCIL_GPU_BUILD=$B PSTENCIL_CUDA_ARCH=${PSTENCIL_CUDA_ARCH:-90} \
  JOBS=${JOBS:-2} bash "$top_srcdir/tests/gpu/run-on-gpu.sh" --build-only "$O" >"$TMP/log" 2>&1 ||
  { cat "$TMP/log"; grep -v '^+' "$O/direct-build.log" | tail -40; fail "the direct build failed"; }
cat "$TMP/log"
grep -q "build: direct" "$O/summary.txt" || fail "the script did not take the direct build"
for f in lib/libpstencil.so plugins/pstencil_cuda.so gpu_bench test_gpu_backend; do
  [ -f "$B/$f" ] || fail "the direct build did not produce $f"
done
if grep -v '^+' "$O/direct-build.log" | grep -i 'warning'; then
  fail "the direct build compiles with warnings"
fi
if ldd "$B/lib/libpstencil.so" | grep -Ei 'netcdf|plplot|hdf5'; then
  fail "the direct build's engine links netCDF or PLplot"
fi
syms=$(nm -D --defined-only "$B/plugins/pstencil_cuda.so" | awk '$2 != "A" {print $3}')
[ "$syms" = ps_backend_plugin_entry ] || fail "the direct cuda plugin exports: $syms"
PSTENCIL_PLUGIN_PATH=$B/plugins
export PSTENCIL_PLUGIN_PATH
expect_exit 0 "$B/gpu_bench" --backend reference --grid 6x9x11 --steps 3 --warmup 1 --validate 2
grep -q 'validated=yes' "$TMP/out" || { cat "$TMP/out"; fail "the direct engine did not validate"; }
"$B/test_gpu_backend" --probe cuda >"$TMP/probe" 2>&1
rc=$?
cat "$TMP/probe"
case $rc in
  0) grep -q '^cuda: device 0: ' "$TMP/probe" || fail "probe found a device but did not describe it" ;;
  1) grep -Eq '^cuda: .*(no CUDA|driver|device)' "$TMP/probe" || fail "no reason for the missing device" ;;
  *) fail "test_gpu_backend --probe cuda exited $rc" ;;
esac
echo "PASS: direct build compiles, links without netCDF, and runs"
exit 0

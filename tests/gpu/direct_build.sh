#!/bin/sh
# The direct build of tests/gpu/run-on-gpu.sh (what a GPU machine without
# autotools or netCDF-C gets): gcc and nvcc, no make, no io/. Built here with
# --no-gpu in a temporary folder, so it cannot break unnoticed on
# machines without a GPU: the run writes at most 6 files (run.log and
# table.txt) and prints the table last; every unit compiles without a
# warning, ptxas reports the kernels' registers, the engine
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
PSTENCIL_GPU_BUILD=$B PSTENCIL_CUDA_ARCH=${PSTENCIL_CUDA_ARCH:-90} PSTENCIL_GPU_BUILD_S=1500 \
  PSTENCIL_GPU_BUDGET_S=1800 JOBS=${JOBS:-2} bash "$top_srcdir/tests/gpu/run-on-gpu.sh" --no-gpu "$O" \
  >"$TMP/log" 2>&1 || { cat "$TMP/log"; tail -60 "$O/run.log"; fail "run-on-gpu.sh --no-gpu failed"; }
cat "$TMP/log"
[ "$(ls "$O" | wc -l)" -le 6 ] || fail "more than 6 result files: $(ls "$O")"
[ -f "$O/run.log" ] && [ -f "$O/table.txt" ] || fail "no run.log or table.txt in $O"
tail -1 "$TMP/log" | grep -q 'Goals' || fail "the table is not the last thing on stdout"
grep -q '^build: ok (direct)' "$O/table.txt" || fail "the direct build did not succeed"
grep -q 'exact registers: [0-9]' "$O/table.txt" || fail "no register count from ptxas -v"
grep -q '^validation .*: skipped' "$O/table.txt" || fail "--no-gpu ran device stages"
for f in lib/libpstencil.so plugins/pstencil_cuda.so gpu_bench test_gpu_backend; do
  [ -f "$B/$f" ] || fail "the direct build did not produce $f"
done
sed -n '/^==== stage build/,/^==== stage static/p' "$O/run.log" > "$TMP/build.log"
if grep -v '^+' "$TMP/build.log" | grep -v 'ptxas info' | grep -i 'warning'; then
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

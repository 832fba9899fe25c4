#!/bin/sh
# make bench: the NumPy baseline side by side with pstencil on the same input.
#
#   run-bench.sh PSTENCIL [--steps N] [--repeat R] [--scale S] [--keep DIR]
#
# 1. generates the built-in ocean with `pstencil gen`;
# 2. times every pstencil backend that can run here on it (`pstencil bench
#    --input`, whole job included);
# 3. runs bench/numpy_baseline.py, both variants (and CuPy when it has a GPU)
#    on the same file and checks that its float32 result equals pstencil's
#    reference-backend output BITWISE (every cell's bit pattern);
# 4. prints each backend's speedup over NumPy per step.
# Without numpy/netCDF4 the baseline is skipped with a message.
# Exit status: 0 ok, 1 the baseline disagrees with the reference, 2 error.
set -u
PSTENCIL=${1:?usage: run-bench.sh PSTENCIL [--steps N] [--repeat R] [--scale S] [--keep DIR]}
shift
STEPS=100
REPEAT=3
SCALE=1
KEEP=
while [ $# -gt 0 ]; do
  case $1 in
    --steps) STEPS=$2; shift 2 ;;
    --repeat) REPEAT=$2; shift 2 ;;
    --scale) SCALE=$2; shift 2 ;;
    --keep) KEEP=$2; shift 2 ;;
    *) echo "run-bench.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
HERE=$(cd "$(dirname "$0")" && pwd)
PY=${PYTHON3:-/usr/bin/python3}
[ -n "$PY" ] || PY=/usr/bin/python3
if [ -n "$KEEP" ]; then
  mkdir -p "$KEEP" || exit 2
  rm -f "$KEEP/ocean.nc" "$KEEP/reference.nc"
  W=$KEEP
else
  W=$(mktemp -d "${TMPDIR:-/tmp}/pstencil-make-bench.XXXXXX") || exit 2
  trap 'rm -rf "$W"' EXIT
fi
die() { echo "make bench: error: $*" >&2; exit 2; }

echo "== input: built-in ocean, scale $SCALE (pstencil gen)"
"$PSTENCIL" gen -o "$W/ocean.nc" --scale "$SCALE" >/dev/null || die "pstencil gen failed"

echo "== pstencil: $STEPS steps x $REPEAT runs per backend on $W/ocean.nc"
"$PSTENCIL" bench --input "$W/ocean.nc" --steps "$STEPS" --repeat "$REPEAT" --scales none \
  --csv "$W/bench.csv" --json "$W/bench.json" >"$W/bench.txt" || die "pstencil bench failed"
cat "$W/bench.txt"

echo "== pstencil reference output ($STEPS steps)"
"$PSTENCIL" run "$W/ocean.nc" -o "$W/reference.nc" --steps "$STEPS" --backend reference \
  >"$W/run.txt" 2>&1 || { cat "$W/run.txt" >&2; die "pstencil run --backend reference failed"; }

status=0
NUMPY_MS=
NUMPYM_MS=
CUPY_MS=
if "$PY" -c 'import numpy, netCDF4' >/dev/null 2>&1; then
  check() { # check NAME OUT.npy: bitwise comparison with the reference output
    "$PY" - "$W/reference.nc" "$2" "$1" <<'EOF'
import sys
import numpy as np
import netCDF4
ref_path, npy, name = sys.argv[1:4]
with netCDF4.Dataset(ref_path) as ds:
    v = ds.variables["thetao"]
    v.set_auto_maskandscale(False)          # the stored bits, no masking
    ref = np.asarray(v[-1] if v.ndim == 4 else v[:])  # the final state
got = np.load(npy)
if ref.shape != got.shape or ref.dtype != got.dtype:
    print("%s: FAIL: shape/dtype %s %s vs reference %s %s" % (name, got.shape, got.dtype, ref.shape, ref.dtype))
    sys.exit(1)
ui = np.uint32 if ref.dtype == np.float32 else np.uint64
rb, gb = ref.view(ui), got.view(ui)
nan_r, nan_g = np.isnan(ref), np.isnan(got)
same_bits = rb == gb
if same_bits.all():
    print("%s: bitwise identical to the reference backend (%d cells, every bit pattern)" % (name, ref.size))
    sys.exit(0)
# NaN payloads may differ between readers; everything else must be bit-equal
num_ok = (nan_r == nan_g).all() and same_bits[~nan_r].all()
bad = np.argwhere(~same_bits & ~(nan_r & nan_g))
if num_ok:
    print("%s: every number bitwise identical, NaN mask identical; %d NaN payloads differ" % (name, (~same_bits).sum()))
    sys.exit(0)
k, j, i = bad[0]
print("%s: FAIL: %d cells differ, first at (k=%d, j=%d, i=%d): reference %r, got %r" % (
    name, len(bad), k, j, i, ref[k, j, i], got[k, j, i]))
sys.exit(1)
EOF
  }
  for v in simple masked; do
    echo "== NumPy baseline, variant $v ($PY bench/numpy_baseline.py), $STEPS steps"
    "$PY" "$HERE/numpy_baseline.py" "$W/ocean.nc" --steps "$STEPS" --variant $v \
      --output "$W/numpy-$v.npy" >"$W/numpy-$v.txt" || die "numpy_baseline.py --variant $v failed"
    cat "$W/numpy-$v.txt"
    check "numpy $v" "$W/numpy-$v.npy" || status=1
  done
  NUMPY_MS=$(sed -n 's/.*ms_per_step=\([0-9.]*\).*/\1/p' "$W/numpy-simple.txt")
  NUMPYM_MS=$(sed -n 's/.*ms_per_step=\([0-9.]*\).*/\1/p' "$W/numpy-masked.txt")
  if "$PY" -c 'import cupy, sys; sys.exit(cupy.cuda.runtime.getDeviceCount() == 0)' >/dev/null 2>&1; then
    echo "== CuPy variant"
    "$PY" "$HERE/numpy_baseline.py" "$W/ocean.nc" --steps "$STEPS" --xp cupy --variant masked \
      --output "$W/cupy.npy" >"$W/cupy.txt" || die "numpy_baseline.py --xp cupy failed"
    cat "$W/cupy.txt"
    CUPY_MS=$(sed -n 's/.*ms_per_step=\([0-9.]*\).*/\1/p' "$W/cupy.txt")
    check cupy "$W/cupy.npy" || status=1
  else
    echo "== CuPy variant skipped: no cupy module with a GPU under $PY"
  fi
else
  echo "== NumPy baseline skipped: $PY lacks numpy or netCDF4 (Debian: python3-numpy python3-netcdf4)"
fi

echo "== speedup per step over the baselines ($STEPS steps, same input)"
awk -F, -v numpy="$NUMPY_MS" -v numpym="$NUMPYM_MS" -v cupy="$CUPY_MS" '
  NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  { ms = $col["step_ms"]; sp = $col["spread"] * 100
    line = sprintf("  %-34s %10.3f ms/step (+-%.1f%%)", $col["method"], ms, sp)
    if (numpy != "") line = line sprintf("   %8.1fx NumPy", numpy / ms)
    if (numpym != "") line = line sprintf("   %7.1fx NumPy-masked", numpym / ms)
    if (cupy != "") line = line sprintf("   %8.1fx CuPy", cupy / ms)
    if ($col["job_mean_s"] != "n/a") line = line sprintf("   whole job %.3f s", $col["job_mean_s"])
    print line }' "$W/bench.csv"
[ -n "$NUMPY_MS" ] && printf '  %-34s %10.3f ms/step\n' "NumPy baseline (simple)" "$NUMPY_MS"
[ -n "$NUMPYM_MS" ] && printf '  %-34s %10.3f ms/step\n' "NumPy baseline (masked)" "$NUMPYM_MS"
[ -n "$CUPY_MS" ] && printf '  %-34s %10.3f ms/step\n' "CuPy baseline" "$CUPY_MS"
exit $status

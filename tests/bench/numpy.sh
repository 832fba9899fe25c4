#!/bin/sh
# bench/numpy_baseline.py (both variants) on a small generated ocean equals
# the reference backend BITWISE (float32, 7 steps), read from the same file.
. "$top_srcdir/tests/lib.sh"
PY=/usr/bin/python3
"$PY" -c 'import numpy, netCDF4' >/dev/null 2>&1 || skip "no numpy/netCDF4 under $PY"
expect_exit 0 "$PSTENCIL" gen -o "$TMP/in.nc" --scale 0.15
expect_exit 0 "$PSTENCIL" run "$TMP/in.nc" -o "$TMP/ref.nc" --steps 7 --backend reference
for v in simple masked; do
expect_exit 0 "$PY" "$top_srcdir/bench/numpy_baseline.py" "$TMP/in.nc" --steps 7 --variant $v --output "$TMP/np.npy"
grep -q "ms_per_step=" "$TMP/out" || fail "numpy_baseline.py printed no timing"
"$PY" - "$TMP/ref.nc" "$TMP/np.npy" "$TMP/in.nc" <<'PYEOF' || fail "NumPy baseline ($v) differs from the reference"
import sys
import numpy as np, netCDF4
with netCDF4.Dataset(sys.argv[1]) as ds:
    v = ds.variables["thetao"]; v.set_auto_maskandscale(False)
    ref = np.asarray(v[-1])
with netCDF4.Dataset(sys.argv[3]) as ds:
    v = ds.variables["thetao"]; v.set_auto_maskandscale(True)
    t0 = np.ma.filled(np.ma.masked_invalid(v[0]).astype(np.float32), np.nan)
got = np.load(sys.argv[2])
assert got.dtype == np.float32 and got.shape == ref.shape, (got.dtype, got.shape, ref.shape)
nr, ng = np.isnan(ref), np.isnan(got)
assert (nr == ng).all(), "NaN masks differ"
same = ref.view(np.uint32) == got.view(np.uint32)
assert same[~nr].all(), "%d cells differ" % (~same[~nr]).sum()
changed = (got != t0) & ~ng
assert changed.sum() > 0.3 * (~ng).sum(), "the model did not run (%d cells changed)" % changed.sum()
print("bitwise identical on %d ocean cells (%d changed)" % ((~nr).sum(), changed.sum()))
PYEOF
done
exit 0

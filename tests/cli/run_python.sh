#!/bin/sh
# pstencil run FILE --precision double --steps 1 equals, bitwise, the course's
# pure-Python formula applied once, on a small generated grid with land.
. "$top_srcdir/tests/lib.sh"
PY=/usr/bin/python3
$PY -c 'import netCDF4, numpy' 2>/dev/null || skip "python3 with netCDF4 and numpy not available"
cd "$TMP" || exit 1
$PY - <<'PYEOF' || fail "cannot write the test input"
import netCDF4, numpy as np
rng = np.random.default_rng(7)
nz, ny, nx = 6, 9, 11
t = (rng.random((1, nz, ny, nx)) * 20 - 2).astype(np.float32)
t[rng.random(t.shape) < 0.25] = np.nan
with netCDF4.Dataset("in.nc", "w", format="NETCDF3_CLASSIC") as d:
    d.createDimension("time", None); d.createDimension("depth", nz)
    d.createDimension("latitude", ny); d.createDimension("longitude", nx)
    for name, n, units in (("depth", nz, "m"), ("latitude", ny, "degrees_north"), ("longitude", nx, "degrees_east")):
        v = d.createVariable(name, "f4", (name,)); v.units = units; v[:] = np.arange(n, dtype=np.float32)
    v = d.createVariable("time", "f8", ("time",)); v.units = "hours since 2024-01-01"; v[:] = [0.0]
    v = d.createVariable("thetao", "f4", ("time", "depth", "latitude", "longitude"), fill_value=np.float32(1e20))
    v.standard_name = "sea_water_potential_temperature"; v.units = "degrees_C"
    v[:] = np.ma.masked_invalid(t)
np.save("in.npy", t[0])
PYEOF
expect_exit 0 "$PSTENCIL" run in.nc -o out.nc --backend reference --precision double --steps 1 --no-progress
$PY - <<'PYEOF' || fail "pstencil differs from the pure-Python formula"
import math, netCDF4, numpy as np
init = np.load("in.npy").astype(np.float64)
depth, lat, lon = init.shape
T = [[[float(init[d][i][j]) for j in range(lon)] for i in range(lat)] for d in range(depth)]
new = [[[T[d][i][j] for j in range(lon)] for i in range(lat)] for d in range(depth)]
D = 0.1
for d in range(1, depth - 1):
    for i in range(1, lat - 1):
        for j in range(1, lon - 1):
            center = T[d][i][j]
            if math.isnan(center):
                continue
            total = 0.0; count = 0
            for dd, ii, jj in ((d-1,i,j), (d+1,i,j), (d,i-1,j), (d,i+1,j), (d,i,j-1), (d,i,j+1)):
                if not math.isnan(T[dd][ii][jj]):
                    total += T[dd][ii][jj]; count += 1
            if count > 0:
                new[d][i][j] = center + D * (total - count * center) / count
with netCDF4.Dataset("out.nc") as ds:
    v = ds["thetao"]; v.set_auto_mask(False)
    got = np.array(v[-1], dtype=np.float64)
    fill = v.getncattr("_FillValue") if "_FillValue" in v.ncattrs() else None
if fill is not None:
    got[got == fill] = np.nan
exp = np.array(new)
assert got.dtype == np.float64
same = (got.view(np.uint64) == exp.view(np.uint64)) | (np.isnan(got) & np.isnan(exp))
if not same.all():
    k = np.argwhere(~same)[0]
    raise SystemExit("differs at %s: got %r expected %r" % (tuple(k), got[tuple(k)], exp[tuple(k)]))
print("bitwise equal on", same.size, "cells")
PYEOF
echo "run vs pure Python: ok"

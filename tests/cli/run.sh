#!/bin/sh
# pstencil run on the built-in ocean: a CF file that ncdump, CDO and xarray
# open; the report; the default output name; --output-every; reference and
# openmp agree bitwise (compare exit 0).
. "$top_srcdir/tests/lib.sh"
cd "$TMP" || exit 1

expect_exit 0 "$PSTENCIL" run --backend reference --steps 3 --no-progress
grep -q "checksum    : 0x" "$TMP/out" || fail "no checksum in the report"
grep -q "where the time went" "$TMP/out" || fail "no time breakdown in the report"
[ -f output/predicted_temperatures_reference.nc ] || fail "default output missing"
out=output/predicted_temperatures_reference.nc
ncdump -h "$out" > "$TMP/hdr" || fail "ncdump cannot read the output"
grep -q "float thetao(time, depth, latitude, longitude)" "$TMP/hdr" || fail "no thetao(time, depth, latitude, longitude)"
grep -q ":history = " "$TMP/hdr" || fail "no history attribute"
grep -q ":source = \"pstencil" "$TMP/hdr" || fail "no source attribute"
grep -q "time = UNLIMITED ; // (2 currently)" "$TMP/hdr" || grep -q "time = 2 ;" "$TMP/hdr" || fail "expected 2 records (initial and final)"
if command -v cdo >/dev/null 2>&1; then
  cdo -s sinfon "$out" > "$TMP/cdo" 2>&1 || { cat "$TMP/cdo"; fail "cdo sinfon cannot read the output"; }
fi
if /usr/bin/python3 -c 'import xarray' 2>/dev/null; then
  /usr/bin/python3 -c "
import sys, xarray as xr
ds = xr.open_dataset(sys.argv[1])
assert ds['thetao'].shape == (2, 50, 222, 241), ds['thetao'].shape
" "$out" || fail "xarray cannot open the output"
fi

# existing output without --force
expect_exit 2 "$PSTENCIL" run --backend reference --steps 1 -o "$out" --no-progress
expect_err "exists"

# openmp (if it can run here) equals the reference bitwise, float and double
if "$PSTENCIL" backends 2>/dev/null | grep -q "^openmp"; then
  for p in float double; do
    expect_exit 0 "$PSTENCIL" run --backend reference --precision $p --steps 4 -o ref_$p.nc --no-progress
    expect_exit 0 "$PSTENCIL" run --backend openmp --precision $p --steps 4 -o omp_$p.nc --no-progress
    expect_exit 0 "$PSTENCIL" compare ref_$p.nc omp_$p.nc
  done
fi

# snapshots every 2 steps of 5: steps 0, 2, 4, 5
expect_exit 0 "$PSTENCIL" run --backend reference --steps 5 --output-every 2 -o every.nc --no-progress --dt 3600
ncdump -v step every.nc | tr -d ' \n' | grep -q "step=0,2,4,5;" || { ncdump -v step every.nc | tail -3; fail "snapshot steps are not 0,2,4,5"; }

# --profile writes JSON with per-step times
expect_exit 0 "$PSTENCIL" run --backend reference --steps 3 -o prof.nc --profile prof.json --no-progress
grep -q '"per_step_ms": \[[0-9.]*, [0-9.]*, [0-9.]*\]' prof.json || fail "profile has no per-step times"
if /usr/bin/python3 -c 'import json' 2>/dev/null; then
  /usr/bin/python3 -m json.tool prof.json >/dev/null || fail "profile is not valid JSON"
fi
echo "run: ok"

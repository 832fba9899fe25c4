#!/bin/sh
# Compression bombs: a compressed netCDF-4 variable may expand into a field
# at most 256 times its file's size (as float32) unless --max-expansion says
# otherwise. A 126 KB file of deflated bytes declaring 70 M cells (280 MB as
# float32; it once cost run 9 s and 937 MB) is refused by every reading
# command at once; a field at the bound for a 64 KiB file (4 M cells) costs
# every command less than 256 MB and 5 s; --max-expansion none or a ratio
# above the file's accepts it, a bad value is a usage error.
. "$top_srcdir/tests/lib.sh"
PY=${PS_TEST_PYTHON:-/usr/bin/python3}
"$PY" -c 'import netCDF4, numpy' 2>/dev/null || skip "no python3-netcdf4"
cd "$TMP" || fail "cd"
cat > make.py <<'PYEOF'
import sys, netCDF4, numpy as np
def deflated(path, shape, dtype):
    d = netCDF4.Dataset(path, "w", format="NETCDF4")
    for n, l in zip(("time", "depth", "lat", "lon"), shape):
        d.createDimension(n, l)
    for n, l, u in zip(("depth", "lat", "lon"), shape[1:], ("m", "degrees_north", "degrees_east")):
        v = d.createVariable(n, "f8", (n,))
        v.units = u
        v[:] = np.linspace(1, 50, l)
    t = d.createVariable("time", "f8", ("time",))
    t.units = "days since 2000-01-01"
    t[:] = np.arange(shape[0])
    v = d.createVariable("thetao", dtype, ("time", "depth", "lat", "lon"), zlib=True,
                         complevel=9, chunksizes=(1, 1, shape[2], shape[3]))
    v.units = "degC"
    for k in range(shape[1]):
        v[0, k] = np.full(shape[2:], 10, dtype)
    d.close()
deflated("bomb.nc", (1, 10, 2000, 3500), "i1")
deflated("bound.nc", (1, 16, 512, 512), "i1")
PYEOF
"$PY" make.py || fail "cannot write the test files"
size=$(stat -c %s bomb.nc)
[ "$size" -lt 200000 ] || fail "bomb.nc is $size bytes, expected a small file"
# the address-space limit, except under the sanitizer CI job: ASan reserves
# terabytes of shadow address space at start and cannot run under ulimit -v
limited() {
  ( [ -n "${PSTENCIL_TEST_SANITIZER:-}" ] || ulimit -v 1048576; timeout 5 "$PSTENCIL" "$@" )
}
for cmd in summary run compare plot bench; do
  case $cmd in
    summary) set -- summary bomb.nc ;;
    run) set -- run bomb.nc -o out.nc ;;
    compare) set -- compare bomb.nc bomb.nc ;;
    plot) set -- plot slice bomb.nc -o out.png ;;
    bench) set -- bench --input bomb.nc --steps 1 --repeat 1 --scales none --csv out.csv ;;
  esac
  expect_exit 2 limited "$@"
  expect_err "bomb.nc: compressed variable 'thetao' expands [0-9]+ times"
  expect_err "with --max-expansion [0-9]+ \(or none\)"
  ls out.* >/dev/null 2>&1 && fail "$cmd left an output behind"
done
# accepted when asked, and only a sensible ratio
expect_exit 0 "$PSTENCIL" summary bomb.nc --max-expansion none --no-levels
expect_exit 2 "$PSTENCIL" summary bomb.nc --max-expansion 1000
expect_exit 0 "$PSTENCIL" summary bomb.nc --max-expansion=3000 --no-levels
expect_exit 2 "$PSTENCIL" summary bomb.nc --max-expansion 0.5
expect_err "at least 1"
expect_exit 2 "$PSTENCIL" summary bomb.nc --max-expansion
expect_err "needs a value"
# the bound: every command under 256 MB (resident, the most any process of it
# reached) and 5 s on the largest field a 64 KiB file may give (not measurable
# under the sanitizers, whose shadow memory and checks are the job's own cost)
if [ -n "${PSTENCIL_TEST_SANITIZER:-}" ]; then
  echo "the cost bound is measured by the normal build"
  exit 0
fi
command -v /usr/bin/time >/dev/null || skip "no /usr/bin/time (Debian package time)"
cells=$((16 * 512 * 512))
[ $((cells * 4)) -le $((65536 * 256)) ] || fail "bound.nc is larger than the bound"
for cmd in summary run compare slice cube; do
  case $cmd in
    summary) set -- summary bound.nc ;;
    run) set -- run bound.nc -o out.nc ;;
    compare) set -- compare bound.nc bound.nc ;;
    slice) set -- plot slice bound.nc -o out.png ;;
    cube) set -- plot cube bound.nc -o out.html ;;
  esac
  rm -f out.*
  /usr/bin/time -f '%M %e' -o usage timeout 5 "$PSTENCIL" --max-expansion none "$@" >out 2>err ||
    { cat err >&2; fail "$cmd on bound.nc failed"; }
  read -r kb secs < usage
  echo "$cmd: $((kb / 1024)) MB, $secs s"
  [ "$kb" -le 262144 ] || fail "$cmd on a field at the bound took $((kb / 1024)) MB"
done
echo "compression bombs refused; the bound holds"

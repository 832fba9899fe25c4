#!/bin/sh
# Inputs whose problem is in their attributes, their kind or their filters,
# and messages that must say exactly what is wrong (issue: hostile files,
# round 3): packing attributes that are 0, arrays, text or NaN are refused
# naming the attribute; a character device, a directory or a FIFO given as
# an input is named as such (never "empty", never waited on); a variable
# compressed with a filter this netCDF-C lacks names the filter and where to
# get it; an out-of-range coefficient is printed with the digits that show
# why it is out of range.
. "$top_srcdir/tests/lib.sh"
command -v ncgen >/dev/null || skip "no ncgen"
cd "$TMP" || fail "cd"
# tiny.cdl with ATTR inserted among thetao's attributes
with_attr() {
  sed "s|thetao:units = \"degC\" ;|thetao:units = \"degC\" ;\n\t\t$1 ;|" \
    "$top_srcdir/tests/data/tiny.cdl" > "$2.cdl" && ncgen -k nc4 -o "$2.nc" "$2.cdl" ||
    fail "ncgen $2"
}
with_attr 'thetao:scale_factor = 0.f' sf0
with_attr 'thetao:scale_factor = 1.f, 2.f' sfarr
with_attr 'thetao:scale_factor = "0.5"' sftext
with_attr 'thetao:add_offset = NaNf' aonan
with_attr 'thetao:scale_factor = 0.5f' sfok
for f in sf0 sfarr sftext aonan; do
  for cmd in summary run plot; do
    case $cmd in
      summary) set -- summary $f.nc ;;
      run) set -- run $f.nc -o out.nc ;;
      plot) set -- plot slice $f.nc -o out.png ;;
    esac
    expect_exit 2 "$PSTENCIL" "$@"
    expect_err "$f.nc: attribute (scale_factor|add_offset) of variable 'thetao'"
    [ -e out.nc ] || [ -e out.png ] && fail "$cmd $f left an output"
  done
done
expect_exit 2 "$PSTENCIL" summary sf0.nc; expect_err "scale_factor .* is 0"
expect_exit 2 "$PSTENCIL" summary sfarr.nc; expect_err "scale_factor .* has 2 values"
expect_exit 2 "$PSTENCIL" summary sftext.nc; expect_err "scale_factor .* is text"
expect_exit 2 "$PSTENCIL" summary aonan.nc; expect_err "add_offset .* is nan"
expect_exit 0 "$PSTENCIL" summary sfok.nc
# inputs that are not regular files
mkfifo fifo.nc || fail "mkfifo"
mkdir dir.nc
for f in /dev/urandom dir.nc fifo.nc; do
  for cmd in summary run compare plot bench; do
    case $cmd in
      summary) set -- summary "$f" ;;
      run) set -- run "$f" -o out.nc ;;
      compare) set -- compare "$f" "$f" ;;
      plot) set -- plot slice "$f" -o out.png ;;
      bench) set -- plot bench "$f" -o outdir ;;
    esac
    expect_exit 2 timeout 10 "$PSTENCIL" "$@"
    expect_err "$f: it is a (character device|directory|FIFO), not a regular file"
  done
done
# longitudes of 1e30 are unwrapped in whole turns at once (a loop adding 360
# never ended): hdiff on them ends, refused, within seconds
sed 's/ lon = 0, 1, 2, 3 ;/ lon = 0, 1e30, 2e30, 3e30 ;/' "$top_srcdir/tests/data/tiny.cdl" \
  > hugelon.cdl && ncgen -o hugelon.nc hugelon.cdl || fail "ncgen hugelon"
expect_exit 2 timeout 10 "$PSTENCIL" run hugelon.nc --stencil hdiff -o out.nc
[ -e out.nc ] && fail "hdiff on huge longitudes left an output"
# an out-of-range value shown with the digits that make it out of range
expect_exit 2 "$PSTENCIL" run -D 1.0000001 -o out.nc
expect_err "coeff 1.0000001: "
expect_exit 2 "$PSTENCIL" plot slice sfok.nc --vmin 1.0000001 --vmax 1 -o out.png
expect_err "vmin \(1.0000001\) must be below --vmax \(1\)"
expect_exit 2 "$PSTENCIL" bench --scales 64.000001
expect_err "scales: 64.000001 is out of range"
# filters this netCDF-C does not have: named, with where to get them
PY=${PS_TEST_PYTHON:-/usr/bin/python3}
if "$PY" -c 'import h5py, numpy' 2>/dev/null; then
  cat > filters.py <<'PYEOF'
import h5py, numpy as np
# the filter is declared, the chunks written as they are: no plugin needed
for name, fid in (("zstd", 32015), ("bzip2", 307), ("blosc", 32001), ("unknown", 40000)):
    with h5py.File(name + ".nc", "w") as f:
        for n, l, u in (("depth", 3, "m"), ("lat", 4, "degrees_north"), ("lon", 5, "degrees_east")):
            d = f.create_dataset(n, data=np.arange(l, dtype="f8"))
            d.make_scale(n)
            d.attrs["units"] = u
        v = f.create_dataset("thetao", shape=(3, 4, 5), dtype="f4", chunks=(1, 4, 5),
                             compression=fid, allow_unknown_filter=True)
        for k in range(3):
            v.id.write_direct_chunk((k, 0, 0), np.arange(20, dtype="f4").tobytes())
        v.attrs["units"] = "degC"
        for i, n in enumerate(("depth", "lat", "lon")):
            v.dims[i].attach_scale(f[n])
PYEOF
  "$PY" filters.py || fail "cannot write the filtered files"
  expect_exit 2 "$PSTENCIL" summary zstd.nc
  expect_err "zstd.nc: variable 'thetao' is compressed with the Zstandard \(zstd\) filter \(HDF5 filter 32015\)"
  expect_exit 2 "$PSTENCIL" run bzip2.nc -o out.nc
  expect_err "bzip2 filter \(HDF5 filter 307\).*hdf5-filter-plugin"
  [ -e out.nc ] && fail "run left an output"
  expect_exit 2 "$PSTENCIL" plot slice blosc.nc -o out.png
  expect_err "Blosc filter \(HDF5 filter 32001\).*hdf5-filter-plugin-blosc-serial"
  expect_exit 2 "$PSTENCIL" compare unknown.nc unknown.nc
  expect_err "HDF5 filter 40000, unknown to this netCDF-C"
else
  echo "filters part skipped: no python3-h5py"
fi
echo "hostile attributes, inputs and filters: refused with the reason"

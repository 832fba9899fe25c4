#!/bin/sh
# Bad input for the reading and writing commands: a clear message, exit 2,
# and no output or temporary file left behind.
. "$top_srcdir/tests/lib.sh"
command -v ncgen >/dev/null 2>&1 || skip "ncgen not installed"
cd "$TMP" || fail "cd"
cdl="$top_srcdir/tests/data/tiny.cdl"

no_leftovers() {
  ls -A | grep -q '\.tmp\.' && fail "$1: temporary file left behind"
  return 0
}

# missing, unreadable-as-NetCDF, empty
expect_exit 2 "$PSTENCIL" summary missing.nc
expect_err "cannot open missing.nc: No such file"
echo "hello, I am not NetCDF at all, just some text" > text.nc
expect_exit 2 "$PSTENCIL" summary text.nc
expect_err "text.nc is not a NetCDF file"
: > empty.nc
expect_exit 2 "$PSTENCIL" summary empty.nc
expect_err "not a NetCDF file"
mkdir adir.nc
expect_exit 2 "$PSTENCIL" summary adir.nc
expect_err "directory"

# truncated classic and 64-bit-offset files (netCDF-C would read zeros)
for kind in classic 64-bit-offset cdf5; do
  ncgen -k $kind -o t.nc "$cdl" || fail "ncgen"
  size=$(wc -c < t.nc)
  truncate -s $((size - 40)) t.nc 2>/dev/null || dd if=/dev/null of=t.nc bs=1 seek=$((size - 40)) 2>/dev/null
  expect_exit 2 "$PSTENCIL" summary t.nc
  expect_err "t.nc is truncated: its header implies at least $size bytes"
  expect_exit 2 "$PSTENCIL" compare t.nc t.nc
  expect_err "truncated"
  rm -f t.nc
done

# damaged headers: a message about the header, never an errno text such as
# "Argument list too long" (the first dimension's name length forged)
ncgen -k classic -o dmg.nc "$cdl" || fail "ncgen dmg"
printf '\177\377\377\377' | dd of=dmg.nc bs=1 seek=16 conv=notrunc 2>/dev/null
expect_exit 2 "$PSTENCIL" summary dmg.nc
expect_err "dmg.nc: damaged NetCDF header at byte [0-9]+: a name of 2147483647 bytes"
grep -q "Argument list too long" "$TMP/err" && fail "damaged header: errno text"
# a classic header longer than the first megabyte the pre-parser reads: still
# parsed to its end (valid file: exit 0; cut inside that header: truncated)
{ sed -e '/^data:/,$d' "$cdl"
  printf '\t\t:big = "'; head -c 1500000 /dev/zero | tr '\0' a; printf '" ;\n'
  sed -n '/^data:/,$p' "$cdl"; } > bighdr.cdl
ncgen -k classic -o bighdr.nc bighdr.cdl || fail "ncgen bighdr"
expect_exit 0 "$PSTENCIL" summary bighdr.nc
head -c 1400000 bighdr.nc > bighdrcut.nc
expect_exit 2 "$PSTENCIL" summary bighdrcut.nc
expect_err "bighdrcut.nc is truncated: the file ends inside its header"
# a truncated netCDF-4 file is truncated, not "not a NetCDF file"
ncgen -k nc4 -o t4.nc "$cdl" || fail "ncgen t4"
size=$(wc -c < t4.nc)
head -c $((size / 2)) t4.nc > t4cut.nc
expect_exit 2 "$PSTENCIL" summary t4cut.nc
expect_err "t4cut.nc is truncated: its HDF5 superblock says the file has $size bytes"
grep -q "not a NetCDF file" "$TMP/err" && fail "truncated netCDF-4 called not NetCDF"
# a file with no time records: its own message, not a range 0..2^64-1
sed -e '/^data:/,$d' "$cdl" > norec.cdl
echo "}" >> norec.cdl
ncgen -o norec.nc norec.cdl || fail "ncgen norec"
for cmd in summary run; do
  if [ $cmd = run ]; then set -- run norec.nc -o norec_out.nc; else set -- summary norec.nc; fi
  expect_exit 2 "$PSTENCIL" "$@"
  expect_err "norec.nc: variable 'thetao' has no time records"
  grep -q 18446744073709551615 "$TMP/err" && fail "$cmd: no records shown as a range"
done
[ -e norec_out.nc ] && fail "run left an output for a file with no records"

# no temperature variable; several candidates; rank < 3; a dimension < 3
sed -e 's/thetao/salinity/g' -e '/standard_name = "sea_water_potential/d' -e '/thetao:units/d' -e 's/"degC"/"psu"/' "$cdl" > nov.cdl
ncgen -o nov.nc nov.cdl || fail "ncgen nov"
expect_exit 2 "$PSTENCIL" summary nov.nc
expect_err "no temperature variable found.*salinity"
sed -e 's/^\(\t\tthetao:long_name.*\)$/\1\n\tfloat votemper(time, depth, lat, lon) ;\n\t\tvotemper:standard_name = "sea_water_temperature" ;/' "$cdl" > amb.cdl
grep -q votemper amb.cdl || fail "could not make the ambiguous file"
ncgen -k nc4 -o amb.nc amb.cdl || fail "ncgen amb"
expect_exit 2 "$PSTENCIL" summary amb.nc
expect_err "several candidate temperature variables.*thetao, votemper.*--var"
expect_exit 0 "$PSTENCIL" summary amb.nc --var thetao
cat > r2.cdl <<'CDL'
netcdf r2 { dimensions: lat = 3 ; lon = 4 ;
variables: float thetao(lat, lon) ; thetao:units = "degC" ;
data: thetao = 1,2,3,4,5,6,7,8,9,10,11,12 ; }
CDL
ncgen -o r2.nc r2.cdl || fail "ncgen r2"
expect_exit 2 "$PSTENCIL" summary r2.nc
expect_err "rank 2"
sed -e 's/lat = 3 ;/lat = 2 ;/' -e 's/lat = 50, 51, 52 ;/lat = 50, 51 ;/' "$cdl" > d2.cdl
# drop the last third of each time record's lat rows: regenerate data of the right size
awk 'BEGIN{p=1} /thetao =/{print; print "  " substr("1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1", 1, 95) " ;"; p=0; next} p==0 && /;/{p=1; next} p' d2.cdl > d2b.cdl
ncgen -o d2.nc d2b.cdl || fail "ncgen d2"
expect_exit 2 "$PSTENCIL" summary d2.nc
expect_err "dimension 'lat' \(latitude\) of 'thetao' has size 2; need at least 3"

# writing: output exists without --force; unwritable/missing directory; a file as directory
"$PSTENCIL" gen -o exists.nc --scale 0.05 >/dev/null || fail "gen"
cp exists.nc before.nc
expect_exit 2 "$PSTENCIL" gen -o exists.nc --scale 0.05 --seed 3
expect_err "exists.nc exists; use --force"
cmp exists.nc before.nc || fail "existing output was modified"
expect_exit 2 "$PSTENCIL" gen -o missing/dir/out.nc --scale 0.05
expect_err "missing/dir"
[ -e missing/dir/out.nc ] && fail "output created"
expect_exit 2 "$PSTENCIL" gen -o before.nc/out.nc --scale 0.05
expect_err "not a directory"
if [ "$(id -u)" != 0 ]; then
  mkdir ro && chmod 555 ro
  expect_exit 2 "$PSTENCIL" gen -o ro/out.nc --scale 0.05
  expect_err "not writable"
  [ -e ro/out.nc ] && fail "output created in a read-only directory"
  chmod 755 ro
fi
no_leftovers "writing refusals"
exit 0

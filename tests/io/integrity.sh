#!/bin/sh
# Integrity of the data read. (1) Every variable of a pstencil output carries
# an HDF5 Fletcher32 checksum: one byte flipped inside the temperature's data
# chunk (found by its values, 17.3 in float32) makes summary, compare and run
# refuse the file as corrupted (exit 2, no output); the intact file reads.
# (2) A netCDF-4 file without checksums damaged the same way, and a classic
# file holding -1.18e29 degC, are refused as holding values no sea
# temperature can have. valid_min/valid_max are respected (CF): a value
# outside them is missing, one inside them is accepted however large; kelvin
# temperatures are not mistaken for implausible ones.
. "$top_srcdir/tests/lib.sh"
for t in ncgen ncdump od dd; do
  command -v $t >/dev/null 2>&1 || skip "$t not available"
done
cd "$TMP" || exit 1

# mk NAME UNITS V0 [ATTRS]: a small file whose first level is 17.3 except its
# first cell V0; the rest 10..19; ATTRS extra CDL attribute lines of thetao
mk() {
  cat > "$1.cdl" <<CDL
netcdf $1 {
dimensions:
	time = UNLIMITED ; depth = 3 ; lat = 4 ; lon = 5 ;
variables:
	double time(time) ; time:units = "days since 2000-01-01" ; time:calendar = "standard" ;
	double depth(depth) ; depth:units = "m" ; depth:positive = "down" ;
	double lat(lat) ; lat:units = "degrees_north" ;
	double lon(lon) ; lon:units = "degrees_east" ;
	float thetao(time, depth, lat, lon) ; thetao:units = "$2" ;
		thetao:standard_name = "sea_water_potential_temperature" ;
		thetao:_FillValue = 1.e+20f ;
${4:-}
data:
 time = 0 ; depth = 1, 2, 3 ; lat = 10, 11, 12, 13 ; lon = 20, 21, 22, 23, 24 ;
 thetao = $3, 17.3, 17.3, 17.3, 17.3, 17.3, 17.3, 17.3, 17.3, 17.3,
  17.3, 17.3, 17.3, 17.3, 17.3, 17.3, 17.3, 17.3, 17.3, 17.3,
  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19 ;
}
CDL
}
# offset FILE: the byte offset of the first two float32 17.3 in a row (66 66 8a 41)
offset() {
  od -An -v -tu1 "$1" | tr -s ' ' '\n' | awk 'NF { b[n++] = $1 }
    END { for (i = 0; i + 7 < n; i++)
            if (b[i] == 102 && b[i+1] == 102 && b[i+2] == 138 && b[i+3] == 65 &&
                b[i+4] == 102 && b[i+5] == 102 && b[i+6] == 138 && b[i+7] == 65) { print i; exit } }'
}
# flip FILE OFFSET: overwrite one byte (0x71: a float's exponent byte becomes huge)
flip() { printf '\161' | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null || fail "dd"; }

# 1. our own files: checksums on every variable, a damaged chunk is found
mk src degC 17.3
ncgen -k nc4 -o src.nc src.cdl || fail "ncgen"
expect_exit 0 "$PSTENCIL" run src.nc -n 0 -o out.nc -b reference -q
ncdump -hs out.nc > h.txt
for v in time step depth lat lon thetao; do
  grep -q "$v:_Fletcher32 = \"true\"" h.txt || { cat h.txt; fail "$v has no Fletcher32 checksum"; }
done
off=$(offset out.nc)
[ -n "$off" ] || fail "the data chunk of out.nc was not found"
cp out.nc bad.nc
flip bad.nc $((off + 3))
cmp -s out.nc bad.nc && fail "the flip changed nothing"
for cmd in "summary bad.nc" "compare bad.nc out.nc" "compare out.nc bad.nc"; do
  expect_exit 2 "$PSTENCIL" $cmd
  expect_err "bad.nc: the file is corrupted: 'thetao' \(time 0\) fails its Fletcher32 checksum"
done
expect_exit 2 "$PSTENCIL" run bad.nc -n 1 -o r.nc -b reference -q
expect_err "bad.nc: the file is corrupted"
[ ! -e r.nc ] || fail "run on a corrupted file wrote r.nc"
expect_exit 0 "$PSTENCIL" summary out.nc
expect_exit 0 "$PSTENCIL" compare out.nc out.nc

# 2. other producers' files, no checksum: implausible values are refused
off=$(offset src.nc)
[ -n "$off" ] || fail "the data of src.nc was not found"
cp src.nc bad4.nc
flip bad4.nc $((off + 3))
for cmd in "summary bad4.nc" "compare bad4.nc src.nc" "run bad4.nc -n 1 -o r.nc -b reference -q"; do
  expect_exit 2 "$PSTENCIL" $cmd
  expect_err "bad4.nc: 'thetao' \(time 0\) holds 1 value no sea temperature can have \(first at level 0, row 0, column 0"
  expect_err "no checksum to tell"
done
[ ! -e r.nc ] || fail "run on an implausible file wrote r.nc"
mk huge degC -1.18e29
ncgen -o huge.nc huge.cdl || fail "ncgen"
expect_exit 2 "$PSTENCIL" summary huge.nc
expect_err "huge.nc: 'thetao' \(time 0\) holds 1 value no sea temperature can have .*-1.18e\+29 degC"
# CF: outside valid_min/valid_max is missing (read as land); inside is kept
mk vr degC -1.18e29 '		thetao:valid_min = -2000.f ; thetao:valid_max = 2000.f ;'
ncgen -o vr.nc vr.cdl || fail "ncgen"
expect_exit 0 "$PSTENCIL" run vr.nc -n 1 -o vr_out.nc -b reference -q
ncdump -v thetao vr_out.nc | sed -n '/^ thetao =/,$p' | sed -n 2p | grep -q "^  _," ||
  fail "a value outside valid_min/valid_max was not read as missing"
mk vr2 degC 1500 '		thetao:valid_range = -2000.f, 2000.f ;'
ncgen -o vr2.nc vr2.cdl || fail "ncgen"
expect_exit 0 "$PSTENCIL" summary vr2.nc
grep -q "1500" "$TMP/out" || { cat "$TMP/out"; fail "a value inside valid_range was not kept"; }
mk big degC 1500
ncgen -o big.nc big.cdl || fail "ncgen"
expect_exit 2 "$PSTENCIL" summary big.nc
expect_err "give 'thetao' valid_min and valid_max attributes"
# kelvin: 290 K is a sea temperature, 1500 K is not
mk kel K 290
ncgen -o kel.nc kel.cdl || fail "ncgen"
expect_exit 0 "$PSTENCIL" summary kel.nc
mk kel2 K 1500
ncgen -o kel2.nc kel2.cdl || fail "ncgen"
expect_exit 2 "$PSTENCIL" summary kel2.nc
expect_err "1500 K"
exit 0

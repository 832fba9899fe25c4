#!/bin/sh
# Every bad input of issue 2 through `pstencil run`: a clear message naming
# the problem, exit 2, and no output file (nor temporary file) left behind.
. "$top_srcdir/tests/lib.sh"
command -v ncgen >/dev/null 2>&1 || skip "ncgen not available"
cd "$TMP" || exit 1
mkdir o

# bad CMD... : expect exit 2, stderr matching $want, and o/ still empty
bad() {
  want=$1; shift
  expect_exit 2 "$@"
  expect_err "pstencil: error: "
  expect_err "$want"
  [ -z "$(ls -A o)" ] || { ls -la o; fail "'$*' left files behind"; }
}

cat > good.cdl <<'CDL'
netcdf good {
dimensions: time = UNLIMITED ; depth = 3 ; latitude = 4 ; longitude = 5 ;
variables:
  float depth(depth) ; depth:units = "m" ; depth:positive = "down" ;
  float latitude(latitude) ; latitude:units = "degrees_north" ;
  float longitude(longitude) ; longitude:units = "degrees_east" ;
  double time(time) ; time:units = "hours since 2024-01-01" ;
  float thetao(time, depth, latitude, longitude) ;
    thetao:standard_name = "sea_water_potential_temperature" ; thetao:units = "degrees_C" ;
    thetao:_FillValue = 1.e+20f ;
data:
  depth = 1, 2, 3 ; latitude = 50, 51, 52, 53 ; longitude = 0, 1, 2, 3, 4 ; time = 0 ;
  thetao = 1,2,3,4,5, 6,7,8,9,10, 11,12,13,14,15, 16,17,18,19,20,
           1,2,3,4,5, 6,7,8,9,10, 11,12,13,14,15, 16,17,18,19,20,
           1,2,3,4,5, 6,7,8,9,10, 11,12,13,14,15, 16,17,18,19,20 ;
}
CDL
ncgen -k classic -o good.nc good.cdl || fail "ncgen good"

# missing, unreadable-as-NetCDF, truncated
bad "nosuch.nc" "$PSTENCIL" run nosuch.nc -o o/o.nc
echo "this is not a netcdf file" > text.nc
bad "text.nc.*(not|NetCDF)" "$PSTENCIL" run text.nc -o o/o.nc
size=$(wc -c < good.nc)
head -c $((size - 40)) good.nc > trunc.nc
bad "trunc.nc.*(truncat|shorter)" "$PSTENCIL" run trunc.nc -o o/o.nc

# no temperature variable; several candidates; rank < 3; dimension < 3
sed -e 's/thetao/salinity/g' -e 's/sea_water_potential_temperature/sea_water_salinity/' \
    -e 's/"degrees_C"/"1e-3"/' good.cdl > nosal.cdl
ncgen -k classic -o notemp.nc nosal.cdl || fail "ncgen notemp"
bad "(no temperature|temperature variable)" "$PSTENCIL" run notemp.nc -o o/o.nc
sed -e 's/^  float thetao(/  float votemper(time, depth, latitude, longitude) ; votemper:units = "degrees_C" ; float thetao(/' \
    -e 's/:standard_name = "sea_water_potential_temperature" ;/:long_name = "t" ;/' \
    -e 's/^  thetao = /  votemper = 1,2,3,4,5, 6,7,8,9,10, 11,12,13,14,15, 16,17,18,19,20, 1,2,3,4,5, 6,7,8,9,10, 11,12,13,14,15, 16,17,18,19,20, 1,2,3,4,5, 6,7,8,9,10, 11,12,13,14,15, 16,17,18,19,20 ; thetao = /' \
    good.cdl > two.cdl
ncgen -k classic -o two.nc two.cdl || fail "ncgen two"
bad "(thetao.*votemper|votemper.*thetao)" "$PSTENCIL" run two.nc -o o/o.nc
cat > rank2.cdl <<'CDL'
netcdf rank2 {
dimensions: latitude = 4 ; longitude = 5 ;
variables:
  float latitude(latitude) ; latitude:units = "degrees_north" ;
  float longitude(longitude) ; longitude:units = "degrees_east" ;
  float thetao(latitude, longitude) ; thetao:standard_name = "sea_water_potential_temperature" ; thetao:units = "degrees_C" ;
data: latitude = 1,2,3,4 ; longitude = 1,2,3,4,5 ; thetao = 1,2,3,4,5,1,2,3,4,5,1,2,3,4,5,1,2,3,4,5 ;
}
CDL
ncgen -k classic -o rank2.nc rank2.cdl || fail "ncgen rank2"
bad "(rank|dimension)" "$PSTENCIL" run rank2.nc -o o/o.nc
sed -e 's/depth = 3 ;/depth = 2 ;/' -e 's/depth = 1, 2, 3 ;/depth = 1, 2 ;/' good.cdl | \
  awk '/thetao = /{print "  thetao = 1,2,3,4,5, 6,7,8,9,10, 11,12,13,14,15, 16,17,18,19,20, 1,2,3,4,5, 6,7,8,9,10, 11,12,13,14,15, 16,17,18,19,20 ;"; skip=1; next} skip&&/;/{skip=0; next} !skip' > thin.cdl
ncgen -k classic -o thin.nc thin.cdl || fail "ncgen thin"
bad "depth.*(2|< ?3|at least 3)" "$PSTENCIL" run thin.nc -o o/o.nc

# option values
bad "steps.*(negative|range|>= 0)" "$PSTENCIL" run good.nc -o o/o.nc --steps -3
bad "steps.*not a whole number" "$PSTENCIL" run good.nc -o o/o.nc --steps ten
bad "steps.*not a whole number" "$PSTENCIL" run good.nc -o o/o.nc --steps 2.5
# a whole number too large for a long is "too large", not "not a whole number"
bad "steps: 99999999999999999999 is too large" "$PSTENCIL" run good.nc -o o/o.nc --steps 99999999999999999999
bad "coeff.*finite" "$PSTENCIL" run good.nc -o o/o.nc --coeff inf
bad "coeff.*(finite|number)" "$PSTENCIL" run good.nc -o o/o.nc --coeff nan
bad "time-index 1 is out of range" "$PSTENCIL" run good.nc -o o/o.nc --time-index 1

# output problems
bad "(nodir|directory|No such)" "$PSTENCIL" run good.nc -o o/nodir/o.nc --backend reference
touch o/exists.nc
expect_exit 2 "$PSTENCIL" run good.nc -o o/exists.nc --backend reference
expect_err "exists"
[ ! -s o/exists.nc ] || fail "existing output was clobbered"
[ "$(ls -A o)" = "exists.nc" ] || { ls -la o; fail "temporary files left behind"; }
rm o/exists.nc
cp good.nc o/same.nc
expect_exit 2 "$PSTENCIL" run o/same.nc -o o/same.nc --force --backend reference
expect_err "(same|input)"
cmp -s good.nc o/same.nc || fail "the input was modified"
ln -s same.nc o/alias.nc
expect_exit 2 "$PSTENCIL" run o/same.nc -o o/alias.nc --force --backend reference
expect_err "(same|input)"
cmp -s good.nc o/same.nc || fail "the input was modified through a link"
rm o/same.nc o/alias.nc

# a grid that declares far more data than the file holds (netCDF-4 stores no
# data for unwritten chunks): refused before reading, not read as fill
cat > huge.cdl <<'CDL'
netcdf huge {
dimensions: depth = 4000 ; latitude = 100000 ; longitude = 100000 ;
variables:
  float depth(depth) ; depth:units = "m" ;
  float latitude(latitude) ; latitude:units = "degrees_north" ;
  float longitude(longitude) ; longitude:units = "degrees_east" ;
  float thetao(depth, latitude, longitude) ; thetao:units = "degrees_C" ; thetao:standard_name = "sea_water_potential_temperature" ;
    thetao:_ChunkSizes = 1, 100, 100 ;
}
CDL
ncgen -k nc4 -o huge.nc huge.cdl || fail "ncgen huge"
bad "huge.nc is truncated or its data were never written: variable 'thetao' declares" \
  "$PSTENCIL" run huge.nc -o o/o.nc --backend reference

# a backend that cannot run is an error with the reason, never a fallback
bad "(cuda|CUDA)" "$PSTENCIL" run good.nc -o o/o.nc --backend cuda
bad "no_such" "$PSTENCIL" run good.nc -o o/o.nc --backend no_such
echo "bad input: ok"

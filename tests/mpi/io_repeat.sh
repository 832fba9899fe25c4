#!/bin/sh
# The parallel output is written intact every time, not just usually: a file
# stored depth-descending, 3 ranks over depth, 21 records per output, written
# 6 times; each output must pass every Fletcher32 checksum and be bitwise the
# one-process output. Open MPI's MPI-IO before 4.1.7 / 5.0.6 overwrote
# neighbouring ranks' bytes with unlocked write data sieving in about 4 of 5
# such outputs (mpi/ps_mpi_init.c turns it off).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/mpi/lib.sh"
command -v ncgen >/dev/null 2>&1 || skip "no ncgen (netcdf-bin) to make the input"
cd "$TMP" || fail "no temporary directory"
ncgen -o in.nc "$top_srcdir/tests/data/cf_descending.cdl" || fail "ncgen cf_descending"
expect_exit 0 "$PSTENCIL" run in.nc -b reference -n 20 --output-every 1 -o one.nc
i=1
while [ $i -le 6 ]; do
  expect_exit 0 mpirun_p 3 run in.nc -b reference -n 20 --output-every 1 --halo 1 \
    --decomp 3x1x1 -o out.nc
  expect_exit 0 "$PSTENCIL" compare one.nc out.nc
  rm -f out.nc
  i=$((i + 1))
done
echo "6 parallel writes of 21 records: every one intact and bitwise the one-process output"

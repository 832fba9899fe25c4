#!/bin/sh
# mpirun -np 4 with --output-every writes the same snapshots (every record,
# the time and step axes) as one process.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/mpi/lib.sh"
cd "$TMP" || fail "no temporary directory"
expect_exit 0 "$PSTENCIL" gen --scale 0.05 -o small.nc
expect_exit 0 "$PSTENCIL" run small.nc -b reference -n 12 --output-every 5 -o one.nc
expect_exit 0 mpirun_p 4 run small.nc -b reference -n 12 --output-every 5 --decomp 2x1x2 \
  --halo 3 -o four.nc
expect_exit 0 "$PSTENCIL" compare one.nc four.nc
command -v ncdump >/dev/null 2>&1 || { echo "no ncdump: time axes not compared"; exit 0; }
ncdump -v time,step one.nc | sed -n '/^data:/,$p' > one.txt
ncdump -v time,step four.nc | sed -n '/^data:/,$p' > four.txt
cmp -s one.txt four.txt || { diff one.txt four.txt; fail "the time or step axes differ"; }
grep -q 'step = 0, 5, 10, 12' four.txt || { cat four.txt; fail "records are not steps 0, 5, 10, 12"; }
echo "4 ranks, --output-every 5: the same 4 snapshots as one process"
exit 0

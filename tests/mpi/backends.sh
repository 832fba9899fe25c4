#!/bin/sh
# mpirun with the openmp and opencl (PoCL) backends per rank: bitwise the
# one-process run of the same backend. A backend that does not run here is
# said and left out; the test skips if neither runs.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/mpi/lib.sh"
cd "$TMP" || fail "no temporary directory"
ran=0
for b in openmp opencl; do
  "$PSTENCIL" backends 2>/dev/null | grep -Eq "^$b .*ok: " || { echo "$b: not available here"; continue; }
  expect_exit 0 "$PSTENCIL" run -b "$b" -n 7 -o one.nc --force
  want=$(sum)
  for spec in "2 1x2x1" "4 2x1x2"; do
    set -- $spec
    expect_exit 0 mpirun_p "$1" run -b "$b" -t 1 -n 7 --halo 3 --decomp "$2" -o out.nc
    [ "$(sum)" = "$want" ] || fail "$b P=$1 $2: checksum $(sum), one process $want"
    expect_exit 0 "$PSTENCIL" compare one.nc out.nc
    rm -f out.nc
    echo "$b P=$1 $2: bitwise the one-process output ($want)"
  done
  ran=1
done
[ "$ran" = 1 ] || skip "neither openmp nor opencl runs here"
exit 0

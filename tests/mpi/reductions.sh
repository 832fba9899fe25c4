#!/bin/sh
# mpirun -np 1, 2 and 3 (and 3 ranks laid out along each axis) write bitwise
# the reductions of one process (every record's content, volume, mean,
# minimum and maximum of thetao), for diffusion7 in float and hdiff in double:
# the partial sums of the ranks are combined exactly, not rounded per rank.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/mpi/lib.sh"
command -v ncdump >/dev/null 2>&1 || skip "ncdump is not installed"
cd "$TMP" || fail "no temporary directory"
red() {
  ncdump -v thetao_content,thetao_volume,thetao_mean,thetao_min,thetao_max -p 17,17 "$1" |
    sed -n '/^data:/,$p' > "$1.red" || fail "ncdump $1"
  [ "$(grep -c ' = ' "$1.red")" -eq 5 ] || { cat "$1.red" >&2; fail "$1: not five reductions"; }
}
expect_exit 0 "$PSTENCIL" gen --scale 0.1 -o small.nc
for case in "diffusion7 float" "hdiff double"; do
  set -- $case
  common="small.nc --stencil $1 --precision $2 -b reference -n 6 --output-every 3 --force"
  # shellcheck disable=SC2086
  expect_exit 0 "$PSTENCIL" run $common -o one.nc
  red one.nc
  for p in "1" "2" "3" "3 --decomp 3x1x1" "3 --decomp 1x3x1" "3 --decomp 1x1x3"; do
    set -- $p
    np=$1
    shift
    # shellcheck disable=SC2086
    expect_exit 0 mpirun_p "$np" run $common "$@" -o mpi.nc
    red mpi.nc
    cmp -s one.nc.red mpi.nc.red ||
      { diff one.nc.red mpi.nc.red >&2; fail "$case, -np $p: reductions differ from one process"; }
    echo "$case, -np $p: reductions bitwise one process's"
  done
done
exit 0

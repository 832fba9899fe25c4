#!/bin/sh
# tracer (currents as auxiliary inputs) under mpirun -np 1, 2 and 3 (and 3
# ranks along each axis) writes bitwise the records of one process, float64,
# several records: every rank reads the whole currents and masks them with the
# land of the whole grid (summed over the ranks). Also with --velocity FILE,
# and on the built-in ocean's gyre.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/mpi/lib.sh"
command -v ncks >/dev/null 2>&1 || skip "ncks (NCO) is not installed"
cd "$TMP" || fail "no temporary directory"
expect_exit 0 "$PSTENCIL" gen --scale 0.1 -o small.nc
ncks -O -x -v uo,vo small.nc nocur.nc || fail "ncks nocur"
ncks -O -v uo,vo small.nc vel.nc || fail "ncks vel"
common="--stencil tracer --precision double -b reference -n 6 --output-every 2 --force"
for src in "small.nc" "nocur.nc --velocity vel.nc"; do
  # shellcheck disable=SC2086
  expect_exit 0 "$PSTENCIL" run $src $common -o one.nc
  want=$(sum)
  for p in "1" "2" "3" "3 --decomp 3x1x1" "3 --decomp 1x3x1" "3 --decomp 1x1x3"; do
    set -- $p
    np=$1
    shift
    # shellcheck disable=SC2086
    expect_exit 0 mpirun_p "$np" run $src $common "$@" -o mpi.nc
    [ "$(sum)" = "$want" ] || fail "$src, -np $p: checksum $(sum), one process $want"
    expect_exit 0 "$PSTENCIL" compare one.nc mpi.nc
    echo "$src, -np $p: every record bitwise one process's"
  done
done
# the built-in ocean's gyre over 3 ranks
expect_exit 0 "$PSTENCIL" run --stencil tracer -b reference -n 2 -o one.nc --force
want=$(sum)
expect_exit 0 mpirun_p 3 run --stencil tracer -b reference -n 2 -o mpi.nc --force
[ "$(sum)" = "$want" ] || fail "built-in ocean, -np 3: $(sum), one process $want"
grep -q "input u     : the built-in ocean's gyre" out || { cat out >&2; fail "-np 3: no gyre said"; }
echo "built-in ocean, -np 3: bitwise one process's"
# two fields (--tracers thetao,so): every rank steps both, each bitwise one process's
fsum() { sed -n "s/^  fields      :.*[ ,] *$1 \(0x[0-9a-f]*\).*/\1/p" "$TMP/out"; }
two="small.nc $common --tracers thetao,so"
# shellcheck disable=SC2086
expect_exit 0 "$PSTENCIL" run $two -o one.nc
want_t=$(fsum thetao)
want_s=$(fsum so)
[ -n "$want_t" ] && [ -n "$want_s" ] || { cat out >&2; fail "two fields: no checksums"; }
for p in "3" "3 --decomp 1x1x3"; do
  set -- $p
  np=$1
  shift
  # shellcheck disable=SC2086
  expect_exit 0 mpirun_p "$np" run $two "$@" -o mpi.nc
  [ "$(fsum thetao)" = "$want_t" ] && [ "$(fsum so)" = "$want_s" ] ||
    fail "two fields, -np $p: $(fsum thetao) $(fsum so), one process $want_t $want_s"
  for v in thetao so; do
    for r in "" _content _mean _min _max; do
      [ "$(ncdump -v $v$r -p 9,17 one.nc | sed -n '/^data:/,$p')" = \
        "$(ncdump -v $v$r -p 9,17 mpi.nc | sed -n '/^data:/,$p')" ] ||
        fail "two fields, -np $p: $v$r differs"
    done
  done
  echo "two fields, -np $p: every record and reduction bitwise one process's"
done
exit 0

#!/bin/sh
# mpirun -np P pstencil run: every P of 1, 2, 3, 4, 6, 8 with layouts 1x1xP,
# Px1x1, 2x2x2 and uneven ones, halo 1 and 3, 1, 7 and 20 steps, float and
# double, on the built-in ocean and on a small odd-sized grid: the output file
# is bitwise the one-process output (pstencil compare, over every record) and
# the reported checksum the one-process checksum. A representative subset of
# the cross product, every listed value covered (the table below); 1x1x8 on 12
# columns has boxes narrower than the halo of 3, which then reaches past the
# neighbour.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/mpi/lib.sh"
cd "$TMP" || fail "no temporary directory"
expect_exit 0 "$PSTENCIL" gen --scale 0.05 -o small.nc   # 50 x 11 x 12
B=reference
# P  decomposition  halo  steps  precision  input
cases="1 1x1x1 1 7 float ocean
2 1x1x2 3 20 double small
2 2x1x1 1 1 float ocean
3 1x3x1 3 7 float small
3 3x1x1 1 20 double small
4 1x1x4 1 1 double ocean
4 4x1x1 3 7 float small
4 default 3 1 double small
6 1x2x3 1 7 double small
6 3x2x1 3 20 float small
8 2x2x2 3 7 float ocean
8 default 1 7 double small
8 1x1x8 3 7 float small"
n=0
echo "$cases" | while read -r p dec halo steps prec input; do
  in=; [ "$input" = small ] && in=small.nc
  ref="one-$input-$steps-$prec.nc"
  if [ ! -e "$ref" ]; then
    # shellcheck disable=SC2086
    expect_exit 0 "$PSTENCIL" run $in -b $B -n "$steps" -p "$prec" -o "$ref"
    sum > "$ref.sum"
  fi
  d=; [ "$dec" = default ] || d="--decomp $dec"
  # shellcheck disable=SC2086
  expect_exit 0 mpirun_p "$p" run $in -b $B -n "$steps" -p "$prec" --halo "$halo" $d -o out.nc
  got=$(sum)
  [ "$got" = "$(cat "$ref.sum")" ] || fail "P=$p $dec halo $halo: checksum $got, one process $(cat "$ref.sum")"
  grep -q "ranks       : $p," "$TMP/out" || { cat "$TMP/out"; fail "P=$p: the report names other ranks"; }
  expect_exit 0 "$PSTENCIL" compare "$ref" out.nc
  ls .out.nc.tmp.* >/dev/null 2>&1 && fail "P=$p $dec: a temporary file was left"
  echo "P=$p $dec halo $halo steps $steps $prec $input: bitwise the one-process output ($got)"
  rm -f out.nc
  n=$((n + 1))
done || exit 1
# the input conventions each rank's block is read through (packed shorts, depth stored
# bottom first, NEMO's dimension names and order, CDO's): bitwise one process
if command -v ncgen >/dev/null 2>&1; then
  for c in cf_cmems cf_descending cf_nemo cf_cdo; do
    ncgen -o "$c.nc" "$top_srcdir/tests/data/$c.cdl" || fail "ncgen $c"
    expect_exit 0 "$PSTENCIL" run "$c.nc" -b $B -n 7 -o "one-$c.nc"
    want=$(sum)
    case $c in cf_descending|cf_nemo) spec="3 3x1x1" ;; *) spec="6 1x2x3" ;; esac
    set -- $spec
    expect_exit 0 mpirun_p "$1" run "$c.nc" -b $B -n 7 --halo 1 --decomp "$2" -o out.nc
    [ "$(sum)" = "$want" ] || fail "$c P=$1 $2: checksum $(sum), one process $want"
    expect_exit 0 "$PSTENCIL" compare "one-$c.nc" out.nc
    rm -f out.nc
    echo "$c P=$1 $2: bitwise the one-process output ($want)"
  done
else
  echo "no ncgen: the file-convention cases are left out"
fi
exit 0

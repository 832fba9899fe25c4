#!/bin/sh
# The reductions of every record (thetao_content, _volume, _mean, _min, _max)
# are bitwise the same on every backend that runs here (reference, openmp,
# opencl), every thread count (the reduction itself on 1 and 3 threads), block
# shape, box split (--split) and out-of-core plan (--max-device-memory), for
# diffusion7 in float and hdiff in double, one value per record; and they
# change when the field does (the comparison can fail).
. "$top_srcdir/tests/lib.sh"
command -v ncdump >/dev/null 2>&1 || skip "ncdump is not installed"
cd "$TMP" || fail "cd"
has() { "$PSTENCIL" backends 2>/dev/null | grep -Eq "^$1 .*ok: "; }
slabs() { sed -n 's/^  out of core : \([0-9]*\) slabs.*/\1/p' "$TMP/out"; }
boxes() { sed -n 's/^  boxes       : \([0-9]*\) .*/\1/p' "$TMP/out"; }
# the five series of FILE, every digit, into FILE.red
red() {
  ncdump -v thetao_content,thetao_volume,thetao_mean,thetao_min,thetao_max -p 17,17 "$1" |
    sed -n '/^data:/,$p' > "$1.red" || fail "ncdump $1"
  [ "$(grep -c ' = ' "$1.red")" -eq 5 ] || { cat "$1.red" >&2; fail "$1: not five reductions"; }
}
expect_exit 0 "$PSTENCIL" gen --scale 0.3 -o in.nc

for case in "diffusion7 float" "hdiff double"; do
  set -- $case
  st=$1 prec=$2
  common="in.nc --stencil $st --precision $prec --steps 6 --output-every 2 --force"
  expect_exit 0 "$PSTENCIL" run $common --backend reference -o ref.nc
  red ref.nc
  # four records: step 0, 2, 4, 6
  n=$(tr -d '\n' < ref.nc.red | sed 's/.*thetao_mean = \([^;]*\);.*/\1/' | tr ',' '\n' |
    grep -c '[0-9]')
  [ "$n" -eq 4 ] || fail "$st: $n means for 4 records"
  i=0
  for v in "--backend openmp --threads 1" "--backend openmp --threads 4" \
           "--backend openmp --threads 2 --block 8,4" "--backend opencl" \
           "--backend opencl --block 16,2" "--backend reference --split 2x3x2" \
           "--backend openmp --split 3x1x2 --halo 3" "--backend openmp --max-device-memory 1M" \
           "--backend reference --split 1x2x1 --threads 1"; do
    b=$(echo "$v" | sed 's/--backend \([a-z]*\).*/\1/')
    has "$b" || { echo "$b: not available here"; continue; }
    i=$((i + 1))
    # shellcheck disable=SC2086
    expect_exit 0 "$PSTENCIL" run $common $v -o v$i.nc
    case "$v" in
      *max-device-memory*) [ "$(slabs)" -ge 2 ] || fail "$st $v: not out of core";;
      *split*) [ "$(boxes)" -ge 2 ] || fail "$st $v: not in boxes";;
    esac
    red v$i.nc
    cmp -s ref.nc.red v$i.nc.red ||
      { diff ref.nc.red v$i.nc.red >&2; fail "$st $prec, $v: reductions differ from reference"; }
    echo "$st $prec, $v: reductions bitwise the reference's"
  done
  # the comparison can fail: another record of the input gives other reductions
  # shellcheck disable=SC2086
  expect_exit 0 "$PSTENCIL" run $common --time-index 1 --backend reference -o other.nc
  red other.nc
  ! cmp -s ref.nc.red other.nc.red || fail "$st: the reductions did not change with the field"
done
exit 0

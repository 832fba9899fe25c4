#!/bin/sh
# Restart: pstencil run records its stencil, parameters, precision and seconds
# per step in the output (pstencil_* attributes), and `run --continue OUT.nc`
# goes on from OUT's last record. For diffusion7 and hdiff, in float and
# double: N steps in one run = N/2 + N/2 chained, bitwise, and the step count
# and time go on (the chain joined with ncrcat has step 0..N and a strictly
# increasing time equal to the one-run time). Options that contradict the
# record, a file that is not a run output, an input besides --continue and
# -n 0 are refused (exit 2, no output).
. "$top_srcdir/tests/lib.sh"
for t in ncgen ncdump ncks ncrcat; do
  command -v $t >/dev/null 2>&1 || skip "$t not available (netcdf-bin, nco)"
done
cd "$TMP" || exit 1
ncgen -o in.nc "$top_srcdir/tests/data/cf_cmems.cdl" || fail "ncgen"
R="-b reference -q"

# values of variable $2 of file $1, one per line, at full precision
values() {
  ncdump -p 9,17 -v "$2" "$1" |
    awk -v v=" $2 =" 'index($0, v) == 1 { on = 1; $0 = substr($0, length(v) + 1) }
                       on { last = index($0, ";"); gsub(/[;,]/, " "); print; if (last) exit }' |
    tr -s ' ' '\n' | grep -v '^$'
}

N=6; H=3
for s in diffusion7 hdiff; do
  case $s in
    diffusion7) opts="-D 0.15" ;;
    hdiff) opts="--stencil hdiff --kh 800 --kv 2e-5 --dt auto" ;;
  esac
  for p in float double; do
    c="$s-$p"
    expect_exit 0 "$PSTENCIL" run in.nc $opts -p $p -n $N --output-every $H -o $c-full.nc $R
    expect_exit 0 "$PSTENCIL" run in.nc $opts -p $p -n $H --output-every 1 -o $c-a.nc $R
    expect_exit 0 "$PSTENCIL" run --continue $c-a.nc -n $H --output-every 1 -o $c-b.nc $R
    # the record
    ncdump -h $c-a.nc > h.txt
    grep -q "pstencil_stencil = \"$s\"" h.txt || { cat h.txt; fail "$c: stencil not recorded"; }
    case $p in float) pn=float32 ;; double) pn=float64 ;; esac
    grep -q "pstencil_precision = \"$pn\"" h.txt || fail "$c: precision not recorded"
    grep -q "pstencil_seconds_per_step = " h.txt || fail "$c: seconds per step not recorded"
    case $s in
      diffusion7) grep -q "pstencil_coeff = 0.15 ;" h.txt || fail "$c: D not recorded" ;;
      hdiff)
        grep -Eq "pstencil_kh = 800\.? ;" h.txt || fail "$c: Kh not recorded"
        grep -Eq "pstencil_kv = 2\.?e-05 ;" h.txt || fail "$c: Kv not recorded"
        grep -Eq "pstencil_dt = [0-9]" h.txt || fail "$c: dt not recorded as a number" ;;
    esac
    ncdump -h $c-b.nc | grep -q "pstencil_input = \"$c-a.nc\"" || fail "$c: input not named"
    # N steps = N/2 + N/2, bitwise: the last record of the one run and of the chain
    ncks -O -d time,2 $c-full.nc $c-last.nc || fail "ncks"
    values $c-last.nc thetao > full.txt
    ncks -O -d time,$((H - 1)) $c-b.nc $c-blast.nc || fail "ncks"
    values $c-blast.nc thetao > chain.txt
    [ -s full.txt ] || fail "$c: no values read"
    cmp -s full.txt chain.txt || fail "$c: $N steps differ from $H + $H continued"
    # the chain: step 0..N, time strictly increasing, the one run's time at N/2 and N
    ncrcat -O $c-a.nc $c-b.nc $c-chain.nc || fail "$c: ncrcat"
    [ "$(values $c-chain.nc step | tr '\n' ' ')" = "0 1 2 3 4 5 6 " ] ||
      fail "$c: chained step is $(values $c-chain.nc step | tr '\n' ' ')"
    values $c-chain.nc time | awk 'NR > 1 && $1 <= prev { bad = 1 } { prev = $1 } END { exit bad }' ||
      fail "$c: chained time is not strictly increasing: $(values $c-chain.nc time | tr '\n' ' ')"
    [ "$(values $c-chain.nc time | sed -n '1p;4p;7p' | tr '\n' ' ')" = \
      "$(values $c-full.nc time | tr '\n' ' ')" ] ||
      fail "$c: chained time differs from the one run's: $(values $c-chain.nc time | tr '\n' ' ')"
  done
done

# a third link goes on counting
expect_exit 0 "$PSTENCIL" run --continue diffusion7-float-b.nc -n 2 -o third.nc $R
[ "$(values third.nc step | tr '\n' ' ')" = "8 " ] || fail "third link: step $(values third.nc step)"
# options that agree with the record are accepted
expect_exit 0 "$PSTENCIL" run --continue diffusion7-float-a.nc -D 0.15 -p float --stencil diffusion7 \
  -n 1 -o agree.nc $R
expect_exit 0 "$PSTENCIL" run --continue hdiff-double-a.nc --kh 800 -n 1 -o agree2.nc $R

# refused, with nothing written
expect_exit 2 "$PSTENCIL" run --continue diffusion7-float-a.nc -D 0.2 -n 1 -o r.nc $R
expect_err "coeff 0.2 contradicts diffusion7-float-a.nc, which ran diffusion7 with --coeff 0.15"
expect_exit 2 "$PSTENCIL" run --continue hdiff-float-a.nc --kv 1e-5 -n 1 -o r.nc $R
expect_err "kv 1e-5 contradicts"
expect_exit 2 "$PSTENCIL" run --continue hdiff-float-a.nc --dt auto -n 1 -o r.nc $R
expect_err "dt auto contradicts"
expect_exit 2 "$PSTENCIL" run --continue diffusion7-float-a.nc --stencil hdiff -n 1 -o r.nc $R
expect_err "stencil hdiff contradicts .*which ran stencil diffusion7"
expect_exit 2 "$PSTENCIL" run --continue diffusion7-float-a.nc -p double -n 1 -o r.nc $R
expect_err "precision float64 contradicts .*which ran in float32"
expect_exit 2 "$PSTENCIL" run --continue diffusion7-float-a.nc --dt 60 -n 1 -o r.nc $R
expect_err "dt 60 contradicts"
expect_exit 2 "$PSTENCIL" run --continue diffusion7-float-a.nc --time-index 0 -n 1 -o r.nc $R
expect_err "starts from the last record"
expect_exit 2 "$PSTENCIL" run --continue in.nc -n 1 -o r.nc $R
expect_err "in.nc: not the output of pstencil run"
expect_exit 2 "$PSTENCIL" run in.nc --continue diffusion7-float-a.nc -n 1 -o r.nc $R
expect_err "either an input or --continue"
expect_exit 2 "$PSTENCIL" run --continue diffusion7-float-a.nc -n 0 -o r.nc $R
expect_err "n 0 would add no step"
expect_exit 2 "$PSTENCIL" run --continue diffusion7-float-a.nc -n 1 -o diffusion7-float-a.nc $R
expect_err "is the input file"
[ ! -e r.nc ] || fail "a refused --continue left r.nc"
ls -a | grep -q '\.tmp\.' && fail "a temporary file was left: $(ls -a)"
exit 0

#!/bin/sh
# pstencil summary on a tiny file: mean, max, min and standard deviation
# checked against values computed here from ncdump's text (independently of
# pstencil's reader), the shape line, coordinates, per-level table; the same
# numbers for every on-disk format; an output of run also shows its
# reductions, record by record, as the file holds them.
. "$top_srcdir/tests/lib.sh"
for t in ncgen ncdump; do command -v $t >/dev/null 2>&1 || skip "$t not installed"; done
cd "$TMP" || fail "cd"
cdl="$top_srcdir/tests/data/tiny.cdl"

# expected statistics from the CDL data (awk, double precision, two passes)
sed -n '/thetao =/,/;/p' "$cdl" | tr -d 'thetao=;\n' | tr ',' '\n' | tr -d ' ' | grep -v '^_$' | grep . > vals
n=$(wc -l < vals)
[ "$n" -eq 60 ] || fail "expected 60 ocean values in tiny.cdl, found $n"
awk '{ s += $1; v[NR] = $1; if (NR == 1 || $1 > mx) mx = $1; if (NR == 1 || $1 < mn) mn = $1 }
     END { m = s / NR; for (i = 1; i <= NR; i++) q += (v[i] - m) ^ 2;
           printf "%.15g %.15g %.15g %.15g\n", m, mx, mn, sqrt(q / NR) }' vals > expected
read emean emax emin esd < expected

for kind in classic 64-bit-offset cdf5 nc4; do
  ncgen -k $kind -o tiny.nc "$cdl" || fail "ncgen -k $kind"
  expect_exit 0 "$PSTENCIL" summary tiny.nc
  grep -q "The dimensions of the data is: (2, 3, 3, 4)" "$TMP/out" || fail "$kind: shape line"
  for what in Mean Max Min; do
    got=$(sed -n "s/^$what temperature: //p" "$TMP/out")
    case $what in Mean) want=$emean ;; Max) want=$emax ;; Min) want=$emin ;; esac
    awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "" && d <= 1e-12 * (w < 0 ? -w : w)) }' \
      || fail "$kind: $what temperature $got, expected $want"
  done
  got=$(sed -n 's/^Standard deviation: //p' "$TMP/out")
  awk -v g="$got" -v w="$esd" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "" && d <= 1e-12 * w) }' \
    || fail "$kind: standard deviation $got, expected $esd"
  grep -q "Ocean cells: 60 of 72 (12 land or missing)" "$TMP/out" || fail "$kind: cell counts"
  # levels are numbered from 0, as in plot --level (docs/user-guide.md)
  grep -Eq "^ +2 +100.0000 +16 +8 " "$TMP/out" || { cat "$TMP/out"; fail "$kind: per-level row of level 2 (0-based; 16 ocean, 8 land)"; }
  grep -q "lat .* 50 51 52" "$TMP/out" || fail "$kind: coordinates"
  grep -q "history  *tiny test file" "$TMP/out" || fail "$kind: global attributes"
  rm -f tiny.nc
done

# an output of run: its reductions, one row per record, every digit as written
ncgen -k nc4 -o tiny.nc "$cdl" || fail "ncgen"
expect_exit 0 "$PSTENCIL" summary tiny.nc
grep -q "^Reductions" "$TMP/out" && fail "reductions printed for a file without them"
expect_exit 0 "$PSTENCIL" run tiny.nc -n 2 --output-every 1 -o run.nc
expect_exit 0 "$PSTENCIL" summary run.nc --no-levels
grep -q "^Reductions (pstencil run: over the ocean cells, each weighing its volume" "$TMP/out" ||
  { cat "$TMP/out"; fail "no reductions for an output of run"; }
want=$(ncdump -v thetao_mean -p 17,17 run.nc | tr -d '\n' | sed 's/.*thetao_mean = \([^;]*\);.*/\1/' |
       tr ',' '\n' | tr -d ' ' | awk '{ printf "%.17g\n", $1 }')
got=$(awk '/^Reductions/ { on = 1; next } on && $1 ~ /^[0-9]+$/ { printf "%.17g\n", $5 }' "$TMP/out")
[ -n "$want" ] && [ "$got" = "$want" ] || fail "summary's means $got, the file's $want"
[ "$(echo "$got" | wc -l)" -eq 3 ] || fail "not one row per record: $got"
rm -f tiny.nc

expect_exit 0 "$PSTENCIL" summary --help
expect_exit 2 "$PSTENCIL" summary
expect_err "needs one file"
expect_exit 2 "$PSTENCIL" summary nosuch.nc
expect_err "nosuch.nc"
ncgen -k nc4 -o tiny.nc "$cdl" || fail "ncgen"
expect_exit 2 "$PSTENCIL" summary tiny.nc --var nosuch
expect_err "no variable 'nosuch'"
exit 0

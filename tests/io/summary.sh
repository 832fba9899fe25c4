#!/bin/sh
# pstencil summary on a tiny file: mean, max, min and standard deviation
# checked against values computed here from ncdump's text (independently of
# pstencil's reader), the shape line, coordinates, per-level table; the same
# numbers for every on-disk format.
. "$top_srcdir/tests/lib.sh"
command -v ncgen >/dev/null 2>&1 || skip "ncgen not installed"
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

expect_exit 0 "$PSTENCIL" summary --help
expect_exit 2 "$PSTENCIL" summary
expect_err "needs one file"
expect_exit 2 "$PSTENCIL" summary nosuch.nc
expect_err "nosuch.nc"
ncgen -k nc4 -o tiny.nc "$cdl" || fail "ncgen"
expect_exit 2 "$PSTENCIL" summary tiny.nc --var nosuch
expect_err "no variable 'nosuch'"
exit 0

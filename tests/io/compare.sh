#!/bin/sh
# pstencil compare: exit 0 identical or within tolerance, 1 different (one
# float32 ulp; a NaN-mask mismatch; another shape), 2 trouble.
. "$top_srcdir/tests/lib.sh"
command -v ncgen >/dev/null 2>&1 || skip "ncgen not installed"
cd "$TMP" || fail "cd"
ncgen -k nc4 -o a.nc "$top_srcdir/tests/data/tiny.cdl" || fail "ncgen"
ncgen -k classic -o a2.nc "$top_srcdir/tests/data/tiny.cdl" || fail "ncgen"
ncgen -k nc4 -o b.nc "$top_srcdir/tests/data/tiny_b.cdl" || fail "ncgen"
# c: a NaN-mask mismatch (one ocean value replaced by the fill value)
sed 's/^\(  *\)_, 10\.125,/\1_, _,/' "$top_srcdir/tests/data/tiny.cdl" > c.cdl
cmp -s c.cdl "$top_srcdir/tests/data/tiny.cdl" && fail "could not make the NaN-mismatch file"
ncgen -k nc4 -o c.nc c.cdl || fail "ncgen c"

expect_exit 0 "$PSTENCIL" compare a.nc a2.nc
grep -q "verdict *: identical" "$TMP/out" || fail "same data in two formats not identical"

expect_exit 1 "$PSTENCIL" compare a.nc b.nc
grep -q "differing cells *: 1 " "$TMP/out" || fail "one differing cell"
grep -q "max ulp difference *: 1 (float32) at (t=0, k=0, j=1, i=1)" "$TMP/out" || fail "ulp and location"
expect_exit 0 "$PSTENCIL" compare a.nc b.nc --ulps 1
expect_exit 1 "$PSTENCIL" compare a.nc b.nc --ulps 0
expect_exit 0 "$PSTENCIL" compare a.nc b.nc --abs 1e-6
expect_exit 1 "$PSTENCIL" compare a.nc b.nc --abs 1e-8
expect_exit 0 "$PSTENCIL" compare a.nc b.nc --rel 1e-7

expect_exit 1 "$PSTENCIL" compare a.nc c.nc
grep -q "NaN-mask mismatches : 1 " "$TMP/out" || fail "NaN-mask mismatch count"
expect_exit 1 "$PSTENCIL" compare a.nc c.nc --abs 100
command -v ncgen >/dev/null && "$PSTENCIL" gen -o g.nc --scale 0.05 >/dev/null 2>&1 || fail "gen"
expect_exit 1 "$PSTENCIL" compare a.nc g.nc
grep -q "shapes differ" "$TMP/out" || fail "shape difference"

expect_exit 2 "$PSTENCIL" compare a.nc
expect_err "two files"
expect_exit 2 "$PSTENCIL" compare a.nc nosuch.nc
expect_err "nosuch.nc"
expect_exit 2 "$PSTENCIL" compare a.nc b.nc --abs x
expect_err "abs: .x. is not a number"
expect_exit 2 "$PSTENCIL" compare a.nc b.nc --ulps -1
expect_err "ulps: -1 is out of range"
expect_exit 0 "$PSTENCIL" compare --help
exit 0

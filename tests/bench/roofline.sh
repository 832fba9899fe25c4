#!/bin/sh
# pstencil bench --roofline: the cache-resident sweeps of the default
# stencil's exact update (L1 block, L2 block, the 8x16x512 block) are measured
# and printed with a positive Gcell/s each, naming the stencil, the form of
# its update and its loads as the registry lists them (pstencil stencils: the
# land-sum form, neighbours + cell + count, where the stencil declares it,
# with the NaN-masked form, neighbours + cell, beside it; else the masked
# form), and every CPU row gets a line with its fractions of them and of the
# copy bounds. Formats only: nothing here is timed.
. "$top_srcdir/tests/lib.sh"

expect_exit 0 "$PSTENCIL" gen -o "$TMP/small.nc" --scale 0.1
expect_exit 0 "$PSTENCIL" bench --backend reference --input "$TMP/small.nc" --steps 2 --repeat 1 \
  --scales none --dram-mb 64 --roofline
cp "$TMP/out" "$TMP/table"
expect_exit 0 "$PSTENCIL" stencils
def=$(sed -n 's/^\([A-Za-z0-9_]*\) (default):.*/\1/p' "$TMP/out")
[ -n "$def" ] || { cat "$TMP/out"; fail "pstencil stencils names no default stencil"; }
nnb=$(awk -v s="$def" '$0 ~ "^" s " " { on = 1 } on && $1 == "neighbours" { sub(",", "", $3); print $3; exit }' "$TMP/out")
[ -n "$nnb" ] || { cat "$TMP/out"; fail "no neighbour count for $def"; }
ls=$(awk -v s="$def" '$0 ~ "^" s " " { on = 1 } on && $1 == "land-sum" { print $3; exit }' "$TMP/out")
case $ls in
  yes) form=land-sum loads=$((nnb + 2)) ;;
  no) form=NaN-masked loads=$((nnb + 1)) ;;
  *) cat "$TMP/out"; fail "pstencil stencils does not say whether $def is a land-sum stencil" ;;
esac
grep -q "^roofline: cache-resident sweeps of the exact $def update ($form form, float32, $loads loads\$" \
  "$TMP/table" || { cat "$TMP/table"; fail "no roofline header naming $def, the $form form and its $loads loads"; }
if [ "$ls" = yes ]; then
  grep -q "^the NaN-masked form ($((nnb + 1)) loads, no counts" "$TMP/table" ||
    { cat "$TMP/table"; fail "no NaN-masked ceiling beside the land-sum ones"; }
  [ "$(grep -c '^  L2 block ' "$TMP/table")" = 2 ] || fail "not two L2 block ceilings (both forms)"
fi
for what in "L1 block" "L2 block" "8x16x512 block"; do
  line=$(grep "^  $what " "$TMP/table" | head -1) || { cat "$TMP/table"; fail "no $what ceiling"; }
  echo "$line" | awk '{ for (i = 1; i <= NF; i++) if ($i == "Gcell/s") g = $(i - 1) } END { exit !(g > 0) }' ||
    fail "$what ceiling is not a positive Gcell/s: $line"
done
row=$(grep '^pstencil reference float32' "$TMP/table") || { cat "$TMP/table"; fail "no roofline row for the reference backend"; }
echo "$row" | awk '{ n = 0; for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+%$/) n++ } END { exit n != 5 }' ||
  fail "the roofline row does not have five fractions: $row"
# without --roofline there is no roofline table
expect_exit 0 "$PSTENCIL" bench --backend reference --input "$TMP/small.nc" --steps 2 --repeat 1 \
  --scales none --dram-mb 64
grep -q '^roofline:' "$TMP/out" && fail "roofline table printed without --roofline"
exit 0

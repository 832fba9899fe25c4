#!/bin/sh
# validate_decomp.sh NAME: `pstencil validate --decomp` for backend NAME: every
# split (1x1x2 1x2x1 2x1x1 2x2x2 3x2x1 5x1x1), halo (1, 2, 4), step count (1, 5,
# 13), precision and stencil, and out-of-core slabs through a tiny budget
# (halos 1, 3), bitwise against the reference on one box. Exit 77 with the
# reason when NAME cannot run here.
. "$top_srcdir/tests/lib.sh"
name=$1
"$PSTENCIL" validate --decomp --verbose --backend "$name" >"$TMP/out" 2>"$TMP/err"
rc=$?
cat "$TMP/out"
cat "$TMP/err" >&2
[ "$rc" -ne 2 ] || fail "pstencil validate --decomp --backend $name: usage error"
if grep -Eq "^  $name +skipped: " "$TMP/out"; then
  skip "$(grep -E "^  $name +skipped: " "$TMP/out" | sed 's/^ *//')"
fi
grep -Eq "^decomposition: 0 comparisons" "$TMP/out" && skip "no column of $name can run"
[ "$rc" -eq 0 ] || fail "decomposition validation of $name failed (exit $rc)"
grep -q 'FAIL' "$TMP/out" && fail "exit 0 but the output shows FAIL"
for s in diffusion7 hdiff smooth2; do
  grep -Eq "^  $s +$name f32 +[1-9][0-9]* +0$" "$TMP/out" || fail "no passing float line for $s"
done
n=$(grep -Ec "out of core, ([2-9]|[1-9][0-9]+) slabs, halo [13] +(1|5|13) steps: bitwise" "$TMP/out")
[ "$n" -ge 6 ] || fail "$n out-of-core comparisons with several slabs, expected at least 6"
grep -Eq "^decomposition: [1-9][0-9]* comparisons, 0 failed" "$TMP/out" || fail "no summary line"
# a backend that runs boxes at once (openmp): the threads divided between the
# boxes (3 on 2 boxes: 2 + 1; 6 boxes on 3 host threads), bitwise
if [ "$name" = openmp ]; then
  for c in "2x1x1, halo 2, 2 threads, 2 at once" "2x1x1, halo 2, 3 threads, 2 at once" \
           "3x2x1, halo 2, 2 threads, 2 at once" "3x2x1, halo 2, 3 threads, 3 at once"; do
    grep -Eq "diffusion7 +$name f32 +split $c +13 steps: bitwise" "$TMP/out" ||
      fail "no concurrent case 'split $c' (13 steps) bitwise"
  done
fi
exit 0

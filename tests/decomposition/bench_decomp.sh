#!/bin/sh
# pstencil bench --memory and --decomp: the memory series writes its CSV (one
# row per backend and scale, the out-of-core run marked) and figure; the
# decomposition experiment prints a row per split and halo and the
# out-of-core comparison. Benchmarks print; nothing here checks a time.
. "$top_srcdir/tests/lib.sh"
cd "$TMP" || fail "no temporary directory"
expect_exit 0 "$PSTENCIL" bench --memory --backend reference --scale 1 --steps 1 \
  --max-device-memory 12M --csv mem.csv --plot mem.png
cat "$TMP/out"
head -1 mem.csv | grep -q '^backend,precision,scale,cells,host_peak_mib,device_mib,ooc_slabs,ms_per_step$' ||
  fail "CSV header: $(head -1 mem.csv)"
[ "$(wc -l < mem.csv)" -eq 2 ] || fail "expected one row: $(cat mem.csv)"
grep -Eq '^reference,float32,1,2675100,[0-9.]+,[0-9.]+,[2-9][0-9]*,' mem.csv ||
  fail "the run under 12M is not out of core: $(cat mem.csv)"
grep -q "out of core" "$TMP/out" || fail "the table does not mark the out-of-core run"
if grep -q "plot  : mem.png" "$TMP/out"; then
  [ -s mem.png ] || fail "no figure"
fi
expect_exit 2 "$PSTENCIL" bench --memory --max-device-memory 3X
expect_err "unit"
expect_exit 0 "$PSTENCIL" bench --decomp --backend reference --scale 0.25 --steps 2 --repeat 1
cat "$TMP/out"
for s in 1x1x1 2x1x1 2 4 8; do
  [ "$(grep -Ec "^  $s +[0-9]+x[0-9]+x[0-9]+ +[14] " "$TMP/out")" -eq 2 ] || fail "no rows for split $s"
done
[ "$(grep -c '^  out of core, budget 1/4 grid' "$TMP/out")" -eq 3 ] || fail "no out-of-core rows"
exit 0

#!/bin/sh
# bench --repeat 1 has no repeat-to-repeat spread to report (issue 28 point
# 7): the table, the summary line and the CSV say "n/a", not "0.0%", and the
# JSON still parses. Formats only: nothing here is timed.
. "$top_srcdir/tests/lib.sh"
expect_exit 0 "$PSTENCIL" gen -o "$TMP/small.nc" --scale 0.1
expect_exit 0 "$PSTENCIL" bench --backend reference --input "$TMP/small.nc" --steps 2 --repeat 1 \
  --scales 0.1 --grid-steps 2 --dram-mb 64 --csv "$TMP/b.csv" --json "$TMP/b.json"
grep -E "^(steps|grid) " "$TMP/out" | grep -q "0\.0%" && { cat "$TMP/out"; fail "a spread of 0.0% for one run"; }
[ "$(grep -Ec '^(steps|grid) +pstencil .* n/a ' "$TMP/out")" -ge 2 ] || { cat "$TMP/out"; fail "no n/a spread in the table"; }
grep -q "^Repeat-to-repeat spread: n/a" "$TMP/out" || { cat "$TMP/out"; fail "the spread summary does not say n/a"; }
if command -v python3 >/dev/null 2>&1; then
  python3 - "$TMP/b.csv" "$TMP/b.json" <<'PYEOF' || fail "the CSV's spread is not n/a, or the JSON does not parse"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows and all(r["spread"] == "n/a" for r in rows), [r.get("spread") for r in rows]
json.load(open(sys.argv[2]))
PYEOF
fi
exit 0

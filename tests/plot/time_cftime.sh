#!/bin/sh
# The calendar decoder (io/ps_time.c) against cftime, the decoder xarray and
# netCDF4-python use: 3000 values per CF calendar, random units, reference
# dates and offsets (days, hours, minutes, seconds), must give the same date
# and time to the second.
. "$top_srcdir/tests/lib.sh"
# Debian's python3-cftime is for /usr/bin/python3 (a pyenv python3 may come first in PATH).
PY=
for p in "${PS_TEST_PYTHON:-}" /usr/bin/python3 "$(command -v python3 || true)"; do
  [ -n "$p" ] && [ -x "$p" ] && "$p" -c "import cftime" 2>/dev/null && { PY=$p; break; }
done
[ -n "$PY" ] || skip "no python3 with cftime (Debian: python3-cftime)"
cd "$TMP" || fail "cd"
"$PY" - >cases.txt 2>py.err <<'PYEOF' || { cat py.err; fail "making the cases"; }
import random
random.seed(15)
cals = ["standard", "gregorian", "proleptic_gregorian", "julian", "noleap", "365_day",
        "all_leap", "366_day", "360_day"]
units = [("days", 1), ("hours", 24), ("minutes", 1440), ("seconds", 86400)]
for cal in cals:
    for _ in range(3000):
        u, per_day = random.choice(units)
        y = random.randint(1, 2400); m = random.randint(1, 12)
        d = random.randint(1, 28)
        if cal == "standard" or cal == "gregorian":
            if y == 1582 and m == 10: d = random.choice([1, 4, 15, 28])
        h = random.randint(0, 23)
        ref = "%04d-%02d-%02d %02d:00:00" % (y, m, d, h)
        span = random.choice([10, 400, 40000, 400000])
        v = random.randint(-span, span) * per_day // random.choice([1, 1, 4])
        if y * 365 + v / per_day < 400: v = abs(v)
        print("%s|%s since %s|%d" % (cal, u, ref, v))
PYEOF
cat >decode.py <<'PYEOF'

import sys, cftime
for line in sys.stdin:
    cal, units, v = line.rstrip("\n").split("|")
    d = cftime.num2date(int(v), units, calendar=cal)
    print("%04d-%02d-%02d %02d:%02d:%02d" % (d.year, d.month, d.day, d.hour, d.minute, d.second))
PYEOF
"$PY" decode.py <cases.txt >want.txt 2>py.err || { cat py.err; fail "cftime failed"; }
"$top_builddir/tests/plot/test_plot_time" --decode <cases.txt >got.txt || fail "test_plot_time --decode"
[ "$(wc -l <got.txt)" -eq "$(wc -l <cases.txt)" ] || fail "decoded $(wc -l <got.txt) of $(wc -l <cases.txt) cases"
if ! cmp -s got.txt want.txt; then
  paste -d '|' cases.txt got.txt want.txt | awk -F'|' '$4 != $5' | head -10
  fail "$(paste -d '|' got.txt want.txt | awk -F'|' '$1 != $2' | wc -l) dates differ from cftime (case|units|value|ours|cftime)"
fi
echo "$(wc -l <cases.txt) dates in 9 calendar names agree with cftime"

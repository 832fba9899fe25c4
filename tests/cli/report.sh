#!/bin/sh
# The run's report says where the time went in named phases (choosing the
# backend, preparing, opening the output apart from reading, set-up, steps
# and writing), in the text report and the --profile JSON; auto's line names
# a backend whose device or driver this machine lacks without its long
# reason (pstencil backends gives it) and keeps the reason of any other.
. "$top_srcdir/tests/lib.sh"
cd "$TMP" || fail "cd"
expect_exit 0 "$PSTENCIL" run -n 2 --no-progress -o o.nc --profile p.json
for ph in "read input" "choose backend" "prepare" "open output" "backend set-up" "time steps" "write output"; do
  grep -q "^    $ph  " "$TMP/out" || { cat "$TMP/out"; fail "no phase '$ph' in the report"; }
done
python3 -c '
import json, sys
p = json.load(open("p.json"))["phases_s"]
for k in ("read", "choose_backend", "prepare", "open_output", "setup", "steps", "write"):
    if k not in p or not p[k] >= 0:
        sys.exit("phases_s lacks %s: %s" % (k, p))
' || fail "the profile's phases"
line=$(grep 'auto picked' "$TMP/err")
[ -n "$line" ] || { cat "$TMP/err"; fail "no auto line"; }
expect_exit 0 "$PSTENCIL" backends
for b in cuda hip; do
  grep -Eq "^$b .*(no device|no CUDA driver|no HIP device|no ROCm)" "$TMP/out" || continue
  printf '%s\n' "$line" | grep -Eq "no device here for [a-z, ]*$b" || fail "auto's line does not name $b as having no device: $line"
  printf '%s\n' "$line" | grep -q "GetDeviceCount" && fail "auto's line carries the runtime's long reason: $line"
done
exit 0

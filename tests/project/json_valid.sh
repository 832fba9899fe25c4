#!/bin/sh
# Every JSON pstencil writes parses with Python's json module: the writer's
# edge cases (control characters, ill-formed UTF-8, HTML-safe escapes,
# non-finite numbers, random bytes) and a run's --profile, with the thread
# placement of a threaded backend. The decoded
# strings are checked too: ill-formed bytes became U+FFFD as Python decodes
# them, nothing else changed.
. "$top_srcdir/tests/lib.sh"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
command -v "$PY" >/dev/null 2>&1 || skip "python3 not found"
"$top_builddir/tests/project/test_json" "$TMP/edge.json" || fail "test_json could not write the edge cases"
"$PY" -m json.tool "$TMP/edge.json" >/dev/null || fail "edge-case JSON does not parse: $(head -c 400 "$TMP/edge.json")"
"$PY" - "$TMP/edge.json" "$TMP/edge.json.bytes" <<'PYEOF' || fail "edge-case JSON decodes to the wrong strings"
import json, sys
raw = open(sys.argv[1], "rb").read()
raw.decode("utf-8")                      # the file itself is valid UTF-8
d = json.loads(raw)
want = ["plain", "quote \" backslash \\ slash /", "\b\f\n\r\t", "\x01\x02\x1f\x7f",
        "caf\u00e9 \u20ac \U0001d11e", "\ufffd", "\ufffd\ufffd", "\ufffd" * 3, "\ufffd" * 4,
        "\ufffd\ufffd", "\ufffd\ufffd", "\ufffdA", "</script><!--&", "\u2028\u2029", ""]
assert d["strings"] == want, d["strings"]
assert d["html_safe"] == want, d["html_safe"]
assert b"</script" not in raw.split(b'"html_safe"')[1].split(b'"random"')[0]
# the same bytes decoded by Python with replacement (maximal subparts, like the writer)
rnd = bytes(int(x) for x in open(sys.argv[2]).read().split())
assert d["random"] == rnd.decode("utf-8", "replace"), "random bytes decoded differently"
nums = d["\x01key\ufffd"]
assert nums[:3] == [None, None, None] and nums[4] == 1e308 and nums[6] == 123.5, nums
assert nums[7] == -2**63 and nums[8] == 2**64 - 1, nums
PYEOF

# a run's profile
expect_exit 0 "$PSTENCIL" gen -o "$TMP/in.nc" --scale 0.05
expect_exit 0 "$PSTENCIL" run "$TMP/in.nc" --backend reference -n 2 -q -o "$TMP/out.nc" \
  --profile "$TMP/prof.json"
"$PY" -m json.tool "$TMP/prof.json" >/dev/null || fail "profile is not JSON: $(cat "$TMP/prof.json")"
"$PY" - "$TMP/prof.json" <<'PYEOF' || fail "profile lacks fields"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["steps"] == 2 and len(d["per_step_ms"]) == 2 and d["backend"] == "reference"
assert d["phases_s"]["total"] > 0 and d["stencil"] == "diffusion7"
assert "thread_placement" not in d   # the reference backend has no threads
PYEOF
# a threaded backend's report and profile say where its threads ran
expect_exit 0 env OMP_PROC_BIND=close OMP_PLACES=cores "$PSTENCIL" run "$TMP/in.nc" --backend openmp \
  -t 2 -n 2 --no-progress -o "$TMP/out2.nc" --profile "$TMP/prof2.json"
grep -Eq '^  threads +: 2 threads on CPUs? .*OMP_PROC_BIND=close OMP_PLACES=cores' "$TMP/out" ||
  fail "run report has no thread placement: $(cat "$TMP/out")"
"$PY" - "$TMP/prof2.json" <<'PYEOF' || fail "profile lacks the thread placement"
import json, sys
p = json.load(open(sys.argv[1]))["thread_placement"]
assert p["threads"] == 2 and len(p["cpu"]) == 2 and min(p["cpu"]) >= 0, p
assert p["OMP_PROC_BIND"] == "close" and p["OMP_PLACES"] == "cores" and p["policy"] == "close", p
PYEOF
exit 0

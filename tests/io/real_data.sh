#!/bin/sh
# docs/real-data.md run as written on Debian's ferret-datasets (Levitus and
# the ocean atlas subset): every ```sh block of the page, in order, in an
# empty folder with `pstencil` the program under test; every line of its
# ```text blocks must appear (leading and trailing blanks aside) in what the
# commands print. Then every netCDF file made is checked: `cdo sinfon`
# prints no warning (nothing on stderr, no "Warning"), and nothing the
# commands print is a warning. The page runs compliance-checker (--criteria
# normal: any error or warning fails); without it those lines are reported
# and skipped, unless PSTENCIL_REQUIRE_CF_CHECKER is set (the cf-check CI
# job), which makes its absence a failure. The PNGs are measured as the
# page-size tests measure them (tests/plot/png.py page). Skipped (77) when
# ferret-datasets is not installed.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/plot/lib.sh"
DATA=/usr/share/ferret-vis/data
[ -r "$DATA/levitus_climatology.cdf" ] && [ -r "$DATA/ocean_atlas_subset.nc" ] ||
  skip "ferret-datasets is not installed (tools/install-deps.sh installs it)"
for t in cdo ncdump; do
  command -v $t >/dev/null 2>&1 || skip "$t is not installed"
done
doc=$top_srcdir/docs/real-data.md
cd "$TMP" || fail "cd"
mkdir bin work || fail "mkdir"
printf '#!/bin/sh\nexec "%s" "$@"\n' "$PSTENCIL" > bin/pstencil && chmod +x bin/pstencil || fail "wrapper"
if ! command -v compliance-checker >/dev/null 2>&1; then
  [ -n "${PSTENCIL_REQUIRE_CF_CHECKER:-}" ] && fail "compliance-checker is not installed"
  printf '#!/bin/sh\necho "compliance-checker is not installed: not run: $*" >&2\n' > bin/compliance-checker
  chmod +x bin/compliance-checker
fi
PATH=$TMP/bin:$PATH
export PATH

# the page's blocks: commands (one script, stopping at the first failure) and
# the output lines it shows
"$PY" - "$doc" script.sh expected.txt <<'PYEOF' || fail "reading $doc"
import sys
doc, script, expected = sys.argv[1:4]
kind, cmds, want = None, ["set -e"], []
for line in open(doc, encoding="utf-8"):
    s = line.rstrip("\n")
    if kind is None and s in ("```sh", "```text"):
        kind = s[3:]
    elif kind is not None and s == "```":
        kind = None
    elif kind == "sh":
        cmds.append(s)
    elif kind == "text" and s.strip():
        want.append(s.strip())
if len(cmds) < 10 or len(want) < 10:
    sys.exit("%s: %d commands, %d output lines: the page's blocks were not found" % (doc, len(cmds), len(want)))
open(script, "w").write("\n".join(cmds) + "\n")
open(expected, "w").write("\n".join(want) + "\n")
PYEOF

(cd work && sh -x ../script.sh) > out.txt 2> err.txt ||
  { tail -30 err.txt >&2; fail "a command of docs/real-data.md failed (above)"; }
cat out.txt err.txt > all.txt
"$PY" - all.txt expected.txt <<'PYEOF' || fail "docs/real-data.md shows output the commands do not print"
import sys
got = set(l.strip() for l in open(sys.argv[1], encoding="utf-8", errors="replace"))
missing = [l for l in open(sys.argv[2], encoding="utf-8").read().splitlines() if l not in got]
for l in missing:
    print("FAIL: not printed: %s" % l)
sys.exit(1 if missing else 0)
PYEOF
if grep -n -i 'warning' all.txt >&2; then
  fail "a command of docs/real-data.md printed a warning (above)"
fi
grep "compliance-checker is not installed" err.txt >&2 &&
  echo "compliance-checker is not installed: the page's CF checks were not run" >&2

cd work || fail "cd work"
n=0
for f in *.nc; do
  cdo sinfon "$f" > sinfon.out 2> sinfon.err || { cat sinfon.err >&2; fail "cdo sinfon $f failed"; }
  if [ -s sinfon.err ] || grep -qi 'warning' sinfon.out; then
    cat sinfon.err sinfon.out >&2
    fail "cdo sinfon $f prints a warning"
  fi
  n=$((n + 1))
done
[ "$n" -ge 5 ] || fail "only $n netCDF files made"
p=0
for f in *.png; do
  "$PY" "$top_srcdir/tests/plot/png.py" page "$f" 1000 700 || fail "$f"
  p=$((p + 1))
done
[ "$p" -ge 4 ] || fail "only $p pictures made"
echo "docs/real-data.md: $(grep -c . ../expected.txt) output lines found; cdo sinfon clean on $n files; $p pictures measured"
exit 0

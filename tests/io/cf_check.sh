#!/bin/sh
# CF checkers on pstencil outputs: the IOOS compliance-checker (--test cf:1.8,
# --criteria normal: no error and no warning but its misreading of the
# reductions' cell_methods, see below; NEMO's output errors only) and, when it can run, cfchecks (0 errors). Outputs: a 360_day input with bounds, a noleap one with
# a bottom-first depth, NEMO's 2-D coordinates, the built-in ocean through
# hdiff, a generated file (its currents uo, vo) and tracer on it, a continued
# run, and a Levitus-shaped Ferret file (TEMP in "DEG C",
# SALT in "PPT", depth in "METERS", tests/data/levitus.cdl). Skipped (77) without compliance-checker
# (PyPI: `pip install compliance-checker`; Debian has no CF checker), or
# failed when PSTENCIL_REQUIRE_CF_CHECKER is set (.ci/jobs/cf-check.sh).
. "$top_srcdir/tests/lib.sh"
command -v ncgen >/dev/null 2>&1 || skip "ncgen is not installed"
CC=${COMPLIANCE_CHECKER:-compliance-checker}
if ! command -v "$CC" >/dev/null 2>&1; then
  [ -n "${PSTENCIL_REQUIRE_CF_CHECKER:-}" ] && fail "compliance-checker is not installed"
  skip "compliance-checker is not installed"
fi
cd "$TMP" || fail "cd"
ncgen -o t360.nc "$top_srcdir/tests/data/time_360.cdl" || fail "ncgen time_360"
ncgen -o tnl.nc "$top_srcdir/tests/data/time_noleap.cdl" || fail "ncgen time_noleap"
ncgen -o nemo.nc "$top_srcdir/tests/data/cf_nemo.cdl" || fail "ncgen cf_nemo"
ncgen -o lev.nc "$top_srcdir/tests/data/levitus.cdl" || fail "ncgen levitus"

expect_exit 0 "$PSTENCIL" run t360.nc -o a.nc --steps 2 --dt 86400 -q
expect_exit 0 "$PSTENCIL" run a.nc --time-index 1 -o b.nc --steps 2 --dt 86400 -q
expect_exit 0 "$PSTENCIL" run tnl.nc --time-index 1 -o n.nc --steps 2 -q
expect_exit 0 "$PSTENCIL" run nemo.nc -o e.nc --steps 2 -q
expect_exit 0 "$PSTENCIL" run --stencil hdiff --dt auto -o h.nc --steps 2 -q
expect_exit 0 "$PSTENCIL" run lev.nc -o lt.nc --steps 2 -q
expect_exit 0 "$PSTENCIL" run lev.nc --var SALT -o ls.nc --steps 2 -q
expect_exit 0 "$PSTENCIL" gen --scale 0.1 -o g.nc
expect_exit 0 "$PSTENCIL" run g.nc --stencil tracer -o tr.nc --steps 2 -q
cfchecks_ok=
if command -v cfchecks >/dev/null 2>&1; then
  cfchecks a.nc > cf.out 2>&1
  if grep -q "ERRORS detected" cf.out; then
    cfchecks_ok=1
  else
    echo "cfchecks cannot run here (it fetches the standard-name table): $(tail -1 cf.out)" >&2
  fi
fi
for f in a.nc b.nc n.nc e.nc h.nc lt.nc ls.nc g.nc tr.nc; do
  # NEMO's index dimensions y, x have no coordinate variable: the checker
  # guesses them auxiliary and warns (CF 2.4, a recommendation) that they
  # follow Z; naming them an X or Y axis would be untrue, so e.nc is held to
  # errors only, every other output to errors and warnings
  crit=normal
  [ "$f" = e.nc ] && crit=lenient
  if ! "$CC" --criteria $crit --test cf:1.8 "$f" > cc.out 2>&1; then
    # the checker takes a cell_methods name only as one of the variable's dimensions,
    # "area" or an auxiliary coordinate; CF 7.3 (and 7.3.4) also allows a standard
    # name, which the reductions' time series use for the grid's vertical axis
    # ("area: depth: mean where sea"): that warning alone is accepted, and only after
    # the errors-only run passes
    "$CC" --criteria lenient --test cf:1.8 "$f" > ccl.out 2>&1 ||
      { cat ccl.out >&2; fail "compliance-checker cf:1.8 finds errors in $f"; }
    grep '^\* ' cc.out | grep -Ev "^\* [A-Za-z0-9_]+_(content|volume|mean|min|max)'s cell_methods name component depth does not match a dimension, area or auxiliary coordinate\$" > other.out
    grep -q "cell_methods name component depth" cc.out && ! [ -s other.out ] ||
      { cat cc.out >&2; fail "compliance-checker cf:1.8 ($crit) finds errors or warnings in $f"; }
  fi
  grep -q "All tests passed\|Warnings" cc.out || { cat cc.out >&2; fail "no compliance-checker report for $f"; }
  if [ -n "$cfchecks_ok" ]; then
    cfchecks "$f" > cf.out 2>&1
    grep -q "ERRORS detected: 0" cf.out || { cat cf.out >&2; fail "cfchecks finds errors in $f"; }
  fi
done
exit 0

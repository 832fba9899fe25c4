#!/bin/sh
# The step count in a form CDO and NCO keep (issue 28 point 3): `step` is a
# variable of its own, not in the data variable's `coordinates` (CDO warned
# "Coordinates variable step can't be assigned!" on every command and dropped
# it), so cdo sinfon prints no warning and run --continue after cdo copy goes
# on counting (70 + 30 = 100). When `step` is gone (cdo selvar), the count
# comes from the time axis and the run record (pstencil_time_at_step_0,
# pstencil_time_units): the same steps and times as one run; with time units
# other than the recorded ones it is refused (exit 2, the reason, no output).
. "$top_srcdir/tests/lib.sh"
command -v ncgen >/dev/null 2>&1 || skip "ncgen is not installed"
command -v ncdump >/dev/null 2>&1 || skip "ncdump is not installed"
command -v cdo >/dev/null 2>&1 || skip "cdo is not installed"
cd "$TMP" || fail "cd"
ncgen -o in.nc "$top_srcdir/tests/data/cf_cdo.cdl" || fail "ncgen cf_cdo"
vals() { ncdump -v "$2" "$1" | sed -n "/^ $2 =/,/;/p" | tr -d '\n }'; }

expect_exit 0 "$PSTENCIL" run in.nc -o a.nc --steps 70 --dt 60 -q
expect_exit 0 "$PSTENCIL" run in.nc -o one.nc --steps 100 --dt 60 -q
cdo sinfon a.nc > info.out 2>&1 || { cat info.out >&2; fail "cdo sinfon failed"; }
grep -i "warning" info.out && fail "cdo sinfon warns on a pstencil output"

cdo -s copy a.nc copied.nc 2>cdo.err || { cat cdo.err >&2; fail "cdo copy"; }
grep -i "warning" cdo.err && fail "cdo copy warns"
expect_exit 0 "$PSTENCIL" run --continue copied.nc -n 30 -o c1.nc -q
[ "$(vals c1.nc step)" = "step=100;" ] || fail "after cdo copy the step count is $(vals c1.nc step), not 100"

cdo -s selvar,thetao a.nc nostep.nc || fail "cdo selvar"
ncdump -h nostep.nc | grep -q "double step(" && fail "cdo selvar kept step: the fallback is not tested"
expect_exit 0 "$PSTENCIL" run --continue nostep.nc -n 30 -o c2.nc -q
[ "$(vals c2.nc step)" = "step=100;" ] || fail "without step the count is $(vals c2.nc step), not 100"
[ "$(vals c2.nc time)" = "$(vals one.nc time | sed 's/time=[^,]*,/time=/')" ] ||
  fail "without step the time $(vals c2.nc time) is not one run's $(vals one.nc time)"

cdo -s settunits,hours nostep.nc hours.nc || fail "cdo settunits"
expect_exit 2 "$PSTENCIL" run --continue hours.nc -n 30 -o c3.nc -q
expect_err "pstencil: error: hours.nc: has no step variable, and its time units 'hours since .*' are not those its run recorded \('days since 2024-01-01 00:00:00'\)"
[ -e c3.nc ] && fail "an output was written for a lost step count"
exit 0

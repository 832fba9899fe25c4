#!/bin/sh
# run --explain prints every tuning knob with its value and what decided it,
# in the one precedence (--knob > tuning cache > environment > rule); --knob
# sets a knob (refused when unknown, nothing written), the --profile JSON
# carries the same lines, and a knob changes the speed, never the result.
. "$top_srcdir/tests/lib.sh"
cd "$TMP" || fail "no temporary directory"
PSTENCIL_TUNE_FILE=/dev/null # no tuning cache: the rule or the environment decides
export PSTENCIL_TUNE_FILE
"$PSTENCIL" backends 2>/dev/null | grep -q '^openmp' || skip "the openmp backend is not built"
expect_exit 0 "$PSTENCIL" gen --scale 0.1 -o in.nc
expect_exit 0 "$PSTENCIL" run in.nc -b openmp -n 30 -o rule.nc --explain
grep -q '^  knobs       : what decided each' "$TMP/out" || fail "--explain printed no knobs block"
grep -Eq '^    openmp_tblock=[0-9]+ \(rule\)$' "$TMP/out" || fail "openmp_tblock not decided by the rule"
want=$(sed -n 's/^  checksum    : \(0x[0-9a-f]*\).*/\1/p' "$TMP/out")
# the environment over the rule, --knob over the environment
expect_exit 0 env PSTENCIL_OPENMP_TBLOCK=3 "$PSTENCIL" run in.nc -b openmp -n 30 -o env.nc --explain
grep -q '^    openmp_tblock=3 (environment)$' "$TMP/out" || fail "the environment did not decide openmp_tblock"
expect_exit 0 env PSTENCIL_OPENMP_TBLOCK=3 "$PSTENCIL" run in.nc -b openmp -n 30 -o opt.nc \
  --knob openmp_tblock=2 --explain --profile p.json
grep -q '^    openmp_tblock=2 (option)$' "$TMP/out" || fail "--knob did not decide openmp_tblock"
got=$(sed -n 's/^  checksum    : \(0x[0-9a-f]*\).*/\1/p' "$TMP/out")
[ "$got" = "$want" ] || fail "a knob changed the result: $got, rule $want"
grep -q '"knobs": ".*openmp_tblock=2 (option)' p.json || fail "the profile does not carry the knobs"
# a backend without knobs says so; an unknown knob is refused before anything runs
expect_exit 0 "$PSTENCIL" run in.nc -b reference -n 2 -o ref.nc --explain
grep -q 'knobs       : none (backend reference has no tuning knobs)' "$TMP/out" ||
  fail "the reference backend's knobs were not explained"
expect_exit 2 "$PSTENCIL" run in.nc -b openmp -n 2 -o bad.nc --knob nonesuch=1
expect_err "[-]-knob: unknown knob 'nonesuch' \(knobs: openmp_isa"
[ ! -e bad.nc ] || fail "a refused --knob left bad.nc"
expect_exit 2 "$PSTENCIL" run in.nc -b openmp -n 2 -o bad.nc --knob openmp_tblock=99
expect_err "openmp_tblock"
[ ! -e bad.nc ] || fail "a refused --knob value left bad.nc"
echo "--explain: rule, environment and --knob each named; results unchanged ($want)"

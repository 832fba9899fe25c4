# shellcheck shell=bash
# Sourced by .ci/run and .ci/jobs/*.sh: the counts of an automake test-suite.log.
#
# ps_suite_counts LOG LINES: set pass, fail and skip from the summary of LOG
# (fail counts FAIL, ERROR and XPASS: a test expected to fail that passed is a
# failure too); all 0 when LOG does not exist. When fail is not 0, print the
# last LINES lines of LOG, which hold the failing tests' output.
ps_suite_counts() {
  local log=$1 lines=${2:-200} err xpass
  pass=0; fail=0; skip=0
  [ -f "$log" ] || return 0
  pass=$(sed -n 's/^# PASS: *//p' "$log" | head -1)
  fail=$(sed -n 's/^# FAIL: *//p' "$log" | head -1)
  err=$(sed -n 's/^# ERROR: *//p' "$log" | head -1)
  xpass=$(sed -n 's/^# XPASS: *//p' "$log" | head -1)
  skip=$(sed -n 's/^# SKIP: *//p' "$log" | head -1)
  pass=${pass:-0}; skip=${skip:-0}
  fail=$(( ${fail:-0} + ${err:-0} + ${xpass:-0} ))
  if [ "$fail" -gt 0 ]; then tail -"$lines" "$log"; fi
  return 0
}

# ps_suite_failed LOG: the names of the tests that LOG's summary counts as
# failed (automake heads each failing test's section "FAIL: NAME"), one a line.
ps_suite_failed() {
  [ -f "$1" ] || return 0
  sed -n -E 's/^(FAIL|ERROR|XPASS): ([^ ]+).*/\2/p' "$1" | sort -u
}

# ps_failure_digest DIR NAME...: for each failed test NAME, its name and the
# last lines of DIR/NAME.log, so that a CI output cut to its tail still says
# which test failed and why.
ps_failure_digest() {
  local dir=$1 name; shift
  for name in "$@"; do
    echo "--- failed: $name"
    [ -f "$dir/$name.log" ] && tail -8 "$dir/$name.log" | cut -c1-200
  done
}

#!/bin/sh
# The test index: every registered test with its area and the one-line
# statement of what it proves, read from the comment block directly above its
# TESTS (or FULL_TESTS) line in tests/AREA/local.mk (and a backend folder's
# local.mk for a test that lives with its backend).
#
#   tools/list-tests.sh           area, test and statement, tab-separated
#   tools/list-tests.sh --check   also fail (exit 1) on a TESTS line naming more
#                                 than one test, a test without a statement,
#                                 and a test file of tests/ that no local.mk
#                                 registers and no other test file uses
#
# Run from the top of the source tree (tests/project/test_index.sh runs it).
set -u
check=0
[ "${1:-}" = --check ] && check=1
top=${top_srcdir:-.}
cd "$top" || exit 2
bad=0
list=$(for mk in tests/*/local.mk backends/*/local.mk; do
  [ -f "$mk" ] || continue
  awk -v mk="$mk" '
    function flush_bad(msg) { printf "BAD\t%s:%d: %s\n", mk, NR, msg }
    /^[ \t]*$/ || /^# ---/ { stmt = ""; prev = ""; next }
    /^#/ {
      t = $0; sub(/^# ?/, "", t)
      if (prev == "comment") stmt = stmt " " t; else stmt = t
      prev = "comment"; next
    }
    /^(FULL_)?TESTS \+= / {
      kind = ($1 == "FULL_TESTS") ? "full" : "quick"
      n = split($0, w, /[ \t]+/)
      names = 0
      for (i = 3; i <= n; i++) if (w[i] != "" && w[i] != "\\") { names++; t = w[i] }
      if ($0 ~ /\\$/ || names != 1) flush_bad("one test per TESTS line")
      else if (stmt == "") flush_bad(t ": no statement above it")
      else {
        area = t; sub(/^tests\//, "", area); sub(/\/.*/, "", area)
        if (t !~ /^tests\//) { area = t; sub(/\/.*/, "", area) }
        printf "%s\t%s\t%s\t%s\n", area, t, kind, stmt
      }
      stmt = ""; prev = "tests"; next
    }
    { prev = "other" }
  ' "$mk"
done)
printf '%s\n' "$list" | grep -v '^BAD' | cut -f1,2,4 | sed 's/\t/  /; s/\t/\n    /'
if [ $check -eq 1 ]; then
  printf '%s\n' "$list" | grep '^BAD' | cut -f2- | sed 's/^/test index: /' >&2
  printf '%s\n' "$list" | grep -q '^BAD' && bad=1
  registered=$(printf '%s\n' "$list" | grep -v '^BAD' | cut -f2)
  for f in $(find tests -mindepth 2 -maxdepth 2 \( -name '*.sh' -o -name 'test_*.c' \) | sort); do
    name=${f%.c}
    printf '%s\n' "$registered" | grep -qx "$name" && continue
    base=$(basename "$f")
    # a helper: used by another file of tests/ (sourced, exec'ed, compiled)
    grep -rqF --exclude="$base" "$base" tests && continue
    # a program built and never run (a development benchmark) says so in its local.mk
    grep -qs "never run" "$(dirname "$f")/local.mk" && grep -qF "$name" "$(dirname "$f")/local.mk" && continue
    echo "test index: $f is not registered in any local.mk's TESTS" >&2
    bad=1
  done
  # a test whose sweeps depend on the depth is in SAMPLED_TESTS, so that
  # make check-depth (CI) runs it in full
  sampled=$(cat tests/*/local.mk backends/*/local.mk 2>/dev/null | sed -n 's/^SAMPLED_TESTS += //p')
  for f in $(grep -rlE 'ps_full|ps_sample|PS_CHECK_FULL|ps_test_full' tests backends --include='*.sh' --include='test_*.c' |
             grep -v '^tests/lib.sh$' | sort); do
    name=${f%.c}
    printf '%s\n' "$registered" | grep -qx "$name" || continue
    printf '%s\n' "$sampled" | grep -qx "$name" && continue
    printf '%s\n' "$list" | grep -q "	$name	full	" && continue
    echo "test index: $f depends on the depth but is not in SAMPLED_TESTS" >&2
    bad=1
  done
fi
exit $bad

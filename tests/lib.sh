# Shared helpers for shell tests: source "$top_srcdir/tests/lib.sh".
set -u
: "${PSTENCIL:=$top_builddir/cli/pstencil}"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/pstencil-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }
# expect_exit CODE CMD...: run CMD, check its exit code, keep stderr in $TMP/err
expect_exit() {
  _ee_want=$1; shift
  "$@" >"$TMP/out" 2>"$TMP/err"; _ee_got=$?
  [ "$_ee_got" -eq "$_ee_want" ] || { cat "$TMP/err" >&2; fail "'$*' exited $_ee_got, expected $_ee_want"; }
}
# expect_err PATTERN: stderr of the last expect_exit matches PATTERN (grep -E)
expect_err() {
  grep -Eq "$1" "$TMP/err" || { cat "$TMP/err" >&2; fail "stderr does not match '$1'"; }
}
# skip_under_sanitizer WHY: skip (77) when the sanitizer CI job
# (.ci/jobs/sanitize.sh) runs the tests, for what cannot run under ASan
skip_under_sanitizer() {
  [ -n "${PSTENCIL_TEST_SANITIZER:-}" ] && skip "under $PSTENCIL_TEST_SANITIZER sanitizers: $*"
  return 0
}

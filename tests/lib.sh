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
# ps_full: true when the exhaustive sweeps run (make check-full, or
# PS_CHECK_FULL=1); the quick suite (make check) samples them.
ps_full() { [ "${PS_CHECK_FULL:-}" = 1 ]; }
# ps_sample K ITEMS...: print ITEMS, one per line: all of them under ps_full,
# otherwise every K-th one starting at an offset taken from the test's name
# (deterministic, and different tests keep different items), so that a sweep
# over N items runs about N/K of them in the quick suite.
ps_sample() {
  _ps_k=$1; shift
  if ps_full || [ "$_ps_k" -le 1 ]; then printf '%s\n' "$@"; return 0; fi
  _ps_off=$(printf '%s' "${0##*/}" | cksum | cut -d' ' -f1)
  _ps_i=0
  for _ps_x in "$@"; do
    [ $(( (_ps_i + _ps_off) % _ps_k )) -eq 0 ] && printf '%s\n' "$_ps_x"
    _ps_i=$((_ps_i + 1))
  done
}
# ps_rotate K I ITEMS...: print ITEMS, one per line: all of them under
# ps_full, otherwise K of them starting at item I (mod their count), so that a
# loop calling it with I = 0, 1, 2... over its combinations still runs every
# item on some of them.
ps_rotate() {
  _ps_k=$1; _ps_s=$2; shift 2
  if ps_full || [ "$_ps_k" -ge $# ]; then printf '%s\n' "$@"; return 0; fi
  _ps_n=$#; _ps_i=0
  for _ps_x in "$@"; do
    [ $(( (_ps_i - _ps_s % _ps_n + _ps_n) % _ps_n )) -lt "$_ps_k" ] && printf '%s\n' "$_ps_x"
    _ps_i=$((_ps_i + 1))
  done
}

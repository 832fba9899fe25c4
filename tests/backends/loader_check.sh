#!/bin/sh
# The check backend (backends/check/: a folder and one line of the backend
# list, as docs/adding-a-backend.md says) is listed by `pstencil backends`,
# considered by `auto` by the priority and flags of its ops table, not by its
# name, and validated against the reference; where its plugin is not on the
# path it is not offered at all.
. "$top_srcdir/tests/lib.sh"
chk="$top_builddir/backends/check/.libs"
[ -f "$chk/pstencil_check.so" ] || fail "the check plugin was not built ($chk)"
PSTENCIL_PLUGIN_PATH="$chk${PSTENCIL_PLUGIN_PATH:+:$PSTENCIL_PLUGIN_PATH}"
export PSTENCIL_PLUGIN_PATH
unset PSTENCIL_CHECK_PRIORITY PSTENCIL_CHECK_FLAGS PSTENCIL_BACKEND

# listed, loaded from the build tree, with its priority
expect_exit 0 "$PSTENCIL" backends
grep -Eq "^check +plugin +ok: 1 device, from $chk/pstencil_check\.so" "$TMP/out" ||
  { cat "$TMP/out"; fail "check not listed as a working plugin"; }
grep -A5 -E '^check ' "$TMP/out" | grep -Eq '^  priority -1; capabilities: none$' ||
  { cat "$TMP/out"; fail "check's priority not shown"; }

# which backend auto picks with the given environment (from run's message)
auto_pick() {
  env "$@" "$PSTENCIL" run -n 1 -o "$TMP/auto.nc" -f >"$TMP/out" 2>"$TMP/err" ||
    { cat "$TMP/err" >&2; fail "run with auto failed ($*)"; }
  sed -n "s/^pstencil: auto picked '\([a-z0-9_]*\)'.*/\1/p" "$TMP/err"
}
# priority -1: below the reference, never preferred over a real backend
base=$(auto_pick PSTENCIL_CHECK_PRIORITY=-1)
[ -n "$base" ] && [ "$base" != check ] || fail "auto picked '$base' with check at priority -1"
# the highest priority of all: auto takes it, by the priority in its table
got=$(auto_pick PSTENCIL_CHECK_PRIORITY=1000000)
[ "$got" = check ] || fail "auto picked '$got', not check at priority 1000000"
# flagged GPU but with only a CPU device: passed over, saying why
got=$(auto_pick PSTENCIL_CHECK_PRIORITY=1000000 PSTENCIL_CHECK_FLAGS=gpu)
[ "$got" = "$base" ] || fail "auto picked '$got' (expected $base) with check flagged gpu"
grep -q 'check: no GPU device (only cpu devices)' "$TMP/err" || { cat "$TMP/err"; fail "no reason for passing over check"; }
# flagged NOAUTO: never picked, whatever its priority
got=$(auto_pick PSTENCIL_CHECK_PRIORITY=1000000 PSTENCIL_CHECK_FLAGS=noauto)
[ "$got" = "$base" ] || fail "auto picked '$got' (expected $base) with check flagged noauto"
expect_exit 0 env PSTENCIL_CHECK_PRIORITY=1000000 "$PSTENCIL" backends
grep -Eq '^auto picks check\.$' "$TMP/out" || { cat "$TMP/out"; fail "backends does not say auto picks check"; }

# validated bitwise against the reference by name
expect_exit 0 "$PSTENCIL" validate --backend check --quick
grep -Eq '^backend check .*pstencil_check\.so' "$TMP/out" || { cat "$TMP/out"; fail "no line for check"; }
grep -Eq '^validate: [1-9][0-9]* comparisons, 0 failed' "$TMP/out" || { cat "$TMP/out"; fail "check not validated"; }
grep -q FAIL "$TMP/out" && fail "FAIL in the table"

# not on the plugin path: not offered, and asking for it says why
mkdir "$TMP/empty"
expect_exit 0 env PSTENCIL_PLUGIN_PATH="$TMP/empty" "$PSTENCIL" backends
grep -Eq '^check ' "$TMP/out" && { cat "$TMP/out"; fail "check listed without its plugin"; }
expect_exit 2 env PSTENCIL_PLUGIN_PATH="$TMP/empty" "$PSTENCIL" run --backend check -n 1 -o "$TMP/x.nc"
expect_err "backend 'check' is built by 'make check' for the tests and never installed"
exit 0

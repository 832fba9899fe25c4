#!/bin/sh
# Validation must CATCH a broken kernel: the test plugin pstencil_brokenorder
# sums the neighbours in the order i, j, k instead of k, j, i (a plausible
# "optimisation"); `pstencil validate` must print FAIL with where, expected and
# got, and exit 1. The same plugin source with the right kernel
# (pstencil_goodplugin) passes, so the failure is the order and nothing else.
. "$top_srcdir/tests/lib.sh"
PSTENCIL_PLUGIN_PATH="$top_builddir/tests/backends/.libs${PSTENCIL_PLUGIN_PATH:+:$PSTENCIL_PLUGIN_PATH}"
export PSTENCIL_PLUGIN_PATH
"$PSTENCIL" validate --backend brokenorder --quick --mode exact >"$TMP/out" 2>"$TMP/err"
rc=$?
cat "$TMP/out"
[ "$rc" -eq 1 ] || { cat "$TMP/err" >&2; fail "validate of a broken kernel exited $rc, expected 1"; }
grep -Eq '^ocean-1 +FAIL \(#[0-9]+\)' "$TMP/out" || fail "no FAIL in the table for ocean-1"
grep -Eq 'brokenorder f32 exact, case ocean-1, 1 step: FAIL \(at \(k,j,i\)=\([0-9]+,[0-9]+,[0-9]+\): expected [-0-9.e+]+, got [-0-9.e+]+' "$TMP/out" \
  || fail "failure line lacks where/expected/got"
# cells with no ocean neighbours cannot differ: those cases stay bitwise
grep -Eq '^ocean-0 +bitwise' "$TMP/out" || fail "all-land case should still be bitwise"
"$PSTENCIL" validate --backend goodplugin --quick --mode exact >"$TMP/out" 2>"$TMP/err" \
  || { cat "$TMP/out" "$TMP/err"; fail "the same plugin with the shared kernel does not validate"; }
exit 0

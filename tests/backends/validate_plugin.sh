#!/bin/sh
# A plugin found through PSTENCIL_PLUGIN_PATH runs end to end: loaded,
# probed, validated bitwise (it compiles the shared kernel).
. "$top_srcdir/tests/lib.sh"
PSTENCIL_PLUGIN_PATH="$top_builddir/tests/backends/.libs${PSTENCIL_PLUGIN_PATH:+:$PSTENCIL_PLUGIN_PATH}"
export PSTENCIL_PLUGIN_PATH
expect_exit 0 "$PSTENCIL" validate --backend goodplugin --quick
grep -Eq '^backend goodplugin .*/pstencil_goodplugin\.so' "$TMP/out" || fail "plugin path not shown"
grep -Eq '^validate: [1-9][0-9]* comparisons, 0 failed' "$TMP/out" || fail "no comparisons"
# a plugin that cannot load is skipped with the reason, not a crash
expect_exit 0 "$PSTENCIL" validate --backend badabi --quick
grep -Eq '^  badabi +skipped: .*ABI version 999' "$TMP/out" || { cat "$TMP/out"; fail "badabi not skipped with the reason"; }
exit 0

#!/bin/sh
# validate_backend.sh NAME [VALIDATE-OPTIONS...]: validate backend NAME against
# the reference with `pstencil validate`. Exit 0 if it passed, 1 if anything
# failed, 77 (skip) with the reason when NAME cannot run here (not built, no
# plugin, no device, or every mode skipped) -- never 0 for a backend that did
# not run.
. "$top_srcdir/tests/lib.sh"
name=$1
shift
"$PSTENCIL" validate --backend "$name" "$@" >"$TMP/out" 2>"$TMP/err"
rc=$?
cat "$TMP/out"
cat "$TMP/err" >&2
[ "$rc" -ne 2 ] || fail "pstencil validate --backend $name: usage error"
if grep -Eq "^  $name +skipped: " "$TMP/out"; then
  skip "$(grep -E "^  $name +skipped: " "$TMP/out" | sed 's/^ *//')"
fi
grep -Eq "^backend $name " "$TMP/out" || fail "no line for backend $name in the output"
if grep -Eq "^validate: 0 comparisons" "$TMP/out"; then
  skip "every column of $name was skipped: $(grep -E "^  $name .*skipped" "$TMP/out" | tr -s ' ' | tr '\n' ';')"
fi
[ "$rc" -eq 0 ] || fail "validation of $name failed (exit $rc)"
if grep -q 'FAIL' "$TMP/out"; then fail "exit 0 but the table shows FAIL"; fi
grep -Eq "^validate: [1-9][0-9]* comparisons, 0 failed" "$TMP/out" || fail "no summary line"
exit 0

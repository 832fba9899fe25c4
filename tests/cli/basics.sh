#!/bin/sh
# The program's entry points: --version, --help of every subcommand, unknown
# commands and options.
. "$top_srcdir/tests/lib.sh"

expect_exit 0 "$PSTENCIL" --version
grep -q "^pstencil [0-9]" "$TMP/out" || fail "--version prints no version"
expect_exit 0 "$PSTENCIL" --help
cp "$TMP/out" "$TMP/mainhelp"
for c in run gen summary compare backends validate bench plot; do
  grep -q "  $c " "$TMP/mainhelp" || fail "--help does not list '$c'"
  expect_exit 0 "$PSTENCIL" "$c" --help
  grep -qi "usage" "$TMP/out" || fail "'$c --help' prints no usage"
done
expect_exit 2 "$PSTENCIL"
expect_exit 2 "$PSTENCIL" frobnicate
expect_err "pstencil: error: unknown command 'frobnicate'"
expect_exit 2 "$PSTENCIL" run --no-such-option
expect_err "pstencil: error: .*unknown option"
echo "cli basics: ok"

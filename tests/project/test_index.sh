#!/bin/sh
# Every registered test has its one-line statement (the comment directly
# above its TESTS line in its area's local.mk), names one test per line, and
# every test file under tests/ is registered or used by another test.
. "$top_srcdir/tests/lib.sh"
out=$("$top_srcdir/tools/list-tests.sh" --check 2>"$TMP/err") || { cat "$TMP/err" >&2; fail "the test index has problems (above)"; }
n=$(printf '%s\n' "$out" | grep -c '^[a-z]')
[ "$n" -ge 100 ] || fail "only $n tests in the index"
# every area folder of tests/ is in the index
for d in "$top_srcdir"/tests/*/; do
  a=$(basename "$d")
  [ -f "$d/local.mk" ] || continue
  printf '%s\n' "$out" | grep -q "^$a " || fail "area $a has no test in the index"
done
# the check sees a test without a statement and a test file nobody registers
mkdir -p "$TMP/t/tools" "$TMP/t/tests/zz"
cp "$top_srcdir/tools/list-tests.sh" "$TMP/t/tools/"
printf '# proves a thing\nTESTS += tests/zz/a.sh\nTESTS += tests/zz/b.sh\n' > "$TMP/t/tests/zz/local.mk"
: > "$TMP/t/tests/zz/a.sh"; : > "$TMP/t/tests/zz/b.sh"; : > "$TMP/t/tests/zz/c.sh"
(cd "$TMP/t" && top_srcdir=. tools/list-tests.sh --check) > /dev/null 2> "$TMP/err2" && fail "a broken index passed"
grep -q 'tests/zz/b.sh: no statement' "$TMP/err2" || { cat "$TMP/err2" >&2; fail "a test without a statement was not named"; }
grep -q 'tests/zz/c.sh is not registered' "$TMP/err2" || { cat "$TMP/err2" >&2; fail "an unregistered test file was not named"; }
echo "test index: $n tests, each with its statement"

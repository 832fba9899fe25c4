#!/bin/sh
# configure is quiet about core/ (issue 28 point 7): autoconf's tests clean
# up with "rm -f core conftest*" in the build folder, whose core/ is the
# engine's folder, and rm printed "cannot remove 'core': Is a directory"
# after every test. configure's own rm (configure.ac) passes over an
# argument "core" that is a folder (never removing it, even with -r) and
# removes everything else as rm does.
. "$top_srcdir/tests/lib.sh"
CONF=$top_srcdir/configure
[ -f "$CONF" ] || skip "no configure script (run autoreconf -fi)"
f=$(sed -n '/^rm ()$/,/^}$/p' "$CONF")
[ -n "$f" ] || fail "configure defines no rm that passes over the core/ folder"
cd "$TMP" || fail "cd"
eval "$f"
mkdir core && touch core/keep conftest.err conftest.o "a b" || fail "setup"
rm -f core conftest.err conftest.o 2>err.txt || fail "rm -f core ... failed"
[ -s err.txt ] && fail "rm printed: $(cat err.txt)"
[ -f core/keep ] || fail "the core folder was touched"
[ -e conftest.err ] || [ -e conftest.o ] && fail "conftest files were not removed"
rm -f "a b" && [ -e "a b" ] && fail "a name with a blank was not removed"
rm -rf core
[ -f core/keep ] || fail "rm -rf core removed the engine's folder"
command rm -rf core
touch core && rm -f core && [ -e core ] && fail "a file named core was not removed"
exit 0

#!/bin/sh
# Every public symbol of the installed headers is documented: `make doc`
# runs Doxygen over them with WARN_IF_UNDOCUMENTED (Doxyfile.in), and any
# warning (an undocumented function, macro, type or member, a broken
# command) fails this test. Skipped where configure found no doxygen.
. "$top_srcdir/tests/lib.sh"
B=$top_builddir
doxygen=$(sed -n 's/^DOXYGEN = //p' "$B/Makefile" | head -1)
[ -n "$doxygen" ] && [ -x "$doxygen" ] || skip "doxygen is not installed (apt-get install doxygen)"
grep -q '^WARN_IF_UNDOCUMENTED *= *YES' "$B/Doxyfile" || fail "Doxyfile does not warn about undocumented symbols"
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "${MAKE:-make}" -s -C "$B" doc PS_DOC_DIR="$TMP/doc" \
  >"$TMP/doc.log" 2>&1 || { cat "$TMP/doc.log"; fail "make doc failed"; }
log=$TMP/doc/doxygen-warnings.log
[ -f "$log" ] || { cat "$TMP/doc.log"; fail "make doc wrote no warning log"; }
[ -f "$TMP/doc/html/index.html" ] || fail "make doc wrote no HTML"
if [ -s "$log" ]; then
  cat "$log"
  fail "doxygen: $(grep -c 'warning:' "$log") warnings in the public headers (above)"
fi
# the reference covers the installed headers: one page per header
for h in pstencil.h ps_version.h ps_backend.h; do
  grep -rlq "$h" "$TMP/doc/html" || fail "the reference has no page for $h"
done
echo "doxygen: no warnings; $(ls "$TMP/doc/html" | grep -c '\.html$') pages"
exit 0

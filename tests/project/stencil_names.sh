#!/bin/sh
# A stencil's policy lives in its own file (kernels/NAME.h): no registered
# stencil's name (X(NAME) in kernels/ps_stencils.h) appears in the project's
# files outside the allowed places, so a stencil is added, renamed or dropped
# in kernels/ alone and every front end reads it from the registry.
#
# A name counts as a whole word (letters, digits and _ around it end it:
# ps_NAME_cell, the stencil's own function, is not the name). Allowed:
#  - kernels/, tests/ and docs/, and documentation files (*.md, man pages);
#  - a path into docs/ or tests/ (docs/examples/NAME.c in Makefile.am);
#  - in backends/, the one fast-path table of each backend folder, the line
#    `... fast_paths[] = {"NAME", ...}` (ops.fast_paths; the tuned kernels
#    it declares are the stencil's by construction, so their comments may
#    name it: comments do not count under backends/);
#  - the temporary allowlist below.
# An allowlisted file that no longer names a stencil fails too: remove it.
#
# The files: `git ls-files` in a git checkout; from a tarball (make
# distcheck) the source files under $top_srcdir, build trees, files made from
# a .in template, automake's Makefile.in and aclocal.m4 and BUILT_SOURCES
# left out.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
cd "$top_srcdir" || exit 1

# Files allowed to name a stencil for a while (none now); the test fails while a
# listed file is clean.
allow_tmp=""

TMP=$(mktemp -d "${TMPDIR:-/tmp}/ps-stencil-names.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
fail=0
bad() { printf 'FAIL: %s\n' "$*" >&2; fail=1; }

# ---- the names, from the list ----------------------------------------------
names=$(sh tests/stencil-list.sh .) || { echo "FAIL: no X(NAME) entry found in kernels/ps_stencils.h" >&2; exit 1; }
names=$(echo $names)
re=$(echo $names | sed 's/ /|/g')
word="(^|[^A-Za-z0-9_])($re)([^A-Za-z0-9_]|\$)"

# ---- the files ---------------------------------------------------------------
top=$(git rev-parse --show-toplevel 2>/dev/null) || top=
if [ -n "$top" ] && [ "$(cd "$top" && pwd -P)" = "$(pwd -P)" ]; then
  git ls-files > "$TMP/all" || exit 1
else
  sed -n 's/^BUILT_SOURCES[[:space:]]*+*=//p' Makefile.am $(find . -name '*.mk') 2>/dev/null |
    tr ' \t' '\n\n' | sed '/^$/d; s|^\$(srcdir)/||' > "$TMP/built"
  find . \( -name .git -o -name autom4te.cache -o -name .libs -o -name .deps \
            -o -name '_build' -o -name 'build-*' \) -prune -o \
         -type d ! -name . -exec test -e '{}/config.status' \; -prune -o \
         -type f \( -name '*.[ch]' -o -name '*.cpp' -o -name '*.cu' -o -name '*.cl' \
            -o -name '*.sh' -o -name '*.py' -o -name '*.am' -o -name '*.mk' -o -name '*.ac' \
            -o -name '*.in' -o -name '*.m4' -o -name '*.txt' -o -name run \) -print |
    sed 's|^\./||' | grep -v -x -F -f "$TMP/built" |
    while IFS= read -r f; do
      case $f in
        aclocal.m4|*.in) [ -e "${f%.in}.am" ] || [ "$f" = aclocal.m4 ] && continue ;;
      esac
      [ -e "$f.in" ] || printf '%s\n' "$f"
    done > "$TMP/all"
fi
[ -s "$TMP/all" ] || { echo "FAIL: no files found" >&2; exit 1; }
grep -v -E '^(kernels|tests|docs)/|(^|/)[^/]*\.md$|\.[1-9]$' "$TMP/all" > "$TMP/files"

# text of file $1 with its line numbers kept; under backends/, comments blanked
# (C: /* */ and //; make, shell, Python: # to the end of the line)
text() {
  case $1 in
    backends/*.c|backends/*.h|backends/*.cpp|backends/*.cu|backends/*.cl|backends/*.hip|backends/*.inc)
      awk '{
        out = ""; s = $0
        while (s != "") {
          if (inc) { e = index(s, "*/"); if (!e) { s = ""; break }; s = substr(s, e + 2); inc = 0; continue }
          b = index(s, "/*"); l = index(s, "//")
          if (l && (!b || l < b)) { out = out substr(s, 1, l - 1); s = ""; break }
          if (b) { out = out substr(s, 1, b - 1); s = substr(s, b + 2); inc = 1; continue }
          out = out s; s = ""
        }
        print out }' "$1" ;;
    backends/*) sed 's/#.*//' "$1" ;;
    *) cat "$1" ;;
  esac
}

# ---- the search ----------------------------------------------------------------
: > "$TMP/hits"
while IFS= read -r f; do
  [ -f "$f" ] || continue
  grep -I -q -E "$word" "$f" 2>/dev/null || continue
  text "$f" | sed -E 's#(^|[^A-Za-z0-9_])(docs|tests)/[^[:space:]"'\'']*#\1#g' |
    grep -n -E "$word" | cut -d: -f1 |
    while IFS= read -r n; do printf '%s:%s:%s\n' "$f" "$n" "$(sed -n "${n}p" "$f")"; done >> "$TMP/hits"
done < "$TMP/files"

# the fast-path tables: one line per backend folder
grep -E '^backends/[^:]*:[0-9]+:.*fast_paths\[\][[:space:]]*=[[:space:]]*\{' "$TMP/hits" > "$TMP/tables"
awk -F/ '{ n[$2]++ } END { for (d in n) if (n[d] > 1) print d }' "$TMP/tables" > "$TMP/multi"
while IFS= read -r d; do
  bad "backends/$d declares more than one fast-path table naming a stencil (keep one per backend):
$(grep "^backends/$d/" "$TMP/tables")"
done < "$TMP/multi"
grep -v -x -F -f "$TMP/tables" "$TMP/hits" > "$TMP/rest"

# the temporary allowlist
for f in $allow_tmp; do
  if grep -q "^$f:" "$TMP/rest"; then
    grep -v "^$f:" "$TMP/rest" > "$TMP/rest2"; mv "$TMP/rest2" "$TMP/rest"
  elif grep -q -x -F "$f" "$TMP/files"; then
    bad "$f names no stencil any more: remove it from allow_tmp in tests/project/stencil_names.sh"
  fi
done

if [ -s "$TMP/rest" ]; then
  bad "a stencil's name ($names) outside kernels/, tests/, docs/ and the backends' fast-path tables; read it from the registry (core/ps_stencil.h: ps_stencil_default, ps_stencil_at, the stencil's options) or move the rule into kernels/NAME.h:
$(cat "$TMP/rest")"
fi
[ "$fail" -eq 0 ] && echo "stencil names ($names) only in the allowed places ($(wc -l < "$TMP/files") files searched, $(wc -l < "$TMP/tables") fast-path tables)"
exit "$fail"

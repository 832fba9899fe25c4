#!/bin/sh
# The man page cannot drift from the program (issue 28 point 6): it is made
# from docs/pstencil.1.in and the program's --help (tools/man-page.sh), so
# every option every command's --help names is in it, and the exit codes of
# `pstencil --help` (their one table, cli/main.c) are in its EXIT STATUS and
# in docs/user-guide.md; it names no variable the outputs do not have
# (model_time), renders without groff warnings, and its SEE ALSO names user
# docs that `make install` installs (dist_doc_DATA, docs/local.mk).
. "$top_srcdir/tests/lib.sh"
PAGE=$top_builddir/docs/pstencil.1
[ -s "$PAGE" ] || fail "$PAGE was not made (make all makes it)"
cmds=$("$PSTENCIL" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p')
[ -n "$cmds" ] || fail "pstencil --help lists no commands"
subs=$("$PSTENCIL" plot --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p')
[ -n "$subs" ] || fail "pstencil plot --help lists no subcommands"
missing=
n=0
for c in $cmds $(for s in $subs; do echo "plot:$s"; done); do
  # shellcheck disable=SC2046
  for o in $("$PSTENCIL" $(echo "$c" | tr ':' ' ') --help 2>/dev/null | grep -o -- '--[a-z][a-z0-9_-]*' | sort -u); do
    n=$((n + 1))
    pat=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
    grep -q -- "$pat" "$PAGE" || missing="$missing $c:$o"
  done
done
[ "$n" -gt 50 ] || fail "only $n options found in the --help texts"
[ -z "$missing" ] || fail "options of --help missing from the man page:$missing"

codes=$("$PSTENCIL" --help | sed -n '/^Exit status:/,/^$/s/^  \([0-9][0-9]*\) .*/\1/p')
[ "$(echo $codes)" = "0 1 2 3 129 130 143" ] || fail "exit codes in --help: '$(echo $codes)'"
exits=$(sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$PAGE")
for c in $codes; do
  printf '%s\n' "$exits" | grep -q "^\.B $c\$" || fail "exit code $c missing from the man page's EXIT STATUS"
  grep -q "\b$c\b" "$top_srcdir/docs/user-guide.md" || fail "exit code $c missing from docs/user-guide.md"
done
grep -q "model_time" "$PAGE" && fail "the man page names model_time, which outputs do not have"
for d in user-guide.md file-conventions.md pictures.md; do
  grep -q "$d" "$PAGE" || fail "SEE ALSO does not name $d"
  sed -n '/^dist_doc_DATA/,/^[^	]*$/p;/^ps_doc_files/,/[^\\]$/p' "$top_srcdir/docs/local.mk" | grep -q "docs/$d" ||
    fail "docs/$d is not installed (dist_doc_DATA)"
done
grep -q "@docdir@\|@OPTIONS@\|@EXIT_STATUS@" "$PAGE" && fail "a placeholder is left in the man page"
if command -v groff >/dev/null 2>&1; then
  w=$(groff -man -ww -z "$PAGE" 2>&1)
  [ -z "$w" ] || fail "groff warns on the man page: $w"
fi
exit 0

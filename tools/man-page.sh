#!/bin/sh
# Make the man page from its template and the program's own --help, so that
# its options and exit codes cannot drift from what the program says:
#   tools/man-page.sh TEMPLATE PSTENCIL DOCDIR > pstencil.1
# @OPTIONS@ becomes one subsection per command (and plot subcommand) holding
# its --help text; @EXIT_STATUS@ the "Exit status:" table of `pstencil --help`;
# @docdir@ the folder the user docs are installed in.
set -u
tmpl=$1 prog=$2 docdir=$3
roff() { # plain text -> roff: backslashes, leading dots and quotes, minus signs
  sed -e 's/\\/\\e/g' -e 's/^\([.'"'"']\)/\\\&\1/' -e 's/-/\\-/g'
}
help_of() { # COMMAND...: its --help, or nothing (the page then lacks it: the test says so)
  "$prog" "$@" --help 2>/dev/null
}
options() {
  echo ".SH OPTIONS BY COMMAND"
  printf '%s\n' 'What \fBpstencil\fR \fIcommand\fR \fB\-\-help\fR prints.'
  cmds=$(help_of | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p')
  for c in $cmds; do
    subs=""
    [ "$c" = plot ] && subs=$(help_of plot | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p')
    for s in "" $subs; do
      echo ".SS pstencil $c${s:+ $s}"
      echo ".nf"
      # shellcheck disable=SC2086
      help_of $c $s | roff
      echo ".fi"
    done
  done
}
exit_status() {
  echo ".SH EXIT STATUS"
  help_of | sed -n '/^Exit status:/,/^$/s/^  \([0-9][0-9]*\)  *\(.*\)/\1\t\2/p' |
    while IFS="$(printf '\t')" read -r code what; do
      echo ".TP"
      echo ".B $code"
      printf '%s\n' "$what" | roff
    done
}
[ -n "$(help_of)" ] || { echo "man-page.sh: $prog --help printed nothing" >&2; exit 1; }
opts=$(options) || exit 1
codes=$(exit_status) || exit 1
while IFS= read -r line; do
  case $line in
    @OPTIONS@) printf '%s\n' "$opts" ;;
    @EXIT_STATUS@) printf '%s\n' "$codes" ;;
    *) printf '%s\n' "$line" | sed "s|@docdir@|$docdir|g" ;;
  esac
done < "$tmpl"

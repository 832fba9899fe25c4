#!/bin/bash
# List the commits whose subject is over 72 characters, so that
# `git log --oneline` stays readable: the subject says what changed, the
# body says why (README.md, "Contributing").
#
#   tools/check-commits.sh [--all | RANGE]
#
# RANGE is a git revision range (e.g. origin/main..HEAD). Default: the
# commits not yet on origin/main, or HEAD~20..HEAD where there is no
# origin/main. --all: every commit after the cut-off up to HEAD (CI).
# Only descendants of the cut-off commit are checked: the history before
# it cannot be rewritten. Exit 0: none too long; 1: some (listed);
# 2: not a git checkout, a bad range, or the cut-off is not in this clone.
set -u
cutoff=19c89c2    # main's HEAD when the rule was made (issue 29)
max=72
export LC_ALL=C.UTF-8 2>/dev/null   # count characters, not bytes

git rev-parse --git-dir >/dev/null 2>&1 || { echo "$0: not a git checkout" >&2; exit 2; }
if ! git cat-file -e "$cutoff^{commit}" 2>/dev/null; then
  echo "$0: the cut-off commit $cutoff is not in this clone (shallow?): nothing checked" >&2
  exit 2
fi
case ${1:-} in
  --all) range="$cutoff..HEAD" ;;
  "")
    if git rev-parse -q --verify origin/main >/dev/null; then
      range="origin/main..HEAD"
    elif git rev-parse -q --verify 'HEAD~20' >/dev/null; then
      range="HEAD~20..HEAD"
    else
      range="HEAD"
    fi ;;
  -*) echo "usage: $0 [--all | RANGE]" >&2; exit 2 ;;
  *) range=$1 ;;
esac

# the commits of the range that descend from the cut-off
new=$(git rev-list --ancestry-path "$cutoff..HEAD") || exit 2
inrange=$(git rev-list "$range" 2>/dev/null) || { echo "$0: bad range '$range'" >&2; exit 2; }
checked=0 long=0
while IFS= read -r c; do
  [ -n "$c" ] || continue
  case $'\n'"$new"$'\n' in *$'\n'"$c"$'\n'*) ;; *) continue ;; esac
  checked=$((checked + 1))
  s=$(git log -1 --format=%s "$c")
  if [ "${#s}" -gt "$max" ]; then
    long=$((long + 1))
    printf '%s %3d %s\n' "$(git rev-parse --short "$c")" "${#s}" "$s"
  fi
done <<< "$inrange"
echo "$range: $checked commit(s) after $cutoff checked, $long with a subject over $max characters"
[ "$long" -eq 0 ]

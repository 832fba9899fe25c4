#!/bin/sh
# The docs stay reference docs (docs/performance.md, "Method"):
#  - docs/performance.md has at most 300 lines (the measurement history lives
#    in git, not in the page);
#  - no file of the project holds an absolute path of a working copy
#    (a path under the work, root, home or Users folders of the filesystem root);
#  - no line in backends/, core/ or kernels/ cites a measurement round
#    ("Round 7"): a comment states the rule, its threshold and the evidence.
# The files: `git ls-files` in a git checkout; from a tarball (make distcheck)
# the source and doc files under $top_srcdir, build trees and files generated
# from a .in template left out.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
cd "$top_srcdir" || exit 1
self=tests/project/docs_rules.sh
max_lines=300
# a path that starts at the root (not one nested deeper, nor a URL's path)
abs_re='(^|[^[:alnum:]_.~/-])/(work/[[:alnum:]_]|root/|home/[[:alnum:]_.-]+/|Users/[[:alnum:]_.-]+/)'
round_re='(^|[^[:alnum:]_])[Rr]ound [0-9]'
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }

list=$(mktemp "${TMPDIR:-/tmp}/ps-docs-rules.XXXXXX") || exit 1
trap 'rm -f "$list"' EXIT
top=$(git rev-parse --show-toplevel 2>/dev/null) || top=
if [ -n "$top" ] && [ "$(cd "$top" && pwd -P)" = "$(pwd -P)" ]; then
  git ls-files > "$list" || exit 1
  how="git ls-files"
else
  find . \( -name .git -o -name autom4te.cache -o -name .libs -o -name .deps \
            -o -name '_build' -o -name 'build-*' \) -prune -o \
         -type d ! -name . -exec test -e '{}/config.status' \; -prune -o \
         -type f \( -name '*.[ch]' -o -name '*.cpp' -o -name '*.cu' -o -name '*.cl' \
            -o -name '*.md' -o -name '*.sh' -o -name '*.py' -o -name '*.am' \
            -o -name '*.mk' -o -name '*.ac' -o -name '*.in' -o -name '*.m4' \
            -o -name '*.1' -o -name '*.txt' -o -name '*.supp' -o -name run \
            -o -name commit-msg \) -print |
    sed 's|^\./||' |
    while IFS= read -r f; do [ -e "$f.in" ] || printf '%s\n' "$f"; done > "$list"
  how="the source files under $top_srcdir"
fi
[ -s "$list" ] || { echo "no files found ($how)" >&2; exit 1; }

# 1. the page's length
n=$(wc -l < docs/performance.md)
[ "$n" -le "$max_lines" ] ||
  bad "docs/performance.md has $n lines, at most $max_lines: keep the method, the current figures, the rules and the limits; the history stays in git"

# 2. absolute paths of a working copy
hits=$(grep -v -x -F "$self" "$list" | while IFS= read -r f; do
  [ -f "$f" ] && grep -I -n -E -H "$abs_re" "$f"
done)
[ -z "$hits" ] || bad "absolute paths of a working copy (use a path relative to the checkout):
$hits"

# 3. measurement rounds in code comments
hits=$(grep -E '^(backends|core|kernels)/' "$list" | while IFS= read -r f; do
  [ -f "$f" ] && grep -I -n -E -H "$round_re" "$f"
done)
[ -z "$hits" ] || bad "comments citing a measurement round (state the rule, its threshold and docs/performance.md's section):
$hits"

n=$(wc -l < "$list")
[ "$fail" -eq 0 ] && echo "docs rules hold ($n files from $how)"
exit "$fail"

#!/bin/sh
# docs/adding-a-stencil.md followed literally: its worked example's blocks
# are applied to a copy of the source tree (the tracked files), which is
# configured with the CPU backends (--disable-cuda --disable-hip
# --disable-opencl: the stencil's GPU build is the CI's) and built, and the
# commands of its `check` blocks run there and must all succeed.
#
# The doc's blocks, in page order, by the words after the fence's language:
#   file=PATH     write the block as PATH (a new file)
#   append=PATH   add the block at the end of PATH
#   (diff)        a patch, applied with patch -p1 at the top of the tree
#   check         shell commands, run with sh -e at the top of the tree
# The pristine copy is built first, so the doc's first `make` rebuilds only
# what the new stencil touches; its rebuild count is checked against the
# page's "The rebuild cost" (the CPU objects). Skipped without git, autotools
# or patch, or outside a git checkout (a tarball's tree is checked by CI).
. "$top_srcdir/tests/lib.sh"
# the copy is built without the sanitizers: under them it would test nothing new
skip_under_sanitizer "the worked example is built and checked in the main job"
S=$top_srcdir
doc=$S/docs/adding-a-stencil.md
for t in git autoreconf patch make tar; do
  command -v "$t" >/dev/null 2>&1 || skip "$t is not installed"
done
top=$(git -C "$S" rev-parse --show-toplevel 2>/dev/null) || skip "$S is not a git checkout"
[ "$(cd "$top" && pwd -P)" = "$(cd "$S" && pwd -P)" ] || skip "$S is not the top of its git checkout"

# ---- the doc's blocks ------------------------------------------------------------
mkdir "$TMP/blocks" "$TMP/src"
awk -v dir="$TMP/blocks" '
  !inb && /^```/ { inb = 1; n++; info = substr($0, 4); sub(/^[^ ]* */, "", info)
                   if (substr($0, 4) ~ /^diff/) info = "diff"
                   printf "%d %s\n", n, info > (dir "/index"); f = dir "/" n; printf "" > f; next }
  inb && /^```[[:space:]]*$/ { inb = 0; close(f); next }
  inb { print > f }' "$doc"
grep -E ' (file=|append=|diff$|check$)' "$TMP/blocks/index" > "$TMP/steps" || true
for want in 'file=' 'append=' 'diff$' 'check$'; do
  grep -Eq " $want" "$TMP/steps" || fail "docs/adding-a-stencil.md has no '$want' block (the worked example)"
done
grep -c '' "$TMP/steps" | { read -r n; echo "adding_stencil: $n blocks of the worked example"; }

# ---- a copy of the tree, configured and built before the change -------------------
(cd "$S" && git ls-files -z | xargs -0 tar -cf -) | (cd "$TMP/src" && tar -xf -) ||
  fail "copying the tracked files"
cd "$TMP/src" || exit 1
# the checks run the copy's program, plugins and tests, never this build's
unset PSTENCIL PSTENCIL_PLUGIN_PATH top_srcdir top_builddir MAKEFLAGS MFLAGS MAKELEVEL
t0=$(date +%s)
{ autoreconf -fi && ./configure --disable-cuda --disable-hip --disable-opencl &&
  make -j2; } > "$TMP/build.log" 2>&1 || { tail -40 "$TMP/build.log"; fail "the pristine copy does not build"; }
t1=$(date +%s)

# ---- the change, as the page writes it ----------------------------------------------
: > "$TMP/check.sh"
while read -r n what; do
  b=$TMP/blocks/$n
  case $what in
    file=*) p=${what#file=}; [ ! -e "$p" ] || fail "block $n: $p exists already (file= makes a new file)"
            cp "$b" "$p" ;;
    append=*) p=${what#append=}; [ -f "$p" ] || fail "block $n: no $p to append to"
              cat "$b" >> "$p" ;;
    diff) patch -p1 --forward --no-backup-if-mismatch < "$b" > "$TMP/patch.log" 2>&1 ||
            { cat "$TMP/patch.log"; fail "block $n (diff) does not apply to the tree"; } ;;
    check) cat "$b" >> "$TMP/check.sh" ;;
  esac
done < "$TMP/steps"

# ---- the page's checks ---------------------------------------------------------------
if ! sh -e -x "$TMP/check.sh" > "$TMP/check.log" 2>&1; then
  tail -60 "$TMP/check.log"
  find tests -name "*.log" -exec grep -l "^FAIL" {} + 2>/dev/null | while read -r l; do cat "$l"; done
  fail "a check of docs/adding-a-stencil.md failed in the copy (above)"
fi
t2=$(date +%s)
echo "adding_stencil: copy configured and built in $((t1 - t0)) s, the page's checks took $((t2 - t1)) s"
# the rebuild: the doc's first make recompiled the CPU objects the page counts
want=$(sed -n 's/.*it is the \([0-9][0-9]*\) CPU objects.*/\1/p' "$doc")
[ -n "$want" ] || fail "docs/adding-a-stencil.md states no CPU object count for the rebuild"
got=$(sed -n '/^+ make -j2$/,/^+ [^m]/p' "$TMP/check.log" | grep -cE '^ +CC +(core|bench|backends)/')
[ "$got" -eq "$want" ] ||
  fail "the first make recompiled $got engine objects, docs/adding-a-stencil.md says $want (The rebuild cost)"
grep '^+ ' "$TMP/check.log" | sed 's/^/adding_stencil: ran /'
exit 0

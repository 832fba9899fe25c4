#!/bin/sh
# The GPU units are compiled by rules of our own (backends/gpu/local.mk: nvcc,
# hipcc, the mock's C++ compiler), which have no automatic dependency
# tracking: every header they include, directly or through another header,
# must be a prerequisite there (PS_GPU_DEPS, PS_GPU_HOST_DEPS, the kernel
# files of kernels/local.mk), or a change to it leaves a stale plugin.
. "$top_srcdir/tests/lib.sh"
cd "$top_srcdir" || exit 1
mk=backends/gpu/local.mk
# the headers the rules name: the definitions (with their continuation
# lines) of their prerequisite lists and of kernels/local.mk's files
defs() { # FILE VAR...
  f=$1; shift
  awk -v vars=" $* " 'index(vars, " " $1 " ") && $2 == "=" { on = 1 }
    on { print; if ($0 !~ /\\$/) on = 0 }' "$f"
}
listed=$(defs "$mk" PS_GPU_HDRS PS_GPU_DEPS PS_GPU_HOST_DEPS
  defs kernels/local.mk PS_STENCIL_FILES PS_KERNEL_FILES PS_KERNEL_HOST_FILES)
[ -n "$listed" ] || fail "could not read the dependency lists of $mk"
# resolve NAME as an include of FILE: its own folder, then the -I folders
resolve() {
  for d in "$(dirname "$2")" core kernels backends/gpu; do
    [ -f "$d/$1" ] && { echo "$d/$1" | sed 's|^\./||'; return; }
  done
}
find backends/gpu -name '*.cpp' -o -name '*.h' | sort >"$TMP/todo"
[ -s "$TMP/todo" ] || fail "no GPU units found"
: >"$TMP/seen"
while [ -s "$TMP/todo" ]; do
  f=$(head -1 "$TMP/todo"); sed -i 1d "$TMP/todo"
  grep -qxF "$f" "$TMP/seen" && continue
  echo "$f" >>"$TMP/seen"
  for inc in $(sed -n 's/^[ 	]*#[ 	]*include[ 	]*"\([^"]*\)".*/\1/p' "$f"); do
    [ "$inc" = config.h ] && continue
    p=$(resolve "$inc" "$f")
    [ -n "$p" ] || continue # a vendor header
    echo "$p" >>"$TMP/todo"
  done
done
n=0
for p in $(grep -v '^backends/gpu/.*\.cpp$' "$TMP/seen"); do
  n=$((n + 1))
  printf '%s\n' "$listed" | grep -qF "$p" || fail "$p is included by a GPU unit but is not a prerequisite of its rules in $mk"
done
[ "$n" -ge 10 ] || fail "only $n headers found: the include scan is broken"
echo "$n headers, each a prerequisite of the GPU rules"

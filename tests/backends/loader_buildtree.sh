#!/bin/sh
# The uninstalled program finds its own build tree's plugins without
# PSTENCIL_PLUGIN_PATH (this test unsets it) and never anything else:
#  - `pstencil backends` names the build tree as where plugins come from, and
#    every plugin it loads lies in the build tree's backends/NAME/.libs;
#  - opencl (when built, with a device: PoCL) is listed as usable;
#  - `run --backend check` says in its report which plugin file it ran and
#    that it came from the build tree;
#  - the .libs binary run directly, with a scratch install's library first on
#    LD_LIBRARY_PATH and a fake stale plugin in that install, still loads the
#    build tree's plugins, never the stale one;
#  - relative PSTENCIL_PLUGIN_PATH entries are ignored with a warning (the
#    current directory is never searched), absolute ones still work.
. "$top_srcdir/tests/lib.sh"
unset PSTENCIL_PLUGIN_PATH
B=$(cd "$top_builddir" && pwd -P)
PS=$B/cli/pstencil
built() { grep -q "^#define $1 1" "$B/config.h"; }

expect_exit 0 "$PS" backends
cp "$TMP/out" "$TMP/backends.txt"
grep -Fq "plugins from build tree: $B/backends/" "$TMP/out" \
  || { cat "$TMP/out"; fail "backends does not search the build tree's plugins"; }
# every plugin that loads comes from the build tree
grep -E '(ok: |loads from )' "$TMP/out" | grep -v 'built-in' >"$TMP/plugins" || true
while read -r line; do
  case $line in
    *" $B/backends/"*"/.libs/pstencil_"*".so (build tree)"*) ;;
    *) fail "a plugin that is not the build tree's: $line" ;;
  esac
done <"$TMP/plugins"
if built PS_BUILD_OPENCL; then
  line=$(grep -E '^opencl ' "$TMP/out") || fail "no opencl line"
  case $line in
    *"ok: "*"$B/backends/opencl/.libs/pstencil_opencl.so (build tree)") ;;
    *"no usable device"*) echo "opencl loads from the build tree but has no device here: $line" ;;
    *) cat "$TMP/out"; fail "opencl is not usable from the build tree: $line" ;;
  esac
fi

# run's report names the plugin and where it came from (the check plugin is
# built by make check)
if [ -f "$B/backends/check/.libs/pstencil_check.so" ]; then
  expect_exit 0 "$PS" gen -o "$TMP/in.nc" --scale 0.1
  expect_exit 0 "$PS" run --backend check --steps 1 -o "$TMP/o.nc" --no-progress "$TMP/in.nc"
  cat "$TMP/out" "$TMP/err" >"$TMP/run.txt"
  grep -Fq "plugin      : $B/backends/check/.libs/pstencil_check.so (build tree)" \
    "$TMP/run.txt" || { cat "$TMP/run.txt"; fail "run's report does not say where the plugin came from"; }
fi

# a stale install: a scratch prefix whose plugin folder holds a fake plugin,
# its library first on the library path of the build tree's .libs binary
P=$TMP/prefix
mkdir -p "$P/lib/pstencil"
cp "$B"/core/.libs/libpstencil.so* "$P/lib/" 2>/dev/null || fail "no core/.libs/libpstencil.so"
for n in opencl check cuda hip; do
  echo "stale $n" >"$P/lib/pstencil/pstencil_$n.so"
done
bin=$B/cli/.libs/pstencil
[ -x "$bin" ] || bin=$B/cli/.libs/lt-pstencil
[ -x "$bin" ] || skip "no uninstalled binary in cli/.libs"
LD_LIBRARY_PATH=$P/lib:$B/io/.libs:$B/job/.libs:$B/plot/.libs:$B/validate/.libs "$bin" backends >"$TMP/out" 2>&1 \
  || { cat "$TMP/out"; fail "the .libs binary fails"; }
grep -Fq "$P/lib/pstencil" "$TMP/out" && { cat "$TMP/out"; fail "the build-tree binary looked at a stale install"; }
grep -Fq "plugins from build tree: $B/backends/" "$TMP/out" \
  || { cat "$TMP/out"; fail "the .libs binary does not search the build tree"; }

# relative entries of PSTENCIL_PLUGIN_PATH: ignored, with a warning
mkdir -p "$TMP/cwd/backends/check/.libs"
if [ -f "$B/backends/check/.libs/pstencil_check.so" ]; then
  cp "$B/backends/check/.libs/pstencil_check.so" "$TMP/cwd/"
  cp "$B/backends/check/.libs/pstencil_check.so" "$TMP/cwd/backends/check/.libs/"
fi
(cd "$TMP/cwd" && PSTENCIL_PLUGIN_PATH=".:backends/check/.libs" "$PS" backends) >"$TMP/out" 2>"$TMP/err" \
  || { cat "$TMP/err"; fail "backends with a relative plugin path fails"; }
grep -q "warning: ignoring '\.' in PSTENCIL_PLUGIN_PATH" "$TMP/err" \
  || { cat "$TMP/err"; fail "no warning about a relative plugin path entry"; }
[ "$(grep -c 'warning: ignoring' "$TMP/err")" -eq 1 ] \
  || { cat "$TMP/err"; fail "not exactly one warning about relative plugin path entries"; }
grep -Fq "$TMP/cwd" "$TMP/out" && { cat "$TMP/out"; fail "a plugin was loaded from the current directory"; }
grep -Eq '^check .*ok: ' "$TMP/out" && { cat "$TMP/out"; fail "check loaded through a relative path"; }
# an absolute entry works
(cd "$TMP/cwd" && PSTENCIL_PLUGIN_PATH="$TMP/cwd" "$PS" backends) >"$TMP/out" 2>"$TMP/err" \
  || fail "backends with an absolute plugin path fails"
if [ -f "$TMP/cwd/pstencil_check.so" ]; then
  grep -Fq "$TMP/cwd/pstencil_check.so (PSTENCIL_PLUGIN_PATH)" "$TMP/out" \
    || { cat "$TMP/out"; fail "check not loaded from an absolute PSTENCIL_PLUGIN_PATH"; }
fi
echo "build-tree plugins: $(wc -l <"$TMP/plugins") loaded, all from $B/backends"
grep -E '^opencl ' "$TMP/backends.txt" || true
exit 0

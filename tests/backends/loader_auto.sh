#!/bin/sh
# auto tries backends by priority and loads a plugin only when its turn comes,
# when the plugin declares its priority in its file (PS_PLUGIN_DECLARE), and
# its report says what it picked and from where:
#  - a plugin declared below the built-ins is never loaded: it cannot load
#    (undefined symbol), yet auto says "not loaded", never "cannot load";
#  - the same declared above the built-ins is loaded first, fails, and is
#    passed over with dlopen's reason;
#  - a working one declared above them is picked, and run's report names its
#    file and PSTENCIL_PLUGIN_PATH as the origin;
#  - the real plugins of this build declare what their ops tables say
#    (tests/backends/test_loader checks that).
. "$top_srcdir/tests/lib.sh"
L=$top_builddir/tests/backends/.libs
for p in declow dechigh decgood; do
  [ -f "$L/pstencil_$p.so" ] || fail "no test plugin $L/pstencil_$p.so"
  mkdir "$TMP/$p" && cp "$L/pstencil_$p.so" "$TMP/$p/pstencil_opencl.so"
done
expect_exit 0 "$PSTENCIL" gen -o "$TMP/in.nc" --scale 0.1
auto_run() { # DIR: run auto with that plugin directory only; stderr in $TMP/err
  rm -f "$TMP/o.nc"
  expect_exit 0 env PSTENCIL_PLUGIN_PATH="$TMP/$1" PSTENCIL_BACKEND= "$PSTENCIL" run \
    --steps 1 --no-progress -o "$TMP/o.nc" "$TMP/in.nc"
  cat "$TMP/out" >>"$TMP/err"
}

auto_run declow
expect_err "auto picked '(openmp|reference)' \(.*, built-in\)"
expect_err "not loaded \(lower priority\): opencl"
grep -q 'cannot load' "$TMP/err" && { cat "$TMP/err"; fail "a plugin below the pick was loaded"; }

auto_run dechigh
expect_err "auto picked '(openmp|reference)'"
expect_err "passed over: .*backend 'opencl': cannot load $TMP/dechigh/pstencil_opencl\.so: .*undefined symbol"

auto_run decgood
expect_err "auto picked 'opencl' \(test plugin device \(opencl\)\) from $TMP/decgood/pstencil_opencl\.so \(PSTENCIL_PLUGIN_PATH\)"
expect_err "plugin      : $TMP/decgood/pstencil_opencl\.so \(PSTENCIL_PLUGIN_PATH\)"
echo "auto loads plugins in declared priority order and stops at the first usable"
exit 0

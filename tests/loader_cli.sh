#!/bin/sh
# pstencil backends lists every known backend with a reason for each that
# cannot run; a missing, wrong-ABI or unloadable cuda plugin is reported, not
# a crash.
. "$top_srcdir/tests/lib.sh"
expect_exit 0 "$PSTENCIL" backends
for b in cuda hip opencl openmp reference; do
  grep -Eq "^$b " "$TMP/out" || { cat "$TMP/out"; fail "no line for $b"; }
done
grep -Eq '^openmp +built-in +ok: 1 device' "$TMP/out" || { cat "$TMP/out"; fail "openmp not ok"; }
grep -Eq '^reference +built-in +ok: 1 device' "$TMP/out" || fail "reference not ok"
grep -Eq 'exact float32\+float64' "$TMP/out" || fail "modes not shown"
# each of cuda and hip either runs (device lines) or says why not
for b in cuda hip; do
  line=$(grep -E "^$b " "$TMP/out")
  case $line in
    *"cannot run: "?*|*"no usable device: "?*|*"ok: "*) ;;
    *) fail "$b line has no reason: $line" ;;
  esac
done
mkdir "$TMP/p"
# no plugin at all
expect_exit 0 env PSTENCIL_PLUGIN_PATH="$TMP/p" "$PSTENCIL" backends
grep -Eq "^cuda .*(pstencil_cuda\.so not found in $TMP/p|was not built)" "$TMP/out" || { cat "$TMP/out"; fail "missing cuda plugin not explained"; }
# a cuda plugin built for another ABI
cp "$top_builddir/tests/.libs/pstencil_badabi.so" "$TMP/p/pstencil_cuda.so"
expect_exit 0 env PSTENCIL_PLUGIN_PATH="$TMP/p" "$PSTENCIL" backends
grep -Eq '^cuda .*ABI version 999.*needs version [0-9]+' "$TMP/out" || { cat "$TMP/out"; fail "wrong ABI not explained"; }
# a cuda plugin whose libraries cannot load
cp "$top_builddir/tests/.libs/pstencil_undefsym.so" "$TMP/p/pstencil_cuda.so"
expect_exit 0 env PSTENCIL_PLUGIN_PATH="$TMP/p" "$PSTENCIL" backends
grep -Eq '^cuda .*cannot load .*undefined symbol' "$TMP/out" || { cat "$TMP/out"; fail "unloadable plugin not explained"; }
expect_exit 2 "$PSTENCIL" backends --bogus
expect_err "unexpected argument '--bogus'"
exit 0

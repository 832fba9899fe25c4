#!/bin/sh
# pstencil backends lists every backend of the backend list with a reason for
# each that cannot run, and says what auto picks; the help texts name the
# list's backends; a missing, wrong-ABI or unloadable cuda plugin is
# reported, not a crash.
. "$top_srcdir/tests/lib.sh"
# the list, read as configure reads it (check-only entries are not offered)
names=$(sed -n '/, CHECK,/!s/^[	 ]*X(\([a-z0-9_]*\), *[A-Z]*, .*/\1/p' \
  "$top_srcdir/backends/ps_backends.h")
[ -n "$names" ] || fail "no entries read from backends/ps_backends.h"
expect_exit 0 "$PSTENCIL" backends
for b in $names; do
  line=$(grep -E "^$b " "$TMP/out") || { cat "$TMP/out"; fail "no line for $b"; }
  # each either runs (device lines) or says why not
  case $line in
    *"cannot run: "?*|*"no usable device: "?*|*"ok: "*) ;;
    *) fail "$b line has no reason: $line" ;;
  esac
done
grep -Eq '^openmp +built-in +ok: 1 device' "$TMP/out" || { cat "$TMP/out"; fail "openmp not ok"; }
grep -Eq '^reference +built-in +ok: 1 device' "$TMP/out" || fail "reference not ok"
grep -Eq '^  priority 0; capabilities: the oracle$' "$TMP/out" || fail "reference priority not shown"
grep -Eq 'exact float32\+float64' "$TMP/out" || fail "modes not shown"
grep -Eq '^auto picks [a-z0-9_]+\.$' "$TMP/out" || { cat "$TMP/out"; fail "no auto line"; }
# help texts list the same names, in the list's order
want=$(echo $names | sed 's/ /, /g')
expect_exit 0 "$PSTENCIL" backends --help
grep -Fq "Backends: $want." "$TMP/out" || { cat "$TMP/out"; fail "backends --help does not list: $want"; }
expect_exit 0 "$PSTENCIL" --help
grep -Fq "Backends: $want (" "$TMP/out" || { cat "$TMP/out"; fail "pstencil --help does not list: $want"; }
expect_exit 2 "$PSTENCIL" run --backend nosuch -n 1 -o "$TMP/x.nc"
expect_err "unknown backend 'nosuch' \(known: $want;"
mkdir "$TMP/p"
# no plugin at all
expect_exit 0 env PSTENCIL_PLUGIN_PATH="$TMP/p" "$PSTENCIL" backends
grep -Eq "^cuda .*(pstencil_cuda\.so not found in $TMP/p|was not built)" "$TMP/out" || { cat "$TMP/out"; fail "missing cuda plugin not explained"; }
# a cuda plugin built for another ABI
cp "$top_builddir/tests/backends/.libs/pstencil_badabi.so" "$TMP/p/pstencil_cuda.so"
expect_exit 0 env PSTENCIL_PLUGIN_PATH="$TMP/p" "$PSTENCIL" backends
grep -Eq '^cuda .*ABI version 999.*needs version [0-9]+' "$TMP/out" || { cat "$TMP/out"; fail "wrong ABI not explained"; }
# a cuda plugin whose libraries cannot load
cp "$top_builddir/tests/backends/.libs/pstencil_undefsym.so" "$TMP/p/pstencil_cuda.so"
expect_exit 0 env PSTENCIL_PLUGIN_PATH="$TMP/p" "$PSTENCIL" backends
grep -Eq '^cuda .*cannot load .*undefined symbol' "$TMP/out" || { cat "$TMP/out"; fail "unloadable plugin not explained"; }
expect_exit 2 "$PSTENCIL" backends --bogus
expect_err "unexpected argument '--bogus'"
exit 0

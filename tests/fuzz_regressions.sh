#!/bin/sh
# The regression corpus of the fuzz harness (tests/fuzz/regressions): hostile
# files of a few bytes to a few kilobytes that once crashed libnetcdf inside
# nc_open, made it allocate gigabytes (an empty record dimension beside a
# billion latitudes) or read for tens of seconds. Each one
# goes through the fuzz target (normal build) and through every command that
# reads a file, under a 512 MB address-space limit and a 5 s timeout: a clean
# exit 2 with a message, never a crash, a hang or a memory blow-up.
. "$top_srcdir/tests/lib.sh"
replay="$top_builddir/tests/fuzz/fuzz_replay"
[ -x "$replay" ] || skip "fuzz_replay not built"
cd "$TMP" || fail "cd"
# the address-space limit, except under the sanitizer CI job: ASan reserves
# terabytes of shadow address space at start and cannot run under ulimit -v
# (the memory ceiling is checked by the normal build; the rest runs there too)
vlimit() { [ -n "${PSTENCIL_TEST_SANITIZER:-}" ] || ulimit -v "$1"; }
n=0
for f in "$top_srcdir"/tests/fuzz/regressions/*; do
  b=$(basename "$f")
  ( vlimit 1048576; timeout 5 "$replay" "$f" ) >out 2>err || {
    cat err >&2; fail "$b: the fuzz target failed (exit $?)"; }
  for cmd in summary run compare plot; do
    case $cmd in
      summary) set -- summary "$f" ;;
      run) set -- run "$f" -o out.nc --steps 1 ;;
      compare) set -- compare "$f" "$f" ;;
      plot) set -- plot slice "$f" -o out.png ;;
    esac
    ( vlimit 524288; timeout 5 "$PSTENCIL" "$@" ) >out 2>err
    rc=$?
    [ "$rc" -eq 2 ] || { cat err >&2; fail "$b: pstencil $cmd exited $rc, expected 2"; }
    grep -q "$b" err || { cat err >&2; fail "$b: pstencil $cmd gave no message naming the file"; }
    grep -Eq "truncated|damaged|declares|empty" err || {
      cat err >&2; fail "$b: pstencil $cmd: the message does not say what is wrong"; }
    [ -e out.nc ] && fail "$b: run left an output behind"
    n=$((n + 1))
  done
done
[ "$n" -ge 20 ] || fail "only $n cases ran"
echo "fuzz regressions: $n command runs, all clean"

#!/bin/sh
# The regression corpus of the fuzz harness: hostile files of a few bytes to
# a few kilobytes that once crashed libnetcdf inside nc_open, overflowed a
# reader's buffer, made it allocate gigabytes or read for tens of seconds.
# The committed ones (tests/fuzz/regressions) and those the script
# tests/fuzz/make_regressions.py writes here go through the fuzz target
# (normal build) and through every command that reads a file, under a 512 MB
# address-space limit and a 5 s timeout: a clean exit 2 with a message, never
# a crash, a hang or a memory blow-up. With valgrind, the fuzz target and
# `run` replay them under memcheck too: it sees writes inside libnetcdf,
# which ASan's instrumentation of pstencil's own code does not.
. "$top_srcdir/tests/lib.sh"
replay="$top_builddir/tests/fuzz/fuzz_replay"
[ -x "$replay" ] || skip "fuzz_replay not built"
command -v python3 >/dev/null || skip "no python3 to write the hostile files"
cd "$TMP" || fail "cd"
python3 "$top_srcdir/tests/fuzz/make_regressions.py" "$TMP/made" >/dev/null ||
  fail "make_regressions.py failed"
# the address-space limit, except under the sanitizer CI job: ASan reserves
# terabytes of shadow address space at start and cannot run under ulimit -v
# (the memory ceiling is checked by the normal build; the rest runs there too)
vlimit() { [ -n "${PSTENCIL_TEST_SANITIZER:-}" ] || ulimit -v "$1"; }
n=0
for f in "$top_srcdir"/tests/fuzz/regressions/*.nc "$TMP"/made/*.nc; do
  b=$(basename "$f")
  ( vlimit 1048576; timeout 5 "$replay" "$f" ) >out 2>err
  rc=$?
  [ "$rc" -eq 0 ] || { cat err >&2; fail "$b: the fuzz target failed (exit $rc)"; }
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
    grep -Eq "truncated|damaged|declares|empty|corrupted|monotonic|finite|outside" err || {
      cat err >&2; fail "$b: pstencil $cmd: the message does not say what is wrong"; }
    [ -e out.nc ] && fail "$b: run left an output behind"
    n=$((n + 1))
  done
done
[ "$n" -ge 48 ] || fail "only $n cases ran"
echo "fuzz regressions: $n command runs, all clean"
# memcheck: any invalid read or write, in pstencil or in a library, fails
if [ -n "${PSTENCIL_TEST_SANITIZER:-}" ]; then
  echo "memcheck replay skipped under the sanitizers"
elif command -v valgrind >/dev/null; then
  vg="$top_builddir/libtool --mode=execute valgrind -q --error-exitcode=99 --leak-check=no"
  $vg "$replay" "$top_srcdir"/tests/fuzz/regressions/*.nc "$TMP"/made/*.nc >out 2>err
  rc=$?
  if [ "$rc" -ne 0 ] && grep -q "debuginfo reader" err; then
    # valgrind 3.19 cannot read clang 14's DWARF 5 (CFLAGS=-gdwarf-4 builds it readable)
    echo "memcheck replay skipped: valgrind cannot read this build's debug information"
    exit 0
  fi
  [ "$rc" -eq 0 ] || { cat err >&2; fail "memcheck: the fuzz target replay has errors"; }
  for f in "$TMP"/made/*.nc; do
    $vg "$top_builddir/cli/pstencil" run -b reference "$f" -o out.nc --steps 1 >out 2>err
    rc=$?
    [ "$rc" -eq 2 ] || { cat err >&2; fail "memcheck: $(basename "$f"): run exited $rc, expected 2"; }
  done
  echo "memcheck: the corpus replayed clean"
else
  echo "memcheck replay skipped: no valgrind"
fi

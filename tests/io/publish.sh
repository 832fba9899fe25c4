#!/bin/sh
# Publishing an output where link() fails with something other than EEXIST
# (a file system without hard links; simulated with an LD_PRELOAD shim):
# the output is still published without --force (Linux's no-replace rename),
# and an output that appears meanwhile is never clobbered: exit 2, "appeared
# while pstencil was writing it", the intruder intact, no temporary left.
# Issue 11 point 4: the commit fell back to rename() and clobbered it.
. "$top_srcdir/tests/lib.sh"
shim="$top_builddir/tests/io/.libs/ps_link_shim.so"
[ -f "$shim" ] || skip "the link() shim was not built"
cd "$TMP" || exit 1
mkdir o
LD_PRELOAD="$shim" PS_SHIM_LINK=eperm "$PSTENCIL" --version >/dev/null 2>"$TMP/e" ||
  skip "pstencil does not run with an LD_PRELOAD shim here ($(head -c 200 "$TMP/e"))"
# no hard links, no race: published all the same
expect_exit 0 env LD_PRELOAD="$shim" PS_SHIM_LINK=eperm "$PSTENCIL" gen -o o/a.nc --scale 0.05
[ -s o/a.nc ] || fail "no output where link() fails with EPERM"
"$PSTENCIL" summary o/a.nc >/dev/null 2>&1 || fail "the published output does not read"
# no hard links, and the output appears while pstencil writes it
expect_exit 2 env LD_PRELOAD="$shim" PS_SHIM_LINK=race "$PSTENCIL" run o/a.nc -n 1 -o o/b.nc -b reference -q
expect_err "o/b.nc appeared while pstencil was writing it"
[ "$(cat o/b.nc)" = "intruder" ] || fail "the output that appeared meanwhile was clobbered"
[ "$(ls -A o | tr '\n' ' ')" = "a.nc b.nc " ] || fail "left behind: $(ls -A o)"
exit 0

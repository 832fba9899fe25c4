#!/bin/sh
# Every output is a regular file (core/ps_outfile.c): an existing target that
# is a FIFO, a directory, a socket, a device or a symbolic link to one of them
# is refused with exit 2, with or without --force, for every file a command
# writes (data, --profile, images, pages, CSV, JSON), before any work, the
# target left as it was. A dangling symbolic link is an existing entry:
# refused without --force before the run, and with --force the link itself is
# replaced (docs/user-guide.md).
. "$top_srcdir/tests/lib.sh"
command -v ncgen >/dev/null 2>&1 || skip "ncgen is not installed"
command -v mkfifo >/dev/null 2>&1 || skip "mkfifo is not installed"
cd "$TMP" || fail "cd"

mkfifo fifo || skip "cannot make a FIFO here"
mkdir adir
ln -s /dev/null tonull
ln -s fifo tofifo
ncgen -o small.nc "$top_srcdir/tests/data/plot_small.cdl" || fail "ncgen plot_small.cdl"
[ -c /dev/null ] || fail "/dev/null is not a character device before the test"

# untouched: still a FIFO, a directory, links to /dev/null and to the FIFO; no temporary left
untouched() {
  [ -p fifo ] || fail "$1: the FIFO was replaced"
  [ -d adir ] && [ -z "$(ls -A adir)" ] || fail "$1: the directory was replaced or written in"
  [ -L tonull ] && [ "$(readlink tonull)" = /dev/null ] || fail "$1: the link to /dev/null was replaced"
  [ -L tofifo ] || fail "$1: the link to the FIFO was replaced"
  [ -c /dev/null ] || fail "$1: /dev/null is no longer a character device"
  ls -A | grep -q '\.tmp\.' && fail "$1: left a temporary file: $(ls -A | grep '\.tmp\.')"
  return 0
}
# refused CMD...: exit 2 (under a time limit: opening a FIFO would block), the kind named
refused() {
  _kind=$1; shift
  expect_exit 2 timeout 60 "$@"
  expect_err "^pstencil: error: .*is $_kind( \(.*\))?, not a regular file"
  untouched "$*"
}

for force in "" --force; do
  refused "a FIFO" "$PSTENCIL" run -o fifo --steps 1 -q $force
  refused "a directory" "$PSTENCIL" run -o adir --steps 1 -q $force
  refused "a symbolic link to a character device" "$PSTENCIL" run -o tonull --steps 1 -q $force
  expect_err "tonull is a symbolic link to a character device \(/dev/null\)"
  refused "a symbolic link to a FIFO" "$PSTENCIL" run -o tofifo --steps 1 -q $force
  refused "a FIFO" "$PSTENCIL" run -o r.nc --profile fifo --steps 1 -q $force
  refused "a FIFO" "$PSTENCIL" gen -o fifo --scale 0.1 $force
  refused "a directory" "$PSTENCIL" gen -o adir --scale 0.1 $force
  refused "a FIFO" "$PSTENCIL" plot slice small.nc -o fifo $force
  refused "a FIFO" "$PSTENCIL" plot animate small.nc -o fifo $force
  refused "a FIFO" "$PSTENCIL" bench --backend reference --steps 2 --grid-steps 2 \
    --dram-mb 64 --csv fifo $force
  refused "a FIFO" "$PSTENCIL" bench --backend reference --steps 2 --grid-steps 2 \
    --dram-mb 64 --json fifo $force
done
expect_err "json fifo is a FIFO"
[ ! -e r.nc ] || fail "run wrote its output although --profile was refused"

# a socket (where Python can make one)
if command -v python3 >/dev/null 2>&1 &&
   python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' sock 2>/dev/null; then
  expect_exit 2 timeout 60 "$PSTENCIL" run -o sock --steps 1 -q --force
  expect_err "sock is a socket, not a regular file"
  [ -S sock ] || fail "the socket was replaced"
fi

# a dangling symbolic link: refused before the run without --force, the link kept
ln -s nowhere.nc dangling
expect_exit 2 "$PSTENCIL" run -o dangling --steps 1 -q
expect_err "dangling exists as a dangling symbolic link; use --force"
grep -q "appeared while" "$TMP/err" && fail "the dangling link was found only after the run"
[ -L dangling ] && [ "$(readlink dangling)" = nowhere.nc ] || fail "the dangling link was changed"
expect_exit 2 "$PSTENCIL" gen -o dangling --scale 0.1
expect_err "dangling exists as a dangling symbolic link"
# with --force the link itself is replaced by the output; what it named is not created
expect_exit 0 "$PSTENCIL" run -o dangling --steps 1 -q --force
[ -f dangling ] && [ ! -L dangling ] || fail "--force did not replace the dangling link with the output"
[ ! -e nowhere.nc ] || fail "--force wrote through the dangling link"
# a link to a regular file: --force replaces the link, the file it named is kept
echo keep > kept.nc
ln -s kept.nc tokept
expect_exit 2 "$PSTENCIL" run -o tokept --steps 1 -q
expect_err "tokept exists; use --force"
expect_exit 0 "$PSTENCIL" run -o tokept --steps 1 -q --force
[ -f tokept ] && [ ! -L tokept ] || fail "--force did not replace the link to a regular file"
[ "$(cat kept.nc)" = keep ] || fail "--force wrote through the link into the file it named"
exit 0

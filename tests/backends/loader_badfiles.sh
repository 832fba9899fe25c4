#!/bin/sh
# A file on the plugin path that dlopen must not be given (core/ps_loader.c):
# a FIFO (dlopen would block forever), a truncated copy of a real plugin (its
# segments past the end of the file: SIGBUS inside dlopen), an empty file, a
# text file, a directory. Each is examined on an O_NONBLOCK descriptor before
# any dlopen and reported as "not a loadable plugin: WHY": `backends` lists the
# reason, `run` (auto) runs on another backend, `run -b opencl` exits 2 with
# the reason, and a good plugin in a later directory is still found.
. "$top_srcdir/tests/lib.sh"
command -v timeout >/dev/null 2>&1 || skip "timeout is not installed"
L=$top_builddir/tests/backends/.libs
good=$L/pstencil_decgood.so # a working plugin named opencl
[ -f "$good" ] || fail "no test plugin $good"
# the truncated copy is made of the real opencl plugin where it was built
real=$top_builddir/backends/opencl/.libs/pstencil_opencl.so
[ -f "$real" ] || real=$good
expect_exit 0 "$PSTENCIL" gen -o "$TMP/in.nc" --scale 0.1

mkdir "$TMP/good" "$TMP/fifo" "$TMP/trunc" "$TMP/short" "$TMP/header" "$TMP/empty" "$TMP/text" \
  "$TMP/dir"
cp "$good" "$TMP/good/pstencil_opencl.so"
mkfifo "$TMP/fifo/pstencil_opencl.so" || skip "cannot make a FIFO here"
head -c 4000 "$real" >"$TMP/trunc/pstencil_opencl.so"
head -c 100 "$real" >"$TMP/short/pstencil_opencl.so"
head -c 40 "$real" >"$TMP/header/pstencil_opencl.so"
: >"$TMP/empty/pstencil_opencl.so"
echo "not a plugin" >"$TMP/text/pstencil_opencl.so"
mkdir "$TMP/dir/pstencil_opencl.so"

# check DIR WHY: the three commands with that plugin directory, none hangs or crashes
check() {
  d=$TMP/$1 why=$2
  f="$d/pstencil_opencl\.so is not a loadable plugin: $why"
  expect_exit 0 timeout 10 env PSTENCIL_PLUGIN_PATH="$d" "$PSTENCIL" backends
  grep -Eq "^opencl .*cannot run: .*$f" "$TMP/out" || { cat "$TMP/out"; fail "$1: backends does not say: $f"; }
  grep -Eq "^auto picks (openmp|reference)\.$" "$TMP/out" || { cat "$TMP/out"; fail "$1: backends picks no built-in"; }
  rm -f "$TMP/o.nc"
  expect_exit 0 timeout 10 env PSTENCIL_PLUGIN_PATH="$d" PSTENCIL_BACKEND= "$PSTENCIL" run \
    --steps 1 --no-progress -o "$TMP/o.nc" "$TMP/in.nc"
  expect_err "auto picked '(openmp|reference)'.*passed over: .*backend 'opencl': $f"
  [ -f "$TMP/o.nc" ] || fail "$1: run (auto) wrote no output"
  rm -f "$TMP/o.nc"
  expect_exit 2 timeout 10 env PSTENCIL_PLUGIN_PATH="$d" "$PSTENCIL" run -b opencl \
    --steps 1 --no-progress -o "$TMP/o.nc" "$TMP/in.nc"
  expect_err "^pstencil: error: .*backend 'opencl': $f"
  [ ! -e "$TMP/o.nc" ] || fail "$1: run -b opencl wrote an output"
  ls -A "$TMP" | grep -q '\.tmp\.' && fail "$1: a temporary file was left"
  return 0
}
check fifo "it is a FIFO, not a regular file"
[ -p "$TMP/fifo/pstencil_opencl.so" ] || fail "the FIFO was replaced"
check trunc "its segment [0-9]+ \(bytes [0-9]+\.\.[0-9]+\) lies past its end \(4000 bytes\): the file is truncated"
check short "its program headers \(bytes [0-9]+\.\.[0-9]+\) lie past its end \(100 bytes\)"
check header "it is too short for an ELF header \(40 bytes\)"
check empty "it is empty"
check text "it is not an ELF file"
check dir "it is a directory, not a regular file"

# the search goes on: a bad file in the first directory, a good plugin in the next
for bad in fifo trunc dir; do
  expect_exit 0 timeout 10 env PSTENCIL_PLUGIN_PATH="$TMP/$bad:$TMP/good" "$PSTENCIL" run -b opencl \
    --steps 1 --no-progress -o "$TMP/o$bad.nc" "$TMP/in.nc"
  cat "$TMP/out" >>"$TMP/err"
  expect_err "plugin      : $TMP/good/pstencil_opencl\.so \(PSTENCIL_PLUGIN_PATH\)"
done
echo "bad plugin files are refused before dlopen and the search goes on"
exit 0

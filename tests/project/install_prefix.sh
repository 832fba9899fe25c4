#!/bin/sh
# An install of the default prefix, moved to a scratch prefix (the prefix the
# program runs from, nothing left where it was installed), works without
# LD_LIBRARY_PATH, PSTENCIL_PLUGIN_PATH or ldconfig:
#  - `pstencil --version` runs and prints ps_version(), and the program finds
#    the prefix's libpstencil (its RUNPATH, $ORIGIN/../lib), not the build
#    tree's, nor one in ld.so's cache;
#  - `pstencil backends` takes the plugins installed beside that library
#    (opencl, when built, from PREFIX/lib/pstencil), never the build tree's;
#  - the example program installed under PREFIX/share/doc/pstencil/examples
#    builds with `pkg-config --cflags --libs pstencil` and runs diffusion7:
#    the warm cube spreads (its maximum falls, staying above the water's).
. "$top_srcdir/tests/lib.sh"
unset LD_LIBRARY_PATH PSTENCIL_PLUGIN_PATH
B=$(cd "$top_builddir" && pwd -P)
command -v pkg-config >/dev/null 2>&1 || skip "pkg-config is not installed"
mkv() { sed -n "s/^$1 = //p" "$B/Makefile" | head -1; }
CC=$(mkv CC)
LDF=$(mkv LDFLAGS) # the build's own (the sanitizer CI job's -fsanitize=...)
version=$(mkv PACKAGE_VERSION)
[ -n "$CC" ] && [ -n "$version" ] || fail "cannot read CC and PACKAGE_VERSION from $B/Makefile"
# libtool installs libraries only into the libdir they were linked for (the
# configured prefix): install staged, then move the configured prefix's tree
# to a scratch prefix, so nothing can be found through its old path
prefix=$(mkv prefix)
P=$(cd "$TMP" && pwd -P)/prefix
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "${MAKE:-make}" -C "$B" install DESTDIR="$TMP/stage" \
  >"$TMP/install.log" 2>&1 || { tail -30 "$TMP/install.log"; fail "make install failed"; }
mv "$TMP/stage$prefix" "$P" || fail "cannot move the install to $P"
rm -rf "$TMP/stage"

bin=$P/bin/pstencil
[ -x "$bin" ] || fail "no $bin"
"$bin" --version >"$TMP/out" 2>&1 || { cat "$TMP/out"; fail "the installed pstencil does not start"; }
grep -qx "pstencil $version" "$TMP/out" || { cat "$TMP/out"; fail "--version prints '$(cat "$TMP/out")', not 'pstencil $version'"; }
if command -v ldd >/dev/null 2>&1; then
  ldd "$bin" | grep 'libpstencil\.so' | grep -Eq "=> $P/(bin/\.\./)?lib/libpstencil\.so" \
    || { ldd "$bin"; fail "the installed pstencil does not use $P/lib/libpstencil.so"; }
fi

"$bin" backends >"$TMP/out" 2>&1 || { cat "$TMP/out"; fail "the installed pstencil backends fails"; }
grep -Fq "plugins from installed: $P/lib/pstencil" "$TMP/out" \
  || { cat "$TMP/out"; fail "the installed program does not take its own plugin folder"; }
grep -Fq "$B/backends" "$TMP/out" && { cat "$TMP/out"; fail "the installed program loads the build tree's plugins"; }
if grep -q '^#define PS_BUILD_OPENCL 1' "$B/config.h"; then
  grep -Eq "^opencl .*$P/lib/pstencil/pstencil_opencl\.so \(installed\)" "$TMP/out" \
    || { cat "$TMP/out"; fail "opencl does not load from $P/lib/pstencil"; }
fi

# the installed example, built through pkg-config
ex=$P/share/doc/pstencil/examples/diffusion7.c
[ -f "$ex" ] || fail "the example is not installed as $ex"
PKG_CONFIG_PATH=$P/lib/pkgconfig
export PKG_CONFIG_PATH
flags=$(pkg-config --define-variable=prefix="$P" --cflags --libs pstencil) \
  || fail "pkg-config pstencil fails"
"$CC" -std=gnu11 -Wall -Werror "$ex" -o "$TMP/diffusion7" $LDF $flags -Wl,-rpath,"$P/lib" 2>"$TMP/err" \
  || { cat "$TMP/err"; fail "the example does not build with: $flags"; }
"$TMP/diffusion7" reference 5 >"$TMP/out" 2>&1 || { cat "$TMP/out"; fail "the example fails"; }
grep -qx "libpstencil $version" "$TMP/out" || { cat "$TMP/out"; fail "the example does not print the version"; }
awk '$1 == "before" { lo = $3; hi = $5 } $1 == "after" { nlo = $3; nhi = $5 }
     END { exit !(hi != "" && nhi != "" && nhi < hi && nhi > lo && nlo >= lo) }' "$TMP/out" \
  || { cat "$TMP/out"; fail "diffusion7 did not spread the warm cube"; }
# the job example, built through pkg-config pstencil-job, runs from memory
exj=$P/share/doc/pstencil/examples/job.c
[ -f "$exj" ] || fail "the job example is not installed as $exj"
flags=$(pkg-config --define-variable=prefix="$P" --cflags --libs pstencil-job) \
  || fail "pkg-config pstencil-job fails"
"$CC" -std=gnu11 -Wall -Werror "$exj" -o "$TMP/job" $LDF $flags -lm -Wl,-rpath,"$P/lib" 2>"$TMP/err" \
  || { cat "$TMP/err"; fail "the job example does not build with: $flags"; }
# the libraries' RUNPATH names the configured prefix, not this one
LD_LIBRARY_PATH=$P/lib PSTENCIL_BACKEND=reference "$TMP/job" >"$TMP/out" 2>&1 || { cat "$TMP/out"; fail "the job example fails"; }
grep -q '^backend reference' "$TMP/out" || { cat "$TMP/out"; fail "the job example reports no backend"; }
echo "installed into $P; pstencil --version: $("$bin" --version)"
cat "$TMP/out"
exit 0

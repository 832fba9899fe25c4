#!/bin/sh
# A DESTDIR install works and what it installs is usable from outside the
# build tree:
#  - every installed header compiles on its own, included as the headers
#    document it (`#include <pstencil/NAME.h>`), with `pkg-config --cflags`;
#  - a program using only the engine builds with `pkg-config --libs pstencil`
#    (no netCDF, no PLplot on its link line or in its NEEDED entries) and runs
#    a stencil on the built-in reference backend; programs for the io, plot and
#    validate libraries build with their own .pc files and run;
#  - pstencil-plot.pc lists PLplot when pstencil was built with it, and the
#    io/plot/validate .pc files require pstencil;
#  - the installed program runs.
. "$top_srcdir/tests/lib.sh"
B=$top_builddir
command -v pkg-config >/dev/null 2>&1 || skip "pkg-config is not installed"
mkv() { sed -n "s/^$1 = //p" "$B/Makefile" | head -1; }
CC=$(mkv CC)
# the build's own linker flags (the sanitizer CI job's -fsanitize=...: a
# program using an instrumented library must link the sanitizer runtime)
LDF=$(mkv LDFLAGS)
MAKE_=${MAKE:-make}
prefix=$(mkv prefix)
[ -n "$CC" ] && [ -n "$prefix" ] || fail "cannot read CC and prefix from $B/Makefile"
D=$TMP/dest
# a make of our own (not the jobserver of the make running the tests)
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "$MAKE_" -C "$B" install DESTDIR="$D" >"$TMP/install.log" 2>&1 \
  || { tail -30 "$TMP/install.log"; fail "make install DESTDIR=$D failed"; }
pcdir=$(find "$D" -type d -name pkgconfig | head -1)
[ -n "$pcdir" ] || fail "no pkgconfig directory installed"
for pc in pstencil pstencil-io pstencil-plot pstencil-validate; do
  [ -f "$pcdir/$pc.pc" ] || fail "$pc.pc is not installed"
done
PKG_CONFIG_PATH=$pcdir
export PKG_CONFIG_PATH
pc() { pkg-config --define-variable=prefix="$D$prefix" "$@"; }
libdir=$(pc --variable=libdir pstencil)
incdir=$(pc --variable=includedir pstencil)/pstencil
[ -f "$libdir/libpstencil.so" ] || fail "libpstencil.so is not in $libdir"
[ -f "$incdir/pstencil.h" ] || fail "pstencil.h is not in $incdir"

# the .pc files: requirements and private dependencies
pc --print-requires pstencil-io | grep -q '^pstencil' || fail "pstencil-io.pc does not require pstencil"
pc --print-requires pstencil-validate | grep -q '^pstencil' || fail "pstencil-validate.pc does not require pstencil"
pc --print-requires pstencil-plot | grep -q '^pstencil-io' || fail "pstencil-plot.pc does not require pstencil-io"
if grep -q '^#define PS_HAVE_PLPLOT 1' "$B/config.h"; then
  pc --print-requires-private pstencil-plot | grep -q '^plplot' || fail "pstencil-plot.pc does not list PLplot"
fi
engine_libs=$(pc --libs --static pstencil)
case $engine_libs in
  *netcdf* | *plplot*) fail "the engine's link line has netCDF or PLplot: $engine_libs" ;;
esac

# every installed header on its own
CFL="$(pc --cflags pstencil) -std=gnu11 -Wall -Werror"
for h in "$incdir"/*.h; do
  printf '#include <pstencil/%s>\nint ps_header_test_%s;\n' "${h##*/}" "$(echo "${h##*/}" | tr -c 'a-z0-9\n' _)" > "$TMP/h.c"
  "$CC" $CFL -c "$TMP/h.c" -o "$TMP/h.o" 2>"$TMP/h.err" || { cat "$TMP/h.err"; fail "installed header ${h##*/} does not compile on its own"; }
done

# an engine-only program: the reference backend runs a stencil
cat > "$TMP/engine.c" <<'EOF'
#include <pstencil/pstencil.h>
#include <stdio.h>
#include <string.h>
int main(void)
{
    ps_grid g = {3, 3, 3};
    ps_backend *b;
    ps_config cfg;
    ps_field f;
    int st;
    if (ps_stencil_count() < 1 || ps_backend_open_oracle(&b))
        return 1;
    ps_config_init(&cfg, g, PS_FLOAT64);
    if (ps_field_alloc(&f, g, PS_FLOAT64))
        return 1;
    for (size_t q = 0; q < 27; q++)
        ((double *)f.data)[q] = (double)q;
    st = ps_run(b, &cfg, &f, &(ps_run_options){.steps = 1}, NULL);
    printf("%s %d %.17g\n", ps_backend_name(b), st, ((double *)f.data)[13]);
    ps_field_free(&f);
    ps_backend_close(b);
    return st != 0;
}
EOF
"$CC" $CFL "$TMP/engine.c" -o "$TMP/engine" $LDF $(pc --libs pstencil) 2>"$TMP/err" \
  || { cat "$TMP/err"; fail "an engine-only program does not build with pkg-config pstencil"; }
if command -v objdump >/dev/null 2>&1; then
  if objdump -p "$TMP/engine" | grep NEEDED | grep -Eq 'netcdf|plplot|pstencil-'; then
    fail "the engine-only program needs more than libpstencil"
  fi
fi
LD_LIBRARY_PATH=$libdir "$TMP/engine" >"$TMP/out" 2>&1 || { cat "$TMP/out"; fail "the engine-only program fails"; }
grep -q ' 0 13$' "$TMP/out" || { cat "$TMP/out"; fail "unexpected result: $(cat "$TMP/out")"; }

# one program per upper library, built with its .pc file
cat > "$TMP/io.c" <<'EOF'
#include <pstencil/pstencil_io.h>
int main(void) { ps_ocean_options o; ps_ocean_defaults(&o); return o.nz == 0; }
EOF
cat > "$TMP/plot.c" <<'EOF'
#include <pstencil/pstencil.h>
#include <pstencil/ps_plot.h>
int main(void) { return ps_cmap_find("viridis") == NULL; }
EOF
cat > "$TMP/val.c" <<'EOF'
#include <pstencil/pstencil.h>
#include <pstencil/ps_validate.h>
#include <stdio.h>
int main(void)
{
    static const char *const be[] = {"reference"}, *const cs[] = {"tiny-3x3x3"};
    static const long steps[] = {1};
    ps_validate_options o = {.backends = be, .nbackends = 1, .cases = cs, .ncases = 1,
                             .steps = steps, .nsteps = 1, .modes = 1};
    ps_validate_summary s;
    int st = ps_validate_suite(&o, &s);
    return st != 0 || s.runs < 1;
}
EOF
for p in "io pstencil-io" "plot pstencil-plot" "val pstencil-validate"; do
  set -- $p
  "$CC" $CFL "$TMP/$1.c" -o "$TMP/$1" $LDF $(pc --cflags --libs "$2") 2>"$TMP/err" \
    || { cat "$TMP/err"; fail "a program does not build with pkg-config $2"; }
  LD_LIBRARY_PATH=$libdir "$TMP/$1" >"$TMP/out" 2>&1 || { cat "$TMP/out"; fail "the $2 program fails"; }
done

# the installed program
bin=$(find "$D" -type f -name pstencil -perm -u+x | head -1)
[ -n "$bin" ] || fail "the pstencil program is not installed"
LD_LIBRARY_PATH=$libdir "$bin" --version | grep -q '^pstencil ' || fail "the installed pstencil does not run"
echo "installed into $D: $(ls "$libdir" | grep -c '\.so$') libraries, $(ls "$incdir" | wc -l) headers, 4 .pc files"
exit 0

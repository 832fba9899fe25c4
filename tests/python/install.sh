#!/bin/sh
# make install puts the Python package where the prefix's Python finds it:
#  - into PS_PYTHON_DIR (configure, python/site_dir.py): for a prefix that the
#    Python searches (Debian's /usr/local: /usr/local/lib/python3.X/dist-packages)
#    a directory of its sys.path, so `import pstencil` needs no setting;
#  - the installed package (moved to a scratch prefix, like tests/project/install_prefix.sh)
#    imports from there, not from the build tree, and runs a job;
#  - no libtool archive is left beside the module, and make uninstall removes the
#    package, the compiled module and the bytecode Python wrote on import.
. "$top_srcdir/tests/lib.sh"
[ -n "${PS_PYTHON:-}" ] || skip "the Python package was not built (configure: Python package no)"
skip_under_sanitizer "the module is built with the sanitizers and the Python interpreter is not"
unset PYTHONPATH
B=$(cd "$top_builddir" && pwd -P)
mkv() { sed -n "s/^$1 = //p" "$B/Makefile" | head -1; }
prefix=$(mkv prefix)
pydir=$(mkv PS_PYTHON_DIR | sed "s|\${prefix}|$prefix|")
[ -n "$pydir" ] || fail "no PS_PYTHON_DIR in $B/Makefile"
# the rule for the default prefix: a directory the Python searches
deflt=$("$PS_PYTHON" "$top_srcdir/python/site_dir.py" /usr/local)
if "$PS_PYTHON" -c 'import sys; sys.exit(not any(p.startswith("/usr/local/lib/python") for p in sys.path))'; then
  "$PS_PYTHON" -c 'import sys; sys.exit(sys.argv[1] not in sys.path)' "$deflt" \
    || fail "the package dir for prefix /usr/local ($deflt) is not on $PS_PYTHON's sys.path"
fi
case $prefix in
  /usr/local)
    "$PS_PYTHON" -c 'import sys; sys.exit(sys.argv[1] not in sys.path)' "$pydir" \
      || fail "PS_PYTHON_DIR $pydir is not on $PS_PYTHON's sys.path" ;;
esac
P=$(cd "$TMP" && pwd -P)/prefix
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "${MAKE:-make}" -C "$B" install DESTDIR="$TMP/stage" \
  >"$TMP/install.log" 2>&1 || { tail -30 "$TMP/install.log"; fail "make install failed"; }
pkg=$TMP/stage$pydir/pstencil
[ -f "$pkg/__init__.py" ] && [ -f "$pkg/_native.so" ] || { find "$TMP/stage" -name '*.py' | head; fail "the package is not installed in $pydir/pstencil"; }
[ -e "$pkg/_native.la" ] && fail "a libtool archive is installed in $pydir/pstencil"
mv "$TMP/stage$prefix" "$P" || fail "cannot move the install to $P"
site=$P${pydir#"$prefix"}
# the libraries' RUNPATH names the configured prefix, not this one
cd "$TMP" && LD_LIBRARY_PATH=$P/lib PYTHONPATH=$site "$PS_PYTHON" - "$site" "$B" <<'PYEOF' || fail "the installed package does not run"
import sys
import numpy as np
import pstencil
site, build = sys.argv[1], sys.argv[2]
assert pstencil.__file__.startswith(site), pstencil.__file__
assert not pstencil._native.__file__.startswith(build), pstencil._native.__file__
a = np.zeros((5, 6, 7), np.float32); a[2, 3, 3] = 1
out, rep = pstencil.run_array(a, steps=2, backend="reference", progress=False)
assert rep["steps"] == 2 and out[2, 3, 3] < 1, rep
print("installed package runs from", site)
PYEOF
# make uninstall leaves nothing of the package, after an import wrote bytecode
S2=$TMP/stage2
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "${MAKE:-make}" -C "$B" install DESTDIR="$S2" \
  >"$TMP/install2.log" 2>&1 || { tail -30 "$TMP/install2.log"; fail "make install failed"; }
(cd "$TMP" && unset PYTHONDONTWRITEBYTECODE && LD_LIBRARY_PATH=$S2$prefix/lib PYTHONPATH=$S2$pydir "$PS_PYTHON" -c "import pstencil") \
  || fail "the staged package does not import"
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "${MAKE:-make}" -C "$B" uninstall DESTDIR="$S2" \
  >"$TMP/uninstall.log" 2>&1 || { tail -30 "$TMP/uninstall.log"; fail "make uninstall failed"; }
left=$(find "$S2$pydir" ! -type d 2>/dev/null)
[ -z "$left" ] || fail "make uninstall left: $left"

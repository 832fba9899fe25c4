# Shared by the tests of the Python package (tests/python/*.sh): run the
# pytest file tests/python/$1 against the build tree's package, or skip (77)
# when configure did not build it (Python package: no) or pytest is missing.
# Source it after tests/lib.sh.
ps_pytest() {
  site="$top_builddir/python/site"
  [ -n "${PS_PYTHON:-}" ] && [ -e "$site/pstencil/_native.so" ] ||
    skip "the Python package was not built (configure: Python package no)"
  skip_under_sanitizer "the module is built with the sanitizers and the Python interpreter is not"
  "$PS_PYTHON" -c 'import pytest, xarray, netCDF4' 2>/dev/null ||
    skip "$PS_PYTHON lacks pytest, xarray or netCDF4 (python3-pytest python3-xarray python3-netcdf4)"
  cd "$TMP" || exit 1
  PYTHONPATH="$site${PYTHONPATH:+:$PYTHONPATH}" PYTHONDONTWRITEBYTECODE=1 \
    "$PS_PYTHON" -m pytest -q -p no:cacheprovider --rootdir="$TMP" \
    "$top_srcdir/tests/python/$1"
  rc=$?
  # pytest: 5 = no test collected (every case skipped away): a failure here
  [ "$rc" -eq 0 ] || fail "pytest tests/python/$1 exited $rc"
}

dnl PS_CHECK_PYTHON: a Python 3 with NumPy for the NumPy baseline benchmark
dnl (optional: the benchmark skips the baseline without it).
AC_DEFUN([PS_CHECK_PYTHON], [
  AC_ARG_VAR([PYTHON3], [Python 3 with numpy and netCDF4 for the NumPy baseline])
  if test -z "$PYTHON3"; then
    for ps_p in /usr/bin/python3 python3; do
      if $ps_p -c 'import numpy, netCDF4' >/dev/null 2>&1; then PYTHON3=$ps_p; break; fi
    done
  fi
  AC_MSG_CHECKING([for a Python 3 with numpy and netCDF4])
  AC_MSG_RESULT([${PYTHON3:-no}])
  ps_python_why=${PYTHON3:-"no (install python3-numpy python3-netcdf4)"}
  AC_DEFINE_UNQUOTED([PS_PYTHON3], ["$PYTHON3"], [Python for the NumPy baseline])
  AC_SUBST([PYTHON3])
])

dnl PS_CHECK_PYTHON_PACKAGE: the Python package (python/, docs/python.md),
dnl built when $PYTHON3 has NumPy and cffi and its headers (Python.h) are
dnl found; --disable-python turns it off. Sets PS_PYTHON (that Python), PYTHON_CPPFLAGS and
dnl PS_PYTHON_DIR (where make install puts the package: a directory of the
dnl Python's sys.path under the prefix, python/site_dir.py).
AC_DEFUN([PS_CHECK_PYTHON_PACKAGE], [
  AC_ARG_ENABLE([python],
    [AS_HELP_STRING([--disable-python],
      [do not build the Python package (default: build it when Python 3 with numpy and cffi is found)])],
    [], [enable_python=check])
  AC_ARG_VAR([PS_PYTHON_DIR], [where make install puts the Python package (default: from the prefix)])
  ps_python_pkg=no
  ps_python_pkg_why="--disable-python"
  PYTHON_CPPFLAGS=
  PS_PYTHON=
  if test "x$enable_python" != xno; then
    ps_py=${PYTHON3:-/usr/bin/python3}
    ps_python_pkg_why="no Python 3 with numpy and cffi (install python3-numpy python3-cffi)"
    AC_MSG_CHECKING([for numpy and cffi in $ps_py])
    if $ps_py -c 'import numpy, cffi' >/dev/null 2>&1; then
      AC_MSG_RESULT([yes])
      ps_py_inc=`$ps_py -c 'import sysconfig; print(sysconfig.get_path("include"))'`
      AC_MSG_CHECKING([for Python.h in $ps_py_inc])
      if test -r "$ps_py_inc/Python.h"; then
        AC_MSG_RESULT([yes])
        PYTHON_CPPFLAGS="-I$ps_py_inc"
        PS_PYTHON=$ps_py
        ps_python_pkg=yes
      else
        AC_MSG_RESULT([no])
        ps_python_pkg_why="no Python.h (install python3-dev)"
      fi
    else
      AC_MSG_RESULT([no])
    fi
    if test "x$enable_python" = xyes && test "x$ps_python_pkg" != xyes; then
      AC_MSG_ERROR([--enable-python: $ps_python_pkg_why])
    fi
  fi
  if test "x$ps_python_pkg" = xyes && test -z "$PS_PYTHON_DIR"; then
    ps_py_prefix=$prefix
    test "x$ps_py_prefix" = xNONE && ps_py_prefix=$ac_default_prefix
    ps_py_dir=`$PS_PYTHON "$srcdir/python/site_dir.py" "$ps_py_prefix"`
    dnl in terms of ${prefix}, so that make install prefix=... follows
    case $ps_py_dir in
      "$ps_py_prefix"/*) PS_PYTHON_DIR='${prefix}'"${ps_py_dir#"$ps_py_prefix"}" ;;
      *) PS_PYTHON_DIR=$ps_py_dir ;;
    esac
  fi
  if test "x$ps_python_pkg" = xyes; then
    ps_python_pkg_why="$PS_PYTHON; installs into $PS_PYTHON_DIR"
  fi
  AC_SUBST([PS_PYTHON])
  AC_SUBST([PYTHON_CPPFLAGS])
  AC_SUBST([PS_PYTHON_DIR])
  AM_CONDITIONAL([PS_HAVE_PYTHON_PKG], [test "x$ps_python_pkg" = xyes])
])

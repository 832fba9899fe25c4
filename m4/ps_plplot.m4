dnl PS_CHECK_PLPLOT: PLplot (cairo driver) for slice images and benchmark plots.
dnl Optional: without it `pstencil plot` says it was not built with PLplot.
AC_DEFUN([PS_CHECK_PLPLOT], [
  AC_ARG_WITH([plplot],
    [AS_HELP_STRING([--without-plplot], [do not build the PLplot image output])],
    [], [with_plplot=check])
  ps_plplot_happy=no
  ps_plplot_why="disabled"
  if test "x$with_plplot" != xno; then
    PKG_CHECK_MODULES([PLPLOT], [plplot], [ps_plplot_happy=yes; ps_plplot_why="plplot `$PKG_CONFIG --modversion plplot`"],
      [ps_plplot_why="plplot not found (install libplplot-dev plplot-driver-cairo)"])
    if test "x$with_plplot" = xyes && test $ps_plplot_happy = no; then
      AC_MSG_ERROR([--with-plplot given but $ps_plplot_why])
    fi
  fi
  if test $ps_plplot_happy = yes; then
    AC_DEFINE([PS_HAVE_PLPLOT], [1], [PLplot is available])
  fi
  AM_CONDITIONAL([PS_HAVE_PLPLOT], [test $ps_plplot_happy = yes])
])

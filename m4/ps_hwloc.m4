dnl PS_CHECK_HWLOC: hwloc (the Portable Hardware Locality library) for the
dnl benchmark's machine description (every cache level, cores, NUMA nodes,
dnl packages) and where OpenMP threads run. Optional: without it bench reads
dnl /sys and /proc, and says so. Linked only into the bench layer.
AC_DEFUN([PS_CHECK_HWLOC], [
  AC_ARG_WITH([hwloc],
    [AS_HELP_STRING([--without-hwloc], [describe the machine without hwloc (bench)])],
    [], [with_hwloc=check])
  ps_hwloc_happy=no
  ps_hwloc_why="disabled"
  if test "x$with_hwloc" != xno; then
    PKG_CHECK_MODULES([HWLOC], [hwloc >= 2.0],
      [ps_hwloc_happy=yes; ps_hwloc_why="hwloc `$PKG_CONFIG --modversion hwloc`"],
      [ps_hwloc_why="hwloc >= 2.0 not found (install libhwloc-dev)"])
    if test "x$with_hwloc" = xyes && test $ps_hwloc_happy = no; then
      AC_MSG_ERROR([--with-hwloc given but $ps_hwloc_why])
    fi
  fi
  if test $ps_hwloc_happy = yes; then
    AC_DEFINE([PS_HAVE_HWLOC], [1], [hwloc is available (bench machine description)])
  fi
  AM_CONDITIONAL([PS_HAVE_HWLOC], [test $ps_hwloc_happy = yes])
])

dnl PS_CHECK_NETCDF: netCDF-C is required (reading and writing CF files).
AC_DEFUN([PS_CHECK_NETCDF], [
  PKG_CHECK_MODULES([NETCDF], [netcdf >= 4.4], [ps_netcdf_happy=yes], [
    AC_CHECK_HEADER([netcdf.h], [AC_CHECK_LIB([netcdf], [nc_open],
      [ps_netcdf_happy=yes; NETCDF_LIBS=-lnetcdf], [ps_netcdf_happy=no])], [ps_netcdf_happy=no])
  ])
  if test "x$ps_netcdf_happy" != xyes; then
    AC_MSG_ERROR([netCDF-C not found: install libnetcdf-dev (Debian) or set NETCDF_CFLAGS/NETCDF_LIBS])
  fi
  ps_save_LIBS=$LIBS
  LIBS="$NETCDF_LIBS $LIBS"
  AC_CHECK_FUNCS([nc_inq_format_extended])
  LIBS=$ps_save_LIBS
  AC_PATH_PROG([NCDUMP], [ncdump], [])
  AC_PATH_PROG([NCGEN], [ncgen], [])
  AM_CONDITIONAL([PS_HAVE_NCGEN], [test -n "$NCGEN"])
  ps_summary_netcdf="yes ($($PKG_CONFIG --modversion netcdf 2>/dev/null))"
])

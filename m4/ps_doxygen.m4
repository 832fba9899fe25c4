dnl PS_CHECK_DOXYGEN: doxygen for `make doc` and the doxygen test (optional).
dnl Sets DOXYGEN (empty when absent) and the conditional PS_HAVE_DOXYGEN.
AC_DEFUN([PS_CHECK_DOXYGEN], [
  AC_ARG_VAR([DOXYGEN], [the doxygen program, for make doc])
  AC_PATH_PROG([DOXYGEN], [doxygen])
  AM_CONDITIONAL([PS_HAVE_DOXYGEN], [test -n "$DOXYGEN"])
  if test -n "$DOXYGEN"; then ps_doxygen_happy=yes; else ps_doxygen_happy=no; fi
])

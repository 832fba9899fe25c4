dnl PS_CHECK_UDUNITS: UDUNITS-2 is required (libpstencil-io parses, converts
dnl and names every unit it reads or writes with it; Debian libudunits2-dev).
AC_DEFUN([PS_CHECK_UDUNITS], [
  AC_ARG_VAR([UDUNITS_CFLAGS], [C compiler flags for UDUNITS-2])
  AC_ARG_VAR([UDUNITS_LIBS], [linker flags for UDUNITS-2 (default -ludunits2)])
  ps_save_CPPFLAGS=$CPPFLAGS
  ps_save_LIBS=$LIBS
  CPPFLAGS="$UDUNITS_CFLAGS $CPPFLAGS"
  : ${UDUNITS_LIBS=-ludunits2}
  LIBS="$UDUNITS_LIBS $LIBS"
  ps_udunits_happy=no
  AC_CHECK_HEADER([udunits2.h], [
    AC_MSG_CHECKING([for ut_read_xml in $UDUNITS_LIBS])
    AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <udunits2.h>]],
                                    [[ut_system *s = ut_read_xml(0); ut_free_system(s);]])],
                   [ps_udunits_happy=yes], [])
    AC_MSG_RESULT([$ps_udunits_happy])
  ])
  CPPFLAGS=$ps_save_CPPFLAGS
  LIBS=$ps_save_LIBS
  if test "x$ps_udunits_happy" != xyes; then
    AC_MSG_ERROR([UDUNITS-2 not found: install libudunits2-dev (Debian) or set UDUNITS_CFLAGS/UDUNITS_LIBS])
  fi
  AC_SUBST([UDUNITS_CFLAGS])
  AC_SUBST([UDUNITS_LIBS])
])

dnl PS_CHECK_CFLAGS: warnings and the floating-point flags the numerical
dnl contract needs (-ffp-contract=off: GNU C contracts a*b+c into FMA by
dnl default; no -ffast-math; C11 for _Thread_local).
AC_DEFUN([PS_CHECK_CFLAGS], [
  PS_CFLAGS=""
  for ps_flag in -std=gnu11 -ffp-contract=off -fno-fast-math -fno-math-errno -Wall -Wextra -Wno-unused-parameter; do
    ps_save_CFLAGS=$CFLAGS
    CFLAGS="$CFLAGS $ps_flag -Werror"
    AC_MSG_CHECKING([whether $CC accepts $ps_flag])
    AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [])],
      [AC_MSG_RESULT([yes]); PS_CFLAGS="$PS_CFLAGS $ps_flag"], [AC_MSG_RESULT([no])])
    CFLAGS=$ps_save_CFLAGS
  done
  AC_SUBST([PS_CFLAGS])
])

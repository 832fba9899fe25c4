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

dnl PS_PROBE_CFLAGS(VAR, FLAGS): the FLAGS $CC accepts (each tried alone with
dnl -Werror, so a flag another compiler only warns about is left out), into
dnl the substituted VAR: gcc's vectoriser flags for the kernels and the
dnl benchmark, which clang does not know, are never hard-coded in a local.mk.
AC_DEFUN([PS_PROBE_CFLAGS], [
  $1=""
  for ps_flag in $2; do
    ps_save_CFLAGS=$CFLAGS
    CFLAGS="$CFLAGS $ps_flag -Werror"
    AC_MSG_CHECKING([whether $CC accepts $ps_flag])
    AC_COMPILE_IFELSE([AC_LANG_PROGRAM([], [])],
      [AC_MSG_RESULT([yes]); $1="[$]$1 $ps_flag"], [AC_MSG_RESULT([no])])
    CFLAGS=$ps_save_CFLAGS
  done
  AC_SUBST([$1])
])

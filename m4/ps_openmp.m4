dnl PS_CHECK_OPENMP: the openmp backend (--enable-openmp, default on).
AC_DEFUN([PS_CHECK_OPENMP], [
  AC_ARG_ENABLE([openmp],
    [AS_HELP_STRING([--disable-openmp], [do not build the OpenMP CPU backend])],
    [], [enable_openmp=check])
  ps_openmp_happy=no
  ps_openmp_why="disabled"
  if test "x$enable_openmp" != xno; then
    AC_OPENMP
    if test -n "$OPENMP_CFLAGS" || test "x$ac_cv_prog_c_openmp" = "xnone needed"; then
      ps_openmp_happy=yes
      ps_openmp_why="$OPENMP_CFLAGS"
    else
      ps_openmp_why="compiler has no OpenMP support"
      if test "x$enable_openmp" = xyes; then
        AC_MSG_ERROR([--enable-openmp given but $CC has no OpenMP support])
      fi
    fi
  fi
  if test $ps_openmp_happy = yes; then
    AC_DEFINE([PS_HAVE_OPENMP], [1], [Build the openmp backend])
  fi
  AC_SUBST([OPENMP_CFLAGS])
  AM_CONDITIONAL([PS_BUILD_OPENMP], [test $ps_openmp_happy = yes])
  dnl the kernels' AVX2 variants: x86 compilers that take -mavx2 -mfma
  ps_omp_avx2=no
  if test $ps_openmp_happy = yes; then
    AC_MSG_CHECKING([whether $CC accepts -mavx2 -mfma (the openmp AVX2 kernels)])
    ps_save_CFLAGS=$CFLAGS
    CFLAGS="$CFLAGS -mavx2 -mfma"
    AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#if !defined(__x86_64__) && !defined(__i386__)
#error not x86
#endif]], [[]])], [ps_omp_avx2=yes])
    CFLAGS=$ps_save_CFLAGS
    AC_MSG_RESULT([$ps_omp_avx2])
  fi
  if test $ps_omp_avx2 = yes; then
    AC_DEFINE([PS_HAVE_OMP_AVX2], [1], [The openmp kernels have AVX2 and AVX2+FMA variants])
  fi
  AM_CONDITIONAL([PS_OMP_AVX2], [test $ps_omp_avx2 = yes])
  dnl the zero-land rows' AVX-512F variant (intrinsics; used where the CPU has it)
  ps_omp_avx512=no
  if test $ps_omp_avx2 = yes; then
    AC_MSG_CHECKING([whether $CC compiles AVX-512F intrinsics with -mavx512f])
    ps_save_CFLAGS=$CFLAGS
    CFLAGS="$CFLAGS -mavx512f"
    AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <immintrin.h>]],
      [[__m512i a = _mm512_setzero_si512(); a = _mm512_alignr_epi32(a, a, 1); (void)a;]])],
      [ps_omp_avx512=yes])
    CFLAGS=$ps_save_CFLAGS
    AC_MSG_RESULT([$ps_omp_avx512])
  fi
  if test $ps_omp_avx512 = yes; then
    AC_DEFINE([PS_HAVE_OMP_AVX512], [1], [The openmp zero-land rows have an AVX-512F variant])
  fi
  AM_CONDITIONAL([PS_OMP_AVX512], [test $ps_omp_avx512 = yes])
])

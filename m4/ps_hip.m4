dnl PS_CHECK_HIP: the hip plugin (--enable-hip[=PATH], --with-hip-arch=LIST).
AC_DEFUN([PS_CHECK_HIP], [
  AC_ARG_ENABLE([hip],
    [AS_HELP_STRING([--enable-hip@<:@=PATH@:>@], [build the HIP backend plugin, optionally with ROCm at PATH (default: when hipcc is found)])],
    [], [enable_hip=check])
  AC_ARG_WITH([hip-arch],
    [AS_HELP_STRING([--with-hip-arch=LIST], [comma-separated AMD targets (default: gfx908,gfx90a,gfx1030)])],
    [ps_hip_arch=$withval], [ps_hip_arch="gfx908,gfx90a,gfx1030"])
  ps_hip_happy=no
  ps_hip_why="disabled"
  HIPCC=""
  if test "x$enable_hip" != xno; then
    case "$enable_hip" in
      yes|check) ps_hip_path=$PATH ;;
      *) ps_hip_path="$enable_hip/bin" ;;
    esac
    AC_PATH_PROG([HIPCC], [hipcc], [], [$ps_hip_path])
    if test -n "$HIPCC"; then
      ps_hip_happy=yes
      ps_hip_why="$HIPCC, targets $ps_hip_arch"
    else
      ps_hip_why="hipcc not found"
    fi
    if test "x$enable_hip" != xcheck && test $ps_hip_happy = no; then
      AC_MSG_ERROR([--enable-hip given but $ps_hip_why])
    fi
  fi
  if test $ps_hip_happy = yes; then
    AC_DEFINE([PS_BUILD_HIP], [1], [The hip plugin is built])
  fi
  HIP_OFFLOAD=""
  for ps_a in `echo $ps_hip_arch | tr ',' ' '`; do
    HIP_OFFLOAD="$HIP_OFFLOAD --offload-arch=$ps_a"
  done
  AC_SUBST([HIPCC])
  AC_SUBST([HIP_OFFLOAD])
  AM_CONDITIONAL([PS_BUILD_HIP], [test $ps_hip_happy = yes])
])

dnl PS_CHECK_HIP: the hip plugin (--enable-hip[=PATH], --with-hip-arch=LIST).
dnl Built when hipcc is found and compiles a kernel for the targets and
dnl libamdhip64 exists; --enable-hip makes their absence an error. Sets
dnl HIPCC, HIP_OFFLOAD, HIP_LDFLAGS, HIP_TARGETS (the targets, space-separated;
dnl also PS_HIP_TARGETS in config.h for tests/gpu/hip_ir.sh); the user may add
dnl HIPCCFLAGS.
AC_DEFUN([PS_CHECK_HIP], [
  AC_ARG_ENABLE([hip],
    [AS_HELP_STRING([--enable-hip@<:@=PATH@:>@], [build the HIP backend plugin, optionally with ROCm at PATH (default: when hipcc is found)])],
    [], [enable_hip=check])
  AC_ARG_WITH([hip-arch],
    [AS_HELP_STRING([--with-hip-arch=LIST], [comma-separated AMD targets (default: gfx908,gfx90a,gfx1030)])],
    [ps_hip_arch=$withval], [ps_hip_arch="gfx908,gfx90a,gfx1030"])
  AC_ARG_VAR([HIPCCFLAGS], [extra flags for hipcc (the hip plugin; cannot override the exact-mode flags)])
  ps_hip_happy=no
  ps_hip_why="disabled"
  HIPCC=""
  HIP_LDFLAGS=""
  HIP_OFFLOAD=""
  HIP_TARGETS=""
  for ps_a in `echo $ps_hip_arch | tr ',' ' '`; do
    HIP_OFFLOAD="$HIP_OFFLOAD --offload-arch=$ps_a"
    HIP_TARGETS="$HIP_TARGETS $ps_a"
  done
  HIP_TARGETS=`echo $HIP_TARGETS`
  if test "x$enable_hip" != xno; then
    case "$enable_hip" in
      yes|check) ps_hip_path=$PATH ;;
      *) ps_hip_path="$enable_hip/bin"; HIP_LDFLAGS="-L$enable_hip/lib" ;;
    esac
    AC_PATH_PROG([HIPCC], [hipcc], [], [$ps_hip_path])
    if test -n "$HIPCC"; then
      AC_MSG_CHECKING([whether hipcc compiles position-independent code for$HIP_OFFLOAD])
      cat > conftest.hip <<PSEOF
#include <hip/hip_runtime.h>
__global__ void k(float *x) { x@<:@threadIdx.x@:>@ = 1.0f; }
int f(void) { int n = 0; return (int)hipGetDeviceCount(&n); }
PSEOF
      if $HIPCC -c -fPIC $HIP_OFFLOAD conftest.hip -o conftest.$OBJEXT >&AS_MESSAGE_LOG_FD 2>&1; then
        AC_MSG_RESULT([yes])
        ps_save_LDFLAGS=$LDFLAGS
        LDFLAGS="$LDFLAGS $HIP_LDFLAGS"
        AC_CHECK_LIB([amdhip64], [hipGetDeviceCount],
          [ps_hip_happy=yes; ps_hip_why="$HIPCC, targets $ps_hip_arch, -lamdhip64"],
          [ps_hip_why="libamdhip64 not found"], [-lstdc++])
        LDFLAGS=$ps_save_LDFLAGS
      else
        AC_MSG_RESULT([no])
        ps_hip_why="$HIPCC cannot compile a test kernel for$HIP_OFFLOAD (see config.log)"
      fi
      rm -f conftest.hip conftest.$OBJEXT
    else
      ps_hip_why="hipcc not found"
    fi
    if test "x$enable_hip" != xcheck && test $ps_hip_happy = no; then
      AC_MSG_ERROR([--enable-hip given but $ps_hip_why])
    fi
  fi
  if test $ps_hip_happy = yes; then
    AC_DEFINE([PS_BUILD_HIP], [1], [The hip plugin is built])
    AC_DEFINE_UNQUOTED([PS_HIP_TARGETS], ["$HIP_TARGETS"], [AMD targets the hip plugin is built for])
  fi
  AC_SUBST([HIPCC])
  AC_SUBST([HIP_OFFLOAD])
  AC_SUBST([HIP_LDFLAGS])
  AC_SUBST([HIP_TARGETS])
  AM_CONDITIONAL([PS_BUILD_HIP], [test $ps_hip_happy = yes])
])

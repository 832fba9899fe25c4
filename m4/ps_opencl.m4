dnl PS_CHECK_OPENCL: the opencl plugin (--enable-opencl; built when found).
dnl Only the plugin links the ICD loader (OPENCL_LIBS is not added to LIBS).
dnl The plugin targets OpenCL 1.2 (CL_TARGET_OPENCL_VERSION=120) and needs
dnl the 1.1 rectangular copies (clEnqueueWriteBufferRect) from the loader.
AC_DEFUN([PS_CHECK_OPENCL], [
  AC_ARG_ENABLE([opencl],
    [AS_HELP_STRING([--enable-opencl], [build the OpenCL backend plugin (default: when found)])],
    [], [enable_opencl=check])
  ps_opencl_happy=no
  ps_opencl_why="disabled"
  OPENCL_CFLAGS=""
  OPENCL_LIBS=""
  if test "x$enable_opencl" != xno; then
    ps_opencl_why="CL/cl.h not found (install opencl-c-headers ocl-icd-opencl-dev)"
    AC_CHECK_HEADER([CL/cl.h], [
      ps_opencl_why="libOpenCL not found (install ocl-icd-opencl-dev)"
      AC_CHECK_LIB([OpenCL], [clGetPlatformIDs], [
        ps_opencl_why="libOpenCL has no clEnqueueWriteBufferRect (OpenCL 1.1 or newer needed)"
        AC_CHECK_LIB([OpenCL], [clEnqueueWriteBufferRect],
          [ps_opencl_happy=yes; OPENCL_LIBS="-lOpenCL"
           ps_opencl_why="ICD loader -lOpenCL, OpenCL 1.2 target"])
      ])
    ], [], [[#define CL_TARGET_OPENCL_VERSION 120
]])
    if test "x$enable_opencl" = xyes && test $ps_opencl_happy = no; then
      AC_MSG_ERROR([--enable-opencl given but $ps_opencl_why])
    fi
  fi
  if test $ps_opencl_happy = yes; then
    AC_DEFINE([PS_BUILD_OPENCL], [1], [The opencl plugin is built])
    OPENCL_CFLAGS="-DCL_TARGET_OPENCL_VERSION=120"
  fi
  AC_SUBST([OPENCL_CFLAGS])
  AC_SUBST([OPENCL_LIBS])
  AM_CONDITIONAL([PS_BUILD_OPENCL], [test $ps_opencl_happy = yes])
])

dnl PS_CHECK_CUDA: the cuda plugin (--enable-cuda[=PATH], --with-cuda-arch=LIST).
dnl Built when nvcc is found (also in /usr/local/cuda/bin); --enable-cuda
dnl makes its absence an error. The plugin links the CUDA runtime statically
dnl (libcudart_static.a), so it loads on a machine without CUDA and says why
dnl there is no device. Sets NVCC, NVCC_CCBIN, NVCC_GENCODE, NVCC_PTX_ARCH,
dnl CUDA_HOME, CUDA_LIBDIR; the user may add NVCCFLAGS (backends/gpu/local.mk
dnl puts them first, so the numerical-mode flags after them win).
AC_DEFUN([PS_CHECK_CUDA], [
  AC_ARG_ENABLE([cuda],
    [AS_HELP_STRING([--enable-cuda@<:@=PATH@:>@], [build the CUDA backend plugin, optionally with the CUDA toolkit at PATH (default: when nvcc is found)])],
    [], [enable_cuda=check])
  AC_ARG_WITH([cuda-arch],
    [AS_HELP_STRING([--with-cuda-arch=LIST], [comma-separated SM targets (default: 80,90 machine code plus PTX of the last for newer GPUs)])],
    [ps_cuda_arch=$withval], [ps_cuda_arch="80,90"])
  AC_ARG_ENABLE([nvtx],
    [AS_HELP_STRING([--enable-nvtx], [NVTX ranges in the CUDA backend (Nsight)])],
    [], [enable_nvtx=no])
  AC_ARG_VAR([NVCCFLAGS], [extra flags for nvcc (the cuda plugin; cannot override the exact-mode flags)])
  AC_ARG_VAR([NVCC_CCBIN], [host compiler nvcc uses (default: the first word of CC)])
  ps_cuda_happy=no
  ps_cuda_why="disabled"
  NVCC=""
  CUDA_HOME=""
  CUDA_LIBDIR=""
  if test "x$enable_cuda" != xno; then
    ps_cuda_path=$PATH
    case "$enable_cuda" in
      yes|check) test -d /usr/local/cuda/bin && ps_cuda_path="$PATH:/usr/local/cuda/bin" ;;
      *) ps_cuda_path="$enable_cuda/bin" ;;
    esac
    AC_PATH_PROG([NVCC], [nvcc], [], [$ps_cuda_path])
    test -z "$NVCC_CCBIN" && NVCC_CCBIN=`echo $CC | cut -d' ' -f1`
    if test -n "$NVCC"; then
      CUDA_HOME=`dirname \`dirname $NVCC\``
      ps_cuda_why="no libcudart_static.a under $CUDA_HOME"
      for ps_d in "$CUDA_HOME/lib64" "$CUDA_HOME/targets/x86_64-linux/lib" "$CUDA_HOME/lib"; do
        if test -f "$ps_d/libcudart_static.a"; then CUDA_LIBDIR=$ps_d; break; fi
      done
      if test -n "$CUDA_LIBDIR"; then
        AC_MSG_CHECKING([whether nvcc compiles position-independent code with $NVCC_CCBIN])
        cat > conftest.cu <<PSEOF
__global__ void k(float *x) { x@<:@threadIdx.x@:>@ = 1.0f; }
int main(void) { return 0; }
PSEOF
        if $NVCC -c -std=c++20 -Xcompiler -fPIC -ccbin "$NVCC_CCBIN" conftest.cu -o conftest.$OBJEXT >&AS_MESSAGE_LOG_FD 2>&1; then
          AC_MSG_RESULT([yes])
          ps_cuda_happy=yes
          ps_cuda_why="`$NVCC --version | tail -n 2 | head -n 1`, sm $ps_cuda_arch, static runtime from $CUDA_LIBDIR"
        else
          AC_MSG_RESULT([no])
          ps_cuda_why="$NVCC cannot compile a test kernel with -ccbin $NVCC_CCBIN (see config.log)"
        fi
        rm -f conftest.cu conftest.$OBJEXT
      fi
    else
      ps_cuda_why="nvcc not found"
    fi
    if test "x$enable_cuda" != xcheck && test $ps_cuda_happy = no; then
      AC_MSG_ERROR([--enable-cuda given but $ps_cuda_why])
    fi
  fi
  if test $ps_cuda_happy = yes; then
    AC_DEFINE([PS_BUILD_CUDA], [1], [The cuda plugin is built])
  fi
  NVCC_GENCODE=""
  ps_cuda_last=""
  for ps_a in `echo $ps_cuda_arch | tr ',' ' '`; do
    ps_a=`echo $ps_a | sed 's/^sm_//; s/^compute_//'`
    NVCC_GENCODE="$NVCC_GENCODE -gencode arch=compute_$ps_a,code=sm_$ps_a"
    ps_cuda_last=$ps_a
  done
  test -n "$ps_cuda_last" && NVCC_GENCODE="$NVCC_GENCODE -gencode arch=compute_$ps_cuda_last,code=compute_$ps_cuda_last"
  NVCC_PTX_ARCH="compute_${ps_cuda_last:-90}"
  AC_SUBST([NVCC])
  AC_SUBST([CUDA_HOME])
  AC_SUBST([CUDA_LIBDIR])
  AC_SUBST([NVCC_GENCODE])
  AC_SUBST([NVCC_PTX_ARCH])
  AM_CONDITIONAL([PS_BUILD_CUDA], [test $ps_cuda_happy = yes])
  AM_CONDITIONAL([PS_ENABLE_NVTX], [test "x$enable_nvtx" = xyes])
])

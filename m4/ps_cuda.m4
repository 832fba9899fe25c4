dnl PS_CHECK_CUDA: the cuda plugin (--enable-cuda[=PATH], --with-cuda-arch=LIST).
dnl Built when nvcc is found; --enable-cuda makes its absence an error.
AC_DEFUN([PS_CHECK_CUDA], [
  AC_ARG_ENABLE([cuda],
    [AS_HELP_STRING([--enable-cuda@<:@=PATH@:>@], [build the CUDA backend plugin, optionally with the CUDA toolkit at PATH (default: when nvcc is found)])],
    [], [enable_cuda=check])
  AC_ARG_WITH([cuda-arch],
    [AS_HELP_STRING([--with-cuda-arch=LIST], [comma-separated SM targets (default: 80,90 machine code plus PTX for newer GPUs)])],
    [ps_cuda_arch=$withval], [ps_cuda_arch="80,90"])
  AC_ARG_ENABLE([nvtx],
    [AS_HELP_STRING([--enable-nvtx], [NVTX ranges in the CUDA backend (Nsight)])],
    [], [enable_nvtx=no])
  ps_cuda_happy=no
  ps_cuda_why="disabled"
  NVCC=""
  CUDA_HOME=""
  if test "x$enable_cuda" != xno; then
    ps_cuda_path=$PATH
    case "$enable_cuda" in
      yes|check) test -d /usr/local/cuda/bin && ps_cuda_path="$PATH:/usr/local/cuda/bin" ;;
      *) ps_cuda_path="$enable_cuda/bin" ;;
    esac
    AC_PATH_PROG([NVCC], [nvcc], [], [$ps_cuda_path])
    if test -n "$NVCC"; then
      CUDA_HOME=`dirname \`dirname $NVCC\``
      AC_MSG_CHECKING([whether nvcc compiles position-independent code])
      cat > conftest.cu <<PSEOF
__global__ void k(float *x) { x@<:@threadIdx.x@:>@ = 1.0f; }
int main(void) { return 0; }
PSEOF
      if $NVCC -c -Xcompiler -fPIC -ccbin "$CC" conftest.cu -o conftest.$OBJEXT >&AS_MESSAGE_LOG_FD 2>&1; then
        AC_MSG_RESULT([yes])
        ps_cuda_happy=yes
        ps_cuda_why="`$NVCC --version | tail -n 2 | head -n 1`, arch $ps_cuda_arch"
      else
        AC_MSG_RESULT([no])
        ps_cuda_why="$NVCC cannot compile a test kernel (see config.log)"
      fi
      rm -f conftest.cu conftest.$OBJEXT
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
  for ps_a in `echo $ps_cuda_arch | tr ',' ' '`; do
    ps_a=`echo $ps_a | sed 's/^sm_//'`
    NVCC_GENCODE="$NVCC_GENCODE -gencode arch=compute_$ps_a,code=sm_$ps_a"
    ps_cuda_last=$ps_a
  done
  test -n "$ps_cuda_last" && NVCC_GENCODE="$NVCC_GENCODE -gencode arch=compute_$ps_cuda_last,code=compute_$ps_cuda_last"
  AC_SUBST([NVCC])
  AC_SUBST([CUDA_HOME])
  AC_SUBST([NVCC_GENCODE])
  AM_CONDITIONAL([PS_BUILD_CUDA], [test $ps_cuda_happy = yes])
  AM_CONDITIONAL([PS_ENABLE_NVTX], [test "x$enable_nvtx" = xyes])
])

#!/bin/sh
# Exact mode cannot be undone by flags (backends/gpu/local.mk):
#  - with NVCCFLAGS / HIPCCFLAGS asking for contraction and approximate
#    division, the exact kernel unit's command still ends with the exact-mode
#    flags (nvcc and clang take the last of a repeated option): checked on the
#    commands make would run (make -n), for every built port;
#  - HIP on an NVIDIA platform is refused at compile time, the message
#    pointing to the cuda plugin (checked with the host compiler: the refusal
#    comes before any HIP header).
. "$top_srcdir/tests/lib.sh"
MK="env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL ${MAKE:-make} -s -C $top_builddir -n"
src=$top_srcdir/backends/gpu/ps_gpu_launch.cpp
# last VALUE of option OPT (OPT=VALUE or OPT VALUE) on a command line
last() { echo "$2" | tr ' ' '\n' | sed -n "s/^$1=\{0,1\}//p" | grep -v '^$' | tail -1; }
n=0
if grep -q '^#define PS_BUILD_CUDA 1' "$top_builddir/config.h"; then
  for t in backends/cuda/ps_gpu_launch_exact.lo backends/cuda/ps_cuda_exact.ptx; do
    cmd=$($MK -W "$src" "$t" NVCCFLAGS='--fmad=true -prec-div=false -prec-sqrt=false -ftz=true --use_fast_math' | grep 'nvcc')
    [ -n "$cmd" ] || fail "make -n $t printed no nvcc command"
    echo "$t: $cmd" | cut -c1-400
    [ "$(last --fmad "$cmd")" = false ] || fail "$t: a user's --fmad=true wins"
    [ "$(last -prec-div "$cmd")" = true ] || fail "$t: a user's -prec-div=false wins"
    [ "$(last -prec-sqrt "$cmd")" = true ] || fail "$t: a user's -prec-sqrt=false wins"
    [ "$(last -ftz "$cmd")" = false ] || fail "$t: a user's -ftz=true wins"
    n=$((n + 1))
  done
fi
if grep -q '^#define PS_BUILD_HIP 1' "$top_builddir/config.h"; then
  for t in backends/hip/ps_gpu_launch_exact.lo; do
    cmd=$($MK -W "$src" "$t" HIPCCFLAGS='-ffp-contract=fast -ffast-math' | grep 'hipcc')
    [ -n "$cmd" ] || fail "make -n $t printed no hipcc command"
    echo "$t: $cmd" | cut -c1-400
    [ "$(last -ffp-contract "$cmd")" = off ] || fail "$t: a user's -ffp-contract=fast wins"
    echo "$cmd" | tr ' ' '\n' | awk '/^-ffast-math$/ { f = NR } /^-fno-fast-math$/ { g = NR } END { exit !(g > f) }' ||
      fail "$t: a user's -ffast-math comes after -fno-fast-math"
    n=$((n + 1))
  done
fi
# HIP on NVIDIA: refused, pointing to the cuda plugin (the host compiler suffices)
printf '#include "ps_gpu_port.h"\n' > "$TMP/hip.cpp"
${CC:-cc} -x c++ -std=c++20 -fsyntax-only -DPS_GPU_PORT_HIP -D__HIP_PLATFORM_NVIDIA__ \
  -I"$top_srcdir/backends/gpu" "$TMP/hip.cpp" >"$TMP/hiperr" 2>&1 && fail "HIP on NVIDIA compiled"
grep -q 'HIP on NVIDIA loses exact mode; build the cuda plugin' "$TMP/hiperr" ||
  { cat "$TMP/hiperr"; fail "HIP on NVIDIA: no message pointing to the cuda plugin"; }
echo "PASS: exact-mode flags last on $n command(s); HIP on NVIDIA refused"
exit 0

#!/bin/sh
# The hip plugin's kernels as device LLVM IR built with the plugin's flags
# (backends/gpu/local.mk), for EVERY target the plugin is built for
# (PS_HIP_TARGETS in config.h): each target's IR is a separate compilation,
# so one target's code generation says nothing about another's.
#  exact: a generic kernel for every stencil of kernels/ps_stencils.h in both
#         precisions and diffusion7's tuned kernel; no llvm.fma/llvm.fmuladd,
#         no fast-math flags (contract, arcp, afn, reassoc, fast, nnan, ninf,
#         nsz) on any floating-point operation, and an fdiv for float and
#         double (IEEE division);
#  fast:  the operations do carry contract/arcp, so this check can fail.
. "$top_srcdir/tests/lib.sh"
dir=$top_builddir/backends/hip
targets=$(sed -n 's/^#define PS_HIP_TARGETS "\(.*\)"$/\1/p' "$top_builddir/config.h")
[ -n "$targets" ] || skip "the hip plugin is not built (no PS_HIP_TARGETS in config.h)"
stencils=$(sh "$top_srcdir/tests/stencil-list.sh" "$top_srcdir") || fail "no stencil list in kernels/ps_stencils.h"

flags='(fast|contract|arcp|afn|reassoc|nnan|ninf|nsz)'
n=0
for t in $targets; do
  exact=$dir/ps_hip_exact-$t.ll
  fast=$dir/ps_hip_fast-$t.ll
  [ -f "$exact" ] && [ -f "$fast" ] || fail "$t: no device IR ($exact, $fast)"
  echo "== $t exact kernel IR:"
  grep -oE "\b(fadd|fsub|fmul|fdiv)( [a-z]+)* (float|double)" "$exact" | sort | uniq -c
  echo "== $t fast kernel IR:"
  grep -oE "\b(fadd|fsub|fmul|fdiv)( [a-z]+)* (float|double)" "$fast" | sort | uniq -c

  grep -q 'define.*ps_exact.*d7_step' "$exact" || fail "$t: no exact d7_step kernel"
  for s in $stencils; do
    for p in f32 f64; do
      grep -qE "define .*amdgpu_kernel.*ps_exact[0-9]*gen_${s}_$p" "$exact" ||
        fail "$t: no exact generic kernel for stencil $s ($p)"
    done
  done
  if grep -nE 'llvm\.(fma|fmuladd)\.' "$exact"; then
    fail "$t: the exact kernels call fma/fmuladd"
  fi
  if grep -nE "\b(fadd|fsub|fmul|fdiv)( [a-z]+)* $flags\b" "$exact"; then
    fail "$t: the exact kernels have fast-math flags on floating-point operations"
  fi
  grep -qE '\bfdiv float\b' "$exact" || fail "$t: no IEEE fdiv float in the exact kernels"
  grep -qE '\bfdiv double\b' "$exact" || fail "$t: no IEEE fdiv double in the exact kernels"
  if ! grep -qE "\b(fadd|fsub|fmul|fdiv)( [a-z]+)* $flags\b|llvm\.(fma|fmuladd)\." "$fast"; then
    fail "$t: the fast kernels carry no contraction or reciprocal flags"
  fi
  n=$((n + 1))
done
echo "PASS: exact IR is strict IEEE, fast IR is relaxed, on all $n targets ($targets)"
exit 0

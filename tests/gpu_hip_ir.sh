#!/bin/sh
# The hip plugin's kernels as device LLVM IR built with the plugin's flags
# (backends/hip/local.mk). exact: no llvm.fma/llvm.fmuladd, no fast-math
# flags (contract, arcp, afn, reassoc, fast) on any floating-point
# operation, and an fdiv for float and double (IEEE division). fast: the
# operations do carry contract/arcp, so this check can fail.
. "$top_srcdir/tests/lib.sh"
dir=$top_builddir/backends/hip
exact=$dir/ps_hip_exact.ll
fast=$dir/ps_hip_fast.ll
[ -f "$exact" ] && [ -f "$fast" ] || skip "no device IR in $dir (the hip plugin is not built)"

flags='(fast|contract|arcp|afn|reassoc|nnan|ninf|nsz)'
echo "exact kernel IR:"; grep -oE "\b(fadd|fsub|fmul|fdiv)( [a-z]+)* (float|double)" "$exact" | sort | uniq -c
echo "fast kernel IR:"; grep -oE "\b(fadd|fsub|fmul|fdiv)( [a-z]+)* (float|double)" "$fast" | sort | uniq -c

grep -q 'ps_exact.*d7_step' "$exact" || fail "no exact d7_step kernel in $exact"
if grep -nE 'llvm\.(fma|fmuladd)\.' "$exact"; then
  fail "the exact kernel calls fma/fmuladd"
fi
if grep -nE "\b(fadd|fsub|fmul|fdiv)( [a-z]+)* $flags\b" "$exact"; then
  fail "the exact kernel has fast-math flags on floating-point operations"
fi
grep -qE '\bfdiv float\b' "$exact" || fail "no IEEE fdiv float in the exact kernel"
grep -qE '\bfdiv double\b' "$exact" || fail "no IEEE fdiv double in the exact kernel"
if ! grep -qE "\b(fadd|fsub|fmul|fdiv)( [a-z]+)* $flags\b|llvm\.(fma|fmuladd)\." "$fast"; then
  fail "the fast kernel carries no contraction or reciprocal flags"
fi
echo "PASS: exact IR is strict IEEE, fast IR is relaxed"
exit 0

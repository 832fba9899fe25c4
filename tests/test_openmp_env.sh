#!/bin/sh
# The openmp backend honours OMP_NUM_THREADS (its device reports the team
# size), uses its AVX2 row kernels where the CPU has AVX2 (no -march needed),
# and PSTENCIL_OPENMP_ISA=baseline selects the baseline kernels.
. "$top_srcdir/tests/lib.sh"
expect_exit 0 env OMP_NUM_THREADS=3 "$PSTENCIL" backends
grep -A2 '^openmp ' "$TMP/out" | grep -q '3 compute units' || { cat "$TMP/out"; fail "OMP_NUM_THREADS=3 not honoured"; }
expect_exit 0 env OMP_NUM_THREADS=1 "$PSTENCIL" backends
grep -A2 '^openmp ' "$TMP/out" | grep -q '1 compute unit;' || { cat "$TMP/out"; fail "OMP_NUM_THREADS=1 not honoured"; }
if grep -qw avx2 /proc/cpuinfo 2>/dev/null && [ "$(uname -m)" = x86_64 ]; then
  grep -A3 '^openmp ' "$TMP/out" | grep -q 'row kernels: avx2' || { cat "$TMP/out"; fail "AVX2 kernels not selected on an AVX2 CPU"; }
fi
expect_exit 0 env PSTENCIL_OPENMP_ISA=baseline "$PSTENCIL" backends
grep -A3 '^openmp ' "$TMP/out" | grep -q 'row kernels: baseline' || { cat "$TMP/out"; fail "PSTENCIL_OPENMP_ISA=baseline not honoured"; }
exit 0

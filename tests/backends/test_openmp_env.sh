#!/bin/sh
# The openmp backend honours OMP_NUM_THREADS (its device reports the team
# size), uses its AVX2 row kernels where the CPU has AVX2 (no -march needed),
# PSTENCIL_OPENMP_ISA=baseline selects the baseline kernels, the 512-bit rows
# are the default on a CPU that has AVX-512, and PSTENCIL_OPENMP_ISA=avx2
# turns them off.
. "$top_srcdir/tests/lib.sh"
expect_exit 0 env OMP_NUM_THREADS=3 "$PSTENCIL" backends
grep -A2 '^openmp ' "$TMP/out" | grep -q '3 compute units' || { cat "$TMP/out"; fail "OMP_NUM_THREADS=3 not honoured"; }
expect_exit 0 env OMP_NUM_THREADS=1 "$PSTENCIL" backends
grep -A2 '^openmp ' "$TMP/out" | grep -q '1 compute unit;' || { cat "$TMP/out"; fail "OMP_NUM_THREADS=1 not honoured"; }
if grep -qw avx2 /proc/cpuinfo 2>/dev/null && [ "$(uname -m)" = x86_64 ]; then
  grep -A3 '^openmp ' "$TMP/out" | grep -Eq 'row kernels: (avx512|avx2)' || { cat "$TMP/out"; fail "AVX2 kernels not selected on an AVX2 CPU"; }
  expect_exit 0 env PSTENCIL_OPENMP_ISA=avx2 "$PSTENCIL" backends
  grep -A3 '^openmp ' "$TMP/out" | grep -q 'row kernels: avx2' || { cat "$TMP/out"; fail "PSTENCIL_OPENMP_ISA=avx2 not honoured"; }
fi
expect_exit 0 env PSTENCIL_OPENMP_ISA=baseline "$PSTENCIL" backends
grep -A3 '^openmp ' "$TMP/out" | grep -q 'row kernels: baseline' || { cat "$TMP/out"; fail "PSTENCIL_OPENMP_ISA=baseline not honoured"; }
# the 512-bit rows are the default where the CPU has AVX-512F and VL
# (and the build has them: x86 gcc/clang); PSTENCIL_OPENMP_ISA=avx512 asks too
if grep -qw avx512f /proc/cpuinfo 2>/dev/null && grep -qw avx512vl /proc/cpuinfo &&
   [ "$(uname -m)" = x86_64 ] && grep -q '^#define PS_HAVE_OMP_AVX512 1' "$top_builddir/config.h" 2>/dev/null; then
  expect_exit 0 "$PSTENCIL" backends
  grep -A3 '^openmp ' "$TMP/out" | grep -q 'row kernels: avx512' || { cat "$TMP/out"; fail "AVX-512 rows not the default on an AVX-512 CPU"; }
  expect_exit 0 env PSTENCIL_OPENMP_ISA=avx512 "$PSTENCIL" backends
  grep -A3 '^openmp ' "$TMP/out" | grep -q 'row kernels: avx512' || { cat "$TMP/out"; fail "PSTENCIL_OPENMP_ISA=avx512 not honoured on an AVX-512 CPU"; }
fi
exit 0

#!/bin/sh
# The openmp backend's other code paths must be bitwise identical too: the
# baseline (non-AVX2) row kernels, and j-tiling with tiles of 3 rows (tile
# edges everywhere), and the non-temporal-store rows used on grids larger than
# the last-level cache (forced here on small grids), each at 1, 2 and 3 threads.
# Temporal blocking (PSTENCIL_OPENMP_TBLOCK=T steps fused per sweep; the
# default is 4) with tiny tiles (PSTENCIL_OPENMP_TJ rows, so halos cross tile
# and grid edges), and the single-step path (T=0; j-tiling only applies there),
# at step counts 1, 2, 7 and 50 (remainders shorter than T, several sweeps).
# Streamed output rows (PSTENCIL_OPENMP_NTOUT=1) on small grids.
# Zero-land (PSTENCIL_OPENMP_ZERO_LAND=0/1) both ways. These switches belong
# to the diffusion7 fast path (the runs below are --stencil diffusion7, fast
# path and generic skeleton); the instruction set also selects the generic
# skeleton's variant, so the baseline run covers every stencil.
. "$top_srcdir/tests/lib.sh"
PSTENCIL_OPENMP_ISA=baseline "$PSTENCIL" validate --backend openmp --quick --threads 1,2,3 \
  >"$TMP/out" 2>&1 || { cat "$TMP/out"; fail "baseline kernels do not validate"; }
grep -Eq '^validate: [1-9][0-9]* comparisons, 0 failed' "$TMP/out" || { cat "$TMP/out"; fail "no comparisons"; }
PSTENCIL_OPENMP_TBLOCK=0 PSTENCIL_OPENMP_JBLOCK=3 "$PSTENCIL" validate --backend openmp --stencil diffusion7 --quick --threads 1,2,3 \
  >"$TMP/out" 2>&1 || { cat "$TMP/out"; fail "j-tiled kernels do not validate"; }
grep -Eq '^validate: [1-9][0-9]* comparisons, 0 failed' "$TMP/out" || { cat "$TMP/out"; fail "no comparisons"; }
PSTENCIL_OPENMP_STREAM=1 "$PSTENCIL" validate --backend openmp --stencil diffusion7 --quick --mode exact --threads 1,2,3 \
  >"$TMP/out" 2>&1 || { cat "$TMP/out"; fail "streaming-store kernels do not validate"; }
grep -Eq '^validate: [1-9][0-9]* comparisons, 0 failed' "$TMP/out" || { cat "$TMP/out"; fail "no comparisons"; }
PSTENCIL_OPENMP_STREAM=1 PSTENCIL_OPENMP_ISA=baseline "$PSTENCIL" validate --backend openmp --stencil diffusion7 --quick \
  --mode exact --threads 2 >"$TMP/out" 2>&1 || { cat "$TMP/out"; fail "baseline streaming kernels do not validate"; }
for tb in "0 1" "1 2" "2 3" "3 1" "4 5" "8 64" "12 3" "16 110"; do
  set -- $tb
  PSTENCIL_OPENMP_TBLOCK=$1 PSTENCIL_OPENMP_TJ=$2 "$PSTENCIL" validate --backend openmp --stencil diffusion7 --quick \
    --mode exact --steps 1,2,7,50 --threads 1,2,3 >"$TMP/out" 2>&1 \
    || { cat "$TMP/out"; fail "temporal blocking T=$1 (tiles of $2 rows) does not validate"; }
  grep -Eq '^validate: [1-9][0-9]* comparisons, 0 failed' "$TMP/out" || { cat "$TMP/out"; fail "no comparisons"; }
done
# the fused sweep's output rows streamed (non-temporal stores in the AVX-512
# block rows; the default only on fields of 128 MiB or more), forced on the
# small grids, several fused step counts and tile heights
for tb in "4 3" "2 1" "8 64" "5 110"; do
  set -- $tb
  PSTENCIL_OPENMP_NTOUT=1 PSTENCIL_OPENMP_TBLOCK=$1 PSTENCIL_OPENMP_TJ=$2 "$PSTENCIL" validate --backend openmp \
    --stencil diffusion7 --quick --mode exact --steps 1,2,7,50 --threads 1,2,3 >"$TMP/out" 2>&1 \
    || { cat "$TMP/out"; fail "streamed output rows, T=$1, tiles of $2 rows, do not validate"; }
  grep -Eq '^validate: [1-9][0-9]* comparisons, 0 failed' "$TMP/out" || { cat "$TMP/out"; fail "no comparisons"; }
done
# zero-land (land as +0.0 with a count array, the exact-mode default) off and
# on explicitly, on the fused and the single-step paths
for zl in 0 1; do
  for tb in 4 0; do
    PSTENCIL_OPENMP_ZERO_LAND=$zl PSTENCIL_OPENMP_TBLOCK=$tb "$PSTENCIL" validate --backend openmp --stencil diffusion7 \
      --quick --mode exact --steps 1,2,7,50 --threads 1,2 >"$TMP/out" 2>&1 \
      || { cat "$TMP/out"; fail "zero-land=$zl T=$tb does not validate"; }
    grep -Eq '^validate: [1-9][0-9]* comparisons, 0 failed' "$TMP/out" || { cat "$TMP/out"; fail "no comparisons"; }
  done
done
PSTENCIL_OPENMP_ZERO_LAND=1 PSTENCIL_OPENMP_ISA=baseline "$PSTENCIL" validate --backend openmp --stencil diffusion7 --quick \
  --mode exact --steps 1,7 --threads 2 >"$TMP/out" 2>&1 \
  || { cat "$TMP/out"; fail "baseline zero-land kernels do not validate"; }
grep -Eq '^validate: [1-9][0-9]* comparisons, 0 failed' "$TMP/out" || { cat "$TMP/out"; fail "no comparisons"; }
PSTENCIL_OPENMP_TBLOCK=3 PSTENCIL_OPENMP_TJ=4 PSTENCIL_OPENMP_ISA=baseline "$PSTENCIL" validate --backend openmp --stencil diffusion7 \
  --quick --mode exact --steps 1,2,7,50 --threads 2 >"$TMP/out" 2>&1 \
  || { cat "$TMP/out"; fail "baseline temporal blocking does not validate"; }
grep -Eq '^validate: [1-9][0-9]* comparisons, 0 failed' "$TMP/out" || { cat "$TMP/out"; fail "no comparisons"; }
# the zero-land rows of each instruction set: the AVX2 rows, and the AVX-512
# rows on 512- and 256-bit vectors (the default runs above use the 512-bit
# ones where the CPU has AVX-512F/VL; without them the request falls back to
# the AVX2 rows, validated too), in float32 and float64
for isa in avx2 avx512 avx512vl; do
  PSTENCIL_OPENMP_ISA=$isa "$PSTENCIL" validate --backend openmp --stencil diffusion7 --quick \
    --steps 1,2,7,50 --threads 1,2,3 >"$TMP/out" 2>&1 \
    || { cat "$TMP/out"; fail "$isa zero-land rows do not validate"; }
  grep -Eq '^validate: [1-9][0-9]* comparisons, 0 failed' "$TMP/out" || { cat "$TMP/out"; fail "no comparisons"; }
done
exit 0

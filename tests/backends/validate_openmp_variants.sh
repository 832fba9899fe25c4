#!/bin/sh
# The openmp backend's other code paths must be bitwise identical too: the
# baseline (non-AVX2) row kernels, and j-tiling with tiles of 3 rows (tile
# edges everywhere), and the non-temporal-store rows used on grids larger than
# the last-level cache (forced here on small grids), each at 1, 2 and 3 threads.
# Temporal blocking (PSTENCIL_OPENMP_TBLOCK=T steps fused per sweep; the
# default is 4) with tiny tiles (PSTENCIL_OPENMP_TJ rows, so halos cross tile
# and grid edges), and the single-step path (T=0; j-tiling only applies there),
# at step counts 1, 2, 7 and 50 (remainders shorter than T, several sweeps).
# Streamed output rows (PSTENCIL_OPENMP_NTOUT=1) on small grids, the fast
# path's and every stencil's generic path (its 512-bit variant streams them).
# Zero-land (PSTENCIL_OPENMP_ZERO_LAND=0/1) both ways. These switches belong
# to the diffusion7 fast path (the runs below are --stencil diffusion7, fast
# path and generic skeleton); the instruction set also selects the generic
# skeleton's variant, so the baseline run covers every stencil.
. "$top_srcdir/tests/lib.sh"
# One run per line: the variables that select the path, then validate's
# options (every run is --backend openmp --quick --threads 1,2,3 unless it
# says --threads). The quick suite runs a sample (ps_sample) that still holds
# each kind of path; make check-full runs every line.
D7="--stencil diffusion7 --mode exact --steps 1,2,7,50"
cat > "$TMP/runs" <<EOF_RUNS
PSTENCIL_OPENMP_ISA=baseline|
PSTENCIL_OPENMP_NTOUT=1 PSTENCIL_OPENMP_TBLOCK=3 PSTENCIL_OPENMP_TJ=5|--kernel generic --mode exact --steps 1,2,7
PSTENCIL_OPENMP_TBLOCK=0 PSTENCIL_OPENMP_JBLOCK=3|--stencil diffusion7
PSTENCIL_OPENMP_STREAM=1|--stencil diffusion7 --mode exact
PSTENCIL_OPENMP_STREAM=1 PSTENCIL_OPENMP_ISA=baseline|--stencil diffusion7 --mode exact --threads 2
PSTENCIL_OPENMP_TBLOCK=0 PSTENCIL_OPENMP_TJ=1|$D7
PSTENCIL_OPENMP_TBLOCK=1 PSTENCIL_OPENMP_TJ=2|$D7
PSTENCIL_OPENMP_TBLOCK=2 PSTENCIL_OPENMP_TJ=3|$D7
PSTENCIL_OPENMP_TBLOCK=3 PSTENCIL_OPENMP_TJ=1|$D7
PSTENCIL_OPENMP_TBLOCK=4 PSTENCIL_OPENMP_TJ=5|$D7
PSTENCIL_OPENMP_TBLOCK=8 PSTENCIL_OPENMP_TJ=64|$D7
PSTENCIL_OPENMP_TBLOCK=12 PSTENCIL_OPENMP_TJ=3|$D7
PSTENCIL_OPENMP_TBLOCK=16 PSTENCIL_OPENMP_TJ=110|$D7
PSTENCIL_OPENMP_NTOUT=1 PSTENCIL_OPENMP_TBLOCK=4 PSTENCIL_OPENMP_TJ=3|$D7
PSTENCIL_OPENMP_NTOUT=1 PSTENCIL_OPENMP_TBLOCK=2 PSTENCIL_OPENMP_TJ=1|$D7
PSTENCIL_OPENMP_NTOUT=1 PSTENCIL_OPENMP_TBLOCK=8 PSTENCIL_OPENMP_TJ=64|$D7
PSTENCIL_OPENMP_NTOUT=1 PSTENCIL_OPENMP_TBLOCK=5 PSTENCIL_OPENMP_TJ=110|$D7
PSTENCIL_OPENMP_ZERO_LAND=0 PSTENCIL_OPENMP_TBLOCK=4|$D7 --threads 1,2
PSTENCIL_OPENMP_ZERO_LAND=0 PSTENCIL_OPENMP_TBLOCK=0|$D7 --threads 1,2
PSTENCIL_OPENMP_ZERO_LAND=1 PSTENCIL_OPENMP_TBLOCK=4|$D7 --threads 1,2
PSTENCIL_OPENMP_ZERO_LAND=1 PSTENCIL_OPENMP_TBLOCK=0|$D7 --threads 1,2
PSTENCIL_OPENMP_ZERO_LAND=1 PSTENCIL_OPENMP_ISA=baseline|--stencil diffusion7 --mode exact --steps 1,7 --threads 2
PSTENCIL_OPENMP_TBLOCK=3 PSTENCIL_OPENMP_TJ=4 PSTENCIL_OPENMP_ISA=baseline|$D7 --threads 2
PSTENCIL_OPENMP_ISA=avx2|--stencil diffusion7 --steps 1,2,7,50
PSTENCIL_OPENMP_ISA=avx512|--stencil diffusion7 --steps 1,2,7,50
PSTENCIL_OPENMP_ISA=avx512vl|--stencil diffusion7 --steps 1,2,7,50
EOF_RUNS
# the first two runs (baseline, every stencil's generic variant; every
# stencil's generic path with streamed output rows) always run
NL='
'
IFS=$NL
runs=$(head -2 "$TMP/runs"; ps_sample 3 $(tail -n +3 "$TMP/runs"))
n=0
for run in $runs; do
  IFS=' '
  vars=${run%%|*}; opts=${run#*|}
  case "$opts" in *--threads*) th= ;; *) th="--threads 1,2,3" ;; esac
  # shellcheck disable=SC2086
  env $vars "$PSTENCIL" validate --backend openmp --quick $opts $th >"$TMP/out" 2>&1 \
    || { cat "$TMP/out"; fail "$vars: validate $opts fails"; }
  grep -Eq '^validate: [1-9][0-9]* comparisons, 0 failed' "$TMP/out" || { cat "$TMP/out"; fail "$vars: no comparisons"; }
  n=$((n + 1))
done
echo "validate_openmp_variants: $n of $(wc -l < "$TMP/runs") variant runs$(ps_full || echo ' (a sample: make check-full runs all)')"
exit 0

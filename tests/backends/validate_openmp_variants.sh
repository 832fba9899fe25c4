#!/bin/sh
# The openmp backend's code paths, each bitwise identical to the reference:
# the instruction-set variants of the generic rows (baseline, avx2, avx512),
# fused sweeps (PSTENCIL_OPENMP_TBLOCK=T steps, 0 and 1 one step a sweep)
# with tiny tiles (PSTENCIL_OPENMP_TJ rows, so halos cross tile and grid
# edges) at step counts 1, 2, 7 and 50 (remainders shorter than T, several
# sweeps), streamed output rows (PSTENCIL_OPENMP_NTOUT=1) on small grids, and
# the land-sum form (PSTENCIL_OPENMP_ZERO_LAND=0/1) both ways, at 1, 2 and 3
# threads. The baseline run covers every stencil.
. "$top_srcdir/tests/lib.sh"
# One run per line: the variables that select the path, then validate's
# options (every run is --backend openmp --quick --threads 1,2,3 unless it
# says --threads). The quick suite runs a sample (ps_sample) that still holds
# each kind of path; make check-full runs every line.
D7="--stencil diffusion7 --mode exact --steps 1,2,7,50"
cat > "$TMP/runs" <<EOF_RUNS
PSTENCIL_OPENMP_ISA=baseline|
PSTENCIL_OPENMP_NTOUT=1 PSTENCIL_OPENMP_TBLOCK=3 PSTENCIL_OPENMP_TJ=5|--kernel generic --mode exact --steps 1,2,7
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
PSTENCIL_OPENMP_ISA=avx512|--stencil smooth2 --steps 1,2,7,50
PSTENCIL_OPENMP_ISA=avx2|--stencil hdiff --steps 1,2,7
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

#!/bin/sh
# Compare two pstencil builds side by side: the same run, interleaved
# (A B A B ...), so machine load hits both alike. Prints each run's ms/step
# and checksum, then the median ms/step of each build and whether every
# checksum agreed (the results must be bitwise equal).
#
#   tools/compare-builds.sh OLD/cli/pstencil NEW/cli/pstencil [REPS] [-- RUN OPTIONS]
#
# Default run options: --steps 200 --backend openmp (built-in ocean, float32).
set -eu
[ $# -ge 2 ] || { echo "usage: $0 PSTENCIL_A PSTENCIL_B [REPS] [-- RUN OPTIONS]" >&2; exit 2; }
A=$1 B=$2; shift 2
REPS=7
if [ $# -gt 0 ] && [ "$1" != "--" ]; then REPS=$1; shift; fi
[ $# -gt 0 ] && [ "$1" = "--" ] && shift
[ $# -gt 0 ] || set -- --steps 200 --backend openmp
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
r=1
while [ $r -le "$REPS" ]; do
  out=$("$A" run -o "$TMP/a.nc" --force "$@" 2>&1) || { echo "$out" >&2; exit 1; }
  echo "A $(echo "$out" | awk '/per step/ {print $4; exit}') $(echo "$out" | awk '/checksum/ {print $3; exit}')" | tee -a "$TMP/all"
  out=$("$B" run -o "$TMP/b.nc" --force "$@" 2>&1) || { echo "$out" >&2; exit 1; }
  echo "B $(echo "$out" | awk '/per step/ {print $4; exit}') $(echo "$out" | awk '/checksum/ {print $3; exit}')" | tee -a "$TMP/all"
  r=$((r + 1))
done
med() { grep "^$1 " "$TMP/all" | awk '{print $2}' | sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
ma=$(med A) mb=$(med B)
nsum=$(awk '{print $3}' "$TMP/all" | sort -u | wc -l)
echo "median ms/step: A $ma  B $mb  (B/A = $(awk -v a="$ma" -v b="$mb" 'BEGIN {printf "%.3f", b/a}'))"
if [ "$nsum" -eq 1 ]; then echo "checksums: all equal"; else echo "checksums: DIFFER"; exit 1; fi

#!/bin/sh
# Compare two settings of one backend by CPU time per step on ONE thread,
# interleaved (A B A B ...), for a machine shared with other jobs, where
# wall-clock A/B runs (tools/compare-builds.sh) drown in the load: a single
# thread's CPU time counts only the time it ran. Each side is an environment
# (e.g. "PSTENCIL_OPENMP_ISA=avx2"; "-" for none) given to
# tests/backends/test_openmp_bench --cpu-time. Prints each round and the median of the
# rounds' medians. Cache sharing with other jobs still shows in CPU time, so run
# an A/A comparison first to see the noise floor.
#
#   tools/compare-cputime.sh ENV_A ENV_B [ROUNDS] [-- BENCH OPTIONS]
#
# Default bench options: --steps 8 --reps 10 (built-in ocean, float32, exact).
set -eu
[ $# -ge 2 ] || { echo "usage: $0 ENV_A ENV_B [ROUNDS] [-- BENCH OPTIONS]" >&2; exit 2; }
A=$1 B=$2; shift 2
ROUNDS=8
if [ $# -gt 0 ] && [ "$1" != "--" ]; then ROUNDS=$1; shift; fi
[ $# -gt 0 ] && [ "$1" = "--" ] && shift
[ $# -gt 0 ] || set -- --steps 8 --reps 10
BENCH=${BENCH:-tests/backends/test_openmp_bench}
[ -x "$BENCH" ] || { echo "$0: $BENCH not built (make tests/backends/test_openmp_bench)" >&2; exit 2; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
one() {
  e=$1; shift
  [ "$e" = "-" ] && e=""
  # shellcheck disable=SC2086
  env OMP_WAIT_POLICY=passive $e "$BENCH" --threads 1 --cpu-time "$@" |
    awk '/ms\/step/ { for (i = 1; i <= NF; i++) if ($i == "ms/step") print $(i - 1) }'
}
r=1
while [ "$r" -le "$ROUNDS" ]; do
  echo "A $(one "$A" "$@")" | tee -a "$TMP/all"
  echo "B $(one "$B" "$@")" | tee -a "$TMP/all"
  r=$((r + 1))
done
med() { grep "^$1 " "$TMP/all" | awk '{print $2}' | sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
ma=$(med A) mb=$(med B)
echo "median CPU ms/step (1 thread): A $ma  B $mb  (B/A = $(awk -v a="$ma" -v b="$mb" 'BEGIN {printf "%.3f", b/a}')), load average $(cut -d' ' -f1-3 /proc/loadavg)"

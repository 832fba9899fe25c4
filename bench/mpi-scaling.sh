#!/bin/sh
# Strong and weak scaling of `mpirun -np P pstencil run` (./configure --enable-mpi).
#
#   bench/mpi-scaling.sh [-o DIR] [--np "1 2 4"] [--steps N] [--repeats R]
#                        [--backend B] [--scale S] [--halo G]
#
# Strong scaling: the built-in ocean at --scale S (default 1: 50 x 222 x 241),
# written once as a file, run on P ranks. Weak scaling: the horizontal
# resolution grows with sqrt(P) (gen --scale S*sqrt(P)), so the cells per rank
# stay about constant. Each point is the median of R runs (by the step loop:
# stepping + exchange, largest over ranks); the report's timing line also gives
# the exchange time and the read and write times. Writes DIR/mpi-scaling.csv,
# DIR/mpi-scaling.md (the table) and, with PLplot, DIR/mpi-scaling.png.
# PSTENCIL (default: the build tree's cli/pstencil) and MPIRUN may be set.
set -u

top=${top_builddir:-$(pwd)}   # run from the build tree, or set top_builddir
PSTENCIL=${PSTENCIL:-$top/cli/pstencil}
PLOT=${PLOT:-$top/bench/mpi_scaling_plot}
MPIRUN=${MPIRUN:-$(command -v mpirun || command -v mpiexec)}
dir=. ; nps="1 2 4"; steps=50; repeats=3; backend=openmp; scale=1; halo=2
while [ $# -gt 0 ]; do
  case $1 in
    -o) dir=$2; shift 2 ;;
    --np) nps=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --repeats) repeats=$2; shift 2 ;;
    --backend) backend=$2; shift 2 ;;
    --scale) scale=$2; shift 2 ;;
    --halo) halo=$2; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "mpi-scaling.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -n "$MPIRUN" ] || { echo "mpi-scaling.sh: no mpirun" >&2; exit 2; }
grep -q '^#define PS_HAVE_MPI 1' "$top/config.h" 2>/dev/null ||
  { echo "mpi-scaling.sh: $top was configured without --enable-mpi" >&2; exit 2; }
mkdir -p "$dir" || exit 2
work=$(mktemp -d "${TMPDIR:-/tmp}/mpi-scaling.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
flags="--oversubscribe"
"$MPIRUN" --version 2>/dev/null | grep -q 'Open MPI' && flags="--oversubscribe --allow-run-as-root"
OMP_NUM_THREADS=1; export OMP_NUM_THREADS
csv=$dir/mpi-scaling.csv
echo "kind,ranks,decomp,cells,total_s,step_s,exchange_s,read_s,write_s" > "$csv.tmp"
# one point: median run (by the step loop) of R runs -> a CSV row
point() { # kind P input
  : > "$work/runs"
  r=0
  while [ "$r" -lt "$repeats" ]; do
    # shellcheck disable=SC2086
    "$MPIRUN" $flags -np "$2" -x OMP_NUM_THREADS -x PSTENCIL_PLUGIN_PATH "$PSTENCIL" run "$3" \
      -b "$backend" -t 1 -n "$steps" --halo "$halo" -o "$work/out.nc" --force \
      > "$work/rep" 2>&1 </dev/null || { cat "$work/rep" >&2; exit 1; }
    dec=$(sed -n 's/.*decomposition \([0-9x]*\) .*/\1/p' "$work/rep")
    grid=$(sed -n 's/^  grid        : \([0-9]*\) x \([0-9]*\) x \([0-9]*\).*/\1 \2 \3/p' "$work/rep")
    sed -n 's/^  timing      : //p' "$work/rep" | tr ' ' '\n' | sed 's/.*=//' | tr '\n' ' ' |
      awk -v d="$dec" -v g="$grid" '{ split(g, n, " "); print $3 + $4, $1, d, n[1]*n[2]*n[3], $2, $3, $4, $5, $6 }' >> "$work/runs"
    r=$((r + 1))
  done
  sort -n "$work/runs" | awk -v k="$1" -v m=$(( (repeats + 1) / 2 )) \
    'NR == m { printf "%s,%s,%s,%d,%.6f,%.6f,%.6f,%.6f,%.6f\n", k, $2, $3, $4, $5, $6, $7, $8, $9 }' >> "$csv.tmp"
  tail -1 "$csv.tmp"
}
"$PSTENCIL" gen --scale "$scale" -o "$work/strong.nc" --force > /dev/null || exit 1
for p in $nps; do
  point strong "$p" "$work/strong.nc"
  s=$(awk -v s="$scale" -v p="$p" 'BEGIN { printf "%.4f", s * sqrt(p) }')
  "$PSTENCIL" gen --scale "$s" -o "$work/weak.nc" --force > /dev/null || exit 1
  point weak "$p" "$work/weak.nc"
done
mv "$csv.tmp" "$csv"
# the table
awk -F, 'NR == 1 { next }
  { loop = $6 + $7; if ($2 == 1) base[$1] = loop; row[NR] = $0 }
  END {
    print "| scaling | ranks | decomposition | cells | cells/rank | step loop s | speedup (strong) / efficiency (weak) | exchange % of loop | I/O s (read + write) | I/O % of run |"
    print "|---|---|---|---|---|---|---|---|---|---|"
    for (i = 2; i <= NR; i++) {
      split(row[i], f, ","); loop = f[6] + f[7]; io = f[8] + f[9]
      eff = loop > 0 ? base[f[1]] / loop : 0; ex = loop > 0 ? 100 * f[7] / loop : 0
      iof = f[5] > 0 ? 100 * io / f[5] : 0
      printf "| %s | %d | %s | %d | %d | %.3f | %.2f | %.1f | %.3f | %.1f |\n", f[1], f[2], f[3], f[4], f[4] / f[2], loop, eff, ex, io, iof
    }
  }' "$csv" > "$dir/mpi-scaling.md"
cat "$dir/mpi-scaling.md"
if [ -x "$PLOT" ]; then
  "$PLOT" "$csv" "$dir/mpi-scaling.png"
else
  echo "no $PLOT (PLplot not configured): no figure"
fi

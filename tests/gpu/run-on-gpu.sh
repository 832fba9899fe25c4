#!/bin/bash
# The one prepared run for a machine with an NVIDIA GPU and no network
# (docs/gpu.md, "Running on a GPU machine"): build directly with gcc and nvcc
# (no autotools, no netCDF, nothing downloaded), record the kernels' register
# use and SASS FFMA count (recorded), then measure the most valuable things first:
#   1. every validation case bitwise (test_gpu_backend: every stencil, both
#      precisions, sub-boxes, graphs, staged copies);
#   2. 400M cells float32, exact, against the device copy bandwidth measured
#      on the same buffers, every kernel variant, validated after one step;
#   3. the course grid float32: graphs on and off, fast mode, every variant,
#      programmatic dependent launch (PDL, default kernel); 3b. every
#      stencil of the list through the generic kernels, exact and fast;
#   4. the course grid float64; 5. 200M cells float64; 6. the block sweep.
# Each run warms up by time (the idle SM clock is 345 MHz) and reports the
# median of repeated batches; the SM clock is sampled all along.
#
#   tests/gpu/run-on-gpu.sh [--no-gpu] OUTDIR
#
# Writes only two files into OUTDIR: run.log (one combined log, appended as
# each stage ends, so a kill keeps what was done) and table.txt (the summary,
# also printed last on stdout). Build files go to $PSTENCIL_GPU_BUILD
# (default /tmp/pstencil-gpu-build). The whole run stops starting stages
# after PSTENCIL_GPU_BUDGET_S seconds (default 360); each stage has its own
# limit, enforced with `timeout -k` (the build: PSTENCIL_GPU_BUILD_S, default 150;
# validation: PSTENCIL_GPU_VALIDATE_S, default 120).
#
# --no-gpu (or PSTENCIL_GPU_SKIP=1): build and the static stages only, then
# exit 0 (CI: .ci/jobs/gpu-direct.sh; make check: tests/gpu/direct_build.sh).
# Without --no-gpu and without a device: the same, exit 77.
# PSTENCIL_GPU_BENCH_BACKEND=gpumock runs the GPU stages on the host-memory
# mock (built then too) with the small sizes of PSTENCIL_GPU_SMALL=1: how the
# stages and the table are tested without a GPU.
# Exit: 0 all ran and validated, 1 a build, validation or stage failed,
# 77 no device.
set -u

# ---- what the direct build compiles (paths relative to the source tree) ----
# the engine: the C sources of libpstencil (core/local.mk and the backends built
# into it, backends/reference/local.mk) and of the openmp backend (PS_OMP_SRCS in
# backends/openmp/local.mk), read from those make fragments so that a file added
# to the library is compiled here too (a hand-kept copy of the list went stale
# three times); headers and the per-ISA file below are left out
ps_mk_sources() { # FILE VAR...: the .c files assigned to VAR (=, += and continuations)
  awk -v vars=" $(echo "$@" | cut -d' ' -f2-) " '
    !cont { split($0, w, /[ \t+=]+/); take = index(vars, " " w[1] " ") > 0 && $0 ~ /=/
            if (take) sub(/^[^=]*=/, "") }
    take { line = $0; cont = sub(/\\$/, "", line); n = split(line, t, /[ \t]+/)
           for (i = 1; i <= n; i++) if (t[i] ~ /\.c$/) print t[i]
           if (!cont) take = 0; next }
    { cont = /\\$/ }' "$1"
}
# compiled once per instruction set (as backends/openmp/local.mk does):
# -DPS_OMP_ISA=base; avx2 with -mavx2; the generic sweeps also fma with
# -mavx2 -mfma -ffp-contract=fast (fast mode only)
PS_ENGINE_ISA_SRCS="backends/openmp/ps_openmp_generic.c"
# include directories (the public headers include io/ps_io.h: declarations only)
PS_ENGINE_INCS="core kernels io backends/openmp validate"
# the cuda plugin: every backends/gpu/*.cpp and backends/gpu/fast/*.cpp is a
# unit; the kernel unit ps_gpu_launch.cpp is compiled twice (exact and fast flags)
PS_GPU_DIR="backends/gpu"
PS_GPU_KERNEL_UNIT="ps_gpu_launch.cpp"
# the programs linked against the engine
PS_BENCH_SRC="bench/gpu_bench.c"
# what gpu_bench takes from libpstencil-validate (the fast-mode bound; needs
# only the engine), compiled into it
PS_BENCH_VALIDATE_SRC="validate/ps_validate_verdict.c"
PS_TEST_SRC="tests/gpu/test_gpu_backend.c"
PS_LANDSUM_SRC="tests/backends/test_landsum_backend.c"

NO_GPU=${PSTENCIL_GPU_SKIP:-0}
while [ $# -gt 0 ]; do
  case $1 in
    --no-gpu | --build-only) NO_GPU=1; shift ;;
    -h | --help) sed -n '2,/^set -u/p' "$0" | sed 's/^# \{0,1\}//;$d'; exit 0 ;;
    -*) echo "run-on-gpu.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
SRC=$(cd "$(dirname "$0")/../.." && pwd)
PS_ENGINE_SRCS="$(ps_mk_sources "$SRC/core/local.mk" core_libpstencil_la_SOURCES)
$(ps_mk_sources "$SRC/backends/reference/local.mk" core_libpstencil_la_SOURCES)
$(ps_mk_sources "$SRC/backends/openmp/local.mk" PS_OMP_SRCS)"
case $PS_ENGINE_SRCS in
  *core/ps_driver.c*backends/openmp/ps_openmp.c*) ;;
  *) echo "run-on-gpu.sh: could not read the engine's sources from core/local.mk and backends/*/local.mk" >&2; exit 2 ;;
esac
if [ $# -lt 1 ]; then
  echo "run-on-gpu.sh: no result folder given: using $PWD/gpu-results" >&2
fi
OUT=${1:-$PWD/gpu-results}
mkdir -p "$OUT" || exit 2
OUT=$(cd "$OUT" && pwd)
B=${PSTENCIL_GPU_BUILD:-/tmp/pstencil-gpu-build}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 4)}
BE=${PSTENCIL_GPU_BENCH_BACKEND:-cuda}
T_START=$(date +%s)
DEADLINE=$((T_START + ${PSTENCIL_GPU_BUDGET_S:-360}))
LOG=$OUT/run.log
TABLE=$OUT/table.txt
: > "$LOG"
rm -f "$TABLE"
rm -rf "$B"
mkdir -p "$B/stages" "$B/lib" "$B/plugins" "$B/obj" || exit 2
STAGES=$B/stages.txt # NAME RC SECONDS SM-CLOCK, one line per stage
: > "$STAGES"

# sizes (PSTENCIL_GPU_SMALL=1: tiny, for the mock)
if [ "${PSTENCIL_GPU_SMALL:-0}" = 1 ]; then
  BIG=${PSTENCIL_BIG_GRID:-12x40x36}; BIG64=${PSTENCIL_BIG64_GRID:-10x30x36}
  BIG_STEPS=4; COURSE_SCALE=0.15; COURSE_STEPS=6; REPEAT=3; WARM_MS=0
else
  BIG=${PSTENCIL_BIG_GRID:-100x2000x2000}    # 400M cells, 1.6 GB a float32 field
  BIG64=${PSTENCIL_BIG64_GRID:-100x2000x1000} # 200M cells, 1.6 GB a float64 field
  BIG_STEPS=50; COURSE_SCALE=1; COURSE_STEPS=10000; REPEAT=${PSTENCIL_GPU_REPEAT:-7}
  WARM_MS=${PSTENCIL_GPU_WARMUP_MS:-300}
fi
# the stencils of the list, in its order (X(NAME) lines of kernels/ps_stencils.h)
STENCILS=$(sh "$SRC/tests/stencil-list.sh" "$SRC") || exit 2
# the kernel variants (PSTENCIL_GPU_KERNEL values, docs/gpu.md) measured side by side
VARIANTS=${PSTENCIL_GPU_VARIANTS-d7lb}
# programmatic dependent launch (PSTENCIL_GPU_PDL=1) is timed on the course
# grid with the default kernel, and validated with it
PDL_CASES=${PSTENCIL_GPU_PDL_CASES-pdl}

say() { echo "[run-on-gpu $(($(date +%s) - T_START))s] $*"; }
note() { say "$*"; echo "note: $*" >> "$LOG"; echo "$*" >> "$B/notes.txt"; }
have() { command -v "$1" >/dev/null 2>&1; }
: > "$B/notes.txt"

# ---- the SM clock, sampled all along (median/max per stage in the table) ----
CLOCK_PID=""
stop_clock() { [ -n "$CLOCK_PID" ] && kill "$CLOCK_PID" 2>/dev/null; CLOCK_PID=""; }
trap stop_clock EXIT
trap 'stop_clock; exit 143' TERM INT
: > "$B/clocks.txt"
if [ "$NO_GPU" != 1 ] && have nvidia-smi; then
  (
    while :; do
      c=$(nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw \
            --format=csv,noheader,nounits 2>/dev/null | head -1 | tr -d ' ')
      [ -n "$c" ] && echo "$(date +%s) $c"
      sleep 0.5
    done
  ) >> "$B/clocks.txt" 2>/dev/null &
  CLOCK_PID=$!
fi
# clock T0 T1: "median/max" SM MHz of the samples between T0 and T1
clock() {
  awk -v a="$1" -v b="$2" '$1 >= a && $1 <= b { split($2, f, ","); if (f[1] ~ /^[0-9]+$/) print f[1] }' \
    "$B/clocks.txt" | sort -n |
    awk '{ v[NR] = $1 } END { if (!NR) print "-"; else print v[int((NR + 1) / 2)] "/" v[NR] }'
}

# stage NAME LIMIT CMD...: run CMD under `timeout -k`, within the budget;
# its output is appended to the combined log when it ends
stage() {
  local name=$1 limit=$2 rc left t0 t1 f=$B/stages/$1.log
  shift 2
  left=$((DEADLINE - $(date +%s)))
  [ "$left" -lt "$limit" ] && limit=$left
  if [ "$limit" -lt 5 ]; then
    note "stage $name: skipped, the budget is spent"
    echo "$name skipped 0 -" >> "$STAGES"
    : > "$f"
    return 124
  fi
  say "stage $name (limit ${limit}s)"
  t0=$(date +%s)
  timeout -k 5 "$limit" "$@" > "$f" 2>&1
  rc=$?
  t1=$(date +%s)
  {
    echo "==== stage $name: exit $rc after $((t1 - t0)) s (limit $limit s), SM MHz median/max $(clock "$t0" "$t1")"
    echo "\$ $*"
    cat "$f"
    echo
  } >> "$LOG"
  echo "$name $rc $((t1 - t0)) $(clock "$t0" "$t1")" >> "$STAGES"
  say "stage $name: exit $rc after $((t1 - t0)) s"
  return $rc
}

export PATH="$PATH:/usr/local/cuda/bin"

# ---- the machine -------------------------------------------------------------
machine() {
  date -u
  uname -a
  nproc; free -g 2>&1 | head -2
  gcc --version 2>&1 | head -1
  nvcc --version 2>&1 | tail -2
  for t in cuobjdump c++filt nvidia-smi timeout; do printf '%-10s %s\n' "$t" "$(command -v $t || echo missing)"; done
  if [ "$NO_GPU" != 1 ]; then
    nvidia-smi 2>&1 || echo "nvidia-smi: not available"
    nvidia-smi --query-gpu=name,compute_cap,memory.total,driver_version,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem --format=csv 2>&1
    true
  fi
}
export -f machine have
export NO_GPU
stage machine 20 bash -c machine
GPU=""; CC_CAP=""
if [ "$NO_GPU" != 1 ] && have nvidia-smi; then
  GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
  CC_CAP=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d '.')
fi
case $CC_CAP in '' | *[!0-9]*) CC_CAP="" ;; esac
ARCH=${PSTENCIL_CUDA_ARCH:-${CC_CAP:-90}}
have nvcc || { note "nvcc not found: cannot build the cuda plugin"; exit 1; }

# ---- build (direct: gcc and nvcc, no make, no io/) ----------------------------
M=$B
OMP_DEFS=""
if echo 'int main(void){return 0;}' | gcc -x c -fopenmp - -o "$M/obj/omp-test" 2>/dev/null; then
  OMP_DEFS="#define PS_HAVE_OPENMP 1"
  case $(uname -m) in
    x86_64) OMP_DEFS="$OMP_DEFS
#define PS_HAVE_OMP_AVX2 1" ;;
  esac
else
  note "gcc has no OpenMP: the engine is built without the openmp backend"
fi
cat > "$M/config.h" <<CONFEOF
/* written by tests/gpu/run-on-gpu.sh for a direct build (no configure) */
#define PS_BUILD_CUDA 1
$OMP_DEFS
#define PACKAGE "pstencil"
#define PACKAGE_VERSION "direct-build"
#define PACKAGE_STRING "pstencil direct-build"
#define VERSION "direct-build"
CONFEOF
INC="-I$M"
for d in $PS_ENGINE_INCS; do INC="$INC -I$SRC/$d"; done
CFL="-std=gnu11 -O2 -g -ffp-contract=off -fno-fast-math -fno-math-errno -Wall -Wextra -Wno-unused-parameter -fPIC -DHAVE_CONFIG_H $INC"
CUDA_HOME=$(dirname "$(dirname "$(command -v nvcc)")")
CUDA_LIBDIR=$CUDA_HOME/lib64
[ -f "$CUDA_LIBDIR/libcudart_static.a" ] || CUDA_LIBDIR=$CUDA_HOME/targets/x86_64-linux/lib
# the flags of backends/gpu/local.mk: user flags first, the numerical-mode flags last
GPUINC="-DHAVE_CONFIG_H -I$M -I$SRC/core -I$SRC/kernels -I$SRC/$PS_GPU_DIR"
NV="nvcc ${NVCCFLAGS:-} -std=c++20 -O3 -ccbin gcc -Xcompiler -fPIC,-Wall,-Wextra -Xcompiler -ffp-contract=off $GPUINC -DPS_GPU_PORT_CUDA"
GENCODE="-gencode arch=compute_$ARCH,code=sm_$ARCH -gencode arch=compute_$ARCH,code=compute_$ARCH"
EXACT="-DPS_GPU_EXACT --fmad=false -prec-div=true -prec-sqrt=true -ftz=false"
FAST="-DPS_GPU_FAST --fmad=true -prec-div=false -prec-sqrt=false -ftz=false"
MOCK="g++ -x c++ -std=c++20 -O2 -fPIC -ffp-contract=off -fno-fast-math -Wall -Wextra $GPUINC -DPS_GPU_PORT_MOCK"
OMPFL=""
[ -n "$OMP_DEFS" ] && OMPFL="-fopenmp"
# the plugin exports its entry point only (as libtool's -export-symbols-regex)
printf '{ global: ps_backend_plugin_entry; local: *; };\n' > "$M/obj/plugin.map"
{
  echo 'set -e'
  echo "cd '$M'"
  # at most JOBS compilations at a time; any failure fails the build
  echo "JOBS=$JOBS; pids=''; failed=0"
  echo 'bg() { "$@" & pids="$pids $!"; set -- $pids; if [ $# -ge $JOBS ]; then wait $1 || failed=1; pids=${pids# $1}; fi; }'
  echo 'wait_all() { for p in $pids; do wait $p || failed=1; done; pids=""; [ $failed -eq 0 ]; }'
  echo 'set -x'
  # the two kernel units first: they take longest (-Xptxas -v: registers, in the log)
  gobjs=""; mobjs=""
  for f in "$SRC/$PS_GPU_DIR"/*.cpp; do
    u=$(basename "$f" .cpp)
    if [ "$u.cpp" = "$PS_GPU_KERNEL_UNIT" ]; then
      echo "bg sh -c \"$NV $GENCODE $EXACT -Xptxas -v -x cu -c '$f' -o obj/${u}_exact.o 2> obj/ptxas-exact.txt || { cat obj/ptxas-exact.txt; exit 1; }\""
      echo "bg sh -c \"$NV $GENCODE $FAST -Xptxas -v -x cu -c '$f' -o obj/${u}_fast.o 2> obj/ptxas-fast.txt || { cat obj/ptxas-fast.txt; exit 1; }\""
      gobjs="$gobjs obj/${u}_exact.o obj/${u}_fast.o"
      if [ "$BE" = gpumock ]; then
        echo "bg $MOCK -DPS_GPU_EXACT -c '$f' -o obj/mock_${u}_exact.o"
        echo "bg $MOCK -DPS_GPU_FAST -c '$f' -o obj/mock_${u}_fast.o"
        mobjs="$mobjs obj/mock_${u}_exact.o obj/mock_${u}_fast.o"
      fi
    fi
  done
  objs=""
  for f in $PS_ENGINE_SRCS; do
    o=obj/$(basename "$f" .c).o
    echo "bg gcc $CFL $OMPFL -DPS_PLUGIN_DIR='\"$M/plugins\"' -DPS_PKGDATADIR='\"$M\"' -c '$SRC/$f' -o $o"
    objs="$objs $o"
  done
  for f in $PS_ENGINE_ISA_SRCS; do
    o=obj/$(basename "$f" .c)
    echo "bg gcc $CFL $OMPFL -O3 -fno-trapping-math -DPS_OMP_ISA=base -c '$SRC/$f' -o $o-base.o"
    objs="$objs $o-base.o"
    if echo "$OMP_DEFS" | grep -q AVX2; then
      echo "bg gcc $CFL $OMPFL -O3 -fno-trapping-math -mavx2 -DPS_OMP_ISA=avx2 -c '$SRC/$f' -o $o-avx2.o"
      objs="$objs $o-avx2.o"
      echo "bg gcc $CFL $OMPFL -O3 -fno-trapping-math -mavx2 -mfma -ffp-contract=fast -DPS_OMP_ISA=fma -c '$SRC/$f' -o $o-fma.o"
      objs="$objs $o-fma.o"
    fi
  done
  for f in "$SRC/$PS_GPU_DIR"/*.cpp "$SRC/$PS_GPU_DIR"/fast/*.cpp; do
    u=$(basename "$f" .cpp)
    [ "$u.cpp" = "$PS_GPU_KERNEL_UNIT" ] && continue
    echo "bg $NV -c '$f' -o obj/$u.o"
    gobjs="$gobjs obj/$u.o"
    if [ "$BE" = gpumock ]; then
      echo "bg $MOCK -c '$f' -o obj/mock_$u.o"
      mobjs="$mobjs obj/mock_$u.o"
    fi
  done
  echo 'wait_all'
  # -z defs: an engine source needing a symbol from outside the list fails here
  echo "gcc -shared -Wl,-z,defs -o lib/libpstencil.so $objs $OMPFL -lpthread -ldl -lm"
  echo "gcc -shared -Wl,-z,defs -Wl,--version-script=obj/plugin.map -o plugins/pstencil_cuda.so $gobjs -L$CUDA_LIBDIR -lcudart_static -lrt -lpthread -ldl -lstdc++"
  [ -n "$mobjs" ] &&
    echo "gcc -shared -Wl,-z,defs -Wl,--version-script=obj/plugin.map -o plugins/pstencil_gpumock.so $mobjs -lstdc++ -lm"
  echo "gcc $CFL $OMPFL -DPS_GPU_BENCH_NO_IO -o gpu_bench '$SRC/$PS_BENCH_SRC' '$SRC/$PS_BENCH_VALIDATE_SRC' -Llib -lpstencil -Wl,-rpath,'$M/lib' -lm"
  echo "gcc $CFL -o test_gpu_backend '$SRC/$PS_TEST_SRC' -Llib -lpstencil -Wl,-rpath,'$M/lib' -lm"
  echo "gcc $CFL -o test_landsum_backend '$SRC/$PS_LANDSUM_SRC' -Llib -lpstencil -Wl,-rpath,'$M/lib' -lm"
} > "$M/build.sh"
if ! stage build "${PSTENCIL_GPU_BUILD_S:-150}" bash "$M/build.sh"; then
  note "the direct build failed (see stage build in run.log)"
  BUILD=FAIL
else
  BUILD=ok
fi
BENCH=$M/gpu_bench
TESTGPU=$M/test_gpu_backend
export PSTENCIL_PLUGIN_PATH="$M/plugins"

# ---- static: registers (ptxas -v) and SASS FFMA count (cuobjdump) -----------
# registers NAME: "KERNEL REGS SMEM" per kernel of obj/ptxas-NAME.txt (SMEM:
# bytes of static shared memory per block)
registers() {
  awk '/Compiling entry function/ { fn = $0; sub(/.*function .?/, "", fn); sub(/.? for .*/, "", fn) }
       /Used [0-9]+ registers/ { sm = 0; for (i = 1; i <= NF; i++) { if ($i == "Used") r = $(i + 1); if ($i == "smem" || $i == "smem,") sm = $(i - 2) }
                                 print fn, r, sm }' \
    "$M/obj/ptxas-$1.txt" | { if have c++filt; then c++filt; else cat; fi; }
}
statics() {
  local m k n
  for m in exact fast; do
    echo "== ptxas -v, $m kernel unit (sm_$ARCH): registers per kernel"
    registers "$m" | sed 's/^/  /'
  done
  if have cuobjdump; then
    for m in exact fast; do
      cuobjdump --dump-sass "$M/obj/ps_gpu_launch_$m.o" > "$M/obj/sass-$m.txt" 2>&1 || return 1
      echo "== SASS $m: FFMA/DFMA per kernel (exact: only IEEE division's refinement)"
      awk '/Function :/ { fn = $NF } /[ \t]FFMA|[ \t]DFMA|FFMA\.|DFMA\./ { n[fn]++ } END { for (f in n) print f, n[f] }' \
        "$M/obj/sass-$m.txt" | { if have c++filt; then c++filt; else cat; fi; } | sed 's/^/  /'
      echo "$m: $(grep -cE '[ \t](FFMA|DFMA)' "$M/obj/sass-$m.txt") FFMA/DFMA in all"
    done
  else
    echo "cuobjdump not found: no SASS count here (the GPU machine has it)"
  fi
}
STATIC=skipped
export -f registers statics
export M ARCH
if [ "$BUILD" = ok ]; then
  stage static 30 bash -c statics && STATIC=ok || STATIC=FAIL
fi
D7REGS=$(registers exact 2>/dev/null | awk '/d7_step<float>/ { print $(NF - 1); exit }')
# each variant's float32 exact kernel: "name regs" (the kernel is NAME_step)
VREGS=""
for v in $VARIANTS; do
  k="${v}_step<float>"
  r=$(registers exact 2>/dev/null | awk -v k="$k" 'index($0, k) { print $(NF - 1) ($NF > 0 ? "/" $NF "B" : ""); exit }')
  [ -n "$r" ] && VREGS="$VREGS, $v $r"
done
D7FASTREGS=$(registers fast 2>/dev/null | awk '/d7_step<float>/ { print $(NF - 1); exit }')
FFMA_EXACT=$(sed -n 's/^exact: \([0-9]*\) FFMA.*/\1/p' "$B/stages/static.log" 2>/dev/null)
FFMA_FAST=$(sed -n 's/^fast: \([0-9]*\) FFMA.*/\1/p' "$B/stages/static.log" 2>/dev/null)
# (recorded, not judged: IEEE division div.rn compiles to a correctly rounded
# sequence with FFMA/DFMA refinement, so the exact unit has some; that the
# stencil arithmetic is not contracted is proven on the PTX, tests/gpu/ptx.sh)

# ---- the device stages, most valuable first ----------------------------------
RUN_GPU=0
if [ "$BUILD" = ok ] && [ "$NO_GPU" != 1 ]; then
  if stage probe 30 "$TESTGPU" --probe "$BE"; then
    RUN_GPU=1
  else
    note "no $BE device: $(tail -1 "$B/stages/probe.log")"
  fi
fi
VALID=skipped
if [ $RUN_GPU = 1 ]; then
  stage validate "${PSTENCIL_GPU_VALIDATE_S:-120}" "$TESTGPU" --backend "$BE"
  case $? in
    0) VALID="PASS ($(grep -c '^ok: ' "$B/stages/validate.log") cases bitwise)" ;;
    77) VALID="SKIP" ;;
    *) VALID="FAIL ($(grep -c '^FAIL' "$B/stages/validate.log") failed)" ;;
  esac
  # 1b. the generic kernels' land-sum form and the masked one (gpu_zero_land=0)
  # on the inputs that tell them apart (odd NaN payloads, inf, overflow), bitwise
  stage landsum 60 sh -c '"$1" "$2" && PSTENCIL_GPU_ZERO_LAND=0 "$1" "$2"' landsum \
    "$M/test_landsum_backend" "$BE"
  case $? in
    0) VALID="$VALID; land-sum form: PASS ($(grep -c '^ok: ' "$B/stages/landsum.log") cases)" ;;
    *) VALID="$VALID; land-sum form: FAIL ($(grep -c '^FAIL' "$B/stages/landsum.log") failed)" ;;
  esac
  W="--warmup 2 --warmup-ms $WARM_MS --repeat $REPEAT"
  vcases=""
  for v in $VARIANTS; do vcases="$vcases $v:kernel=$v"; done
  # the course grid: every variant, and PDL (PDL_CASES: pdl, KERNEL+pdl)
  cvcases=""
  for v in $VARIANTS; do cvcases="$cvcases $v:kernel=$v"; done
  for v in $PDL_CASES; do
    case $v in pdl) cvcases="$cvcases pdl:pdl=1" ;; *+pdl) cvcases="$cvcases $v:kernel=${v%+pdl},pdl=1" ;; esac
  done
  # 2. 400M cells float32 exact: copy bound (first case), every variant, 1 step validated
  stage big-f32 120 "$BENCH" --backend "$BE" --grid "$BIG" --steps $BIG_STEPS $W --copy \
    --validate 1 --cases "tuned generic:generic=1$vcases"
  # 3. the course grid float32: graphs on/off, fast mode, the generic kernel
  # unfused and 2 and 4 steps per launch, the variants, 10 steps validated
  stage course-f32 90 "$BENCH" --backend "$BE" --ocean --scale $COURSE_SCALE \
    --steps $COURSE_STEPS $W --validate 10 \
    --cases "graphs nographs:graph=0 fast:mode=fast generic:generic=1 gmasked:generic=1,zl=0 gfuse2:generic=1,fuse=2 gfuse4:generic=1,fuse=4$cvcases"
  # 3b. every stencil of the list (kernels/ps_stencils.h) through the generic
  # kernels on the course grid float32, exact (bitwise after 10 steps) and fast
  # (within the numerical contract's bound)
  scases=""
  for s in $STENCILS; do scases="$scases $s:stencil=$s,generic=1 $s-fast:stencil=$s,generic=1,mode=fast"; done
  stage stencils 60 "$BENCH" --backend "$BE" --ocean --scale $COURSE_SCALE \
    --steps $COURSE_STEPS $W --validate 10 --cases "$scases"
  # 4. the course grid float64
  stage course-f64 60 "$BENCH" --backend "$BE" --ocean --scale $COURSE_SCALE --precision float64 \
    --steps $COURSE_STEPS $W --validate 10 --cases "graphs nographs:graph=0 fast:mode=fast"
  # 5. 200M cells float64 (1.6 GB a field), copy bound, fast mode
  stage big-f64 90 "$BENCH" --backend "$BE" --grid "$BIG64" --precision float64 \
    --steps $BIG_STEPS $W --copy --validate 1 --cases "tuned fast:mode=fast"
  # 5b. every validation case again with each variant (bitwise, as stage
  # validate; gpu_bench already validated each variant's timed runs): as many
  # variants as the stage's time allows, one not reached is said, not failed;
  # then PDL_CASES (pdl: the default kernel, KERNEL+pdl: that variant, with
  # PSTENCIL_GPU_PDL=1)
  if [ -n "$VARIANTS$PDL_CASES" ]; then
    vlimit=${PSTENCIL_GPU_VALVAR_S:-${PSTENCIL_GPU_VALIDATE_S:-90}}
    stage valvar "$vlimit" sh -c 'bad=0; end=$(($(date +%s) + $5 - 3))
      [ $end -gt $(($6 - 3)) ] && end=$(($6 - 3)) # the run budget may cut the stage
      for v in $1; do
        left=$((end - $(date +%s)))
        if [ $left -lt 2 ]; then echo "variant $v: not run (the stage time is spent)"; continue; fi
        case $v in pdl) k=""; p=1 ;; *+pdl) k=${v%+pdl}; p=1 ;; *) k=$v; p="" ;; esac
        PSTENCIL_GPU_KERNEL=$k PSTENCIL_GPU_PDL=$p timeout -k 2 $left "$2" --backend "$3" > "$4/valvar-$v.txt" 2>&1
        rc=$?
        if [ $rc = 124 ] || [ $rc = 137 ]; then echo "variant $v: timed out after $left s (not judged)"; continue; fi
        [ $rc = 0 ] || bad=1
        echo "variant $v: exit $rc, $(grep -c "^ok: " "$4/valvar-$v.txt") ok, $(grep -c "^FAIL" "$4/valvar-$v.txt") failed"
        grep "^FAIL" "$4/valvar-$v.txt" | head -5
      done; exit $bad' valvar "$VARIANTS $PDL_CASES" "$TESTGPU" "$BE" "$B" "$vlimit" "$DEADLINE"
    case $? in
      0) VALID="$VALID; variants: $(grep -c 'exit 0,' "$B/stages/valvar.log") of $(echo $VARIANTS $PDL_CASES | wc -w) PASS" ;;
      124) VALID="$VALID; variants: not run (budget)" ;;
      *) VALID="$VALID; variants: FAIL" ;;
    esac
  fi
  # 6. the block sweep (last: the least valuable)
  stage blocks 90 "$BENCH" --backend "$BE" --grid "$BIG" --steps $BIG_STEPS $W \
    --cases "b32x8:block=32x8 b64x4:block=64x4 b32x16:block=32x16 b64x8:block=64x8 b128x2:block=128x2 b128x4:block=128x4 b256x1:block=256x1 b32x4:block=32x4"
fi
stop_clock

# ---- the table (last) ------------------------------------------------------------
table() {
  local name rc secs clk
  echo "pstencil GPU run: ${GPU:-no GPU} (sm_$ARCH), backend $BE, $(date -u +%Y-%m-%dT%H:%MZ), $(($(date +%s) - T_START)) s in all"
  echo "build: $BUILD (direct); static checks: $STATIC; d7_step<float> exact registers: ${D7REGS:-?} (fast ${D7FASTREGS:-?}$VREGS); SASS FFMA/DFMA exact ${FFMA_EXACT:-n/a} fast ${FFMA_FAST:-n/a}"
  echo "validation (test_gpu_backend, every stencil, bitwise): $VALID"
  sed 's/^/note: /' "$B/notes.txt"
  echo "stages (exit, seconds, SM MHz median/max):$(awk '{ printf " %s:%s,%ss,%s", $1, $2, $3, $4 }' "$STAGES")"
  echo
  printf '%-10s %-10s %-14s %-4s %-5s %-11s %-8s %9s %6s %8s %7s %6s %s\n' stage case grid prec mode kernel block \
    us/step spread Gcell/s GB/s %copy valid
  while read -r name rc secs clk; do
    grep -h '^RESULT' "$B/stages/$name.log" 2>/dev/null | while read -r line; do
      get() { echo "$line" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
      st=$(get status)
      if [ "$st" != ok ] && [ "$st" != mismatch ]; then
        printf '%-10s %-10s %s\n' "$name" "$(get case)" "${st:-no result}"
        continue
      fi
      ms=$(get ms_per_step); mn=$(get ms_min); mx=$(get ms_max); fr=$(get frac_of_copy)
      printf '%-10s %-10s %-14s %-4s %-5s %-11s %-8s %9.2f %5.1f%% %8s %7s %6s %s\n' "$name" "$(get case)" \
        "$(get grid)" "$(get precision | sed 's/float/f/')" "$(get mode)" "$(get kernel)" "$(get block)" \
        "$(awk "BEGIN{print 1000*$ms}")" "$(awk "BEGIN{print ($ms > 0 ? 100*($mx-$mn)/$ms : 0)}")" \
        "$(get gcells_per_s)" "$(get gb_per_s)" \
        "$(awk "BEGIN{if ($fr > 0) printf \"%.1f\", 100*$fr; else print \"-\"}")" "$(get validated)"
    done
  done < "$STAGES"
  echo "(us/step: median over the repeated batches of N queued steps; spread: (max-min)/median;"
  echo " GB/s: 2 x field bytes per step; %copy: copy-kernel time / stencil time on the same buffers"
  echo " = fraction of the device copy bandwidth measured in the same run; the first case of a stage"
  echo " measures the copy bound. Goals: big f32 tuned >= 85 %copy; course f32 graphs <= 6 us/step)"
}
table > "$TABLE" 2>&1
{ echo "==== table"; cat "$TABLE"; } >> "$LOG"
echo
cat "$TABLE"

rc=0
[ "$BUILD" = ok ] || rc=1
[ "$STATIC" = FAIL ] && rc=1
if [ $RUN_GPU = 1 ]; then
  case $VALID in PASS*) ;; *) rc=1 ;; esac
  grep -q 'status=mismatch\|status=error' "$B"/stages/*.log && rc=1
  awk '$2 != 0 && $2 != "skipped" { bad = 1 } END { exit !bad }' "$STAGES" && rc=1
elif [ $rc = 0 ] && [ "$NO_GPU" != 1 ]; then
  rc=77
fi
exit $rc

#!/bin/bash
# Build pstencil on a machine with an NVIDIA GPU and NO network, validate
# every GPU backend against the reference, benchmark the built-in ocean and a
# >= 400M-cell grid, measure the device copy bandwidth, and print a short
# table last. Full logs go to the folder given as the argument.
#
#   tests/gpu/run-on-gpu.sh OUTDIR               (run from anywhere)
#   tests/gpu/run-on-gpu.sh --build-only OUTDIR  (build, then stop: exit 0)
#
# Assumptions (docs/gpu.md): gcc and nvcc are installed (nvcc on PATH or in
# /usr/local/cuda/bin); nothing is downloaded. Autotools and netCDF-C are NOT
# assumed: with autoreconf (or a ./configure from `make dist`) and netCDF the
# normal build is used (--enable-cuda, plus --enable-opencl when
# /etc/OpenCL/vendors/nvidia.icd exists); otherwise the script says so and
# builds directly, with gcc and nvcc and no make: the engine (the sources in
# PS_ENGINE_SRCS below: no io/, no netCDF, no plotting, no validation layer)
# as lib/libpstencil.so, the cuda plugin from every unit of backends/gpu/,
# bench/gpu_bench and tests/test_gpu_backend (which validates reference vs
# cuda bitwise for every stencil through the public context API). Where the
# build finds no CUDA device the script says why and exits 77. Each stage has
# a time limit; the whole run stays well inside 10 minutes on 16 cores.
# tests/gpu_direct_build.sh runs the direct build (--build-only) in `make
# check`, so it cannot break unnoticed on machines without a GPU.
set -u

# ---- what the direct build compiles (paths relative to the source tree) ----
# the engine: types, status, registry, loader, driver, region, timer,
# comparison, and the backends built into the library
PS_ENGINE_SRCS="core/ps_status.c core/ps_field.c core/ps_registry.c core/ps_loader.c
  core/ps_region.c core/ps_driver.c core/ps_timer.c core/ps_compare.c core/ps_oracle.c
  core/ps_decomp.c core/ps_version.c core/ps_plugin_decl.c
  backends/reference/ps_reference.c backends/openmp/ps_openmp.c
  backends/openmp/ps_openmp_tblock.c backends/openmp/ps_openmp_zeroland.c
  backends/openmp/ps_openmp_tune.c"
# compiled once per instruction set (as backends/openmp/local.mk does):
# -DPS_OMP_ISA=base; avx2 with -mavx2; the rows also fma with -mavx2 -mfma
PS_ENGINE_ISA_SRCS="backends/openmp/ps_openmp_generic.c backends/openmp/ps_openmp_rows.c"
# include directories (the public headers include io/ps_io.h: declarations only)
PS_ENGINE_INCS="core kernels io backends/openmp"
# the cuda plugin: every backends/gpu/*.cpp is a unit; the kernel unit
# ps_gpu_launch.cpp is compiled twice (exact and fast flags)
PS_GPU_DIR="backends/gpu"
PS_GPU_KERNEL_UNIT="ps_gpu_launch.cpp"
# the programs linked against the engine
PS_BENCH_SRC="bench/gpu_bench.c"
PS_TEST_SRC="tests/test_gpu_backend.c"

BUILD_ONLY=0
if [ "${1:-}" = --build-only ]; then
  BUILD_ONLY=1
  shift
fi
SRC=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:-$PWD/gpu-results}
mkdir -p "$OUT" || exit 2
OUT=$(cd "$OUT" && pwd)
B=${PSTENCIL_GPU_BUILD:-/tmp/pstencil-gpu-build}
JOBS=${JOBS:-16}
T_START=$(date +%s)
SUMMARY=$OUT/summary.txt
: > "$SUMMARY"

log() { echo "[run-on-gpu $(($(date +%s) - T_START))s] $*" | tee -a "$OUT/run.log"; }
note() { echo "$*" >> "$SUMMARY"; log "$*"; }
have() { command -v "$1" >/dev/null 2>&1; }
# stage NAME LIMIT CMD...: run CMD with a time limit, log to OUT/NAME.log
# (no stage runs past DEADLINE: the whole script ends inside 9.5 minutes)
DEADLINE=$((T_START + ${PSTENCIL_GPU_BUDGET_S:-570}))
stage() {
  local name=$1 limit=$2 rc left
  shift 2
  left=$((DEADLINE - $(date +%s)))
  [ "$left" -lt "$limit" ] && limit=$left
  if [ "$limit" -le 5 ]; then
    log "stage $name: skipped, out of time"
    echo "skipped: the script's time budget is spent" > "$OUT/$name.log"
    return 124
  fi
  log "stage $name (limit ${limit}s): $*"
  timeout "$limit" "$@" > "$OUT/$name.log" 2>&1
  rc=$?
  log "stage $name: exit $rc"
  return $rc
}

export PATH="$PATH:/usr/local/cuda/bin"

# ---- the machine -----------------------------------------------------------
{
  date -u
  uname -a
  nvidia-smi 2>&1 || echo "nvidia-smi: not available"
  nvidia-smi --query-gpu=name,compute_cap,memory.total,driver_version,clocks.max.sm,clocks.max.mem --format=csv 2>&1
  nvcc --version 2>&1 || echo "nvcc: not found"
  gcc --version 2>&1 | head -1
  for t in autoreconf autoconf automake libtoolize make pkg-config nc-config hipcc clinfo; do
    printf '%-12s %s\n' "$t" "$(command -v $t || echo missing)"
  done
  ls /etc/OpenCL/vendors 2>&1
  nproc; free -g 2>&1 | head -2
} > "$OUT/machine.log" 2>&1
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
CC_CAP=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d '.')
note "GPU: ${GPU:-none found by nvidia-smi} (compute capability ${CC_CAP:-?})"
have nvcc || { note "nvcc not found: cannot build the cuda plugin"; exit 1; }
# (the direct build and the table use awk, timeout, sed, tr: coreutils/busybox)
# machine code for this GPU (faster build), plus PTX of it
ARCH=${PSTENCIL_CUDA_ARCH:-${CC_CAP:-90}}

# ---- build -------------------------------------------------------------------
rm -rf "$B"
mkdir -p "$B"
MODE=""
if [ -n "${PSTENCIL_GPU_DIRECT:-}" ]; then
  note "PSTENCIL_GPU_DIRECT is set: building directly"
elif [ -x "$SRC/configure" ] || have autoreconf; then
  if have nc-config || pkg-config --exists netcdf 2>/dev/null; then
    MODE=autotools
  else
    note "netCDF-C is not installed here: configure requires it, so building directly without io/"
  fi
else
  note "autotools are not installed and there is no ./configure: building directly"
fi
OPENCL_OPT=""
if [ -f /etc/OpenCL/vendors/nvidia.icd ]; then
  OPENCL_OPT="--enable-opencl"
  note "NVIDIA OpenCL ICD found: building the opencl plugin too"
fi

if [ "$MODE" = autotools ]; then
  if [ ! -x "$SRC/configure" ]; then
    stage autoreconf 120 sh -c "cd '$SRC' && autoreconf -fi" || { note "autoreconf failed (see autoreconf.log)"; MODE=""; }
  fi
fi
if [ "$MODE" = autotools ]; then
  if stage configure 180 sh -c "cd '$B' && '$SRC/configure' --enable-cuda --with-cuda-arch=$ARCH $OPENCL_OPT" &&
     stage make 300 make -C "$B" -j"$JOBS"; then
    PSTENCIL=$B/cli/pstencil
    BENCH=$B/bench/gpu_bench
    TESTGPU=$B/tests/test_gpu_backend
    export PSTENCIL_PLUGIN_PATH="$B/backends/cuda/.libs:$B/backends/opencl/.libs:$B/backends/hip/.libs"
    stage make-tests 240 make -C "$B" -j"$JOBS" check TESTS= || true
  else
    note "the autotools build failed (configure.log/make.log): falling back to a direct build"
    MODE=""
  fi
fi
if [ "$MODE" != autotools ]; then
  MODE=direct
  M=$B
  mkdir -p "$M/lib" "$M/plugins" "$M/obj"
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
  # the flags of backends/gpu/local.mk, the numerical-mode flags last
  NV="nvcc -std=c++20 -O3 -ccbin gcc -Xcompiler -fPIC,-Wall,-Wextra -Xcompiler -ffp-contract=off -DHAVE_CONFIG_H -DPS_GPU_PORT_CUDA -I$M -I$SRC/core -I$SRC/kernels -I$SRC/$PS_GPU_DIR"
  GENCODE="-gencode arch=compute_$ARCH,code=sm_$ARCH -gencode arch=compute_$ARCH,code=compute_$ARCH"
  EXACT="-DPS_GPU_EXACT --fmad=false -prec-div=true -prec-sqrt=true -ftz=false"
  FAST="-DPS_GPU_FAST --fmad=true -prec-div=false -prec-sqrt=false -ftz=false"
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
        case $f in
          *_rows.c)
            echo "bg gcc $CFL $OMPFL -O3 -fno-trapping-math -mavx2 -mfma -DPS_OMP_ISA=fma -DPS_OMP_ROW_FMA -c '$SRC/$f' -o $o-fma.o"
            objs="$objs $o-fma.o" ;;
        esac
      fi
    done
    gobjs=""
    for f in "$SRC/$PS_GPU_DIR"/*.cpp; do
      u=$(basename "$f" .cpp)
      if [ "$u.cpp" = "$PS_GPU_KERNEL_UNIT" ]; then
        echo "bg $NV $GENCODE $EXACT -x cu -c '$f' -o obj/${u}_exact.o"
        echo "bg $NV $GENCODE $FAST -x cu -c '$f' -o obj/${u}_fast.o"
        gobjs="$gobjs obj/${u}_exact.o obj/${u}_fast.o"
      else
        echo "bg $NV -c '$f' -o obj/$u.o"
        gobjs="$gobjs obj/$u.o"
      fi
    done
    echo 'wait_all'
    # -z defs: an engine source needing a symbol from outside the list fails here
    echo "gcc -shared -Wl,-z,defs -o lib/libpstencil.so $objs $OMPFL -ldl -lm"
    echo "gcc -shared -Wl,-z,defs -Wl,--version-script=obj/plugin.map -o plugins/pstencil_cuda.so $gobjs -L$CUDA_LIBDIR -lcudart_static -lrt -lpthread -ldl -lstdc++"
    echo "gcc $CFL -DPS_GPU_BENCH_NO_IO -o gpu_bench '$SRC/$PS_BENCH_SRC' -Llib -lpstencil -Wl,-rpath,'$M/lib' -lm"
    echo "gcc $CFL -o test_gpu_backend '$SRC/$PS_TEST_SRC' -Llib -lpstencil -Wl,-rpath,'$M/lib' -lm"
  } > "$M/build.sh"
  stage direct-build 300 bash "$M/build.sh" || { note "direct build failed (see direct-build.log)"; exit 1; }
  PSTENCIL=""
  BENCH=$M/gpu_bench
  TESTGPU=$M/test_gpu_backend
  export PSTENCIL_PLUGIN_PATH="$M/plugins"
fi
note "build: $MODE (sm_$ARCH), in $B"
if [ "$BUILD_ONLY" = 1 ]; then
  note "--build-only: built $BENCH and $TESTGPU; plugins in $PSTENCIL_PLUGIN_PATH"
  exit 0
fi
BE=${PSTENCIL_GPU_BENCH_BACKEND:-cuda} # another backend only to smoke-test this script
if ! "$TESTGPU" --probe cuda > "$OUT/probe.log" 2>&1 && [ "$BE" = cuda ]; then
  note "no CUDA device: $(tail -1 "$OUT/probe.log")"
  note "SKIP: built, but nothing to validate or measure on this machine"
  exit 77
fi

# ---- validation ---------------------------------------------------------------
VALID=""
stage test_gpu_backend 240 "$TESTGPU"
case $? in
  0) VALID="$VALID test_gpu_backend:PASS" ;;
  77) VALID="$VALID test_gpu_backend:SKIP(no device: $(tail -1 "$OUT/test_gpu_backend.log"))" ;;
  *) VALID="$VALID test_gpu_backend:FAIL" ;;
esac
grep -E "^(FAIL|ok: .*(fast|too large|region))|failure" "$OUT/test_gpu_backend.log" | head -20 >> "$SUMMARY"
if [ -n "$PSTENCIL" ] && "$PSTENCIL" validate --help >/dev/null 2>&1; then
  BACKENDS="cuda"
  [ -n "$OPENCL_OPT" ] && BACKENDS="$BACKENDS opencl"
  for be in $BACKENDS; do
    if stage "validate-$be" 180 "$PSTENCIL" validate --backend "$be"; then
      VALID="$VALID validate-$be:PASS"
    else
      VALID="$VALID validate-$be:FAIL($?)"
    fi
  done
  stage backends 60 "$PSTENCIL" backends || true
else
  note "pstencil validate is not available in this build: validation is test_gpu_backend + gpu_bench --validate"
fi
if [ "$MODE" = autotools ]; then
  stage make-check 240 make -C "$B" -j"$JOBS" check || true
  grep -E "^(# [A-Z]+:|FAIL|ERROR)" "$B/test-suite.log" >> "$SUMMARY" 2>/dev/null || true
fi
note "validation:$VALID"

# ---- benchmarks ------------------------------------------------------------------
ROWS=$OUT/rows.txt
: > "$ROWS"
# bench LABEL LIMIT ARGS...: run gpu_bench, keep its RESULT line
bench() {
  local label=$1 limit=$2
  shift 2
  stage "bench-$label" "$limit" "$BENCH" "$@"
  local r
  r=$(grep '^RESULT' "$OUT/bench-$label.log" | tail -1)
  echo "$label $r" >> "$ROWS"
}
# the course's grid (built-in ocean when io/ is built), 1000 steps
bench ocean 120 --backend "$BE" --ocean --steps 1000 --warmup 50 --copy --validate 10
bench ocean-f64 120 --backend "$BE" --ocean --precision float64 --steps 1000 --warmup 50 --copy --validate 10
PSTENCIL_GPU_GRAPH_STEPS=0 bench ocean-nograph 120 --backend "$BE" --ocean --steps 1000 --warmup 50
bench ocean-events 120 --backend "$BE" --ocean --steps 200 --warmup 10 --profile
bench ocean-fast 120 --backend "$BE" --ocean --mode fast --steps 1000 --warmup 50
# >= 400M cells, float32 (1.6 GB a field): bandwidth regime
BIG=${PSTENCIL_BIG_GRID:-100x2000x2000}
bench big 240 --backend "$BE" --grid "$BIG" --steps 100 --warmup 5 --copy --validate 1
for blk in 32,8 64,4 32,16 64,8 128,2 256,1; do
  bench "big-block-$blk" 60 --backend "$BE" --grid "$BIG" --steps 50 --warmup 3 --block "$blk"
done
bench big-f64 120 --backend "$BE" --grid 100x2000x1000 --precision float64 --steps 50 --warmup 3 --copy
if [ -n "$OPENCL_OPT" ]; then
  bench opencl-ocean 120 --backend opencl --ocean --steps 1000 --warmup 50 --validate 10
  bench opencl-big 120 --backend opencl --grid "$BIG" --steps 50 --warmup 3
fi

# ---- the table (last) --------------------------------------------------------------
{
  echo
  echo "pstencil GPU run: ${GPU:-?}, $(date -u +%Y-%m-%dT%H:%MZ), build $MODE, $(($(date +%s) - T_START)) s"
  cat "$SUMMARY"
  echo
  printf '%-20s %-16s %-8s %-6s %11s %9s %9s %9s %7s %s\n' case grid prec mode us/step Gcell/s GB/s copyGB/s %copy valid
  while read -r label rest; do
    get() { echo "$rest" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
    st=$(get status)
    if [ "$st" != ok ] && [ "$st" != mismatch ]; then
      printf '%-20s %s: %s\n' "$label" "${st:-no result}" \
        "$(grep -m1 -E 'cannot run|error|gpu_bench:' "$OUT/bench-$label.log" | cut -c1-160)"
      continue
    fi
    ms=$(get ms_per_step); cg=$(get copy_gb_per_s); fr=$(get frac_of_copy)
    printf '%-20s %-16s %-8s %-6s %11.2f %9s %9s %9s %7s %s\n' "$label" "$(get grid)" \
      "$(get precision)" "$(get mode)" "$(awk "BEGIN{print 1000*$ms}")" \
      "$(get gcells_per_s)" "$(get gb_per_s)" "$([ "$cg" = 0.0 ] && echo - || echo "$cg")" \
      "$([ "$fr" = 0.000 ] && echo - || awk "BEGIN{printf \"%.1f\", 100*$fr}")" "$(get validated)"
  done < "$ROWS"
  echo "(us/step: wall time of N queued steps / N; GB/s: 2 x field bytes per step;"
  echo " %copy: copy-kernel time / stencil time on the same buffers = fraction of device copy bandwidth)"
} | tee "$OUT/table.txt"

#!/bin/bash
# Build pstencil on a machine with an NVIDIA GPU and NO network, validate
# every GPU backend against the reference, benchmark the built-in ocean and a
# >= 400M-cell grid, measure the device copy bandwidth, and print a short
# table last. Full logs go to the folder given as the argument.
#
#   tests/gpu/run-on-gpu.sh OUTDIR        (run from the source tree's root)
#
# Assumptions (docs/gpu.md): gcc/g++ and nvcc are installed (nvcc on PATH or
# in /usr/local/cuda/bin); nothing is downloaded. Autotools and netCDF-C are
# NOT assumed: with autoreconf (or a ./configure from `make dist`) and
# netCDF the normal build is used (--enable-cuda, plus --enable-opencl when
# /etc/OpenCL/vendors/nvidia.icd exists); otherwise the script says so and
# builds what it can directly: libpstencil's core and reference backend, the
# cuda plugin, bench/gpu_bench and tests/test_gpu_backend. Each stage has a
# time limit; the whole run stays well inside 10 minutes on 16 cores.
set -u
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
  cat > "$M/config.h" <<EOF
/* written by tests/gpu/run-on-gpu.sh for a direct build (no configure) */
#define PS_BUILD_CUDA 1
#define PACKAGE "pstencil"
#define PACKAGE_VERSION "direct-build"
#define PACKAGE_STRING "pstencil direct-build"
#define VERSION "direct-build"
EOF
  INC="-I$M -I$SRC/core -I$SRC/kernels -I$SRC/io -I$SRC/backends/gpu"
  CFL="-std=gnu11 -O2 -g -ffp-contract=off -fno-fast-math -fPIC -DHAVE_CONFIG_H $INC"
  CUDA_HOME=$(dirname "$(dirname "$(command -v nvcc)")")
  CUDA_LIBDIR=$CUDA_HOME/lib64
  [ -f "$CUDA_LIBDIR/libcudart_static.a" ] || CUDA_LIBDIR=$CUDA_HOME/targets/x86_64-linux/lib
  NV="nvcc -std=c++20 -O3 -ccbin gcc -Xcompiler -fPIC -DHAVE_CONFIG_H $INC -gencode arch=compute_$ARCH,code=sm_$ARCH -gencode arch=compute_$ARCH,code=compute_$ARCH"
  EXACT="--fmad=false -prec-div=true -prec-sqrt=true -ftz=false"
  FAST="--fmad=true -prec-div=false -prec-sqrt=false -ftz=false"
  cat > "$M/build.sh" <<EOF
set -ex
cd "$M"
gcc $CFL -shared -o lib/libpstencil.so $SRC/core/*.c $SRC/backends/reference/ps_reference.c \
  -DPS_PLUGIN_DIR='"$M/plugins"' -DPS_PKGDATADIR='"$M"' -ldl -lm
$NV $EXACT -c $SRC/backends/cuda/ps_cuda.cu -o obj/ps_cuda.o &
$NV $FAST -c $SRC/backends/cuda/ps_cuda_fast.cu -o obj/ps_cuda_fast.o &
wait
gcc -shared -o plugins/pstencil_cuda.so obj/ps_cuda.o obj/ps_cuda_fast.o -L$CUDA_LIBDIR \
  -lcudart_static -lrt -lpthread -ldl -lstdc++
gcc $CFL -DPS_GPU_BENCH_NO_IO -o gpu_bench $SRC/bench/gpu_bench.c -Llib -lpstencil -Wl,-rpath,$M/lib -lm
gcc $CFL -o test_gpu_backend $SRC/tests/test_gpu_backend.c -Llib -lpstencil -Wl,-rpath,$M/lib -lm
EOF
  stage direct-build 300 bash "$M/build.sh" || { note "direct build failed (see direct-build.log)"; exit 1; }
  PSTENCIL=""
  BENCH=$M/gpu_bench
  TESTGPU=$M/test_gpu_backend
  export PSTENCIL_PLUGIN_PATH="$M/plugins"
fi
note "build: $MODE (sm_$ARCH), in $B"

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
BE=${PSTENCIL_GPU_BENCH_BACKEND:-cuda} # another backend only to smoke-test this script
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

#!/bin/sh
# One bound, 1..4096 (PS_THREADS_MAX), for every source of the thread count:
# --threads, and OMP_NUM_THREADS, which the OpenMP runtime reads for itself
# (100000 made libgomp die of SIGSEGV in the openmp backend, exit 139, with a
# temporary output left). A count out of range, in plain or list form, is
# refused by every command before it starts: exit 2, a message naming the
# variable and the range, no output, no temporary file.
# (ps_config.threads and the library's default team: tests/backends/test_openmp.)
. "$top_srcdir/tests/lib.sh"
mkdir "$TMP/w" && cd "$TMP/w" || fail "cd"

clean() { # CASE: nothing written
  [ -z "$(ls -A)" ] || fail "$1 left files: $(ls -A)"
}
for v in 100000 4097 "4,100000" "100000,2" 0 -1 abc "4;2"; do
  expect_exit 2 env OMP_NUM_THREADS="$v" "$PSTENCIL" run -o out.nc --steps 1 -q
  expect_err "^pstencil: error: OMP_NUM_THREADS=$v: .*1\.\.4096"
  clean "run with OMP_NUM_THREADS=$v"
  expect_exit 2 env OMP_NUM_THREADS="$v" "$PSTENCIL" run -b openmp -o out.nc --steps 1 -q
  expect_err "OMP_NUM_THREADS=$v: .*1\.\.4096"
  clean "run -b openmp with OMP_NUM_THREADS=$v"
done
# every command, before it starts
for cmd in "gen -o g.nc --scale 0.1" "backends" "tune --steps 1 --repeat 1" \
    "bench --backend openmp --steps 2 --grid-steps 2 --dram-mb 64 --csv b.csv" \
    "validate --backend openmp"; do
  # shellcheck disable=SC2086
  expect_exit 2 env OMP_NUM_THREADS=100000 PSTENCIL_TUNE_FILE="$TMP/tune.txt" "$PSTENCIL" $cmd
  expect_err "^pstencil: error: OMP_NUM_THREADS=100000: .*1\.\.4096"
  clean "$cmd with OMP_NUM_THREADS=100000"
done
# --threads: the same range
expect_exit 2 "$PSTENCIL" run --threads 100000 -o out.nc --steps 1 -q
expect_err "error: --threads: 100000 is out of range \(1\.\.4096\)"
clean "run --threads 100000"
# counts in range, plain and as a list, still run
for v in 2 "4,2" " 3 "; do
  expect_exit 0 env OMP_NUM_THREADS="$v" "$PSTENCIL" run -b openmp -o out.nc --steps 1 -q
  [ -f out.nc ] || fail "OMP_NUM_THREADS='$v': no output"
  rm -f out.nc
done
exit 0

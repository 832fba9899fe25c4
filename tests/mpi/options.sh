#!/bin/sh
# Every option of `run` works under MPI (bitwise the one-process output) or
# is refused by the one rule of the option table, which says why: 3 ranks
# against one process for each stencil's own options, snapshots, double
# precision, compression, the -D alias, --continue and --profile; then each
# refused option's message, with no output left.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/mpi/lib.sh"
cd "$TMP" || fail "no temporary directory"
expect_exit 0 "$PSTENCIL" gen --scale 0.05 -o small.nc   # 50 x 11 x 12
n=0
while read -r args; do
  # shellcheck disable=SC2086
  expect_exit 0 "$PSTENCIL" run small.nc -b openmp -n 12 $args -o one.nc
  want=$(sum)
  # shellcheck disable=SC2086
  expect_exit 0 mpirun_p 3 run small.nc -b openmp -n 12 $args -o out.nc
  [ "$(sum)" = "$want" ] || fail "$args: checksum $(sum) under MPI, one process $want"
  expect_exit 0 "$PSTENCIL" compare one.nc out.nc
  echo "3 ranks, $args: bitwise the one-process output ($want)"
  rm -f one.nc out.nc
  n=$((n + 1))
done <<'CASES'
--stencil smooth2 --w 0.05
--stencil hdiff --kh 500 --kv 2e-5 --dt auto
--output-every 5
--precision double
-D 0.2 --allow-unstable
--compress 4
--block 8,4
CASES
[ "$n" -eq 7 ] || fail "ran $n cases of 7"

# --continue: one process and 3 ranks go on from the same output alike
expect_exit 0 "$PSTENCIL" run small.nc --stencil hdiff -b openmp -n 10 -o first.nc
expect_exit 0 "$PSTENCIL" run --continue first.nc -b openmp -n 7 -o one.nc
want=$(sum)
expect_exit 0 mpirun_p 3 run --continue first.nc -b openmp -n 7 -o out.nc
[ "$(sum)" = "$want" ] || fail "--continue: checksum $(sum) under MPI, one process $want"
expect_exit 0 "$PSTENCIL" compare one.nc out.nc
echo "3 ranks, --continue: bitwise the one-process continuation ($want)"

# --profile: rank 0 writes the report as JSON
expect_exit 0 mpirun_p 3 run small.nc -b openmp -n 5 -o p.nc --profile p.json
grep -q '"checksum": "0x' p.json || fail "--profile under MPI: no checksum in p.json"
if command -v python3 >/dev/null 2>&1; then
  python3 -m json.tool p.json >/dev/null || fail "--profile under MPI: p.json is not JSON"
fi

# the options that stay refused, each with its reason, nothing written
mkdir o
for opt in "--split 2" "--devices all" "--max-device-memory 1G" "--plot o/pl"; do
  # shellcheck disable=SC2086
  expect_exit 2 mpirun_p 3 run small.nc -n 5 -o o/x.nc $opt
  name=${opt%% *}
  expect_err "[-]-${name#--} is not supported in an MPI run: [a-z]"
done
[ -z "$(ls -A o)" ] || fail "a refused option left files: $(ls -A o)"
echo "--split, --devices, --max-device-memory, --plot refused with their reasons"

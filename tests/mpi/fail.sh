#!/bin/sh
# A failing rank stops every rank: an unreadable input, a rank that cannot read
# its block (the PSTENCIL_MPI_FAIL_RANK test hook), a decomposition with more
# ranks along an axis than cells, a decomposition of another rank count, an
# existing output: exit 2, the message once (rank 0's), no output file and no
# temporary file.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/mpi/lib.sh"
cd "$TMP" || fail "no temporary directory"
once() {
  c=$(grep -c '^pstencil: error:' "$TMP/err")
  [ "$c" -eq 1 ] || { cat "$TMP/err" >&2; fail "$1: $c error messages, expected one"; }
  expect_err "$2"
  [ -e out.nc ] && fail "$1: an output file was written"
  ls .out.nc.tmp.* >/dev/null 2>&1 && fail "$1: a temporary file was left"
  echo "$1: exit 2, one message, no output"
}
expect_exit 0 "$PSTENCIL" gen --scale 0.05 -o small.nc
expect_exit 2 mpirun_p 3 run no-such-file.nc -b reference -n 2 -o out.nc
once "unreadable input" "no-such-file.nc"
# the fault-injection hook exists only in builds configured with --enable-test-hooks
PSTENCIL_MPI_FAIL_RANK=1; export PSTENCIL_MPI_FAIL_RANK
if grep -q '^#define PS_TEST_HOOKS 1' "$top_builddir/config.h"; then
  expect_exit 2 "$MPIRUN" $mpi_flags -np 3 -x PSTENCIL_MPI_FAIL_RANK -x PSTENCIL_PLUGIN_PATH \
    "$PSTENCIL" run small.nc -b reference -n 2 -o out.nc
  once "rank 1 cannot read its block" "rank 1 cannot read"
else
  # a build without the hooks reads no fault variable: the run succeeds
  expect_exit 0 "$MPIRUN" $mpi_flags -np 3 -x PSTENCIL_MPI_FAIL_RANK -x PSTENCIL_PLUGIN_PATH \
    "$PSTENCIL" run small.nc -b reference -n 2 -o hooks.nc
  rm -f hooks.nc
fi
unset PSTENCIL_MPI_FAIL_RANK
expect_exit 2 mpirun_p 2 run small.nc -b reference -n 2 --decomp 1x1x13 -o out.nc
once "13 boxes for 2 ranks" "13 boxes, but 2 ranks"
# more ranks along an axis than cells: 4 along k of the 3 levels of tests/data/tiny.cdl,
# and 5 ranks, which no split of its 3 x 3 x 4 cells fits
if command -v ncgen >/dev/null 2>&1; then
  ncgen -o tiny.nc "$top_srcdir/tests/data/tiny.cdl" || fail "ncgen tiny.cdl"
  expect_exit 2 mpirun_p 4 run tiny.nc -b reference -n 2 --decomp 4x1x1 -o out.nc
  once "4 ranks along k of 3 levels" "4 boxes along k, but the grid has only 3 cells"
  expect_exit 2 mpirun_p 5 run tiny.nc -b reference -n 2 -o out.nc
  once "5 ranks for a 3x3x4 grid" "5 boxes do not fit"
else
  echo "no ncgen: the tiny-grid cases are left out"
fi
expect_exit 2 mpirun_p 3 run small.nc -b reference -n 2 --decomp 1x12x1 --halo 0 -o out.nc
once "halo 0" "halo"
touch out.nc
expect_exit 2 mpirun_p 2 run small.nc -b reference -n 2 -o out.nc
c=$(grep -c '^pstencil: error:' "$TMP/err"); [ "$c" -eq 1 ] || fail "existing output: $c messages"
[ -s out.nc ] && fail "the existing output was overwritten"
rm -f out.nc
echo "existing output: refused once, untouched"
exit 0

#!/bin/sh
# An interrupted MPI run keeps its finished records, collectively: SIGTERM to
# every rank after some records stops them all at the same next record; the
# file holds the records completed before it (pstencil_interrupted says where),
# every rank exits 143, and one process continuing it matches one process run
# straight through, bitwise.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/mpi/lib.sh"
command -v ncdump >/dev/null || skip "no ncdump"
command -v pgrep >/dev/null || skip "no pgrep"
cd "$TMP" || fail "no temporary directory"
expect_exit 0 "$PSTENCIL" gen --scale 0.5 -o in.nc
N=100000
EVERY=20
steps_of() {
  ncdump -v step "$1" | awk '/^ step = /{on = 1} on {print; if (/;/) exit}' | tr -d 'step=;,' |
    tr -s ' \n' ' '
}
mkdir o
# shellcheck disable=SC2086
"$MPIRUN" $mpi_flags -np 3 -x PSTENCIL_PLUGIN_PATH -x OMP_NUM_THREADS "$PSTENCIL" run in.nc \
  -b reference -n $N --output-every $EVERY --no-progress -q -o o/out.nc </dev/null 2>err &
mpid=$!
# until the temporary output holds step 0 and two more records (one and a half times a
# file of two records: parallel HDF5 allocates a record's space when it starts writing
# it, so the first record past step 0 is then complete), within 60 s
expect_exit 0 "$PSTENCIL" run in.nc -b reference -n 1 -o two.nc
three=$(( $(stat -c %s two.nc) * 3 / 2 ))
i=0
while [ $i -lt 1200 ]; do
  sz=$(stat -c %s o/.out.nc.tmp.* 2>/dev/null | head -1)
  [ -n "$sz" ] && [ "$sz" -ge "$three" ] && break
  sleep 0.05; i=$((i + 1))
done
ranks=$(pgrep -P $mpid)
[ -n "$ranks" ] || { kill -9 $mpid; fail "no rank processes under mpirun"; }
# shellcheck disable=SC2086
kill -s TERM $ranks
i=0
while kill -0 $mpid 2>/dev/null && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
kill -0 $mpid 2>/dev/null && { kill -9 $mpid; fail "the ranks did not stop"; }
wait $mpid
rc=$?
[ "$rc" -ne 0 ] || fail "mpirun exited 0 after the ranks were interrupted"
grep -q "interrupted by SIGTERM: o/out.nc keeps the" err || { cat err >&2; fail "no message"; }
[ "$(ls -A o)" = "out.nc" ] || fail "left in o/: $(ls -A o)"
kept=$(echo $(steps_of o/out.nc))
last=${kept##* }
[ -n "$last" ] && [ "$last" -gt 0 ] || fail "kept steps '$kept'"
[ "$kept" = "$(echo $(seq 0 $EVERY "$last"))" ] || fail "kept steps '$kept'"
ncdump -h o/out.nc | grep -q "pstencil_interrupted = \"SIGTERM after step $last of $N\"" ||
  fail "no pstencil_interrupted attribute"
# one process goes on from it: equal to one process run straight through
expect_exit 0 "$PSTENCIL" run --continue o/out.nc -b reference -n $EVERY -o more.nc
expect_exit 0 "$PSTENCIL" run in.nc -b reference -n $((last + EVERY)) -o full.nc
[ "$(ncdump -v thetao more.nc | sed -n '/^ thetao =/,$p' | tail -n 100)" = \
  "$(ncdump -v thetao full.nc | sed -n '/^ thetao =/,$p' | tail -n 100)" ] ||
  fail "continued from the interrupted MPI run, the result differs"
echo "3 ranks interrupted after step $last: the records kept, continued bitwise"

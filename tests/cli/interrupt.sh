#!/bin/sh
# An interrupted run keeps its finished records: with --output-every, a first
# SIGINT, SIGTERM or SIGHUP stops the run at its next record, publishes the
# records completed before the signal (a valid file, marked with the global
# attribute pstencil_interrupted) and exits 128 + the signal; `run
# --continue` from it gives the uninterrupted run's result bitwise. A signal
# before any record past step 0, or a second signal, leaves nothing.
. "$top_srcdir/tests/lib.sh"
env --default-signal=INT true 2>/dev/null || skip "env --default-signal not available"
command -v ncdump >/dev/null || skip "no ncdump"
cd "$TMP" || fail "cd"
"$PSTENCIL" gen -o in.nc --scale 0.5 >/dev/null || fail "gen"
N=100000
EVERY=20
R="-b reference --no-progress -q"
steps_of() {
  ncdump -v step "$1" | awk '/^ step = /{on = 1} on {print; if (/;/) exit}' | tr -d 'step=;,' |
    tr -s ' \n' ' '
}
# started [BYTES]: the run's temporary output has grown to BYTES (default: one and a
# half times a file holding step 0 and one more record, so the first record past step
# 0 is complete whenever HDF5 allocates a record's space), within 60 s
expect_exit 0 "$PSTENCIL" run in.nc -n 1 -o two.nc $R
two=$(( $(stat -c %s two.nc) * 3 / 2 ))
started() {
  i=0
  while [ $i -lt 1200 ]; do
    sz=$(stat -c %s o/.out.nc.tmp.* 2>/dev/null | head -1)
    [ -n "$sz" ] && [ "$sz" -ge "${1:-$two}" ] && return 0
    sleep 0.05; i=$((i + 1))
  done
  return 1
}
finish() { # finish PID: its exit status, within 30 s
  i=0
  while kill -0 "$1" 2>/dev/null && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
  kill -0 "$1" 2>/dev/null && { kill -9 "$1"; fail "the run did not stop"; }
  wait "$1"
}
for sig in INT:130 TERM:143 HUP:129; do
  rm -rf o && mkdir o
  env --default-signal=INT,TERM,HUP "$PSTENCIL" run in.nc -n $N --output-every $EVERY \
    -o o/out.nc $R 2>err &
  pid=$!
  started || { kill -9 $pid; fail "SIG${sig%:*}: the run did not start"; }
  kill -s "${sig%:*}" $pid
  finish $pid; rc=$?
  [ "$rc" -eq "${sig#*:}" ] || { cat err >&2; fail "SIG${sig%:*}: exit $rc, expected ${sig#*:}"; }
  grep -q "interrupted by SIG${sig%:*}: o/out.nc keeps the" err || { cat err >&2; fail "no message"; }
  [ -z "$(ls -A o | grep -v '^out.nc$')" ] || fail "SIG${sig%:*}: a temporary file is left"
  kept=$(echo $(steps_of o/out.nc))
  last=${kept##* }
  [ -n "$last" ] && [ "$last" -gt 0 ] && [ "$last" -lt $N ] ||
    fail "SIG${sig%:*}: kept steps '$kept'"
  want=$(seq 0 $EVERY "$last" | tr '\n' ' ')
  [ "$(echo $kept)" = "$(echo $want)" ] || fail "SIG${sig%:*}: steps '$kept', expected '$want'"
  ncdump -h o/out.nc | grep -q "pstencil_interrupted = \"SIG${sig%:*} after step $last of $N\"" ||
    fail "SIG${sig%:*}: no pstencil_interrupted attribute"
done
# readable by CDO and xarray when they are here
if command -v cdo >/dev/null; then cdo -s sinfon o/out.nc >/dev/null 2>&1 || fail "cdo cannot read it"; fi
PY=${PS_TEST_PYTHON:-/usr/bin/python3}
if "$PY" -c 'import xarray' 2>/dev/null; then
  "$PY" -c "import xarray; d = xarray.open_dataset('o/out.nc'); assert d.thetao.shape[0] == len('$kept'.split())" ||
    fail "xarray cannot read it"
fi
# continued: the chain equals one uninterrupted run of as many steps, bitwise
M=$((last + EVERY))
expect_exit 0 "$PSTENCIL" run --continue o/out.nc -n $EVERY -o more.nc $R
expect_exit 0 "$PSTENCIL" run in.nc -n $M --output-every $EVERY -o full.nc $R
if command -v ncrcat >/dev/null; then
  ncrcat -O o/out.nc more.nc chain.nc || fail "ncrcat"
  [ "$(echo $(steps_of chain.nc))" = "$(echo $(steps_of full.nc))" ] || fail "the chain has steps '$(steps_of chain.nc)'"
  expect_exit 0 "$PSTENCIL" compare full.nc chain.nc
fi
[ "$(ncdump -v thetao more.nc | sed -n '/^ thetao =/,$p' | tail -n 100)" = \
  "$(ncdump -v thetao full.nc | sed -n '/^ thetao =/,$p' | tail -n 100)" ] ||
  fail "the continued run's last values differ from the uninterrupted run's"
# a signal before any record past step 0 stops at once: nothing written
rm -rf o && mkdir o
env --default-signal=INT,TERM,HUP "$PSTENCIL" run in.nc -n $N --output-every $((N - 1)) \
  -o o/out.nc $R 2>err &
pid=$!
started 1 || { kill -9 $pid; fail "the run did not start"; }
sleep 0.3
kill -s TERM $pid
finish $pid; rc=$?
[ "$rc" -eq 143 ] || { cat err >&2; fail "early SIGTERM: exit $rc"; }
[ -z "$(ls -A o)" ] || fail "early SIGTERM: something was left: $(ls -A o)"
# a second signal stops at once: nothing written
rm -rf o && mkdir o
env --default-signal=INT,TERM,HUP "$PSTENCIL" run in.nc -n $N --output-every $EVERY \
  -o o/out.nc $R 2>err &
pid=$!
started || { kill -9 $pid; fail "the run did not start"; }
# (two different signals: a second one of a kind may merge with the first)
kill -s TERM $pid; kill -s HUP $pid
finish $pid; rc=$?
[ "$rc" -eq 129 ] || [ "$rc" -eq 143 ] || { cat err >&2; fail "SIGTERM and SIGHUP: exit $rc"; }
[ -z "$(ls -A o)" ] || fail "SIGTERM and SIGHUP: something was left: $(ls -A o)"
echo "interrupted runs keep their finished records"

#!/bin/sh
# Issue 11: every file a command writes is checked before the run, written to a
# private temporary file and published without clobbering; a full disk, a
# signal or a lost race leaves nothing behind; an unstable coefficient, a
# non-finite or all-missing input, and a run that blows up are refused loudly.
. "$top_srcdir/tests/lib.sh"
command -v ncgen >/dev/null 2>&1 || skip "ncgen not available"
cd "$TMP" || exit 1
mkdir o

# nothing CMD... : o/ holds no file, visible or hidden
nothing_left() { [ -z "$(ls -A o)" ] || { ls -la o; fail "$1 left files behind"; }; }

cdl() { # cdl NAME DATA: a 3x4x5 file with the given 60 values
  cat > "$1.cdl" <<CDL
netcdf $1 {
dimensions: time = UNLIMITED ; depth = 3 ; latitude = 4 ; longitude = 5 ;
variables:
  float depth(depth) ; depth:units = "m" ; depth:positive = "down" ;
  float latitude(latitude) ; latitude:units = "degrees_north" ;
  float longitude(longitude) ; longitude:units = "degrees_east" ;
  double time(time) ; time:units = "hours since 2024-01-01" ;
  float thetao(time, depth, latitude, longitude) ;
    thetao:standard_name = "sea_water_potential_temperature" ; thetao:units = "degrees_C" ;
    thetao:_FillValue = 1.e+20f ;
data:
  depth = 1, 2, 3 ; latitude = 50, 51, 52, 53 ; longitude = 0, 1, 2, 3, 4 ; time = 0 ;
  thetao = $2 ;
}
CDL
  ncgen -k nc4 -o "$1.nc" "$1.cdl" || fail "ncgen $1"
}
row="1,2,3,4,5, 6,7,8,9,10, 11,12,13,14,15, 16,17,18,19,20"
mid="4,9,2,7,5, 3,8,1,9,2, 7,2,8,3,6, 5,1,9,4,8"  # not linear: the Laplacian is not 0
cdl good "$row, $mid, $row"
cksum good.nc > good.sum

# ---- 1. --profile: never the input, never an existing file without --force,
#         bad paths found before the run
expect_exit 2 "$PSTENCIL" run good.nc -n 2 -q -o o/a.nc --profile good.nc --force
expect_err "input"
cksum good.nc | cmp -s - good.sum || fail "--profile overwrote the input"
nothing_left "--profile INPUT"
echo keep > victim
ln -s "$TMP/victim" o/prof.json
expect_exit 2 "$PSTENCIL" run good.nc -n 2 -q -o o/a.nc --profile o/prof.json
expect_err "exists; use --force"
[ ! -e o/a.nc ] || fail "output written although --profile was refused"
[ "$(cat victim)" = keep ] || fail "--profile followed a symlink"
expect_exit 0 "$PSTENCIL" run good.nc -n 2 -q -o o/a.nc --profile o/prof.json --force
[ "$(cat victim)" = keep ] || fail "--profile --force wrote through a symlink"
[ ! -L o/prof.json ] && grep -q pstencil_version o/prof.json || fail "--profile not written"
rm -f o/a.nc o/prof.json
expect_exit 2 "$PSTENCIL" run good.nc -n 2 -q -o o/a.nc --profile nodir/p.json
expect_err "nodir"
nothing_left "--profile nodir/p.json"
: > plotfile
expect_exit 2 "$PSTENCIL" run good.nc -n 2 -q -o o/a.nc --plot plotfile
expect_err "not a directory"
nothing_left "--plot FILE"
expect_exit 2 "$PSTENCIL" run good.nc -n 2 -q -o good.nc --force
expect_err "input"
cksum good.nc | cmp -s - good.sum || fail "-o INPUT --force overwrote the input"

# plot images and pages: checked first, never overwritten without --force
if "$PSTENCIL" plot slice good.nc -o o/s.png >/dev/null 2>&1; then
  cksum o/s.png > s.sum
  expect_exit 2 "$PSTENCIL" plot slice good.nc -o o/s.png
  expect_err "exists; use --force"
  cksum o/s.png | cmp -s - s.sum || fail "plot slice -o overwrote an image without --force"
  expect_exit 0 "$PSTENCIL" plot slice good.nc -o o/s.png --force --cmap rdbu
  expect_exit 2 "$PSTENCIL" plot slice good.nc -o good.nc --force
  expect_err "input"
  cksum good.nc | cmp -s - good.sum || fail "plot slice -o INPUT --force overwrote the input"
  mkdir o/p
  expect_exit 0 "$PSTENCIL" run good.nc -n 2 -q -b reference -o o/a.nc --plot o/p
  cksum o/p/reference_after.png > p.sum
  expect_exit 2 "$PSTENCIL" run good.nc -n 4 -q -b reference -o o/b.nc --plot o/p
  expect_err "reference_before.png exists; use --force"
  [ ! -e o/b.nc ] || fail "run --plot: output written although the images were refused"
  cksum o/p/reference_after.png | cmp -s - p.sum || fail "run --plot overwrote an image"
  expect_exit 0 "$PSTENCIL" run good.nc -n 4 -q -b reference -o o/b.nc --plot o/p --force
  rm -rf o/p o/a.nc o/b.nc o/s.png
  nothing_left "plot images"
fi

# ---- 2. physics guards
for d in -0.1 1.5 1e308; do
  expect_exit 2 "$PSTENCIL" run good.nc -n 2 -q -o o/a.nc -D "$d"
  expect_err "stable only for 0 <= D <= 1"
  nothing_left "-D $d"
done
expect_exit 0 "$PSTENCIL" run good.nc -n 2 -q -o o/a.nc -D 1
expect_exit 0 "$PSTENCIL" run good.nc -n 2 -q -o o/b.nc -D 1.5 --allow-unstable
rm -f o/a.nc o/b.nc
expect_exit 3 "$PSTENCIL" run good.nc -n 40 -q -o o/a.nc -D 1e30 --allow-unstable
expect_err "blew up: .* non-finite at step"
nothing_left "a run that blew up"
cdl inf "$row, 1,2,3,4,5, 6,7,Infinityf,9,10, 11,12,13,14,15, 16,17,18,19,20, $row"
expect_exit 2 "$PSTENCIL" run inf.nc -n 2 -q -o o/a.nc
expect_err "infinite \\(first at level 1, row 1, column 2"
nothing_left "an infinite input"
cdl allnan "_,_,_,_,_, _,_,_,_,_, _,_,_,_,_, _,_,_,_,_, _,_,_,_,_, _,_,_,_,_, _,_,_,_,_, _,_,_,_,_, _,_,_,_,_, _,_,_,_,_, _,_,_,_,_, _,_,_,_,_"
expect_exit 2 "$PSTENCIL" run allnan.nc -n 2 -q -o o/a.nc
expect_err "no ocean cells"
nothing_left "an all-missing input"

# ---- 3. signals: sent while the temporary output exists; it is removed,
#         the exit is 130/143/129 and stderr says why in one line
env --default-signal=INT true 2>/dev/null || skip "env --default-signal not available"
for sig in INT:130 TERM:143 HUP:129; do
  # a background job of sh ignores SIGINT, and pstencil keeps an ignored signal
  # ignored (nohup): start it with the default dispositions
  env --default-signal=INT,TERM,HUP "$PSTENCIL" run -n 1000000 --no-progress -q -o o/long.nc \
    >/dev/null 2>"$TMP/err" & pid=$!
  i=0
  while [ -z "$(ls -A o)" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
  [ -n "$(ls -A o)" ] || { kill $pid; fail "SIG${sig%:*}: no temporary file appeared"; }
  sleep 0.3
  kill -s "${sig%:*}" $pid
  i=0
  while kill -0 $pid 2>/dev/null && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
  if kill -0 $pid 2>/dev/null; then
    kill -9 $pid; wait $pid; rm -f o/.long.nc.tmp.*
    fail "SIG${sig%:*}: still running 10 s after the signal"
  fi
  wait $pid
  got=$?
  [ "$got" -eq "${sig#*:}" ] || { cat "$TMP/err"; fail "SIG${sig%:*}: exit $got, expected ${sig#*:}"; }
  expect_err "interrupted by SIG${sig%:*}"
  nothing_left "SIG${sig%:*}"
done

# ---- 4. two runs racing for one output: one wins, the loser exits 2 and leaves nothing
"$PSTENCIL" run -n 30 -q -o o/race.nc 2>"$TMP/e1" & p1=$!
"$PSTENCIL" run -n 30 -q -o o/race.nc 2>"$TMP/e2" & p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
[ $((r1 + r2)) -eq 2 ] && [ $((r1 * r2)) -eq 0 ] ||
  { cat "$TMP/e1" "$TMP/e2"; fail "race: exits $r1 and $r2, expected 0 and 2"; }
[ "$(ls -A o)" = race.nc ] || { ls -la o; fail "race left more than the winner's file"; }
rm -f o/race.nc

# ---- 5. a full disk: exit 2, says so, nothing left, no crash
full=""
if [ "$(id -u)" = 0 ] && mkdir disk && mount -t tmpfs -o size=1m tmpfs disk 2>/dev/null; then
  full=disk
  trap 'umount "$TMP/disk" 2>/dev/null; rm -rf "$TMP"' EXIT
fi
if [ -n "$full" ]; then
  expect_exit 2 "$PSTENCIL" run -n 2 -q -o disk/full.nc
  expect_err "no space left on device \\(wrote [0-9]+ of about [0-9]+ bytes\\)"
  [ -z "$(ls -A disk)" ] || { ls -la disk; fail "a full disk left files behind"; }
  expect_exit 2 "$PSTENCIL" gen -o disk/gen.nc
  [ -z "$(ls -A disk)" ] || { ls -la disk; fail "gen on a full disk left files behind"; }
else
  ( ulimit -f 1024 && exec "$PSTENCIL" run -n 2 -q -o o/full.nc ) >/dev/null 2>"$TMP/err"
  got=$?
  [ "$got" -eq 2 ] || { cat "$TMP/err"; fail "file-size limit: exit $got, expected 2"; }
  expect_err "(no space left on device|file size limit exceeded) \\(wrote"
  nothing_left "a file-size limit"
fi
exit 0

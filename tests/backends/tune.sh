#!/bin/sh
# pstencil tune and the openmp backend's tuning cache: tune writes one sane
# entry (directory created); run then takes its tiling from the cache, says
# so, and gives bitwise the result it gives without the cache; malformed
# caches (garbage, huge and negative values, a truncated line, binary bytes,
# a FIFO) are ignored with one warning and the same result; the cache comes
# before PSTENCIL_OPENMP_TBLOCK, which decides without an entry; a second tune
# replaces the entry and keeps others; each stencil has its own entry (tune
# --stencil), used by that stencil alone; bad options fail and leave the file.
. "$top_srcdir/tests/lib.sh"
cd "$TMP" || exit 1
"$PSTENCIL" backends 2>/dev/null | grep -q "^openmp" || skip "no openmp backend"

expect_exit 0 "$PSTENCIL" gen -o small.nc --scale 0.2
CACHE=$TMP/cache/sub/openmp-tune.txt
export PSTENCIL_TUNE_FILE="$CACHE"
unset PSTENCIL_OPENMP_TBLOCK PSTENCIL_OPENMP_TJ PSTENCIL_OPENMP_ZERO_LAND

# --dry-run measures and stores nothing
expect_exit 0 "$PSTENCIL" tune small.nc --threads 2 --steps 6 --repeat 1 --dry-run
grep -q "<- chosen" "$TMP/out" || fail "no chosen candidate in the table"
grep -q "results bitwise equal" "$TMP/out" || fail "no bitwise check reported"
[ ! -e "$CACHE" ] || fail "--dry-run wrote the cache"

expect_exit 0 "$PSTENCIL" tune small.nc --threads 2 --steps 6 --repeat 3
[ -f "$CACHE" ] || fail "tune wrote no cache (directory not created?)"
entries() { grep -v '^#' "$1" | grep -c .; }
[ "$(entries "$CACHE")" -eq 1 ] || { cat "$CACHE"; fail "expected one entry"; }
line=$(grep -v '^#' "$CACHE")
key=$(printf '%s\n' "$line" | cut -f1)
t=$(printf '%s\n' "$line" | cut -f2)
tj=$(printf '%s\n' "$line" | cut -f3)
ms=$(printf '%s\n' "$line" | cut -f4)
[ "$(printf '%s\n' "$line" | awk -F'\t' '{print NF}')" -eq 4 ] || fail "entry has not 4 fields: $line"
case "$key" in openmp\;*"; 2 threads; 50x44x48; float32;"*) ;; *) fail "odd key: $key" ;; esac
[ "$t" -ge 0 ] && [ "$t" -le 16 ] || fail "steps fused out of range: $t"
[ "$tj" -ge 1 ] && [ "$tj" -le 42 ] || fail "tile rows out of range: $tj"
awk -v m="$ms" 'BEGIN { exit !(m + 0 > 0) }' || fail "time not positive: $ms"
grep -q "stored in $CACHE: $t steps fused, tiles of $tj rows" "$TMP/out" || fail "store not reported"

# run uses it, says so, and is bitwise the run without it (and the reference)
sum() { sed -n 's/.*checksum    : \(0x[0-9a-f]*\).*/\1/p' "$TMP/out"; }
# run [VAR=VALUE...] [--backend NAME]: 11 steps of small.nc with 2 threads
run() {
  _env=
  while [ $# -gt 0 ] && [ "${1#*=}" != "$1" ]; do _env="$_env $1"; shift; done
  # shellcheck disable=SC2086
  expect_exit 0 env $_env "$PSTENCIL" run small.nc --backend openmp --threads 2 --steps 11 \
    -o "$TMP/o.nc" -f --no-progress "$@"
}
run --backend reference
ref=$(sum)
run PSTENCIL_TUNE_FILE=/dev/null
grep -q "kernel path :.*(rule from cache sizes)" "$TMP/out" || fail "no rule source without a cache"
[ "$(sum)" = "$ref" ] || fail "openmp without cache differs from the reference"
run
grep -q "kernel path :.*(tune cache $CACHE)" "$TMP/out" || { cat "$TMP/out"; fail "run does not report the cache"; }
[ ! -s "$TMP/err" ] || { cat "$TMP/err"; fail "a good cache gave a warning"; }
[ "$(sum)" = "$ref" ] || fail "openmp with the cache differs from the reference"
# another thread count is another key: the rule
expect_exit 0 "$PSTENCIL" run small.nc --backend openmp --threads 1 --steps 3 -o "$TMP/o.nc" -f --no-progress
grep -q "(rule from cache sizes)" "$TMP/out" || fail "the entry was used for another thread count"
# the cache comes before the variables (docs/knobs.md), which decide where it
# has no entry (another thread count)
run PSTENCIL_OPENMP_TBLOCK=3
grep -q "kernel path :.*(tune cache $CACHE)" "$TMP/out" || { cat "$TMP/out"; fail "PSTENCIL_OPENMP_TBLOCK overrode the cache"; }
expect_exit 0 env PSTENCIL_OPENMP_TBLOCK=3 "$PSTENCIL" run small.nc --backend openmp --threads 1 \
  --steps 3 -o "$TMP/o.nc" -f --no-progress
grep -q "3 steps fused.*PSTENCIL_OPENMP_TBLOCK" "$TMP/out" || { cat "$TMP/out"; fail "PSTENCIL_OPENMP_TBLOCK not used without a cache entry"; }

# malformed caches: ignored with one warning, the rule's tiling, the same result
bad=$TMP/bad.txt
check_bad() { # $1: what
  run PSTENCIL_TUNE_FILE="$bad"
  [ "$(grep -c 'warning: tuning cache' "$TMP/err")" -eq 1 ] || { cat "$TMP/err"; fail "$1: not one warning"; }
  grep -q "(rule from cache sizes)" "$TMP/out" || fail "$1: the cache was used"
  [ "$(sum)" = "$ref" ] || fail "$1: result differs"
}
{ printf 'garbage\n'; printf '%s\t99\t10\t1.0\n' "$key"; printf '%s\t4\t99999999999999999999999\t1.0\n' "$key"
  printf '%s\t-1\t10\t1.0\n' "$key"; printf '%s\t4\t-5\t1.0\n' "$key"; printf '%s\t4\t0\t1.0\n' "$key"
  printf '%s\t4\t10\tnan\n' "$key"; printf '%s\t4x\t10\t1.0\n' "$key"; printf '%s\t4\t10\n' "$key"
  printf '%s\t4\t10\t1.0\textra\n' "$key"; printf '%s\t4\t1' "$key"; } > "$bad"
check_bad "values out of range"
head -c 3000 /dev/urandom > "$bad"; printf '\n\0\001%s\t4\t10\t1.0\n' "$key" >> "$bad"
check_bad "binary bytes"
awk 'BEGIN { for (i = 0; i < 3000; i++) printf "x"; printf "\n" }' > "$bad"
check_bad "an over-long line"
rm -f "$bad"; mkdir "$bad"
check_bad "a directory"
rmdir "$bad"; mkfifo "$bad" 2>/dev/null && check_bad "a FIFO (must not block)"
rm -f "$bad"
# a valid entry among bad lines is used, with the warning
{ printf 'junk\n'; printf '%s\t2\t5\t0.5\n' "$key"; } > "$bad"
run PSTENCIL_TUNE_FILE="$bad"
grep -q "2 steps fused, [0-9]* tiles of 5 rows (tune cache $bad)" "$TMP/out" || fail "valid entry among junk not used"
[ "$(grep -c 'warning: tuning cache' "$TMP/err")" -eq 1 ] || fail "junk line not warned about once"
[ "$(sum)" = "$ref" ] || fail "2 steps fused differ"

# a second tune replaces the entry and keeps other keys
printf 'other key\t4\t16\t1.25\n' >> "$CACHE"
expect_exit 0 "$PSTENCIL" tune small.nc --threads 2 --steps 6 --repeat 1
grep -q "diffusion7 (generic path)" "$TMP/out" || fail "tune does not say the generic path ran"
[ "$(entries "$CACHE")" -eq 2 ] || { cat "$CACHE"; fail "expected two entries after a second tune"; }
[ "$(grep -c "^$key	" "$CACHE")" -eq 1 ] || fail "the entry was duplicated"
grep -q "^other key	4	16	1.25" "$CACHE" || fail "another key was lost"
ls -a "$TMP/cache/sub" | grep -q tmp && fail "a temporary file was left"

# the generic path: its key names the stencil, run -s takes the entry, bitwise
expect_exit 0 "$PSTENCIL" tune small.nc --stencil hdiff --threads 2 --steps 6 --repeat 1
grep -q "hdiff (generic path)" "$TMP/out" || fail "tune -s hdiff does not name its path"
[ "$(entries "$CACHE")" -eq 3 ] || { cat "$CACHE"; fail "expected a third entry for hdiff"; }
hline=$(grep '; generic hdiff	' "$CACHE") || { cat "$CACHE"; fail "no generic hdiff key"; }
ht=$(printf '%s\n' "$hline" | cut -f2)
htj=$(printf '%s\n' "$hline" | cut -f3)
[ "$ht" -ge 1 ] && [ "$ht" -le 16 ] || fail "generic steps fused out of range: $ht"
run -s hdiff --backend reference
href=$(sum)
run -s hdiff
grep -q "kernel path : generic path.*$ht steps\{0,1\} fused.* of $htj rows (tune cache $CACHE)" \
  "$TMP/out" || { cat "$TMP/out"; fail "run -s hdiff does not take its entry"; }
[ "$(sum)" = "$href" ] || fail "hdiff with the cache differs from the reference"
# an entry of another stencil is not taken
run -s smooth2
grep -q "(rule from cache sizes)" "$TMP/out" || fail "smooth2 took another stencil's entry"
# a hand-made entry for the generic path is used as it says, with T cut to the tile
sed "s/; generic hdiff	.*/; generic hdiff	3	7	0.5/" "$CACHE" > "$bad"
run PSTENCIL_TUNE_FILE="$bad" -s hdiff
grep -q "3 steps fused, .* of 7 rows (tune cache $bad)" "$TMP/out" || { cat "$TMP/out"; fail "hand-made generic entry not used"; }
[ "$(sum)" = "$href" ] || fail "hdiff with 3 steps fused differs from the reference"
# a candidate's reported tiling, stored, gives the same tiling again: asked 16 steps in
# tiles of 32 rows, the 42 rows go in 2 tiles of 21, and T is cut to what those hold
run -s hdiff --knob openmp_tblock=16 --knob openmp_tj=32
got=$(sed -n 's/.*tiling: \([0-9]*\) steps\{0,1\} fused, 2 tiles of \([0-9]*\) rows.*/\1 \2/p' "$TMP/out")
[ "$got" = "11 21" ] || { cat "$TMP/out"; fail "asked 16 x 32 rows, the tiling is '$got', not 11 steps in 21 rows"; }
printf '%s\t11\t21\t0.5\n' "$(printf '%s\n' "$hline" | cut -f1)" > "$bad"
run PSTENCIL_TUNE_FILE="$bad" -s hdiff
grep -q "11 steps fused, 2 tiles of 21 rows (tune cache $bad)" "$TMP/out" ||
  { cat "$TMP/out"; fail "the stored tiling 11 x 21 did not come back"; }
rm -f "$bad"

# bad options and unusable caches: non-zero exit, cache untouched
cp "$CACHE" before.txt
for opts in "--repeat 0" "--repeat 33" "--threads 0" "--precision quad" "--scale -1" "--steps 0" \
    "--bogus" "--scale 2 small.nc" "--var x" "missing.nc" "small.nc extra.nc" "--steps" \
    "--stencil nosuch" "--kernel bogus" "--stencil hdiff --kernel fast small.nc"; do
  # shellcheck disable=SC2086
  expect_exit 2 "$PSTENCIL" tune $opts
  grep -q "error" "$TMP/err" || fail "tune $opts: no error message"
  cmp -s "$CACHE" before.txt || fail "tune $opts changed the cache"
done
mkdir adir
expect_exit 2 env PSTENCIL_TUNE_FILE="$TMP/adir" "$PSTENCIL" tune small.nc --steps 1 --repeat 1
expect_err "not a regular file"
if mkfifo fifo 2>/dev/null; then
  expect_exit 2 env PSTENCIL_TUNE_FILE="$TMP/fifo" "$PSTENCIL" tune small.nc --steps 1 --repeat 1
  [ -p fifo ] || fail "the FIFO was replaced"
fi
exit 0

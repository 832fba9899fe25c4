#!/bin/sh
# pstencil backends --knobs lists every field of ps_knobs (core/ps_knobs.h),
# each once, with its meaning, value type, rule and environment variable;
# every variable it names is in docs/knobs.md and in the man page, and every
# knob is in docs/knobs.md.
. "$top_srcdir/tests/lib.sh"
hdr=$top_srcdir/core/ps_knobs.h
sed -n '/^typedef struct ps_knobs {/,/^} ps_knobs;/p' "$hdr" |
  sed -n 's/^ *ps_knob\(_text\)\{0,1\} \([a-z0-9_]*\);.*/\2/p' >"$TMP/fields"
[ "$(wc -l <"$TMP/fields")" -ge 10 ] || fail "could not read the fields of ps_knobs from $hdr"
expect_exit 0 "$PSTENCIL" backends --knobs
cp "$TMP/out" "$TMP/list"
sed -n 's/^  \([a-z0-9_]*\)$/\1/p' "$TMP/list" >"$TMP/listed"
sort "$TMP/fields" >"$TMP/f.sorted"
sort "$TMP/listed" >"$TMP/l.sorted"
cmp -s "$TMP/f.sorted" "$TMP/l.sorted" ||
  { diff "$TMP/f.sorted" "$TMP/l.sorted"; fail "backends --knobs does not list exactly the fields of ps_knobs"; }
n=$(wc -l <"$TMP/fields")
grep -q "^Tuning knobs ($n)" "$TMP/list" || fail "the count is not $n"
for what in value rule environment; do
  [ "$(grep -c "^      $what: " "$TMP/list")" -eq "$n" ] || fail "not one '$what:' line per knob"
done
# each knob's block: name, meaning, value, rule, environment (5 lines)
awk '/^  [a-z]/ { if (name && lines != 4) bad = bad " " name; name = $1; lines = 0; next }
     /^      / { lines++ } END { if (name && lines != 4) bad = bad " " name; if (bad) { print bad; exit 1 } }' \
  "$TMP/list" || fail "a knob without its four lines"
grep -q "^openmp:" "$TMP/list" && grep -q "^opencl:" "$TMP/list" && grep -q "^cuda hip:" "$TMP/list" ||
  fail "knobs not grouped by backend"
[ "$(grep -c '^[a-z].*:$' "$TMP/list")" -eq 3 ] || fail "a backend's knobs are not together"
sed -n 's/^      environment: \(PSTENCIL_[A-Z0-9_]*\).*/\1/p' "$TMP/list" | sort -u >"$TMP/envs"
[ -s "$TMP/envs" ] || fail "no environment variables listed"
while read -r v; do
  grep -q "$v" "$top_srcdir/docs/knobs.md" || fail "$v is not in docs/knobs.md"
  sed -n '/^\.SH ENVIRONMENT/,/^\.SH [A-Z]/p' "$top_srcdir/docs/pstencil.1.in" | grep -q "$v" ||
    fail "$v is not in the ENVIRONMENT section of docs/pstencil.1.in"
done <"$TMP/envs"
while read -r k; do
  grep -q "\`$k\`" "$top_srcdir/docs/knobs.md" || fail "knob $k is not in docs/knobs.md"
done <"$TMP/fields"
# --knobs is an option like --help: anything else is still refused
expect_exit 2 "$PSTENCIL" backends --knobs extra
expect_err "unexpected argument 'extra'"
expect_exit 2 "$PSTENCIL" backends --knobz
expect_err "unexpected argument '--knobz'"
exit 0

#!/bin/sh
# Option parsing (getopt_long in every subcommand): --opt=VALUE and
# --opt VALUE mean the same in bench and validate; flags refuse a value;
# ambiguous prefixes and stray arguments are named; and every option a
# subcommand's --help lists is accepted by that subcommand; no help text or
# doc cites the project's private design notes (not part of the tree).
. "$top_srcdir/tests/lib.sh"

# --opt=VALUE reaches the same check as --opt VALUE
expect_exit 2 "$PSTENCIL" bench --steps=0
expect_err "steps: 0 is out of range"
expect_exit 2 "$PSTENCIL" bench --steps 0
expect_err "steps: 0 is out of range"
expect_exit 2 "$PSTENCIL" bench --repeat=0
expect_err "repeat: 0 is out of range"
expect_exit 2 "$PSTENCIL" bench --precision=half
expect_err "precision: 'half'"
expect_exit 2 "$PSTENCIL" bench --steps=
expect_err "steps needs a value"
expect_exit 2 "$PSTENCIL" bench --quick=1
expect_err "option --quick takes no value"
expect_exit 2 "$PSTENCIL" bench --s 3
expect_err "option '--s' is ambiguous"
expect_exit 2 "$PSTENCIL" bench stray
expect_err "unexpected argument 'stray'"
expect_exit 2 "$PSTENCIL" bench --bogus=1
expect_err "unknown option '--bogus=1'"
expect_exit 2 "$PSTENCIL" validate --threads=0
expect_err "threads: 0 is out of range"
expect_exit 2 "$PSTENCIL" validate --mode=sloppy
expect_err "unknown mode 'sloppy'"
expect_exit 2 "$PSTENCIL" validate --list-cases=1
expect_err "option --list-cases takes no value"
expect_exit 2 "$PSTENCIL" validate stray
expect_err "unexpected argument 'stray'"
expect_exit 2 "$PSTENCIL" plot bench --format=gif x.csv
expect_err "format: 'gif'"

# a tiny validation and a tiny benchmark with every value given as --opt=VALUE
expect_exit 0 "$PSTENCIL" validate --backend=openmp --stencil=diffusion7 --case=tiny-3x3x3 \
  --steps=1 --threads=2 --precision=double --mode=exact
grep -Eq '^tiny-3x3x3 +bitwise' "$TMP/out" || { cat "$TMP/out"; fail "validate with --opt=VALUE"; }
expect_exit 0 "$PSTENCIL" gen -o "$TMP/small.nc" --scale 0.05
expect_exit 0 "$PSTENCIL" bench --backend=reference --input="$TMP/small.nc" --steps=2 --repeat=1 \
  --scales=none --dram-mb=16 --threads=1 --csv="$TMP/b.csv"
[ "$(grep -c ',steps,reference,' "$TMP/b.csv")" -eq 1 ] || fail "bench with --opt=VALUE: $(cat "$TMP/b.csv")"
grep -q '^[^,]*,[^,]*,[^,]*,2,' "$TMP/b.csv" || fail "bench --steps=2 not applied"

# every option listed in a --help is accepted: "--opt=" or "--opt" followed by
# an unknown option must fail on the unknown one (nothing runs), never on --opt
for cmd in run stencils gen summary compare backends validate bench "plot slice" "plot diff" \
           "plot animate" "plot cube" "plot bench"; do
  # shellcheck disable=SC2086
  "$PSTENCIL" $cmd --help >"$TMP/help" 2>&1 || fail "$cmd --help failed"
  opts=$(grep -E '^ +-' "$TMP/help" | grep -oE -- '--[a-zA-Z][a-zA-Z0-9_-]*' | sort -u)
  ! grep -Eq 'desig[n][.]md|[.][.]/share[d]' "$TMP/help" || fail "$cmd --help cites a file that is not shipped"
  [ -n "$opts" ] || [ "$cmd" = stencils ] || [ "$cmd" = backends ] || fail "$cmd --help lists no options"
  for o in $opts; do
    [ "$o" = --help ] && continue
    # shellcheck disable=SC2086
    "$PSTENCIL" $cmd "$o=" --no-such-option-x </dev/null >/dev/null 2>"$TMP/err"
    if grep -q "unknown option '$o=" "$TMP/err"; then
      # shellcheck disable=SC2086
      "$PSTENCIL" $cmd "$o" --no-such-option-x </dev/null >/dev/null 2>"$TMP/err"
    fi
    if grep -Eq "unknown option '$o('|=)" "$TMP/err"; then
      fail "'pstencil $cmd --help' lists $o, which $cmd rejects: $(cat "$TMP/err")"
    fi
  done
done

# --scale (a job option): the built-in ocean at S times its resolution, as gen makes
# it; refused with an input or out of range, with no output written
expect_exit 0 "$PSTENCIL" gen -o "$TMP/g.nc" --scale 0.3
expect_exit 0 "$PSTENCIL" run "$TMP/g.nc" -n 3 -o "$TMP/a.nc" --no-progress
grep -q "grid        : 50 x 67 x 72 " "$TMP/out" || fail "the generated file's grid: $(cat "$TMP/out")"
gsum=$(sed -n 's/.*checksum    : \(0x[0-9a-f]*\).*/\1/p' "$TMP/out")
expect_exit 0 "$PSTENCIL" run --scale 0.3 -n 3 -o "$TMP/b.nc" --no-progress
grep -q "grid        : 50 x 67 x 72 " "$TMP/out" || fail "run --scale 0.3: $(cat "$TMP/out")"
[ "$(sed -n 's/.*checksum    : \(0x[0-9a-f]*\).*/\1/p' "$TMP/out")" = "$gsum" ] ||
  fail "run --scale 0.3 differs from running gen --scale 0.3's file"
for bad in "--scale 0" "--scale 1001" "--scale x" "$TMP/g.nc --scale 2"; do
  # shellcheck disable=SC2086
  expect_exit 2 "$PSTENCIL" run $bad -n 1 -o "$TMP/c.nc" --no-progress
  grep -q "scale" "$TMP/err" || fail "run $bad: the error does not name --scale"
  [ ! -e "$TMP/c.nc" ] || fail "run $bad wrote an output"
done

# no doc, header or help text cites a design file that is not in the tree
hits=$(grep -rlE 'desig[n][.]md|[.][.]/share[d]' "$top_srcdir/docs" "$top_srcdir/README.md" \
  "$top_srcdir/core" "$top_srcdir/io" "$top_srcdir/plot" "$top_srcdir/cli" "$top_srcdir/bench" \
  "$top_srcdir/validate" "$top_srcdir/kernels" "$top_srcdir/backends" 2>/dev/null)
[ -z "$hits" ] || fail "files cite the private design notes: $hits"
exit 0

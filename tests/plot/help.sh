#!/bin/sh
# The help of every plot subcommand is accurate: each option it lists is
# accepted by that subcommand; plot diff lists no --vmin (it refuses one),
# --vmax once, and only the diverging colour maps it uses (no other map
# draws without a replacement warning); options a subcommand does not have
# are refused.
. "$top_srcdir/tests/lib.sh"
command -v ncgen >/dev/null 2>&1 || skip "ncgen is not installed"
cd "$TMP" || fail "cd"
ncgen -o small.nc "$top_srcdir/tests/data/plot_small.cdl" || fail "ncgen plot_small"
value() {
  case $1 in
    --cmap) echo rdbu ;; --plotly) echo cdn ;; --lon | --lat) echo "-1:1" ;;
    --var) echo thetao ;; --data-file | --data_file) echo small.nc ;; --output) echo x ;;
    --width | --height | --max-cells) echo 500 ;;
    *) echo 1 ;;
  esac
}
for sub in slice diff animate cube; do
  expect_exit 0 "$PSTENCIL" plot $sub --help
  cp "$TMP/out" "help_$sub.txt"
  # the option column: "  --a X, --b Y   text"
  opts=$(sed -n 's/^  \(-[^ ].\{0,20\}\).*/\1/p' "help_$sub.txt" | grep -o -- '--[a-z_-]*' | sort -u)
  [ -n "$opts" ] || fail "no options found in plot $sub --help"
  for o in $opts; do
    case $o in --help | --force) set -- "$o" ;; *) set -- "$o" "$(value "$o")" ;; esac
    "$PSTENCIL" plot $sub "$@" --help >/dev/null 2>"$TMP/err" ||
      { cat "$TMP/err"; fail "plot $sub --help lists $o, which plot $sub refuses"; }
  done
  # the aliases its help names
  for o in $(grep -o -- '(alias --[a-z_-]*' "help_$sub.txt" | sed 's/(alias //'); do
    "$PSTENCIL" plot $sub "$o" 1 --help >/dev/null 2>&1 || fail "plot $sub: alias $o refused"
  done
done
grep -q -- "--vmin" help_diff.txt && fail "plot diff --help mentions --vmin, which plot diff refuses"
[ "$(grep -c -- '--vmax' help_diff.txt)" -eq 1 ] || fail "plot diff --help lists --vmax $(grep -c -- '--vmax' help_diff.txt) times"
expect_exit 2 "$PSTENCIL" plot diff small.nc small.nc --vmin 1 -o v.png
expect_err "give --vmax only"
expect_exit 2 "$PSTENCIL" plot animate small.nc --lon -1:1 -o a.html
expect_err "options of plot slice and plot diff"
grep -q -- "--lon" help_animate.txt && fail "plot animate --help lists --lon"

"$PSTENCIL" plot slice small.nc -o probe.png >/dev/null 2>"$TMP/err"
grep -q "without PLplot" "$TMP/err" && exit 0
maps=$(sed -n 's/.*diverging colour map: \([^(]*\) (default.*/\1/p' help_diff.txt | tr -d ',')
[ -n "$maps" ] || fail "plot diff --help names no colour map"
for m in $maps; do
  expect_exit 0 "$PSTENCIL" plot diff small.nc small.nc --cmap "$m" -o "d_$m.svg"
  grep -q "not a diverging" "$TMP/err" && fail "plot diff --help offers --cmap $m, which it replaces"
done
exit 0

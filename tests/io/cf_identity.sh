#!/bin/sh
# An output keeps its input's identity (issue 28 point 2): a variable keeps
# the standard_name its input gives and gets none it does not give (SALT in
# PPT is not a temperature; Levitus' TEMP, named only "TEMPERATURE", is not
# called potential temperature); only the built-in ocean, which is
# potential temperature, says so. A depth axis (metres, values >= 0 or
# positive = "down") is named depth with axis = "Z" and positive = "down";
# a height (positive = "up") is named height. Ferret's `edges`, which names
# a variable the output does not hold, is not copied; an output of a real
# input without a title gets one (CF 2.6.2). Inputs: tests/data/levitus.cdl
# and tests/data/cf_cdo.cdl.
. "$top_srcdir/tests/lib.sh"
command -v ncgen >/dev/null 2>&1 || skip "ncgen is not installed"
command -v ncdump >/dev/null 2>&1 || skip "ncdump is not installed"
cd "$TMP" || fail "cd"
ncgen -o lev.nc "$top_srcdir/tests/data/levitus.cdl" || fail "ncgen levitus"
ncgen -o cdo.nc "$top_srcdir/tests/data/cf_cdo.cdl" || fail "ncgen cf_cdo"

# att FILE VAR NAME: the text of attribute VAR:NAME, empty when absent
att() {
  ncdump -h "$1" | sed -n "s/^[[:space:]]*$2:$3 = \"\(.*\)\" ;\$/\1/p"
}
has_att() { ncdump -h "$1" | grep -Eq "^[[:space:]]*$2:$3 = "; }

expect_exit 0 "$PSTENCIL" run lev.nc -o t.nc --steps 2 -q
expect_exit 0 "$PSTENCIL" run lev.nc --var SALT -o s.nc --steps 2 -q
expect_exit 0 "$PSTENCIL" run cdo.nc -o c.nc --steps 2 -q
expect_exit 0 "$PSTENCIL" run -o b.nc --steps 2 -q

! has_att s.nc SALT standard_name || fail "SALT got a standard_name: $(att s.nc SALT standard_name)"
[ "$(att s.nc SALT long_name)" = SALINITY ] || fail "SALT lost its long_name"
! has_att t.nc TEMP standard_name || fail "TEMP got a standard_name: $(att t.nc TEMP standard_name)"
[ "$(att t.nc TEMP long_name)" = TEMPERATURE ] || fail "TEMP lost its long_name"
[ "$(att c.nc thetao standard_name)" = sea_water_potential_temperature ] ||
  fail "the input's standard_name was not kept"
[ "$(att b.nc thetao standard_name)" = sea_water_potential_temperature ] ||
  fail "the built-in ocean's output lost its standard_name"

for f in t.nc s.nc; do
  [ "$(att $f ZAXLEVITR standard_name)" = depth ] || fail "$f: depth axis has no standard_name depth"
  [ "$(att $f ZAXLEVITR axis)" = Z ] || fail "$f: depth axis has no axis Z"
  [ "$(att $f ZAXLEVITR positive)" = down ] || fail "$f: depth axis has no positive down"
  [ -n "$(att $f ZAXLEVITR long_name)" ] || fail "$f: depth axis has no long_name"
  ! has_att $f ZAXLEVITR edges || fail "$f: the dangling edges attribute was copied"
  [ -n "$(att $f "" title)" ] || fail "$f: no global title"
done
[ "$(att c.nc lev standard_name)" = height ] || fail "a height axis is not named height"
[ "$(att c.nc lev positive)" = up ] || fail "a height axis lost positive = up"

# a depth axis with no positive attribute, values >= 0: positive = "down" is added
sed -e '/ZAXLEVITR:positive/d' -e '/ZAXLEVITR:long_name/d' "$top_srcdir/tests/data/levitus.cdl" > np.cdl
ncgen -o np.nc np.cdl || fail "ncgen np"
expect_exit 0 "$PSTENCIL" run np.nc -o np_o.nc --steps 1 -q
[ "$(att np_o.nc ZAXLEVITR positive)" = down ] || fail "positive = down not added"
# a depth axis with no axis attribute (told by positive): axis = "Z" is added
sed -e '/ZAXLEVITR:axis/d' "$top_srcdir/tests/data/levitus.cdl" > na.cdl
ncgen -o na.nc na.cdl || fail "ncgen na"
expect_exit 0 "$PSTENCIL" run na.nc -o na_o.nc --steps 1 -q
[ "$(att na_o.nc ZAXLEVITR axis)" = Z ] || fail "axis = Z not added"
exit 0

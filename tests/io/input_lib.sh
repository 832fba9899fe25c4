# Helpers for the input-check tests (sourced after tests/lib.sh): crafted
# files made with ncgen, and every command that reads an input run on them.
command -v ncgen >/dev/null 2>&1 || skip "ncgen is not installed"
cd "$TMP" || fail "cd"
mkdir o || fail "mkdir"

# 2 records x 3 depths x 3 latitudes x 4 longitudes, no land
OK_DATA=$(seq -s, 1 72 | sed 's/,/, /g')

# mk NAME [KEY=VALUE...]: NAME.nc, a small CF file; KEY is one of lat, lon,
# depth, time (the values), tunits (time units; "none": no units attribute),
# data (the 72 values of thetao)
mk() {
  _n=$1; shift
  lat="50, 51, 52"; lon="0, 1, 2, 3"; depth="1, 10, 100"; time="0, 1"
  tunits="days since 2000-01-01"; data=$OK_DATA
  for _kv; do
    _k=${_kv%%=*}; _v=${_kv#*=}
    eval "$_k=\$_v"
  done
  if [ "$tunits" = none ]; then _tu=""; else _tu="time:units = \"$tunits\" ;"; fi
  cat > "$_n.cdl" <<CDL
netcdf $_n {
dimensions: time = UNLIMITED ; depth = 3 ; lat = 3 ; lon = 4 ;
variables:
  double time(time) ; $_tu time:standard_name = "time" ;
  float depth(depth) ; depth:units = "m" ; depth:positive = "down" ;
  double lat(lat) ; lat:units = "degrees_north" ; lat:standard_name = "latitude" ;
  double lon(lon) ; lon:units = "degrees_east" ; lon:standard_name = "longitude" ;
  float thetao(time, depth, lat, lon) ;
    thetao:standard_name = "sea_water_potential_temperature" ; thetao:units = "degC" ;
    thetao:_FillValue = 1.e+20f ;
data:
  time = $time ; depth = $depth ; lat = $lat ; lon = $lon ;
  thetao = $data ;
}
CDL
  ncgen -o "$_n.nc" "$_n.cdl" || fail "ncgen $_n"
}

# nothing_left WHAT: o/ holds no file, visible or hidden
nothing_left() { [ -z "$(ls -A o)" ] || { ls -la o; fail "$1 left files behind"; }; }

# refused CMD...: exit 2, stderr matching $PAT, nothing in o/
refused() {
  expect_exit 2 "$@"
  expect_err "$PAT"
  grep -q "^pstencil: error: " "$TMP/err" || { cat "$TMP/err"; fail "no 'pstencil: error:' from $*"; }
  nothing_left "$*"
}

mk ok
PLPLOT=1
"$PSTENCIL" plot slice ok.nc -o o/probe.png >/dev/null 2>&1 || PLPLOT=
rm -f o/probe.png

# run_refuses FILE: run with every stencil, and bench --input, refuse FILE
run_refuses() {
  for _s in diffusion7 hdiff smooth2; do
    refused "$PSTENCIL" run "$1" -s "$_s" -o o/run.nc -n 2 --output-every 1 -q
  done
  refused "$PSTENCIL" bench --input "$1" --backend reference --steps 2 --repeat 1 \
    --scales none --csv o/b.csv --json o/b.json
}

# plots_refuse FILE: every picture of FILE (and of ok.nc against it) is refused
plots_refuse() {
  if [ -n "$PLPLOT" ]; then
    # record 0, where the files made here hold what is refused (the images
    # draw the last record by default)
    refused "$PSTENCIL" plot slice "$1" --time 0 -o o/s.png
    refused "$PSTENCIL" plot diff ok.nc "$1" --time 0 -o o/d.png
    refused "$PSTENCIL" plot diff "$1" ok.nc --time 0 -o o/d.png
  fi
  refused "$PSTENCIL" plot animate "$1" -o o/a.html --plotly cdn
  refused "$PSTENCIL" plot cube "$1" -o o/c.html --plotly cdn
}

# all_refuse FILE: every command that reads an input refuses FILE
all_refuse() {
  run_refuses "$1"
  plots_refuse "$1"
  refused "$PSTENCIL" summary "$1"
  refused "$PSTENCIL" compare ok.nc "$1"
  refused "$PSTENCIL" compare "$1" ok.nc
}

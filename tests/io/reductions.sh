#!/bin/sh
# The reductions in an output equal an independent computation from its
# ncdump'd values (Python: the cell volumes of docs/model.md in the same
# operations, the content and volume as exact rational sums rounded once,
# the mean their quotient, min and max), every record, for hdiff in double
# and diffusion7 in float on a small built-in ocean and on cells that cancel
# catastrophically (1e30, 1, -1e30 in a row); an input without coordinates
# weighs every cell 1 (volume = cell count, units "1", the reason in the
# comment); the attributes (units, cell_methods, long_name);
# and a run continued with --continue writes, record for record, the values
# one run writes.
. "$top_srcdir/tests/lib.sh"
PY=${PS_TEST_PYTHON:-/usr/bin/python3}
[ -x "$PY" ] || PY=$(command -v python3 || true)
[ -n "$PY" ] || skip "no python3"
for t in ncdump ncgen; do
  command -v $t >/dev/null 2>&1 || skip "$t is not installed"
done
cd "$TMP" || fail "cd"
V=thetao_content,thetao_volume,thetao_mean,thetao_min,thetao_max

# check FILE: recompute every record's reductions from the file's own values
check() {
  ncdump -p 17,17 "$1" > "$1.cdl" || fail "ncdump $1"
  "$PY" - "$1.cdl" <<'PYEOF' || fail "$1: the reductions differ from the independent computation"
import math, re, struct, sys
from fractions import Fraction
text = open(sys.argv[1]).read()
data = text[text.index("\ndata:"):]
def values(name):
    m = re.search(r"\n %s =\s*(.*?);" % name, data, re.S)
    if not m:
        return None
    return [None if v.strip() == "_" else float(v) for v in m.group(1).split(",")]
head = text[:text.index("\ndata:")]
dims = dict((d, int(n)) for d, n in re.findall(r"\t(\w+) = (\d+) ;", head))
dz, dy, dx = re.search(r"\s\w+ thetao\(time, (\w+), (\w+), (\w+)\)", head).groups()
nz, ny, nx = dims[dz], dims[dy], dims[dx]
time = values("time")
T = values("thetao")
z, lat, lon = values(dz), values(dy), values(dx)
# cells weighing 1 (no usable coordinates): the volume is a count, units "1"
unit = 'thetao_volume:units = "1"' in head
nrec = len(T) // (nz * ny * nx)
assert nrec == len(time) and nrec >= 2, (nrec, len(time))
if not unit:
    R, deg = 6371000.0, math.pi / 180.0
    rr = (R * R) * (abs((lon[-1] - lon[0]) / (nx - 1)) * deg)
    def h(k):
        if k == 0: return z[1] - z[0]
        if k == nz - 1: return z[-1] - z[-2]
        return (z[k + 1] - z[k - 1]) / 2.0
    def w(j):
        if j == 0: return (lat[1] - lat[0]) * deg
        if j == ny - 1: return (lat[-1] - lat[-2]) * deg
        return (lat[j + 1] - lat[j - 1]) / 2.0 * deg
    vol = [[(rr * math.cos(lat[j] * deg)) * abs(w(j)) * abs(h(k)) for j in range(ny)]
           for k in range(nz)]
else:
    vol = [[1.0] * ny for k in range(nz)]
got = dict((s, values("thetao_" + s)) for s in ("content", "volume", "mean", "min", "max"))
bad = 0
for r in range(nrec):
    c = Fraction(0); v = Fraction(0); ocean = []
    for k in range(nz):
        for j in range(ny):
            V = vol[k][j]
            for i in range(nx):
                t = T[((r * nz + k) * ny + j) * nx + i]
                if t is None:
                    continue
                c += Fraction(V * t)  # one double multiply, then exact
                v += Fraction(V)
                ocean.append(t)
    want = {"content": float(c), "volume": float(v), "min": min(ocean), "max": max(ocean)}
    want["mean"] = want["content"] / want["volume"]
    for s in want:
        if repr(got[s][r]) != repr(want[s]):
            print("record %d: %s %r, independently %r" % (r, s, got[s][r], want[s]))
            bad += 1
print("%d records, %d ocean cells each: content, volume, mean, min and max as computed here"
      % (nrec, len(ocean)))
sys.exit(1 if bad else 0)
PYEOF
}

expect_exit 0 "$PSTENCIL" gen --scale 0.1 -o in.nc
expect_exit 0 "$PSTENCIL" run in.nc --stencil hdiff --precision double -n 4 --output-every 2 -o hd.nc
check hd.nc
# float32 fields: each term is the float's value times V
expect_exit 0 "$PSTENCIL" run in.nc --stencil diffusion7 -n 3 --output-every 3 -o d7.nc
check d7.nc

# the attributes
ncdump -h hd.nc > h.txt
for want in 'thetao_content:units = "degrees_C m3"' 'thetao_volume:units = "m3"' \
            'thetao_mean:units = "degrees_C"' 'thetao_volume:standard_name = "sea_water_volume"' \
            'thetao_mean:standard_name = "sea_water_potential_temperature"' \
            'thetao_content:cell_methods = "area: depth: sum where sea"' \
            'thetao_mean:cell_methods = "area: depth: mean where sea"' \
            'thetao_min:cell_methods = "area: depth: minimum where sea"' \
            'thetao_max:cell_methods = "area: depth: maximum where sea"' \
            'double thetao_mean(time)' 'thetao_mean:long_name = '; do
  grep -qF "$want" h.txt || { grep thetao_ h.txt >&2; fail "no $want"; }
done

# no coordinates: every cell weighs 1, and the file says why
ncgen -o idx.nc "$top_srcdir/tests/data/cf_indices.cdl" || fail "ncgen cf_indices"
expect_exit 0 "$PSTENCIL" run idx.nc -n 2 --output-every 1 -o idx_out.nc
check idx_out.nc
ncdump -h idx_out.nc > i.txt
grep -qF 'thetao_volume:units = "1"' i.txt || fail "unit weights: volume units not 1"
grep -qF 'thetao_content:units = "degC"' i.txt || fail "unit weights: content units not degC"
grep -q 'thetao_volume:comment = .*no usable coordinates' i.txt ||
  { grep thetao_volume i.txt >&2; fail "unit weights: the comment does not say why"; }
grep -q 'sea_water_volume' i.txt && fail "a cell count called sea_water_volume"
# catastrophic cancellation within a row (1e30, 1, -1e30: 1 exactly, 0 summed in
# order), on boundary cells, which keep their values
cat > cancel.cdl <<'CDL'
netcdf cancel {
dimensions:
	depth = 3 ;
	lat = 3 ;
	lon = 3 ;
variables:
	float thetao(depth, lat, lon) ;
		thetao:units = "degC" ;
		thetao:_FillValue = 1.e+20f ;
		thetao:valid_min = -1.e+31f ;
		thetao:valid_max = 1.e+31f ;
data:
 thetao =
  1e30, 1, -1e30,  2, 3, 4,  -1e30, 0.5, 1e30,
  7, 8, 9,  10, 11, 12,  13, _, 15,
  1e25, 1e-3, -1e25,  3e-7, 17, -2e20,  2e20, 1e-30, 1 ;
}
CDL
ncgen -o cancel.nc cancel.cdl || fail "ncgen cancel"
expect_exit 0 "$PSTENCIL" run cancel.nc -n 1 --output-every 1 -o cancel_out.nc
check cancel_out.nc

# --continue: the records of a chain carry the values one run writes
expect_exit 0 "$PSTENCIL" run in.nc --stencil hdiff -n 4 --output-every 1 -o all.nc
expect_exit 0 "$PSTENCIL" run in.nc --stencil hdiff -n 2 --output-every 1 -o part1.nc
expect_exit 0 "$PSTENCIL" run --continue part1.nc -n 2 --output-every 1 -o part2.nc
series() { ncdump -v $V -p 17,17 "$1" | tr -d '\n' | sed 's/.*data://; s/[ }]//g'; }
"$PY" - "$(series all.nc)" "$(series part1.nc)" "$(series part2.nc)" <<'PYEOF' ||
import sys
def parse(s):
    out = {}
    for item in s.strip(";").split(";"):
        if "=" in item:
            k, v = item.split("=")
            out[k] = v.split(",")
    return out
a, p1, p2 = (parse(s) for s in sys.argv[1:4])
ok = all(a[k] == p1[k] + p2[k] for k in a) and len(a["thetao_mean"]) == 5
print("one run %s; the chain %s + %s" % (a["thetao_mean"], p1["thetao_mean"], p2["thetao_mean"]))
sys.exit(0 if ok else 1)
PYEOF
  fail "a continued run's reductions are not one run's"
exit 0

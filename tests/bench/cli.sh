#!/bin/sh
# pstencil bench: a tiny run (reference backend, 2 steps, 2 repeats, a small
# ocean) writes a CSV whose header starts with the course's columns and whose
# rows parse, a JSON that parses, and valid PNG plots; bad options fail with
# a reason; existing outputs are refused before measuring unless --force.
# Formats only: nothing here is timed.
. "$top_srcdir/tests/lib.sh"

# a small input file (step scaling on --input; grid scaling on the built-in ocean)
expect_exit 0 "$PSTENCIL" gen -o "$TMP/small.nc" --scale 0.1

expect_exit 0 env OMP_PROC_BIND=close "$PSTENCIL" bench --backend reference --input "$TMP/small.nc" --steps 2,3 --repeat 2 --scales 0.1 \
  --grid-steps 2 --dram-mb 64 --csv "$TMP/b.csv" --json "$TMP/b.json" --plot "$TMP/plots"
cp "$TMP/out" "$TMP/table"
cp "$TMP/err" "$TMP/err.plots"
grep -q "pstencil reference float32" "$TMP/table" || fail "no table on stdout"
grep -q "measured copy bound" "$TMP/table" || fail "no measured copy bound on stdout"
grep -q "spread" "$TMP/table" || fail "no repeat-to-repeat spread reported"
grep -Eq "^machine: [0-9]+ packages?, .* cores, [0-9]+ CPUs" "$TMP/table" || fail "no machine description"
grep -Eq "^threads: [0-9]+ threads? on CPUs? .*OMP_PROC_BIND=close" "$TMP/table" || fail "no thread placement"

# CSV: the course's columns first, then ours; 2 step rows + 1 grid row, all fields
head -1 "$TMP/b.csv" | grep -q '^gpu_name,cpu_name,method,num_timesteps,mean_time_sec,std_dev_sec,' ||
  fail "CSV header does not start with the course's columns: $(head -1 "$TMP/b.csv")"
nrows=$(($(wc -l <"$TMP/b.csv") - 1))
[ "$nrows" -eq 3 ] || fail "expected 3 CSV rows, got $nrows"
awk -F, 'NR == 1 { n = NF; for (i = 1; i <= NF; i++) c[$i] = i; next }
  NF != n { print "row " NR ": " NF " fields, header has " n; bad = 1 }
  $c["num_timesteps"] !~ /^[0-9]+$/ { print "row " NR ": num_timesteps " $c["num_timesteps"]; bad = 1 }
  !($c["mean_time_sec"] > 0) || !($c["step_ms"] > 0) || !($c["cells_per_s"] > 0) { print "row " NR ": times"; bad = 1 }
  $c["std_dev_sec"] !~ /^[0-9.e+-]+$/ { print "row " NR ": std " $c["std_dev_sec"]; bad = 1 }
  $c["bound_gbps"] !~ /^[0-9.e+-]+$/ || !($c["bound_fraction"] > 0) { print "row " NR ": no bound for a CPU backend"; bad = 1 }
  $c["backend"] != "reference" || $c["precision"] != "float32" { print "row " NR ": backend/precision"; bad = 1 }
  $c["bytes_per_step"] != 2 * 4 * $c["cells"] { print "row " NR ": bytes_per_step " $c["bytes_per_step"]; bad = 1 }
  END { exit bad }' "$TMP/b.csv" || fail "CSV rows do not parse"
grep -q '^[^,]*,[^,]*,[^,]*,2,' "$TMP/b.csv" || fail "no 2-step row"
grep -q ',grid,reference,' "$TMP/b.csv" || fail "no grid-scaling row"

# JSON parses and holds the machine and the rows
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
if command -v "$PY" >/dev/null 2>&1; then
  "$PY" - "$TMP/b.json" <<'PYEOF' || fail "JSON does not parse or lacks fields"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["machine"]["cpu_name"] and d["machine"]["cpus_online"] >= 1
assert d["machine"]["pstencil_version"] and d["machine"]["date"]
assert len(d["rows"]) == 3 and len(d["rows"][0]["step_loop_s"]) == 2
assert d["copy_bounds"] and d["copy_bounds"][0]["best_gbps"] > 0
# the machine's layout (hwloc or /sys) and where OpenMP's threads ran
t = d["machine"]["topology"]
assert t["pus"] == d["machine"]["cpus_online"] and 1 <= t["cores"] <= t["pus"], t
assert all(c["bytes"] > 0 and c["count"] >= 1 for c in t["caches"]), t
p = d["machine"]["thread_placement"]
assert p["threads"] >= 1 and len(p["cpu"]) == p["threads"] and min(p["cpu"]) >= 0, p
assert p["OMP_PROC_BIND"] == "close" and p["policy"] == "close", p
PYEOF
fi

# plots: valid PNG files (or a clear message without PLplot)
if grep -q "without PLplot" "$TMP/err"; then
  echo "PLplot not built: plot check skipped"
else
  n=0
  for p in "$TMP"/plots/bench_*.png; do
    [ -f "$p" ] || fail "no plots written"
    [ "$(head -c 8 "$p" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "$p is not a PNG"
    n=$((n + 1))
  done
  [ "$n" -ge 3 ] || fail "expected at least 3 plots, got $n"
  # re-plot from the CSV alone
  expect_exit 0 "$PSTENCIL" bench --replot "$TMP/b.csv" --plot "$TMP/replot" --format svg
  [ -s "$TMP/replot/bench_runtime_steps.svg" ] || fail "no SVG from --replot"
fi

# bad input: a reason and exit 2, nothing written
expect_exit 2 "$PSTENCIL" bench --steps 0
expect_err "steps"
expect_exit 2 "$PSTENCIL" bench --backend nosuch
expect_err "unknown backend 'nosuch'"
expect_exit 2 "$PSTENCIL" bench --precision half
expect_err "precision"
expect_exit 2 "$PSTENCIL" bench --scales 0.5,-1
expect_err "scales"
expect_exit 2 "$PSTENCIL" bench --backend reference --csv "$TMP/no/such/dir/x.csv"
expect_err "no/such/dir.*No such file"
expect_exit 2 "$PSTENCIL" bench --backend reference --input "$TMP/missing.nc"
expect_err "missing.nc"

# outputs go through core/ps_outfile.h: an existing CSV, JSON or plot is
# refused before anything is measured (no table on stdout), untouched, unless
# --force; the input is never an output; no temporary file is left behind
cksum "$TMP/b.csv" "$TMP/b.json" >"$TMP/sums"
expect_exit 2 "$PSTENCIL" bench --backend reference --input "$TMP/small.nc" --steps 2 --repeat 1 \
  --scales none --dram-mb 16 --csv "$TMP/b.csv"
expect_err "b.csv exists; use --force"
[ ! -s "$TMP/out" ] || fail "bench measured before refusing an existing --csv: $(cat "$TMP/out")"
expect_exit 2 "$PSTENCIL" bench --backend reference --input "$TMP/small.nc" --steps 2 --repeat 1 \
  --scales none --dram-mb 16 --json="$TMP/b.json"
expect_err "b.json exists; use --force"
expect_exit 2 "$PSTENCIL" bench --backend reference --input "$TMP/small.nc" --csv "$TMP/small.nc"
expect_err "is the input file"
expect_exit 2 "$PSTENCIL" bench --backend reference --csv "$TMP/same" --json "$TMP/same"
expect_err "same file"
cksum "$TMP/b.csv" "$TMP/b.json" | cmp -s - "$TMP/sums" || fail "a refused bench changed its outputs"
if ! grep -q "without PLplot" "$TMP/err.plots" 2>/dev/null && [ -f "$TMP/plots/bench_runtime_steps.png" ]; then
  expect_exit 2 "$PSTENCIL" bench --backend reference --input "$TMP/small.nc" --steps 2 --repeat 1 \
    --scales none --dram-mb 16 --plot "$TMP/plots"
  expect_err "bench_runtime_steps.png exists; use --force"
  expect_exit 2 "$PSTENCIL" plot bench "$TMP/b.csv" -o "$TMP/plots"
  expect_err "exists; use --force"
  expect_exit 0 "$PSTENCIL" plot bench "$TMP/b.csv" -o "$TMP/plots" --force
fi
expect_exit 0 "$PSTENCIL" bench --backend reference --input "$TMP/small.nc" --steps 3 --repeat 1 \
  --scales none --dram-mb 16 --csv "$TMP/b.csv" --json "$TMP/b.json" --force
grep -q '^[^,]*,[^,]*,[^,]*,3,' "$TMP/b.csv" || fail "--force did not replace the CSV"
[ "$(grep -c ',steps,reference,' "$TMP/b.csv")" -eq 1 ] || fail "--force appended instead of replacing"
leftover=$(find "$TMP" -name '.*.tmp.*')
[ -z "$leftover" ] || fail "temporary files left behind: $leftover"

printf 'a,b\n1,2\n' >"$TMP/bad.csv"
expect_exit 2 "$PSTENCIL" bench --replot "$TMP/bad.csv" --plot "$TMP/badplots"
expect_err "gpu_name"
[ ! -e "$TMP/badplots/bench_runtime_steps.png" ] || fail "plots written from a bad CSV"
exit 0

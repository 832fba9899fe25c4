#!/bin/sh
# A run's peak resident set (the report's memory.host_peak_rss_mib) grows by
# at most a budget of bytes a cell, float32, diffusion7, 2 threads, 16 steps
# in calls of 8 (the fused sweeps and their scratch in use): the growth
# between the built-in ocean at scales 1.5 and 2.5 (6.0 M and 16.7 M cells)
# divided by the cells added, so the process's fixed part (libraries, a
# backend's runtime) drops out; the fixed part is bounded too. Grids this
# large: the read's freed memory, which malloc hands out again, would hide a
# byte a cell on smaller ones. The field is held once: the backend steps the
# job's field in place (memory.in_place).
#   openmp: 10 bytes a cell: the field (4), the context's other field (4),
#     zero-land's count bytes (1), the land bits (1/8), and the per-level
#     buffers of the reader and the writer (about 0.3 at 50 levels); a fixed
#     part of at most 32 MiB (the fused sweep's scratch is a thread's cache
#     share).
#   opencl on a CPU device (PoCL; skipped elsewhere): 10 bytes a cell too, the
#     same parts (its buffer on the field is CL_MEM_USE_HOST_PTR, land's flag
#     and NaN index in the count byte); a fixed part of at most 128 MiB (the
#     OpenCL runtime, LLVM's pages, the wavefront's scratch per compute unit).
# The rule: docs/architecture.md ("Memory"); figures at 43 M cells:
# docs/performance.md ("peak RSS").
. "$top_srcdir/tests/lib.sh"
skip_under_sanitizer "the sanitizers' shadow memory is resident too"
"$PSTENCIL" gen --scale 1.5 -o "$TMP/a.nc" >/dev/null || fail "gen --scale 1.5"
"$PSTENCIL" gen --scale 2.5 -o "$TMP/b.nc" >/dev/null || fail "gen --scale 2.5"
cells_a=$((50 * 333 * 362))
cells_b=$((50 * 555 * 603))

# peak MiB of one run: backend, input
peak() {
  "$PSTENCIL" run --data-file "$2" --backend "$1" --threads 2 --steps 16 --output-every 8 \
    -o "$TMP/out.nc" --force -q --profile "$TMP/p.json" \
    || fail "run --backend $1 on $2"
  v=$(sed -n 's/.*"host_peak_rss_mib": *\([0-9.]*\).*/\1/p' "$TMP/p.json")
  [ -n "$v" ] || fail "no host_peak_rss_mib in the report of $1"
  grep -q '"in_place": *true' "$TMP/p.json" || fail "$1 did not step the field in place"
  echo "$v"
}

# check BACKEND BYTES_PER_CELL FIXED_MIB
check() {
  a=$(peak "$1" "$TMP/a.nc") || exit 1 # peak's own message is on stderr
  b=$(peak "$1" "$TMP/b.nc") || exit 1
  awk -v a="$a" -v b="$b" -v ca="$cells_a" -v cb="$cells_b" -v max="$2" -v fix="$3" \
      -v name="$1" 'BEGIN {
    slope = (b - a) * 1048576 / (cb - ca); fixed = a - slope * ca / 1048576
    printf "peak_rss: %s %.2f bytes a cell (budget %s), fixed %.1f MiB (at most %s); " \
           "peaks %.1f and %.1f MiB\n", name, slope, max, fixed, fix, a, b
    exit !(slope <= max && fixed <= fix) }' \
    || fail "$1: peak RSS over its budget"
}

check openmp 10 32
if "$PSTENCIL" backends 2>/dev/null |
   awk '/^opencl /{o = $0 ~ / ok: /; next} /^[a-z]/{o = 0} o && /type cpu/{f = 1} END{exit !f}'; then
  check opencl 10 128
else
  echo "peak_rss: opencl has no CPU device here: its budget is not checked"
fi
exit 0

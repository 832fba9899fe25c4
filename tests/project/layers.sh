#!/bin/sh
# The layers (docs/architecture.md) hold, in the sources and in the built
# libraries:
#  1. a file includes only headers of its own layer or of the layers below:
#       kernels < core (the engine, with backends/) < io < plot;
#       io < job (the job layer: one run, for every front end);
#       core < validate; bench may use io, job, plot and validate (gpu_bench
#       judges fast mode by validate's bound); mpi (the MPI layer of
#       the program, --enable-mpi) may use io and job; cli may use everything;
#  2. no cycle among the project's headers (a includes b includes ... a);
#  3. libpstencil (the engine) needs neither netCDF nor PLplot nor any other
#     pstencil library; libpstencil-io needs no PLplot; libpstencil-validate
#     neither netCDF nor PLplot nor io;
#  4. a library calls no function of a library above it: every ps_* symbol
#     it leaves undefined is defined by one of the libraries below it;
#  5. MPI is linked only where used: no library needs libmpi directly, and
#     without --enable-mpi nothing built needs it at all.
. "$top_srcdir/tests/lib.sh"
S=$top_srcdir
B=$top_builddir

# ---- 1. includes ------------------------------------------------------------------
# layer of a header found by name in the layer directories (empty: not ours);
# the backend list (backends/ps_backends.h) is header-only data at the bottom,
# like the stencil list in kernels/: the engine's loader reads it
find "$S/kernels" "$S/core" "$S/io" "$S/job" "$S/plot" "$S/validate" "$S/bench" "$S/cli" \
     "$S/backends" "$S/mpi" -name '*.h' 2>/dev/null |
  awk -v s="$S/" '{ f = $0; sub(s, "", f); n = split(f, p, "/"); d = p[1];
                    if (f == "backends/ps_backends.h") d = "kernels"; print p[n], d }' > "$TMP/headers"
[ -s "$TMP/headers" ] || fail "no headers found under $S"
# allowed[layer] = layers it may include from
allowed() {
  case $1 in
    kernels) echo "kernels" ;;
    core) echo "kernels core" ;;
    backends) echo "kernels core backends" ;;
    io) echo "kernels core io" ;;
    plot) echo "kernels core io plot" ;;
    validate) echo "kernels core validate" ;;
    job) echo "kernels core io job" ;;
    bench) echo "kernels core io job plot validate bench" ;;
    mpi) echo "kernels core io job mpi" ;;
    cli) echo "kernels core io job plot validate bench mpi cli" ;;
  esac
}
bad=0
for layer in kernels core io job plot validate bench mpi cli backends; do
  ok=$(allowed "$layer")
  for f in $(find "$S/$layer" \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.hip' \
             -o -name '*.cpp' -o -name '*.inc' \) 2>/dev/null); do
    for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
      base=${h##*/}
      [ "$base" = config.h ] && continue
      hl=$(awk -v h="$base" '$1 == h { print $2; exit }' "$TMP/headers")
      [ -n "$hl" ] || continue # a system or generated header
      case " $ok " in
        *" $hl "*) ;;
        *) echo "layer violation: ${f#$S/} ($layer) includes $h ($hl)"; bad=1 ;;
      esac
    done
  done
done
[ "$bad" -eq 0 ] || fail "a file includes a header of a layer above its own"

# ---- 2. no include cycle among the project's headers --------------------------------
for f in $(find "$S/kernels" "$S/core" "$S/io" "$S/job" "$S/plot" "$S/validate" "$S/bench" \
           "$S/cli" "$S/backends" "$S/mpi" -name '*.h' 2>/dev/null); do
  for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
    echo "${f##*/} ${h##*/}"
  done
done > "$TMP/edges"
awk '
  { adj[$1] = adj[$1] " " $2; node[$1] = 1 }
  function visit(n,   i, k, m) {
    if (state[n] == 1) { cycle = cycle " " n; return 1 }
    if (state[n] == 2) return 0
    state[n] = 1
    k = split(adj[n], m, " ")
    for (i = 1; i <= k; i++)
      if (visit(m[i])) { cycle = cycle " <- " n; return 1 }
    state[n] = 2
    return 0
  }
  END {
    for (n in node)
      if (visit(n)) { print "include cycle:" cycle; exit 1 }
  }' "$TMP/edges" || fail "the headers include each other in a cycle"

# ---- 3. and 4. the built libraries ------------------------------------------------
command -v objdump >/dev/null 2>&1 && command -v nm >/dev/null 2>&1 \
  || skip "objdump or nm is not installed: the libraries' dependencies were not checked"
lib() { echo "$B/$1/.libs/lib$2.so"; }
ENGINE=$(lib core pstencil)
IO=$(lib io pstencil-io)
PLOT=$(lib plot pstencil-plot)
VAL=$(lib validate pstencil-validate)
JOB=$(lib job pstencil-job)
for l in "$ENGINE" "$IO" "$PLOT" "$VAL" "$JOB"; do
  [ -f "$l" ] || skip "$l is not built (static-only build?)"
done
needed() { objdump -p "$1" | awk '$1 == "NEEDED" { print $2 }'; }
needed "$ENGINE" > "$TMP/n.engine"
if grep -Eq 'netcdf|plplot|pstencil' "$TMP/n.engine"; then
  cat "$TMP/n.engine"; fail "libpstencil (the engine) needs: $(grep -E 'netcdf|plplot|pstencil' "$TMP/n.engine" | tr '\n' ' ')"
fi
needed "$IO" > "$TMP/n.io"
grep -q 'plplot' "$TMP/n.io" && fail "libpstencil-io needs PLplot"
grep -q 'pstencil-plot\|pstencil-validate' "$TMP/n.io" && fail "libpstencil-io needs a library above it"
needed "$JOB" > "$TMP/n.job"
grep -Eq 'plplot|pstencil-plot|pstencil-validate|cuda|hip|OpenCL' "$TMP/n.job" &&
  fail "libpstencil-job needs: $(grep -E 'plplot|pstencil-plot|pstencil-validate|cuda|hip|OpenCL' "$TMP/n.job" | tr '\n' ' ')"
needed "$VAL" > "$TMP/n.val"
grep -Eq 'netcdf|plplot|pstencil-io|pstencil-plot' "$TMP/n.val" && fail "libpstencil-validate needs: $(grep -E 'netcdf|plplot|pstencil-' "$TMP/n.val" | tr '\n' ' ')"

defined() { nm -D --defined-only "$1" | awk '$2 ~ /^[TDBRV]$/ && $3 ~ /^ps_/ { print $3 }' | sort -u; }
undefined_ps() { nm -D --undefined-only "$1" | awk '$2 ~ /^ps_/ { print $2 }' | sort -u; }
defined "$ENGINE" > "$TMP/d.engine"
defined "$IO" > "$TMP/d.io"
[ -s "$TMP/d.engine" ] || fail "no ps_ symbol defined in $ENGINE"
# check LIB "LOWER LIBS' defined lists"
check_calls() {
  name=$1; so=$2; shift 2
  cat "$@" /dev/null | sort -u > "$TMP/below"
  undefined_ps "$so" > "$TMP/u"
  comm -23 "$TMP/u" "$TMP/below" > "$TMP/up"
  if [ -s "$TMP/up" ]; then
    cat "$TMP/up"; fail "$name calls functions that no library below it defines"
  fi
}
check_calls libpstencil "$ENGINE"
check_calls libpstencil-io "$IO" "$TMP/d.engine"
check_calls libpstencil-plot "$PLOT" "$TMP/d.engine" "$TMP/d.io"
check_calls libpstencil-validate "$VAL" "$TMP/d.engine"
check_calls libpstencil-job "$JOB" "$TMP/d.engine" "$TMP/d.io"
# ---- 5. MPI only where used --------------------------------------------------------
for l in "$ENGINE" "$IO" "$PLOT" "$VAL" "$JOB"; do
  needed "$l" | grep -q '^libmpi' && fail "${l##*/} links MPI directly (only the program may)"
done
if ! grep -q '^#define PS_HAVE_MPI 1' "$B/config.h" 2>/dev/null; then
  for l in "$ENGINE" "$IO" "$PLOT" "$VAL" "$JOB" "$B/cli/.libs/pstencil" "$B/cli/pstencil"; do
    [ -f "$l" ] && objdump -p "$l" 2>/dev/null | awk '$1 == "NEEDED" { print $2 }' |
      grep -Eq '^libmpi|netcdf_mpi' && fail "${l##*/} needs MPI, but configure had no --enable-mpi"
  done
fi
echo "layers hold: includes, no header cycle, engine links $(tr '\n' ' ' < "$TMP/n.engine")"
exit 0

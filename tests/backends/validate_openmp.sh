#!/bin/sh
# Validate the openmp backend against the oracle (exit 77 if it cannot run
# here): every stencil on the quick cases and the mid-size 17x129x257 grid at
# steps 1, 2, 7, 50 and 1 to 3 threads, fast path and generic skeleton; and
# diffusion7, whose fast path is tuned for it, on the course's full grid size.
# (`pstencil validate --backend openmp` runs every stencil on every case.)
. "$top_srcdir/tests/lib.sh"
quick=$("$PSTENCIL" validate --list-cases | awk '!/not in --quick/ {printf "%s%s", sep, $1; sep=","}')
[ -n "$quick" ] || fail "no quick cases listed"
# the quick suite: steps 1, 2 (fewer than a fused sweep) and 7 (a sweep and
# a remainder); make check-full adds 50 (many sweeps)
if ps_full; then steps=1,2,7,50; big=1,7,50; else steps=1,2,7; big=7; fi
${SHELL:-/bin/sh} "$top_srcdir/tests/backends/validate_backend.sh" openmp --steps $steps \
  --case "$quick,odd-17x129x257" || exit $?
exec ${SHELL:-/bin/sh} "$top_srcdir/tests/backends/validate_backend.sh" openmp --stencil diffusion7 \
  --case ocean-full --steps $big

#!/bin/sh
# The openmp backend honours OMP_NUM_THREADS (its device reports the team size).
. "$top_srcdir/tests/lib.sh"
expect_exit 0 env OMP_NUM_THREADS=3 "$PSTENCIL" backends
grep -A2 '^openmp ' "$TMP/out" | grep -q '3 compute units' || { cat "$TMP/out"; fail "OMP_NUM_THREADS=3 not honoured"; }
expect_exit 0 env OMP_NUM_THREADS=1 "$PSTENCIL" backends
grep -A2 '^openmp ' "$TMP/out" | grep -q '1 compute unit;' || { cat "$TMP/out"; fail "OMP_NUM_THREADS=1 not honoured"; }
exit 0

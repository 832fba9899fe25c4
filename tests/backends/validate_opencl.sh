#!/bin/sh
# Validate the opencl backend against the reference (exit 77 if it cannot run here).
# the quick suite validates the --quick cases (steps 1, 2, 7); make
# check-full every case at every step count
[ "${PS_CHECK_FULL:-}" = 1 ] || set -- --quick
exec ${SHELL:-/bin/sh} "$top_srcdir/tests/backends/validate_backend.sh" opencl "$@" 

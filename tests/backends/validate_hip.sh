#!/bin/sh
# Validate the hip backend against the reference (exit 77 if it cannot run here).
exec ${SHELL:-/bin/sh} "$top_srcdir/tests/backends/validate_backend.sh" hip 

#!/bin/sh
# Validate the opencl backend against the reference (exit 77 if it cannot run here).
exec ${SHELL:-/bin/sh} "$top_srcdir/tests/validate_backend.sh" opencl 

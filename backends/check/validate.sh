#!/bin/sh
# The check backend validated against the reference (tests/validate_backend.sh).
exec ${SHELL:-/bin/sh} "$top_srcdir/tests/validate_backend.sh" check

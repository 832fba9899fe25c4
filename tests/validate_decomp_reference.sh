#!/bin/sh
# The decomposition and out-of-core cases of `pstencil validate --decomp` on reference.
exec ${SHELL:-/bin/sh} "$top_srcdir/tests/validate_decomp.sh" reference

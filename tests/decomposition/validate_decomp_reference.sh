#!/bin/sh
# The decomposition and out-of-core cases of `pstencil validate --decomp` on reference.
exec ${SHELL:-/bin/sh} "$top_srcdir/tests/decomposition/validate_decomp.sh" reference

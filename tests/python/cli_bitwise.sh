#!/bin/sh
# pstencil.run() is bitwise what the program writes, for every stencil, precision and backend that runs here; coordinates and attributes kept.
# (tests/python/test_cli_bitwise.py)
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/python/lib.sh"
ps_pytest test_cli_bitwise.py

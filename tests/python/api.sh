#!/bin/sh
# The Python API: no copy of the input, errors as exceptions with the library's text, the accessor, the listings.
# (tests/python/test_api.py)
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/python/lib.sh"
ps_pytest test_api.py

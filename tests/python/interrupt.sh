#!/bin/sh
# Ctrl-C (SIGINT) during a run from Python stops it within a step batch and raises KeyboardInterrupt, leaking nothing.
# (tests/python/test_interrupt.py)
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/python/lib.sh"
ps_pytest test_interrupt.py

#!/bin/sh
# The course notebook (docs/examples/course.ipynb) executes headless with
# nbclient and ipykernel (skipped without them), and is committed without
# outputs (tests/python/test_notebook.py).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/python/lib.sh"
export top_srcdir
ps_pytest test_notebook.py

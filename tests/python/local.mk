# python: the Python package (python/, docs/python.md). Each test runs a
# pytest file of this folder against the build tree's package, or skips (77)
# when the package was not built.

# pstencil.run() is bitwise what the program writes, every stencil, precision
# and backend that runs here; coordinates and attributes kept; the reductions
# of every record the program's.
TESTS += tests/python/cli_bitwise.sh
# The API: no copy of the input, errors as exceptions with the library's
# text, the accessor, the listings.
TESTS += tests/python/api.sh
# Ctrl-C during a run from Python stops it within a step batch and raises
# KeyboardInterrupt, leaking nothing.
TESTS += tests/python/interrupt.sh
# make install puts the package where the prefix's Python finds it.
TESTS += tests/python/install.sh
# The course notebook (docs/examples/course.ipynb) executes headless.
TESTS += tests/python/notebook.sh

EXTRA_DIST += tests/python/cli_bitwise.sh tests/python/api.sh tests/python/interrupt.sh \
	tests/python/install.sh tests/python/notebook.sh \
	tests/python/lib.sh tests/python/conftest.py tests/python/test_cli_bitwise.py \
	tests/python/test_api.py tests/python/test_interrupt.py \
	tests/python/test_notebook.py

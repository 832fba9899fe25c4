# The Python package (python/, docs/python.md): pytest files under
# tests/python, each run by a tests/python_*.sh wrapper that skips (77) when
# the package was not built.
TESTS += tests/python_cli_bitwise.sh tests/python_api.sh tests/python_interrupt.sh \
	tests/python_install.sh tests/python_notebook.sh
EXTRA_DIST += tests/python_cli_bitwise.sh tests/python_api.sh tests/python_interrupt.sh \
	tests/python_install.sh tests/python_notebook.sh \
	tests/python_lib.sh tests/python/conftest.py tests/python/test_cli_bitwise.py \
	tests/python/test_api.py tests/python/test_interrupt.py \
	tests/python/test_notebook.py

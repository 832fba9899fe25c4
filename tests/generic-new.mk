# Tests of the generic paths and the kernel choice (issue 26).
# --kernel on run, validate and bench; the openmp generic path's fused sweeps
# bitwise the reference and the fast path; bench --stencils' rows.
TESTS += tests/kernel_choice.sh
EXTRA_DIST += tests/kernel_choice.sh
# The openmp generic path (ocean rows) gives the reference's bits when the
# update overflows inside a fused sweep.
check_PROGRAMS += tests/test_generic_overflow
tests_test_generic_overflow_SOURCES = tests/test_generic_overflow.c tests/ps_test.h
tests_test_generic_overflow_LDADD = core/libpstencil.la -lm
TESTS += tests/test_generic_overflow

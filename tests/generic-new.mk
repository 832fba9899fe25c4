# Tests of the generic paths and the kernel choice (issue 26).
# --kernel on run, validate and bench; the openmp generic path's fused sweeps
# bitwise the reference and the fast path; bench --stencils' rows.
TESTS += tests/kernel_choice.sh
EXTRA_DIST += tests/kernel_choice.sh

# opencl tests: the plugin through the loader against the reference for every
# stencil (generic kernels and diffusion7's fast path, whole grids and boxes),
# its variants (each kernel shape, forced work-group shape, float quotient in
# double), and the no-platform case. All skip (77) when the plugin is not built or no
# OpenCL device exists.
check_PROGRAMS += tests/test_opencl tests/test_opencl_speed
tests_test_opencl_SOURCES = tests/test_opencl.c
tests_test_opencl_LDADD = core/libpstencil.la -lm
tests_test_opencl_speed_SOURCES = tests/test_opencl_speed.c
tests_test_opencl_speed_LDADD = core/libpstencil.la -lm
TESTS += tests/test_opencl tests/opencl_variants.sh tests/opencl_no_platform.sh \
	tests/test_opencl_speed
EXTRA_DIST += tests/opencl_variants.sh tests/opencl_no_platform.sh

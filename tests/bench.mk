# Benchmark tests: fast and not timed (they check formats and agreement,
# never speed).
check_PROGRAMS += tests/test_bench_csv
tests_test_bench_csv_SOURCES = tests/test_bench_csv.c
tests_test_bench_csv_LDADD = bench/libps_bench.la core/libpstencil.la -lm
tests_test_bench_csv_LDFLAGS = $(PS_BENCH_LINK)
TESTS += tests/test_bench_csv tests/bench_cli.sh tests/bench_numpy.sh
# bench --roofline (bench/ps_roofline.c)
TESTS += tests/bench_roofline.sh
EXTRA_DIST += tests/bench_roofline.sh
EXTRA_DIST += tests/bench_cli.sh tests/bench_numpy.sh
# The machine description: hwloc and /sys agree; thread placement is recorded.
check_PROGRAMS += tests/test_bench_topo
tests_test_bench_topo_SOURCES = tests/test_bench_topo.c
tests_test_bench_topo_CFLAGS = $(AM_CFLAGS) $(OPENMP_CFLAGS) $(HWLOC_CFLAGS)
tests_test_bench_topo_LDADD = bench/libps_bench.la core/libpstencil.la -lm
tests_test_bench_topo_LDFLAGS = $(PS_BENCH_LINK)
TESTS += tests/test_bench_topo
TESTS += tests/bench_decomp.sh
EXTRA_DIST += tests/bench_decomp.sh
# bench --repeat 1: the spread is n/a, not 0.0% (issue 28 point 7).
TESTS += tests/bench_repeat1.sh
EXTRA_DIST += tests/bench_repeat1.sh

# bench: the benchmark's formats and agreement, never its speed (nothing here
# is timed; the figures live in docs/performance.md).

# The CSV reader and writer: malformed input rejected with a reason,
# statistics, speedups and noise.
check_PROGRAMS += tests/bench/test_bench_csv
tests_bench_test_bench_csv_SOURCES = tests/bench/test_bench_csv.c
tests_bench_test_bench_csv_LDADD = bench/libps_bench.la core/libpstencil.la -lm
tests_bench_test_bench_csv_LDFLAGS = $(PS_BENCH_LINK)
TESTS += tests/bench/test_bench_csv
# The machine description: hwloc and /sys agree; thread placement recorded.
check_PROGRAMS += tests/bench/test_bench_topo
tests_bench_test_bench_topo_SOURCES = tests/bench/test_bench_topo.c
tests_bench_test_bench_topo_CFLAGS = $(AM_CFLAGS) $(OPENMP_CFLAGS) $(HWLOC_CFLAGS)
tests_bench_test_bench_topo_LDADD = bench/libps_bench.la core/libpstencil.la -lm
tests_bench_test_bench_topo_LDFLAGS = $(PS_BENCH_LINK)
TESTS += tests/bench/test_bench_topo
# pstencil bench: a tiny run writes a CSV with the course's columns, a JSON
# and PNG plots; bad options fail with the reason.
TESTS += tests/bench/cli.sh
# The NumPy baseline (both variants) equals the reference backend bitwise.
TESTS += tests/bench/numpy.sh
# bench --roofline measures its cache-resident sweeps and names the stencil.
TESTS += tests/bench/roofline.sh
# bench --repeat 1 reports the spread as n/a, not 0.0 %.
TESTS += tests/bench/repeat1.sh

EXTRA_DIST += tests/bench/cli.sh tests/bench/numpy.sh tests/bench/roofline.sh \
	tests/bench/repeat1.sh

# bench/: the benchmark's measurement library (built into libpstencil as a
# convenience library so the STREAM-like copy gets OpenMP and keeps its loop),
# the benchmark plots, the NumPy baseline and `make bench`.
noinst_LTLIBRARIES += bench/libps_bench.la
bench_libps_bench_la_SOURCES = core/ps_bench.c core/ps_stream.c core/ps_bench.h
bench_libps_bench_la_CFLAGS = $(AM_CFLAGS) -O3 -ftree-vectorize -fno-tree-loop-distribute-patterns $(OPENMP_CFLAGS)
PS_BUILTIN_LIBS += bench/libps_bench.la
pkginclude_HEADERS += core/ps_bench.h
# Plots (PLplot cairo); the file compiles to a stub without PLplot.
core_libpstencil_la_SOURCES += io/ps_plot_bench.c

# make bench: NumPy baseline side by side with pstencil on the same input.
dist_noinst_SCRIPTS += bench/run-bench.sh bench/numpy_baseline.py bench/bench_report.py
.PHONY: bench
bench: all
	PYTHON3='$(PYTHON3)' PSTENCIL_PLUGIN_PATH='$(abs_top_builddir)/backends/opencl/.libs:$(abs_top_builddir)/backends/cuda/.libs:$(abs_top_builddir)/backends/hip/.libs' \
	  $(SHELL) $(srcdir)/bench/run-bench.sh $(abs_top_builddir)/cli/pstencil $(BENCH_ARGS)

# The performance report and its plots.


# gpu_bench: per-step time, copy bound and validation of any backend through
# the library API (tests/gpu/run-on-gpu.sh runs it on GPU machines).
noinst_PROGRAMS += bench/gpu_bench
bench_gpu_bench_SOURCES = bench/gpu_bench.c
bench_gpu_bench_LDADD = core/libpstencil.la -lm

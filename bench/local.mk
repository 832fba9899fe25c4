# bench/: the benchmark layer, above every library: the measurement code
# behind `pstencil bench` (machine description, STREAM-like copy bound, CSV
# and JSON rows) and its plots (PLplot; a stub without it), as a convenience
# library linked into the program and the benchmark tests (not installed);
# gpu_bench, the NumPy baseline and `make bench`.
noinst_LTLIBRARIES += bench/libps_bench.la
bench_libps_bench_la_SOURCES = bench/ps_bench.c bench/ps_stream.c bench/ps_roofline.c bench/ps_bench_plot.c \
	bench/ps_bench_decomp.c bench/ps_bench_stencils.c bench/ps_bench.h
# -O3 and OpenMP so the STREAM-like copy gets threads and keeps its loop
# (PS_BENCH_OPT_CFLAGS: those of -O3 -ftree-vectorize
# -fno-tree-loop-distribute-patterns -fno-trapping-math the compiler takes,
# probed by configure; without -fno-trapping-math gcc keeps the roofline's NaN
# selects and its division as branches on targets without masked division)
bench_libps_bench_la_CFLAGS = $(AM_CFLAGS) $(PS_BENCH_OPT_CFLAGS) \
	$(OPENMP_CFLAGS) $(PLPLOT_CFLAGS) $(HWLOC_CFLAGS)
bench_libps_bench_la_LIBADD = $(PLPLOT_LIBS) $(HWLOC_LIBS)
# the machine description and where threads run: hwloc where configure found it
bench_libps_bench_la_SOURCES += bench/ps_topo.c
# what a program linking bench/libps_bench.la adds (OpenMP for the copy loop)
PS_BENCH_LINK = $(OPENMP_CFLAGS)

# make bench: NumPy baseline side by side with pstencil on the same input.
dist_noinst_SCRIPTS += bench/run-bench.sh bench/numpy_baseline.py bench/bench_report.py
.PHONY: bench
bench: all
	PYTHON3='$(PYTHON3)' PSTENCIL_PLUGIN_PATH='$(abs_top_builddir)/backends/opencl/.libs:$(abs_top_builddir)/backends/cuda/.libs:$(abs_top_builddir)/backends/hip/.libs' \
	  $(SHELL) $(srcdir)/bench/run-bench.sh $(abs_top_builddir)/cli/pstencil $(BENCH_ARGS)

# gpu_bench: per-step time, copy bound and validation of any backend through
# the library API (tests/gpu/run-on-gpu.sh runs it on GPU machines; its
# direct build compiles it with -DPS_GPU_BENCH_NO_IO against the engine only).
noinst_PROGRAMS += bench/gpu_bench
bench_gpu_bench_SOURCES = bench/gpu_bench.c
bench_gpu_bench_LDADD = validate/libpstencil-validate.la io/libpstencil-io.la core/libpstencil.la -lm

# bench/mpi-scaling.sh (./configure --enable-mpi): strong and weak scaling
# under mpirun, a table and a PLplot figure drawn by mpi_scaling_plot.
dist_noinst_SCRIPTS += bench/mpi-scaling.sh
if PS_HAVE_PLPLOT
noinst_PROGRAMS += bench/mpi_scaling_plot
bench_mpi_scaling_plot_SOURCES = bench/mpi_scaling_plot.c
bench_mpi_scaling_plot_CFLAGS = $(AM_CFLAGS) $(PLPLOT_CFLAGS)
bench_mpi_scaling_plot_LDADD = core/libpstencil.la $(PLPLOT_LIBS)
endif

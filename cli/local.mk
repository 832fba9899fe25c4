# cli/: the pstencil program, the top layer: links every library.
bin_PROGRAMS += cli/pstencil
cli_pstencil_SOURCES = cli/main.c cli/ps_cli.c cli/ps_cli.h \
	cli/cmd_run.c cli/ps_run_args.c cli/ps_run_args.h cli/ps_run_front.c cli/cmd_stencils.c cli/ps_run_report.c cli/ps_run_report.h cli/cmd_gen.c \
	cli/ps_run_restart.c cli/ps_run_restart.h \
	cli/cmd_summary.c cli/cmd_compare.c cli/cmd_backends.c cli/cmd_validate.c cli/cmd_bench.c cli/cmd_bench_decomp.c \
	cli/cmd_plot_bench.c cli/cmd_plot.c cli/cmd_tune.c
cli_pstencil_CFLAGS = $(AM_CFLAGS) $(NETCDF_CFLAGS) $(PLPLOT_CFLAGS)
cli_pstencil_LDADD = bench/libps_bench.la validate/libpstencil-validate.la \
	plot/libpstencil-plot.la job/libpstencil-job.la io/libpstencil-io.la core/libpstencil.la -lm
cli_pstencil_LDFLAGS = $(PS_BENCH_LINK)

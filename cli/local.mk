# The pstencil program.
bin_PROGRAMS += cli/pstencil
cli_pstencil_SOURCES = cli/main.c cli/ps_cli.c cli/ps_cli.h \
	cli/cmd_run.c cli/cmd_stencils.c cli/ps_run_report.c cli/ps_run_report.h cli/cmd_gen.c cli/cmd_summary.c cli/cmd_compare.c \
	cli/cmd_backends.c cli/cmd_validate.c cli/cmd_bench.c cli/cmd_plot.c
cli_pstencil_CFLAGS = $(AM_CFLAGS) $(NETCDF_CFLAGS) $(PLPLOT_CFLAGS)
cli_pstencil_LDADD = core/libpstencil.la -lm

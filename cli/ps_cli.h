/*
 * Internal to the pstencil program: subcommand entry points and helpers for
 * option parsing and error reporting.
 *
 * Exit codes: 0 ok, 1 differ (compare/validate found differences),
 * 2 usage or input error.
 */
#ifndef PS_CLI_H
#define PS_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "pstencil_io.h"
#include "pstencil_job.h"
#include "ps_outfile.h"

enum { PS_EXIT_OK = 0, PS_EXIT_DIFFER = 1, PS_EXIT_USAGE = 2, PS_EXIT_BLOWUP = 3 };

/** The command line as typed (for the history attribute). */
extern const char *ps_cli_cmdline;

/** Print "pstencil: error: ..." on stderr; returns PS_EXIT_USAGE. */
int ps_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/**
 * A failed write of @p out: on a full disk or a file-size limit (@p err, the
 * errno after the failure, or almost no space left) print "no space left on
 * device (wrote X of about Y bytes)" (@p wrote, @p want: -1 if unknown), else
 * the status message. Returns PS_EXIT_USAGE.
 */
int ps_cli_write_error(int st, const char *out, int err, long long wrote, long long want);

/** Print "pstencil: error: <what>: <strerror>: <detail>" for a status; returns PS_EXIT_USAGE. */
int ps_cli_status_error(int status, const char *what);

/** Print "pstencil: warning: ..." on stderr. */
void ps_cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/** Parse an integer option value in [min, max]; error message names the option. */
int ps_cli_parse_long(const char *opt, const char *s, long min, long max, long *out);

/**
 * @p v with the fewest significant digits that read back as @p v (so a
 * message shows 1.0000001, not 1, next to a bound of 1), in @p buf; returns
 * @p buf.
 */
const char *ps_cli_num(double v, char *buf, size_t n);

/** Parse a finite double option value. */
int ps_cli_parse_double(const char *opt, const char *s, double *out);

/** Parse a comma-separated list of doubles (max n); returns count or -1. */
int ps_cli_parse_double_list(const char *opt, const char *s, double *out, int n);

/**
 * Parse a memory size: a positive number with an optional unit K, M, G or T
 * (powers of 1024; "KB", "KiB" and a trailing "B" accepted), or "none" /
 * "unlimited" (*out = 0). Error message names the option.
 */
int ps_cli_parse_size(const char *opt, const char *s, uint64_t *out);

/** Parse a comma-separated list of longs (max n, each >= min); returns count or -1. */
int ps_cli_parse_long_list(const char *opt, const char *s, long min, long *out, int n);

struct option;
/**
 * The message for getopt_long()'s ':' (an option without its value) or '?'
 * (an unknown or ambiguous option, or a value given to a flag, told apart
 * with the option table @p opts) in subcommand @p cmd (parsed with opterr = 0
 * and a leading ':' in the short options); returns PS_EXIT_USAGE.
 */
int ps_cli_getopt_error(const char *cmd, int c, char **argv, const struct option *opts);

/** Whether stderr is a terminal (progress bars only then). */
int ps_cli_isatty(void);

/* Subcommands: argv[0] is the subcommand name. */
int ps_cmd_run(int argc, char **argv);
#ifdef PS_HAVE_MPI
/* `pstencil run` under MPI (cli/cmd_run_mpi.c; ./configure --enable-mpi) */
int ps_cmd_run_mpi(int argc, char **argv);
/* nonzero when run should be the MPI run: started by mpirun/mpiexec/srun, or --decomp given */
int ps_cmd_run_mpi_wanted(int argc, char **argv);
#endif
int ps_cmd_stencils(int argc, char **argv);
int ps_cmd_gen(int argc, char **argv);
int ps_cmd_summary(int argc, char **argv);
int ps_cmd_compare(int argc, char **argv);
int ps_cmd_backends(int argc, char **argv);
int ps_cmd_validate(int argc, char **argv);
int ps_cmd_bench(int argc, char **argv);
/** `pstencil bench --memory | --decomp` (cli/cmd_bench_decomp.c). */
int ps_cmd_bench_decomp(int argc, char **argv);
int ps_cmd_plot(int argc, char **argv);
/** `pstencil tune`: the openmp backend's tuning cache (cli/cmd_tune.c). */
int ps_cmd_tune(int argc, char **argv);
int ps_cmd_plot_bench(int argc, char **argv); /* `pstencil plot bench` (cmd_plot_bench.c) */

struct ps_bench_row;
/**
 * Draw the benchmark plots of @p rows into @p dir and list them; existing
 * plots are replaced only with @p force (cmd_plot_bench.c).
 */
int ps_cli_bench_plots(struct ps_bench_row *rows, int n, const char *dir, const char *format,
                       int log_axes, const char *title, int force);

/** Check before any work that the plots can be written into @p dir (cmd_plot_bench.c). */
int ps_cli_bench_plots_check(const char *dir, const char *format, int force);

#endif

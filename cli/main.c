/* pstencil: the command-line program. Dispatches to subcommands. */
#include "config.h"
#include "ps_cli.h"

#include <stdlib.h>
#include <unistd.h>
#include <string.h>

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *help;
} ps_commands[] = {
    {"run", ps_cmd_run, "run a stencil on a NetCDF file (or the built-in ocean)"},
    {"stencils", ps_cmd_stencils, "list the stencils, their options and backends' fast paths"},
    {"gen", ps_cmd_gen, "write the built-in ocean as a CF NetCDF file"},
    {"summary", ps_cmd_summary, "summary statistics of a NetCDF temperature file"},
    {"compare", ps_cmd_compare, "compare two NetCDF files cell by cell"},
    {"backends", ps_cmd_backends, "list backends and devices, and why any cannot run"},
    {"validate", ps_cmd_validate, "validate every backend against the reference"},
    {"bench", ps_cmd_bench, "benchmark backends: step and grid scaling, plots"},
    {"tune", ps_cmd_tune, "measure the openmp backend's fused steps and tiles, cache the best"},
    {"plot", ps_cmd_plot, "slice images, difference maps, interactive HTML"},
};

/* Every exit status of the program, in one place: `pstencil --help` prints
 * it and the man page's EXIT STATUS is made from that (tools/man-page.sh). */
static const struct {
    int code;
    const char *meaning;
} ps_exit_codes[] = {
    {PS_EXIT_OK, "success"},
    {PS_EXIT_DIFFER, "the compared results differ (compare, validate)"},
    {PS_EXIT_USAGE, "usage or input error: \"pstencil: error: ...\" names it, no output left"},
    {PS_EXIT_BLOWUP, "the run blew up (a non-finite ocean cell): nothing written"},
    {128 + 1, "stopped by SIGHUP"},
    {128 + 2, "stopped by SIGINT"},
    {128 + 15, "stopped by SIGTERM (a run keeps the records it completed before a signal)"},
};

static void usage(FILE *f)
{
    size_t i;
    fprintf(f, "Usage: pstencil COMMAND [OPTIONS]\n\n"
               "A portable multi-backend stencil framework for ocean temperature diffusion.\n\n"
               "Commands:\n");
    for (i = 0; i < sizeof ps_commands / sizeof ps_commands[0]; i++)
        fprintf(f, "  %-10s %s\n", ps_commands[i].name, ps_commands[i].help);
    fprintf(f, "\nBackends: %s ('pstencil backends' says which run here).\n"
               "'pstencil COMMAND --help' describes each command.\n"
               "Options: --help, --version\n"
               "Every command that reads a file also takes --max-expansion RATIO|none: how\n"
               "many times its size a compressed input may expand into a float32 field\n"
               "(default %.0f; beyond it the file is refused as a likely compression bomb).\n",
            ps_backend_names(), PS_MAX_EXPANSION_DEFAULT);
    fprintf(f, "\nExit status:\n");
    for (i = 0; i < sizeof ps_exit_codes / sizeof ps_exit_codes[0]; i++)
        fprintf(f, "  %-4d %s\n", ps_exit_codes[i].code, ps_exit_codes[i].meaning);
}

/*
 * The options every command that reads a file takes, removed from argv
 * before the command parses the rest: --max-expansion RATIO|none (or
 * --max-expansion=...). Returns PS_EXIT_OK or, after the message,
 * PS_EXIT_USAGE.
 */
static int common_options(int *argc, char **argv)
{
    int i, o = 1;
    ps_open_options opts = {0};
    for (i = 1; i < *argc; i++) {
        const char *v = NULL, *a = argv[i];
        if (!strcmp(a, "--"))
            break;
        if (!strcmp(a, "--max-expansion")) {
            if (i + 1 >= *argc)
                return ps_cli_error("option --max-expansion needs a value (a ratio, or none)");
            v = argv[++i];
        } else if (!strncmp(a, "--max-expansion=", 16)) {
            v = a + 16;
        } else {
            argv[o++] = argv[i];
            continue;
        }
        if (!strcmp(v, "none") || !strcmp(v, "unlimited")) {
            opts.max_expansion = -1;
        } else {
            double r;
            if (ps_cli_parse_double("--max-expansion", v, &r))
                return PS_EXIT_USAGE;
            if (!(r >= 1))
                return ps_cli_error("--max-expansion %s: must be at least 1 (or none)", v);
            opts.max_expansion = r;
        }
    }
    for (; i < *argc; i++)
        argv[o++] = argv[i];
    argv[o] = NULL;
    *argc = o;
    ps_dataset_set_default_options(&opts);
    return PS_EXIT_OK;
}

static char *join_cmdline(int argc, char **argv)
{
    size_t len = 1;
    int i;
    char *s;
    for (i = 0; i < argc; i++)
        len += strlen(argv[i]) + 1;
    s = malloc(len);
    if (!s)
        return NULL;
    s[0] = '\0';
    for (i = 0; i < argc; i++) {
        if (i)
            strcat(s, " ");
        strcat(s, argv[i]);
    }
    return s;
}

int main(int argc, char **argv)
{
    size_t i;
    char *cmdline;
    int rc;
    if (argc < 2) {
        usage(stderr);
        return PS_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return PS_EXIT_OK;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
        /* the library's version; the program's too when they differ (a stale library) */
        if (strcmp(ps_version(), PACKAGE_VERSION))
            printf("pstencil %s (program %s)\n", ps_version(), PACKAGE_VERSION);
        else
            printf("pstencil %s\n", ps_version());
        return PS_EXIT_OK;
    }
    /* SIGINT/SIGTERM/SIGHUP remove the temporary files being written and exit
     * 130/143/129 with one line (core/ps_outfile.h) */
    ps_signals_install("pstencil");
    /* OMP_NUM_THREADS is read by the OpenMP runtime itself, past --threads: a count
     * beyond PS_THREADS_MAX kills it at the first parallel region, so every command
     * refuses it before it starts */
    if (ps_threads_env_check())
        return ps_cli_error("%s", ps_error_detail());
    cmdline = join_cmdline(argc, argv);
    if (cmdline)
        ps_cli_cmdline = cmdline;
    if (common_options(&argc, argv)) {
        free(cmdline);
        return PS_EXIT_USAGE;
    }
    for (i = 0; i < sizeof ps_commands / sizeof ps_commands[0]; i++)
        if (!strcmp(argv[1], ps_commands[i].name)) {
            rc = ps_commands[i].fn(argc - 1, argv + 1);
            free(cmdline);
            if (ps_writer_close_failed()) {
                /* a netCDF close failed (full disk): HDF5's exit handler would crash on
                 * the broken file it keeps; the temporary file is already removed */
                fflush(NULL);
                _exit(rc);
            }
            return rc;
        }
    free(cmdline);
    ps_cli_error("unknown command '%s' (try 'pstencil --help')", argv[1]);
    return PS_EXIT_USAGE;
}

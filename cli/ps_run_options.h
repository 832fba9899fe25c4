/*
 * Internal to the pstencil program: the options 'pstencil run' has both in one
 * process (cli/cmd_run.c) and under MPI (cli/cmd_run_mpi.c). One list of their
 * getopt_long rows and values, so the two commands spell, alias and number
 * them alike; each command adds its own rows after PS_RUN_SHARED_OPTIONS and
 * numbers its own long-only options from PS_RUN_OPT_OWN.
 */
#ifndef PS_RUN_OPTIONS_H
#define PS_RUN_OPTIONS_H

#include <getopt.h>

/** getopt_long values of the shared long-only options. */
enum {
    PS_RUN_OPT_VAR = 256,
    PS_RUN_OPT_TIME,
    PS_RUN_OPT_EVERY,
    PS_RUN_OPT_MODE,
    PS_RUN_OPT_DATAFILE,
    PS_RUN_OPT_NOPROGRESS,
    PS_RUN_OPT_KEEPNF,
    PS_RUN_OPT_HALO,
    PS_RUN_OPT_OWN /**< the first value free for a command's own options */
};

/** The shared rows of the option table (short options o:n:s:p:b:d:t:fq). */
#define PS_RUN_SHARED_OPTIONS                                                   \
    {"output", required_argument, NULL, 'o'},                                   \
    {"steps", required_argument, NULL, 'n'},                                    \
    {"num_timesteps", required_argument, NULL, 'n'},                            \
    {"num-timesteps", required_argument, NULL, 'n'},                            \
    {"data-file", required_argument, NULL, PS_RUN_OPT_DATAFILE},                \
    {"data_file", required_argument, NULL, PS_RUN_OPT_DATAFILE},                \
    {"stencil", required_argument, NULL, 's'},                                  \
    {"precision", required_argument, NULL, 'p'},                                \
    {"mode", required_argument, NULL, PS_RUN_OPT_MODE},                         \
    {"backend", required_argument, NULL, 'b'},                                  \
    {"device", required_argument, NULL, 'd'},                                   \
    {"threads", required_argument, NULL, 't'},                                  \
    {"var", required_argument, NULL, PS_RUN_OPT_VAR},                           \
    {"time-index", required_argument, NULL, PS_RUN_OPT_TIME},                   \
    {"output-every", required_argument, NULL, PS_RUN_OPT_EVERY},                \
    {"force", no_argument, NULL, 'f'},                                          \
    {"keep-nonfinite", no_argument, NULL, PS_RUN_OPT_KEEPNF},                   \
    {"halo", required_argument, NULL, PS_RUN_OPT_HALO},                         \
    {"quiet", no_argument, NULL, 'q'},                                          \
    {"no-progress", no_argument, NULL, PS_RUN_OPT_NOPROGRESS}

#endif
